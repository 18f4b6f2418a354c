//! Seasons split into shards that run as plain processes, merged: the merged
//! journal and reports are byte for byte a single machine's, at any number
//! of shards and any `--jobs`, with in-process and external bots, with a
//! sequential test, and after a shard was cut short and resumed. A missing
//! shard, a shard twice, a shard of another season, a shard cut short and a
//! game its rules do not give are each reported clearly, and nothing is
//! written. `--shard auto` reads
//! Slurm's and Kubernetes' variables.

use std::{
    fs,
    path::{Path, PathBuf},
};

use assert_cmd::Command;
use predicates::prelude::*;
use tempfile::TempDir;

mod common;
use common::SEASON_FILES as FILES;

fn ladder() -> Command {
    Command::cargo_bin("ladder").unwrap()
}

/// Two built-in bots of a troops season's config.
const TWO_BUILTINS: &str = r#"[[bot]]
name = "nash"
builtin = "nash"

[[bot]]
name = "random"
builtin = "random"
"#;

/// A troops season of built-in bots and the external test bot, in `dir`.
fn config(dir: &Path, extra: &str) -> PathBuf {
    let testbot = common::testbot();
    let text = format!(
        r#"
[season]
name = "s"
game = "troops"
games_per_pair = 30
seed = 9
sandbox = "none"
{extra}

{TWO_BUILTINS}
[[bot]]
name = "program"
command = ["{testbot}"]
"#
    );
    let path = dir.join("s.toml");
    fs::write(&path, text).unwrap();
    path
}

fn run(cfg: &Path, reports: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    ladder()
        .arg("run")
        .arg(cfg)
        .arg("--reports")
        .arg(reports)
        .arg("-q")
        .args(args)
        .assert()
}

fn files(dir: &Path) -> Vec<Vec<u8>> {
    FILES
        .iter()
        .map(|f| fs::read(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}")))
        .collect()
}

fn assert_same(a: &Path, b: &Path) {
    for (f, (x, y)) in FILES.iter().zip(files(a).iter().zip(&files(b))) {
        assert!(
            x == y,
            "{f} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

/// Runs every shard of `n` as its own process, then merges.
fn sharded(cfg: &Path, reports: &Path, n: u64, jobs: &str) {
    for k in 1..=n {
        run(
            cfg,
            reports,
            &["--shard", &format!("{k}/{n}"), "--jobs", jobs],
        )
        .success()
        .stdout(predicate::str::contains(format!(
            "Shard {k} of {n} of season s"
        )));
    }
    ladder()
        .arg("merge")
        .arg(reports.join("s"))
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "{n} shards merged: 90 games"
        )));
}

#[test]
fn merged_shards_are_byte_for_byte_a_single_machines_season() {
    let tmp = TempDir::new().unwrap();
    let cfg = config(tmp.path(), "");
    let one = tmp.path().join("one");
    run(&cfg, &one, &["--jobs", "2"]).success();
    for (n, jobs) in [(1, "1"), (3, "2"), (4, "5"), (7, "auto")] {
        let reports = tmp.path().join(format!("split{n}"));
        sharded(&cfg, &reports, n, jobs);
        assert_same(&one.join("s"), &reports.join("s"));
        // the merged season is complete: running the config again plays nothing
        run(&cfg, &reports, &[])
            .success()
            .stdout(predicate::str::contains("0 games played now, 90 resumed"));
        assert_same(&one.join("s"), &reports.join("s"));
    }
}

#[test]
fn a_shard_cut_short_resumes_and_the_merge_is_still_exact() {
    let tmp = TempDir::new().unwrap();
    let cfg = config(tmp.path(), "");
    let one = tmp.path().join("one");
    run(&cfg, &one, &[]).success();
    let reports = tmp.path().join("split");
    run(&cfg, &reports, &["--shard", "2/3", "--max-games", "7"])
        .success()
        .stdout(predicate::str::contains("7 of its 30 games are in"))
        .stdout(predicate::str::contains("ladder merge").not());
    // merging now names what shard 2 still owes, and shards 1 and 3
    ladder()
        .arg("merge")
        .arg(reports.join("s"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "shard 1 of 3 is missing: no folder shards/1-of-3 (its 30 games)",
        ))
        .stderr(predicate::str::contains(
            "shard 2 of 3 owes 23 games: 21-87 (its own games in those ranges)",
        ));
    assert!(!reports.join("s/games.jsonl").exists(), "nothing written");
    // verify takes a shard's folder, not the unmerged season's
    ladder()
        .arg("verify")
        .arg(reports.join("s"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "holds the shards of a season, not merged yet: `ladder merge ",
        ));
    ladder()
        .arg("verify")
        .arg(reports.join("s/shards/2-of-3"))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "7 games in schedule order and 0 pending, of 30 scheduled for shard 2 of 3",
        ));
    // and its report counts that shard's games
    ladder()
        .arg("report")
        .arg(reports.join("s/shards/2-of-3"))
        .assert()
        .success()
        .stdout(predicate::str::contains("(shard 2 of 3),"))
        .stdout(predicate::str::contains("7 of 30 games"));
    // a kill can cut a timing line short too; what follows starts anew
    let timing = |k: u64| reports.join(format!("s/shards/{k}-of-3/timing.jsonl"));
    let cut_short = |k: u64, text: &str| {
        let mut file = fs::OpenOptions::new().append(true).open(timing(k)).unwrap();
        std::io::Write::write_all(&mut file, text.as_bytes()).unwrap();
    };
    cut_short(2, "{\"index\":9");
    run(&cfg, &reports, &["--shard", "2/3"])
        .success()
        .stdout(predicate::str::contains("23 games played now, 7 resumed"));
    for k in [1, 3] {
        run(&cfg, &reports, &["--shard", &format!("{k}/3")]).success();
    }
    // a shard's games out of its order fail its verify
    let copy = tmp.path().join("copy/3-of-3");
    copy_dir(&reports.join("s/shards/3-of-3"), &copy);
    let journal = fs::read_to_string(copy.join("games.jsonl")).unwrap();
    let mut lines: Vec<&str> = journal.lines().collect();
    lines.swap(0, 1);
    fs::write(copy.join("games.jsonl"), lines.join("\n") + "\n").unwrap();
    ladder()
        .arg("verify")
        .arg(&copy)
        .assert()
        .code(predicate::ne(0))
        .stderr(predicate::str::contains(
            "games.jsonl:1: not a game record: game 5: out of schedule order: line 1 should hold game 4",
        ));
    // and the merge copies whole timing lines only
    cut_short(1, "{\"ind");
    ladder()
        .arg("merge")
        .arg(reports.join("s"))
        .assert()
        .success();
    assert_same(&one.join("s"), &reports.join("s"));
    let merged = fs::read_to_string(reports.join("s/timing.jsonl")).unwrap();
    let games = fs::read_to_string(reports.join("s/games.jsonl")).unwrap();
    assert_eq!(merged.lines().count(), games.lines().count(), "{merged}");
    for line in merged.lines() {
        let timing: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(timing["ms"].is_number(), "{line}");
    }
}

#[test]
fn a_sequential_test_stops_the_merged_season_where_one_machine_stops() {
    let tmp = TempDir::new().unwrap();
    let text = format!(
        r#"
[season]
name = "s"
game = "troops"
games_per_pair = 400
seed = 4
[season.sprt]
elo0 = 0
elo1 = 50

{TWO_BUILTINS}"#
    );
    let cfg = tmp.path().join("s.toml");
    fs::write(&cfg, text).unwrap();
    let one = tmp.path().join("one");
    run(&cfg, &one, &[]).success();
    let decided = fs::read_to_string(one.join("s/games.jsonl"))
        .unwrap()
        .lines()
        .count();
    assert!(decided < 400, "the test decided after {decided} games");
    let reports = tmp.path().join("split");
    for k in 1..=3 {
        run(&cfg, &reports, &["--shard", &format!("{k}/3")]).success();
    }
    ladder()
        .arg("merge")
        .arg(reports.join("s"))
        .assert()
        .success();
    assert_same(&one.join("s"), &reports.join("s"));
}

/// Three shards of the season played in `reports`, not merged.
fn three_shards(tmp: &Path, reports: &Path) -> PathBuf {
    let cfg = config(tmp, "");
    for k in 1..=3 {
        run(&cfg, reports, &["--shard", &format!("{k}/3")]).success();
    }
    reports.join("s")
}

fn merge_fails(season: &Path, says: &str) {
    ladder()
        .arg("merge")
        .arg(season)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(says));
    for f in FILES.iter().filter(|f| **f != "season.json") {
        assert!(!season.join(f).exists(), "{f} was written");
    }
}

#[test]
fn broken_sets_of_shards_are_refused_and_nothing_is_written() {
    let tmp = TempDir::new().unwrap();

    let missing = three_shards(tmp.path(), &tmp.path().join("missing"));
    fs::remove_dir_all(missing.join("shards/2-of-3")).unwrap();
    merge_fails(
        &missing,
        "shard 2 of 3 is missing: no folder shards/2-of-3 (its 30 games)",
    );

    let twice = three_shards(tmp.path(), &tmp.path().join("twice"));
    copy_dir(&twice.join("shards/2-of-3"), &twice.join("shards/02-of-3"));
    merge_fails(&twice, "shard 2 of 3 comes twice: ");

    // a folder under shards/ that is not named K-of-N is refused, named,
    // by merge, and by verify when it holds a shard.json
    let misnamed = three_shards(tmp.path(), &tmp.path().join("misnamed"));
    let copy = misnamed.join("shards/backup");
    copy_dir(&misnamed.join("shards/2-of-3"), &copy);
    merge_fails(
        &misnamed,
        "shards/backup: not a shard's folder (shards are named K-of-N",
    );
    ladder()
        .arg("verify")
        .arg(&copy)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "shards/backup: not a shard's folder (shards are named K-of-N",
        ));

    let foreign = three_shards(tmp.path(), &tmp.path().join("foreign"));
    let other = config(tmp.path(), "max_plies = 500");
    let elsewhere = tmp.path().join("elsewhere");
    run(&other, &elsewhere, &["--shard", "3/3"]).success();
    fs::remove_dir_all(foreign.join("shards/3-of-3")).unwrap();
    copy_dir(
        &elsewhere.join("s/shards/3-of-3"),
        &foreign.join("shards/3-of-3"),
    );
    merge_fails(&foreign, "belongs to another season than ");
    merge_fails(&foreign, "(changed: max_plies)");

    let short = three_shards(tmp.path(), &tmp.path().join("short"));
    let journal = short.join("shards/1-of-3/games.jsonl");
    let text = fs::read_to_string(&journal).unwrap();
    let kept: Vec<&str> = text.lines().take(20).collect();
    fs::write(&journal, kept.join("\n") + "\n").unwrap();
    merge_fails(
        &short,
        "shard 1 of 3 owes 10 games: 60-85 (its own games in those ranges)",
    );

    let mixed = three_shards(tmp.path(), &tmp.path().join("mixed"));
    let cfg = config(tmp.path(), "");
    run(&cfg, &tmp.path().join("mixed"), &["--shard", "1/2"]).success();
    merge_fails(&mixed, "merge shards of one split only");

    let doubled = three_shards(tmp.path(), &tmp.path().join("doubled"));
    let journal = doubled.join("shards/3-of-3/games.jsonl");
    let mut text = fs::read_to_string(&journal).unwrap();
    let first = text.lines().next().unwrap().to_string();
    text.push_str(&(first + "\n"));
    fs::write(&journal, text).unwrap();
    merge_fails(
        &doubled,
        "games.jsonl:31: game 4 comes twice, or out of schedule order",
    );

    // a shard's journal comes from another machine: its games are replayed,
    // not only read, so a record that adds up but is not what the rules
    // give is refused
    let edit_first_game = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let season = three_shards(tmp.path(), &tmp.path().join(name));
        let journal = season.join("shards/2-of-3/games.jsonl");
        let text = fs::read_to_string(&journal).unwrap();
        let (first, rest) = text.split_once('\n').unwrap();
        let mut game: serde_json::Value = serde_json::from_str(first).unwrap();
        edit(&mut game);
        fs::write(&journal, format!("{game}\n{rest}")).unwrap();
        season
    };
    let illegal = edit_first_game("illegal", &|g| g["moves"][0][0] = "10,0,1".into());
    merge_fails(
        &illegal,
        "shards/2-of-3/games.jsonl:1: not a game record: game 2: turn 1: 10,0,1 by the first seat: split 10,0,1 sums to 11, not 10; nothing was written",
    );
    // the goals and result swapped: they agree with each other, not the moves
    let swapped = edit_first_game("swapped", &|g| {
        let goals = g["goals"].as_array().unwrap().clone();
        assert_ne!(goals[0], goals[1], "the game is not drawn");
        g["goals"] = serde_json::json!([goals[1], goals[0]]);
        g["result"] = if g["result"] == "first" {
            "second"
        } else {
            "first"
        }
        .into();
    });
    merge_fails(&swapped, "game 2: goals [");
    merge_fails(&swapped, "but the game gives [");

    // parameters that make no game: the file that holds them is named
    let params = three_shards(tmp.path(), &tmp.path().join("params"));
    for k in 1..=3 {
        let season = params.join(format!("shards/{k}-of-3/season.json"));
        let text = fs::read_to_string(&season).unwrap();
        assert!(text.contains(r#""troops": 10"#), "{text}");
        fs::write(&season, text.replace(r#""troops": 10"#, r#""troops": "x""#)).unwrap();
    }
    merge_fails(&params, "shards/1-of-3/season.json: no valid `params`");
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(entry.file_name()));
        } else {
            fs::copy(&path, to.join(entry.file_name())).unwrap();
        }
    }
}

#[test]
fn shard_auto_reads_slurm_and_kubernetes_variables() {
    let tmp = TempDir::new().unwrap();
    let cfg = config(tmp.path(), "");
    let reports = tmp.path().join("r");
    let auto = |vars: &[(&str, &str)]| {
        let mut cmd = ladder();
        cmd.env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("JOB_COMPLETION_INDEX")
            .arg("run")
            .arg(&cfg)
            .arg("--reports")
            .arg(&reports)
            .args(["-q", "--shard", "auto"]);
        for (k, v) in vars {
            cmd.env(k, v);
        }
        cmd.assert()
    };
    auto(&[
        ("SLURM_ARRAY_TASK_ID", "11"),
        ("SLURM_ARRAY_TASK_MIN", "10"),
        ("SLURM_ARRAY_TASK_MAX", "12"),
    ])
    .success()
    .stdout(predicate::str::contains("Shard 2 of 3 of season s"));
    assert!(reports.join("s/shards/2-of-3/shard.json").exists());
    auto(&[("JOB_COMPLETION_INDEX", "0"), ("LADDER_SHARDS", "3")])
        .success()
        .stdout(predicate::str::contains("Shard 1 of 3 of season s"));
    auto(&[]).code(2).stderr(predicate::str::contains(
        "--shard auto: no scheduler's variables found",
    ));
    auto(&[("JOB_COMPLETION_INDEX", "0")])
        .code(2)
        .stderr(predicate::str::contains("LADDER_SHARDS is not"));
    ladder()
        .args(["run", "x.toml", "--shard", "5/4"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a shard is K/N with 1 <= K <= N, got 5/4",
        ));
}

/// Every file under `dir`, by its path below it, except the shards and timing.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    common::files_under(dir)
        .into_iter()
        .filter(|(path, _)| {
            !path
                .iter()
                .any(|part| part == "shards" || part == "timing.jsonl")
        })
        .collect()
}

#[test]
fn a_ladder_season_in_shards_ends_as_on_one_machine() {
    let testbot = common::testbot();
    let tmp = TempDir::new().unwrap();
    let text = format!(
        r#"
[season]
name = "lad"
game = "troops"
games_per_pair = 10
seed = 3

[ladder]
divisions = 2
promote = 1
relegate = 1

{TWO_BUILTINS}
[[bot]]
name = "program"
command = ["{testbot}"]
sandbox = "none"

[[bot]]
name = "uniform"
builtin = "random"
"#
    );
    let cfg = tmp.path().join("lad.toml");
    fs::write(&cfg, text).unwrap();
    let season = |reports: &Path, args: &[&str]| {
        ladder()
            .arg("season")
            .arg(&cfg)
            .arg("--reports")
            .arg(reports)
            .arg("-q")
            .args(args)
            .assert()
    };
    let (one, split) = (tmp.path().join("one"), tmp.path().join("split"));
    season(&one, &[]).success();
    for k in 1..=3 {
        season(&split, &["--shard", &format!("{k}/3")])
            .success()
            .stdout(predicate::str::contains(
                "When every shard of season 1 is done: ladder merge ",
            ));
    }
    assert!(
        !split.join("lad/ladder.json").exists(),
        "shards leave the ladder alone"
    );
    ladder()
        .arg("merge")
        .arg(split.join("lad"))
        .assert()
        .success()
        .stdout(predicate::str::contains("3 shards merged"));
    season(&split, &[])
        .success()
        .stdout(predicate::str::contains("Season 1 complete."));
    assert_eq!(tree(&one.join("lad")), tree(&split.join("lad")));
}
