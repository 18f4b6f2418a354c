//! The GDL reasoner's speed: random playouts per second through it for
//! tic-tac-toe, connect four and breakthrough, beside native breakthrough's
//! random playouts in the same run (the target: GDL breakthrough at
//! least 1/100 of the native rate), and the time to read, check and ground
//! each description. `docs/PERFORMANCE.md` records the figures.
//!
//! Run with `cargo bench --bench gdl`.

use std::path::Path;

use divan::{counter::ItemsCount, Bencher};
use ladder::{
    core::game::random_turn,
    games::{
        breakthrough::{Breakthrough, BreakthroughParams},
        gdl::{Gdl, GdlParams},
    },
    Game, Rng,
};
use rand::SeedableRng;

fn main() {
    divan::main();
}

const GAMES: [&str; 3] = ["tictactoe", "connect4", "breakthrough"];

fn params(game: &str) -> GdlParams {
    GdlParams::read(
        format!("{game}.kif"),
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/gdl"),
    )
    .unwrap()
}

/// One random playout through the reasoner, per iteration.
#[divan::bench(args = GAMES)]
fn gdl_playout(bencher: Bencher, game: &str) {
    let start = Gdl::new(&params(game)).unwrap();
    let mut rng = Rng::seed_from_u64(1);
    bencher
        .counter(ItemsCount::new(1usize))
        .bench_local(|| start.random_playout(&mut rng, 1000));
}

/// Baseline: one random playout of native breakthrough (bitboards).
#[divan::bench]
fn native_breakthrough_playout(bencher: Bencher) {
    let start = Breakthrough::new(&BreakthroughParams::default()).unwrap();
    let mut rng = Rng::seed_from_u64(1);
    bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
        let mut g = start.clone();
        while g.outcome().is_none() {
            let moves = random_turn(&g, &mut rng);
            g.apply(&moves);
        }
        g.outcome()
    });
}

/// Reading, checking and grounding a description: what a season pays once.
#[divan::bench(args = GAMES, sample_count = 10)]
fn gdl_prepare(bencher: Bencher, game: &str) {
    let p = params(game);
    bencher.bench_local(|| Gdl::new(&p).unwrap());
}
