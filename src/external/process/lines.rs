//! A bot's stdout, read line by line in the caller's thread, with a
//! deadline on every read: no reader thread, and lines capped in length,
//! so a flood cannot exhaust memory. A read blocks until its deadline,
//! which the alarm thread keeps ([`super::alarm`]); the move host, which
//! must not start a thread, waits in poll(2) instead.

use std::{process::ChildStdout, time::Instant};

use super::{alarm, wait::wait_ready};
use rustix::{event::PollFlags, io::Errno};

/// The longest line a bot may write; longer is a forfeit (`bad output`).
pub const MAX_LINE: usize = 64 * 1024;

/// What reading a bot's stdout gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    Line(String),
    TooLong,
    Closed,
    Timeout,
}

/// A bot's stdout, read line by line in the caller's thread: a read that
/// blocks until its deadline ([`alarm::read_by`]), so an answer costs no
/// more system calls and wake-ups than a raw pipe round trip. The buffer
/// never holds much more than [`MAX_LINE`] bytes, whatever the bot writes.
pub struct StdoutLines {
    stdout: ChildStdout,
    buf: Vec<u8>,
    /// What one read takes, kept between reads (not 8 KiB zeroed per read).
    chunk: Box<[u8]>,
    eof: bool,
    /// Whether a read with a deadline waits in poll(2) first instead of
    /// blocking with the alarm thread ([`StdoutLines::polling`]).
    polls: bool,
    /// A line given back ([`StdoutLines::recycle`]): the next line is
    /// copied into it, not into a new allocation.
    spare: String,
}

/// Bytes read from a bot's stdout at a time.
const CHUNK: usize = 8192;

impl StdoutLines {
    pub fn new(stdout: ChildStdout) -> StdoutLines {
        StdoutLines {
            stdout,
            buf: Vec::new(),
            chunk: vec![0; CHUNK].into_boxed_slice(),
            eof: false,
            polls: false,
            spare: String::new(),
        }
    }

    /// Lines read after a wait in poll(2) until the deadline, with no
    /// thread started: for the move host, a process in the bot's sandbox
    /// whose threads count against the bot's process limit
    /// (`RLIMIT_NPROC` counts threads).
    pub fn polling(stdout: ChildStdout) -> StdoutLines {
        StdoutLines {
            polls: true,
            ..StdoutLines::new(stdout)
        }
    }

    /// Takes back a line [`StdoutLines::next`] gave, once it is read, to
    /// hold the next line: an answer a move costs no allocation.
    pub fn recycle(&mut self, line: String) {
        self.spare = line;
    }

    /// The pipe itself (to hand a copy of it to a log).
    pub fn stdout(&self) -> &ChildStdout {
        &self.stdout
    }

    /// Waits in poll(2) until there is something to read or `deadline`
    /// passes; whether there is.
    fn poll_until(&self, deadline: Instant) -> bool {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match wait_ready(&self.stdout, PollFlags::IN, Some(left)) {
                Ok(0) if left.is_zero() => return false,
                Ok(0) | Err(Errno::INTR) => continue,
                // ready, or an error the read will meet too
                _ => return true,
            }
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
            let mut line = std::mem::take(&mut self.spare);
            line.clear();
            line.push_str(&String::from_utf8_lossy(&self.buf[..len]));
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

    /// The next line, waiting until `deadline` (`None`: only what is there
    /// now, where a closed stdout reads as nothing there: `Timeout`).
    pub fn next(&mut self, deadline: Option<Instant>) -> Next {
        loop {
            if let Some(next) = self.buffered() {
                return next;
            }
            let read = match deadline {
                Some(deadline) if self.polls => {
                    if !self.poll_until(deadline) {
                        return Next::Timeout;
                    }
                    rustix::io::read(&self.stdout, &mut self.chunk[..])
                }
                Some(deadline) => match alarm::read_by(&self.stdout, &mut self.chunk[..], deadline)
                {
                    Ok(Some(n)) => Ok(n),
                    Ok(None) => return Next::Timeout,
                    Err(e) => Err(e),
                },
                // a look: how much is there (one system call, cheaper than
                // a poll), and a read if there is something; end of file is
                // nothing to read here, and found by the next read that waits
                None => match rustix::io::ioctl_fionread(&self.stdout) {
                    Ok(0) => return Next::Timeout,
                    Ok(_) => rustix::io::read(&self.stdout, &mut self.chunk[..]),
                    Err(Errno::INTR) => continue,
                    Err(_) => Ok(0),
                },
            };
            match read {
                Ok(0) => self.eof = true,
                Ok(n) => self.buf.extend_from_slice(&self.chunk[..n]),
                Err(Errno::INTR) => {}
                Err(_) => self.eof = true,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::{
        io::Write,
        process::{Child, ChildStdin, Stdio},
        sync::mpsc,
        thread,
        time::Duration,
    };

    /// `cat` with both pipes: what is written to it comes back.
    fn cat() -> (Child, ChildStdin, ChildStdout) {
        let mut cat = std::process::Command::new("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let (stdin, stdout) = (cat.stdin.take().unwrap(), cat.stdout.take().unwrap());
        (cat, stdin, stdout)
    }

    #[test]
    fn a_look_without_waiting_returns_at_once_and_loses_no_line() {
        let (mut cat, mut stdin, stdout) = cat();
        let lines = StdoutLines::new(stdout);
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

    /// Both ways of waiting for a line, the alarm's and poll(2)'s: a line
    /// written later is waited for, silence times out at the deadline and
    /// not before, and end of file is seen.
    #[test]
    fn a_read_waits_for_its_line_until_its_deadline_either_way() {
        for polling in [false, true] {
            let (mut cat, mut stdin, stdout) = cat();
            let mut lines = if polling {
                StdoutLines::polling(stdout)
            } else {
                StdoutLines::new(stdout)
            };
            let deadline = Instant::now() + Duration::from_millis(40);
            assert_eq!(lines.next(Some(deadline)), Next::Timeout, "{polling}");
            assert!(Instant::now() >= deadline, "{polling}: timed out early");
            let writer = thread::spawn(move || {
                thread::sleep(Duration::from_millis(50));
                stdin.write_all(b"late\n").unwrap();
                stdin
            });
            let wait = Instant::now() + Duration::from_secs(20);
            assert_eq!(
                lines.next(Some(wait)),
                Next::Line("late".into()),
                "{polling}"
            );
            drop(writer.join().unwrap());
            assert_eq!(lines.next(Some(wait)), Next::Closed, "{polling}");
            cat.wait().unwrap();
        }
    }

    #[test]
    fn a_line_given_back_holds_the_next_line_and_nothing_of_its_own() {
        let (mut cat, mut stdin, stdout) = cat();
        let mut lines = StdoutLines::new(stdout);
        let wait = || Some(Instant::now() + Duration::from_secs(20));
        stdin.write_all(b"a long first line\nb\r\n\nlast").unwrap();
        drop(stdin);
        let Next::Line(first) = lines.next(wait()) else {
            panic!("a line")
        };
        assert_eq!(first, "a long first line");
        let room = first.capacity();
        lines.recycle(first);
        let Next::Line(second) = lines.next(wait()) else {
            panic!("a line")
        };
        assert_eq!(second, "b");
        assert_eq!(second.capacity(), room, "the same buffer");
        lines.recycle(second);
        assert_eq!(lines.next(wait()), Next::Line(String::new()));
        assert_eq!(lines.next(wait()), Next::Line("last".to_string()));
        assert_eq!(lines.next(wait()), Next::Closed);
        cat.wait().unwrap();
    }
}
