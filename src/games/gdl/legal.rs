//! A role's legal moves, kept as the set of move rules that hold, so that
//! asking for them costs one step per legal move.
//!
//! In most games a `legal` proposition is read by no rule, and its rules are
//! the bulk of a description. Counting them as the other rules are counted
//! ([`super::machine`]) makes every change of a literal that many of them
//! share, such as whose turn it is, touch every one of them: breakthrough's
//! 336 move rules all read `(true (control ?p))`, about 700 updates a turn.
//! Here each such rule has a **gate**, the literal its role's move rules
//! share most: the gate is left out of its count, and the rules whose other
//! literals hold are kept as bits, a bit a rule, flipped as the counts
//! change. The move rules are numbered gate by gate and, within a gate, in
//! the order of their moves, so a gate's rules are one run of bits and
//! reading them in order gives its moves ascending. The legal moves are the
//! set bits of the gates that hold. `legal` propositions that other rules
//! read, or that belong to a recursive group, keep their counted value;
//! static ones are constant.

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
    /// The role's gates (`None`: rules with no literal shared with others),
    /// each with the numbers of its rules, `from..to`.
    gates: Vec<(Option<Literal>, u32, u32)>,
    /// Per gate, whether no two of its rules give one move.
    one_rule_a_move: Vec<bool>,
}

/// A listed move rule: its move, and the rest of its literals.
pub struct MoveRule {
    pub role: usize,
    pub mv: usize,
    pub lits: Vec<Literal>,
}

/// How [`Legal::build`] divides the move rules: each role's [`Legal`], and
/// the rules as numbered (gate by gate, by move within a gate).
pub struct Built {
    pub legal: Vec<Legal>,
    /// Per numbered rule: its index in the rules given, its move and the
    /// literals it counts (its gate left out).
    pub rules: Vec<(usize, u32, Vec<Literal>)>,
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
                one_rule_a_move: Vec::new(),
            })
            .collect();
        // how many of its role's move rules share each literal
        let mut shared: HashMap<(usize, Literal), usize> = HashMap::new();
        for r in rules {
            for &l in &r.lits {
                *shared.entry((r.role, l)).or_default() += 1;
            }
        }
        // each rule's gate, and the gates numbered in the order first met
        let mut gate_of = Vec::with_capacity(rules.len());
        let mut gates: HashMap<(usize, Option<Literal>), usize> = HashMap::new();
        for r in rules {
            legal[r.role].listed[r.mv] = true;
            let gate = r
                .lits
                .iter()
                .copied()
                .filter(|&l| shared[&(r.role, l)] > 1)
                .max_by_key(|&l| (shared[&(r.role, l)], std::cmp::Reverse(l)));
            let next = gates.len();
            gate_of.push((*gates.entry((r.role, gate)).or_insert(next), gate));
        }
        let mut order: Vec<usize> = (0..rules.len()).collect();
        order.sort_by_key(|&i| (gate_of[i].0, rules[i].mv));
        let mut numbered = Vec::with_capacity(rules.len());
        for (k, &i) in order.iter().enumerate() {
            let (r, gate) = (&rules[i], gate_of[i].1);
            let k = k as u32;
            let role = &mut legal[r.role];
            match role.gates.last_mut() {
                Some((g, _, to)) if *g == gate && *to == k => {
                    *to = k + 1;
                    let alone = numbered.last().is_none_or(|(_, mv, _)| *mv != r.mv as u32);
                    *role.one_rule_a_move.last_mut().expect("a gate") &= alone;
                }
                _ => {
                    role.gates.push((gate, k, k + 1));
                    role.one_rule_a_move.push(true);
                }
            }
            let rest = r.lits.iter().copied().filter(|&l| Some(l) != gate);
            numbered.push((i, r.mv as u32, rest.collect()));
        }
        Built {
            legal,
            rules: numbered,
        }
    }

    /// Whether move `m`'s legality comes from its listed rules (else it is
    /// the value of its `legal` proposition).
    pub fn is_listed(&self, m: usize) -> bool {
        self.listed[m]
    }

    /// Calls `f` with each legal move (a move may come more than once)
    /// until it returns true; whether it did. `held` has a bit for each
    /// numbered rule whose counted literals hold; `rule_move` gives its move.
    pub fn each(
        &self,
        vals: &[bool],
        held: &[u64],
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
        for &(gate, from, to) in &self.gates {
            if gate.is_none_or(|g| holds(g, vals))
                && each_bit(held, from, to, |k| f(rule_move[k as usize] as usize))
            {
                return true;
            }
        }
        false
    }

    /// The legal moves' indices, ascending, into `out`.
    pub fn moves(&self, vals: &[bool], held: &[u64], rule_move: &[u32], out: &mut Vec<usize>) {
        out.clear();
        let Some(g) = self.sole_gate(vals, held) else {
            return self.merged(vals, held, rule_move, out);
        };
        // one gate: its rules in order, their moves ascending (a move with
        // more than one rule that holds comes once)
        let (_, from, to) = self.gates[g];
        each_bit(held, from, to, |k| {
            let m = rule_move[k as usize] as usize;
            if out.last() != Some(&m) {
                out.push(m);
            }
            false
        });
    }

    /// The legal move [`Legal::moves`] would give at the index `pick`
    /// chooses from their number, where that can be told without listing
    /// them (one gate, one rule a move); `None` where it cannot, or where
    /// no move is legal.
    pub fn pick(
        &self,
        vals: &[bool],
        held: &[u64],
        rule_move: &[u32],
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<usize> {
        let g = self.sole_gate(vals, held)?;
        if !self.one_rule_a_move[g] {
            return None;
        }
        let (_, from, to) = self.gates[g];
        // the `n`th set bit, counted from 0
        let mut n = pick(count_bits(held, from, to));
        let mut k = None;
        each_bit(held, from, to, |bit| {
            if n == 0 {
                k = Some(bit);
                return true;
            }
            n -= 1;
            false
        });
        k.map(|k| rule_move[k as usize] as usize)
    }

    /// The role's one source of legal moves, where it has one: the gate
    /// that holds and has a rule that holds, when no other does and no move
    /// is always legal or counted.
    fn sole_gate(&self, vals: &[bool], held: &[u64]) -> Option<usize> {
        if !self.always.is_empty() || !self.counted.is_empty() {
            return None;
        }
        let mut open = self
            .gates
            .iter()
            .enumerate()
            .filter(|&(_, &(gate, from, to))| {
                gate.is_none_or(|g| holds(g, vals)) && each_bit(held, from, to, |_| true)
            });
        match (open.next(), open.next()) {
            (Some((g, _)), None) => Some(g),
            _ => None,
        }
    }

    /// The legal moves from every source, merged: ascending and once each.
    fn merged(&self, vals: &[bool], held: &[u64], rule_move: &[u32], out: &mut Vec<usize>) {
        if self.listed.len() <= 64 * BITS {
            // a bit a move on the stack: ascending and once each, unsorted
            let mut bits = [0u64; BITS];
            self.each(vals, held, rule_move, |m| {
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
            self.each(vals, held, rule_move, |m| {
                out.push(m);
                false
            });
            out.sort_unstable();
            out.dedup();
        }
    }

    /// Whether a move is legal.
    pub fn any(&self, vals: &[bool], held: &[u64], rule_move: &[u32]) -> bool {
        self.each(vals, held, rule_move, |_| true)
    }
}

/// The number of set bits of `bits` numbered `from..to`.
fn count_bits(bits: &[u64], from: u32, to: u32) -> usize {
    if from >= to {
        return 0;
    }
    let (first, last) = (from as usize / 64, (to - 1) as usize / 64);
    let mut n = 0;
    for (w, &word) in bits[first..=last].iter().enumerate() {
        n += masked(word, first + w, first, last, from, to).count_ones() as usize;
    }
    n
}

/// Word `w` of a run of bits `from..to` that spans words `first..=last`,
/// the bits outside the run cleared.
fn masked(word: u64, w: usize, first: usize, last: usize, from: u32, to: u32) -> u64 {
    let mut word = word;
    if w == first {
        word &= !0u64 << (from % 64);
    }
    if w == last {
        word &= !0u64 >> (63 - (to - 1) % 64);
    }
    word
}

/// Calls `f` with each set bit of `bits` numbered `from..to`, in order,
/// until it returns true; whether it did.
pub(super) fn each_bit(bits: &[u64], from: u32, to: u32, mut f: impl FnMut(u32) -> bool) -> bool {
    if from >= to {
        return false;
    }
    let (first, last) = (from as usize / 64, (to - 1) as usize / 64);
    for (w, &word) in bits[first..=last].iter().enumerate() {
        let w = first + w;
        let mut word = masked(word, w, first, last, from, to);
        while word != 0 {
            if f((w * 64) as u32 + word.trailing_zeros()) {
                return true;
            }
            word &= word - 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bits of the numbered rules whose counted literals hold in `vals`,
    /// as the machine keeps them.
    fn held(built: &Built, vals: &[bool]) -> Vec<u64> {
        let mut bits = vec![0u64; built.rules.len().div_ceil(64)];
        for (k, (_, _, lits)) in built.rules.iter().enumerate() {
            if lits.iter().all(|&l| holds(l, vals)) {
                bits[k / 64] |= 1 << (k % 64);
            }
        }
        bits
    }

    fn rule_move(built: &Built) -> Vec<u32> {
        built.rules.iter().map(|(_, mv, _)| *mv).collect()
    }

    /// Every subset of values of four propositions, the bits set as the
    /// machine sets them: the moves are exactly those with a rule whose
    /// literals all hold.
    #[test]
    fn the_held_rules_of_the_gates_that_hold_are_exactly_the_legal_moves() {
        let pos = |p: u32| p << 1 | 1;
        let neg = |p: u32| p << 1;
        let rules = [
            (4, vec![pos(1), pos(0)]),
            (1, vec![pos(0), neg(2)]),
            (1, vec![pos(3)]),
            (2, vec![pos(0)]),
            (3, vec![neg(0), pos(1), pos(2), neg(3)]),
            (0, vec![pos(0), pos(1)]),
            (1, vec![pos(0), pos(3)]),
        ];
        let move_rules: Vec<MoveRule> = rules
            .iter()
            .map(|(mv, lits)| MoveRule {
                role: 0,
                mv: *mv,
                lits: lits.clone(),
            })
            .collect();
        // with moves that are always legal or counted (merged), and without
        // (one gate at a time, read in order)
        let mut picked = 0;
        for (always, counted) in [(vec![5], vec![(6, 3)]), (vec![], vec![])] {
            let built = Legal::build(
                &[7],
                vec![always.clone()],
                vec![counted.clone()],
                &move_rules,
            );
            let legal = &built.legal[0];
            assert!(legal.is_listed(0) && !legal.is_listed(5) && !legal.is_listed(6));
            assert!(
                built.rules.iter().all(|(_, _, l)| !l.contains(&pos(0))),
                "the literal most rules share is the gate"
            );
            for (k, (i, mv, _)) in built.rules.iter().enumerate() {
                assert_eq!(*mv, rules[*i].0 as u32, "rule {k} keeps its move");
            }
            for bits in 0..16u32 {
                let vals: Vec<bool> = (0..4).map(|p| bits >> p & 1 == 1).collect();
                let mut expected: Vec<usize> = rules
                    .iter()
                    .filter(|(_, lits)| lits.iter().all(|&l| holds(l, &vals)))
                    .map(|(m, _)| *m)
                    .chain(always.iter().copied())
                    .chain(
                        counted
                            .iter()
                            .filter(|(_, p)| vals[*p as usize])
                            .map(|(m, _)| *m),
                    )
                    .collect();
                expected.sort_unstable();
                expected.dedup();
                let mut out = Vec::new();
                let held = held(&built, &vals);
                legal.moves(&vals, &held, &rule_move(&built), &mut out);
                assert_eq!(out, expected, "values {vals:?}");
                assert_eq!(
                    legal.any(&vals, &held, &rule_move(&built)),
                    !expected.is_empty()
                );
                // a move picked without listing them is the one listed there
                for (i, &m) in expected.iter().enumerate() {
                    let pick = legal.pick(&vals, &held, &rule_move(&built), |n| {
                        assert_eq!(n, expected.len(), "values {vals:?}");
                        i
                    });
                    assert!(pick.is_none_or(|p| p == m), "values {vals:?}, pick {i}");
                    picked += usize::from(pick.is_some());
                }
            }
        }
        assert!(picked > 0, "some moves are picked without a list");
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
            let mut out = Vec::new();
            let vals = [true, true];
            built.legal[0].moves(&vals, &held(&built, &vals), &rule_move(&built), &mut out);
            assert_eq!(out, [3, 7, 70, mid, last], "{moves} moves");
        }
    }

    #[test]
    fn a_gate_with_two_rules_for_one_move_is_not_picked_from_by_count() {
        let rules: Vec<MoveRule> = [(2, vec![1, 3]), (0, vec![1, 5]), (2, vec![1, 7])]
            .into_iter()
            .map(|(mv, lits)| MoveRule { role: 0, mv, lits })
            .collect();
        let built = Legal::build(&[3], vec![vec![]], vec![vec![]], &rules);
        let vals = [true; 4];
        let (held, moves) = (held(&built, &vals), rule_move(&built));
        let mut out = Vec::new();
        built.legal[0].moves(&vals, &held, &moves, &mut out);
        assert_eq!(out, [0, 2], "move 2 comes once");
        assert_eq!(built.legal[0].pick(&vals, &held, &moves, |_| 0), None);
    }

    #[test]
    fn each_bit_reads_exactly_the_bits_of_its_range() {
        let bits = [u64::MAX, 0b1011, u64::MAX];
        for (from, to) in [(0, 0), (3, 9), (60, 68), (62, 131), (64, 192), (130, 131)] {
            let mut seen = Vec::new();
            each_bit(&bits, from, to, |k| {
                seen.push(k);
                false
            });
            let expected: Vec<u32> = (from..to)
                .filter(|&k| bits[k as usize / 64] >> (k % 64) & 1 == 1)
                .collect();
            assert_eq!(seen, expected, "{from}..{to}");
            assert_eq!(count_bits(&bits, from, to), expected.len(), "{from}..{to}");
        }
    }
}
