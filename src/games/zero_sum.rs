//! Two-player zero-sum matrix games solved exactly enough to play: the
//! equilibrium mixed strategies and value, by linear programming (`microlp`).
//! Troops' `nash` and armies' `equilibrium` are built on it.
//!
//! The row player maximises. Its equilibrium mix `x` and the value `v` solve
//!
//! ```text
//! maximise v  subject to  sum_i x_i A[i][j] >= v for every column j,
//!                         sum_i x_i = 1,  x >= 0
//! ```
//!
//! and the column player's mix solves the same program for `-Aᵀ`. The
//! simplex ends on a vertex, so the mix is exact up to floating-point
//! round-off (about 1e-12 here), well inside the solver's 1e-7 tolerance;
//! [`Solution::exploitability`] measures it.

use microlp::{ComparisonOp, OptimizationDirection, Problem};
use rand::Rng as _;

use crate::Rng;

/// An equilibrium of a matrix game.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The row player's expected payoff under equilibrium play.
    pub value: f64,
    /// The row player's equilibrium mix, one probability per row.
    pub row: Vec<f64>,
    /// The column player's equilibrium mix, one probability per column.
    pub column: Vec<f64>,
}

/// Solves the zero-sum game with payoffs `a[i][j]` to the row player (who
/// picks `i`). Every row must have the same, non-zero length.
pub fn solve(a: &[Vec<f64>]) -> Solution {
    let row = maximin(a);
    let transposed: Vec<Vec<f64>> = (0..a[0].len())
        .map(|j| a.iter().map(|r| -r[j]).collect())
        .collect();
    let column = maximin(&transposed);
    Solution {
        value: row.0,
        row: row.1,
        column: column.1,
    }
}

/// The row player's guaranteed value and a mix that guarantees it (half
/// of [`solve`], for callers that need only the row player's side).
pub fn maximin(a: &[Vec<f64>]) -> (f64, Vec<f64>) {
    let (rows, columns) = (a.len(), a[0].len());
    // Shift payoffs to be positive, so the value variable stays in a small
    // positive range; subtract the shift afterwards.
    let low = a.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    let shift = 1.0 - low;
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let x: Vec<_> = (0..rows).map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    let v = lp.add_var(1.0, (0.0, f64::INFINITY));
    for j in 0..columns {
        let terms = x
            .iter()
            .zip(a)
            .map(|(&xi, row)| (xi, row[j] + shift))
            .chain([(v, -1.0)]);
        lp.add_constraint(terms, ComparisonOp::Ge, 0.0);
    }
    lp.add_constraint(x.iter().map(|&xi| (xi, 1.0)), ComparisonOp::Eq, 1.0);
    let solution = lp
        .solve()
        .ok()
        .and_then(|outcome| outcome.into_solution().ok())
        .expect("a matrix game always has a bounded, feasible maximin program");
    let mut mix: Vec<f64> = x
        .iter()
        .map(|&xi| solution.var_value(xi).max(0.0))
        .collect();
    let total: f64 = mix.iter().sum();
    mix.iter_mut().for_each(|p| *p /= total);
    // The value the mix really guarantees, from the mix itself.
    (guaranteed(a, &mix), mix)
}

/// The row mix's worst expected payoff over the columns.
fn guaranteed(a: &[Vec<f64>], mix: &[f64]) -> f64 {
    (0..a[0].len())
        .map(|j| (0..a.len()).map(|i| mix[i] * a[i][j]).sum::<f64>())
        .fold(f64::INFINITY, f64::min)
}

impl Solution {
    /// The solution of a symmetric game (`a` = -`a`ᵀ) from a mix both
    /// players play: the value of such a game is 0, so
    /// [`Solution::exploitability`] measures how far the mix is from an
    /// equilibrium.
    pub fn symmetric(mix: Vec<f64>) -> Solution {
        Solution {
            value: 0.0,
            row: mix.clone(),
            column: mix,
        }
    }

    /// How much a best pure reply gains against each mix beyond the value:
    /// `(gain against the row mix, gain against the column mix)`. Both are 0
    /// for an exact equilibrium.
    pub fn exploitability(&self, a: &[Vec<f64>]) -> (f64, f64) {
        let against_row = (0..a[0].len())
            .map(|j| self.value - (0..a.len()).map(|i| self.row[i] * a[i][j]).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max);
        let against_column = a
            .iter()
            .map(|r| r.iter().zip(&self.column).map(|(p, q)| p * q).sum::<f64>() - self.value)
            .fold(f64::NEG_INFINITY, f64::max);
        (against_row, against_column)
    }
}

/// An index drawn from the mix `p` (probabilities summing to 1).
pub fn sample(p: &[f64], rng: &mut Rng) -> usize {
    let mut r: f64 = rng.random::<f64>();
    for (i, &pi) in p.iter().enumerate() {
        if r < pi {
            return i;
        }
        r -= pi;
    }
    // round-off: the last strategy with positive probability
    p.iter().rposition(|&pi| pi > 0.0).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_pennies_and_rock_paper_scissors() {
        let pennies = vec![vec![1.0, -1.0], vec![-1.0, 1.0]];
        let s = solve(&pennies);
        assert!(s.value.abs() < 1e-12);
        assert!(s.row.iter().all(|p| (p - 0.5).abs() < 1e-12), "{s:?}");

        let rps = vec![
            vec![0.0, -1.0, 1.0],
            vec![1.0, 0.0, -1.0],
            vec![-1.0, 1.0, 0.0],
        ];
        let s = solve(&rps);
        assert!(s.row.iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-12), "{s:?}");
        assert!(s.column.iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-12));
    }

    #[test]
    fn a_saddle_point_and_a_non_square_game() {
        // row 1 dominates; column 0 is the column player's best reply
        let s = solve(&[vec![1.0, 3.0], vec![2.0, 4.0]]);
        assert!((s.value - 2.0).abs() < 1e-12);
        assert!((s.row[1] - 1.0).abs() < 1e-12 && (s.column[0] - 1.0).abs() < 1e-12);

        // a 2x3 game with value 1/2 (textbook: Ferguson, Game Theory, II.3)
        let a = vec![vec![0.0, 1.0, 2.0], vec![1.0, 0.0, -1.0]];
        let s = solve(&a);
        let (r, c) = s.exploitability(&a);
        assert!(r < 1e-12 && c < 1e-12, "{s:?}");
        assert!((s.value - 0.5).abs() < 1e-12, "{s:?}");
    }

    #[test]
    fn sampling_follows_the_mix() {
        use rand::SeedableRng;
        let mut rng = Rng::seed_from_u64(1);
        let p = [0.25, 0.0, 0.75];
        let mut counts = [0; 3];
        for _ in 0..40_000 {
            counts[sample(&p, &mut rng)] += 1;
        }
        assert_eq!(counts[1], 0);
        assert!(
            (counts[0] as f64 / 40_000.0 - 0.25).abs() < 0.01,
            "{counts:?}"
        );
    }
}
