//! Whatever order of interruptions a season meets (SIGTERM, SIGINT,
//! `kill -9` at any moment, runs cut short by `--max-games`), the journal on
//! disk verifies after each one, and the season finished at the end is the
//! uninterrupted season byte for byte. A season folder is run by one ladder
//! at a time, and commands that only read it never change its journal and
//! count each of its games once. Its reports reach the disk before their
//! names do, so a power cut leaves each old or new.

use std::{
    fs,
    path::Path,
    process::{Command as StdCommand, Stdio},
    time::Duration,
};

use assert_cmd::Command;
use predicates::prelude::*;
use rand::{Rng, SeedableRng};

mod common;
use common::Edit;

const CONFIG: &str = r#"[season]
name = "resume"
game = "breakthrough"
games_per_pair = 20
seed = 7
jobs = 8

[[bot]]
name = "greedy"
builtin = "greedy"

[[bot]]
name = "search"
builtin = "search"
params = { nodes = 20000 }

[[bot]]
name = "random"
builtin = "random"
"#;

fn ladder() -> Command {
    Command::cargo_bin("ladder").unwrap()
}

/// `ladder run resume.toml -q EXTRA...` in `tmp`.
fn run_in(tmp: &Path, extra: &[&str]) -> Command {
    let mut cmd = ladder();
    cmd.current_dir(tmp)
        .args(["run", "resume.toml", "-q"])
        .args(extra);
    cmd
}

fn project() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("resume.toml"), CONFIG).unwrap();
    tmp
}

/// `ladder verify` of the season in `dir` passes, if it has a journal yet.
fn verifies(dir: &Path, after: &str) {
    if !dir.join("games.jsonl").exists() && !dir.join("games.jsonl.zst").exists() {
        return;
    }
    let out = ladder().arg("verify").arg(dir).output().unwrap();
    assert!(
        out.status.success(),
        "after {after}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Starts the season, waits `ms`, then sends `signal` (or waits for the end).
fn run_then(tmp: &Path, ms: u64, signal: Option<rustix::process::Signal>) {
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_ladder"))
        .current_dir(tmp)
        .args(["run", "resume.toml", "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(ms));
    if let Some(signal) = signal {
        let pid = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
        let _ = rustix::process::kill_process(pid, signal);
    }
    child.wait().unwrap();
}

#[test]
fn the_journal_verifies_after_any_sequence_of_interruptions_and_max_games_runs() {
    use rustix::process::Signal;
    let whole = project();
    run_in(whole.path(), &[]).assert().success();
    let expected = fs::read(whole.path().join("reports/resume/games.jsonl")).unwrap();

    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(25);
    for round in 0..4 {
        let tmp = project();
        let dir = tmp.path().join("reports/resume");
        let mut done = Vec::new();
        for _ in 0..6 {
            let step = match rng.random_range(0..4) {
                0 => {
                    let n = rng.random_range(1..4u32).to_string();
                    run_in(tmp.path(), &["--max-games", &n]).assert().success();
                    format!("--max-games {n}")
                }
                kind => {
                    let ms = rng.random_range(100..1500u64);
                    let signal = [Signal::TERM, Signal::INT, Signal::KILL][kind - 1];
                    run_then(tmp.path(), ms, Some(signal));
                    format!("{signal:?} after {ms} ms")
                }
            };
            done.push(step);
            verifies(&dir, &format!("round {round}: {}", done.join(", ")));
        }
        run_in(tmp.path(), &[]).assert().success();
        verifies(&dir, "the last run");
        let journal = fs::read(dir.join("games.jsonl")).unwrap();
        assert!(
            journal == expected,
            "round {round} ({}) ends in another journal",
            done.join(", ")
        );
        assert!(!dir.join("pending.jsonl").exists());
    }
}

#[test]
fn a_season_run_twice_at_once_is_refused_naming_the_other_ladder() {
    let tmp = project();
    let slow = CONFIG.edit("games_per_pair = 20", "games_per_pair = 400");
    fs::write(tmp.path().join("resume.toml"), slow).unwrap();
    let mut first = StdCommand::new(env!("CARGO_BIN_EXE_ladder"))
        .current_dir(tmp.path())
        .args(["run", "resume.toml", "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lock = tmp.path().join("reports/resume/.lock");
    for _ in 0..600 {
        if fs::read_to_string(&lock).is_ok_and(|t| t.ends_with('\n')) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let second = run_in(tmp.path(), &[]).output().unwrap();
    let _ = first.kill();
    first.wait().unwrap();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "being run by another ladder (process {})",
            first.id()
        )),
        "{stderr}"
    );
    // the first one's kill -9 left its lock file, which holds nobody
    run_in(tmp.path(), &["--max-games", "2"]).assert().success();
}

#[test]
fn a_damaged_season_file_is_refused_with_advice_that_keeps_the_games() {
    let tmp = project();
    run_in(tmp.path(), &["--max-games", "5"]).assert().success();
    let dir = tmp.path().join("reports/resume");
    // what a kill in the middle of a rewrite in place left behind
    fs::write(dir.join("season.json"), "").unwrap();
    run_in(tmp.path(), &[]).assert().code(2).stderr(
        predicate::str::contains("season.json").and(predicate::str::contains("--fresh").not()),
    );
    assert_eq!(common::journal_indices(&dir.join("games.jsonl")).len(), 5);
}

/// Rewrites game line `n` (from 1) of the journal at `path` with `edit`.
fn tamper(path: &Path, n: usize, edit: impl Fn(&mut serde_json::Value)) {
    let text = fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut game: serde_json::Value = serde_json::from_str(&lines[n - 1]).unwrap();
    edit(&mut game);
    lines[n - 1] = game.to_string();
    fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn resume_refuses_a_journal_that_verify_rejects_at_its_line() {
    type Edit = fn(&mut serde_json::Value);
    // (a line whose two seeds disagree, or whose pair is not its game's, is
    // no game record: code 1, as for a line that is not JSON; the others
    // are records of another season: 2)
    let edits: [(&str, Edit); 6] = [
        ("outside the game's 0..=100", |g| {
            g["goals"] = serde_json::json!([9999, 100])
        }),
        ("but its termination gives", |g| {
            g["result"] = serde_json::json!(if g["result"] == "first" {
                "second"
            } else {
                "first"
            })
        }),
        ("does not match the schedule", |g| {
            let seed = g["seed"].as_u64().unwrap() ^ 1;
            g["seed"] = serde_json::json!(seed);
            g["seed_text"] = serde_json::json!(seed.to_string());
        }),
        ("one of them was edited", |g| {
            g["seed"] = serde_json::json!(g["seed"].as_u64().unwrap() ^ 1)
        }),
        ("pair 7, but the schedule has", |g| {
            g["pair"] = serde_json::json!(7)
        }),
        ("expected usize", |g| g["pair"] = serde_json::json!([])),
    ];
    for (says, edit) in edits {
        let tmp = project();
        run_in(tmp.path(), &["--max-games", "6"]).assert().success();
        let journal = tmp.path().join("reports/resume/games.jsonl");
        tamper(&journal, 4, edit);
        let before = fs::read(&journal).unwrap();
        let code = if ["one of them was edited", "expected usize"].contains(&says)
            || says.starts_with("pair")
        {
            1
        } else {
            2
        };
        run_in(tmp.path(), &[])
            .assert()
            .code(code)
            .stderr(predicate::str::contains("games.jsonl:4:").and(predicate::str::contains(says)));
        assert_eq!(fs::read(&journal).unwrap(), before, "nothing was written");
    }
}

#[test]
fn merge_refuses_a_shard_journal_that_verify_rejects_at_its_line() {
    let tmp = project();
    let small = CONFIG.edit("games_per_pair = 20", "games_per_pair = 4");
    fs::write(tmp.path().join("resume.toml"), small).unwrap();
    for k in ["1/2", "2/2"] {
        run_in(tmp.path(), &["--shard", k]).assert().success();
    }
    let shard = tmp.path().join("reports/resume/shards/1-of-2/games.jsonl");
    let clean = fs::read(&shard).unwrap();
    type Edit = fn(&mut serde_json::Value);
    // (a shard's games are replayed: goals out of range are goals the moves
    // do not give)
    let edits: [(&str, i32, Edit); 3] = [
        ("goals [9999, 100], but the game gives", 2, |g| {
            g["goals"] = serde_json::json!([9999, 100])
        }),
        ("pair 7, but the schedule has", 2, |g| {
            g["pair"] = serde_json::json!(7)
        }),
        ("expected usize", 2, |g| g["pair"] = serde_json::json!("0")),
    ];
    for (says, code, edit) in edits {
        fs::write(&shard, &clean).unwrap();
        tamper(&shard, 2, edit);
        ladder()
            .current_dir(tmp.path())
            .args(["merge", "reports/resume"])
            .assert()
            .code(code)
            .stderr(
                predicate::str::contains("1-of-2/games.jsonl:2:")
                    .and(predicate::str::contains(says)),
            );
        assert!(!tmp.path().join("reports/resume/games.jsonl").exists());
    }
}

#[test]
fn commands_that_read_a_season_leave_a_line_being_written_as_it_is() {
    let tmp = project();
    run_in(tmp.path(), &["--max-games", "6"]).assert().success();
    let dir = tmp.path().join("reports/resume");
    let journal = dir.join("games.jsonl");
    // game 6's line begun, as the season's ladder leaves it for a moment
    // while writing it (or a crash, for good)
    let mut writing = fs::read(&journal).unwrap();
    writing.extend_from_slice(br#"{"index":6,"pair":"#);
    fs::write(&journal, &writing).unwrap();
    let reads: [&[&str]; 5] = [
        &["verify"],
        &["report"],
        &["report", "--replays"],
        &["export", "--format", "csv"],
        &["replay", "--game", "5"],
    ];
    for args in reads {
        let out = ladder().args(args).arg(&dir).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            fs::read(&journal).unwrap(),
            writing,
            "{args:?} changed the journal of a season it only reads"
        );
    }
    ladder()
        .arg("verify")
        .arg(&dir)
        .assert()
        .stdout(predicate::str::contains("6 games in schedule order"));
    // the resume holds the season: it cuts the line off and plays game 6
    run_in(tmp.path(), &[]).assert().success();
    verifies(&dir, "the resume");
    let text = fs::read_to_string(&journal).unwrap();
    assert_eq!(text.lines().count(), 60, "every game once");
}

/// A season of its first six games: its project, its folder and its
/// `games.jsonl`.
fn six_games() -> (tempfile::TempDir, std::path::PathBuf, String) {
    let tmp = project();
    run_in(tmp.path(), &["--max-games", "6"]).assert().success();
    let dir = tmp.path().join("reports/resume");
    let journal = fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 6);
    (tmp, dir, journal)
}

#[test]
fn a_game_in_both_files_of_an_interrupted_season_is_reported_once() {
    let (tmp, dir, journal) = six_games();
    let lines: Vec<&str> = journal.lines().collect();
    // games 4 and 5 finished ahead of their turn, then their turn came: a
    // kill leaves them in pending.jsonl as well as in games.jsonl
    fs::write(dir.join("pending.jsonl"), lines[4..].join("\n") + "\n").unwrap();
    ladder()
        .arg("report")
        .arg(&dir)
        .assert()
        .success()
        .stdout(predicate::str::contains("6 of 60 games"));
    let standings: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.join("standings.json")).unwrap()).unwrap();
    let games: u64 = standings["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["games"].as_u64().unwrap())
        .sum();
    assert_eq!(
        games,
        2 * 6,
        "each game counts once for each of its two bots"
    );
    // and the resume plays the season on from there
    run_in(tmp.path(), &[]).assert().success();
    verifies(&dir, "the resume");
}

#[test]
fn every_command_that_reads_an_interrupted_season_sees_its_pending_games_once() {
    let (tmp, dir, journal) = six_games();
    let lines: Vec<&str> = journal.lines().collect();
    // as a kill leaves it: games 5 and 4 finished ahead of game 3's turn,
    // which came (game 3 in both files), theirs did not
    fs::write(dir.join("games.jsonl"), lines[..4].join("\n") + "\n").unwrap();
    fs::write(
        dir.join("pending.jsonl"),
        [lines[5], lines[3], lines[4]].join("\n") + "\n",
    )
    .unwrap();
    let out = |args: &[&str]| {
        let output = ladder().args(args).arg(&dir).output().unwrap();
        assert!(output.status.success(), "{args:?}: {output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    assert!(out(&["verify"]).contains("4 games in schedule order and 2 pending, of 60"));
    let csv = out(&["export", "--format", "csv"]);
    let indexes: Vec<&str> = csv.lines().skip(1).map(|row| &row[..1]).collect();
    assert_eq!(indexes, ["0", "1", "2", "3", "5", "4"], "{csv}");
    let pgn = out(&["export", "--format", "pgn"]);
    assert_eq!(pgn.matches("[Round ").count(), 6, "{pgn}");
    for game in ["4", "5"] {
        let replay = out(&["replay", "--game", game]);
        assert!(replay.contains(&format!("Game {game}")), "{replay}");
    }
    out(&["report", "--replays"]);
    for game in 0..6 {
        assert!(dir.join(format!("replays/{game}.html")).is_file(), "{game}");
    }
    run_in(tmp.path(), &[]).assert().success();
    verifies(&dir, "the resume");
}

/// Whether strace runs here (see [`common::require_tool`]).
fn strace_runs() -> bool {
    let ok = StdCommand::new("strace")
        .args(["-o", "/dev/null", "true"])
        .status()
        .is_ok_and(|s| s.success());
    common::require_tool(ok, "strace", "strace")
}

/// The system calls that put files on disk, by name, in the order a run of
/// `ladder run resume.toml -q` in `tmp` made them (`strace -f -y`: each
/// descriptor with its file's path).
fn disk_calls(tmp: &Path) -> Vec<String> {
    let trace = tmp.join("trace");
    let status = StdCommand::new("strace")
        .current_dir(tmp)
        .args(["-f", "-y", "-qq", "-o"])
        .arg(&trace)
        .args([
            "-e",
            "trace=fdatasync,fsync,sync_file_range,rename,renameat,renameat2",
        ])
        .arg(env!("CARGO_BIN_EXE_ladder"))
        .args(["run", "resume.toml", "-q"])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    fs::read_to_string(trace)
        .unwrap()
        .lines()
        .filter(|l| l.contains('('))
        .map(|l| {
            l.split_once(' ')
                .map_or(l, |(_, call)| call)
                .trim()
                .to_string()
        })
        .collect()
}

/// Where in `calls` the first call starting with `call` and naming `file`
/// is.
fn at(calls: &[String], call: &str, file: &str) -> usize {
    calls
        .iter()
        .position(|c| c.starts_with(call) && c.contains(file))
        .unwrap_or_else(|| panic!("no {call} of {file} in {calls:#?}"))
}

#[test]
fn a_seasons_reports_start_to_disk_together_and_each_is_there_before_its_name() {
    if !strace_runs() {
        return;
    }
    let tmp = project();
    let calls = disk_calls(tmp.path());
    let mut started = Vec::new();
    let mut flushed = Vec::new();
    let mut named = Vec::new();
    for report in &common::SEASON_FILES[2..] {
        let tmp = format!("/reports/resume/.{report}.tmp>");
        started.push(at(&calls, "sync_file_range(", &tmp));
        flushed.push(at(&calls, "fdatasync(", &tmp));
        named.push(at(
            &calls,
            "rename(",
            &format!("\"reports/resume/{report}\""),
        ));
    }
    // every report's writing started before any is waited for, so their
    // flushes wait for one commit of the file system together
    let last_start = started.iter().max().unwrap();
    assert!(flushed.iter().all(|f| f > last_start), "{calls:#?}");
    // each on disk before its name is given, the folder synced after the last
    let last_flush = flushed.iter().max().unwrap();
    assert!(named.iter().all(|n| n > last_flush), "{calls:#?}");
    let folder = calls
        .iter()
        .rposition(|c| c.starts_with("fsync(") && c.ends_with("/reports/resume>) = 0"))
        .unwrap_or_else(|| panic!("the folder is never synced: {calls:#?}"));
    assert!(named.iter().all(|&n| n < folder), "{calls:#?}");
    verifies(&tmp.path().join("reports/resume"), "the season");
}
