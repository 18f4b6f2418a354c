//! A bot process owned by a value that cleans up after it.
//!
//! Every bot process runs without a shell in a process group of its own,
//! without a controlling terminal (in a session of its own where ladder has
//! one, [`super::exec`]), with stdout read in the caller's thread with a
//! deadline on every read (lines capped in length, so a flood cannot
//! exhaust memory), and stderr always
//! drained by a thread into a size-capped [`Log`]. Dropping a [`Child`] ends
//! the whole group: SIGTERM, a short grace period, then SIGKILL, and the
//! process is always reaped. Every live group is registered with
//! [`super::cleanup`], and on Linux each long-lived child also gets SIGKILL if
//! ladder itself dies.

use std::{
    io,
    path::Path,
    process::{ChildStdin, Stdio},
    sync::{mpsc, Mutex, OnceLock},
    thread,
    time::{Duration, Instant},
};

use super::{
    cleanup,
    io_log::Recent,
    lines::{Next, StdoutLines, MAX_LINE},
    log::{drain, SharedLog},
    sandbox::Sandbox,
    wait::wait_ready,
};
use crate::core::bot::{BadOutput, BotError, Crash, Exit};
use rustix::{event::PollFlags, io::Errno, process::Signal};

/// How long a terminated bot gets to exit before SIGKILL.
const GRACE: Duration = Duration::from_millis(100);

/// A running bot process.
pub struct Child {
    child: std::process::Child,
    pgid: i32,
    stdin: Option<ChildStdin>,
    lines: StdoutLines,
    label: String,
    /// Under bwrap, which reports a bot ended by signal N as exit code 128 + N.
    sandboxed: bool,
    /// The bot's resource limits, named in crash messages ("memory 64 MiB").
    limits: String,
    /// The last lines exchanged (and every line, to an I/O log if one is open).
    pub recent: Recent,
    /// Whether the lines ladder sends and receives go to [`Child::recent`]
    /// (not when they only carry the bot's: [`super::move_host`]).
    pub record: bool,
    /// The line being written, kept between lines (no allocation per line).
    out: String,
}

impl Child {
    /// Starts `argv` in `dir`, inside `sandbox`, with piped stdin and stdout
    /// and stderr drained to `log`.
    ///
    /// `long_lived` processes (line-protocol bots) also get SIGKILL on Linux if
    /// ladder dies: they start from one thread that lives as long as ladder
    /// ([`spawn_from_spawner`]), through the exec helper where it runs
    /// ([`super::exec`]). One-move processes (HackerRank bots) go without:
    /// each is ended at its move's deadline anyway.
    pub fn spawn(
        argv: &[String],
        dir: Option<&Path>,
        sandbox: &Sandbox,
        log: &SharedLog,
        long_lived: bool,
    ) -> Result<Child, BotError> {
        let program = argv.first().ok_or_else(|| {
            BotError::Crash(Crash::CannotStart {
                command: String::new(),
                error: "the command is empty".to_string(),
            })
        })?;
        if let Some(signal) = cleanup::interrupted() {
            // ladder is stopping: a game waiting for a bot gets none
            return Err(BotError::Harness(format!(
                "ladder is stopping (signal {signal}); no bot starts now"
            )));
        }
        // a sandbox binds the folder inside the new process, where a missing
        // one would look like the bot's crash: name it as ladder's problem here
        if let Some(d) = dir.filter(|d| sandbox.bwrap.is_some() && !d.is_dir()) {
            return Err(BotError::Harness(why_not_started(
                program,
                Some(d),
                &argv.join(" "),
                &io::Error::from(io::ErrorKind::NotFound),
            )));
        }
        let mut cmd = sandbox.command(argv, dir, long_lived);
        // the bot leads a process group, and a session where ladder has a terminal ([`super::exec`])
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // the command was checked when the season was planned, so a start
        // that fails now is the environment's doing, not the bot's play
        let started = if long_lived {
            spawn_from_spawner(cmd)
        } else {
            cmd.spawn()
        };
        let mut child = started
            .map_err(|e| BotError::Harness(why_not_started(program, dir, &argv.join(" "), &e)))?;
        let pgid = child.id() as i32;
        cleanup::register(pgid);

        let stdin = child.stdin.take();
        // writes wait with a deadline ([`write_by`]), never blocked in the kernel
        if let Some(stdin) = &stdin {
            rustix::io::ioctl_fionbio(stdin, true)
                .map_err(|e| BotError::Harness(format!("a pipe to the bot: {e}")))?;
        }
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let lines = StdoutLines::new(stdout);
        let recent = {
            let log = log.lock().unwrap_or_else(|e| e.into_inner());
            Recent::new(&log.name, log.io.as_ref())
        };
        let log = SharedLog::clone(log);
        thread::spawn(move || drain(stderr, &log));
        Ok(Child {
            child,
            pgid,
            stdin,
            lines,
            label: argv.join(" "),
            sandboxed: sandbox.bwrap.is_some(),
            limits: sandbox.limits.describe(),
            recent,
            record: true,
            out: String::new(),
        })
    }

    /// Keeps a line exchanged at `at` in [`Child::recent`], if lines are recorded.
    fn note(&mut self, dir: char, line: &str, at: Instant) {
        if self.record {
            self.recent.push_at(dir, line, at);
        }
    }

    /// Writes one line (a newline is added), noted as sent at `at` (a time
    /// the caller has read), by `deadline`.
    pub fn send(&mut self, line: &str, at: Instant, deadline: Instant) -> Result<(), BotError> {
        self.send_written(at, deadline, |out| out.push_str(line))
    }

    /// [`Child::send`] of the line `write` writes, into a buffer kept
    /// between lines.
    pub fn send_written(
        &mut self,
        at: Instant,
        deadline: Instant,
        write: impl FnOnce(&mut String),
    ) -> Result<(), BotError> {
        let mut text = std::mem::take(&mut self.out);
        text.clear();
        write(&mut text);
        text.push('\n');
        let sent = self.send_text(&text, at, deadline);
        self.out = text;
        sent
    }

    /// Writes `text` exactly as it is, noted as sent at `at`, by
    /// `deadline`: a bot that does not read its input times out as it
    /// would waiting for its answer.
    pub fn send_text(
        &mut self,
        text: &str,
        at: Instant,
        deadline: Instant,
    ) -> Result<(), BotError> {
        for line in text.lines() {
            self.note('>', line, at);
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or(BotError::Crash(Crash::NotRunning))?;
        match write_by(stdin, text.as_bytes(), deadline) {
            Ok(None) => Ok(()),
            Ok(Some(waited)) => {
                self.note(
                    '>',
                    &format!("(the bot read none of it for {} ms)", waited.as_millis()),
                    Instant::now(),
                );
                Err(BotError::Timeout {
                    waiting_for: "read of its input".to_string(),
                    waited,
                })
            }
            Err(_) => Err(self.crashed("while ladder wrote to it")),
        }
    }

    /// Copies stdout into the bot's log from now on, as stderr is: for
    /// bots that answer elsewhere (GGP players answer over HTTP) and may
    /// print freely.
    pub fn drain_stdout(&self, log: &SharedLog) {
        if let Ok(fd) = rustix::io::dup(self.lines.stdout()) {
            let out = std::fs::File::from(fd);
            let log = SharedLog::clone(log);
            thread::spawn(move || drain(out, &log));
        }
    }

    /// Closes stdin: the bot reads end of file.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line from stdout, waiting until `limit` after `started`,
    /// and when it was read.
    pub fn recv(
        &mut self,
        started: Instant,
        limit: Duration,
        what: &str,
    ) -> Result<(String, Instant), BotError> {
        match self.lines.next(Some(started + limit)) {
            Next::Line(line) => {
                let at = Instant::now();
                self.note('<', &line, at);
                Ok((line, at))
            }
            Next::TooLong => {
                let text = format!("(a line longer than {MAX_LINE} bytes)");
                self.note('<', &text, Instant::now());
                Err(too_long())
            }
            Next::Closed => {
                self.note('<', "(output closed)", Instant::now());
                Err(self.crashed(&format!("while ladder waited for its {what}")))
            }
            Next::Timeout => {
                let waited = started.elapsed();
                let text = format!("(no {what} after {} ms)", waited.as_millis());
                self.note('<', &text, Instant::now());
                Err(BotError::Timeout {
                    waiting_for: what.to_string(),
                    waited,
                })
            }
        }
    }

    /// Waits until the bot closes its stdout (normally: it exits) or `deadline`
    /// passes, skipping any further lines; then reaps it if it has exited.
    pub fn finish(&mut self, deadline: Instant) {
        if self.lines.skip_until_closed(deadline) {
            // stdout is closed: the exit is a moment away
            self.wait_until(deadline);
        }
    }

    /// Gives back a line [`Child::recv`] returned, once it is read (see
    /// [`StdoutLines::recycle`]).
    pub fn recycle(&mut self, line: String) {
        self.lines.recycle(line);
    }

    /// A line already written, if any, without waiting.
    pub fn try_recv(&mut self) -> Option<Result<String, BotError>> {
        match self.lines.next(None) {
            Next::Line(line) => {
                self.note('<', &line, Instant::now());
                Some(Ok(line))
            }
            Next::TooLong => Some(Err(too_long())),
            Next::Closed | Next::Timeout => None,
        }
    }

    /// Waits until the bot's process has exited or `deadline` passes; how
    /// it ended, if it has. The process is left unreaped (a zombie), so its
    /// id cannot be given to another process before [`Child::kill`] has
    /// signalled its group: a group signalled after the reap could be a
    /// stranger's that took the id.
    pub fn wait_until(&mut self, deadline: Instant) -> Option<Exit> {
        until(deadline, || self.exited())
    }

    /// How the process ended, if it has, without reaping it (`WNOWAIT`).
    fn exited(&self) -> Option<Exit> {
        use rustix::process::{waitid, Pid, WaitId, WaitIdOptions};
        let pid = Pid::from_raw(self.pgid)?;
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        let status = waitid(WaitId::Pid(pid), options).ok()??;
        match (status.exit_status(), status.terminating_signal()) {
            (Some(code), _) => Some(Exit::Code(code)),
            (None, Some(sig)) => Some(Exit::Signal(sig)),
            // NOHANG with no child in a waitable state
            (None, None) => None,
        }
    }

    /// A crash error while `during` (`while ladder waited for its move`),
    /// with the exit status if the process has ended.
    fn crashed(&mut self, during: &str) -> BotError {
        let exit = match self.wait_until(Instant::now() + Duration::from_millis(50)) {
            Some(Exit::Code(c)) if self.sandboxed && (129..=192).contains(&c) => {
                Some(Exit::Signal(c - 128))
            }
            exit => exit,
        };
        ended(self.label.clone(), exit, during, &self.limits)
    }

    /// Ends the process group: SIGTERM and a grace period while the bot
    /// runs, then SIGKILL to whatever of its group is left; then reaps it.
    /// Until the reap the leader's id is ladder's child's (a zombie at
    /// worst), so no signal here can reach a process that took the id.
    pub fn kill(&mut self) {
        self.stdin = None;
        if self.exited().is_none() {
            cleanup::signal(self.pgid, Signal::TERM);
            self.wait_until(Instant::now() + GRACE);
        }
        cleanup::signal(self.pgid, Signal::KILL);
        // forgotten before the reap, so that Ctrl-C never signals a freed id
        cleanup::unregister(self.pgid);
        let _ = self.child.wait();
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A request to the spawner thread: a command, and where its process goes.
type SpawnRequest = (
    std::process::Command,
    mpsc::Sender<io::Result<std::process::Child>>,
);

/// Starts `cmd` from one thread that lives as long as ladder.
///
/// `PR_SET_PDEATHSIG` fires when the *thread* that started a process ends,
/// not when ladder does; but a long-lived bot outlives the thread that
/// needed it first (the season's pool hands it from game to game, and
/// workers end before the season does). So every long-lived bot starts
/// from this thread. Starts are staggered by the pool anyway, so one thread
/// is no bottleneck; if it cannot be made, `cmd` starts here.
fn spawn_from_spawner(mut cmd: std::process::Command) -> io::Result<std::process::Child> {
    static SPAWNER: OnceLock<Option<Mutex<mpsc::Sender<SpawnRequest>>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<SpawnRequest>();
        thread::Builder::new()
            .name("ladder-spawner".into())
            .spawn(move || {
                for (mut cmd, reply) in rx {
                    let _ = reply.send(cmd.spawn());
                }
            })
            .ok()
            .map(|_| Mutex::new(tx))
    });
    let Some(spawner) = spawner else {
        return cmd.spawn();
    };
    let (reply, answer) = mpsc::channel();
    let sent = spawner
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send((cmd, reply));
    match sent {
        Ok(()) => answer
            .recv()
            .unwrap_or_else(|_| Err(io::Error::other("the spawner thread is gone"))),
        Err(mpsc::SendError((mut cmd, _))) => cmd.spawn(),
    }
}

/// Writes all of `bytes` to a non-blocking pipe, waiting for room until
/// `deadline`: `Ok(Some(waited))` when it passed first. The clock is read
/// only once the pipe is full (a write that fits reads none).
fn write_by(
    stdin: &mut ChildStdin,
    mut bytes: &[u8],
    deadline: Instant,
) -> io::Result<Option<Duration>> {
    let mut blocked: Option<Instant> = None;
    while !bytes.is_empty() {
        // a raw write(2) (rustix): not libc's, which is a cancellation point
        match rustix::io::write(&*stdin, bytes) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => bytes = &bytes[n..],
            Err(Errno::INTR) => {}
            Err(Errno::AGAIN) => {
                let now = Instant::now();
                let since = *blocked.get_or_insert(now);
                let left = deadline.saturating_duration_since(now);
                if left.is_zero() {
                    return Ok(Some(now - since));
                }
                match wait_ready(&*stdin, PollFlags::OUT, Some(left)) {
                    Ok(_) | Err(Errno::INTR) => {}
                    Err(e) => return Err(e.into()),
                }
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(None)
}

/// Why `program` could not start in `dir`, naming the real cause where it
/// can be found: a working folder or a program that is gone.
fn why_not_started(program: &str, dir: Option<&Path>, command: &str, e: &io::Error) -> String {
    match dir {
        Some(d) if !d.is_dir() => format!("its working folder {} is gone", d.display()),
        _ if program.contains('/') && !Path::new(program).exists() => {
            format!("its program {program} is gone")
        }
        _ => format!("cannot start `{command}`: {e}"),
    }
}

/// Calls `done` until it gives a value or `deadline` passes: often at first
/// (a process that is exiting is usually gone within microseconds), then
/// backing off to once a millisecond.
pub fn until<T>(deadline: Instant, mut done: impl FnMut() -> Option<T>) -> Option<T> {
    let mut pause = Duration::from_micros(20);
    loop {
        if let Some(value) = done() {
            return Some(value);
        }
        if Instant::now() >= deadline {
            return None;
        }
        thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    }
}

/// The crash of `command`, which ended (`exit`, if known) `during` what
/// ladder did (`while ladder waited for its move`), naming its `limits`
/// (as [`super::Limits::describe`] gives them) if it has any.
pub fn ended(command: String, exit: Option<Exit>, during: &str, limits: &str) -> BotError {
    let mut during = during.to_string();
    if !limits.is_empty() {
        during.push_str(&format!(" (its limits: {limits})"));
    }
    BotError::Crash(Crash::Ended {
        command,
        exit,
        during,
    })
}

/// The error for a line longer than [`MAX_LINE`].
pub fn too_long() -> BotError {
    BotError::BadOutput(BadOutput::TooLong(MAX_LINE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::external::process::{Log, Mode};

    /// The state letter of process `pid` in /proc, if it exists.
    fn state(pid: i32) -> Option<char> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        stat.rsplit(')')
            .next()?
            .split_whitespace()
            .next()?
            .chars()
            .next()
    }

    #[test]
    fn an_ended_bot_keeps_its_id_until_its_group_was_signalled() {
        let sandbox =
            Sandbox::new(Mode::None, Default::default(), true, Default::default()).unwrap();
        let log = Log::open(None).unwrap();
        let argv = ["sh", "-c", "exit 3"].map(String::from);
        let mut child = Child::spawn(&argv, None, &sandbox, &log, false).unwrap();
        let pid = child.pgid;
        let exit = child.wait_until(Instant::now() + Duration::from_secs(30));
        assert!(matches!(exit, Some(Exit::Code(3))), "{exit:?}");
        // seen to have exited, yet still a zombie: its id is not free yet
        assert_eq!(state(pid), Some('Z'));
        assert!(matches!(child.crashed("testing"), BotError::Crash(_)));
        assert_eq!(state(pid), Some('Z'));
        drop(child);
        assert_ne!(state(pid), Some('Z'));
    }

    #[test]
    fn stdout_handed_to_the_log_is_drained_although_ladder_reads_it_without_blocking() {
        let sandbox =
            Sandbox::new(Mode::None, Default::default(), true, Default::default()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bot.log");
        let log = Log::open(Some(&path)).unwrap();
        // it writes only after the drain has started, and more than a pipe holds
        let script = "sleep 0.3; i=0; while [ $i -lt 2000 ]; do echo stdout-line-$i-.........................; i=$((i+1)); done";
        let argv = ["sh", "-c", script].map(String::from);
        let mut child = Child::spawn(&argv, None, &sandbox, &log, false).unwrap();
        child.drain_stdout(&log);
        let exit = child.wait_until(Instant::now() + Duration::from_secs(30));
        assert!(
            matches!(exit, Some(Exit::Code(0))),
            "it was not held up: {exit:?}"
        );
        let deadline = Instant::now() + Duration::from_secs(60);
        let text = loop {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            if text.contains("stdout-line-1999-") || Instant::now() > deadline {
                break text;
            }
            thread::sleep(Duration::from_millis(20));
        };
        assert!(
            text.contains("stdout-line-0-"),
            "{}",
            &text[..text.len().min(200)]
        );
        assert!(text.contains("stdout-line-1999-"));
    }
}
