//! How many games a season plays at once.
//!
//! `--jobs N` (or `jobs = N`) plays N games at once, each on a worker thread
//! of its own; N may lie far above the core count, since a game whose bots
//! are programs mostly waits for them. `--jobs auto` finds N while the season
//! runs: it measures how much CPU ladder and its bots spend per game in
//! flight and keeps their use below [`Auto::TARGET_BUSY`] of the cores, so
//! slow bots that mostly sleep (a network model, a GPU) get hundreds of games
//! at once and bots that think hard get about one game per core. It counts
//! only ladder's own processes and their descendants ([`CpuTime`]): other
//! users' work on the machine neither holds it down nor pushes it up. The
//! same meter, with the cores' idle time, tells the season summary when
//! ladder oversubscribed the machine ([`CpuUse`]): then bots waited for a
//! core, and a time loss may be ladder's fault rather than the bot's.
//!
//! Every game in flight holds up to two bot processes and three pipes to
//! each, so [`raise_open_files`] lifts the soft limit on open files to the
//! hard one (as fastchess does) and refuses, with the numbers, a `--jobs`
//! the hard limit cannot serve.

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Condvar, Mutex, MutexGuard,
    },
    time::Duration,
};

use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};

use crate::{
    core::error::{Error, Result},
    external::process::cleanup,
};

/// How many workers may play at once: a permit per chunk being played.
/// `--jobs N` allows N; `--jobs auto` moves the number while the season runs.
pub struct Gate {
    /// Permits in use, and how many there may be.
    state: Mutex<(usize, usize)>,
    freed: Condvar,
}

impl Gate {
    pub fn new(allowed: usize) -> Self {
        Gate {
            state: Mutex::new((0, allowed.max(1))),
            freed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, (usize, usize)> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a permit; `false` if `stop` is set first.
    pub fn enter(&self, stop: &AtomicBool) -> bool {
        let mut state = self.lock();
        while state.0 >= state.1 {
            if stop.load(Ordering::Relaxed) {
                return false;
            }
            state = self
                .freed
                .wait_timeout(state, Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        state.0 += 1;
        true
    }

    pub fn leave(&self) {
        self.lock().0 -= 1;
        self.freed.notify_one();
    }

    pub fn set_allowed(&self, allowed: usize) {
        self.lock().1 = allowed.max(1);
        self.freed.notify_all();
    }

    /// Permits in use: games in flight.
    pub fn in_use(&self) -> usize {
        self.lock().0
    }
}

/// The number of cores ladder may use, read once (the standard library reads
/// the process's affinity and its cgroup's quota, four files, each time).
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The CPU time ladder and every process it started (its bots, theirs, the
/// sandbox's) have used, against the time all cores had: read from
/// `/proc/PID/stat` of ladder's process tree, which is found through each
/// thread's `children` file ([`tree_pids`]) rather than by reading every
/// process of the machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuTime {
    /// Clock ticks the tree spent: each live process's own and its reaped
    /// children's (a bot's finished helpers are counted in their parent).
    pub busy: u64,
    /// Clock ticks of every core since ladder began measuring.
    pub total: u64,
    /// Clock ticks the cores sat idle, from `/proc/stat` ([`machine_idle`]);
    /// `None` where that is unknown or not ladder's to use.
    pub idle: Option<u64>,
}

impl CpuTime {
    /// The tree's CPU time so far; `None` where `/proc` is missing.
    pub fn now() -> Option<CpuTime> {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        let start = *START.get_or_init(std::time::Instant::now);
        let hz = rustix::param::clock_ticks_per_second() as f64;
        let mut procs: Vec<(u32, u32, u64)> = Vec::new();
        let pids = tree_pids().unwrap_or_else(cleanup::pids);
        if pids.is_empty() {
            return None;
        }
        for pid in pids {
            // a process may end while the folder is read
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            if let Some((ppid, ticks)) = CpuTime::parse_stat(&stat) {
                procs.push((pid, ppid, ticks));
            }
        }
        let busy = tree_ticks(&procs, std::process::id());
        let total = (start.elapsed().as_secs_f64() * hz * cores() as f64) as u64;
        let idle = std::fs::read_to_string("/proc/stat")
            .ok()
            .and_then(|stat| machine_idle(&stat, cores()));
        Some(CpuTime { busy, total, idle })
    }

    /// A `/proc/PID/stat` line's parent and CPU ticks (utime, stime,
    /// cutime, cstime); the command in parentheses may hold anything.
    fn parse_stat(stat: &str) -> Option<(u32, u64)> {
        let rest = stat.get(stat.rfind(')')? + 1..)?;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ppid = fields.get(1)?.parse().ok()?;
        let ticks = fields
            .get(11..15)?
            .iter()
            .map(|f| f.parse::<u64>().ok())
            .sum::<Option<u64>>()?;
        Some((ppid, ticks))
    }

    /// The busy share of the CPU time between `earlier` and this reading.
    pub fn busy_since(&self, earlier: &CpuTime) -> Option<f64> {
        let total = self.total.checked_sub(earlier.total)?;
        let busy = self.busy.checked_sub(earlier.busy)?;
        (total > 0).then(|| (busy as f64 / total as f64).min(1.0))
    }

    /// The CPU use between `earlier` and this reading, for a season's summary.
    pub fn use_since(&self, earlier: &CpuTime) -> Option<CpuUse> {
        let busy = self.busy_since(earlier)?;
        let total = self.total - earlier.total;
        let machine = match (earlier.idle, self.idle) {
            (Some(before), Some(after)) => after
                .checked_sub(before)
                .map(|idle| (1.0 - idle as f64 / total as f64).clamp(busy, 1.0)),
            _ => None,
        };
        Some(CpuUse {
            busy,
            machine,
            cores: cores(),
        })
    }
}

/// The idle ticks of all cores (idle and waiting for I/O) in a `/proc/stat`
/// text, when it lists exactly the `cores` ladder may use: under an affinity
/// mask or a container's quota it lists cores whose idle time ladder could
/// not have used, and then `None`. Counting idle time rather than the busy
/// time of others counts what a hypervisor takes (steal) as taken.
fn machine_idle(stat: &str, cores: usize) -> Option<u64> {
    let listed = stat
        .lines()
        .filter(|l| {
            l.strip_prefix("cpu")
                .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
        })
        .count();
    if listed != cores {
        return None;
    }
    let all = stat.lines().next()?.strip_prefix("cpu ")?;
    let ticks: Vec<u64> = all
        .split_whitespace()
        .map(|f| f.parse().ok())
        .collect::<Option<_>>()?;
    Some(ticks.get(3)? + ticks.get(4)?)
}

/// Ladder's process and every process below it, found through
/// `/proc/PID/task/TID/children` (the children each thread started);
/// `None` where the kernel offers no such file, and then every process the
/// machine lists is read instead. A process that starts or ends meanwhile
/// may be missed, as it may be by reading the whole of `/proc`.
fn tree_pids() -> Option<Vec<u32>> {
    let me = std::process::id();
    if !std::path::Path::new(&format!("/proc/{me}/task/{me}/children")).exists() {
        return None;
    }
    let mut tree = vec![me];
    // a process handed to a new parent meanwhile is listed once
    let mut seen = std::collections::HashSet::from([me]);
    let mut next = 0;
    while let Some(&pid) = tree.get(next) {
        next += 1;
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue; // it ended
        };
        for task in tasks.flatten() {
            if let Ok(children) = std::fs::read_to_string(task.path().join("children")) {
                for child in children.split_whitespace().filter_map(|c| c.parse().ok()) {
                    if seen.insert(child) {
                        tree.push(child);
                    }
                }
            }
        }
    }
    Some(tree)
}

/// The ticks of `root` and every process below it, of `(pid, ppid, ticks)`.
fn tree_ticks(procs: &[(u32, u32, u64)], root: u32) -> u64 {
    let mut children: std::collections::HashMap<u32, Vec<usize>> = Default::default();
    for (i, (_, ppid, _)) in procs.iter().enumerate() {
        children.entry(*ppid).or_default().push(i);
    }
    let mut sum = 0;
    let mut stack: Vec<u32> = vec![root];
    if let Some(me) = procs.iter().find(|p| p.0 == root) {
        sum += me.2;
    }
    while let Some(pid) = stack.pop() {
        for &i in children.get(&pid).map_or(&[][..], Vec::as_slice) {
            sum += procs[i].2;
            stack.push(procs[i].0);
        }
    }
    sum
}

/// Whether the memory the machine has available is at least `share` of its total.
fn memory_to_spare(share: f64) -> bool {
    let Ok(text) = std::fs::read_to_string("/proc/meminfo") else {
        return true;
    };
    let kib = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|rest| rest.split_whitespace().next()?.parse::<f64>().ok())
    };
    match (kib("MemAvailable:"), kib("MemTotal:")) {
        (Some(available), Some(total)) if total > 0.0 => available / total >= share,
        _ => true,
    }
}

/// `--jobs auto` while bot programs play: every [`Auto::WINDOW`] it reads
/// the machine's CPU use and how many games were in flight, and sets how
/// many may be.
///
/// The CPU a game in flight costs (its bots' thinking, ladder's work for it)
/// is measured only over windows in which no bot process was starting:
/// start-ups cost far more CPU than play (a Python interpreter, about 0.1 s
/// on these machines) and would make every growth look expensive. From that
/// cost it aims at [`Auto::TARGET_BUSY`] of the machine, growing at most 4x a
/// window (every new game in flight may start a process) and never below
/// one game per core, never above the cap.
#[derive(Debug)]
pub struct Auto {
    cores: usize,
    cap: usize,
    allowed: usize,
    /// The most `allowed` has been.
    pub peak: usize,
    window_start: Option<(std::time::Instant, CpuTime, u64)>,
    /// Games in flight, summed over the window's samples.
    in_flight: (u64, u64),
}

impl Auto {
    /// How long each measurement lasts.
    pub const WINDOW: Duration = Duration::from_millis(500);
    /// The share of the machine's CPU `auto` aims to use.
    pub const TARGET_BUSY: f64 = 0.6;
    /// Below this share of memory available, `auto` grows no further.
    const MEMORY_SPARE: f64 = 0.2;

    /// Starts at two games per core, with at most `cap` games at once.
    pub fn new(cores: usize, cap: usize) -> Auto {
        let allowed = (2 * cores).clamp(1, cap.max(1));
        Auto {
            cores,
            cap: cap.max(1),
            allowed,
            peak: allowed,
            window_start: None,
            in_flight: (0, 0),
        }
    }

    /// How many games may be in flight now.
    pub fn allowed(&self) -> usize {
        self.allowed
    }

    /// One look, from the writer's loop: `in_flight` games are being played
    /// now and `starts` processes have begun starting so far (with `starting`
    /// under way now). Returns the new number of games allowed when it changes.
    pub fn tick(&mut self, in_flight: usize, starts: u64, starting: usize) -> Option<usize> {
        let now = std::time::Instant::now();
        let Some((since, cpu0, starts0)) = self.window_start else {
            self.window_start = Some((now, CpuTime::now()?, starts));
            return None;
        };
        self.in_flight.0 += in_flight as u64;
        self.in_flight.1 += 1;
        if now - since < Self::WINDOW {
            return None;
        }
        // read at a window's ends only: a reading opens a file per process
        let cpu = CpuTime::now()?;
        let (sum, samples) = std::mem::take(&mut self.in_flight);
        self.window_start = Some((now, cpu, starts));
        let mean_in_flight = sum as f64 / samples.max(1) as f64;
        let busy = cpu.busy_since(&cpu0)?;
        // a window with a start-up in it says nothing about the cost of play
        if starts != starts0 || starting > 0 {
            return None;
        }
        let next = self.aim(busy, mean_in_flight, memory_to_spare(Self::MEMORY_SPARE))?;
        self.allowed = next;
        self.peak = self.peak.max(next);
        Some(next)
    }

    /// The games to allow after a window in which the machine was `busy`
    /// (a share of all cores) with `in_flight` games on average; `None` to
    /// keep the number. `grow` is false when memory runs short.
    fn aim(&self, busy: f64, in_flight: f64, grow: bool) -> Option<usize> {
        if in_flight < 0.5 {
            return None;
        }
        let per_game = (busy * self.cores as f64 / in_flight).max(1e-4);
        let aim = (Self::TARGET_BUSY * self.cores as f64 / per_game + 1e-9).floor() as usize;
        let mut next = aim.clamp(self.cores, self.cap).min(4 * self.allowed);
        if next > self.allowed && !grow {
            next = self.allowed;
        }
        // small changes are noise
        let change = next.abs_diff(self.allowed);
        if change == 0 || (change * 8 < self.allowed && next > self.cores) {
            return None;
        }
        Some(next)
    }
}

/// The CPU use of a whole season, for its summary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CpuUse {
    /// The share of all cores ladder and its bots used while games were played.
    pub busy: f64,
    /// The share of all cores busy with any work (ladder's, other processes',
    /// a hypervisor's), where the cores' idle time is known.
    pub machine: Option<f64>,
    pub cores: usize,
}

impl CpuUse {
    /// The busy share of the cores at and above which the machine counts as
    /// oversubscribed.
    pub const OVERSUBSCRIBED: f64 = 0.9;
    /// The share of the cores ladder's own work must have taken for it to be
    /// ladder's doing.
    pub const LADDERS_SHARE: f64 = 0.5;

    /// Whether bots had to wait for a core, at least half of them taken by
    /// ladder's own work: the cores were busy to their limit, whoever else
    /// used them (other processes, a hypervisor's steal).
    pub fn oversubscribed(&self) -> bool {
        self.busy >= Self::LADDERS_SHARE && self.machine_busy() >= Self::OVERSUBSCRIBED
    }

    /// The busy share of the cores: the machine's where known, else ladder's.
    pub fn machine_busy(&self) -> f64 {
        self.machine.unwrap_or(self.busy)
    }
}

/// Open files a season of `games` at once needs when each game runs up to
/// `processes` bot programs: three pipe ends per program, plus some for
/// ladder itself (journal, logs, the sandbox's start-up).
pub fn open_files_needed(games: usize, processes: usize) -> u64 {
    (games * processes * 3 + 64) as u64
}

/// The limits on open files, soft (`current`) and hard (`maximum`); `None`
/// means unlimited.
fn open_files_limit() -> Rlimit {
    getrlimit(Resource::Nofile)
}

/// The hard limit on open files, if there is one.
pub fn open_files_hard_limit() -> Option<u64> {
    open_files_limit().maximum
}

/// Raises the soft limit on open files to the hard limit if `needed` is
/// more than the soft limit allows; an error, with both numbers, when even
/// the hard limit is too low.
pub fn raise_open_files(needed: u64, jobs: usize) -> Result<()> {
    let limit = open_files_limit();
    if limit.current.is_none_or(|soft| soft >= needed) {
        return Ok(());
    }
    if let Some(hard) = limit.maximum.filter(|&hard| hard < needed) {
        return Err(Error::Usage(format!(
            "{jobs} games at once need about {needed} open files, but this system allows {hard} \
             (`ulimit -Hn`): lower --jobs, or raise the limit"
        )));
    }
    let raised = Rlimit {
        current: limit.maximum,
        maximum: limit.maximum,
    };
    setrlimit(Resource::Nofile, raised).map_err(|e| {
        Error::System(format!(
            "{jobs} games at once need about {needed} open files; raising the limit failed: {e}"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_line_gives_its_parent_and_ticks_whatever_its_name() {
        let stat = "42 (a (b) c) S 7 42 42 0 -1 4194560 100 0 0 0 30 20 5 1 20 0 1 0";
        assert_eq!(CpuTime::parse_stat(stat), Some((7, 56)));
        assert_eq!(CpuTime::parse_stat("42 (x) S"), None);
        // only the tree below the root counts
        let procs = [
            (1, 0, 1000),
            (10, 1, 5),
            (11, 10, 7),
            (12, 11, 3),
            (20, 1, 500),
        ];
        assert_eq!(tree_ticks(&procs, 10), 15);
        let a = CpuTime {
            busy: 10,
            total: 100,
            idle: Some(1000),
        };
        let b = CpuTime {
            busy: 60,
            total: 200,
            idle: Some(1030),
        };
        assert_eq!(b.busy_since(&a), Some(0.5));
        assert_eq!(a.busy_since(&b), None);
        assert!(CpuTime::now().is_some());
        // 30 of 100 ticks idle: 70% busy, 50% ladder's
        let used = b.use_since(&a).unwrap();
        assert_eq!((used.busy, used.machine), (0.5, Some(0.7)));
        let unknown = CpuTime { idle: None, ..b };
        assert_eq!(unknown.use_since(&a).unwrap().machine, None);
    }

    #[test]
    fn the_idle_time_counts_only_when_proc_stat_lists_ladders_cores() {
        let stat = "cpu  100 5 50 1000 20 0 3 40 0 0\n\
                    cpu0 50 2 25 500 10 0 1 20 0 0\n\
                    cpu1 50 3 25 500 10 0 2 20 0 0\n\
                    intr 12345\n";
        assert_eq!(machine_idle(stat, 2), Some(1020));
        assert_eq!(machine_idle(stat, 1), None, "an affinity mask or a quota");
        assert_eq!(machine_idle("cpu  1 2\ncpu0 1 2\n", 1), None);
    }

    #[test]
    fn oversubscribed_means_busy_cores_at_least_half_of_them_ladders() {
        let cpu = |busy, machine| CpuUse {
            busy,
            machine,
            cores: 2,
        };
        // ladder alone kept the cores busy
        assert!(cpu(0.95, None).oversubscribed());
        assert!(cpu(0.95, Some(0.97)).oversubscribed());
        // its bots beside other work (or a hypervisor's steal)
        assert!(cpu(0.8, Some(1.0)).oversubscribed());
        assert!(!cpu(0.8, None).oversubscribed());
        // others kept the cores busy, ladder's bots mostly slept
        assert!(!cpu(0.05, Some(1.0)).oversubscribed());
        // cores to spare
        assert!(!cpu(0.6, Some(0.7)).oversubscribed());
    }

    #[test]
    fn the_process_tree_holds_children_and_grandchildren_and_nothing_else() {
        // a shell that starts a sleep of its own: a child and a grandchild
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 30 & echo $!; wait"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().unwrap()),
            &mut line,
        )
        .unwrap();
        let grandchild: u32 = line.trim().parse().unwrap();
        let tree = tree_pids().expect("this kernel has children files");
        let _ = child.kill();
        let _ = rustix::process::kill_process(
            rustix::process::Pid::from_raw(grandchild as i32).unwrap(),
            rustix::process::Signal::KILL,
        );
        let _ = child.wait();
        assert_eq!(tree[0], std::process::id());
        assert!(tree.contains(&child.id()), "{tree:?}");
        assert!(tree.contains(&grandchild), "{tree:?}");
        assert!(!tree.contains(&1), "{tree:?}");
    }

    #[test]
    fn auto_starts_at_two_games_a_core_within_its_cap() {
        assert_eq!(Auto::new(2, 1024).allowed(), 4);
        assert_eq!(Auto::new(8, 10).allowed(), 10);
    }

    #[test]
    fn auto_aims_at_its_share_of_the_cpu_from_the_cost_of_a_game() {
        let auto = |allowed| Auto {
            allowed,
            ..Auto::new(2, 1000)
        };
        // 8 games kept 2 cores 10% busy: 0.025 cores a game, 48 games make 60%,
        // but one window grows at most 4x
        assert_eq!(auto(8).aim(0.1, 8.0, true), Some(32));
        assert_eq!(auto(32).aim(0.4, 32.0, true), Some(48));
        // the machine is saturated: back to what it can serve, never below a game a core
        assert_eq!(auto(48).aim(1.0, 48.0, true), Some(28));
        assert_eq!(auto(28).aim(1.0, 4.0, true), Some(2));
        // close enough, or nothing measured: no change
        assert_eq!(auto(48).aim(0.62, 48.0, true), None);
        assert_eq!(auto(8).aim(0.1, 0.0, true), None);
        // short of memory: no growth, but shrinking still works
        assert_eq!(auto(8).aim(0.1, 8.0, false), None);
        assert_eq!(auto(48).aim(1.0, 48.0, false), Some(28));
        // never above the cap
        assert_eq!(auto(600).aim(0.0, 600.0, true), Some(1000));
    }

    #[test]
    fn open_files_count_three_pipes_a_process() {
        assert_eq!(open_files_needed(500, 2), 3064);
        assert!(raise_open_files(64, 1).is_ok());
    }
}
