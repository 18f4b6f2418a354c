//! The reasoner: a grounded description as propositions and the rules
//! between them, evaluated in one pass per state in dependency order.
//!
//! Each ground atom is a proposition. `(true X)` atoms are the state,
//! `(does R M)` atoms the moves; everything else is derived. Propositions
//! that depend on neither are worked out once (the board's geometry,
//! `init`, the roles) and folded into the rules. The first state is
//! evaluated in one pass in dependency order, each proposition the `or` of its rules, each rule the `and` of its
//! literals (recursive groups of propositions are iterated until nothing
//! changes; stratification keeps `not` out of them, so that terminates).
//!
//! After that, values change only where something they read changed: a
//! move sets two `does` propositions, which reach the `next` ones through
//! a handful of rules, and the new state differs from the old in a few
//! `true` ones. As in a counting propositional network, each rule keeps the
//! number of its literals that hold and each proposition the number of its
//! rules that hold; a change adds or removes one from the count of each
//! rule that reads it, and a proposition changes only when its count
//! reaches or leaves 0, so no rule is ever scanned again. Recursive groups
//! (rare in games) are evaluated again as a whole once their inputs have
//! settled. Between calls every value and count is consistent with the
//! state and with no move being played.
//!
//! Before counting, propositions that only pass a value on are folded into
//! the rules that read them (`fold_disjunctions`): a copy or a negation is
//! read through what it copies, and an `or` of single literals that few
//! rules read under `not` becomes a conjunction in each. Fewer propositions
//! change in a turn.
//!
//! Two bit sets spare a turn the scans of whole tables: the move rules that
//! hold, numbered gate by gate (legal.rs), which give the legal moves; and
//! the base propositions whose `next` differs from them, kept as each
//! change passes, which are exactly those a move flips. A change reaches
//! the rules that read it in two runs, counted rules then listed move
//! rules, so that the loop over the second has no branch on what a rule is.

use super::hash::HashMap;

use super::{
    ground::{ground, GTerm, Gid, GroundRule, Grounded, Halfway, Watch},
    legal::{each_bit, Legal, MoveRule},
    lists::{Lists, NumberMap},
    logic::{components, Description},
};

/// The most ground atoms a description may have.
pub const MAX_ATOMS: usize = 2_000_000;

/// The grounding budget in steps when a game's parameters do not set one
/// (`ground_steps`): the shipped bidding game takes about 300,000 and the
/// public checkers 3,600,000. A description past it is reasoned about state
/// by state (`prover.rs`), each state within as many steps.
pub const DEFAULT_GROUND_STEPS: u64 = 20_000_000;

/// The loading time budget in seconds when a game's parameters do not set
/// one (`ground_seconds`).
pub const DEFAULT_GROUND_SECONDS: u64 = 60;

/// A proposition's number.
pub type Prop = u32;

/// No index.
const NONE: u32 = u32::MAX;

/// What a change of one proposition reaches.
#[derive(Clone, Copy, Debug)]
struct PropInfo {
    /// The counted rules that read it: `uses[uses_from..uses_to]`, those
    /// of listed move rules from `listed_from` on.
    uses_from: u32,
    listed_from: u32,
    uses_to: u32,
    /// The base proposition's index if it is `(true X)` or `(next X)`.
    pair: u32,
    /// Its list in `cycle_readers`, if recursive groups read it.
    cycles: u32,
}

/// One move of one role.
#[derive(Clone, Debug)]
pub struct MoveProps {
    /// `(does ROLE MOVE)`.
    pub does: Prop,
    /// The move in KIF's normal form.
    pub text: String,
}

/// What evaluates one group of propositions.
#[derive(Clone, Debug)]
enum Block {
    One(Prop),
    Cycle(Vec<Prop>),
}

/// A grounded game, ready to evaluate states.
#[derive(Debug)]
pub struct Machine {
    pub roles: Vec<String>,
    /// The state's propositions, `(true X)`, with X in KIF.
    pub base: Vec<Prop>,
    pub base_text: Vec<String>,
    /// For each base proposition, `(next X)`, if any rule can make it.
    next_of_base: Vec<Option<Prop>>,
    /// The base propositions whose `next` differs in the first state, a bit
    /// each.
    start_diff: Vec<u64>,
    /// Each role's moves, and the move's index by its text.
    pub moves: Vec<Vec<MoveProps>>,
    /// Each role's moves' `(legal ROLE MOVE)` propositions, by move index.
    legal_props: Vec<Vec<Prop>>,
    /// Each role's legal moves: constant, counted, or listed by gate.
    legal: Vec<Legal>,
    /// Per listed move rule (as legal.rs numbers them), its move.
    rule_move: Vec<u32>,
    /// The listed move rules that hold in the first state, a bit each.
    start_held: Vec<u64>,
    move_index: Vec<HashMap<String, usize>>,
    /// Each role's move `noop`, if it has one.
    noop: Vec<Option<usize>>,
    terminal: Option<Prop>,
    /// Each role's goal propositions and their values.
    goals: Vec<Vec<(Prop, i32)>>,
    /// The values of every proposition in the first state (the static
    /// ones stay as they are).
    start: Vec<bool>,
    /// Every derived, non-static group of propositions, in dependency order.
    blocks: Vec<Block>,
    /// The rules of the groups of one proposition, counted: each one's
    /// head. The listed move rules are counted after them: counted rule
    /// `rule_head.len() + k` is listed move rule k (legal.rs).
    rule_head: Vec<Prop>,
    /// What a change of each proposition reaches (one read per change).
    info: Vec<PropInfo>,
    /// The counted rules that read each proposition, `rule << 1 | positive`.
    uses: Vec<u32>,
    /// Lists of the ranks (in `blocks`) of recursive groups, one for each
    /// proposition that such groups read.
    cycle_readers: Vec<Vec<u32>>,
    /// The counts in the first state: literals that do not hold per counted
    /// rule, rules that hold per proposition.
    start_missing: Vec<i32>,
    start_holding: Vec<i32>,
    /// Per proposition, its rules: `code[code_start[p]..code_start[p + 1]]`,
    /// each rule written as its number of positive literals, of negative
    /// ones, then the literals (one flat array, read front to back).
    code_start: Vec<u32>,
    code: Vec<u32>,
}

impl Machine {
    /// Grounds `d` within the budget of `watch` and prepares it; past
    /// half the limit of ground rules, `halfway` may give it up
    /// ([`Halfway`]).
    pub fn new(
        d: &Description,
        watch: &mut Watch,
        halfway: Option<Halfway>,
    ) -> Result<Machine, String> {
        let Grounded {
            mut store,
            mut rules,
            from,
            model,
        } = ground(d, MAX_ATOMS, watch, halfway)?;
        watch.phase("building the reasoner")?;
        let k = d.keys;

        // a number for every atom the rules, the state and the moves mention
        let mut props = Props::default();
        let model_of = |rel, arity| model.get(&(rel, arity)).cloned().unwrap_or_default();
        let trues = model_of(k.truth, 1);
        let base: Vec<Prop> = trues.iter().map(|&g| props.id(g)).collect();
        // the rules' atoms numbered too, rule by rule, and each
        // proposition's rules
        rules.renumber(|g| props.id(g));
        let heads = Lists::group(
            props.atoms.len(),
            rules.iter().enumerate().map(|(i, r)| (r.head, i as u32)),
        );
        let roles: Vec<String> = d
            .roles
            .iter()
            .map(|&r| d.symbols.name(r).to_string())
            .collect();
        let role_gid: Vec<Gid> = d
            .roles
            .iter()
            .map(|&r| store.intern(GTerm::Const(r)))
            .collect();
        let mut moves: Vec<Vec<MoveProps>> = vec![Vec::new(); roles.len()];
        let mut legal_props: Vec<Vec<Prop>> = vec![Vec::new(); roles.len()];
        for &legal in &model_of(k.legal, 2) {
            let [role, mv] = store.args(legal)[..] else {
                continue;
            };
            let Some(r) = role_gid.iter().position(|&g| g == role) else {
                continue;
            };
            let does = store.atom(k.does, vec![role, mv]);
            legal_props[r].push(props.id(legal));
            moves[r].push(MoveProps {
                does: props.id(does),
                text: store.text(mv, d),
            });
        }
        let mut goals: Vec<Vec<(Prop, i32)>> = vec![Vec::new(); roles.len()];
        for &goal in &model_of(k.goal, 2) {
            let [role, value] = store.args(goal)[..] else {
                continue;
            };
            let Some(r) = role_gid.iter().position(|&g| g == role) else {
                continue;
            };
            // a constant goal was checked where it is written; one a
            // variable gives is checked here, where its values are known
            let text = store.text(value, d);
            let v = match text.parse::<i32>() {
                Ok(v) if (0..=100).contains(&v) => v,
                _ => {
                    // named at the first rule written that gives it
                    let at = heads
                        .of(props.id(goal) as usize)
                        .iter()
                        .filter_map(|&r| d.rules.get(from[r as usize]))
                        .map(|rule| rule.pos)
                        .min_by_key(|pos| (pos.line, pos.column))
                        .map_or(String::new(), |pos| {
                            format!("line {}, column {}: ", pos.line, pos.column)
                        });
                    return Err(format!(
                        "{at}a goal is a whole number from 0 to 100, but the rules give `{text}` (GDL's own relations)"
                    ));
                }
            };
            goals[r].push((props.id(goal), v));
        }
        // where two goals hold at once, the one whose first rule is written
        // first counts (ground rules come in the order of the rules written,
        // and the sort is stable: among a rule's values, the order found)
        let first_rule = |p: &Prop| {
            let rules = heads.of(*p as usize);
            rules.first().map_or(usize::MAX, |&r| from[r as usize])
        };
        for g in &mut goals {
            g.sort_by_key(|(p, _)| first_rule(p));
        }
        let terminal = store.find(&GTerm::Const(k.terminal)).map(|g| props.id(g));
        let next_of_base: Vec<Option<Prop>> = trues
            .iter()
            .map(|&t| {
                let next = store.atom(k.next, vec![store.args(t)[0]]);
                props
                    .get(next)
                    .filter(|&p| !heads.of(p as usize).is_empty())
            })
            .collect();
        let n = props.atoms.len();
        let mut pair_of = vec![NONE; n];
        for (i, &b) in base.iter().enumerate() {
            pair_of[b as usize] = i as u32;
            if let Some(p) = next_of_base[i] {
                pair_of[p as usize] = i as u32;
            }
        }

        // whether each proposition depends on the state or the moves (else
        // it is static: worked out once)
        let mut dynamic = vec![false; n];
        for &b in &base {
            dynamic[b as usize] = true;
        }
        for ms in &moves {
            for m in ms {
                dynamic[m.does as usize] = true;
            }
        }
        let edges = Lists::build(n, |p, out| {
            for &i in heads.of(p) {
                let r = rules.get(i as usize);
                out.extend_from_slice(r.pos);
                out.extend_from_slice(r.neg);
            }
        });
        let comp = components(&edges);
        // stratified negation, judged on the ground rules: no atom depends
        // on itself through a `not`
        for (i, r) in rules.iter().enumerate() {
            let of = |q: Prop| comp[q as usize];
            if let Some(&q) = r.neg.iter().find(|&&q| of(q) == of(r.head)) {
                return Err(format!(
                    "{}: `{}` depends on itself through `(not {})`: negation must be \
                     stratified (GDL's stratification restriction)",
                    d.rules[from[i]].pos,
                    store.text(props.atoms[r.head as usize], d),
                    store.text(props.atoms[q as usize], d),
                ));
            }
        }
        let mut groups: Vec<Vec<Prop>> = vec![Vec::new(); comp.iter().max().map_or(0, |m| m + 1)];
        for p in 0..n as Prop {
            groups[comp[p as usize]].push(p);
        }
        // dependencies first
        for g in &groups {
            let d = g
                .iter()
                .flat_map(|&p| edges.of(p as usize))
                .chain(g)
                .any(|&q| dynamic[q as usize]);
            for &p in g {
                dynamic[p as usize] = d;
            }
        }

        // the static propositions' values, once
        let mut start = vec![false; n];
        let eval_rule = |i: u32, vals: &[bool]| {
            let r = rules.get(i as usize);
            r.pos.iter().all(|&q| vals[q as usize]) && r.neg.iter().all(|&q| !vals[q as usize])
        };
        for g in groups.iter().filter(|g| !dynamic[g[0] as usize]) {
            loop {
                let mut changed = false;
                for &p in g {
                    let v = heads.of(p as usize).iter().any(|&i| eval_rule(i, &start));
                    if v != start[p as usize] {
                        start[p as usize] = v;
                        changed = true;
                    }
                }
                if !changed || g.len() == 1 {
                    break;
                }
            }
        }
        // the first state: every X with (init X)
        for (i, &t) in trues.iter().enumerate() {
            let init = store.atom(k.init, vec![store.args(t)[0]]);
            start[base[i] as usize] = props.get(init).is_some_and(|p| start[p as usize]);
        }

        // the rules of the dynamic propositions, static literals folded in
        let mut code_start = vec![0u32; n + 1];
        let mut code: Vec<u32> = Vec::new();
        for p in 0..n {
            code_start[p] = code.len() as u32;
            if !dynamic[p] {
                continue;
            }
            for &i in heads.of(p) {
                let GroundRule { pos, neg, .. } = rules.get(i as usize);
                let is_static = |q: &Prop| !dynamic[*q as usize];
                if pos
                    .iter()
                    .filter(|q| is_static(q))
                    .any(|&q| !start[q as usize])
                    || neg
                        .iter()
                        .filter(|q| is_static(q))
                        .any(|&q| start[q as usize])
                {
                    continue; // never holds
                }
                // the counts of positive and negated literals, then the literals
                let at = code.len();
                code.extend([0, 0]);
                code.extend(pos.iter().filter(|q| !is_static(q)));
                code[at] = (code.len() - at - 2) as u32;
                code.extend(neg.iter().filter(|q| !is_static(q)));
                code[at + 1] = (code.len() - at - 2) as u32 - code[at];
            }
        }
        code_start[n] = code.len() as u32;
        let recursive = |g: &Vec<Prop>| g.len() > 1 || edges.of(g[0] as usize).contains(&g[0]);
        // copies, negations and some disjunctions that the machine does not
        // read directly are folded into the rules that read them
        let mut read_directly = vec![false; n];
        let observed = base.iter().chain(next_of_base.iter().flatten());
        let observed = observed.chain(moves.iter().flatten().map(|m| &m.does));
        let observed = observed.chain(legal_props.iter().flatten());
        let observed = observed.chain(goals.iter().flatten().map(|(p, _)| p));
        for &p in observed.chain(&terminal) {
            read_directly[p as usize] = true;
        }
        for g in groups.iter().filter(|g| recursive(g)) {
            for &p in g {
                read_directly[p as usize] = true;
            }
        }
        let readers_first = groups.iter().rev().flatten().copied();
        let (code_start, code, folded) =
            fold_disjunctions(&code_start, &code, &read_directly, readers_first);
        let block = |g: &Vec<Prop>| {
            if recursive(g) {
                Block::Cycle(g.clone())
            } else {
                Block::One(g[0])
            }
        };
        let is_derived = |p: Prop| !heads.of(p as usize).is_empty();
        let dynamic_groups: Vec<&Vec<Prop>> = groups
            .iter()
            .filter(|g| dynamic[g[0] as usize] && g.iter().any(|&p| is_derived(p)))
            .filter(|g| !folded[g[0] as usize])
            .collect();
        let blocks: Vec<Block> = dynamic_groups.iter().map(|g| block(g)).collect();
        // `legal` propositions no rule reads, outside recursive groups, are
        // not counted themselves: their rules are listed per gate (legal.rs)
        let mut read = vec![false; n];
        for r in rules.iter() {
            for &q in r.pos.iter().chain(r.neg) {
                read[q as usize] = true;
            }
        }
        let mut listed = vec![false; n];
        for &p in legal_props.iter().flatten() {
            listed[p as usize] = !read[p as usize];
        }
        for b in &blocks {
            if let Block::Cycle(ps) = b {
                for &p in ps {
                    listed[p as usize] = false;
                }
            }
        }
        let rules_of =
            |p: Prop| &code[code_start[p as usize] as usize..code_start[p as usize + 1] as usize];
        let (mut always, mut counted) = (Vec::new(), Vec::new());
        let mut move_rules = Vec::new();
        for (role, props) in legal_props.iter().enumerate() {
            let (mut a, mut c) = (Vec::new(), Vec::new());
            for (mv, &p) in props.iter().enumerate() {
                if !dynamic[p as usize] {
                    if start[p as usize] {
                        a.push(mv);
                    }
                } else if listed[p as usize] {
                    for_each_rule(rules_of(p), |pos, neg| {
                        let lits = pos.iter().map(|&q| q << 1 | 1);
                        let lits = lits.chain(neg.iter().map(|&q| q << 1)).collect();
                        move_rules.push(MoveRule { role, mv, lits });
                        false
                    });
                } else {
                    c.push((mv, p));
                }
            }
            always.push(a);
            counted.push(c);
        }
        let moves_per_role: Vec<usize> = legal_props.iter().map(Vec::len).collect();
        let built = Legal::build(&moves_per_role, always, counted, &move_rules);
        let mut rule_head = Vec::new();
        let mut rule_len = Vec::new();
        let mut uses_of: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut listed_uses_of: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut cycle_readers: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (rank, b) in blocks.iter().enumerate() {
            match b {
                Block::One(p) if listed[*p as usize] => {}
                Block::One(p) => {
                    let p = *p;
                    for_each_rule(rules_of(p), |pos, neg| {
                        let r = rule_head.len() as u32;
                        rule_head.push(p);
                        rule_len.push((pos.len() + neg.len()) as i32);
                        for &q in pos {
                            uses_of[q as usize].push(r << 1 | 1);
                        }
                        for &q in neg {
                            uses_of[q as usize].push(r << 1);
                        }
                        false
                    });
                }
                Block::Cycle(ps) => {
                    for &p in ps {
                        for_each_rule(rules_of(p), |pos, neg| {
                            for &q in pos.iter().chain(neg) {
                                if !ps.contains(&q) {
                                    cycle_readers[q as usize].push(rank as u32);
                                }
                            }
                            false
                        });
                    }
                }
            }
        }
        // the listed move rules are counted too, their gates left out
        for (_, _, lits) in &built.rules {
            let r = rule_len.len() as u32;
            rule_len.push(lits.len() as i32);
            for &l in lits {
                listed_uses_of[(l >> 1) as usize].push(r << 1 | (l & 1));
            }
        }
        let rule_move: Vec<u32> = built.rules.iter().map(|(_, mv, _)| *mv).collect();
        for r in &mut cycle_readers {
            r.sort_unstable();
            r.dedup();
        }
        let mut uses = Vec::new();
        let mut readers = Vec::new();
        let mut info = Vec::with_capacity(n);
        for (q, (u, listed_u)) in uses_of.iter().zip(&listed_uses_of).enumerate() {
            let uses_from = uses.len() as u32;
            uses.extend(u);
            let listed_from = uses.len() as u32;
            uses.extend(listed_u);
            let cycles = std::mem::take(&mut cycle_readers[q]);
            info.push(PropInfo {
                uses_from,
                listed_from,
                uses_to: uses.len() as u32,
                pair: pair_of[q],
                cycles: if cycles.is_empty() {
                    NONE
                } else {
                    readers.push(cycles);
                    readers.len() as u32 - 1
                },
            });
        }
        let cycle_readers = readers;
        let move_index: Vec<HashMap<String, usize>> = moves
            .iter()
            .map(|ms| {
                ms.iter()
                    .enumerate()
                    .map(|(i, m)| (m.text.clone(), i))
                    .collect()
            })
            .collect();
        let noop = move_index.iter().map(|i| i.get("noop").copied()).collect();
        let base_text = trues
            .iter()
            .map(|&t| store.text(store.args(t)[0], d))
            .collect();
        let mut m = Machine {
            legal_props,
            legal: built.legal,
            rule_move,
            start_held: Vec::new(),
            roles,
            base,
            base_text,
            next_of_base,
            start_diff: Vec::new(),
            moves,
            move_index,
            noop,
            terminal,
            goals,
            start,
            blocks,
            rule_head,
            info,
            uses,
            cycle_readers,
            start_missing: Vec::new(),
            start_holding: Vec::new(),
            code_start,
            code,
        };
        let mut first = m.start.clone();
        for b in &m.blocks {
            m.evaluate(b, &mut first);
        }
        // the counts that go with the first state
        let mut missing = rule_len;
        let mut holding = vec![0i32; n];
        for (q, &value) in first.iter().enumerate() {
            let info = m.info[q];
            for &u in &m.uses[info.uses_from as usize..info.uses_to as usize] {
                if value == (u & 1 == 1) {
                    missing[(u >> 1) as usize] -= 1;
                }
            }
        }
        let mut held = vec![0u64; m.rule_move.len().div_ceil(64)];
        for (r, _) in missing.iter().enumerate().filter(|(_, &m)| m == 0) {
            match m.rule_head.get(r) {
                Some(&h) => holding[h as usize] += 1,
                None => {
                    let k = r - m.rule_head.len();
                    held[k / 64] |= 1 << (k % 64);
                }
            }
        }
        m.start = first;
        m.start_missing = missing;
        m.start_holding = holding;
        m.start_held = held;
        let mut diff = vec![0u64; m.base.len().div_ceil(64)];
        for i in 0..m.base.len() {
            if m.differs(&m.start, i) {
                diff[i / 64] |= 1 << (i % 64);
            }
        }
        m.start_diff = diff;
        Ok(m)
    }

    /// The first state, evaluated.
    pub fn first(&self) -> State {
        State {
            vals: self.start.clone(),
            dirty: vec![0; self.blocks.len().div_ceil(64)],
            diff: self.start_diff.clone(),
            flips: Vec::new(),
            missing: self.start_missing.clone(),
            holding: self.start_holding.clone(),
            held: self.start_held.clone(),
            changes: Vec::new(),
        }
    }

    fn prop_holds(&self, p: Prop, vals: &[bool]) -> bool {
        let code = &self.code
            [self.code_start[p as usize] as usize..self.code_start[p as usize + 1] as usize];
        for_each_rule(code, |pos, neg| {
            pos.iter().all(|&q| vals[q as usize]) && neg.iter().all(|&q| !vals[q as usize])
        })
    }

    /// Evaluates one group from the values it reads.
    fn evaluate(&self, b: &Block, vals: &mut [bool]) {
        match b {
            Block::One(p) => vals[*p as usize] = self.prop_holds(*p, vals),
            Block::Cycle(ps) => {
                for &p in ps {
                    vals[p as usize] = false;
                }
                loop {
                    let mut changed = false;
                    for &p in ps {
                        if !vals[p as usize] && self.prop_holds(p, vals) {
                            vals[p as usize] = true;
                            changed = true;
                        }
                    }
                    if !changed {
                        break;
                    }
                }
            }
        }
    }

    /// Sets proposition `p` (a state or move one) to `v`.
    fn set(&self, s: &mut State, p: Prop, v: bool) {
        if s.vals[p as usize] != v {
            s.vals[p as usize] = v;
            s.changes.push((p, v));
        }
    }

    /// Carries every change through: each counted rule that reads a
    /// changed proposition gains or loses a satisfied literal, and its head
    /// changes when the number of its rules that hold reaches or leaves 0.
    /// Changes are sums, so their order does not matter. Recursive groups
    /// are evaluated again, lowest rank first, once no change is pending.
    fn propagate(&self, s: &mut State) {
        loop {
            while let Some((q, v)) = s.changes.pop() {
                let q = q as usize;
                let info = self.info[q];
                let (from, listed_from) = (info.uses_from as usize, info.listed_from as usize);
                for &u in &self.uses[from..listed_from] {
                    let r = (u >> 1) as usize;
                    let missing = &mut s.missing[r];
                    let before = *missing == 0;
                    *missing += if v == (u & 1 == 1) { -1 } else { 1 };
                    let after = *missing == 0;
                    if before != after {
                        // its head changes when its count of rules that
                        // hold reaches or leaves 0
                        let h = self.rule_head[r] as usize;
                        let holding = &mut s.holding[h];
                        let was = *holding > 0;
                        *holding += if after { 1 } else { -1 };
                        let value = *holding > 0;
                        if value != was {
                            s.vals[h] = value;
                            s.changes.push((h as Prop, value));
                        }
                    }
                }
                // listed move rules: a rule that held no longer does, or the
                // other way round, when its count reaches or leaves 0
                for &u in &self.uses[listed_from..info.uses_to as usize] {
                    let r = (u >> 1) as usize;
                    let missing = &mut s.missing[r];
                    let before = *missing == 0;
                    *missing += if v == (u & 1 == 1) { -1 } else { 1 };
                    let k = r - self.rule_head.len();
                    s.held[k / 64] ^= u64::from(before != (*missing == 0)) << (k % 64);
                }
                if info.cycles != NONE {
                    mark(&mut s.dirty, &self.cycle_readers[info.cycles as usize]);
                }
                let i = info.pair;
                if i != NONE {
                    let i = i as usize;
                    let (word, bit) = (&mut s.diff[i / 64], 1u64 << (i % 64));
                    *word = *word & !bit | if self.differs(&s.vals, i) { bit } else { 0 };
                }
            }
            if self.cycle_readers.is_empty() {
                return; // no recursive group to evaluate again
            }
            let Some(w) = s.dirty.iter().position(|&bits| bits != 0) else {
                return;
            };
            let bit = s.dirty[w].trailing_zeros() as usize;
            s.dirty[w] &= !(1u64 << bit);
            let b = &self.blocks[w * 64 + bit];
            if let Block::Cycle(ps) = b {
                let before: Vec<bool> = ps.iter().map(|&p| s.vals[p as usize]).collect();
                self.evaluate(b, &mut s.vals);
                for (i, &p) in ps.iter().enumerate() {
                    if s.vals[p as usize] != before[i] {
                        s.changes.push((p, s.vals[p as usize]));
                    }
                }
            }
        }
    }

    /// The indices of `role`'s legal moves in state `s`, ascending, into `out`.
    pub fn legal_moves(&self, s: &State, role: usize, out: &mut Vec<usize>) {
        self.legal[role].moves(&s.vals, &s.held, &self.rule_move, out);
    }

    /// One of `role`'s legal moves in state `s`: the one at the index
    /// `pick` chooses from their number, in the order of
    /// [`Machine::legal_moves`] (which may use `out`); `None` if none is
    /// legal. Where the rules allow, the moves are not listed.
    pub fn pick_legal(
        &self,
        s: &State,
        role: usize,
        mut pick: impl FnMut(usize) -> usize,
        out: &mut Vec<usize>,
    ) -> Option<usize> {
        let legal = &self.legal[role];
        if let Some(m) = legal.pick(&s.vals, &s.held, &self.rule_move, &mut pick) {
            return Some(m);
        }
        self.legal_moves(s, role, out);
        (!out.is_empty()).then(|| out[pick(out.len())])
    }

    /// Whether `role` may play its move `m` in state `s`.
    pub fn legal(&self, s: &State, role: usize, m: usize) -> bool {
        let p = self.legal_props[role][m];
        if self.legal[role].is_listed(m) {
            self.prop_holds(p, &s.vals)
        } else {
            s.vals[p as usize]
        }
    }

    /// Whether `role` has a legal move in state `s`.
    pub fn has_legal(&self, s: &State, role: usize) -> bool {
        self.legal[role].any(&s.vals, &s.held, &self.rule_move)
    }

    /// `role`'s move `noop`, if it has one.
    pub fn noop(&self, role: usize) -> Option<usize> {
        self.noop[role]
    }

    /// Whether `m` is `role`'s one legal move in state `s`, found without
    /// listing the moves: it stops at the first other move.
    pub fn only_legal(&self, s: &State, role: usize, m: usize) -> bool {
        let mut seen = false;
        let other = self.legal[role].each(&s.vals, &s.held, &self.rule_move, |k| {
            seen |= k == m;
            k != m
        });
        seen && !other
    }

    /// The index of `role`'s move written `text`, if it is one of its moves.
    pub fn move_named(&self, role: usize, text: &str) -> Option<usize> {
        self.move_index[role].get(text).copied()
    }

    pub fn terminal(&self, s: &State) -> bool {
        self.terminal.is_some_and(|t| s.vals[t as usize])
    }

    /// The highest goal `role` can get (0 when its goal rules give none);
    /// the lowest is 0, which a state where no goal holds gives.
    pub fn goal_max(&self, role: usize) -> i32 {
        self.goals[role].iter().map(|&(_, v)| v).max().unwrap_or(0)
    }

    /// `role`'s goal in state `s`: the first goal that holds, else 0.
    pub fn goal(&self, s: &State, role: usize) -> i32 {
        self.goals[role]
            .iter()
            .find(|(p, _)| s.vals[*p as usize])
            .map_or(0, |(_, v)| *v)
    }

    /// State `s` as a key: its base propositions, 64 to a word (a GDL
    /// state is the set of base propositions that hold).
    pub fn key(&self, s: &State) -> Box<[u64]> {
        let mut key = vec![0u64; self.base.len().div_ceil(64)];
        for (i, &b) in self.base.iter().enumerate() {
            if s.vals[b as usize] {
                key[i / 64] |= 1 << (i % 64);
            }
        }
        key.into_boxed_slice()
    }

    /// Whether base proposition `i` holds in state `s`.
    pub fn holds(&self, s: &State, i: usize) -> bool {
        s.vals[self.base[i] as usize]
    }

    /// The state after each role plays its move `chosen[r]` (an index into
    /// its moves).
    pub fn advance(&self, s: &mut State, chosen: &[usize]) {
        for (r, &m) in chosen.iter().enumerate() {
            self.set(s, self.moves[r][m].does, true);
        }
        self.propagate(s);
        // the base propositions the next state changes: listed as they are
        // found to differ from their `next` (propagate)
        let mut flips = std::mem::take(&mut s.flips);
        flips.clear();
        each_bit(&s.diff, 0, self.base.len() as u32, |i| {
            flips.push(i);
            false
        });
        for (r, &m) in chosen.iter().enumerate() {
            self.set(s, self.moves[r][m].does, false);
        }
        for &i in &flips {
            let b = self.base[i as usize];
            self.set(s, b, !s.vals[b as usize]);
        }
        s.flips = flips;
        self.propagate(s);
    }

    /// Whether base proposition `i`'s value differs from its `next`'s.
    fn differs(&self, vals: &[bool], i: usize) -> bool {
        let next = self.next_of_base[i].is_some_and(|p| vals[p as usize]);
        vals[self.base[i] as usize] != next
    }

    /// Sets the state to the base propositions `on` (indices into `base`).
    pub fn set_state(&self, s: &mut State, on: &[bool]) {
        for (i, &b) in self.base.iter().enumerate() {
            self.set(s, b, on[i]);
        }
        self.propagate(s);
    }
}

/// Calls `f` with each rule's positive and negative literals in `code`
/// until it returns true; whether it did.
fn for_each_rule(code: &[u32], mut f: impl FnMut(&[Prop], &[Prop]) -> bool) -> bool {
    let mut i = 0;
    while i < code.len() {
        let (np, nn) = (code[i] as usize, code[i + 1] as usize);
        let lits = &code[i + 2..i + 2 + np + nn];
        if f(&lits[..np], &lits[np..]) {
            return true;
        }
        i += 2 + np + nn;
    }
    false
}

/// The most rules that may read a disjunction folded into them (below).
const FOLD_READERS: u32 = 2;

/// The rules `code` (per proposition, from `code_start`) with propositions
/// that are an `or` of single literals folded into the rules that read
/// them, and whether each proposition was so folded. A copy or a negation
/// (one rule of one literal) is read through what it copies: a change of
/// `empty` in `(<= (empty ?x ?y) (not (occupied ?x ?y)))` is then no step
/// of its own, `occupied` reaches the rules that read `empty`. A
/// disjunction of several literals read only under `not`, by at most
/// [`FOLD_READERS`] rules, becomes their conjunction in each: `(not
/// (occupied ?x ?y))` reads `(not (true (cell ?x ?y white)))` and `(not
/// (true (cell ?x ?y black)))`. Fewer propositions change in a turn; a
/// change of a disjunct reaches at most as many rules as it did through the
/// disjunction when that changed with it.
///
/// Propositions the machine reads directly (`read`: the state, the moves,
/// `legal`, `goal`, `terminal`, recursive groups) keep their value. Folded
/// ones keep no rules, and no value is kept for them. `order` lists every
/// proposition, each after those that read it.
fn fold_disjunctions(
    code_start: &[u32],
    code: &[u32],
    read: &[bool],
    order: impl Iterator<Item = Prop>,
) -> (Vec<u32>, Vec<u32>, Vec<bool>) {
    let n = read.len();
    let rules = |p: usize| &code[code_start[p] as usize..code_start[p + 1] as usize];
    // how many times each proposition is read, in effect, plainly and under
    // `not` (through the folded propositions that read it)
    let mut reads = vec![[0u32; 2]; n];
    // each folded proposition's disjuncts: (proposition, positive)
    let mut folded: Vec<Option<Vec<(Prop, bool)>>> = vec![None; n];
    let order: Vec<Prop> = order.collect();
    for &p in &order {
        let p = p as usize;
        let mut disjuncts = Some(Vec::new());
        for_each_rule(rules(p), |pos, neg| {
            match (pos, neg, &mut disjuncts) {
                (&[q], &[], Some(d)) => d.push((q, true)),
                (&[], &[q], Some(d)) => d.push((q, false)),
                _ => disjuncts = None,
            }
            false
        });
        let [plain, negated] = reads[p];
        let fold = disjuncts.filter(|d| {
            !read[p] && (d.len() == 1 || (!d.is_empty() && plain == 0 && negated <= FOLD_READERS))
        });
        match &fold {
            // read where `p` is read: plainly where the literal is read as `p` is
            Some(d) => {
                for &(q, positive) in d {
                    let r = &mut reads[q as usize];
                    let (same, other) = if positive { (0, 1) } else { (1, 0) };
                    r[same] = r[same].saturating_add(plain);
                    r[other] = r[other].saturating_add(negated);
                }
            }
            None => {
                for_each_rule(rules(p), |pos, neg| {
                    let plainly = pos.iter().map(|&q| (q, 0));
                    for (q, how) in plainly.chain(neg.iter().map(|&q| (q, 1))) {
                        let r = &mut reads[q as usize][how];
                        *r = r.saturating_add(1);
                    }
                    false
                });
            }
        }
        folded[p] = fold;
    }
    // each copy's literal followed to the end of its chain of copies,
    // dependencies first, so that a chain however long (a step counter's
    // copies can be thousands) is followed in one step
    for &p in order.iter().rev() {
        if let Some(d) = folded[p as usize].take() {
            let through = |(q, s): (Prop, bool)| match &folded[q as usize] {
                Some(e) if e.len() == 1 => (e[0].0, e[0].1 == s),
                _ => (q, s),
            };
            folded[p as usize] = Some(d.into_iter().map(through).collect());
        }
    }
    /// Literal `q` (`positive` or negated) as the conjunction it stands
    /// for, into `out` (positive literals, negated ones); `stack` is scratch.
    fn expand(
        q: Prop,
        positive: bool,
        folded: &[Option<Vec<(Prop, bool)>>],
        stack: &mut Vec<(Prop, bool)>,
        out: &mut [Vec<Prop>; 2],
    ) {
        stack.push((q, positive));
        while let Some((q, positive)) = stack.pop() {
            match &folded[q as usize] {
                None => out[usize::from(!positive)].push(q),
                Some(d) if d.len() == 1 => stack.push((d[0].0, d[0].1 == positive)),
                Some(d) => {
                    debug_assert!(!positive, "a disjunction is folded only under `not`");
                    stack.extend(d.iter().rev().map(|&(r, s)| (r, !s)));
                }
            }
        }
    }
    let mut new_start = vec![0u32; n + 1];
    let mut new_code = Vec::with_capacity(code.len());
    let (mut lits, mut stack) = ([Vec::new(), Vec::new()], Vec::new());
    for p in 0..n {
        new_start[p] = new_code.len() as u32;
        if folded[p].is_some() {
            continue;
        }
        for_each_rule(rules(p), |pos, neg| {
            lits.iter_mut().for_each(Vec::clear);
            let lits_of = pos.iter().map(|&q| (q, true));
            for (q, positive) in lits_of.chain(neg.iter().map(|&q| (q, false))) {
                expand(q, positive, &folded, &mut stack, &mut lits);
            }
            new_code.extend([lits[0].len() as u32, lits[1].len() as u32]);
            new_code.extend(&lits[0]);
            new_code.extend(&lits[1]);
            false
        });
    }
    new_start[n] = new_code.len() as u32;
    (
        new_start,
        new_code,
        folded.iter().map(Option::is_some).collect(),
    )
}

/// Marks groups `ranks` for evaluation.
fn mark(dirty: &mut [u64], ranks: &[u32]) {
    for &r in ranks {
        dirty[r as usize / 64] |= 1u64 << (r % 64);
    }
}

/// A state of a game: every proposition's value, consistent with the state
/// and no move played, and scratch space for the next move.
#[derive(Clone, Debug)]
pub struct State {
    vals: Vec<bool>,
    /// Groups to evaluate again (empty between calls).
    dirty: Vec<u64>,
    /// The base propositions whose `next` differs from them, a bit each.
    diff: Vec<u64>,
    /// The base propositions to change, while a move is applied.
    flips: Vec<u32>,
    /// Per counted rule, its literals that do not hold now (0: it holds).
    missing: Vec<i32>,
    /// Per proposition of a counted group, its rules that hold now.
    holding: Vec<i32>,
    /// The listed move rules that hold now, a bit each (legal.rs).
    held: Vec<u64>,
    /// Changes not yet carried through (empty between calls).
    changes: Vec<(Prop, bool)>,
}

/// The proposition numbers of ground atoms.
#[derive(Default)]
struct Props {
    /// Each ground term's number as a proposition, by the term's number.
    of: NumberMap,
    atoms: Vec<Gid>,
}

impl Props {
    /// `g`'s number, given it now if it has none.
    fn id(&mut self, g: Gid) -> Prop {
        self.of.get(g).unwrap_or_else(|| {
            let p = self.atoms.len() as Prop;
            self.of.set(g, p);
            self.atoms.push(g);
            p
        })
    }

    fn get(&self, g: Gid) -> Option<Prop> {
        self.of.get(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `code` and `code_start` for `rules[p]`, each rule its positive and
    /// its negated literals.
    fn encode(rules: &[Vec<(Vec<Prop>, Vec<Prop>)>]) -> (Vec<u32>, Vec<u32>) {
        let mut start = Vec::new();
        let mut code = Vec::new();
        for of_p in rules {
            start.push(code.len() as u32);
            for (pos, neg) in of_p {
                code.extend([pos.len() as u32, neg.len() as u32]);
                code.extend(pos.iter().chain(neg));
            }
        }
        start.push(code.len() as u32);
        (start, code)
    }

    /// Each proposition's rules as written by `encode`.
    fn decode(start: &[u32], code: &[u32]) -> Vec<Vec<(Vec<Prop>, Vec<Prop>)>> {
        (0..start.len() - 1)
            .map(|p| {
                let mut rules = Vec::new();
                for_each_rule(
                    &code[start[p] as usize..start[p + 1] as usize],
                    |pos, neg| {
                        rules.push((pos.to_vec(), neg.to_vec()));
                        false
                    },
                );
                rules
            })
            .collect()
    }

    #[test]
    fn copies_negations_and_disjunctions_under_not_are_folded_into_their_readers() {
        let rule = |pos: &[Prop], neg: &[Prop]| (pos.to_vec(), neg.to_vec());
        // 0, 1 and 4 are state propositions; they, 15 and the readers that
        // nothing reads are read directly (`legal`, `goal`, `terminal`, ...)
        let rules = vec![
            vec![],                                 // 0
            vec![],                                 // 1
            vec![rule(&[0], &[]), rule(&[1], &[])], // 2 = 0 or 1: folded
            vec![rule(&[], &[2])],                  // 3 = not 2: folded
            vec![],                                 // 4
            vec![rule(&[4], &[2])],                 // 5 reads (not 2)
            vec![rule(&[3], &[])],                  // 6 = 3: folded
            vec![rule(&[6, 4], &[])],               // 7 reads 6, that is (not 2)
            vec![rule(&[0], &[]), rule(&[4], &[])], // 8 = 0 or 4, read plainly: kept
            vec![rule(&[8], &[1])],                 // 9
            vec![rule(&[0], &[]), rule(&[], &[4])], // 10 = 0 or not 4, read under
            vec![rule(&[1], &[10])],                // not three times: kept
            vec![rule(&[], &[10])],                 // 12
            vec![rule(&[4], &[10])],                // 13
            vec![rule(&[], &[15])],                 // 14 reads (not 15)
            vec![rule(&[], &[1])],                  // 15 = not 1, read directly: kept
        ];
        let mut read = vec![false; rules.len()];
        for p in [0, 1, 4, 5, 7, 9, 11, 12, 13, 14, 15] {
            read[p] = true;
        }
        // every proposition after those that read it
        let order = [14, 15, 13, 12, 11, 10, 9, 8, 7, 6, 5, 3, 2, 4, 1, 0];
        let (start, code) = encode(&rules);
        let (start, code, folded) = fold_disjunctions(&start, &code, &read, order.into_iter());
        let folded: Vec<usize> = (0..rules.len()).filter(|&p| folded[p]).collect();
        assert_eq!(folded, [2, 3, 6]);
        let mut expected = rules.clone();
        for p in folded {
            expected[p].clear();
        }
        // (not 2) reads as (not 0) and (not 1), twice: in 5 and in 7
        expected[5] = vec![rule(&[4], &[0, 1])];
        expected[7] = vec![rule(&[4], &[0, 1])];
        assert_eq!(decode(&start, &code), expected);
    }

    /// A step counter's ground atoms can be a chain of copies thousands
    /// long (`(<= (count 5) (count 4))`, ...): it is followed without a
    /// recursion as deep (a stack overflow would abort the process).
    #[test]
    fn a_long_chain_of_copies_is_followed_to_its_start() {
        const N: u32 = 300_000;
        // 0 is a state proposition, k + 1 = k, and N + 1 reads (not N)
        let mut rules: Vec<Vec<(Vec<Prop>, Vec<Prop>)>> = vec![vec![]];
        rules.extend((0..N).map(|k| vec![(vec![k], vec![])]));
        rules.push(vec![(vec![], vec![N])]);
        let mut read = vec![false; rules.len()];
        read[0] = true;
        read[N as usize + 1] = true;
        let (start, code) = encode(&rules);
        let order = (0..=N + 1).rev();
        let (start, code, folded) = fold_disjunctions(&start, &code, &read, order);
        assert_eq!(folded.iter().filter(|&&f| f).count(), N as usize);
        let rules = decode(&start, &code);
        assert_eq!(rules[N as usize + 1], [(vec![], vec![0])]);
    }
}
