//! Ladder seasons end to end: the shipped ladder over three seasons, bots
//! joining, leaving and coming back with their ratings, promotion and
//! relegation, determinism, a season killed and finished, and bad configs.

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Command as StdCommand, Stdio},
    time::{Duration, Instant},
};

use assert_cmd::Command;
use predicates::prelude::*;
use tempfile::TempDir;

mod common;
use common::Edit;

fn ladder() -> Command {
    Command::cargo_bin("ladder").unwrap()
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `ladder season CONFIG` with reports under `reports`, from the repository.
fn season(config: &Path, reports: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    ladder()
        .current_dir(repo())
        .arg("season")
        .arg(config)
        .arg("--reports")
        .arg(reports)
        .arg("-q")
        .args(extra)
        .assert()
}

fn state(reports: &Path, name: &str) -> serde_json::Value {
    let text = fs::read_to_string(reports.join(name).join("ladder.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Where each active bot plays now.
fn divisions(state: &serde_json::Value) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = state["bots"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, b)| b["active"] == true)
        .map(|(n, b)| (n.clone(), b["division"].as_u64().unwrap()))
        .collect();
    v.sort();
    v
}

fn write_config(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("ladder.toml");
    fs::write(&path, text).unwrap();
    path
}

/// A two-division ladder of four bidding bots.
const BIDDERS: &str = include_str!("fixtures/bidders-ladder.toml");

#[test]
fn the_shipped_bidding_ladder_moves_bots_and_carries_ratings_over_three_seasons() {
    let tmp = TempDir::new().unwrap();
    let config = repo().join("configs/ladder-bidding.toml");
    let mut placements = Vec::new();
    for n in 1..=3 {
        season(&config, tmp.path(), &[])
            .success()
            .stdout(predicate::str::contains(format!("Season {n} complete.")))
            .stdout(predicate::str::contains(format!("after season {n}")));
        let s = state(tmp.path(), "ladder-bidding");
        assert_eq!(s["seasons"].as_array().unwrap().len(), n);
        assert!(s["current"].is_null());
        placements.push(divisions(&s));
        let last = &s["seasons"][n - 1];
        let moved = |word: &str| {
            last["divisions"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|d| d["results"].as_array().unwrap())
                .filter(|r| r["movement"] == word)
                .count()
        };
        assert_eq!((moved("up"), moved("down")), (1, 1), "season {n}: {last}");
        // ratings carried: every bot has one entry per season, each from the last
        for (name, bot) in s["bots"].as_object().unwrap() {
            assert_eq!(bot["history"].as_array().unwrap().len(), n, "{name}");
        }
        for d in 1..=2 {
            let dir = tmp
                .path()
                .join(format!("ladder-bidding/season-{n:03}/division-{d}"));
            assert!(dir.join("games.jsonl").exists(), "{}", dir.display());
        }
    }
    // the ladder's page, with a line per bot in its rating chart
    let page = fs::read_to_string(tmp.path().join("ladder-bidding/index.html")).unwrap();
    assert_eq!(page.matches("<polyline").count(), 6);
    assert!(page.contains("After season 3."));
    assert_ne!(placements[0], placements[1], "divisions change");
    assert_ne!(placements[1], placements[2], "divisions change");
    // the deviations shrink as games accumulate
    let s = state(tmp.path(), "ladder-bidding");
    let dev = |season: usize| s["bots"]["dp"]["history"][season][2].as_f64().unwrap();
    assert!(dev(2) < dev(0), "{}", s["bots"]["dp"]);
    let out = ladder()
        .current_dir(repo())
        .args(["standings", "configs/ladder-bidding.toml", "--reports"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(shown.contains("after season 3") && shown.contains("    3. division 1: "));
    // the ladder's folder shows the same; a season's folder is no ladder's
    ladder()
        .arg("standings")
        .arg(tmp.path().join("ladder-bidding"))
        .assert()
        .success()
        .stdout(shown.clone());
    ladder()
        .arg("standings")
        .arg(tmp.path().join("ladder-bidding/season-001"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "season-001: not a ladder's folder (no ladder.json); give the ladder's config",
        ));
    // the README and docs/LADDER.md show this very output
    for doc in ["README.md", "docs/LADDER.md"] {
        let text = fs::read_to_string(repo().join(doc)).unwrap();
        let command = "$ ladder standings configs/ladder-bidding.toml\n";
        let start = text.find(command).expect("the example") + command.len();
        let end = start + text[start..].find("```").unwrap();
        assert_eq!(&text[start..end], shown, "{doc} shows another ladder");
    }
    // in colour, the bot that went up is green and the one that went down red
    let out = ladder()
        .current_dir(repo())
        .args(["standings", "configs/ladder-bidding.toml", "--color=always"])
        .arg("--reports")
        .arg(tmp.path())
        .output()
        .unwrap();
    let colored = String::from_utf8(out.stdout).unwrap();
    assert!(colored.contains("\x1b[38;5;10m up "), "{colored}");
    assert!(colored.contains("\x1b[38;5;9m down "), "{colored}");
}

#[test]
fn the_top_of_a_lower_division_goes_up_and_the_bottom_of_a_higher_one_down() {
    let tmp = TempDir::new().unwrap();
    let config = write_config(tmp.path(), BIDDERS);
    season(&config, tmp.path(), &[])
        .success()
        .stderr(predicate::str::contains("note:").not());
    let s = state(tmp.path(), "bidders");
    // division 1: dp beats random; division 2: optimal beats random-wide
    assert_eq!(
        divisions(&s),
        [
            ("dp".to_string(), 1),
            ("optimal".to_string(), 1),
            ("random".to_string(), 2),
            ("random-wide".to_string(), 2)
        ]
    );
    assert_eq!(s["bots"]["optimal"]["movement"], "up");
    assert_eq!(s["bots"]["random"]["movement"], "down");
    assert_eq!(s["bots"]["dp"]["movement"], "new");
    let rows = &s["seasons"][0]["divisions"][0]["results"];
    assert_eq!(rows[0]["bot"], "dp");
    assert_eq!(rows[0]["next_division"], 1);
    assert_eq!(rows[1]["next_division"], 2);
}

#[test]
fn promote_and_relegate_as_large_as_a_division_move_all_of_it_and_say_so() {
    let tmp = TempDir::new().unwrap();
    let text = BIDDERS.edit("divisions = 2\n", "divisions = 2\npromote = 2\n");
    let config = write_config(tmp.path(), &text);
    season(&config, tmp.path(), &[]).success().stderr(
        predicate::str::contains(
            "note: division 1 has 2 bots and `relegate = 2`: every one of them moves down \
             after this season",
        )
        .and(predicate::str::contains(
            "note: division 2 has 2 bots and `promote = 2`: every one of them moves up \
             after this season",
        )),
    );
    // as said: the two divisions changed places
    assert_eq!(
        divisions(&state(tmp.path(), "bidders")),
        [
            ("dp".to_string(), 2),
            ("optimal".to_string(), 1),
            ("random".to_string(), 2),
            ("random-wide".to_string(), 1)
        ]
    );
}

/// A bidding ladder of `divisions` whose bots are `dp` and `random` placed
/// at `(division of dp, of random)`, and more `[[bot]]` tables.
fn lone_ladder(dir: &Path, divisions: u32, at: (u32, u32), more: &str) -> PathBuf {
    write_config(
        dir,
        &format!(
            "[season]\nname = \"lone\"\ngame = \"bidding\"\ngames_per_pair = 2\nseed = 3\n\n\
             [ladder]\ndivisions = {divisions}\n\n\
             [[bot]]\nname = \"dp\"\nbuiltin = \"dp\"\ndivision = {}\n\n\
             [[bot]]\nname = \"random\"\nbuiltin = \"random\"\ndivision = {}\n{more}",
            at.0, at.1
        ),
    )
}

#[test]
fn a_bot_alone_in_its_division_moves_up_so_the_ladder_never_stalls() {
    // two bots, two divisions: once dp is promoted each is alone, and
    // random, alone again, moves up; the season after plays
    let tmp = TempDir::new().unwrap();
    let config = lone_ladder(tmp.path(), 2, (2, 2), "");
    season(&config, tmp.path(), &[]).success();
    let s = state(tmp.path(), "lone");
    assert_eq!(divisions(&s), [("dp".into(), 1), ("random".into(), 2)]);
    assert_eq!(s["seasons"][0].get("alone"), None);
    season(&config, tmp.path(), &[])
        .success()
        .stdout(predicate::str::contains(
            "2. division 1: no games; division 2: no games; up: random\n",
        ));
    let s = state(tmp.path(), "lone");
    assert_eq!(s["seasons"][1]["alone"], serde_json::json!(["random"]));
    assert_eq!(s["bots"]["random"]["movement"], "up");
    assert_eq!(divisions(&s), [("dp".into(), 1), ("random".into(), 1)]);
    let page = fs::read_to_string(tmp.path().join("lone/index.html")).unwrap();
    assert!(
        page.contains("Division 2: no games. random had no one to play and moved up."),
        "{page}"
    );
    season(&config, tmp.path(), &[]).success();
    let s = state(tmp.path(), "lone");
    let rows = &s["seasons"][2]["divisions"][0]["results"];
    assert_eq!(rows.as_array().unwrap().len(), 2, "{rows}");
    assert_eq!(rows[0]["bot"], "dp");
    assert_eq!(divisions(&s), [("dp".into(), 1), ("random".into(), 2)]);

    // over an empty division: to the nearest one with bots
    let tmp = TempDir::new().unwrap();
    let config = lone_ladder(tmp.path(), 3, (1, 3), "");
    season(&config, tmp.path(), &[]).success();
    let s = state(tmp.path(), "lone");
    assert_eq!(divisions(&s), [("dp".into(), 1), ("random".into(), 1)]);
    assert_eq!(s["seasons"][0]["alone"], serde_json::json!(["random"]));

    // a lone bot that the season's moves give company stays
    let tmp = TempDir::new().unwrap();
    let more = "\n[[bot]]\nname = \"optimal\"\nbuiltin = \"optimal\"\ndivision = 1\n\n\
                [[bot]]\nname = \"wide\"\nbuiltin = \"random\"\n";
    let config = lone_ladder(tmp.path(), 2, (1, 1), more);
    season(&config, tmp.path(), &[]).success();
    let s = state(tmp.path(), "lone");
    let bottom = s["seasons"][0]["divisions"][0]["results"][2]["bot"].clone();
    assert_ne!(bottom, "wide");
    let mut expected = vec![
        ("dp".to_string(), 1),
        ("optimal".to_string(), 1),
        ("random".to_string(), 1),
        ("wide".to_string(), 2),
    ];
    for (name, d) in &mut expected {
        if bottom == name.as_str() {
            *d = 2;
        }
    }
    assert_eq!(divisions(&s), expected);
    assert_eq!(s["seasons"][0].get("alone"), None);
    assert_eq!(s["bots"]["wide"]["movement"], "new");
}

#[test]
fn bots_join_retire_and_come_back_with_their_rating() {
    let tmp = TempDir::new().unwrap();
    let one = BIDDERS.edit("divisions = 2", "divisions = 1");
    let config = write_config(tmp.path(), &one);
    season(&config, tmp.path(), &[]).success();
    let s1 = state(tmp.path(), "bidders");
    // season 2: random leaves (inactive), a newcomer joins
    let two = one.replacen(
        "name = \"random\"\nbuiltin = \"random\"",
        "name = \"random\"\nbuiltin = \"random\"\nactive = false",
        1,
    ) + "\n[[bot]]\nname = \"late\"\nbuiltin = \"random\"\nparams = { max = 5 }\n";
    fs::write(&config, &two).unwrap();
    season(&config, tmp.path(), &[])
        .success()
        .stdout(predicate::str::contains("retired: random"))
        .stdout(predicate::str::contains("joined: late"));
    let s2 = state(tmp.path(), "bidders");
    assert_eq!(s2["seasons"][1]["joined"], serde_json::json!(["late"]));
    assert_eq!(s2["seasons"][1]["retired"], serde_json::json!(["random"]));
    assert_eq!(s2["bots"]["random"]["active"], false);
    assert_eq!(s2["bots"]["random"]["movement"], "retired");
    assert_eq!(
        s2["bots"]["random"]["rating"], s1["bots"]["random"]["rating"],
        "a retired bot keeps its rating and history"
    );
    assert_eq!(s2["bots"]["late"]["history"].as_array().unwrap().len(), 1);
    assert_eq!(s2["bots"]["dp"]["history"].as_array().unwrap().len(), 2);
    // its games of season 2 do not include random
    let journal = fs::read_to_string(tmp.path().join("bidders/season-002/games.jsonl")).unwrap();
    assert!(!journal.contains("\"random\""));
    // season 3: late is removed from the config, random is back
    fs::write(&config, &one).unwrap();
    season(&config, tmp.path(), &[]).success();
    let s3 = state(tmp.path(), "bidders");
    assert_eq!(s3["seasons"][2]["joined"], serde_json::json!(["random"]));
    assert_eq!(s3["seasons"][2]["retired"], serde_json::json!(["late"]));
    assert_eq!(s3["bots"]["random"]["history"].as_array().unwrap().len(), 2);
    assert_eq!(s3["bots"]["random"]["joined"], 3);
    ladder()
        .args(["standings"])
        .arg(&config)
        .arg("--reports")
        .arg(tmp.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("retired"));
}

#[test]
fn a_ladder_is_the_same_at_any_jobs_and_in_one_run_of_several_seasons() {
    let tmp = TempDir::new().unwrap();
    let config = write_config(tmp.path(), BIDDERS);
    for jobs in ["1", "2"] {
        let reports = tmp.path().join(jobs);
        for _ in 0..2 {
            season(&config, &reports, &["--jobs", jobs]).success();
        }
    }
    // and the same played as two seasons in one run
    let both = tmp.path().join("both");
    season(&config, &both, &["--seasons", "2"])
        .success()
        .stdout(predicate::str::starts_with(
            "Season 1 complete.\n\nDivision 1\n",
        ))
        .stdout(predicate::str::contains(
            "Season 2 complete.\n\nLadder bidders",
        ));
    for file in [
        "ladder.json",
        "season-002/division-1/games.jsonl",
        "season-002/division-2/standings.csv",
    ] {
        let read = |jobs: &str| fs::read(tmp.path().join(jobs).join("bidders").join(file)).unwrap();
        assert_eq!(read("1"), read("2"), "{file}");
        assert_eq!(read("1"), read("both"), "{file}");
    }
    season(&config, &both, &["--seasons", "2", "--shard", "1/2"])
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
}

#[test]
fn a_season_killed_midway_is_finished_by_the_next_run_exactly_as_if_never_stopped() {
    let tmp = TempDir::new().unwrap();
    // slow external bots: 5 ms a move, 20 moves a game
    let text = format!(
        r#"
[season]
name = "slow"
game = "coordination"
games_per_pair = 8
seed = 3

[ladder]

[[bot]]
name = "a"
command = ["{bot}", "--think", "5", "--tag", "ladder-kill"]

[[bot]]
name = "b"
command = ["{bot}", "--think", "5", "--tag", "ladder-kill"]

[[bot]]
name = "c"
builtin = "left"
"#,
        bot = common::testbot()
    );
    let config = write_config(tmp.path(), &text);
    let clean = tmp.path().join("clean");
    let killed = tmp.path().join("killed");
    for reports in [&clean, &killed] {
        season(&config, reports, &[]).success();
    }
    season(&config, &clean, &[]).success();
    // season 2, killed once some of its games are journaled
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_ladder"))
        .arg("season")
        .arg(&config)
        .arg("--reports")
        .arg(&killed)
        .args(["-q", "--jobs", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal = killed.join("slow/season-002/games.jsonl");
    let deadline = Instant::now() + Duration::from_secs(30);
    while fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 3 {
        assert!(Instant::now() < deadline, "season 2 never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let s = state(&killed, "slow");
    assert_eq!(s["current"]["number"], 2, "the season in progress is saved");
    assert_eq!(s["seasons"].as_array().unwrap().len(), 1);
    season(&config, &killed, &[])
        .success()
        .stdout(predicate::str::contains("Season 2 complete."));
    assert_eq!(
        fs::read(killed.join("slow/ladder.json")).unwrap(),
        fs::read(clean.join("slow/ladder.json")).unwrap()
    );
    assert_eq!(
        fs::read(&journal).unwrap(),
        fs::read(clean.join("slow/season-002/games.jsonl")).unwrap()
    );
}

#[test]
fn bad_ladder_configs_name_their_line_and_key() {
    let tmp = TempDir::new().unwrap();
    let cases = [
        (
            "divisions = 2",
            "divisions = 0",
            "ladder.toml:9",
            "divisions must be 1..=100",
        ),
        (
            "divisions = 2",
            "divisions = 2\nformat = \"swiss\"",
            "ladder.toml:10",
            "unknown ladder format `swiss`",
        ),
        (
            "division = 1",
            "division = 3",
            "ladder.toml:14",
            "division must be 1..=2, got 3",
        ),
        (
            "divisions = 2",
            "divisions = 2\npromote = 0\nrelegate = 0",
            "ladder.toml:10",
            "nothing ever moves",
        ),
        (
            "[ladder]",
            "[ladder]\nfoo = 1",
            "ladder.toml:9",
            "unknown field `foo`",
        ),
    ];
    for (from, to, at, message) in cases {
        let config = write_config(tmp.path(), &BIDDERS.replacen(from, to, 1));
        season(&config, tmp.path(), &[])
            .code(2)
            .stderr(predicate::str::contains(at).and(predicate::str::contains(message)));
    }
    // a ladder config is not a season, and ladder keys need a ladder
    let config = write_config(tmp.path(), BIDDERS);
    ladder()
        .arg("run")
        .arg(&config)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("this is a ladder config"));
    let plain = BIDDERS.edit("[ladder]\ndivisions = 2\n", "");
    let config = write_config(tmp.path(), &plain);
    ladder()
        .arg("run")
        .arg(&config)
        .arg("--reports")
        .arg(tmp.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`division` is for ladder configs"));
    season(&config, tmp.path(), &[])
        .code(2)
        .stderr(predicate::str::contains("not a ladder config"));
    // standings before any season
    let config = write_config(tmp.path(), BIDDERS);
    ladder()
        .arg("standings")
        .arg(&config)
        .arg("--reports")
        .arg(tmp.path().join("none"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no season played yet"));
}

#[test]
fn report_renders_every_season_and_the_ladder_again() {
    let tmp = TempDir::new().unwrap();
    let config = write_config(tmp.path(), BIDDERS);
    for _ in 0..2 {
        season(&config, tmp.path(), &[]).success();
    }
    let dir = tmp.path().join("bidders");
    let files = [
        "index.html",
        "rating-history.svg",
        "season-001/division-1/leaderboard.md",
        "season-002/division-2/index.html",
    ];
    let before: Vec<Vec<u8>> = files
        .iter()
        .map(|f| fs::read(dir.join(f)).unwrap())
        .collect();
    for f in files {
        fs::remove_file(dir.join(f)).unwrap();
    }
    ladder()
        .arg("report")
        .arg(&dir)
        .assert()
        .success()
        .stdout(predicate::str::contains("Reports of 4 season folders"));
    for (f, old) in files.iter().zip(&before) {
        assert_eq!(
            &fs::read(dir.join(f)).unwrap(),
            old,
            "{f}: the same bytes again"
        );
    }
    // verify takes the ladder's folder as report does: every season's
    let said = ladder().arg("verify").arg(&dir).output().unwrap();
    let stdout = String::from_utf8(said.stdout).unwrap();
    assert!(said.status.success(), "{stdout}");
    assert!(stdout.contains("season-002/division-2: "), "{stdout}");
    assert!(
        stdout.ends_with("the ladder's 4 season folders verified\n"),
        "{stdout}"
    );
    // the commands that read one season name a division, given the ladder
    // or one of its seasons, and take what they name
    for (given, said, division) in [
        (
            dir.clone(),
            "is a ladder: name one of its seasons' folders (a division's, where a season has several), as ",
            dir.join("season-001/division-1"),
        ),
        (
            dir.join("season-002"),
            "is a season of a ladder, played in divisions: name one of them, as ",
            dir.join("season-002/division-1"),
        ),
    ] {
        for command in [
            &["replay", "--game", "0"][..],
            &["export", "--format", "csv"],
            &["report", "--replays"],
        ] {
            let out = ladder().args(command).arg(&given).output().unwrap();
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(out.status.code(), Some(2), "{command:?}: {err}");
            let expected = format!("{said}{}\n", division.display());
            assert!(err.ends_with(&expected), "{command:?}: {err}");
            ladder().args(command).arg(&division).assert().success();
        }
    }
    // and a bad game in any of them fails it
    let journal = dir.join("season-002/division-1/games.jsonl");
    let text = fs::read_to_string(&journal).unwrap();
    fs::write(&journal, text.replacen("\"goals\":[", "\"goals\":[7", 1)).unwrap();
    ladder()
        .arg("verify")
        .arg(&dir)
        .assert()
        .failure()
        .stderr(predicate::str::contains("season-002/division-1"));
}

#[test]
fn a_two_division_gauntlet_plays_only_the_games_of_each_divisions_newcomers() {
    // a two-division ladder whose seasons are gauntlets: three bidders play
    // season 1 (everyone is new), three more join for season 2; in each
    // division only the pairs with a newcomer play
    let tmp = TempDir::new().unwrap();
    let config_of = |bots: &[&str]| {
        let mut text = String::from(
            "[season]\nname = \"gauntlet\"\ngame = \"bidding\"\ngames_per_pair = 2\nseed = 5\n\n\
             [ladder]\ndivisions = 2\nformat = \"gauntlet\"\n",
        );
        for bot in bots {
            text.push_str(&format!(
                "\n[[bot]]\nname = \"{bot}\"\nbuiltin = \"{bot}\"\n"
            ));
        }
        write_config(tmp.path(), &text)
    };
    let reports = tmp.path().join("reports");
    let first = ["optimal", "fraction", "random"];
    season(&config_of(&first), &reports, &[]).success();
    let joiners = ["dp", "climber", "mirror"];
    let all: Vec<&str> = first.iter().chain(&joiners).copied().collect();
    season(&config_of(&all), &reports, &[]).success();
    let s = state(&reports, "gauntlet");
    let mut stayers_rested = 0;
    for (n, season) in s["seasons"].as_array().unwrap().iter().enumerate() {
        for division in season["divisions"].as_array().unwrap() {
            let names = |key: &str| -> Vec<String> {
                division[key]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| b.as_str().unwrap().to_string())
                    .collect()
            };
            let (bots, newcomers) = (names("bots"), names("newcomers"));
            // the pairs with a newcomer, each played games_per_pair times
            let mut expected = Vec::new();
            for (i, a) in bots.iter().enumerate() {
                for b in &bots[i + 1..] {
                    if newcomers.contains(a) || newcomers.contains(b) {
                        expected.push(vec![a.clone(), b.clone()]);
                    } else {
                        stayers_rested += 1;
                    }
                }
            }
            let d = division["division"].as_u64().unwrap();
            let dir = reports.join(format!("gauntlet/season-{:03}/division-{d}", n + 1));
            let mut played: Vec<Vec<String>> = if expected.is_empty() {
                Vec::new()
            } else {
                common::season_games(&dir)
                    .iter()
                    .map(|g| {
                        let mut pair: Vec<String> = (0..2)
                            .map(|i| g["seats"][i].as_str().unwrap().to_string())
                            .collect();
                        pair.sort_by_key(|b| bots.iter().position(|x| x == b));
                        pair
                    })
                    .collect()
            };
            played.sort();
            played.dedup();
            expected.sort();
            assert_eq!(played, expected, "season {} division {d}", n + 1);
        }
    }
    // season 2's lower division: the joiners are its newcomers, and the
    // two bots that stayed in it did not meet again
    let lower = &s["seasons"][1]["divisions"][1];
    for bot in joiners {
        assert!(
            lower["newcomers"]
                .as_array()
                .unwrap()
                .iter()
                .any(|b| b == bot),
            "{lower}"
        );
    }
    assert!(stayers_rested >= 1, "{}", s["seasons"]);
}
