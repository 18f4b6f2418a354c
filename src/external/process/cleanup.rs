//! Every live bot process group, so that ladder can end them all at once: on
//! Ctrl-C, SIGTERM, a panic, or when a season finishes with a bot thread
//! abandoned by the watchdog.

use std::{
    collections::HashSet,
    sync::{Mutex, OnceLock},
};

fn live_groups() -> &'static Mutex<HashSet<i32>> {
    static GROUPS: OnceLock<Mutex<HashSet<i32>>> = OnceLock::new();
    GROUPS.get_or_init(Default::default)
}

/// Kills every live bot process group at once (SIGKILL): for Ctrl-C, SIGTERM
/// and panics, when there is no time for a grace period.
pub fn kill_all() {
    let groups = live_groups().lock().unwrap_or_else(|e| e.into_inner());
    for &pgid in groups.iter() {
        signal(pgid, libc::SIGKILL);
    }
}

/// Installs the Ctrl-C / SIGTERM handler and the panic hook that kill every
/// bot process before ladder exits. Call once, early in `main`.
pub fn install_cleanup() {
    let _ = ctrlc::set_handler(|| {
        kill_all();
        eprintln!("\ninterrupted: every finished game is in the journal; rerun to resume");
        std::process::exit(130);
    });
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        kill_all();
        default_hook(info);
    }));
}

/// Records a new process group.
pub(super) fn register(pgid: i32) {
    live_groups()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(pgid);
}

/// Forgets a process group that has been reaped.
pub(super) fn unregister(pgid: i32) {
    live_groups()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&pgid);
}

/// Sends `signal` to process group `pgid`.
pub(super) fn signal(pgid: i32, signal: i32) {
    // SAFETY: kill(2) with a negative pid signals a process group; no memory is touched.
    unsafe {
        libc::kill(-pgid, signal);
    }
}
