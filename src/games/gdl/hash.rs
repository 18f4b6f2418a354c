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
/// numbers long, cheaper than hashing them as bytes). The table keeps half
/// of each key's hash beside its number, so growing it never reads a key
/// again (a grounding that makes millions of atoms spent a quarter of its
/// time doing that), and a key is compared only where that half matches.
///
/// An interner can be [`frozen`](Interner::frozen): its keys are then
/// shared, read-only, by every clone, which adds keys of its own numbered
/// after them. Reasoning state by state clones the store of the static
/// facts for every state, and a clone of a frozen interner copies no key.
#[derive(Clone, Debug)]
pub struct Interner {
    /// Keys numbered before this interner's own: `0..base_len`.
    base: Option<std::sync::Arc<Interner>>,
    base_len: u32,
    keys: Vec<u32>,
    /// Where each own key starts in `keys`, and one more: the end.
    starts: Vec<u32>,
    /// Own keys by hash: the low half of the key's hash above its number
    /// from 0 (add `base_len`); see [`spread`].
    table: hashbrown::HashTable<u64>,
    /// The base's hasher, so that a key is hashed once for both tables.
    hasher: foldhash::fast::RandomState,
}

impl Default for Interner {
    fn default() -> Interner {
        Interner {
            base: None,
            base_len: 0,
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
        self.base_len as usize + self.starts.len() - 1
    }

    /// Key `i`.
    #[inline]
    pub fn get(&self, i: u32) -> &[u32] {
        match i.checked_sub(self.base_len) {
            Some(own) => self.own(own),
            None => self.base.as_ref().expect("keys below base_len").get(i),
        }
    }

    /// Own key `i` (numbered from 0).
    #[inline]
    fn own(&self, i: u32) -> &[u32] {
        let i = i as usize;
        &self.keys[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// The number of `key`, if it is kept.
    pub fn find(&self, key: &[u32]) -> Option<u32> {
        self.find_hashed(hash_words(&self.hasher, key), key)
    }

    fn find_hashed(&self, hash: u64, key: &[u32]) -> Option<u32> {
        if let Some(i) = self.base.as_ref().and_then(|b| b.find_hashed(hash, key)) {
            return Some(i);
        }
        let half = hash as u32;
        self.table
            .find(spread(half), |&e| {
                (e >> 32) as u32 == half && same(self.own(e as u32), key)
            })
            .map(|&e| e as u32 + self.base_len)
    }

    /// The number of `key` (given it now if it is new), and whether it is
    /// new.
    pub fn intern(&mut self, key: &[u32]) -> (u32, bool) {
        let hash = hash_words(&self.hasher, key);
        if let Some(i) = self.find_hashed(hash, key) {
            return (i, false);
        }
        let i = (self.starts.len() - 1) as u32;
        self.keys.extend_from_slice(key);
        self.starts.push(self.keys.len() as u32);
        let half = hash as u32;
        self.table
            .insert_unique(spread(half), (half as u64) << 32 | i as u64, |&e| {
                spread((e >> 32) as u32)
            });
        (i + self.base_len, true)
    }

    /// This interner's keys, shared from now on: the interner returned has
    /// them all, under the same numbers, and clones of it copy none.
    pub fn frozen(self) -> Interner {
        let hasher = self.hasher.clone();
        let base_len = self.len() as u32;
        Interner {
            base: Some(std::sync::Arc::new(self)),
            base_len,
            hasher,
            ..Interner::default()
        }
    }
}

/// The table's hash of a key whose hash has `half` as its low half: that
/// half twice, so the bucket (the low bits) and the tag (the top seven)
/// both come from it, and the table can be grown from its entries alone.
#[inline]
fn spread(half: u32) -> u64 {
    (half as u64) << 32 | half as u64
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

    #[test]
    fn a_frozen_interners_clones_share_its_keys_and_number_their_own_after() {
        let mut keys = Interner::default();
        for i in 0..1_000u32 {
            keys.intern(&[i, i]);
        }
        let frozen = keys.frozen();
        assert_eq!(frozen.len(), 1_000);
        let (mut a, mut b) = (frozen.clone(), frozen.clone());
        // the shared keys keep their numbers in every clone
        assert_eq!(a.intern(&[7, 7]), (7, false));
        assert_eq!(b.find(&[999, 999]), Some(999));
        assert_eq!(a.get(500), &[500, 500]);
        // each clone numbers its own keys after them, apart from the other
        assert_eq!(a.intern(&[1, 2, 3]), (1_000, true));
        assert_eq!(a.intern(&[4]), (1_001, true));
        assert_eq!(b.intern(&[4]), (1_000, true));
        assert_eq!(a.intern(&[1, 2, 3]), (1_000, false));
        assert_eq!(a.get(1_001), &[4]);
        assert_eq!(b.get(1_000), &[4]);
        assert_eq!(b.find(&[1, 2, 3]), None);
        assert_eq!((a.len(), b.len(), frozen.len()), (1_002, 1_001, 1_000));
        // many own keys: the own table grows and still finds them and the base's
        for i in 0..5_000u32 {
            assert_eq!(b.intern(&[i, 0, 1]), (1_001 + i, true));
        }
        assert_eq!(b.intern(&[3, 3]), (3, false));
        assert_eq!(b.find(&[4_999, 0, 1]), Some(6_000));
        // frozen again: layers keep every number
        let twice = b.frozen();
        let mut c = twice.clone();
        assert_eq!(c.intern(&[4]), (1_000, false));
        assert_eq!(c.intern(&[2, 2]), (2, false));
        assert_eq!(c.intern(&[8, 8, 8]), (6_001, true));
        assert_eq!(c.get(6_001), &[8, 8, 8]);
    }
}
