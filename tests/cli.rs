//! End-to-end tests of the `ladder` binary on the shipped configs: seasons,
//! determinism across `--jobs`, resuming after an interruption, `match`,
//! `list`, and bad input.

use std::{
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
    process::Command as StdCommand,
    time::Duration,
};

use assert_cmd::Command;
use predicates::prelude::*;
use tempfile::TempDir;

mod common;
use common::journal_indices;
use common::Edit;
use ladder::catalog::GameKind;
use ladder::core::files::MOST_TEXT;

const REPORT_FILES: [&str; 5] = [
    "games.jsonl",
    "season.json",
    "leaderboard.md",
    "standings.csv",
    "standings.json",
];

fn ladder() -> Command {
    Command::cargo_bin("ladder").unwrap()
}

fn config(game: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("configs")
        .join(format!("{game}.toml"))
}

/// Runs `ladder run CONFIG` with reports under `reports` and extra arguments.
use common::run;

fn scheduled(config: &Path) -> u64 {
    let v: toml::Table = fs::read_to_string(config).unwrap().parse().unwrap();
    let bots = v["bot"].as_array().unwrap().len() as u64;
    let gpp = v["season"]["games_per_pair"].as_integer().unwrap() as u64;
    gpp * bots * (bots - 1) / 2
}

/// The journal holds games 0..total, each once, in order.
fn assert_each_game_once(indices: &[u64], total: u64) {
    let distinct: BTreeSet<u64> = indices.iter().copied().collect();
    assert_eq!(distinct.len(), indices.len(), "no game twice");
    assert_eq!(indices.len() as u64, total, "no game missing");
    let out_of_order = indices.iter().enumerate().find(|(i, &g)| *i as u64 != g);
    assert_eq!(out_of_order, None, "games in schedule order");
}

/// The shipped config of `game`, but breakthrough's with 20 games a pairing
/// (its `search` games take a minute at 200), written into `dir`.
/// The shipped season of every catalogue game, as a config that plays it
/// quickly in `dir` (breakthrough's 200 games a pair become 20), with its
/// season's name: a game added to the catalogue is in every test that
/// loops over these.
fn quick_configs(dir: &Path) -> Vec<(String, PathBuf)> {
    GameKind::ALL
        .iter()
        .map(|kind| {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(kind.config());
            let text = fs::read_to_string(&path).unwrap();
            let table: toml::Table = text.parse().unwrap();
            let name = table["season"]["name"].as_str().unwrap().to_string();
            if text.contains("games_per_pair = 200") {
                let quick = dir.join(format!("{name}-quick.toml"));
                fs::write(
                    &quick,
                    text.edit("games_per_pair = 200", "games_per_pair = 20")
                        .replace("\"../", &format!("\"{}/", env!("CARGO_MANIFEST_DIR"))),
                )
                .unwrap();
                return (name, quick);
            }
            (name, path)
        })
        .collect()
}

#[test]
fn every_shipped_config_plays_a_full_season() {
    let tmp = TempDir::new().unwrap();
    for (game, cfg) in quick_configs(tmp.path()) {
        run(&cfg, tmp.path(), &["--jobs", "2"])
            .success()
            .stdout(predicate::str::contains(format!("Season {game}: ")))
            .stdout(predicate::str::contains(", round-robin"))
            .stdout(predicate::str::contains("│ Rank ┆ Bot"))
            .stdout(predicate::str::contains("Crosstable"))
            .stdout(predicate::str::contains("Terminations"));
        let dir = tmp.path().join(&game);
        for f in REPORT_FILES {
            assert!(dir.join(f).is_file(), "{game}: {f} written");
        }
        assert_each_game_once(&journal_indices(&dir.join("games.jsonl")), scheduled(&cfg));
        let md = fs::read_to_string(dir.join("leaderboard.md")).unwrap();
        assert!(md.contains("| S.No | Opponent"), "{md}");
        assert!(md.contains("| Games Played | Won | Lost | Tie |"), "{md}");
        assert!(md.contains("Overall win percentage:"));
    }
}

#[test]
fn a_gauntlet_pairs_the_champion_with_every_other_bot_only() {
    let tmp = TempDir::new().unwrap();
    run(&config("gauntlet"), tmp.path(), &[])
        .success()
        .stdout(predicate::str::contains(
            "Season gauntlet: coordination, gauntlet of copycat, 3 bots, 200 of 200 games",
        ));
    let journal = fs::read_to_string(tmp.path().join("gauntlet/games.jsonl")).unwrap();
    let mut seatings = BTreeSet::new();
    for line in journal.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let seats = (
            v["seats"][0].as_str().unwrap().to_string(),
            v["seats"][1].as_str().unwrap().to_string(),
        );
        assert!(seats.0 == "copycat" || seats.1 == "copycat", "{seats:?}");
        seatings.insert(seats);
    }
    assert_eq!(
        seatings.len(),
        4,
        "the champion takes both seats against both bots"
    );
    // left and random never met: their crosstable cells are blank
    let md = fs::read_to_string(tmp.path().join("gauntlet/leaderboard.md")).unwrap();
    assert!(
        md.contains("| left    |      - |  50/100 |        |"),
        "{md}"
    );
    assert!(
        md.contains("| random  |        |  50/100 |      - |"),
        "{md}"
    );
}

#[test]
fn results_do_not_depend_on_jobs() {
    let (one, two) = (TempDir::new().unwrap(), TempDir::new().unwrap());
    for (game, cfg) in quick_configs(one.path()) {
        run(&cfg, one.path(), &["--jobs", "1"]).success();
        run(&cfg, two.path(), &["--jobs", "2"]).success();
        for f in REPORT_FILES {
            let a = fs::read(one.path().join(&game).join(f)).unwrap();
            let b = fs::read(two.path().join(&game).join(f)).unwrap();
            assert!(a == b, "{game}/{f} differs between --jobs 1 and --jobs 2");
        }
    }
}

#[test]
fn a_season_resumes_without_losing_or_repeating_games() {
    let (full, parts) = (TempDir::new().unwrap(), TempDir::new().unwrap());
    let cfg = config("coordination");
    run(&cfg, full.path(), &[]).success();
    run(&cfg, parts.path(), &["--max-games", "137", "--jobs", "2"])
        .success()
        .stdout(predicate::str::contains("137 of 2000 games"))
        .stdout(predicate::str::contains("137 games played now, 0 resumed"));
    assert_eq!(
        journal_indices(&parts.path().join("coordination/games.jsonl")).len(),
        137
    );
    // a crash in the middle of writing a line
    let journal = parts.path().join("coordination/games.jsonl");
    let mut text = fs::read_to_string(&journal).unwrap();
    text.push_str("{\"index\":137,\"pair\":0,\"sea");
    fs::write(&journal, text).unwrap();
    run(&cfg, parts.path(), &["--jobs", "2"])
        .success()
        .stdout(predicate::str::contains(
            "1863 games played now, 137 resumed",
        ));
    for f in REPORT_FILES {
        let a = fs::read(full.path().join("coordination").join(f)).unwrap();
        let b = fs::read(parts.path().join("coordination").join(f)).unwrap();
        assert!(
            a == b,
            "{f}: the resumed season equals the uninterrupted one"
        );
    }
    // nothing left to play
    run(&cfg, parts.path(), &[])
        .success()
        .stdout(predicate::str::contains("0 games played now, 2000 resumed"));
}

#[test]
fn a_killed_season_resumes_with_every_game_exactly_once() {
    let tmp = TempDir::new().unwrap();
    // the shipped season's fast bots only: search would take hours here
    let cfg = tmp.path().join("big.toml");
    fs::write(
        &cfg,
        "[season]\nname = \"breakthrough\"\ngame = \"breakthrough\"\ngames_per_pair = 30000\n\
         seed = 2016\n[[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n\
         [[bot]]\nname = \"random\"\nbuiltin = \"random\"\n",
    )
    .unwrap();
    let reports = tmp.path().join("reports");
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_ladder"))
        .arg("run")
        .arg(&cfg)
        .arg("--reports")
        .arg(&reports)
        .args(["--jobs", "2", "--quiet"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let journal = reports.join("breakthrough/games.jsonl");
    // wait until some games are journaled, then kill without warning
    for _ in 0..500 {
        if fs::metadata(&journal).map(|m| m.len() > 0).unwrap_or(false) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(50));
    child.kill().unwrap();
    child.wait().unwrap();
    let total = scheduled(&cfg);
    let before = journal_indices(&journal).len() as u64;
    assert!(
        before < total,
        "the kill came after the season ended: nothing was tested"
    );
    run(&cfg, &reports, &["--jobs", "2"]).success();
    assert_each_game_once(&journal_indices(&journal), total);
}

#[test]
fn a_season_in_rounds_meets_every_pairing_before_any_meets_twice() {
    let tmp = TempDir::new().unwrap();
    let cfg = tmp.path().join("rounds.toml");
    let text = "[season]\nname = \"rounds\"\ngame = \"troops\"\ngames_per_pair = 4\norder = \"rounds\"\n\n\
                [[bot]]\nname = \"a\"\nbuiltin = \"random\"\n\n[[bot]]\nname = \"b\"\nbuiltin = \"balanced\"\n\n\
                [[bot]]\nname = \"c\"\nbuiltin = \"nash\"\n\n[[bot]]\nname = \"d\"\nbuiltin = \"focus\"\n";
    fs::write(&cfg, text).unwrap();
    let reports = tmp.path().join("reports");
    // a partial season of 12 games: both seats of all six pairings
    run(&cfg, &reports, &["--max-games", "12", "-q"]).success();
    let dir = reports.join("rounds");
    let games = common::season_games(&dir);
    assert_eq!(games.len(), 12);
    let mut met: Vec<u64> = games.iter().map(|g| g["pair"].as_u64().unwrap()).collect();
    met.sort_unstable();
    met.dedup();
    assert_eq!(met, vec![0, 1, 2, 3, 4, 5]);
    // the rest resumes, the journal checks out against its order, and a
    // season in the usual order is another season
    run(&cfg, &reports, &["-q"]).success();
    assert_eq!(
        journal_indices(&dir.join("games.jsonl")),
        (0..24).collect::<Vec<_>>()
    );
    common::assert_verified(&dir);
    let season: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("season.json")).unwrap()).unwrap();
    assert_eq!(season["order"], "rounds");
    fs::write(&cfg, text.edit("order = \"rounds\"\n", "")).unwrap();
    run(&cfg, &reports, &["-q"])
        .code(2)
        .stderr(predicate::str::contains("(changed: order)"));
    // a word it does not know names the file, line and key
    fs::write(&cfg, text.edit("order = \"rounds\"", "order = \"random\"")).unwrap();
    run(&cfg, &reports, &["-q"])
        .code(2)
        .stderr(predicate::str::contains(
        "rounds.toml:5:9: key `season.order`: `pairings` (the default) or `rounds`, not `random`",
    ));
}

#[test]
fn a_changed_config_is_refused_unless_fresh() {
    let tmp = TempDir::new().unwrap();
    let cfg = tmp.path().join("s.toml");
    let text = fs::read_to_string(config("troops")).unwrap();
    fs::write(&cfg, &text).unwrap();
    run(&cfg, tmp.path(), &["--max-games", "10"]).success();
    fs::write(&cfg, text.edit("seed = 2016", "seed = 2017")).unwrap();
    run(&cfg, tmp.path(), &[])
        .code(2)
        .stderr(predicate::str::contains(
            "holds results of a different season (changed: seed)",
        ))
        // the advice keeps the games: another name, or the folder moved aside
        .stderr(predicate::str::contains("aside (its games stay there)"))
        .stderr(predicate::str::contains("--fresh").not());
    run(&cfg, tmp.path(), &["--fresh", "--max-games", "5"])
        .success()
        .stdout(predicate::str::contains("5 games played now, 0 resumed"));
}

#[test]
fn bad_configs_name_file_line_and_key_and_write_nothing() {
    let good = fs::read_to_string(config("bidding")).unwrap();
    let cases = [
        (
            good.edit("games_per_pair = 500", "games_per_pair = -3"),
            "bad.toml:9:18: key `season.games_per_pair`: invalid value: integer `-3`, expected u32",
        ),
        (
            good.edit("money = 100", "mony = 100"),
            "bad.toml:14:1: key `season.params.mony`: unknown field `mony`",
        ),
        (
            good.edit("builtin = \"random\"", "builtin = \"oracle\""),
            "key `bot.builtin`: no built-in bot `oracle` for game bidding; known: random, dp, optimal",
        ),
        (
            good.edit("game = \"bidding\"", "game = \"go\""),
            "bad.toml:7:8: key `season.game`: unknown game `go`",
        ),
        (
            good.edit("start = 5 ", "start = 12"),
            "key `season.params`: start must lie strictly between 0 and length 10, got 12",
        ),
        (
            good.edit("name = \"dp\"", "name = \"optimal\""),
            "two bots are named `optimal`",
        ),
        (
            good.edit("[season]", "[seasn]"),
            "bad.toml:5:2: key `seasn`: unknown field `seasn`, expected one of `season`, `ladder`, `arena`, `bot`",
        ),
        ("not toml at all".to_string(), "bad.toml:1:"),
    ];
    for (text, want) in cases {
        let tmp = TempDir::new().unwrap();
        let cfg = tmp.path().join("bad.toml");
        fs::write(&cfg, &text).unwrap();
        let reports = tmp.path().join("reports");
        run(&cfg, &reports, &[])
            .code(2)
            .stderr(predicate::str::contains(want));
        assert!(!reports.exists(), "nothing written for: {want}");
    }
    ladder()
        .args(["run", "no/such/config.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no/such/config.toml: cannot read the config",
        ));
    // a folder where a config belongs: every command that reads one says so
    for command in ["run", "season"] {
        ladder()
            .args([command, "configs"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "configs: a folder, not a config: give the TOML file that describes it",
            ));
    }
}

/// A text file ladder reads whole (a config, a GDL description, an
/// openings file) is read up to 64 MiB and refused past that, or where it
/// is not text: a wrong path such as `/dev/zero`, which never ends, gets a
/// clear error instead of filling memory until the system kills ladder.
#[test]
fn files_too_large_or_not_text_are_refused_not_read_forever() {
    let tmp = TempDir::new().unwrap();
    let too_large = "it is larger than 64 MiB, the most ladder reads of such a file";
    let refused = |args: &[&str], want: &str| {
        ladder()
            .current_dir(tmp.path())
            .args(args)
            .arg("--reports")
            .arg(tmp.path().join("reports"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(want));
        assert!(!tmp.path().join("reports").exists(), "{args:?}");
    };
    refused(
        &["run", "/dev/zero"],
        &format!("/dev/zero: cannot read the config: {too_large}"),
    );
    refused(
        &["match", "gdl:/dev/zero", "random", "random"],
        &format!("cannot read /dev/zero: {too_large}"),
    );
    refused(
        &[
            "match",
            "breakthrough",
            "random",
            "random",
            "--openings",
            "/dev/zero",
        ],
        &format!("--openings: cannot read /dev/zero: {too_large}"),
    );
    let openings = fs::read_to_string(config("breakthrough-openings"))
        .unwrap()
        .edit(
            "file = \"openings/breakthrough.txt\"",
            "file = \"/dev/zero\"",
        );
    fs::write(tmp.path().join("zero.toml"), openings).unwrap();
    refused(
        &["run", "zero.toml"],
        &format!("key `season.openings.file`: cannot read /dev/zero: {too_large}"),
    );
    // just past the limit: refused; a binary file: not text
    let big = tmp.path().join("big.kif");
    fs::write(&big, vec![b' '; MOST_TEXT as usize + 1]).unwrap();
    refused(
        &["match", "gdl:big.kif", "random", "random"],
        &format!("cannot read big.kif: {too_large}"),
    );
    fs::write(tmp.path().join("bin.kif"), b"(role a) \xff\xfe").unwrap();
    refused(
        &["match", "gdl:bin.kif", "random", "random"],
        "cannot read bin.kif: it is not UTF-8 text (byte 9)",
    );
}

#[test]
fn a_log_gets_a_progress_line_every_n_games_and_at_the_end() {
    // stderr is a pipe here, as in a CI job or a Slurm log
    let tmp = TempDir::new().unwrap();
    // the stderr of a match of search and random, `games` long, into `folder`
    let stderr_of = |games: &str, extra: &[&str], folder: &str| {
        let out = ladder()
            .args([
                "match",
                "breakthrough",
                "search",
                "random",
                "--games",
                games,
            ])
            .args(extra)
            .arg("--reports")
            .arg(tmp.path().join(folder))
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stderr).unwrap()
    };
    let stderr = stderr_of("30", &["--progress-every", "10", "--jobs", "1"], "lines");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("progress: "))
        .collect();
    // pieces of games reach the writer together, so a line may come a few
    // games past its mark; the last one says the season is done
    assert!(!lines.is_empty(), "{stderr}");
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("progress: 30 of 30 games (100.0%), "),
        "{stderr}"
    );
    assert!(
        last.contains("games/s; 1. search 100.0%, 2. random 0.0%"),
        "{last}"
    );
    // -q: results and errors only
    assert!(!stderr_of("30", &["-q"], "quiet").contains("progress: "));
    // an SPRT's LLR is on the line
    let stderr = stderr_of("200", &["--sprt", "0,200"], "sprt");
    assert!(
        stderr.lines().any(|l| l.starts_with("progress: ")
            && l.contains("; LLR: ")
            && l.ends_with("(-2.94, 2.94) [0.00, 200.00]")),
        "{stderr}"
    );
}

#[test]
fn export_csv_gives_one_row_per_game_that_a_csv_reader_reads_back() {
    let tmp = TempDir::new().unwrap();
    let reports = tmp.path().join("reports");
    // a season with openings: the opening column holds blanks and words
    run(
        &config("breakthrough-openings"),
        &reports,
        &["--max-games", "12", "-q"],
    )
    .success();
    let dir = reports.join("breakthrough-openings");
    let out = tmp.path().join("games.csv");
    ladder()
        .args(["export", dir.to_str().unwrap(), "--format", "csv", "-o"])
        .arg(&out)
        .assert()
        .success();
    let stdout = ladder()
        .args(["export", dir.to_str().unwrap(), "--format", "csv"])
        .output()
        .unwrap()
        .stdout;
    assert_eq!(
        fs::read(&out).unwrap(),
        stdout,
        "the file is what stdout gets"
    );
    // `-o -` is stdout, not a file named `-`
    ladder()
        .current_dir(tmp.path())
        .args([
            "export",
            dir.to_str().unwrap(),
            "--format",
            "csv",
            "-o",
            "-",
        ])
        .assert()
        .success()
        .stdout(stdout.clone());
    assert!(!tmp.path().join("-").exists());
    // Python's csv module reads it back into the journal's values
    let script = "import csv, json, sys\n\
                  rows = list(csv.DictReader(open(sys.argv[1])))\n\
                  print(json.dumps(rows))\n";
    let read = common::python("python3", script, &[&out]);
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&read).unwrap();
    let games = common::season_games(&dir);
    assert_eq!(rows.len(), games.len());
    assert_eq!(rows.len(), 12);
    for (row, game) in rows.iter().zip(&games) {
        assert_eq!(row["index"], game["index"].to_string());
        assert_eq!(row["pair"], game["pair"].to_string());
        assert_eq!(row["first"], game["seats"][0]);
        assert_eq!(row["second"], game["seats"][1]);
        // the seed as text, whole: no float rounding on the way
        assert_eq!(row["seed"], game["seed"].to_string());
        assert_eq!(row["result"], game["result"]);
        assert_eq!(row["goal1"], game["goals"][0].to_string());
        assert_eq!(row["goal2"], game["goals"][1].to_string());
        assert_eq!(row["termination"], "normal");
        assert_eq!(row["plies"], game["plies"].to_string());
        assert_eq!(row["opening"], game["opening"]);
        assert!(row["opening"].as_str().unwrap().contains(' '));
    }
    ladder()
        .args(["export", tmp.path().to_str().unwrap(), "--format", "csv"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a season's folder"));
    // the journal is never written over, by any name that leads to it
    let journal = fs::read(dir.join("games.jsonl")).unwrap();
    std::os::unix::fs::symlink(dir.join("games.jsonl"), tmp.path().join("link")).unwrap();
    let roundabout = reports.join("../reports/breakthrough-openings/./season.json");
    for target in [dir.join("games.jsonl"), tmp.path().join("link"), roundabout] {
        ladder()
            .args(["export", dir.to_str().unwrap(), "--format", "csv", "-o"])
            .arg(&target)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("the season's own journal"));
    }
    assert_eq!(fs::read(dir.join("games.jsonl")).unwrap(), journal);
    ladder()
        .args(["verify", dir.to_str().unwrap()])
        .assert()
        .success();
}

#[test]
fn match_plays_an_ad_hoc_pairing() {
    let tmp = TempDir::new().unwrap();
    let args = [
        "match",
        "bidding",
        "random",
        "random",
        "--games",
        "100",
        "--seed",
        "7",
        "--reports",
    ];
    ladder()
        .args(args)
        .arg(tmp.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(
        "Season match-bidding-random-1-vs-random-2: bidding, round-robin, 2 bots, 100 of 100 games",
    ));
    let dir = tmp.path().join("match-bidding-random-1-vs-random-2");
    assert_eq!(journal_indices(&dir.join("games.jsonl")).len(), 100);
    let first = fs::read(dir.join("games.jsonl")).unwrap();
    // the same match again, with `extra`: it says `says`, and its journal
    // ends as the first run's
    let again = |extra: &[&str], says: &str| {
        ladder()
            .args(args)
            .arg(tmp.path())
            .args(extra)
            .assert()
            .success()
            .stdout(predicate::str::contains(says));
        assert_eq!(fs::read(dir.join("games.jsonl")).unwrap(), first);
    };
    // the same match again resumes it: nothing to play
    again(&[], "0 games played now, 100 resumed from the journal");
    // an interrupted match resumes where it stopped, as its message says:
    // the last 30 games are lost, and only they are played again
    let text = String::from_utf8(first.clone()).unwrap();
    let kept: String = text.split_inclusive('\n').take(70).collect();
    fs::write(dir.join("games.jsonl"), kept).unwrap();
    again(&[], "30 games played now, 70 resumed from the journal");
    // one game is one game, not `1 games`
    let kept: String = text.split_inclusive('\n').take(99).collect();
    fs::write(dir.join("games.jsonl"), kept).unwrap();
    again(&[], "\n1 game played now, 99 resumed from the journal");
    // --fresh plays it all again, and the same seed replays the same games
    again(&["--fresh"], "100 games played now, 0 resumed");
    // the same two names with another seed: the earlier match is kept, and
    // the new one plays in a folder of its own
    let mut other = args;
    other[7] = "8";
    ladder()
        .args(other)
        .arg(tmp.path())
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "{} holds an earlier match of these two names with other settings \
             (changed: seed); it is kept, and this match plays in {}-2",
            dir.display(),
            dir.display()
        )));
    assert_eq!(fs::read(dir.join("games.jsonl")).unwrap(), first);
    let second = tmp.path().join("match-bidding-random-1-vs-random-2-2");
    assert_eq!(journal_indices(&second.join("games.jsonl")).len(), 100);
    ladder()
        .args(["match", "chess", "random", "random"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown game `chess`"));
    // the range clap shows is the range taken
    ladder()
        .args(["match", "bidding", "random", "random", "--games", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "invalid value '0' for '--games <N>': 0 is not in 1..=4294967295",
        ));
    ladder()
        .args(["match", "troops", "random", "genius", "--reports"])
        .arg(tmp.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no built-in bot `genius` for game troops",
        ));
}

#[test]
fn list_games_and_bots() {
    let out = ladder().args(["list", "games"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for kind in GameKind::ALL {
        assert!(text.contains(kind.name()), "{} listed", kind.name());
    }
    assert!(text.contains("money = 100, start = 5, length = 10"));
    for game in ["bidding", "troops", "armies", "breakthrough"] {
        assert!(
            text.contains(&format!("solver: ladder solve {game} --help")),
            "{text}"
        );
    }
    assert!(!text.contains("solve coordination"));
    let bots = ladder().args(["list", "bots"]).assert().success();
    let bots = String::from_utf8(bots.get_output().stdout.clone()).unwrap();
    // one line each, the descriptions in one column
    let column = |line: &str| line[27..].chars().next().unwrap();
    assert!(bots.lines().all(|l| column(l) != ' '), "{bots}");
    assert!(bots.contains("armies        equilibrium  plays"), "{bots}");
    ladder()
        .args(["list", "bots", "--game", "breakthrough"])
        .assert()
        .success()
        .stdout(predicate::str::contains("breakthrough  random"));
    ladder().args(["list", "planets"]).assert().code(2);
}

#[test]
fn help_describes_the_commands() {
    ladder()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("run"))
        .stdout(predicate::str::contains("match"))
        .stdout(predicate::str::contains("list"));
    ladder()
        .args(["run", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--jobs"));
}

#[test]
fn jobs_are_bounded_with_a_clear_message() {
    let tmp = TempDir::new().unwrap();
    let cfg = tmp.path().join("j.toml");
    let text = fs::read_to_string(config("troops")).unwrap();
    fs::write(&cfg, text.edit("[season]", "[season]\njobs = 100000")).unwrap();
    run(&cfg, tmp.path(), &[])
        .code(2)
        .stderr(predicate::str::contains(
            "j.toml:7:8: key `season.jobs`: jobs is a number of games at once, 1..=1024, or `auto`; got `100000`",
        ));
    fs::write(&cfg, text.edit("[season]", "[season]\njobs = \"many\"")).unwrap();
    run(&cfg, tmp.path(), &[])
        .code(2)
        .stderr(predicate::str::contains("1..=1024, or `auto`; got `many`"));
    run(&config("troops"), tmp.path(), &["--jobs", "5000"])
        .code(2)
        .stderr(predicate::str::contains(
            "invalid value '5000' for '--jobs <N|auto>': jobs is a number of games at once, 1..=1024, or `auto`",
        ));
    // more workers than games: only as many as there are games start
    run(
        &config("troops"),
        tmp.path(),
        &["--jobs", "1000", "--max-games", "4", "-q"],
    )
    .success();
}

#[test]
fn a_closed_pipe_ends_quietly_and_a_full_disk_is_an_error() {
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_ladder"))
        .args(["list", "bots"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away before ladder writes
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    if Path::new("/dev/full").exists() {
        let full = fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = StdCommand::new(env!("CARGO_BIN_EXE_ladder"))
            .args(["list", "bots"])
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("error: writing standard output"),
            "{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn solving_a_finished_position_says_the_game_is_over() {
    for (position, who) in [("0", "player 1 has won"), ("10", "player 2 has won")] {
        ladder()
            .args(["solve", "bidding", "--position", position])
            .assert()
            .success()
            .stdout(predicate::str::contains(format!("the game is over: {who}")));
    }
    ladder()
        .args(["solve", "bidding", "--money1", "0", "--money2", "0"])
        .assert()
        .success()
        .stdout(predicate::str::contains("a draw, both players are broke"));
}

#[test]
fn solving_a_budget_past_the_solvers_reach_is_refused_at_once() {
    // a million a player would run for weeks without a word
    ladder()
        .args(["solve", "bidding", "--money", "1000000"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--money 1000000: the solver takes budgets up to 5000",
        ));
    ladder()
        .args(["solve", "bidding", "--money", "150", "--position", "4"])
        .assert()
        .success()
        .stdout(predicate::str::contains("position 4, money 150 and 150"));
}

#[test]
fn run_and_match_offer_fresh_and_match_has_no_config() {
    let help = |cmd: &str| {
        let out = ladder().args([cmd, "--help"]).output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(help("run").contains("--fresh"));
    // a match resumes, so it can be told not to
    let m = help("match");
    assert!(m.contains("--fresh"), "{m}");
    assert!(!m.contains("config"), "match has no config:\n{m}");
}

#[test]
fn a_bot_that_cannot_play_the_setting_is_refused_when_the_config_is_read() {
    let tmp = TempDir::new().unwrap();
    let cfg = tmp.path().join("big.toml");
    let text = fs::read_to_string(config("bidding")).unwrap();
    fs::write(&cfg, text.edit("money = 100", "money = 1000000")).unwrap();
    let reports = tmp.path().join("reports");
    run(&cfg, &reports, &[]).code(2).stderr(
        predicate::str::contains("key `bot.builtin`: optimal supports money up to 5000")
            .and(predicate::str::contains("big.toml:")),
    );
    assert!(!reports.exists(), "nothing written");
}

/// Plays the shipped troops season into a fresh folder; returns it and the journal's text.
fn troops_season(tmp: &Path) -> (PathBuf, String) {
    run(&config("troops"), tmp, &["-q"]).success();
    let dir = tmp.join("troops");
    let text = fs::read_to_string(dir.join("games.jsonl")).unwrap();
    (dir, text)
}

#[test]
fn verify_replays_every_game_and_names_the_first_mismatch() {
    let tmp = TempDir::new().unwrap();
    let (dir, text) = troops_season(tmp.path());
    ladder()
        .arg("verify")
        .arg(&dir)
        .assert()
        .success()
        .stdout(predicate::str::contains("200 games in schedule order"));
    let lines: Vec<&str> = text.lines().collect();
    let third = lines[2];
    let v: serde_json::Value = serde_json::from_str(third).unwrap();
    let goals = v["goals"].clone();
    let flipped_goals = serde_json::json!([goals[1], goals[0]]);
    let first_move = v["moves"][0][0].as_str().unwrap().to_string();
    let cases = [
        // a flipped result
        (
            third.edit(
                &format!("\"result\":{}", v["result"]),
                if v["result"] == "first" {
                    "\"result\":\"second\""
                } else {
                    "\"result\":\"first\""
                },
            ),
            "games.jsonl:3: not a game record: game 2: result",
        ),
        // flipped goals
        (
            third.edit(
                &format!("\"goals\":{goals}"),
                &format!("\"goals\":{flipped_goals}"),
            ),
            "games.jsonl:3: not a game record: game 2: goals",
        ),
        // an illegal move
        (
            third.replacen(&format!("\"{first_move}\""), "\"10,10,10\"", 1),
            "games.jsonl:3: not a game record: game 2: turn 1: 10,10,10",
        ),
        // a wrong seed, in both its forms
        (
            third.edit(
                &format!("\"seed\":{},\"seed_text\":\"{}\"", v["seed"], v["seed"]),
                "\"seed\":7,\"seed_text\":\"7\"",
            ),
            "games.jsonl:3: not a game record: game 2: seed 7",
        ),
        // a pair that is not the schedule's
        (
            third.edit(
                &format!("\"pair\":{}", v["pair"]),
                &format!("\"pair\":{}", v["pair"].as_u64().unwrap() + 1),
            ),
            "games.jsonl:3: not a game record: game 2: pair",
        ),
        // a seed whose text says otherwise
        (
            third.edit(&format!("\"seed\":{}", v["seed"]), "\"seed\":7"),
            "is not the seed 7: one of them was edited",
        ),
    ];
    for (tampered, want) in cases {
        assert_ne!(tampered, third, "the case changes the line");
        let mut edited = lines.clone();
        edited[2] = &tampered;
        fs::write(dir.join("games.jsonl"), edited.join("\n") + "\n").unwrap();
        ladder()
            .arg("verify")
            .arg(&dir)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(want));
    }
    // two lines swapped
    let mut swapped = lines.clone();
    swapped.swap(4, 5);
    fs::write(dir.join("games.jsonl"), swapped.join("\n") + "\n").unwrap();
    ladder()
        .arg("verify")
        .arg(&dir)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "games.jsonl:5: not a game record: game 5: out of schedule order",
        ));
}

#[test]
fn resume_restores_schedule_order_after_a_line_is_deleted_or_moved() {
    let tmp = TempDir::new().unwrap();
    let (dir, text) = troops_season(tmp.path());
    let lines: Vec<&str> = text.lines().collect();
    let damaged: [Vec<&str>; 2] = [
        // line 51 deleted
        lines
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != 50)
            .map(|(_, l)| *l)
            .collect(),
        // line 11 moved to the end
        lines[..10]
            .iter()
            .chain(&lines[11..])
            .chain(std::iter::once(&lines[10]))
            .copied()
            .collect(),
    ];
    for journal in damaged {
        fs::write(dir.join("games.jsonl"), journal.join("\n") + "\n").unwrap();
        run(&config("troops"), tmp.path(), &["-q"]).success();
        assert_eq!(
            fs::read_to_string(dir.join("games.jsonl")).unwrap(),
            text,
            "the resumed journal is the original, in order"
        );
        assert!(!dir.join("pending.jsonl").exists());
        ladder().arg("verify").arg(&dir).assert().success();
    }
}

#[test]
fn the_readme_example_is_real_output() {
    let readme =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let command = "$ cargo run --release -- run configs/troops.toml\n";
    let start = readme.find(command).expect("the example in the README") + command.len();
    let shown = &readme[start..start + readme[start..].find("```").unwrap()];
    let tmp = TempDir::new().unwrap();
    let out = ladder()
        .current_dir(tmp.path())
        .arg("run")
        .arg(config("troops"))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), shown);
}

#[test]
fn a_season_of_billions_of_games_plays_its_first_ten_at_once() {
    // the schedule is computed game by game: nothing of its size is built
    let tmp = TempDir::new().unwrap();
    let cfg = tmp.path().join("huge.toml");
    let text = fs::read_to_string(config("troops")).unwrap();
    fs::write(
        &cfg,
        text.edit("games_per_pair = 200", "games_per_pair = 4294967295"),
    )
    .unwrap();
    for played in [10, 20] {
        run(&cfg, tmp.path(), &["--max-games", "10", "-q"])
            .success()
            .stdout(predicate::str::contains(format!(
                "{played} of 25769803770 games"
            )));
    }
    ladder()
        .arg("verify")
        .arg(tmp.path().join("troops"))
        .assert()
        .success()
        .stdout(predicate::str::contains("20 games in schedule order"));
}

#[test]
fn a_complete_seasons_journal_is_compressed_and_read_by_resume_and_verify() {
    let tmp = TempDir::new().unwrap();
    let (_, plain) = troops_season(&tmp.path().join("plain"));
    let cfg = tmp.path().join("troops.toml");
    let text = fs::read_to_string(config("troops")).unwrap();
    fs::write(
        &cfg,
        text.edit(
            "games_per_pair = 200",
            "games_per_pair = 200\ncompress = true",
        ),
    )
    .unwrap();
    let reports = tmp.path().join("zst");
    // half now, the rest later: only a complete season is compressed
    run(&cfg, &reports, &["--max-games", "100", "-q"]).success();
    let dir = reports.join("troops");
    assert!(dir.join("games.jsonl").exists());
    assert!(!dir.join("games.jsonl.zst").exists());
    let first = run(&cfg, &reports, &["-q"]).success();
    let table = String::from_utf8(first.get_output().stdout.clone()).unwrap();
    assert!(!dir.join("games.jsonl").exists());
    let zst = fs::read(dir.join("games.jsonl.zst")).unwrap();
    assert!(
        zst.len() * 5 < plain.len(),
        "{} vs {}",
        zst.len(),
        plain.len()
    );
    assert_eq!(
        zstd::decode_all(&zst[..]).unwrap(),
        plain.as_bytes(),
        "the journal of an uncompressed run, byte for byte"
    );
    // a rerun reads it and plays nothing; the standings are the same
    let again = run(&cfg, &reports, &["-q"]).success();
    let rerun = String::from_utf8(again.get_output().stdout.clone()).unwrap();
    assert!(
        rerun.contains("0 games played now, 1200 resumed"),
        "{rerun}"
    );
    let standings = |s: &str| s.split("\n\n").take(3).collect::<Vec<_>>().join("\n\n");
    assert_eq!(standings(&rerun), standings(&table));
    ladder()
        .arg("verify")
        .arg(&dir)
        .assert()
        .success()
        .stdout(predicate::str::contains("200 games in schedule order"));
    // a compressed journal damaged by hand is named
    let mut bytes = zst.clone();
    // the last bytes are the content checksum: every byte read, then refused
    let at = bytes.len() - 2;
    bytes[at] ^= 0xff;
    fs::write(dir.join("games.jsonl.zst"), &bytes).unwrap();
    run(&cfg, &reports, &["-q"])
        .failure()
        .stderr(predicate::str::contains("games.jsonl.zst"));
}

#[test]
fn report_renders_a_seasons_reports_again_from_its_journal() {
    let tmp = TempDir::new().unwrap();
    let (dir, _) = troops_season(tmp.path());
    let files = [
        "leaderboard.md",
        "standings.csv",
        "standings.json",
        "index.html",
        "crosstable.svg",
        "lengths.svg",
    ];
    let before: Vec<Vec<u8>> = files
        .iter()
        .map(|f| fs::read(dir.join(f)).unwrap())
        .collect();
    for f in files {
        fs::remove_file(dir.join(f)).unwrap();
    }
    ladder()
        .args(["report", "--format", "md"])
        .arg(&dir)
        .assert()
        .success()
        .stdout(predicate::str::contains("Season troops: troops"));
    assert!(dir.join("leaderboard.md").exists() && !dir.join("index.html").exists());
    ladder().arg("report").arg(&dir).assert().success();
    for (f, old) in files.iter().zip(&before) {
        assert_eq!(
            &fs::read(dir.join(f)).unwrap(),
            old,
            "{f}: the same bytes again"
        );
    }
    ladder()
        .arg("report")
        .arg(tmp.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a season's folder"));
}

#[test]
fn replay_tells_a_game_turn_by_turn_with_the_position_drawn() {
    let tmp = TempDir::new().unwrap();
    run(
        &config("breakthrough"),
        tmp.path(),
        &["-q", "--max-games", "3"],
    )
    .success();
    let journal = tmp.path().join("breakthrough/games.jsonl");
    let first: serde_json::Value = serde_json::from_str(
        fs::read_to_string(&journal)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let out = ladder()
        .args(["replay", "--game", "0"])
        .arg(&journal)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("Game 0 of season breakthrough (breakthrough): "),
        "{text}"
    );
    assert!(text.contains("8  B B B B B B B B\n7  B B B B B B B B\n6  . . . . . . . ."));
    assert!(text.contains("   a b c d e f g h\nwhite (player 1) to move"));
    let turns = text.matches("\nTurn ").count() as u64;
    assert_eq!(turns, first["plies"].as_u64().unwrap());
    let first_move = first["moves"][0].as_str().unwrap();
    assert!(text.contains(&format!(
        "Turn 1: {} plays {first_move}\n",
        first["seats"][0].as_str().unwrap()
    )));
    assert!(text.contains(&format!(
        "goals {} to {}",
        first["goals"][0], first["goals"][1]
    )));
    // bidding: the bottle on its line, the money, the advantage; a folder works too
    run(&config("bidding"), tmp.path(), &["-q", "--max-games", "3"]).success();
    ladder()
        .args(["replay", "--game", "2"])
        .arg(tmp.path().join("bidding"))
        .assert()
        .success()
        .stdout(predicate::str::contains("0 -----o----- 10   bottle at 5"))
        .stdout(predicate::str::contains(
            "money: player 1 100, player 2 100; draw advantage: player 1",
        ));
    ladder()
        .args(["replay", "--game", "99999"])
        .arg(&journal)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no game 99999 (it holds 3 games; games are numbered from 0)",
        ));
}

#[test]
fn an_anchor_bot_is_rated_zero_and_a_report_again_keeps_it() {
    let tmp = TempDir::new().unwrap();
    let cfg = tmp.path().join("troops.toml");
    let text = fs::read_to_string(config("troops")).unwrap();
    fs::write(
        &cfg,
        text.edit("seed = 2016", "seed = 2016\nanchor = \"random\""),
    )
    .unwrap();
    let out = run(&cfg, tmp.path(), &["-q"]).success();
    let shown = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let row = |bot: &str| {
        shown
            .lines()
            .find(|l| l.contains(&format!(" {bot} ")))
            .unwrap()
            .to_string()
    };
    assert!(row("random").contains("┆   +0 (zero point) ┆"), "{shown}");
    assert!(row("balanced").contains("+72 ("), "{shown}");
    let dir = tmp.path().join("troops");
    let md = fs::read_to_string(dir.join("leaderboard.md")).unwrap();
    assert!(md.contains("random at 0"), "{md}");
    fs::remove_file(dir.join("leaderboard.md")).unwrap();
    ladder().arg("report").arg(&dir).assert().success();
    assert_eq!(fs::read_to_string(dir.join("leaderboard.md")).unwrap(), md);
    fs::write(
        &cfg,
        text.edit("seed = 2016", "seed = 2016\nanchor = \"nobody\""),
    )
    .unwrap();
    run(&cfg, &tmp.path().join("bad"), &["-q"])
        .code(2)
        .stderr(predicate::str::contains(
            "key `season.anchor`: no bot is named `nobody`",
        ));
}

#[test]
fn the_readme_replay_example_is_real_output() {
    let readme =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme
        .find("Game 3 of season bidding")
        .expect("the example");
    let shown = &readme[start..start + readme[start..].find("```").unwrap()];
    let tmp = TempDir::new().unwrap();
    run(&config("bidding"), tmp.path(), &["-q", "--max-games", "4"]).success();
    let out = ladder()
        .args(["replay", "--game", "3"])
        .arg(tmp.path().join("bidding"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with(shown), "README:\n{shown}\nreal:\n{text}");
}

/// Checks that `reports/examples/GAME/` holds what `configs/GAME.toml` gives.
/// breakthrough's takes a minute of search: it is regenerated by hand
/// (`ladder run configs/breakthrough.toml`, then copied).
fn the_committed_example_is_what_the_config_gives(game: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = TempDir::new().unwrap();
    run(&config(game), tmp.path(), &["-q"]).success();
    for file in ["leaderboard.md", "standings.csv"] {
        let fresh = fs::read_to_string(tmp.path().join(game).join(file)).unwrap();
        let committed =
            fs::read_to_string(root.join("reports/examples").join(game).join(file)).unwrap();
        assert!(
            fresh == committed,
            "reports/examples/{game}/{file} is out of date: rerun configs/{game}.toml"
        );
    }
}

/// One test per shipped example, so that they run side by side.
macro_rules! committed_examples {
    ($($test:ident: $game:literal,)*) => {$(
        #[test]
        fn $test() {
            the_committed_example_is_what_the_config_gives($game);
        }
    )*};
}

committed_examples! {
    the_troops_example_is_what_its_config_gives: "troops",
    the_armies_example_is_what_its_config_gives: "armies",
    the_coordination_example_is_what_its_config_gives: "coordination",
    the_bidding_example_is_what_its_config_gives: "bidding",
    the_bidding_field_example_is_what_its_config_gives: "bidding-field",
    the_gdl_connect4_example_is_what_its_config_gives: "gdl-connect4",
    the_gdl_breakthrough_example_is_what_its_config_gives: "gdl-breakthrough",
    the_gdl_troops_example_is_what_its_config_gives: "gdl-troops",
    the_gdl_armies_example_is_what_its_config_gives: "gdl-armies",
    the_gdl_coordination_example_is_what_its_config_gives: "gdl-coordination",
    the_gdl_bidding_example_is_what_its_config_gives: "gdl-bidding",
}

/// `ladder __exec-bot` with its six settings (MEMORY_MB PROCESSES CPU_S
/// PARENT STDOUT SESSION, `-` for none), `--`, then `program`.
fn exec_bot(settings: [&str; 6], program: &[&str]) -> Command {
    let mut cmd = ladder();
    cmd.arg("__exec-bot").args(settings).arg("--").args(program);
    cmd
}

#[test]
fn the_exec_helper_sets_limits_then_becomes_the_program() {
    // what ladder runs to start a bot:
    // `__exec-bot MEMORY_MB PROCESSES CPU_S PARENT STDOUT SESSION -- PROGRAM...`
    let none = ["-"; 6];
    exec_bot(none, &["sh", "-c", "ulimit -t; echo $$"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("unlimited\n"));
    // a session of its own: no controlling terminal, its session id its pid
    let session = "test \"$(ps -o sid= -p $$ | tr -d ' ')\" = $$ && echo own || echo ladders";
    exec_bot(["-", "-", "-", "-", "-", "session"], &["sh", "-c", session])
        .assert()
        .success()
        .stdout("own\n");
    // without: ladder's session (its caller made its process group)
    exec_bot(none, &["sh", "-c", session])
        .assert()
        .success()
        .stdout("ladders\n");
    exec_bot(["-", "-", "-", "-", "-", "yes"], &["true"])
        .assert()
        .code(127)
        .stderr("ladder: cannot start the bot: its session is neither `session` nor `-`\n");
    // memory is what the bot writes to, not what it reserves
    exec_bot(
        ["64", "-", "-", "-", "-", "-"],
        &["sh", "-c", "ulimit -d; ulimit -v"],
    )
    .assert()
    .success()
    .stdout("65536\nunlimited\n");
    exec_bot(["-", "-", "7", "-", "-", "-"], &["sh", "-c", "ulimit -t"])
        .assert()
        .success()
        .stdout("7\n");
    ladder()
        .args(["__exec-bot", "-", "-"])
        .assert()
        .code(127)
        .stderr("ladder: cannot start the bot: the helper's arguments are incomplete\n");
    exec_bot(none, &["/nonexistent/bot"])
        .assert()
        .code(127)
        .stderr(predicate::str::contains(
            "ladder: cannot start the bot: `/nonexistent/bot`: No such file",
        ));
    // the helper is no command a person sees
    ladder()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("exec-bot").not());
}

#[test]
fn a_huge_config_value_is_shown_in_part_in_its_error() {
    let tmp = TempDir::new().unwrap();
    let cfg = tmp.path().join("big.toml");
    let huge = "x".repeat(5 * 1024 * 1024);
    fs::write(
        &cfg,
        format!("[season]\nname = \"big\"\ngame = \"troops\"\nseed = \"{huge}\"\n\n[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n\n[[bot]]\nname = \"b\"\nbuiltin = \"random\"\n"),
    )
    .unwrap();
    let out = ladder().arg("run").arg(&cfg).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("big.toml:4"),
        "{}",
        &stderr[..stderr.len().min(500)]
    );
    assert!(stderr.len() < 2000, "the error is {} bytes", stderr.len());
}

#[test]
fn an_escape_sequence_in_a_config_reaches_the_terminal_written_out() {
    let tmp = TempDir::new().unwrap();
    // an escaped ESC in a value (quoted in the message), a raw one in a key
    // (the line shown beside it), and a file name holding one
    for (file, text) in [
        (
            "a.toml",
            "[season]\ngame = \"tr\\u001b]0;pwned\\u0007oops\"\n",
        ),
        ("b.toml", "[season]\ngame = \"troops\"\n\x1b[2J = 1\n"),
        ("c\x1b[2J.toml", "[season\n"),
    ] {
        let cfg = tmp.path().join(file);
        fs::write(&cfg, text).unwrap();
        let out = ladder().arg("run").arg(&cfg).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            !stderr.contains('\x1b') && !stderr.contains('\x07'),
            "{stderr:?}"
        );
        assert!(stderr.contains("\\u{1b}"), "{stderr}");
    }
}

#[test]
fn replay_names_the_folder_that_is_missing_and_list_names_a_required_parameter() {
    let tmp = TempDir::new().unwrap();
    // what `ladder ARGS... DIR` says on stderr, failing
    let refused = |args: &[&str], dir: &Path| {
        let out = ladder().args(args).arg(dir).output().unwrap();
        assert!(!out.status.success());
        String::from_utf8(out.stderr).unwrap()
    };
    let replay = ["replay", "--game", "0"];
    let err = refused(&replay, &tmp.path().join("nothing"));
    assert!(
        err.contains("nothing: no such season folder or journal"),
        "{err}"
    );
    fs::write(tmp.path().join("ladder.json"), "{}").unwrap();
    let err = refused(&replay, tmp.path());
    assert!(
        err.contains("is a ladder: name one of its seasons' folders (a division's, where a season has several); it has played none yet"),
        "{err}"
    );
    // a ladder of one division plays each season in its season folder
    fs::create_dir(tmp.path().join("season-001")).unwrap();
    fs::write(tmp.path().join("season-001/season.json"), "{}").unwrap();
    let err = refused(&replay, tmp.path());
    assert!(
        err.ends_with(&format!(
            "several), as {}\n",
            tmp.path().join("season-001").display()
        )),
        "{err}"
    );
    let arena = tmp.path().join("arena");
    fs::create_dir(&arena).unwrap();
    fs::write(arena.join("arena.db"), "").unwrap();
    let err = refused(&["export", "--format", "csv"], &arena);
    assert!(
        err.contains("arena is an arena: `ladder arena export "),
        "{err}"
    );
    let out = ladder().args(["list", "games"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("parameters: rules = ... (no default: give it in [season.params])"),
        "{text}"
    );
    assert!(!text.contains("missing field"), "{text}");
}

/// Fits Bradley-Terry ratings (Elo scale, mean 0) from a PGN file with
/// python-chess, a real PGN reader: every game's tags and result, then
/// Hunter's MM iterations to the maximum-likelihood fit, draws as half points.
const PGN_FIT: &str = r#"
import json, math, sys
import chess.pgn
games = []
with open(sys.argv[1]) as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        assert not g.errors, g.errors
        h = g.headers
        for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result"]:
            assert tag in h, tag
        games.append((h["White"], h["Black"], {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[h["Result"]]))
bots = sorted({b for w, k, _ in games for b in (w, k)})
points = {b: 0.0 for b in bots}
met = {}
for w, k, s in games:
    points[w] += s
    points[k] += 1 - s
    met[(w, k)] = met.get((w, k), 0) + 1
    met[(k, w)] = met.get((k, w), 0) + 1
gamma = {b: 1.0 for b in bots}
for _ in range(100000):
    new = {}
    for i in bots:
        d = sum(n / (gamma[i] + gamma[j]) for (a, j), n in met.items() if a == i)
        new[i] = points[i] / d
    mean = sum(math.log10(v) for v in new.values()) / len(bots)
    new = {b: v / 10 ** mean for b, v in new.items()}
    done = max(abs(math.log10(new[b] / gamma[b])) for b in bots) < 1e-13
    gamma = new
    if done:
        break
print(json.dumps({"games": len(games), "elo": {b: 400 * math.log10(g) for b, g in gamma.items()}}))
"#;

/// A Python with python-chess: `python3`, else Debian's own.
fn python_with_chess() -> Option<&'static str> {
    ["python3", "/usr/bin/python3"].into_iter().find(|p| {
        StdCommand::new(p)
            .args(["-c", "import chess.pgn"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[test]
fn export_pgn_is_read_by_python_chess_and_rates_the_bots_as_ladder_does() {
    let Some(python) = python_with_chess() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "python-chess is missing (.ci/run installs it from PyPI)"
        );
        eprintln!("SKIPPED: python-chess is not installed (pip install chess)");
        return;
    };
    let tmp = TempDir::new().unwrap();
    let config = tmp.path().join("pgn.toml");
    fs::write(
        &config,
        "[season]\ngame = \"troops\"\ngames_per_pair = 12\n\n\
         [[bot]]\nname = \"random\"\nbuiltin = \"random\"\n\n\
         [[bot]]\nname = \"balanced\"\nbuiltin = \"balanced\"\n\n\
         [[bot]]\nname = \"focus\"\nbuiltin = \"focus\"\n",
    )
    .unwrap();
    let reports = tmp.path().join("reports");
    run(&config, &reports, &["-q"]).success();
    let dir = reports.join("pgn");
    let out = tmp.path().join("games.pgn");
    ladder()
        .args(["export", dir.to_str().unwrap(), "--format", "pgn", "-o"])
        .arg(&out)
        .assert()
        .success();
    let read = common::python(python, PGN_FIT, &[&out]);
    let fitted: serde_json::Value = serde_json::from_slice(&read).unwrap();
    assert_eq!(fitted["games"], 36);
    let standings: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("standings.json")).unwrap()).unwrap();
    let rows = standings["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert!(
        rows.iter().any(|r| r["elo"].as_f64().unwrap().abs() > 5.0),
        "the bots differ: {rows:?}"
    );
    for row in rows {
        let bot = row["bot"].as_str().unwrap();
        let ladder_elo = row["elo"].as_f64().expect("every bot is rated");
        let reader_elo = fitted["elo"][bot].as_f64().unwrap();
        assert!(
            (ladder_elo - reader_elo).abs() < 0.01,
            "{bot}: ladder {ladder_elo}, from the PGN {reader_elo}"
        );
    }
}

#[test]
fn match_takes_openings_adjudication_and_the_sprt_error_rates() {
    let tmp = TempDir::new().unwrap();
    let reports = tmp.path().join("reports");
    let r = reports.to_str().unwrap();
    let season = |name: &str| -> (serde_json::Value, Vec<serde_json::Value>) {
        let dir = reports.join(name);
        let s = serde_json::from_str(&fs::read_to_string(dir.join("season.json")).unwrap());
        (s.unwrap(), common::season_games(&dir))
    };
    // random plies: every game starts from an opening, one per game pair
    let args = ["match", "breakthrough", "random", "greedy", "--games", "4"];
    ladder()
        .args(args)
        .args(["--random-plies", "4", "--reports", r, "-q"])
        .assert()
        .success();
    let (s, games) = season("match-breakthrough-random-vs-greedy");
    assert_eq!(s["openings"]["random_plies"], 4);
    assert_eq!(games.len(), 4);
    assert_eq!(games[0]["opening"], games[1]["opening"]);
    assert!(games.iter().all(|g| g["opening"].is_string()));
    // a file of openings, shuffled by the seed
    let file = tmp.path().join("openings.txt");
    fs::write(&file, "moves b2b3 g7g6\nmoves c2c3 b7b6\n").unwrap();
    ladder()
        .args(["match", "breakthrough", "random", "random", "--games", "4"])
        .arg("--openings")
        .arg(&file)
        .args(["--openings-order", "random", "--reports", r, "-q"])
        .assert()
        .success();
    let (s, games) = season("match-breakthrough-random-1-vs-random-2");
    assert_eq!(s["openings"]["order"], "random");
    assert_eq!(s["openings"]["count"], 2);
    let openings: std::collections::BTreeSet<&str> = games
        .iter()
        .map(|g| g["opening"].as_str().unwrap())
        .collect();
    assert_eq!(openings.len(), 2, "both openings are played: {openings:?}");
    // a draw rule every game of two scoring bots meets
    ladder()
        .args(["match", "breakthrough", "search", "search", "--games", "2"])
        .args(["--draw", "movenumber=3,movecount=2,score=100000"])
        .args(["--reports", r, "-q"])
        .assert()
        .success();
    let (s, games) = season("match-breakthrough-search-1-vs-search-2");
    assert_eq!(s["adjudication"]["draw"]["move_number"], 3);
    for g in &games {
        assert_eq!(g["termination"]["kind"], "adjudicated", "{g}");
        assert_eq!(g["termination"]["rule"], "draw", "{g}");
    }
    // the SPRT's error rates set its bounds: ln(beta / (1 - alpha)), ln((1 - beta) / alpha)
    ladder()
        .args(["match", "troops", "random", "focus", "--games", "6"])
        .args([
            "--sprt",
            "0,50",
            "--sprt-alpha",
            "0.1",
            "--sprt-beta",
            "0.2",
        ])
        .args(["--reports", r, "-q"])
        .assert()
        .success();
    let dir = reports.join("match-troops-random-vs-focus");
    let standings: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("standings.json")).unwrap()).unwrap();
    let sprt = &standings["sprt"];
    assert_eq!(
        (sprt["alpha"].as_f64(), sprt["beta"].as_f64()),
        (Some(0.1), Some(0.2))
    );
    assert!((sprt["lower"].as_f64().unwrap() - (0.2f64 / 0.9).ln()).abs() < 1e-9);
    assert!((sprt["upper"].as_f64().unwrap() - 8f64.ln()).abs() < 1e-9);
    // mistakes are usage errors that say what is expected
    for (extra, says) in [
        (
            vec!["--draw", "movecount=0,score=3"],
            "--draw needs movecount",
        ),
        (vec!["--resign", "moves=3"], "keys movecount, score"),
        (
            vec!["--sprt", "0,5", "--sprt-alpha", "1.5"],
            "alpha must lie",
        ),
        (vec!["--random-plies", "400"], "--random-plies"),
    ] {
        ladder()
            .args(["match", "troops", "random", "focus", "--reports", r])
            .args(extra)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
}

#[test]
fn a_gauntlet_takes_several_champions_and_seats_follow_noswap_and_reverse() {
    let tmp = TempDir::new().unwrap();
    let reports = tmp.path().join("reports");
    let bots = "[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n\n\
                [[bot]]\nname = \"b\"\nbuiltin = \"balanced\"\n\n\
                [[bot]]\nname = \"c\"\nbuiltin = \"focus\"\n\n\
                [[bot]]\nname = \"d\"\nbuiltin = \"nash\"\n";
    let season = |name: &str, keys: &str| -> Vec<serde_json::Value> {
        let config = tmp.path().join(format!("{name}.toml"));
        fs::write(
            &config,
            format!("[season]\ngame = \"troops\"\ngames_per_pair = 4\n{keys}\n\n{bots}"),
        )
        .unwrap();
        run(&config, &reports, &["-q"]).success();
        common::assert_verified(&reports.join(name));
        common::season_games(&reports.join(name))
    };
    let pair_of = |g: &serde_json::Value| {
        let mut p = [
            g["seats"][0].as_str().unwrap().to_string(),
            g["seats"][1].as_str().unwrap().to_string(),
        ];
        p.sort();
        p
    };
    // the first two bots are the champions: each meets c and d, not the other
    let games = season("seeds", "format = \"gauntlet\"\nseeds = 2");
    let pairs: std::collections::BTreeSet<[String; 2]> = games.iter().map(pair_of).collect();
    let expected: std::collections::BTreeSet<[String; 2]> =
        [["a", "c"], ["a", "d"], ["b", "c"], ["b", "d"]]
            .iter()
            .map(|p| p.map(str::to_string))
            .collect();
    assert_eq!(pairs, expected);
    assert_eq!(games.len(), 16);
    let s: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(reports.join("seeds/season.json")).unwrap())
            .unwrap();
    assert_eq!(s["champions"], serde_json::json!(["a", "b"]));
    // a rerun resumes the finished season from its season.json
    let again = season("seeds", "format = \"gauntlet\"\nseeds = 2");
    assert_eq!(again, games);
    // noswap: the pairing's first bot always first; reverse: the other first
    let firsts = |games: &[serde_json::Value]| -> Vec<String> {
        games
            .iter()
            .filter(|g| pair_of(g) == ["a".to_string(), "b".to_string()])
            .map(|g| g["seats"][0].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(firsts(&season("plain", "")), ["a", "b", "a", "b"]);
    assert_eq!(
        firsts(&season("noswap", "noswap = true")),
        ["a", "a", "a", "a"]
    );
    assert_eq!(
        firsts(&season("reverse", "reverse = true")),
        ["b", "a", "b", "a"]
    );
    assert_eq!(
        firsts(&season("both", "noswap = true\nreverse = true")),
        ["b", "b", "b", "b"]
    );
    let s: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(reports.join("both/season.json")).unwrap())
            .unwrap();
    assert_eq!(s["seating"], "fixed-reversed");
    // and on the command line
    ladder()
        .args([
            "match",
            "troops",
            "random",
            "focus",
            "--games",
            "4",
            "--noswap",
            "--reverse",
        ])
        .arg("--reports")
        .arg(&reports)
        .arg("-q")
        .assert()
        .success();
    let games = common::season_games(&reports.join("match-troops-random-vs-focus"));
    assert!(games.iter().all(|g| g["seats"][0] == "focus"), "{games:?}");
    // seeds must leave bots to meet, and go with a gauntlet only
    for (keys, says) in [
        (
            "format = \"gauntlet\"\nseeds = 4",
            "seeds must lie in 1..=3",
        ),
        ("seeds = 2", "`seeds` is only for format = \"gauntlet\""),
        (
            "format = \"gauntlet\"\nseeds = 1\nchampion = \"a\"",
            "either `champion`",
        ),
    ] {
        let config = tmp.path().join("bad.toml");
        fs::write(
            &config,
            format!("[season]\ngame = \"troops\"\n{keys}\n\n{bots}"),
        )
        .unwrap();
        run(&config, &reports, &[])
            .code(2)
            .stderr(predicate::str::contains(says));
    }
}

#[test]
fn a_bot_can_have_its_own_time_control() {
    let tmp = TempDir::new().unwrap();
    let bot = common::testbot();
    let config = tmp.path().join("each.toml");
    fs::write(
        &config,
        format!(
            "[season]\ngame = \"troops\"\ngames_per_pair = 4\nmove_time_ms = 3000\n\n\
             [[bot]]\nname = \"hasty\"\ncommand = [\"{bot}\", \"--think\", \"300\"]\nmove_time_ms = 100\n\n\
             [[bot]]\nname = \"patient\"\ncommand = [\"{bot}\", \"--think\", \"300\"]\n"
        ),
    )
    .unwrap();
    let reports = tmp.path().join("reports");
    run(&config, &reports, &["-q"]).success();
    // the same program thinking 300 ms: out of time under its own 100 ms,
    // in time under the season's 3000 ms
    let games = common::season_games(&reports.join("each"));
    assert_eq!(games.len(), 4);
    for g in &games {
        let t = &g["termination"];
        assert_eq!(t["kind"], "forfeit", "{g}");
        assert_eq!(t["reason"], "timeout", "{g}");
        let seat = if t["seat"] == "first" { 0 } else { 1 };
        assert_eq!(g["seats"][seat], "hasty", "{g}");
    }
    let season: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(reports.join("each/season.json")).unwrap())
            .unwrap();
    assert_eq!(season["bots"][0]["move_time_ms"], 100);
    assert!(season["bots"][1].get("move_time_ms").is_none());
    // a bad one names the bot's key
    let text = fs::read_to_string(&config)
        .unwrap()
        .replace("move_time_ms = 100", "time_control = \"fast\"");
    fs::write(&config, text).unwrap();
    run(&config, &tmp.path().join("other"), &[]).code(2).stderr(
        predicate::str::contains("each.toml:")
            .and(predicate::str::contains("`fast` is not a number")),
    );
}

#[test]
fn report_replays_writes_a_page_for_every_game_of_a_season_longer_than_a_group() {
    // replay pages are written 64 at a time: 150 games make three groups
    let tmp = TempDir::new().unwrap();
    run(
        &config("coordination"),
        tmp.path(),
        &["-q", "--max-games", "150"],
    )
    .success();
    let season = tmp.path().join("coordination");
    ladder()
        .args(["report", "--replays"])
        .arg(&season)
        .assert()
        .success()
        .stderr(predicate::str::contains("wrote 150 replay pages"));
    let folder = season.join("replays");
    let list = fs::read_to_string(folder.join("index.html")).unwrap();
    for game in 0..150 {
        let page = fs::read_to_string(folder.join(format!("{game}.html"))).unwrap();
        assert!(page.contains(&format!("Game {game}:")), "page {game}");
        assert!(list.contains(&format!("href=\"{game}.html\"")), "{game}");
    }
    let names: Vec<String> = fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 153, "150 pages, the index, app.js, style.css");
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
}
