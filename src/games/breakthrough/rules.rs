//! Breakthrough on an 8x8 board (the standard rules, as the General Game
//! Playing game and its short rule text give them), or a smaller one.
//!
//! Rules:
//! - White starts on the first two rows, black on the last two: sixteen
//!   pieces each on 8x8. White moves first; the players alternate.
//! - A piece steps one row forward (white up, black down): straight ahead only
//!   into an empty cell, or diagonally into an empty cell or onto an enemy piece,
//!   which is captured. Nothing ever moves onto a friendly piece or captures
//!   straight ahead.
//! - A player wins by reaching the far row (white the last row, black row 1)
//!   or by capturing every enemy piece. Goals: 100 for the winner, 0 for the loser.
//!   A side with pieces always has a move, so there are no draws.
//!
//! Parameters (defaults): `width` (8) columns, 2..=8, and `height` (8)
//! rows, 4..=8. Smaller boards keep the rules and the two home rows each
//! (on a board 4 high the armies start face to face); they are small enough
//! to solve (`ladder solve breakthrough --width 4 --height 5`).
//!
//! Moves are written from-square then to-square, column letter and row number:
//! `b2c3`. Observation: `side white board ROWS` (the side to move), where
//! ROWS is width x height characters (64 on 8x8), the last row first, each
//! row from column a on: `w` white, `b` black, `.` empty.
//!
//! Positions are two bitboards (bit `8 * row + column`, row 0 is row 1, on
//! every board size), so move generation is a few shifts and masks.

use std::{fmt, str::FromStr};

use rand::Rng as _;
use serde::{Deserialize, Serialize};

use crate::{
    core::{
        error::Invalid,
        game::{check_range, list_moves, not_over, Game, IllegalMove},
        seat::{BySeat, Seat},
    },
    show::Show,
    show::{drawing::Drawing, scene::View},
    Rng,
};

/// The board's size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BreakthroughParams {
    pub width: u32,
    pub height: u32,
}

impl Default for BreakthroughParams {
    fn default() -> Self {
        BreakthroughParams {
            width: 8,
            height: 8,
        }
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The masks of one board size.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub width: u8,
    pub height: u8,
    /// Every cell of the board.
    pub cells: u64,
    /// The last column's cells.
    last_file: u64,
    /// White's goal row (the last) and black's (the first).
    goal: BySeat<u64>,
}

impl Board {
    /// The masks of a `width` x `height` board (width 2..=8, height 1..=8).
    pub const fn new(width: u8, height: u8) -> Board {
        let row = (1u64 << width) - 1;
        let mut cells = 0;
        let mut r = 0;
        while r < height {
            cells |= row << (8 * r);
            r += 1;
        }
        Board {
            width,
            height,
            cells,
            last_file: (FILE_A << (width - 1)) & cells,
            goal: BySeat {
                first: row << (8 * (height - 1)),
                second: row,
            },
        }
    }

    /// The standard 8x8 board.
    pub const STANDARD: Board = Board::new(8, 8);

    /// The cells of `seat`'s first `rows` rows from its own side.
    pub fn home(&self, seat: Seat, rows: u8) -> u64 {
        let row = (1u64 << self.width) - 1;
        (0..rows)
            .map(|r| match seat {
                Seat::First => row << (8 * r),
                Seat::Second => row << (8 * (self.height - 1 - r)),
            })
            .fold(0, |a, b| a | b)
    }

    /// How far a piece of `seat` on `square` has come (0 on its own home row).
    pub fn progress(&self, seat: Seat, square: u8) -> u8 {
        match seat {
            Seat::First => square / 8,
            Seat::Second => self.height - 1 - square / 8,
        }
    }
}

/// A step of one piece, by square index (`8 * row + column`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub from: u8,
    pub to: u8,
}

/// Every square's name, `a1` to `h8`, by index: a move's text is two of
/// them (every journal line writes each move, so no text is built).
const SQUARE_NAMES: [[u8; 2]; 64] = {
    let mut names = [[0; 2]; 64];
    let mut i = 0;
    while i < 64 {
        names[i] = [b'a' + (i % 8) as u8, b'1' + (i / 8) as u8];
        i += 1;
    }
    names
};

impl Step {
    /// Its text, the names of its two squares: four bytes, so a journal
    /// line takes it in one copy of a known size.
    fn text(self) -> [u8; 4] {
        let [a, b] = SQUARE_NAMES[self.from as usize];
        let [c, d] = SQUARE_NAMES[self.to as usize];
        [a, b, c, d]
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.text()).expect("square names are ASCII"))
    }
}

fn parse_square(s: &[u8]) -> Option<u8> {
    match s {
        [c @ b'a'..=b'h', r @ b'1'..=b'8'] => Some((r - b'1') * 8 + (c - b'a')),
        _ => None,
    }
}

impl FromStr for Step {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let b = s.as_bytes();
        match (
            b.len(),
            b.get(0..2).and_then(parse_square),
            b.get(2..4).and_then(parse_square),
        ) {
            (4, Some(from), Some(to)) => Ok(Step { from, to }),
            _ => Err(format!(
                "a move is two squares like `b2c3` (column a-h, row 1-8), not `{s}`"
            )),
        }
    }
}

/// A breakthrough position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakthrough {
    pub board: Board,
    /// White's pieces (first seat) and black's (second seat).
    pub pieces: BySeat<u64>,
    pub to_move: Seat,
    winner: Option<Seat>,
}

/// The cells each kind of step lands on, with the square offset back to its origin.
struct Targets {
    straight: u64,
    /// toward column a
    left: u64,
    /// toward column h
    right: u64,
}

impl Breakthrough {
    /// A position on the 8x8 board from bitboards; the winner is worked out
    /// from the pieces.
    pub fn from_pieces(white: u64, black: u64, to_move: Seat) -> Self {
        Breakthrough::on_board(Board::STANDARD, white, black, to_move)
    }

    /// A position on `board` from bitboards (pieces off the board are dropped).
    pub fn on_board(board: Board, white: u64, black: u64, to_move: Seat) -> Self {
        let mut g = Breakthrough {
            board,
            pieces: BySeat::new(white & board.cells, black & board.cells),
            to_move,
            winner: None,
        };
        g.winner = g.find_winner();
        g
    }

    /// The start position of `board`: two home rows each, white to move.
    pub fn start(board: Board) -> Self {
        Breakthrough::on_board(
            board,
            board.home(Seat::First, 2),
            board.home(Seat::Second, 2),
            Seat::First,
        )
    }

    fn find_winner(&self) -> Option<Seat> {
        let (w, b) = (self.pieces.first, self.pieces.second);
        if w & self.board.goal.first != 0 || b == 0 {
            Some(Seat::First)
        } else if b & self.board.goal.second != 0 || w == 0 {
            Some(Seat::Second)
        } else {
            None
        }
    }

    /// The winner, once there is one.
    pub fn winner(&self) -> Option<Seat> {
        self.winner
    }

    fn targets(&self, seat: Seat) -> Targets {
        let own = self.pieces[seat];
        let empty = !(self.pieces.first | self.pieces.second) & self.board.cells;
        let last = self.board.last_file;
        match seat {
            Seat::First => Targets {
                straight: (own << 8) & empty,
                left: ((own & !FILE_A) << 7) & !own,
                right: ((own & !last) << 9) & !own,
            },
            Seat::Second => Targets {
                straight: (own >> 8) & empty,
                left: ((own & !FILE_A) >> 9) & !own,
                right: ((own & !last) >> 7) & !own,
            },
        }
    }

    /// Square offsets `to - from` of the straight, left and right steps of `seat`.
    fn offsets(seat: Seat) -> [i8; 3] {
        match seat {
            Seat::First => [8, 7, 9],
            Seat::Second => [-8, -9, -7],
        }
    }

    /// The cells `seat`'s pieces could capture on (diagonally forward).
    pub fn attacks(&self, seat: Seat) -> u64 {
        let own = self.pieces[seat];
        let last = self.board.last_file;
        let cells = match seat {
            Seat::First => ((own & !FILE_A) << 7) | ((own & !last) << 9),
            Seat::Second => ((own & !FILE_A) >> 9) | ((own & !last) >> 7),
        };
        cells & self.board.cells
    }

    /// Counts the leaf positions `depth` moves ahead (games that end early stop there).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.winner.is_some() {
            return u64::from(depth == 0);
        }
        let moves = self.legal_moves(self.to_move);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|step| {
                let mut next = self.clone();
                next.play(step);
                next.perft(depth - 1)
            })
            .sum()
    }

    /// What stands on a cell, as the observation writes it: `w` white,
    /// `b` black, `.` empty.
    fn cell(&self, row: u8, col: u8) -> char {
        let bit = 1u64 << (row * 8 + col);
        if self.pieces.first & bit != 0 {
            'w'
        } else if self.pieces.second & bit != 0 {
            'b'
        } else {
            '.'
        }
    }

    /// Plays a step of the side to move. Precondition: it passed `check`.
    pub fn play(&mut self, step: Step) {
        let seat = self.to_move;
        let (from, to) = (1u64 << step.from, 1u64 << step.to);
        self.pieces[seat] = (self.pieces[seat] & !from) | to;
        self.pieces[seat.other()] &= !to;
        self.to_move = seat.other();
        self.winner = self.find_winner();
    }
}

fn steps_from(mut targets: u64, offset: i8, out: &mut Vec<Step>) {
    while targets != 0 {
        let to = targets.trailing_zeros() as u8;
        out.push(Step {
            from: (to as i8 - offset) as u8,
            to,
        });
        targets &= targets - 1;
    }
}

/// The index of the `n`-th set bit of `x` (from the lowest).
fn nth_bit(mut x: u64, n: u32) -> u8 {
    for _ in 0..n {
        x &= x - 1;
    }
    x.trailing_zeros() as u8
}

/// The name configs and the command line use.
pub const NAME: &str = "breakthrough";
/// One line for `ladder list games`.
pub const ABOUT: &str =
    "Breakthrough (8x8 or smaller): race a piece to the far row, capturing diagonally";

impl Game for Breakthrough {
    type Move = Step;
    type Params = BreakthroughParams;

    fn new(p: &BreakthroughParams) -> Result<Self, Invalid> {
        check_range("width", p.width, 2..=8)?;
        check_range("height", p.height, 4..=8)?;
        Ok(Breakthrough::start(Board::new(
            p.width as u8,
            p.height as u8,
        )))
    }

    fn name(&self) -> &str {
        NAME
    }

    fn to_act(&self) -> BySeat<bool> {
        let acting = self.winner.is_none();
        BySeat::from_fn(|s| acting && s == self.to_move)
    }

    fn legal_moves(&self, seat: Seat) -> Vec<Step> {
        let mut out = Vec::with_capacity(48);
        if self.winner.is_none() && seat == self.to_move {
            let t = self.targets(seat);
            let [s, l, r] = Breakthrough::offsets(seat);
            steps_from(t.straight, s, &mut out);
            steps_from(t.left, l, &mut out);
            steps_from(t.right, r, &mut out);
        }
        out
    }

    /// Uniform over the legal moves without listing them: every (kind, target)
    /// pair is a distinct move, so draw one of the set bits of the three target sets.
    fn random_move(&self, seat: Seat, rng: &mut Rng) -> Step {
        let t = self.targets(seat);
        let [so, lo, ro] = Breakthrough::offsets(seat);
        let counts = [
            t.straight.count_ones(),
            t.left.count_ones(),
            t.right.count_ones(),
        ];
        let mut k = rng.random_range(0..counts.iter().sum::<u32>());
        for ((set, offset), count) in [(t.straight, so), (t.left, lo), (t.right, ro)]
            .into_iter()
            .zip(counts)
        {
            if k < count {
                let to = nth_bit(set, k);
                return Step {
                    from: (to as i8 - offset) as u8,
                    to,
                };
            }
            k -= count;
        }
        unreachable!("a side with pieces always has a move")
    }

    fn write_move(step: &Step, out: &mut Vec<u8>) {
        out.extend_from_slice(&step.text());
    }

    fn check(&self, seat: Seat, step: &Step) -> Result<(), IllegalMove> {
        if self.winner.is_some() {
            return Err(IllegalMove::new("the game is over"));
        }
        if seat != self.to_move {
            return Err(IllegalMove::new("not this player's turn"));
        }
        let own = self.pieces[seat];
        let enemy = self.pieces[seat.other()];
        let (from, to) = (1u64 << step.from, 1u64 << step.to);
        if self.board.cells & to == 0 {
            return Err(IllegalMove::new(format!(
                "{} is off the {}x{} board",
                &step.to_string()[2..],
                self.board.width,
                self.board.height
            )));
        }
        if own & from == 0 {
            return Err(IllegalMove::new(format!(
                "no own piece on {}",
                &step.to_string()[..2]
            )));
        }
        let forward = match seat {
            Seat::First => 1,
            Seat::Second => -1,
        };
        let rows = i32::from(step.to / 8) - i32::from(step.from / 8);
        let cols = i32::from(step.to % 8) - i32::from(step.from % 8);
        if rows != forward || cols.abs() > 1 {
            return Err(IllegalMove::new(format!(
                "{step} is not one step forward, straight or diagonal"
            )));
        }
        if own & to != 0 {
            return Err(IllegalMove::new(format!(
                "{step} lands on a friendly piece"
            )));
        }
        if cols == 0 && enemy & to != 0 {
            return Err(IllegalMove::new(format!("{step} captures straight ahead")));
        }
        Ok(())
    }

    fn apply(&mut self, moves: &BySeat<Option<Step>>) {
        let step = moves[self.to_move].expect("the side to move moves");
        self.play(step);
    }

    fn outcome(&self) -> Option<BySeat<i32>> {
        self.winner
            .map(|w| BySeat::from_fn(|s| if s == w { 100 } else { 0 }))
    }

    fn max_goal(&self) -> i32 {
        100
    }

    /// `side white board ROWS`, as the observation writes it: the side to
    /// move, then width x height cells, the last row first, each row from
    /// column a: `w`, `b` or `.`.
    fn from_position(p: &BreakthroughParams, text: &str) -> Result<Self, Invalid> {
        let start = Breakthrough::new(p)?;
        let board = start.board;
        let form = "side white|black board ROWS";
        let bad = || Invalid::new(format!("a position is written `{form}`, not `{text}`"));
        let words: Vec<&str> = text.split_whitespace().collect();
        let [side_word, side, board_word, cells] = words[..] else {
            return Err(bad());
        };
        if side_word != "side" || board_word != "board" {
            return Err(bad());
        }
        let to_move = match side {
            "white" => Seat::First,
            "black" => Seat::Second,
            _ => return Err(bad()),
        };
        let (w, h) = (usize::from(board.width), usize::from(board.height));
        if cells.len() != w * h {
            return Err(Invalid::new(format!(
                "a {w}x{h} board has {} cells, the position has {}",
                w * h,
                cells.len()
            )));
        }
        let mut pieces = BySeat::new(0u64, 0u64);
        for (i, c) in cells.bytes().enumerate() {
            let (row, col) = (h - 1 - i / w, i % w);
            let bit = 1u64 << (8 * row + col);
            match c {
                b'w' => pieces.first |= bit,
                b'b' => pieces.second |= bit,
                b'.' => {}
                _ => {
                    return Err(Invalid::new(format!(
                        "a cell is `w`, `b` or `.`, not `{}`",
                        c as char
                    )))
                }
            }
        }
        not_over(Breakthrough::on_board(
            board,
            pieces.first,
            pieces.second,
            to_move,
        ))
    }

    fn write_observation(&self, _seat: Seat, out: &mut String) {
        out.push_str(match self.to_move {
            Seat::First => "side white board ",
            Seat::Second => "side black board ",
        });
        for row in (0..self.board.height).rev() {
            for col in 0..self.board.width {
                out.push(self.cell(row, col));
            }
        }
    }
}

impl Show for Breakthrough {
    /// The board from white's side, the last row first, with file letters:
    /// `W` white, `B` black, `.` empty.
    fn picture(&self) -> String {
        let mut s = String::new();
        for row in (0..self.board.height).rev() {
            s.push_str(&format!("{} ", row + 1));
            for col in 0..self.board.width {
                s.push(' ');
                s.push(self.cell(row, col).to_ascii_uppercase());
            }
            s.push('\n');
        }
        s.push_str("  ");
        for col in 0..self.board.width {
            s.push(' ');
            s.push((b'a' + col) as char);
        }
        s.push('\n');
        s.push_str(match (self.outcome(), self.to_move) {
            (Some(_), _) => "game over",
            (None, Seat::First) => "white (player 1) to move",
            (None, Seat::Second) => "black (player 2) to move",
        });
        s
    }
    /// The board from white's side, the last row at the top, the last
    /// move's two squares marked.
    fn drawing(&self, last: Option<&BySeat<Option<Step>>>) -> Drawing {
        let (width, height) = (self.board.width, self.board.height);
        let rows: Vec<u8> = (0..height).rev().collect();
        let cells = rows
            .iter()
            .map(|&row| {
                (0..width)
                    .map(|col| match self.cell(row, col) {
                        '.' => String::new(),
                        c => c.to_ascii_uppercase().to_string(),
                    })
                    .collect()
            })
            .collect();
        let mut marked = Vec::new();
        if let Some(step) = last.and_then(|t| t.first.or(t.second)) {
            for square in [step.from, step.to] {
                let (row, col) = (square / 8, square % 8);
                marked.push([(height - 1 - row) as usize, col as usize]);
            }
        }
        Drawing::Board {
            cells,
            rows: rows.iter().map(|r| (r + 1).to_string()).collect(),
            columns: (0..width)
                .map(|c| ((b'a' + c) as char).to_string())
                .collect(),
            marked,
            facts: vec![match (self.outcome(), self.to_move) {
                (Some(_), _) => "game over".to_string(),
                (None, Seat::First) => "white (player 1) to move".to_string(),
                (None, Seat::Second) => "black (player 2) to move".to_string(),
            }],
        }
    }
    /// The board from the person's side (white's rows bottom up, black's
    /// top down), coordinates on all four edges, the last move's two squares
    /// in brackets (and coloured on a terminal), and whose turn it is.
    fn scene(&self, view: &View<'_, Step>) -> String {
        let paint = view.paint;
        let (width, height) = (self.board.width, self.board.height);
        let side = |seat: Seat| match seat {
            Seat::First => "white",
            Seat::Second => "black",
        };
        let last: Option<Step> = view.last().and_then(|t| t.first.or(t.second));
        let marked = |row: u8, col: u8| {
            last.is_some_and(|m| m.from == 8 * row + col || m.to == 8 * row + col)
        };
        let rows: Vec<u8> = match view.seat {
            Seat::First => (0..height).rev().collect(),
            Seat::Second => (0..height).collect(),
        };
        let cols: Vec<u8> = match view.seat {
            Seat::First => (0..width).collect(),
            Seat::Second => (0..width).rev().collect(),
        };
        let letters: String = cols
            .iter()
            .map(|&c| format!(" {} ", (b'a' + c) as char))
            .collect();
        let edge = format!("   {}\n", paint.dim(letters.trim_end()));
        let heading = match self.outcome() {
            Some(_) => "Game over".to_string(),
            None => format!(
                "Turn {}: {} ({}) to move",
                view.turns.len() + 1,
                side(self.to_move),
                view.names[self.to_move]
            ),
        };
        let mut s = format!("{}\n{edge}", paint.bold(&heading));
        for &row in &rows {
            s.push_str(&format!("{:>2} ", row + 1));
            for &col in &cols {
                let (piece, owner) = match self.cell(row, col) {
                    'w' => ("W", Some(Seat::First)),
                    'b' => ("B", Some(Seat::Second)),
                    _ => (".", None),
                };
                let piece = match owner {
                    Some(o) if o == view.seat => paint.mine(piece),
                    Some(_) => paint.theirs(piece),
                    None => paint.dim(piece),
                };
                if marked(row, col) {
                    s.push_str(&paint.mark(&format!("[{piece}]")));
                } else {
                    s.push_str(&format!(" {piece} "));
                }
            }
            s.push_str(&format!(" {}\n", row + 1));
        }
        s.push_str(&edge);
        let (you, them) = (view.seat, view.seat.other());
        // said by row numbers, which hold whichever way the board is turned
        let heading_to = |seat: Seat| match seat {
            Seat::First => format!("W, toward row {height}"),
            Seat::Second => "B, toward row 1".to_string(),
        };
        s.push_str(&format!(
            "{} plays {} ({}), {} plays {} ({})\n",
            view.name(you),
            side(you),
            heading_to(you),
            view.name(them),
            side(them),
            heading_to(them),
        ));
        if let Some(last) = view.last() {
            s.push_str(&format!("Last move: {}\n", view.turn_text(last)));
        }
        s
    }
    /// A capture: the square where the side that moved took a piece.
    fn turn_note(&self, before: &Self, turn: &BySeat<Option<Step>>) -> Option<String> {
        let step = turn.first.or(turn.second)?;
        let mover = before.to_move;
        let taken = before.pieces[mover.other()] & !self.pieces[mover.other()];
        (taken != 0).then(|| {
            let square = step.to_string();
            format!("captures on {}", &square[2..])
        })
    }
    fn move_help(&self, seat: Seat) -> String {
        format!(
            "A move is the from-square then the to-square, column letter and row number: \
             a piece steps one row forward, straight into an empty square or diagonally \
             into an empty square or onto an enemy piece, capturing it.\n{}",
            list_moves(&self.legal_moves(seat))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::show::paint::Paint;

    #[test]
    fn every_step_is_written_as_column_and_row_twice_and_reads_back() {
        for from in 0..64u8 {
            for to in 0..64u8 {
                let step = Step { from, to };
                let square = |s: u8| format!("{}{}", (b'a' + s % 8) as char, s / 8 + 1);
                let text = step.to_string();
                assert_eq!(text, square(from) + &square(to));
                assert_eq!(text.parse::<Step>(), Ok(step));
                let mut written = Vec::new();
                Breakthrough::write_move(&step, &mut written);
                assert_eq!(written, text.as_bytes());
            }
        }
    }

    #[test]
    fn the_scene_is_drawn_from_the_persons_side_with_the_last_move_marked() {
        let mut g = Breakthrough::new(&BreakthroughParams {
            width: 3,
            height: 4,
        })
        .unwrap();
        let step: Step = "b2c3".parse().unwrap();
        let turn = BySeat::new(Some(step), None);
        let before = g.clone();
        g.apply(&turn);
        // the armies start face to face: b2c3 takes the black piece on c3
        assert_eq!(
            g.turn_note(&before, &turn).as_deref(),
            Some("captures on c3")
        );
        let quiet = BySeat::new(None, Some("b3b2".parse().unwrap()));
        let mut after = g.clone();
        after.apply(&quiet);
        assert_eq!(after.turn_note(&g, &quiet), None);
        let turns = vec![turn];
        let view = |seat| View {
            seat,
            names: BySeat::new("human", "greedy"),
            turns: &turns,
            paint: Paint::PLAIN,
        };
        // 3x4 with two home rows each: the armies start face to face
        assert_eq!(
            g.scene(&view(Seat::First)),
            "Turn 2: black (greedy) to move\n\
             \x20   a  b  c\n\
             \x204  B  B  B  4\n\
             \x203  B  B [W] 3\n\
             \x202  W [.] W  2\n\
             \x201  W  W  W  1\n\
             \x20   a  b  c\n\
             human plays white (W, toward row 4), greedy plays black (B, toward row 1)\n\
             Last move: human b2c3\n"
        );
        let black = g.scene(&view(Seat::Second));
        assert!(
            black.contains("    c  b  a\n 1  W  W  W  1\n 2  W [.] W  2\n"),
            "{black}"
        );
        assert!(
            black.contains("greedy plays black (B, toward row 1)"),
            "{black}"
        );
        assert!(g.move_help(Seat::Second).contains("Legal moves ("));
    }

    fn sq(name: &str) -> u64 {
        1u64 << parse_square(name.as_bytes()).unwrap()
    }

    fn pieces(names: &[&str]) -> u64 {
        names.iter().map(|n| sq(n)).fold(0, |a, b| a | b)
    }

    fn step(s: &str) -> Step {
        s.parse().unwrap()
    }

    /// The legal moves of `seat` as text, sorted.
    fn sorted_moves(g: &Breakthrough, seat: Seat) -> Vec<String> {
        let mut moves: Vec<String> = g.legal_moves(seat).iter().map(|m| m.to_string()).collect();
        moves.sort();
        moves
    }

    #[test]
    fn perft_from_the_start() {
        let g = Breakthrough::new(&BreakthroughParams::default()).unwrap();
        let counts: Vec<u64> = (1..=4).map(|d| g.perft(d)).collect();
        assert_eq!(counts, [22, 484, 11132, 256036]);
    }

    #[test]
    fn small_boards_start_with_two_home_rows_each() {
        let g = Breakthrough::new(&BreakthroughParams {
            width: 3,
            height: 5,
        })
        .unwrap();
        assert_eq!(
            g.observation(Seat::First),
            "side white board bbbbbb...wwwwww"
        );
        assert_eq!(
            g.picture(),
            "5  B B B\n4  B B B\n3  . . .\n2  W W W\n1  W W W\n   a b c\nwhite (player 1) to move"
        );
        // a1..c2 move up: 3 straight + 2 + 2 diagonal from row 2
        assert_eq!(g.perft(1), 7);
        // face to face on a 4-high board: only diagonal captures
        let g = Breakthrough::new(&BreakthroughParams {
            width: 3,
            height: 4,
        })
        .unwrap();
        let moves = sorted_moves(&g, Seat::First);
        assert_eq!(moves, ["a2b3", "b2a3", "b2c3", "c2b3"]);
        // a step off the board is refused
        let g = Breakthrough::new(&BreakthroughParams {
            width: 3,
            height: 5,
        })
        .unwrap();
        let err = g.check(Seat::First, &step("c2d3")).unwrap_err();
        assert!(err.0.contains("d3 is off the 3x5 board"), "{err}");
        // reaching row 5 wins on a 5-high board
        let mut g = Breakthrough::on_board(Board::new(3, 5), sq("b4"), sq("c2"), Seat::First);
        assert_eq!(g.outcome(), None);
        g.apply(&BySeat::new(Some(step("b4b5")), None));
        assert_eq!(g.outcome(), Some(BySeat::new(100, 0)));
    }

    #[test]
    fn board_sizes_are_checked() {
        for (width, height) in [(1, 8), (9, 8), (8, 3), (8, 9)] {
            assert!(Breakthrough::new(&BreakthroughParams { width, height }).is_err());
        }
    }

    #[test]
    fn move_text_round_trips() {
        assert_eq!(step("b2c3"), Step { from: 9, to: 18 });
        assert_eq!(step("h7h6").to_string(), "h7h6");
        for bad in ["b2c", "b2c33", "i2c3", "b0c1", "B2C3", "", "b2 c3"] {
            assert!(bad.parse::<Step>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn rule_table() {
        // white: d4, e4; black: d5, f5, a7
        let g = Breakthrough::from_pieces(
            pieces(&["d4", "e4"]),
            pieces(&["d5", "f5", "a7"]),
            Seat::First,
        );
        let legal = |s: &str| g.check(Seat::First, &step(s)).is_ok();
        assert!(!legal("d4d5"), "straight capture is forbidden");
        assert!(legal("e4d5"), "diagonal capture");
        assert!(legal("e4f5"), "diagonal capture");
        assert!(legal("e4e5"), "straight into empty");
        assert!(legal("d4c5"), "diagonal into empty");
        assert!(
            !legal("d4e5") || g.pieces.first & sq("e5") == 0,
            "diagonal into empty is fine"
        );
        assert!(!legal("d4d3"), "backward");
        assert!(!legal("d4d6"), "two rows");
        assert!(!legal("d4f5"), "two columns");
        assert!(!legal("a1a2"), "no piece there");
        assert!(!legal("d5d4"), "enemy piece");
        assert!(
            g.check(Seat::Second, &step("d5c4")).is_err(),
            "not black's turn"
        );
        let moves = sorted_moves(&g, Seat::First);
        assert_eq!(moves, ["d4c5", "d4e5", "e4d5", "e4e5", "e4f5"]);

        // a friendly piece blocks diagonals too
        let g = Breakthrough::from_pieces(pieces(&["d4", "e5"]), pieces(&["a7"]), Seat::First);
        assert!(
            g.check(Seat::First, &step("d4e5")).is_err(),
            "onto a friendly piece"
        );
    }

    #[test]
    fn black_moves_down() {
        let g = Breakthrough::from_pieces(pieces(&["a2"]), pieces(&["c3"]), Seat::Second);
        let moves = sorted_moves(&g, Seat::Second);
        assert_eq!(moves, ["c3b2", "c3c2", "c3d2"]);
        assert!(g.legal_moves(Seat::First).is_empty());
    }

    #[test]
    fn reaching_the_far_row_wins() {
        let mut g = Breakthrough::from_pieces(pieces(&["c7"]), pieces(&["h8", "a2"]), Seat::First);
        assert_eq!(g.outcome(), None);
        g.apply(&BySeat::new(Some(step("c7c8")), None));
        assert_eq!(g.outcome(), Some(BySeat::new(100, 0)));
        assert_eq!(g.to_act(), BySeat::new(false, false));

        let mut g = Breakthrough::from_pieces(pieces(&["c7", "h6"]), pieces(&["b2"]), Seat::Second);
        g.apply(&BySeat::new(None, Some(step("b2a1"))));
        assert_eq!(g.outcome(), Some(BySeat::new(0, 100)));
    }

    #[test]
    fn capturing_every_piece_wins() {
        let mut g = Breakthrough::from_pieces(pieces(&["d4"]), pieces(&["e5"]), Seat::First);
        g.apply(&BySeat::new(Some(step("d4e5")), None));
        assert_eq!(g.pieces.second, 0);
        assert_eq!(g.outcome(), Some(BySeat::new(100, 0)));

        let mut g = Breakthrough::from_pieces(pieces(&["d4"]), pieces(&["e5", "h8"]), Seat::Second);
        g.apply(&BySeat::new(None, Some(step("e5d4"))));
        assert_eq!(g.outcome(), Some(BySeat::new(0, 100)));
    }

    #[test]
    fn the_picture_draws_the_board_from_whites_side() {
        let g = Breakthrough::new(&BreakthroughParams::default()).unwrap();
        let picture = g.picture();
        let lines: Vec<&str> = picture.lines().collect();
        assert_eq!(lines[0], "8  B B B B B B B B");
        assert_eq!(lines[3], "5  . . . . . . . .");
        assert_eq!(lines[7], "1  W W W W W W W W");
        assert_eq!(lines[8], "   a b c d e f g h");
        assert_eq!(lines[9], "white (player 1) to move");
    }

    #[test]
    fn observation_shows_the_board() {
        let g = Breakthrough::new(&BreakthroughParams::default()).unwrap();
        let obs = g.observation(Seat::First);
        let expected = format!(
            "side white board {}{}{}",
            "b".repeat(16),
            ".".repeat(32),
            "w".repeat(16)
        );
        assert_eq!(obs, expected);
    }
}
