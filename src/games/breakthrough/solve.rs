//! Small boards solved: `ladder solve breakthrough --width W --height H`
//! proves which player wins with perfect play, by a depth-first proof
//! search over the game tree with a table of proven positions.
//!
//! A position is won for the side to move if some move leads to a position
//! lost for the opponent. The rules used by `search` prune the tree: a side
//! with a piece one step from its goal wins at once, and a side facing such
//! a piece must capture it (two such pieces, or one it cannot capture, lose).
//! Moves are tried most promising first by `search`'s evaluation, so a win
//! is usually found by the first move tried. The result is exact; the node
//! count and time say what it cost.

use std::{collections::HashMap, fmt::Write as _, time::Instant};

use clap::Parser;
use serde::Serialize;

use super::{
    search::{evaluate, forced_replies, runners},
    Breakthrough, BreakthroughParams, Step,
};
use crate::{
    core::error::Error,
    games::solve_args::{self, Parsed},
    Game, Seat,
};

/// The largest board the command tries (cells): beyond it the proof takes
/// longer than anyone will wait.
pub const MAX_CELLS: u32 = 30;

/// A proof search with its table of proven positions.
#[derive(Default)]
pub struct Prover {
    /// (white, black, black to move) -> whether the side to move wins.
    proven: HashMap<(u64, u64, bool), bool>,
    pub nodes: u64,
    /// How many nodes one proof may take (none: no limit).
    budget: Option<u64>,
    /// The node count at which the proof under way gives up.
    stop_at: Option<u64>,
    gave_up: bool,
}

impl Prover {
    /// A prover that gives up after `budget` nodes of one proof.
    pub fn with_limit(budget: u64) -> Prover {
        Prover {
            budget: Some(budget),
            ..Prover::default()
        }
    }

    /// Whether the side to move in `g` wins with perfect play, or `None` if
    /// the proof needs more nodes than the budget. Positions proven before
    /// giving up stay proven.
    pub fn try_wins(&mut self, g: &Breakthrough) -> Option<bool> {
        self.stop_at = self.budget.map(|b| self.nodes.saturating_add(b));
        self.gave_up = false;
        let won = self.wins(g);
        (!self.gave_up).then_some(won)
    }

    /// [`Prover::try_wins`] for a prover without a budget.
    pub fn proves_win(&mut self, g: &Breakthrough) -> bool {
        debug_assert!(self.budget.is_none());
        self.try_wins(g).expect("no budget, no giving up")
    }

    /// Whether the side to move in `g` wins (meaningless once the proof
    /// has given up: `try_wins` says so).
    fn wins(&mut self, g: &Breakthrough) -> bool {
        self.nodes += 1;
        if self.stop_at.is_some_and(|l| self.nodes > l) {
            self.gave_up = true;
        }
        if self.gave_up {
            return false;
        }
        if g.winner().is_some() {
            return false; // the side that just moved has won
        }
        let me = g.to_move;
        if runners(g, me) != 0 {
            return true;
        }
        let threats = runners(g, me.other());
        let mut moves = if threats != 0 {
            forced_replies(g, me, threats)
        } else {
            g.legal_moves(me)
        };
        if moves.is_empty() {
            return false;
        }
        let key = (g.pieces.first, g.pieces.second, me == Seat::Second);
        if let Some(&won) = self.proven.get(&key) {
            return won;
        }
        let children: Vec<Breakthrough> = {
            let mut scored: Vec<(i32, Breakthrough)> = moves
                .drain(..)
                .map(|m| {
                    let mut next = g.clone();
                    next.play(m);
                    (evaluate(&next), next)
                })
                .collect();
            // the opponent's worst positions first
            scored.sort_by_key(|(score, _)| *score);
            scored.into_iter().map(|(_, next)| next).collect()
        };
        let won = children.iter().any(|next| !self.wins(next));
        if !self.gave_up {
            self.proven.insert(key, won);
        }
        won
    }

    /// The moves of the side to move that keep a won position won (none
    /// when it is lost), or `None` past the limit.
    pub fn winning_moves(&mut self, g: &Breakthrough) -> Option<Vec<Step>> {
        let mut out = Vec::new();
        for m in g.legal_moves(g.to_move) {
            let mut next = g.clone();
            next.play(m);
            if !self.try_wins(&next)? {
                out.push(m);
            }
        }
        Some(out)
    }

    /// Positions proven so far.
    pub fn positions(&self) -> usize {
        self.proven.len()
    }
}

/// Proves who wins breakthrough on a `width` x `height` board.
#[derive(Debug, Parser)]
#[command(name = "ladder solve breakthrough")]
struct SolveArgs {
    /// Columns, 2..=8.
    #[arg(long, default_value_t = 4)]
    width: u32,
    /// Rows, 4..=8.
    #[arg(long, default_value_t = 4)]
    height: u32,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

/// What `ladder solve breakthrough` reports.
#[derive(Debug, Serialize)]
pub struct Report {
    pub width: u32,
    pub height: u32,
    /// 1 (white, who moves first) or 2 (black).
    pub winner: u8,
    /// White's first moves that win (empty when black wins).
    pub winning_first_moves: Vec<String>,
    pub nodes: u64,
    pub positions: usize,
    pub seconds: f64,
}

/// Solves the board.
pub fn solve(width: u32, height: u32) -> Result<Report, Error> {
    let params = BreakthroughParams { width, height };
    let start = Breakthrough::new(&params).map_err(|e| Error::Usage(e.to_string()))?;
    if width * height > MAX_CELLS {
        return Err(Error::Usage(format!(
            "a {width}x{height} board has more than {MAX_CELLS} cells: too large to prove here"
        )));
    }
    let clock = Instant::now();
    let mut prover = Prover::default();
    let white_wins = prover.proves_win(&start);
    let winning = if white_wins {
        prover.winning_moves(&start).expect("no budget")
    } else {
        Vec::new()
    };
    Ok(Report {
        width,
        height,
        winner: if white_wins { 1 } else { 2 },
        winning_first_moves: winning.iter().map(Step::to_string).collect(),
        nodes: prover.nodes,
        positions: prover.positions(),
        seconds: clock.elapsed().as_secs_f64(),
    })
}

/// `ladder solve breakthrough ARGS...`: the text to print, or why not.
pub fn command(args: &[String]) -> Result<String, Error> {
    let a: SolveArgs = match solve_args::parse("ladder solve breakthrough", args)? {
        Parsed::Args(a) => a,
        Parsed::Help(text) => return Ok(text),
    };
    let r = solve(a.width, a.height)?;
    if a.json {
        return Ok(serde_json::to_string_pretty(&r).expect("serializes") + "\n");
    }
    let mut s = String::new();
    let who = if r.winner == 1 {
        "player 1 (white, who moves first)"
    } else {
        "player 2 (black)"
    };
    let _ = writeln!(
        s,
        "breakthrough {}x{}: {who} wins with perfect play",
        r.width, r.height
    );
    if r.winner == 1 {
        let _ = writeln!(
            s,
            "winning first moves: {}",
            r.winning_first_moves.join(" ")
        );
    }
    let _ = writeln!(
        s,
        "proved in {:.2} s: {} nodes, {} positions stored",
        r.seconds, r.nodes, r.positions
    );
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        core::{bot::RandomBot, referee::play_game},
        games::breakthrough::{Greedy, Search, SearchParams},
        Bot, BySeat, GameResult,
    };
    use rand::SeedableRng;

    fn board(width: u32, height: u32) -> crate::games::breakthrough::Board {
        crate::games::breakthrough::Board::new(width as u8, height as u8)
    }

    /// Plain minimax over every legal move, with no pruning rule: the
    /// reference the prover is checked against.
    fn naive(g: &Breakthrough, memo: &mut HashMap<(u64, u64, bool), bool>) -> bool {
        if g.winner().is_some() {
            return false;
        }
        let key = (g.pieces.first, g.pieces.second, g.to_move == Seat::Second);
        if let Some(&w) = memo.get(&key) {
            return w;
        }
        let won = g.legal_moves(g.to_move).into_iter().any(|m| {
            let mut next = g.clone();
            next.play(m);
            !naive(&next, memo)
        });
        memo.insert(key, won);
        won
    }

    #[test]
    fn the_prover_agrees_with_plain_minimax() {
        for (w, h) in [(2, 4), (3, 4), (4, 4), (5, 4), (3, 5), (2, 6)] {
            let start = Breakthrough::start(board(w, h));
            let mut memo = HashMap::new();
            let mut prover = Prover::default();
            assert_eq!(
                prover.proves_win(&start),
                naive(&start, &mut memo),
                "{w}x{h}"
            );
            // and on positions along random games
            let mut rng = crate::Rng::seed_from_u64(u64::from(w * 10 + h));
            for _ in 0..30 {
                let mut g = start.clone();
                while g.winner().is_none() {
                    assert_eq!(
                        prover.proves_win(&g),
                        naive(&g, &mut memo),
                        "{w}x{h}: {}",
                        g.observation(Seat::First)
                    );
                    let m = g.random_move(g.to_move, &mut rng);
                    g.play(m);
                }
            }
        }
    }

    #[test]
    fn small_boards_are_second_player_wins() {
        for (w, h) in [(3, 4), (4, 4), (5, 4), (4, 5)] {
            let r = solve(w, h).unwrap();
            assert_eq!(r.winner, 2, "{w}x{h}: {r:?}");
            assert!(r.winning_first_moves.is_empty());
            assert!(r.nodes > 0 && r.positions > 0);
        }
        assert!(solve(6, 6).is_err(), "too large");
        assert!(solve(1, 4).is_err(), "too narrow");
    }

    #[test]
    fn search_plays_the_proven_result() {
        // in the proven winner's seat, search beats search, greedy and
        // random in the other (3x6 is a first-player win, the rest second)
        for (w, h) in [(3, 4), (4, 4), (5, 4), (4, 5), (3, 5), (3, 6)] {
            let winner = if solve(w, h).unwrap().winner == 1 {
                Seat::First
            } else {
                Seat::Second
            };
            let start = Breakthrough::start(board(w, h));
            type Make = fn() -> Box<dyn Bot<Breakthrough>>;
            let others: [(&str, Make); 3] = [
                ("search", || Box::new(Search::new(&SearchParams::default()))),
                ("greedy", || Box::new(Greedy::default())),
                ("random", || Box::new(RandomBot::new())),
            ];
            for g in 0..10u64 {
                for (name, make) in others {
                    let (mut strong, mut other) = (Search::new(&SearchParams::default()), make());
                    let bots: BySeat<&mut dyn Bot<Breakthrough>> = match winner {
                        Seat::First => BySeat::new(&mut strong, other.as_mut()),
                        Seat::Second => BySeat::new(other.as_mut(), &mut strong),
                    };
                    let p = play_game(&start, bots, BySeat::new(g, g + 1), 1000);
                    assert_eq!(
                        p.result,
                        GameResult::win(winner),
                        "{w}x{h}, game {g}: search in the winning seat lost to {name}"
                    );
                }
            }
        }
    }
}
