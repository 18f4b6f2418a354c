//! A validated season: the [`Plan`] that nothing after it re-checks, the bots
//! it plays and how each is made, and the plan of `ladder match`.
//!
//! A [`Roster`] (`roster.rs`) is every way to make a bot of one game (its built-in bots and
//! the protocols of bot programs it speaks); the catalogue hands it down, so
//! nothing here names a game.
//!
//! This folder is the plan floor, pure: [`config`] reads the TOML into a
//! [`Plan`], [`schedule`] computes any game of it from its index (pairings,
//! seats, seeds), [`openings`] gives the start positions.

pub mod config;
pub mod jobs;
pub mod openings;
pub mod roster;
pub mod schedule;

pub use roster::*;

use std::path::Path;

use crate::{
    core::{
        clock::TimeControl,
        error::{Error, Invalid},
        game::{default_params, Game},
        referee::Referee,
    },
    external::{line_protocol, process::Sandbox},
    plan::jobs::Jobs,
    plan::openings::Openings,
    plan::schedule::{Format, Order, Schedule, Seating},
    stats::sprt::Sprt,
};

/// What the reports say about the season besides the numbers.
pub struct Header {
    pub season: String,
    pub game: String,
    pub format: String,
    /// Games the schedule holds (the standings may hold fewer while it runs).
    pub scheduled: u64,
    /// The season's sequential test, if it runs one.
    pub sprt: Option<Sprt>,
    /// The settings its games were played under, as the reports list them
    /// ([`settings_lines`]).
    pub settings: Vec<(String, String)>,
}

/// The longest text of a setting the reports show whole.
const SHOWN_TEXT: usize = 200;

/// The settings of a season that its reports state, from its description
/// (`season.json`): the seed, games per pairing, the time per move or the
/// clock, the startup time, the cap on turns, the game's parameters, the
/// adjudication and the openings, each as (name, value).
pub fn settings_lines(described: &serde_json::Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    // a long text among the parameters (a GDL description) is named by its
    // length: season.json holds it
    let short = |v: &serde_json::Value| {
        let mut v = v.clone();
        if let Some(o) = v.as_object_mut() {
            for value in o.values_mut() {
                if let Some(s) = value.as_str().filter(|s| s.chars().count() > SHOWN_TEXT) {
                    let told = format!("({} characters, in season.json)", s.chars().count());
                    *value = told.into();
                }
            }
        }
        v
    };
    for (key, label) in [
        ("seed", "seed"),
        ("games_per_pair", "games per pairing"),
        ("time_control", "time control (seconds, base+increment)"),
        ("move_time_ms", "time per move (ms)"),
        ("startup_time_ms", "startup time (ms)"),
        ("margin_ms", "time margin (ms)"),
        ("max_plies", "turn cap"),
        ("params", "game parameters"),
        ("adjudication", "adjudication"),
        ("openings", "openings"),
        ("anchor", "rated at 0"),
    ] {
        let v = &described[key];
        let empty = v.is_null() || v.as_object().is_some_and(|o| o.is_empty());
        if !empty {
            out.push((label.to_string(), text(&short(v))));
        }
    }
    out
}

/// A validated season of game `G`.
#[derive(Clone)]
pub struct Plan<G: Game> {
    /// Names the folder under `reports/`.
    pub name: String,
    pub params: G::Params,
    /// The start position every game begins from, built once from `params`.
    pub start: G,
    pub format: Format,
    /// Whether seats alternate game by game (every season but `ladder play`'s).
    pub seating: Seating,
    /// The order of the games ([`Order`]).
    pub order: Order,
    pub games_per_pair: u32,
    pub seed: u64,
    /// Games at once, as the config asks (the command line overrides it).
    pub jobs: Option<Jobs>,
    /// The ply cap and the time control.
    pub referee: Referee,
    pub bots: Vec<PlannedBot<G>>,
    /// Compress the journal once the season is complete (`games.jsonl.zst`).
    pub compress: bool,
    /// The bot the reports rate at 0 (else the mean is 0).
    pub anchor: Option<usize>,
    /// Stop as soon as this test decides (`[season.sprt]`).
    pub sprt: Option<Sprt>,
    /// Positions games start from instead of `start` (`[season.openings]`).
    pub openings: Option<Openings<G>>,
}

impl<G: Game> Plan<G> {
    /// The time control of bot `b` (an index into `bots`): its own, else the season's.
    pub fn time_of(&self, b: usize) -> &TimeControl {
        self.bots[b].time.as_ref().unwrap_or(&self.referee.time)
    }

    /// Everything that decides the season's results, for `season.json`: a journal
    /// is only resumed by a plan with the same description. Time-control keys
    /// newer than the first journals appear only when set, so older seasons
    /// still resume.
    pub fn describe(&self) -> serde_json::Value {
        let bots: Vec<_> = self
            .bots
            .iter()
            .map(|b| {
                let mut v = serde_json::to_value(&b.spec).expect("bot specs serialize");
                v["name"] = serde_json::Value::String(b.name.clone());
                // a bot's own time control, only where it has one
                if let Some(t) = &b.time {
                    if let Some(m) = t.move_time {
                        v["move_time_ms"] = (m.as_millis() as u64).into();
                    }
                    if let Some(c) = t.clock {
                        v["time_control"] = c.to_string().into();
                    }
                }
                v
            })
            .collect();
        let (format, champion) = match &self.format {
            Format::RoundRobin => ("round-robin", None),
            Format::Gauntlet { champions } if champions.len() == 1 => {
                ("gauntlet", Some(self.bots[champions[0]].name.clone()))
            }
            Format::Gauntlet { .. } => ("gauntlet", None),
            Format::Newcomers { .. } => ("newcomers", None),
            Format::Listed { .. } => ("listed", None),
        };
        let time = &self.referee.time;
        let mut v = serde_json::json!({
            "name": self.name,
            "game": self.start.name(),
            "params": serde_json::to_value(&self.params).expect("params serialize"),
            "format": format,
            "champion": champion,
            "games_per_pair": self.games_per_pair,
            "seed": self.seed,
            "max_plies": self.referee.max_plies,
            "move_time_ms": time.move_time.map(|t| t.as_millis() as u64),
            "startup_time_ms": time.startup.as_millis() as u64,
            "bots": bots,
        });
        // a game defined at run time: its kind in the catalogue (`gdl`)
        if self.start.catalogue_name() != self.start.name() {
            v["kind"] = serde_json::json!(self.start.catalogue_name());
        }
        if let Format::Gauntlet { champions } = &self.format {
            if champions.len() > 1 {
                let names: Vec<&str> = champions
                    .iter()
                    .map(|&b| self.bots[b].name.as_str())
                    .collect();
                v["champions"] = serde_json::json!(names);
            }
        }
        if let Format::Newcomers { newcomers } = &self.format {
            let names: Vec<&str> = newcomers
                .iter()
                .map(|&b| self.bots[b].name.as_str())
                .collect();
            v["newcomers"] = serde_json::json!(names);
        }
        if let Format::Listed { games, first } = &self.format {
            let name = |b: usize| self.bots[b].name.as_str();
            let games: Vec<[&str; 2]> = games.iter().map(|&(a, b)| [name(a), name(b)]).collect();
            v["games"] = serde_json::json!(games);
            v["first"] = serde_json::json!(first);
        }
        if self.order != Order::Pairings {
            v["order"] = self.order.name().into();
        }
        if let Some(name) = self.seating.name() {
            v["seating"] = name.into();
        }
        let a = self.referee.adjudication;
        if a.draw.is_some() || a.resign.is_some() {
            v["adjudication"] = serde_json::to_value(a).expect("adjudication serializes");
        }
        if let Some(o) = &self.openings {
            v["openings"] = o.describe.clone();
        }
        if let Some(sprt) = &self.sprt {
            v["sprt"] = serde_json::to_value(sprt).expect("SPRT settings serialize");
        }
        if let Some(a) = self.anchor {
            v["anchor"] = self.bots[a].name.clone().into();
        }
        if let Some(clock) = time.clock {
            v["time_control"] = clock.to_string().into();
        }
        if time.margin.as_millis() != u128::from(crate::core::clock::TimeControl::DEFAULT_MARGIN_MS)
        {
            v["margin_ms"] = (time.margin.as_millis() as u64).into();
        }
        v
    }

    /// The season's games.
    pub fn schedule(&self) -> Schedule {
        Schedule::new(
            self.bots.len(),
            &self.format,
            self.games_per_pair,
            self.seed,
        )
        .with_seating(self.seating)
        .with_order(self.order)
    }

    /// What the reports say above the numbers.
    pub fn header(&self) -> Header {
        Header {
            season: self.name.clone(),
            game: self.start.name().to_string(),
            format: self.format_name(),
            scheduled: self.schedule().len(),
            sprt: self.sprt.clone(),
            settings: settings_lines(&self.describe()),
        }
    }

    /// The position game `index` starts from, and its text when it is an opening.
    pub fn start_of(&self, index: u64) -> (&G, Option<&str>) {
        match &self.openings {
            Some(o) => {
                let (text, game) = o.of(index, self.games_per_pair);
                (game, Some(text))
            }
            None => (&self.start, None),
        }
    }

    /// "round-robin" or "gauntlet of NAME", for report headers.
    pub fn format_name(&self) -> String {
        let names: Vec<String> = self.bots.iter().map(|b| b.name.clone()).collect();
        crate::plan::schedule::format_name(&self.format, &names)
    }
}

/// A game with the parameters the command line gives (`gdl:FILE` gives
/// `rules`; a native game's name none, so its defaults) and its start
/// position, for `ladder match`, `play`, `check` and `openings`.
pub fn default_game<G: Game>(params: &toml::Table) -> Result<(G::Params, G), Error> {
    let params = if params.is_empty() {
        default_params::<G>()
    } else {
        params
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| Invalid::new(e.message()))
    }
    .map_err(|e| Error::Usage(format!("this game needs parameters: {e}")))?;
    let params = G::params_in(params, Path::new("")).map_err(|e| Error::Usage(e.to_string()))?;
    let start = G::new(&params).map_err(|e| Error::Usage(e.to_string()))?;
    Ok((params, start))
}

/// What `ladder match` asks for besides the game: two bots, `games` games
/// from `seed`, and an SPRT that may stop it early.
#[derive(Clone, Debug)]
pub struct Match {
    pub bots: [String; 2],
    pub games: u32,
    pub seed: u64,
    pub sprt: Option<Sprt>,
    /// Where the games start, as `[season.openings]` says it.
    pub openings: Option<MatchOpenings>,
    /// Who sits first (fastchess's `-noswap`, `-reverse`).
    pub seating: Seating,
}

/// The openings of `ladder match`: a file's positions (one per game pair,
/// in order or shuffled by the seed), or random plies.
#[derive(Clone, Debug)]
pub enum MatchOpenings {
    File {
        path: std::path::PathBuf,
        random: bool,
    },
    RandomPlies(u32),
}

/// The plan of `ladder match`: the match's bots and games, seats
/// alternating, the game's default parameters, bot programs in `sandbox`.
///
/// A bot is a built-in name (`random`), `PROTOCOL:PROGRAM ARGS...` for a
/// program speaking that protocol (`cmd:` is the line protocol), e.g.
/// `cmd:python3 bot.py`; the words are split at blanks ([`command_words`]:
/// quotes as in a shell, and no shell). Equal
/// names get suffixes (`random-1`, `random-2`).
pub fn match_plan<G: Game>(
    roster: &Roster<G>,
    m: Match,
    referee: Referee,
    sandbox: &Sandbox,
    params: &toml::Table,
) -> Result<Plan<G>, Error> {
    let Match {
        bots,
        games,
        seed,
        sprt,
        openings,
        seating,
    } = m;
    if games == 0 {
        return Err(Error::Usage("--games must be at least 1".to_string()));
    }
    let (params, start) = default_game::<G>(params)?;
    let per_pair = games.div_ceil(2);
    let openings = match openings {
        None => None,
        Some(MatchOpenings::File { path, random }) => {
            let text = crate::core::files::read_text(&path).map_err(|e| {
                Error::Usage(format!("--openings: cannot read {}: {e}", path.display()))
            })?;
            let read = openings::from_file::<G>(&params, &path, &text, random, seed, per_pair);
            Some(read.map_err(|e| Error::Usage(format!("--openings: {e}")))?)
        }
        Some(MatchOpenings::RandomPlies(plies)) => Some(
            openings::random_plies(&start, plies, seed, per_pair)
                .map_err(|e| Error::Usage(format!("--random-plies: {e}")))?,
        ),
    };
    let mut planned: Vec<PlannedBot<G>> = bots
        .iter()
        .map(|text| command_line_bot(roster, text, &start, sandbox))
        .collect::<Result<_, _>>()?;
    if planned[0].name == planned[1].name {
        let name = planned[0].name.clone();
        planned[0].name = format!("{name}-1");
        planned[1].name = format!("{name}-2");
    }
    Ok(Plan {
        name: format!(
            "match-{}-{}-vs-{}",
            start.name(),
            planned[0].name,
            planned[1].name
        ),
        params,
        start,
        format: Format::RoundRobin,
        seating,
        order: Order::Pairings,
        games_per_pair: games,
        seed,
        jobs: None,
        referee,
        bots: planned,
        compress: false,
        anchor: None,
        sprt,
        openings,
    })
}

/// A bot named on the command line (`ladder match`, `ladder play`): a
/// built-in name or `PROTOCOL:PROGRAM ARGS...`, checked against the games it
/// will play, which start like `start`.
pub fn command_line_bot<G: Game>(
    roster: &Roster<G>,
    text: &str,
    start: &G,
    sandbox: &Sandbox,
) -> Result<PlannedBot<G>, Error> {
    let (name, spec, kind) = match_bot(roster, text, sandbox)?;
    if let BotKind::Builtin(factory) = &kind {
        factory()
            .plays(start)
            .map_err(|e| Error::Usage(format!("bot `{name}`: {e}")))?;
    }
    Ok(PlannedBot {
        name,
        spec,
        kind,
        log_io: false,
        time: None,
    })
}

/// One bot of `ladder match`: its name, spec and kind.
fn match_bot<G: Game>(
    roster: &Roster<G>,
    text: &str,
    sandbox: &Sandbox,
) -> Result<(String, BotSpec, BotKind<G>), Error> {
    let Some((prefix, rest)) = text.split_once(':') else {
        let (spec, kind) = roster
            .builtin(text, toml::Table::new())
            .map_err(|e| Error::Usage(e.to_string()))?;
        let name = check_name(text).map_err(|e| Error::Usage(e.to_string()))?;
        return Ok((name, spec, kind));
    };
    let protocol = match prefix {
        "cmd" => line_protocol(),
        other => match (
            roster.protocols.iter().find(|p| p.name == other),
            roster.home_of(other),
        ) {
            (Some(p), _) => *p,
            (None, Some(game)) => {
                return Err(Error::Usage(format!(
                    "{other}: bots play the {game} game, not {}",
                    roster.game
                )))
            }
            (None, None) => {
                let kinds: String = roster
                    .protocols
                    .iter()
                    .map(|p| format!(", {}:", p.name))
                    .collect();
                return Err(Error::Usage(format!(
                    "`{text}`: unknown bot kind `{other}:`; {} takes a built-in name, cmd:{kinds}",
                    roster.game
                )));
            }
        },
    };
    let argv = command_words(rest).map_err(|e| Error::Usage(format!("`{text}`: {e}")))?;
    let (spec, kind) = roster
        .external(&argv, protocol, None, Path::new(""), sandbox.clone())
        .map_err(|e| Error::Usage(format!("`{text}`: {e}")))?;
    if let BotKind::External(resolved, _) = &kind {
        resolved
            .check_script(&argv[0])
            .map_err(|e| Error::Usage(format!("`{text}`: {e}")))?;
        for arg in resolved.unfound_files(protocol.own_dir) {
            eprintln!("note: `{text}`: `{arg}` names no file in the working directory");
        }
    }
    Ok((bot_name_of(&argv), spec, kind))
}

/// The words of a command given as one string (`cmd:python3 bot.py`, an
/// upload's command): split at blanks, with a shell's quotes and
/// backslashes for a word that holds blanks (`python3 "my bots/bot.py"`),
/// and nothing else of a shell (no variables, globs or pipes).
pub fn command_words(text: &str) -> Result<Vec<String>, String> {
    shlex::split(text).ok_or_else(|| {
        "a quote is not closed (a word with blanks is quoted as in a shell: \
         \"my bots/bot.py\")"
            .to_string()
    })
}

/// A bot name from a command: the file name of its last argument that names a
/// file (a script), else of the program, without extension, reduced to the
/// characters names allow.
pub fn bot_name_of(argv: &[String]) -> String {
    let last = argv
        .get(1..)
        .unwrap_or_default()
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

/// Season and bot names become file names: letters, digits, `-`, `_`, `.`,
/// `@` (an arena names versions `bot@2`).
pub fn check_name(name: &str) -> Result<String, Invalid> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.@".contains(c));
    if ok {
        Ok(name.to_string())
    } else {
        Err(Invalid::new(format!(
            "`{name}` is not a usable name: use 1 to 64 ASCII letters, digits, `-`, `_`, `.` or `@`, not starting with `.`"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_file_names() {
        assert!(check_name("dp-2016_v1.2").is_ok());
        for bad in ["", ".hidden", "a/b", "a b", "ü"] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_long_text_setting_is_named_by_its_length() {
        let description = "(role a) ".repeat(30);
        let season = serde_json::json!({
            "seed": 7,
            "params": {"rules": "games/gdl/x.kif", "text": description},
            "adjudication": {},
        });
        assert_eq!(
            settings_lines(&season),
            [
                ("seed".to_string(), "7".to_string()),
                (
                    "game parameters".to_string(),
                    r#"{"rules":"games/gdl/x.kif","text":"(270 characters, in season.json)"}"#
                        .to_string()
                ),
            ]
        );
        let short = serde_json::json!({"params": {"troops": 10, "name": "x".repeat(200)}});
        assert!(settings_lines(&short)[0]
            .1
            .contains(&format!("\"{}\"", "x".repeat(200))));
    }

    #[test]
    fn bot_names_come_from_the_script() {
        let argv = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(bot_name_of(&argv("python3 Cargo.toml")), "Cargo");
        assert_eq!(bot_name_of(&argv("./my bot")), "my");
        assert_eq!(bot_name_of(&[]), "bot");
    }
}
