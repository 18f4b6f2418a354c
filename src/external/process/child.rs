//! A bot process owned by a value that cleans up after it.
//!
//! Every bot process runs without a shell in a session (and process group) of
//! its own, without a controlling terminal, with
//! stdout read in the caller's thread with a deadline on every read (lines
//! capped in length, so a flood cannot exhaust memory), and stderr always
//! drained by a thread into a size-capped [`Log`]. Dropping a [`Child`] ends
//! the whole group: SIGTERM, a short grace period, then SIGKILL, and the
//! process is always reaped. Every live group is registered with
//! [`super::cleanup`], and on Linux each long-lived child also gets SIGKILL if
//! ladder itself dies.

use std::{
    io::{self, Read, Write},
    path::Path,
    process::{ChildStdin, ChildStdout, Stdio},
    sync::{mpsc, Mutex, OnceLock},
    thread,
    time::{Duration, Instant},
};

use super::{
    cleanup,
    io_log::Recent,
    log::{drain, SharedLog},
    sandbox::Sandbox,
    wait::wait_ready,
};
use crate::core::bot::{BadOutput, BotError, Crash, Exit};
use rustix::{event::PollFlags, io::Errno, process::Signal};

/// The longest line a bot may write; longer is a forfeit (`bad output`).
pub const MAX_LINE: usize = 64 * 1024;
/// How long a terminated bot gets to exit before SIGKILL.
const GRACE: Duration = Duration::from_millis(100);

/// What reading a bot's stdout gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    Line(String),
    TooLong,
    Closed,
    Timeout,
}

/// A bot's stdout, read line by line in the caller's thread, waiting with
/// poll(2) until a deadline: no reader thread, so an answer costs no more
/// wake-ups than a raw pipe round trip. The buffer never holds much more
/// than [`MAX_LINE`] bytes, whatever the bot writes.
pub struct StdoutLines {
    stdout: ChildStdout,
    buf: Vec<u8>,
    /// What one read takes, kept between reads (not 8 KiB zeroed per read).
    chunk: Box<[u8]>,
    /// Whether reads return at once when nothing is there (`O_NONBLOCK` on
    /// ladder's end of the pipe): then a look without waiting is one read,
    /// not a poll and a read.
    nonblocking: bool,
    eof: bool,
}

/// Bytes read from a bot's stdout at a time.
const CHUNK: usize = 8192;

impl StdoutLines {
    pub fn new(stdout: ChildStdout) -> StdoutLines {
        // only ladder's end of the pipe: the bot's end is its own
        let nonblocking = rustix::io::ioctl_fionbio(&stdout, true).is_ok();
        StdoutLines {
            stdout,
            buf: Vec::new(),
            chunk: vec![0; CHUNK].into_boxed_slice(),
            nonblocking,
            eof: false,
        }
    }

    /// A whole line already read, a too-long line, or end of file.
    fn buffered(&mut self) -> Option<Next> {
        if let Some(end) = self.buf.iter().position(|&b| b == b'\n') {
            if end > MAX_LINE {
                return Some(Next::TooLong);
            }
            let mut len = end;
            while len > 0 && self.buf[len - 1] == b'\r' {
                len -= 1;
            }
            let line = String::from_utf8_lossy(&self.buf[..len]).into_owned();
            self.buf.drain(..=end);
            return Some(Next::Line(line));
        }
        if self.buf.len() > MAX_LINE {
            return Some(Next::TooLong);
        }
        if self.eof {
            // a last line without a line end still counts (HackerRank bots print just a number)
            if self.buf.is_empty() {
                return Some(Next::Closed);
            }
            let line = String::from_utf8_lossy(&self.buf).trim_end().to_string();
            self.buf.clear();
            return Some(Next::Line(line));
        }
        None
    }

    /// Skips lines until the bot closes stdout (normally: it exits) or
    /// `deadline` passes; whether it closed it.
    pub fn skip_until_closed(&mut self, deadline: Instant) -> bool {
        loop {
            match self.next(Some(deadline)) {
                Next::Line(_) => continue,
                Next::TooLong | Next::Closed => return true,
                Next::Timeout => return false,
            }
        }
    }

    /// The next line, waiting until `deadline` (`None`: only what is there now).
    pub fn next(&mut self, deadline: Option<Instant>) -> Next {
        loop {
            if let Some(next) = self.buffered() {
                return next;
            }
            // a look without waiting reads at once where reads do not block
            if deadline.is_some() || !self.nonblocking {
                let left = deadline.map_or(Duration::ZERO, |d| {
                    d.saturating_duration_since(Instant::now())
                });
                let ready = match wait_ready(&self.stdout, PollFlags::IN, Some(left)) {
                    Ok(ready) => ready,
                    Err(Errno::INTR) => continue,
                    Err(_) => {
                        self.eof = true;
                        continue;
                    }
                };
                if ready == 0 {
                    if deadline.is_none_or(|d| Instant::now() >= d) {
                        return Next::Timeout;
                    }
                    continue;
                }
            }
            match self.stdout.read(&mut self.chunk) {
                Ok(0) => self.eof = true,
                Ok(n) => self.buf.extend_from_slice(&self.chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // nothing there yet: the look without waiting is done; a
                // wait polls again (a poll can wake with nothing to read)
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if deadline.is_none() {
                        return Next::Timeout;
                    }
                }
                Err(_) => self.eof = true,
            }
        }
    }
}

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
        // the bot makes its own session, and so its process group ([`super::exec`])
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
        })
    }

    /// Keeps a line exchanged in [`Child::recent`], if lines are recorded.
    fn note(&mut self, dir: char, line: &str) {
        if self.record {
            self.recent.push(dir, line);
        }
    }

    /// Writes one line (a newline is added), by `deadline`.
    pub fn send(&mut self, line: &str, deadline: Instant) -> Result<(), BotError> {
        let mut text = String::with_capacity(line.len() + 1);
        text.push_str(line);
        text.push('\n');
        self.send_text(&text, deadline)
    }

    /// Writes `text` exactly as it is, by `deadline`: a bot that does not
    /// read its input times out as it would waiting for its answer.
    pub fn send_text(&mut self, text: &str, deadline: Instant) -> Result<(), BotError> {
        for line in text.lines() {
            self.note('>', line);
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
        if let Ok(fd) = rustix::io::dup(&self.lines.stdout) {
            let out = std::fs::File::from(fd);
            let log = SharedLog::clone(log);
            thread::spawn(move || drain(out, &log));
        }
    }

    /// Closes stdin: the bot reads end of file.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line from stdout, waiting until `limit` after `started`.
    pub fn recv(
        &mut self,
        started: Instant,
        limit: Duration,
        what: &str,
    ) -> Result<String, BotError> {
        match self.lines.next(Some(started + limit)) {
            Next::Line(line) => {
                self.note('<', &line);
                Ok(line)
            }
            Next::TooLong => {
                self.note('<', &format!("(a line longer than {MAX_LINE} bytes)"));
                Err(too_long())
            }
            Next::Closed => {
                self.note('<', "(output closed)");
                Err(self.crashed(&format!("while ladder waited for its {what}")))
            }
            Next::Timeout => {
                let waited = started.elapsed();
                self.note('<', &format!("(no {what} after {} ms)", waited.as_millis()));
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

    /// A line already written, if any, without waiting.
    pub fn try_recv(&mut self) -> Option<Result<String, BotError>> {
        match self.lines.next(None) {
            Next::Line(line) => {
                self.note('<', &line);
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
        match stdin.write(bytes) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
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
            Err(e) => return Err(e),
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

    #[test]
    fn a_look_without_waiting_returns_at_once_and_loses_no_line() {
        let mut cat = std::process::Command::new("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = cat.stdin.take().unwrap();
        let lines = StdoutLines::new(cat.stdout.take().unwrap());
        // on another thread, so a look that blocked fails the test instead of hanging it
        let (tx, rx) = mpsc::channel();
        let looker = thread::spawn(move || {
            let mut lines = lines;
            tx.send(lines.next(None)).unwrap();
            lines
        });
        let looked = rx.recv_timeout(Duration::from_secs(20));
        assert_eq!(looked, Ok(Next::Timeout), "nothing written: nothing read");
        let mut lines = looker.join().unwrap();
        let wait = || Some(Instant::now() + Duration::from_secs(20));
        stdin.write_all(b"one\r\ntwo\n").unwrap();
        assert_eq!(lines.next(wait()), Next::Line("one".to_string()));
        // the second line came in the same read: a look finds it
        assert_eq!(lines.next(None), Next::Line("two".to_string()));
        assert_eq!(lines.next(None), Next::Timeout);
        drop(stdin);
        assert_eq!(lines.next(wait()), Next::Closed);
        cat.wait().unwrap();
    }
}
