//! The equilibrium of one troops round: the zero-sum matrix game of every
//! split against every split (66 pure splits of 10 troops), the payoff being
//! the round's points margin (own points minus the opponent's, -6..=6),
//! solved by linear programming ([`crate::games::zero_sum`]). The game is
//! symmetric, so its value is a margin of 0: 3 points of the round's 6.
//!
//! Playing the one-round equilibrium every round guarantees a non-negative
//! expected margin against any opponent, in every round; `nash` does that.

use std::sync::Arc;

use super::{all_splits, split_points, Split};
use crate::games::{cache::Cache, zero_sum};

/// The most troops `nash` solves for: (n+1)(n+2)/2 splits, 231 at 20
/// (solved in about a second; 40 troops would take 15 s).
pub const MAX_NASH_TROOPS: u32 = 20;

/// A solved round.
#[derive(Debug)]
pub struct Equilibrium {
    /// The troops each side splits.
    pub troops: u32,
    /// Every split of the troops, in lexicographic order.
    pub splits: Vec<Split>,
    /// The margin matrix: `margin[i][j]` is split i's margin against split j.
    pub margin: Vec<Vec<f64>>,
    /// The equilibrium (the same mix serves both seats: the game is symmetric).
    pub solution: zero_sum::Solution,
}

impl Equilibrium {
    /// Solves the round for `troops` troops.
    pub fn solve(troops: u32) -> Equilibrium {
        let splits = all_splits(troops);
        let margin: Vec<Vec<f64>> = splits
            .iter()
            .map(|&a| {
                splits
                    .iter()
                    .map(|&b| {
                        let p = split_points(a, b);
                        f64::from(p.first - p.second)
                    })
                    .collect()
            })
            .collect();
        // symmetric: one LP gives both players' mix
        let (_, mix) = zero_sum::maximin(&margin);
        // The rules treat the three fields alike, so the mix averaged over
        // the six orders of the fields is an equilibrium too: it is the one
        // played and printed (a split and its permutations equally likely).
        let index = |s: [u32; 3]| splits.iter().position(|x| x.0 == s).expect("a split");
        let symmetric: Vec<f64> = splits
            .iter()
            .map(|s| {
                let [a, b, c] = s.0;
                [
                    [a, b, c],
                    [a, c, b],
                    [b, a, c],
                    [b, c, a],
                    [c, a, b],
                    [c, b, a],
                ]
                .iter()
                .map(|&perm| mix[index(perm)])
                .sum::<f64>()
                    / 6.0
            })
            .collect();
        let solution = zero_sum::Solution::symmetric(symmetric);
        Equilibrium {
            troops,
            splits,
            margin,
            solution,
        }
    }

    /// The round solved for `troops`, once per process.
    pub fn shared(troops: u32) -> Arc<Equilibrium> {
        static SOLVED: Cache<u32, Equilibrium> = Cache::new();
        SOLVED.get(troops, || Equilibrium::solve(troops))
    }

    /// How much the best pure reply to the mix gains beyond the value.
    pub fn exploitability(&self) -> f64 {
        self.solution.exploitability(&self.margin).0
    }

    /// The splits played with positive probability, with their probabilities,
    /// most likely first (ties in split order).
    pub fn support(&self) -> Vec<(Split, f64)> {
        let mut mix: Vec<(Split, f64)> = self
            .splits
            .iter()
            .copied()
            .zip(self.solution.row.iter().copied())
            .filter(|&(_, p)| p > 1e-12)
            .collect();
        mix.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0 .0.cmp(&b.0 .0)));
        mix
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_round_is_solved_to_round_off() {
        let e = Equilibrium::solve(10);
        assert_eq!(e.splits.len(), 66);
        assert!(
            e.solution.value.abs() < 1e-9,
            "symmetric: value 0, got {}",
            e.solution.value
        );
        let gain = e.exploitability();
        assert!(gain < 1e-9, "a best reply gains {gain}");
        // the measure is not 0 by construction: the uniform mix over the
        // splits is exploitable
        let uniform = zero_sum::Solution::symmetric(vec![1.0 / 66.0; 66]);
        assert!(uniform.exploitability(&e.margin).0 > 0.1);
        let total: f64 = e.solution.row.iter().sum();
        assert!((total - 1.0).abs() < 1e-12);
        // the balanced split is beaten by some pure split, so the mix avoids
        // playing it alone (a pure equilibrium would make the mix one split)
        assert!(e.support().len() > 1, "{:?}", e.support());
        // symmetric over the fields: a split and its permutations are equally likely
        let p = |s: [u32; 3]| e.solution.row[e.splits.iter().position(|x| x.0 == s).unwrap()];
        for (split, q) in e.support() {
            let [a, b, c] = split.0;
            for perm in [[a, c, b], [b, a, c], [b, c, a], [c, a, b], [c, b, a]] {
                assert!(
                    (p(perm) - q).abs() < 1e-12,
                    "{split} {q} vs {perm:?} {}",
                    p(perm)
                );
            }
        }
    }

    #[test]
    fn small_rounds_have_known_values() {
        for troops in 1..=12 {
            let e = Equilibrium::solve(troops);
            assert!(e.solution.value.abs() < 1e-9, "{troops}");
            assert!(
                e.exploitability() < 1e-9,
                "{troops}: {}",
                e.exploitability()
            );
        }
        // one troop: each side wins a field 2:0 or all three tie, so every
        // split has margin 0 against every split
        let e = Equilibrium::solve(1);
        assert!(e.margin.iter().flatten().all(|&m| m == 0.0), "{e:?}");
    }
}
