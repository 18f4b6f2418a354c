//! The hash maps and sets of loading a description: grounding interns
//! millions of terms and joins on tables keyed by small numbers, where std's
//! SipHash (made to resist crafted keys) costs a tenth of the time.
//! foldhash is fast and still seeded at random per process, as std's is, so
//! nothing may depend on the order of iteration (nothing did).

/// A hash map with foldhash's fast hasher.
pub type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// A hash set with foldhash's fast hasher.
pub type HashSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

/// Lists of numbers (keys: a ground term, a ground rule), each kept once
/// and known by its number, given in the order first met. The keys sit one
/// after another in one buffer, found through a table of their numbers:
/// no allocation per key, and each number hashed as a word (for keys a few
/// numbers long, cheaper than hashing them as bytes).
#[derive(Clone, Debug)]
pub struct Interner {
    keys: Vec<u32>,
    /// Where each key starts in `keys`, and one more: the end.
    starts: Vec<u32>,
    table: hashbrown::HashTable<u32>,
    hasher: foldhash::fast::RandomState,
}

impl Default for Interner {
    fn default() -> Interner {
        Interner {
            keys: Vec::new(),
            starts: vec![0],
            table: Default::default(),
            hasher: Default::default(),
        }
    }
}

impl Interner {
    /// How many keys there are.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Key `i`.
    pub fn get(&self, i: u32) -> &[u32] {
        let i = i as usize;
        &self.keys[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// The number of `key`, if it is kept.
    pub fn find(&self, key: &[u32]) -> Option<u32> {
        let hash = hash_words(&self.hasher, key);
        self.table.find(hash, |&i| same(self.get(i), key)).copied()
    }

    /// The number of `key` (given it now if it is new), and whether it is
    /// new.
    pub fn intern(&mut self, key: &[u32]) -> (u32, bool) {
        let hash = hash_words(&self.hasher, key);
        if let Some(&i) = self.table.find(hash, |&i| same(self.get(i), key)) {
            return (i, false);
        }
        let i = self.len() as u32;
        self.keys.extend_from_slice(key);
        self.starts.push(self.keys.len() as u32);
        let Interner {
            keys,
            starts,
            table,
            hasher,
        } = self;
        table.insert_unique(hash, i, |&j| {
            let (s, e) = (starts[j as usize], starts[j as usize + 1]);
            hash_words(hasher, &keys[s as usize..e as usize])
        });
        (i, true)
    }
}

/// The hash of a list of numbers under `state`, each number fed to the
/// hasher alone.
fn hash_words(state: &foldhash::fast::RandomState, words: &[u32]) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = state.build_hasher();
    for &w in words {
        h.write_u32(w);
    }
    h.finish()
}

/// Whether two keys are the same (a loop: keys are a few numbers long,
/// shorter than a call to `memcmp` is worth).
#[inline]
fn same(a: &[u32], b: &[u32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_met_again_keeps_its_number() {
        let mut keys = Interner::default();
        assert_eq!(keys.intern(&[5, 1, 2]), (0, true));
        assert_eq!(
            keys.intern(&[5, 1, 2, 3]),
            (1, true),
            "a longer key is another"
        );
        assert_eq!(keys.intern(&[5, 1]), (2, true), "so is a shorter one");
        assert_eq!(keys.intern(&[]), (3, true), "and the empty key");
        assert_eq!(keys.intern(&[5, 1, 2]), (0, false));
        assert_eq!(keys.intern(&[5, 1]), (2, false));
        assert_eq!(keys.get(1), &[5, 1, 2, 3]);
        assert_eq!(keys.get(3), &[] as &[u32]);
        assert_eq!(keys.find(&[5, 1, 2, 3]), Some(1));
        assert_eq!(keys.find(&[5, 2]), None);
        assert_eq!(keys.len(), 4);
        // many keys: the table grows and still finds each
        for i in 0..10_000u32 {
            assert_eq!(keys.intern(&[i, 0, i + 1]), (4 + i, true));
        }
        for i in (0..10_000u32).rev() {
            assert_eq!(keys.intern(&[i, 0, i + 1]), (4 + i, false));
            assert_eq!(keys.get(4 + i), &[i, 0, i + 1]);
        }
    }
}
