//! The append-only record of a season: one JSON line per finished game in
//! `reports/<season>/games.jsonl`, beside `season.json`, which describes the
//! config the games came from.
//!
//! Re-running a season reads the journal back and skips the games it holds, so
//! an interrupted season resumes without losing or repeating a game. Lines are
//! written whole and flushed; a last line cut short by a crash is dropped on
//! the next open and its game is played again. Commands that only read a
//! journal (`verify`, `report`, `export`, `replay`) never change it: they
//! may read a season another ladder is writing.
//!
//! Wall-clock times are not deterministic, so they go to `timing.jsonl` beside
//! the journal, keeping `games.jsonl` byte-identical for any `--jobs`.
//!
//! `games.jsonl` is always in schedule order. A game that finishes before an
//! earlier one goes at once to `pending.jsonl`, so an interrupt or a kill
//! loses nothing finished; it moves into `games.jsonl` when its turn comes,
//! also on resume, and `pending.jsonl` is removed when the season is complete.
//!
//! The journal is read as a stream, one line at a time, so resuming or
//! verifying a season of any size costs the memory of one game. A complete
//! season's journal may be compressed (`games.jsonl.zst`, zstd); it is read
//! the same way, and expanded back should games ever be appended to it.
//!
//! This folder is the files floor: each line is a
//! [`crate::core::record`]; [`recorded`] reads a season back from its folder, [`verify`] replays a
//! journal through the rules, [`replay`] tells one game, [`shard`] and
//! [`merge`] split a season across machines and join it again.

mod holds;
mod lines;
pub mod merge;
pub mod recorded;
pub mod replay;
pub mod shard;
pub mod verify;

pub use holds::{changed_keys, holds, unversioned, versioned, Holds};
use lines::zst_path;
pub use lines::{
    for_each_game, for_each_game_line, for_each_line, for_each_record, parse_record, read_records,
    LineReader,
};

use std::{
    fs::{self, File, OpenOptions},
    io::{self, BufReader, BufWriter, Write},
    path::{Path, PathBuf},
};

use crate::{
    core::files::{self, FolderLock},
    core::record::{Finished, Lines, Scored},
    core::{
        error::{Error, Result},
        game::Game,
    },
    journal::shard::Shard,
};

/// An open journal, appending.
pub struct Journal {
    /// Opened at the first game to append: a complete season's compressed
    /// journal is read, never reopened, when nothing is left to play.
    games: Option<BufWriter<File>>,
    timing: BufWriter<File>,
    pending: BufWriter<File>,
    path: PathBuf,
    timing_path: PathBuf,
    pending_path: PathBuf,
    /// The season's folder, held while the journal is open: a second
    /// ladder running the same season is refused.
    _lock: FolderLock,
}

/// What a journal already holds when it is opened.
#[derive(Debug, Default)]
pub struct Resumed {
    /// How many games `games.jsonl` holds: the journal's first games in
    /// schedule order (games 0, 1, 2, ...; a shard's own, see
    /// [`Shard::nth`]), each handed to the caller as it was read.
    pub journaled: u64,
    /// Games finished out of order in an interrupted run, not yet in
    /// `games.jsonl`: each with its journal line (line end included), which
    /// goes there when its turn comes.
    pub pending: Vec<(Scored, String)>,
}

pub const GAMES: &str = "games.jsonl";
/// `games.jsonl` compressed with zstd, once its season is complete.
const GAMES_ZST: &str = "games.jsonl.zst";
const TIMING: &str = "timing.jsonl";
const PENDING: &str = "pending.jsonl";
const SEASON: &str = "season.json";

impl Journal {
    /// Opens the journal in `dir` for the season described by `season`,
    /// whose bots are `bots`. Each game `games.jsonl` holds in order is
    /// handed to `each` as it is read (the journal is streamed, never held
    /// in memory); the games finished out of order are returned.
    ///
    /// `fresh` discards earlier results. Otherwise a journal written for a
    /// different season description is refused, so results never mix.
    pub fn open(
        dir: &Path,
        season: &serde_json::Value,
        fresh: bool,
        bots: &[String],
        each: &mut dyn FnMut(Scored) -> Result<()>,
    ) -> Result<(Journal, Resumed)> {
        Journal::open_shard(dir, season, fresh, bots, Shard::WHOLE, &|_| None, each)
    }

    /// [`Journal::open`] for the journal of one shard of a season, which
    /// holds only that shard's games; a game of another shard is refused,
    /// and so is one whose `pair` is not `pair_of` its index, where that
    /// gives one (the schedule's pairing).
    pub fn open_shard(
        dir: &Path,
        season: &serde_json::Value,
        fresh: bool,
        bots: &[String],
        shard: Shard,
        pair_of: &dyn Fn(u64) -> Option<usize>,
        each: &mut dyn FnMut(Scored) -> Result<()>,
    ) -> Result<(Journal, Resumed)> {
        let lock = FolderLock::hold(dir, "season")?;
        let games_path = dir.join(GAMES);
        let season_path = dir.join(SEASON);
        if fresh {
            for name in [GAMES, GAMES_ZST, TIMING, PENDING, SEASON] {
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
        check_same_season(dir, season)?;
        fs::create_dir_all(dir).map_err(Error::io("creating", dir))?;
        let text =
            serde_json::to_string_pretty(&versioned(season)).expect("JSON values serialize") + "\n";
        files::replace(&season_path, text.as_bytes())?;

        let score = |path: &Path, n: usize, line: &str| {
            let bad = |message: String| Error::Journal {
                path: path.to_path_buf(),
                line: n,
                message,
            };
            match Scored::from_line_where(line.trim_end(), bots, pair_of) {
                Ok(Some(scored)) if !shard.holds(scored.index) => Err(Error::Mismatch(format!(
                    "{}:{n}: game {} belongs to shard {} of {}, not to this one ({shard})",
                    path.display(),
                    scored.index,
                    Shard::of(scored.index, shard.n).k,
                    shard.n
                ))),
                Ok(Some(scored)) => Ok(scored),
                Ok(None) => Err(Error::Mismatch(format!(
                    "{}:{n}: the game names a bot this season does not have; {}",
                    path.display(),
                    keep_them(dir)
                ))),
                Err(e) => Err(bad(e.to_string())),
            }
        };
        // games.jsonl holds games 0, 1, 2, ... in order; a damaged one (a line
        // deleted or moved by hand) keeps its in-order part, and the rest
        // waits in pending.jsonl for its turn, so the order is restored
        let mut resumed = Resumed::default();
        let mut in_order_bytes = 0u64;
        let mut out_of_order: Vec<(Scored, String)> = Vec::new();
        let cut_short = for_each_line(&games_path, |n, line| {
            let scored = score(&games_path, n, line)?;
            if out_of_order.is_empty() && scored.index == shard.nth(resumed.journaled) {
                in_order_bytes += line.len() as u64;
                resumed.journaled += 1;
                // the caller's checks, placed at their line
                each(scored).map_err(|e| match e {
                    Error::Mismatch(m) => {
                        Error::Mismatch(format!("{}:{n}: {m}", games_path.display()))
                    }
                    other => other,
                })
            } else {
                out_of_order.push((scored, line.to_string()));
                Ok(())
            }
        })?;
        let compressed = dir.join(GAMES_ZST).exists();
        if compressed && !out_of_order.is_empty() {
            return Err(Error::Mismatch(format!(
                "{}: games out of schedule order in a compressed journal; {}",
                dir.display(),
                keep_them(dir)
            )));
        }
        let pending_path = dir.join(PENDING);
        let journaled = resumed.journaled;
        let mut seen = std::collections::HashSet::new();
        let mut kept = String::new();
        let mut keep = |scored: Scored, line: String| {
            if scored.index >= shard.nth(journaled) && seen.insert(scored.index) {
                kept.push_str(&line);
                resumed.pending.push((scored, line));
            } // else in games.jsonl already
        };
        for (scored, line) in out_of_order.iter().cloned() {
            keep(scored, line);
        }
        for_each_line(&pending_path, |n, line| {
            keep(score(&pending_path, n, line)?, line.to_string());
            Ok(())
        })?;
        if pending_path.exists() || !kept.is_empty() {
            // only what is still pending, so the file never grows across resumes
            files::replace(&pending_path, kept.as_bytes())?;
        }
        // only now that those games are safe in pending.jsonl; a last line
        // a crash cut short goes too (its game is played again)
        let keep_len = if out_of_order.is_empty() {
            cut_short
        } else {
            Some(in_order_bytes)
        };
        if let Some(len) = keep_len {
            OpenOptions::new()
                .write(true)
                .open(&games_path)
                .and_then(|f| f.set_len(len))
                .map_err(Error::io("cutting the last lines of", &games_path))?;
        }
        let append = |p: &Path| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(Error::io("opening", p))
        };
        let timing_path = dir.join(TIMING);
        // a timing line a crash cut short would run into the next one
        cut_unended_line(&timing_path)?;
        let journal = Journal {
            games: None,
            timing: BufWriter::new(append(&timing_path)?),
            pending: BufWriter::new(append(&pending_path)?),
            path: games_path,
            timing_path,
            pending_path,
            _lock: lock,
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
        let games = match &mut self.games {
            Some(games) => games,
            None => self
                .games
                .insert(BufWriter::new(open_to_append(&self.path)?)),
        };
        games
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
        if let Some(games) = &mut self.games {
            games.flush().map_err(Error::io("writing", &self.path))?;
        }
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

/// Cuts off the last line of the file at `path` if a crash left it
/// without its end, so that what is appended starts on a line of its own;
/// read from the end, so a file of any length costs a block or two. No
/// file is nothing to cut.
fn cut_unended_line(path: &Path) -> Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io("opening", path)(e)),
    };
    let io_error = |e| Error::io("cutting the last line of", path)(e);
    let mut end = file.metadata().map_err(io_error)?.len();
    let mut block = [0u8; 4096];
    let mut last = true;
    while end > 0 {
        let start = end.saturating_sub(block.len() as u64);
        let piece = &mut block[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))
            .and_then(|_| file.read_exact(piece))
            .map_err(io_error)?;
        if last && piece.last() == Some(&b'\n') {
            return Ok(()); // it ends with a line end
        }
        last = false;
        if let Some(at) = piece.iter().rposition(|&b| b == b'\n') {
            end = start + at as u64 + 1;
            break;
        }
        end = start;
    }
    file.set_len(end).map_err(io_error)
}

/// Opens `games.jsonl` to append. A compressed journal (games appended
/// to a season that was complete) is expanded first; a stale compressed
/// copy beside a plain journal goes.
fn open_to_append(path: &Path) -> Result<File> {
    let zst = zst_path(path);
    if zst.exists() {
        if !path.exists() {
            let tmp = path.with_extension("jsonl.expanding");
            let mut out = BufWriter::new(File::create(&tmp).map_err(Error::io("creating", &tmp))?);
            let input = File::open(&zst).map_err(Error::io("reading", &zst))?;
            zstd::stream::copy_decode(input, &mut out).map_err(Error::io("expanding", &zst))?;
            out.into_inner()
                .map_err(|e| Error::io("writing", &tmp)(e.into_error()))?
                .sync_all()
                .map_err(Error::io("writing", &tmp))?;
            fs::rename(&tmp, path).map_err(Error::io("renaming", &tmp))?;
        }
        fs::remove_file(&zst).map_err(Error::io("removing", &zst))?;
    }
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(Error::io("opening", path))
}

/// Compresses the journal of a complete season in `dir` (`games.jsonl`
/// becomes `games.jsonl.zst`, about a tenth of the size), which resume,
/// `report` and `verify` read as they read the plain one. The compressed
/// file is complete before the plain one goes, so a crash loses nothing.
pub fn compress(dir: &Path) -> Result<()> {
    let path = dir.join(GAMES);
    if !path.exists() {
        return Ok(()); // compressed already, or no game
    }
    let zst = zst_path(&path);
    let tmp = dir.join("games.jsonl.zst.part");
    let input = File::open(&path).map_err(Error::io("reading", &path))?;
    let out = File::create(&tmp).map_err(Error::io("creating", &tmp))?;
    let mut encoder =
        zstd::Encoder::new(out, ZSTD_LEVEL).map_err(Error::io("compressing", &path))?;
    // a checksum of the content, so a damaged file is an error when read,
    // not games with wrong moves
    encoder
        .include_checksum(true)
        .map_err(Error::io("compressing", &path))?;
    io::copy(&mut BufReader::new(input), &mut encoder).map_err(Error::io("compressing", &path))?;
    encoder
        .finish()
        .and_then(|f| f.sync_all())
        .map_err(Error::io("writing", &tmp))?;
    fs::rename(&tmp, &zst).map_err(Error::io("renaming", &tmp))?;
    fs::remove_file(&path).map_err(Error::io("removing", &path))
}

/// zstd's level for journals: most of the size gain of higher levels at a
/// fraction of their time.
const ZSTD_LEVEL: i32 = 6;

/// Whether the folder `dir` may take the journal of `season`: refused, saying
/// how to keep its games, when it holds another season's or games it cannot
/// match to one.
fn check_same_season(dir: &Path, season: &serde_json::Value) -> Result<()> {
    match holds(dir, season)? {
        Holds::Nothing | Holds::This => Ok(()),
        Holds::Undescribed => Err(Error::Mismatch(format!(
            "{} holds games but no {SEASON}, so they cannot be matched to this config; {}",
            dir.display(),
            keep_them(dir)
        ))),
        Holds::Damaged(e) => Err(Error::Mismatch(format!(
            "{} is damaged ({e}), so the games beside it cannot be matched to this config; {}",
            dir.join(SEASON).display(),
            keep_them(dir)
        ))),
        Holds::Other(differing) => Err(Error::Mismatch(format!(
            "{} holds results of a different season (changed: {}); mixing them would corrupt the standings: {}",
            dir.display(),
            differing.join(", "),
            keep_them(dir)
        ))),
    }
}

/// Whether `path` is a file of the journal in the season folder `dir` (a
/// folder with `season.json`; the games, timing and pending lines), under any name
/// that leads to it, or will be once the season writes it: a file ladder
/// must never write anything else to (`export -o`, `--log`).
pub fn is_journal_file(dir: &Path, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let names = [SEASON, GAMES, GAMES_ZST, TIMING, PENDING];
    if !dir.join(SEASON).is_file() {
        return false; // no season's folder
    }
    // by its name in the season's folder, whether it is there yet or not
    let in_dir = fs::canonicalize(crate::core::files::folder_of(path))
        .is_ok_and(|p| fs::canonicalize(dir).is_ok_and(|d| d == p));
    if in_dir
        && path
            .file_name()
            .is_some_and(|n| names.iter().any(|m| n == *m))
    {
        return true;
    }
    let Ok(target) = fs::metadata(path) else {
        return false; // not there, so nothing to lose
    };
    names.iter().any(|name| {
        fs::metadata(dir.join(name))
            .is_ok_and(|own| own.dev() == target.dev() && own.ino() == target.ino())
    })
}

/// What to do with a season folder whose games cannot be used, without
/// losing them: no advice of ladder's destroys results.
pub fn keep_them(dir: &Path) -> String {
    format!(
        "give the season another name, or move {} aside (its games stay there) and rerun",
        dir.display()
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::{
        core::record::{Record, Turn},
        core::{
            game::GameResult,
            referee::{ForfeitReason, Played, Termination},
            seat::{BySeat, Seat},
        },
        games::{bidding::Bid, breakthrough::Step, Bidding, Breakthrough},
    };

    fn names() -> Vec<String> {
        vec!["a".to_string(), "b".to_string()]
    }

    #[test]
    fn a_last_line_without_its_end_is_cut_off_whatever_its_length() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lines");
        let long = "x".repeat(10_000);
        for (text, kept) in [
            ("", ""),
            ("a\nb\n", "a\nb\n"),
            ("a\nb", "a\n"),
            ("no end", ""),
            (&*format!("a\n{long}"), "a\n"),
            (&*format!("{long}\nb"), &*format!("{long}\n")),
            (&*long, ""),
        ] {
            fs::write(&path, text).unwrap();
            cut_unended_line(&path).unwrap();
            assert_eq!(fs::read_to_string(&path).unwrap(), kept, "{text:.20}");
        }
        fs::remove_file(&path).unwrap();
        cut_unended_line(&path).unwrap();
        assert!(!path.exists(), "no file is nothing to cut");
    }

    /// Opens a journal, ignoring the games it holds in order.
    pub(crate) fn open(
        dir: &Path,
        season: &serde_json::Value,
        fresh: bool,
        names: &[String],
    ) -> Result<(Journal, Resumed)> {
        Journal::open(dir, season, fresh, names, &mut |_| Ok(()))
    }

    /// Opens a journal, keeping the games it holds in order.
    fn open_keeping(
        dir: &Path,
        season: &serde_json::Value,
        names: &[String],
    ) -> (Journal, Resumed, Vec<Scored>) {
        let mut kept = Vec::new();
        let (j, r) = Journal::open(dir, season, false, names, &mut |s| {
            kept.push(s);
            Ok(())
        })
        .unwrap();
        (j, r, kept)
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
            delay: Default::default(),
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
            opening: None,
            played,
        }
    }

    #[test]
    fn record_json_shape() {
        let names = names();
        let p = played(2);
        let json = finished(3, &p, &names).line();
        assert_eq!(
            json,
            r#"{"index":3,"pair":0,"seats":["a","b"],"seed":9,"seed_text":"9","result":"second","goals":[0,100],"termination":{"kind":"forfeit","seat":"first","reason":"illegal-move","detail":"x"},"plies":2,"moves":[["1","2"],["2","2"]]}"#
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
            delay: Default::default(),
        };
        let xy = ["x".to_string(), "y".to_string()];
        let f = Finished {
            index: 0,
            pair: 1,
            seats: BySeat::new(0, 1),
            names: &xy,
            seed: 1,
            opening: None,
            played: &p,
        };
        let json = f.line();
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
            let (mut j, old) = open(dir.path(), &season, false, &names).unwrap();
            assert_eq!(old.journaled, 0);
            j.append(&finished(0, &p, &names), 1.0).unwrap();
            j.append(&finished(1, &p, &names), 1.0).unwrap();
            j.flush().unwrap();
        }
        // a crash in the middle of the third line
        let path = dir.path().join(GAMES);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(br#"{"index":2,"pair":0,"se"#).unwrap();
        drop(f);
        let (mut j, old, scored) = open_keeping(dir.path(), &season, &names);
        assert_eq!(old.journaled, 2);
        assert_eq!(
            scored,
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
        let (mut j, _) = open(dir.path(), &a, false, &names).unwrap();
        j.append(&finished(0, &p, &names), 1.0).unwrap();
        j.flush().unwrap();
        drop(j);
        let err = open(dir.path(), &b, false, &names)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("changed: seed"), "{err}");
        // the advice keeps the games: no `--fresh`
        assert!(err.contains("move") && err.contains("aside"), "{err}");
        assert!(!err.contains("--fresh"), "{err}");
        let (_, old) = open(dir.path(), &b, true, &names).unwrap();
        assert_eq!(old.journaled, 0);
    }

    #[test]
    fn a_compressed_journal_streams_like_a_plain_one_and_expands_to_grow() {
        let names = names();
        let dir = tempfile::tempdir().unwrap();
        let season = serde_json::json!({"name": "t"});
        let p = played(1);
        let (mut j, _) = open(dir.path(), &season, false, &names).unwrap();
        for i in 0..3 {
            j.append(&finished(i, &p, &names), 1.0).unwrap();
        }
        j.finish().unwrap();
        let plain = fs::read(dir.path().join(GAMES)).unwrap();
        compress(dir.path()).unwrap();
        assert!(!dir.path().join(GAMES).exists());
        let (mut j, old, scored) = open_keeping(dir.path(), &season, &names);
        assert_eq!(old.journaled, 3);
        let indices: Vec<u64> = scored.iter().map(|s| s.index).collect();
        assert_eq!(indices, [0, 1, 2]);
        // opening plays nothing and leaves the compressed journal alone
        assert!(!dir.path().join(GAMES).exists());
        // a game to append expands it first
        j.append(&finished(3, &p, &names), 1.0).unwrap();
        j.flush().unwrap();
        assert!(!dir.path().join(GAMES_ZST).exists());
        let grown = fs::read(dir.path().join(GAMES)).unwrap();
        assert_eq!(&grown[..plain.len()], &plain[..]);
        let indices: Vec<u64> = read_records(&dir.path().join(GAMES))
            .unwrap()
            .iter()
            .map(|r| r.index)
            .collect();
        assert_eq!(indices, [0, 1, 2, 3]);
    }

    #[test]
    fn a_corrupt_line_in_the_middle_is_an_error() {
        let names = names();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES);
        let good = finished(0, &played(1), &names).line();
        fs::write(&path, format!("{good}\nnonsense\n{good}\n")).unwrap();
        let err = read_records(&path).unwrap_err().to_string();
        assert!(err.contains(":2:"), "{err}");
    }

    #[test]
    fn a_line_whose_moves_are_not_its_plies_is_not_resumed() {
        let names = names();
        let dir = tempfile::tempdir().unwrap();
        let season = serde_json::json!({"name": "t"});
        let (p3, p2) = (played(3), played(2));
        let good = finished(0, &p3, &names).line();
        // a turn cut out of the moves, the plies left as they were
        let cut = finished(1, &p2, &names)
            .line()
            .replace("\"plies\":2", "\"plies\":3");
        assert!(cut.contains("\"plies\":3"), "{cut}");
        fs::create_dir_all(dir.path()).unwrap();
        fs::write(dir.path().join(GAMES), format!("{good}\n{cut}\n")).unwrap();
        fs::write(
            dir.path().join(SEASON),
            serde_json::to_string(&versioned(&season)).unwrap(),
        )
        .unwrap();
        let err = open(dir.path(), &season, false, &names)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            err.contains(":2: not a game record: game 1: 3 plies, but 2 turns of moves"),
            "{err}"
        );
    }
}
