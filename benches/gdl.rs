//! The GDL reasoner's speed: random playouts per second through it for each
//! shipped description, beside the native game's random playouts in the same
//! run for the five twins of native games (the target: GDL
//! breakthrough at least 1/10 of the native rate), and the time to read,
//! check, ground and build each description (target: under a second each).
//! `docs/PERFORMANCE.md` records the figures.
//!
//! Run with `cargo bench --bench gdl`.

use std::path::Path;

use divan::{counter::ItemsCount, Bencher};
use ladder::{
    core::game::random_turn,
    games::{
        gdl::{Gdl, GdlParams},
        Armies, Bidding, Breakthrough, Coordination, Troops,
    },
    Game, Rng,
};
use rand::SeedableRng;

fn main() {
    divan::main();
}

/// Every description shipped in `games/gdl/`.
const DESCRIPTIONS: [&str; 11] = [
    "tictactoe",
    "connect4",
    "matching-pennies",
    "breakthrough",
    "bidding",
    "armies",
    "troops",
    "coordination",
    "checkers",
    "knights",
    "breakthrough-frames",
];

fn params(game: &str) -> GdlParams {
    GdlParams::read(
        format!("{game}.kif"),
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/gdl"),
    )
    .unwrap()
}

/// Random playouts per timed iteration: random games differ in length
/// (breakthrough's from about 30 plies to over 100), so with one playout a
/// sample the median is a matter of luck. The generator goes on from
/// sample to sample, so no two samples replay the same games (which the
/// processor's branch predictor could learn).
const PLAYOUTS: u64 = 64;

/// Random playouts through the reasoner, [`PLAYOUTS`] per iteration.
#[divan::bench(args = DESCRIPTIONS)]
fn gdl_playout(bencher: Bencher, game: &str) {
    let start = Gdl::new(&params(game)).unwrap();
    let mut rng = Rng::seed_from_u64(1);
    bencher.counter(ItemsCount::new(PLAYOUTS)).bench_local(|| {
        for _ in 0..PLAYOUTS {
            divan::black_box(start.random_playout(&mut rng, 1000));
        }
    });
}

/// Baseline: [`PLAYOUTS`] random playouts of each native game with a GDL
/// twin, with its default parameters (the twins describe those).
#[divan::bench(types = [Breakthrough, Bidding, Armies, Troops, Coordination])]
fn native_playout<G: Game>(bencher: Bencher) {
    let params: G::Params = toml::Table::new().try_into().unwrap();
    let start = G::new(&params).unwrap();
    let mut rng = Rng::seed_from_u64(1);
    bencher.counter(ItemsCount::new(PLAYOUTS)).bench_local(|| {
        for _ in 0..PLAYOUTS {
            let mut g = start.clone();
            while g.outcome().is_none() {
                let moves = random_turn(&g, &mut rng);
                g.apply(&moves);
            }
            divan::black_box(g.outcome());
        }
    });
}

/// Reading, checking, grounding and building a description: what a season
/// pays once.
#[divan::bench(args = DESCRIPTIONS, sample_count = 10)]
fn gdl_prepare(bencher: Bencher, game: &str) {
    let p = params(game);
    bencher.bench_local(|| Gdl::new(&p).unwrap());
}
