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
    ffi::OsString,
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
    /// Files and folders the bot may not see, even inside its own folder
    /// or one its command names: the season's results, the shared I/O log.
    pub hidden: Vec<PathBuf>,
    /// Folders the bot may not see but for its own files in them (its
    /// `dir`, the files its command names): other bots' folders, an
    /// arena's.
    pub others: Vec<PathBuf>,
    /// Where the user running ladder keeps keys and tokens ([`secrets`]):
    /// hidden as [`Sandbox::hidden`] paths are.
    pub secrets: Vec<PathBuf>,
}

/// What the sandbox does with a path ([`Sandbox::bwrap_args`]), in the
/// order it does it at one path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Mark {
    /// Shown as it is outside, read-only.
    Read,
    /// Shown as it is outside, writable: the bot's `dir`.
    Write,
    /// Replaced by an empty folder (a file by an empty file).
    Hide,
}

impl Default for Sandbox {
    /// No sandbox, no limits, ladder's environment: for tests and tools.
    fn default() -> Self {
        Sandbox {
            bwrap: None,
            env: BTreeMap::new(),
            network: true,
            limits: Limits::default(),
            hidden: Vec::new(),
            others: Vec::new(),
            secrets: Vec::new(),
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
            hidden: Vec::new(),
            others: Vec::new(),
            secrets: secrets().to_vec(),
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
            cmd.args(&argv[1..]).envs(self.environment(None));
            if let Some(dir) = dir {
                cmd.current_dir(dir);
            }
            return cmd;
        };
        // the limits are set inside the bot's user namespace, where the
        // process limit counts only the bot's own processes: by ladder's
        // binary where it can run there, else (library users) before bwrap
        let helper = exec::helper().filter(|exe| exe.is_absolute());
        // a long-lived bot's output goes through the sandbox by a descriptor
        // bwrap closes ([`exec::Stdout`]), so that closing it is seen at once;
        // a one-move bot's ends with its process anyway
        let pass = if helper.is_some() && kill_with_parent {
            exec::Stdout::Pass
        } else {
            exec::Stdout::Keep
        };
        let inner = helper.filter(|_| pass == exec::Stdout::Pass || !self.limits.is_empty());
        let outside = if inner.is_some() {
            Limits::default()
        } else {
            self.limits
        };
        let mut cmd =
            exec::command_passing(bwrap.as_os_str(), outside, kill_with_parent, pass, false);
        cmd.args(self.bwrap_args(argv, dir, inner.map(PathBuf::as_path)));
        if let Some(exe) = inner {
            let take = if pass == exec::Stdout::Pass {
                exec::Stdout::Take
            } else {
                exec::Stdout::Keep
            };
            cmd.arg(exe)
                .args(exec::helper_args(self.limits, None, take, false));
        }
        cmd.args(argv);
        // bwrap passes its own environment on to the bot
        cmd.env_clear()
            .envs(self.environment(Some(dir.unwrap_or(Path::new("/tmp")))));
        cmd
    }

    /// The variables the bot gets beyond what it inherits: with `home`
    /// (under bwrap, where it inherits nothing) `PATH`, `HOME` and `LANG`
    /// first; then, with a memory limit, the limit told to a JVM as a
    /// container would tell it (`-XX:MaxRAM`), which otherwise sizes its
    /// heap from the machine's memory and fails to start; then the config's.
    fn environment(&self, home: Option<&Path>) -> BTreeMap<String, std::ffi::OsString> {
        let mut env = BTreeMap::new();
        if let Some(home) = home {
            let path = std::env::var_os("PATH").unwrap_or("/usr/local/bin:/usr/bin:/bin".into());
            env.insert("PATH".to_string(), path);
            env.insert("HOME".to_string(), home.as_os_str().to_owned());
            env.insert("LANG".to_string(), "C.UTF-8".into());
        }
        let java = "JAVA_TOOL_OPTIONS";
        if let Some(mb) = self.limits.memory_mb {
            if home.is_some() || std::env::var_os(java).is_none() {
                env.insert(java.to_string(), format!("-XX:MaxRAM={mb}m").into());
            }
        }
        for (key, value) in &self.env {
            env.insert(key.clone(), value.into());
        }
        env
    }

    /// The mounts that make the bot's view of the files, after `/` (read-
    /// only) and its private `/tmp` and `/dev/shm`: each path after those
    /// that hold it, so the deepest says. The folders of the files its
    /// command names (and of the `PATH` its `env` sets, ladder's `helper`,
    /// and the working folder `cwd` when it has no `dir` and that is under
    /// `/tmp`) are shown read-only, as they are outside (a program
    /// importing its siblings from under `/tmp`); its `dir` writable;
    /// [`Sandbox::hidden`] paths are hidden even inside those, and nothing
    /// the command names shows them again; [`Sandbox::others`] are hidden
    /// but for the bot's own folders in them.
    fn mounts(
        &self,
        argv: &[String],
        dir: Option<&Path>,
        helper: Option<&Path>,
        cwd: Option<&Path>,
    ) -> Vec<OsString> {
        let mut marks: Vec<(PathBuf, Mark)> = Vec::new();
        for path in argv.iter().map(Path::new) {
            if !path.is_absolute() || !path.exists() {
                continue;
            }
            let folder = match path.parent() {
                Some(p) if path.is_file() && p != Path::new("/tmp") && p != Path::new("/") => p,
                _ => path,
            };
            marks.push((folder.to_path_buf(), Mark::Read));
        }
        marks.extend(helper.map(|h| (h.to_path_buf(), Mark::Read)));
        // the folders of the PATH its `env` gives it (a virtualenv's `bin`
        // under /tmp), where its program and interpreter are found
        if let Some(path) = self.env.get("PATH") {
            for folder in std::env::split_paths(path) {
                if folder.is_absolute() && folder.is_dir() {
                    marks.push((folder, Mark::Read));
                }
            }
        }
        match (dir, cwd) {
            (Some(dir), _) => marks.push((dir.to_path_buf(), Mark::Write)),
            (None, Some(cwd)) if cwd.starts_with("/tmp") => marks.push((cwd.into(), Mark::Read)),
            (None, _) => {}
        }
        // compared as paths without `.` and `..` (a command's
        // `configs/../bots/bot.py` is in `bots`), mounted as written: the
        // bot opens the path as written, whose every folder must be there
        let hidden: Vec<&PathBuf> = self.hidden.iter().chain(&self.secrets).collect();
        let mut marks: Vec<(PathBuf, PathBuf, Mark)> = marks
            .into_iter()
            .map(|(path, mark)| (lexical(&path), path, mark))
            .filter(|(path, _, mark)| {
                *mark == Mark::Write || !hidden.iter().any(|h| path.starts_with(lexical(h)))
            })
            .collect();
        let own = dir.map(lexical);
        for path in hidden.into_iter().chain(&self.others) {
            if own.as_deref() != Some(&lexical(path)) {
                marks.push((lexical(path), path.clone(), Mark::Hide));
            }
        }
        // at one path, hiding last: it wins over reading
        marks.sort_by_key(|(path, _, mark)| (path.components().count(), *mark));
        let mut seen: Vec<(PathBuf, bool)> = ["/tmp", "/dev/shm"]
            .iter()
            .map(|p| (PathBuf::from(p), false))
            .collect();
        let mut args: Vec<OsString> = Vec::new();
        for (path, written, mark) in marks {
            // what the deepest mount that holds it made it (`/`: shown)
            let visible = seen
                .iter()
                .filter(|(at, _)| path.starts_with(at))
                .max_by_key(|(at, _)| at.components().count())
                .is_none_or(|(_, visible)| *visible);
            let how: &[&str] = match mark {
                // shown already; a path through `..` is mounted all the same,
                // so that the folders it passes through are there
                Mark::Read if visible && written == path => continue,
                Mark::Read => &["--ro-bind"],
                Mark::Write => &["--bind"],
                // an empty folder in its place, which the bot cannot write
                Mark::Hide if visible && path.is_dir() => {
                    &["--perms", "0555", "--size", "4096", "--tmpfs"]
                }
                Mark::Hide if visible && path.exists() => &["--ro-bind", "/dev/null"],
                _ => continue,
            };
            args.extend(how.iter().map(OsString::from));
            if mark != Mark::Hide {
                args.push(written.clone().into());
            }
            args.push(written.into());
            seen.push((path, mark != Mark::Hide));
        }
        args
    }

    /// bwrap's arguments up to its `--`: namespaces, the file system the
    /// bot sees, its working folder (`docs/SECURITY.md`).
    fn bwrap_args(
        &self,
        argv: &[String],
        dir: Option<&Path>,
        helper: Option<&Path>,
    ) -> Vec<OsString> {
        let words = |words: &[&str]| words.iter().map(OsString::from).collect::<Vec<_>>();
        // no capabilities, even when ladder runs as root; its own
        // processes, System V IPC, and no user namespaces of its own; no
        // terminal: where ladder has one, a session of its own keeps the bot
        // from it (where it has none, the bot stays in ladder's session, as
        // outside a sandbox: [`exec`])
        let mut args = words(&[
            "--unshare-user",
            "--disable-userns",
            "--cap-drop",
            "ALL",
            "--unshare-pid",
            "--unshare-ipc",
            "--die-with-parent",
        ]);
        if exec::has_terminal() {
            args.push("--new-session".into());
        }
        if !self.network {
            args.push("--unshare-net".into());
        }
        args.extend(words(&[
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
        ]));
        let size = (self.limits.memory_mb.unwrap_or(DEFAULT_TMP_MB) * 1024 * 1024).to_string();
        for tmp in ["/tmp", "/dev/shm"] {
            args.extend(words(&["--size", &size, "--tmpfs", tmp]));
        }
        let cwd = std::env::current_dir().ok();
        args.extend(self.mounts(argv, dir, helper, cwd.as_deref()));
        if let Some(folder) = dir.or(cwd.as_deref()) {
            args.extend(["--chdir".into(), folder.into()]);
        }
        args.push("--".into());
        args
    }
}

/// Where the user running ladder keeps keys and tokens, under its `HOME`:
/// a bot runs as that user, and no bot's program needs them.
pub const SECRETS_IN_HOME: &[&str] = &[
    ".ssh",
    ".gnupg",
    ".Xauthority",
    ".password-store",
    ".local/share/keyrings",
    ".pki",
    ".netrc",
    ".git-credentials",
    ".config/gh",
    ".config/hub",
    ".aws",
    ".azure",
    ".config/gcloud",
    ".boto",
    ".s3cfg",
    ".kube",
    ".docker",
    ".terraform.d",
    ".terraformrc",
    ".vault-token",
    ".pypirc",
    ".npmrc",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".mozilla",
    ".config/google-chrome",
    ".config/chromium",
    ".bash_history",
    ".zsh_history",
    ".python_history",
];

/// The system's secrets, which their owner, root, reads without a
/// capability (a bot of ladder run as root could read them), and the
/// sockets through which a process of ladder's user (or root) commands
/// the machine outside any sandbox: the user's own services and session
/// bus (`/run/user`), the system bus and systemd's own socket (through
/// which root starts any service), container engines (whose users are
/// root in effect), and the secrets a container is given.
pub const SYSTEM_SECRETS: &[&str] = &[
    "/etc/shadow",
    "/etc/shadow-",
    "/etc/gshadow",
    "/etc/gshadow-",
    "/etc/ssh",
    "/etc/ssl/private",
    "/run/user",
    "/run/dbus",
    "/var/run/dbus",
    "/run/systemd/private",
    "/run/docker.sock",
    "/var/run/docker.sock",
    "/run/docker",
    "/run/containerd",
    "/run/podman",
    "/run/crio",
    "/run/libvirt",
    "/run/snapd.socket",
    "/run/snapd-snap.socket",
    "/run/secrets",
    "/var/run/secrets",
];

/// The paths of [`SECRETS_IN_HOME`] (under ladder's `HOME`) and
/// [`SYSTEM_SECRETS`] that are there: hidden from every bot, as the
/// season's results are, whatever its folders and command.
fn secrets() -> &'static [PathBuf] {
    static SECRETS: OnceLock<Vec<PathBuf>> = OnceLock::new();
    SECRETS.get_or_init(|| {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .filter(|h| h.is_absolute() && h != Path::new("/"));
        let in_home = home
            .iter()
            .flat_map(|h| SECRETS_IN_HOME.iter().map(|s| h.join(s)));
        let system = SYSTEM_SECRETS.iter().map(PathBuf::from);
        // each where it really is (`/var/run` is a link to `/run` on most
        // systems), once: bwrap mounts over the path it is given
        let mut found: Vec<PathBuf> = in_home
            .chain(system)
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .filter(|p| p != Path::new("/"))
            .collect();
        found.sort();
        found.dedup();
        found
    })
}

/// `path` with its `.` dropped and each `..` taking the name before it,
/// as written: `/a/b/../c` is `/a/c`.
fn lexical(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The size of a bot's private `/tmp` and `/dev/shm`, each, when it has no
/// memory limit (with one, each is that size).
pub const DEFAULT_TMP_MB: u64 = 256;

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
    // the very sandbox a bot gets: a bwrap too old for one of its options
    // cannot start it, and no weaker one is used instead
    let sandbox = Sandbox {
        bwrap: Some(bwrap.clone()),
        network: false,
        ..Sandbox::default()
    };
    let out = std::process::Command::new(&bwrap)
        .args(sandbox.bwrap_args(&[], None, None))
        .arg("true")
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
    fn the_deepest_path_says_what_the_bot_sees() {
        let tmp = tempfile::tempdir().unwrap();
        let at = |p: &str| tmp.path().join(p);
        let read = |p: &'static str| vec!["--ro-bind", p, p];
        let hide = |p: &'static str| vec!["--perms", "0555", "--size", "4096", "--tmpfs", p];
        for file in [
            "proj/spy.py",
            "proj/reports/s/log",
            "arena/bots/a/a.py",
            "arena/bots/b/b.py",
        ] {
            std::fs::create_dir_all(at(file).parent().unwrap()).unwrap();
            std::fs::write(at(file), "").unwrap();
        }
        let sandbox = Sandbox {
            hidden: vec![at("proj/reports")],
            others: vec![at("arena"), at("proj/other")],
            ..Sandbox::default()
        };
        let shown = |argv: &[PathBuf], dir: Option<&Path>, cwd: Option<&Path>| -> Vec<String> {
            let argv: Vec<String> = argv.iter().map(|p| p.display().to_string()).collect();
            sandbox
                .mounts(&argv, dir, None, cwd)
                .iter()
                .map(|a| {
                    a.to_string_lossy()
                        .replace(&tmp.path().display().to_string(), "")
                })
                .collect()
        };
        // the program's folder, then the results in it hidden again, also
        // when the command names a file of theirs
        let log = at("proj/reports/s/log");
        assert_eq!(
            shown(&[at("proj/spy.py"), log.clone()], None, None),
            [read("/proj"), hide("/proj/reports")].concat()
        );
        // an arena's bot: its own kept folder, nothing else of the arena
        // (under /tmp, hidden already); outside /tmp the arena is hidden
        assert_eq!(
            shown(&[at("arena/bots/a/a.py")], None, None),
            read("/arena/bots/a")
        );
        let outside = Sandbox {
            others: vec![PathBuf::from("/usr/share")],
            ..Sandbox::default()
        };
        let mounts = outside.mounts(&["/usr/share/doc".to_string()], None, None, None);
        assert_eq!(
            mounts,
            [hide("/usr/share"), read("/usr/share/doc")].concat()
        );
        // its dir writable, the results inside it hidden; a working folder
        // under /tmp shown without a dir, not with one
        assert_eq!(
            shown(&[], Some(&at("proj")), Some(&at("arena"))),
            [vec!["--bind", "/proj", "/proj"], hide("/proj/reports")].concat()
        );
        assert_eq!(
            shown(&[], None, Some(&at("proj/reports/s"))),
            Vec::<String>::new()
        );
        // a command's path through `..` is the folder it names, not one
        // the working folder's mount holds; mounted as written
        assert_eq!(
            shown(
                &[at("proj/reports/../../arena/bots/b/b.py")],
                None,
                Some(&at("proj"))
            ),
            [
                read("/proj"),
                hide("/proj/reports"),
                read("/proj/reports/../../arena/bots/b")
            ]
            .concat()
        );
        assert_eq!(lexical(Path::new("/a/./b/../../c/..")), Path::new("/"));
    }

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
