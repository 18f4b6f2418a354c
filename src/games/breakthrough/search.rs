//! The `search` bot's engine: alpha-beta (negamax) with iterative deepening,
//! a transposition table, move ordering and an evaluation of material,
//! advancement, runners and home-row defence.
//!
//! Its budget is a number of nodes per move, so a game is the same on any
//! machine and at any load; with `use_clock` it also stops at a share of the
//! referee's clock (then it is no longer reproducible). It keeps the best
//! move of the deepest finished iteration.
//!
//! Two rules of the game make exact tactics cheap, and the search uses them
//! at every node: a side to move with a piece one step from its goal row
//! wins at once (a piece there always has a diagonal step: no own piece can
//! be on the goal row); and a side whose opponent has such a piece must
//! capture it now or lose, so only those captures are searched.
//! Scores within [`WIN`] of a bound are proven wins and losses.

use std::time::{Duration, Instant};

use super::{Board, Breakthrough, Step};
use crate::{core::clock::deadline_after, Game, Seat, TimeLeft};

/// The score of a win now; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are proven wins (or, negated, losses).
pub const PROVEN: i32 = WIN - 1_000;

/// A transposition-table entry.
#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    best: Option<Step>,
    score: i32,
    depth: i8,
    bound: Bound,
}

#[derive(Copy, Clone, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Exact,
    /// The score is at least this (a cut-off above beta).
    Lower,
    /// The score is at most this (no move reached alpha).
    Upper,
}

/// Random keys for hashing positions (Zobrist), fixed at compile time.
const ZOBRIST: [[u64; 64]; 2] = zobrist_keys();
const BLACK_TO_MOVE: u64 = 0x9E37_79B9_7F4A_7C15;

const fn zobrist_keys() -> [[u64; 64]; 2] {
    let mut keys = [[0u64; 64]; 2];
    let mut state: u64 = 0x1234_5678_9ABC_DEF0;
    let mut i = 0;
    while i < 128 {
        // SplitMix64
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        keys[i / 64][i % 64] = z ^ (z >> 31);
        i += 1;
    }
    keys
}

/// The hash of a position.
pub fn key(g: &Breakthrough) -> u64 {
    let mut k = if g.to_move == Seat::Second {
        BLACK_TO_MOVE
    } else {
        0
    };
    for (side, mut bits) in [(0, g.pieces.first), (1, g.pieces.second)] {
        while bits != 0 {
            k ^= ZOBRIST[side][bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
    }
    k
}

/// A piece of `seat` one step from its goal row.
pub fn runners(g: &Breakthrough, seat: Seat) -> u64 {
    let b = g.board;
    let row = match seat {
        Seat::First => b.height - 2,
        Seat::Second => 1,
    };
    g.pieces[seat] & (((1u64 << b.width) - 1) << (8 * row))
}

/// The cells from which a piece of `seat` attacks `square`.
fn attackers_of(board: &Board, seat: Seat, square: u8) -> u64 {
    let (row, col) = (square / 8, square % 8);
    let from_row = match seat {
        Seat::First if row > 0 => row - 1,
        Seat::Second if row + 1 < board.height => row + 1,
        _ => return 0,
    };
    let mut cells = 0;
    if col > 0 {
        cells |= 1u64 << (8 * from_row + col - 1);
    }
    if col + 1 < board.width {
        cells |= 1u64 << (8 * from_row + col + 1);
    }
    cells
}

/// The moves worth searching when the opponent threatens to win next move:
/// the captures of its only runner, or none when it cannot be stopped.
pub fn forced_replies(g: &Breakthrough, seat: Seat, threats: u64) -> Vec<Step> {
    if threats.count_ones() > 1 {
        return Vec::new();
    }
    let target = threats.trailing_zeros() as u8;
    let mut from = attackers_of(&g.board, seat, target) & g.pieces[seat];
    let mut out = Vec::new();
    while from != 0 {
        out.push(Step {
            from: from.trailing_zeros() as u8,
            to: target,
        });
        from &= from - 1;
    }
    out
}

/// The static evaluation of `g` for the side to move.
pub fn evaluate(g: &Breakthrough) -> i32 {
    let me = g.to_move;
    side_score(g, me) - side_score(g, me.other())
}

/// One side's share of the evaluation.
fn side_score(g: &Breakthrough, seat: Seat) -> i32 {
    let b = &g.board;
    let own = g.pieces[seat];
    let enemy = g.pieces[seat.other()];
    let h = i32::from(b.height);
    let defended = g.attacks(seat);
    let attacked = g.attacks(seat.other());
    let mut score = 0;
    let mut bits = own;
    while bits != 0 {
        let sq = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        let p = i32::from(b.progress(seat, sq));
        // material, and advancement growing toward the goal
        score += 100 + p * p * 40 / (h * h / 4).max(1);
        let cell = 1u64 << sq;
        if attacked & cell != 0 && defended & cell == 0 {
            score -= 25 + 4 * p;
        }
        // a runner nobody can intercept: no enemy piece in the cone ahead
        if p >= h / 2 && cone(b, seat, sq) & enemy == 0 {
            score += 60 + 40 * p;
        }
    }
    // home-row defence: pieces still on the home row, the full row best
    let home = own & b.home(seat, 1);
    score += 12 * home.count_ones() as i32;
    if home == b.home(seat, 1) {
        score += 20;
    }
    score
}

/// The cells ahead of a piece of `seat` on `square` from which an enemy
/// piece could still reach it or its path: rows ahead, widening by one
/// column each row.
fn cone(b: &Board, seat: Seat, square: u8) -> u64 {
    let (row, col) = (i32::from(square / 8), i32::from(square % 8));
    let (step, ahead) = match seat {
        Seat::First => (1, i32::from(b.height) - 1 - row),
        Seat::Second => (-1, row),
    };
    let mut cells = 0u64;
    for spread in 1..=ahead {
        let r = row + step * spread;
        for c in (col - spread).max(0)..=(col + spread).min(i32::from(b.width) - 1) {
            cells |= 1u64 << (8 * r + c);
        }
    }
    cells
}

/// A search with its table, counters and limits.
pub struct Searcher {
    table: Vec<Entry>,
    /// Per side, per from-square and to-square: how often a move caused a cut-off.
    history: Box<[[[u32; 64]; 64]; 2]>,
    killers: Vec<[Option<Step>; 2]>,
    nodes: u64,
    budget: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub best: Step,
    pub score: i32,
    /// The deepest finished iteration.
    pub depth: u32,
    pub nodes: u64,
}

impl Searcher {
    /// A searcher with a table of `2^bits` entries.
    pub fn new(bits: u32) -> Searcher {
        Searcher {
            table: vec![Entry::default(); 1 << bits],
            history: Box::new([[[0; 64]; 64]; 2]),
            killers: vec![[None; 2]; 128],
            nodes: 0,
            budget: 0,
            deadline: None,
            stopped: false,
        }
    }

    /// The best move for the side to move within `nodes` nodes (and, with
    /// `clock`, a tenth of the time the referee allows), searching the root moves in the
    /// order of `root` first. `None` when the game is over.
    pub fn search(
        &mut self,
        g: &Breakthrough,
        root: Vec<Step>,
        nodes: u64,
        clock: Option<TimeLeft>,
    ) -> Option<Found> {
        if g.winner().is_some() || root.is_empty() {
            return None;
        }
        self.nodes = 0;
        self.budget = nodes;
        self.stopped = false;
        // a tenth of what the referee allows: safe under a per-move limit,
        // and a game clock shrinks by a tenth a move
        self.deadline =
            clock.map(|t| deadline_after((t.budget / 10).max(Duration::from_millis(1))));
        for h in self.history.iter_mut().flatten().flatten() {
            *h /= 8;
        }
        let mut order = root;
        let mut found = Found {
            best: order[0],
            score: 0,
            depth: 0,
            nodes: 0,
        };
        for depth in 1..=100u32 {
            let mut best: Option<(Step, i32)> = None;
            let mut alpha = -WIN - 1;
            for i in 0..order.len() {
                let m = order[i];
                let mut next = g.clone();
                next.play(m);
                let score = -self.negamax(&next, depth as i32 - 1, -WIN - 1, -alpha, 1);
                if self.stopped {
                    break;
                }
                if best.is_none_or(|(_, s)| score > s) {
                    best = Some((m, score));
                    alpha = alpha.max(score);
                    // the best move first in the next iteration
                    order[..=i].rotate_right(1);
                }
            }
            if self.stopped {
                break;
            }
            let (m, score) = best.expect("at least one root move");
            found = Found {
                best: m,
                score,
                depth,
                nodes: self.nodes,
            };
            if score.abs() > PROVEN {
                break;
            }
        }
        found.nodes = self.nodes;
        Some(found)
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.budget {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(1024) {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    fn negamax(
        &mut self,
        g: &Breakthrough,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let me = g.to_move;
        let ply_i = ply as i32;
        if g.winner().is_some() {
            // the side that just moved has won
            return -(WIN - ply_i);
        }
        if runners(g, me) != 0 {
            return WIN - ply_i - 1;
        }
        let threats = runners(g, me.other());
        let forced = threats != 0;
        let mut moves = if forced {
            let replies = forced_replies(g, me, threats);
            if replies.is_empty() {
                return -(WIN - ply_i - 2);
            }
            replies
        } else {
            if depth <= 0 {
                return evaluate(g);
            }
            g.legal_moves(me)
        };
        let depth = if forced { depth.max(1) } else { depth };

        let k = key(g);
        let slot = (k as usize) & (self.table.len() - 1);
        let entry = self.table[slot];
        let mut tt_move = None;
        if entry.key == k {
            tt_move = entry.best;
            if i32::from(entry.depth) >= depth {
                let s = from_table(entry.score, ply_i);
                match entry.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }

        self.order(g, &mut moves, tt_move, ply);
        let alpha0 = alpha;
        let mut best_score = -WIN - 1;
        let mut best_move = moves[0];
        for m in moves {
            let mut next = g.clone();
            next.play(m);
            let score = -self.negamax(&next, depth - 1, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = m;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                let enemy = g.pieces[me.other()];
                if enemy & (1u64 << m.to) == 0 {
                    let killers = &mut self.killers[ply.min(127)];
                    if killers[0] != Some(m) {
                        killers[1] = killers[0];
                        killers[0] = Some(m);
                    }
                    let h = &mut self.history[me.index()][m.from as usize][m.to as usize];
                    *h = h.saturating_add((depth * depth) as u32);
                }
                break;
            }
        }
        let bound = if best_score <= alpha0 {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[slot] = Entry {
            key: k,
            best: Some(best_move),
            score: to_table(best_score, ply_i),
            depth: depth.clamp(0, 127) as i8,
            bound,
        };
        best_score
    }

    /// Orders moves: the table's move, captures (of the most advanced enemy
    /// pieces first), killers, then by history.
    fn order(&self, g: &Breakthrough, moves: &mut [Step], tt_move: Option<Step>, ply: usize) {
        let me = g.to_move;
        let enemy = g.pieces[me.other()];
        let killers = self.killers[ply.min(127)];
        let history = &self.history[me.index()];
        let b = g.board;
        moves.sort_by_cached_key(|&m| {
            let rank: i64 = if Some(m) == tt_move {
                4_000_000_000
            } else if enemy & (1u64 << m.to) != 0 {
                3_000_000_000 + i64::from(b.progress(me.other(), m.to)) * 1000
            } else if killers.contains(&Some(m)) {
                2_000_000_000
            } else {
                i64::from(history[m.from as usize][m.to as usize]) + i64::from(b.progress(me, m.to))
            };
            std::cmp::Reverse(rank)
        });
    }
}

/// Mate scores are stored relative to the node, not the root.
fn to_table(score: i32, ply: i32) -> i32 {
    if score > PROVEN {
        score + ply
    } else if score < -PROVEN {
        score - ply
    } else {
        score
    }
}

fn from_table(score: i32, ply: i32) -> i32 {
    if score > PROVEN {
        score - ply
    } else if score < -PROVEN {
        score + ply
    } else {
        score
    }
}
