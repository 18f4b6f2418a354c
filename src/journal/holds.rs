//! What a season folder holds, compared with a season's description: the
//! one check behind resuming a season (`Journal::open_shard` refuses a
//! folder of another season) and behind `ladder match` picking a folder of
//! its own (it resumes this very match, or keeps another one).

use std::{fs, path::Path};

use super::{changed_keys, unversioned, GAMES, SEASON};
use crate::core::error::{Error, Result};

/// What a season folder holds.
#[derive(Debug, PartialEq, Eq)]
pub enum Holds {
    /// No `season.json` and no game: the folder is free.
    Nothing,
    /// This very season (the same `season.json`): it resumes there.
    This,
    /// Another season: the top-level keys that differ (`["seed"]`).
    Other(Vec<String>),
    /// Games but no `season.json`, so they cannot be matched to a season.
    Undescribed,
    /// A `season.json` that does not parse: why.
    Damaged(String),
}

/// What `dir` holds compared with the season described by `season`; an
/// error only when `season.json` is there but cannot be read.
pub fn holds(dir: &Path, season: &serde_json::Value) -> Result<Holds> {
    let season_path = dir.join(SEASON);
    if !season_path.exists() {
        let holds_games = fs::metadata(dir.join(GAMES)).is_ok_and(|m| m.len() > 0);
        return Ok(if holds_games {
            Holds::Undescribed
        } else {
            Holds::Nothing
        });
    }
    let text = fs::read_to_string(&season_path).map_err(Error::io("reading", &season_path))?;
    Ok(
        match serde_json::from_str::<serde_json::Value>(&text).map(unversioned) {
            Err(e) => Holds::Damaged(e.to_string()),
            Ok(old) if &old == season => Holds::This,
            Ok(old) => Holds::Other(changed_keys(&old, season)),
        },
    )
}
