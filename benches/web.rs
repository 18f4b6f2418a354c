//! What a page of the arena costs to render, however large the arena: the
//! leaderboard of 100 bots over 1,000,000 games, and one game's replay.
//!
//! The arena is built once, in a temporary folder: 100 versions, 100
//! batches of 10,000 games each (results drawn from the bots' true
//! strengths), then one batch of 16. The server keeps its leaderboard
//! ([`ladder::web::api::Board`]) and folds only what is new, so:
//! - `leaderboard_after_a_batch`: the board of every batch but the last,
//!   brought up to date by the last (16 games) and rendered: what a page
//!   costs when a game ends. Its baseline, `leaderboard_from_nothing`,
//!   builds the board from all 1,000,000 games (the server's first
//!   request, and every request without the kept board).
//! - `leaderboard_unchanged`: a board whose arena did nothing since.
//! - `candidates_page`: the candidates' tallies and LLR trails (`b0@1` is
//!   a candidate), only a candidate's games read.
//! - `games_of_a_bot`: the newest 100 of one bot's games (a filter),
//!   only its games read (the `seats` table lists them); `games_in_a_range`: a range of
//!   game numbers, only those read; `games_until_long_ago`: a time no
//!   game finished by, only the times looked at.
//! - `bot_page`: one bot's page, its rating history fitted at up to 40
//!   points of the arena's history, by a server that kept no chart yet;
//!   `bot_page_after_a_batch`: the same after the last batch, the charts
//!   kept from before it.
//! - `leaderboard_beside_a_bot_page`: the leaderboard asked while another
//!   request makes a bot's page from the same kept board; beside
//!   `leaderboard_after_a_batch`.
//! - `games_page`: the newest 100 games (`/api/games` without a filter),
//!   the page alone read; its baseline, `games_through_every_record`, a
//!   filter only the records answer (all read and scored). Beside it too,
//!   the filters the arena's lists answer: a range, a time, a bot, a
//!   result, a termination, a length.
//! - `replay`: one breakthrough game of 200 random turns as the API's JSON,
//!   every position drawn; its baseline, `replay_as_text`, is `ladder
//!   replay`'s text of the same game.
//!
//! Run with `cargo bench --bench web`; docs/PERFORMANCE.md has the figures.

use std::{
    path::PathBuf,
    sync::{Mutex, OnceLock},
};

use divan::Bencher;
use ladder::{
    arena::{
        league::League,
        store::{Event, Store},
    },
    core::game::{random_turn, Game},
    core::record::Record,
    games::breakthrough::{Breakthrough, BreakthroughParams},
    journal::replay::plies,
    web::{
        api::{self, Board},
        filter::{each_kept, Filter, PAGE},
    },
    Rng,
};
use rand::{Rng as _, SeedableRng};

const BOTS: usize = 100;
const BATCHES: u64 = 100;
const BATCH: u64 = 10_000;

fn main() {
    divan::main();
}

/// The arena's folder (kept for the whole run) and the board made from
/// every batch but the last.
fn arena() -> &'static (PathBuf, Board) {
    static ARENA: OnceLock<(PathBuf, Board)> = OnceLock::new();
    ARENA.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let settings = "[season]\ngame = \"breakthrough\"\nseed = 1\n";
        let settings = ladder::arena::config::Settings {
            season: settings.to_string(),
            matchmaking: Default::default(),
            sprt: Default::default(),
            season_games: None,
        };
        let mut store = Store::create(&dir, &settings.meta("breakthrough", "breakthrough")).unwrap();
        for b in 0..BOTS {
            store
                .append(&Event::Added {
                    bot: format!("b{b}@1"),
                    name: format!("b{b}"),
                    version: 1,
                    spec: format!("name = \"b{b}@1\"\nbuiltin = \"random\"\n"),
                    // one candidate, for the candidates page
                    candidate: b == 0,
                    against: None,
                })
                .unwrap();
        }
        let mut rng = Rng::seed_from_u64(7);
        let mut first = 0;
        let mut batch = |store: &mut Store, number: u64, size: u64, rng: &mut Rng| {
            let mut pairs = Vec::new();
            let mut rows = Vec::new();
            for k in 0..size {
                let (a, b) = (rng.random_range(0..BOTS), rng.random_range(0..BOTS - 1));
                let b = if b >= a { b + 1 } else { b };
                // bot i is (BOTS - i) * 10 Elo above the weakest
                let p = 1.0 / (1.0 + 10f64.powf((a as f64 - b as f64) * 10.0 / 400.0));
                let first_wins = rng.random_bool(p);
                let n = first + k;
                let (result, goals) = if first_wins {
                    ("first", "[100,0]")
                } else {
                    ("second", "[0,100]")
                };
                rows.push((
                    n,
                    format!(
                        "{{\"index\":{n},\"pair\":{n},\"seats\":[\"b{a}@1\",\"b{b}@1\"],\"seed\":{n},\"result\":\"{result}\",\"goals\":{goals},\"termination\":{{\"kind\":\"normal\"}},\"plies\":0,\"moves\":[]}}"
                    ),
                ));
                pairs.push([format!("b{a}@1"), format!("b{b}@1")]);
            }
            store
                .append(&Event::Batch {
                    number,
                    first,
                    games: pairs,
                })
                .unwrap();
            store.finish_batch(number, &rows, &[], &[]).unwrap();
            first += size;
        };
        for number in 0..BATCHES {
            batch(&mut store, number, BATCH, &mut rng);
        }
        let board = Mutex::new(Board::default());
        api::leaderboard_kept(&dir, &board).unwrap();
        api::bot(&dir, "b1@1", &board).unwrap();
        batch(&mut store, BATCHES, 16, &mut rng);
        let board = board.into_inner().unwrap();
        (dir, board)
    })
}

#[divan::bench(sample_count = 10)]
fn leaderboard_after_a_batch(bencher: Bencher) {
    let (dir, board) = arena();
    bencher
        .with_inputs(|| Mutex::new(board.clone()))
        .bench_local_values(|board| {
            let answer = api::leaderboard_kept(dir, &board).unwrap();
            assert_eq!(answer["rows"].as_array().unwrap().len(), BOTS);
            assert_eq!(answer["arena"]["games"], BATCHES * BATCH + 16);
            board
        });
}

#[divan::bench(sample_count = 3)]
fn leaderboard_from_nothing(bencher: Bencher) {
    let (dir, _) = arena();
    bencher.bench_local(|| api::leaderboard_kept(dir, &Mutex::default()).unwrap());
}

#[divan::bench(sample_count = 20)]
fn leaderboard_unchanged(bencher: Bencher) {
    let (dir, board) = arena();
    let board = Mutex::new(board.clone());
    api::leaderboard_kept(dir, &board).unwrap();
    bencher.bench_local(|| api::leaderboard_kept(dir, &board).unwrap());
}

/// `GET /api/games?QUERY` from a copy of the kept board, timed by
/// `bencher`; `total` checks how many games the answer says it keeps.
fn games_asked(bencher: Bencher, query: &[(&str, &str)], total: impl Fn(u64) -> bool) {
    let (dir, board) = arena();
    let board = Mutex::new(board.clone());
    let query: Vec<(String, String)> = query
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    bencher.bench_local(|| {
        let answer = api::games(dir, &query, &board).unwrap();
        let kept = answer["total"].as_u64().unwrap();
        assert!(total(kept), "{kept} games kept");
        answer
    });
}

/// `GET /api/games` without a filter: the newest 100 of 1,000,016 games,
/// the page alone read. Its baseline, `games_through_every_record`, reads
/// and scores every game's record (as every filtered request did before
/// the arena listed games by bot and ending).
#[divan::bench(sample_count = 20)]
fn games_page(bencher: Bencher) {
    games_asked(bencher, &[], |n| n == BATCHES * BATCH + 16);
}

/// `GET /api/games?since=2000-01-01`: the same page through a filter that
/// keeps every game, the numbers read from the games' times, only the
/// page's records. Beside `games_through_every_record`.
#[divan::bench(sample_count = 3)]
fn games_page_through_a_filter(bencher: Bencher) {
    games_asked(bencher, &[("since", "2000-01-01")], |n| {
        n == BATCHES * BATCH + 16
    });
}

/// Every game's record read and scored through the filter of
/// `games_page_through_a_filter`, as the server reads the games of a
/// filter the arena's lists cannot answer (an opponent, a bot's wins) and
/// as it read those of every filter before the lists: the baseline of the
/// other filters.
#[divan::bench(sample_count = 3)]
fn games_through_every_record(bencher: Bencher) {
    let (dir, _) = arena();
    let store = Store::open(dir).unwrap();
    let league = League::from_events(&store.events().unwrap()).unwrap();
    let query = [("since".to_string(), "2000-01-01".to_string())];
    let f = Filter::parse(&query).unwrap();
    bencher.bench_local(|| {
        let mut kept = 0;
        each_kept(&store, &league, &f, PAGE, |page| {
            kept += page.len() as u64;
            Ok(())
        })
        .unwrap();
        assert_eq!(kept, BATCHES * BATCH + 16);
    });
}

/// `GET /api/games?from=500000&to=500999`: a range of 1,000 game numbers,
/// only those read. Beside `games_through_every_record`.
#[divan::bench(sample_count = 10)]
fn games_in_a_range(bencher: Bencher) {
    games_asked(bencher, &[("from", "500000"), ("to", "500999")], |n| {
        n == 1000
    });
}

/// `GET /api/games?until=2000-01-01`: a time no game finished by, the
/// times looked at by the database, no record read. Beside
/// `games_through_every_record`.
#[divan::bench(sample_count = 10)]
fn games_until_long_ago(bencher: Bencher) {
    games_asked(bencher, &[("until", "2000-01-01")], |n| n == 0);
}

/// `GET /api/games?bot=b1@1`: the newest 100 of one bot's games (about 2%
/// of them), found in the arena's list of seats, only the page's records
/// read. Beside `games_through_every_record`.
#[divan::bench(sample_count = 10)]
fn games_of_a_bot(bencher: Bencher) {
    games_asked(bencher, &[("bot", "b1@1")], |n| n > 10_000);
}

/// `GET /api/games?result=first`: the newest 100 of the games the first
/// seat won (about half of them), found in the arena's list of endings,
/// only the page read. Beside `games_through_every_record`.
#[divan::bench(sample_count = 10)]
fn games_won_by_the_first_seat(bencher: Bencher) {
    games_asked(bencher, &[("result", "first")], |n| {
        n > 400_000 && n < 600_000
    });
}

/// `GET /api/games?termination=forfeit`: no game here was forfeited;
/// the list of endings says so without a record read. Beside
/// `games_through_every_record`.
#[divan::bench(sample_count = 10)]
fn games_forfeited(bencher: Bencher) {
    games_asked(bencher, &[("termination", "forfeit")], |n| n == 0);
}

/// `GET /api/games?min_plies=1`: every game here has 0 plies; the list
/// of endings says so without a record read. Beside
/// `games_through_every_record`.
#[divan::bench(sample_count = 10)]
fn games_of_a_length(bencher: Bencher) {
    games_asked(bencher, &[("min_plies", "1")], |n| n == 0);
}

/// `GET /api/candidates`: the one candidate (`b0@1`, in about 2% of the
/// games) with its tally and LLR after each of its games; only its games
/// are read, the league from the server's kept board. Beside
/// `games_through_every_record`, which reads every game once.
#[divan::bench(sample_count = 10)]
fn candidates_page(bencher: Bencher) {
    let (dir, board) = arena();
    let board = Mutex::new(board.clone());
    bencher.bench_local(|| {
        let answer = api::candidates(dir, &board).unwrap();
        let c = &answer["candidates"].as_array().unwrap()[0];
        assert_eq!(c["bot"], "b0@1");
        assert!(c["tally"]["games"].as_u64().unwrap() > 10_000);
        answer
    });
}

/// `GET /api/bots/b1@1`: one bot's page (its row, rating after each of up
/// to 40 points of the arena's history, results per opponent, recent
/// games and forfeits), by a server that kept the league but no rating
/// chart yet (its first bot page): every game read. Beside
/// `games_through_every_record`, which reads every game once.
#[divan::bench(sample_count = 3)]
fn bot_page(bencher: Bencher) {
    let (dir, _) = arena();
    bencher
        .with_inputs(|| {
            let board = Mutex::new(Board::default());
            api::leaderboard_kept(dir, &board).unwrap();
            board
        })
        .bench_local_values(|board| bot_page_of(dir, &board));
}

/// `b1@1`'s page from `board`, checked to hold its rating chart.
fn bot_page_of(dir: &std::path::Path, board: &Mutex<Board>) -> serde_json::Value {
    let answer = api::bot(dir, "b1@1", board).unwrap();
    assert!(answer["history"].as_array().unwrap().len() >= 20);
    answer
}

/// The same page when the server made one before the last batch: the
/// charts brought up to date by that batch's 16 games. Beside `bot_page`.
#[divan::bench(sample_count = 10)]
fn bot_page_after_a_batch(bencher: Bencher) {
    let (dir, board) = arena();
    bencher
        .with_inputs(|| Mutex::new(board.clone()))
        .bench_local_values(|board| bot_page_of(dir, &board));
}

/// `GET /api/leaderboard` asked while another request makes `b1@1`'s page
/// from the same kept board, with no chart kept yet (`bot_page`, about
/// 1.4 s), 200 ms after that request began: the time the leaderboard takes
/// beside it. Beside `leaderboard_after_a_batch`, the same answer asked
/// alone.
#[divan::bench(sample_count = 5)]
fn leaderboard_beside_a_bot_page(bencher: Bencher) {
    /// The request making the bot's page, waited for when dropped (after
    /// the sample is timed).
    struct Page(Option<std::thread::JoinHandle<()>>);
    impl Drop for Page {
        fn drop(&mut self) {
            self.0.take().unwrap().join().unwrap();
        }
    }
    let (dir, _) = arena();
    bencher
        .with_inputs(|| {
            // the league kept, no chart yet: the page reads every game
            let board = std::sync::Arc::new(Mutex::new(Board::default()));
            api::arena(dir, &board).unwrap();
            let page = {
                let board = board.clone();
                std::thread::spawn(move || {
                    api::bot(dir, "b1@1", &board).unwrap();
                })
            };
            std::thread::sleep(std::time::Duration::from_millis(200));
            (board, Page(Some(page)))
        })
        .bench_local_values(|(board, page)| {
            let answer = api::leaderboard_kept(dir, &board).unwrap();
            assert_eq!(answer["rows"].as_array().unwrap().len(), BOTS);
            (answer, page)
        });
}

/// A breakthrough game of random moves (at most 200 turns), as a record.
fn game() -> &'static Record {
    static GAME: OnceLock<Record> = OnceLock::new();
    GAME.get_or_init(|| {
        let mut g = Breakthrough::new(&BreakthroughParams::default()).unwrap();
        let mut rng = Rng::seed_from_u64(3);
        let mut moves = Vec::new();
        while g.outcome().is_none() && moves.len() < 200 {
            let turn = random_turn(&g, &mut rng);
            let m = turn.first.or(turn.second).unwrap();
            moves.push(format!("\"{m}\""));
            g.apply(&turn);
        }
        let line = format!(
            "{{\"index\":0,\"pair\":0,\"seats\":[\"a\",\"b\"],\"seed\":1,\"result\":\"first\",\"goals\":[100,0],\"termination\":{{\"kind\":\"normal\"}},\"plies\":{},\"moves\":[{}]}}",
            moves.len(),
            moves.join(",")
        );
        serde_json::from_str(&line).unwrap()
    })
}

#[divan::bench]
fn replay(bencher: Bencher) {
    let record = game();
    let params = BreakthroughParams::default();
    bencher.bench_local(|| {
        let p = plies::<Breakthrough>(&params, record).unwrap();
        let json = api::game_json(record, None, "breakthrough", p, false);
        serde_json::to_string(&json).unwrap()
    });
}

#[divan::bench]
fn replay_as_text(bencher: Bencher) {
    use ladder::show::Show;
    let record = game();
    let params = BreakthroughParams::default();
    bencher.bench_local(|| {
        let start = Breakthrough::new(&params).unwrap();
        let mut text = start.picture();
        ladder::journal::verify::play_back(&start, record, |_, _, g| {
            text.push_str(&g.picture());
        })
        .unwrap();
        text
    });
}
