//! Random playouts of every game, checked against invariants (the idea of
//! OpenSpiel's `RandomSimTest`): thousands of seeded games per game, where
//! every random move must be legal and listed, every listed move must pass
//! `check`, read back from its text and be written the same into a journal
//! line, goals must lie in range, and each game must end in bounded time.

use ladder::show::Show;
use std::collections::HashMap;

use ladder::{
    catalog::{GameKind, GameVisitor},
    games::{
        armies::{ArmiesParams, Commit},
        bidding::BiddingParams,
        breakthrough::BreakthroughParams,
        coordination::CoordinationParams,
        troops::TroopsParams,
        Armies, Bidding, Breakthrough, Coordination, Troops,
    },
    plan::{config::ConfigFile, Roster},
    BySeat, Game, Rng, Seat,
};
use rand::SeedableRng;

/// Plays `games` random games of `G`, calling `step(before, moves, after)` on
/// every turn, and returns the final positions.
fn playouts<G: Game>(
    params: &G::Params,
    games: u64,
    max_turns: usize,
    mut step: impl FnMut(&G, &BySeat<Option<G::Move>>, &G),
) -> Vec<G> {
    let mut ends = Vec::new();
    for seed in 0..games {
        let mut rng = Rng::seed_from_u64(seed);
        let mut game = G::new(params).expect("valid parameters");
        let mut turns = 0;
        while game.outcome().is_none() {
            assert!(
                turns < max_turns,
                "{} game {seed} runs past {max_turns} turns",
                game.name()
            );
            let acting = game.to_act();
            assert!(
                acting.first || acting.second,
                "a running game has a seat to act"
            );
            if turns < 3 || seed % 10 == 0 {
                // every running position is a start position, written and read back
                let text = game.position();
                let back =
                    G::from_position(params, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(back.position(), text);
                assert_eq!(back.to_act(), game.to_act());
                for seat in Seat::ALL {
                    assert_eq!(back.legal_moves(seat), game.legal_moves(seat), "{text}");
                }
            }
            let mut moves = BySeat::default();
            for seat in Seat::ALL {
                let legal = game.legal_moves(seat);
                if !acting[seat] {
                    assert!(legal.is_empty(), "a seat not to act has no moves");
                    continue;
                }
                assert!(!legal.is_empty(), "an acting seat has moves");
                if turns < 3 || seed % 50 == 0 {
                    for m in &legal {
                        assert_eq!(game.check(seat, m), Ok(()), "listed move {m} passes check");
                        let text = m.to_string();
                        assert_eq!(
                            text.parse::<G::Move>().ok().as_ref(),
                            Some(m),
                            "{text} round-trips"
                        );
                        let mut written = b"x".to_vec();
                        G::write_move(m, &mut written);
                        assert_eq!(written, format!("x{text}").as_bytes(), "journal text");
                    }
                }
                let m = game.random_move(seat, &mut rng);
                assert_eq!(game.check(seat, &m), Ok(()), "random move {m} is legal");
                assert!(legal.contains(&m), "random move {m} is listed");
                let observation = game.observation(seat);
                assert!(!observation.is_empty());
                let mut written = "x".to_string();
                game.write_observation(seat, &mut written);
                assert_eq!(
                    written,
                    format!("x{observation}"),
                    "appended to what was there"
                );
                moves[seat] = Some(m);
            }
            let before = game.clone();
            game.apply(&moves);
            step(&before, &moves, &game);
            turns += 1;
        }
        assert!(
            G::from_position(params, &game.position()).is_err(),
            "a finished position is no start"
        );
        let goals = game.outcome().unwrap();
        for seat in Seat::ALL {
            assert!(
                (0..=game.max_goal()).contains(&goals[seat]),
                "goal {} in range",
                goals[seat]
            );
            assert!(game.legal_moves(seat).is_empty(), "no moves once over");
        }
        assert_eq!(game.to_act(), BySeat::new(false, false));
        ends.push(game);
    }
    ends
}

/// The invariants of [`playouts`] for one catalogue game, from the position
/// and parameters of its shipped season.
struct Invariants {
    kind: GameKind,
}

impl GameVisitor for Invariants {
    type Output = usize;
    fn visit<G: Show>(self, roster: &Roster<G>) -> usize {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(self.kind.config());
        let file = ConfigFile::read(&path).unwrap_or_else(|e| panic!("{e}"));
        let plan = ladder::plan::config::plan(&file, roster).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(plan.start.catalogue_name(), self.kind.name());
        playouts::<G>(&plan.params, 300, 20_000, |_, _, _| {}).len()
    }
}

/// Every game of the catalogue, GDL included (through its shipped
/// description): a game added to the catalogue is checked here as it is,
/// with no line of this file to add. The tests below add each game's own
/// invariants.
#[test]
fn every_catalogue_game_keeps_the_invariants_over_random_playouts() {
    for kind in GameKind::ALL {
        assert_eq!(kind.visit(Invariants { kind }), 300, "{}", kind.name());
    }
}

#[test]
fn bidding_random_playouts() {
    let p = BiddingParams::default();
    let ends = playouts::<Bidding>(&p, 3000, 500, |before, moves, after| {
        let total = |g: &Bidding| g.money.first + g.money.second;
        // every round one player pays at least 1 while solvent, so money strictly falls
        assert!(
            total(after) < total(before),
            "total money falls every round"
        );
        assert!(after.money.first <= p.money && after.money.second <= p.money);
        assert_eq!(
            after.position.abs_diff(before.position),
            1,
            "the bottle moves one step"
        );
        let bids = moves.map(|m| m.unwrap().0);
        if bids.first == bids.second {
            assert_ne!(
                after.advantage, before.advantage,
                "a tie passes the advantage"
            );
        } else {
            assert_eq!(after.advantage, before.advantage);
        }
    });
    let outcomes: Vec<_> = ends.iter().map(|g| g.outcome().unwrap()).collect();
    for (g, o) in ends.iter().zip(&outcomes) {
        match (o.first, o.second) {
            (100, 0) => assert_eq!(g.position, 0),
            (0, 100) => assert_eq!(g.position, 10),
            (50, 50) => assert_eq!(g.money, BySeat::new(0, 0)),
            other => panic!("unexpected goals {other:?}"),
        }
    }
    assert!(
        outcomes.iter().any(|o| o.first == 100),
        "player 1 wins some"
    );
    assert!(
        outcomes.iter().any(|o| o.second == 100),
        "player 2 wins some"
    );
}

#[test]
fn armies_random_playouts() {
    for commit in [Commit::Spend, Commit::Add] {
        let p = ArmiesParams {
            commit,
            ..ArmiesParams::default()
        };
        let ends = playouts::<Armies>(&p, 2000, 10, |before, moves, after| {
            let c = moves.map(|m| m.unwrap().0);
            for seat in Seat::ALL {
                let expected = match commit {
                    Commit::Spend => before.armies[seat] - c[seat],
                    Commit::Add => before.armies[seat] + c[seat],
                };
                assert_eq!(after.armies[seat], expected);
            }
            let gained = (
                after.score.first - before.score.first,
                after.score.second - before.score.second,
            );
            assert!(matches!(gained, (2, 0) | (0, 2) | (1, 1)), "{gained:?}");
            assert_eq!(after.round, before.round + 1);
        });
        for g in ends {
            assert_eq!(g.round, 10);
            assert_eq!(g.score.first + g.score.second, 20, "2 points per round");
        }
    }
}

#[test]
fn troops_random_playouts() {
    let ends = playouts::<Troops>(&TroopsParams::default(), 3000, 5, |before, moves, after| {
        for seat in Seat::ALL {
            let split = moves[seat].unwrap().0;
            assert_eq!(split.iter().sum::<u32>(), 10, "triples sum to 10");
            assert!(split.iter().all(|&x| x <= 10));
        }
        let gained =
            after.score.first - before.score.first + after.score.second - before.score.second;
        assert_eq!(gained, 6, "6 points per round");
    });
    assert!(ends.iter().all(|g| g.score.first + g.score.second == 30));
}

/// The replay's picture of a game of rounds: the round being played while
/// it lasts, and at the end that all were played, with the final tally
/// (the observation would count a round past the last: `round 6 of 5`).
#[test]
fn a_finished_game_of_rounds_is_pictured_as_over() {
    fn end<G: Show>(params: &G::Params, rounds: usize) -> (G, String) {
        let end = playouts::<G>(params, 1, rounds, |before, _, _| {
            let picture = before.picture();
            assert!(picture.starts_with("round "), "{picture}");
        })
        .remove(0);
        let picture = end.picture();
        (end, picture)
    }
    let (troops, picture) = end::<Troops>(&TroopsParams::default(), 5);
    let (a, b) = (troops.score.first, troops.score.second);
    assert_eq!(picture, format!("All 5 rounds played: score {a} {b}"));
    let one = TroopsParams {
        rounds: 1,
        ..TroopsParams::default()
    };
    let (troops, picture) = end::<Troops>(&one, 1);
    let (a, b) = (troops.score.first, troops.score.second);
    assert_eq!(picture, format!("The one round played: score {a} {b}"));
    let (armies, picture) = end::<Armies>(&ArmiesParams::default(), 10);
    let (a, b) = (armies.score.first, armies.score.second);
    let (x, y) = (armies.armies.first, armies.armies.second);
    assert_eq!(
        picture,
        format!("All 10 rounds played: armies {x} {y} score {a} {b}")
    );
    let (c, picture) = end::<Coordination>(&CoordinationParams::default(), 20);
    assert_eq!(picture, format!("All 20 rounds played: score {}", c.score));
}

#[test]
fn coordination_random_playouts() {
    let ends = playouts::<Coordination>(
        &CoordinationParams::default(),
        2000,
        20,
        |before, moves, after| {
            let gained = after.score - before.score;
            assert_eq!(gained, if moves.first == moves.second { 5 } else { 0 });
        },
    );
    let mean = ends.iter().map(|g| g.score as f64).sum::<f64>() / ends.len() as f64;
    // random play matches half the time: 10 rounds of 5 points
    assert!((mean - 50.0).abs() < 2.0, "mean score {mean}");
}

#[test]
fn breakthrough_random_playouts() {
    let ends = playouts::<Breakthrough>(
        &BreakthroughParams::default(),
        3000,
        300,
        |before, moves, after| {
            let (w, b) = (after.pieces.first, after.pieces.second);
            assert_eq!(w & b, 0, "no two pieces share a cell");
            let mover = before.to_move;
            assert_eq!(after.to_move, mover.other());
            assert_eq!(
                after.pieces[mover].count_ones(),
                before.pieces[mover].count_ones(),
                "the mover keeps its pieces"
            );
            let lost = before.pieces[mover.other()].count_ones()
                - after.pieces[mover.other()].count_ones();
            assert!(lost <= 1, "at most one capture per move");
            assert!(
                moves[mover.other()].is_none(),
                "only the side to move moves"
            );
        },
    );
    let white_wins = ends
        .iter()
        .filter(|g| g.outcome().unwrap().first == 100)
        .count();
    assert!(
        white_wins > 0 && white_wins < ends.len(),
        "both colours win sometimes"
    );
}

#[test]
fn breakthrough_random_moves_are_uniform() {
    // a middle-game position reached by random play
    let mut rng = Rng::seed_from_u64(5);
    let mut game = Breakthrough::new(&BreakthroughParams::default()).unwrap();
    for _ in 0..12 {
        let seat = game.to_move;
        let m = game.random_move(seat, &mut rng);
        game.play(m);
    }
    let seat = game.to_move;
    let legal = game.legal_moves(seat);
    let draws = 200 * legal.len();
    let mut counts: HashMap<_, usize> = HashMap::new();
    for _ in 0..draws {
        *counts.entry(game.random_move(seat, &mut rng)).or_default() += 1;
    }
    assert_eq!(counts.len(), legal.len(), "every legal move is drawn");
    for (m, c) in counts {
        // expected 200 each; 6 standard deviations is about 85
        assert!((115..=285).contains(&c), "{m} drawn {c} times of {draws}");
    }
}

/// `ladder solve GAME ARGS...`: its exit code, stdout and stderr.
fn solve(game: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let out = assert_cmd::Command::cargo_bin("ladder")
        .unwrap()
        .args(["solve", game])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn troops_solver_prints_an_unexploitable_mix() {
    let (code, json, err) = solve("troops", &["--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["splits"], 66);
    assert_eq!(v["value_points"], 3.0);
    assert!(v["exploitability"].as_f64().unwrap() < 1e-9);
    let mix = v["mix"].as_array().unwrap();
    let total: f64 = mix.iter().map(|e| e["probability"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    for e in mix {
        let split: Vec<u32> = e["split"]
            .as_str()
            .unwrap()
            .split(',')
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(split.iter().sum::<u32>(), 10, "{e}");
    }
    let (_, text, _) = solve("troops", &["--troops", "4"]);
    assert!(
        text.starts_with("troops 4: 15 splits; value per round 3.000 points of 6"),
        "{text}"
    );
    assert_eq!(solve("troops", &["--troops", "21"]).0, Some(2));
}

#[test]
fn armies_solver_prints_the_value_and_a_state_mix() {
    let run = |args: &[&str]| solve("armies", args);
    let (code, json, _) = run(&["--json"]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["value"], 0.0, "symmetric game");
    let mix = v["state"]["mix"].as_array().unwrap();
    let total: f64 = mix.iter().map(|e| e["probability"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9);
    assert!(mix.len() > 1, "the first round is mixed: {json}");
    // the last round with more armies wins it outright
    let (_, json, _) = run(&[
        "--round",
        "10",
        "--armies1",
        "5",
        "--armies2",
        "3",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["state"]["value"], 2.0);
    let (code, text, _) = run(&["--commit", "add"]);
    assert_eq!(code, Some(0));
    assert!(text.contains("weakly dominant"), "{text}");
    let (code, _, err) = run(&["--armies", "500"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("states to solve"), "{err}");
}

#[test]
fn breakthrough_solver_proves_small_boards() {
    let (_, text, _) = solve("breakthrough", &["--width", "4", "--height", "4"]);
    assert!(
        text.starts_with("breakthrough 4x4: player 2 (black) wins with perfect play\nproved in "),
        "{text}"
    );
    let (_, json, _) = solve("breakthrough", &["--width", "3", "--height", "5", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["winner"], 2);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    let (code, _, err) = solve("breakthrough", &["--width", "8", "--height", "8"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("too large to prove"));
}

#[test]
fn start_positions_that_break_a_rule_are_refused_with_the_reason() {
    fn refused<G: Game>(params: &G::Params, text: &str, says: &str) {
        let err = G::from_position(params, text)
            .err()
            .unwrap_or_else(|| panic!("accepted {text}"));
        assert!(err.to_string().contains(says), "{text}: {err}");
    }
    let b = BiddingParams::default();
    refused::<Bidding>(
        &b,
        "position 5 money 100",
        "a position is written `position # money # # advantage #`",
    );
    refused::<Bidding>(
        &b,
        "position 12 money 10 10 advantage 1",
        "off the line 0..=10",
    );
    refused::<Bidding>(
        &b,
        "position 5 money 10 10 advantage 3",
        "the draw advantage is 1 or 2",
    );
    refused::<Bidding>(
        &b,
        "position 5 money 4000000000 10 advantage 1",
        "money 4000000000 is more than the 100 each player starts with",
    );
    Bidding::from_position(&b, "position 5 money 100 0 advantage 2").unwrap();
    refused::<Bidding>(&b, "position 0 money 10 10 advantage 1", "must not be over");
    refused::<Bidding>(&b, "position 5 money 0 0 advantage 1", "must not be over");
    let a = ArmiesParams::default();
    refused::<Armies>(
        &a,
        "round 1 of 9 armies 20 20 score 0 0",
        "a game of 9 rounds, the season's has 10",
    );
    refused::<Armies>(
        &a,
        "round 0 of 10 armies 20 20 score 0 0",
        "round 0 is not one of 1..=10",
    );
    // scores and holdings no game reaches (a score near i32::MAX overflowed
    // in the next round, and 2^32 - 1 was read as -1)
    refused::<Armies>(
        &a,
        "round 1 of 10 armies 5 5 score 2147483647 0",
        "scores 2147483647 and 0 after 0 rounds: a round is worth 2 points in all, so they add up to 0",
    );
    refused::<Armies>(
        &a,
        "round 4 of 10 armies 5 5 score 4294967295 7",
        "scores 4294967295 and 7 after 3 rounds",
    );
    refused::<Armies>(
        &a,
        "round 2 of 10 armies 5 5 score 18446744073709551615 3",
        "after 1 round: a round is worth 2 points in all, so they add up to 2",
    );
    refused::<Armies>(
        &a,
        "round 2 of 10 armies 4000000000 5 score 1 1",
        "a holding of 4000000000 armies: with commit = \"spend\" and 20 to start, holdings lie in 0..=20",
    );
    let add = ArmiesParams {
        commit: Commit::Add,
        ..ArmiesParams::default()
    };
    refused::<Armies>(
        &add,
        "round 2 of 10 armies 19 30 score 1 1",
        "holdings lie in 20..=1073741824",
    );
    for ok in [
        "round 4 of 10 armies 12 9 score 4 2",
        "round 2 of 10 armies 0 20 score 2 0",
    ] {
        Armies::from_position(&a, ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
    Armies::from_position(&add, "round 2 of 10 armies 20 1073741824 score 0 2").unwrap();
    let t = TroopsParams::default();
    refused::<Troops>(
        &t,
        "round 2 of 5 score -1 0",
        "a position is written `round # of # score # #`",
    );
    refused::<Troops>(
        &t,
        "round 2 of 5 score 2147483647 0",
        "scores 2147483647 and 0 after 1 round: a round is worth 6 points in all, so they add up to 6",
    );
    refused::<Troops>(&t, "round 3 of 5 score 5 5", "so they add up to 12");
    Troops::from_position(&t, "round 2 of 5 score 2 4").unwrap();
    let c = CoordinationParams::default();
    refused::<Coordination>(
        &c,
        "round 3 of 20 score 2147483647",
        "score 2147483647 after 2 rounds: a multiple of the reward 5, at most 10",
    );
    refused::<Coordination>(&c, "round 3 of 20 score 7", "a multiple of the reward 5");
    refused::<Coordination>(&c, "round 3 of 20 score 15", "at most 10");
    Coordination::from_position(&c, "round 3 of 20 score 5").unwrap();
    refused::<Coordination>(
        &c,
        "round 21 of 20 score 0",
        "round 21 is not one of 1..=20",
    );
    let br = BreakthroughParams::default();
    refused::<Breakthrough>(
        &br,
        "side red board ........",
        "a position is written `side white|black board ROWS`",
    );
    refused::<Breakthrough>(
        &br,
        "side white board ........",
        "a 8x8 board has 64 cells, the position has 8",
    );
    let cells = format!("{}{}", "b".repeat(16), ".".repeat(47) + "x");
    refused::<Breakthrough>(
        &br,
        &format!("side white board {cells}"),
        "a cell is `w`, `b` or `.`, not `x`",
    );
    // black has no piece: over
    let cells = format!("{}{}", ".".repeat(48), "w".repeat(16));
    refused::<Breakthrough>(
        &br,
        &format!("side black board {cells}"),
        "must not be over",
    );
    // and a good one: a position from the middle of a game
    let mid = format!(
        "side black board {}{}{}{}",
        "b".repeat(8),
        "bbbb.bbb",
        ".".repeat(16),
        "....w..."
    );
    let mid = format!(
        "{mid}{}{}",
        ".".repeat(8),
        "wwww.www".to_string() + &"w".repeat(8)
    );
    let g = Breakthrough::from_position(&br, &mid).unwrap();
    assert_eq!(g.position(), mid);
    assert_eq!(g.to_act(), BySeat::new(false, true));
}
