//! How a bot process starts: what must be set in the new process before its
//! program runs (resource limits, SIGKILL when ladder dies), and how to set
//! it without `fork`.
//!
//! While ladder has a controlling terminal, every bot starts a session of
//! its own (`setsid`): it has no controlling terminal, so it cannot open
//! `/dev/tty` and type into the user's shell (`TIOCSTI`), sandboxed or not
//! (bwrap's `--new-session` does the same in the sandbox, then). Its
//! session's id is its process group's, which ladder ends as a whole.
//! Without a terminal there is none to reach, and a bot starts in a process
//! group of its own (made as it is spawned) in ladder's session: a session
//! of its own would also give it a scheduling group of its own where the
//! kernel groups by session (`sched_autogroup_enabled`), and every switch
//! between ladder and the bot would cost more, about 10% of a line-protocol
//! move (docs/PERFORMANCE.md).
//!
//! Setting anything in a new process from Rust needs `pre_exec`, which makes
//! the standard library `fork` ladder instead of using `posix_spawn`. A fork
//! copies the page tables of a process running hundreds of worker threads,
//! and then every page any of them writes faults until the child has run its
//! `exec`: measured here, 500 games in flight spent 13 s of system CPU on
//! 640 bot starts that way (`docs/PERFORMANCE.md`). So the `ladder` binary
//! starts its bots through itself: `posix_spawn` runs `ladder __exec-bot
//! LIMITS PARENT -- PROGRAM ARGS...`, a fresh single-threaded ladder that sets
//! the limits and the parent-death signal on itself and then `exec`s the
//! program in its place (same process, same group, same pipes). A library
//! user that has not called [`use_helper`] (the tests, the benchmarks)
//! starts bots with `pre_exec`, as before.

use std::{
    ffi::OsStr, os::unix::process::CommandExt, path::PathBuf, process::Command, sync::OnceLock,
};

use rustix::process::{
    getppid, set_parent_process_death_signal, setrlimit, setsid, Pid, Resource, Rlimit, Signal,
};

/// Resource limits of one bot process and what it starts
/// (`docs/SECURITY.md` says which mechanism holds each one where).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Memory the bot writes to, in MiB (`RLIMIT_DATA`: its heap and private
    /// writable mappings, not address space it only reserves, which a JVM,
    /// V8 or Go reserve by the gigabyte): an allocation beyond it fails.
    pub memory_mb: Option<u64>,
    /// Processes (`RLIMIT_NPROC`). In the bwrap sandbox it is set inside the
    /// bot's own user namespace, so it counts only the bot's processes;
    /// without one it counts every process of ladder's user. The kernel
    /// does not hold root to it.
    pub processes: Option<u64>,
    /// CPU seconds (`RLIMIT_CPU`): beyond it the kernel ends the process.
    pub cpu_seconds: Option<u64>,
}

impl Limits {
    /// Whether no limit is set.
    pub fn is_empty(&self) -> bool {
        *self == Limits::default()
    }

    /// "memory 64 MiB, cpu 10 s", for crash messages; empty when none is set.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(m) = self.memory_mb {
            parts.push(format!("memory {m} MiB"));
        }
        if let Some(p) = self.processes {
            parts.push(format!("processes {p}"));
        }
        if let Some(c) = self.cpu_seconds {
            parts.push(format!("cpu {c} s"));
        }
        parts.join(", ")
    }
}

/// The first argument that makes `ladder` the exec helper.
pub const HELPER_ARG: &str = "__exec-bot";

static HELPER: OnceLock<PathBuf> = OnceLock::new();

/// Starts every bot through `ladder` at `exe` from now on (the binary calls
/// this with its own path).
pub fn use_helper(exe: PathBuf) {
    if exe.is_file() {
        let _ = HELPER.set(exe);
    }
}

/// The ladder binary that starts bots, once [`use_helper`] was called.
pub fn helper() -> Option<&'static PathBuf> {
    HELPER.get()
}

/// The command that starts `program` in a session of its own with `limits`,
/// and with SIGKILL when the thread that starts it ends if
/// `kill_with_parent` (the caller starts such processes from a thread that
/// lives as long as ladder). Arguments added to it go to `program`.
pub fn command(program: &OsStr, limits: Limits, kill_with_parent: bool) -> Command {
    command_passing(program, limits, kill_with_parent, Stdout::Keep, true)
}

/// [`command`], with the helper doing `stdout` to the program's standard
/// output (without the helper it is kept). `own_session` false: the
/// program needs only a process group of its own (bwrap, which gives the
/// bot a session of its own inside).
///
/// Where nothing needs setting in the new process, it starts by
/// `posix_spawn` in a process group of its own, without the helper's exec
/// (about a millisecond, which a HackerRank bot pays every move): a
/// session of its own is needed only while ladder has a controlling
/// terminal, since a process without one cannot gain the user's.
pub fn command_passing(
    program: &OsStr,
    limits: Limits,
    kill_with_parent: bool,
    stdout: Stdout,
    own_session: bool,
) -> Command {
    let session = own_session && has_terminal();
    let direct = limits.is_empty() && !kill_with_parent && stdout == Stdout::Keep && !session;
    let mut cmd = match HELPER.get() {
        None => with_pre_exec(program, limits, kill_with_parent, session),
        Some(_) if direct => Command::new(program),
        Some(helper) => {
            let mut cmd = Command::new(helper);
            cmd.args(helper_args(
                limits,
                kill_with_parent.then(std::process::id),
                stdout,
                session,
            ))
            .arg(program);
            cmd
        }
    };
    // a session's leader leads its group: the new process makes both
    if !session {
        cmd.process_group(0);
    }
    cmd
}

/// Whether ladder has a controlling terminal (asked once): only then could
/// a bot in ladder's session type into it.
pub fn has_terminal() -> bool {
    static TTY: OnceLock<bool> = OnceLock::new();
    *TTY.get_or_init(|| std::fs::File::open("/dev/tty").is_ok())
}

/// What the helper does with its standard output before it becomes the
/// program. A sandbox (bwrap) keeps every descriptor it was started with
/// open for as long as the bot runs, so a bot that closed its output would
/// not be seen to: the pipe goes through it as descriptor 3, which bwrap
/// closes in its own processes, and the bot's helper makes it the bot's
/// standard output again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stdout {
    /// As it is.
    Keep,
    /// Moved to descriptor [`PASSED_FD`]; `/dev/null` in its place.
    Pass,
    /// Taken back from descriptor [`PASSED_FD`].
    Take,
}

/// The descriptor that carries a bot's output through its sandbox.
pub const PASSED_FD: i32 = 3;

/// The helper's arguments before the program: `__exec-bot MEMORY PROCESSES
/// CPU PARENT STDOUT SESSION --`, `-` for what is not set; SESSION is
/// `session` for a session of its own (then the caller makes no process
/// group: a group's leader cannot start a session).
pub fn helper_args(
    limits: Limits,
    parent: Option<u32>,
    stdout: Stdout,
    session: bool,
) -> Vec<String> {
    let [memory, processes, cpu] = limit_args(limits);
    vec![
        HELPER_ARG.to_string(),
        memory,
        processes,
        cpu,
        number(parent.map(u64::from)),
        match stdout {
            Stdout::Keep => "-",
            Stdout::Pass => "pass",
            Stdout::Take => "take",
        }
        .to_string(),
        if session { "session" } else { "-" }.to_string(),
        "--".to_string(),
    ]
}

/// A number as an argument, `-` when it is not set.
fn number(v: Option<u64>) -> String {
    v.map_or("-".to_string(), |v| v.to_string())
}

/// `limits` as three arguments: memory, processes, CPU (`-` where unset).
pub fn limit_args(limits: Limits) -> [String; 3] {
    [limits.memory_mb, limits.processes, limits.cpu_seconds].map(number)
}

/// An argument [`number`] wrote, read back.
fn parse_number(v: &std::ffi::OsString) -> Result<Option<u64>, String> {
    match v.to_str() {
        Some("-") => Ok(None),
        Some(n) => n
            .parse()
            .map(Some)
            .map_err(|_| format!("`{n}` is no number")),
        None => Err("an argument is not text".to_string()),
    }
}

/// The limits [`limit_args`] wrote, read back.
pub fn parse_limits(args: [&std::ffi::OsString; 3]) -> Result<Limits, String> {
    let [memory, processes, cpu] = args;
    Ok(Limits {
        memory_mb: parse_number(memory)?,
        processes: parse_number(processes)?,
        cpu_seconds: parse_number(cpu)?,
    })
}

/// Does `how` to this process's standard output ([`Stdout`]).
fn redirect_stdout(how: Stdout) -> std::io::Result<()> {
    use std::os::fd::{FromRawFd, IntoRawFd, OwnedFd};
    match how {
        Stdout::Keep => Ok(()),
        Stdout::Pass => {
            // a fresh process has only 0, 1 and 2 open: the copy is 3
            let copy = rustix::io::dup(rustix::stdio::stdout())?;
            if copy.into_raw_fd() != PASSED_FD {
                return Err(std::io::Error::other("descriptor 3 is taken"));
            }
            let null = std::fs::File::open("/dev/null")?;
            rustix::stdio::dup2_stdout(&null)?;
            Ok(())
        }
        Stdout::Take => {
            // SAFETY: descriptor 3 is the pipe the outer helper left for this
            // process (through bwrap, which passes it on and closes its own);
            // nothing else in this fresh process owns it, and it is closed
            // once it is standard output
            let pipe = unsafe { OwnedFd::from_raw_fd(PASSED_FD) };
            rustix::stdio::dup2_stdout(&pipe)?;
            Ok(())
        }
    }
}

/// The command for `program`, with the limits, the parent-death signal and
/// with `session` a session of its own set by `pre_exec` in the forked
/// child.
fn with_pre_exec(
    program: &OsStr,
    limits: Limits,
    kill_with_parent: bool,
    session: bool,
) -> Command {
    let mut cmd = Command::new(program);
    // SAFETY: the closure runs between fork and exec, where only
    // async-signal-safe calls may be made: rustix's setsid, prctl and
    // setrlimit are single system calls, and the closure allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            if session {
                setsid()?;
            }
            if kill_with_parent {
                set_parent_process_death_signal(Some(Signal::KILL))?;
            }
            set_limits(limits)
        });
    }
    cmd
}

/// Sets `limits` on this process (inherited by what it runs).
pub fn set_limits(limits: Limits) -> std::io::Result<()> {
    let set = |resource, value: Option<u64>| match value {
        Some(v) => setrlimit(
            resource,
            Rlimit {
                current: Some(v),
                maximum: Some(v),
            },
        ),
        None => Ok(()),
    };
    set(
        Resource::Data,
        limits.memory_mb.map(|m| m.saturating_mul(1024 * 1024)),
    )?;
    set(Resource::Nproc, limits.processes)?;
    set(Resource::Cpu, limits.cpu_seconds)?;
    Ok(())
}

/// When ladder runs as the exec helper (`ladder __exec-bot ...`): sets the
/// limits and the parent-death signal, then becomes the program. Returns the
/// exit code if that fails, `None` when ladder was not started as the helper.
pub fn helper_main() -> Option<i32> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if args.first().map(|a| a.as_os_str()) != Some(OsStr::new(HELPER_ARG)) {
        return None;
    }
    let fail = |why: String| {
        eprintln!("ladder: cannot start the bot: {why}");
        Some(127)
    };
    let [_, memory, processes, cpu, parent, stdout, session, dashes, program, rest @ ..] =
        &args[..]
    else {
        return fail("the helper's arguments are incomplete".to_string());
    };
    if dashes != "--" {
        return fail("no `--` before the program".to_string());
    }
    let parsed = (|| {
        Ok::<_, String>((
            parse_limits([memory, processes, cpu])?,
            parse_number(parent)?,
        ))
    })();
    let (limits, parent) = match parsed {
        Ok(p) => p,
        Err(why) => return fail(why),
    };
    let stdout = match stdout.to_str() {
        Some("-") => Stdout::Keep,
        Some("pass") => Stdout::Pass,
        Some("take") => Stdout::Take,
        _ => return fail("its output is neither `-`, `pass` nor `take`".to_string()),
    };
    let session = match session.to_str() {
        Some("session") => true,
        Some("-") => false,
        _ => return fail("its session is neither `session` nor `-`".to_string()),
    };
    if let Err(e) = redirect_stdout(stdout) {
        return fail(format!("passing its output on: {e}"));
    }
    // no controlling terminal, and a process group ladder ends as a whole
    if session {
        if let Err(e) = setsid() {
            return fail(format!("starting a session of its own: {e}"));
        }
    }
    if let Some(parent) = parent {
        if let Err(e) = set_parent_process_death_signal(Some(Signal::KILL)) {
            return fail(format!("asking to die with ladder: {e}"));
        }
        // ladder may have died before the flag was set: then nobody waits
        // for this bot, which ends here instead
        if u64::try_from(Pid::as_raw(getppid())) != Ok(parent) {
            return Some(137);
        }
    }
    if let Err(e) = set_limits(limits) {
        return fail(format!("setting its limits: {e}"));
    }
    let e = Command::new(program).args(rest).exec();
    fail(format!("`{}`: {e}", program.to_string_lossy()))
}
