//! The hash maps and sets of loading a description: grounding interns
//! millions of terms and joins on tables keyed by small numbers, where std's
//! SipHash (made to resist crafted keys) costs a tenth of the time.
//! foldhash is fast and still seeded at random per process, as std's is, so
//! nothing may depend on the order of iteration (nothing did).

/// A hash map with foldhash's fast hasher.
pub type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// A hash set with foldhash's fast hasher.
pub type HashSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

/// The hash of a list of numbers (a term's or a ground rule's key) under
/// `state`: each number fed to the hasher alone, which for keys a few
/// numbers long costs less than hashing them as bytes.
pub fn hash_words(state: &foldhash::fast::RandomState, words: &[u32]) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = state.build_hasher();
    for &w in words {
        h.write_u32(w);
    }
    h.finish()
}
