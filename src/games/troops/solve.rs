//! `ladder solve troops`: the equilibrium of one round, for people (text)
//! and tools (`--json`).

use std::fmt::Write as _;

use clap::Parser;
use serde::Serialize;

use super::{
    equilibrium::{Equilibrium, MAX_NASH_TROOPS},
    Split, Troops, TroopsParams,
};
use crate::{
    core::error::Error,
    games::solve_args::{self, round_off, Parsed},
    Game,
};

/// Solve one round of troops (Colonel Blotto) exactly: its value and an
/// equilibrium mix of splits (the one `nash` plays).
#[derive(Debug, Parser)]
#[command(name = "ladder solve troops")]
struct SolveArgs {
    /// The troops each player splits (the game's `troops`).
    #[arg(long, default_value_t = 10)]
    troops: u32,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    troops: u32,
    splits: usize,
    /// Expected points per round (of 6) under equilibrium play.
    value_points: f64,
    /// Expected points margin per round (0: the game is symmetric).
    value_margin: f64,
    /// What the best pure reply to the mix gains beyond the value.
    exploitability: f64,
    mix: Vec<Entry>,
}

#[derive(Serialize)]
struct Entry {
    split: String,
    probability: f64,
}

/// `ladder solve troops ARGS...`: the text to print, or why not.
pub fn command(args: &[String]) -> Result<String, Error> {
    let a: SolveArgs = match solve_args::parse("ladder solve troops", args)? {
        Parsed::Args(a) => a,
        Parsed::Help(text) => return Ok(text),
    };
    Troops::new(&TroopsParams {
        troops: a.troops,
        ..TroopsParams::default()
    })
    .map_err(|e| Error::Usage(e.to_string()))?;
    if a.troops > MAX_NASH_TROOPS {
        return Err(Error::Usage(format!(
            "the solver takes up to {MAX_NASH_TROOPS} troops, not {}",
            a.troops
        )));
    }
    let e = Equilibrium::shared(a.troops);
    let margin = round_off(e.solution.value, 1e-12);
    let report = Report {
        troops: a.troops,
        splits: e.splits.len(),
        value_points: 3.0 + margin / 2.0,
        value_margin: margin,
        exploitability: round_off(e.exploitability(), 1e-12),
        mix: e
            .support()
            .into_iter()
            .map(|(split, p)| Entry {
                split: split.to_string(),
                probability: p,
            })
            .collect(),
    };
    if a.json {
        return Ok(serde_json::to_string_pretty(&report).expect("serializes") + "\n");
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "troops {}: {} splits; value per round {:.3} points of 6 (margin {:.3}: the game is symmetric)",
        report.troops, report.splits, report.value_points, report.value_margin
    );
    let _ = writeln!(
        s,
        "an equilibrium mix over {} splits (a best reply gains {:.1e}), each split in every order of the fields:",
        report.mix.len(),
        report.exploitability
    );
    let _ = writeln!(
        s,
        "  {:>8}  {:>6}  {:>11}  {:>6}",
        "split", "orders", "probability", "total"
    );
    for (split, orders, p) in by_shape(&e.support()) {
        let total = p * orders as f64;
        let _ = writeln!(s, "  {split:>8}  {orders:>6}  {p:>11.4}  {total:>6.4}");
    }
    Ok(s)
}

/// The mix grouped by the split's shape (its numbers largest first): each
/// shape with its number of orders and the probability of each order,
/// most likely first. The equilibrium gives every order the same probability.
fn by_shape(mix: &[(Split, f64)]) -> Vec<(String, usize, f64)> {
    let mut shapes: Vec<([u32; 3], usize, f64)> = Vec::new();
    for &(split, p) in mix {
        let mut shape = split.0;
        shape.sort_unstable_by(|a, b| b.cmp(a));
        match shapes.iter_mut().find(|(s, _, _)| *s == shape) {
            Some(entry) => entry.1 += 1,
            None => shapes.push((shape, 1, p)),
        }
    }
    shapes.sort_by(|a, b| {
        (b.2 * b.1 as f64)
            .total_cmp(&(a.2 * a.1 as f64))
            .then(a.0.cmp(&b.0))
    });
    shapes
        .into_iter()
        .map(|(shape, orders, p)| (Split(shape).to_string(), orders, p))
        .collect()
}
