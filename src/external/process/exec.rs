//! How a bot process starts: what must be set in the new process before its
//! program runs (resource limits, SIGKILL when ladder dies), and how to set
//! it without `fork`.
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
    getppid, set_parent_process_death_signal, setrlimit, Pid, Resource, Rlimit, Signal,
};

/// Resource limits of one bot process (and, under bwrap, its whole tree
/// shares the process limit with ladder's user).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Address space in MiB (`RLIMIT_AS`): an allocation beyond it fails.
    pub memory_mb: Option<u64>,
    /// Processes of the user (`RLIMIT_NPROC`); the kernel does not hold root to it.
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

/// The command that starts `program` with `limits`, and with SIGKILL when
/// the thread that starts it ends if `kill_with_parent` (the caller starts
/// such processes from a thread that lives as long as ladder). Arguments
/// added to it go to `program`.
pub fn command(program: &OsStr, limits: Limits, kill_with_parent: bool) -> Command {
    if limits.is_empty() && !kill_with_parent {
        return Command::new(program); // nothing to set: posix_spawn as it is
    }
    let Some(helper) = HELPER.get() else {
        return with_pre_exec(program, limits, kill_with_parent);
    };
    let number = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
    let mut cmd = Command::new(helper);
    cmd.arg(HELPER_ARG)
        .arg(number(limits.memory_mb))
        .arg(number(limits.processes))
        .arg(number(limits.cpu_seconds))
        .arg(if kill_with_parent {
            std::process::id().to_string()
        } else {
            "-".to_string()
        })
        .arg("--")
        .arg(program);
    cmd
}

/// The command for `program`, with the limits and the parent-death signal
/// set by `pre_exec` in the forked child.
fn with_pre_exec(program: &OsStr, limits: Limits, kill_with_parent: bool) -> Command {
    let mut cmd = Command::new(program);
    // SAFETY: the closure runs between fork and exec, where only
    // async-signal-safe calls may be made: rustix's prctl and setrlimit are
    // single system calls, and the closure allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            if kill_with_parent {
                set_parent_process_death_signal(Some(Signal::KILL))?;
            }
            set_limits(limits)
        });
    }
    cmd
}

/// Sets `limits` on this process (inherited by what it runs).
fn set_limits(limits: Limits) -> std::io::Result<()> {
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
        Resource::As,
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
    let [_, memory, processes, cpu, parent, dashes, program, rest @ ..] = &args[..] else {
        return fail("the helper's arguments are incomplete".to_string());
    };
    let number = |v: &std::ffi::OsString| -> Result<Option<u64>, String> {
        match v.to_str() {
            Some("-") => Ok(None),
            Some(n) => n
                .parse()
                .map(Some)
                .map_err(|_| format!("`{n}` is no number")),
            None => Err("an argument is not text".to_string()),
        }
    };
    if dashes != "--" {
        return fail("no `--` before the program".to_string());
    }
    let parsed = (|| {
        Ok::<_, String>((
            Limits {
                memory_mb: number(memory)?,
                processes: number(processes)?,
                cpu_seconds: number(cpu)?,
            },
            number(parent)?,
        ))
    })();
    let (limits, parent) = match parsed {
        Ok(p) => p,
        Err(why) => return fail(why),
    };
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
