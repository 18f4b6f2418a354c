//! The bots a season can have: a game's [`Roster`] (its built-in bots and
//! protocols), and each planned bot as written ([`BotSpec`], recorded in
//! `season.json`) and as it runs ([`BotKind`]).

use std::path::Path;

use serde::Serialize;

use crate::{
    core::{
        bot::{builtin_bot, builtin_bots, BotFactory, BotInfo, Builtin},
        error::Invalid,
        game::Game,
    },
    external::{self, line_protocol, process::Sandbox, ProcessProtocol},
};

/// Every way to make a bot of game `G`: its own built-in bots (the generic
/// `random` comes on top) and the protocols it speaks beyond the line protocol.
pub struct Roster<G: Game> {
    /// The game's name in the catalogue, for messages.
    pub game: &'static str,
    pub builtins: &'static [Builtin<G>],
    pub protocols: &'static [ProcessProtocol<G>],
    /// Every protocol of the catalogue beyond the line protocol, with the
    /// game that speaks it: for messages that point to the right game.
    pub elsewhere: fn() -> Vec<(&'static str, &'static str)>,
}

impl<G: Game> Roster<G> {
    /// The built-in bots, as `ladder list bots` shows them.
    pub fn bots(&self) -> Vec<BotInfo> {
        builtin_bots(self.builtins)
    }

    /// Every protocol, the line protocol first.
    pub fn all_protocols(&self) -> Vec<ProcessProtocol<G>> {
        std::iter::once(line_protocol())
            .chain(self.protocols.iter().copied())
            .collect()
    }

    /// The protocol called `name`, or why there is none.
    pub fn protocol(&self, name: &str) -> Result<ProcessProtocol<G>, Invalid> {
        if let Some(p) = self.all_protocols().into_iter().find(|p| p.name == name) {
            return Ok(p);
        }
        Err(Invalid::new(match self.home_of(name) {
            Some(game) => format!(
                "protocol \"{name}\" is for the {game} game, not {}",
                self.game
            ),
            None => {
                let mut known = vec!["line"];
                known.extend((self.elsewhere)().into_iter().map(|(p, _)| p));
                known.dedup();
                format!("unknown protocol `{name}`; known: {}", known.join(", "))
            }
        }))
    }

    /// The game that speaks protocol `name`, if another one does.
    pub(crate) fn home_of(&self, name: &str) -> Option<&'static str> {
        (self.elsewhere)()
            .into_iter()
            .find(|(p, _)| *p == name)
            .map(|(_, g)| g)
    }

    /// A built-in bot's spec and kind, or why there is no such bot.
    pub fn builtin(
        &self,
        name: &str,
        params: toml::Table,
    ) -> Result<(BotSpec, BotKind<G>), Invalid> {
        let factory = builtin_bot(self.game, self.builtins, name, &params)?;
        let spec = BotSpec::Builtin {
            builtin: name.to_string(),
            params,
        };
        Ok((spec, BotKind::Builtin(factory)))
    }

    /// A bot program's spec (as written) and kind (its command resolved
    /// against `base`, the config's folder, to run in `sandbox`), or why the
    /// command cannot run.
    pub fn external(
        &self,
        argv: &[String],
        protocol: ProcessProtocol<G>,
        dir: Option<String>,
        base: &Path,
        sandbox: Sandbox,
    ) -> Result<(BotSpec, BotKind<G>), Invalid> {
        let limits = sandbox.limits;
        let network = sandbox.network;
        let command = external::Command::resolve(
            argv,
            dir.as_deref().map(Path::new),
            base,
            protocol.own_dir,
            sandbox,
        )?;
        let spec = BotSpec::External {
            command: argv.to_vec(),
            protocol: protocol.name.to_string(),
            dir,
            url: None,
            network: (!network).then_some(false),
            memory_mb: limits.memory_mb,
            processes: limits.processes,
            cpu_seconds: limits.cpu_seconds,
        };
        Ok((spec, BotKind::External(Box::new(command), protocol)))
    }
}

impl<G: Game> Roster<G> {
    /// A GGP player already running at `url`: its spec and kind.
    pub fn at_url(
        &self,
        url: &str,
        protocol: ProcessProtocol<G>,
    ) -> Result<(BotSpec, BotKind<G>), Invalid> {
        let command = external::Command::at_url(url)?;
        let spec = BotSpec::External {
            command: Vec::new(),
            protocol: protocol.name.to_string(),
            dir: None,
            url: Some(url.to_string()),
            network: None,
            memory_mb: None,
            processes: None,
            cpu_seconds: None,
        };
        Ok((spec, BotKind::External(Box::new(command), protocol)))
    }
}

/// A bot of the season: its name, what it is as written, and how to run it.
#[derive(Clone)]
pub struct PlannedBot<G: Game> {
    pub name: String,
    pub spec: BotSpec,
    pub kind: BotKind<G>,
    /// Log every line a bot program exchanges (`log = true`) to
    /// `logs/<bot>.io.log`; results never depend on it, so it is not in the spec.
    pub log_io: bool,
    /// Its own time control (`move_time_ms` or `time_control` under its
    /// `[[bot]]`), instead of the season's; `season.json` records it.
    pub time: Option<crate::core::clock::TimeControl>,
}

/// How a planned bot runs.
#[derive(Clone)]
pub enum BotKind<G: Game> {
    /// In-process: a fresh bot from the factory for every game.
    Builtin(BotFactory<G>),
    /// A program, with its command resolved against the file system.
    External(Box<external::Command>, ProcessProtocol<G>),
}

/// What a bot is, as written in the config and recorded in `season.json`.
/// Sandbox settings that may change results (limits, the network) appear
/// only when set, so seasons journaled before them still resume; the
/// environment is not recorded (it may hold secrets).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum BotSpec {
    Builtin {
        builtin: String,
        params: toml::Table,
    },
    External {
        command: Vec<String>,
        protocol: String,
        dir: Option<String>,
        /// A GGP player already running, reached here (then `command` is empty).
        #[serde(skip_serializing_if = "Option::is_none")]
        url: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        network: Option<bool>,
        #[serde(skip_serializing_if = "Option::is_none")]
        memory_mb: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        processes: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        cpu_seconds: Option<u64>,
    },
}
