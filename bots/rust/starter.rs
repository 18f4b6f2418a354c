//! A starter bot in Rust for ladder's line protocol (docs/PROTOCOL.md).
//!
//! It plays two games, told apart by the greeting:
//! - breakthrough: keeps the board from `new` and `played`; wins at once if
//!   it can, else captures, else steps where no enemy piece can capture,
//!   else takes any step;
//! - troops: the most even split of its troops (3,3,4 for 10), the larger
//!   shares on random fields.
//!
//! Ties are broken by a generator seeded from `new seat=S seed=N`, so the
//! same seed gives the same game. One file and the standard library only.
//!
//! Build and run (from the project root):
//!
//! ```sh
//! rustc --edition 2021 -O -o bots/rust/starter bots/rust/starter.rs
//! ladder match breakthrough "cmd:bots/rust/starter" greedy --games 20
//! ```
use std::io::{self, BufRead, Write};

/// splitmix64: a small, good generator that every language can write alike.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The board, kept from `new` and `played`: `board[row][col]`, row 0 is rank 1.
struct Breakthrough {
    width: usize,
    height: usize,
    board: Vec<Vec<u8>>,
}

impl Breakthrough {
    /// White on the first two rows, black on the last two.
    fn reset(&mut self) {
        self.board = (0..self.height)
            .map(|row| {
                let piece = match row {
                    0 | 1 => b'w',
                    r if r >= self.height - 2 => b'b',
                    _ => b'.',
                };
                vec![piece; self.width]
            })
            .collect();
    }

    /// "b2c3": from b2 to c3; the piece on c3, if any, is captured.
    fn apply(&mut self, step: &str) {
        let b = step.as_bytes();
        let (from_col, from_row) = ((b[0] - b'a') as usize, (b[1] - b'1') as usize);
        let (to_col, to_row) = ((b[2] - b'a') as usize, (b[3] - b'1') as usize);
        self.board[to_row][to_col] = self.board[from_row][from_col];
        self.board[from_row][from_col] = b'.';
    }

    /// Whether a piece of `by` could capture on (row, col).
    fn attacked(&self, row: usize, col: usize, by: u8) -> bool {
        // where such an attacker stands
        let from = if by == b'w' {
            row.checked_sub(1)
        } else {
            Some(row + 1)
        };
        let Some(from) = from.filter(|&f| f < self.height) else {
            return false;
        };
        [col.checked_sub(1), Some(col + 1)]
            .into_iter()
            .flatten()
            .any(|c| c < self.width && self.board[from][c] == by)
    }

    fn choose(&self, me: u8, rng: &mut Random) -> String {
        let enemy = if me == b'w' { b'b' } else { b'w' };
        let goal = if me == b'w' { self.height - 1 } else { 0 };
        let mut ranked: [Vec<String>; 4] = Default::default(); // 3 wins, 2 captures, 1 is safe, 0 any
        for row in 0..self.height {
            let r = if me == b'w' {
                row + 1
            } else {
                row.wrapping_sub(1)
            };
            if r >= self.height {
                continue;
            }
            for col in 0..self.width {
                if self.board[row][col] != me {
                    continue;
                }
                for c in [col.wrapping_sub(1), col, col + 1] {
                    if c >= self.width {
                        continue;
                    }
                    let target = self.board[r][c];
                    if target == me || (c == col && target != b'.') {
                        continue;
                    }
                    let rank = if r == goal {
                        3
                    } else if target == enemy {
                        2
                    } else if self.attacked(r, c, enemy) {
                        0
                    } else {
                        1
                    };
                    ranked[rank].push(format!("{}{}", square(row, col), square(r, c)));
                }
            }
        }
        let best = ranked.iter().rev().find(|steps| !steps.is_empty());
        // no piece left: ladder never asks then
        best.map_or_else(String::new, |steps| steps[rng.below(steps.len())].clone())
    }
}

fn square(row: usize, col: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

fn troops_move(troops: u32, rng: &mut Random) -> String {
    let mut split: Vec<u32> = (0..3)
        .map(|i| troops / 3 + u32::from(i < troops % 3))
        .collect();
    for i in (1..3).rev() {
        split.swap(i, rng.below(i + 1)); // Fisher-Yates
    }
    format!("{},{},{}", split[0], split[1], split[2])
}

fn main() {
    let mut out = io::stdout().lock();
    let mut game = String::new();
    let mut troops = 10;
    let mut breakthrough = Breakthrough {
        width: 8,
        height: 8,
        board: Vec::new(),
    };
    let mut rng = Random(0);
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let answer = match words.first().copied() {
            Some("ladder") => {
                // ladder 2 GAME move_ms=MS KEY=VALUE...
                game = words[2].to_string();
                if game != "breakthrough" && game != "troops" {
                    eprintln!("this bot plays breakthrough and troops, not {game}");
                    std::process::exit(1);
                }
                for (key, value) in words[3..].iter().filter_map(|w| w.split_once('=')) {
                    match key {
                        "width" => breakthrough.width = value.parse().unwrap_or(8),
                        "height" => breakthrough.height = value.parse().unwrap_or(8),
                        "troops" => troops = value.parse().unwrap_or(10),
                        _ => {}
                    }
                }
                Some("ready starter-rust".to_string())
            }
            Some("new") => {
                // new seat=S seed=N
                rng = Random(words[2].trim_start_matches("seed=").parse().unwrap_or(0));
                breakthrough.reset();
                None
            }
            // turn side COLOUR board ROWS, or turn round R of N score S1 S2
            Some("turn") if game == "troops" => Some(troops_move(troops, &mut rng)),
            Some("turn") => {
                let me = if words[2] == "white" { b'w' } else { b'b' };
                Some(breakthrough.choose(me, &mut rng))
            }
            Some("played") => {
                // played MOVE1 MOVE2, `-` for the seat not to move
                if game == "breakthrough" {
                    for step in words[1..3].iter().filter(|&&w| w != "-") {
                        breakthrough.apply(step);
                    }
                }
                None
            }
            Some("over") => Some("ready".to_string()), // ready for the next game
            Some("quit") => break,
            _ => None,
        };
        if let Some(answer) = answer {
            writeln!(out, "{answer}")
                .and_then(|()| out.flush())
                .expect("stdout");
        }
    }
}
