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

impl Record {
    /// The journal form of a played game.
    pub fn new<G: Game>(
        index: u64,
        pair: usize,
        seats: BySeat<String>,
        seed: u64,
        played: Played<G>,
    ) -> Self {
        let moves = played
            .turns
            .iter()
            .filter_map(|t| match (&t.first, &t.second) {
                (Some(a), Some(b)) => Some(Turn::Both(BySeat::new(a.to_string(), b.to_string()))),
                (Some(m), None) | (None, Some(m)) => Some(Turn::One(m.to_string())),
                (None, None) => None,
            })
            .collect();
        Record {
            index,
            pair,
            seats,
            seed,
            result: played.result,
            goals: played.goals,
            termination: played.termination,
            plies: played.turns.len() as u32,
            moves,
        }
    }
}

/// Wall-clock time of one game, kept apart from the deterministic journal.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Timing {
    pub index: u64,
    pub ms: f64,
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
    ) -> Result<(Journal, Vec<Record>)> {
        let games_path = dir.join(GAMES);
        let season_path = dir.join(SEASON);
        if fresh {
            for name in [GAMES, TIMING, SEASON] {
                let p = dir.join(name);
                if p.exists() {
                    fs::remove_file(&p).with_context(|| format!("removing {}", p.display()))?;
                }
            }
        }
        check_same_season(&season_path, &games_path, season)?;
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let text = serde_json::to_string_pretty(season)? + "\n";
        fs::write(&season_path, text)
            .with_context(|| format!("writing {}", season_path.display()))?;

        let records = read_records(&games_path)?;
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
    pub fn append(&mut self, record: &Record, ms: f64) -> Result<()> {
        let mut line = serde_json::to_vec(record)?;
        line.push(b'\n');
        self.games
            .write_all(&line)
            .with_context(|| format!("writing {}", self.path.display()))?;
        let mut line = serde_json::to_vec(&Timing {
            index: record.index,
            ms,
        })?;
        line.push(b'\n');
        self.timing.write_all(&line)?;
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
    use crate::referee::ForfeitReason;
    use crate::seat::Seat;

    fn record(index: u64) -> Record {
        Record {
            index,
            pair: 0,
            seats: BySeat::new("a".into(), "b".into()),
            seed: 9,
            result: GameResult::Second,
            goals: BySeat::new(0, 100),
            termination: Termination::Forfeit {
                seat: Seat::First,
                reason: ForfeitReason::IllegalMove,
                detail: "x".into(),
            },
            plies: 2,
            moves: vec![
                Turn::One("b2c3".into()),
                Turn::Both(BySeat::new("1".into(), "2".into())),
            ],
        }
    }

    #[test]
    fn record_json_shape() {
        let json = serde_json::to_string(&record(3)).unwrap();
        assert_eq!(
            json,
            r#"{"index":3,"pair":0,"seats":["a","b"],"seed":9,"result":"second","goals":[0,100],"termination":{"kind":"forfeit","seat":"first","reason":"illegal-move","detail":"x"},"plies":2,"moves":["b2c3",["1","2"]]}"#
        );
        assert_eq!(serde_json::from_str::<Record>(&json).unwrap(), record(3));
    }

    #[test]
    fn resumes_and_drops_a_cut_short_last_line() {
        let dir = tempfile::tempdir().unwrap();
        let season = serde_json::json!({"name": "t"});
        {
            let (mut j, old) = Journal::open(dir.path(), &season, false).unwrap();
            assert!(old.is_empty());
            j.append(&record(0), 1.0).unwrap();
            j.append(&record(1), 1.0).unwrap();
            j.flush().unwrap();
        }
        // a crash in the middle of the third line
        let path = dir.path().join(GAMES);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(br#"{"index":2,"pair":0,"se"#).unwrap();
        drop(f);
        let (mut j, old) = Journal::open(dir.path(), &season, false).unwrap();
        assert_eq!(old, vec![record(0), record(1)]);
        j.append(&record(2), 1.0).unwrap();
        j.flush().unwrap();
        assert_eq!(
            read_records(&path).unwrap(),
            vec![record(0), record(1), record(2)]
        );
    }

    #[test]
    fn refuses_another_seasons_journal_unless_fresh() {
        let dir = tempfile::tempdir().unwrap();
        let a = serde_json::json!({"name": "t", "seed": 1});
        let b = serde_json::json!({"name": "t", "seed": 2});
        let (mut j, _) = Journal::open(dir.path(), &a, false).unwrap();
        j.append(&record(0), 1.0).unwrap();
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
        let good = serde_json::to_string(&record(0)).unwrap();
        fs::write(&path, format!("{good}\nnonsense\n{good}\n")).unwrap();
        let err = read_records(&path).unwrap_err().to_string();
        assert!(err.contains(":2:"), "{err}");
    }
}
