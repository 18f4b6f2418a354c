//! The append-only record of a season: one JSON line per finished game in
//! `reports/<season>/games.jsonl`, beside `season.json`, which describes the
//! config the games came from.
//!
//! Re-running a season reads the journal back and skips the games it holds, so
//! an interrupted season resumes without losing or repeating a game. Lines are
//! written whole and flushed; a last line cut short by a crash is dropped on
//! the next open and its game is played again.
//!
//! Wall-clock times are not deterministic, so they go to `timing.jsonl` beside
//! the journal, keeping `games.jsonl` byte-identical for any `--jobs`.

use std::{
    fs::{self, File, OpenOptions},
    io::{BufWriter, Write},
    path::{Path, PathBuf},
};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::{
    config::BadInput,
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
    pub seats: BySeat<String>,
    pub seed: u64,
    pub result: GameResult,
    pub goals: BySeat<i32>,
    pub termination: Termination,
}

impl From<Record> for Scored {
    fn from(r: Record) -> Self {
        Scored {
            index: r.index,
            seats: r.seats,
            seed: r.seed,
            result: r.result,
            goals: r.goals,
            termination: r.termination,
        }
    }
}

/// A game just played, with its place in the schedule. It serializes to the
/// same JSON as [`Record`], writing each move's wire form straight from the
/// typed move (no string per move: this is the season runner's hot path).
pub struct Finished<'a, G: Game> {
    pub index: u64,
    pub pair: usize,
    pub seats: BySeat<&'a str>,
    pub seed: u64,
    pub played: &'a Played<G>,
}

impl<G: Game> Finished<'_, G> {
    pub fn scored(&self) -> Scored {
        Scored {
            index: self.index,
            seats: self.seats.map(str::to_string),
            seed: self.seed,
            result: self.played.result,
            goals: self.played.goals,
            termination: self.played.termination.clone(),
        }
    }
}

impl<G: Game> Serialize for Finished<'_, G> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let p = self.played;
        let mut st = s.serialize_struct("Record", 9)?;
        st.serialize_field("index", &self.index)?;
        st.serialize_field("pair", &self.pair)?;
        st.serialize_field("seats", &[self.seats.first, self.seats.second])?;
        st.serialize_field("seed", &self.seed)?;
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
    games: Vec<u8>,
    timing: Vec<u8>,
}

impl Lines {
    /// Formats one game's journal and timing lines.
    pub fn push<G: Game>(&mut self, game: &Finished<G>, ms: f64) {
        serde_json::to_writer(&mut self.games, game).expect("records serialize");
        self.games.push(b'\n');
        let timing = Timing {
            index: game.index,
            ms,
        };
        serde_json::to_writer(&mut self.timing, &timing).expect("timings serialize");
        self.timing.push(b'\n');
    }
}

/// An open journal, appending.
pub struct Journal {
    games: BufWriter<File>,
    timing: BufWriter<File>,
    path: PathBuf,
}

const GAMES: &str = "games.jsonl";
const TIMING: &str = "timing.jsonl";
const SEASON: &str = "season.json";

impl Journal {
    /// Opens the journal in `dir` for the season described by `season`, and
    /// returns the records it already holds.
    ///
    /// `fresh` discards earlier results. Otherwise a journal written for a
    /// different season description is refused, so results never mix.
    pub fn open(
        dir: &Path,
        season: &serde_json::Value,
        fresh: bool,
    ) -> Result<(Journal, Vec<Scored>)> {
        let games_path = dir.join(GAMES);
        let season_path = dir.join(SEASON);
        if fresh {
            for name in [GAMES, TIMING, SEASON] {
                let p = dir.join(name);
                if p.exists() {
                    fs::remove_file(&p).with_context(|| format!("removing {}", p.display()))?;
                }
            }
            let logs = dir.join("logs");
            if logs.is_dir() {
                fs::remove_dir_all(&logs)
                    .with_context(|| format!("removing {}", logs.display()))?;
            }
        }
        check_same_season(&season_path, &games_path, season)?;
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let text = serde_json::to_string_pretty(season)? + "\n";
        fs::write(&season_path, text)
            .with_context(|| format!("writing {}", season_path.display()))?;

        let records = read_records(&games_path)?
            .into_iter()
            .map(Scored::from)
            .collect();
        let append = |p: &Path| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("opening {}", p.display()))
        };
        let journal = Journal {
            games: BufWriter::new(append(&games_path)?),
            timing: BufWriter::new(append(&dir.join(TIMING))?),
            path: games_path,
        };
        Ok((journal, records))
    }

    /// Appends one game. Call [`Journal::flush`] to make it durable.
    pub fn append<G: Game>(&mut self, game: &Finished<G>, ms: f64) -> Result<()> {
        let mut lines = Lines::default();
        lines.push(game, ms);
        self.append_lines(&lines)
    }

    /// Appends games already formatted by [`Lines::push`].
    pub fn append_lines(&mut self, lines: &Lines) -> Result<()> {
        self.games
            .write_all(&lines.games)
            .with_context(|| format!("writing {}", self.path.display()))?;
        self.timing.write_all(&lines.timing)?;
        Ok(())
    }

    /// Writes everything appended so far to the files.
    pub fn flush(&mut self) -> Result<()> {
        self.games
            .flush()
            .with_context(|| format!("writing {}", self.path.display()))?;
        self.timing.flush()?;
        Ok(())
    }
}

fn check_same_season(
    season_path: &Path,
    games_path: &Path,
    season: &serde_json::Value,
) -> Result<()> {
    let dir = season_path.parent().unwrap_or(Path::new("."));
    if !season_path.exists() {
        if games_path.exists() && fs::metadata(games_path)?.len() > 0 {
            return Err(BadInput(format!(
                "{} holds games but no {SEASON}, so they cannot be matched to this config; \
                 rerun with --fresh to discard them",
                dir.display()
            ))
            .into());
        }
        return Ok(());
    }
    let text = fs::read_to_string(season_path)
        .with_context(|| format!("reading {}", season_path.display()))?;
    let old: serde_json::Value = serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not valid JSON; rerun with --fresh",
            season_path.display()
        )
    })?;
    if &old == season {
        return Ok(());
    }
    let differing: Vec<String> = match (old.as_object(), season.as_object()) {
        (Some(a), Some(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter()
                .filter(|k| a.get(*k) != b.get(*k))
                .cloned()
                .collect()
        }
        _ => vec!["everything".to_string()],
    };
    Err(BadInput(format!(
        "{} holds results of a different season (changed: {}); mixing them would corrupt the standings. \
         Rerun with --fresh to discard them, or give the season another name",
        dir.display(),
        differing.join(", ")
    ))
    .into())
}

/// Reads a journal, dropping a last line that a crash cut short.
pub fn read_records(path: &Path) -> Result<Vec<Record>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut records = Vec::new();
    let mut good_len = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if !line.ends_with('\n') {
            break; // cut short by a crash: the game is played again
        }
        let record = serde_json::from_str::<Record>(line.trim_end())
            .with_context(|| format!("{}:{}: not a game record", path.display(), n + 1))?;
        records.push(record);
        good_len += line.len();
    }
    if good_len < text.len() {
        let f = OpenOptions::new().write(true).open(path)?;
        f.set_len(good_len as u64)
            .with_context(|| format!("truncating the cut-short last line of {}", path.display()))?;
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        games::{bidding::Bid, breakthrough::Step, Bidding, Breakthrough},
        referee::ForfeitReason,
        seat::Seat,
    };

    fn played(n: u32) -> Played<Bidding> {
        Played {
            turns: (0..n)
                .map(|i| BySeat::new(Some(Bid(i + 1)), Some(Bid(2))))
                .collect(),
            goals: BySeat::new(0, 100),
            result: GameResult::Second,
            termination: Termination::Forfeit {
                seat: Seat::First,
                reason: ForfeitReason::IllegalMove,
                detail: "x".into(),
            },
        }
    }

    fn finished(index: u64, played: &Played<Bidding>) -> Finished<'_, Bidding> {
        Finished {
            index,
            pair: 0,
            seats: BySeat::new("a", "b"),
            seed: 9,
            played,
        }
    }

    #[test]
    fn record_json_shape() {
        let p = played(2);
        let json = serde_json::to_string(&finished(3, &p)).unwrap();
        assert_eq!(
            json,
            r#"{"index":3,"pair":0,"seats":["a","b"],"seed":9,"result":"second","goals":[0,100],"termination":{"kind":"forfeit","seat":"first","reason":"illegal-move","detail":"x"},"plies":2,"moves":[["1","2"],["2","2"]]}"#
        );
        let back: Record = serde_json::from_str(&json).unwrap();
        assert_eq!(
            back.moves[1],
            Turn::Both(BySeat::new("2".into(), "2".into()))
        );
        assert_eq!(Scored::from(back), finished(3, &p).scored());

        // an alternating game writes one move per turn
        let p = Played::<Breakthrough> {
            turns: vec![
                BySeat::new(Some("b2c3".parse::<Step>().unwrap()), None),
                BySeat::new(None, Some("g7f6".parse().unwrap())),
            ],
            goals: BySeat::new(50, 50),
            result: GameResult::Draw,
            termination: Termination::PlyLimit,
        };
        let f = Finished {
            index: 0,
            pair: 1,
            seats: BySeat::new("x", "y"),
            seed: 1,
            played: &p,
        };
        let json = serde_json::to_string(&f).unwrap();
        assert!(
            json.ends_with(
                r#""termination":{"kind":"ply-limit"},"plies":2,"moves":["b2c3","g7f6"]}"#
            ),
            "{json}"
        );
    }

    #[test]
    fn resumes_and_drops_a_cut_short_last_line() {
        let dir = tempfile::tempdir().unwrap();
        let season = serde_json::json!({"name": "t"});
        let p = played(1);
        {
            let (mut j, old) = Journal::open(dir.path(), &season, false).unwrap();
            assert!(old.is_empty());
            j.append(&finished(0, &p), 1.0).unwrap();
            j.append(&finished(1, &p), 1.0).unwrap();
            j.flush().unwrap();
        }
        // a crash in the middle of the third line
        let path = dir.path().join(GAMES);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(br#"{"index":2,"pair":0,"se"#).unwrap();
        drop(f);
        let (mut j, old) = Journal::open(dir.path(), &season, false).unwrap();
        assert_eq!(
            old,
            vec![finished(0, &p).scored(), finished(1, &p).scored()]
        );
        j.append(&finished(2, &p), 1.0).unwrap();
        j.flush().unwrap();
        let indices: Vec<u64> = read_records(&path)
            .unwrap()
            .iter()
            .map(|r| r.index)
            .collect();
        assert_eq!(indices, [0, 1, 2]);
        let timing = fs::read_to_string(dir.path().join(TIMING)).unwrap();
        assert_eq!(timing.lines().count(), 3);
    }

    #[test]
    fn refuses_another_seasons_journal_unless_fresh() {
        let dir = tempfile::tempdir().unwrap();
        let a = serde_json::json!({"name": "t", "seed": 1});
        let b = serde_json::json!({"name": "t", "seed": 2});
        let p = played(1);
        let (mut j, _) = Journal::open(dir.path(), &a, false).unwrap();
        j.append(&finished(0, &p), 1.0).unwrap();
        j.flush().unwrap();
        drop(j);
        let err = Journal::open(dir.path(), &b, false)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("changed: seed"), "{err}");
        assert!(err.contains("--fresh"), "{err}");
        let (_, old) = Journal::open(dir.path(), &b, true).unwrap();
        assert!(old.is_empty());
    }

    #[test]
    fn a_corrupt_line_in_the_middle_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES);
        let good = serde_json::to_string(&finished(0, &played(1))).unwrap();
        fs::write(&path, format!("{good}\nnonsense\n{good}\n")).unwrap();
        let err = read_records(&path).unwrap_err().to_string();
        assert!(err.contains(":2:"), "{err}");
    }
}
