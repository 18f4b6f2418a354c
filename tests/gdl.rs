//! Differential tests of the GDL reasoner: each native game against its GDL
//! twin in `games/gdl/`, in lockstep over thousands of seeded random games.
//! At every state the seats to act, each seat's legal moves (translated
//! between the two notations), the end and the goals must agree; a
//! disagreement names the game's seed and the moves that lead to it.
//! Breakthrough's perft through the reasoner matches the native count.

use std::{path::Path, sync::Arc};

use ladder::{
    core::game::random_turn,
    games::{
        armies::{Armies, ArmiesParams},
        bidding::{Bidding, BiddingParams},
        breakthrough::{Breakthrough, BreakthroughParams},
        coordination::{Coordination, CoordinationParams},
        gdl::{
            budget::Budget, logic::Description, machine::DEFAULT_GROUND_STEPS, Gdl, GdlMove,
            GdlParams, Rules,
        },
        troops::{Troops, TroopsParams},
    },
    BySeat, Game, Rng, Seat,
};
use rand::SeedableRng;

mod common;
use common::Edit;

/// The parameters of a description shipped in `games/gdl/`.
fn shipped(file: &str) -> GdlParams {
    GdlParams::read(
        file,
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/gdl"),
    )
    .unwrap()
}

/// A description shipped in `games/gdl/`.
fn twin(file: &str) -> Gdl {
    Gdl::new(&shipped(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// `seat`'s legal moves now, in GDL notation, sorted.
fn legal<G: Game>(g: &G, seat: Seat, translate: &impl Fn(&G::Move) -> String) -> Vec<String> {
    let mut moves: Vec<String> = g.legal_moves(seat).iter().map(translate).collect();
    moves.sort();
    moves
}

/// Plays `games` random games of `native` and `twin` side by side; every
/// state must look the same through both.
fn lockstep<N: Game>(
    native: &N,
    twin: &Gdl,
    translate: impl Fn(&N::Move) -> String,
    games: u64,
) -> usize {
    let mut states = 0;
    for seed in 0..games {
        let mut rng = Rng::seed_from_u64(seed);
        let (mut n, mut t) = (native.clone(), twin.clone());
        let mut played: Vec<String> = Vec::new();
        loop {
            states += 1;
            let at = |played: &[String]| {
                format!("{}, game seed {seed}, after {played:?}", native.name())
            };
            assert_eq!(n.to_act(), t.to_act(), "who acts: {}", at(&played));
            for seat in Seat::ALL {
                assert_eq!(
                    legal(&n, seat, &translate),
                    legal(&t, seat, &|m: &GdlMove| m.to_string()),
                    "legal moves of seat {}: {}",
                    seat.number(),
                    at(&played)
                );
            }
            assert_eq!(n.outcome(), t.outcome(), "end and goals: {}", at(&played));
            if n.outcome().is_some() {
                break;
            }
            let moves = random_turn(&n, &mut rng);
            let twin_moves = moves
                .as_ref()
                .map(|m| m.as_ref().map(|m| GdlMove(translate(m))));
            played.push(format!(
                "{} {}",
                twin_moves
                    .first
                    .as_ref()
                    .map_or("-".into(), |m| m.to_string()),
                twin_moves
                    .second
                    .as_ref()
                    .map_or("-".into(), |m| m.to_string())
            ));
            for s in Seat::ALL {
                if let Some(m) = &twin_moves[s] {
                    t.check(s, m)
                        .unwrap_or_else(|e| panic!("{m} refused: {e}: {}", at(&played)));
                }
            }
            n.apply(&moves);
            t.apply(&twin_moves);
        }
    }
    states
}

/// Perft over any game: leaf positions `depth` turns ahead, a turn being
/// one move of each acting seat.
fn perft<G: Game>(g: &G, depth: u32) -> u64 {
    if depth == 0 || g.outcome().is_some() {
        return u64::from(depth == 0);
    }
    let acting = g.to_act();
    let options = |s: Seat| -> Vec<Option<G::Move>> {
        if acting[s] {
            g.legal_moves(s).into_iter().map(Some).collect()
        } else {
            vec![None]
        }
    };
    let mut count = 0;
    for a in options(Seat::First) {
        for b in options(Seat::Second) {
            let mut next = g.clone();
            next.apply(&BySeat::new(a.clone(), b));
            count += perft(&next, depth - 1);
        }
    }
    count
}

/// `b2c3` as `(move 2 2 3 3)`.
fn breakthrough_move(m: &impl ToString) -> String {
    let text = m.to_string();
    let b = text.as_bytes();
    let col = |c: u8| c - b'a' + 1;
    let row = |r: u8| r - b'0';
    format!(
        "(move {} {} {} {})",
        col(b[0]),
        row(b[1]),
        col(b[2]),
        row(b[3])
    )
}

#[test]
fn breakthrough_agrees_with_its_gdl_twin_on_every_state_of_2000_random_games() {
    let native = Breakthrough::new(&BreakthroughParams::default()).unwrap();
    let states = lockstep(&native, &twin("breakthrough.kif"), breakthrough_move, 2000);
    assert!(states > 100_000, "{states}");
}

#[test]
fn breakthrough_written_with_competition_style_frame_axioms_agrees_with_the_native_game() {
    let native = Breakthrough::new(&BreakthroughParams::default()).unwrap();
    let twin = twin("breakthrough-frames.kif");
    let states = lockstep(&native, &twin, breakthrough_move, 500);
    assert!(states > 25_000, "{states}");
}

/// A description of `text`, loaded as ladder loads a file.
fn loaded(name: &str, text: &str) -> Gdl {
    Gdl::start(Arc::new(
        Rules::new(name, text).unwrap_or_else(|e| panic!("{name}: {e}")),
    ))
}

/// Whether GDL's checks, strictly applied, refuse `text` as unsafe.
fn unsafe_as_written(text: &str) -> bool {
    Description::parse(text).is_err_and(|e| e.to_string().contains("GDL's safety restriction"))
}

#[test]
fn frame_axioms_whose_helper_leaves_its_cells_to_the_caller_agree_with_the_native_game() {
    // `distinctcell` as the public minichess writes `distpair`: each rule
    // leaves two of the four cells' coordinates for the caller to bind
    let text = shipped("breakthrough-frames.kif")
        .text
        .unwrap()
        .replace("(cell ?x1 ?y1) (cell ?x2 ?y2) (distinct", "(distinct");
    assert!(text.contains("(<= (distinctcell ?x1 ?y1 ?x2 ?y2) (distinct ?y1 ?y2))"));
    assert!(unsafe_as_written(&text));
    let native = Breakthrough::new(&BreakthroughParams::default()).unwrap();
    let states = lockstep(&native, &loaded("frames", &text), breakthrough_move, 300);
    assert!(states > 15_000, "{states}");
}

/// Two kings on a 4x4 board, written as some published descriptions are:
/// `kingmove` leaves the king's column (or row) to its caller, `free` and
/// `threat` leave the player, and `blocked` passes its player on to
/// `threat` under a `not`; the waiting player's `legal` and the goal of a
/// game not stuck leave the role to whoever asks; `same`, as the public
/// attritionWar writes `(<= (sum ?x 0 ?x) (succ 0 1))`, is asked with its
/// first argument given (the step counter) and with its second (the
/// limit). With `bound`, each of those variables is bound by a literal of
/// its own: the same game in valid GDL.
fn kings(bound: bool) -> String {
    let [col, row, role, num] = if bound {
        [" (col ?u)", " (row ?v)", " (role ?p)", " (num ?x)"]
    } else {
        [""; 4]
    };
    format!(
        "(role white) (role black)
        (init (at white 1 1)) (init (at black 4 4)) (init (control white)) (init (step 0))
        (opponent white black) (opponent black white)
        (col 1) (col 2) (col 3) (col 4) (row 1) (row 2) (row 3) (row 4)
        (adj 1 2) (adj 2 3) (adj 3 4) (adj 2 1) (adj 3 2) (adj 4 3)
        (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7) (succ 7 8)
        (<= (kingmove ?u ?v ?u ?y) (adj ?v ?y){col})
        (<= (kingmove ?u ?v ?x ?v) (adj ?u ?x){row})
        (<= (kingmove ?u ?v ?x ?y) (adj ?u ?x) (adj ?v ?y))
        (<= (occupied ?x ?y) (true (at ?q ?x ?y)))
        (<= (free ?x ?y ?p) (col ?x) (row ?y) (not (occupied ?x ?y)){role})
        (<= (threat ?p ?x ?y) (true (at ?q ?u ?v)) (kingmove ?u ?v ?x ?y) (distinct ?p ?q){role})
        (<= (blocked ?p ?x ?y) (threat ?p ?x ?y))
        (<= (legal ?p (move ?x ?y)) (true (control ?p)) (true (at ?p ?u ?v))
            (kingmove ?u ?v ?x ?y) (free ?x ?y ?p) (not (blocked ?p ?x ?y)))
        (<= (legal ?p noop){role} (not (true (control ?p))))
        (<= (next (at ?p ?x ?y)) (does ?p (move ?x ?y)))
        (<= (next (at ?p ?x ?y)) (true (at ?p ?x ?y)) (does ?p noop))
        (<= (next (control ?o)) (true (control ?p)) (opponent ?p ?o))
        (<= (next (step ?n)) (true (step ?m)) (succ ?m ?k) (same ?k ?n))
        (<= (same ?x ?x) (succ 0 1){num})
        (num 0) (num 1) (num 2) (num 3) (num 4) (num 5) (num 6) (num 7) (num 8) (limit 8)
        (<= (canmove ?p) (legal ?p (move ?x ?y)))
        (<= stuck (true (control ?p)) (not (canmove ?p)))
        (<= terminal stuck)
        (<= terminal (limit ?l) (same ?m ?l) (true (step ?m)))
        (<= (goal ?p 0) (true (control ?p)) stuck)
        (<= (goal ?o 100) (true (control ?p)) (opponent ?p ?o) stuck)
        (<= (goal ?p 50){role} (not stuck))"
    )
}

#[test]
fn rules_that_leave_variables_for_their_callers_play_as_the_same_game_in_valid_gdl() {
    assert!(unsafe_as_written(&kings(false)));
    assert!(!unsafe_as_written(&kings(true)));
    let valid = loaded("kings", &kings(true));
    let states = lockstep(
        &valid,
        &loaded("kings", &kings(false)),
        |m| m.to_string(),
        500,
    );
    assert!(states > 2_000, "{states}");
    // and the same state by state, where a description is too large to ground
    let budget = Budget {
        steps: 1_000_000,
        seconds: 60,
    };
    let on_demand = Rules::on_demand("kings", &kings(false), budget).unwrap();
    assert!(on_demand.on_demand_reasoning());
    lockstep(
        &valid,
        &Gdl::start(Arc::new(on_demand)),
        |m| m.to_string(),
        100,
    );
}

/// Tic-tac-toe with `same`, which leaves its value to the caller (as the
/// public attritionWar's `sum` does), asked through `quad`, a join of 40^4
/// bindings: working out exactly which values `same` is asked of takes
/// that join, past a small budget.
fn tictactoe_with_a_costly_caller() -> String {
    let ttt = shipped("tictactoe.kif").text.unwrap();
    let nums: String = (1..=40).map(|i| format!("(num {i}) ")).collect();
    format!(
        "{ttt}\n{nums}\n(<= (same ?x ?x) (num 1))\n\
         (<= (quad ?a ?b ?c ?d) (num ?a) (num ?b) (num ?c) (num ?d) (same ?a ?a))\n\
         (<= terminal (quad 1 2 3 4) (true (cell 1 1 nobody)))\n"
    )
}

#[test]
fn values_too_costly_to_work_out_exactly_are_taken_from_each_argument_s_values() {
    let text = tictactoe_with_a_costly_caller();
    assert!(unsafe_as_written(&text));
    let budget = Budget {
        steps: 100_000,
        seconds: 60,
    };
    // each argument's values stand in for the exact ones: the game loads
    // within the budget (`quad` too large to ground whole, then ground on
    // what is asked), and it is tic-tac-toe
    let rules = Rules::within("costly", &text, budget).unwrap_or_else(|e| panic!("{e}"));
    assert!(!rules.on_demand_reasoning());
    let plain = twin("tictactoe.kif");
    let states = lockstep(&plain, &Gdl::start(Arc::new(rules)), |m| m.to_string(), 300);
    assert!(states > 2_000, "{states}");
}

/// Tic-tac-toe with a helper too large to ground whole (40^5 atoms of
/// `far`) that the game asks of one tuple only, and a rule no question
/// asks (`spare`).
fn tictactoe_with_a_far_helper() -> String {
    let ttt = shipped("tictactoe.kif").text.unwrap();
    let nums: String = (1..=40).map(|i| format!("(num {i}) ")).collect();
    format!(
        "{ttt}\n{nums}\n(<= (far ?a ?b ?c ?d ?e) (num ?a) (num ?b) (num ?c) (num ?d) (num ?e))\n\
         (<= terminal (far 1 2 3 4 40) (true (cell 1 1 nobody)))\n\
         (<= (spare ?a ?b ?c) (num ?a) (num ?b) (num ?c))\n"
    )
}

#[test]
fn a_description_too_large_to_ground_whole_is_ground_on_what_its_questions_ask() {
    let text = tictactoe_with_a_far_helper();
    let budget = Budget {
        steps: 400_000,
        seconds: 60,
    };
    let limited = Rules::within("far", &text, budget).unwrap();
    assert!(
        !limited.on_demand_reasoning(),
        "grounded on what is asked, not reasoned state by state"
    );
    let limited = Gdl::start(Arc::new(limited));
    // the same game as tic-tac-toe
    let plain = twin("tictactoe.kif");
    let states = lockstep(&plain, &limited, |m| m.to_string(), 300);
    assert!(states > 2_000, "{states}");
    // state by state, `far`'s static facts alone pass the budget
    let by_state = Rules::on_demand("far", &text, budget).map(|_| ());
    assert!(by_state.is_err_and(|e| e.to_string().contains("400000 steps")));
}

/// Past half the limit of ground rules, the whole grounding of a
/// description that grounds on what its questions ask is given up for that
/// grounding: tic-tac-toe with a helper of 34^4 bindings (1,336,336 ground
/// rules, under the limit of 2,000,000 but over half of it) that the game
/// asks of one value of its first argument.
#[test]
fn a_description_past_half_the_ground_rule_limit_is_ground_on_what_its_questions_ask() {
    let ttt = shipped("tictactoe.kif").text.unwrap();
    let nums: String = (1..=34).map(|i| format!("(num {i}) ")).collect();
    let text = format!(
        "{ttt}\n{nums}\n(<= (wide ?a) (num ?a) (num ?b) (num ?c) (num ?d))\n\
         (<= terminal (wide 7) (true (cell 1 1 nobody)))\n"
    );
    let line = 1 + text
        .lines()
        .position(|l| l.starts_with("(<= (wide"))
        .unwrap();
    let tmp = tempfile::TempDir::new().unwrap();
    std::fs::write(tmp.path().join("wide.kif"), &text).unwrap();
    let out = ladder_in(
        tmp.path(),
        &[
            "match",
            "gdl:wide.kif",
            "random",
            "random",
            "--games",
            "4",
            "-q",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "ladder: loading wide: costly to ground whole (line {line}, column 1: the game has \
             more than 1000000 ground rules, half the limit); ground on what its questions can \
             ask instead\n"
        )
    );
    let season = tmp.path().join("reports/match-wide-random-1-vs-random-2");
    let games = std::fs::read_to_string(season.join("games.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 4, "{games}");
    // the same game as tic-tac-toe
    let budget = Budget {
        steps: DEFAULT_GROUND_STEPS,
        seconds: 60,
    };
    let rules = Rules::within("wide", &text, budget).unwrap();
    assert!(!rules.on_demand_reasoning());
    let plain = twin("tictactoe.kif");
    let states = lockstep(&plain, &Gdl::start(Arc::new(rules)), |m| m.to_string(), 100);
    assert!(states > 500, "{states}");
}

/// A long chain of rules, each reading the next one's head: grounding
/// takes a round a link, and a round takes up only the rule whose relation
/// grew (taking up every rule, this chain ran past the 60 s loading budget
/// and was refused). Here the chain's first link ends tic-tac-toe as soon
/// as `x` takes the corner.
#[test]
fn a_chain_of_a_hundred_thousand_rules_loads_and_decides_the_game() {
    let links = 100_000;
    let mut text = shipped("tictactoe.kif").text.unwrap();
    for i in 0..links {
        text += &format!("(<= (link{i} ?x) (link{} ?x))\n", i + 1);
    }
    text += &format!("(link{links} go)\n(<= terminal (true (cell 1 1 x)) (link0 go))\n");
    let mut g = loaded("chain", &text);
    play_one(&mut g, "(mark 2 2)");
    assert!(g.outcome().is_none());
    play_one(&mut g, "(mark 1 2)");
    assert!(g.outcome().is_none());
    play_one(&mut g, "(mark 1 1)");
    assert!(g.outcome().is_some());
}

#[test]
fn bidding_agrees_with_its_gdl_twin_on_every_state_of_2000_random_games() {
    let native = Bidding::new(&BiddingParams::default()).unwrap();
    let states = lockstep(
        &native,
        &twin("bidding.kif"),
        |b| format!("(bid {b})"),
        2000,
    );
    assert!(states > 15_000, "{states}");
}

#[test]
fn armies_agrees_with_its_gdl_twin_on_every_state_of_2000_random_games() {
    let native = Armies::new(&ArmiesParams::default()).unwrap();
    lockstep(
        &native,
        &twin("armies.kif"),
        |c| format!("(commit {c})"),
        2000,
    );
}

#[test]
fn troops_agrees_with_its_gdl_twin_on_every_state_of_2000_random_games() {
    let native = Troops::new(&TroopsParams::default()).unwrap();
    lockstep(
        &native,
        &twin("troops.kif"),
        |m| format!("(split {})", m.to_string().replace(',', " ")),
        2000,
    );
}

#[test]
fn coordination_agrees_with_its_gdl_twin_on_every_state_of_2000_random_games() {
    let native = Coordination::new(&CoordinationParams::default()).unwrap();
    lockstep(&native, &twin("coordination.kif"), |m| m.to_string(), 2000);
}

#[test]
fn breakthrough_perft_through_the_reasoner_matches_the_native_count() {
    let native = Breakthrough::new(&BreakthroughParams::default()).unwrap();
    let gdl = twin("breakthrough.kif");
    for depth in 1..=3 {
        assert_eq!(perft(&gdl, depth), native.perft(depth), "depth {depth}");
    }
    assert_eq!(perft(&gdl, 3), 11132);
}

#[test]
fn a_disagreement_is_reported_with_the_moves_that_lead_to_it() {
    // a twin whose white pieces cannot move straight ahead
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/gdl/breakthrough.kif"),
    )
    .unwrap();
    let broken = text.edit(
        "(true (control ?p)) (true (cell ?x ?y ?p)) (ahead ?p ?y ?y2) (empty ?x ?y2))",
        "(true (control ?p)) (true (cell ?x ?y ?p)) (ahead ?p ?y ?y2) (empty ?x ?y2) (enemy ?p white))",
    );
    assert_ne!(broken, text);
    let dir = tempfile::TempDir::new().unwrap();
    std::fs::write(dir.path().join("broken.kif"), broken).unwrap();
    let params = GdlParams::read("broken.kif", dir.path()).unwrap();
    let twin = Gdl::new(&params).unwrap();
    let native = Breakthrough::new(&BreakthroughParams::default()).unwrap();
    let failure = std::panic::catch_unwind(|| lockstep(&native, &twin, breakthrough_move, 1))
        .expect_err("the broken twin disagrees");
    let message = failure
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        message.contains("legal moves of seat 1: breakthrough, game seed 0, after []"),
        "{message}"
    );
}

#[test]
fn random_games_of_the_classics_end_with_goals_in_range() {
    for (file, total) in [
        ("tictactoe.kif", Some(100)),
        ("connect4.kif", Some(100)),
        ("matching-pennies.kif", Some(100)),
    ] {
        let start = twin(file);
        let mut rng = Rng::seed_from_u64(1);
        for _ in 0..200 {
            let mut g = start.clone();
            let mut turns = 0;
            while g.outcome().is_none() {
                let moves = random_turn(&g, &mut rng);
                g.apply(&moves);
                turns += 1;
                assert!(turns <= 42, "{file} runs on");
            }
            let goals = g.outcome().unwrap();
            for s in Seat::ALL {
                assert!((0..=100).contains(&goals[s]), "{file}: {goals:?}");
            }
            if let Some(total) = total {
                assert_eq!(goals.first + goals.second, total, "{file}");
            }
        }
    }
}

/// Plays one move for the seat that acts (the other plays noop).
fn play_one(g: &mut Gdl, mv: &str) {
    let acting = g.to_act();
    let moves = BySeat::new(
        acting.first.then(|| GdlMove(mv.into())),
        acting.second.then(|| GdlMove(mv.into())),
    );
    for s in Seat::ALL {
        if let Some(m) = &moves[s] {
            g.check(s, m).unwrap_or_else(|e| panic!("{mv}: {e}"));
        }
    }
    g.apply(&moves);
}

#[test]
fn competition_style_descriptions_play_random_games_within_their_step_limits() {
    for (file, most) in [("checkers.kif", 100), ("knights.kif", 62)] {
        let start = twin(file);
        let mut rng = Rng::seed_from_u64(3);
        let mut ends = std::collections::BTreeSet::new();
        for _ in 0..100 {
            let mut g = start.clone();
            let mut turns = 0;
            while g.outcome().is_none() {
                let moves = random_turn(&g, &mut rng);
                // the players alternate: one of them acts
                assert!(moves.first.is_some() != moves.second.is_some(), "{file}");
                g.apply(&moves);
                turns += 1;
                assert!(turns <= most, "{file} runs past its step counter");
            }
            let goals = g.outcome().unwrap();
            assert_eq!(goals.first + goals.second, 100, "{file}");
            ends.insert(goals.first);
        }
        assert!(
            ends.iter().all(|g| [0, 50, 100].contains(g)),
            "{file}: {ends:?}"
        );
    }
}

#[test]
fn checkers_jumps_capture_and_men_are_crowned_on_the_far_rank() {
    let mut g = twin("checkers.kif");
    assert_eq!(
        legal(&g, Seat::First, &|m: &GdlMove| m.0.clone()),
        [
            "(move 1 3 2 4)",
            "(move 3 3 2 4)",
            "(move 3 3 4 4)",
            "(move 5 3 4 4)",
            "(move 5 3 6 4)",
            "(move 7 3 6 4)",
            "(move 7 3 8 4)"
        ]
    );
    play_one(&mut g, "(move 3 3 4 4)");
    play_one(&mut g, "(move 6 6 5 5)");
    play_one(&mut g, "(jump 4 4 6 6)");
    let seen = g.observation(Seat::First);
    for cell in [
        "(cell 4 4 b)",
        "(cell 5 5 b)",
        "(cell 6 6 bm)",
        "(cell 3 3 b)",
    ] {
        assert!(seen.contains(cell), "{cell} in {seen}");
    }
    // a black man steps onto rank 8 and is a king; so is a white man on rank 1
    let params = shipped("checkers.kif");
    let position = "(cell 7 7 bm) (cell 8 8 b) (cell 2 2 wm) (cell 1 1 b) (control black) (step 0)";
    let mut g = Gdl::from_position(&params, position).unwrap();
    play_one(&mut g, "(move 7 7 8 8)");
    assert!(g.observation(Seat::First).contains("(cell 8 8 bk)"));
    play_one(&mut g, "(move 2 2 1 1)");
    assert!(g.observation(Seat::First).contains("(cell 1 1 wk)"));
    // the king steps back down
    play_one(&mut g, "(move 8 8 7 7)");
    assert!(g.observation(Seat::First).contains("(cell 7 7 bk)"));
    assert_eq!(g.outcome(), None);
    // a white man whose two cells ahead hold black men it cannot jump has
    // nowhere to go: once black has moved, white is to move with no move,
    // and loses
    let position = "(cell 5 5 bm) (cell 6 6 b) (cell 2 2 wm) (cell 1 1 bm) (cell 3 1 bm) (control black) (step 0)";
    let mut g = Gdl::from_position(&params, position).unwrap();
    play_one(&mut g, "(move 5 5 6 6)");
    assert_eq!(g.outcome(), Some(BySeat::new(100, 0)));
}

#[test]
fn a_knight_never_lands_where_a_knight_has_stood_and_the_stuck_player_loses() {
    let mut g = twin("knights.kif");
    assert_eq!(
        legal(&g, Seat::First, &|m: &GdlMove| m.0.clone()),
        ["(jump 2 3)", "(jump 3 2)"]
    );
    play_one(&mut g, "(jump 2 3)");
    play_one(&mut g, "(jump 7 6)");
    // (1, 1) was red's: blocked now
    let red = legal(&g, Seat::First, &|m: &GdlMove| m.0.clone());
    assert!(!red.contains(&"(jump 1 1)".to_string()), "{red:?}");
    assert_eq!(red.len(), 5, "{red:?}");
    let params = shipped("knights.kif");
    // red's one jump left blocks blue's last cell: blue, to move, loses
    let position = "(at red 5 7) (at blue 8 8) (visited 5 7) (visited 8 8) (visited 6 7) (control red) (step 9)";
    let mut g = Gdl::from_position(&params, position).unwrap();
    let red = legal(&g, Seat::First, &|m: &GdlMove| m.0.clone());
    assert!(red.contains(&"(jump 7 6)".to_string()), "{red:?}");
    play_one(&mut g, "(jump 7 6)");
    assert_eq!(g.outcome(), Some(BySeat::new(100, 0)));
}

const LADDER: &str = env!("CARGO_BIN_EXE_ladder");

fn ladder_in(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(LADDER)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn a_season_of_a_gdl_game_runs_from_a_config_and_stands_on_its_own() {
    let tmp = tempfile::TempDir::new().unwrap();
    let games = tmp.path().join("games");
    std::fs::create_dir(&games).unwrap();
    let kif = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/gdl/tictactoe.kif"),
    )
    .unwrap();
    std::fs::write(games.join("ttt.kif"), &kif).unwrap();
    let configs = tmp.path().join("configs");
    std::fs::create_dir(&configs).unwrap();
    std::fs::write(
        configs.join("ttt.toml"),
        "[season]\ngame = \"gdl\"\ngames_per_pair = 6\n[season.params]\nrules = \"../games/ttt.kif\"\n\
         [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n[[bot]]\nname = \"random\"\nbuiltin = \"random\"\n",
    )
    .unwrap();
    // the rules file is found next to the config, whatever the working folder
    let out = ladder_in(tmp.path(), &["run", "configs/ttt.toml", "-q"]);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("Season ttt: ttt, round-robin, 2 bots, 6 of 6 games"),
        "{stdout}"
    );
    let season = tmp.path().join("reports/ttt");
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(season.join("season.json")).unwrap())
            .unwrap();
    assert_eq!(recorded["kind"], "gdl");
    assert_eq!(recorded["params"]["rules"], "../games/ttt.kif");
    assert_eq!(recorded["params"]["text"], kif.as_str());
    // verified and replayed from anywhere: the season holds its rules
    let out = ladder_in(Path::new("/"), &["verify", season.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let out = ladder_in(
        Path::new("/"),
        &["replay", season.to_str().unwrap(), "--game", "0"],
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Turn 1: greedy plays (mark"));
    // changed rules are changed parameters: the season is not resumed under them
    std::fs::write(
        games.join("ttt.kif"),
        kif.edit("(goal xplayer 50)", "(goal xplayer 60)"),
    )
    .unwrap();
    let out = ladder_in(tmp.path(), &["run", "configs/ttt.toml", "-q"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("params"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_command_line_names_a_gdl_game_by_its_file_and_bad_files_are_clear_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::TempDir::new().unwrap();
    let reports = tmp.path().to_str().unwrap();
    let out = ladder_in(
        root,
        &[
            "match",
            "gdl:games/gdl/connect4.kif",
            "mcts",
            "random",
            "--games",
            "2",
            "--reports",
            reports,
            "-q",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout)
        .contains("connect4, round-robin, 2 bots, 2 of 2 games"));
    let out = ladder_in(root, &["match", "gdl:no/such.kif", "random", "random"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read no/such.kif"));
    std::fs::write(
        tmp.path().join("bad.kif"),
        "(role a) (role b)\n(<= (legal a ?m) (true (x)))\n",
    )
    .unwrap();
    let out = ladder_in(tmp.path(), &["match", "gdl:bad.kif", "random", "random"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.kif: line 2, column 1: unsafe rule for `legal`: the variable ?m of the head appears in no positive literal of the body (GDL's safety restriction)"),
        "{err}"
    );
}

#[test]
fn the_readme_example_is_real_output() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let command = "$ cargo run --release -- run configs/gdl-tictactoe.toml\n";
    let start = readme.find(command).expect("the example in the README") + command.len();
    let shown = &readme[start..start + readme[start..].find("```").unwrap()];
    let tmp = tempfile::TempDir::new().unwrap();
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/gdl-tictactoe.toml");
    let out = ladder_in(tmp.path(), &["run", config.to_str().unwrap()]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), shown);
}

#[test]
fn a_bot_program_plays_a_gdl_game_over_the_line_protocol() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::TempDir::new().unwrap();
    let log = tmp.path().join("io.log");
    let out = ladder_in(
        root,
        &[
            "match",
            "gdl:games/gdl/tictactoe.kif",
            "cmd:python3 bots/python/gdl_tictactoe_bot.py",
            "random",
            "--games",
            "6",
            "--sandbox",
            "none",
            "--reports",
            tmp.path().to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
            "-q",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // every game played to its end, none forfeited
    assert!(
        stdout.contains("│ normal      ┆     6 ┆ 100.0% │"),
        "{stdout}"
    );
    let io = std::fs::read_to_string(&log).unwrap();
    // the greeting carries the description as one JSON string, on one line
    assert!(io.contains(" text=\";;; Tic-tac-toe"), "{io}");
    // moves go both ways as KIF terms; a seat not asked shows `-`
    assert!(io.contains("< (mark 2 2)"), "{io}");
    assert!(io.contains("> played (mark 2 2) -"), "{io}");
}

/// `ladder check` of a GDL description written to a file, with the
/// game's `extra` parameters (a config's `[season.params]` lines).
fn refused(text: &str, extra: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.kif"), text).unwrap();
    let cfg = format!(
        "[season]\nname = \"bad\"\ngame = \"gdl\"\n\n[season.params]\nrules = \"bad.kif\"\n{extra}\n\n[[bot]]\nname = \"r\"\nbuiltin = \"random\"\n\n[[bot]]\nname = \"s\"\nbuiltin = \"random\"\n"
    );
    std::fs::write(dir.path().join("bad.toml"), cfg).unwrap();
    let out = ladder_in(dir.path(), &["run", "bad.toml", "-q"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        !dir.path().join("reports/bad/games.jsonl").exists(),
        "{stderr}"
    );
    stderr
}

/// The facts `(num 0) ... (num n-1)`, on one line: what the exploding rules
/// below join many times over.
fn nums(n: usize) -> String {
    (0..n)
        .map(|i| format!("(num {i})"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A description whose rule at line 5 has 40^7 bindings, asked by
/// `terminal`: past any budget.
fn exploding() -> String {
    format!(
        "{TWO_ROLES}(goal a 0) (goal b 0)\n{}\n\
         (<= big (num ?a) (num ?b) (num ?c) (num ?d) (num ?e) (num ?f) (num ?g)) \
         (<= terminal big)\n",
        nums(40)
    )
}

/// A rule with no binding at all (the `distinct` never holds) that a join
/// can only learn by trying each of 40^7 ways.
fn exploding_without_bindings() -> String {
    format!(
        "{TWO_ROLES}(goal a 0) (goal b 0)\n{}\n\
         (<= big (num ?a) (num ?b) (num ?c) (num ?d) (num ?e) (num ?f) (num ?g) \
         (distinct (f ?a ?b ?c ?d ?e ?f ?g) (f ?a ?b ?c ?d ?e ?f ?g)))\n",
        nums(40)
    )
}

const TWO_ROLES: &str = "(role a) (role b) (init (p)) (<= terminal (true (p)))\n\
    (legal a noop) (legal b noop) (<= (next (p)) (true (p)))\n";

#[test]
fn descriptions_that_nest_too_deep_break_goal_ranges_or_ground_past_the_budget_are_refused() {
    // 20,000 levels of nesting: an error with its place, not a stack overflow
    let deep = format!(
        "{TWO_ROLES}(goal a 0) (goal b 0) (f {}x{})",
        "(".repeat(20_000),
        ")".repeat(20_000)
    );
    let err = refused(&deep, "");
    assert!(
        err.contains("bad.kif") && err.contains("nest deeper than 200 levels"),
        "{err}"
    );
    assert!(err.contains("bad.kif: line 3, column 225"), "{err}");
    // goals are whole numbers from 0 to 100
    for value in ["-5", "150", "1000000000000", "abc"] {
        let text = format!("{TWO_ROLES}(goal a {value})\n(goal b 0)");
        let err = refused(&text, "");
        assert!(
            err.contains(&format!(
                "a goal is a whole number from 0 to 100, not `{value}`"
            )),
            "{value}: {err}"
        );
        assert!(err.contains("bad.kif: line 3, column 1"), "{value}: {err}");
    }
    // ... also when a variable gives them
    let text = format!("{TWO_ROLES}(score 7) (score 700)\n(<= (goal a ?x) (score ?x)) (goal b 0)");
    let err = refused(&text, "");
    assert!(err.contains("the rules give `700`"), "{err}");
    // named at the rule that gives it
    assert!(err.contains("bad.kif: line 4, column 1: a goal"), "{err}");
    // a rule whose grounding explodes, refused at the rule's place
    let text = exploding();
    let err = refused(&text, "ground_steps = 1000000");
    assert!(
        err.contains("line 5, column 1: grounding this rule takes more than 1000000 steps"),
        "{err}"
    );
}

#[test]
fn loading_past_the_time_budget_is_refused_and_says_what_it_does_while_it_runs() {
    // past any second of budget on any machine
    let text = exploding_without_bindings();
    let err = refused(&text, "ground_steps = 1000000000000000\nground_seconds = 2");
    assert!(
        err.contains(
            "line 5, column 1: loading the description (grounding) takes more than 2 s \
             (the loading time budget, `ground_seconds` among the game's parameters)"
        ),
        "{err}"
    );
    // past the first second, it said what it was doing
    assert!(
        err.lines().any(|l| l.starts_with(
            "ladder: loading bad: grounding the rule at line 5, column 1, 47 atoms so far ("
        )),
        "{err}"
    );
    // a rule with 40^7 bindings is known too large to ground whole at
    // once (its 40^7 ground rules are counted, not made), and reasoning
    // state by state then runs past the time budget on its static relations
    let err = refused(
        &exploding(),
        "ground_steps = 1000000000000000\nground_seconds = 2",
    );
    assert!(
        err.starts_with(
            "ladder: loading bad: too large to ground whole (line 5, column 1: the game has \
             more than 2000000 ground rules: too large to ground); reasoning state by state\n"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "line 5, column 1: loading the description (deriving the static relations) takes \
             more than 2 s"
        ),
        "{err}"
    );
}

#[test]
fn list_bots_takes_a_gdl_game_by_its_file_as_match_does() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = ladder_in(
        root,
        &["list", "bots", "--game", "gdl:games/gdl/tictactoe.kif"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for bot in ["random", "greedy", "mcts"] {
        assert!(
            text.lines()
                .any(|l| l.split_whitespace().nth(1) == Some(bot)),
            "{text}"
        );
    }
    let out = ladder_in(root, &["list", "bots", "--game", "gdl:no-such.kif"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no file no-such.kif"));
    // a folder or a device is there, but is no description
    let out = ladder_in(root, &["list", "bots", "--game", "gdl:games"]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("gdl:games: games is not a file"), "{said}");
}

#[test]
fn mcts_with_a_playout_budget_beyond_its_move_time_stops_in_time_and_forfeits_no_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::TempDir::new().unwrap();
    let kif = root.join("games/gdl/breakthrough.kif");
    std::fs::write(
        tmp.path().join("mcts.toml"),
        format!(
            "[season]\nname = \"mcts\"\ngame = \"gdl\"\ngames_per_pair = 2\nmove_time_ms = 100\n\
             [season.params]\nrules = \"{}\"\n\
             [[bot]]\nname = \"mcts\"\nbuiltin = \"mcts\"\nparams = {{ playouts = 100000000 }}\n\
             [[bot]]\nname = \"random\"\nbuiltin = \"random\"\n",
            kif.display()
        ),
    )
    .unwrap();
    let out = ladder_in(tmp.path(), &["run", "mcts.toml", "-q"]);
    assert!(out.status.success(), "{out:?}");
    let journal = std::fs::read_to_string(tmp.path().join("reports/mcts/games.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 2);
    for line in journal.lines() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(game["termination"]["kind"], "normal", "{line}");
    }
}

#[test]
fn a_rule_whose_loose_literals_multiply_past_the_limit_is_known_at_once_and_its_game_is_played() {
    // A race to 8 in the style of the competitions' games, with a rule like
    // chess's `threatened_with_capture`: seven variables that appear in one
    // literal each. Its relaxed bindings (from the first state alone, 2
    // positions times 8^7) pass the 2,000,000 ground rules grounding
    // allows; they are counted, not made. No question asks `seen`, so the
    // game is then ground on what its questions ask.
    let mut text = String::from(
        "(role a)\n(role b)\n(init (pos a 0))\n(init (pos b 0))\n(init (control a))\n\
         (<= (legal ?r (step 1)) (true (control ?r)))\n\
         (<= (legal ?r (step 2)) (true (control ?r)))\n\
         (<= (legal a noop) (true (control b)))\n\
         (<= (legal b noop) (true (control a)))\n\
         (<= (next (pos ?r ?y)) (does ?r (step ?n)) (true (pos ?r ?x)) (plus ?x ?n ?y))\n\
         (<= (next (pos ?r ?x)) (does ?r noop) (true (pos ?r ?x)))\n\
         (<= (next (control a)) (true (control b)))\n\
         (<= (next (control b)) (true (control a)))\n\
         (<= (done ?r) (true (pos ?r ?x)) (far ?x))\n\
         (<= terminal (done ?r))\n\
         (<= (goal ?r 100) (done ?r))\n\
         (<= (goal ?r 0) (role ?r) (not (done ?r)))\n\
         (<= (seen ?r ?x ?a ?b ?c ?d ?e ?f ?g) (true (pos ?r ?x)) (coord ?a) (coord ?b) \
         (coord ?c) (coord ?d) (coord ?e) (coord ?f) (coord ?g))\n\
         (far 8) (far 9)\n",
    );
    for x in 0..8 {
        text += &format!("(plus {x} 1 {}) (plus {x} 2 {})\n", x + 1, x + 2);
    }
    for c in 1..=8 {
        text += &format!("(coord {c}) ");
    }
    let line = 1 + text
        .lines()
        .position(|l| l.starts_with("(<= (seen"))
        .unwrap();
    let tmp = tempfile::TempDir::new().unwrap();
    std::fs::write(tmp.path().join("race.kif"), &text).unwrap();
    std::fs::write(
        tmp.path().join("race.toml"),
        "[season]\ngame = \"gdl\"\ngames_per_pair = 4\nseed = 5\n[season.params]\n\
         rules = \"race.kif\"\n\
         [[bot]]\nname = \"one\"\nbuiltin = \"random\"\n[[bot]]\nname = \"two\"\nbuiltin = \"random\"\n",
    )
    .unwrap();
    let out = ladder_in(tmp.path(), &["run", "race.toml", "-q"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "ladder: loading race: too large to ground whole (line {line}, column 1: the game \
             has more than 2000000 ground rules: too large to ground); ground on what its \
             questions can ask instead"
        )),
        "{stderr}"
    );
    let games = std::fs::read_to_string(tmp.path().join("reports/race/games.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 4, "{games}");
    for g in games.lines() {
        let g: serde_json::Value = serde_json::from_str(g).unwrap();
        assert_eq!(g["termination"]["kind"], "normal", "{g}");
        let goals = g["goals"].as_array().unwrap();
        assert_eq!(goals.iter().filter(|&v| v == 100).count(), 1, "{g}");
        assert!(g["moves"].to_string().contains("(step "), "{g}");
    }
}

#[test]
fn a_description_too_large_to_ground_whole_is_played_state_by_state_and_the_same_at_any_jobs() {
    let tmp = tempfile::TempDir::new().unwrap();
    let kif = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/gdl/tictactoe.kif"),
    )
    .unwrap();
    std::fs::write(tmp.path().join("ttt.kif"), &kif).unwrap();
    // tic-tac-toe grounds whole in a few thousand steps, a state in a few hundred
    std::fs::write(
        tmp.path().join("ttt.toml"),
        "[season]\ngame = \"gdl\"\ngames_per_pair = 8\nseed = 3\n[season.params]\nrules = \"ttt.kif\"\n\
         ground_steps = 1000\n\
         [[bot]]\nname = \"mcts\"\nbuiltin = \"mcts\"\nparams = { playouts = 40 }\n\
         [[bot]]\nname = \"random\"\nbuiltin = \"random\"\n",
    )
    .unwrap();
    let mut journals = Vec::new();
    for jobs in ["1", "2"] {
        let _ = std::fs::remove_dir_all(tmp.path().join("reports"));
        let out = ladder_in(tmp.path(), &["run", "ttt.toml", "-q", "--jobs", jobs]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(
            stderr.contains(
                "ladder: loading ttt: too large to ground whole (line 22, column 1: grounding this \
                 rule takes more than 1000 steps"
            ) && stderr.contains("); reasoning state by state"),
            "{stderr}"
        );
        let season = tmp.path().join("reports/ttt");
        let games = std::fs::read_to_string(season.join("games.jsonl")).unwrap();
        assert_eq!(games.lines().count(), 8, "{games}");
        assert!(games.contains("(mark "), "{games}");
        let out = ladder_in(tmp.path(), &["verify", season.to_str().unwrap()]);
        assert!(out.status.success(), "{out:?}");
        journals.push(games);
    }
    assert_eq!(journals[0], journals[1], "the same games at any --jobs");
}

#[test]
fn state_by_state_a_state_past_the_budget_is_refused_at_the_start_and_recursive_negation_by_relation_too(
) {
    // the rule at line 5 explodes once (q) holds, which the first state has
    let text = format!(
        "(role a) (role b) (init (q)) (<= terminal (true (q)) big)\n\
         (legal a noop) (legal b noop) (<= (next (q)) (true (q)))\n(goal a 0) (goal b 0)\n{}\n\
         (<= big (true (q)) (num ?a) (num ?b) (num ?c) (num ?d) (num ?e) (num ?f))\n",
        nums(40)
    );
    let err = refused(&text, "ground_steps = 100000");
    assert!(err.contains("reasoning state by state"), "{err}");
    assert!(
        err.contains(
            "the first state: line 5, column 1: reasoning about this state takes more than \
             100000 steps (the grounding budget, `ground_steps` among the game's parameters)"
        ),
        "{err}"
    );
    // a pie rule's goal, ordered atom by atom only, in a game too large to ground whole
    let text = format!(
        "{TWO_ROLES}(goal b 0)\n(<= (goal a 100) (true (p)) (not (goal a 0)))\n\
         (<= (goal a 0) (true (p)) (not (goal a 100)) big)\n{}\n\
         (<= big (num ?a) (num ?b) (num ?c) (num ?d) (num ?e) (num ?f))\n",
        nums(40)
    );
    let err = refused(&text, "ground_steps = 100000");
    assert!(
        err.contains("`goal` depends on itself through `(not (goal ...))`: reasoning state by state needs negation stratified by relation"),
        "{err}"
    );
}

#[test]
fn a_state_past_its_reasoning_budget_ends_the_game_as_ill_formed_and_the_journal_says_why() {
    let tmp = tempfile::TempDir::new().unwrap();
    // once a plays `go`, the state holds (q), and the rule at line 4 explodes
    let text = format!(
        "(role a) (role b) (init (p)) (legal a go) (legal b noop)\n\
         (<= (next (q)) (does a go)) (<= terminal (true (q)) big)\n\
         (goal a 0) (goal b 0) {}\n\
         (<= big (true (q)) (num ?a) (num ?b) (num ?c) (num ?d) (num ?e) (num ?f))\n",
        nums(40)
    );
    std::fs::write(tmp.path().join("stuck.kif"), text).unwrap();
    std::fs::write(
        tmp.path().join("stuck.toml"),
        "[season]\ngame = \"gdl\"\ngames_per_pair = 2\n[season.params]\nrules = \"stuck.kif\"\n\
         ground_steps = 100000\n\
         [[bot]]\nname = \"r\"\nbuiltin = \"random\"\n[[bot]]\nname = \"s\"\nbuiltin = \"random\"\n",
    )
    .unwrap();
    let out = ladder_in(tmp.path(), &["run", "stuck.toml", "-q"]);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("ill-formed"), "{stdout}");
    let season = tmp.path().join("reports/stuck");
    let games = std::fs::read_to_string(season.join("games.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 2);
    for line in games.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(g["moves"], serde_json::json!(["go"]), "{line}");
        assert_eq!(g["termination"]["kind"], "ill-formed", "{line}");
        assert_eq!(
            g["termination"]["detail"],
            "line 4, column 1: reasoning about this state takes more than 100000 steps \
             (the grounding budget, `ground_steps` among the game's parameters)",
            "{line}"
        );
        assert_eq!(g["goals"], serde_json::json!([0, 0]), "{line}");
    }
    let out = ladder_in(tmp.path(), &["verify", season.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
}
