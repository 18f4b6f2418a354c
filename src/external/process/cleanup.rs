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
    io,
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicBool, AtomicI32, Ordering},
        Mutex, OnceLock,
    },
};

use rustix::{
    io::Errno,
    process::{kill_process, kill_process_group, test_kill_process, Pid, Signal},
};

/// The signal that interrupted ladder, or 0.
static INTERRUPT: AtomicI32 = AtomicI32::new(0);
/// Whether a season is running and will save its games on a signal.
static SEASON: AtomicBool = AtomicBool::new(false);

/// The ids of the processes `/proc` lists (those of this PID namespace);
/// empty where `/proc` is missing.
pub fn pids() -> Vec<u32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse().ok())
        .collect()
}

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

/// Kills every live bot process group at once (SIGKILL) and removes every
/// working folder of ladder's: for Ctrl-C, SIGTERM and panics, when there is
/// no time for a grace period.
pub fn kill_all() {
    let groups = live_groups().lock().unwrap_or_else(|e| e.into_inner());
    for &pgid in groups.iter() {
        signal(pgid, Signal::KILL);
    }
    drop(groups);
    let dirs = live_dirs().lock().unwrap_or_else(|e| e.into_inner());
    for dir in dirs.iter() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

fn live_dirs() -> &'static Mutex<HashSet<PathBuf>> {
    static DIRS: OnceLock<Mutex<HashSet<PathBuf>>> = OnceLock::new();
    DIRS.get_or_init(Default::default)
}

/// The prefix of every temporary folder ladder makes: `ladder-WHAT-PID-`.
const TEMP_PREFIX: &str = "ladder-";

/// A temporary working folder, removed when dropped, on a signal, or, if
/// ladder is killed outright, by the next ladder's [`sweep_stale_dirs`].
pub struct WorkDir(Option<tempfile::TempDir>);

impl WorkDir {
    /// A new folder `ladder-WHAT-PID-XXXXXX` in the system's temporary folder.
    pub fn new(what: &str) -> io::Result<WorkDir> {
        let dir = tempfile::Builder::new()
            .prefix(&format!("{TEMP_PREFIX}{what}-{}-", std::process::id()))
            .tempdir()?;
        live_dirs()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(dir.path().to_path_buf());
        Ok(WorkDir(Some(dir)))
    }

    pub fn path(&self) -> &Path {
        self.0.as_ref().expect("present until dropped").path()
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if let Some(dir) = self.0.take() {
            live_dirs()
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(dir.path());
        }
    }
}

/// Removes the temporary folders of ladder processes that no longer run
/// (killed with SIGKILL, say); called once at start.
pub fn sweep_stale_dirs() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = owner_of(&name) else {
            continue;
        };
        if !alive(pid) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The process id in a name `ladder-WHAT-PID-XXXXXX`, if it is one.
fn owner_of(name: &str) -> Option<i32> {
    let rest = name.strip_prefix(TEMP_PREFIX)?;
    let mut parts = rest.rsplitn(3, '-');
    let (_random, pid, what) = (parts.next()?, parts.next()?, parts.next()?);
    (!what.is_empty()).then_some(())?;
    pid.parse().ok()
}

/// Whether process `pid` exists.
fn alive(pid: i32) -> bool {
    Pid::from_raw(pid).is_some_and(|pid| test_kill_process(pid) != Err(Errno::SRCH))
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

/// Sends `signal` to process group `pgid` (gone already: nothing to do).
/// A bot that starts a session of its own (where ladder has a terminal)
/// makes its group a moment after it starts: until then the group does not
/// exist, and the signal goes to its leader alone, which has started
/// nothing yet.
pub(super) fn signal(pgid: i32, signal: Signal) {
    if let Some(pgid) = Pid::from_raw(pgid) {
        if kill_process_group(pgid, signal) == Err(Errno::SRCH) {
            let _ = kill_process(pgid, signal);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_folder_names_carry_their_owner() {
        assert_eq!(owner_of("ladder-hackerrank-4242-AbC123"), Some(4242));
        assert_eq!(owner_of("ladder-hackerrank-x-AbC123"), None);
        assert_eq!(owner_of("other-hackerrank-4242-AbC123"), None);
        assert!(alive(std::process::id() as i32));
    }

    #[test]
    fn a_work_dir_goes_when_dropped() {
        let d = WorkDir::new("test").unwrap();
        let path = d.path().to_path_buf();
        assert!(path.is_dir());
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(owner_of(&name), Some(std::process::id() as i32));
        drop(d);
        assert!(!path.exists());
    }
}
