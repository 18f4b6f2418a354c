//! One season split into shards that run anywhere (Slurm array tasks,
//! Kubernetes Indexed Job pods, plain processes), and merged back.
//!
//! Every game's seed derives from the season seed and the game's index, so
//! any process can play any game and get the same record. Shard K of N
//! (`--shard K/N`, K from 1) plays the games of the colour-swapped pairs
//! `p` with `p mod N = K - 1`: game `i` belongs to shard `(i / 2) mod N + 1`.
//! Both games of a pair stay together and every pairing is spread evenly
//! over the shards, so shards take about the same time whatever the bots.
//!
//! A shard journals under `reports/<season>/shards/K-of-N/` exactly as a
//! season does (its games in schedule order, resumable), beside a
//! `shard.json` that says which shard it is (written and checked here, read
//! by the merge and by `verify` and `report` of a shard's folder).
//! `ladder merge` (see [`merge`]) interleaves the shards' journals back
//! into `reports/<season>/games.jsonl`, the journal a single machine would
//! have written, byte for byte.
//!
//! `--shard auto` reads the scheduler's own variables: a Slurm array task's
//! `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_MIN` and `_MAX` (or
//! `_COUNT`), or a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` with the
//! count in `LADDER_SHARDS` (the Job's `completions`).

use std::{
    fmt, fs,
    path::{Path, PathBuf},
    str::FromStr,
};

use crate::core::{
    error::{Error, Invalid, Result},
    files,
};

/// Shard `k` of `n` (`k` from 1); `1/1` is the whole season.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    /// The whole season.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// The shard `index` belongs to.
    pub fn of(index: u64, n: u64) -> Shard {
        Shard {
            k: (index / 2) % n + 1,
            n,
        }
    }

    /// Whether game `index` is this shard's.
    pub fn holds(&self, index: u64) -> bool {
        Shard::of(index, self.n) == *self
    }

    /// How many of the games `0..games` are this shard's.
    pub fn count(&self, games: u64) -> u64 {
        let pairs_per_round = 2 * self.n;
        let whole = games / pairs_per_round * 2;
        let rest = games % pairs_per_round;
        let start = 2 * (self.k - 1);
        whole + rest.saturating_sub(start).min(2)
    }

    /// This shard's `p`-th game (from 0), by its index in the schedule.
    pub fn nth(&self, p: u64) -> u64 {
        let pair = (p / 2) * self.n + (self.k - 1);
        pair * 2 + p % 2
    }

    /// This shard's game after `index` (or at it, if it is this shard's).
    pub fn next_from(&self, index: u64) -> u64 {
        let pair = index / 2;
        let offset = self.k - 1;
        let round = pair / self.n;
        let mine = round * self.n + offset;
        match mine.cmp(&pair) {
            std::cmp::Ordering::Equal => index,
            std::cmp::Ordering::Greater => mine * 2,
            std::cmp::Ordering::Less => (mine + self.n) * 2,
        }
    }

    /// Its folder in the season folder `dir`.
    pub fn dir(&self, dir: &Path) -> PathBuf {
        dir.join("shards").join(self.to_string())
    }

    /// The shard a scheduler's variables name: Slurm array tasks, then
    /// Kubernetes Indexed Jobs; `var` reads one variable.
    pub fn from_scheduler(var: impl Fn(&str) -> Option<String>) -> Result<Shard, Invalid> {
        let number = |name: &str| -> Result<Option<u64>, Invalid> {
            match var(name) {
                None => Ok(None),
                Some(v) => v.trim().parse().map(Some).map_err(|_| {
                    Invalid::new(format!("--shard auto: {name}={v} is not a whole number"))
                }),
            }
        };
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let count = match (
                number("SLURM_ARRAY_TASK_MAX")?,
                number("SLURM_ARRAY_TASK_COUNT")?,
            ) {
                (Some(max), _) if max >= min => max - min + 1,
                (_, Some(count)) => count,
                _ => return Err(Invalid::new(
                    "--shard auto: SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_MAX \
                         nor SLURM_ARRAY_TASK_COUNT is: is this an array job (sbatch --array=0-3)?",
                )),
            };
            if id < min || id - min >= count {
                return Err(Invalid::new(format!(
                    "--shard auto: SLURM_ARRAY_TASK_ID={id} lies outside the array \
                     ({min} to {}); ladder needs a contiguous array such as --array=0-3",
                    min + count - 1
                )));
            }
            return Shard::new(id - min + 1, count);
        }
        if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            let Some(n) = number("LADDER_SHARDS")? else {
                return Err(Invalid::new(
                    "--shard auto: JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but \
                     LADDER_SHARDS is not: set it to the Job's completions",
                ));
            };
            return Shard::new(index + 1, n);
        }
        Err(Invalid::new(
            "--shard auto: no scheduler's variables found: neither SLURM_ARRAY_TASK_ID \
             (a Slurm array job) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set; \
             give the shard as --shard K/N",
        ))
    }

    fn new(k: u64, n: u64) -> Result<Shard, Invalid> {
        if n == 0 || k == 0 || k > n {
            return Err(Invalid::new(format!(
                "a shard is K/N with 1 <= K <= N, got {k}/{n}"
            )));
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    /// `2-of-4`, the shard's folder name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-of-{}", self.k, self.n)
    }
}

impl FromStr for Shard {
    type Err = Invalid;

    /// `2/4`, or `2-of-4` as in a folder name.
    fn from_str(s: &str) -> Result<Shard, Invalid> {
        let (k, n) = s
            .split_once('/')
            .or_else(|| s.split_once("-of-"))
            .ok_or_else(|| Invalid::new(format!("a shard is K/N (e.g. 2/4), got `{s}`")))?;
        let num = |t: &str| {
            t.parse::<u64>()
                .map_err(|_| Invalid::new(format!("a shard is K/N (e.g. 2/4), got `{s}`")))
        };
        Shard::new(num(k)?, num(n)?)
    }
}

/// Which shard to play: given, or read from the scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardArg {
    Given(Shard),
    Auto,
}

impl FromStr for ShardArg {
    type Err = Invalid;

    fn from_str(s: &str) -> Result<ShardArg, Invalid> {
        if s == "auto" {
            Ok(ShardArg::Auto)
        } else {
            s.parse().map(ShardArg::Given)
        }
    }
}

impl ShardArg {
    /// The shard, reading the environment for `auto`.
    pub fn resolve(self) -> Result<Shard> {
        match self {
            ShardArg::Given(s) => Ok(s),
            ShardArg::Auto => Shard::from_scheduler(|name| std::env::var(name).ok())
                .map_err(|e| Error::Usage(e.to_string())),
        }
    }
}

/// The file in a shard's folder that says which shard it is.
pub(super) const SHARD_FILE: &str = "shard.json";

/// `shard.json`: which shard of a season a folder holds (docs/FORMATS.md).
/// Its keys in the order they are written.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ShardFile {
    /// Whether the merged journal is to be compressed.
    pub compress: bool,
    /// Missing in the files of the first day of shards (0).
    #[serde(default)]
    format_version: u64,
    pub games: u64,
    of: u64,
    pub season_games: u64,
    shard: u64,
}

/// Writes `shard.json` in a shard's folder `dir`: which shard of a season of
/// `games` games, and whether the merged journal is to be compressed.
pub fn write_shard_file(dir: &Path, shard: Shard, games: u64, compress: bool) -> Result<()> {
    let file = ShardFile {
        compress,
        format_version: crate::core::record::FORMAT_VERSION.into(),
        games: shard.count(games),
        of: shard.n,
        season_games: games,
        shard: shard.k,
    };
    let text = serde_json::to_string_pretty(&file).expect("JSON values serialize") + "\n";
    let path = dir.join(SHARD_FILE);
    files::replace(&path, text.as_bytes())
}

/// The `shard.json` of the shard in folder `name`, checked: a layout this
/// ladder reads, the shard its folder names, and as many games as that
/// shard of its season has.
fn read_shard_file(file: &Path, shard: Shard, name: &str) -> Result<ShardFile> {
    let text = fs::read_to_string(file).map_err(|e| {
        Error::Usage(format!(
            "{}: not a shard's folder (no readable {SHARD_FILE}: {e})",
            file.parent().unwrap_or(file).display()
        ))
    })?;
    let v: ShardFile = serde_json::from_str(&text).map_err(|e| Error::Damaged {
        path: file.to_path_buf(),
        line: e.line(),
        message: e.to_string(),
    })?;
    let mismatch = |message: String| Error::Mismatch(format!("{}: {message}", file.display()));
    crate::core::record::known_version(v.format_version).map_err(mismatch)?;
    if (v.shard, v.of) != (shard.k, shard.n) {
        return Err(mismatch(format!(
            "says it is shard {}/{}, but its folder is named {name}",
            v.shard, v.of
        )));
    }
    if v.games != shard.count(v.season_games) {
        return Err(mismatch(format!(
            "shard {shard} of a season of {} games holds {}, not {}",
            v.season_games,
            shard.count(v.season_games),
            v.games
        )));
    }
    Ok(v)
}

/// The shard whose folder `dir` is (`shards/K-of-N`, its `shard.json`
/// checked), or `None` for a folder without `shard.json`: a season's own.
pub fn shard_of(dir: &Path) -> Result<Option<Shard>> {
    if !dir.join(SHARD_FILE).exists() {
        return Ok(None);
    }
    Ok(Some(read_shard_dir(dir)?.0))
}

/// The shard a shard's folder `dir` holds: its name (`K-of-N`) parsed and
/// its `shard.json` read and checked against it.
pub(super) fn read_shard_dir(dir: &Path) -> Result<(Shard, ShardFile)> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let shard: Shard = name.parse().map_err(|_| {
        Error::Usage(format!(
            "{}: not a shard's folder (shards are named K-of-N, e.g. 2-of-4)",
            dir.display()
        ))
    })?;
    let file = read_shard_file(&dir.join(SHARD_FILE), shard, &name)?;
    Ok((shard, file))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn every_game_belongs_to_exactly_one_shard_with_its_pair() {
        for n in 1..=7 {
            for games in [0, 1, 2, 5, 13, 14, 100] {
                let shards: Vec<Shard> = (1..=n).map(|k| Shard { k, n }).collect();
                let mut total = 0;
                for s in &shards {
                    let mine: Vec<u64> = (0..games).filter(|&i| s.holds(i)).collect();
                    assert_eq!(s.count(games), mine.len() as u64, "{s} of {games}");
                    total += mine.len();
                    // next_from walks exactly its games
                    let mut walked = Vec::new();
                    let mut i = s.next_from(0);
                    while i < games {
                        walked.push(i);
                        i = s.next_from(i + 1);
                    }
                    assert_eq!(walked, mine, "{s} of {games}");
                    let nth: Vec<u64> = (0..mine.len() as u64).map(|p| s.nth(p)).collect();
                    assert_eq!(nth, mine, "{s} of {games}");
                }
                assert_eq!(total as u64, games);
                for pair in 0..games / 2 {
                    assert_eq!(Shard::of(2 * pair, n), Shard::of(2 * pair + 1, n));
                }
            }
        }
        // games 0-1 to shard 1, 2-3 to shard 2, 4-5 to shard 3, 6-7 to shard 1
        let ks: Vec<u64> = (0..8).map(|i| Shard::of(i, 3).k).collect();
        assert_eq!(ks, [1, 1, 2, 2, 3, 3, 1, 1]);
    }

    #[test]
    fn shards_parse_and_name_their_folders() {
        assert_eq!("2/4".parse::<Shard>().unwrap(), Shard { k: 2, n: 4 });
        assert_eq!("2-of-4".parse::<Shard>().unwrap(), Shard { k: 2, n: 4 });
        assert_eq!(Shard { k: 2, n: 4 }.to_string(), "2-of-4");
        for bad in ["0/4", "5/4", "1/0", "x/4", "2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!("auto".parse::<ShardArg>().unwrap(), ShardArg::Auto);
    }

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn auto_reads_slurm_arrays_and_kubernetes_indexed_jobs() {
        let slurm = |id, min, max| {
            Shard::from_scheduler(env(&[
                ("SLURM_ARRAY_TASK_ID", id),
                ("SLURM_ARRAY_TASK_MIN", min),
                ("SLURM_ARRAY_TASK_MAX", max),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ]))
        };
        assert_eq!(slurm("0", "0", "3").unwrap(), Shard { k: 1, n: 4 });
        assert_eq!(slurm("4", "1", "4").unwrap(), Shard { k: 4, n: 4 });
        let e = slurm("9", "0", "3").unwrap_err().to_string();
        assert!(
            e.contains("SLURM_ARRAY_TASK_ID=9 lies outside the array (0 to 3)"),
            "{e}"
        );
        let only_count = env(&[
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ]);
        assert_eq!(
            Shard::from_scheduler(only_count).unwrap(),
            Shard { k: 3, n: 3 }
        );
        let k8s = env(&[("JOB_COMPLETION_INDEX", "0"), ("LADDER_SHARDS", "5")]);
        assert_eq!(Shard::from_scheduler(k8s).unwrap(), Shard { k: 1, n: 5 });
        let e = Shard::from_scheduler(env(&[("JOB_COMPLETION_INDEX", "0")]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("LADDER_SHARDS is not"), "{e}");
        let e = Shard::from_scheduler(env(&[])).unwrap_err().to_string();
        assert!(e.contains("no scheduler's variables found"), "{e}");
        let e = Shard::from_scheduler(env(&[("SLURM_ARRAY_TASK_ID", "x")]))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("SLURM_ARRAY_TASK_ID=x is not a whole number"),
            "{e}"
        );
    }

    #[test]
    fn a_shard_file_is_read_back_as_written_and_believed_only_when_it_adds_up() {
        let tmp = tempfile::tempdir().unwrap();
        let shard = Shard { k: 2, n: 3 };
        write_shard_file(tmp.path(), shard, 10, true).unwrap();
        let file = tmp.path().join(SHARD_FILE);
        let written = fs::read_to_string(&file).unwrap();
        let read = read_shard_file(&file, shard, "2-of-3").unwrap();
        assert_eq!((read.compress, read.season_games), (true, 10));
        assert_eq!(read.games, shard.count(10));
        // the layout of the files written before this struct (keys sorted)
        let keys: Vec<&str> = written
            .lines()
            .filter_map(|l| l.trim().strip_prefix('"')?.split('"').next())
            .collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        assert_eq!(keys.len(), 6);
        let refused = |text: &str| {
            fs::write(&file, text).unwrap();
            read_shard_file(&file, shard, "2-of-3")
                .err()
                .unwrap_or_else(|| panic!("{text} was believed"))
                .to_string()
        };
        let edit = |from: &str, to: &str| {
            assert!(written.contains(from), "{from}");
            written.replacen(from, to, 1)
        };
        let games = format!("\"games\": {}", shard.count(10));
        let holds = |season: u64, says: u64| format!("holds {}, not {says}", shard.count(season));
        for (text, says) in [
            (edit(&games, "\"games\": 9"), holds(10, 9)),
            (
                edit("\"season_games\": 10", "\"season_games\": 16"),
                holds(16, shard.count(10)),
            ),
            (
                edit("\"shard\": 2", "\"shard\": 1"),
                "says it is shard 1/3".into(),
            ),
            (
                edit("\"format_version\": 1", "\"format_version\": 99"),
                "format_version 99".into(),
            ),
            (
                edit(&format!("{games},"), ""),
                "missing field `games`".into(),
            ),
            (edit("\"of\"", "\"off\""), "unknown field `off`".into()),
            (edit("true", "1"), "invalid type".into()),
        ] {
            let message = refused(&text);
            assert!(message.contains(&says), "{says}: {message}");
        }
        // a file of the first day of shards, without its format_version
        fs::write(&file, edit("\"format_version\": 1,", "")).unwrap();
        assert!(read_shard_file(&file, shard, "2-of-3").is_ok());
    }
}
