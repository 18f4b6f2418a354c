//! Bot I/O logs, with real child processes: a forfeit always leaves the
//! lines exchanged before it in the bot's log; `--log FILE` gets every line
//! of every bot with the time, game and bot; `--log-level errors` only the
//! forfeits; `log = true` one bot's lines in `logs/<bot>.io.log`; and
//! `ladder check` shows the failing exchange.

use std::{fs, path::Path};

use assert_cmd::Command;
use tempfile::TempDir;

mod common;

/// `ladder match coordination "cmd:testbot FLAGS" left` (two games) in `dir`.
fn match_with(dir: &Path, flags: &str, extra: &[&str]) -> String {
    let testbot = common::testbot();
    let bot = format!("cmd:{testbot} {flags}");
    let out = Command::cargo_bin("ladder")
        .unwrap()
        .args(["match", "coordination", &bot, "left", "--games", "2"])
        .args([
            "--move-time-ms",
            "200",
            "--sandbox",
            "none",
            "-q",
            "-j",
            "1",
        ])
        .args(["--reports", dir.to_str().unwrap()])
        .args(extra)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

fn season_dir(dir: &Path) -> std::path::PathBuf {
    dir.join("match-coordination-testbot-vs-left")
}

#[test]
fn a_forfeit_leaves_the_last_exchanged_lines_in_the_bots_log_without_asking() {
    let tmp = TempDir::new().unwrap();
    match_with(tmp.path(), "--garbage-at 3", &[]);
    let log = fs::read_to_string(season_dir(tmp.path()).join("logs/testbot.log")).unwrap();
    // one entry per game, each ending with the answer that broke the protocol
    let entries: Vec<&str> = log.split("[ladder] ").skip(1).collect();
    assert_eq!(entries.len(), 2, "{log}");
    for (game, entry) in entries.iter().enumerate() {
        let lines: Vec<&str> = entry.lines().collect();
        assert!(
            lines[0].starts_with(&format!(
                "game {game}: testbot forfeits: bad output: `xyzzy` is not a move"
            )),
            "{entry}"
        );
        assert!(lines.len() <= 13, "at most the last 12 lines: {entry}");
        assert!(
            lines[lines.len() - 1].ends_with(&format!("game {game} testbot < xyzzy")),
            "{entry}"
        );
        assert!(
            lines[lines.len() - 2].contains(&format!("game {game} testbot > turn round 3 of 20")),
            "{entry}"
        );
    }
    // no I/O log was asked for
    assert!(!season_dir(tmp.path()).join("logs/testbot.io.log").exists());
}

#[test]
fn a_timeout_and_a_crash_are_logged_with_what_happened() {
    let tmp = TempDir::new().unwrap();
    match_with(tmp.path(), "--hang-at 2", &[]);
    let log = fs::read_to_string(season_dir(tmp.path()).join("logs/testbot.log")).unwrap();
    assert!(
        log.contains("testbot forfeits: timeout: no move within the time limit"),
        "{log}"
    );
    assert!(log.contains("testbot < (no move after "), "{log}");

    let tmp = TempDir::new().unwrap();
    match_with(tmp.path(), "--crash-at 2", &[]);
    let log = fs::read_to_string(season_dir(tmp.path()).join("logs/testbot.log")).unwrap();
    assert!(log.contains("testbot forfeits: crash: "), "{log}");
    assert!(log.contains("testbot < (output closed)"), "{log}");
}

#[test]
fn log_writes_every_line_of_every_game_and_errors_only_the_forfeits() {
    let tmp = TempDir::new().unwrap();
    let all = tmp.path().join("io.log");
    match_with(tmp.path(), "", &["--log", all.to_str().unwrap()]);
    let text = fs::read_to_string(&all).unwrap();
    // the greeting, ready, then per game: new, 20 turns, 20 answers, 20 played, over, ready
    for game in 0..2 {
        let of_game: Vec<&str> = text
            .lines()
            .filter(|l| l.contains(&format!(" game {game} testbot ")))
            .collect();
        assert!(
            of_game
                .iter()
                .any(|l| l.ends_with("> over 50 50 draw") || l.contains("> over ")),
            "{text}"
        );
        assert_eq!(
            of_game.iter().filter(|l| l.contains(" > turn ")).count(),
            20,
            "{text}"
        );
        assert_eq!(
            of_game
                .iter()
                .filter(|l| l.ends_with(" < left") || l.ends_with(" < right"))
                .count(),
            20
        );
    }
    // each line: seconds since ladder started, game, bot, direction, line
    let first = text.lines().next().unwrap();
    let words: Vec<&str> = first.split_whitespace().collect();
    assert!(words[0].parse::<f64>().is_ok(), "{first}");
    assert_eq!(&words[1..5], ["game", "0", "testbot", ">"], "{first}");
    assert_eq!(words[5], "ladder", "the greeting comes first: {first}");

    let tmp = TempDir::new().unwrap();
    let errors = tmp.path().join("errors.log");
    match_with(
        tmp.path(),
        "--garbage-at 3",
        &["--log", errors.to_str().unwrap(), "--log-level", "errors"],
    );
    let text = fs::read_to_string(&errors).unwrap();
    assert_eq!(text.matches("[ladder] ").count(), 2, "{text}");
    assert!(
        text.lines()
            .all(|l| l.starts_with("[ladder] ") || l.starts_with(' ')),
        "{text}"
    );
}

#[test]
fn one_bot_logs_its_lines_with_log_true() {
    let testbot = common::testbot();
    let tmp = TempDir::new().unwrap();
    let config = tmp.path().join("s.toml");
    fs::write(
        &config,
        format!(
            "[season]\nname = \"s\"\ngame = \"coordination\"\ngames_per_pair = 2\nsandbox = \"none\"\n\n\
             [[bot]]\nname = \"mine\"\ncommand = [\"{testbot}\"]\nlog = true\n\n\
             [[bot]]\nname = \"other\"\ncommand = [\"{testbot}\"]\n"
        ),
    )
    .unwrap();
    Command::cargo_bin("ladder")
        .unwrap()
        .args(["run", config.to_str().unwrap(), "-q", "--reports"])
        .arg(tmp.path().join("reports"))
        .assert()
        .success();
    let logs = tmp.path().join("reports/s/logs");
    let mine = fs::read_to_string(logs.join("mine.io.log")).unwrap();
    assert!(mine.lines().count() > 80, "{mine}");
    assert!(mine.lines().all(|l| l.contains(" mine ")), "{mine}");
    assert!(!logs.join("other.io.log").exists());

    // an in-process bot exchanges no lines: asking is a config error
    fs::write(
        &config,
        "[season]\ngame = \"coordination\"\n\n[[bot]]\nname = \"a\"\nbuiltin = \"left\"\nlog = true\n\n[[bot]]\nname = \"b\"\nbuiltin = \"left\"\n",
    )
    .unwrap();
    Command::cargo_bin("ladder")
        .unwrap()
        .args(["run", config.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "key `bot.log`: `log` is for bot programs (`command`)",
        ));
}

#[test]
fn check_shows_the_exchange_that_failed() {
    let out = Command::cargo_bin("ladder")
        .unwrap()
        .args(["check", "--game", "coordination", "--sandbox", "none", "--"])
        .args([common::testbot(), "--garbage-at", "3"])
        .assert()
        .code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let at = text
        .find("the lines exchanged up to the first failure (> ladder, < bot):")
        .unwrap_or_else(|| panic!("{text}"));
    let shown = &text[at..];
    assert!(
        shown.contains("[ladder] game 1: bot forfeits: bad output: `xyzzy` is not a move"),
        "{shown}"
    );
    assert!(
        shown.contains("game 1 bot > turn round 3 of 20 score"),
        "{shown}"
    );
    assert!(shown.contains("game 1 bot < xyzzy"), "{shown}");

    // a greeting answered wrongly: the exchange is the greeting and the answer
    let out = Command::cargo_bin("ladder")
        .unwrap()
        .args([
            "check",
            "--game",
            "coordination",
            "--sandbox",
            "none",
            "--startup-time-ms",
            "300",
            "--",
        ])
        .args([common::testbot(), "--no-handshake"])
        .assert()
        .code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("> ladder 2 coordination"), "{text}");
    assert!(text.contains("< (no `ready` after "), "{text}");
}

#[test]
fn a_log_never_goes_into_a_seasons_journal() {
    let tmp = TempDir::new().unwrap();
    let season = season_dir(tmp.path());
    let testbot = common::testbot();
    let bot = format!("cmd:{testbot}");
    let run = |log: &Path| {
        Command::cargo_bin("ladder")
            .unwrap()
            .args(["match", "coordination", &bot, "left", "--games", "2"])
            .args(["--sandbox", "none", "-q", "--reports"])
            .arg(tmp.path())
            .arg("--log")
            .arg(log)
            .assert()
    };
    // a new season's journal, before it is written
    run(&season.join("games.jsonl"))
        .code(2)
        .stderr(predicates::str::contains("that is a season's journal"));
    // a season refused before it starts leaves no folder behind
    assert!(!season.exists());
    run(tmp.path())
        .code(1)
        .stderr(predicates::str::contains("Is a directory"));
    assert!(!season.exists());
    // a season's journal, under another name that leads to it
    let log = tmp.path().join("io.log");
    run(&log).success();
    let journal = fs::read(season.join("games.jsonl")).unwrap();
    for other in [
        "games.jsonl",
        "./timing.jsonl",
        "../x/../match-coordination-testbot-vs-left/season.json",
    ] {
        run(&season.join(other))
            .code(2)
            .stderr(predicates::str::contains("that is a season's journal"));
    }
    assert_eq!(fs::read(season.join("games.jsonl")).unwrap(), journal);
    common::assert_verified(&season);
    // a log of a journal's name elsewhere is only a name
    let elsewhere = tmp.path().join("logs/games.jsonl");
    fs::create_dir_all(elsewhere.parent().unwrap()).unwrap();
    run(&elsewhere).success();
    assert!(elsewhere.is_file());
}

#[test]
fn log_dash_writes_every_line_to_stderr_in_place_of_the_progress() {
    let tmp = TempDir::new().unwrap();
    let testbot = common::testbot();
    let out = Command::cargo_bin("ladder")
        .unwrap()
        .current_dir(tmp.path())
        .args(["match", "coordination", &format!("cmd:{testbot}"), "left"])
        .args(["--games", "2", "--sandbox", "none", "-j", "1"])
        .args(["--progress-every", "1", "--log", "-"])
        .assert()
        .success();
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    for game in 0..2 {
        let turns = err
            .lines()
            .filter(|l| l.contains(&format!(" game {game} testbot > turn ")))
            .count();
        assert_eq!(turns, 20, "{err}");
    }
    // the log alone: no progress lines among it, and no file named `-`
    assert!(!err.contains("progress: "), "{err}");
    assert!(!tmp.path().join("-").exists());
    // the season is played and reported as without a log
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("2 games played now"), "{stdout}");
}
