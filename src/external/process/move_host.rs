//! One sandbox for a whole game of a one-move bot (a HackerRank bot), in
//! place of one per move.
//!
//! A HackerRank bot is a new process every move, and setting up bwrap costs
//! several times a process start (about 3.5 ms against 1 ms here). So under
//! bwrap ladder starts `ladder __move-host MEMORY PROCESSES CPU -- PROGRAM
//! ARGS` once per game inside the bot's sandbox (its working folder, its
//! namespaces), and asks it for each move. The host starts the program with
//! the bot's limits, writes the move's input and closes it, reads the first
//! line of the answer, lets the program exit until the move's deadline, and
//! then ends **every other process in the sandbox**: nothing the bot left
//! behind runs on while its opponent thinks, as when each move had a
//! sandbox of its own. It refuses to run anywhere but as process 2 of a PID
//! namespace of its own (bwrap's), where "every other process" is the bot's.
//!
//! The host runs as the bot's user, so the bot can signal it or write to
//! its pipes: that can only spoil the bot's own game (a host that stops
//! answering is a timeout, one that dies a crash), never its opponent's,
//! which has a sandbox of its own.
//!
//! Requests and replies are one JSON line each ([`Request`], [`Reply`]):
//! `{"ms":1000,"input":"1\n5\n\n\n"}` gets `{"line":"12"}`.

use std::{
    ffi::OsString,
    io::{BufRead, Write},
    os::unix::process::CommandExt,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use serde::{Deserialize, Serialize};

use super::{
    child::until,
    exec::{self, Limits},
    lines::{Next, StdoutLines},
};

/// How long a program that closed its output without an answer has to
/// exit, for its exit status (as [`super::Child`] waits for it).
const CLOSED_GRACE: Duration = Duration::from_millis(50);

/// The first argument that makes `ladder` the move host.
pub const HOST_ARG: &str = "__move-host";

/// One move asked of the host.
#[derive(Debug, Serialize, Deserialize)]
pub struct Request {
    /// Milliseconds the move may take, from when the host reads this.
    pub ms: u64,
    /// What the program reads on its stdin.
    pub input: String,
}

/// How the move went.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// The program's first line (without its end; text without a line end
    /// at the end of the output counts too).
    Line(String),
    /// The program ended without a line: its exit code or signal.
    Ended {
        code: Option<i32>,
        signal: Option<i32>,
    },
    /// No line before the deadline.
    Timeout,
    /// A line longer than [`super::MAX_LINE`] bytes.
    TooLong,
}

/// The host's arguments: `__move-host MEMORY PROCESSES CPU -- PROGRAM ARGS`.
pub fn host_args(limits: Limits, argv: &[String]) -> Vec<String> {
    let mut args = vec![HOST_ARG.to_string()];
    args.extend(exec::limit_args(limits));
    args.push("--".to_string());
    args.extend(argv.iter().cloned());
    args
}

/// When ladder runs as the move host: answers requests on stdin until it
/// closes. Returns the exit code, `None` when ladder was not started as
/// the host.
pub fn host_main() -> Option<i32> {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if args.first().map(OsString::as_os_str) != Some(HOST_ARG.as_ref()) {
        return None;
    }
    let fail = |why: String| {
        eprintln!("ladder: the move host cannot run: {why}");
        Some(127)
    };
    let [_, memory, processes, cpu, dashes, program, rest @ ..] = &args[..] else {
        return fail("its arguments are incomplete".to_string());
    };
    if dashes != "--" {
        return fail("no `--` before the program".to_string());
    }
    let limits = match exec::parse_limits([memory, processes, cpu]) {
        Ok(limits) => limits,
        Err(why) => return fail(why),
    };
    // the sweep signals every process it may: only the bot's, here
    if std::process::id() != 2 {
        return fail("it runs only as process 2 of a PID namespace of its own (bwrap's)".into());
    }
    // what the bot leaves is the host's to reap once swept, not bwrap's
    // later: no ended process of a move is left for the next one to see
    if let Err(e) = rustix::process::set_child_subreaper(rustix::process::Pid::from_raw(1)) {
        return fail(format!("becoming the reaper of the bot's processes: {e}"));
    }
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let request: Request = match serde_json::from_str(&line) {
            Ok(r) => r,
            Err(e) => return fail(format!("a request it cannot read: {e}")),
        };
        let reply = one_move(program, rest, limits, &request);
        let text = serde_json::to_string(&reply).expect("a reply is JSON");
        if writeln!(out, "{text}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
    Some(0)
}

/// Runs one move of `program` (see the module's documentation).
fn one_move(program: &OsString, args: &[OsString], limits: Limits, request: &Request) -> Reply {
    let deadline = Instant::now() + Duration::from_millis(request.ms);
    let mut cmd = Command::new(program);
    cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped());
    // the host is one more of the bot's processes: the program keeps the
    // allowance it had with a sandbox of its own
    let limits = Limits {
        processes: limits.processes.map(|p| p + 1),
        ..limits
    };
    // SAFETY: between fork and exec only setrlimit runs (a single system
    // call each), and nothing is allocated; the host is single-threaded
    unsafe {
        cmd.pre_exec(move || exec::set_limits(limits));
    }
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(e) => {
            eprintln!(
                "ladder: cannot start the bot: `{}`: {e}",
                program.to_string_lossy()
            );
            return Reply::Ended {
                code: Some(127),
                signal: None,
            };
        }
    };
    // a program may exit without reading its input: what it printed counts
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(request.input.as_bytes());
    }
    // no alarm thread here: the host's threads count against the bot's
    // process limit
    let mut lines = StdoutLines::polling(child.stdout.take().expect("piped stdout"));
    let answer = lines.next(Some(deadline));
    // after its answer it may exit by itself until the deadline, the rest of
    // its output skipped; one that closed its output without an answer gets
    // a moment for its exit status, as ladder gives it; a flood or silence
    // is ended at once
    let mut exited = || child.try_wait().ok().flatten();
    let exit = match answer {
        Next::Line(_) => {
            if lines.skip_until_closed(deadline) {
                until(deadline, &mut exited);
            }
            None
        }
        Next::Closed => until(deadline.min(Instant::now() + CLOSED_GRACE), exited),
        Next::Timeout | Next::TooLong => None,
    };
    drop(lines);
    sweep();
    let _ = child.wait();
    match answer {
        Next::Line(line) => Reply::Line(line),
        Next::TooLong => Reply::TooLong,
        Next::Timeout => Reply::Timeout,
        Next::Closed => {
            use std::os::unix::process::ExitStatusExt;
            // closed its output, still running after the grace: no status
            Reply::Ended {
                code: exit.and_then(|s| s.code()),
                signal: exit.and_then(|s| s.signal()),
            }
        }
    }
}

/// Ends every process of the namespace but its init (bwrap, process 1) and
/// the host, until none is left (a process forking while it is swept is
/// caught on a later pass), and reaps them: the host is their reaper.
fn sweep() {
    use rustix::process::{kill_process, Pid, Signal};
    let me = std::process::id();
    for _ in 0..1000 {
        let mut alive = 0;
        for pid in super::cleanup::pids() {
            if pid == 1 || pid == me || zombie(pid) {
                continue;
            }
            alive += 1;
            if let Some(pid) = Pid::from_raw(pid as i32) {
                let _ = kill_process(pid, Signal::KILL);
            }
        }
        reap();
        if alive == 0 {
            return;
        }
        std::thread::sleep(Duration::from_micros(100));
    }
}

/// Whether process `pid` has ended and waits to be reaped.
fn zombie(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        // the state follows the command's closing parenthesis
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X']))
    })
}

/// Reaps the host's children that have ended, without waiting.
fn reap() {
    use rustix::process::{waitpid, WaitOptions};
    while let Ok(Some(_)) = waitpid(None, WaitOptions::NOHANG) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_replies_are_one_json_line_each() {
        let request = Request {
            ms: 1000,
            input: "1\n5\n\n\n".into(),
        };
        assert_eq!(
            serde_json::to_string(&request).unwrap(),
            r#"{"ms":1000,"input":"1\n5\n\n\n"}"#
        );
        for (reply, text) in [
            (Reply::Line("12".into()), r#"{"line":"12"}"#),
            (
                Reply::Ended {
                    code: Some(1),
                    signal: None,
                },
                r#"{"ended":{"code":1,"signal":null}}"#,
            ),
            (Reply::Timeout, r#""timeout""#),
            (Reply::TooLong, r#""too_long""#),
        ] {
            assert_eq!(serde_json::to_string(&reply).unwrap(), text);
            assert_eq!(serde_json::from_str::<Reply>(text).unwrap(), reply);
        }
        assert_eq!(
            host_args(Limits::default(), &["bot".into(), "-x".into()]),
            ["__move-host", "-", "-", "-", "--", "bot", "-x"]
        );
    }
}
