//! `ladder solve bidding`: the exact solution of the bidding game, for people
//! (text) and tools (`--json`). The command's options are the bidding game's
//! own, parsed here; the catalogue hands over the words after the game's name.

use std::fmt::Write as _;

use clap::Parser;
use serde::Serialize;

use super::{
    solver::{Solution, State, Value, MOST_MONEY},
    Bidding, BiddingParams,
};
use crate::{
    core::{
        error::Error,
        seat::{BySeat, Seat},
    },
    games::solve_args::{self, Parsed},
    Game,
};

/// Solve the bidding game exactly and print the solution.
///
/// With a state: its value and the bids that win or hold the draw for each player. Without: the start value,
/// a table of the least money with which player 1 forces a win, and counts of won and drawn states.
#[derive(Debug, Parser)]
#[command(name = "ladder solve bidding")]
struct SolveArgs {
    /// The bottle's position (default: the start).
    #[arg(long)]
    position: Option<u32>,
    /// Player 1's money (default: the budget).
    #[arg(long)]
    money1: Option<u32>,
    /// Player 2's money (default: the budget).
    #[arg(long)]
    money2: Option<u32>,
    /// Who wins a tie: 1 or 2.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    advantage: Option<u8>,
    /// Each player's budget (the game's `money`), up to 5000.
    #[arg(long, default_value_t = 100)]
    money: u32,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

/// `ladder solve bidding ARGS...`: the text to print, or why not.
pub fn command(args: &[String]) -> Result<String, Error> {
    let a: SolveArgs = match solve_args::parse("ladder solve bidding", args)? {
        Parsed::Args(a) => a,
        Parsed::Help(text) => return Ok(text),
    };
    let params = BiddingParams {
        money: a.money,
        ..BiddingParams::default()
    };
    Bidding::new(&params).map_err(|e| Error::Usage(e.to_string()))?;
    if a.money > MOST_MONEY {
        return Err(Error::Usage(format!(
            "--money {}: the solver takes budgets up to {MOST_MONEY} (its time grows with \
             the square of the money: about 20 s at {MOST_MONEY})",
            a.money
        )));
    }
    let st = state_of(
        a.position.unwrap_or(params.start),
        a.money1.unwrap_or(a.money),
        a.money2.unwrap_or(a.money),
        a.advantage.unwrap_or(1),
    );
    if st.position > params.length || st.money.first > a.money || st.money.second > a.money {
        return Err(Error::Usage(format!(
            "the state must have position 0..={} and money 0..={} each (use --money for larger budgets)",
            params.length, a.money
        )));
    }
    if let Some(result) = finished(&st, params.length) {
        return Ok(if a.json {
            let v = serde_json::json!({
                "position": st.position,
                "money": [st.money.first, st.money.second],
                "game_over": result,
            });
            serde_json::to_string_pretty(&v).expect("serializes") + "\n"
        } else {
            format!(
                "position {}, money {} and {}: the game is over: {result}; there is nothing to bid\n",
                st.position, st.money.first, st.money.second
            )
        });
    }
    let solution = Solution::solve(BySeat::new(a.money, a.money), params.length);
    let any_state =
        a.position.is_some() || a.money1.is_some() || a.money2.is_some() || a.advantage.is_some();
    Ok(if any_state {
        state(&solution, &st, a.json)
    } else {
        overview(&solution, &st, a.json)
    })
}

/// How a finished state ended, or `None` while there is still a game to play.
fn finished(st: &State, length: u32) -> Option<&'static str> {
    if st.position == 0 {
        Some("player 1 has won")
    } else if st.position >= length {
        Some("player 2 has won")
    } else if st.money.first == 0 && st.money.second == 0 {
        Some("a draw, both players are broke")
    } else {
        None
    }
}

/// Bids as ranges: `[3, 4, 5, 9]` is `3-5, 9`.
pub fn ranges(bids: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < bids.len() {
        let start = bids[i];
        while i + 1 < bids.len() && bids[i + 1] == bids[i] + 1 {
            i += 1;
        }
        out.push(if bids[i] == start {
            start.to_string()
        } else {
            format!("{start}-{}", bids[i])
        });
        i += 1;
    }
    out.join(", ")
}

#[derive(Serialize)]
struct StateReport {
    position: u32,
    money: [u32; 2],
    advantage: u8,
    value: Value,
    secure_bids: [String; 2],
}

fn state_report(solution: &Solution, st: &State) -> StateReport {
    let secure = Seat::ALL.map(|seat| ranges(&solution.secure_bids(st, seat)));
    StateReport {
        position: st.position,
        money: [st.money.first, st.money.second],
        advantage: st.advantage.number(),
        value: solution.value(st),
        secure_bids: secure,
    }
}

/// One state: its value and each player's bids that secure it.
pub fn state(solution: &Solution, st: &State, json: bool) -> String {
    let r = state_report(solution, st);
    if json {
        return serde_json::to_string_pretty(&r).expect("serializes") + "\n";
    }
    format!(
        "position {}, money {} and {}, advantage player {}: {}\n{}{}",
        r.position,
        r.money[0],
        r.money[1],
        r.advantage,
        r.value,
        secure_line(1, r.value, &r.secure_bids[0]),
        secure_line(2, r.value, &r.secure_bids[1]),
    )
}

/// What player `n`'s bids `bids` (ranges) do against best play, said from
/// that player's side of `value`: the bids that win or hold the draw, or
/// that every bid loses.
fn secure_line(n: u8, value: Value, bids: &str) -> String {
    let wins = match value {
        Value::Player1Wins => Some(1),
        Value::Player2Wins => Some(2),
        Value::Draw => None,
    };
    match wins {
        Some(w) if w == n => format!("bids that win for player {n}: {bids}\n"),
        Some(_) => format!("player {n} loses whatever it bids ({bids}) against best play\n"),
        None => format!("bids that hold the draw for player {n}: {bids}\n"),
    }
}

/// Opponent budgets shown in the threshold table.
fn opponent_columns(money: u32) -> Vec<u32> {
    let mut cols: Vec<u32> = [money, money / 2, money / 5, money / 10]
        .into_iter()
        .filter(|&m| m > 0)
        .collect();
    cols.dedup();
    cols
}

#[derive(Serialize)]
struct Threshold {
    position: u32,
    opponent_money: u32,
    advantage: u8,
    least_money_to_win: Option<u32>,
}

#[derive(Serialize)]
struct Overview {
    money: u32,
    length: u32,
    start: StateReport,
    pure_bids_suffice: bool,
    states: Counts,
    thresholds: Vec<Threshold>,
}

#[derive(Serialize)]
struct Counts {
    player1_wins: u64,
    player2_wins: u64,
    draw: u64,
}

/// The start value, the threshold table and the state counts.
pub fn overview(solution: &Solution, start: &State, json: bool) -> String {
    let money = solution.max_money.first;
    let cols = opponent_columns(solution.max_money.second);
    let mut thresholds = Vec::new();
    for advantage in Seat::ALL {
        for position in 1..solution.length {
            for &opponent in &cols {
                thresholds.push(Threshold {
                    position,
                    opponent_money: opponent,
                    advantage: advantage.number(),
                    least_money_to_win: solution.threshold(position, opponent, advantage),
                });
            }
        }
    }
    let (p1, p2, d) = solution.counts();
    let o = Overview {
        money,
        length: solution.length,
        start: state_report(solution, start),
        pure_bids_suffice: solution.is_determined(),
        states: Counts {
            player1_wins: p1,
            player2_wins: p2,
            draw: d,
        },
        thresholds,
    };
    if json {
        return serde_json::to_string_pretty(&o).expect("serializes") + "\n";
    }
    let mut out = state(solution, start, false);
    let _ = writeln!(
        out,
        "\npure bids suffice in every state: {}\nstates with money left: {} won by player 1, {} won by player 2, {} drawn",
        if o.pure_bids_suffice { "yes" } else { "no" },
        p1,
        p2,
        d
    );
    for advantage in Seat::ALL {
        let _ = writeln!(
            out,
            "\nthe least money with which player 1 forces a win (player {} holds the advantage; - : none up to {money})",
            advantage.number()
        );
        let mut table = comfy_table::Table::new();
        table.load_preset(comfy_table::presets::ASCII_MARKDOWN);
        let mut header = vec!["position".to_string()];
        header.extend(cols.iter().map(|c| format!("vs {c}")));
        table.set_header(header);
        for position in 1..solution.length {
            let mut row = vec![position.to_string()];
            for &opponent in &cols {
                row.push(
                    solution
                        .threshold(position, opponent, advantage)
                        .map_or("-".to_string(), |m| m.to_string()),
                );
            }
            table.add_row(row);
        }
        let _ = writeln!(out, "{table}");
    }
    out
}

/// A state from the command line's numbers.
pub fn state_of(position: u32, money1: u32, money2: u32, advantage: u8) -> State {
    State {
        position,
        money: BySeat::new(money1, money2),
        advantage: if advantage == 2 {
            Seat::Second
        } else {
            Seat::First
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bid_ranges() {
        assert_eq!(ranges(&[3, 4, 5, 9]), "3-5, 9");
        assert_eq!(ranges(&[1]), "1");
        assert_eq!(ranges(&[]), "");
        assert_eq!(ranges(&[10, 11, 12, 13, 14, 15, 16]), "10-16");
    }
}
