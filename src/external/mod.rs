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
                let found = std::fs::symlink_metadata(&path);
                return Err(Invalid::new(match (found, std::fs::metadata(&path)) {
                    (Err(_), _) if Path::new(program).is_absolute() => {
                        format!("program `{program}` not found")
                    }
                    (Err(_), _) => format!("program `{program}` not found in {}", base.display()),
                    // there, but no program: a device, a pipe, a link to nothing
                    (Ok(_), Ok(_)) => format!(
                        "program `{program}` is not a file but a device, a pipe or a socket"
                    ),
                    (Ok(link), Err(e)) if link.is_symlink() => {
                        format!("program `{program}` is a link: {e}")
                    }
                    (Ok(_), Err(e)) => format!("program `{program}`: {e}"),
                }));
            }
            if !is_executable(&path) {
                return Err(Invalid::new(format!(
                    "program `{program}` is not executable (chmod +x, or name its interpreter first: [\"python3\", \"{program}\"])"
                )));
            }
            path.to_string_lossy().into_owned()
        } else if on_path(program, &search_path(&sandbox)) {
            program.clone()
        } else {
            return Err(Invalid::new(match sandbox.env.get("PATH") {
                Some(path) => format!("program `{program}` not found on its env's PATH `{path}`"),
                None => format!("program `{program}` not found on PATH"),
            }));
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

    /// The arguments that look like files the program reads (a script,
    /// `bot.py`, or a path, `lib/model.bin`) but name none where it will
    /// look: relative ones that [`Command::resolve`] did not find (it makes
    /// every file it finds absolute, except beside a `dir`, where the
    /// process runs), and that are not in ladder's working directory either
    /// when the process runs there (not `own_dir`, a HackerRank bot's
    /// folder of its own). Not an error, since a bot may create a file it
    /// names; a mistaken path otherwise shows only as every game's forfeit
    /// at start-up.
    pub fn unfound_files(&self, own_dir: bool) -> Vec<&str> {
        self.argv
            .iter()
            .skip(1)
            .map(String::as_str)
            .filter(|arg| looks_like_a_file(arg))
            .filter(|arg| {
                let path = Path::new(arg);
                match &self.dir {
                    _ if path.is_absolute() => !path.exists(),
                    Some(dir) => !dir.join(path).exists(),
                    None => own_dir || !path.exists(),
                }
            })
            .collect()
    }

    /// Whether the program can start by its `#!` line, for a program
    /// given by its path (see [`shebang_problem`]); `shown` is its name as
    /// the user wrote it. Asked of a bot as it joins (a config, `cmd:`,
    /// `arena add`, an upload), not of an arena's stored bots: a kept bot
    /// that no longer starts forfeits its games, the arena plays on.
    pub fn check_script(&self, shown: &str) -> Result<(), Invalid> {
        match self.argv.first() {
            Some(program) if self.url.is_none() && program.contains('/') => {
                match shebang_problem(Path::new(program), shown, &search_path(&self.sandbox)) {
                    Some(problem) => Err(Invalid::new(problem)),
                    None => Ok(()),
                }
            }
            _ => Ok(()),
        }
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

/// The `PATH` a bot's program is looked up on: the bot's own `env` sets
/// it, or it gets ladder's (in the sandbox as without it).
fn search_path(sandbox: &Sandbox) -> std::ffi::OsString {
    match sandbox.env.get("PATH") {
        Some(path) => path.into(),
        None => std::env::var_os("PATH").unwrap_or_default(),
    }
}

/// Whether a program's argument reads as a file's name: a path (`a/b`) or
/// a script's name (`bot.py`), not an option (`-v`, `--model=x`) or a URL.
fn looks_like_a_file(arg: &str) -> bool {
    const SCRIPTS: [&str; 17] = [
        "py", "js", "mjs", "cjs", "ts", "rb", "pl", "php", "lua", "jar", "sh", "r", "jl", "exs",
        "hs", "class", "kif",
    ];
    let script = Path::new(arg)
        .extension()
        .is_some_and(|e| SCRIPTS.iter().any(|s| e.eq_ignore_ascii_case(s)));
    !arg.starts_with('-') && !arg.contains("://") && (arg.contains('/') || script)
}

/// Whether `program` is an executable file in a directory of `path`.
fn on_path(program: &str, path: &std::ffi::OsStr) -> bool {
    std::env::split_paths(path).any(|dir| is_executable(&dir.join(program)))
}

/// Why the script at `path` cannot start by its `#!` line, if it cannot:
/// the line ends in a carriage return (a file saved with Windows line ends:
/// the kernel takes the `\r` as part of the interpreter's name), or it
/// names an interpreter that is not there (`#!/usr/bin/env python` where
/// only `python3` is installed). `program` is the name the user gave;
/// `search` the `PATH` the bot gets.
fn shebang_problem(path: &Path, program: &str, search: &std::ffi::OsStr) -> Option<String> {
    use std::io::Read;
    let mut head = Vec::new();
    let file = std::fs::File::open(path).ok()?;
    file.take(512).read_to_end(&mut head).ok()?;
    let line = head.split(|&b| b == b'\n').next()?.strip_prefix(b"#!")?;
    let text = String::from_utf8_lossy(line);
    if let Some(text) = text.strip_suffix('\r') {
        return Some(format!(
            "program `{program}` starts `#!{}` with a carriage return at the line's end \
             (Windows line ends), so the system would look for an interpreter whose name \
             ends in it: convert the file (`dos2unix {program}`, or `sed -i 's/\\r$//' {program}`)",
            text.trim()
        ));
    }
    let text = text.trim();
    let (interpreter, rest) = text.split_once([' ', '\t']).unwrap_or((text, ""));
    let rest = rest.trim();
    let missing = |name: &str| {
        Some(format!(
            "program `{program}` is run by `{name}` (its first line is `#!{text}`), which is \
             not installed here: change that line, or name an interpreter first \
             ([\"python3\", \"{program}\"])"
        ))
    };
    if !Path::new(interpreter).is_file() {
        return missing(interpreter);
    }
    if Path::new(interpreter).file_name()? != "env" {
        return None;
    }
    // the system gives env the rest of the line as one word: a program
    // with options needs env's -S to split it
    let named = if rest.starts_with("-S") || rest.starts_with("--split-string") {
        rest.split_whitespace()
            .skip(1)
            .find(|w| !w.starts_with('-') && !w.contains('='))?
    } else if rest.is_empty() || rest.starts_with('-') || rest.contains('=') {
        return None; // env's own business
    } else if rest.contains(char::is_whitespace) {
        return Some(format!(
            "program `{program}` starts `#!{text}`, which the system runs as env with the one \
             word `{rest}`: no such program; write `#!{interpreter} -S {rest}` to pass options"
        ));
    } else {
        rest
    };
    let found = if named.contains('/') {
        Path::new(named).is_file()
    } else {
        on_path(named, search)
    };
    if found {
        None
    } else {
        missing(named)
    }
}

/// Whether `path` is a file someone may execute.
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_and_paths_read_as_files_options_and_urls_do_not() {
        for arg in [
            "bot.py",
            "Bot.JAR",
            "a/b",
            "../x",
            "/abs/olute",
            "lib/model.bin",
        ] {
            assert!(looks_like_a_file(arg), "{arg}");
        }
        for arg in [
            "-v",
            "--model=a/b.py",
            "http://a/b",
            "3.5",
            "fast",
            "x.y",
            "",
        ] {
            assert!(!looks_like_a_file(arg), "{arg}");
        }
    }

    /// What `shebang_problem` says of a script whose first line is `line`.
    fn problem(line: &str) -> Option<String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bot");
        std::fs::write(&path, format!("{line}\nrest\n")).unwrap();
        shebang_problem(&path, "./bot", &std::env::var_os("PATH").unwrap())
    }

    #[test]
    fn a_script_that_cannot_start_by_its_first_line_is_named() {
        let sh = "/bin/sh"; // on every system the tests run on
        for fine in [
            "#!/bin/sh".to_string(),
            format!("#! {sh} -e"),
            "#!/usr/bin/env sh".into(),
            "#!/usr/bin/env -S sh -e".into(),
            "#!/usr/bin/env -S LC_ALL=C sh".into(),
            "#!/usr/bin/env LC_ALL=C".into(),
            "#!/usr/bin/env".into(),
            "no #! line".into(),
            String::new(),
        ] {
            assert_eq!(problem(&fine), None, "{fine}");
        }
        let said = problem("#!/bin/sh\r").unwrap();
        assert!(said.contains("carriage return"), "{said}");
        for (line, missing) in [
            ("#!/no/such/python", "`/no/such/python`"),
            ("#!/usr/bin/env no-such-python", "`no-such-python`"),
            ("#!/usr/bin/env -S no-such-python -u", "`no-such-python`"),
            ("#!/usr/bin/env /no/such/python", "`/no/such/python`"),
        ] {
            let said = problem(line).unwrap();
            assert!(
                said.contains(&format!("is run by {missing}")),
                "{line}: {said}"
            );
        }
        let said = problem("#!/usr/bin/env sh -e").unwrap();
        assert!(said.contains("`#!/usr/bin/env -S sh -e`"), "{said}");
    }

    #[test]
    fn a_program_that_is_there_but_no_file_says_what_it_is() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("nowhere", dir.path().join("dangling")).unwrap();
        let said = |program: &str| {
            let argv = [program.to_string()];
            match Command::resolve(&argv, None, dir.path(), false, Sandbox::default()) {
                Ok(_) => panic!("{program} resolved"),
                Err(e) => e.to_string(),
            }
        };
        assert!(said("/dev/null").contains("is not a file but a device"));
        assert!(said("./dangling").contains("is a link: No such file"));
        assert!(said("./missing").contains("not found in"));
    }
}
