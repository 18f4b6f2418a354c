//! What a season folder holds, compared with a season's description: the
//! one check behind resuming a season (`Journal::open_shard` refuses a
//! folder of another season) and behind `ladder match` picking a folder of
//! its own (it resumes this very match, or keeps another one); and
//! `season.json` as written ([`versioned`]) and as compared ([`unversioned`]).

use std::{fs, path::Path};

use super::{recorded, GAMES, SEASON};
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
    Ok(match recorded::parse_season(&text).map(unversioned) {
        Err(e) => Holds::Damaged(e.to_string()),
        Ok(old) if &old == season => Holds::This,
        Ok(old) => Holds::Other(changed_keys(&old, season)),
    })
}

/// The largest integer JavaScript and jq hold exactly (2^53 - 1).
const EXACT_IN_JAVASCRIPT: u64 = (1 << 53) - 1;

/// A season's description as `season.json` holds it: with
/// `format_version`, and the seed also as `seed_text` when JavaScript
/// would round it.
pub fn versioned(season: &serde_json::Value) -> serde_json::Value {
    let mut season = season.clone();
    let seed = season["seed"].as_u64();
    if let Some(o) = season.as_object_mut() {
        o.insert(
            "format_version".to_string(),
            crate::core::record::FORMAT_VERSION.into(),
        );
        if let Some(seed) = seed.filter(|&s| s > EXACT_IN_JAVASCRIPT) {
            o.insert("seed_text".to_string(), seed.to_string().into());
        }
    }
    season
}

/// A description read from `season.json` as the plan describes a season:
/// without `format_version` and `seed_text` (absent from files written
/// before them).
pub fn unversioned(mut season: serde_json::Value) -> serde_json::Value {
    if let Some(o) = season.as_object_mut() {
        o.remove("format_version");
        o.remove("seed_text");
    }
    season
}

/// The top-level keys whose values differ between two season descriptions
/// (`season.json`), sorted; `everything` when one is not an object.
pub fn changed_keys(a: &serde_json::Value, b: &serde_json::Value) -> Vec<String> {
    match (a.as_object(), b.as_object()) {
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
    }
}
