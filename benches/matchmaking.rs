//! How many games the arena's matchmaking needs to rank a field, against a
//! round-robin of the same bots: 16 simulated bots whose true Elo spans 600
//! (40 apart), each game won by the stronger with the Bradley-Terry
//! probability of the true gap (no draws). A field is ranked when the joint
//! fit orders every bot rightly and the 95% intervals of every two
//! neighbours are apart. The arena plays batches of 16 games chosen by
//! `arena::matchmaking` (newcomers first, then the least certain order);
//! the round-robin plays every pairing twice, seats swapped, round after
//! round. Both are checked after every batch or round. The figure is games,
//! not time: it is printed, with the median over seeds, and
//! docs/PERFORMANCE.md records it. divan then times one matchmaking
//! decision of a 16-bot field.
//!
//! Run with `cargo bench --bench matchmaking`.

use divan::Bencher;
use ladder::{
    arena::matchmaking::{next_batch, Settings},
    stats::{ratings, standings::Tally},
    Rng,
};
use rand::{Rng as _, SeedableRng};

const BOTS: usize = 16;
const SPACING: f64 = 40.0;
const SEEDS: u64 = 5;
/// A field still unranked after this many games counts as this many.
const CAP: u64 = 400_000;

fn main() {
    let mut arena = Vec::new();
    let mut round_robin = Vec::new();
    for seed in 0..SEEDS {
        arena.push(games_to_rank(seed, Scheme::Arena));
        round_robin.push(games_to_rank(seed, Scheme::RoundRobin));
    }
    let (a, r) = (median(&mut arena), median(&mut round_robin));
    println!(
        "games to rank {BOTS} bots {SPACING} Elo apart, median of {SEEDS} seeds: \
         arena {a} ({arena:?}), round-robin {r} ({round_robin:?}), ratio {:.2}",
        a as f64 / r as f64
    );
    divan::main();
}

#[derive(Clone, Copy, PartialEq)]
enum Scheme {
    Arena,
    RoundRobin,
}

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

/// Bot `i`'s true Elo: the strongest first.
fn elo(i: usize) -> f64 {
    (BOTS - 1 - i) as f64 * SPACING
}

/// Plays `a` against `b` once into `vs`.
fn play(vs: &mut [Vec<Tally>], a: usize, b: usize, rng: &mut Rng) {
    let p = 1.0 / (1.0 + 10f64.powf((elo(b) - elo(a)) / 400.0));
    let a_wins = rng.random_bool(p);
    let (w, l) = if a_wins { (a, b) } else { (b, a) };
    vs[w][l].games += 1;
    vs[w][l].won += 1;
    vs[l][w].games += 1;
    vs[l][w].lost += 1;
}

/// Whether the fit orders every bot rightly with neighbours' intervals apart.
fn ranked(vs: &[Vec<Tally>]) -> bool {
    let fit = ratings::fit(vs, None);
    (0..BOTS - 1).all(|i| {
        let (hi, lo) = (fit.ratings[i], fit.ratings[i + 1]);
        match (hi.low, lo.high, hi.elo, lo.elo) {
            (Some(bottom_of_better), Some(top_of_worse), Some(_), Some(_)) => {
                bottom_of_better > top_of_worse
            }
            _ => false,
        }
    })
}

fn games_to_rank(seed: u64, scheme: Scheme) -> u64 {
    let mut rng = Rng::seed_from_u64(seed);
    let mut vs = vec![vec![Tally::default(); BOTS]; BOTS];
    let mut games = 0;
    while games < CAP {
        let batch = match scheme {
            Scheme::Arena => next_batch(&vs, Settings::default()),
            Scheme::RoundRobin => (0..BOTS)
                .flat_map(|a| (a + 1..BOTS).flat_map(move |b| [(a, b), (b, a)]))
                .collect(),
        };
        for &(a, b) in &batch {
            play(&mut vs, a, b, &mut rng);
        }
        games += batch.len() as u64;
        if ranked(&vs) {
            return games;
        }
    }
    CAP
}

/// One matchmaking decision for a 16-bot field after a round-robin round.
#[divan::bench]
fn one_batch_of_a_16_bot_field(bencher: Bencher) {
    let mut rng = Rng::seed_from_u64(1);
    let mut vs = vec![vec![Tally::default(); BOTS]; BOTS];
    for a in 0..BOTS {
        for b in 0..BOTS {
            if a != b {
                for _ in 0..4 {
                    play(&mut vs, a, b, &mut rng);
                }
            }
        }
    }
    bencher.bench_local(|| next_batch(&vs, Settings::default()));
}
