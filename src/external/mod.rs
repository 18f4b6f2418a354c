//! Bots that run as separate programs, in any language: the line protocol
//! ([`protocol`] for its text, [`line`] for the bot), the child processes
//! ([`process`]), and [`ProcessProtocol`], the type by which a game adds a
//! protocol of its own (the bidding game's HackerRank format lives in
//! `games/bidding/`).

pub mod ggp;
pub mod line;
pub mod process;
pub mod protocol;

use std::path::{Path, PathBuf};

use crate::core::{bot::Bot, clock::TimeControl, error::Invalid, game::Game};
use process::{Sandbox, SharedLog};

/// Everything a protocol needs to start a bot program in a season.
#[derive(Clone)]
pub struct Launch {
    pub command: Command,
    /// Where the program's stderr goes.
    pub log: SharedLog,
    /// The game's name and parameters (as JSON), for the greeting.
    pub game: String,
    pub params: serde_json::Value,
    pub time: TimeControl,
}

/// A way of talking to a bot program.
pub struct ProcessProtocol<G: Game> {
    /// The name configs use (`protocol = "line"`).
    pub name: &'static str,
    /// One line for `ladder list protocols`.
    pub about: &'static str,
    /// Whether the program runs in a directory of its own, with every
    /// argument naming a file made absolute (as HackerRank bots expect),
    /// rather than in the bot's `dir`.
    pub own_dir: bool,
    /// Whether one process serves many games of a pairing (kept by the
    /// season's workers) rather than one game.
    pub persistent: bool,
    /// Makes the bot for one game, or for the games of one pairing.
    pub make: fn(&Launch) -> Box<dyn Bot<G>>,
}

impl<G: Game> Clone for ProcessProtocol<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for ProcessProtocol<G> {}

/// The line protocol of `docs/PROTOCOL.md`, which every game speaks.
pub fn line_protocol<G: Game>() -> ProcessProtocol<G> {
    ProcessProtocol {
        name: "line",
        about: "the line protocol of docs/PROTOCOL.md: one process for many games",
        own_dir: false,
        persistent: true,
        make: |launch| Box::new(line::LineBot::new(launch)),
    }
}

/// How to start an external bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// Program and arguments; run directly, never through a shell.
    pub argv: Vec<String>,
    /// Working directory; `None` runs in ladder's own.
    pub dir: Option<PathBuf>,
    /// Where and how its processes run.
    pub sandbox: Sandbox,
    /// A GGP player already running, reached at this URL: then nothing is
    /// started and `argv` is empty.
    pub url: Option<String>,
}

impl Command {
    /// Checks a command from a config and pins down its paths.
    ///
    /// Relative paths are relative to `base` (a config's folder, as cargo
    /// reads paths relative to its manifest; ladder's working directory on
    /// the command line): `dir` itself, and without a `dir` the program and
    /// every argument naming an existing file, which are made absolute (the
    /// process runs in ladder's working directory, wherever that is). With a
    /// `dir` they are relative to it, where the process runs. A program
    /// named with a `/` is looked up so, any other on `PATH`. With
    /// `absolute_args` (a bot that runs in a directory of its own, as
    /// HackerRank bots do) every argument naming an existing file is made
    /// absolute, and the process gets no `dir`. It runs inside `sandbox`.
    pub fn resolve(
        argv: &[String],
        dir: Option<&Path>,
        base: &Path,
        absolute_args: bool,
        sandbox: Sandbox,
    ) -> Result<Command, Invalid> {
        let Some((program, args)) = argv.split_first() else {
            return Err(Invalid::new("the command is empty: give the program and its arguments, e.g. [\"python3\", \"bot.py\"]"));
        };
        if argv.iter().any(|a| a.contains('\0')) {
            return Err(Invalid::new(
                "the command holds a NUL byte, which no program can be given",
            ));
        }
        let dir = dir.map(|d| base.join(d));
        let dir = dir.as_deref();
        let absolute_args = absolute_args || dir.is_none();
        let base = match dir {
            Some(d) if d.is_dir() => d
                .canonicalize()
                .map_err(|e| Invalid::new(format!("dir `{}`: {e}", d.display())))?,
            Some(d) => {
                return Err(Invalid::new(format!(
                    "dir `{}` is not a directory (relative to the config's folder)",
                    d.display()
                )))
            }
            None => std::env::current_dir()
                .map(|cwd| cwd.join(base))
                .map_err(|e| Invalid::new(format!("the working directory: {e}")))?,
        };
        let program = if program.contains('/') {
            let path = base.join(program);
            if path.is_dir() {
                return Err(Invalid::new(format!(
                    "program `{program}` is a folder, not a program"
                )));
            }
            if !path.is_file() {
                return Err(Invalid::new(if Path::new(program).is_absolute() {
                    format!("program `{program}` not found")
                } else {
                    format!("program `{program}` not found in {}", base.display())
                }));
            }
            if !is_executable(&path) {
                return Err(Invalid::new(format!(
                    "program `{program}` is not executable (chmod +x, or name its interpreter first: [\"python3\", \"{program}\"])"
                )));
            }
            if let Some(line) = shebang_with_carriage_return(&path) {
                return Err(Invalid::new(format!(
                    "program `{program}` starts `{line}` with a carriage return at the line's end \
                     (Windows line ends), so the system would look for an interpreter whose name \
                     ends in it: convert the file (`dos2unix {program}`, or `sed -i 's/\\r$//' {program}`)"
                )));
            }
            path.to_string_lossy().into_owned()
        } else if on_path(program) {
            program.clone()
        } else {
            return Err(Invalid::new(format!(
                "program `{program}` not found on PATH"
            )));
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
            sandbox,
            url: None,
        })
    }

    /// A GGP player already running at `url` (`http://host:port`).
    pub fn at_url(url: &str) -> Result<Command, Invalid> {
        let rest = url.strip_prefix("http://").ok_or_else(|| {
            Invalid::new(format!(
                "url `{url}` is not an http:// URL (GGP players serve plain HTTP)"
            ))
        })?;
        if rest.is_empty() || rest.starts_with('/') || url.chars().any(char::is_whitespace) {
            return Err(Invalid::new(format!(
                "url `{url}` names no host: write http://HOST:PORT"
            )));
        }
        Ok(Command {
            argv: Vec::new(),
            dir: None,
            sandbox: Sandbox::default(),
            url: Some(url.to_string()),
        })
    }
}

/// Whether `program` is an executable file in a `PATH` directory.
fn on_path(program: &str) -> bool {
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path).any(|dir| is_executable(&dir.join(program)))
}

/// Whether `path` is a file someone may execute.
/// The first line of a script at `path` whose `#!` line ends in a carriage
/// return (a file saved with Windows line ends), which no system can run:
/// the kernel takes the `\r` as part of the interpreter's name or argument.
fn shebang_with_carriage_return(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = Vec::new();
    let file = std::fs::File::open(path).ok()?;
    file.take(512).read_to_end(&mut head).ok()?;
    let line = head.split(|&b| b == b'\n').next()?;
    let text = line.strip_prefix(b"#!")?.strip_suffix(b"\r")?;
    Some(format!("#!{}", String::from_utf8_lossy(text).trim()))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
