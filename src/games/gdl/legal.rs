//! A role's legal moves, kept as the list of move rules that hold, so that
//! asking for them costs one step per legal move.
//!
//! In most games a `legal` proposition is read by no rule, and its rules are
//! the bulk of a description. Counting them as the other rules are counted
//! ([`super::machine`]) makes every change of a literal that many of them
//! share, such as whose turn it is, touch every one of them: breakthrough's
//! 336 move rules all read `(true (control ?p))`, about 700 updates a turn.
//! Here each such rule has a **gate**, the literal its role's move rules
//! share most: the gate is left out of its count, and the rules whose other
//! literals hold are listed, per gate, as the counts change. The legal moves
//! are the listed rules of the gates that hold. `legal` propositions that
//! other rules read, or that belong to a recursive group, keep their
//! counted value; static ones are constant.

use std::collections::HashMap;

/// A proposition's number (machine.rs's).
type Prop = u32;

/// A literal: its proposition and whether it is positive, as `prop << 1 | positive`.
pub type Literal = u32;

/// The words of the bit set of moves kept on the stack: roles with up to
/// 1,024 moves.
const BITS: usize = 16;

/// Whether literal `lit` holds in `vals`.
pub fn holds(lit: Literal, vals: &[bool]) -> bool {
    vals[(lit >> 1) as usize] == (lit & 1 == 1)
}

/// One role's legal moves, by move index.
#[derive(Clone, Debug, Default)]
pub struct Legal {
    /// Moves whose static `legal` proposition holds.
    always: Vec<usize>,
    /// Moves whose `legal` proposition is counted (other rules read it).
    counted: Vec<(usize, Prop)>,
    /// Whether each move's legality comes from its listed rules.
    listed: Vec<bool>,
    /// The role's gates (`None`: rules with no literal shared with others)
    /// and the number of each one's list in [`Lists`].
    gates: Vec<(Option<Literal>, u32)>,
}

/// A listed move rule: its move, and the rest of its literals.
pub struct MoveRule {
    pub role: usize,
    pub mv: usize,
    pub lits: Vec<Literal>,
}

/// How [`Legal::build`] divides the move rules: each role's [`Legal`], and
/// per rule, its list and the literals to count (the gate left out).
pub struct Built {
    pub legal: Vec<Legal>,
    /// Per move rule: its list's number and the literals it counts.
    pub counted_lits: Vec<(u32, Vec<Literal>)>,
    pub lists: usize,
}

impl Legal {
    /// The legal moves of `moves.len()` roles (each with `moves[r]` moves),
    /// given the moves whose static `legal` holds, those whose `legal` is
    /// counted, and the rules of the rest.
    pub fn build(
        moves: &[usize],
        always: Vec<Vec<usize>>,
        counted: Vec<Vec<(usize, Prop)>>,
        rules: &[MoveRule],
    ) -> Built {
        let mut legal: Vec<Legal> = always
            .into_iter()
            .zip(counted)
            .zip(moves)
            .map(|((always, counted), &n)| Legal {
                always,
                counted,
                listed: vec![false; n],
                gates: Vec::new(),
            })
            .collect();
        // how many of its role's move rules share each literal
        let mut shared: HashMap<(usize, Literal), usize> = HashMap::new();
        for r in rules {
            for &l in &r.lits {
                *shared.entry((r.role, l)).or_default() += 1;
            }
        }
        let mut lists: HashMap<(usize, Option<Literal>), u32> = HashMap::new();
        let mut counted_lits = Vec::with_capacity(rules.len());
        for r in rules {
            legal[r.role].listed[r.mv] = true;
            let gate = r
                .lits
                .iter()
                .copied()
                .filter(|&l| shared[&(r.role, l)] > 1)
                .max_by_key(|&l| (shared[&(r.role, l)], std::cmp::Reverse(l)));
            let next = lists.len() as u32;
            let list = *lists.entry((r.role, gate)).or_insert_with(|| {
                legal[r.role].gates.push((gate, next));
                next
            });
            let rest = r.lits.iter().copied().filter(|&l| Some(l) != gate);
            counted_lits.push((list, rest.collect()));
        }
        Built {
            legal,
            counted_lits,
            lists: lists.len(),
        }
    }

    /// Whether move `m`'s legality comes from its listed rules (else it is
    /// the value of its `legal` proposition).
    pub fn is_listed(&self, m: usize) -> bool {
        self.listed[m]
    }

    /// Calls `f` with each legal move (a move may come more than once)
    /// until it returns true; whether it did.
    fn each(
        &self,
        vals: &[bool],
        listed: &Lists,
        rule_move: &[u32],
        mut f: impl FnMut(usize) -> bool,
    ) -> bool {
        for &m in &self.always {
            if f(m) {
                return true;
            }
        }
        for &(m, p) in &self.counted {
            if vals[p as usize] && f(m) {
                return true;
            }
        }
        for &(gate, list) in &self.gates {
            if gate.is_none_or(|g| holds(g, vals)) {
                for &k in &listed.lists[list as usize] {
                    if f(rule_move[k as usize] as usize) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The legal moves' indices, ascending, into `out`; `rule_move` gives
    /// each move rule's move.
    pub fn moves(&self, vals: &[bool], listed: &Lists, rule_move: &[u32], out: &mut Vec<usize>) {
        out.clear();
        if self.listed.len() <= 64 * BITS {
            // a bit a move on the stack: ascending and once each, unsorted
            let mut bits = [0u64; BITS];
            self.each(vals, listed, rule_move, |m| {
                bits[m / 64] |= 1 << (m % 64);
                false
            });
            for (w, &word) in bits[..self.listed.len().div_ceil(64)].iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    out.push(w * 64 + word.trailing_zeros() as usize);
                    word &= word - 1;
                }
            }
        } else {
            self.each(vals, listed, rule_move, |m| {
                out.push(m);
                false
            });
            out.sort_unstable();
            out.dedup();
        }
    }

    /// Whether a move is legal.
    pub fn any(&self, vals: &[bool], listed: &Lists, rule_move: &[u32]) -> bool {
        self.each(vals, listed, rule_move, |_| true)
    }
}

/// Numbered items in numbered lists, each item in one list at most, added
/// and removed in constant time, in no particular order. A state's lists of
/// move rules that hold, one per gate, are one; the state's base
/// propositions that the next state changes are another (machine.rs).
#[derive(Clone, Debug)]
pub struct Lists {
    lists: Vec<Vec<u32>>,
    /// Per move rule, its place in its list (`u32::MAX`: not listed).
    place: Vec<u32>,
}

impl Lists {
    /// Empty lists for `rules` move rules in `lists` lists.
    pub fn new(lists: usize, rules: usize) -> Lists {
        Lists {
            lists: vec![Vec::new(); lists],
            place: vec![u32::MAX; rules],
        }
    }

    /// The items of list `list`.
    pub fn list(&self, list: u32) -> &[u32] {
        &self.lists[list as usize]
    }

    /// Whether item `k` is in a list.
    pub fn contains(&self, k: u32) -> bool {
        self.place[k as usize] != u32::MAX
    }

    /// Adds item `k` to list `list` (`on`), or removes it from that list,
    /// where it is. (Move rule `k` of gate `list` holds, or no longer does.)
    pub fn set(&mut self, k: u32, list: u32, on: bool) {
        let list = &mut self.lists[list as usize];
        if on {
            self.place[k as usize] = list.len() as u32;
            list.push(k);
        } else {
            let at = std::mem::replace(&mut self.place[k as usize], u32::MAX) as usize;
            list.swap_remove(at);
            if let Some(&moved) = list.get(at) {
                self.place[moved as usize] = at as u32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subset of values of four propositions, the lists filled as the
    /// machine fills them: the moves are exactly those with a rule whose
    /// literals all hold.
    #[test]
    fn the_listed_rules_of_the_gates_that_hold_are_exactly_the_legal_moves() {
        let pos = |p: u32| p << 1 | 1;
        let neg = |p: u32| p << 1;
        let rules = [
            (0, vec![pos(0), pos(1)]),
            (1, vec![pos(0), neg(2)]),
            (1, vec![pos(3)]),
            (2, vec![pos(0)]),
            (3, vec![neg(0), pos(1), pos(2), neg(3)]),
            (4, vec![pos(1), pos(0)]),
        ];
        let move_rules: Vec<MoveRule> = rules
            .iter()
            .map(|(mv, lits)| MoveRule {
                role: 0,
                mv: *mv,
                lits: lits.clone(),
            })
            .collect();
        let built = Legal::build(&[7], vec![vec![5]], vec![vec![(6, 3)]], &move_rules);
        let legal = &built.legal[0];
        assert!(legal.is_listed(0) && !legal.is_listed(5) && !legal.is_listed(6));
        assert!(
            built.counted_lits.iter().all(|(_, l)| !l.contains(&pos(0))),
            "the literal most rules share is the gate"
        );
        let rule_move: Vec<u32> = rules.iter().map(|(m, _)| *m as u32).collect();
        for bits in 0..16u32 {
            let vals: Vec<bool> = (0..4).map(|p| bits >> p & 1 == 1).collect();
            let mut listed = Lists::new(built.lists, rules.len());
            for (k, (list, lits)) in built.counted_lits.iter().enumerate() {
                if lits.iter().all(|&l| holds(l, &vals)) {
                    listed.set(k as u32, *list, true);
                }
            }
            let mut expected: Vec<usize> = rules
                .iter()
                .filter(|(_, lits)| lits.iter().all(|&l| holds(l, &vals)))
                .map(|(m, _)| *m)
                .chain([5])
                .chain(vals[3].then_some(6))
                .collect();
            expected.sort_unstable();
            expected.dedup();
            let mut out = Vec::new();
            legal.moves(&vals, &listed, &rule_move, &mut out);
            assert_eq!(out, expected, "values {vals:?}");
            assert!(legal.any(&vals, &listed, &rule_move));
        }
    }

    #[test]
    fn roles_of_every_size_list_their_moves_ascending_once_each() {
        // a bit set on the stack (up to 1,024 moves), sorted (more)
        for moves in [200, 600, 2000] {
            let (last, mid) = (moves - 1, moves / 2 + 3);
            let rules: Vec<MoveRule> = [(last, 1), (7, 1), (last, 3), (mid, 1), (70, 3)]
                .into_iter()
                .map(|(mv, lit)| MoveRule {
                    role: 0,
                    mv,
                    lits: vec![lit],
                })
                .collect();
            let built = Legal::build(&[moves], vec![vec![3]], vec![vec![]], &rules);
            let rule_move: Vec<u32> = rules.iter().map(|r| r.mv as u32).collect();
            let mut lists = Lists::new(built.lists, rules.len());
            for k in 0..rules.len() as u32 {
                lists.set(k, built.counted_lits[k as usize].0, true);
            }
            let mut out = Vec::new();
            built.legal[0].moves(&[true, true], &lists, &rule_move, &mut out);
            assert_eq!(out, [3, 7, 70, mid, last], "{moves} moves");
        }
    }

    #[test]
    fn a_rule_leaves_its_list_and_the_others_keep_their_places() {
        let mut listed = Lists::new(1, 3);
        for k in 0..3 {
            listed.set(k, 0, true);
        }
        listed.set(0, 0, false);
        assert_eq!(listed.lists[0], [2, 1]);
        listed.set(1, 0, false);
        listed.set(2, 0, false);
        assert!(listed.lists[0].is_empty());
        assert!(listed.place.iter().all(|&p| p == u32::MAX));
    }
}
