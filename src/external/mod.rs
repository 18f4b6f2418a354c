//! Bots that run as separate programs: the line protocol (`line.rs`), the
//! HackerRank bidding format (`hackerrank.rs`), and the child-process handling
//! both share (`process.rs`).

pub mod hackerrank;
pub mod line;
pub mod process;

use std::{
    any::Any,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::Duration,
};

use crate::{
    game::{BotFactory, Game},
    games::Bidding,
    Bot,
};
use process::Log;

/// How ladder talks to an external bot.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// The line protocol of `docs/PROTOCOL.md`: one process for many games.
    Line,
    /// HackerRank's bidding-game format: one process per move.
    Hackerrank,
}

/// Makes a bot of `command` for each game; every process of it logs its
/// stderr to `log`. `params` (the game's parameters) go into the greeting.
///
/// # Panics
/// The bot made by the factory panics for `Protocol::Hackerrank` unless `G`
/// is the bidding game; the config refuses that combination.
pub fn factory<G: Game>(
    command: &Command,
    protocol: Protocol,
    limits: &Limits,
    log: Arc<Mutex<Log>>,
    params: &serde_json::Value,
) -> BotFactory<G> {
    let (command, limits) = (command.clone(), limits.clone());
    match protocol {
        Protocol::Line => {
            let params = params.clone();
            Arc::new(move || {
                Box::new(line::LineBot::new(
                    command.clone(),
                    limits.clone(),
                    Arc::clone(&log),
                    G::NAME,
                    &params,
                ))
            })
        }
        Protocol::Hackerrank => Arc::new(move || {
            let bot =
                hackerrank::HackerRankBot::new(command.clone(), limits.clone(), Arc::clone(&log));
            let boxed: Box<dyn Any> = Box::new(Box::new(bot) as Box<dyn Bot<Bidding>>);
            *boxed
                .downcast::<Box<dyn Bot<G>>>()
                .expect("hackerrank bots play the bidding game only")
        }),
    }
}

/// Time limits of an external bot.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Per move: from the request to the answer.
    pub move_time: Duration,
    /// From the start of the process to its `ready`.
    pub startup_time: Duration,
}

/// How to start an external bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// Program and arguments; run directly, never through a shell.
    pub argv: Vec<String>,
    /// Working directory; `None` runs in ladder's own.
    pub dir: Option<PathBuf>,
}

impl Command {
    /// Checks a command from a config and pins down its paths.
    ///
    /// A program named with a `/` is looked up relative to `dir` (else
    /// ladder's working directory), any other on `PATH`. The process runs in
    /// `dir`. With `absolute_args` (a bot that runs in a directory of its own,
    /// as HackerRank bots do) every argument naming an existing file is made
    /// absolute, and the process gets no `dir`.
    pub fn resolve(
        argv: &[String],
        dir: Option<&Path>,
        absolute_args: bool,
    ) -> Result<Command, String> {
        let Some((program, args)) = argv.split_first() else {
            return Err("the command is empty: give the program and its arguments, e.g. [\"python3\", \"bot.py\"]".to_string());
        };
        let base = match dir {
            Some(d) if d.is_dir() => d
                .canonicalize()
                .map_err(|e| format!("dir `{}`: {e}", d.display()))?,
            Some(d) => return Err(format!("dir `{}` is not a directory", d.display())),
            None => std::env::current_dir().map_err(|e| format!("the working directory: {e}"))?,
        };
        let program = if program.contains('/') {
            let path = base.join(program);
            if !path.is_file() {
                return Err(format!(
                    "program `{program}` not found in {}",
                    base.display()
                ));
            }
            path.to_string_lossy().into_owned()
        } else if on_path(program) {
            program.clone()
        } else {
            return Err(format!("program `{program}` not found on PATH"));
        };
        let mut resolved = vec![program];
        for arg in args {
            let path = base.join(arg);
            resolved.push(if absolute_args && !arg.starts_with('-') && path.exists() {
                path.to_string_lossy().into_owned()
            } else {
                arg.clone()
            });
        }
        Ok(Command {
            argv: resolved,
            dir: if absolute_args {
                None
            } else {
                dir.map(|_| base)
            },
        })
    }
}

/// Whether `program` is an executable file in a `PATH` directory.
fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path).any(|dir| {
        std::fs::metadata(dir.join(program))
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}
