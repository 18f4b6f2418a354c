//! `[season.openings]` end to end: games start from openings, each played
//! by a colour-swapped pair of games; the journal records each game's
//! opening, and `verify` and `replay` start from it.

use std::{fs, path::Path};

use assert_cmd::Command;
use tempfile::TempDir;

mod common;
use common::Edit;

fn run(dir: &Path, config: &str, args: &[&str]) -> assert_cmd::assert::Assert {
    let path = dir.join("o.toml");
    fs::write(&path, config).unwrap();
    common::run(&path, &dir.join("reports"), &[&["-q"], args].concat())
}

fn journal(dir: &Path) -> Vec<serde_json::Value> {
    common::season_games(&dir.join("reports/o"))
}

const RANDOM_PLIES: &str = r#"
[season]
game = "breakthrough"
games_per_pair = 6

[season.openings]
random_plies = 4

[[bot]]
name = "greedy"
builtin = "greedy"

[[bot]]
name = "random"
builtin = "random"
"#;

#[test]
fn random_openings_are_played_from_both_seats_and_journaled() {
    let tmp = TempDir::new().unwrap();
    run(tmp.path(), RANDOM_PLIES, &["-j", "1"]).success();
    let games = journal(tmp.path());
    assert_eq!(games.len(), 6);
    let start = "side white board bbbbbbbbbbbbbbbb................................wwwwwwwwwwwwwwww";
    let mut openings = Vec::new();
    for pair in games.chunks(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert_eq!(
            a["opening"], b["opening"],
            "one opening per colour-swapped pair"
        );
        assert_eq!(a["seats"][0], b["seats"][1], "seats swapped");
        let o = a["opening"].as_str().unwrap().to_string();
        assert_ne!(o, start);
        // four plies from the start: white to move again, four pieces moved
        assert!(o.starts_with("side white board "), "{o}");
        openings.push(o);
    }
    openings.dedup();
    assert_eq!(openings.len(), 3, "every pair a new opening");
    let rel = "reports/o";
    common::assert_verified(&tmp.path().join(rel));
    let out = Command::cargo_bin("ladder")
        .unwrap()
        .args(["replay", rel, "--game", "3"])
        .current_dir(tmp.path())
        .assert()
        .success();
    let shown = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        shown.contains(&format!(
            ", from the opening `{}`",
            games[3]["opening"].as_str().unwrap()
        )),
        "{shown}"
    );
    // the same games at any --jobs
    let other = TempDir::new().unwrap();
    run(other.path(), RANDOM_PLIES, &["-j", "3"]).success();
    assert_eq!(
        fs::read_to_string(other.path().join("reports/o/games.jsonl")).unwrap(),
        fs::read_to_string(tmp.path().join("reports/o/games.jsonl")).unwrap()
    );
}

#[test]
fn a_file_of_openings_is_played_in_order_per_pair() {
    let tmp = TempDir::new().unwrap();
    fs::write(
        tmp.path().join("bidding.txt"),
        "# two bidding positions\nposition 3 money 40 60 advantage 2\n\nposition 7 money 100 20 advantage 1\n",
    )
    .unwrap();
    let config = r#"
[season]
game = "bidding"
games_per_pair = 8

[season.openings]
file = "bidding.txt"
per_pair = 2

[[bot]]
name = "dp"
builtin = "dp"

[[bot]]
name = "random"
builtin = "random"
"#;
    run(tmp.path(), config, &[]).success();
    let games = journal(tmp.path());
    let want = [
        "position 3 money 40 60 advantage 2",
        "position 7 money 100 20 advantage 1",
    ];
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["opening"], want[(i / 2) % 2], "game {i}");
    }
    common::assert_verified(&tmp.path().join("reports/o"));
    let season = fs::read_to_string(tmp.path().join("reports/o/season.json")).unwrap();
    assert!(season.contains("\"order\": \"sequential\""), "{season}");

    // a changed file is a changed season: resume refuses it
    fs::write(
        tmp.path().join("bidding.txt"),
        "position 4 money 40 60 advantage 2\n",
    )
    .unwrap();
    let path = tmp.path().join("o.toml");
    Command::cargo_bin("ladder")
        .unwrap()
        .args(["run", path.to_str().unwrap(), "--reports"])
        .arg(tmp.path().join("reports"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("openings"));
}

#[test]
fn an_opening_may_be_the_moves_played_from_the_first_position() {
    let tmp = TempDir::new().unwrap();
    fs::write(
        tmp.path().join("moves.txt"),
        "moves b2b3 g7g6 c2c3 g6g5\nmoves h2h3\n",
    )
    .unwrap();
    let config = RANDOM_PLIES
        .edit("games_per_pair = 6", "games_per_pair = 4")
        .edit("random_plies = 4", "file = \"moves.txt\"");
    run(tmp.path(), &config, &[]).success();
    let games = journal(tmp.path());
    // journaled as the positions the moves reach
    use ladder::{BySeat, Game};
    let mut g = ladder::games::Breakthrough::new(&Default::default()).unwrap();
    for (k, m) in ["b2b3", "g7g6", "c2c3", "g6g5"].iter().enumerate() {
        let mv = Some(m.parse().unwrap());
        g.apply(&if k % 2 == 0 {
            BySeat::new(mv, None)
        } else {
            BySeat::new(None, mv)
        });
    }
    assert_eq!(games[0]["opening"], g.position());
    assert_eq!(games[1]["opening"], g.position());
    assert!(games[2]["opening"]
        .as_str()
        .unwrap()
        .starts_with("side black board "));

    // an illegal or malformed turn names the line and the turn
    for (line, says) in [
        ("moves b2b3 b2b3", "moves.txt:1: turn 2 `b2b3`"),
        (
            "moves b2b3 zz",
            "moves.txt:1: turn 2 `zz`: a move is two squares",
        ),
    ] {
        fs::write(tmp.path().join("moves.txt"), format!("{line}\n")).unwrap();
        run(tmp.path(), &config, &["--fresh"])
            .code(2)
            .stderr(predicates::str::contains(says));
    }
}

#[test]
fn bad_openings_name_the_file_and_line() {
    let tmp = TempDir::new().unwrap();
    fs::write(
        tmp.path().join("bad.txt"),
        "position 5 money 10 10 advantage 1\nposition 11 money 1 1 advantage 1\n",
    )
    .unwrap();
    fs::write(tmp.path().join("empty.txt"), "# nothing yet\n").unwrap();
    let base = "[season]\ngame = \"bidding\"\n\n[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n\n[[bot]]\nname = \"b\"\nbuiltin = \"random\"\n";
    for (table, says) in [
        (
            "file = \"bad.txt\"",
            "bad.txt:2: the bottle at 11 is off the line 0..=10",
        ),
        (
            "file = \"empty.txt\"",
            "empty.txt: the openings file holds no position",
        ),
        (
            "file = \"none.txt\"",
            "key `season.openings.file`: cannot read",
        ),
        (
            "file = \"bad.txt\"\nrandom_plies = 2",
            "[season.openings] takes either `file` or `random_plies`",
        ),
        (
            "random_plies = 2\norder = \"random\"",
            "`order` is for an openings `file`",
        ),
        (
            "file = \"bad.txt\"\norder = \"shuffled\"",
            "unknown order `shuffled`; known: sequential, random",
        ),
        (
            "random_plies = 2\nper_pair = 0",
            "per_pair must be at least 1",
        ),
    ] {
        let config = format!("{base}\n[season.openings]\n{table}\n");
        run(tmp.path(), &config, &[])
            .code(2)
            .stderr(predicates::str::contains(says));
    }
}

#[test]
fn a_season_with_openings_resumes_reports_and_merges_as_one_run() {
    // resuming, reporting and merging read each game's score from the
    // journal, whose lines in such a season carry the game's opening
    let tmp = TempDir::new().unwrap();
    let cfg = common::repo("configs/breakthrough-openings.toml");
    let at = |name: &str| tmp.path().join(name);
    let files = [
        "games.jsonl",
        "leaderboard.md",
        "standings.json",
        "index.html",
    ];
    let read = |dir: &Path| -> Vec<Vec<u8>> {
        let season = dir.join("breakthrough-openings");
        files
            .iter()
            .map(|f| fs::read(season.join(f)).unwrap())
            .collect()
    };
    common::run(&cfg, &at("one"), &["-q"]).success();
    // the same season in two runs, the second resuming the first
    common::run(&cfg, &at("two"), &["--max-games", "11", "-q"]).success();
    common::run(&cfg, &at("two"), &["-q"])
        .success()
        .stdout(predicates::str::contains(
            "89 games played now, 11 resumed from the journal",
        ));
    assert!(
        read(&at("one")) == read(&at("two")),
        "the resumed season differs"
    );
    // its reports rendered again from the journal
    common::ladder(tmp.path(), &["report", "two/breakthrough-openings"]);
    assert!(read(&at("one")) == read(&at("two")), "the report differs");
    // in two shards, merged
    for shard in ["1/2", "2/2"] {
        common::run(&cfg, &at("shards"), &["--shard", shard, "-q"]).success();
    }
    common::ladder(tmp.path(), &["merge", "shards/breakthrough-openings"]);
    let merged = fs::read(at("shards/breakthrough-openings/games.jsonl")).unwrap();
    assert!(merged == read(&at("one"))[0], "the merged journal differs");
}

#[test]
fn an_openings_file_saved_on_windows_is_read_as_written() {
    // a byte-order mark and CRLF line ends, as Windows editors save
    let tmp = TempDir::new().unwrap();
    let file = tmp.path().join("win.txt");
    fs::write(&file, "\u{feff}moves b2b3\r\n# a comment\r\nmoves g2g3\r\n").unwrap();
    Command::cargo_bin("ladder")
        .unwrap()
        .args(["match", "breakthrough", "random", "random", "--games", "4"])
        .arg("--openings")
        .arg(&file)
        .arg("--reports")
        .arg(tmp.path().join("reports"))
        .assert()
        .success();
    let games = common::season_games(
        &tmp.path()
            .join("reports/match-breakthrough-random-1-vs-random-2"),
    );
    let openings: Vec<&str> = games
        .iter()
        .map(|g| g["opening"].as_str().unwrap())
        .collect();
    assert_eq!(openings.len(), 4);
    assert_eq!(openings[0], openings[1]);
    assert_eq!(openings[2], openings[3]);
    assert_ne!(openings[0], openings[2]);
}

#[test]
fn a_line_of_megabytes_is_shown_in_part() {
    let tmp = TempDir::new().unwrap();
    let file = tmp.path().join("huge.txt");
    fs::write(&file, "b".repeat(3_000_000) + "\n").unwrap();
    let out = Command::cargo_bin("ladder")
        .unwrap()
        .args(["match", "breakthrough", "random", "random", "--openings"])
        .arg(&file)
        .arg("--reports")
        .arg(tmp.path().join("reports"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("huge.txt:1: a position is written"),
        "{stderr}"
    );
    assert!(stderr.contains("more characters)"), "{stderr}");
    assert!(stderr.len() < 2_000, "{} bytes of error", stderr.len());
}

#[test]
fn the_shipped_breakthrough_openings_are_what_their_command_makes_and_play() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = fs::read_to_string(root.join("configs/openings/breakthrough.txt")).unwrap();
    let command = file.lines().next().unwrap();
    let args: Vec<&str> = command
        .strip_prefix("# ladder ")
        .expect("the first line is the command that made the file")
        .split_whitespace()
        .collect();
    assert!(args.contains(&"--balanced"), "{command}");
    let out = Command::cargo_bin("ladder")
        .unwrap()
        .args(&args)
        .assert()
        .success();
    assert_eq!(
        String::from_utf8(out.get_output().stdout.clone()).unwrap(),
        file
    );
    let params = ladder::games::breakthrough::BreakthroughParams::default();
    let positions: Vec<&str> = file.lines().skip(1).collect();
    assert_eq!(positions.len(), 50);
    for p in &positions {
        use ladder::Game;
        let g = ladder::games::Breakthrough::from_position(&params, p).unwrap();
        assert_eq!(g.position(), *p);
    }
    let mut distinct = positions.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 50, "all different");

    // the shipped config plays them, and its journal checks out
    let tmp = TempDir::new().unwrap();
    Command::cargo_bin("ladder")
        .unwrap()
        .arg("run")
        .arg(root.join("configs/breakthrough-openings.toml"))
        .args(["-q", "--max-games", "6", "--reports"])
        .arg(tmp.path())
        .assert()
        .success();
    common::assert_verified(&tmp.path().join("breakthrough-openings"));
}

#[test]
fn openings_can_be_asked_for_only_where_they_exist() {
    // more different positions than the plies allow
    Command::cargo_bin("ladder")
        .unwrap()
        .args(["openings", "coordination", "--plies", "1", "--count", "3"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "could not find 3 different positions 1 plies deep",
        ));
    Command::cargo_bin("ladder")
        .unwrap()
        .args([
            "openings",
            "breakthrough",
            "--plies",
            "2",
            "--balanced",
            "--judge",
            "genius",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--judge: "));
}
