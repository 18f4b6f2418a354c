//! `[season.sprt]` end to end: a season stops at the game whose result
//! decides the test, the same game at any `--jobs` and after any resume,
//! and every report says the LLR and the verdict.

use std::{fs, path::Path};

use assert_cmd::Command;
use ladder::{
    core::record::Scored,
    stats::sprt::{Model, Sprt, Statistics, Verdict},
    stats::standings::Standings,
};
use predicates::prelude::PredicateBooleanExt;
use tempfile::TempDir;

mod common;
use common::Edit;

const LADDER: &str = env!("CARGO_BIN_EXE_ladder");

/// breakthrough's greedy against random, tested for +100 Elo: decided
/// within a few dozen games of the 2,000 scheduled.
const GREEDY: &str = r#"
[season]
name = "sprt"
game = "breakthrough"
games_per_pair = 2000
seed = 3

[season.sprt]
elo0 = 0
elo1 = 100

[[bot]]
name = "greedy"
builtin = "greedy"

[[bot]]
name = "random"
builtin = "random"
"#;

fn run(dir: &Path, config: &str, args: &[&str]) -> String {
    let path = dir.join("season.toml");
    fs::write(&path, config).unwrap();
    let out = Command::new(LADDER)
        .arg("run")
        .arg(&path)
        .args(["--reports", dir.join("reports").to_str().unwrap(), "-q"])
        .args(args)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

fn read(dir: &Path, file: &str) -> String {
    fs::read_to_string(dir.join("reports/sprt").join(file)).unwrap()
}

/// The games of a journal, in order.
fn games(journal: &str) -> Vec<Scored> {
    let names = ["greedy".to_string(), "random".to_string()];
    journal
        .lines()
        .map(|l| Scored::from_line(l, &names).unwrap().unwrap())
        .collect()
}

fn greedy_test() -> Sprt {
    Sprt {
        elo0: 0.0,
        elo1: 100.0,
        alpha: 0.05,
        beta: 0.05,
        model: Model::Normalized,
        statistics: Statistics::Pentanomial,
        candidate: 0,
    }
}

#[test]
fn the_season_stops_at_the_deciding_game_at_any_jobs() {
    let one = TempDir::new().unwrap();
    let shown = run(one.path(), GREEDY, &["-j", "1"]);
    let journal = read(one.path(), "games.jsonl");
    let played = games(&journal);
    assert!(played.len() < 200, "{} games", played.len());
    // the LLR, recounted game by game, first leaves its bounds at the last game
    let test = greedy_test();
    let names = ["greedy".to_string(), "random".to_string()];
    let mut s = Standings::empty(&names);
    for (k, g) in played.iter().enumerate() {
        assert_eq!(g.index, k as u64);
        s.add(g);
        let verdict = test.verdict(test.llr(&s));
        let last = k + 1 == played.len();
        assert_eq!(
            verdict != Verdict::Unfinished,
            last,
            "game {k}: {verdict:?}"
        );
    }
    assert!(
        shown.contains(&format!("{} of 2000 games", played.len())),
        "{shown}"
    );
    assert!(
        shown.contains("LLR: ") && shown.contains("(-2.94, 2.94) [0.00, 100.00]: H1 accepted (greedy at least 100 Elo stronger; normalized Elo, pentanomial)"),
        "{shown}"
    );
    for jobs in ["2", "5"] {
        let other = TempDir::new().unwrap();
        run(other.path(), GREEDY, &["-j", jobs]);
        assert_eq!(read(other.path(), "games.jsonl"), journal, "--jobs {jobs}");
        assert_eq!(
            read(other.path(), "standings.json"),
            read(one.path(), "standings.json")
        );
        assert!(!other.path().join("reports/sprt/pending.jsonl").exists());
    }
    // the verdict is a field of the JSON report, and every report shows the line
    let json: serde_json::Value =
        serde_json::from_str(&read(one.path(), "standings.json")).unwrap();
    assert_eq!(json["sprt"]["result"], "H1");
    assert_eq!(json["sprt"]["candidate"], "greedy");
    assert_eq!(json["sprt"]["elo1"], 100.0);
    let llr = json["sprt"]["llr"].as_f64().unwrap();
    assert!(llr >= 2.944, "{llr}");
    assert_eq!(json["head_to_head"]["sprt"], json["sprt"]);
    for file in ["leaderboard.md", "index.html"] {
        assert!(
            read(one.path(), file).contains(&format!(
                "LLR: {llr:.2} ({:.1}%) (-2.94, 2.94)",
                100.0 * llr / 2.944_438_979_166_440_3
            )),
            "{file}"
        );
    }
    // a rerun has nothing left to play; the reports render again the same
    let again = run(one.path(), GREEDY, &[]);
    assert!(
        again.contains(&format!("0 games played now, {} resumed", played.len())),
        "{again}"
    );
    let before = read(one.path(), "leaderboard.md");
    Command::new(LADDER)
        .arg("report")
        .arg(one.path().join("reports/sprt"))
        .assert()
        .success();
    assert_eq!(read(one.path(), "leaderboard.md"), before);
}

#[test]
fn a_resumed_season_stops_at_the_same_game() {
    let whole = TempDir::new().unwrap();
    run(whole.path(), GREEDY, &["-j", "1"]);
    let journal = read(whole.path(), "games.jsonl");
    let lines: Vec<&str> = journal.lines().collect();

    // stopped by --max-games, then resumed
    let parts = TempDir::new().unwrap();
    run(parts.path(), GREEDY, &["--max-games", "7", "-j", "3"]);
    assert_eq!(games(&read(parts.path(), "games.jsonl")).len(), 7);
    run(parts.path(), GREEDY, &["-j", "3"]);
    assert_eq!(read(parts.path(), "games.jsonl"), journal);

    // interrupted with games finished out of order in pending.jsonl, some of
    // them past the deciding game: those do not count
    let crashed = TempDir::new().unwrap();
    run(crashed.path(), GREEDY, &["--max-games", "4"]);
    let dir = crashed.path().join("reports/sprt");
    let decided = lines.len();
    let mut extra = games(&journal).len() as u64;
    let mut later = String::new();
    // games 6..decided finished, and four games past the end of the test
    for line in &lines[6..] {
        later.push_str(line);
        later.push('\n');
    }
    let whole_more = TempDir::new().unwrap();
    let unstopped = GREEDY.edit("[season.sprt]\nelo0 = 0\nelo1 = 100\n", "");
    run(
        whole_more.path(),
        &unstopped.edit(
            "games_per_pair = 2000",
            &format!("games_per_pair = {}", decided + 4),
        ),
        &[],
    );
    let full = read(whole_more.path(), "games.jsonl");
    for line in full.lines().skip(decided) {
        later.push_str(line);
        later.push('\n');
        extra += 1;
    }
    assert_eq!(extra, decided as u64 + 4);
    fs::write(dir.join("pending.jsonl"), later).unwrap();
    run(crashed.path(), GREEDY, &[]);
    assert_eq!(read(crashed.path(), "games.jsonl"), journal);
    assert!(!dir.join("pending.jsonl").exists());
}

#[test]
fn an_undecided_test_plays_every_game_and_says_so() {
    let tmp = TempDir::new().unwrap();
    let config = GREEDY
        .edit("games_per_pair = 2000", "games_per_pair = 6")
        .edit(
            "elo1 = 100",
            "elo1 = 5\nmodel = \"logistic\"\nstatistics = \"trinomial\"",
        );
    let shown = run(tmp.path(), &config, &[]);
    assert_eq!(games(&read(tmp.path(), "games.jsonl")).len(), 6);
    assert!(
        shown.contains(": unfinished (greedy is tested; logistic Elo, trinomial)"),
        "{shown}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&read(tmp.path(), "standings.json")).unwrap();
    assert_eq!(json["sprt"]["result"], "unfinished");
    assert_eq!(json["sprt"]["model"], "logistic");
    assert_eq!(json["sprt"]["statistics"], "trinomial");
}

#[test]
fn a_gauntlet_tests_its_champion() {
    let tmp = TempDir::new().unwrap();
    // the champion is the second bot: the test is random's, and fails
    let config = GREEDY.edit(
        "seed = 3",
        "seed = 3\nformat = \"gauntlet\"\nchampion = \"random\"",
    );
    let shown = run(tmp.path(), &config, &[]);
    assert!(
        shown.contains("H0 accepted (random at most 0 Elo stronger; normalized Elo, pentanomial)"),
        "{shown}"
    );
    assert!(games(&read(tmp.path(), "games.jsonl")).len() < 200);
}

#[test]
fn a_trinomial_gauntlet_counts_its_champions_games_from_the_champions_side() {
    let tmp = TempDir::new().unwrap();
    // the champion is the second bot and the statistics trinomial: random's
    // wins, draws and losses decide, not greedy's
    let config = GREEDY
        .edit(
            "seed = 3",
            "seed = 3\nformat = \"gauntlet\"\nchampion = \"random\"",
        )
        .edit("elo1 = 100", "elo1 = 100\nstatistics = \"trinomial\"");
    assert!(config.contains("trinomial") && config.contains("champion"));
    let shown = run(tmp.path(), &config, &[]);
    assert!(
        shown.contains("H0 accepted (random at most 0 Elo stronger; normalized Elo, trinomial)"),
        "{shown}"
    );
    // the LLR is that of random's own results, counted here from the journal
    let played = games(&read(tmp.path(), "games.jsonl"));
    let (mut won, mut tie, mut lost) = (0, 0, 0);
    for g in &played {
        // bot 1 is random
        let (mine, theirs) = if g.seats.first == 1 {
            (g.goals.first, g.goals.second)
        } else {
            (g.goals.second, g.goals.first)
        };
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => won += 1,
            std::cmp::Ordering::Equal => tie += 1,
            std::cmp::Ordering::Less => lost += 1,
        }
    }
    assert!(lost > won, "greedy beats random: {won} {tie} {lost}");
    let test = Sprt {
        statistics: Statistics::Trinomial,
        candidate: 1,
        ..greedy_test()
    };
    let json: serde_json::Value =
        serde_json::from_str(&read(tmp.path(), "standings.json")).unwrap();
    let llr = json["sprt"]["llr"].as_f64().unwrap();
    let expected = test.llr_trinomial(&[lost, tie, won]);
    assert!((llr - expected).abs() < 1e-9, "{llr} against {expected}");
    assert_eq!(test.verdict(expected), Verdict::H0);
}

#[test]
fn ladder_match_takes_an_sprt() {
    // greedy against random at breakthrough, up to 1,000 games, under `sprt`
    let sprt_match = |reports: &Path, sprt: &[&str]| -> String {
        let out = Command::new(LADDER)
            .args(["match", "breakthrough", "greedy", "random"])
            .args(["--games", "1000", "-q", "--reports"])
            .arg(reports)
            .args(sprt)
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let mut journals = Vec::new();
    for jobs in ["1", "3"] {
        let tmp = TempDir::new().unwrap();
        let sprt = ["--sprt", "0,100", "--sprt-model", "logistic", "-j", jobs];
        let shown = sprt_match(tmp.path(), &sprt);
        assert!(shown.contains("[0.00, 100.00]: H1 accepted (greedy at least 100 Elo stronger; logistic Elo, pentanomial)"), "{shown}");
        let dir = tmp.path().join("match-breakthrough-greedy-vs-random");
        let journal = fs::read_to_string(dir.join("games.jsonl")).unwrap();
        assert!(journal.lines().count() < 200);
        journals.push(journal);
    }
    assert_eq!(journals[0], journals[1]);
    // a negative bound is a value, not an option
    let tmp = TempDir::new().unwrap();
    let shown = sprt_match(tmp.path(), &["--sprt", "-50,50"]);
    assert!(shown.contains("[-50.00, 50.00]: H1 accepted"), "{shown}");
    for (bad, says) in [
        ("5,0", "--sprt: elo0 must be below elo1"),
        ("-5", "--sprt: expected ELO0,ELO1 like `0,5`, got `-5`"),
        ("-q", "a value is required for '--sprt <ELO0,ELO1>'"),
        ("--reports", "a value is required for '--sprt <ELO0,ELO1>'"),
        ("five", "--sprt: expected ELO0,ELO1 like `0,5`, got `five`"),
    ] {
        Command::new(LADDER)
            .args(["match", "breakthrough", "greedy", "random", "--sprt", bad])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(says));
    }
    // an option after a bare --sprt is not taken for its value, so the
    // error names --sprt, not the option's own value
    Command::new(LADDER)
        .args(["match", "breakthrough", "greedy", "random"])
        .args(["--sprt", "--reports", "somewhere"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "a value is required for '--sprt <ELO0,ELO1>'",
        ))
        .stderr(predicates::str::contains("somewhere").not());
    Command::new(LADDER)
        .args(["match", "breakthrough", "greedy", "random", "--sprt=-q"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("not the option `-q`"));
}
