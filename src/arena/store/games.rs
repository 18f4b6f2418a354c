//! The arena's finished games: the `games` table and the `seats` table
//! beside it, which lists each game under the bots that played it, so a
//! bot's games (its page, a filter by bot) are read without reading
//! every game's record. A batch's seats go in with its games.

use std::path::Path;

use rusqlite::{params, OptionalExtension, Transaction, TransactionBehavior};

use super::{sql_error, Store, SCHEMA};
use crate::core::{
    error::{Error, Result},
    record::Scored,
};

/// The `seats` table: a row per bot and game it played (one when it
/// played both seats), ordered by bot, then game.
pub(super) const SEATS: &str = "CREATE TABLE seats (bot TEXT NOT NULL,
                                    number INTEGER NOT NULL,
                                    PRIMARY KEY (bot, number)) WITHOUT ROWID;";

/// A finished game: its number across the arena, its journal line, and
/// when its batch was recorded (Unix seconds; `None` for games recorded
/// before ladder kept the time). The time is for people browsing the
/// games: nothing the arena decides depends on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub number: u64,
    pub batch: u64,
    pub record: String,
    pub finished: Option<u64>,
}

impl GameRow {
    /// The game's result as the standings count it, its seats by their
    /// index in `names` (the league's versions); an error that names the
    /// game when its record is damaged or names a bot that never joined.
    pub fn scored(&self, names: &[String]) -> std::result::Result<Scored, String> {
        let scored = Scored::from_line(&self.record, names)
            .map_err(|e| format!("the arena's record of game {} is damaged: {e}", self.number))?
            .ok_or_else(|| {
                format!(
                    "the arena's record of game {} names a bot that never joined",
                    self.number
                )
            })?;
        if scored.index != self.number {
            return Err(format!(
                "the arena's record of game {} says it is game {}",
                self.number, scored.index
            ));
        }
        Ok(scored)
    }
}

impl Store {
    /// Lists under their bots the games not listed yet: every game of an
    /// arena of layout 1, which had no `seats` table, and the games a
    /// ladder of layout 1 that was running already recorded after this
    /// ladder brought the arena to layout 2 (the `listed` setting counts
    /// the games listed from the first on). A ladder of layout 1 opening
    /// the arena from then on refuses it. Two small reads when nothing is
    /// missing; a note on stderr when it lists, as a large arena takes
    /// seconds. Each listing is one transaction: all or nothing.
    pub(super) fn list_seats(&mut self) -> Result<()> {
        let path = self.path.clone();
        let fail = |e| sql_error(&path, e);
        let (schema, listed, total) = unlisted(&self.conn).map_err(fail)?;
        if schema == SCHEMA && listed >= total {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(fail)?;
        // again, now that no other ladder writes
        let (schema, listed, total) = unlisted(&tx).map_err(fail)?;
        if schema == SCHEMA && listed >= total {
            return Ok(());
        }
        if schema != SCHEMA {
            tx.execute_batch(SEATS).map_err(fail)?;
            if total > 0 {
                eprintln!(
                    "note: {}: listing its {total} games under their bots, once, for this ladder's layout {SCHEMA}",
                    path.display()
                );
            }
        } else {
            eprintln!(
                "note: {}: listing games {listed} to {} under their bots (an older ladder recorded them without)",
                path.display(),
                total - 1
            );
        }
        {
            let mut stmt = tx
                .prepare("SELECT number, record FROM games WHERE number >= ?1 ORDER BY number")
                .map_err(fail)?;
            let mut rows = stmt.query([int(listed)]).map_err(fail)?;
            while let Some(row) = rows.next().map_err(fail)? {
                let number = row.get::<_, i64>(0).map_err(fail)? as u64;
                let record = row.get_ref(1).and_then(|v| Ok(v.as_str()?)).map_err(fail)?;
                index_seats(&tx, &path, number, record)?;
            }
        }
        tx.execute(
            "INSERT INTO meta VALUES ('listed', ?1) ON CONFLICT (key) DO UPDATE SET value = ?1",
            [total.to_string()],
        )
        .map_err(fail)?;
        tx.execute("UPDATE meta SET value = ?1 WHERE key = 'schema'", [SCHEMA])
            .map_err(fail)?;
        tx.commit().map_err(fail)
    }

    /// Finished game `number`, if there is one.
    pub fn game(&self, number: u64) -> Result<Option<GameRow>> {
        self.conn
            .prepare_cached("SELECT number, batch, record, finished FROM games WHERE number = ?1")
            .and_then(|mut stmt| stmt.query_row(params![number as i64], game_row).optional())
            .map_err(self.fail())
    }

    /// Every finished game, in order.
    pub fn games(&self) -> Result<Vec<GameRow>> {
        self.games_from(0, u64::MAX)
    }

    /// How many games are finished, and of them the newest `most` after
    /// skipping the `skip` newest, newest first: a page of the arena's
    /// games without reading the others. Games are numbered from 0 without
    /// gaps, so the count is the last number's successor (a count of the
    /// rows would read them all).
    pub fn newest_games(&self, skip: u64, most: u64) -> Result<(u64, Vec<GameRow>)> {
        let total: i64 = self
            .conn
            .query_row("SELECT COALESCE(MAX(number) + 1, 0) FROM games", [], |r| {
                r.get(0)
            })
            .map_err(self.fail())?;
        let mut stmt = self
            .conn
            .prepare(
                "SELECT number, batch, record, finished FROM games ORDER BY number DESC LIMIT ?1 OFFSET ?2",
            )
            .map_err(self.fail())?;
        let [most, skip] = [most, skip].map(int);
        let rows = stmt
            .query_map([most, skip], game_row)
            .map_err(self.fail())?;
        let page = rows.collect::<Result<_, _>>().map_err(self.fail())?;
        Ok((total as u64, page))
    }

    /// The finished games from game `number` on, in order, at most `most`
    /// of them, that one of `bots` played if given (read from the
    /// `seats` table, a bot's games without reading the others), and
    /// that finished within `finished` (Unix seconds, both included) if
    /// given: a game recorded before the arena kept times is then left out.
    pub fn games_matching(
        &self,
        bots: Option<&[String]>,
        number: u64,
        most: u64,
        finished: Option<(u64, u64)>,
    ) -> Result<Vec<GameRow>> {
        let Some(bots) = bots else {
            return self.games_where(number, most, finished);
        };
        let (timed, since, until) = within(finished, "g.finished", 4);
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT s.number FROM seats s JOIN games g ON g.number = s.number
                 WHERE s.bot = ?1 AND s.number >= ?2{timed} ORDER BY s.number LIMIT ?3"
            ))
            .map_err(self.fail())?;
        // each bot's first `most` games, merged: the first `most` of all
        // are among them
        let mut numbers = Vec::new();
        for bot in bots {
            let rows = stmt
                .query_map(params![bot, int(number), int(most), since, until], |r| {
                    r.get::<_, i64>(0)
                })
                .map_err(self.fail())?;
            for n in rows {
                numbers.push(n.map_err(self.fail())?);
            }
        }
        numbers.sort_unstable();
        numbers.dedup();
        numbers.truncate(usize::try_from(most).unwrap_or(usize::MAX));
        let mut games = Vec::with_capacity(numbers.len());
        for n in numbers {
            let game = self.game(n as u64)?;
            games.push(game.ok_or_else(|| self.damaged(format!("game {n} has seats but no row")))?);
        }
        Ok(games)
    }

    /// The finished games from game `number` on, in order, at most `most`
    /// of them, that finished within `finished` if given.
    fn games_where(
        &self,
        number: u64,
        most: u64,
        finished: Option<(u64, u64)>,
    ) -> Result<Vec<GameRow>> {
        let (timed, since, until) = within(finished, "finished", 3);
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT number, batch, record, finished FROM games
                 WHERE number >= ?1{timed} ORDER BY number LIMIT ?2"
            ))
            .map_err(self.fail())?;
        let rows = stmt
            .query_map(params![int(number), int(most), since, until], game_row)
            .map_err(self.fail())?;
        rows.collect::<Result<_, _>>().map_err(self.fail())
    }

    /// The finished games from game `number` on, in order, at most `most`
    /// of them.
    pub fn games_from(&self, number: u64, most: u64) -> Result<Vec<GameRow>> {
        self.games_where(number, most, None)
    }
}

/// A number as SQLite's signed integer, the largest for one beyond it.
fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The condition `finished` (Unix seconds, both included, if given) puts
/// on the time column `column`, its bounds the parameters `?at` and
/// `?at + 1`, and those bounds: a condition always true when none is
/// given, so that the statement takes the same parameters either way.
fn within(finished: Option<(u64, u64)>, column: &str, at: usize) -> (String, i64, i64) {
    let (since, until) = finished.unwrap_or((0, u64::MAX));
    let condition = match finished {
        Some(_) => format!(" AND {column} BETWEEN ?{at} AND ?{}", at + 1),
        None => format!(" AND ?{at} <= ?{}", at + 1),
    };
    (condition, int(since), int(until))
}

/// A `games` row read as `number, batch, record, finished`.
fn game_row(r: &rusqlite::Row) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        number: r.get::<_, i64>(0)? as u64,
        batch: r.get::<_, i64>(1)? as u64,
        record: r.get(2)?,
        finished: r.get::<_, Option<i64>>(3)?.map(|t| t as u64),
    })
}

/// The two bots a game's record names in its seats; `None` when the
/// record is not a game's record.
pub(super) fn seats_of(record: &str) -> Option<[String; 2]> {
    #[derive(serde::Deserialize)]
    struct Seats {
        seats: [String; 2],
    }
    serde_json::from_str::<Seats>(record).ok().map(|s| s.seats)
}

/// The layout of the database on `conn`, how many of its games are
/// listed under their bots (from the first on), and how many it has.
fn unlisted(conn: &rusqlite::Connection) -> rusqlite::Result<(String, u64, u64)> {
    let setting = |key: &str| {
        conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| {
            r.get::<_, String>(0)
        })
        .optional()
    };
    let schema = setting("schema")?.unwrap_or_default();
    // an arena of layout 1 lists none; a count that is not one, from 0
    let listed = match schema == SCHEMA {
        true => setting("listed")?.and_then(|n| n.parse().ok()).unwrap_or(0),
        false => 0,
    };
    let total: i64 = conn.query_row("SELECT COALESCE(MAX(number) + 1, 0) FROM games", [], |r| {
        r.get(0)
    })?;
    Ok((schema, listed, total as u64))
}

/// Lists game `number` under the bots its record names, within `tx`
/// of the database at `path`; a record that names no seats is damaged.
pub(super) fn index_seats(tx: &Transaction, path: &Path, number: u64, record: &str) -> Result<()> {
    let seats = seats_of(record).ok_or_else(|| Error::Store {
        path: path.to_path_buf(),
        message: format!("the arena's record of game {number} names no seats"),
    })?;
    let fail = |e| sql_error(path, e);
    let mut stmt = tx
        .prepare_cached("INSERT OR IGNORE INTO seats (bot, number) VALUES (?1, ?2)")
        .map_err(fail)?;
    for bot in &seats {
        stmt.execute(params![bot, number as i64]).map_err(fail)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An arena of `batches` batches of four games each among bots
    /// `a@1`, `a@2`, `b@1` and `c@1`, some playing both seats, and a record
    /// whose moves name a bot that did not play.
    fn arena(dir: &Path, batches: u64) -> Store {
        let mut store = Store::create(dir, &[("game", "coordination".into())]).unwrap();
        let bots = ["a@1", "a@2", "b@1", "c@1"];
        for batch in 0..batches {
            let games: Vec<(u64, String)> = (batch * 4..batch * 4 + 4)
                .map(|n| {
                    let (first, second) = (bots[(n % 4) as usize], bots[(n * 3 / 4 % 4) as usize]);
                    let record = format!(
                        r#"{{"index":{n},"seats":["{first}","{second}"],"moves":[["\"c@1\"","x"]]}}"#
                    );
                    (n, record)
                })
                .collect();
            store.finish_batch(batch, &games, &[], &[]).unwrap();
        }
        store
    }

    /// The numbers of `games` that one of `bots` played, from `number`
    /// on, at most `most`: what the seats table must give.
    fn played(games: &[GameRow], bots: &[&str], number: u64, most: usize) -> Vec<u64> {
        games
            .iter()
            .filter(|g| g.number >= number)
            .filter(|g| {
                seats_of(&g.record)
                    .unwrap()
                    .iter()
                    .any(|s| bots.contains(&s.as_str()))
            })
            .map(|g| g.number)
            .take(most)
            .collect()
    }

    #[test]
    fn a_bots_games_are_read_from_its_seats_alone() {
        let dir = tempfile::tempdir().unwrap();
        let store = arena(dir.path(), 6);
        let all = store.games().unwrap();
        assert_eq!(all.len(), 24);
        let sets: [&[&str]; 6] = [
            &["a@1"],
            &["a@1", "a@2"],
            &["c@1"],
            &["b@1", "c@1", "a@2"],
            &["nobody@1"],
            &[],
        ];
        for bots in sets {
            let names: Vec<String> = bots.iter().map(|b| b.to_string()).collect();
            for number in [0, 1, 5, 23, 24, u64::MAX] {
                for most in [0, 1, 3, 7, 100] {
                    let got: Vec<u64> = store
                        .games_matching(Some(&names), number, most, None)
                        .unwrap()
                        .iter()
                        .map(|g| g.number)
                        .collect();
                    let expected = played(&all, bots, number, most as usize);
                    assert_eq!(got, expected, "{bots:?} from {number}, at most {most}");
                }
            }
            // every game finished within these bounds, and none after them
            let within = store
                .games_matching(Some(&names), 0, 100, Some((0, u64::MAX)))
                .unwrap();
            assert_eq!(within.len(), played(&all, bots, 0, 100).len());
            let later = store
                .games_matching(Some(&names), 0, 100, Some((u64::MAX - 1, u64::MAX)))
                .unwrap();
            assert!(later.is_empty(), "{bots:?}");
        }
        // c@1 is named in every record's moves, but plays only its own games
        let c = played(&all, &["c@1"], 0, 100);
        assert!(!c.is_empty() && c.len() < 24, "{c:?}");
        // a game a bot played in both seats is read once
        let both: Vec<u64> = all
            .iter()
            .filter(|g| seats_of(&g.record).unwrap() == ["a@1", "a@1"])
            .map(|g| g.number)
            .collect();
        assert!(!both.is_empty());
        let a = store
            .games_matching(Some(&["a@1".to_string()]), 0, 100, None)
            .unwrap();
        assert_eq!(
            a.iter().filter(|g| both.contains(&g.number)).count(),
            both.len()
        );
    }

    #[test]
    fn an_arena_of_layout_1_gets_its_seats_when_opened_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = arena(dir.path(), 3);
        let all = store.games().unwrap();
        // the layout before seats: no table, layout 1
        let downgrade = "DROP TABLE seats; DELETE FROM meta WHERE key = 'listed';
                         UPDATE meta SET value = '1' WHERE key = 'schema';";
        store.conn.execute_batch(downgrade).unwrap();
        drop(store);
        let mut store = Store::open(dir.path()).unwrap();
        assert_eq!(store.meta("schema").unwrap(), SCHEMA);
        let a = vec!["a@2".to_string()];
        let got: Vec<u64> = store
            .games_matching(Some(&a), 0, 100, None)
            .unwrap()
            .iter()
            .map(|g| g.number)
            .collect();
        assert_eq!(got, played(&all, &["a@2"], 0, 100));
        assert!(!got.is_empty());
        // a second call finds nothing to list
        store.list_seats().unwrap();
        let listed = |store: &Store| store.meta("listed").unwrap();
        assert_eq!(listed(&store), "12");
        // a batch recorded by this ladder is listed with its games
        let record = |n: u64| format!(r#"{{"index":{n},"seats":["a@2","c@1"]}}"#);
        store
            .finish_batch(3, &[(12, record(12))], &[], &[])
            .unwrap();
        assert_eq!(listed(&store), "13");
        // a game recorded by a ladder of layout 1 that was running already
        // (no seats, the count left) is listed at the next opening, and
        // the count waits for it meanwhile
        store
            .conn
            .execute("INSERT INTO games VALUES (13, 4, ?1, NULL)", [record(13)])
            .unwrap();
        store
            .finish_batch(5, &[(14, record(14))], &[], &[])
            .unwrap();
        assert_eq!(listed(&store), "13");
        drop(store);
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(listed(&store), "15");
        let got: Vec<u64> = store
            .games_matching(Some(&a), 11, 100, None)
            .unwrap()
            .iter()
            .map(|g| g.number)
            .collect();
        assert_eq!(got, [12, 13, 14]);
        drop(store);

        // a record with no seats in an arena of layout 1 is damaged, named
        let store = Store::open(dir.path()).unwrap();
        store.conn.execute_batch(downgrade).unwrap();
        store
            .conn
            .execute(
                "UPDATE games SET record = '{\"index\":5}' WHERE number = 5",
                [],
            )
            .unwrap();
        drop(store);
        let Err(e) = Store::open(dir.path()) else {
            panic!("a record with no seats was listed");
        };
        assert!(
            e.to_string().contains("record of game 5 names no seats"),
            "{e}"
        );
        // and nothing of the upgrade stays
        let store = Store::connect(&dir.path().join(super::super::FILE)).unwrap();
        assert_eq!(store.meta("schema").unwrap(), "1");

        // a layout this ladder does not know is refused
        store
            .conn
            .execute("UPDATE meta SET value = '3' WHERE key = 'schema'", [])
            .unwrap();
        drop(store);
        let Err(e) = Store::open(dir.path()) else {
            panic!("layout 3 opened");
        };
        assert!(e.to_string().contains("layout 3"), "{e}");
    }
}
