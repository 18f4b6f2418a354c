//! The referee's clock in whole seasons: an in-process bot that never answers
//! forfeits on time and the season completes around it; a program that
//! thinks too long runs out of its game clock and forfeits, with the overrun
//! in the journal; a program within its clock plays normally.

use std::{fs, path::Path, time::Duration};

use assert_cmd::Command;
use ladder::{
    catalog,
    core::record::Record,
    core::{
        bot::{Answer, Bot, BotError, RandomBot},
        clock::TimeControl,
        referee::Referee,
    },
    games::Bidding,
    plan::schedule::bot_seeds,
    plan::{match_plan, BotKind},
    run::tournament::{self, Options},
    Seat, TimeLeft,
};

mod common;

/// Plays like `random`, but never answers its second move in a game whose
/// seed is divisible by 3.
struct SleepsSometimes {
    random: RandomBot,
    hang: bool,
    moves: u32,
}

impl Bot<Bidding> for SleepsSometimes {
    fn new_game(&mut self, game: &Bidding, seat: Seat, seed: u64) -> Result<(), BotError> {
        self.hang = seed.is_multiple_of(3);
        self.moves = 0;
        Bot::<Bidding>::new_game(&mut self.random, game, seat, seed)
    }

    fn choose(
        &mut self,
        game: &Bidding,
        seat: Seat,
        time: TimeLeft,
    ) -> Result<Answer<ladder::games::bidding::Bid>, BotError> {
        self.moves += 1;
        if self.hang && self.moves == 2 {
            loop {
                std::thread::park();
            }
        }
        self.random.choose(game, seat, time)
    }
}

fn journal(dir: &Path) -> Vec<Record> {
    fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn an_in_process_bot_that_never_answers_forfeits_and_the_season_completes() {
    let time = TimeControl {
        margin: Duration::from_millis(20),
        ..TimeControl::per_move(Duration::from_millis(250))
    };
    let referee = Referee {
        time,
        ..Referee::new(1000)
    };
    let bots = ["random".to_string(), "sleeper".to_string()];
    // "sleeper" is not a built-in: plan two randoms, then swap the second
    let mut plan = match_plan(
        &catalog::roster(&ladder::games::bidding::ENTRY),
        ladder::plan::Match {
            bots: ["random".to_string(), "dp".to_string()],
            games: 24,
            seed: 5,
            sprt: None,
            openings: None,
            seating: Default::default(),
        },
        referee,
        &Default::default(),
        &toml::Table::new(),
    )
    .unwrap();
    plan.bots[1].name = bots[1].clone();
    plan.bots[1].kind = BotKind::Builtin(std::sync::Arc::new(|| {
        Box::new(SleepsSometimes {
            random: RandomBot::new(),
            hang: false,
            moves: 0,
        })
    }));
    let reports = tempfile::tempdir().unwrap();
    let opts = Options {
        jobs: Some(ladder::plan::jobs::Jobs::Fixed(2)),
        fresh: true,
        reports: reports.path().to_path_buf(),
        progress: None,
        progress_every: None,
        max_games: None,
        log: None,
        shard: None,
        strict: false,
    };
    let summary = tournament::run(&plan, &opts).unwrap();
    assert_eq!(summary.played, 24, "every game was played");
    let records = journal(&summary.dir);
    let indices: Vec<u64> = records.iter().map(|r| r.index).collect();
    assert_eq!(
        indices,
        (0..24).collect::<Vec<_>>(),
        "each game once, in order"
    );
    let mut hung = 0;
    for r in &records {
        let seat = if r.seats.first == "sleeper" {
            Seat::First
        } else {
            Seat::Second
        };
        let seed = bot_seeds(r.seed)[seat];
        let kind = r.termination.kind();
        if seed.is_multiple_of(3) && r.plies >= 1 {
            hung += 1;
            assert_eq!(kind, "forfeit: timeout", "game {}", r.index);
            let json = serde_json::to_value(&r.termination).unwrap();
            assert_eq!(json["seat"], serde_json::to_value(seat).unwrap());
            assert!(json["overrun_ms"].as_u64().unwrap() >= 20, "{json}");
            assert_eq!(
                r.plies, 1,
                "the first move was played, the second never came"
            );
        } else {
            assert_ne!(kind, "forfeit: timeout", "game {}", r.index);
        }
    }
    assert!(hung >= 3, "only {hung} games had a hanging move");
    assert!(summary.abandoned >= 1, "a worker was abandoned");
}

/// `ladder match coordination` of the test bot against `left`, with extra arguments.
fn clocked_match(think_ms: u32, extra: &[&str]) -> Vec<Record> {
    let testbot = common::testbot();
    let reports = tempfile::tempdir().unwrap();
    Command::cargo_bin("ladder")
        .unwrap()
        .args([
            "match",
            "coordination",
            &format!("cmd:{testbot} --think {think_ms}"),
            "left",
            "--games",
            "2",
            "-q",
            "--reports",
        ])
        .arg(reports.path())
        .args(extra)
        .assert()
        .success();
    let dir = fs::read_dir(reports.path())
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    journal(&dir)
}

#[test]
fn a_program_that_runs_out_of_its_game_clock_forfeits() {
    // 20 moves of 40 ms (more on a loaded machine) against a clock of 0.3 s:
    // out of time by the eighth move at the latest
    let records = clocked_match(40, &["--time-control", "0.3+0", "--margin-ms", "10"]);
    assert_eq!(records.len(), 2);
    for r in &records {
        let json = serde_json::to_value(&r.termination).unwrap();
        assert_eq!(r.termination.kind(), "forfeit: timeout", "{json}");
        assert!(
            json["detail"].as_str().unwrap().contains("no move"),
            "{json}"
        );
        assert!(json["overrun_ms"].as_u64().unwrap() >= 10, "{json}");
        assert!(r.plies <= 7, "{} plies", r.plies);
    }
}

#[test]
fn an_increment_keeps_a_program_in_time() {
    // the same bot with 100 ms more after every move never runs out
    let records = clocked_match(40, &["--time-control", "0.3+0.1"]);
    for r in &records {
        assert_eq!(r.termination.kind(), "normal");
        assert_eq!(r.plies, 20);
    }
}
