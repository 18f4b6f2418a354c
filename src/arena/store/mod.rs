//! The arena's store: one SQLite database, `arena.db` in the arena's
//! folder, that `arena run`, `add`, `retire`, `show` and `export` share
//! (SQLite's write-ahead log lets one process write while others read).
//!
//! Seven tables:
//! - `meta`: the arena's settings, fixed when it was made (`settings`: the
//!   season table every batch is played under, as TOML; `game`; `seed`;
//!   `batch_games`; `newcomer_games`; `season_games`, if set; `schema`,
//!   the database's layout), and `listed`: how many games, from the
//!   first on, `seats` and `endings` list;
//! - `events`: everything that changed the arena, in order ([`Event`]);
//! - `games`: every finished game, numbered across the arena, as its
//!   journal line. A batch's games go in with its `finished` event in one
//!   transaction, so a game counts only once it is committed, and once;
//! - `forfeits`: per forfeited game, the bot's last lines exchanged before
//!   it (from the batch's logs, which go with the batch's folder), kept
//!   with the batch's games. Arenas made before it get it when opened;
//! - `seasons`: each closed season's table and ratings, as JSON
//!   ([`super::seasons`]), kept with the batch that closed it. Arenas
//!   made before it get it when opened;
//! - `seats` and `endings`: each game listed under the bots that played
//!   it, and by its result, termination and plies, written with the
//!   games ([`games`]). They came with layout 2: an arena of layout 1
//!   gets them, filled, when this ladder first opens it, and a
//!   ladder that reads layout 1 refuses the arena from then on (one that
//!   was running already may still record games: they are listed when
//!   this ladder next opens the arena).

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::wal;
use crate::core::error::{Error, Result};

mod games;
pub use games::{GameRow, Wanted};

/// The database's file in an arena's folder.
pub const FILE: &str = "arena.db";
/// The layout of the database this ladder writes.
const SCHEMA: &str = "2";
/// The most finished games read at once, by a catch-up with the games
/// (the table's, the seasons') and a replay's check of its games.
pub const PAGE: u64 = 4096;
/// The tables added to the first layout, made when an older arena opens.
const ADDED: &str = "CREATE TABLE IF NOT EXISTS forfeits (number INTEGER NOT NULL,
                         bot TEXT NOT NULL, lines TEXT NOT NULL);
                     CREATE TABLE IF NOT EXISTS seasons (number INTEGER PRIMARY KEY,
                         data TEXT NOT NULL);";

/// One change to an arena, in the order of the event log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A bot version joined: `bot` is `name@version`; `spec` its `[[bot]]`
    /// table (TOML, paths relative to the arena's folder). A candidate
    /// plays the pool (or the version `against`) under the arena's SPRT
    /// until the test decides, then waits to be promoted or rejected.
    Added {
        bot: String,
        name: String,
        version: u32,
        spec: String,
        candidate: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        against: Option<String>,
    },
    /// A bot version stopped playing; its games stay.
    Retired { bot: String },
    /// A candidate joined the pool; the older versions of its bot retired.
    Promoted { bot: String },
    /// A candidate was turned down: it retired.
    Rejected { bot: String },
    /// A batch was chosen: its games (first seat first), numbered from `first`.
    Batch {
        number: u64,
        first: u64,
        games: Vec<[String; 2]>,
    },
    /// A batch's games are in the `games` table.
    Finished { number: u64 },
}

/// An open arena database.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    /// How large the database's log may grow before a batch's end empties
    /// it ([`wal::LIMIT`]).
    log_limit: u64,
}

/// How long a read or a write waits for another connection's lock.
const BUSY_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

impl Store {
    /// Makes the database of a new arena in `dir` with `meta` settings;
    /// refuses a folder that holds an arena already.
    pub fn create(dir: &Path, meta: &[(&str, String)]) -> Result<Store> {
        let path = dir.join(FILE);
        if path.exists() {
            return Err(Error::Usage(format!(
                "{} holds an arena already",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(Error::io("creating", dir))?;
        let mut store = Store::connect(&path)?;
        let fail = |e| sql_error(&path, e);
        let tx = store.conn.transaction().map_err(fail)?;
        tx.execute_batch(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
             CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT, data TEXT NOT NULL);
             CREATE TABLE games (number INTEGER PRIMARY KEY, batch INTEGER NOT NULL,
                                 record TEXT NOT NULL, finished INTEGER);",
        )
        .map_err(fail)?;
        tx.execute_batch(ADDED).map_err(fail)?;
        tx.execute_batch(games::LISTS).map_err(fail)?;
        tx.execute_batch(games::INDEXES).map_err(fail)?;
        let layout = [("schema", SCHEMA.to_string()), ("listed", "0".to_string())];
        for (key, value) in meta.iter().chain(&layout) {
            tx.execute("INSERT INTO meta VALUES (?1, ?2)", params![key, value])
                .map_err(fail)?;
        }
        tx.commit().map_err(fail)?;
        Ok(store)
    }

    /// Opens the arena in `dir`, checking that it is one this ladder wrote.
    pub fn open(dir: &Path) -> Result<Store> {
        let path = dir.join(FILE);
        if !path.is_file() {
            return Err(Error::Usage(format!(
                "{} is not an arena (no {FILE}); make one with `ladder arena init`",
                dir.display()
            )));
        }
        let mut store = Store::connect(&path)?;
        let schema = store.meta("schema")?;
        if schema != "1" && schema != SCHEMA {
            return Err(store.damaged(format!(
                "made by another ladder (layout {schema}, this ladder reads {SCHEMA})"
            )));
        }
        store.list_unlisted()?;
        store.conn.execute_batch(ADDED).map_err(store.fail())?;
        // arenas made before games kept their time get the column, empty
        let timed: bool = store
            .conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM pragma_table_info('games') WHERE name = 'finished')",
                [],
                |r| r.get(0),
            )
            .map_err(store.fail())?;
        if !timed {
            store
                .conn
                .execute_batch("ALTER TABLE games ADD COLUMN finished INTEGER")
                .map_err(store.fail())?;
        }
        Ok(store)
    }

    fn connect(path: &Path) -> Result<Store> {
        let fail = |e| sql_error(path, e);
        let conn = Connection::open(path).map_err(fail)?;
        // one writer at a time, readers alongside; a writer waits its turn
        conn.busy_timeout(BUSY_WAIT).map_err(fail)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(fail)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(fail)?;
        Ok(Store {
            conn,
            path: path.to_path_buf(),
            log_limit: wal::LIMIT,
        })
    }

    fn fail(&self) -> impl Fn(rusqlite::Error) -> Error + '_ {
        |e| sql_error(&self.path, e)
    }

    /// The error of a database whose contents say `message` is wrong: it
    /// names the database's file.
    pub fn damaged(&self, message: String) -> Error {
        Error::Store {
            path: self.path.clone(),
            message,
        }
    }

    /// The database's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `decide`, which reads the store (the log, the finished games),
    /// and appends the event it returns, in one transaction: no other
    /// process's event comes between what it read and what it wrote.
    pub fn decide(
        &mut self,
        decide: impl FnOnce(&Store) -> Result<Option<Event>>,
    ) -> Result<Option<Event>> {
        let path = self.path.clone();
        let fail = |e| sql_error(&path, e);
        self.conn.execute_batch("BEGIN IMMEDIATE").map_err(fail)?;
        let result = (|| {
            let decided = decide(self)?;
            if let Some(event) = &decided {
                self.append(event)?;
            }
            Ok(decided)
        })();
        let end = if result.is_ok() { "COMMIT" } else { "ROLLBACK" };
        self.conn.execute_batch(end).map_err(fail)?;
        result
    }

    /// The setting `key` of `meta`.
    pub fn meta(&self, key: &str) -> Result<String> {
        self.meta_if(key)?
            .ok_or_else(|| self.damaged(format!("no `{key}` setting")))
    }

    /// The setting `key` of `meta`, if the arena has one (a setting added
    /// after an arena was made).
    pub fn meta_if(&self, key: &str) -> Result<Option<String>> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .map_err(self.fail())
    }

    /// The game's own name for people: a GDL game's description (`nim`)
    /// where [`Store::meta`]`("game")` gives its kind (`gdl`). Arenas made
    /// before the title was kept show the kind.
    pub fn title(&self) -> Result<String> {
        match self.meta_if("title")? {
            Some(title) => Ok(title),
            None => self.meta("game"),
        }
    }

    /// Appends `event` to the log; its number in the log.
    pub fn append(&self, event: &Event) -> Result<u64> {
        let data = serde_json::to_string(event).expect("events serialize");
        self.conn
            .execute("INSERT INTO events (data) VALUES (?1)", [data])
            .map_err(self.fail())?;
        Ok(self.conn.last_insert_rowid() as u64)
    }

    /// Appends `events` together: a reader sees all of them or none, and a
    /// failure leaves none.
    pub fn append_all(&self, events: &[Event]) -> Result<()> {
        let tx = self.conn.unchecked_transaction().map_err(self.fail())?;
        for event in events {
            let data = serde_json::to_string(event).expect("events serialize");
            tx.execute("INSERT INTO events (data) VALUES (?1)", [data])
                .map_err(self.fail())?;
        }
        tx.commit().map_err(self.fail())
    }

    /// Every event, in order, each checked.
    pub fn events(&self) -> Result<Vec<(u64, Event)>> {
        self.events_after(0, u64::MAX)
    }

    /// The events after event `seq`, in order, at most `most`, each checked.
    pub fn events_after(&self, seq: u64, most: u64) -> Result<Vec<(u64, Event)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT seq, data FROM events WHERE seq > ?1 ORDER BY seq LIMIT ?2")
            .map_err(self.fail())?;
        let rows = stmt
            .query_map([seq as i64, i64::try_from(most).unwrap_or(-1)], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
            })
            .map_err(self.fail())?;
        let mut events = Vec::new();
        for row in rows {
            let (seq, data) = row.map_err(self.fail())?;
            let event = serde_json::from_str(&data)
                .map_err(|e| self.damaged(format!("event {seq} is not an event: {e}")))?;
            events.push((seq as u64, event));
        }
        Ok(events)
    }

    /// Records batch `number`'s games, its forfeits' last lines (game,
    /// bot, lines), the seasons it closes (number, JSON) and its
    /// `finished` event at once; nothing if the batch was recorded already.
    pub fn finish_batch(
        &mut self,
        number: u64,
        games: &[(u64, String)],
        forfeits: &[(u64, String, String)],
        seasons: &[(u64, String)],
    ) -> Result<()> {
        let done = Event::Finished { number };
        let data = serde_json::to_string(&done).expect("events serialize");
        let path = self.path.clone();
        let fail = |e| sql_error(&path, e);
        // the write lock from the start: a transaction that reads first and
        // writes after gets `database is locked` at once, without waiting,
        // when another process (an `arena add`, an upload) wrote meanwhile
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(fail)?;
        // its games and its event are written together: the first game's
        // row (found by its number) says whether the batch is recorded,
        // without the scan of the whole log that looking for the event is
        let recorded: bool = match games.first() {
            Some((first, _)) => tx.query_row(
                "SELECT EXISTS (SELECT 1 FROM games WHERE number = ?1)",
                [*first as i64],
                |r| r.get(0),
            ),
            None => tx.query_row(
                "SELECT EXISTS (SELECT 1 FROM events WHERE data = ?1)",
                [&data],
                |r| r.get(0),
            ),
        }
        .map_err(fail)?;
        if recorded {
            return Ok(());
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()) as i64;
        for (n, record) in games {
            tx.execute(
                "INSERT INTO games (number, batch, record, finished) VALUES (?1, ?2, ?3, ?4)",
                params![*n as i64, number as i64, record, now],
            )
            .map_err(fail)?;
            games::list_game(&tx, &path, *n, record)?;
        }
        if let (Some((first, _)), Some((last, _))) = (games.first(), games.last()) {
            // the count of games listed moves on only from where it was: a
            // gap an older ladder left is listed at the next opening
            tx.execute(
                "UPDATE meta SET value = ?1 WHERE key = 'listed' AND value = ?2",
                [(last + 1).to_string(), first.to_string()],
            )
            .map_err(fail)?;
        }
        for (n, bot, lines) in forfeits {
            tx.execute(
                "INSERT INTO forfeits (number, bot, lines) VALUES (?1, ?2, ?3)",
                params![*n as i64, bot, lines],
            )
            .map_err(fail)?;
        }
        for (n, data) in seasons {
            tx.execute(
                "INSERT INTO seasons (number, data) VALUES (?1, ?2)",
                params![*n as i64, data],
            )
            .map_err(fail)?;
        }
        tx.execute("INSERT INTO events (data) VALUES (?1)", [data])
            .map_err(fail)?;
        tx.commit().map_err(fail)?;
        wal::keep_small(&self.conn, &self.path, self.log_limit, BUSY_WAIT);
        Ok(())
    }

    /// A smaller log limit, for tests of the log's size.
    #[cfg(test)]
    pub fn set_log_limit(&mut self, bytes: u64) {
        self.log_limit = bytes;
    }

    /// The closed seasons from season `number` on, in order, at most
    /// `most` of them: each one's number and JSON.
    pub fn seasons(&self, number: u64, most: u64) -> Result<Vec<(u64, String)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT number, data FROM seasons WHERE number >= ?1 ORDER BY number LIMIT ?2")
            .map_err(self.fail())?;
        let [number, most] = [number, most].map(|n| i64::try_from(n).unwrap_or(i64::MAX));
        let rows = stmt
            .query_map([number, most], |r| {
                Ok((r.get::<_, i64>(0)? as u64, r.get(1)?))
            })
            .map_err(self.fail())?;
        rows.collect::<Result<_, _>>().map_err(self.fail())
    }

    /// How many seasons are closed (they are numbered from 1 without gaps).
    pub fn seasons_closed(&self) -> Result<u64> {
        self.conn
            .query_row("SELECT COALESCE(MAX(number), 0) FROM seasons", [], |r| {
                r.get::<_, i64>(0)
            })
            .map(|n| n as u64)
            .map_err(self.fail())
    }

    /// The last lines `bot` exchanged before each of its forfeits, by game.
    pub fn forfeit_lines(&self, bot: &str) -> Result<Vec<(u64, String)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT number, lines FROM forfeits WHERE bot = ?1 ORDER BY number")
            .map_err(self.fail())?;
        let rows = stmt
            .query_map([bot], |r| Ok((r.get::<_, i64>(0)? as u64, r.get(1)?)))
            .map_err(self.fail())?;
        rows.collect::<Result<_, _>>().map_err(self.fail())
    }

    /// How far the arena has come: its last event's number and the number
    /// of its finished games (a page reloads its data when either moves).
    pub fn progress(&self) -> Result<(u64, u64)> {
        self.conn
            .query_row(
                "SELECT (SELECT COALESCE(MAX(seq), 0) FROM events),
                        (SELECT COALESCE(MAX(number) + 1, 0) FROM games)",
                [],
                |r| Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64)),
            )
            .map_err(self.fail())
    }

    /// `read` over one snapshot of the database: what another process
    /// commits meanwhile is not seen half.
    pub fn snapshot<T>(&self, read: impl FnOnce(&Store) -> Result<T>) -> Result<T> {
        self.conn.execute_batch("BEGIN").map_err(self.fail())?;
        let out = read(self);
        let _ = self.conn.execute_batch("COMMIT");
        out
    }

    /// Lets go of the snapshot [`Store::snapshot`] holds and takes a new
    /// one, between the pages of a long read of finished games (which
    /// never change), so the log is checkpointed meanwhile ([`wal`]).
    pub fn renew(&self) -> Result<()> {
        if self.conn.is_autocommit() {
            return Ok(());
        }
        self.conn
            .execute_batch("COMMIT; BEGIN")
            .map_err(self.fail())
    }
}

/// An error of the database at `path`, as ladder says it: bytes that are
/// not what ladder wrote (a value of the wrong type or not UTF-8, a file
/// SQLite finds corrupt) make the database damaged, in those words.
fn sql_error(path: &Path, e: rusqlite::Error) -> Error {
    use rusqlite::{Error as E, ErrorCode};
    let damaged = match &e {
        E::FromSqlConversionFailure(..) | E::InvalidColumnType(..) | E::Utf8Error(..) => true,
        E::SqliteFailure(f, _) => {
            matches!(f.code, ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase)
        }
        _ => false,
    };
    Error::Store {
        path: path.to_path_buf(),
        message: if damaged {
            format!("the database is damaged (restore it from a copy): {e}")
        } else {
            e.to_string()
        },
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    /// A game's record, `{}` for its number, as far as the store reads it.
    const ENDED: &str = r#"{"index":{},"seats":["a@1","a@1"],"result":"draw","termination":{"kind":"normal"},"plies":0,"moves":[]}"#;

    /// Readers one after another, each holding its snapshot a moment, as
    /// a server's clients do: the log stays near its limit, where SQLite
    /// alone never found a moment to start it over and it grew with every
    /// batch.
    #[test]
    fn the_log_stays_small_under_readers_that_never_all_stop() {
        use std::sync::{
            atomic::{AtomicBool, Ordering},
            Arc,
        };
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::create(dir.path(), &[("game", "coordination".into())]).unwrap();
        store.set_log_limit(1 << 20);
        let stop = Arc::new(AtomicBool::new(false));
        let readers: Vec<_> = (0..2u64)
            .map(|k| {
                let (dir, stop) = (dir.path().to_path_buf(), Arc::clone(&stop));
                std::thread::spawn(move || {
                    let reader = Store::open(&dir).unwrap();
                    // the two take turns, overlapping: always one reading
                    std::thread::sleep(std::time::Duration::from_millis(5 * k));
                    while !stop.load(Ordering::Relaxed) {
                        reader
                            .snapshot(|s| {
                                s.progress()?;
                                std::thread::sleep(std::time::Duration::from_millis(10));
                                Ok(())
                            })
                            .unwrap();
                    }
                })
            })
            .collect();
        let moves = format!("\"moves\":\"{}\"", "x".repeat(100_000));
        let record = ENDED.replace("{}", "0").replace("\"moves\":[]", &moves);
        let log = dir.path().join(format!("{FILE}-wal"));
        let mut largest = 0;
        for n in 0..100u64 {
            store
                .finish_batch(n, &[(n, record.clone())], &[], &[])
                .unwrap();
            largest = largest.max(std::fs::metadata(&log).map_or(0, |m| m.len()));
        }
        stop.store(true, Ordering::Relaxed);
        for r in readers {
            r.join().unwrap();
        }
        // 100 batches of 100 kB: 10 MB written, the log at most its limit
        // and a batch
        assert!(largest < 2 << 20, "the log grew to {largest} bytes");
        assert_eq!(store.games().unwrap().len(), 100);
    }

    #[test]
    fn events_appended_together_are_kept_all_or_none() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::create(dir.path(), &[("game", "coordination".into())]).unwrap();
        let retired = |bot: &str| Event::Retired { bot: bot.into() };
        store.append_all(&[retired("a@1"), retired("b@1")]).unwrap();
        assert_eq!(store.events().unwrap().len(), 2);
        // the second insert fails: the first is not kept either
        store
            .conn
            .execute_batch(
                "CREATE TRIGGER refuse BEFORE INSERT ON events WHEN NEW.data LIKE '%d@1%'
                 BEGIN SELECT RAISE(ABORT, 'refused'); END;",
            )
            .unwrap();
        assert!(store.append_all(&[retired("c@1"), retired("d@1")]).is_err());
        let kept: Vec<_> = store
            .events()
            .unwrap()
            .into_iter()
            .map(|(_, e)| e)
            .collect();
        assert_eq!(kept, [retired("a@1"), retired("b@1")]);
    }

    #[test]
    fn values_that_are_not_what_ladder_wrote_say_the_database_is_damaged() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::create(dir.path(), &[("game", "coordination".into())]).unwrap();
        store
            .conn
            .execute(
                "INSERT INTO games VALUES (0, 0, CAST(x'ff' AS TEXT), NULL)",
                [],
            )
            .unwrap();
        let e = store.games().unwrap_err().to_string();
        assert!(e.contains("arena.db"), "{e}");
        assert!(e.contains("the database is damaged"), "{e}");
        drop(store);
        for file in ["arena.db-wal", "arena.db-shm"] {
            let _ = std::fs::remove_file(dir.path().join(file));
        }
        std::fs::write(dir.path().join("arena.db"), [b'x'; 4096]).unwrap();
        let Err(e) = Store::open(dir.path()) else {
            panic!("a file of x's opened as an arena");
        };
        let e = e.to_string();
        assert!(e.contains("the database is damaged"), "{e}");
    }

    #[test]
    fn events_and_games_round_trip_and_a_batch_is_recorded_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::create(dir.path(), &[("game", "coordination".into())]).unwrap();
        assert!(Store::create(dir.path(), &[]).is_err());
        let added = Event::Added {
            bot: "a@1".into(),
            name: "a".into(),
            version: 1,
            spec: "name = \"a@1\"\nbuiltin = \"left\"\n".into(),
            candidate: false,
            against: None,
        };
        assert_eq!(store.append(&added).unwrap(), 1);
        let games = vec![(0, ENDED.replace("{}", "0")), (1, ENDED.replace("{}", "1"))];
        store.finish_batch(0, &games, &[], &[]).unwrap();
        store.finish_batch(0, &games, &[], &[]).unwrap();
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.meta("game").unwrap(), "coordination");
        // an arena made before the title was kept is called by its kind
        assert_eq!(store.title().unwrap(), "coordination");
        assert_eq!(store.meta_if("title").unwrap(), None);
        let events: Vec<Event> = store.events().unwrap().into_iter().map(|e| e.1).collect();
        assert_eq!(events, [added, Event::Finished { number: 0 }]);
        assert_eq!(store.games().unwrap().len(), 2);
        assert!(Store::open(&dir.path().join("none")).is_err());
    }
}
