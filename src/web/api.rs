//! The JSON of the arena's web API (docs/ARENA.md lists every endpoint):
//! the arena, its leaderboard (also over a filter of its games), its bots,
//! one bot's history, its games with filters, one game with every
//! position, the candidates' tests and the event log. Each is read from
//! the store when asked, so it is current whoever changed the arena; the
//! league and the leaderboard's tallies are kept between requests
//! ([`Board`]) and brought up to date with only what came since.

use std::{
    path::Path,
    sync::{Arc, Mutex, MutexGuard},
};

use axum::http::StatusCode;
use serde_json::{json, Value};

use super::{
    filter::{
        bad, each_kept, each_number_kept, pages, termination_kind, versions, Filter, Newest,
        NUMBERS, PAGE,
    },
    history::{self, History},
    Failure, GameOf,
};
use crate::{
    arena::{
        candidates, config,
        league::{League, Version},
        show,
        store::{GameRow, Store, Wanted},
    },
    core::{
        game::GameResult,
        record::{Record, Scored},
        referee::Termination,
    },
    stats::standings::Tally,
};

type Answer = Result<Value, Failure>;

/// A finished game as its one-line summary; `names` are the bots its
/// seats index.
fn summary(names: &[String], g: &GameRow, s: &Scored) -> Value {
    let seats = s.seats.as_ref().map(|&i| names[i].as_str());
    json!({
        "number": g.number,
        "batch": g.batch,
        "first": seats.first,
        "second": seats.second,
        "result": s.result,
        "goals": [s.goals.first, s.goals.second],
        "termination": termination_kind(&s.termination),
        "ending": s.termination.describe(&seats),
        "plies": s.plies,
        "finished": g.finished,
    })
}

fn info(store: &Store, league: &League, dir: &Path) -> Result<Value, Failure> {
    let (events, games) = store.progress()?;
    let (game, title) = (store.meta("game")?, store.title()?);
    Ok(json!({
        "name": dir.file_name().map(|n| n.to_string_lossy().into_owned()),
        "game": game,
        "title": title,
        "head": show::head(league, games as usize, dir, &title),
        "playing": league.versions.iter().filter(|v| !v.retired).count(),
        "games": games,
        "batches": league.next_batch,
        "in_progress": league.open.as_ref().map(|b| json!({
            "batch": b.number,
            "first": b.first,
            "games": b.games,
        })),
        "progress": { "events": events, "games": games },
    }))
}

/// `GET /api/arena`, from the league `board` keeps.
pub fn arena(dir: &Path, board: &Mutex<Board>) -> Answer {
    from_board(board, dir, |store, followed| {
        info(store, &followed.league, dir)
    })
}

/// What the server keeps between requests: the league and the tallies of
/// its games, brought up to date with what the arena did since, and
/// answers it made (the leaderboard, bots' pages), each with the arena's
/// progress it was made at: every open page asks again when a batch ends,
/// and all of them get the one answer.
///
/// It is locked only while the league catches up and an answer is looked
/// up or kept: a request makes its answer outside the lock, from the
/// league it caught up (shared, not copied, unless the next catch-up comes
/// while a slow answer still reads it), so a bot's page that reads the
/// arena's whole history holds no other request back.
#[derive(Default)]
pub struct Board {
    followed: Arc<show::Followed>,
    /// The bots' rating charts, as far as the last bot's page read.
    history: History,
    /// By what was asked (`leaderboard`, `bot NAME`); at most
    /// [`KEPT_ANSWERS`].
    answers: std::collections::HashMap<String, ((u64, u64), Value)>,
}

/// A board of its own: the copy's league is not the original's.
impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            followed: Arc::new(show::Followed::clone(&self.followed)),
            history: self.history.clone(),
            answers: self.answers.clone(),
        }
    }
}

/// The board behind `board`'s lock (a lock a panicking request poisoned
/// is taken as it is, as the server always has).
pub fn lock(board: &Mutex<Board>) -> MutexGuard<'_, Board> {
    board.lock().unwrap_or_else(|e| e.into_inner())
}

/// The most answers a [`Board`] keeps; beyond, it starts afresh.
const KEPT_ANSWERS: usize = 64;

/// `answer` from the league and tallies `board` keeps, brought up to date
/// with the events and games that came since the last request. The
/// store's snapshot begins under the lock (so the league is never ahead
/// of the snapshot the answer reads: the catch-up reads it first), and
/// the answer is made in that snapshot after the lock is let go.
fn from_board<T>(
    board: &Mutex<Board>,
    dir: &Path,
    answer: impl FnOnce(&Store, &show::Followed) -> Result<T, Failure>,
) -> Result<T, Failure> {
    let store = Store::open(dir)?;
    let mut b = lock(board);
    let answered = store.snapshot(move |store| {
        if let Err(e) = Arc::make_mut(&mut b.followed).catch_up(store) {
            // a half-made board is made again from the start next time
            *b = Board::default();
            return Err(e);
        }
        let followed = Arc::clone(&b.followed);
        drop(b);
        Ok(answer(store, &followed))
    });
    answered?
}

/// [`from_board`] for an answer kept as `asked`: made by `make` only when the
/// arena moved since it was last made.
fn answered(
    board: &Mutex<Board>,
    dir: &Path,
    asked: &str,
    make: impl FnOnce(&Store, &show::Followed) -> Answer,
) -> Answer {
    from_board(board, dir, |store, followed| {
        let progress = store.progress()?;
        if let Some((at, answer)) = lock(board).answers.get(asked) {
            if *at == progress {
                return Ok(answer.clone());
            }
        }
        let answer = make(store, followed)?;
        let mut b = lock(board);
        // an answer another request made meanwhile at a later progress
        // stays
        if b.answers.get(asked).is_none_or(|(at, _)| *at < progress) {
            if b.answers.len() >= KEPT_ANSWERS {
                b.answers.clear();
            }
            b.answers
                .insert(asked.to_string(), (progress, answer.clone()));
        }
        Ok(answer)
    })
}

/// `GET /api/leaderboard` without a filter, from `board`: only the events
/// and games since it was last asked are read, and an arena that did
/// nothing since gets the same answer again.
pub fn leaderboard_kept(dir: &Path, board: &Mutex<Board>) -> Answer {
    answered(board, dir, "leaderboard", |store, followed| {
        let (league, tallies) = (&followed.league, &followed.tallies);
        let sprt = config::Settings::stored(store)?.sprt;
        let rows = show::rows_of(league, tallies, &sprt);
        Ok(json!({ "arena": info(store, league, dir)?, "filtered": false, "rows": rows }))
    })
}

/// `GET /api/leaderboard` with a filter: every version's row, strongest
/// first, over the games the filter keeps (without one, the server's kept
/// board answers: [`leaderboard_kept`]).
pub fn leaderboard(dir: &Path, query: &[(String, String)], board: &Mutex<Board>) -> Answer {
    let f = Filter::parse(query)?;
    from_board(board, dir, |store, followed| {
        let league = &followed.league;
        let sprt = config::Settings::stored(store)?.sprt;
        // read before the scan, which reads each page in a snapshot of its own
        let arena = info(store, league, dir)?;
        // the games kept folded a page at a time, as the kept board's are
        let mut tallies = show::Tallies::new();
        each_kept(store, league, &f, PAGE, |page| {
            let games: Vec<GameRow> = page.into_iter().map(|(g, _)| g.clone()).collect();
            Ok(tallies.add(league, &games)?)
        })?;
        let rows = show::rows_of(league, &tallies, &sprt);
        Ok(json!({ "arena": arena, "filtered": f.narrows(), "rows": rows }))
    })
}

/// The summaries of the games `newest` holds, newest first.
fn newest_first(names: &[String], newest: &Newest<(GameRow, Scored)>) -> Vec<Value> {
    let rows = newest.items.iter().rev();
    rows.map(|(g, s)| summary(names, g, s)).collect()
}

fn version_json(v: &Version) -> Value {
    let spec: toml::Table = v.spec.parse().unwrap_or_default();
    let state = match (v.retired, v.rejected, v.candidate) {
        (true, true, _) => "rejected",
        (true, false, _) => "retired",
        (false, _, true) => "candidate",
        _ => "playing",
    };
    json!({
        "bot": v.bot,
        "name": v.name,
        "version": v.version,
        "state": state,
        "against": v.against,
        "spec": spec,
    })
}

/// `GET /api/bots`: every version, in joining order.
pub fn bots(dir: &Path, board: &Mutex<Board>) -> Answer {
    from_board(board, dir, |_, followed| {
        let versions = &followed.league.versions;
        Ok(json!({ "bots": versions.iter().map(version_json).collect::<Vec<_>>() }))
    })
}

/// `GET /api/bots/BOT`: one version (or a name's newest), its versions,
/// rating over time, results per opponent, recent games and forfeits.
pub fn bot(dir: &Path, who: &str, board: &Mutex<Board>) -> Answer {
    answered(board, dir, &format!("bot {who}"), |store, followed| {
        // the charts as far as the last page read them, brought up to
        // this snapshot outside the lock, and kept if further along
        let mut history = lock(board).history.clone();
        history.catch_up(store, &followed.league, history::PAGE)?;
        let page = bot_page(store, followed, who, &history);
        let mut b = lock(board);
        if b.history.next() < history.next() {
            b.history = history;
        }
        page
    })
}

/// The games a bot's page lists as its recent ones.
const RECENT: usize = 20;

/// One bot's page ([`bot`]) from the kept league and tallies.
fn bot_page(store: &Store, followed: &show::Followed, who: &str, history: &History) -> Answer {
    let league = &followed.league;
    let all = versions(league, who)?;
    let v = *all.last().expect("one at least");
    let b = league
        .versions
        .iter()
        .position(|w| w.bot == v.bot)
        .expect("found");
    // the standings and the table's row are the kept board's
    let standings = &followed.tallies.all;
    let sprt = config::Settings::stored(store)?.sprt;
    let row = show::rows_of(league, &followed.tallies, &sprt)
        .into_iter()
        .find(|r| r.bot == v.bot);
    let history = history.chart(b, league.next_batch);
    let opponents: Vec<Value> = (0..league.versions.len())
        .filter(|&o| o != b && standings.vs[b][o].games > 0)
        .map(|o| tally_json(&league.versions[o].bot, &standings.vs[b][o]))
        .collect();
    // its games, listed under it in the store, read a page at a time:
    // the newest held, and its forfeits
    let lines = store.forfeit_lines(&v.bot)?;
    let mut recent = Newest::new(RECENT);
    let mut forfeits = Vec::new();
    let mine = Filter {
        bot: Some(v.bot.clone()),
        ..Filter::default()
    };
    each_kept(store, league, &mine, PAGE, |page| {
        for (g, s) in page {
            if let Termination::Forfeit {
                seat,
                reason,
                detail,
                ..
            } = &s.termination
            {
                if s.seats[*seat] == b {
                    let said = lines.iter().find(|(n, _)| *n == g.number).map(|l| &l.1);
                    forfeits.push(json!({
                        "number": g.number, "reason": reason.to_string(), "detail": detail,
                        "lines": said,
                    }));
                }
            }
            recent.push((g.clone(), s));
        }
        Ok(())
    })?;
    let recent = newest_first(&league.names(), &recent);
    Ok(json!({
        "bot": version_json(v),
        "versions": league.versions.iter().filter(|w| w.name == v.name)
            .map(version_json).collect::<Vec<_>>(),
        "row": row,
        "total": tally_json(&v.bot, &standings.totals[b]),
        "history": history,
        "opponents": opponents,
        "recent": recent,
        "forfeits": forfeits,
    }))
}

/// A tally as the 2016 report's Table 4.1 has it: games, wins, losses,
/// draws, win %, points and the goal difference.
fn tally_json(bot: &str, t: &Tally) -> Value {
    json!({
        "bot": bot, "games": t.games, "won": t.won, "lost": t.lost, "drawn": t.tie,
        "win_percent": t.win_percent(), "points": t.points(), "goal_sum": t.goal_sum,
    })
}

/// `GET /api/games`: the games a filter keeps, newest first, a page of
/// them; with a filter, from the league `board` keeps (the page without
/// one, which every open page asks for when a batch ends, does not touch
/// the board).
pub fn games(dir: &Path, query: &[(String, String)], board: &Mutex<Board>) -> Answer {
    let f = Filter::parse(query)?;
    let limit = f.limit.unwrap_or(100).min(1000);
    let offset = f.offset.unwrap_or(0);
    if !f.narrows() {
        // every game: the page alone is read, not the arena's history (nor
        // its log: each game names its own seats)
        let store = Store::open(dir)?;
        let (total, rows) =
            store.snapshot(|store| store.newest_games(offset as u64, limit as u64))?;
        let page = rows
            .iter()
            .map(|g| {
                #[derive(serde::Deserialize)]
                struct Seats {
                    seats: [String; 2],
                }
                let names = serde_json::from_str::<Seats>(&g.record)
                    .map_err(|e| {
                        Failure::damaged(format!("the arena's record of game {}: {e}", g.number))
                    })?
                    .seats;
                Ok(summary(
                    &names,
                    g,
                    &g.scored(&names).map_err(Failure::damaged)?,
                ))
            })
            .collect::<Result<Vec<Value>, Failure>>()?;
        return Ok(json!({ "total": total, "offset": offset, "games": page }));
    }
    from_board(board, dir, |store, followed| {
        let league = &followed.league;
        // a page of the games kept at a time; the numbers of the newest the
        // answer may show are held, not their records: an offset deep in a
        // long history held every record (700 MB for a million games)
        let mut newest = Newest::new(offset.saturating_add(limit));
        if f.listed() {
            // the arena's lists say which games it keeps: only the page's
            // records are read
            each_number_kept(store, league, &f, NUMBERS, |numbers| {
                numbers.iter().for_each(|&n| newest.push(n));
                Ok(())
            })?;
        } else {
            each_kept(store, league, &f, PAGE, |page| {
                for (g, _) in page {
                    newest.push(g.number);
                }
                Ok(())
            })?;
        }
        let names = league.names();
        let page = newest
            .items
            .iter()
            .rev()
            .skip(offset)
            .take(limit)
            .map(|&n| {
                let g = store
                    .game(n)?
                    .ok_or_else(|| Failure::damaged(format!("game {n} is missing")))?;
                Ok(summary(
                    &names,
                    &g,
                    &g.scored(&names).map_err(Failure::damaged)?,
                ))
            })
            .collect::<Result<Vec<Value>, Failure>>()?;
        Ok(json!({ "total": newest.pushed, "offset": offset, "games": page }))
    })
}

/// `GET /api/games/N`: one game with every position.
pub fn game(dir: &Path, game: &dyn GameOf, number: &str) -> Answer {
    let n: u64 = number
        .parse()
        .map_err(|_| bad(format!("`{number}` is not a game number")))?;
    let store = Store::open(dir)?;
    let row = store.game(n)?.ok_or_else(|| {
        Failure(
            StatusCode::NOT_FOUND,
            format!("no finished game {n} in the arena"),
        )
    })?;
    let record: Record = serde_json::from_str(&row.record)
        .map_err(|e| Failure::damaged(format!("game {n}: {e}")))?;
    let plies = game.plies(&record)?;
    let game_name = store.title()?;
    Ok(game_json(
        &record,
        Some(row.batch),
        &game_name,
        plies,
        game.simultaneous(),
    ))
}

/// A game with every position, as the replay viewer reads it (the API's
/// `/api/games/N`, and a season's replay pages).
pub fn game_json(
    record: &Record,
    batch: Option<u64>,
    game: &str,
    plies: Vec<crate::journal::replay::Ply>,
    simultaneous: bool,
) -> Value {
    let names = record.seats.as_ref().map(String::as_str);
    json!({
        "number": record.index,
        "batch": batch,
        "game": game,
        "first": record.seats.first,
        "second": record.seats.second,
        "seed": record.seed,
        "seed_text": record.seed.to_string(),
        "opening": record.opening,
        "result": record.result,
        "goals": [record.goals.first, record.goals.second],
        "termination": termination_kind(&record.termination),
        "ending": record.termination.describe(&names),
        "simultaneous": simultaneous,
        "plies": plies,
    })
}

/// `GET /api/candidates`: every version that joined as a candidate, with
/// its test now and its LLR after each of its games; from the league
/// `board` keeps, and only the games that name a candidate are read.
pub fn candidates(dir: &Path, board: &Mutex<Board>) -> Answer {
    from_board(board, dir, |store, followed| {
        let league = &followed.league;
        let joined: Vec<String> = league
            .versions
            .iter()
            .filter(|v| v.tested)
            .map(|v| v.bot.clone())
            .collect();
        let sprt = config::Settings::stored(store)?.sprt;
        let names = league.names();
        // per version that joined as a candidate: its tally, and the LLR
        // after each of its games, in one pass over those games
        let mut tested: Vec<Option<(Tally, Vec<Value>)>> = league
            .versions
            .iter()
            .map(|v| v.tested.then(Default::default))
            .collect();
        let wanted = Wanted {
            bots: Some(&joined),
            ..Wanted::default()
        };
        pages(
            store,
            league.next_game,
            &wanted,
            (0, u64::MAX),
            PAGE,
            |rows| {
                for g in rows {
                    let s = g.scored(&names).map_err(Failure::damaged)?;
                    for seat in crate::core::seat::Seat::ALL {
                        let Some((t, llr)) = tested[s.seats[seat]].as_mut() else {
                            continue;
                        };
                        t.games += 1;
                        match s.result {
                            GameResult::Draw => t.tie += 1,
                            r if r == GameResult::win(seat) => t.won += 1,
                            _ => t.lost += 1,
                        }
                        llr.push(json!({ "number": g.number, "games": t.games,
                                     "llr": candidates::test(&sprt, t).llr }));
                    }
                }
                Ok(())
            },
        )?;
        let mut out = Vec::new();
        for (v, tested) in league.versions.iter().zip(tested) {
            let Some((t, llr)) = tested else { continue };
            let state = match (v.candidate, v.retired, v.rejected) {
                (true, false, _) => "under test",
                (_, true, true) => "rejected",
                _ => "promoted",
            };
            out.push(json!({
                "bot": v.bot, "against": v.against, "state": state,
                "test": candidates::test(&sprt, &t), "llr": llr,
                "tally": tally_json(&v.bot, &t),
            }));
        }
        Ok(json!({ "sprt": sprt, "candidates": out }))
    })
}

/// `GET /api/seasons?limit=N`: the arena's seasons (`every`: games a
/// season, or null for an arena without; `closed`: how many) and the
/// newest `limit` closed ones' tables (20, at most 1000; empty, as a
/// form's empty field sends it, is 20), oldest first.
pub fn seasons(dir: &Path, limit: Option<&str>) -> Answer {
    let limit = match limit.filter(|l| !l.is_empty()) {
        None => 20,
        Some(l) => l
            .parse()
            .map_err(|_| bad(format!("limit `{l}` is not a number")))?,
    };
    if !(1..=1000).contains(&limit) {
        return Err(bad(format!("limit {limit}: from 1 to 1000")));
    }
    let store = Store::open(dir)?;
    let every = config::Settings::stored(&store)?.season_games;
    let (seasons, closed) = crate::arena::seasons::newest(&store, limit)?;
    Ok(json!({ "every": every, "closed": closed, "seasons": seasons }))
}

/// `GET /api/seasons/K`: closed season K's table.
pub fn season(dir: &Path, number: &str) -> Answer {
    let k: u64 = number
        .parse()
        .map_err(|_| bad(format!("`{number}` is not a season number")))?;
    let store = Store::open(dir)?;
    match crate::arena::seasons::get(&store, k)? {
        Some(s) => Ok(json!(s)),
        None => Err(Failure(
            StatusCode::NOT_FOUND,
            format!("no closed season {k} in the arena"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{arena::store::Event, stats::ratings};

    /// An arena of three bots and `batches` batches of 5 games each, the
    /// results varied.
    fn arena_of(dir: &Path, batches: u64) -> Store {
        let mut store = Store::create(dir, &[("game", "coordination".into())]).unwrap();
        for bot in ["a", "b", "c"] {
            store
                .append(&crate::arena::league::tests::added(bot))
                .unwrap();
        }
        for number in 0..batches {
            add_batch(&mut store, number);
        }
        store
    }

    /// Batch `number` of [`arena_of`]'s arena: 5 games, results varied.
    fn add_batch(store: &mut Store, number: u64) {
        let bots = ["a@1", "b@1", "c@1"];
        let first = number * 5;
        let pairs: Vec<[usize; 2]> = (first..first + 5)
            .map(|n| [(n % 3) as usize, ((n + 1 + n / 3 % 2) % 3) as usize])
            .map(|[x, y]| if x == y { [x, (y + 1) % 3] } else { [x, y] })
            .collect();
        store
            .append(&Event::Batch {
                number,
                first,
                games: pairs
                    .iter()
                    .map(|p| p.map(|i| bots[i].to_string()))
                    .collect(),
            })
            .unwrap();
        let games: Vec<(u64, String)> = (first..first + 5)
            .zip(&pairs)
            .map(|(n, p)| {
                let (result, goals) = match (n * 7 + number) % 5 {
                    0 | 1 => ("first", [5, 0]),
                    2 | 3 => ("second", [0, 5]),
                    _ => ("draw", [2, 2]),
                };
                let termination = match (result, n % 4) {
                    ("first", 0) => {
                        r#"{"kind":"forfeit","seat":"second","reason":"crash","detail":"x"}"#
                    }
                    ("draw", 1) => r#"{"kind":"ply-limit"}"#,
                    _ => r#"{"kind":"normal"}"#,
                };
                let plies = 1 + n % 3;
                let moves = vec![r#"["left","right"]"#; plies as usize].join(",");
                let line = format!(
                    "{{\"index\":{n},\"pair\":0,\"seats\":[\"{}\",\"{}\"],\"seed\":1,\
                     \"result\":\"{result}\",\"goals\":[{},{}],\"termination\":{termination},\
                     \"plies\":{plies},\"moves\":[{moves}]}}",
                    bots[p[0]], bots[p[1]], goals[0], goals[1]
                );
                (n, line)
            })
            .collect();
        store.finish_batch(number, &games, &[], &[]).unwrap();
    }

    /// A scan reads each page in a snapshot of its own, so the arena's log
    /// is checkpointed while it runs (a scan in one snapshot kept every
    /// frame written meanwhile in the log: clients that kept asking for
    /// filtered games grew it by gigabytes), and reads only the games the
    /// league knew when it began.
    #[test]
    fn a_long_scan_lets_the_log_be_checkpointed_between_pages() {
        let dir = tempfile::tempdir().unwrap();
        drop(arena_of(dir.path(), 4));
        let reader = Store::open(dir.path()).unwrap();
        let mut writer = Store::open(dir.path()).unwrap();
        let sql = rusqlite::Connection::open(dir.path().join(crate::arena::store::FILE)).unwrap();
        // (frames in the log, frames copied into the database)
        let checkpoint = || -> (i64, i64) {
            sql.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
                Ok((r.get(1)?, r.get(2)?))
            })
            .unwrap()
        };
        let (mut read, mut logs) = (Vec::new(), Vec::new());
        reader
            .snapshot(|store| {
                let league = League::from_events(&store.events()?).unwrap();
                each_kept(store, &league, &Filter::default(), 5, |page| {
                    read.extend(page.iter().map(|(g, _)| g.number));
                    // the arena plays on: a batch more in the log
                    add_batch(&mut writer, 4 + logs.len() as u64);
                    logs.push(checkpoint());
                    Ok(())
                })
                .map_err(|e| crate::Error::Usage(e.1))
            })
            .unwrap();
        assert_eq!(
            read,
            (0..20).collect::<Vec<u64>>(),
            "the games known at the start"
        );
        assert_eq!(logs.len(), 4);
        for k in 1..logs.len() {
            // what the log held at the page before is in the database now
            assert!(logs[k].1 >= logs[k - 1].0, "page {k}: {logs:?}");
        }
    }

    /// Scans from many requests at once read one page at a time between
    /// them (eight clients asking for filtered pages cut an arena's games
    /// to a fifth of their rate), and each still reads every game.
    #[test]
    fn scans_read_one_page_at_a_time() {
        use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
        let dir = tempfile::tempdir().unwrap();
        drop(arena_of(dir.path(), 4));
        let (reading, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    let store = Store::open(dir.path()).unwrap();
                    let mut read = Vec::new();
                    pages(&store, 20, &Wanted::default(), (0, u64::MAX), 5, |rows| {
                        most.fetch_max(reading.fetch_add(1, SeqCst) + 1, SeqCst);
                        // a page that takes a while to read
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        read.extend(rows.iter().map(|g| g.number));
                        reading.fetch_sub(1, SeqCst);
                        Ok(())
                    })
                    .unwrap();
                    assert_eq!(read, (0..20).collect::<Vec<u64>>());
                });
            }
        });
        assert_eq!(most.into_inner(), 1);
    }

    /// The games a filter keeps, read a page at a time, are those it
    /// keeps of every game read at once, whatever the page size: ranges
    /// of numbers and times at their ends, the wrong way round, and the
    /// records that name a bot.
    #[test]
    fn the_games_kept_read_in_pages_are_those_kept_of_all() {
        let dir = tempfile::tempdir().unwrap();
        let store = arena_of(dir.path(), 7);
        let league = League::from_events(&store.events().unwrap()).unwrap();
        let all = store.games().unwrap();
        let max = u64::MAX.to_string();
        let filters: Vec<Vec<(&str, &str)>> = vec![
            vec![],
            vec![("from", "3"), ("to", "17")],
            vec![("from", "0"), ("to", "0")],
            vec![("from", "34")],
            vec![("from", "35")],
            vec![("from", &max)],
            vec![("to", &max)],
            vec![("from", "9"), ("to", "8")],
            vec![("bot", "b@1")],
            vec![("bot", "a"), ("opponent", "c@1"), ("result", "win")],
            vec![("opponent", "c"), ("from", "4"), ("to", "30")],
            vec![("result", "draw")],
            vec![("since", "2000-01-01")],
            vec![("until", "2000-01-01")],
            vec![("since", "2000-01-01"), ("until", &max), ("bot", "c")],
            vec![("since", &max)],
            vec![("result", "first")],
            vec![("result", "loss"), ("bot", "c@1")],
            vec![("termination", "forfeit")],
            vec![("termination", "ply-limit"), ("from", "5")],
            vec![("termination", "adjudicated")],
            vec![("min_plies", "2")],
            vec![("max_plies", "1"), ("result", "second")],
            vec![("min_plies", "2"), ("max_plies", "2"), ("bot", "a")],
            vec![("min_plies", "3"), ("max_plies", "2")],
            vec![
                ("termination", "normal"),
                ("result", "draw"),
                ("opponent", "b"),
            ],
        ];
        for query in filters {
            let query: Vec<(String, String)> = query
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let f = Filter::parse(&query).unwrap();
            let expected: Vec<u64> = crate::web::filter::kept(&league, &all, &f)
                .unwrap()
                .iter()
                .map(|(g, _)| g.number)
                .collect();
            for page in [1, 2, 5, 7, 4096] {
                let mut got = Vec::new();
                each_kept(&store, &league, &f, page, |kept| {
                    got.extend(kept.iter().map(|(g, _)| g.number));
                    Ok(())
                })
                .unwrap();
                assert_eq!(got, expected, "{query:?}, pages of {page}");
                if f.listed() {
                    let mut numbers = Vec::new();
                    each_number_kept(&store, &league, &f, page, |kept| {
                        numbers.extend_from_slice(kept);
                        Ok(())
                    })
                    .unwrap();
                    assert_eq!(numbers, expected, "{query:?}, numbers in pages of {page}");
                }
            }
        }
        let mut newest = Newest::new(3);
        (0..10).for_each(|n| newest.push(n));
        assert_eq!(
            (Vec::from(newest.items), newest.pushed),
            (vec![7, 8, 9], 10)
        );
        let mut none = Newest::new(0);
        none.push(1);
        assert_eq!((none.items.len(), none.pushed), (0, 1));
    }

    /// A request making its answer holds no other back: the board is
    /// locked only while the league catches up, and the slow answer reads
    /// its own snapshot and the league caught up to it, while the arena
    /// moves on and another request catches up and answers.
    #[test]
    fn an_answer_is_made_outside_the_boards_lock() {
        use std::sync::mpsc::channel;
        let dir = tempfile::tempdir().unwrap();
        let mut store = arena_of(dir.path(), 3);
        let board = Mutex::new(Board::default());
        std::thread::scope(|scope| {
            // made here, so that a failure below lets the slow one go
            let (started, has_started) = channel();
            let (release, released) = channel::<()>();
            let (board, at) = (&board, dir.path());
            let slow = scope.spawn(move || {
                from_board(board, at, |store, followed| {
                    started.send(()).unwrap();
                    released.recv().unwrap();
                    // its own snapshot's games, whatever came since
                    assert_eq!(store.progress()?.1, 15);
                    Ok(json!(followed.tallies.all.games()))
                })
            });
            has_started.recv().unwrap();
            add_batch(&mut store, 3);
            let (done, answered_too) = channel();
            scope.spawn(move || done.send(arena(at, board)).unwrap());
            // a deadlock detector, not a speed limit: the other answer
            // comes while the slow one still waits
            let other = answered_too
                .recv_timeout(std::time::Duration::from_secs(120))
                .expect("the other request waited for the slow one")
                .unwrap();
            assert_eq!(other["games"], 20);
            release.send(()).unwrap();
            assert_eq!(slow.join().unwrap().unwrap(), json!(15));
        });
        // an answer kept is made again only once the arena moves on
        let made = |n| move |_: &Store, _: &show::Followed| Ok(json!(n));
        assert_eq!(
            answered(&board, dir.path(), "page", made(1)).unwrap(),
            json!(1)
        );
        assert_eq!(
            answered(&board, dir.path(), "page", made(2)).unwrap(),
            json!(1)
        );
        add_batch(&mut store, 4);
        assert_eq!(
            answered(&board, dir.path(), "page", made(3)).unwrap(),
            json!(3)
        );
    }

    /// The rating chart kept as the arena grows (caught up after some of
    /// its batches, in pages of any size) and one read at once are each
    /// point's fit from scratch: the standings of every game before it,
    /// as the points thin out from every batch to every 8th.
    #[test]
    fn a_rating_chart_kept_as_the_arena_grows_is_each_points_fit_from_scratch() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = arena_of(dir.path(), 0);
        let pages = [1, 3, 7, 4096];
        let mut kept = vec![History::default(); pages.len()];
        for batches in 0..=170 {
            if batches > 0 {
                add_batch(&mut store, batches - 1);
            }
            let looked = [0, 1, 39, 40, 41, 79, 80, 81, 97, 160, 161, 170];
            if !looked.contains(&batches) && batches % 13 != 0 {
                continue;
            }
            let league = League::from_events(&store.events().unwrap()).unwrap();
            let games = store.games().unwrap();
            let step = history::step(batches);
            let mut fresh = History::default();
            fresh.catch_up(&store, &league, 4096).unwrap();
            for (h, page) in kept.iter_mut().zip(pages) {
                h.catch_up(&store, &league, page).unwrap();
            }
            for b in 0..3 {
                let mut expected = Vec::new();
                for k in 1..=batches.div_ceil(step) {
                    let end = (k * step).min(batches);
                    let names = league.names();
                    let mut s = crate::stats::standings::Standings::empty(&names);
                    for g in games.iter().filter(|g| g.batch < end) {
                        s.add(&g.scored(&names).unwrap());
                    }
                    if s.totals[b].games > 0 {
                        let r = ratings::fit(&s.vs, None).ratings[b];
                        expected.push(json!({
                            "batch": end, "games": s.totals[b].games,
                            "rating": r.elo, "low": r.low, "high": r.high,
                        }));
                    }
                }
                assert_eq!(expected.len() as u64, batches.div_ceil(step));
                assert!(expected.len() as u64 <= history::POINTS);
                assert_eq!(
                    fresh.chart(b, batches),
                    expected,
                    "{batches} batches, bot {b}"
                );
                for (h, page) in kept.iter().zip(pages) {
                    let got = h.chart(b, batches);
                    assert_eq!(got, expected, "{batches} batches, bot {b}, pages of {page}");
                }
            }
        }
        let steps: Vec<u64> = [0, 1, 40, 41, 80, 81, 160, 161].map(history::step).to_vec();
        assert_eq!(steps, [1, 1, 1, 2, 2, 4, 4, 8]);
    }
}
