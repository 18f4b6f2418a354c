//! What a season folder holds, for a command that picks a folder for its
//! season (`ladder match`) instead of being told one: nothing, this very
//! season (to resume), or another one (to keep).

use std::path::Path;

use super::{changed_keys, GAMES, GAMES_ZST, PENDING, SEASON};

/// What a season folder holds, for a command that picks a folder for its
/// season (`ladder match`) instead of being told one.
#[derive(Debug, PartialEq, Eq)]
pub enum Holds {
    /// Nothing of a season: the folder is free.
    Nothing,
    /// This very season (the same `season.json`): it resumes there.
    This,
    /// Another season, or games that cannot be matched to one: the keys that
    /// differ (`["seed"]`), empty when the folder's description is missing
    /// or damaged.
    Other(Vec<String>),
}

/// What `dir` holds compared with the season described by `season`.
pub fn holds(dir: &Path, season: &serde_json::Value) -> Holds {
    let season_path = dir.join(SEASON);
    let any = [GAMES, GAMES_ZST, PENDING, SEASON]
        .iter()
        .any(|name| dir.join(name).exists());
    if !any {
        return Holds::Nothing;
    }
    let old = std::fs::read_to_string(&season_path)
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok());
    match old {
        Some(old) if &old == season => Holds::This,
        Some(old) => Holds::Other(changed_keys(&old, season)),
        None => Holds::Other(Vec::new()),
    }
}
