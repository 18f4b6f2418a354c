//! `ladder merge DIR`: the shards of a season ([`super::shard`]) back into
//! one journal and its reports, the files a single machine would have
//! written, byte for byte.
//!
//! Before anything is written every shard is checked: it must belong to the
//! same season (the same `season.json`), the shards must agree on their
//! number, none may come twice, and no game may be missing or come twice. A
//! missing game is listed with the shard that owes it, as index ranges
//! (`shard 2 of 4 owes games 2-3, 10-11`). Each game is replayed through the
//! rules as `ladder verify` replays it, since a shard's journal was written
//! on another machine and copied here. Then the shards' journals are read
//! in turn, game `i` from the shard that holds it, and written in schedule
//! order: one open file and one line per shard in memory, whatever the
//! number of games. A season with a sequential test stops where a single
//! machine would have stopped: at the game that decided it.

use std::{
    collections::BTreeMap,
    fs,
    io::{BufWriter, Write},
    path::{Path, PathBuf},
};

use crate::{
    core::error::{Error, Result},
    core::files::{self, FolderLock},
    core::record::Scored,
    core::text::count,
    journal::recorded::{self, Recorded},
    journal::shard::{read_shard_dir, Shard, SHARD_FILE},
    journal::verify::Replays,
    journal::{self, LineReader},
    plan::Header,
    stats::sprt::InOrder,
    stats::standings::Standings,
};

/// The checker of a recorded season's games ([`journal::verify::rules`] of
/// its game).
pub type Rules = dyn for<'r> Fn(&'r Recorded) -> Result<Box<dyn Replays + 'r>>;

/// What a merge did.
pub struct Merged {
    pub dir: PathBuf,
    pub shards: u64,
    pub games: u64,
    pub header: Header,
    pub standings: Standings,
}

/// One shard's folder, as found.
struct Found {
    shard: Shard,
    dir: PathBuf,
    compress: bool,
    /// The season's games, as its `shard.json` says.
    season_games: u64,
}

/// Merges the shards in `dir/shards/` into `dir`, or, when `dir` has no
/// shards but season folders below it do (a ladder's folder), each of those.
///
/// `rules` gives the checker of a season's games (the game is known only
/// to the catalogue, above this floor): every game is replayed and checked
/// as `ladder verify` checks it before it is merged, since a shard's
/// journal comes from another machine.
/// `done` is called on each merged season before the next is merged (the
/// caller writes its reports, from a floor above this one).
pub fn merge_all(
    dir: &Path,
    rules: &Rules,
    done: &dyn Fn(&Merged) -> Result<()>,
) -> Result<Vec<Merged>> {
    let merge_one = |d: &Path| {
        let merged = merge(d, rules)?;
        done(&merged)?;
        Ok(merged)
    };
    if dir.join("shards").is_dir() {
        return Ok(vec![merge_one(dir)?]);
    }
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.join("shards").is_dir() {
                found.push(path);
            } else if path.is_dir() && path.components().count() < dir.components().count() + 3 {
                stack.push(path);
            }
        }
    }
    if found.is_empty() {
        return Err(Error::Usage(format!(
            "{}: no shards to merge (no shards/ folder here or in the season folders below)",
            dir.display()
        )));
    }
    found.sort();
    found.iter().map(|d| merge_one(d)).collect()
}

/// Merges the shards in `dir/shards/` into `dir` ([`merge_all`]).
pub fn merge(dir: &Path, rules: &Rules) -> Result<Merged> {
    let _lock = FolderLock::hold(dir, "season")?;
    let found = find_shards(dir)?;
    let n = found[0].shard.n;
    let recorded = Recorded::read(&found[0].dir)?;
    let check = rules(&recorded).map_err(|e| {
        let season = found[0].dir.join("season.json");
        Error::Mismatch(format!("{}: {e}", season.display()))
    })?;
    let season_text = read_season(&found[0].dir)?;
    let season = recorded::parse_season(&season_text)
        .map_err(|e| Error::Mismatch(format!("{}: {e}", found[0].dir.display())))?;
    for f in &found[1..] {
        let other = recorded::parse_season(&read_season(&f.dir)?)
            .map_err(|e| Error::Mismatch(format!("{}: {e}", f.dir.display())))?;
        if other != season {
            return Err(Error::Mismatch(format!(
                "{} belongs to another season than {} (changed: {}); nothing was written",
                f.dir.display(),
                found[0].dir.display(),
                journal::changed_keys(&season, &other).join(", ")
            )));
        }
    }
    let total = recorded.schedule.len();
    if let Some(f) = found.iter().find(|f| f.season_games != total) {
        return Err(Error::Mismatch(format!(
            "{}: its {SHARD_FILE} counts {} games in the season, whose schedule has {total}; \
             nothing was written",
            f.dir.display(),
            f.season_games
        )));
    }
    let mut problems = Problems::default();
    for k in 1..=n {
        if !found.iter().any(|f| f.shard.k == k) {
            problems.note_missing_shard(Shard { k, n }, total);
        }
    }
    for f in &found {
        let pending = f.dir.join("pending.jsonl");
        if fs::metadata(&pending).is_ok_and(|m| m.len() > 0) {
            problems.messages.push(format!(
                "{} was cut short: games it finished out of order wait in {}; \
                 rerun that shard to complete it",
                f.dir.display(),
                pending.display()
            ));
        }
    }

    let mut readers: BTreeMap<u64, (LineReader, Option<Scored>)> = BTreeMap::new();
    for f in &found {
        let reader = LineReader::open(&f.dir.join("games.jsonl"), 8 * 1024)?;
        readers.insert(f.shard.k, (reader, None));
    }
    let out_path = dir.join("games.jsonl.merging");
    let mut out =
        BufWriter::new(fs::File::create(&out_path).map_err(Error::io("creating", &out_path))?);
    let mut in_order = recorded
        .sprt
        .clone()
        .map(|t| InOrder::new(t, &recorded.names));
    let mut standings = Standings::empty(&recorded.names);
    standings.anchor = recorded.anchor;
    let mut written = 0u64;
    let result = (|| -> Result<()> {
        for i in 0..total {
            let shard = Shard::of(i, n);
            let Some((reader, peeked)) = readers.get_mut(&shard.k) else {
                continue; // the whole shard is missing, noted above
            };
            let game = next_or_peeked(reader, peeked, &recorded, shard)?;
            match game {
                Some(g) if g.index == i => {
                    // the game's line is the last the reader read (a game
                    // kept for its turn is read past only once written)
                    let line = reader.last_line();
                    let wrong = journal::parse_record(line).and_then(|r| check.check(&r));
                    if let Err(message) = wrong {
                        return Err(Error::Journal {
                            path: reader.path().to_path_buf(),
                            line: reader.line,
                            message: format!("game {i}: {message}; nothing was written"),
                        });
                    }
                    out.write_all(line.as_bytes())
                        .and_then(|()| out.write_all(b"\n"))
                        .map_err(Error::io("writing", &out_path))?;
                    written += 1;
                    standings.add(&g);
                    if let Some(test) = in_order.as_mut() {
                        if test.add(&g) {
                            return Ok(()); // a single machine stops here too
                        }
                    }
                }
                Some(g) if g.index < i => return Err(twice(reader, &g)),
                later => {
                    // game i is missing: keep what was read for its turn
                    *peeked = later;
                    problems.note_missing_game(shard, i);
                }
            }
        }
        // whatever a shard holds beyond the season is not of this season
        for (k, (reader, peeked)) in readers.iter_mut() {
            let extra = next_or_peeked(reader, peeked, &recorded, Shard { k: *k, n })?;
            if let Some(g) =
                extra.filter(|_| in_order.as_ref().is_none_or(|t| t.decided_at.is_none()))
            {
                return Err(twice(reader, &g));
            }
        }
        Ok(())
    })();
    let result = result.and_then(|()| problems.check());
    if let Err(e) = result {
        drop(out);
        let _ = fs::remove_file(&out_path);
        return Err(e);
    }
    out.into_inner()
        .map_err(|e| Error::io("writing", &out_path)(e.into_error()))?
        .sync_all()
        .map_err(Error::io("writing", &out_path))?;
    // the merged season replaces whatever the folder held
    for stale in ["games.jsonl.zst", "pending.jsonl"] {
        let p = dir.join(stale);
        if p.exists() {
            fs::remove_file(&p).map_err(Error::io("removing", &p))?;
        }
    }
    let season_path = dir.join("season.json");
    files::replace(&season_path, season_text.as_bytes())?;
    let games_path = dir.join("games.jsonl");
    fs::rename(&out_path, &games_path).map_err(Error::io("renaming", &out_path))?;
    merge_timing(dir, &found)?;
    if found.iter().any(|f| f.compress) {
        journal::compress(dir)?;
    }
    // the standings were counted while the journal was written: the caller
    // writes the reports from them as a single machine's are
    let header = recorded.header();
    Ok(Merged {
        dir: dir.to_path_buf(),
        shards: n,
        games: written,
        header,
        standings,
    })
}

/// The game kept for its turn, if any, else the next of the shard's journal.
fn next_or_peeked(
    reader: &mut LineReader,
    peeked: &mut Option<Scored>,
    recorded: &Recorded,
    shard: Shard,
) -> Result<Option<Scored>> {
    match peeked.take() {
        Some(g) => Ok(Some(g)),
        None => next_game(reader, recorded, shard),
    }
}

/// The error for game `g`, just read, that came before: it comes twice, or
/// out of order.
fn twice(reader: &LineReader, g: &Scored) -> Error {
    Error::Mismatch(format!(
        "{}:{}: game {} comes twice, or out of schedule order; nothing was written",
        reader.path().display(),
        reader.line,
        g.index
    ))
}

/// The next game of a shard's journal; a game of another shard is an error.
fn next_game(reader: &mut LineReader, recorded: &Recorded, shard: Shard) -> Result<Option<Scored>> {
    let path = reader.path().to_path_buf();
    if reader.next_line()?.is_none() {
        return Ok(None);
    }
    let (line, line_no) = (reader.last_line(), reader.line);
    let pair_of = |i| recorded.schedule.pair_of(i);
    let scored = Scored::from_line_where(line, &recorded.names, &pair_of)
        .map_err(|e| Error::Journal {
            path: path.clone(),
            line: line_no,
            message: e.to_string(),
        })?
        .ok_or_else(|| Error::Journal {
            path: path.clone(),
            line: line_no,
            message: "the game names a bot this season does not have".into(),
        })?;
    if !shard.holds(scored.index) {
        return Err(Error::Mismatch(format!(
            "{}:{line_no}: game {} belongs to shard {} of {}, not to {shard}; nothing was written",
            path.display(),
            scored.index,
            Shard::of(scored.index, shard.n).k,
            shard.n
        )));
    }
    Ok(Some(scored))
}

/// What stops a merge, collected so that all of it is said at once.
#[derive(Default)]
struct Problems {
    /// Per shard: the missing games, as ranges of indices.
    missing: BTreeMap<Shard, Vec<(u64, u64)>>,
    messages: Vec<String>,
}

impl Problems {
    /// Game `index` of `shard` is missing: a range goes on while the
    /// shard's next games (its own, skipping other shards') are missing too.
    fn note_missing_game(&mut self, shard: Shard, index: u64) {
        let ranges = self.missing.entry(shard).or_default();
        match ranges.last_mut() {
            Some((_, end)) if shard.next_from(*end + 1) == index => *end = index,
            _ => ranges.push((index, index)),
        }
    }

    fn note_missing_shard(&mut self, shard: Shard, total: u64) {
        self.messages.push(format!(
            "shard {} of {} is missing: no folder shards/{shard} (its {} games)",
            shard.k,
            shard.n,
            shard.count(total)
        ));
    }

    fn check(self) -> Result<()> {
        let mut lines = self.messages;
        for (shard, ranges) in &self.missing {
            let games: u64 = ranges
                .iter()
                .map(|&(a, b)| shard.count(b + 1) - shard.count(a))
                .sum();
            let shown: Vec<String> = ranges
                .iter()
                .take(20)
                .map(|&(a, b)| {
                    if a == b {
                        a.to_string()
                    } else {
                        format!("{a}-{b}")
                    }
                })
                .collect();
            let more = if ranges.len() > 20 { ", ..." } else { "" };
            lines.push(format!(
                "shard {} of {} owes {}: {}{more} (its own games in those ranges)",
                shard.k,
                shard.n,
                count(games, "game"),
                shown.join(", ")
            ));
        }
        if lines.is_empty() {
            return Ok(());
        }
        Err(Error::Mismatch(format!(
            "the shards do not make a whole season; nothing was written:\n  {}",
            lines.join("\n  ")
        )))
    }
}

/// The shards in `dir/shards/`, in order; an error for anything that is not
/// one, for shards that disagree on their number, and for a shard twice.
fn find_shards(dir: &Path) -> Result<Vec<Found>> {
    let shards_dir = dir.join("shards");
    let entries = fs::read_dir(&shards_dir).map_err(|e| {
        Error::Usage(format!(
            "{}: no shards to merge ({e}); shards journal under <season>/shards/K-of-N/",
            shards_dir.display()
        ))
    })?;
    let mut found: Vec<Found> = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        let (shard, v) = read_shard_dir(&path)?;
        if let Some(twin) = found.iter().find(|f| f.shard == shard) {
            return Err(Error::Mismatch(format!(
                "shard {} of {} comes twice: {} and {}; nothing was written",
                shard.k,
                shard.n,
                twin.dir.display(),
                path.display()
            )));
        }
        found.push(Found {
            shard,
            dir: path,
            compress: v.compress,
            season_games: v.season_games,
        });
    }
    if found.is_empty() {
        return Err(Error::Usage(format!(
            "{}: no shards to merge",
            shards_dir.display()
        )));
    }
    found.sort_by_key(|f| (f.shard.n, f.shard.k));
    if let Some(other) = found.iter().find(|f| f.shard.n != found[0].shard.n) {
        return Err(Error::Mismatch(format!(
            "{} splits the season into {} shards, {} into {}: merge shards of one split only",
            found[0].dir.display(),
            found[0].shard.n,
            other.dir.display(),
            other.shard.n
        )));
    }
    Ok(found)
}

fn read_season(dir: &Path) -> Result<String> {
    let path = dir.join("season.json");
    fs::read_to_string(&path).map_err(Error::io("reading", &path))
}

/// The shards' timing lines, one after another, as the season's
/// `timing.jsonl` (wall-clock times: never part of the results): whole
/// lines only, so a line a crash cut short does not run into the next.
fn merge_timing(dir: &Path, found: &[Found]) -> Result<()> {
    let path = dir.join("timing.jsonl");
    let mut out = BufWriter::new(fs::File::create(&path).map_err(Error::io("creating", &path))?);
    for f in found {
        journal::for_each_line(&f.dir.join("timing.jsonl"), |_, line| {
            out.write_all(line.as_bytes())
                .map_err(Error::io("writing", &path))
        })?;
    }
    out.flush().map_err(Error::io("writing", &path))
}
