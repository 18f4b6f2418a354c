//! Differential tests of the GDL reasoner: each native game against its GDL
//! twin in `games/gdl/`, in lockstep over thousands of seeded random games.
//! At every state the seats to act, each seat's legal moves (translated
//! between the two notations), the end and the goals must agree; a
//! disagreement names the game's seed and the moves that lead to it.
//! Breakthrough's perft through the reasoner matches the native count.

use std::path::Path;

use ladder::{
    games::{
        armies::{Armies, ArmiesParams},
        bidding::{Bidding, BiddingParams},
        breakthrough::{Breakthrough, BreakthroughParams},
        coordination::{Coordination, CoordinationParams},
        gdl::{Gdl, GdlMove, GdlParams},
        troops::{Troops, TroopsParams},
    },
    BySeat, Game, Rng, Seat,
};
use rand::{Rng as _, SeedableRng};

/// A description shipped in `games/gdl/`.
fn twin(file: &str) -> Gdl {
    let params = GdlParams::read(
        file,
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/gdl"),
    )
    .unwrap();
    Gdl::new(&params).unwrap_or_else(|e| panic!("{file}: {e}"))
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
                let gdl_moves: Vec<String> = {
                    let mut m: Vec<String> =
                        t.legal_moves(seat).iter().map(|m| m.to_string()).collect();
                    m.sort();
                    m
                };
                assert_eq!(
                    legal(&n, seat, &translate),
                    gdl_moves,
                    "legal moves of seat {}: {}",
                    seat.number(),
                    at(&played)
                );
            }
            assert_eq!(n.outcome(), t.outcome(), "end and goals: {}", at(&played));
            if n.outcome().is_some() {
                break;
            }
            let acting = n.to_act();
            let moves: BySeat<Option<N::Move>> = BySeat::from_fn(|s| {
                acting[s].then(|| {
                    let legal = n.legal_moves(s);
                    legal[rng.random_range(0..legal.len())].clone()
                })
            });
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
    let broken = text.replace(
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
                let acting = g.to_act();
                let moves = BySeat::from_fn(|s| {
                    acting[s].then(|| {
                        let legal = g.legal_moves(s);
                        legal[rng.random_range(0..legal.len())].clone()
                    })
                });
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
