//! A finished game in its three shapes, each for a reason:
//!
//! - [`Finished`]: a game just played, with its moves still typed. It
//!   writes its journal line straight from the typed moves, with no string
//!   per move: this is the season runner's hot path.
//! - [`Record`]: a journal line as read back, with owned strings: what resume,
//!   tools and tests read.
//! - [`Scored`]: what the standings keep of a game (bot indices, result,
//!   goals, termination; no moves), so a season of millions of games fits in
//!   memory.
//!
//! [`Lines`] holds journal lines formatted by a worker thread, ready to write.

use serde::{Deserialize, Serialize};

use crate::core::{
    game::{Game, GameResult},
    referee::{Played, Termination},
    seat::BySeat,
};

/// One turn in the journal: the move of the seat to act, or both moves of a
/// simultaneous round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Turn {
    One(String),
    Both(BySeat<String>),
}

/// The version of the layout of every JSON file ladder writes
/// (`format_version` in `season.json`, `standings.json`, `ladder.json`,
/// `shard.json`; docs/FORMATS.md). A journal's lines follow the version of
/// its `season.json`.
pub const FORMAT_VERSION: u32 = 1;

/// Refuses a file of a later `format_version` than this ladder writes.
pub fn known_version(version: u64) -> Result<(), String> {
    if version > u64::from(FORMAT_VERSION) {
        return Err(format!(
            "format_version {version} is newer than this ladder's ({FORMAT_VERSION}): update ladder to read it"
        ));
    }
    Ok(())
}

/// One finished game, as the journal holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Position in the season's schedule.
    pub index: u64,
    /// Which pairing of the schedule.
    pub pair: usize,
    /// The bot names in the first and second seat.
    pub seats: BySeat<String>,
    pub seed: u64,
    /// The seed as text, for readers that would round a 64-bit integer
    /// (JavaScript, jq); checked against `seed` when read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_text: Option<String>,
    /// The position the game started from, when the season has openings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<String>,
    pub result: GameResult,
    pub goals: BySeat<i32>,
    pub termination: Termination,
    /// Turns played (a simultaneous round is one turn).
    pub plies: u32,
    pub moves: Vec<Turn>,
}

/// What the standings need of a game: who sat where and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    pub index: u64,
    /// The bot in each seat, as an index into the season's bot list.
    pub seats: BySeat<usize>,
    pub seed: u64,
    pub result: GameResult,
    pub goals: BySeat<i32>,
    pub termination: Termination,
    /// Turns played: the game's length.
    pub plies: u32,
}

/// A journal line read for its score alone: the moves are skipped unread
/// (no string per move), so a long season resumes fast.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScoreLine<'a> {
    index: u64,
    #[serde(borrow)]
    seats: [Text<'a>; 2],
    seed: u64,
    #[serde(default, borrow)]
    seed_text: Option<Text<'a>>,
    result: GameResult,
    goals: BySeat<i32>,
    termination: Termination,
    pair: usize,
    plies: u32,
    moves: Turns,
    /// The game's opening, in a season with openings: not part of a score.
    #[allow(dead_code)]
    #[serde(default)]
    opening: Option<serde::de::IgnoredAny>,
}

/// A turn of a journal line, read for its shape alone: a move's text, or
/// both seats' moves (as [`Turn`] has it), with no string kept.
struct TurnShape;

impl<'de> Deserialize<'de> for TurnShape {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TurnShape, D::Error> {
        struct Shape;
        impl<'de> serde::de::Visitor<'de> for Shape {
            type Value = TurnShape;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a turn: a move, or the two seats' moves")
            }
            fn visit_str<E>(self, _: &str) -> Result<TurnShape, E> {
                Ok(TurnShape)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<TurnShape, A::Error> {
                let mut n = 0;
                while seq.next_element::<Text>()?.is_some() {
                    n += 1;
                }
                if n != 2 {
                    return Err(serde::de::Error::invalid_length(n, &self));
                }
                Ok(TurnShape)
            }
        }
        d.deserialize_any(Shape)
    }
}

/// A text of a journal line, borrowed from the line where it holds no
/// JSON escape (as ladder writes every name and seed); an escaped one (a
/// hand edit) is read too, so that it is judged by what it says.
struct Text<'a>(std::borrow::Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Text<'a>, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(s.into()))
            }
            fn visit_str<E>(self, s: &str) -> Result<Text<'de>, E> {
                Ok(Text(s.to_owned().into()))
            }
        }
        d.deserialize_str(Visit)
    }
}

/// How many turns a line's `moves` holds, counted without reading them.
struct Turns(u64);

impl<'de> Deserialize<'de> for Turns {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Turns, D::Error> {
        struct Count;
        impl<'de> serde::de::Visitor<'de> for Count {
            type Value = Turns;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of turns")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Turns, A::Error> {
                let mut n = 0;
                while seq.next_element::<TurnShape>()?.is_some() {
                    n += 1;
                }
                Ok(Turns(n))
            }
        }
        d.deserialize_seq(Count)
    }
}

impl Scored {
    /// What `ladder verify` checks of a game without replaying it: goals
    /// within `0..=max` (the game's most), and a result and goals that the
    /// termination gives (a forfeit or a resignation is 0 against `max`, a
    /// stop at the ply cap or an adjudicated draw is `max / 2` each, the
    /// rules' ending a result that follows from the goals).
    pub fn consistent(&self, max: i32) -> Result<(), String> {
        use crate::core::referee::AdjudicationRule;
        let goals = [self.goals.first, self.goals.second];
        if goals.iter().any(|g| !(0..=max).contains(g)) {
            return Err(format!("goals {goals:?} outside the game's 0..={max}"));
        }
        let expected = match &self.termination {
            Termination::Normal | Termination::IllFormed { .. } => {
                (self.goals, GameResult::from_goals(self.goals))
            }
            Termination::Forfeit { seat, .. }
            | Termination::Adjudicated {
                rule: AdjudicationRule::Resign,
                seat: Some(seat),
            } => (
                BySeat::from_fn(|s| if s == *seat { 0 } else { max }),
                GameResult::win(seat.other()),
            ),
            Termination::PlyLimit
            | Termination::Adjudicated {
                rule: AdjudicationRule::Draw,
                seat: None,
            } => (BySeat::new(max / 2, max / 2), GameResult::Draw),
            Termination::Adjudicated { .. } => {
                return Err("an adjudication names a seat only when one resigns".into())
            }
        };
        if expected.0 != self.goals || expected.1 != self.result {
            return Err(format!(
                "result {:?} with goals {goals:?}, but its termination gives {:?} with {:?}",
                self.result,
                expected.1,
                [expected.0.first, expected.0.second]
            ));
        }
        Ok(())
    }

    /// The score of a journal line (without its line end), with its bot
    /// names looked up in `bots`; `Ok(None)` if a name is not there (the
    /// journal is another season's).
    pub fn from_line(line: &str, bots: &[String]) -> serde_json::Result<Option<Scored>> {
        Scored::from_line_where(line, bots, &|_| None)
    }

    /// [`Scored::from_line`], also refusing a line whose `pair` is not
    /// `pair_of(index)` where that gives one (the schedule's pairing).
    pub fn from_line_where(
        line: &str,
        bots: &[String],
        pair_of: &dyn Fn(u64) -> Option<usize>,
    ) -> serde_json::Result<Option<Scored>> {
        let l: ScoreLine = serde_json::from_str(line)?;
        if let Some(pair) = pair_of(l.index).filter(|&p| p != l.pair) {
            return Err(serde::de::Error::custom(format!(
                "game {}: pair {}, but the schedule has {pair}",
                l.index, l.pair
            )));
        }
        seed_agrees(l.seed, l.seed_text.as_ref().map(|t| &*t.0))
            .map_err(serde::de::Error::custom)?;
        plies_agree(l.plies, l.moves.0)
            .map_err(|m| serde::de::Error::custom(format!("game {}: {m}", l.index)))?;
        let index = |name: &str| bots.iter().position(|b| b == name);
        let (Some(first), Some(second)) = (index(&l.seats[0].0), index(&l.seats[1].0)) else {
            return Ok(None);
        };
        Ok(Some(Scored {
            index: l.index,
            seats: BySeat::new(first, second),
            seed: l.seed,
            result: l.result,
            goals: l.goals,
            termination: l.termination,
            plies: l.plies,
        }))
    }
}

/// A game's `plies` must be the number of turns its `moves` holds.
pub fn plies_agree(plies: u32, turns: u64) -> Result<(), String> {
    if u64::from(plies) != turns {
        return Err(format!("{plies} plies, but {turns} turns of moves"));
    }
    Ok(())
}

/// A game's `seed_text`, where there is one, must be its `seed` written out.
pub fn seed_agrees(seed: u64, text: Option<&str>) -> Result<(), String> {
    match text {
        Some(t) if t != seed.to_string() => Err(format!(
            "seed_text \"{t}\" is not the seed {seed}: one of them was edited"
        )),
        _ => Ok(()),
    }
}

impl Record {
    /// The record's score, with its bot names looked up in `bots`; `None`
    /// if a name is not there (the journal is another season's).
    pub fn scored(self, bots: &[String]) -> Option<Scored> {
        let index = |name: &String| bots.iter().position(|b| b == name);
        Some(Scored {
            index: self.index,
            seats: BySeat::new(index(&self.seats.first)?, index(&self.seats.second)?),
            seed: self.seed,
            result: self.result,
            goals: self.goals,
            termination: self.termination,
            plies: self.plies,
        })
    }
}

/// A game just played, with its place in the schedule. Its journal line
/// ([`Finished::write_line`]) is the JSON of the same [`Record`], with each
/// move's wire form written straight from the typed move.
pub struct Finished<'a, G: Game> {
    pub index: u64,
    pub pair: usize,
    /// The bot in each seat, as an index into `names`.
    pub seats: BySeat<usize>,
    /// The season's bot names.
    pub names: &'a [String],
    pub seed: u64,
    /// The opening the game started from, if the season has openings.
    pub opening: Option<&'a str>,
    pub played: &'a Played<G>,
}

impl<G: Game> Finished<'_, G> {
    pub fn scored(&self) -> Scored {
        Scored {
            index: self.index,
            seats: self.seats,
            seed: self.seed,
            result: self.played.result,
            goals: self.played.goals,
            termination: self.played.termination.clone(),
            plies: self.played.turns.len() as u32,
        }
    }
}

impl<G: Game> Finished<'_, G> {
    /// Appends the game's journal line, without its line end: the JSON that
    /// [`Record`] serializes to, written by hand because this is the season
    /// runner's hot path. Numbers go through `itoa`, a move's text is
    /// written straight into `out` and only a text that needs escaping
    /// (never a shipped game's) goes through serde_json. A unit test holds
    /// it to `Record`'s own serialization.
    pub fn write_line(&self, out: &mut Vec<u8>) {
        let p = self.played;
        let mut n = itoa::Buffer::new();
        out.extend_from_slice(b"{\"index\":");
        out.extend_from_slice(n.format(self.index).as_bytes());
        out.extend_from_slice(b",\"pair\":");
        out.extend_from_slice(n.format(self.pair).as_bytes());
        out.extend_from_slice(b",\"seats\":[");
        json_str(out, &self.names[self.seats.first]);
        out.push(b',');
        json_str(out, &self.names[self.seats.second]);
        let seed = n.format(self.seed).as_bytes();
        out.extend_from_slice(b"],\"seed\":");
        out.extend_from_slice(seed);
        out.extend_from_slice(b",\"seed_text\":\"");
        out.extend_from_slice(seed);
        out.push(b'"');
        if let Some(opening) = self.opening {
            out.extend_from_slice(b",\"opening\":");
            json_str(out, opening);
        }
        out.extend_from_slice(b",\"result\":");
        let result: &[u8] = match p.result {
            GameResult::First => b"\"first\"",
            GameResult::Second => b"\"second\"",
            GameResult::Draw => b"\"draw\"",
        };
        out.extend_from_slice(result);
        out.extend_from_slice(b",\"goals\":[");
        out.extend_from_slice(n.format(p.goals.first).as_bytes());
        out.push(b',');
        out.extend_from_slice(n.format(p.goals.second).as_bytes());
        out.extend_from_slice(b"],\"termination\":");
        match &p.termination {
            Termination::Normal => out.extend_from_slice(b"{\"kind\":\"normal\"}"),
            other => serde_json::to_writer(&mut *out, other).expect("terminations serialize"),
        }
        out.extend_from_slice(b",\"plies\":");
        out.extend_from_slice(n.format(p.turns.len() as u32).as_bytes());
        out.extend_from_slice(b",\"moves\":[");
        write_moves(out, &p.turns, G::write_move);
        out.extend_from_slice(b"]}");
    }

    /// The game's journal line, without its line end.
    pub fn line(&self) -> String {
        let mut out = Vec::new();
        self.write_line(&mut out);
        String::from_utf8(out).expect("journal lines are UTF-8")
    }
}

/// Whether serde_json escapes this byte in a string: control characters,
/// the quote and the backslash.
fn escaped(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Appends `s` as a JSON string.
fn json_str(out: &mut Vec<u8>, s: &str) {
    if s.bytes().any(escaped) {
        serde_json::to_writer(out, s).expect("strings serialize");
    } else {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    }
}

/// Appends the moves of `turns` as the items of the journal's `moves`
/// array, each move's text written by `write`. The texts go in between
/// quotes as they are, and the whole is looked at once: only if some text
/// needs escaping (never a shipped game's) is it written again, each text
/// escaped as it needs. A look for an escaped byte in each move, a loop
/// as long as the text, was a tenth of a coordination season's time
/// (docs/PERFORMANCE.md, "Each move's text written as it is").
fn write_moves<M>(out: &mut Vec<u8>, turns: &[BySeat<Option<M>>], write: fn(&M, &mut Vec<u8>)) {
    let start = out.len();
    let texts = moves_with(out, turns, |out, mv| {
        out.push(b'"');
        write(mv, out);
        out.push(b'"');
    });
    if !plain(&out[start..], texts) {
        out.truncate(start);
        moves_with(out, turns, |out, mv| move_str(out, |out| write(mv, out)));
    }
}

/// Appends the items of the `moves` array, each text by `text`; how many
/// texts it wrote.
fn moves_with<M>(
    out: &mut Vec<u8>,
    turns: &[BySeat<Option<M>>],
    text: impl Fn(&mut Vec<u8>, &M),
) -> usize {
    let mut texts = 0;
    for turn in turns {
        let (a, b) = match (&turn.first, &turn.second) {
            (Some(a), Some(b)) => (a, Some(b)),
            (Some(m), None) | (None, Some(m)) => (m, None),
            (None, None) => continue,
        };
        if texts > 0 {
            out.push(b',');
        }
        match b {
            Some(b) => {
                out.push(b'[');
                text(out, a);
                out.push(b',');
                text(out, b);
                out.push(b']');
                texts += 2;
            }
            None => {
                text(out, a);
                texts += 1;
            }
        }
    }
    texts
}

/// Whether `moves`, `texts` move texts each written between two quotes
/// with the array's commas and brackets, is valid JSON as it stands: the
/// only [`escaped`] bytes in it are quotes, the texts' own two each.
/// Counted in blocks of 32 bytes with no early exit, which the compiler
/// turns into vector instructions.
fn plain(moves: &[u8], texts: usize) -> bool {
    let (mut quotes, mut escapes) = (0, 0);
    let mut look = |block: &[u8]| {
        let (mut q, mut e) = (0u8, 0u8);
        for &b in block {
            q += u8::from(b == b'"');
            e += u8::from(escaped(b));
        }
        quotes += usize::from(q);
        escapes += usize::from(e);
    };
    let blocks = moves.chunks_exact(32);
    let rest = blocks.remainder();
    blocks.for_each(&mut look);
    look(rest);
    quotes == 2 * texts && escapes == quotes
}

/// Appends a move's wire form as a JSON string: `write` puts the text
/// straight into `out`, and it is escaped only if it needs to be.
fn move_str(out: &mut Vec<u8>, write: impl FnOnce(&mut Vec<u8>)) {
    out.push(b'"');
    let start = out.len();
    write(out);
    if out[start..].iter().copied().any(escaped) {
        let text = String::from_utf8(out.split_off(start))
            .expect("write_move writes UTF-8 (tests/games.rs: as Display does)");
        out.pop();
        json_str(out, &text);
    } else {
        out.push(b'"');
    }
}

/// Wall-clock time of one game, kept apart from the deterministic journal.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Timing {
    pub index: u64,
    pub ms: f64,
}

/// Journal lines formatted ahead of writing, so that worker threads can do
/// the formatting and the writer only puts bytes in order.
#[derive(Debug, Default)]
pub struct Lines {
    /// The games' journal lines, one after another.
    pub(crate) games: Vec<u8>,
    /// Each game's index in the schedule and where its line ends in `games`.
    pub(crate) ends: Vec<(u64, usize)>,
    pub(crate) timing: Vec<u8>,
}

impl Lines {
    /// Formats one game's journal and timing lines.
    pub fn push<G: Game>(&mut self, game: &Finished<G>, ms: f64) {
        game.write_line(&mut self.games);
        self.games.push(b'\n');
        self.ends.push((game.index, self.games.len()));
        // a Timing's JSON, by hand as the game's line is
        self.timing.extend_from_slice(b"{\"index\":");
        let mut n = itoa::Buffer::new();
        self.timing
            .extend_from_slice(n.format(game.index).as_bytes());
        self.timing.extend_from_slice(b",\"ms\":");
        serde_json::to_writer(&mut self.timing, &ms).expect("numbers serialize");
        self.timing.extend_from_slice(b"}\n");
    }

    /// Empties the lines, keeping their buffers.
    pub fn clear(&mut self) {
        self.games.clear();
        self.ends.clear();
        self.timing.clear();
    }

    /// How many games these lines hold.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The journal line of the `k`-th game, line end included.
    pub fn game(&self, k: usize) -> &[u8] {
        let start = if k == 0 { 0 } else { self.ends[k - 1].1 };
        &self.games[start..self.ends[k].1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::adjudication::AdjudicationRule;
    use crate::core::referee::ForfeitReason;
    use crate::core::seat::Seat;
    use crate::games::{bidding::Bid, breakthrough::Step, Bidding, Breakthrough};

    /// The same game as the journal reads it back.
    fn record<G: Game>(f: &Finished<G>) -> Record {
        let text = |m: &G::Move| m.to_string();
        Record {
            index: f.index,
            pair: f.pair,
            seats: f.seats.map(|b| f.names[b].clone()),
            seed: f.seed,
            seed_text: Some(f.seed.to_string()),
            opening: f.opening.map(str::to_string),
            result: f.played.result,
            goals: f.played.goals,
            termination: f.played.termination.clone(),
            plies: f.played.turns.len() as u32,
            moves: f
                .played
                .turns
                .iter()
                .filter_map(|t| match (&t.first, &t.second) {
                    (Some(a), Some(b)) => Some(Turn::Both(BySeat::new(text(a), text(b)))),
                    (Some(m), None) | (None, Some(m)) => Some(Turn::One(text(m))),
                    (None, None) => None,
                })
                .collect(),
        }
    }

    fn check<G: Game>(f: &Finished<G>) {
        let line = f.line();
        assert_eq!(line, serde_json::to_string(&record(f)).unwrap());
        let back: Record = serde_json::from_str(&line).unwrap();
        assert_eq!(back, record(f));
        for ms in [0.0, 1.0, 0.1234, 1e-7, 12345.678, f64::NAN] {
            let mut lines = Lines::default();
            lines.push(f, ms);
            assert_eq!(lines.game(0), format!("{line}\n").as_bytes());
            let timing = Timing { index: f.index, ms };
            let expected = serde_json::to_string(&timing).unwrap() + "\n";
            assert_eq!(String::from_utf8(lines.timing).unwrap(), expected);
        }
    }

    #[test]
    fn a_line_written_by_hand_is_the_records_json() {
        let terminations = [
            Termination::Normal,
            Termination::PlyLimit,
            Termination::IllFormed {
                detail: "two \"goals\"\n".into(),
            },
            Termination::Forfeit {
                seat: Seat::Second,
                reason: ForfeitReason::Timeout,
                detail: "no move\\".into(),
                overrun_ms: Some(12),
            },
            Termination::Adjudicated {
                rule: AdjudicationRule::Resign,
                seat: Some(Seat::First),
            },
        ];
        let names = [
            "plain".to_string(),
            "a \"quoted\"\tname \u{e9}\u{1}".to_string(),
        ];
        for (k, termination) in terminations.into_iter().enumerate() {
            let played = Played::<Bidding> {
                turns: (0..k as u32)
                    .map(|i| BySeat::new(Some(Bid(i * 7)), Some(Bid(u32::MAX - i))))
                    .collect(),
                goals: BySeat::new(-3, i32::MAX),
                result: [GameResult::First, GameResult::Second, GameResult::Draw][k % 3],
                termination: termination.clone(),
                delay: Default::default(),
            };
            check(&Finished {
                index: u64::MAX - k as u64,
                pair: k,
                seats: BySeat::new(k % 2, 1 - k % 2),
                names: &names,
                seed: u64::MAX / (k as u64 + 1),
                opening: (k % 2 == 1).then_some("an \"opening\"\n"),
                played: &played,
            });
            let played = Played::<Breakthrough> {
                turns: ["b2c3", "g7f6", "a2a3"][..k.min(3)]
                    .iter()
                    .enumerate()
                    .map(|(i, m)| {
                        let step = Some(m.parse::<Step>().unwrap());
                        if i % 2 == 0 {
                            BySeat::new(step, None)
                        } else {
                            BySeat::new(None, step)
                        }
                    })
                    .collect(),
                goals: BySeat::new(100, 0),
                result: GameResult::First,
                termination,
                delay: Default::default(),
            };
            check(&Finished {
                index: k as u64,
                pair: 0,
                seats: BySeat::new(0, 1),
                names: &names,
                seed: 0,
                opening: None,
                played: &played,
            });
        }
    }

    #[test]
    fn moves_are_the_turns_json_whatever_their_texts() {
        let texts = [
            "a2a3",
            "",
            "left",
            "(move 1 2)",
            "say \"hi\"",
            "\"",
            "a\"b\"c",
            "\",\"",
            "back\\slash",
            "line\nend",
            "tab\t",
            "\u{1}",
            "\u{7f}\u{e9}",
            "[1,2]",
            "]",
            "\\\"",
        ];
        let write: fn(&String, &mut Vec<u8>) = |m, out| out.extend_from_slice(m.as_bytes());
        // every text as a single move and in a simultaneous turn beside
        // every other, with turns where nobody moved between them
        let mut turns: Vec<BySeat<Option<String>>> = Vec::new();
        for a in texts {
            turns.push(BySeat::new(Some(a.to_string()), None));
            turns.push(BySeat::new(None, None));
            for b in texts {
                turns.push(BySeat::new(Some(a.to_string()), Some(b.to_string())));
            }
        }
        for n in [0, 1, 2, 3, turns.len()] {
            for window in turns.windows(n.max(1)).take(if n == 0 { 1 } else { 40 }) {
                let window = &window[..n];
                let expected: Vec<Turn> = window
                    .iter()
                    .filter_map(|t| match (&t.first, &t.second) {
                        (Some(a), Some(b)) => Some(Turn::Both(BySeat::new(a.clone(), b.clone()))),
                        (Some(m), None) | (None, Some(m)) => Some(Turn::One(m.clone())),
                        (None, None) => None,
                    })
                    .collect();
                let mut out = b"[".to_vec();
                write_moves(&mut out, window, write);
                out.push(b']');
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    serde_json::to_string(&expected).unwrap()
                );
            }
        }
    }

    #[test]
    fn a_move_text_that_needs_escaping_is_escaped() {
        for text in [
            "(move 1 2)",
            "say \"hi\"",
            "back\\slash",
            "line\nend",
            "\u{7f}\u{e9}",
        ] {
            let mut out = b"[".to_vec();
            move_str(&mut out, |out| out.extend_from_slice(text.as_bytes()));
            let expected = format!("[{}", serde_json::to_string(text).unwrap());
            assert_eq!(String::from_utf8(out).unwrap(), expected);
        }
    }

    #[test]
    fn a_score_line_with_escaped_texts_is_judged_by_what_they_say() {
        let bots = ["a".to_string(), "b".to_string()];
        let line = |seats: &str, seed_text: &str| {
            format!(
                r#"{{"index":0,"pair":0,"seats":{seats},"seed":7,"seed_text":"{seed_text}","result":"draw","goals":[50,50],"termination":{{"kind":"normal"}},"plies":0,"moves":[]}}"#
            )
        };
        let plain = Scored::from_line(&line(r#"["a","b"]"#, "7"), &bots).unwrap();
        assert_eq!(plain.map(|s| s.seats), Some(BySeat::new(0, 1)));
        // an escape that spells a name is that name
        let spelled = Scored::from_line(&line(r#"["\u0062","a"]"#, r"\u0037"), &bots).unwrap();
        assert_eq!(spelled.map(|s| s.seats), Some(BySeat::new(1, 0)));
        // a name no bot has is another season's line, however it is written
        let stranger = Scored::from_line(&line(r#"["ev\u001bil","a"]"#, "7"), &bots).unwrap();
        assert_eq!(stranger, None);
        // a turn is a move's text, or both seats' moves
        let with_moves = |moves: &str| {
            line(r#"["a","b"]"#, "7").replace(
                r#""plies":0,"moves":[]"#,
                &format!(r#""plies":1,"moves":[{moves}]"#),
            )
        };
        for good in [r#""e2e4""#, r#"["1","2"]"#, r#"["\"",""]"#] {
            assert!(
                Scored::from_line(&with_moves(good), &bots).is_ok(),
                "{good}"
            );
        }
        for bad in [
            "{}",
            "1",
            r#"["1"]"#,
            r#"["1","2","3"]"#,
            r#"[{},"2"]"#,
            "null",
        ] {
            let e = Scored::from_line(&with_moves(bad), &bots).unwrap_err();
            let says = e.to_string();
            assert!(
                says.contains("a turn: a move, or the two seats' moves")
                    || says.contains("expected a string"),
                "{bad}: {says}"
            );
        }
        let edited = Scored::from_line(&line(r#"["a","b"]"#, r"\u0038"), &bots).unwrap_err();
        assert!(
            edited
                .to_string()
                .contains("seed_text \"8\" is not the seed 7"),
            "{edited}"
        );
    }
}
