//! Games per second for random vs random in each game: the bare engine loop
//! (game + bots, no referee, journal or reports) against the full season runner
//! (schedule, referee, journal, standings and report files) on one thread,
//! the referee alone between them, and the runner's fixed cost: a season of
//! two games.
//! `docs/PERFORMANCE.md` records the figures and their ratio.
//!
//! Run with `cargo bench --bench games`.

use std::path::{Path, PathBuf};

use divan::{
    counter::{BytesCount, ItemsCount},
    Bencher,
};
use ladder::{
    core::{
        bot::RandomBot,
        referee::{play_game, Referee},
    },
    games::{Armies, Bidding, Breakthrough, Coordination, Troops},
    plan::jobs::Jobs,
    plan::schedule::bot_seeds,
    plan::{match_plan, Plan, Roster},
    run::tournament::{self, Options},
    Bot, BySeat, Game, Seat, TimeLeft,
};

fn main() {
    divan::main();
}

/// Plays one game with no referee: ask, apply, until over. Returns the goals.
fn bare_game<G: Game>(params: &G::Params, bots: &mut BySeat<RandomBot>, seed: u64) -> BySeat<i32> {
    let mut game = G::new(params).unwrap();
    let seeds = bot_seeds(seed);
    for seat in Seat::ALL {
        Bot::<G>::new_game(&mut bots[seat], &game, seat, seeds[seat]).unwrap();
    }
    loop {
        if let Some(goals) = game.outcome() {
            return goals;
        }
        let acting = game.to_act();
        let mut moves: BySeat<Option<G::Move>> = BySeat::default();
        for seat in Seat::ALL {
            if acting[seat] {
                moves[seat] = Some(
                    Bot::<G>::choose(&mut bots[seat], &game, seat, TIME)
                        .unwrap()
                        .mv,
                );
            }
        }
        game.apply(&moves);
    }
}

/// The time a bare-loop move is told it has (random bots ignore it).
const TIME: TimeLeft = TimeLeft {
    budget: std::time::Duration::from_secs(1),
    limit: std::time::Duration::from_secs(1),
    on_clock: false,
};

/// Games per timed iteration: enough that a season's fixed costs (thread pool,
/// files, reports) are spread as they are over a real season.
const GAMES: u32 = 20_000;

#[divan::bench(types = [Bidding, Armies, Troops, Coordination, Breakthrough], sample_count = 20)]
fn bare_loop<G: Game>(bencher: Bencher) {
    let params: G::Params = toml::Table::new().try_into().unwrap();
    let mut bots = BySeat::new(RandomBot::new(), RandomBot::new());
    let mut seed = 0u64;
    bencher.counter(ItemsCount::new(GAMES)).bench_local(|| {
        for _ in 0..GAMES {
            seed += 1;
            divan::black_box(bare_game::<G>(&params, &mut bots, seed));
        }
    });
}

/// The referee alone, between the bare loop and the season runner: the same
/// games through `play_game` (bots behind `dyn Bot`, every call published
/// and caught, every move checked and kept, `game_over` to both), with no
/// schedule, journal, standings or threads.
#[divan::bench(types = [Bidding, Armies, Troops, Coordination, Breakthrough], sample_count = 20)]
fn referee_alone<G: Game>(bencher: Bencher) {
    let params: G::Params = toml::Table::new().try_into().unwrap();
    let start = G::new(&params).unwrap();
    let mut seed = 0u64;
    bencher.counter(ItemsCount::new(GAMES)).bench_local(|| {
        for _ in 0..GAMES {
            seed += 1;
            let mut bots: BySeat<Box<dyn Bot<G>>> =
                BySeat::new(Box::new(RandomBot::new()), Box::new(RandomBot::new()));
            let (first, second) = (&mut bots.first, &mut bots.second);
            let played = play_game(
                &start,
                BySeat::new(&mut **first, &mut **second),
                bot_seeds(seed),
                Referee::DEFAULT_MAX_PLIES,
            );
            divan::black_box(played.goals);
        }
    });
}

fn random_plan<G: Game>(games: u32) -> Plan<G> {
    let bots = ["random".to_string(), "random".to_string()];
    // the generic `random` needs no game's own entry
    let roster = Roster::<G> {
        game: "bench",
        builtins: &[],
        protocols: &[],
        elsewhere: Vec::new,
    };
    match_plan(
        &roster,
        ladder::plan::Match {
            bots: bots.clone(),
            games,
            seed: 1,
            sprt: None,
            openings: None,
            seating: Default::default(),
        },
        Referee::new(1000),
        &Default::default(),
        &toml::Table::new(),
    )
    .unwrap()
}

/// The whole season runner with `jobs` worker threads (the journal writer is
/// one more thread).
#[divan::bench(
    types = [Bidding, Armies, Troops, Coordination, Breakthrough],
    args = [1, 2],
    sample_count = 20
)]
fn season_runner<G: Game>(bencher: Bencher, jobs: usize) {
    season::<G>(bencher, GAMES, jobs);
}

/// What a season costs whatever its games: the runner on a season of two
/// coordination games (its folder, season file, threads, CPU meter, reports),
/// to be read beside `season_runner`'s 20,000 games of the same run.
#[divan::bench(sample_count = 50)]
fn season_of_two_games(bencher: Bencher) {
    season::<Coordination>(bencher, 2, 1);
}

/// Options for a fresh season with its reports in `dir`, `jobs` workers
/// and nothing shown.
fn fresh(dir: &Path, jobs: usize) -> Options {
    Options {
        jobs: Some(Jobs::Fixed(jobs)),
        fresh: true,
        reports: PathBuf::from(dir),
        progress: None,
        progress_every: None,
        max_games: None,
        log: None,
        shard: None,
        strict: false,
    }
}

/// Plays a fresh season of `games` random games with `jobs` workers.
fn season<G: Game>(bencher: Bencher, games: u32, jobs: usize) {
    let plan = random_plan::<G>(games);
    let dir = tempfile::tempdir().unwrap();
    let opts = fresh(dir.path(), jobs);
    bencher.counter(ItemsCount::new(games)).bench_local(|| {
        divan::black_box(tournament::run(&plan, &opts).unwrap().played);
    });
}

/// Resuming a complete season (nothing left to play): the journal is
/// streamed, checked against the schedule and tallied; bytes of journal per
/// second. The baseline beside it reads the same file and counts its lines.
#[divan::bench(types = [Armies, Breakthrough], sample_count = 10)]
fn resume_complete_season<G: Game>(bencher: Bencher) {
    let plan = random_plan::<G>(GAMES);
    let dir = tempfile::tempdir().unwrap();
    let mut opts = fresh(dir.path(), 2);
    tournament::run(&plan, &opts).unwrap();
    opts.fresh = false;
    let journal = dir.path().join(&plan.name).join("games.jsonl");
    let bytes = std::fs::metadata(&journal).unwrap().len();
    bencher.counter(BytesCount::new(bytes)).bench_local(|| {
        let summary = tournament::run(&plan, &opts).unwrap();
        assert_eq!(summary.played, 0);
        divan::black_box(summary.resumed)
    });
}

/// Baseline for resuming: read the journal line by line and count the lines.
#[divan::bench(types = [Armies, Breakthrough], sample_count = 10)]
fn read_journal_lines<G: Game>(bencher: Bencher) {
    use std::io::BufRead;
    let plan = random_plan::<G>(GAMES);
    let dir = tempfile::tempdir().unwrap();
    let opts = fresh(dir.path(), 2);
    tournament::run(&plan, &opts).unwrap();
    let journal = dir.path().join(&plan.name).join("games.jsonl");
    let bytes = std::fs::metadata(&journal).unwrap().len();
    bencher.counter(BytesCount::new(bytes)).bench_local(|| {
        let file = std::io::BufReader::new(std::fs::File::open(&journal).unwrap());
        divan::black_box(file.split(b'\n').count())
    });
}

/// `search` on breakthrough: one 20,000-node search from the start (its
/// default budget per move), beside perft 4 from the start (256,036 leaves:
/// plain move generation and play) as the baseline of the same run.
#[divan::bench(sample_count = 10)]
fn breakthrough_search_20000_nodes(bencher: Bencher) {
    use ladder::games::breakthrough::search::Searcher;
    let start = Breakthrough::new(&Default::default()).unwrap();
    bencher.bench_local(|| {
        let mut searcher = Searcher::new(18);
        let root = start.legal_moves(ladder::Seat::First);
        searcher.search(&start, root, 20_000, None).unwrap()
    });
}

#[divan::bench(sample_count = 10)]
fn breakthrough_perft_4(bencher: Bencher) {
    let start = Breakthrough::new(&Default::default()).unwrap();
    bencher.bench_local(|| start.perft(4));
}
