//! Season configs: TOML text to a validated [`Plan`] that nothing after it re-checks.
//!
//! Reading happens in two passes. The first finds the game's name (the
//! catalogue turns it into a type); the second reads the whole file again with
//! that game's parameter type, so a bad game parameter is reported at its own
//! line like any other key. Every error names the file, line, column and key
//! ([`ConfigError`]), and is found before anything is written.
//! `docs/CONFIG.md` documents every key.

mod bots;
mod sections;

use bots::{plan_bot, RawBot};

use std::{ops::Range, path::Path};

use serde::Deserialize;
use toml::Spanned;

use crate::{
    core::{
        clock::TimeControl,
        error::{ConfigError, Error, Position},
        game::{default_params, Game},
        referee::{Adjudication, Referee},
    },
    external::process::Mode,
    plan::config::sections::{adjudication, openings, sprt, RawAdjudication, RawOpenings, RawSprt},
    plan::jobs::Jobs,
    plan::schedule::{Format, Order, Seating},
    plan::{check_name, BotKind, BotSpec, Plan, PlannedBot, Roster},
};

/// The `[season]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
struct RawSeason<P> {
    name: Option<Spanned<String>>,
    game: Spanned<String>,
    params: Option<Spanned<P>>,
    format: Option<Spanned<String>>,
    champion: Option<Spanned<String>>,
    /// A gauntlet's champions: the first N bots (fastchess's `-seeds N`).
    seeds: Option<Spanned<u32>>,
    /// Every pairing's games with the same seating (fastchess's `-noswap`).
    noswap: Option<bool>,
    /// The pairing's other bot first (fastchess's `-reverse`).
    reverse: Option<bool>,
    games_per_pair: Option<Spanned<u32>>,
    seed: Option<u64>,
    jobs: Option<Spanned<toml::Value>>,
    max_plies: Option<Spanned<u32>>,
    move_time_ms: Option<Spanned<u32>>,
    time_control: Option<Spanned<String>>,
    margin_ms: Option<Spanned<u32>>,
    startup_time_ms: Option<Spanned<u32>>,
    sandbox: Option<Spanned<String>>,
    compress: Option<bool>,
    order: Option<Spanned<String>>,
    anchor: Option<Spanned<String>>,
    sprt: Option<Spanned<RawSprt>>,
    adjudication: Option<Spanned<RawAdjudication>>,
    openings: Option<Spanned<RawOpenings>>,
}

/// A whole config file as written; `P` is the game's parameter type.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig<P> {
    season: RawSeason<P>,
    /// A ladder's own keys, read by `crate::ladder`.
    ladder: Option<Spanned<toml::Table>>,
    /// An arena's own keys, read by `crate::arena` (`ladder arena init`).
    #[allow(dead_code)]
    arena: Option<toml::Table>,
    #[serde(default, rename = "bot")]
    bots: Vec<RawBot>,
}

/// A config file's name and text; every error points into it.
pub struct ConfigFile {
    pub file: String,
    pub text: String,
    /// A config ladder keeps itself (an arena's bots): its programs were
    /// checked as they joined, so one that no longer starts by its `#!`
    /// line forfeits its games instead of stopping everything.
    pub stored: bool,
}

impl ConfigFile {
    /// Reads the config at `path`.
    pub fn read(path: &Path) -> Result<ConfigFile, Error> {
        if path.is_dir() {
            return Err(Error::Usage(format!(
                "{}: a folder, not a config: give the TOML file that describes it \
                 (configs/NAME.toml); a season's or ladder's folder of results is \
                 read by `ladder report`",
                path.display()
            )));
        }
        let text = crate::core::files::read_text(path).map_err(|e| {
            Error::Usage(format!("{}: cannot read the config: {e}", path.display()))
        })?;
        Ok(ConfigFile {
            file: path.display().to_string(),
            text,
            stored: false,
        })
    }

    /// An error at byte range `span`, naming the line, column and key there.
    pub fn error(&self, span: Option<Range<usize>>, message: impl ToString) -> Error {
        let message = message.to_string();
        let Some(span) = span else {
            return ConfigError {
                file: self.file.clone(),
                at: None,
                key: None,
                message,
            }
            .into();
        };
        let start = span.start.min(self.text.len());
        let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line = self.text[line_start..].lines().next().unwrap_or("");
        ConfigError {
            file: self.file.clone(),
            at: Some(Position {
                line: self.text[..start].matches('\n').count() + 1,
                column: self.text[line_start..start].chars().count() + 1,
                text: line.to_string(),
            }),
            key: self.key_at(line_start, line),
            message,
        }
        .into()
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

    /// The whole file read as `T`; errors point into it.
    pub fn parse<T: serde::de::DeserializeOwned>(&self) -> Result<T, Error> {
        toml::from_str(&self.text).map_err(|e| self.error(e.span(), e.message()))
    }

    /// The game the config is for, and where it says so (the first pass).
    pub fn game(&self) -> Result<Spanned<String>, Error> {
        let raw: RawConfig<toml::Table> = self.parse()?;
        Ok(raw.season.game)
    }

    /// Where the config's `[ladder]` table is, if it is a ladder config.
    pub fn ladder_table(&self) -> Result<Option<Range<usize>>, Error> {
        let raw: RawConfig<toml::Table> = self.parse()?;
        Ok(raw.ladder.map(|l| l.span()))
    }
}

/// Reads and validates a config file for game `G` (the second pass), with
/// the bots `roster` can make.
pub fn plan<G: Game>(src: &ConfigFile, roster: &Roster<G>) -> Result<Plan<G>, Error> {
    let raw: RawConfig<G::Params> = src.parse()?;
    let s = raw.season;
    let time = time_control(src, &s)?;
    let default_name = Path::new(&src.file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match &s.name {
        Some(n) => check_name(n.get_ref()).map_err(|e| src.error(Some(n.span()), e))?,
        None => check_name(&default_name)
            .map_err(|e| src.error(None, format!("season name from the file name: {e}")))?,
    };
    let (params, params_span) = match &s.params {
        Some(p) => (p.get_ref().clone(), Some(p.span())),
        // no [season.params]: the game's parameters from an empty table
        None => {
            let params = default_params::<G>()
                .map_err(|e| src.error(None, format!("[season.params] is needed: {e}")))?;
            (params, None)
        }
    };
    let dir = Path::new(&src.file).parent().unwrap_or(Path::new(""));
    let params = G::params_in(params, dir).map_err(|e| src.error(params_span.clone(), e))?;
    let start = G::new(&params).map_err(|e| src.error(params_span, e))?;
    let season_sandbox = sandbox_mode(src, s.sandbox.as_ref())?;

    let mut bots: Vec<PlannedBot<G>> = Vec::new();
    for b in &raw.bots {
        if raw.ladder.is_none() {
            let ladder_keys = [
                ("active", b.active.as_ref().map(Spanned::span)),
                ("division", b.division.as_ref().map(Spanned::span)),
            ];
            if let Some((key, span)) = ladder_keys.into_iter().find(|(_, s)| s.is_some()) {
                return Err(src.error(
                    span,
                    format!("`{key}` is for ladder configs (with a [ladder] table)"),
                ));
            }
        }
        let name = b.name.get_ref();
        check_name(name).map_err(|e| src.error(Some(b.name.span()), e))?;
        if bots.iter().any(|p| &p.name == name) {
            return Err(src.error(Some(b.name.span()), format!("two bots are named `{name}`")));
        }
        let (spec, kind) = plan_bot(src, roster, b, season_sandbox)?;
        let own_time = bot_time(src, &s, b)?;
        if let BotKind::Builtin(factory) = &kind {
            let span = b.builtin.as_ref().map(|s| s.span());
            factory().plays(&start).map_err(|e| src.error(span, e))?;
        }
        let log_io = match &b.log {
            Some(l) if matches!(kind, BotKind::Builtin(_)) && *l.get_ref() => {
                return Err(src.error(
                    Some(l.span()),
                    "`log` is for bot programs (`command`): an in-process bot exchanges no lines",
                ))
            }
            l => l.as_ref().is_some_and(|l| *l.get_ref()),
        };
        bots.push(PlannedBot {
            name: name.clone(),
            spec,
            kind,
            log_io,
            time: own_time,
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

    if let (Some(_), Some(n)) = (&s.champion, &s.seeds) {
        return Err(src.error(
            Some(n.span()),
            "a gauntlet has either `champion` (one, by name) or `seeds` (the first N bots), not both",
        ));
    }
    let format = match (s.format.as_ref().map(|f| f.get_ref().as_str()), &s.champion) {
        (None | Some("round-robin"), _) if s.seeds.is_some() => {
            let span = s.seeds.as_ref().map(Spanned::span);
            return Err(src.error(span, "`seeds` is only for format = \"gauntlet\""));
        }
        (None | Some("round-robin"), None) => Format::RoundRobin,
        (None | Some("round-robin"), Some(c)) => {
            return Err(src.error(
                Some(c.span()),
                "`champion` is only for format = \"gauntlet\"",
            ))
        }
        (Some("gauntlet"), None) if s.seeds.is_some() => {
            let n = s.seeds.as_ref().expect("checked");
            let count = *n.get_ref() as usize;
            if count == 0 || count >= bots.len() {
                return Err(src.error(
                    Some(n.span()),
                    format!(
                        "seeds must lie in 1..={}: the champions are the first N bots, and some must be left to meet them",
                        bots.len().saturating_sub(1)
                    ),
                ));
            }
            Format::Gauntlet {
                champions: (0..count).collect(),
            }
        }
        (Some("gauntlet"), Some(c)) => {
            let champion = bots
                .iter()
                .position(|b| &b.name == c.get_ref())
                .ok_or_else(|| {
                    src.error(Some(c.span()), format!("no bot is named `{}`", c.get_ref()))
                })?;
            Format::Gauntlet {
                champions: vec![champion],
            }
        }
        (Some("gauntlet"), None) => {
            let span = s.format.as_ref().map(|f| f.span());
            return Err(src.error(
                span,
                "a gauntlet needs `champion`, the name of the bot that meets all others (or `seeds = N`: the first N bots)",
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
    let anchor = match &s.anchor {
        None => None,
        Some(a) => Some(
            bots.iter()
                .position(|b| &b.name == a.get_ref())
                .ok_or_else(|| {
                    src.error(Some(a.span()), format!("no bot is named `{}`", a.get_ref()))
                })?,
        ),
    };
    let sprt = match &s.sprt {
        None => None,
        Some(t) if raw.ladder.is_some() => {
            return Err(src.error(
                Some(t.span()),
                "[season.sprt] stops a season of two bots; a ladder plays its seasons out",
            ))
        }
        Some(t) => Some(sprt(src, t, &format, bots.len())?),
    };
    let adjudication = match &s.adjudication {
        None => Adjudication::default(),
        Some(t) => adjudication(src, t)?,
    };
    let games_per_pair = positive(src, s.games_per_pair, 2, "games_per_pair")?;
    let seed = s.seed.unwrap_or(1);
    let openings = match &s.openings {
        None => None,
        Some(t) => Some(openings::<G>(
            src,
            t,
            &params,
            &start,
            seed,
            games_per_pair,
        )?),
    };
    let ggp = bots
        .iter()
        .filter(|b| matches!(&b.spec, BotSpec::External { protocol, .. } if protocol == "ggp"));
    for b in ggp {
        // GGP plays every match from the description's initial state, by
        // a play clock per move
        if let (Some(t), Some(_)) = (&s.openings, &openings) {
            return Err(src.error(
                Some(t.span()),
                format!("`{}` is a GGP player, and GGP starts every match from the initial state: a season with GGP players has no openings", b.name),
            ));
        }
        if b.time.as_ref().unwrap_or(&time).move_time.is_none() {
            let span = s.time_control.as_ref().map(Spanned::span);
            return Err(src.error(
                span,
                format!("`{}` is a GGP player, which needs move_time_ms: GGP gives a play clock per move, not a game clock", b.name),
            ));
        }
    }
    let order = match &s.order {
        None => Order::Pairings,
        Some(o) => Order::from_name(o.get_ref()).ok_or_else(|| {
            src.error(
                Some(o.span()),
                format!(
                    "`pairings` (the default) or `rounds`, not `{}`",
                    o.get_ref()
                ),
            )
        })?,
    };
    let max_plies = positive(src, s.max_plies, Referee::DEFAULT_MAX_PLIES, "max_plies")?;
    let jobs = match &s.jobs {
        None => None,
        Some(j) => {
            let text = match j.get_ref() {
                toml::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            Some(
                text.parse::<Jobs>()
                    .map_err(|e| src.error(Some(j.span()), e.to_string()))?,
            )
        }
    };
    Ok(Plan {
        name,
        params,
        start,
        format,
        seating: Seating::of(s.noswap.unwrap_or(false), s.reverse.unwrap_or(false)),
        order,
        games_per_pair,
        seed,
        jobs,
        referee: Referee {
            max_plies,
            time,
            adjudication,
        },
        bots,
        compress: s.compress.unwrap_or(false),
        anchor,
        sprt,
        openings,
    })
}

/// The season's time control: a per-move budget, a game clock, or both;
/// an error points at the key at fault.
fn time_control<P>(src: &ConfigFile, s: &RawSeason<P>) -> Result<TimeControl, Error> {
    let startup = s.startup_time_ms.as_ref().map(Spanned::span);
    control_of(src, s, &s.move_time_ms, &s.time_control, startup, None)
}

/// A bot's own time control, when its `[[bot]]` sets `move_time_ms` or
/// `time_control` (fastchess's per-engine `tc=`): built from those two and
/// the season's margin and start-up time, as the season's is.
fn bot_time<P>(
    src: &ConfigFile,
    s: &RawSeason<P>,
    b: &RawBot,
) -> Result<Option<TimeControl>, Error> {
    if b.move_time_ms.is_none() && b.time_control.is_none() {
        return Ok(None);
    }
    let name = Some(b.name.span());
    control_of(src, s, &b.move_time_ms, &b.time_control, name.clone(), name).map(Some)
}

/// A time control from `move_time_ms` and `time_control` (the season's or a
/// bot's) with the season's margin and start-up time. An error points at
/// the key at fault: `startup` for the start-up time, `other` for the rest.
fn control_of<P>(
    src: &ConfigFile,
    s: &RawSeason<P>,
    move_time_ms: &Option<Spanned<u32>>,
    time_control: &Option<Spanned<String>>,
    startup: Option<Range<usize>>,
    other: Option<Range<usize>>,
) -> Result<TimeControl, Error> {
    let value = |v: &Option<Spanned<u32>>| v.as_ref().map(|v| *v.get_ref());
    TimeControl::from_settings(
        value(move_time_ms),
        time_control.as_ref().map(|t| t.get_ref().as_str()),
        value(&s.margin_ms),
        value(&s.startup_time_ms),
    )
    .map_err(|e| {
        let span = match e.key.as_deref() {
            Some("move_time_ms") => move_time_ms.as_ref().map(Spanned::span),
            Some("time_control") => time_control.as_ref().map(Spanned::span),
            Some("startup_time_ms") => startup,
            _ => other,
        };
        src.error(span, e)
    })
}

/// A `sandbox` key's mode (`auto` when not given).
fn sandbox_mode(src: &ConfigFile, value: Option<&Spanned<String>>) -> Result<Mode, Error> {
    match value {
        None => Ok(Mode::Auto),
        Some(v) => v
            .get_ref()
            .parse()
            .map_err(|e| src.error(Some(v.span()), e)),
    }
}

/// A whole number of at least 1, or `default` when not given.
fn positive(
    src: &ConfigFile,
    value: Option<Spanned<u32>>,
    default: u32,
    key: &str,
) -> Result<u32, Error> {
    match value {
        None => Ok(default),
        Some(v) if *v.get_ref() == 0 => {
            Err(src.error(Some(v.span()), format!("{key} must be at least 1")))
        }
        Some(v) => Ok(v.into_inner()),
    }
}
