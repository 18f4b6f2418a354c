//! A season as its folder records it: `season.json` read back (its bots,
//! format and schedule) and its journal streamed into standings. `ladder
//! verify` checks such a season, and `ladder report` renders its reports
//! again, without the config and without playing.

use std::path::{Path, PathBuf};

use crate::{
    core::error::{Error, Result},
    core::record::Scored,
    journal::for_each_line,
    plan::schedule::{format_name, Format, Order, Schedule, Seating},
    plan::Header,
    stats::sprt::Sprt,
    stats::standings::Standings,
};

/// What `season.json` says.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub name: String,
    pub game: String,
    /// The game's name in the catalogue: `game`, but for a game defined at
    /// run time (`gdl`, whose `game` is its rules file's name).
    pub kind: String,
    /// The game's parameters, as JSON.
    pub params: serde_json::Value,
    /// Bot names, in the season's order.
    pub names: Vec<String>,
    pub format: Format,
    pub schedule: Schedule,
    pub max_plies: u64,
    /// The bot the reports rate at 0, if the config named one.
    pub anchor: Option<usize>,
    /// The season's sequential test, if it runs one.
    pub sprt: Option<Sprt>,
    /// Whether its games start from openings (each journaled with its game).
    pub openings: bool,
    /// The settings the reports state ([`crate::plan::settings_lines`]).
    pub settings: Vec<(String, String)>,
    /// The time per move and the start-up time, in milliseconds, as
    /// `season.json` has them (no move time with a game clock alone).
    pub move_time_ms: Option<u64>,
    pub startup_time_ms: Option<u64>,
}

impl Recorded {
    /// Reads `dir/season.json`.
    pub fn read(dir: &Path) -> Result<Recorded> {
        let path = dir.join("season.json");
        let text = std::fs::read_to_string(&path).map_err(|e| {
            Error::Usage(format!(
                "{}: not a season's folder (no readable season.json: {e})",
                dir.display()
            ))
        })?;
        let season: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| Error::Damaged {
                path: path.clone(),
                line: e.line(),
                message: e.to_string(),
            })?;
        let bad = |what: &str| Error::Damaged {
            path: path.clone(),
            line: 1,
            message: format!("no valid `{what}`"),
        };
        if let Some(v) = season.get("format_version") {
            let version = v.as_u64().ok_or_else(|| bad("format_version"))?;
            crate::core::record::known_version(version).map_err(|message| Error::Damaged {
                path: path.clone(),
                line: 1,
                message,
            })?;
        }
        if let Some(seed) = season["seed"].as_u64() {
            crate::core::record::seed_agrees(seed, season["seed_text"].as_str()).map_err(
                |message| Error::Damaged {
                    path: path.clone(),
                    line: 1,
                    message,
                },
            )?;
        }
        let names: Vec<String> = season["bots"]
            .as_array()
            .ok_or_else(|| bad("bots"))?
            .iter()
            .map(|b| b["name"].as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or_else(|| bad("bots"))?;
        let index_of =
            |v: &serde_json::Value| names.iter().position(|n| Some(n.as_str()) == v.as_str());
        let format = match season["format"].as_str() {
            Some("round-robin") => Format::RoundRobin,
            Some("gauntlet") => Format::Gauntlet {
                champions: match season["champions"].as_array() {
                    // several champions (`seeds`)
                    Some(list) => list
                        .iter()
                        .map(index_of)
                        .collect::<Option<Vec<usize>>>()
                        .filter(|c| !c.is_empty())
                        .ok_or_else(|| bad("champions"))?,
                    None => vec![index_of(&season["champion"]).ok_or_else(|| bad("champion"))?],
                },
            },
            Some("newcomers") => Format::Newcomers {
                newcomers: season["newcomers"]
                    .as_array()
                    .ok_or_else(|| bad("newcomers"))?
                    .iter()
                    .map(index_of)
                    .collect::<Option<Vec<usize>>>()
                    .ok_or_else(|| bad("newcomers"))?,
            },
            Some("listed") => Format::Listed {
                games: season["games"]
                    .as_array()
                    .ok_or_else(|| bad("games"))?
                    .iter()
                    .map(|g| Some((index_of(&g[0])?, index_of(&g[1])?)))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| bad("games"))?,
                first: season["first"].as_u64().ok_or_else(|| bad("first"))?,
            },
            _ => return Err(bad("format")),
        };
        let number = |key: &str| season[key].as_u64().ok_or_else(|| bad(key));
        let games_per_pair =
            u32::try_from(number("games_per_pair")?).map_err(|_| bad("games_per_pair"))?;
        let seating =
            Seating::from_name(season["seating"].as_str()).ok_or_else(|| bad("seating"))?;
        let order = match season["order"].as_str() {
            None => Order::Pairings,
            Some(name) => Order::from_name(name).ok_or_else(|| bad("order"))?,
        };
        let schedule = Schedule::new(names.len(), &format, games_per_pair, number("seed")?)
            .with_seating(seating)
            .with_order(order);
        let anchor = match &season["anchor"] {
            serde_json::Value::Null => None,
            a => Some(index_of(a).ok_or_else(|| bad("anchor"))?),
        };
        let sprt = match &season["sprt"] {
            serde_json::Value::Null => None,
            t => {
                let mut sprt: Sprt = serde_json::from_value(t.clone()).map_err(|_| bad("sprt"))?;
                if let Format::Gauntlet { champions } = &format {
                    sprt.candidate = champions[0];
                }
                Some(sprt)
            }
        };
        Ok(Recorded {
            name: season["name"]
                .as_str()
                .ok_or_else(|| bad("name"))?
                .to_string(),
            game: season["game"]
                .as_str()
                .ok_or_else(|| bad("game"))?
                .to_string(),
            kind: season["kind"]
                .as_str()
                .or(season["game"].as_str())
                .unwrap_or_default()
                .to_string(),
            params: season["params"].clone(),
            names,
            format,
            schedule,
            max_plies: number("max_plies")?,
            anchor,
            sprt,
            openings: !season["openings"].is_null(),
            settings: crate::plan::settings_lines(&season),
            move_time_ms: season["move_time_ms"].as_u64(),
            startup_time_ms: season["startup_time_ms"].as_u64(),
        })
    }

    /// What the reports say above the numbers.
    pub fn header(&self) -> Header {
        Header {
            season: self.name.clone(),
            game: self.game.clone(),
            format: format_name(&self.format, &self.names),
            scheduled: self.schedule.len(),
            sprt: self.sprt.clone(),
            settings: self.settings.clone(),
        }
    }

    /// The standings of every game journaled in `dir` (`games.jsonl` or its
    /// compressed form, and `pending.jsonl`), streamed.
    pub fn standings(&self, dir: &Path) -> Result<Standings> {
        let mut standings = Standings::empty(&self.names);
        standings.anchor = self.anchor;
        for file in ["games.jsonl", "pending.jsonl"] {
            let path: PathBuf = dir.join(file);
            for_each_line(&path, |n, line| {
                let scored = Scored::from_line(line.trim_end(), &self.names)
                    .map_err(|e| Error::Journal {
                        path: path.clone(),
                        line: n,
                        message: e.to_string(),
                    })?
                    .ok_or_else(|| Error::Journal {
                        path: path.clone(),
                        line: n,
                        message: "the game names a bot this season does not have".into(),
                    })?;
                standings.add(&scored);
                Ok(())
            })?;
        }
        Ok(standings)
    }
}
