//! Waiting for one descriptor in poll(2), for a bot's pipes: its stdin
//! written with a deadline (`child`), and its stdout read with one where no
//! alarm thread may start (`lines`, for the move host).

use std::{os::fd::AsFd, time::Duration};

use rustix::event::{poll, PollFd, PollFlags, Timespec};

/// Waits until `fd` is ready for `flags` or `timeout` has passed (`None`:
/// no limit); whether it is ready (0 when the time ran out).
pub fn wait_ready(
    fd: impl AsFd,
    flags: PollFlags,
    timeout: Option<Duration>,
) -> rustix::io::Result<usize> {
    let timeout = timeout.map(|t| Timespec {
        tv_sec: t.as_secs() as i64,
        tv_nsec: t.subsec_nanos().into(),
    });
    poll(&mut [PollFd::new(&fd, flags)], timeout.as_ref())
}
