//! The bidding game's solver and bots: the threshold solver for 100/100 and
//! 1000/1000 next to the exhaustive one it replaced and to a straightforward
//! C solver measured in the same run (compiled here with
//! the system C compiler), the DP bidder's table build, and the per-move cost
//! of `optimal` and `dp` once their tables exist.
//!
//! Run with `cargo bench --bench bidding`; `docs/PERFORMANCE.md` records the figures.

use std::{path::PathBuf, process::Command};

use divan::Bencher;
use ladder::{
    games::bidding::{
        solver::{Solution, State},
        BiddingParams, DpTable, Optimal,
    },
    BySeat, Seat,
};

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 10)]
fn solve_100(bencher: Bencher) {
    bencher.bench_local(|| Solution::solve(BySeat::new(100, 100), 10));
}

/// The state-by-state solver the threshold solver replaced, same budget.
#[divan::bench(sample_count = 10)]
fn solve_100_exhaustive(bencher: Bencher) {
    bencher.bench_local(|| Solution::solve_exhaustive(BySeat::new(100, 100), 10));
}

#[divan::bench(sample_count = 5)]
fn solve_1000(bencher: Bencher) {
    bencher.bench_local(|| Solution::solve(BySeat::new(1000, 1000), 10));
}

/// The exhaustive solver at 300 (it is cubic: 1000 takes minutes).
#[divan::bench(sample_count = 2)]
fn solve_300_exhaustive(bencher: Bencher) {
    bencher.bench_local(|| Solution::solve_exhaustive(BySeat::new(300, 300), 10));
}

/// The baseline: `benches/baseline/bidding_naive.c`, full bid matrices, `cc -O2`.
#[divan::bench(sample_count = 3)]
fn solve_100_naive_c(bencher: Bencher) {
    let dir = tempfile::tempdir().unwrap();
    let exe: PathBuf = dir.path().join("bidding_naive");
    let source = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/baseline/bidding_naive.c"
    );
    let built = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(source)
        .status();
    if !built.is_ok_and(|s| s.success()) {
        eprintln!("no C compiler: skipping the baseline");
        return;
    }
    // the states it counts must be ladder's (same game, same rules)
    let ours = Solution::solve(BySeat::new(100, 100), 10).counts();
    bencher.bench_local(|| {
        let out = Command::new(&exe).arg("100").output().unwrap();
        let counts: Vec<u64> = String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(
            counts,
            [ours.0, ours.1, ours.2],
            "the C solver agrees with ladder's"
        );
    });
}

#[divan::bench(sample_count = 10)]
fn dp_table_100(bencher: Bencher) {
    bencher.bench_local(|| DpTable::build(100, 10));
}

fn start() -> State {
    State {
        position: 5,
        money: BySeat::new(100, 100),
        advantage: Seat::First,
    }
}

#[divan::bench]
fn optimal_move(bencher: Bencher) {
    let solution = Solution::solve(BySeat::new(100, 100), 10);
    bencher.bench_local(|| Optimal::bid(&solution, &start(), Seat::First));
}

#[divan::bench]
fn dp_move(bencher: Bencher) {
    let table = DpTable::shared(&BiddingParams::default());
    bencher.bench_local(|| table.bid(Seat::First, &start()));
}
