//! `[season.adjudication]` end to end, with bot programs that attach
//! `score=N` to their moves: games end as `adjudicated: resign` or
//! `adjudicated: draw by move count`, `ladder verify` accepts them, and a
//! rule written wrongly is a config error naming its key.

use std::{fs, path::Path};

use tempfile::TempDir;

mod common;
use common::Edit;

/// A breakthrough season of two test bots with these flags and `rules`.
fn season(dir: &Path, first: &str, second: &str, rules: &str) -> std::path::PathBuf {
    let testbot = common::testbot();
    let words = |flags: &str| {
        std::iter::once(format!("\"{testbot}\""))
            .chain(flags.split_whitespace().map(|w| format!("\"{w}\"")))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let config = dir.join("adj.toml");
    fs::write(
        &config,
        format!(
            "[season]\ngame = \"breakthrough\"\ngames_per_pair = 4\nsandbox = \"none\"\n\n\
             [season.adjudication]\n{rules}\n\n\
             [[bot]]\nname = \"a\"\ncommand = [{}]\n\n[[bot]]\nname = \"b\"\ncommand = [{}]\n",
            words(first),
            words(second)
        ),
    )
    .unwrap();
    config
}

fn run(dir: &Path, config: &Path) -> assert_cmd::assert::Assert {
    common::run(config, &dir.join("reports"), &["-q"])
}

fn journal(dir: &Path) -> Vec<serde_json::Value> {
    common::season_games(&dir.join("reports/adj"))
}

#[test]
fn a_bot_that_scores_itself_lost_resigns_and_verify_accepts_it() {
    let tmp = TempDir::new().unwrap();
    let config = season(
        tmp.path(),
        "--score -900",
        "--score 50",
        "resign_move_count = 3\nresign_score = 800",
    );
    let out = run(tmp.path(), &config).success();
    let shown = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(shown.contains("adjudicated: resign"), "{shown}");
    for g in journal(tmp.path()) {
        assert_eq!(g["termination"]["kind"], "adjudicated", "{g}");
        assert_eq!(g["termination"]["rule"], "resign", "{g}");
        // `a` resigned after its third move, whichever seat it had
        let a_first = g["seats"][0] == "a";
        assert_eq!(
            g["termination"]["seat"],
            if a_first { "first" } else { "second" }
        );
        assert_eq!(g["result"], if a_first { "second" } else { "first" });
        assert_eq!(g["plies"], if a_first { 5 } else { 6 }, "{g}");
    }
    common::assert_verified(&tmp.path().join("reports/adj"));
    // the rules are part of the season: changing them is refused on resume
    fs::write(
        &config,
        fs::read_to_string(&config).unwrap().edit("800", "700"),
    )
    .unwrap();
    run(tmp.path(), &config)
        .code(2)
        .stderr(predicates::str::contains("adjudication"));
}

#[test]
fn bots_that_score_the_game_even_draw_by_move_count() {
    let tmp = TempDir::new().unwrap();
    let config = season(
        tmp.path(),
        "--score 3",
        "--score -2",
        "draw_move_number = 10\ndraw_move_count = 4\ndraw_score = 5",
    );
    run(tmp.path(), &config).success();
    let games = journal(tmp.path());
    assert!(games
        .iter()
        .any(|g| g["termination"]["kind"] == "adjudicated"));
    for g in games {
        // games that end by the rules before move 10 are not adjudicated
        if g["termination"]["kind"] == "adjudicated" {
            assert_eq!(g["termination"]["rule"], "draw", "{g}");
            assert_eq!(g["plies"], 10, "{g}");
            assert_eq!(g["result"], "draw");
            assert_eq!(g["goals"], serde_json::json!([50, 50]));
        } else {
            assert_eq!(g["termination"]["kind"], "normal");
            assert!(g["plies"].as_u64().unwrap() < 10, "{g}");
        }
    }
    common::assert_verified(&tmp.path().join("reports/adj"));
    let md = fs::read_to_string(tmp.path().join("reports/adj/leaderboard.md")).unwrap();
    assert!(md.contains("adjudicated: draw by move count"), "{md}");
}

#[test]
fn bad_rules_name_their_key() {
    let tmp = TempDir::new().unwrap();
    for (rules, says) in [
        (
            "resign_move_count = 3",
            "resigning (resign_move_count, resign_score) needs both of its keys",
        ),
        (
            "draw_move_count = 0\ndraw_score = 5",
            "key `season.adjudication.draw_move_count`: a move count must be at least 1",
        ),
        (
            "resign_move_count = 2\nresign_score = -5",
            "key `season.adjudication.resign_score`: a score bound is at least 0",
        ),
        ("draw_moves = 3", "unknown field `draw_moves`"),
    ] {
        let config = season(tmp.path(), "", "", rules);
        run(tmp.path(), &config)
            .code(2)
            .stderr(predicates::str::contains(says));
    }
}

#[test]
fn breakthroughs_search_scores_its_moves_so_a_lost_search_resigns() {
    let tmp = TempDir::new().unwrap();
    let config = tmp.path().join("adj.toml");
    fs::write(
        &config,
        "[season]\ngame = \"breakthrough\"\ngames_per_pair = 4\n\n\
         [season.adjudication]\nresign_move_count = 2\nresign_score = 500\n\n\
         [[bot]]\nname = \"a\"\nbuiltin = \"search\"\nparams = { nodes = 2000 }\n\n\
         [[bot]]\nname = \"b\"\nbuiltin = \"search\"\nparams = { nodes = 4000 }\n",
    )
    .unwrap();
    run(tmp.path(), &config).success();
    let games = journal(tmp.path());
    let resigned = games
        .iter()
        .filter(|g| g["termination"]["rule"] == "resign")
        .count();
    assert!(resigned > 0, "a search that sees itself lost resigns");
    common::assert_verified(&tmp.path().join("reports/adj"));
}
