//! Lists of numbers, one per node `0..n`, kept in one buffer: a graph's
//! edges, a proposition's rules. A game like checkers has hundreds of
//! thousands of such lists, each a few numbers long: one allocation apiece
//! would cost more than the work done with them.

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

#[cfg(test)]
mod tests {
    use super::*;

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
