//! A season as its folder records it: `season.json` read back (its bots,
//! format and schedule) and its journal streamed into standings. `ladder
//! verify` checks such a season, and `ladder report` renders its reports
//! again, without the config and without playing.

use std::path::Path;

use crate::{
    core::error::{Error, Result},
    core::record::Scored,
    journal::for_each_game_line,
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

/// The first text (its key, dotted, and the text) in `season` that holds
/// a control character, but in its `params` and its bots' specs (a GDL
/// description's line breaks, a command's inline program): their names
/// are looked at.
fn control_text(season: &serde_json::Value) -> Option<(String, String)> {
    fn walk(v: &serde_json::Value, key: String) -> Option<(String, String)> {
        match v {
            serde_json::Value::String(s) if s.chars().any(char::is_control) => {
                Some((key, s.clone()))
            }
            serde_json::Value::Array(list) => list
                .iter()
                .enumerate()
                .find_map(|(i, v)| walk(v, format!("{key}.{i}"))),
            serde_json::Value::Object(map) => map.iter().find_map(|(k, v)| {
                let key = if key.is_empty() {
                    k.clone()
                } else {
                    format!("{key}.{k}")
                };
                (key != "params" && key != "bots")
                    .then(|| walk(v, key))
                    .flatten()
            }),
            _ => None,
        }
    }
    let bots = season["bots"].as_array().into_iter().flatten();
    let mut names = bots
        .enumerate()
        .map(|(i, b)| (format!("bots.{i}.name"), &b["name"]));
    walk(season, String::new()).or_else(|| names.find_map(|(key, name)| walk(name, key)))
}

/// A `season.json` text read as JSON, refused where an object repeats a
/// key: `serde_json::Value` would keep the last of them silently, and
/// ladder writes each once, so a repeated key was not written by it.
pub fn parse_season(text: &str) -> serde_json::Result<serde_json::Value> {
    serde_json::from_str::<Unrepeated>(text)?;
    serde_json::from_str(text)
}

/// Any JSON value whose objects repeat no key; nothing kept.
struct Unrepeated;

impl<'de> serde::Deserialize<'de> for Unrepeated {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(Unrepeated)
    }
}

impl<'de> serde::de::Visitor<'de> for Unrepeated {
    type Value = Unrepeated;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> std::result::Result<Unrepeated, E> {
        Ok(Unrepeated)
    }

    fn visit_i64<E>(self, _: i64) -> std::result::Result<Unrepeated, E> {
        Ok(Unrepeated)
    }

    fn visit_u64<E>(self, _: u64) -> std::result::Result<Unrepeated, E> {
        Ok(Unrepeated)
    }

    fn visit_f64<E>(self, _: f64) -> std::result::Result<Unrepeated, E> {
        Ok(Unrepeated)
    }

    fn visit_str<E>(self, _: &str) -> std::result::Result<Unrepeated, E> {
        Ok(Unrepeated)
    }

    fn visit_unit<E>(self) -> std::result::Result<Unrepeated, E> {
        Ok(Unrepeated)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut items: A,
    ) -> std::result::Result<Unrepeated, A::Error> {
        while items.next_element::<Unrepeated>()?.is_some() {}
        Ok(Unrepeated)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut object: A,
    ) -> std::result::Result<Unrepeated, A::Error> {
        let mut keys = std::collections::HashSet::new();
        while let Some(key) = object.next_key::<String>()? {
            if keys.contains(&key) {
                return Err(serde::de::Error::custom(format_args!(
                    "the key `{key}` is repeated"
                )));
            }
            object.next_value::<Unrepeated>()?;
            keys.insert(key);
        }
        Ok(Unrepeated)
    }
}

/// Why `dir`, whose `season.json` cannot be read (`e`), is no season's
/// folder, and which folder to name instead: a ladder's season is a
/// season's folder, or its divisions are; a season split in shards is
/// one once merged, and each shard's folder is; an arena's games become
/// one by `ladder arena export`.
fn not_a_season(dir: &Path, e: &std::io::Error) -> String {
    let shown = dir.display();
    let division = |season: &Path| season.join("division-1");
    if dir.join("ladder.json").is_file() {
        let first = dir.join("season-001");
        let example = [division(&first), first]
            .into_iter()
            .find(|d| d.join("season.json").is_file())
            .map_or("; it has played none yet".to_string(), |d| {
                format!(", as {}", d.display())
            });
        format!("{shown} is a ladder: name one of its seasons' folders (a division's, where a season has several){example}")
    } else if division(dir).join("season.json").is_file() {
        format!(
            "{shown} is a season of a ladder, played in divisions: name one of them, as {}",
            division(dir).display()
        )
    } else if dir.join("shards").is_dir() {
        format!(
            "{shown} holds the shards of a season, not merged yet: `ladder merge {shown}` makes the season, and each shard's folder ({}) is read as a season of its own games",
            dir.join("shards").join("K-of-N").display()
        )
    } else if dir.join("arena.db").is_file() {
        format!(
            "{shown} is an arena: `ladder arena export {shown} OUT` writes its games as a season folder"
        )
    } else {
        format!("{shown}: not a season's folder (no readable season.json: {e})")
    }
}

impl Recorded {
    /// Reads `dir/season.json`.
    pub fn read(dir: &Path) -> Result<Recorded> {
        let path = dir.join("season.json");
        let text =
            std::fs::read_to_string(&path).map_err(|e| Error::Usage(not_a_season(dir, &e)))?;
        let season = parse_season(&text).map_err(|e| Error::Damaged {
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
        // ladder writes no control character outside the game's parameters
        // (a GDL description's line breaks), and names are shown on
        // terminals and pages: a text that holds one was not written by it
        if let Some((key, text)) = control_text(&season) {
            return Err(Error::Damaged {
                path: path.clone(),
                line: 1,
                message: format!(
                    "`{key}` holds a control character: `{}`",
                    crate::core::text::harmless(&text)
                ),
            });
        }
        let names: Vec<String> = season["bots"]
            .as_array()
            .ok_or_else(|| bad("bots"))?
            .iter()
            .map(|b| b["name"].as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or_else(|| bad("bots"))?;
        if let Some(twice) = names
            .iter()
            .enumerate()
            .find_map(|(i, n)| names[..i].contains(n).then_some(n))
        {
            return Err(Error::Damaged {
                path: path.clone(),
                line: 1,
                message: format!("two bots are called `{twice}`"),
            });
        }
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
    /// compressed form, and `pending.jsonl`), streamed, each game once
    /// ([`for_each_game_line`]).
    pub fn standings(&self, dir: &Path) -> Result<Standings> {
        let mut standings = Standings::empty(&self.names);
        standings.anchor = self.anchor;
        let pair_of = |i| self.schedule.pair_of(i);
        for_each_game_line(dir, |path, n, line| {
            let bad = |message: String| Error::Journal {
                path: path.to_path_buf(),
                line: n,
                message,
            };
            let scored = Scored::from_line_where(line.trim_end(), &self.names, &pair_of)
                .map_err(|e| bad(e.to_string()))?
                .ok_or_else(|| bad("the game names a bot this season does not have".into()))?;
            standings.add(&scored);
            Ok(scored.index)
        })?;
        Ok(standings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_repeated_in_any_object_is_refused_and_one_in_two_objects_is_not() {
        let fine = r#"{"a": 1, "b": [{"a": null, "c": -2.5}, {"a": "x"}], "c": {"a": true}}"#;
        assert_eq!(parse_season(fine).unwrap()["b"][1]["a"], "x");
        for (text, key, line) in [
            ("{\"a\": 1,\n\"a\": 2}", "a", 2),
            ("{\"b\": [{\"c\": 1, \"c\": 1}]}", "c", 1),
            (
                "{\"b\": {\"x\": {}},\n \"d\": {\"e\": 0,\n\"e\": [1]}}",
                "e",
                3,
            ),
        ] {
            let e = parse_season(text).unwrap_err();
            assert!(
                e.to_string()
                    .starts_with(&format!("the key `{key}` is repeated")),
                "{e}"
            );
            assert_eq!(e.line(), line, "{text}");
        }
        // not JSON at all: serde_json's own error
        assert!(parse_season("{\"a\": }").is_err());
    }

    #[test]
    fn a_control_character_is_found_outside_the_params_and_the_bots_specs() {
        let season = |name: &str, bot: &str| {
            serde_json::json!({
                "name": name,
                "params": {"rules": "(role a)\n\t(role b)"},
                "bots": [
                    {"name": "a", "command": ["python3", "-c", "import sys\nprint(1)"]},
                    {"name": bot},
                ],
                "games": [["a", bot]],
            })
        };
        assert_eq!(control_text(&season("s", "b")), None);
        assert_eq!(
            control_text(&season("s\u{1b}]0;x\u{7}", "b")),
            Some(("name".into(), "s\u{1b}]0;x\u{7}".into()))
        );
        assert_eq!(
            control_text(&season("s", "b\r")),
            Some(("games.0.1".into(), "b\r".into()))
        );
        let mut only_the_bot = season("s", "b\r");
        only_the_bot["games"] = serde_json::json!([]);
        assert_eq!(
            control_text(&only_the_bot),
            Some(("bots.1.name".into(), "b\r".into()))
        );
    }
}
