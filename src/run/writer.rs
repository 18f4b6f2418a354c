//! The writer's side of a season: games come from the workers in any order,
//! in [`Piece`]s, and go into the journal in schedule order. A piece that
//! comes before its turn goes to `pending.jsonl` at once, so an interrupt or
//! a kill loses no finished game; games an earlier run left there join in
//! their turn; a game that comes twice (a replayed chunk) counts once.

use std::{
    collections::{BTreeMap, VecDeque},
    sync::{Arc, Mutex},
};

use crate::{
    core::record::{Lines, Scored},
    core::{
        error::{Error, Result},
        referee::Aborted,
    },
    journal::Journal,
    stats::sprt::InOrder,
    stats::standings::Standings,
};

/// Consecutive games of one chunk, played: their journal lines and scores.
/// A worker sends a piece when its chunk is done, and at least every
/// half a second while it plays, so every finished game reaches a file soon.
#[derive(Default)]
pub struct Piece {
    pub lines: Lines,
    pub scored: Vec<Scored>,
}

/// Written pieces on their way back to the workers, emptied: a piece's
/// buffers are grown once and filled again, instead of grown from nothing
/// by a worker and freed by the writer for every piece (a free on another
/// thread's heap waits for that heap's lock, and wakes the worker that
/// holds it).
#[derive(Default)]
pub struct Spares(Mutex<Vec<Piece>>);

impl Spares {
    /// The most pieces kept: a few for each worker.
    const MOST: usize = 16;

    /// An empty piece, with the buffers of a written one if there is one.
    pub fn take(&self) -> Piece {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_default()
    }

    /// Keeps `piece`'s buffers for a later [`Spares::take`].
    fn give(&self, mut piece: Piece) {
        piece.lines.clear();
        piece.scored.clear();
        let mut spares = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if spares.len() < Spares::MOST {
            spares.push(piece);
        }
    }
}

/// What a worker tells the writer.
pub enum Msg {
    /// Games it played.
    Piece(Piece),
    /// Ladder could not run game `index`; the worker has stopped.
    Aborted { index: u64, why: Aborted },
}

/// Puts games into the journal in schedule order, whatever order they come in.
pub struct Writer {
    pub journal: Journal,
    /// The index of every game this run writes that is not written yet,
    /// ascending: the games to play and those an earlier run left in
    /// `pending.jsonl`.
    upcoming: Upcoming,
    /// Pieces that came before their turn, by the index of their first
    /// unwritten game, with the position of that game in the piece.
    waiting: BTreeMap<u64, (Piece, usize)>,
    /// The games received ahead of their turn (a game before the next to
    /// write has been written).
    early: Ahead,
    /// How many games to play have been received.
    pub received: u64,
    /// The season's standings: the resumed games, and each game received
    /// (once) added as it comes.
    pub standings: Standings,
    /// The sequential test, fed the games as they reach `games.jsonl`.
    pub in_order: Option<InOrder>,
    /// Games of this run's pieces written to `games.jsonl`.
    pub written: u64,
    names: Vec<String>,
    /// Where written pieces go back to the workers.
    spares: Arc<Spares>,
}

/// Game indices received ahead of their turn: a bit each from `base` (a
/// multiple of 64), the words below the next game to write dropped as
/// writing passes them; as long as the span of games in flight, not the
/// season.
#[derive(Default)]
struct Ahead {
    base: u64,
    words: VecDeque<u64>,
}

impl Ahead {
    /// Marks game `index` (at or past `base`); whether it was not marked.
    fn insert(&mut self, index: u64) -> bool {
        if self.words.is_empty() {
            self.base = index / 64 * 64;
        }
        while index < self.base {
            self.words.push_front(0);
            self.base -= 64;
        }
        let at = ((index - self.base) / 64) as usize;
        if at >= self.words.len() {
            self.words.resize(at + 1, 0);
        }
        let bit = 1u64 << (index % 64);
        let fresh = self.words[at] & bit == 0;
        self.words[at] |= bit;
        fresh
    }

    /// Drops the words wholly below game `next`.
    fn forget_below(&mut self, next: u64) {
        while !self.words.is_empty() && self.base + 64 <= next {
            self.words.pop_front();
            self.base += 64;
        }
    }
}

/// Two ascending lists of game indices, merged: the games to play (computed
/// as they are needed) and those read from `pending.jsonl` (few, with
/// their lines).
struct Upcoming {
    to_play: std::iter::Peekable<Box<dyn Iterator<Item = u64> + Send>>,
    resumed: BTreeMap<u64, String>,
}

impl Upcoming {
    /// The next game to write.
    fn peek(&mut self) -> Option<u64> {
        let resumed = self.resumed.first_key_value().map(|(&i, _)| i);
        match (self.to_play.peek(), resumed) {
            (Some(&a), Some(b)) => Some(a.min(b)),
            (a, b) => a.copied().or(b),
        }
    }

    /// Passes game `index`, the next to write, if it was read from
    /// `pending.jsonl`: its line.
    fn take_resumed(&mut self, index: u64) -> Option<String> {
        self.resumed
            .first_entry()
            .filter(|e| *e.key() == index)
            .map(|e| e.remove())
    }

    /// Passes the next game to play (the next to write).
    fn advance(&mut self) {
        self.to_play.next();
    }
}

impl Writer {
    /// A writer of the games `to_play` (their indices, ascending) and the
    /// lines `resumed` from `pending.jsonl`, each in its turn.
    pub fn new(
        journal: Journal,
        to_play: impl Iterator<Item = u64> + Send + 'static,
        resumed: Vec<(u64, String)>,
        standings: Standings,
        in_order: Option<InOrder>,
        spares: Arc<Spares>,
    ) -> Result<Self> {
        let to_play: Box<dyn Iterator<Item = u64> + Send> = Box::new(to_play);
        let mut writer = Writer {
            journal,
            upcoming: Upcoming {
                to_play: to_play.peekable(),
                resumed: resumed.into_iter().collect(),
            },
            waiting: BTreeMap::new(),
            early: Ahead::default(),
            received: 0,
            names: standings.bots.clone(),
            standings,
            in_order,
            written: 0,
            spares,
        };
        // pending games from an earlier run at the head of the order go in now
        writer.advance()?;
        Ok(writer)
    }

    /// Takes a worker's message: a piece of games, or ladder's failure to run
    /// a game, which stops the season (the first such failure is kept).
    pub fn take(&mut self, msg: Msg, failure: &mut Option<Error>) -> Result<()> {
        match msg {
            Msg::Piece(piece) => self.accept(piece),
            Msg::Aborted { index, why } => {
                failure.get_or_insert(Error::System(format!(
                    "game {index}: {why}. No bot was charged with it; the games finished so far are saved: fix the cause and rerun to resume"
                )));
                Ok(())
            }
        }
    }

    /// Takes a piece from a worker: its timing lines at once, its games into
    /// the journal if it is their turn, else into `pending.jsonl` until it is.
    pub fn accept(&mut self, piece: Piece) -> Result<()> {
        if self.decided() {
            return Ok(()); // games after the decisive one do not count
        }
        let piece = self.without_repeats(piece);
        if piece.scored.is_empty() {
            return Ok(());
        }
        self.received += piece.scored.len() as u64;
        for scored in &piece.scored {
            self.standings.add(scored);
        }
        self.journal.append_timing(&piece.lines.timing)?;
        let first = piece.lines.ends[0].0;
        if self.upcoming.peek() != Some(first) {
            self.journal.append_pending(&piece.lines.games)?;
        }
        self.waiting.insert(first, (piece, 0));
        self.advance()?;
        if let Some(next) = self.upcoming.peek() {
            self.early.forget_below(next);
        }
        Ok(())
    }

    /// Drops games already received: a chunk replayed after its worker was
    /// abandoned may repeat games that worker had sent.
    fn without_repeats(&mut self, piece: Piece) -> Piece {
        let next = self.upcoming.peek();
        let mut first_time = |index: u64| {
            let written = next.is_none_or(|next| index < next);
            !written && self.early.insert(index)
        };
        let fresh: Vec<bool> = piece
            .lines
            .ends
            .iter()
            .map(|(i, _)| first_time(*i))
            .collect();
        if fresh.iter().all(|f| *f) {
            return piece;
        }
        let mut kept = Piece {
            lines: Lines::default(),
            scored: Vec::new(),
        };
        for (k, keep) in fresh.into_iter().enumerate() {
            if keep {
                kept.lines.games.extend_from_slice(piece.lines.game(k));
                kept.lines
                    .ends
                    .push((piece.lines.ends[k].0, kept.lines.games.len()));
                kept.scored.push(piece.scored[k].clone());
            }
        }
        // timing lines are not needed for games that repeat; keep them all
        kept.lines.timing = piece.lines.timing;
        kept
    }

    /// Writes every game whose turn has come.
    fn advance(&mut self) -> Result<()> {
        while let Some(index) = self.upcoming.peek() {
            if self.decided() {
                return Ok(());
            }
            if let Some(line) = self.upcoming.take_resumed(index) {
                if let Some(in_order) = &mut self.in_order {
                    let scored = Scored::from_line(line.trim_end(), &self.names)
                        .ok()
                        .flatten()
                        .ok_or_else(|| {
                            Error::System(format!("pending game {index} does not read back"))
                        })?;
                    in_order.add(&scored);
                }
                self.journal.append_games(line.as_bytes())?;
                continue;
            }
            let Some((piece, mut k)) = self.waiting.remove(&index) else {
                break;
            };
            // the piece's games that follow in order, written at once
            let from = k;
            while k < piece.lines.len() && self.upcoming.peek() == Some(piece.lines.ends[k].0) {
                let decides = self
                    .in_order
                    .as_mut()
                    .is_some_and(|o| o.add(&piece.scored[k]));
                k += 1;
                self.upcoming.advance();
                if decides {
                    break;
                }
            }
            self.written += (k - from) as u64;
            let start = if from == 0 {
                0
            } else {
                piece.lines.ends[from - 1].1
            };
            self.journal
                .append_games(&piece.lines.games[start..piece.lines.ends[k - 1].1])?;
            if k < piece.lines.len() && !self.decided() {
                self.waiting.insert(piece.lines.ends[k].0, (piece, k));
            } else {
                self.spares.give(piece);
            }
        }
        Ok(())
    }

    /// Whether the season's journal is done: every game of the order is in
    /// it, or the sequential test decided.
    pub fn is_complete(&mut self) -> bool {
        self.upcoming.peek().is_none() || self.decided()
    }

    /// Whether the sequential test has decided.
    pub fn decided(&self) -> bool {
        self.in_order
            .as_ref()
            .is_some_and(|o| o.decided_at.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        core::record::Finished,
        core::{game::GameResult, referee, referee::Termination, seat::BySeat},
        games::{bidding::Bid, Bidding},
        journal::read_records,
    };

    const NAMES: [&str; 2] = ["a", "b"];

    /// A piece of the games `indices`, each a one-turn bidding game.
    fn piece(indices: &[u64]) -> Piece {
        let names: Vec<String> = NAMES.map(String::from).to_vec();
        let played = referee::Played::<Bidding> {
            turns: vec![BySeat::new(Some(Bid(1)), Some(Bid(2)))],
            goals: BySeat::new(0, 100),
            result: GameResult::Second,
            termination: Termination::Normal,
            delay: Default::default(),
        };
        let mut p = Piece {
            lines: Lines::default(),
            scored: Vec::new(),
        };
        for &index in indices {
            let f = Finished {
                index,
                pair: 0,
                seats: BySeat::new(0, 1),
                names: &names,
                seed: index,
                opening: None,
                played: &played,
            };
            p.lines.push(&f, 1.0);
            p.scored.push(f.scored());
        }
        p
    }

    /// A writer of a new season in `dir` whose games to play are `to_play`.
    fn fresh_writer(dir: &std::path::Path, to_play: Vec<u64>, spares: Arc<Spares>) -> Writer {
        let names: Vec<String> = NAMES.map(String::from).to_vec();
        let season = serde_json::json!({"name": "t"});
        let (journal, _) = crate::journal::tests::open(dir, &season, false, &names).unwrap();
        let standings = Standings::empty(&names);
        Writer::new(
            journal,
            to_play.into_iter(),
            Vec::new(),
            standings,
            None,
            spares,
        )
        .unwrap()
    }

    fn indices(path: &std::path::Path) -> Vec<u64> {
        read_records(path)
            .unwrap()
            .iter()
            .map(|r| r.index)
            .collect()
    }

    #[test]
    fn games_finished_out_of_order_reach_a_file_at_once_and_the_journal_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let season = serde_json::json!({"name": "t"});
        let names: Vec<String> = NAMES.map(String::from).to_vec();
        let mut w = fresh_writer(dir.path(), vec![0, 1, 2, 3, 4, 5], Default::default());
        for p in [&[3, 4][..], &[5], &[0, 1]] {
            w.accept(piece(p)).unwrap();
            w.journal.flush().unwrap();
        }
        let (games, pending) = (
            dir.path().join("games.jsonl"),
            dir.path().join("pending.jsonl"),
        );
        assert_eq!(
            indices(&games),
            [0, 1],
            "in order, up to the missing game 2"
        );
        assert_eq!(indices(&pending), [3, 4, 5], "the rest is on disk too");
        drop(w); // as if the process stopped here

        // resume: 3, 4, 5 count as played and enter the journal after game 2
        let (journal, resumed) =
            crate::journal::tests::open(dir.path(), &season, false, &names).unwrap();
        let from_file: Vec<(u64, String)> = resumed
            .pending
            .iter()
            .map(|(s, line)| (s.index, line.clone()))
            .collect();
        assert_eq!(resumed.journaled, 2);
        assert_eq!(
            from_file.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
            [3, 4, 5]
        );
        let mut w = Writer::new(
            journal,
            vec![2].into_iter(),
            from_file,
            Standings::empty(&names),
            None,
            Default::default(),
        )
        .unwrap();
        w.accept(piece(&[2])).unwrap();
        assert!(w.is_complete());
        w.journal.finish().unwrap();
        assert_eq!(indices(&games), [0, 1, 2, 3, 4, 5]);
        assert!(
            !pending.exists(),
            "a complete season leaves no pending file"
        );
        // byte for byte what one in-order run writes
        let text = std::fs::read_to_string(&games).unwrap();
        let mut once = Lines::default();
        let all = piece(&[0, 1, 2, 3, 4, 5]);
        once.games.extend_from_slice(&all.lines.games);
        assert_eq!(text.as_bytes(), &once.games[..]);
    }

    #[test]
    fn games_ahead_are_marked_once_whatever_their_order_and_forgotten_once_passed() {
        let mut ahead = Ahead::default();
        assert!(ahead.insert(1000));
        assert!(ahead.insert(500), "before the first marked");
        assert!(ahead.insert(10));
        assert!(!ahead.insert(500) && !ahead.insert(1000) && !ahead.insert(10));
        ahead.forget_below(600);
        assert_eq!(ahead.base, 576, "the words below game 600 are gone");
        assert!(!ahead.insert(1000));
        assert!(ahead.insert(601));
        ahead.forget_below(2000);
        assert!(ahead.words.is_empty());
        assert!(ahead.insert(5000) && !ahead.insert(5000));
    }

    #[test]
    fn a_replayed_chunk_repeats_no_game() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = fresh_writer(dir.path(), vec![0, 1, 2], Default::default());
        w.accept(piece(&[2])).unwrap();
        w.accept(piece(&[0])).unwrap();
        // the abandoned worker had sent games 2 (waiting for its turn) and 0
        // (written); the replay sends 0, 1, 2
        w.accept(piece(&[0, 1, 2])).unwrap();
        assert_eq!(w.received, 3);
        assert!(w.is_complete());
        w.journal.finish().unwrap();
        assert_eq!(indices(&dir.path().join("games.jsonl")), [0, 1, 2]);
    }

    #[test]
    fn a_written_piece_goes_back_emptied_and_a_waiting_one_stays() {
        let dir = tempfile::tempdir().unwrap();
        let spares = Arc::new(Spares::default());
        let kept = |spares: &Spares| spares.0.lock().unwrap().len();
        let mut w = fresh_writer(dir.path(), vec![0, 1, 2], Arc::clone(&spares));
        w.accept(piece(&[1, 2])).unwrap();
        assert_eq!(kept(&spares), 0, "its games wait for game 0");
        w.accept(piece(&[0])).unwrap();
        assert_eq!(kept(&spares), 2, "both pieces are written");
        let again = spares.take();
        assert!(again.lines.is_empty() && again.scored.is_empty());
        assert!(again.lines.timing.is_empty());
        assert!(again.lines.games.capacity() > 0, "its buffer is kept");
        assert_eq!(kept(&spares), 1);
        w.journal.finish().unwrap();
        assert_eq!(indices(&dir.path().join("games.jsonl")), [0, 1, 2]);
        for _ in 0..2 * Spares::MOST {
            spares.give(piece(&[7]));
        }
        assert_eq!(kept(&spares), Spares::MOST, "no more than a few are kept");
    }
}
