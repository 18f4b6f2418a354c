//! The `[[bot]]` entries of a config: a built-in bot, a program with its
//! protocol and sandbox, or a GGP player at a URL.

use std::{collections::BTreeMap, ops::Range, path::Path};

use serde::Deserialize;
use toml::Spanned;

use super::{sandbox_mode, ConfigFile};
use crate::{
    core::{error::Error, game::Game},
    external::{
        line_protocol,
        process::{Limits, Mode, Sandbox},
    },
    plan::{BotKind, BotSpec, Roster},
};

/// One `[[bot]]` entry as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBot {
    pub(super) name: Spanned<String>,
    pub(super) builtin: Option<Spanned<String>>,
    pub(super) params: Option<Spanned<toml::Table>>,
    pub(super) command: Option<Spanned<Vec<String>>>,
    /// A GGP player already running (`protocol = "ggp"`).
    pub(super) url: Option<Spanned<String>>,
    pub(super) protocol: Option<Spanned<String>>,
    pub(super) dir: Option<Spanned<String>>,
    pub(super) sandbox: Option<Spanned<String>>,
    pub(super) env: Option<Spanned<BTreeMap<String, String>>>,
    pub(super) network: Option<Spanned<bool>>,
    pub(super) memory_mb: Option<Spanned<u64>>,
    pub(super) processes: Option<Spanned<u64>>,
    pub(super) cpu_seconds: Option<Spanned<u64>>,
    /// The bot's own time per move (instead of the season's).
    pub(super) move_time_ms: Option<Spanned<u32>>,
    /// The bot's own game clock (instead of the season's).
    pub(super) time_control: Option<Spanned<String>>,
    /// Log every line the program exchanges with ladder.
    pub(super) log: Option<Spanned<bool>>,
    /// Ladder configs only: whether the bot takes part (else it retires).
    pub(super) active: Option<Spanned<bool>>,
    /// Ladder configs only: the division a newcomer starts in.
    pub(super) division: Option<Spanned<u32>>,
}

impl RawBot {
    /// The sandbox keys that are set, with where (`sandbox` last: messages
    /// about the others mention it): only bot programs take them.
    pub(super) fn sandbox_keys(&self) -> Vec<(&'static str, Range<usize>)> {
        let span = |v: Option<Range<usize>>, key| v.map(|s| (key, s));
        [
            span(self.env.as_ref().map(Spanned::span), "env"),
            span(self.network.as_ref().map(Spanned::span), "network"),
            span(self.memory_mb.as_ref().map(Spanned::span), "memory_mb"),
            span(self.processes.as_ref().map(Spanned::span), "processes"),
            span(self.cpu_seconds.as_ref().map(Spanned::span), "cpu_seconds"),
            span(self.sandbox.as_ref().map(Spanned::span), "sandbox"),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// The sandbox of a bot program: the bot's own `sandbox` key, else the
/// season's, with its environment, network and limits.
fn bot_sandbox(src: &ConfigFile, b: &RawBot, season: Mode) -> Result<Sandbox, Error> {
    let mode = match &b.sandbox {
        Some(_) => sandbox_mode(src, b.sandbox.as_ref())?,
        None => season,
    };
    let value = |v: &Option<Spanned<u64>>| v.as_ref().map(|v| *v.get_ref());
    let limits = Limits {
        memory_mb: value(&b.memory_mb),
        processes: value(&b.processes),
        cpu_seconds: value(&b.cpu_seconds),
    };
    let env = b
        .env
        .as_ref()
        .map(|e| e.get_ref().clone())
        .unwrap_or_default();
    let network = b.network.as_ref().is_none_or(|n| *n.get_ref());
    Sandbox::new(mode, env, network, limits).map_err(|e| {
        // the key the message is about, else the bot's sandbox, else its name
        let message = e.to_string();
        let span = b
            .sandbox_keys()
            .into_iter()
            .find(|(key, _)| message.contains(key))
            .map(|(_, span)| span)
            .or_else(|| b.sandbox.as_ref().map(Spanned::span))
            .unwrap_or(b.name.span());
        src.error(Some(span), e)
    })
}

/// One `[[bot]]` entry: a built-in bot, or a command with its protocol.
pub(super) fn plan_bot<G: Game>(
    src: &ConfigFile,
    roster: &Roster<G>,
    b: &RawBot,
    season_sandbox: Mode,
) -> Result<(BotSpec, BotKind<G>), Error> {
    let name_span = Some(b.name.span());
    if let Some(url) = &b.url {
        return plan_url_bot(src, roster, b, url);
    }
    match (&b.builtin, &b.command) {
        (Some(builtin), None) => {
            let program_keys = [
                ("protocol", b.protocol.as_ref().map(|p| p.span())),
                ("dir", b.dir.as_ref().map(|d| d.span())),
            ];
            let sandbox_keys = b.sandbox_keys().into_iter().map(|(k, s)| (k, Some(s)));
            for (key, span) in program_keys.into_iter().chain(sandbox_keys) {
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
            roster
                .builtin(builtin.get_ref(), params)
                .map_err(|e| src.error(Some(span), e))
        }
        (None, Some(command)) => {
            if let Some(p) = &b.params {
                return Err(src.error(
                    Some(p.span()),
                    "`params` is for built-in bots; pass a program its options in `command`",
                ));
            }
            let protocol = match &b.protocol {
                None => line_protocol(),
                Some(p) => roster
                    .protocol(p.get_ref())
                    .map_err(|e| src.error(Some(p.span()), e))?,
            };
            let dir = b.dir.as_ref().map(|d| d.get_ref().clone());
            let sandbox = bot_sandbox(src, b, season_sandbox)?;
            if protocol.name == "ggp" && !sandbox.network {
                let span = b.network.as_ref().map(Spanned::span);
                return Err(src.error(
                    span,
                    "a GGP player serves HTTP to ladder, so it shares the network: `network = false` cannot hold for protocol = \"ggp\"",
                ));
            }
            // paths in a config are relative to the config's folder
            let base = Path::new(&src.file).parent().unwrap_or(Path::new(""));
            let (spec, kind) = roster
                .external(command.get_ref(), protocol, dir, base, sandbox)
                .map_err(|e| src.error(Some(command.span()), e))?;
            if let (BotKind::External(resolved, _), false) = (&kind, src.stored) {
                let shown = command.get_ref().first().map_or("", String::as_str);
                resolved
                    .check_script(shown)
                    .map_err(|e| src.error(Some(command.span()), e))?;
                let folder = match &b.dir {
                    Some(d) => base.join(d.get_ref()),
                    None if base.as_os_str().is_empty() => Path::new(".").to_path_buf(),
                    None => base.to_path_buf(),
                };
                for arg in resolved.unfound_files(protocol.own_dir) {
                    eprintln!(
                        "note: bot `{}`: `{arg}` in its command names no file in `{}` \
                         (a config's paths are relative to its folder, or to the bot's `dir`)",
                        b.name.get_ref(),
                        folder.display()
                    );
                }
            }
            Ok((spec, kind))
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

/// A `[[bot]]` with a `url`: a GGP player already running, which ladder
/// reaches but does not start (so no command, directory or sandbox).
fn plan_url_bot<G: Game>(
    src: &ConfigFile,
    roster: &Roster<G>,
    b: &RawBot,
    url: &Spanned<String>,
) -> Result<(BotSpec, BotKind<G>), Error> {
    let others = [
        ("builtin", b.builtin.as_ref().map(Spanned::span)),
        ("command", b.command.as_ref().map(Spanned::span)),
        ("params", b.params.as_ref().map(Spanned::span)),
        ("dir", b.dir.as_ref().map(Spanned::span)),
    ];
    let sandbox_keys = b.sandbox_keys().into_iter().map(|(k, s)| (k, Some(s)));
    for (key, span) in others.into_iter().chain(sandbox_keys) {
        if span.is_some() {
            return Err(src.error(
                span,
                format!("`{key}` does not go with `url`: a player at a URL runs on its own, outside ladder"),
            ));
        }
    }
    let protocol = match &b.protocol {
        None => "ggp",
        Some(p) => p.get_ref().as_str(),
    };
    if protocol != "ggp" {
        let span = b.protocol.as_ref().map(Spanned::span);
        return Err(src.error(
            span,
            format!("`url` is for GGP players (protocol = \"ggp\"), not protocol \"{protocol}\""),
        ));
    }
    let protocol = roster
        .protocol("ggp")
        .map_err(|e| src.error(Some(url.span()), e))?;
    roster
        .at_url(url.get_ref(), protocol)
        .map_err(|e| src.error(Some(url.span()), e))
}
