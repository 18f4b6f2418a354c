//! `ladder solve armies`: the value of the game and the first round's
//! equilibrium mix, for people (text) and tools (`--json`).

use std::fmt::Write as _;

use clap::Parser;
use serde::Serialize;

use super::{equilibrium::Equilibrium, Armies, ArmiesParams, Commit};
use crate::{
    core::error::Error,
    games::solve_args::{self, round_off, Parsed},
    Game,
};

/// Solve armies exactly: the expected points margin of the first player
/// under equilibrium play, and the equilibrium mix of a state (the first
/// round by default), the one `equilibrium` plays.
#[derive(Debug, Parser)]
#[command(name = "ladder solve armies")]
struct SolveArgs {
    /// Armies each player starts with (the game's `armies`).
    #[arg(long, default_value_t = 20)]
    armies: u32,
    /// Rounds (the game's `rounds`).
    #[arg(long, default_value_t = 10)]
    rounds: u32,
    /// What happens to committed armies: spend or add.
    #[arg(long, default_value = "spend", value_parser = ["spend", "add"])]
    commit: String,
    /// The round of the state to show (from 1).
    #[arg(long, default_value_t = 1)]
    round: u32,
    /// Player 1's armies in that state (default: the start).
    #[arg(long)]
    armies1: Option<u32>,
    /// Player 2's armies in that state (default: the start).
    #[arg(long)]
    armies2: Option<u32>,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    armies: u32,
    rounds: u32,
    commit: &'static str,
    /// Player 1's expected points margin over the whole game.
    value: f64,
    state: StateReport,
}

#[derive(Serialize)]
struct StateReport {
    round: u32,
    armies: [u32; 2],
    /// Player 1's expected margin from this round on.
    value: f64,
    /// Player 1's equilibrium mix: the commitments it plays.
    mix: Vec<Entry>,
}

#[derive(Serialize)]
struct Entry {
    commit: u32,
    probability: f64,
}

/// `ladder solve armies ARGS...`: the text to print, or why not.
pub fn command(args: &[String]) -> Result<String, Error> {
    let a: SolveArgs = match solve_args::parse("ladder solve armies", args)? {
        Parsed::Args(a) => a,
        Parsed::Help(text) => return Ok(text),
    };
    let commit = if a.commit == "add" {
        Commit::Add
    } else {
        Commit::Spend
    };
    Armies::new(&ArmiesParams {
        armies: a.armies,
        rounds: a.rounds,
        commit,
    })
    .map_err(|e| Error::Usage(e.to_string()))?;
    if a.round == 0 || a.round > a.rounds {
        return Err(Error::Usage(format!("--round must be 1..={}", a.rounds)));
    }
    let held = [a.armies1.unwrap_or(a.armies), a.armies2.unwrap_or(a.armies)];
    let report = match commit {
        Commit::Add => {
            // committing everything is weakly dominant (see equilibrium.rs)
            let left = f64::from(a.rounds - a.round + 1);
            let sign = f64::from(i32::from(held[0] > held[1]) - i32::from(held[0] < held[1]));
            Report {
                armies: a.armies,
                rounds: a.rounds,
                commit: commit.name(),
                value: 0.0,
                state: StateReport {
                    round: a.round,
                    armies: held,
                    value: 2.0 * left * sign,
                    mix: vec![Entry {
                        commit: held[0],
                        probability: 1.0,
                    }],
                },
            }
        }
        Commit::Spend => {
            if held.iter().any(|&h| h > a.armies) {
                return Err(Error::Usage(format!(
                    "--armies1 and --armies2 must be 0..={} (spent armies only shrink)",
                    a.armies
                )));
            }
            let e = Equilibrium::shared(a.armies, a.rounds, commit).map_err(Error::Usage)?;
            let r = a.round - 1;
            let mix = e.mix(r, held[0], held[1]).expect("a solved state");
            Report {
                armies: a.armies,
                rounds: a.rounds,
                commit: commit.name(),
                value: round_off(e.value(0, a.armies, a.armies).expect("the start"), 1e-9),
                state: StateReport {
                    round: a.round,
                    armies: held,
                    value: round_off(e.value(r, held[0], held[1]).expect("a solved state"), 1e-9),
                    mix: (0..)
                        .zip(mix.iter().copied())
                        .filter(|&(_, p)| p > 1e-12)
                        .map(|(commit, probability)| Entry {
                            commit,
                            probability,
                        })
                        .collect(),
                },
            }
        }
    };
    if a.json {
        return Ok(serde_json::to_string_pretty(&report).expect("serializes") + "\n");
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "armies {}, {} rounds, commit = \"{}\": value {:.3} (player 1's expected points margin; the game is symmetric)",
        report.armies, report.rounds, report.commit, report.value
    );
    if commit == Commit::Add {
        let _ = writeln!(
            s,
            "committing everything is weakly dominant when committed armies are added: the equilibrium commits all"
        );
    }
    let st = &report.state;
    let _ = writeln!(
        s,
        "round {} with armies {} and {}: value {:.3}; player 1's equilibrium mix:",
        st.round, st.armies[0], st.armies[1], st.value
    );
    let _ = writeln!(s, "  {:>6}  {:>11}", "commit", "probability");
    for e in &st.mix {
        let _ = writeln!(s, "  {:>6}  {:>11.4}", e.commit, e.probability);
    }
    Ok(s)
}
