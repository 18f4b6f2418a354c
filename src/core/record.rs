//! A finished game in its three shapes, each for a reason:
//!
//! - [`Finished`]: a game just played, with its moves still typed. It
//!   serializes to a journal line straight from the typed moves, with no
//!   string per move: this is the season runner's hot path.
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
    seats: [&'a str; 2],
    seed: u64,
    #[serde(default, borrow)]
    seed_text: Option<&'a str>,
    result: GameResult,
    goals: BySeat<i32>,
    termination: Termination,
    #[allow(dead_code)]
    pair: serde::de::IgnoredAny,
    plies: u32,
    #[allow(dead_code)]
    moves: serde::de::IgnoredAny,
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
        let l: ScoreLine = serde_json::from_str(line)?;
        seed_agrees(l.seed, l.seed_text).map_err(serde::de::Error::custom)?;
        let index = |name: &str| bots.iter().position(|b| b == name);
        let (Some(first), Some(second)) = (index(l.seats[0]), index(l.seats[1])) else {
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

/// A game just played, with its place in the schedule. It serializes to the
/// same JSON as [`Record`], writing each move's wire form straight from the
/// typed move (no string per move: this is the season runner's hot path).
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

impl<G: Game> Serialize for Finished<'_, G> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let p = self.played;
        let mut st = s.serialize_struct("Record", 10)?;
        st.serialize_field("index", &self.index)?;
        st.serialize_field("pair", &self.pair)?;
        let names = self.seats.map(|b| self.names[b].as_str());
        st.serialize_field("seats", &[names.first, names.second])?;
        st.serialize_field("seed", &self.seed)?;
        st.serialize_field("seed_text", &self.seed.to_string())?;
        if let Some(opening) = self.opening {
            st.serialize_field("opening", opening)?;
        }
        st.serialize_field("result", &p.result)?;
        st.serialize_field("goals", &p.goals)?;
        st.serialize_field("termination", &p.termination)?;
        st.serialize_field("plies", &(p.turns.len() as u32))?;
        st.serialize_field("moves", &Moves::<G>(&p.turns))?;
        st.end()
    }
}

/// The turns of a game in the journal's form: `"b2c3"` or `["12","15"]`.
struct Moves<'a, G: Game>(&'a [BySeat<Option<G::Move>>]);

struct Wire<'a, M>(&'a M);

thread_local! {
    /// Reused text of one move: formatting into it and writing it as one string
    /// is several times faster than serde_json's `collect_str` for short moves.
    static MOVE_TEXT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

impl<M: std::fmt::Display> Serialize for Wire<'_, M> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        MOVE_TEXT.with_borrow_mut(|text| {
            use std::fmt::Write as _;
            text.clear();
            write!(text, "{}", self.0).expect("formatting into a String");
            s.serialize_str(text)
        })
    }
}

impl<G: Game> Serialize for Moves<'_, G> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for turn in self.0 {
            match (&turn.first, &turn.second) {
                (Some(a), Some(b)) => seq.serialize_element(&[Wire(a), Wire(b)])?,
                (Some(m), None) | (None, Some(m)) => seq.serialize_element(&Wire(m))?,
                (None, None) => {}
            }
        }
        seq.end()
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
        serde_json::to_writer(&mut self.games, game).expect("records serialize");
        self.games.push(b'\n');
        self.ends.push((game.index, self.games.len()));
        let timing = Timing {
            index: game.index,
            ms,
        };
        serde_json::to_writer(&mut self.timing, &timing).expect("timings serialize");
        self.timing.push(b'\n');
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
