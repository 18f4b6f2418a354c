//! What an arena plays under, and its bots as `[[bot]]` tables.
//!
//! An arena is made from an ordinary season config (`ladder arena init DIR
//! --config FILE`) or from a game's name (`--game GAME`). Its `[season]`
//! table (parameters, time control, sandbox, adjudication, seed) holds for
//! every batch; the keys that say which games a season plays (`format`,
//! `champion`, `games_per_pair`, `sprt`, `openings`, `anchor`) are refused,
//! since the matchmaking decides that. An `[arena]` table sets the
//! matchmaking (`batch_games`, default 16; `newcomer_games`, default 8),
//! the candidates' test (`sprt = { elo0, elo1, alpha, beta, model }`) and
//! the arena's seasons (`season_games`, default none: [`super::seasons`]).
//! The config's bots join as the arena's first bots.
//!
//! The settings are stored once, with the game's parameters resolved (a
//! GDL description's text, say), so nothing outside the arena's folder
//! changes it. Bot programs given by path are copied into the folder's
//! `bots/HASH/` by content ([`super::programs`]).

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::{
    arena::{candidates, league::Version, matchmaking, programs, store::Store},
    core::{
        error::{Error, Result},
        files,
        game::Game,
    },
    external::process::sandbox::usable_bwrap,
    plan::{
        check_name,
        config::{self, ConfigFile},
        schedule::Format,
        BotKind, Plan, Roster,
    },
};

/// The `[season]` keys an arena decides itself.
const REFUSED: [&str; 7] = [
    "format",
    "champion",
    "games_per_pair",
    "sprt",
    "openings",
    "anchor",
    "compress",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArena {
    batch_games: Option<Spanned<u32>>,
    newcomer_games: Option<Spanned<u64>>,
    sprt: Option<Spanned<candidates::Settings>>,
    season_games: Option<Spanned<u64>>,
}

#[derive(Deserialize)]
struct RawFile {
    season: std::collections::BTreeMap<String, Spanned<toml::Value>>,
    ladder: Option<Spanned<toml::Table>>,
    arena: Option<RawArena>,
    #[serde(default, rename = "bot")]
    bots: Vec<toml::Table>,
}

/// An arena's settings, as made by [`read`].
pub struct Setup {
    pub settings: Settings,
    /// The config's bots, `[[bot]]` tables as written.
    pub bots: Vec<toml::Table>,
    /// The config's folder, which its bots' paths are relative to.
    pub dir: PathBuf,
}

/// What an arena plays under, stored in its database's `meta` when it is
/// made ([`Settings::meta`]) and read back by every command
/// ([`Settings::stored`]).
pub struct Settings {
    /// The `[season]` table every batch plays under (TOML).
    pub season: String,
    pub matchmaking: matchmaking::Settings,
    /// The test candidates play under.
    pub sprt: candidates::Settings,
    /// A season closes every this many games, if set.
    pub season_games: Option<u64>,
}

impl Settings {
    /// The `meta` rows of an arena of game `game` (its catalogue name)
    /// called `title` (its own name: a GDL description's).
    pub fn meta(&self, game: &str, title: &str) -> Vec<(&'static str, String)> {
        let mut meta = vec![
            ("game", game.to_string()),
            ("title", title.to_string()),
            ("settings", self.season.clone()),
            ("batch_games", self.matchmaking.batch_games.to_string()),
            (
                "newcomer_games",
                self.matchmaking.newcomer_games.to_string(),
            ),
            (
                "sprt",
                serde_json::to_string(&self.sprt).expect("SPRT settings serialize"),
            ),
        ];
        if let Some(n) = self.season_games {
            meta.push(("season_games", n.to_string()));
        }
        meta
    }

    /// The settings `store` holds, each checked.
    pub fn stored(store: &Store) -> Result<Settings> {
        let damaged = |message: String| store.damaged(message);
        let parse = |key: &str, text: String| -> Result<u64> {
            text.parse()
                .map_err(|_| damaged(format!("`{key}` is not a number: {text}")))
        };
        let number = |key: &str| parse(key, store.meta(key)?);
        let season_games = match store.meta_if("season_games")? {
            Some(text) => match parse("season_games", text)? {
                0 => return Err(damaged("`season_games` is 0".to_string())),
                n => Some(n),
            },
            None => None,
        };
        let batch_games = number("batch_games")?;
        let sprt = serde_json::from_str(&store.meta("sprt")?)
            .map_err(|e| damaged(format!("`sprt` is not the candidates' test: {e}")))?;
        Ok(Settings {
            season: store.meta("settings")?,
            matchmaking: matchmaking::Settings {
                batch_games: u32::try_from(batch_games)
                    .map_err(|_| damaged(format!("`batch_games` is too large: {batch_games}")))?,
                newcomer_games: number("newcomer_games")?,
            },
            sprt,
            season_games,
        })
    }
}

/// Reads and checks an arena's config for game `G`: every error names the
/// file, line and key.
pub fn read<G: Game>(src: &ConfigFile, roster: &Roster<G>) -> Result<Setup> {
    let raw: RawFile = src.parse()?;
    if let Some(l) = raw.ladder {
        return Err(src.error(Some(l.span()), "a ladder config is not an arena's"));
    }
    if let Some((key, value)) = raw
        .season
        .iter()
        .find(|(k, _)| REFUSED.contains(&k.as_str()))
    {
        return Err(src.error(
            Some(value.span()),
            format!("`{key}` is not for an arena: its matchmaking chooses the games"),
        ));
    }
    let mut matchmaking = matchmaking::Settings::default();
    let mut sprt = candidates::Settings::default();
    let mut season_games = None;
    if let Some(a) = raw.arena {
        if let Some(n) = a.season_games {
            if !(2..=1_000_000_000).contains(n.get_ref()) {
                return Err(src.error(Some(n.span()), "season_games must be from 2 to 1000000000"));
            }
            season_games = Some(*n.get_ref());
        }
        if let Some(t) = a.sprt {
            sprt = *t.get_ref();
            if let Err((key, why)) = sprt.sprt().check() {
                return Err(src.error(Some(t.span()), format!("arena.sprt.{key}: {why}")));
            }
        }
        if let Some(b) = a.batch_games {
            let n = *b.get_ref();
            if n < 2 || n % 2 == 1 || n > 10_000 {
                return Err(src.error(
                    Some(b.span()),
                    "batch_games must be even, from 2 to 10000 (pairings play twice)",
                ));
            }
            matchmaking.batch_games = n;
        }
        if let Some(n) = a.newcomer_games {
            if *n.get_ref() > 1_000_000 {
                return Err(src.error(Some(n.span()), "newcomer_games must be at most 1000000"));
            }
            matchmaking.newcomer_games = *n.get_ref();
        }
    }
    // the whole config, checked as a season (two stand-in bots where it
    // has fewer: an arena may start empty)
    let mut text = src.text.clone();
    for i in raw.bots.len()..2 {
        text.push_str(&format!(
            "\n[[bot]]\nname = \"arena-check-{i}\"\nbuiltin = \"random\"\n"
        ));
    }
    let checked = ConfigFile {
        file: src.file.clone(),
        text,
        stored: false,
    };
    let plan = config::plan(&checked, roster)?;
    let mut season = toml::Table::new();
    for (key, value) in raw.season {
        if key != "name" {
            season.insert(key, value.into_inner());
        }
    }
    season.insert("name".into(), "arena".into());
    season.insert("seed".into(), toml::Value::Integer(plan.seed as i64));
    let params = toml::Value::try_from(&plan.params)
        .map_err(|e| src.error(None, format!("the game's parameters: {e}")))?;
    season.insert("params".into(), params);
    let season = toml::to_string(&toml::Table::from_iter([(
        "season".to_string(),
        toml::Value::Table(season),
    )]))
    .map_err(|e| src.error(None, e))?;
    let dir = Path::new(&src.file)
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    Ok(Setup {
        settings: Settings {
            season,
            matchmaking,
            sprt,
            season_games,
        },
        bots: raw.bots,
        dir,
    })
}

/// The config of a new arena of `game` with no other setting.
pub fn of_game(game: &str, params: &toml::Table) -> String {
    let mut season = toml::Table::new();
    season.insert("name".into(), "arena".into());
    season.insert("game".into(), game.into());
    if !params.is_empty() {
        season.insert("params".into(), toml::Value::Table(params.clone()));
    }
    toml::to_string(&toml::Table::from_iter([(
        "season".to_string(),
        toml::Value::Table(season),
    )]))
    .expect("a table serializes")
}

/// The plan of every version, as one season: what batches are cut from.
/// `arena` is the arena's folder (bot paths are relative to it).
pub fn base_plan<G: Game>(
    arena: &Path,
    season: &str,
    versions: &[Version],
    roster: &Roster<G>,
) -> Result<Plan<G>> {
    let mut text = season.to_string();
    for v in versions {
        text.push('\n');
        text.push_str(&bot_text(arena, v)?);
    }
    for i in versions.len()..2 {
        text.push_str(&format!(
            "\n[[bot]]\nname = \"arena-check-{i}\"\nbuiltin = \"random\"\n"
        ));
    }
    let src = ConfigFile {
        file: arena.join("arena.toml").display().to_string(),
        text,
        stored: true,
    };
    let mut plan = config::plan(&src, roster)?;
    // a bot sees none of the arena's files but its own (its program, its
    // folder): not the other bots', nor the database
    let whole = files::absolute(arena);
    for bot in &mut plan.bots {
        if let BotKind::External(command, _) = &mut bot.kind {
            command.sandbox.others.push(whole.clone());
        }
    }
    Ok(plan)
}

/// Version `v`'s `[[bot]]` table as config text. Its spec is a table's
/// TOML, whose tables (`params`) come as sections after its keys: written
/// after a `[[bot]]` line as it stands, `[params]` would be a table of the
/// config's own, not the bot's.
fn bot_text(arena: &Path, v: &Version) -> Result<String> {
    let spec: toml::Table = v.spec.parse().map_err(|e| Error::Store {
        path: arena.join(crate::arena::store::FILE),
        message: format!("the `[[bot]]` table of {} is damaged: {e}", v.bot),
    })?;
    let bots = toml::Value::Array(vec![toml::Value::Table(spec)]);
    Ok(
        toml::to_string(&toml::Table::from_iter([("bot".to_string(), bots)]))
            .expect("a table serializes"),
    )
}

/// The season of one batch: `games` (version names, first seat first),
/// numbered from `first` in the arena.
pub fn batch_plan<G: Game>(
    base: &Plan<G>,
    number: u64,
    first: u64,
    games: &[[String; 2]],
) -> Result<Plan<G>> {
    let mut bots = Vec::new();
    let mut index = |name: &String| -> Result<usize> {
        if let Some(i) = bots
            .iter()
            .position(|b: &crate::plan::PlannedBot<G>| &b.name == name)
        {
            return Ok(i);
        }
        let bot = base.bots.iter().find(|b| &b.name == name).ok_or_else(|| {
            Error::Mismatch(format!(
                "batch {number} names {name}, who is not in the arena"
            ))
        })?;
        bots.push(bot.clone());
        Ok(bots.len() - 1)
    };
    let mut listed = Vec::new();
    for [a, b] in games {
        listed.push((index(a)?, index(b)?));
    }
    Ok(Plan {
        name: batch_name(number),
        bots,
        format: Format::Listed {
            games: listed,
            first,
        },
        games_per_pair: 1,
        compress: false,
        ..base.clone()
    })
}

/// The folder name of batch `number` while it is played.
pub fn batch_name(number: u64) -> String {
    format!("batch-{number:08}")
}

/// A bot's `[[bot]]` table as it joins: named `name@version`, its program
/// files copied into the arena (paths relative to `from`, the folder the
/// command was given in), without the network unless the table says
/// otherwise (a GGP player keeps it); the table's TOML.
pub fn version_spec(
    arena: &Path,
    from: &Path,
    bot: &toml::Table,
    name: &str,
    version: u32,
    season: &str,
) -> Result<String> {
    let mut spec = bot.clone();
    spec.insert("name".into(), format!("{name}@{version}").into());
    if loses_the_network(&spec, season) {
        spec.insert("network".into(), false.into());
    }
    if let (Some(toml::Value::String(dir)), Some(_)) = (spec.get("dir"), spec.get("command")) {
        // the command's words are the folder's: kept with it
        let kept = programs::copy_folder(arena, &from.join(dir))
            .map_err(|e| Error::Usage(format!("bot {name}: {e}")))?;
        spec.insert("dir".into(), kept.display().to_string().into());
    } else if let Some(toml::Value::Array(words)) = spec.get("command") {
        let words: Vec<String> = words
            .iter()
            .map(|w| w.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or_else(|| Error::Usage(format!("bot {name}: `command` must be words")))?;
        let copied = programs::copy_programs(arena, from, &words)?;
        spec.insert(
            "command".into(),
            toml::Value::try_from(copied).expect("words"),
        );
    }
    toml::to_string(&spec).map_err(|e| Error::Usage(format!("bot {name}: {e}")))
}

/// Whether a joining bot goes without the network: a program with it could
/// reach the arena's server on loopback, where actions need no token. It
/// keeps the network where its table says so, where it is a GGP player
/// (served over HTTP), and where no sandbox could take it away (its
/// `sandbox`, else the arena's `[season]`'s, is `none`, or `auto` on a
/// machine without bwrap: it runs as ladder does).
fn loses_the_network(spec: &toml::Table, season: &str) -> bool {
    let text =
        |t: &toml::Table, key: &str| t.get(key).and_then(toml::Value::as_str).map(str::to_string);
    let default = season
        .parse::<toml::Table>()
        .ok()
        .and_then(|t| text(t.get("season")?.as_table()?, "sandbox"));
    let sandboxed = match text(spec, "sandbox").or(default).as_deref() {
        Some("bwrap") => true,
        None | Some("auto") => usable_bwrap().is_ok(),
        Some(_) => false,
    };
    spec.contains_key("command")
        && !spec.contains_key("network")
        && text(spec, "protocol").as_deref() != Some("ggp")
        && sandboxed
}

/// A usable bot name (no `@`: the arena adds the version).
pub fn check_bot_name(name: &str) -> Result<()> {
    if name.contains('@') {
        return Err(Error::Usage(format!(
            "`{name}`: a bot's name has no `@` (the arena numbers its versions)"
        )));
    }
    check_name(name)
        .map(|_| ())
        .map_err(|e| Error::Usage(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_joining_program_goes_without_the_network_where_the_sandbox_runs() {
        let spec = |text: &str| -> toml::Table { text.parse().unwrap() };
        let here = usable_bwrap().is_ok();
        for (table, loses) in [
            (r#"command = ["./bot"]"#, here),
            (
                r#"command = ["./bot"]
sandbox = "auto""#,
                here,
            ),
            (
                r#"command = ["./bot"]
sandbox = "bwrap""#,
                true,
            ),
            // kept where the table asks, for a GGP player, without a sandbox
            (
                r#"command = ["./bot"]
sandbox = "bwrap"
network = true"#,
                false,
            ),
            (
                r#"command = ["./bot"]
sandbox = "bwrap"
protocol = "ggp""#,
                false,
            ),
            (
                r#"command = ["./bot"]
sandbox = "none""#,
                false,
            ),
            // a built-in bot runs inside ladder
            (r#"builtin = "random""#, false),
        ] {
            assert_eq!(loses_the_network(&spec(table), ""), loses, "{table}");
        }
        // the arena's own default, where the bot's table has none
        let program = spec(r#"command = ["./bot"]"#);
        let season = |mode: &str| format!("[season]\ngame = \"troops\"\nsandbox = \"{mode}\"\n");
        assert!(!loses_the_network(&program, &season("none")));
        assert!(loses_the_network(&program, &season("bwrap")));
    }
}
