//! Armies solved exactly: the value of every state and the equilibrium mix
//! of commitments that `equilibrium` plays.
//!
//! A state is (round, own armies, opponent armies). Its value V is the
//! expected points margin (own points minus the opponent's) of the rest of
//! the game under equilibrium play; after the last round V = 0. Each round
//! is a zero-sum matrix game: committing `c` against `d` is worth the
//! round's margin (2, 0 or -2) plus the value of the state it leads to, so
//!
//! ```text
//! V(r, a, b) = value of the matrix  M[c][d] = margin(c, d) + V(r + 1, a', b')
//! ```
//!
//! with `a' = a - c` under `commit = "spend"` and `a + c` under `"add"`,
//! solved backward from the last round with one LP per state
//! ([`crate::games::zero_sum`]). The game is symmetric: V(r, a, b) =
//! -V(r, b, a), and 0 for equal armies.
//!
//! Under `commit = "add"` committing everything is weakly dominant: it wins
//! or ties the round at least as well as any smaller commitment, and leaves
//! the most armies, and more armies never hurt (the larger holder can copy
//! any plan of the smaller). So the equilibrium commits everything, and from
//! equal armies every round ties. The tests check this against the LP on
//! small games, whose holdings stay small enough to enumerate.

use std::sync::Arc;

use super::Commit;
use crate::games::scoring::round_points;
use crate::games::{cache::Cache, zero_sum};

/// The largest games `equilibrium` solves: states per round times rounds.
/// 20 armies over 10 rounds (the default) is 4,410 states.
pub const MAX_STATES: u64 = 100_000;

/// Every state's value and equilibrium mix.
#[derive(Debug)]
pub struct Equilibrium {
    pub armies: u32,
    pub rounds: u32,
    pub commit: Commit,
    /// The most armies a player can hold at the start of each round.
    caps: Vec<u32>,
    /// Per round, per state `a * (cap + 1) + b`: the value.
    values: Vec<Vec<f64>>,
    /// Per round, per state: the probability of committing 0, 1, ..., a.
    mixes: Vec<Vec<Vec<f64>>>,
}

impl Equilibrium {
    /// The number of states a game has, or `None` when it is too many to count.
    pub fn states(armies: u32, rounds: u32, commit: Commit) -> Option<u64> {
        let mut total: u64 = 0;
        let mut cap = u64::from(armies);
        for _ in 0..rounds {
            total = total.checked_add((cap + 1).checked_mul(cap + 1)?)?;
            if commit == Commit::Add {
                cap = cap.checked_mul(2)?;
            }
        }
        Some(total)
    }

    /// Why the game is too large to solve, if it is.
    pub fn check_size(armies: u32, rounds: u32, commit: Commit) -> Result<(), String> {
        match Equilibrium::states(armies, rounds, commit) {
            Some(n) if n <= MAX_STATES => Ok(()),
            _ => Err(format!(
                "{armies} armies over {rounds} rounds (commit = \"{}\") has more than {MAX_STATES} states to solve",
                commit.name()
            )),
        }
    }

    /// Solves the game, or says why it is too large to.
    pub fn solve(armies: u32, rounds: u32, commit: Commit) -> Result<Equilibrium, String> {
        Equilibrium::check_size(armies, rounds, commit)?;
        let caps: Vec<u32> = (0..=rounds)
            .map(|r| match commit {
                Commit::Spend => armies,
                Commit::Add => armies << r,
            })
            .collect();
        let mut values: Vec<Vec<f64>> = caps
            .iter()
            .map(|&c| vec![0.0; (c as usize + 1).pow(2)])
            .collect();
        let mut mixes: Vec<Vec<Vec<f64>>> = vec![Vec::new(); rounds as usize];
        for r in (0..rounds as usize).rev() {
            let (cap, next_cap) = (caps[r] as usize, caps[r + 1] as usize);
            let mut round_mixes = Vec::with_capacity((cap + 1).pow(2));
            for a in 0..=cap {
                for b in 0..=cap {
                    let after = |own: usize, c: usize| match commit {
                        Commit::Spend => own - c,
                        Commit::Add => own + c,
                    };
                    let matrix: Vec<Vec<f64>> = (0..=a)
                        .map(|c| {
                            (0..=b)
                                .map(|d| {
                                    let p = round_points(c as u32, d as u32);
                                    let next = after(a, c) * (next_cap + 1) + after(b, d);
                                    f64::from(p.first - p.second) + values[r + 1][next]
                                })
                                .collect()
                        })
                        .collect();
                    let (value, mix) = zero_sum::maximin(&matrix);
                    values[r][a * (cap + 1) + b] = value;
                    round_mixes.push(mix);
                }
            }
            mixes[r] = round_mixes;
        }
        Ok(Equilibrium {
            armies,
            rounds,
            commit,
            caps,
            values,
            mixes,
        })
    }

    /// The game solved once per process.
    pub fn shared(armies: u32, rounds: u32, commit: Commit) -> Result<Arc<Equilibrium>, String> {
        static SOLVED: Cache<(u32, u32, Commit), Equilibrium> = Cache::new();
        Equilibrium::check_size(armies, rounds, commit)?;
        Ok(SOLVED.get((armies, rounds, commit), || {
            Equilibrium::solve(armies, rounds, commit).expect("the size was checked")
        }))
    }

    fn index(&self, round: u32, own: u32, opponent: u32) -> Option<usize> {
        let cap = *self.caps.get(round as usize)?;
        (round < self.rounds && own <= cap && opponent <= cap)
            .then(|| own as usize * (cap as usize + 1) + opponent as usize)
    }

    /// The expected margin from round `round` (from 0) on, for the player
    /// holding `own` against `opponent`; `None` outside the solved states.
    pub fn value(&self, round: u32, own: u32, opponent: u32) -> Option<f64> {
        if round == self.rounds {
            return Some(0.0);
        }
        Some(self.values[round as usize][self.index(round, own, opponent)?])
    }

    /// The equilibrium mix of the player holding `own`: the probability of
    /// committing 0, 1, ..., `own`.
    pub fn mix(&self, round: u32, own: u32, opponent: u32) -> Option<&[f64]> {
        Some(&self.mixes[round as usize][self.index(round, own, opponent)?])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The round's matrix at a state, rebuilt from the solved values.
    fn matrix(e: &Equilibrium, r: u32, a: u32, b: u32) -> Vec<Vec<f64>> {
        let after = |own: u32, c: u32| match e.commit {
            Commit::Spend => own - c,
            Commit::Add => own + c,
        };
        (0..=a)
            .map(|c| {
                (0..=b)
                    .map(|d| {
                        let p = round_points(c, d);
                        let next = e.value(r + 1, after(a, c), after(b, d)).unwrap();
                        f64::from(p.first - p.second) + next
                    })
                    .collect()
            })
            .collect()
    }

    fn each_state(e: &Equilibrium) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        (0..e.rounds).flat_map(move |r| {
            let cap = e.caps[r as usize];
            (0..=cap).flat_map(move |a| (0..=cap).map(move |b| (r, a, b)))
        })
    }

    #[test]
    fn the_standard_game_is_symmetric_consistent_and_monotone() {
        let e = Equilibrium::solve(20, 10, Commit::Spend).unwrap();
        assert!(e.value(0, 20, 20).unwrap().abs() < 1e-9);
        for (r, a, b) in each_state(&e) {
            let v = e.value(r, a, b).unwrap();
            let w = e.value(r, b, a).unwrap();
            assert!(
                (v + w).abs() < 1e-9,
                "V({r},{a},{b}) = {v} but V({r},{b},{a}) = {w}"
            );
            if a < e.armies {
                assert!(
                    e.value(r, a + 1, b).unwrap() >= v - 1e-9,
                    "more armies never hurt"
                );
            }
            if r + 1 == e.rounds {
                let last = 2.0 * f64::from(i32::from(a > b) - i32::from(a < b));
                assert!((v - last).abs() < 1e-9, "the last round commits everything");
            }
            // the mix guarantees the value against every reply, and no more
            let m = matrix(&e, r, a, b);
            let mix = e.mix(r, a, b).unwrap();
            assert!((mix.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            let worst = (0..=b as usize)
                .map(|d| m.iter().zip(mix).map(|(row, p)| p * row[d]).sum::<f64>())
                .fold(f64::INFINITY, f64::min);
            assert!(
                (worst - v).abs() < 1e-7,
                "state ({r},{a},{b}): {worst} vs {v}"
            );
            // and the opponent's mix (its own state's) holds every reply of
            // this player to the value: neither side can gain by deviating
            let theirs = e.mix(r, b, a).unwrap();
            let best = m
                .iter()
                .map(|row| row.iter().zip(theirs).map(|(x, q)| q * x).sum::<f64>())
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(
                best <= v + 1e-7,
                "state ({r},{a},{b}): a reply gets {best} > {v}"
            );
        }
    }

    #[test]
    fn adding_armies_means_committing_everything() {
        // holdings double each round under "add": small games only
        for (armies, rounds) in [(1, 3), (2, 3), (3, 2), (2, 4)] {
            let e = Equilibrium::solve(armies, rounds, Commit::Add).unwrap();
            for (r, a, b) in each_state(&e) {
                let v = e.value(r, a, b).unwrap();
                // both all in: the larger holder wins every round left
                let left = f64::from(e.rounds - r);
                let all_in = 2.0 * left * f64::from(i32::from(a > b) - i32::from(a < b));
                assert!(
                    (v - all_in).abs() < 1e-7,
                    "V({r},{a},{b}) = {v}, all in {all_in}"
                );
                // and committing everything guarantees it against any reply
                let m = matrix(&e, r, a, b);
                let worst = m[a as usize].iter().copied().fold(f64::INFINITY, f64::min);
                assert!(
                    worst >= v - 1e-7,
                    "all in at ({r},{a},{b}) gets {worst} < {v}"
                );
            }
        }
    }

    #[test]
    fn too_large_games_are_refused_with_a_reason() {
        let err = Equilibrium::solve(1000, 10, Commit::Spend).unwrap_err();
        assert!(err.contains("more than 100000 states"), "{err}");
        assert!(Equilibrium::solve(20, 60, Commit::Add).is_err());
        assert_eq!(Equilibrium::states(20, 10, Commit::Spend), Some(4410));
    }
}
