//! `ladder arena show`: the table of an arena, read from its database
//! while it plays (another process may be running it).
//!
//! One row per version, strongest first by the joint Bradley-Terry fit:
//! its rating with the 95% interval, games, points and their share,
//! forfeits, its trend (the rating's change over the last
//! [`TREND_BATCHES`] batches; `new` for a version without games before
//! them) and its state: a candidate's test (its LLR, bounds and verdict),
//! `retired`, `rejected`, or `failing` with the first forfeit's reason when
//! it forfeited every game.

use std::path::Path;

use serde::Serialize;

use std::collections::VecDeque;

use crate::{
    arena::{
        candidates, config,
        league::{Forfeiting, League},
        matchmaking::ranked,
        seasons,
        store::{GameRow, Store, PAGE},
    },
    core::error::{Error, Result},
    core::record::Scored,
    core::text::{count, harmless},
    report::{rows_table, share_color, Look},
    stats::standings::Standings,
    stats::{ratings, sprt::Verdict},
};

/// The batches the trend looks back over.
pub const TREND_BATCHES: u64 = 5;

/// The arena in `dir` as a table, with a line above it, and the list of
/// its seasons if it has them; with `season`, that closed season's table.
pub fn show(dir: &Path, look: Look, season: Option<u64>) -> Result<String> {
    let store = Store::open(dir)?;
    let game = store.title()?;
    let settings = config::Settings::stored(&store)?;
    if let Some(k) = season {
        let (s, closed) = seasons::find(&store, dir, k)?;
        return Ok(format!(
            "arena {}: {game}, season {k} of {closed}: games {}-{}, {}\n{}\n\
             Season: the joint fit of the season's games; Rating: of games 0-{}.\n",
            dir.display(),
            s.first,
            s.last,
            count(s.rows.len(), "bot"),
            s.table(look),
            s.last,
        ));
    }
    let mut followed = Followed::default();
    let (newest, held) = store.snapshot(|store| {
        followed.catch_up(store)?;
        seasons::newest(store, seasons::LISTED)
    })?;
    let mut text = table(&followed, (&game, &settings.sprt), dir, look)?;
    if let Some(every) = settings.season_games {
        let games = followed.tallies.all.games();
        text.push_str(&seasons::list(&newest, held, every, games));
    }
    Ok(text)
}

/// One version's line of the arena's table (`ladder arena show`, the web
/// leaderboard and its JSON).
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub rank: usize,
    /// `name@version`.
    pub bot: String,
    pub name: String,
    pub version: u32,
    /// The joint fit's rating and its 95% interval (`None` for a bound
    /// that is not known, or without games); `rating_text` as the table
    /// prints it.
    pub rating: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub rating_text: String,
    pub games: u64,
    pub points: f64,
    pub forfeits: u64,
    /// The rating's change over the last [`TREND_BATCHES`] batches
    /// (`+12`), `new`, or empty.
    pub trend: String,
    /// `playing`, `candidate`, `retired`, `rejected` or `failing`.
    pub state: &'static str,
    /// The state in words, as the table's last column.
    pub detail: String,
    /// A candidate's test.
    pub test: Option<candidates::Test>,
}

/// What the table needs of an arena's finished games, kept up to date a
/// game at a time (the web server folds each new batch into the one it
/// holds, so a table of a million games costs only the new ones): the
/// standings of every game, those of the games before the trend's window,
/// and each version's forfeits.
#[derive(Clone, Debug)]
pub struct Tallies {
    pub all: Standings,
    /// The games of batches before `cut`.
    pub before: Standings,
    cut: u64,
    /// Games from batch `cut` on, not yet in `before`.
    recent: VecDeque<(u64, Scored)>,
    forfeiting: Forfeiting,
    /// The number of the next game to fold: every game before it is in.
    pub next: u64,
}

impl Tallies {
    /// No games yet.
    pub fn new() -> Tallies {
        Tallies {
            all: Standings::empty(&[]),
            before: Standings::empty(&[]),
            cut: 0,
            recent: VecDeque::new(),
            forfeiting: Forfeiting::default(),
            next: 0,
        }
    }

    /// Folds `games` (the ones from game [`Tallies::next`] on, in order;
    /// earlier ones are skipped) and moves the trend's window to the
    /// league's last batches.
    pub fn add(&mut self, league: &League, games: &[GameRow]) -> Result<()> {
        let names = league.names();
        for name in &names[self.all.bots.len()..] {
            self.all.grow(name);
            self.before.grow(name);
        }
        for g in games {
            if g.number < self.next {
                continue;
            }
            let scored = g.scored(&names).map_err(Error::Mismatch)?;
            self.all.add(&scored);
            self.forfeiting.add(&scored, names.len());
            self.recent.push_back((g.batch, scored));
            self.next = g.number + 1;
        }
        self.cut = self
            .cut
            .max(league.next_batch.saturating_sub(TREND_BATCHES));
        while self
            .recent
            .front()
            .is_some_and(|(batch, _)| *batch < self.cut)
        {
            let (_, scored) = self.recent.pop_front().expect("a game");
            self.before.add(&scored);
        }
        Ok(())
    }
}

impl Default for Tallies {
    fn default() -> Self {
        Tallies::new()
    }
}

impl Tallies {
    /// Per version of a league of `versions`: the first forfeit's detail
    /// of one that forfeited each of its games, at least
    /// [`FAILING_AFTER`](crate::arena::league::FAILING_AFTER) of them.
    pub fn failing(&self, versions: usize) -> Vec<Option<String>> {
        self.forfeiting.failing(versions)
    }
}

/// An arena's league and the tallies of its games, followed as it grows:
/// each catch-up reads only the events and games that came since the one
/// before, so the run loop's decision of a batch and the web server's
/// leaderboard cost what is new, not the arena's whole history.
#[derive(Clone, Debug, Default)]
pub struct Followed {
    /// The last event folded into `league`.
    pub seq: u64,
    pub league: League,
    pub tallies: Tallies,
}

impl Followed {
    /// Folds what `store` got since the last catch-up. After an error the
    /// state is half-made: start again from [`Followed::default`].
    pub fn catch_up(&mut self, store: &Store) -> Result<()> {
        for (seq, event) in store.events_after(self.seq, u64::MAX)? {
            self.league
                .apply(seq, &event)
                .map_err(|m| store.damaged(m))?;
            self.seq = seq;
        }
        // a page of games at a time: catching up with a long history
        // holds one page of records, not all of them
        loop {
            let next = self.tallies.next;
            let games = store.games_from(next, PAGE)?;
            // games are numbered from 0 without gaps, each finished batch's
            // recorded with its event: a gap is a game the database lost
            if let Some(lost) = (next..).zip(&games).find(|(n, g)| g.number != *n) {
                return Err(store.damaged(format!("game {} is missing", lost.0)));
            }
            self.tallies.add(&self.league, &games)?;
            if (games.len() as u64) < PAGE {
                break;
            }
        }
        let (recorded, finished) = (self.tallies.next, self.league.next_game);
        if recorded != finished {
            return Err(store.damaged(if recorded < finished {
                format!("game {recorded} is missing")
            } else {
                format!("game {finished} is recorded, but no batch of the event log finished it")
            }));
        }
        Ok(())
    }
}

/// The arena's rows, strongest first, from its league and the tallies of
/// its games.
pub fn rows_of(league: &League, t: &Tallies, sprt: &candidates::Settings) -> Vec<Row> {
    let (standings, then) = (&t.all, &t.before);
    let fit = ratings::fit(&standings.vs, None);
    // the trend needs only where each bot stood
    let before = ratings::fit_ratings(&then.vs, None);
    let failing = t.failing(league.versions.len());
    let shares: Vec<f64> = standings
        .totals
        .iter()
        .map(|t| t.points() / t.games.max(1) as f64)
        .collect();
    let mut rows = Vec::new();
    for (rank, &b) in ranked(&fit.ratings, &shares).iter().enumerate() {
        let v = &league.versions[b];
        let t = standings.totals[b];
        let trend = match (fit.ratings[b].elo, before.ratings[b].elo) {
            (Some(now), Some(was)) => format!("{:+.0}", (now - was).round() + 0.0),
            _ if t.games > 0 && then.totals[b].games == 0 => "new".to_string(),
            _ => String::new(),
        };
        let mut test = None;
        let (state, detail) = match (&failing[b], v.retired, v.candidate) {
            (Some(why), ..) => ("failing", format!("failing: {}", harmless(why))),
            (None, true, _) if v.rejected => ("rejected", "rejected".to_string()),
            (None, true, _) => ("retired", "retired".to_string()),
            (None, false, true) => {
                let t = candidates::test(sprt, &t);
                test = Some(t);
                let against = v.against.as_deref().unwrap_or("the pool");
                let next = match t.verdict {
                    Verdict::Unfinished => "",
                    _ => ": promote or reject",
                };
                (
                    "candidate",
                    format!("candidate vs {against}: {}{next}", t.text()),
                )
            }
            _ => ("playing", String::new()),
        };
        let r = &fit.ratings[b];
        rows.push(Row {
            rank: rank + 1,
            bot: v.bot.clone(),
            name: v.name.clone(),
            version: v.version,
            rating: r.elo,
            low: r.low,
            high: r.high,
            rating_text: r.text(),
            games: t.games,
            points: t.points(),
            forfeits: standings.forfeits[b].values().sum(),
            trend,
            state,
            detail,
            test,
        });
    }
    rows
}

/// The head line of the arena's table: its game, bots and games.
pub fn head(league: &League, games: usize, dir: &Path, game: &str) -> String {
    let playing = league.versions.iter().filter(|v| !v.retired).count();
    let mut head = format!(
        "arena {}: {game}, {} playing, {} in {}",
        dir.display(),
        count(playing, "bot"),
        count(games, "game"),
        count(league.next_batch, "batch")
    );
    if let Some(b) = &league.open {
        head.push_str(&format!(
            "; batch {} ({}) in progress",
            b.number,
            count(b.games.len(), "game")
        ));
    }
    head
}

fn table(
    followed: &Followed,
    (game, sprt): (&str, &candidates::Settings),
    dir: &Path,
    look: Look,
) -> Result<String> {
    let (league, tallies) = (&followed.league, &followed.tallies);
    let head = head(league, tallies.all.games() as usize, dir, game);
    let rows = rows_of(league, tallies, sprt)
        .into_iter()
        .map(|r| {
            vec![
                r.rank.to_string(),
                r.bot,
                r.rating_text,
                r.games.to_string(),
                format!("{}", r.points),
                if r.games == 0 {
                    String::new()
                } else {
                    format!("{:.1}%", 100.0 * r.points / r.games as f64)
                },
                r.forfeits.to_string(),
                r.trend,
                r.detail,
            ]
        })
        .collect();
    let header = [
        "Rank",
        "Bot",
        "Rating (95%)",
        "Games",
        "Points",
        "Score",
        "Forfeits",
        "Trend",
        "State",
    ];
    let t = rows_table(look, &header, rows, &[1, 7, 8], |c, text| {
        // a share of points: green above half, red below
        let share: f64 = text.strip_suffix('%')?.parse().ok()?;
        (c == 5).then(|| share_color(share, 100)).flatten()
    });
    Ok(format!("{head}\n{t}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::{league::Batch, store::Event};

    /// An arena of `a@1` and `b@1` in `dir` with `batches` batches of
    /// `per` games each, `a@1` winning every game.
    fn arena_of(dir: &Path, batches: u64, per: u64) -> Store {
        let mut store = Store::create(dir, &[("game", "coordination".into())]).unwrap();
        for bot in ["a", "b"] {
            store
                .append(&crate::arena::league::tests::added(bot))
                .unwrap();
        }
        for number in 0..batches {
            play_batch(&mut store, number, number * per, per);
        }
        store
    }

    /// Batch `number` of `per` games from game `first`, each won by `a@1`,
    /// played and recorded.
    fn play_batch(store: &mut Store, number: u64, first: u64, per: u64) {
        let pairing = || ["a@1".to_string(), "b@1".to_string()];
        store
            .append(&Event::Batch {
                number,
                first,
                games: (0..per).map(|_| pairing()).collect(),
            })
            .unwrap();
        let games: Vec<(u64, String)> = (first..first + per)
            .map(|n| {
                let line = format!(
                    "{{\"index\":{n},\"pair\":0,\"seats\":[\"a@1\",\"b@1\"],\"seed\":1,\
                     \"result\":\"first\",\"goals\":[5,0],\"termination\":{{\"kind\":\"normal\"}},\
                     \"plies\":1,\"moves\":[[\"left\",\"right\"]]}}"
                );
                (n, line)
            })
            .collect();
        store.finish_batch(number, &games, &[], &[]).unwrap();
    }

    #[test]
    fn a_followed_arena_reads_only_what_came_since_its_last_catch_up() {
        let dir = tempfile::tempdir().unwrap();
        // more games than a page: the catch-up reads them page by page
        let per = PAGE / 2 + 1;
        let mut store = arena_of(dir.path(), 3, per);
        let mut followed = Followed::default();
        followed.catch_up(&store).unwrap();
        let won = |f: &Followed| (f.tallies.all.games(), f.tallies.all.totals[0].won);
        assert_eq!(won(&followed), (3 * per, 3 * per));
        assert_eq!(followed.league.next_batch, 3);
        // the games caught up with are not read again: with the first
        // batch's rows gone, the followed tallies still count them
        rusqlite::Connection::open(store.path())
            .unwrap()
            .execute("DELETE FROM games WHERE batch = 0", [])
            .unwrap();
        play_batch(&mut store, 3, 3 * per, 5);
        followed.catch_up(&store).unwrap();
        assert_eq!(won(&followed), (3 * per + 5, 3 * per + 5));
        assert_eq!(followed.league.next_batch, 4);
        // nothing new: nothing changes
        followed.catch_up(&store).unwrap();
        assert_eq!(won(&followed), (3 * per + 5, 3 * per + 5));
        // read afresh, the lost rows are named
        let lost = |store: &Store| {
            let mut f = Followed::default();
            f.catch_up(store).unwrap_err().to_string()
        };
        assert!(
            lost(&store).ends_with("game 0 is missing"),
            "{}",
            lost(&store)
        );
    }

    #[test]
    fn a_followed_arena_names_a_game_lost_renumbered_or_recorded_unfinished() {
        let dir = tempfile::tempdir().unwrap();
        let store = arena_of(dir.path(), 2, 3);
        let db = store.path().to_path_buf();
        let sql = |q: &str| {
            rusqlite::Connection::open(&db)
                .unwrap()
                .execute_batch(q)
                .unwrap()
        };
        let error = |store: &Store| {
            let mut f = Followed::default();
            f.catch_up(store).err().map(|e| e.to_string())
        };
        assert_eq!(error(&store), None);
        // a game moved past the others: a gap where it was
        sql("UPDATE games SET number = 1000 WHERE number = 4");
        assert!(error(&store).unwrap().ends_with("game 4 is missing"));
        // back in its place under another game's number
        sql("UPDATE games SET number = 4 WHERE number = 1000; \
             UPDATE games SET number = -1 WHERE number = 2; \
             UPDATE games SET number = 2 WHERE number = 4; \
             UPDATE games SET number = 4 WHERE number = -1");
        let e = error(&store).unwrap();
        assert!(
            e.ends_with("the arena's record of game 2 says it is game 4"),
            "{e}"
        );
        sql("UPDATE games SET number = -1 WHERE number = 2; \
             UPDATE games SET number = 2 WHERE number = 4; \
             UPDATE games SET number = 4 WHERE number = -1");
        assert_eq!(error(&store), None);
        // the last game lost: fewer recorded than the batches finished
        sql("DELETE FROM games WHERE number = 5");
        assert!(error(&store).unwrap().ends_with("game 5 is missing"));
        // the last batch's games without its event: recorded, not finished
        sql("DELETE FROM events WHERE seq = (SELECT MAX(seq) FROM events)");
        let e = error(&store).unwrap();
        assert!(
            e.ends_with("game 3 is recorded, but no batch of the event log finished it"),
            "{e}"
        );
    }

    #[test]
    fn the_head_line_counts_in_words() {
        let mut league = League {
            next_batch: 1,
            ..League::default()
        };
        let dir = Path::new("a");
        assert_eq!(
            head(&league, 1, dir, "bidding"),
            "arena a: bidding, 0 bots playing, 1 game in 1 batch"
        );
        league.next_batch = 2;
        league.open = Some(Batch {
            number: 2,
            first: 16,
            games: vec![["x@1".into(), "y@1".into()]],
        });
        assert_eq!(
            head(&league, 16, dir, "bidding"),
            "arena a: bidding, 0 bots playing, 16 games in 2 batches; batch 2 (1 game) in progress"
        );
    }
}
