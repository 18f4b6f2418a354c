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
//! `shard.json` that says which shard it is. `ladder merge` (see [`merge`])
//! interleaves the shards' journals back into `reports/<season>/games.jsonl`,
//! the journal a single machine would have written, byte for byte.
//!
//! `--shard auto` reads the scheduler's own variables: a Slurm array task's
//! `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_MIN` and `_MAX` (or
//! `_COUNT`), or a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` with the
//! count in `LADDER_SHARDS` (the Job's `completions`).

use std::{
    fmt,
    path::{Path, PathBuf},
    str::FromStr,
};

use crate::core::error::{Error, Invalid, Result};

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
}
