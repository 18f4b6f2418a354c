//! The arena's finished games: the `games` table and the lists beside
//! it, `seats` (each game under the bots that played it) and `endings`
//! (each game's result, termination and plies), so the games a filter
//! keeps (a bot's page, a filter by bot, result, termination or length)
//! are found without reading every game's record. A batch's games are
//! listed in the transaction that records them.

use std::path::Path;

use rusqlite::{
    params, params_from_iter, types::Value, OptionalExtension, Transaction, TransactionBehavior,
};

use super::{sql_error, Store, SCHEMA};
use crate::core::{
    error::{Error, Result},
    record::Scored,
};

/// The tables a game is listed in beside its record, so that a filter
/// reads the games it keeps, not every record: `seats`, a row per bot and
/// game it played (one when it played both seats), ordered by bot, then
/// game; `endings`, a row per game with its result by seat, its
/// termination's kind and its plies, as its record says, with indexes
/// ([`INDEXES`]) by result and by termination, each then by game.
pub(super) const LISTS: &str = "CREATE TABLE seats (bot TEXT NOT NULL,
                                    number INTEGER NOT NULL,
                                    PRIMARY KEY (bot, number)) WITHOUT ROWID;
                                CREATE TABLE endings (number INTEGER PRIMARY KEY,
                                    result TEXT NOT NULL, termination TEXT NOT NULL,
                                    plies INTEGER NOT NULL);";

/// The indexes of `endings`, made after its rows when an arena of layout
/// 1 gets its lists (sorting them once is about twice as fast as
/// inserting into them game by game).
pub(super) const INDEXES: &str = "CREATE INDEX endings_by_result ON endings (result, number);
                                  CREATE INDEX endings_by_termination
                                      ON endings (termination, number);";

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
    /// Lists the games not listed yet ([`list_game`]): every game of an
    /// arena of layout 1, which had no lists, and the games a
    /// ladder of layout 1 that was running already recorded after this
    /// ladder brought the arena to layout 2 (the `listed` setting counts
    /// the games listed from the first on). A ladder of layout 1 opening
    /// the arena from then on refuses it. Two small reads when nothing is
    /// missing; a note on stderr when it lists, as a large arena takes
    /// seconds. Each listing is one transaction: all or nothing.
    pub(super) fn list_unlisted(&mut self) -> Result<()> {
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
            tx.execute_batch(LISTS).map_err(fail)?;
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
                list_game(&tx, &path, number, record)?;
            }
        }
        if schema != SCHEMA {
            tx.execute_batch(INDEXES).map_err(fail)?;
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
    /// of them, that are as `wanted` says. A bot's games are read from the
    /// `seats` table and a game's ending from `endings`, without reading
    /// the other games' records.
    pub fn games_matching(&self, wanted: &Wanted, number: u64, most: u64) -> Result<Vec<GameRow>> {
        if wanted.bots.is_some() {
            let numbers = self.numbers_matching(wanted, number, most)?;
            let mut games = Vec::with_capacity(numbers.len());
            for n in numbers {
                let game = self.game(n)?;
                games.push(
                    game.ok_or_else(|| self.damaged(format!("game {n} has seats but no row")))?,
                );
            }
            return Ok(games);
        }
        let (sql, values) = wanted.select("g.number, g.batch, g.record, g.finished", number, most);
        let mut stmt = self.conn.prepare(&sql).map_err(self.fail())?;
        let rows = stmt
            .query_map(params_from_iter(values), game_row)
            .map_err(self.fail())?;
        rows.collect::<Result<_, _>>().map_err(self.fail())
    }

    /// The numbers of [`Store::games_matching`]'s games, their records
    /// left unread.
    pub fn numbers_matching(&self, wanted: &Wanted, number: u64, most: u64) -> Result<Vec<u64>> {
        let number_of = |r: &rusqlite::Row| r.get::<_, i64>(0).map(|n| n as u64);
        let Some(bots) = wanted.bots else {
            let (sql, values) = wanted.select("g.number", number, most);
            let mut stmt = self.conn.prepare(&sql).map_err(self.fail())?;
            let rows = stmt
                .query_map(params_from_iter(values), number_of)
                .map_err(self.fail())?;
            return rows.collect::<Result<_, _>>().map_err(self.fail());
        };
        let (ending, values) = wanted.ending();
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT s.number FROM seats s JOIN games g ON g.number = s.number{ending}
                 AND s.bot = ? AND s.number >= ? ORDER BY s.number LIMIT ?"
            ))
            .map_err(self.fail())?;
        // each bot's first `most` games, merged: the first `most` of all
        // are among them
        let mut numbers = Vec::new();
        for bot in bots {
            let mut asked = values.clone();
            asked.push(Value::Text(bot.clone()));
            asked.extend([int(number), int(most)].map(Value::Integer));
            let rows = stmt
                .query_map(params_from_iter(asked), number_of)
                .map_err(self.fail())?;
            for n in rows {
                numbers.push(n.map_err(self.fail())?);
            }
        }
        numbers.sort_unstable();
        numbers.dedup();
        numbers.truncate(usize::try_from(most).unwrap_or(usize::MAX));
        Ok(numbers)
    }

    /// The finished games from game `number` on, in order, at most `most`
    /// of them.
    pub fn games_from(&self, number: u64, most: u64) -> Result<Vec<GameRow>> {
        self.games_matching(&Wanted::default(), number, most)
    }
}

/// What [`Store::games_matching`] asks of a game beside its number; each
/// part given narrows, none asks nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Wanted<'a> {
    /// Played by one of these (`name@N`), in either seat.
    pub bots: Option<&'a [String]>,
    /// Recorded within these times (Unix seconds, both included): a game
    /// recorded before the arena kept times is then left out.
    pub finished: Option<(u64, u64)>,
    /// Its result by seat, as its record says: `first`, `second`, `draw`.
    pub result: Option<&'a str>,
    /// How it ended, as its record's `termination` says its kind:
    /// `normal`, `forfeit`, `ply-limit`, `ill-formed`, `adjudicated`.
    pub termination: Option<&'a str>,
    /// Its plies, both included.
    pub plies: Option<(u32, u32)>,
}

impl Wanted<'_> {
    /// Whether it asks anything of a game's ending.
    fn ends(&self) -> bool {
        self.result.is_some() || self.termination.is_some() || self.plies.is_some()
    }

    /// The query for `columns` of the games from `number` on, in order, at
    /// most `most` of them, as all but the bots say, and its values.
    fn select(&self, columns: &str, number: u64, most: u64) -> (String, Vec<Value>) {
        let (ending, mut values) = self.ending();
        // ordered by the number of the list read first, so that its index
        // gives the order (ordered by the other, SQLite sorted every game
        // after `number` for each page)
        let key = match self.ends() {
            true => "e.number",
            false => "g.number",
        };
        values.extend([int(number), int(most)].map(Value::Integer));
        let sql =
            format!("SELECT {columns} FROM games g{ending} AND {key} >= ? ORDER BY {key} LIMIT ?");
        (sql, values)
    }

    /// The join and `WHERE` conditions (to be followed by `AND ...`) of
    /// all but the bots, on `games g`, and their values in order.
    fn ending(&self) -> (String, Vec<Value>) {
        let mut sql = String::new();
        let mut values = Vec::new();
        if self.ends() {
            sql += " JOIN endings e ON e.number = g.number";
        }
        sql += " WHERE 1";
        if let Some((since, until)) = self.finished {
            sql += " AND g.finished BETWEEN ? AND ?";
            values.extend([int(since), int(until)].map(Value::Integer));
        }
        if let Some(result) = self.result {
            sql += " AND e.result = ?";
            values.push(Value::Text(result.to_string()));
        }
        if let Some(termination) = self.termination {
            sql += " AND e.termination = ?";
            values.push(Value::Text(termination.to_string()));
        }
        if let Some((least, most)) = self.plies {
            sql += " AND e.plies BETWEEN ? AND ?";
            values.extend([least, most].map(|n| Value::Integer(n.into())));
        }
        (sql, values)
    }
}

/// A number as SQLite's signed integer, the largest for one beyond it.
fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
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

/// What a game's record says that its lists hold; `None` when the
/// record is not a game's record.
#[derive(serde::Deserialize)]
pub(super) struct Listing {
    seats: [String; 2],
    result: String,
    termination: Kind,
    plies: u32,
}

/// A termination's kind, the rest of it left.
#[derive(serde::Deserialize)]
struct Kind {
    kind: String,
}

impl Listing {
    pub(super) fn of(record: &str) -> Option<Listing> {
        serde_json::from_str(record).ok()
    }
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

/// Lists game `number` under the bots its record names and its ending,
/// within `tx` of the database at `path`; a record that does not say them
/// is damaged.
pub(super) fn list_game(tx: &Transaction, path: &Path, number: u64, record: &str) -> Result<()> {
    let listing = Listing::of(record).ok_or_else(|| Error::Store {
        path: path.to_path_buf(),
        message: format!(
            "the arena's record of game {number} is damaged: no seats, result, termination or plies"
        ),
    })?;
    let fail = |e| sql_error(path, e);
    let mut seat = tx
        .prepare_cached("INSERT OR IGNORE INTO seats (bot, number) VALUES (?1, ?2)")
        .map_err(fail)?;
    for bot in &listing.seats {
        seat.execute(params![bot, number as i64]).map_err(fail)?;
    }
    tx.prepare_cached(
        "INSERT OR IGNORE INTO endings (number, result, termination, plies) VALUES (?1, ?2, ?3, ?4)",
    )
    .and_then(|mut ending| {
        ending.execute(params![
            number as i64,
            listing.result,
            listing.termination.kind,
            listing.plies
        ])
    })
    .map_err(fail)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Game `n`'s record: bots `a@1`, `a@2`, `b@1` and `c@1` in turn, some
    /// playing both seats; results, endings and lengths that vary; and
    /// moves that name `c@1`, who did not play every game.
    fn record(n: u64) -> String {
        let bots = ["a@1", "a@2", "b@1", "c@1"];
        let (first, second) = (bots[(n % 4) as usize], bots[(n * 3 / 4 % 4) as usize]);
        let result = ["first", "second", "draw"][(n % 3) as usize];
        let termination =
            ["normal", "forfeit", "ply-limit", "normal", "adjudicated"][(n % 5) as usize];
        format!(
            r#"{{"index":{n},"seats":["{first}","{second}"],"result":"{result}","termination":{{"kind":"{termination}"}},"plies":{},"moves":[["\"c@1\"","x"]]}}"#,
            n % 7
        )
    }

    /// An arena of `batches` batches of four games ([`record`]).
    fn arena(dir: &Path, batches: u64) -> Store {
        let mut store = Store::create(dir, &[("game", "coordination".into())]).unwrap();
        for batch in 0..batches {
            let games: Vec<(u64, String)> =
                (batch * 4..batch * 4 + 4).map(|n| (n, record(n))).collect();
            store.finish_batch(batch, &games, &[], &[]).unwrap();
        }
        store
    }

    /// Whether `game` is as `wanted` says, read from its record: what the
    /// lists must give.
    fn is(wanted: &Wanted, game: &GameRow) -> bool {
        let l = Listing::of(&game.record).unwrap();
        wanted
            .bots
            .is_none_or(|bots| l.seats.iter().any(|s| bots.contains(s)))
            && wanted
                .finished
                .is_none_or(|(a, b)| game.finished.is_some_and(|t| a <= t && t <= b))
            && wanted.result.is_none_or(|r| l.result == r)
            && wanted.termination.is_none_or(|t| l.termination.kind == t)
            && wanted
                .plies
                .is_none_or(|(a, b)| a <= l.plies && l.plies <= b)
    }

    /// The numbers of the games `store` gives for `wanted`.
    fn numbers(store: &Store, wanted: &Wanted, number: u64, most: u64) -> Vec<u64> {
        let games = store.games_matching(wanted, number, most).unwrap();
        games.iter().map(|g| g.number).collect()
    }

    #[test]
    fn the_games_asked_for_are_read_from_the_lists_alone() {
        let dir = tempfile::tempdir().unwrap();
        let store = arena(dir.path(), 12);
        let all = store.games().unwrap();
        assert_eq!(all.len(), 48);
        let sets: [Option<&[&str]>; 6] = [
            None,
            Some(&["a@1"]),
            Some(&["a@1", "a@2"]),
            Some(&["c@1"]),
            Some(&["b@1", "c@1", "a@2"]),
            Some(&["nobody@1"]),
        ];
        let endings = [
            (None, None, None),
            (Some("draw"), None, None),
            (None, Some("forfeit"), None),
            (None, Some("ill-formed"), None),
            (None, None, Some((2, 4))),
            (Some("first"), Some("normal"), Some((0, 5))),
        ];
        let times = [None, Some((0, u64::MAX)), Some((u64::MAX - 1, u64::MAX))];
        let mut kept_some = 0;
        for set in sets {
            let names: Option<Vec<String>> = set.map(|s| s.iter().map(|b| b.to_string()).collect());
            for (result, termination, plies) in endings {
                for finished in times {
                    let wanted = Wanted {
                        bots: names.as_deref(),
                        finished,
                        result,
                        termination,
                        plies,
                    };
                    for number in [0, 1, 5, 47, 48, u64::MAX] {
                        for most in [0, 1, 3, 7, 100] {
                            let expected: Vec<u64> = all
                                .iter()
                                .filter(|g| g.number >= number && is(&wanted, g))
                                .map(|g| g.number)
                                .take(most as usize)
                                .collect();
                            kept_some += usize::from(!expected.is_empty());
                            let got = numbers(&store, &wanted, number, most);
                            assert_eq!(got, expected, "{wanted:?} from {number}, at most {most}");
                        }
                    }
                }
            }
        }
        assert!(kept_some > 500, "{kept_some}");
        // c@1 is named in every record's moves, but plays only its own games
        let c = ["c@1".to_string()];
        let of_c = numbers(
            &store,
            &Wanted {
                bots: Some(&c),
                ..Wanted::default()
            },
            0,
            100,
        );
        assert!(!of_c.is_empty() && of_c.len() < 48, "{of_c:?}");
        // a game a bot played in both seats is read once
        let a = ["a@1".to_string()];
        let of_a = numbers(
            &store,
            &Wanted {
                bots: Some(&a),
                ..Wanted::default()
            },
            0,
            100,
        );
        assert!(of_a.contains(&0), "game 0 is a@1 against itself");
        let mut once = of_a.clone();
        once.dedup();
        assert_eq!(once, of_a);
    }

    #[test]
    fn an_arena_of_layout_1_gets_its_lists_when_opened_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = arena(dir.path(), 3);
        let all = store.games().unwrap();
        // the layout before the lists: no tables, layout 1
        let downgrade = "DROP TABLE seats; DROP TABLE endings;
                         DELETE FROM meta WHERE key = 'listed';
                         UPDATE meta SET value = '1' WHERE key = 'schema';";
        store.conn.execute_batch(downgrade).unwrap();
        drop(store);
        let mut store = Store::open(dir.path()).unwrap();
        assert_eq!(store.meta("schema").unwrap(), SCHEMA);
        let a = ["a@2".to_string()];
        let wanted = Wanted {
            bots: Some(&a),
            termination: Some("normal"),
            ..Wanted::default()
        };
        let got = numbers(&store, &wanted, 0, 100);
        let expected: Vec<u64> = all
            .iter()
            .filter(|g| is(&wanted, g))
            .map(|g| g.number)
            .collect();
        assert_eq!(got, expected);
        assert!(!got.is_empty());
        // a second call finds nothing to list
        store.list_unlisted().unwrap();
        let listed = |store: &Store| store.meta("listed").unwrap();
        assert_eq!(listed(&store), "12");
        // a batch recorded by this ladder is listed with its games
        store
            .finish_batch(3, &[(12, record(12))], &[], &[])
            .unwrap();
        assert_eq!(listed(&store), "13");
        // a game recorded by a ladder of layout 1 that was running already
        // (not listed, the count left) is listed at the next opening, and
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
        let all = store.games().unwrap();
        for wanted in [
            Wanted {
                bots: Some(&a),
                ..Wanted::default()
            },
            Wanted {
                plies: Some((6, 6)),
                ..Wanted::default()
            },
        ] {
            let expected: Vec<u64> = all
                .iter()
                .filter(|g| g.number >= 11 && is(&wanted, g))
                .map(|g| g.number)
                .collect();
            assert!(expected.contains(&13), "{wanted:?}: {expected:?}");
            assert_eq!(numbers(&store, &wanted, 11, 100), expected, "{wanted:?}");
        }
        drop(store);

        // a record that is not a game's in an arena of layout 1 is named
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
        assert!(e.to_string().contains("record of game 5 is damaged"), "{e}");
        // and nothing of the change stays
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
