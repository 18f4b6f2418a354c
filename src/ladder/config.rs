//! A ladder config: a season config (`docs/CONFIG.md`) plus a `[ladder]`
//! table and two keys per bot. `docs/LADDER.md` documents them.
//!
//! ```toml
//! [ladder]
//! divisions = 2        # default 1
//! promote = 1          # top bots of a lower division that move up (default 1)
//! relegate = 1         # bottom bots of a higher division that move down (default: promote)
//! format = "round-robin"   # or "gauntlet": each season, newcomers against the field
//!
//! [[bot]]
//! name = "..."
//! active = false       # retires the bot, its history kept (default true)
//! division = 1         # where a newcomer starts (default: the lowest division)
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::{core::error::Result, plan::config::ConfigFile};

/// Divisions at most; each needs bots to play.
pub const MAX_DIVISIONS: u32 = 100;

/// A ladder's own settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub divisions: u32,
    pub promote: u32,
    pub relegate: u32,
    /// Each season is newcomers against the field, instead of a round-robin.
    pub gauntlet: bool,
    /// Per bot of the config: whether it takes part.
    pub active: BTreeMap<String, bool>,
    /// Per bot of the config that gives one: the division it starts in.
    pub placement: BTreeMap<String, u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLadder {
    divisions: Option<Spanned<u32>>,
    promote: Option<Spanned<u32>>,
    relegate: Option<Spanned<u32>>,
    format: Option<Spanned<String>>,
}

#[derive(Deserialize)]
struct RawBot {
    name: String,
    active: Option<bool>,
    division: Option<Spanned<u32>>,
}

#[derive(Deserialize)]
struct RawFile {
    ladder: Option<RawLadder>,
    #[serde(default, rename = "bot")]
    bots: Vec<RawBot>,
}

/// Reads the ladder settings of `src`, which the season reading
/// (`plan::config::plan`) has checked otherwise.
pub fn settings(src: &ConfigFile) -> Result<Settings> {
    let raw: RawFile = src.parse()?;
    let Some(ladder) = raw.ladder else {
        return Err(src.error(
            None,
            "not a ladder config: add a [ladder] table (docs/LADDER.md), or play it with `ladder run`",
        ));
    };
    let value = |v: &Option<Spanned<u32>>| v.as_ref().map(|v| *v.get_ref());
    let divisions = value(&ladder.divisions).unwrap_or(1);
    if !(1..=MAX_DIVISIONS).contains(&divisions) {
        let span = ladder.divisions.as_ref().map(Spanned::span);
        return Err(src.error(
            span,
            format!("divisions must be 1..={MAX_DIVISIONS}, got {divisions}"),
        ));
    }
    let promote = value(&ladder.promote).unwrap_or(u32::from(divisions > 1));
    let relegate = value(&ladder.relegate).unwrap_or(promote);
    if divisions > 1 && promote == 0 && relegate == 0 {
        let span = ladder.promote.as_ref().map(Spanned::span);
        return Err(src.error(
            span,
            "with divisions, promote or relegate must be at least 1, or nothing ever moves",
        ));
    }
    let gauntlet = match ladder.format.as_ref().map(|f| f.get_ref().as_str()) {
        None | Some("round-robin") => false,
        Some("gauntlet") => true,
        Some(other) => {
            return Err(src.error(
                ladder.format.as_ref().map(Spanned::span),
                format!("unknown ladder format `{other}`; known: round-robin, gauntlet"),
            ))
        }
    };
    let mut settings = Settings {
        divisions,
        promote,
        relegate,
        gauntlet,
        active: BTreeMap::new(),
        placement: BTreeMap::new(),
    };
    for b in raw.bots {
        if let Some(d) = &b.division {
            if !(1..=divisions).contains(d.get_ref()) {
                return Err(src.error(
                    Some(d.span()),
                    format!("division must be 1..={divisions}, got {}", d.get_ref()),
                ));
            }
            settings.placement.insert(b.name.clone(), *d.get_ref());
        }
        settings.active.insert(b.name, b.active.unwrap_or(true));
    }
    Ok(settings)
}
