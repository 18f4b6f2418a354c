//! Reads from a bot's stdout that block until a deadline, at the cost of a
//! plain blocking read.
//!
//! Waiting in poll(2) with a timeout before each read cost a system call
//! and a kernel timer per answer, a third of what ladder added to a bot's
//! move (docs/PERFORMANCE.md, "A line-protocol move, taken apart"). Here a
//! read blocks in read(2) alone, and one thread, the alarm, keeps the
//! deadlines: it sleeps until the earliest deadline of the reads in
//! progress and interrupts each read still in progress past its deadline
//! with a signal ([`SIGNAL`], whose handler does nothing and is installed
//! without `SA_RESTART`), so the read returns `EINTR` and its caller times
//! out. A signal can come just before its read starts, and would then be
//! lost: the alarm sends it again every millisecond until that read has
//! ended. No signal is sent for a read that has ended: the read leaves the
//! alarm's list under the lock the alarm sends under. A thread unblocks
//! the signal for itself before its first read, whatever mask it inherited.
//!
//! The alarm wakes at deadlines, not per read: a read whose deadline comes
//! after the one the alarm sleeps until costs a lock and no system call.

use std::{
    cell::Cell,
    os::fd::AsFd,
    sync::{Condvar, Mutex, MutexGuard, Once, PoisonError},
    thread,
    time::{Duration, Instant},
};

use rustix::io::Errno;

/// The signal that interrupts a late read: SIGURG, which nothing else in
/// ladder uses and whose default action is to ignore it.
const SIGNAL: libc::c_int = libc::SIGURG;

/// How often the alarm signals a read that is still in progress past its
/// deadline.
const AGAIN: Duration = Duration::from_millis(1);

/// The reads in progress and when the alarm next wakes.
struct Alarm {
    state: Mutex<State>,
    wake: Condvar,
}

struct State {
    reads: Vec<Reading>,
    /// When the alarm wakes next (`None`: only when told).
    next_wake: Option<Instant>,
    /// The number the next read gets.
    next_id: u64,
}

struct Reading {
    id: u64,
    thread: libc::pthread_t,
    deadline: Instant,
}

/// The process's alarm.
static ALARM: Alarm = Alarm {
    state: Mutex::new(State {
        reads: Vec::new(),
        next_wake: None,
        next_id: 0,
    }),
    wake: Condvar::new(),
};

/// The alarm's thread started, and its signal's handler installed, on
/// first use.
fn start() {
    static STARTED: Once = Once::new();
    STARTED.call_once(|| {
        install_handler();
        thread::Builder::new()
            .name("ladder-alarm".to_string())
            .spawn(|| keep(&ALARM))
            .expect("a thread for the read deadlines");
    });
}

/// The handler of [`SIGNAL`]: nothing; its only effect is the `EINTR` of
/// the read it interrupts.
extern "C" fn interrupted(_: libc::c_int) {}

fn install_handler() {
    // SAFETY: sigaction with a zeroed struct, an empty mask and a handler
    // that does nothing (async-signal-safe); no SA_RESTART, so that a
    // blocking read returns EINTR.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = interrupted as *const () as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        action.sa_flags = 0;
        libc::sigaction(SIGNAL, &action, std::ptr::null_mut());
    }
}

fn lock(alarm: &Alarm) -> MutexGuard<'_, State> {
    alarm.state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The alarm's loop: signal every read past its deadline, then sleep until
/// the next deadline (or a millisecond, while a late read is still there).
fn keep(alarm: &Alarm) {
    let mut state = lock(alarm);
    loop {
        let now = Instant::now();
        let mut next: Option<Instant> = None;
        for read in &state.reads {
            let at = if read.deadline <= now {
                // SAFETY: the thread is alive: it takes its read off the
                // list, under this lock, before it goes on.
                unsafe { libc::pthread_kill(read.thread, SIGNAL) };
                now + AGAIN
            } else {
                read.deadline
            };
            next = Some(next.map_or(at, |n| n.min(at)));
        }
        state.next_wake = next;
        state = match next {
            None => alarm
                .wake
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner),
            Some(at) => {
                alarm
                    .wake
                    .wait_timeout(state, at.saturating_duration_since(now))
                    .unwrap_or_else(PoisonError::into_inner)
                    .0
            }
        };
    }
}

/// A read on the alarm's list; it leaves the list when dropped.
struct Armed {
    id: u64,
}

/// Blocks or unblocks (`how`: `SIG_BLOCK`, `SIG_UNBLOCK`) [`SIGNAL`] for
/// the calling thread.
fn mask_signal(how: libc::c_int) {
    // SAFETY: a signal set built by sigemptyset and sigaddset, and
    // pthread_sigmask on the calling thread
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, SIGNAL);
        libc::pthread_sigmask(how, &set, std::ptr::null_mut());
    }
}

/// Lets [`SIGNAL`] reach this thread, once per thread: a thread that
/// inherited a mask blocking it would never have a late read interrupted.
fn unblock_signal() {
    thread_local! {
        static UNBLOCKED: Cell<bool> = const { Cell::new(false) };
    }
    UNBLOCKED.with(|done| {
        if !done.get() {
            mask_signal(libc::SIG_UNBLOCK);
            done.set(true);
        }
    });
}

impl Armed {
    fn new(deadline: Instant) -> Armed {
        unblock_signal();
        start();
        let alarm = &ALARM;
        let mut state = lock(alarm);
        let id = state.next_id;
        state.next_id += 1;
        state.reads.push(Reading {
            id,
            // SAFETY: pthread_self has no preconditions
            thread: unsafe { libc::pthread_self() },
            deadline,
        });
        if state.next_wake.is_none_or(|w| deadline < w) {
            state.next_wake = Some(deadline);
            alarm.wake.notify_one();
        }
        Armed { id }
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        let mut state = lock(&ALARM);
        if let Some(k) = state.reads.iter().position(|r| r.id == self.id) {
            state.reads.swap_remove(k);
        }
    }
}

/// Reads once from `from` into `buf`, blocking until something is there,
/// end of file, or `deadline`: `Ok(None)` when the deadline passed first.
/// No clock is read unless the read is interrupted. The read is a raw
/// read(2) (rustix), not libc's, which is a cancellation point.
pub fn read_by(from: impl AsFd, buf: &mut [u8], deadline: Instant) -> Result<Option<usize>, Errno> {
    let _armed = Armed::new(deadline);
    loop {
        match rustix::io::read(&from, &mut *buf) {
            Ok(n) => return Ok(Some(n)),
            Err(Errno::INTR) => {
                if Instant::now() >= deadline {
                    return Ok(None);
                }
            }
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::{
        io::{self, Read, Write},
        os::unix::net::UnixStream,
    };

    fn pipe() -> (io::PipeReader, io::PipeWriter) {
        io::pipe().unwrap()
    }

    #[test]
    fn a_read_with_nothing_to_read_ends_at_its_deadline() {
        let (read, _write) = pipe();
        let mut buf = [0u8; 16];
        let deadline = Instant::now() + Duration::from_millis(30);
        assert_eq!(read_by(&read, &mut buf, deadline).unwrap(), None);
        assert!(Instant::now() >= deadline);
    }

    #[test]
    fn a_read_whose_deadline_has_passed_before_it_starts_still_ends() {
        let (read, _write) = pipe();
        let mut buf = [0u8; 16];
        let past = Instant::now() - Duration::from_millis(5);
        assert_eq!(read_by(&read, &mut buf, past).unwrap(), None);
    }

    #[test]
    fn what_is_there_is_read_and_end_of_file_is_zero() {
        let (read, mut write) = pipe();
        write.write_all(b"12\n").unwrap();
        let mut buf = [0u8; 16];
        let deadline = Instant::now() + Duration::from_secs(60);
        assert_eq!(read_by(&read, &mut buf, deadline).unwrap(), Some(3));
        assert_eq!(&buf[..3], b"12\n");
        drop(write);
        assert_eq!(read_by(&read, &mut buf, deadline).unwrap(), Some(0));
    }

    #[test]
    fn a_line_written_later_is_waited_for() {
        let (read, mut write) = pipe();
        let writer = thread::spawn(move || {
            thread::sleep(Duration::from_millis(50));
            write.write_all(b"go\n").unwrap();
        });
        let mut buf = [0u8; 16];
        let deadline = Instant::now() + Duration::from_secs(60);
        assert_eq!(read_by(&read, &mut buf, deadline).unwrap(), Some(3));
        writer.join().unwrap();
    }

    /// Reads of many threads with their own deadlines, earlier ones armed
    /// after later ones: each ends at its own deadline or with its data.
    #[test]
    fn many_reads_at_once_each_end_by_their_own_deadline() {
        let readers: Vec<_> = (0..8u64)
            .map(|k| {
                thread::spawn(move || {
                    let (read, mut write) = pipe();
                    if k % 2 == 0 {
                        write.write_all(b"x").unwrap();
                    }
                    let mut buf = [0u8; 4];
                    // later threads get earlier deadlines
                    let deadline = Instant::now() + Duration::from_millis(200 - 20 * k);
                    let got = read_by(&read, &mut buf, deadline).unwrap();
                    (k, got, Instant::now() >= deadline)
                })
            })
            .collect();
        for reader in readers {
            let (k, got, past) = reader.join().unwrap();
            if k % 2 == 0 {
                assert_eq!(got, Some(1), "reader {k}");
            } else {
                assert_eq!(got, None, "reader {k}");
                assert!(past, "reader {k} ended before its deadline");
            }
        }
    }

    /// A thread that blocks the alarm's signal (a mask inherited from
    /// whoever started it) still has its late read interrupted.
    #[test]
    fn a_thread_that_blocked_the_signal_still_times_out() {
        // the answer comes over a channel, so a read that is never
        // interrupted fails the test instead of hanging it
        let (tx, rx) = std::sync::mpsc::channel();
        thread::spawn(move || {
            mask_signal(libc::SIG_BLOCK);
            let (read, _write) = pipe();
            let mut buf = [0u8; 4];
            let deadline = Instant::now() + Duration::from_millis(30);
            tx.send(read_by(&read, &mut buf, deadline).unwrap())
        });
        assert_eq!(rx.recv_timeout(Duration::from_secs(30)), Ok(None));
    }

    /// A read that got its answer is not interrupted later: a blocking
    /// read of the same thread past the first read's deadline (std's
    /// `read` does not retry on `EINTR`) ends with its data.
    #[test]
    fn no_signal_comes_after_a_read_has_ended() {
        let (read, mut write) = pipe();
        write.write_all(b"a").unwrap();
        let mut buf = [0u8; 4];
        let soon = Instant::now() + Duration::from_millis(5);
        assert_eq!(read_by(&read, &mut buf, soon).unwrap(), Some(1));
        let (mut a, mut b) = UnixStream::pair().unwrap();
        let writer = thread::spawn(move || {
            thread::sleep(Duration::from_millis(100));
            b.write_all(b"late").unwrap();
        });
        assert_eq!(a.read(&mut buf).unwrap(), 4);
        writer.join().unwrap();
    }
}
