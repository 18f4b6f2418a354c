//! `reports/<ladder>/ladder.json`: everything a ladder carries from season
//! to season (each bot's rating, division and record, and every season's
//! results), written atomically so a crash never leaves half of it.

use std::{collections::BTreeMap, fs, path::Path};

use serde::{Deserialize, Serialize};

use crate::core::error::{Error, Result};

/// The whole ladder.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    /// [`crate::core::record::FORMAT_VERSION`]; 0 in a file written before it.
    #[serde(default)]
    pub format_version: u32,
    pub ladder: String,
    pub game: String,
    /// Every bot that ever played, by name.
    pub bots: BTreeMap<String, BotState>,
    /// Completed seasons, first first.
    pub seasons: Vec<Season>,
    /// The season being played: its rosters fixed when it started, so a
    /// rerun after a crash finishes the same season.
    pub current: Option<Season>,
}

/// One bot's standing on the ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotState {
    /// Glicko-2 rating, deviation and volatility.
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// 1 is the top division.
    pub division: u32,
    pub active: bool,
    /// The season it joined (or last rejoined).
    pub joined: u32,
    pub games: u64,
    pub won: u64,
    pub lost: u64,
    pub tie: u64,
    /// What the last season did to it.
    pub movement: Movement,
    /// After each season it played: (season, rating, deviation, division).
    pub history: Vec<(u32, f64, f64, u32)>,
}

/// How a bot's place changed in a season.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Movement {
    New,
    Up,
    Down,
    Stay,
    Retired,
}

impl Movement {
    pub fn word(self) -> &'static str {
        match self {
            Movement::New => "new",
            Movement::Up => "up",
            Movement::Down => "down",
            Movement::Stay => "-",
            Movement::Retired => "retired",
        }
    }
}

/// One season of the ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Season {
    pub number: u32,
    pub divisions: Vec<Division>,
    /// Bots that joined (or rejoined) and retired at its start.
    pub joined: Vec<String>,
    pub retired: Vec<String>,
    /// Bots alone in their division, so without games, that would have
    /// been alone again: each moved up to the nearest division above with
    /// bots (absent from files written before the rule).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alone: Vec<String>,
}

impl Season {
    /// The folder of division `division`'s reports under the ladder's:
    /// `season-NNN`, or `season-NNN/division-D` when there are several.
    pub fn folder(&self, division: u32) -> String {
        if self.divisions.len() > 1 {
            format!("season-{:03}/division-{division}", self.number)
        } else {
            format!("season-{:03}", self.number)
        }
    }
}

/// One division's part of a season.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Division {
    pub division: u32,
    pub seed: u64,
    /// The seed as text, for readers that round 64-bit integers (absent
    /// from files written before it); checked against `seed` when read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_text: Option<String>,
    /// Its bots, in config order.
    pub bots: Vec<String>,
    /// Those new to this division's games (a gauntlet season plays them
    /// against the field).
    pub newcomers: Vec<String>,
    /// Once the season is complete: the division's final table.
    pub results: Vec<Row>,
}

/// A bot's line in a division's final table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub bot: String,
    pub rank: usize,
    pub games: u64,
    pub won: u64,
    pub lost: u64,
    pub tie: u64,
    pub points: f64,
    /// The Glicko-2 rating and deviation after the season.
    pub rating: f64,
    pub deviation: f64,
    /// The division it plays in next season.
    pub next_division: u32,
    pub movement: Movement,
}

const FILE: &str = "ladder.json";

/// The ratings and deviations a ladder can hold: Glicko-2 on the Elo
/// scale stays far inside these, so anything outside was not written by ladder.
const RATING_RANGE: std::ops::RangeInclusive<f64> = -10_000.0..=10_000.0;
const DEVIATION_RANGE: std::ops::RangeInclusive<f64> = 0.0..=10_000.0;
const VOLATILITY_RANGE: std::ops::RangeInclusive<f64> = 0.0..=10.0;

impl State {
    /// Whether every number is one ladder could have written; else what is not.
    fn check(&self) -> std::result::Result<(), String> {
        crate::core::record::known_version(u64::from(self.format_version))?;
        let out = |what: &str, bot: &str, v: f64, range: &std::ops::RangeInclusive<f64>| {
            (!range.contains(&v)).then(|| {
                format!(
                    "{bot}'s {what} {v:e} is outside {}..={}: not a value ladder writes",
                    range.start(),
                    range.end()
                )
            })
        };
        for (name, b) in &self.bots {
            let bad = out("rating", name, b.rating, &RATING_RANGE)
                .or_else(|| out("deviation", name, b.deviation, &DEVIATION_RANGE))
                .or_else(|| out("volatility", name, b.volatility, &VOLATILITY_RANGE))
                .or_else(|| {
                    b.history.iter().find_map(|(_, r, d, _)| {
                        out("rating in its history", name, *r, &RATING_RANGE)
                            .or_else(|| out("deviation in its history", name, *d, &DEVIATION_RANGE))
                    })
                });
            if let Some(why) = bad {
                return Err(why);
            }
            if b.division == 0 {
                return Err(format!("{name}'s division is 0; divisions count from 1"));
            }
        }
        // names become folders and files and are shown on terminals: each
        // is one a config could give, and a season names only the ladder's bots
        crate::plan::check_name(&self.ladder).map_err(|e| format!("the ladder's name: {e}"))?;
        for name in self.bots.keys() {
            crate::plan::check_name(name).map_err(|e| format!("a bot's name: {e}"))?;
        }
        for season in self.seasons.iter().chain(&self.current) {
            let named = season.divisions.iter().flat_map(|d| {
                let rows = d.results.iter().map(|r| &r.bot);
                d.bots.iter().chain(&d.newcomers).chain(rows)
            });
            let lists = season
                .joined
                .iter()
                .chain(&season.retired)
                .chain(&season.alone);
            if let Some(stranger) = named.chain(lists).find(|n| !self.bots.contains_key(*n)) {
                return Err(format!(
                    "season {} names `{}`, which is none of the ladder's bots",
                    season.number,
                    crate::core::text::harmless(stranger)
                ));
            }
            for d in &season.divisions {
                crate::core::record::seed_agrees(d.seed, d.seed_text.as_deref())?;
            }
            for row in season.divisions.iter().flat_map(|d| &d.results) {
                let bad = out("rating", &row.bot, row.rating, &RATING_RANGE)
                    .or_else(|| out("deviation", &row.bot, row.deviation, &DEVIATION_RANGE));
                if let Some(why) = bad {
                    return Err(why);
                }
            }
        }
        Ok(())
    }

    /// The state in `dir`, or `None` before the first season.
    pub fn load(dir: &Path) -> Result<Option<State>> {
        let path = dir.join(FILE);
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io("reading", &path)(e)),
        };
        serde_json::from_str(&text)
            .map_err(|e| Error::Damaged {
                path: path.clone(),
                line: e.line(),
                message: e.to_string(),
            })
            .and_then(|s: State| {
                s.check().map_err(|message| Error::Damaged {
                    path,
                    line: 1,
                    message,
                })?;
                Ok(Some(s))
            })
    }

    /// Writes the state atomically: a temporary file, flushed to disk, then
    /// renamed over the old one (and the folder synced), so a crash leaves
    /// either the old state or the new one.
    pub fn save(&self, dir: &Path) -> Result<()> {
        fs::create_dir_all(dir).map_err(Error::io("creating", dir))?;
        let versioned = State {
            format_version: crate::core::record::FORMAT_VERSION,
            ..self.clone()
        };
        let text = serde_json::to_string_pretty(&versioned).expect("the state serializes") + "\n";
        crate::core::files::replace(&dir.join(FILE), text.as_bytes())?;
        // what a kill left behind by ladders before the name was one per file
        if let Ok(entries) = fs::read_dir(dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with(&format!("{FILE}.")) && name.ends_with(".tmp") {
                    let _ = fs::remove_file(entry.path());
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bot as it stands after joining.
    fn newcomer() -> BotState {
        BotState {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
            division: 1,
            active: true,
            joined: 1,
            games: 0,
            won: 0,
            lost: 0,
            tie: 0,
            movement: Movement::New,
            history: vec![],
        }
    }

    #[test]
    fn saves_atomically_and_loads_back() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(State::load(dir.path()).unwrap(), None);
        let mut state = State {
            ladder: "l".into(),
            game: "bidding".into(),
            ..State::default()
        };
        state.save(dir.path()).unwrap();
        state.bots.insert("a".into(), newcomer());
        state.bots.insert("b".into(), newcomer());
        state.seasons.push(Season {
            number: 1,
            divisions: vec![],
            joined: vec!["a".into()],
            retired: vec![],
            alone: vec!["b".into()],
        });
        state.save(dir.path()).unwrap();
        let versioned = State {
            format_version: crate::core::record::FORMAT_VERSION,
            ..state
        };
        assert_eq!(State::load(dir.path()).unwrap(), Some(versioned));
        let names: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, [FILE], "no temporary file is left");
        fs::write(dir.path().join(FILE), "{").unwrap();
        let err = State::load(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("ladder.json:") && !err.contains("game record"),
            "{err}"
        );
    }

    #[test]
    fn a_stale_temporary_file_goes_and_a_rating_ladder_never_writes_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(format!("{FILE}.4242.tmp")), "{").unwrap();
        let mut state = State {
            ladder: "l".into(),
            game: "bidding".into(),
            ..State::default()
        };
        state.bots.insert("a".into(), newcomer());
        state.save(dir.path()).unwrap();
        assert!(!dir.path().join(format!("{FILE}.4242.tmp")).exists());
        assert!(State::load(dir.path()).is_ok());
        state.bots.get_mut("a").unwrap().rating = 1e308;
        state.save(dir.path()).unwrap();
        let err = State::load(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("ladder.json:1: a's rating 1e308 is outside"),
            "{err}"
        );
        assert!(err.len() < 200, "{err}");
    }

    #[test]
    fn a_name_ladder_never_writes_an_unknown_key_or_a_stranger_in_a_season_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut state = State {
            ladder: "l".into(),
            game: "bidding".into(),
            ..State::default()
        };
        state.bots.insert("a".into(), newcomer());
        state.seasons.push(Season {
            number: 1,
            divisions: vec![],
            joined: vec!["a".into()],
            retired: vec![],
            alone: vec![],
        });
        let refused = |state: &State| {
            state.save(dir.path()).unwrap();
            State::load(dir.path()).err().map(|e| e.to_string())
        };
        assert_eq!(refused(&state), None);
        let mut stranger = state.clone();
        stranger.seasons[0].retired.push("b\x1b[2J".into());
        let e = refused(&stranger).unwrap();
        assert!(
            e.ends_with("season 1 names `b\\u{1b}[2J`, which is none of the ladder's bots"),
            "{e}"
        );
        let mut escape = state.clone();
        escape.bots.insert("b\x1b[2J".into(), newcomer());
        assert!(refused(&escape).unwrap().contains("a bot's name: `b"));
        let mut path = state.clone();
        path.ladder = "../elsewhere".into();
        assert!(refused(&path)
            .unwrap()
            .contains("the ladder's name: `../elsewhere`"));
        // a key no ladder writes, at the top or inside
        state.save(dir.path()).unwrap();
        let text = fs::read_to_string(dir.path().join(FILE)).unwrap();
        for edited in [
            text.replacen("\"ladder\"", "\"extra\": 1,\n  \"ladder\"", 1),
            text.replacen("\"rating\"", "\"ratng\": 1,\n  \"rating\"", 1),
        ] {
            assert_ne!(edited, text);
            fs::write(dir.path().join(FILE), edited).unwrap();
            let e = State::load(dir.path()).unwrap_err().to_string();
            assert!(e.contains("unknown field"), "{e}");
        }
    }
}
