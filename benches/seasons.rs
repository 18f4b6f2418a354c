//! What closing an arena's season costs (`[arena] season_games`), and
//! that it does not grow with the arena's history: the batch that records
//! a season's last game also fits the season's games and every game up to
//! them (two joint Bradley-Terry fits of the versions), from standings
//! the arena keeps as it plays, not from the games.
//!
//! An arena of 100 bots (random pairs, the stronger more likely to win),
//! seasons of 10,000 games, batches of 16:
//! - `batch_closing_no_season`: a batch's 16 games folded into the
//!   season's standings, as most batches are: the baseline;
//! - `batch_closing_a_season::<H>`: the batch that closes a season after
//!   `H` games of history (20,000 or 1,000,000): its games folded, the
//!   standings of every game copied and both fits made. (Not 10,000: that
//!   season is all the arena's games, so its second fit is the first,
//!   given again by `ratings::fit`.)
//!
//! Run with `cargo bench --bench seasons`; docs/PERFORMANCE.md has the
//! figures.

use std::sync::OnceLock;

use divan::Bencher;
use ladder::{
    arena::{
        seasons::{Closer, Season},
        store::Store,
    },
    core::record::Scored,
    stats::standings::Standings,
    Rng,
};
use rand::{Rng as _, SeedableRng};

const BOTS: usize = 100;
const EVERY: u64 = 10_000;
const BATCH: u64 = 16;

fn main() {
    divan::main();
}

/// The bots' names, `b0@1` to `b99@1`.
fn names() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| (0..BOTS).map(|b| format!("b{b}@1")).collect())
}

/// Game `n`'s journal line: a random pair, bot `i` `(100 - i) * 10` Elo
/// above the weakest.
fn line(n: u64, rng: &mut Rng) -> String {
    let (a, b) = (rng.random_range(0..BOTS), rng.random_range(0..BOTS - 1));
    let b = if b >= a { b + 1 } else { b };
    let p = 1.0 / (1.0 + 10f64.powf((a as f64 - b as f64) * 10.0 / 400.0));
    let (result, goals) = match rng.random_bool(p) {
        true => ("first", "[100,0]"),
        false => ("second", "[0,100]"),
    };
    format!(
        "{{\"index\":{n},\"pair\":{n},\"seats\":[\"b{a}@1\",\"b{b}@1\"],\"seed\":{n},\"result\":\"{result}\",\"goals\":{goals},\"termination\":{{\"kind\":\"normal\"}},\"plies\":0,\"moves\":[]}}"
    )
}

/// An empty store: the closer reads none of it once it has followed the
/// season.
fn store() -> Store {
    static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        Store::create(&dir, &[("game", "coordination".into())]).unwrap();
        dir
    });
    Store::open(dir).unwrap()
}

/// After `history` games: the standings of every game, a closer that has
/// followed the season up to the next batch, and that batch (the last
/// `BATCH` games of a season when `closing`).
fn arena(history: u64, closing: bool) -> (Standings, Closer, Vec<(u64, String)>) {
    let names = names();
    let mut rng = Rng::seed_from_u64(history);
    let first = match closing {
        true => history - BATCH,
        false => history - EVERY / 2,
    };
    let season_from = first - first % EVERY;
    let mut before = Standings::empty(names);
    let mut season = Vec::new();
    for n in 0..first {
        let line = line(n, &mut rng);
        before.add(&Scored::from_line(&line, names).unwrap().unwrap());
        if n >= season_from {
            season.push((n, line));
        }
    }
    // the closer follows the season's games before `first`, as it does
    // while the arena plays
    let store = store();
    let mut closer = Closer::new(EVERY);
    let folded = Standings::empty(names);
    for chunk in season.chunks(BATCH as usize) {
        let closed = closer
            .close(&store, names, &folded, chunk[0].0, chunk)
            .unwrap();
        assert!(closed.is_empty());
    }
    let batch = (first..first + BATCH)
        .map(|n| (n, line(n, &mut rng)))
        .collect();
    (before, closer, batch)
}

#[divan::bench(sample_count = 100)]
fn batch_closing_no_season(bencher: Bencher) {
    closing(bencher, 1_000_000, false, |closed| {
        assert!(closed.is_empty())
    });
}

#[divan::bench(args = [20_000, 1_000_000], sample_count = 20)]
fn batch_closing_a_season(bencher: Bencher, history: u64) {
    closing(bencher, history, true, |closed| {
        assert_eq!(closed.len(), 1);
        assert_eq!(closed[0].last, history - 1);
        assert_eq!(closed[0].rows.len(), BOTS);
    });
}

/// The next batch after `history` games of [`arena`], each sample from
/// the same closer, timed by `bencher`; `check` sees the seasons closed.
fn closing(bencher: Bencher, history: u64, closes: bool, check: impl Fn(&[Season])) {
    let (before, closer, batch) = arena(history, closes);
    let store = store();
    bencher
        .with_inputs(|| closer.clone())
        .bench_local_values(|mut closer| {
            let first = batch[0].0;
            let closed = closer
                .close(&store, names(), &before, first, &batch)
                .unwrap();
            check(&closed);
            closer
        });
}
