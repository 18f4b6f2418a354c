//! The arena database's write-ahead log (`arena.db-wal`), kept from
//! growing without end.
//!
//! SQLite starts its log over only at a moment no read holds a part of
//! it. A server whose clients kept reading (filtered games, page after
//! page, several at once) left it no such moment, and the log grew by
//! every game the arena recorded: a gigabyte in 30 s against an arena
//! playing 50,000 games a second. So once the log passes [`LIMIT`], the end
//! of a batch (the one writer of games) waits a moment for the reads under
//! way, copies the log into the database and empties it. An arena left
//! alone keeps its log far below the limit, and never waits.

use std::{path::Path, time::Duration};

use rusqlite::Connection;

/// How large the log may grow before a finished batch empties it.
pub const LIMIT: u64 = 64 << 20;

/// How long emptying the log waits for the reads under way: the batch's
/// games are recorded already, and a log not emptied now is by a later
/// batch's end. (Waiting as long as any lock, 30 s, sometimes waited all
/// of it with readers that kept coming.)
const WAIT: Duration = Duration::from_millis(200);

/// Empties the log of the database at `path`, through `conn` (the
/// writer's), once it holds more than `limit` bytes; `conn`'s busy timeout
/// is `busy` again after. Only the log's size depends on it, never what is
/// recorded. (`tests` in `store.rs` hold it to its limit under readers.)
pub fn keep_small(conn: &Connection, path: &Path, limit: u64, busy: Duration) {
    let mut log = path.as_os_str().to_owned();
    log.push("-wal");
    if std::fs::metadata(&log).is_ok_and(|m| m.len() > limit) {
        let _ = conn.busy_timeout(WAIT);
        let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        let _ = conn.busy_timeout(busy);
    }
}
