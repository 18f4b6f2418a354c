//! Every live bot process group, so that ladder can end them all at once,
//! and what happens on Ctrl-C (SIGINT), SIGTERM and SIGHUP.
//!
//! A signal kills every bot at once. Outside a season ladder then exits with
//! 128 + the signal's number. During a season ([`SeasonRunning`]) it records
//! the signal instead ([`interrupted`]): the season's writer saves every game
//! finished before it, prints the standings so far and returns, and `main`
//! exits with that code. A second signal exits at once.

use std::{
    collections::HashSet,
    sync::{
        atomic::{AtomicBool, AtomicI32, Ordering},
        Mutex, OnceLock,
    },
};

/// The signal that interrupted ladder, or 0.
static INTERRUPT: AtomicI32 = AtomicI32::new(0);
/// Whether a season is running and will save its games on a signal.
static SEASON: AtomicBool = AtomicBool::new(false);

/// The signal (SIGINT 2, SIGTERM 15, SIGHUP 1) that interrupted ladder, if any.
pub fn interrupted() -> Option<i32> {
    match INTERRUPT.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(sig),
    }
}

/// While alive, a signal lets the season finish saving instead of exiting.
pub struct SeasonRunning(());

impl SeasonRunning {
    pub fn start() -> Self {
        SEASON.store(true, Ordering::SeqCst);
        SeasonRunning(())
    }
}

impl Drop for SeasonRunning {
    fn drop(&mut self) {
        SEASON.store(false, Ordering::SeqCst);
    }
}

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

/// Installs the handler of SIGINT, SIGTERM and SIGHUP and the panic hook
/// that kill every bot process before ladder exits. Call once, early in `main`.
pub fn install_cleanup() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        std::thread::spawn(move || {
            for sig in signals.forever() {
                let first = INTERRUPT
                    .compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok();
                kill_all();
                if first && SEASON.load(Ordering::SeqCst) {
                    eprintln!(
                        "\ninterrupted: saving the games finished so far (interrupt again to stop at once)"
                    );
                } else {
                    eprintln!("\ninterrupted");
                    std::process::exit(128 + sig);
                }
            }
        });
    }
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
