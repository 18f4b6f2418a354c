//! Many games at once with real bot processes: programs are reused from game
//! to game and pairing to pairing (counted by the processes themselves),
//! restarted only after a failure, started a few at a time so a burst of
//! CPU-heavy start-ups cannot time itself out; 500 games of bots that sleep
//! a second a move finish with no loss on time; the open-file limit is
//! raised, or a `--jobs` it cannot serve refused; `--jobs auto` grows past
//! the core count for bots that sleep, and beside other work; bots kept
//! waiting for a core are warned about, alone or beside other work, and
//! bots that sleep beside other work are not. The journal is the same at
//! any `--jobs`.
//!
//! The tests run one at a time: each measures the machine's CPU, which the
//! others would disturb.

use std::{
    fs,
    path::{Path, PathBuf},
    sync::Mutex,
};

use assert_cmd::Command;
use tempfile::TempDir;

mod common;
use common::journal_indices;

const LADDER: &str = env!("CARGO_BIN_EXE_ladder");

/// Held by every test: one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A coordination season, round robin, in `dir`, of `bots`: each a name and
/// the testbot's flags; each bot's processes count their starts in `dir/NAME.starts`.
fn season(dir: &Path, bots: &[(&str, &str)], games_per_pair: u32, extra: &str) -> PathBuf {
    let mut text = format!(
        r#"
[season]
name = "s"
game = "coordination"
games_per_pair = {games_per_pair}
seed = 5
sandbox = "none"
{extra}
"#
    );
    for (name, flags) in bots {
        let mut command = vec![common::testbot().to_string()];
        command.extend(flags.split_whitespace().map(str::to_string));
        let starts = dir.join(format!("{name}.starts"));
        command.extend(["--starts".to_string(), starts.display().to_string()]);
        text.push_str(&format!(
            "\n[[bot]]\nname = \"{name}\"\ncommand = {command:?}\n"
        ));
    }
    let path = dir.join("season.toml");
    fs::write(&path, text).unwrap();
    path
}

/// `ladder run CONFIG --reports DIR/reports ARGS...`: its stdout and stderr.
fn run(cfg: &Path, dir: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new(LADDER)
        .arg("run")
        .arg(cfg)
        .arg("--reports")
        .arg(dir.join("reports"))
        .arg("--fresh")
        .args(args)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    (stdout, stderr)
}

/// `ladder run CONFIG --jobs JOBS` after the shell command `first` (a `ulimit`).
fn run_under(first: &str, cfg: &Path, dir: &Path, jobs: &str) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(r#"{first} && exec "$@""#))
        .arg("sh")
        .arg(LADDER)
        .arg("run")
        .arg(cfg)
        .arg("--reports")
        .arg(dir.join("reports"))
        .args(["--jobs", jobs])
        .output()
        .unwrap()
}

/// Processes bot `name` started, as the processes wrote it.
fn starts(dir: &Path, name: &str) -> usize {
    let path = dir.join(format!("{name}.starts"));
    let n = fs::read_to_string(&path).map_or(0, |t| t.lines().count());
    let _ = fs::remove_file(path);
    n
}

fn journal(dir: &Path) -> String {
    fs::read_to_string(dir.join("reports/s/games.jsonl")).unwrap()
}

/// Games of the journal that ended on a forfeit, with their reasons.
fn forfeits(dir: &Path) -> Vec<String> {
    journal(dir)
        .lines()
        .filter(|l| l.contains(r#""kind":"forfeit""#))
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["termination"]["detail"].to_string()
        })
        .collect()
}

/// The number after `label` in `text` (`processes started: a 4` gives 4 for `a `).
fn number_after(text: &str, label: &str) -> usize {
    let at = text
        .find(label)
        .unwrap_or_else(|| panic!("no `{label}` in:\n{text}"));
    text[at + label.len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap_or_else(|_| panic!("no number after `{label}` in:\n{text}"))
}

/// The processes the summary says bot `name` started.
fn shown_starts(out: &str, name: &str) -> usize {
    let line = out
        .lines()
        .find_map(|l| l.split_once("bot processes started: ").map(|(_, r)| r))
        .unwrap_or_else(|| panic!("no processes shown in:\n{out}"));
    let field = line
        .split(", ")
        .find_map(|f| f.strip_prefix(&format!("{name} ")))
        .unwrap_or_else(|| panic!("{name} not in `{line}`"));
    field.parse().unwrap()
}

#[test]
fn bot_processes_serve_many_games_and_pairings_and_the_journal_does_not_change() {
    let _one = one_at_a_time();
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path();
    let bots = [("a", ""), ("b", "--think 1"), ("c", "")];
    // 3 pairings of 20 games: 120 bot places, each a fresh process before
    let cfg = season(dir, &bots, 20, "");
    let (one, _) = run(&cfg, dir, &["--jobs", "1"]);
    let reference = journal(dir);
    assert_eq!(
        journal_indices(&dir.join("reports/s/games.jsonl")).len(),
        60
    );
    for (name, _) in bots {
        // one game at a time: one process per bot for the whole season
        assert_eq!(starts(dir, name), 1, "{name}");
        assert_eq!(shown_starts(&one, name), 1, "{one}");
    }
    assert!(one.contains("games at once: 1; bot processes started: a 1, b 1, c 1"));
    for jobs in ["4", "auto"] {
        let (out, _) = run(&cfg, dir, &["--jobs", jobs]);
        assert_eq!(journal(dir), reference, "--jobs {jobs}");
        for (name, _) in bots {
            let n = starts(dir, name);
            // at most one per game in flight
            let most = if jobs == "4" { 4 } else { 40 };
            assert!((1..=most).contains(&n), "{name}: {n} processes");
            assert_eq!(shown_starts(&out, name), n, "{out}");
        }
        let delay = "ladder's delay around a bot program's move (never charged to it): worst ";
        assert!(out.contains(delay), "{out}");
        assert_eq!(number_after(&out, " ms over "), 20 * 2 * 60, "{out}");
    }
}

#[test]
fn a_bot_whose_process_dies_is_restarted_and_the_others_kept() {
    let _one = one_at_a_time();
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path();
    let bots = [("crasher", "--crash-at 3"), ("steady", "")];
    let cfg = season(dir, &bots, 30, "");
    let (out, _) = run(&cfg, dir, &["--jobs", "3"]);
    let forfeits = forfeits(dir);
    assert_eq!(forfeits.len(), 30, "{forfeits:?}");
    assert!(forfeits.iter().all(|f| f.contains("exited with code 3")));
    // every game killed the crasher's process: a fresh one for each
    assert_eq!(starts(dir, "crasher"), 30);
    assert!(starts(dir, "steady") <= 3);
    assert!(
        out.contains("bot processes started: crasher 30, steady "),
        "{out}"
    );
}

#[test]
fn a_burst_of_cpu_heavy_start_ups_is_staggered_and_none_times_out() {
    let _one = one_at_a_time();
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path();
    // 40 games at once, each start-up 150 ms of CPU: started all together,
    // on 2 cores each would take about 3 s and miss its 1.5 s limit
    let bots = [("heavy", "--busy-start 150"), ("light", "")];
    let cfg = season(
        dir,
        &bots,
        40,
        "startup_time_ms = 1500\n[season.params]\nrounds = 2",
    );
    let jobs = (20 * cores()).to_string();
    run(&cfg, dir, &["--jobs", &jobs]);
    assert_eq!(forfeits(dir), Vec::<String>::new());
    assert!(starts(dir, "heavy") <= 40);
}

#[test]
fn five_hundred_games_of_bots_that_sleep_a_second_a_move_lose_none_on_time() {
    let _one = one_at_a_time();
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path();
    let bots = [("a", "--think 1000"), ("b", "--think 1000")];
    let cfg = season(
        dir,
        &bots,
        500,
        "move_time_ms = 2000\n[season.params]\nrounds = 2",
    );
    // about 3,000 open files: more than a soft limit of 1024, which ladder raises
    let out = run_under("ulimit -Sn 1024", &cfg, dir, "500");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        journal_indices(&dir.join("reports/s/games.jsonl")).len(),
        500
    );
    assert_eq!(forfeits(dir), Vec::<String>::new());
    let (a, b) = (starts(dir, "a"), starts(dir, "b"));
    assert!(a <= 500 && b <= 500, "{a} + {b} processes");
    assert!(stdout.contains("games at once: 500;"), "{stdout}");
}

#[test]
fn more_games_than_the_open_file_limit_can_serve_are_refused_clearly() {
    let _one = one_at_a_time();
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path();
    let bots = [("a", "")];
    let cfg = season(dir, &bots, 10, "");
    let with_random =
        fs::read_to_string(&cfg).unwrap() + "\n[[bot]]\nname = \"r\"\nbuiltin = \"random\"\n";
    fs::write(&cfg, with_random).unwrap();
    let out = run_under("ulimit -n 256", &cfg, dir, "500");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "500 games at once need about 3064 open files, but this system allows 256 \
             (`ulimit -Hn`): lower --jobs, or raise the limit"
        ),
        "{stderr}"
    );
    assert_eq!(starts(dir, "a"), 0, "no bot started");
}

#[test]
fn jobs_auto_plays_many_more_games_than_cores_for_bots_that_sleep() {
    let _one = one_at_a_time();
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path();
    let bots = [("a", "--think 100"), ("b", "--think 100")];
    let cfg = season(dir, &bots, 200, "[season.params]\nrounds = 10");
    // other work keeps every core busy: auto judges by ladder's own use
    let hogs = busy_loops(cores());
    let (out, err) = run(&cfg, dir, &["--jobs", "auto"]);
    drop(hogs);
    let peak = number_after(&out, "games at once: auto, up to ");
    assert!(peak >= 4 * cores(), "auto reached only {peak}:\n{out}");
    assert_eq!(forfeits(dir), Vec::<String>::new());
    assert!(!err.contains("oversubscribed"), "{err}");
}

/// The stderr of a season of bots that compute 20 ms a move, four games
/// per core, for about 3 s, beside `others` busy loops.
fn spinning_season(others: usize) -> String {
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path();
    let bots = [("a", "--spin 20"), ("b", "--spin 20")];
    let jobs = 4 * cores();
    let cfg = season(
        dir,
        &bots,
        4 * jobs as u32,
        "move_time_ms = 5000\n[season.params]\nrounds = 4",
    );
    let hogs = busy_loops(others);
    let (_, err) = run(&cfg, dir, &["--jobs", &jobs.to_string()]);
    drop(hogs);
    err
}

#[test]
fn a_machine_kept_busy_by_the_bots_is_reported_oversubscribed() {
    let _one = one_at_a_time();
    let err = spinning_season(0);
    assert!(
        err.contains("warning: the machine was oversubscribed: its "),
        "{err}"
    );
    assert!(err.contains("lower --jobs (or use --jobs auto)"), "{err}");
}

#[test]
fn bots_kept_waiting_beside_other_work_are_reported_oversubscribed() {
    let _one = one_at_a_time();
    // a busy loop per core beside ladder: its bots get only part of the
    // cores, yet they wait for one all the more
    let err = spinning_season(cores());
    assert!(
        err.contains("warning: the machine was oversubscribed: its "),
        "{err}"
    );
    // what ladder's own work took is told apart
    assert!(
        err.contains("% with ladder's games, so bots waited"),
        "{err}"
    );
}

/// Shell loops that keep a core busy each, stopped when dropped (a failing
/// test leaves none behind).
struct BusyLoops(Vec<std::process::Child>);

fn busy_loops(n: usize) -> BusyLoops {
    BusyLoops(
        (0..n)
            .map(|_| {
                std::process::Command::new("sh")
                    .args(["-c", "while :; do :; done"])
                    .spawn()
                    .unwrap()
            })
            .collect(),
    )
}

impl Drop for BusyLoops {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
