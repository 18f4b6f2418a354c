//! Lists of numbers, one per node `0..n`, kept in one buffer: a graph's
//! edges, a proposition's rules. A game like checkers has hundreds of
//! thousands of such lists, each a few numbers long: one allocation apiece
//! would cost more than the work done with them. And a number for some of
//! the numbers `0..` (a fact's position, a constant's term, a term's
//! proposition), in a vector indexed by them, where a hash map would hash
//! dense keys.

/// A list of numbers for each node `0..len()`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lists {
    /// Where each node's list starts in `items`, and one more: the end.
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    /// The lists of `n` nodes, node `v`'s filled by `fill(v, list)`.
    pub fn build(n: usize, mut fill: impl FnMut(usize, &mut Vec<u32>)) -> Lists {
        let mut starts = Vec::with_capacity(n + 1);
        let mut items = Vec::new();
        for v in 0..n {
            starts.push(items.len() as u32);
            fill(v, &mut items);
        }
        starts.push(items.len() as u32);
        Lists { starts, items }
    }

    /// The lists of `n` nodes with `item` in `node`'s list for each
    /// `(node, item)` of `pairs`, in the order of `pairs`.
    pub fn group(n: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) -> Lists {
        let mut starts = vec![0u32; n + 1];
        for (v, _) in pairs.clone() {
            starts[v as usize + 1] += 1;
        }
        for v in 0..n {
            starts[v + 1] += starts[v];
        }
        let mut next = starts.clone();
        let mut items = vec![0; starts[n] as usize];
        for (v, item) in pairs {
            items[next[v as usize] as usize] = item;
            next[v as usize] += 1;
        }
        Lists { starts, items }
    }

    /// How many nodes there are.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Node `v`'s list (empty for a node past the last).
    pub fn of(&self, v: usize) -> &[u32] {
        match (self.starts.get(v), self.starts.get(v + 1)) {
            (Some(&a), Some(&b)) => &self.items[a as usize..b as usize],
            _ => &[],
        }
    }
}

/// A number for some keys `0..` (dense: ground terms, symbols), kept in a
/// vector indexed by the key; none for the others.
#[derive(Clone, Debug, Default)]
pub struct NumberMap {
    values: Vec<u32>,
}

/// In a [`NumberMap`], a key that has no number.
const ABSENT: u32 = u32::MAX;

impl NumberMap {
    /// `key`'s number, if it has one.
    #[inline]
    pub fn get(&self, key: u32) -> Option<u32> {
        self.values
            .get(key as usize)
            .copied()
            .filter(|&v| v != ABSENT)
    }

    /// Gives `key` the number `value` (not `u32::MAX`).
    pub fn set(&mut self, key: u32, value: u32) {
        debug_assert_ne!(value, ABSENT);
        let k = key as usize;
        if self.values.len() <= k {
            self.values.resize(k + 1, ABSENT);
        }
        self.values[k] = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_map_gives_back_what_was_set_and_none_elsewhere() {
        let mut m = NumberMap::default();
        assert_eq!(m.get(0), None);
        m.set(5, 0);
        m.set(2, 7);
        assert_eq!((m.get(5), m.get(2)), (Some(0), Some(7)));
        assert_eq!((m.get(3), m.get(6), m.get(1_000)), (None, None, None));
        m.set(5, 9);
        assert_eq!(m.get(5), Some(9));
    }

    #[test]
    fn built_lists_hold_what_each_node_was_given() {
        let l = Lists::build(3, |v, out| out.extend((0..v as u32).map(|i| i * 10)));
        assert_eq!(l.len(), 3);
        assert_eq!(l.of(0), &[] as &[u32]);
        assert_eq!(l.of(1), &[0]);
        assert_eq!(l.of(2), &[0, 10]);
        assert_eq!(l.of(3), &[] as &[u32], "a node past the last has none");
    }

    #[test]
    fn grouped_pairs_keep_their_order_within_a_node() {
        let pairs = [(2, 7), (0, 1), (2, 5), (0, 9), (2, 6)];
        let l = Lists::group(4, pairs.iter().copied());
        assert_eq!(l.of(0), &[1, 9]);
        assert_eq!(l.of(1), &[] as &[u32]);
        assert_eq!(l.of(2), &[7, 5, 6]);
        assert_eq!(l.of(3), &[] as &[u32]);
        assert_eq!(
            l,
            Lists::build(4, |v, out| out
                .extend(pairs.iter().filter(|p| p.0 == v as u32).map(|p| p.1)))
        );
    }
}
