//! Season configs: TOML text to a validated [`Plan`] that nothing after it re-checks.
//!
//! Reading happens in two passes. The first finds the game's name; the second
//! reads the whole file again with that game's parameter type, so a bad game
//! parameter is reported at its own line like any other key. Every error names
//! the file, line, column and key ([`BadInput`]), and is found before anything
//! is written. `docs/CONFIG.md` documents every key.

use std::{fmt, ops::Range, path::Path, time::Duration};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::{
    bot::builtin_bot,
    external::{self, Protocol},
    game::{BotFactory, Game, GameKind},
    schedule::Format,
};

/// Input the user must fix: a bad config, an unknown name on the command line.
/// The binary exits with code 2 for these.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// The default cap on turns per game; every shipped game ends far sooner.
pub const DEFAULT_MAX_PLIES: u32 = 10_000;
/// The default time an external bot has for one move.
pub const DEFAULT_MOVE_TIME_MS: u32 = 1000;
/// The default time an external bot has from its start to `ready`.
pub const DEFAULT_STARTUP_TIME_MS: u32 = 5000;

/// The `[season]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
struct RawSeason<P> {
    name: Option<Spanned<String>>,
    game: Spanned<String>,
    params: Option<Spanned<P>>,
    format: Option<Spanned<String>>,
    champion: Option<Spanned<String>>,
    games_per_pair: Option<Spanned<u32>>,
    seed: Option<u64>,
    jobs: Option<Spanned<usize>>,
    max_plies: Option<Spanned<u32>>,
    move_time_ms: Option<Spanned<u32>>,
    startup_time_ms: Option<Spanned<u32>>,
}

/// One `[[bot]]` entry as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBot {
    name: Spanned<String>,
    builtin: Option<Spanned<String>>,
    params: Option<Spanned<toml::Table>>,
    command: Option<Spanned<Vec<String>>>,
    protocol: Option<Spanned<String>>,
    dir: Option<Spanned<String>>,
}

/// A whole config file as written; `P` is the game's parameter type.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig<P> {
    season: RawSeason<P>,
    #[serde(default, rename = "bot")]
    bots: Vec<RawBot>,
}

/// A bot of the season: its name, what it is as written, and how to run it.
pub struct PlannedBot<G: Game> {
    pub name: String,
    pub spec: BotSpec,
    pub kind: BotKind<G>,
}

/// How a planned bot runs.
pub enum BotKind<G: Game> {
    /// In-process: a fresh bot from the factory for every game.
    Builtin(BotFactory<G>),
    /// A program, with its command resolved against the file system.
    External(external::Command, Protocol),
}

/// What a bot is, as written in the config and recorded in `season.json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum BotSpec {
    Builtin {
        builtin: String,
        params: toml::Table,
    },
    External {
        command: Vec<String>,
        protocol: Protocol,
        dir: Option<String>,
    },
}

/// A built-in bot's spec and kind, or why there is no such bot.
fn builtin_spec<G: Game>(name: &str, params: toml::Table) -> Result<(BotSpec, BotKind<G>), String> {
    let factory = builtin_bot::<G>(name, &params)?;
    let spec = BotSpec::Builtin {
        builtin: name.to_string(),
        params,
    };
    Ok((spec, BotKind::Builtin(factory)))
}

/// An external bot's spec (as written) and kind (its command resolved), or
/// why the command cannot run.
fn external_spec<G: Game>(
    argv: &[String],
    protocol: Protocol,
    dir: Option<String>,
) -> Result<(BotSpec, BotKind<G>), String> {
    let hackerrank = protocol == Protocol::Hackerrank;
    let command = external::Command::resolve(argv, dir.as_deref().map(Path::new), hackerrank)?;
    let spec = BotSpec::External {
        command: argv.to_vec(),
        protocol,
        dir,
    };
    Ok((spec, BotKind::External(command, protocol)))
}

/// A validated season of game `G`.
pub struct Plan<G: Game> {
    /// Names the folder under `reports/`.
    pub name: String,
    pub params: G::Params,
    pub format: Format,
    pub games_per_pair: u32,
    pub seed: u64,
    /// Worker threads asked for in the config (the command line overrides it).
    pub jobs: Option<usize>,
    pub max_plies: u32,
    /// Time limits of external bots.
    pub limits: external::Limits,
    pub bots: Vec<PlannedBot<G>>,
}

impl<G: Game> Plan<G> {
    /// Everything that decides the season's results, for `season.json`: a journal
    /// is only resumed by a plan with the same description.
    pub fn describe(&self) -> serde_json::Value {
        let bots: Vec<_> = self
            .bots
            .iter()
            .map(|b| {
                let mut v = serde_json::to_value(&b.spec).expect("bot specs serialize");
                v["name"] = serde_json::Value::String(b.name.clone());
                v
            })
            .collect();
        let (format, champion) = match &self.format {
            Format::RoundRobin => ("round-robin", None),
            Format::Gauntlet { champion } => ("gauntlet", Some(self.bots[*champion].name.clone())),
        };
        serde_json::json!({
            "name": self.name,
            "game": G::NAME,
            "params": serde_json::to_value(&self.params).expect("params serialize"),
            "format": format,
            "champion": champion,
            "games_per_pair": self.games_per_pair,
            "seed": self.seed,
            "max_plies": self.max_plies,
            "move_time_ms": self.limits.move_time.as_millis() as u64,
            "startup_time_ms": self.limits.startup_time.as_millis() as u64,
            "bots": bots,
        })
    }
}

/// Where an error points: the config's file name and text.
struct Source<'a> {
    file: &'a str,
    text: &'a str,
}

impl Source<'_> {
    /// An error at byte range `span`, naming the line, column and key there.
    fn error(&self, span: Option<Range<usize>>, message: impl fmt::Display) -> BadInput {
        let Some(span) = span else {
            return BadInput(format!("{}: {message}", self.file));
        };
        let start = span.start.min(self.text.len());
        let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_no = self.text[..start].matches('\n').count() + 1;
        let col = self.text[line_start..start].chars().count() + 1;
        let line = self.text[line_start..].lines().next().unwrap_or("");
        let key = match self.key_at(line_start, line) {
            Some(k) => format!("key `{k}`: "),
            None => String::new(),
        };
        BadInput(format!(
            "{}:{line_no}:{col}: {key}{message}\n{line_no:>5} | {line}",
            self.file
        ))
    }

    /// The dotted key defined on the line starting at `line_start`, if any:
    /// the nearest table header above it, then the key before `=`.
    fn key_at(&self, line_start: usize, line: &str) -> Option<String> {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            return Some(
                trimmed
                    .trim_matches(|c| c == '[' || c == ']')
                    .trim()
                    .to_string(),
            );
        }
        let key = trimmed.split('=').next()?.trim();
        if key.is_empty() || !trimmed.contains('=') {
            return None;
        }
        let header = self.text[..line_start]
            .lines()
            .rev()
            .map(str::trim)
            .find(|l| l.starts_with('['))
            .map(|h| h.trim_matches(|c| c == '[' || c == ']').trim().to_string());
        Some(match header {
            Some(h) => format!("{h}.{key}"),
            None => key.to_string(),
        })
    }

    fn parse<T: serde::de::DeserializeOwned>(&self) -> Result<T, BadInput> {
        toml::from_str(self.text).map_err(|e| self.error(e.span(), e.message()))
    }
}

/// The game a config is for (the first pass).
pub fn game_of(file: &str, text: &str) -> Result<GameKind, BadInput> {
    let src = Source { file, text };
    let raw: RawConfig<toml::Table> = src.parse()?;
    let game = &raw.season.game;
    GameKind::from_name(game.get_ref()).ok_or_else(|| {
        let known: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
        src.error(
            Some(game.span()),
            format!(
                "unknown game `{}`; known: {}",
                game.get_ref(),
                known.join(", ")
            ),
        )
    })
}

/// Reads and validates a config file for game `G` (the second pass).
pub fn plan<G: Game>(path: &Path, text: &str) -> Result<Plan<G>, BadInput> {
    let file = path.display().to_string();
    let src = Source { file: &file, text };
    let raw: RawConfig<G::Params> = src.parse()?;
    let s = raw.season;
    let default_name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match &s.name {
        Some(n) => check_name(n.get_ref()).map_err(|e| src.error(Some(n.span()), e))?,
        None => check_name(&default_name)
            .map_err(|e| src.error(None, format!("season name from the file name: {e}")))?,
    };
    let params = match s.params {
        Some(p) => {
            let span = p.span();
            let p = p.into_inner();
            G::check_params(&p).map_err(|e| src.error(Some(span), e))?;
            p
        }
        None => G::Params::default(),
    };

    let mut bots: Vec<PlannedBot<G>> = Vec::new();
    for b in &raw.bots {
        let name = b.name.get_ref();
        check_name(name).map_err(|e| src.error(Some(b.name.span()), e))?;
        if bots.iter().any(|p| &p.name == name) {
            return Err(src.error(Some(b.name.span()), format!("two bots are named `{name}`")));
        }
        let (spec, kind) = plan_bot::<G>(&src, b)?;
        bots.push(PlannedBot {
            name: name.clone(),
            spec,
            kind,
        });
    }
    if bots.len() < 2 {
        return Err(src.error(
            None,
            format!(
                "a season needs at least two [[bot]] entries, found {}",
                bots.len()
            ),
        ));
    }

    let format = match (s.format.as_ref().map(|f| f.get_ref().as_str()), &s.champion) {
        (None | Some("round-robin"), None) => Format::RoundRobin,
        (None | Some("round-robin"), Some(c)) => {
            return Err(src.error(
                Some(c.span()),
                "`champion` is only for format = \"gauntlet\"",
            ))
        }
        (Some("gauntlet"), Some(c)) => {
            let champion = bots
                .iter()
                .position(|b| &b.name == c.get_ref())
                .ok_or_else(|| {
                    src.error(Some(c.span()), format!("no bot is named `{}`", c.get_ref()))
                })?;
            Format::Gauntlet { champion }
        }
        (Some("gauntlet"), None) => {
            let span = s.format.as_ref().map(|f| f.span());
            return Err(src.error(
                span,
                "a gauntlet needs `champion`, the name of the bot that meets all others",
            ));
        }
        (Some(other), _) => {
            let span = s.format.as_ref().map(|f| f.span());
            return Err(src.error(
                span,
                format!("unknown format `{other}`; known: round-robin, gauntlet"),
            ));
        }
    };
    let games_per_pair = positive(&src, s.games_per_pair, 2, "games_per_pair")?;
    let max_plies = positive(&src, s.max_plies, DEFAULT_MAX_PLIES, "max_plies")?;
    let move_ms = positive(&src, s.move_time_ms, DEFAULT_MOVE_TIME_MS, "move_time_ms")?;
    let startup_ms = positive(
        &src,
        s.startup_time_ms,
        DEFAULT_STARTUP_TIME_MS,
        "startup_time_ms",
    )?;
    let limits = external::Limits {
        move_time: Duration::from_millis(move_ms.into()),
        startup_time: Duration::from_millis(startup_ms.into()),
    };
    let jobs = match s.jobs {
        Some(j) if *j.get_ref() == 0 => {
            return Err(src.error(Some(j.span()), "jobs must be at least 1"))
        }
        j => j.map(Spanned::into_inner),
    };
    Ok(Plan {
        name,
        params,
        format,
        games_per_pair,
        seed: s.seed.unwrap_or(1),
        jobs,
        max_plies,
        limits,
        bots,
    })
}

/// One `[[bot]]` entry: a built-in bot, or a command with its protocol.
fn plan_bot<G: Game>(src: &Source, b: &RawBot) -> Result<(BotSpec, BotKind<G>), BadInput> {
    let name_span = Some(b.name.span());
    match (&b.builtin, &b.command) {
        (Some(builtin), None) => {
            for (key, span) in [
                ("protocol", b.protocol.as_ref().map(|p| p.span())),
                ("dir", b.dir.as_ref().map(|d| d.span())),
            ] {
                if span.is_some() {
                    return Err(src.error(
                        span,
                        format!("`{key}` is for bots with a `command`, not built-in ones"),
                    ));
                }
            }
            let params = b
                .params
                .as_ref()
                .map(|p| p.get_ref().clone())
                .unwrap_or_default();
            let span = match &b.params {
                Some(p) if !params.is_empty() => p.span(),
                _ => builtin.span(),
            };
            builtin_spec::<G>(builtin.get_ref(), params).map_err(|e| src.error(Some(span), e))
        }
        (None, Some(command)) => {
            if let Some(p) = &b.params {
                return Err(src.error(
                    Some(p.span()),
                    "`params` is for built-in bots; pass a program its options in `command`",
                ));
            }
            let protocol = match b.protocol.as_ref().map(|p| p.get_ref().as_str()) {
                None | Some("line") => Protocol::Line,
                Some("hackerrank") if G::NAME == "bidding" => Protocol::Hackerrank,
                Some("hackerrank") => {
                    let span = b.protocol.as_ref().map(|p| p.span());
                    return Err(src.error(
                        span,
                        format!(
                            "protocol \"hackerrank\" is for the bidding game, not {}",
                            G::NAME
                        ),
                    ));
                }
                Some(other) => {
                    let span = b.protocol.as_ref().map(|p| p.span());
                    return Err(src.error(
                        span,
                        format!("unknown protocol `{other}`; known: line, hackerrank"),
                    ));
                }
            };
            let dir = b.dir.as_ref().map(|d| d.get_ref().clone());
            external_spec::<G>(command.get_ref(), protocol, dir)
                .map_err(|e| src.error(Some(command.span()), e))
        }
        (Some(_), Some(c)) => Err(src.error(
            Some(c.span()),
            "a bot has either `builtin` or `command`, not both",
        )),
        (None, None) => Err(src.error(
            name_span,
            "a bot needs `builtin` (an in-process bot) or `command` (a program)",
        )),
    }
}

/// The plan of `ladder match`: two bots, `games` games, seats alternating.
///
/// A bot is a built-in name (`random`), `cmd:PROGRAM ARGS...` for a program
/// speaking the line protocol, or `hackerrank:PROGRAM ARGS...` for a
/// HackerRank-style bidding bot; the words are split at blanks, with no shell.
/// Equal names get suffixes (`random-1`, `random-2`).
pub fn match_plan<G: Game>(
    bots: &[String; 2],
    games: u32,
    seed: u64,
    move_time_ms: u32,
) -> Result<Plan<G>, BadInput> {
    if games == 0 {
        return Err(BadInput("--games must be at least 1".to_string()));
    }
    let mut planned: Vec<PlannedBot<G>> = Vec::new();
    for text in bots {
        let (name, spec, kind) = match_bot::<G>(text)?;
        planned.push(PlannedBot { name, spec, kind });
    }
    if planned[0].name == planned[1].name {
        let name = planned[0].name.clone();
        planned[0].name = format!("{name}-1");
        planned[1].name = format!("{name}-2");
    }
    Ok(Plan {
        name: format!(
            "match-{}-{}-vs-{}",
            G::NAME,
            planned[0].name,
            planned[1].name
        ),
        params: G::Params::default(),
        format: Format::RoundRobin,
        games_per_pair: games,
        seed,
        jobs: None,
        max_plies: DEFAULT_MAX_PLIES,
        limits: external::Limits {
            move_time: Duration::from_millis(move_time_ms.into()),
            startup_time: Duration::from_millis(DEFAULT_STARTUP_TIME_MS.into()),
        },
        bots: planned,
    })
}

/// One bot of `ladder match`: its name, spec and kind.
fn match_bot<G: Game>(text: &str) -> Result<(String, BotSpec, BotKind<G>), BadInput> {
    let external = [
        ("cmd:", Protocol::Line),
        ("hackerrank:", Protocol::Hackerrank),
    ]
    .into_iter()
    .find_map(|(prefix, protocol)| text.strip_prefix(prefix).map(|rest| (rest, protocol)));
    let Some((rest, protocol)) = external else {
        let (spec, kind) = builtin_spec::<G>(text, toml::Table::new()).map_err(BadInput)?;
        return Ok((check_name(text).map_err(BadInput)?, spec, kind));
    };
    if protocol == Protocol::Hackerrank && G::NAME != "bidding" {
        return Err(BadInput(format!(
            "hackerrank: bots play the bidding game, not {}",
            G::NAME
        )));
    }
    let argv: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
    let (spec, kind) = external_spec::<G>(&argv, protocol, None)
        .map_err(|e| BadInput(format!("`{text}`: {e}")))?;
    Ok((bot_name_of(&argv), spec, kind))
}

/// A bot name from a command: the file name of its last argument that names a
/// file (a script), else of the program, without extension, reduced to the
/// characters names allow.
pub fn bot_name_of(argv: &[String]) -> String {
    let last = argv[1..]
        .iter()
        .rev()
        .find(|a| Path::new(a).is_file())
        .or(argv.first())
        .map_or("bot", String::as_str);
    let stem = Path::new(last)
        .file_stem()
        .map_or("bot".into(), |s| s.to_string_lossy());
    let name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_".contains(c) {
                c
            } else {
                '-'
            }
        })
        .take(64)
        .collect();
    if name.is_empty() {
        "bot".to_string()
    } else {
        name
    }
}

fn positive(
    src: &Source,
    value: Option<Spanned<u32>>,
    default: u32,
    key: &str,
) -> Result<u32, BadInput> {
    match value {
        None => Ok(default),
        Some(v) if *v.get_ref() == 0 => {
            Err(src.error(Some(v.span()), format!("{key} must be at least 1")))
        }
        Some(v) => Ok(v.into_inner()),
    }
}

/// Season and bot names become file names: letters, digits, `-`, `_`, `.`.
pub fn check_name(name: &str) -> Result<String, String> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if ok {
        Ok(name.to_string())
    } else {
        Err(format!(
            "`{name}` is not a usable name: use 1 to 64 letters, digits, `-`, `_` or `.`, not starting with `.`"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{bidding::BiddingParams, Bidding};

    const GOOD: &str = r#"
[season]
name = "t"
game = "bidding"
games_per_pair = 4
seed = 7

[season.params]
money = 50

[[bot]]
name = "a"
builtin = "random"

[[bot]]
name = "b"
builtin = "random"
"#;

    fn plan_of(text: &str) -> Result<Plan<Bidding>, String> {
        assert_eq!(game_of("x.toml", text).map_err(|e| e.0)?, GameKind::Bidding);
        plan::<Bidding>(Path::new("x.toml"), text).map_err(|e| e.0)
    }

    #[test]
    fn a_good_config() {
        let p = plan_of(GOOD).unwrap();
        assert_eq!(p.name, "t");
        assert_eq!(
            p.params,
            BiddingParams {
                money: 50,
                ..BiddingParams::default()
            }
        );
        assert_eq!(p.games_per_pair, 4);
        assert_eq!(p.seed, 7);
        assert_eq!(p.format, Format::RoundRobin);
        assert_eq!(p.max_plies, DEFAULT_MAX_PLIES);
        assert_eq!(p.bots.len(), 2);
        assert_eq!(p.describe()["params"]["money"], 50);
    }

    #[test]
    fn errors_name_file_line_and_key() {
        let cases = [
            (
                GOOD.replace("games_per_pair = 4", "gams_per_pair = 4"),
                "x.toml:5:1: key `season.gams_per_pair`: unknown field `gams_per_pair`",
            ),
            (
                GOOD.replace("money = 50", "monye = 50"),
                "x.toml:9:1: key `season.params.monye`: unknown field `monye`",
            ),
            (
                GOOD.replace("money = 50", "money = \"lots\""),
                "x.toml:9:9: key `season.params.money`: invalid type",
            ),
            (
                GOOD.replace("games_per_pair = 4", "games_per_pair = 0"),
                "x.toml:5:18: key `season.games_per_pair`: games_per_pair must be at least 1",
            ),
            (
                GOOD.replace("game = \"bidding\"", "game = \"chess\""),
                "x.toml:4:8: key `season.game`: unknown game `chess`",
            ),
            (
                GOOD.replace("builtin = \"random\"\n\n", "builtin = \"genius\"\n\n"),
                "x.toml:13:11: key `bot.builtin`: no built-in bot `genius`",
            ),
            (
                GOOD.replace("name = \"b\"", "name = \"a\""),
                "x.toml:16:8: key `bot.name`: two bots are named `a`",
            ),
            (
                GOOD.replace("money = 50", "start = 10"),
                "x.toml:8:1: key `season.params`: start must lie strictly between",
            ),
            (
                GOOD.replace("seed = 7", "seed = 7\nformat = \"gauntlet\""),
                "key `season.format`: a gauntlet needs `champion`",
            ),
            (
                GOOD.replace(
                    "seed = 7",
                    "seed = 7\nformat = \"gauntlet\"\nchampion = \"zz\"",
                ),
                "key `season.champion`: no bot is named `zz`",
            ),
            (
                GOOD.replace("seed = 7", "seed = 7\nformat = \"swiss\""),
                "unknown format `swiss`",
            ),
            (
                GOOD.replace("name = \"t\"", "name = \"../up\""),
                "key `season.name`: `../up` is not a usable name",
            ),
            (
                GOOD.replace("[[bot]]\nname = \"b\"\nbuiltin = \"random\"", ""),
                "x.toml: a season needs at least two [[bot]] entries, found 1",
            ),
            (
                GOOD.replace(
                    "builtin = \"random\"\n\n",
                    "builtin = \"random\"\nparams = { depth = 3 }\n\n",
                ),
                "x.toml:14:10: key `bot.params`: bot `random` takes only `max`, got `depth`",
            ),
            ("[season\n".to_string(), "x.toml:1:8: "),
        ];
        for (text, want) in cases {
            let err = plan_of(&text)
                .err()
                .unwrap_or_else(|| panic!("accepted:\n{text}"));
            assert!(err.contains(want), "wanted {want:?} in:\n{err}");
        }
    }

    #[test]
    fn the_error_shows_the_offending_line() {
        let err = plan_of(&GOOD.replace("seed = 7", "seed = -7"))
            .err()
            .unwrap();
        assert!(err.ends_with("    6 | seed = -7"), "{err}");
    }

    #[test]
    fn names_are_safe_file_names() {
        assert!(check_name("dp-2016_v1.2").is_ok());
        for bad in ["", ".hidden", "a/b", "a b", "ü"] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }
}
