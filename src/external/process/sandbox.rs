//! The sandbox every external bot runs in: bubblewrap (`bwrap`, the tool
//! Flatpak uses) where the machine has it, plus resource limits and a chosen
//! environment in every mode.
//!
//! Under bwrap a bot gets its own PID namespace (it sees and can signal only
//! its own processes, and the kernel ends every one of them, `setsid` or not,
//! when the bot or ladder dies), a read-only view of the system, a private
//! `/tmp`, write access to its own working folder only (never to the
//! reports), a cleared environment plus what the config passes, and
//! optionally no network. Memory, process and CPU-time limits are rlimits set
//! before the program starts, with or without bwrap. `docs/SECURITY.md` says
//! what a bot can and cannot do in each mode.

use std::{
    collections::BTreeMap,
    fmt,
    path::{Path, PathBuf},
    process::Stdio,
    str::FromStr,
    sync::OnceLock,
};

use super::exec::{self, Limits};
use crate::core::error::Invalid;

/// The sandbox a config asks for (`sandbox = "auto"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// bwrap when the machine can run it, else none (said once).
    #[default]
    Auto,
    /// bwrap, or an error when the machine cannot run it.
    Bwrap,
    /// No sandbox: the bot runs as ladder's user, seeing what ladder sees.
    None,
}

impl FromStr for Mode {
    type Err = Invalid;
    fn from_str(s: &str) -> Result<Mode, Invalid> {
        match s {
            "auto" => Ok(Mode::Auto),
            "bwrap" => Ok(Mode::Bwrap),
            "none" => Ok(Mode::None),
            other => Err(Invalid::new(format!(
                "unknown sandbox `{other}`; known: auto, bwrap, none"
            ))),
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Auto => "auto",
            Mode::Bwrap => "bwrap",
            Mode::None => "none",
        })
    }
}

/// How one bot's processes run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sandbox {
    /// The bwrap program, when the bot runs under it.
    pub bwrap: Option<PathBuf>,
    /// Variables the bot gets: under bwrap on top of a cleared environment,
    /// otherwise on top of ladder's.
    pub env: BTreeMap<String, String>,
    /// Whether the bot may use the network (turning it off needs bwrap).
    pub network: bool,
    pub limits: Limits,
    /// Folders the bot may not write even when they lie in its own (the reports).
    pub read_only: Vec<PathBuf>,
}

impl Default for Sandbox {
    /// No sandbox, no limits, ladder's environment: for tests and tools.
    fn default() -> Self {
        Sandbox {
            bwrap: None,
            env: BTreeMap::new(),
            network: true,
            limits: Limits::default(),
            read_only: Vec::new(),
        }
    }
}

impl Sandbox {
    /// The sandbox `mode` gives on this machine, with the bot's settings.
    /// `auto` without a usable bwrap says so once on stderr and runs bots
    /// unsandboxed; `bwrap` without one, or the network turned off without
    /// one, is an error.
    pub fn new(
        mode: Mode,
        env: BTreeMap<String, String>,
        network: bool,
        limits: Limits,
    ) -> Result<Sandbox, Invalid> {
        let bwrap = match mode {
            Mode::None => None,
            Mode::Bwrap => Some(
                usable_bwrap()
                    .map_err(|why| Invalid::new(format!("sandbox = \"bwrap\", but {why}")))?,
            ),
            Mode::Auto => match usable_bwrap() {
                Ok(path) => Some(path),
                Err(why) => {
                    static SAID: OnceLock<()> = OnceLock::new();
                    SAID.get_or_init(|| {
                        eprintln!(
                            "note: bots run without a sandbox: {why} (install bubblewrap, or set sandbox = \"none\" to silence this)"
                        );
                    });
                    None
                }
            },
        };
        if !network && bwrap.is_none() {
            return Err(Invalid::new(
                "network = false needs the bwrap sandbox, which does not run here",
            ));
        }
        for key in env.keys() {
            if key.is_empty() || key.contains('=') || key.contains('\0') {
                return Err(Invalid::new(format!("env: `{key}` is not a variable name")));
            }
        }
        for (key, value) in [
            ("memory_mb", limits.memory_mb),
            ("processes", limits.processes),
            ("cpu_seconds", limits.cpu_seconds),
        ] {
            if value == Some(0) {
                return Err(Invalid::new(format!("{key} must be at least 1")));
            }
        }
        Ok(Sandbox {
            bwrap,
            env,
            network,
            limits,
            read_only: Vec::new(),
        })
    }

    /// The mode as it runs here: `bwrap` or `none`.
    pub fn mode(&self) -> Mode {
        if self.bwrap.is_some() {
            Mode::Bwrap
        } else {
            Mode::None
        }
    }

    /// The OS command that runs `argv` in `dir` (writable for the bot) inside
    /// this sandbox, its environment and limits set; with `kill_with_parent`
    /// it gets SIGKILL when the thread that starts it ends ([`exec`]).
    pub fn command(
        &self,
        argv: &[String],
        dir: Option<&Path>,
        kill_with_parent: bool,
    ) -> std::process::Command {
        let Some(bwrap) = &self.bwrap else {
            let mut cmd = exec::command(argv[0].as_ref(), self.limits, kill_with_parent);
            cmd.args(&argv[1..]).envs(&self.env);
            if let Some(dir) = dir {
                cmd.current_dir(dir);
            }
            return cmd;
        };
        let mut cmd = exec::command(bwrap.as_os_str(), self.limits, kill_with_parent);
        cmd.args(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"])
            .args(["--tmpfs", "/tmp", "--unshare-pid", "--die-with-parent"]);
        if !self.network {
            cmd.arg("--unshare-net");
        }
        // the private /tmp hides what lies under it: show the bot the files
        // its command names and the folder it runs in (read-only without a `dir`)
        for arg in argv.iter().map(Path::new) {
            if arg.is_absolute() && arg.starts_with("/tmp") && arg.exists() {
                cmd.arg("--ro-bind").arg(arg).arg(arg);
            }
        }
        match dir {
            Some(dir) => {
                cmd.arg("--bind").arg(dir).arg(dir);
                for ro in self.read_only.iter().filter(|ro| ro.starts_with(dir)) {
                    if ro.exists() {
                        cmd.arg("--ro-bind").arg(ro).arg(ro);
                    }
                }
                cmd.arg("--chdir").arg(dir);
            }
            None => {
                if let Ok(cwd) = std::env::current_dir() {
                    if cwd.starts_with("/tmp") {
                        cmd.arg("--ro-bind").arg(&cwd).arg(&cwd);
                    }
                    cmd.arg("--chdir").arg(cwd);
                }
            }
        }
        cmd.arg("--").args(argv);
        // bwrap passes its own environment on to the bot
        cmd.env_clear()
            .env(
                "PATH",
                std::env::var_os("PATH").unwrap_or("/usr/local/bin:/usr/bin:/bin".into()),
            )
            .env("HOME", dir.unwrap_or(Path::new("/tmp")))
            .env("LANG", "C.UTF-8")
            .envs(&self.env);
        cmd
    }
}

/// The bwrap program, if this machine has one that can start a sandbox;
/// else why not. Tried once per process.
pub fn usable_bwrap() -> Result<PathBuf, String> {
    static PROBE: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PROBE.get_or_init(probe).clone()
}

fn probe() -> Result<PathBuf, String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let Some(bwrap) = std::env::split_paths(&path)
        .map(|d| d.join("bwrap"))
        .find(|p| p.is_file())
    else {
        return Err("bwrap is not installed".to_string());
    };
    let out = std::process::Command::new(&bwrap)
        .args(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"])
        .args(["--tmpfs", "/tmp", "--unshare-pid", "--die-with-parent"])
        .args(["--", "true"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    match out {
        Ok(o) if o.status.success() => Ok(bwrap),
        Ok(o) => Err(format!(
            "bwrap cannot start a sandbox here ({}; unprivileged user namespaces may be off)",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Err(e) => Err(format!("bwrap does not run: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_read_and_print() {
        for m in ["auto", "bwrap", "none"] {
            assert_eq!(m.parse::<Mode>().unwrap().to_string(), m);
        }
        assert!("docker"
            .parse::<Mode>()
            .unwrap_err()
            .to_string()
            .contains("known: auto, bwrap, none"));
    }

    #[test]
    fn bad_settings_are_refused() {
        let env = |k: &str| BTreeMap::from([(k.to_string(), "1".to_string())]);
        assert!(Sandbox::new(Mode::None, env("A=B"), true, Limits::default()).is_err());
        assert!(
            Sandbox::new(Mode::None, env("OK"), false, Limits::default())
                .unwrap_err()
                .to_string()
                .contains("network = false needs")
        );
        let zero = Limits {
            memory_mb: Some(0),
            ..Limits::default()
        };
        assert!(Sandbox::new(Mode::None, BTreeMap::new(), true, zero).is_err());
        let limits = Limits {
            memory_mb: Some(64),
            processes: None,
            cpu_seconds: Some(10),
        };
        assert_eq!(limits.describe(), "memory 64 MiB, cpu 10 s");
    }
}
