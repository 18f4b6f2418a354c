//! An arena's seasons (`[arena] season_games = N`): every N games a season
//! closes, and its table and the ratings as they stood are kept, as a
//! ladder keeps its seasons (docs/LADDER.md), while the arena plays on.
//!
//! Season K (from 1) holds the games numbered (K-1)N to KN-1. Its table
//! has a row for each version that played in it: its rating in the joint
//! fit of the season's games (by which the rows are ranked, as the
//! leaderboard ranks), the season's games, wins, losses, draws, points and
//! forfeits, and the version's rating in the joint fit of every game up to
//! the season's last (the leaderboard as it stood then). A season closes with the
//! batch that records its last game, in the same transaction, so a kill
//! loses none and closes none twice; it is a function of the games alone,
//! so an arena's seasons follow from its seed and event log, as its games
//! do, and a replay closes the same ones.

use serde::{Deserialize, Serialize};

use crate::{
    arena::{
        matchmaking::ranked,
        store::{Store, PAGE},
    },
    core::{
        error::{Error, Result},
        record::Scored,
        text::count,
    },
    report::{rows_table, Look},
    stats::{ratings, standings::Standings},
};

/// A closed season.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Season {
    /// From 1.
    pub number: u64,
    /// Its first and last games' numbers.
    pub first: u64,
    pub last: u64,
    /// Strongest first.
    pub rows: Vec<Row>,
}

/// One version's line of a season's table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub rank: usize,
    /// `name@version`.
    pub bot: String,
    /// The joint fit of the season's games alone, as `rating` below.
    pub season_rating: Option<f64>,
    pub season_low: Option<f64>,
    pub season_high: Option<f64>,
    pub season_rating_text: String,
    /// The joint fit of every game up to the season's last: the rating
    /// and its 95% interval, `None` where unknown (a bound's other side);
    /// `rating_text` as the tables print it.
    pub rating: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub rating_text: String,
    /// The season's games alone.
    pub games: u64,
    pub won: u64,
    pub lost: u64,
    pub drawn: u64,
    pub points: f64,
    pub forfeits: u64,
}

/// Follows an arena's games to close its seasons: the standings of the
/// season game `next` is in, of its games before `next`. The standings of
/// every game are the arena table's ([`super::show::Tallies::all`]), which
/// the player keeps already.
#[derive(Clone)]
pub struct Closer {
    every: u64,
    season: Standings,
    next: u64,
}

impl Closer {
    /// Seasons of `every` games, no game folded yet.
    pub fn new(every: u64) -> Closer {
        Closer {
            every,
            season: Standings::empty(&[]),
            next: 0,
        }
    }

    /// The seasons a batch's games close: `batch` (numbered from `first`,
    /// in order: number and journal line), after `before`, the standings
    /// of every game before `first`. The season's games before `first` are
    /// read from `store` when the closer has not followed them (a run's
    /// first batch). `names` are the league's versions.
    pub fn close(
        &mut self,
        store: &Store,
        names: &[String],
        before: &Standings,
        first: u64,
        batch: &[(u64, String)],
    ) -> Result<Vec<Season>> {
        let every = self.every;
        if self.next != first {
            self.next = first - first % every;
            self.season = Standings::empty(names);
        }
        while self.next < first {
            let games = store.games_from(self.next, PAGE.min(first - self.next))?;
            let missing = |n: u64| store.damaged(format!("game {n} is missing"));
            if games.is_empty() {
                return Err(missing(self.next));
            }
            for g in &games {
                if g.number != self.next {
                    return Err(missing(self.next));
                }
                self.fold(names, &g.scored(names).map_err(Error::Mismatch)?);
            }
        }
        // every game up to a season's last, only for a batch that closes one
        let closes = (first + batch.len() as u64) / every > first / every;
        let mut total = closes.then(|| before.clone());
        let mut closed = Vec::new();
        for (number, line) in batch {
            let damaged = |e: String| format!("game {number} of the batch: {e}");
            let scored = Scored::from_line(line, names)
                .map_err(|e| Error::Mismatch(damaged(e.to_string())))?
                .ok_or_else(|| Error::Mismatch(damaged("names a stranger".into())))?;
            if let Some(total) = &mut total {
                for name in &names[total.bots.len()..] {
                    total.grow(name);
                }
                total.add(&scored);
            }
            self.fold(names, &scored);
            if self.next.is_multiple_of(every) {
                let total = total.as_ref().expect("a batch that closes a season");
                closed.push(snapshot(total, &self.season, self.next, every));
                self.season = Standings::empty(names);
            }
        }
        Ok(closed)
    }

    /// Counts game `next` in its season.
    fn fold(&mut self, names: &[String], scored: &Scored) {
        for name in &names[self.season.bots.len()..] {
            self.season.grow(name);
        }
        self.season.add(scored);
        self.next += 1;
    }
}

/// The season of `every` games that ends before game `next`, from the
/// standings of every game up to it (`total`) and of its own (`season`).
fn snapshot(total: &Standings, season: &Standings, next: u64, every: u64) -> Season {
    let (all, all_fit, _) = fit_of(total);
    let (played, fit, shares) = fit_of(season);
    let mut rows = Vec::new();
    for i in ranked(&fit.ratings, &shares) {
        let b = played[i];
        let t = season.totals[b];
        let s = &fit.ratings[i];
        let r = &all_fit.ratings[all.iter().position(|&a| a == b).expect("rated")];
        rows.push(Row {
            rank: rows.len() + 1,
            bot: total.bots[b].clone(),
            season_rating: s.elo,
            season_low: s.low,
            season_high: s.high,
            season_rating_text: s.text(),
            rating: r.elo,
            low: r.low,
            high: r.high,
            rating_text: r.text(),
            games: t.games,
            won: t.won,
            lost: t.lost,
            drawn: t.tie,
            points: t.points(),
            forfeits: season.forfeits[b].values().sum(),
        });
    }
    Season {
        number: next / every,
        first: next - every,
        last: next - 1,
        rows,
    }
}

/// The joint fit of `standings`' versions with games (one that joined
/// later, with none yet, changes nothing): their indices, the fit, and
/// their shares of points.
fn fit_of(standings: &Standings) -> (Vec<usize>, ratings::Fit, Vec<f64>) {
    let played: Vec<usize> = (0..standings.bots.len())
        .filter(|&b| standings.totals[b].games > 0)
        .collect();
    let vs: Vec<Vec<_>> = played
        .iter()
        .map(|&a| played.iter().map(|&b| standings.vs[a][b]).collect())
        .collect();
    let shares = played
        .iter()
        .map(|&b| standings.totals[b].points() / standings.totals[b].games as f64)
        .collect();
    (played, ratings::fit(&vs, None), shares)
}

/// Closed season `k` of the arena in `dir` (whose store `store` is), and
/// how many are closed; or an error that says why there is none.
pub fn find(store: &Store, dir: &std::path::Path, k: u64) -> Result<(Season, u64)> {
    let held = store.seasons_closed()?;
    if let Some(s) = get(store, k)? {
        return Ok((s, held));
    }
    let every = crate::arena::config::Settings::stored(store)?.season_games;
    Err(Error::Usage(match every {
        None => format!(
            "the arena {} has no seasons ([arena] season_games)",
            dir.display()
        ),
        Some(_) => format!(
            "the arena {} has no season {k}: {} closed",
            dir.display(),
            count(held, "season")
        ),
    }))
}

/// Closed season `k`, if it is closed.
pub fn get(store: &Store, k: u64) -> Result<Option<Season>> {
    if k == 0 {
        return Ok(None);
    }
    Ok(stored(store, k, 1)?.pop())
}

/// The closed seasons `store` keeps from season `from` on, at most `most`
/// of them, in order, each checked.
pub fn stored(store: &Store, from: u64, most: u64) -> Result<Vec<Season>> {
    let mut seasons = Vec::new();
    for (number, data) in store.seasons(from, most)? {
        let season: Season = serde_json::from_str(&data)
            .map_err(|e| store.damaged(format!("season {number} is not a season: {e}")))?;
        if season.number != number || number != from.max(1) + seasons.len() as u64 {
            return Err(store.damaged(format!("season {number} is out of order")));
        }
        seasons.push(season);
    }
    Ok(seasons)
}

/// The newest `most` closed seasons, in order, and how many are closed.
pub fn newest(store: &Store, most: u64) -> Result<(Vec<Season>, u64)> {
    let held = store.seasons_closed()?;
    let from = held.saturating_sub(most) + 1;
    Ok((stored(store, from, most)?, held))
}

impl Season {
    /// Its line in a list of seasons: `1. games 0-31: dp@1 first of 3
    /// (16 points in 18 games)`.
    pub fn line(&self) -> String {
        let top = match self.rows.first() {
            Some(r) => format!(
                ": {} first of {} ({} points in {})",
                r.bot,
                self.rows.len(),
                r.points,
                count(r.games, "game")
            ),
            None => String::new(),
        };
        format!(
            "{:>5}. games {}-{}{top}",
            self.number, self.first, self.last
        )
    }

    /// Its table.
    pub fn table(&self, look: Look) -> String {
        let rows = self
            .rows
            .iter()
            .map(|r| {
                vec![
                    r.rank.to_string(),
                    r.bot.clone(),
                    r.season_rating_text.clone(),
                    r.rating_text.clone(),
                    r.games.to_string(),
                    r.won.to_string(),
                    r.lost.to_string(),
                    r.drawn.to_string(),
                    format!("{}", r.points),
                    r.forfeits.to_string(),
                ]
            })
            .collect();
        let header = [
            "Rank",
            "Bot",
            "Season (95%)",
            "Rating (95%)",
            "Games",
            "Won",
            "Lost",
            "Drawn",
            "Points",
            "Forfeits",
        ];
        rows_table(look, &header, rows, &[1], |_, _| None).to_string()
    }
}

/// The seasons `arena show` lists under the table, at most.
pub const LISTED: u64 = 10;

/// The list of an arena's seasons under its table: a line for each of the
/// newest closed seasons `seasons` (of `held` closed), one for those before
/// them, and the season in progress after `games` finished games.
pub fn list(seasons: &[Season], held: u64, every: u64, games: u64) -> String {
    let mut text = format!("Seasons (every {})\n", count(every, "game"));
    let before = held - seasons.len() as u64;
    if before > 0 {
        text.push_str(&format!(
            "       seasons 1-{before}: `ladder arena show DIR --season K` shows one\n"
        ));
    }
    for s in seasons {
        text.push_str(&s.line());
        text.push('\n');
    }
    let first = held * every;
    text.push_str(&format!(
        "{:>5}. games {}-{}: in progress, {} of {} played\n",
        held + 1,
        first,
        first + every - 1,
        games.saturating_sub(first),
        every
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Game `n`'s journal line: `a@1` against `b@1`, won by `winner`'s seat.
    fn line(n: u64, winner: &str) -> (u64, String) {
        let (first, second) = if n.is_multiple_of(2) {
            ("a@1", "b@1")
        } else {
            ("b@1", "a@1")
        };
        let result = if winner == first { "first" } else { "second" };
        let goals = if result == "first" { "[5,0]" } else { "[0,5]" };
        (
            n,
            format!(
                "{{\"index\":{n},\"pair\":0,\"seats\":[\"{first}\",\"{second}\"],\"seed\":1,\
                 \"result\":\"{result}\",\"goals\":{goals},\"termination\":{{\"kind\":\"normal\"}},\
                 \"plies\":1,\"moves\":[[\"left\",\"right\"]]}}"
            ),
        )
    }

    #[test]
    fn a_season_counts_its_own_games_and_rates_every_game_up_to_its_last() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::create(dir.path(), &[("game", "coordination".into())]).unwrap();
        // a@1 wins games 0-5, b@1 wins 6-9: seasons of 4 games, batches of 6
        let winner = |n: u64| if n < 6 { "a@1" } else { "b@1" };
        let batch = |first: u64| -> Vec<(u64, String)> {
            (first..first + 6).map(|n| line(n, winner(n))).collect()
        };
        // a third version joined before any game: it has none, and no row
        let names: Vec<String> = ["a@1", "b@1", "c@1"].map(String::from).to_vec();
        // the standings of every game before a batch, as the table keeps them
        let before = |n: u64| {
            let lines: Vec<Scored> = (0..n)
                .map(|g| {
                    Scored::from_line(&line(g, winner(g)).1, &names)
                        .unwrap()
                        .unwrap()
                })
                .collect();
            Standings::new(&names, &lines)
        };
        let mut closer = Closer::new(4);
        let first = batch(0);
        let closed = closer.close(&store, &names, &before(0), 0, &first).unwrap();
        assert_eq!(closed.len(), 1);
        let one = &closed[0];
        assert_eq!((one.number, one.first, one.last), (1, 0, 3));
        assert_eq!(one.rows.len(), 2);
        assert_eq!((one.rows[0].bot.as_str(), one.rows[0].won), ("a@1", 4));
        // a@1 won every game: it is the zero point, b@1 bounded below it
        let texts: Vec<_> = one.rows.iter().map(|r| r.rating_text.as_str()).collect();
        assert_eq!(texts[0], "+0 (zero point)");
        assert!(texts[1].starts_with("< -"), "{texts:?}");
        store.finish_batch(0, &first, &[], &[]).unwrap();
        // a fresh closer reads season 2's games 4-5 from the store, and
        // closes only season 2 (games 4-7) and season 3 (games 8-11) of the
        // next batch
        let mut fresh = Closer::new(4);
        let closed = fresh
            .close(&store, &names, &before(6), 6, &batch(6))
            .unwrap();
        assert_eq!(closed.iter().map(|s| s.number).collect::<Vec<_>>(), [2, 3]);
        let two = &closed[0];
        let tallies: Vec<_> = two
            .rows
            .iter()
            .map(|r| (r.bot.as_str(), r.won, r.lost))
            .collect();
        assert_eq!(tallies, [("a@1", 2, 2), ("b@1", 2, 2)]);
        // even in the season; after 8 games, 6 to 2 for a@1: rated above
        // b@1 by the fit of all 8
        assert_eq!(two.rows[0].season_rating, two.rows[1].season_rating);
        let gap = two.rows[0].rating.unwrap() - two.rows[1].rating.unwrap();
        let expected = 400.0 * 3f64.log10();
        assert!((gap - expected).abs() < 1.0, "{gap} {expected}");
        // b@1 won season 3, and is level with a@1 after 12 games, 6 to 6
        let three = &closed[1];
        assert_eq!(three.rows[0].bot, "b@1");
        assert_eq!((three.rows[0].won, three.rows[0].points), (4, 4.0));
        assert!(three.rows[0].season_rating_text.starts_with("> +"));
        assert_eq!(three.rows[1].season_rating_text, "+0 (zero point)");
        let level = three.rows[0].rating.unwrap() - three.rows[1].rating.unwrap();
        assert!(level.abs() < 1e-6, "{level}");
        // the same as the closer that followed the batches itself
        let followed = closer.close(&store, &names, &before(6), 6, &batch(6));
        assert_eq!(followed.unwrap(), closed);
        assert_eq!(
            three.line(),
            format!("    3. games 8-11: b@1 first of 2 (4 points in 4 games)")
        );
        // a game missing from the store is named, not skipped
        rusqlite::Connection::open(store.path())
            .unwrap()
            .execute("DELETE FROM games WHERE number = 5", [])
            .unwrap();
        let e = Closer::new(4)
            .close(&store, &names, &before(6), 6, &batch(6))
            .unwrap_err();
        assert!(e.to_string().contains("game 5 is missing"), "{e}");
        let all = [one.clone(), two.clone(), three.clone()];
        assert_eq!(
            list(&all[1..], 3, 4, 13),
            "Seasons (every 4 games)\n\
             \x20      seasons 1-1: `ladder arena show DIR --season K` shows one\n\
             \x20   2. games 4-7: a@1 first of 2 (2 points in 4 games)\n\
             \x20   3. games 8-11: b@1 first of 2 (4 points in 4 games)\n\
             \x20   4. games 12-15: in progress, 1 of 4 played\n"
        );
        assert_eq!(
            list(&all, 3, 4, 13),
            "Seasons (every 4 games)\n\
             \x20   1. games 0-3: a@1 first of 2 (4 points in 4 games)\n\
             \x20   2. games 4-7: a@1 first of 2 (2 points in 4 games)\n\
             \x20   3. games 8-11: b@1 first of 2 (4 points in 4 games)\n\
             \x20   4. games 12-15: in progress, 1 of 4 played\n"
        );
    }
}
