//! Tables a bot computes once per process for each setting and shares with
//! every game and thread: the bidding solution and DP table, troops' and
//! armies' equilibria.

use std::sync::{Arc, Mutex, OnceLock};

/// The tables built so far, by key (the game parameters they depend on).
pub struct Cache<K, T> {
    tables: OnceLock<Mutex<Tables<K, T>>>,
}

type Tables<K, T> = Vec<(K, Arc<T>)>;

impl<K: PartialEq, T> Cache<K, T> {
    pub const fn new() -> Self {
        Cache {
            tables: OnceLock::new(),
        }
    }

    /// The table for `key`, built by `build` the first time it is asked for.
    /// Threads asking for the same table meanwhile wait for it.
    pub fn get(&self, key: K, build: impl FnOnce() -> T) -> Arc<T> {
        let mut tables = self
            .tables
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some((_, t)) = tables.iter().find(|(k, _)| *k == key) {
            return Arc::clone(t);
        }
        let t = Arc::new(build());
        tables.push((key, Arc::clone(&t)));
        t
    }
}

impl<K: PartialEq, T> Default for Cache<K, T> {
    fn default() -> Self {
        Cache::new()
    }
}
