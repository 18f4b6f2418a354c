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
//!
//! `games.jsonl` is always in schedule order. A game that finishes before an
//! earlier one goes at once to `pending.jsonl`, so an interrupt or a kill
//! loses nothing finished; it moves into `games.jsonl` when its turn comes,
//! also on resume, and `pending.jsonl` is removed when the season is complete.

use std::{
    fs::{self, File, OpenOptions},
    io::{BufWriter, Write},
    path::{Path, PathBuf},
};

use crate::{
    core::{
        error::{Error, Result},
        game::Game,
    },
    season::record::{Finished, Lines, Record, Scored},
};

/// An open journal, appending.
pub struct Journal {
    games: BufWriter<File>,
    timing: BufWriter<File>,
    pending: BufWriter<File>,
    path: PathBuf,
    timing_path: PathBuf,
    pending_path: PathBuf,
}

/// What a journal already holds when it is opened.
#[derive(Debug, Default)]
pub struct Resumed {
    /// The games of `games.jsonl`, in schedule order.
    pub journaled: Vec<Scored>,
    /// Games finished out of order in an interrupted run, not yet in
    /// `games.jsonl`: each with its journal line (line end included), which
    /// goes there when its turn comes.
    pub pending: Vec<(Scored, String)>,
}

const GAMES: &str = "games.jsonl";
const TIMING: &str = "timing.jsonl";
const PENDING: &str = "pending.jsonl";
const SEASON: &str = "season.json";

impl Journal {
    /// Opens the journal in `dir` for the season described by `season`,
    /// whose bots are `bots`, and returns the games it already holds.
    ///
    /// `fresh` discards earlier results. Otherwise a journal written for a
    /// different season description is refused, so results never mix.
    pub fn open(
        dir: &Path,
        season: &serde_json::Value,
        fresh: bool,
        bots: &[String],
    ) -> Result<(Journal, Resumed)> {
        let games_path = dir.join(GAMES);
        let season_path = dir.join(SEASON);
        if fresh {
            for name in [GAMES, TIMING, PENDING, SEASON] {
                let p = dir.join(name);
                if p.exists() {
                    fs::remove_file(&p).map_err(Error::io("removing", &p))?;
                }
            }
            let logs = dir.join("logs");
            if logs.is_dir() {
                fs::remove_dir_all(&logs).map_err(Error::io("removing", &logs))?;
            }
        }
        check_same_season(&season_path, &games_path, season)?;
        fs::create_dir_all(dir).map_err(Error::io("creating", dir))?;
        let text = serde_json::to_string_pretty(season).expect("JSON values serialize") + "\n";
        fs::write(&season_path, text).map_err(Error::io("writing", &season_path))?;

        let score = |record: Record, path: &Path| {
            let index = record.index;
            record.scored(bots).ok_or_else(|| {
                Error::Mismatch(format!(
                    "{}: game {index} names a bot this season does not have; rerun with --fresh",
                    path.display()
                ))
            })
        };
        // games.jsonl holds games 0, 1, 2, ... in order; a damaged one (a line
        // deleted or moved by hand) keeps its in-order part, and the rest
        // waits in pending.jsonl for its turn, so the order is restored
        let mut resumed = Resumed::default();
        let mut in_order_bytes = 0u64;
        let mut out_of_order = Vec::new();
        for (record, line) in read_lines(&games_path)? {
            if out_of_order.is_empty() && record.index == resumed.journaled.len() as u64 {
                in_order_bytes += line.len() as u64;
                resumed.journaled.push(score(record, &games_path)?);
            } else {
                out_of_order.push((record, line, &games_path));
            }
        }
        let pending_path = dir.join(PENDING);
        let journaled = resumed.journaled.len() as u64;
        let mut seen = std::collections::HashSet::new();
        let mut kept = String::new();
        let pending_lines = read_lines(&pending_path)?;
        let from_pending = pending_lines
            .into_iter()
            .map(|(r, l)| (r, l, &pending_path));
        for (record, line, path) in out_of_order.iter().cloned().chain(from_pending) {
            let index = record.index;
            if index < journaled || !seen.insert(index) {
                continue; // in games.jsonl already
            }
            kept.push_str(&line);
            resumed.pending.push((score(record, path)?, line));
        }
        if pending_path.exists() || !kept.is_empty() {
            // only what is still pending, so the file never grows across resumes
            fs::write(&pending_path, &kept).map_err(Error::io("writing", &pending_path))?;
        }
        if !out_of_order.is_empty() {
            // only now that those games are safe in pending.jsonl
            OpenOptions::new()
                .write(true)
                .open(&games_path)
                .and_then(|f| f.set_len(in_order_bytes))
                .map_err(Error::io("cutting the out-of-order tail of", &games_path))?;
        }
        let append = |p: &Path| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(Error::io("opening", p))
        };
        let timing_path = dir.join(TIMING);
        let journal = Journal {
            games: BufWriter::new(append(&games_path)?),
            timing: BufWriter::new(append(&timing_path)?),
            pending: BufWriter::new(append(&pending_path)?),
            path: games_path,
            timing_path,
            pending_path,
        };
        Ok((journal, resumed))
    }

    /// Appends one game. Call [`Journal::flush`] to make it durable.
    pub fn append<G: Game>(&mut self, game: &Finished<G>, ms: f64) -> Result<()> {
        let mut lines = Lines::default();
        lines.push(game, ms);
        self.append_lines(&lines)
    }

    /// Appends games already formatted by [`Lines::push`], in schedule order.
    pub fn append_lines(&mut self, lines: &Lines) -> Result<()> {
        self.append_games(&lines.games)?;
        self.append_timing(&lines.timing)
    }

    /// Appends journal lines that come next in schedule order.
    pub fn append_games(&mut self, lines: &[u8]) -> Result<()> {
        self.games
            .write_all(lines)
            .map_err(Error::io("writing", &self.path))
    }

    /// Appends journal lines of games finished before their turn.
    pub fn append_pending(&mut self, lines: &[u8]) -> Result<()> {
        self.pending
            .write_all(lines)
            .map_err(Error::io("writing", &self.pending_path))
    }

    /// Appends timing lines (in any order).
    pub fn append_timing(&mut self, lines: &[u8]) -> Result<()> {
        self.timing
            .write_all(lines)
            .map_err(Error::io("writing", &self.timing_path))
    }

    /// Writes everything appended so far to the files: pending games first,
    /// so that a game moved into `games.jsonl` is always in a file already.
    pub fn flush(&mut self) -> Result<()> {
        self.pending
            .flush()
            .map_err(Error::io("writing", &self.pending_path))?;
        self.games
            .flush()
            .map_err(Error::io("writing", &self.path))?;
        self.timing
            .flush()
            .map_err(Error::io("writing", &self.timing_path))
    }

    /// Closes a complete season's journal: every game is in `games.jsonl`,
    /// so `pending.jsonl` goes.
    pub fn finish(mut self) -> Result<()> {
        self.flush()?;
        drop(self.pending);
        fs::remove_file(&self.pending_path).map_err(Error::io("removing", &self.pending_path))
    }
}

fn check_same_season(
    season_path: &Path,
    games_path: &Path,
    season: &serde_json::Value,
) -> Result<()> {
    let dir = season_path.parent().unwrap_or(Path::new("."));
    if !season_path.exists() {
        let holds_games = fs::metadata(games_path).is_ok_and(|m| m.len() > 0);
        if holds_games {
            return Err(Error::Mismatch(format!(
                "{} holds games but no {SEASON}, so they cannot be matched to this config; \
                 rerun with --fresh to discard them",
                dir.display()
            )));
        }
        return Ok(());
    }
    let text = fs::read_to_string(season_path).map_err(Error::io("reading", season_path))?;
    let Ok(old) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Err(Error::Mismatch(format!(
            "{} is not valid JSON; rerun with --fresh",
            season_path.display()
        )));
    };
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
    Err(Error::Mismatch(format!(
        "{} holds results of a different season (changed: {}); mixing them would corrupt the standings. \
         Rerun with --fresh to discard them, or give the season another name",
        dir.display(),
        differing.join(", ")
    )))
}

/// Reads a journal, dropping a last line that a crash cut short.
pub fn read_records(path: &Path) -> Result<Vec<Record>> {
    Ok(read_lines(path)?.into_iter().map(|(r, _)| r).collect())
}

/// Reads a journal's records with their lines (line end included), dropping
/// (and cutting off) a last line that a crash cut short.
pub fn read_lines(path: &Path) -> Result<Vec<(Record, String)>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = fs::read_to_string(path).map_err(Error::io("reading", path))?;
    let mut records = Vec::new();
    let mut good_len = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if !line.ends_with('\n') {
            break; // cut short by a crash: the game is played again
        }
        let record =
            serde_json::from_str::<Record>(line.trim_end()).map_err(|e| Error::Journal {
                path: path.to_path_buf(),
                line: n + 1,
                message: e.to_string(),
            })?;
        records.push((record, line.to_string()));
        good_len += line.len();
    }
    if good_len < text.len() {
        OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(good_len as u64))
            .map_err(Error::io("truncating the cut-short last line of", path))?;
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        core::{
            game::GameResult,
            referee::{ForfeitReason, Played, Termination},
            seat::{BySeat, Seat},
        },
        games::{bidding::Bid, breakthrough::Step, Bidding, Breakthrough},
        season::record::Turn,
    };

    fn names() -> Vec<String> {
        vec!["a".to_string(), "b".to_string()]
    }

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
                overrun_ms: None,
            },
        }
    }

    fn finished<'a>(
        index: u64,
        played: &'a Played<Bidding>,
        names: &'a [String],
    ) -> Finished<'a, Bidding> {
        Finished {
            index,
            pair: 0,
            seats: BySeat::new(0, 1),
            names,
            seed: 9,
            played,
        }
    }

    #[test]
    fn record_json_shape() {
        let names = names();
        let p = played(2);
        let json = serde_json::to_string(&finished(3, &p, &names)).unwrap();
        assert_eq!(
            json,
            r#"{"index":3,"pair":0,"seats":["a","b"],"seed":9,"result":"second","goals":[0,100],"termination":{"kind":"forfeit","seat":"first","reason":"illegal-move","detail":"x"},"plies":2,"moves":[["1","2"],["2","2"]]}"#
        );
        let back: Record = serde_json::from_str(&json).unwrap();
        assert_eq!(
            back.moves[1],
            Turn::Both(BySeat::new("2".into(), "2".into()))
        );
        assert_eq!(back.scored(&names), Some(finished(3, &p, &names).scored()));

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
        let xy = ["x".to_string(), "y".to_string()];
        let f = Finished {
            index: 0,
            pair: 1,
            seats: BySeat::new(0, 1),
            names: &xy,
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
        let names = names();
        let dir = tempfile::tempdir().unwrap();
        let season = serde_json::json!({"name": "t"});
        let p = played(1);
        {
            let (mut j, old) = Journal::open(dir.path(), &season, false, &names).unwrap();
            assert!(old.journaled.is_empty());
            j.append(&finished(0, &p, &names), 1.0).unwrap();
            j.append(&finished(1, &p, &names), 1.0).unwrap();
            j.flush().unwrap();
        }
        // a crash in the middle of the third line
        let path = dir.path().join(GAMES);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(br#"{"index":2,"pair":0,"se"#).unwrap();
        drop(f);
        let (mut j, old) = Journal::open(dir.path(), &season, false, &names).unwrap();
        assert_eq!(
            old.journaled,
            vec![
                finished(0, &p, &names).scored(),
                finished(1, &p, &names).scored()
            ]
        );
        j.append(&finished(2, &p, &names), 1.0).unwrap();
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
        let names = names();
        let dir = tempfile::tempdir().unwrap();
        let a = serde_json::json!({"name": "t", "seed": 1});
        let b = serde_json::json!({"name": "t", "seed": 2});
        let p = played(1);
        let (mut j, _) = Journal::open(dir.path(), &a, false, &names).unwrap();
        j.append(&finished(0, &p, &names), 1.0).unwrap();
        j.flush().unwrap();
        drop(j);
        let err = Journal::open(dir.path(), &b, false, &names)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("changed: seed"), "{err}");
        assert!(err.contains("--fresh"), "{err}");
        let (_, old) = Journal::open(dir.path(), &b, true, &names).unwrap();
        assert!(old.journaled.is_empty());
    }

    #[test]
    fn a_corrupt_line_in_the_middle_is_an_error() {
        let names = names();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES);
        let good = serde_json::to_string(&finished(0, &played(1), &names)).unwrap();
        fs::write(&path, format!("{good}\nnonsense\n{good}\n")).unwrap();
        let err = read_records(&path).unwrap_err().to_string();
        assert!(err.contains(":2:"), "{err}");
    }
}
