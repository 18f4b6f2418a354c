//! Reasoning state by state, for a description too large to ground whole
//! (grounding on demand): the public `merrills.kif`, whose relaxed model
//! counts every colouring of every pit at once, or the competitions'
//! chess. Only what one state makes true is worked out, so a game plays
//! where its reachable part is small, whatever its relaxed model.
//!
//! At load, the relations that depend on neither `true` nor `does` (the
//! static ones: `succ`, boards, `init`) are derived once. For a state, its
//! `true` facts are added to them, and the rules that `legal`, `goal` and
//! `terminal` need are evaluated bottom-up, stratum by stratum (a
//! relation's recursive group after the groups it depends on, so a `not`
//! is judged against facts already complete), with the grounder's joins
//! (`join.rs`, [`saturate`]). For a joint move, the same is done with its
//! `does` facts for the rules that `next` needs. The rules are first
//! rewritten so that only the bindings some rule asks for are derived
//! ([`magic`], the magic-sets method): `merrills.kif` counts its stones
//! from one starting count, not from all 71 x 71. Both ways are kept
//! ([`Program`]): the one that takes fewer steps on the first state comes
//! first, and the other takes over where it runs past the budget.
//!
//! A state is its `true` terms, each written flat ([`Flat`]) and sorted:
//! terms compare by their symbols' order of first appearance in the
//! description, then their arguments, so `(cell 1 2 b)` comes before `(cell
//! 1 3 b)` where the description writes `2` before `3`. The moves of a
//! state come in the same order, and the state's terms too (a state's
//! observation).
//!
//! Each state's reasoning has a budget of steps, the description's
//! `ground_steps`, so its outcome never depends on the machine's speed; a
//! state past it is *stuck*: no role has a legal move there and the game
//! ends, with the error kept ([`Now::error`]). A description whose negation
//! is recursive at the level of relations (a relation that depends on
//! itself through `not`, which only its ground atoms can order) cannot be
//! reasoned about this way, and is refused.

use std::sync::Mutex;

use super::hash::{HashMap, HashSet};
use super::{
    budget::Watch,
    ground::saturate,
    join::Model,
    logic::{Atom, Description, Graph, Literal, Relation, Rule, Sym, Term},
    machine::MAX_ATOMS,
    store::{tag, GTerm, Gid, Store},
};

/// A ground term written flat, in prefix order: a constant is its tag
/// ([`tag`]); a function is its tag, its number of arguments, then each
/// argument flat. It does not depend on any store.
pub type Flat = Box<[u32]>;

/// A description ready to reason about any state.
pub struct Prover {
    d: Description,
    /// The static facts, and their terms.
    store: Store,
    model: Model,
    /// The groups of rules `legal`, `goal` and `terminal` need, and those
    /// `next` needs, each in the order of evaluation.
    for_state: Program,
    for_next: Program,
    /// The first state.
    start: Now,
    /// Steps each state's reasoning may take.
    steps: u64,
    /// Each role's highest goal.
    goal_max: Vec<i32>,
    /// A number for each move met, per role, the same for the same move in
    /// every state: what search bots learn moves by.
    ids: Vec<Mutex<HashMap<Flat, usize>>>,
}

/// The rule groups one target needs, in the order of evaluation, two
/// ways: rewritten by [`magic`] sets and as written. Which comes first is
/// chosen at load by the steps each takes on the first state (magic sets
/// save a game like merrills from an explosion, and cost a small game a
/// third more); the other is tried where the first runs past the budget,
/// so a state is stuck only if both are. Steps, not time, decide: the
/// choice does not depend on the machine.
struct Program {
    first: Vec<Vec<Rule>>,
    other: Option<Vec<Vec<Rule>>>,
}

impl Program {
    fn swap(&mut self) {
        if let Some(other) = &mut self.other {
            std::mem::swap(&mut self.first, other);
        }
    }
}

/// One state, with what holds in it.
#[derive(Clone, Debug, Default)]
pub struct Now {
    /// The state's `true` terms, sorted.
    pub facts: Vec<Flat>,
    /// Each role's legal moves, sorted.
    pub moves: Vec<Vec<Move>>,
    pub terminal: bool,
    /// Each role's goal (0 where none holds).
    pub goals: Vec<i32>,
    /// Why the state is stuck, if its reasoning failed.
    pub error: Option<String>,
}

/// The static facts' store is shared by the states' copies, not copied
/// for each ([`Store::frozen`]), from this many terms on: the competitions'
/// chess has about 70,000 and copying them took a quarter of its time,
/// while a small store (breakthrough's 123 terms) is copied faster than a
/// second table is searched on every lookup (7% slower shared).
const SHARE_STORE_FROM: usize = 10_000;

/// A legal move.
#[derive(Clone, Debug)]
pub struct Move {
    pub flat: Flat,
    /// In KIF's normal form.
    pub text: String,
    /// Its number among its role's moves ([`Prover`]'s `ids`).
    pub id: usize,
}

impl Prover {
    /// Prepares `d` within `watch`'s budget; each state's reasoning may
    /// take `steps` steps.
    pub fn new(d: &Description, steps: u64, watch: &mut Watch) -> Result<Prover, String> {
        watch.phase("deriving the static relations")?;
        let k = d.keys;
        // each relation's rules, and the relations they read
        let Graph { edges, scc } = Graph::new(&d.rules);
        let groups = scc.values().max().map_or(0, |m| m + 1);
        // a relation is dynamic if it reaches `true` or `does`
        let mut dynamic = vec![false; groups];
        let mut members: Vec<Vec<Relation>> = vec![Vec::new(); groups];
        for (&rel, &c) in &scc {
            members[c].push(rel);
        }
        for c in 0..groups {
            dynamic[c] = members[c].iter().any(|&rel| {
                rel.0 == k.truth || rel.0 == k.does || edges[&rel].iter().any(|q| dynamic[scc[q]])
            });
        }
        // negation within a group can only be ordered atom by atom
        for r in &d.rules {
            let c = scc[&r.head.relation()];
            if let Some(a) = r.body.iter().find_map(|l| match l {
                Literal::Neg(a) if scc[&a.relation()] == c => Some(a),
                _ => None,
            }) {
                return Err(format!(
                    "{}: `{}` depends on itself through `(not ({} ...))`: reasoning state by \
                     state needs negation stratified by relation",
                    r.pos,
                    d.symbols.name(r.head.rel),
                    d.symbols.name(a.rel)
                ));
            }
        }
        let mut rules_of: Vec<Vec<usize>> = vec![Vec::new(); groups];
        for (i, r) in d.rules.iter().enumerate() {
            rules_of[scc[&r.head.relation()]].push(i);
        }
        // the groups each target needs, in the order of evaluation: the
        // rules rewritten so that only the bindings asked for are derived
        // (magic sets), where that keeps negation stratified by relation
        let derived = |rel: &Relation| {
            scc.get(rel)
                .is_some_and(|&c| dynamic[c] && !rules_of[c].is_empty())
        };
        let needs = |roots: &[Relation]| -> Vec<Vec<Rule>> {
            let mut seen = vec![false; groups];
            let mut todo: Vec<Relation> = roots
                .iter()
                .filter(|r| scc.contains_key(*r))
                .copied()
                .collect();
            while let Some(rel) = todo.pop() {
                let c = scc[&rel];
                if seen[c] {
                    continue;
                }
                seen[c] = true;
                for m in &members[c] {
                    todo.extend(edges[m].iter().copied());
                }
            }
            (0..groups)
                .filter(|&c| seen[c] && dynamic[c] && !rules_of[c].is_empty())
                .map(|c| rules_of[c].iter().map(|&i| d.rules[i].clone()).collect())
                .collect()
        };
        let mut symbols = d.symbols.clone();
        let mut program =
            |roots: &[Relation]| match strata(&magic(d, &mut symbols, &derived, roots)) {
                Some(rewritten) => Program {
                    first: rewritten,
                    other: Some(needs(roots)),
                },
                None => Program {
                    first: needs(roots),
                    other: None,
                },
            };
        let roles = d.roles.len();
        let for_state = program(&[(k.legal, 2), (k.goal, 2), (k.terminal, 0)]);
        let for_next = program(&[(k.next, 1)]);

        let mut store = Store::default();
        let mut model = Model::default();
        for c in 0..groups {
            if dynamic[c] || rules_of[c].is_empty() {
                continue;
            }
            let rules: Vec<&Rule> = rules_of[c].iter().map(|&i| &d.rules[i]).collect();
            saturate(&mut model, &rules, true, None, &mut store, MAX_ATOMS, watch)?;
        }
        let first = arguments(&store, &model, k.init);
        let goal_max = (0..roles)
            .map(|r| {
                goal_rules(d, r)
                    .map(|(_, value)| match value {
                        Term::Const(c) => d.symbols.name(*c).parse::<i32>().unwrap_or(0),
                        _ => 100,
                    })
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut prover = Prover {
            d: Description {
                symbols,
                ..d.clone()
            },
            store: if store.count() >= SHARE_STORE_FROM {
                store.frozen()
            } else {
                store
            },
            model: model.frozen(),
            for_state,
            for_next,
            start: Now::default(),
            steps,
            goal_max,
            ids: (0..roles).map(|_| Mutex::default()).collect(),
        };
        watch.phase("reasoning about the first state")?;
        prover.start = prover.now(first);
        if let Some(e) = &prover.start.error {
            return Err(format!("the first state: {e}"));
        }
        // each target the way that takes fewer steps on the first state
        // (and its first joint move)
        if prover.fewer_steps_the_other_way(&prover.for_state, &prover.start.facts, None) {
            prover.for_state.swap();
            prover.start = prover.now(prover.start.facts.clone());
        }
        let start = &prover.start;
        let first_moves: Option<Vec<&[u32]>> = (!start.terminal)
            .then(|| {
                start
                    .moves
                    .iter()
                    .map(|m| m.first().map(|m| &m.flat[..]))
                    .collect()
            })
            .flatten();
        let swap_next = first_moves.is_some_and(|does| {
            prover.fewer_steps_the_other_way(&prover.for_next, &start.facts, Some(&does))
        });
        if swap_next {
            prover.for_next.swap();
        }
        Ok(prover)
    }

    /// The first state.
    pub fn first(&self) -> Now {
        self.start.clone()
    }

    /// The highest goal `role` can get: the highest its goal rules write
    /// (100 where a variable gives it).
    pub fn goal_max(&self, role: usize) -> i32 {
        self.goal_max[role]
    }

    /// The state whose `true` terms are `facts` (sorted, each once).
    pub fn now(&self, facts: Vec<Flat>) -> Now {
        let roles = self.d.roles.len();
        let mut now = Now {
            facts,
            moves: vec![Vec::new(); roles],
            terminal: false,
            goals: vec![0; roles],
            error: None,
        };
        let (store, model) = match self.derive(&now.facts, None, &self.for_state) {
            Ok(derived) => derived,
            Err(e) => {
                now.error = Some(e);
                return now;
            }
        };
        let k = self.d.keys;
        let role_of = |g: Gid| {
            self.d
                .roles
                .iter()
                .position(|&r| store.constant(r) == Some(g))
        };
        let atoms = |rel: Relation| model.atoms(&rel);
        for &legal in atoms((k.legal, 2)) {
            let &[role, mv] = store.args(legal) else {
                continue;
            };
            if let Some(r) = role_of(role) {
                let flat = flat(&store, mv);
                let id = {
                    let mut ids = self.ids[r].lock().unwrap_or_else(|e| e.into_inner());
                    let next = ids.len();
                    *ids.entry(flat.clone()).or_insert(next)
                };
                now.moves[r].push(Move {
                    flat,
                    text: store.text(mv, &self.d),
                    id,
                });
            }
        }
        for moves in &mut now.moves {
            moves.sort_by(|a, b| a.flat.cmp(&b.flat));
        }
        now.terminal = store.constant(k.terminal).is_some_and(|t| model.holds(t));
        // where several goals hold, the one whose first rule is written
        // first counts
        let mut best: Vec<Option<(usize, i32)>> = vec![None; roles];
        for &goal in atoms((k.goal, 2)) {
            let &[role, value] = store.args(goal) else {
                continue;
            };
            let Some(r) = role_of(role) else { continue };
            let text = store.text(value, &self.d);
            let v = match text.parse::<i32>() {
                Ok(v) if (0..=100).contains(&v) => v,
                _ => {
                    now.error = Some(format!(
                        "a goal is a whole number from 0 to 100, but the rules give `{text}` \
                         (GDL's own relations)"
                    ));
                    now.moves.iter_mut().for_each(Vec::clear);
                    return now;
                }
            };
            let rule = goal_rules(&self.d, r)
                .find(|(_, value)| match value {
                    Term::Const(c) => self.d.symbols.name(*c) == text,
                    _ => true,
                })
                .map_or(usize::MAX, |(i, _)| i);
            if best[r].is_none_or(|(first, _)| rule < first) {
                best[r] = Some((rule, v));
            }
        }
        for (goal, best) in now.goals.iter_mut().zip(best) {
            *goal = best.map_or(0, |(_, v)| v);
        }
        now
    }

    /// The state after each role `r` plays its legal move `chosen[r]` in
    /// `now`.
    pub fn next(&self, now: &Now, chosen: &[usize]) -> Now {
        let does: Vec<&[u32]> = chosen
            .iter()
            .zip(&now.moves)
            .map(|(&m, moves)| &moves[m].flat[..])
            .collect();
        match self.derive(&now.facts, Some(&does), &self.for_next) {
            Ok((store, model)) => self.now(arguments(&store, &model, self.d.keys.next)),
            Err(e) => Now {
                facts: now.facts.clone(),
                moves: vec![Vec::new(); now.moves.len()],
                terminal: false,
                goals: vec![0; now.moves.len()],
                error: Some(e),
            },
        }
    }

    /// Whether `program` takes fewer steps its other way than its first on
    /// the state `facts` (with `does`).
    fn fewer_steps_the_other_way(
        &self,
        program: &Program,
        facts: &[Flat],
        does: Option<&[&[u32]]>,
    ) -> bool {
        let Some(other) = &program.other else {
            return false;
        };
        let steps = |groups, budget| {
            self.derive_with(facts, does, groups, budget)
                .map(|(_, _, n)| n)
        };
        // the other way within the steps the first took: no more is needed
        match steps(&program.first, self.steps) {
            Ok(a) => steps(other, a).is_ok_and(|b| b < a),
            Err(_) => steps(other, self.steps).is_ok(),
        }
    }

    /// The static facts with `facts` true (and each role `r` doing
    /// `does[r]`), saturated under `program`'s rule groups: its first way,
    /// or where that runs past the budget, its other (the first way's
    /// error if both do).
    fn derive(
        &self,
        facts: &[Flat],
        does: Option<&[&[u32]]>,
        program: &Program,
    ) -> Result<(Store, Model), String> {
        match self.derive_with(facts, does, &program.first, self.steps) {
            Ok((store, model, _)) => Ok((store, model)),
            Err(e) => match &program.other {
                Some(other) => self
                    .derive_with(facts, does, other, self.steps)
                    .map(|(store, model, _)| (store, model))
                    .map_err(|_| e),
                None => Err(e),
            },
        }
    }

    /// [`Prover::derive`] under the rule groups `groups` in turn, within
    /// `steps` steps, and the steps it took.
    fn derive_with(
        &self,
        facts: &[Flat],
        does: Option<&[&[u32]]>,
        groups: &[Vec<Rule>],
        steps: u64,
    ) -> Result<(Store, Model, u64), String> {
        let k = self.d.keys;
        let mut store = self.store.clone();
        let mut model = self.model.clone();
        for f in facts {
            let g = unflat(&mut store, f);
            let atom = store.atom(k.truth, vec![g]);
            model.add((k.truth, 1), atom, &store);
        }
        for (r, m) in does.unwrap_or_default().iter().enumerate() {
            let role = store.intern(GTerm::Const(self.d.roles[r]));
            let g = unflat(&mut store, m);
            let atom = store.atom(k.does, vec![role, g]);
            model.add((k.does, 2), atom, &store);
        }
        let mut watch = Watch::quiet(steps);
        for group in groups {
            let rules: Vec<&Rule> = group.iter().collect();
            if let Err(e) = saturate(
                &mut model, &rules, true, None, &mut store, MAX_ATOMS, &mut watch,
            ) {
                let e = if watch.too_large() && !watch.over_limit {
                    let at = watch.rule.map(|p| format!("{p}: ")).unwrap_or_default();
                    format!(
                        "{at}reasoning about this state takes more than {} steps (the \
                         grounding budget, `ground_steps` among the game's parameters)",
                        self.steps
                    )
                } else {
                    e
                };
                return Err(e);
            }
        }
        Ok((store, model, watch.spent_steps()))
    }

    /// State `now` as a key for tables: two states with one key are the
    /// same state.
    pub fn key(&self, now: &Now) -> Box<[u64]> {
        let mut key = Vec::with_capacity(now.facts.iter().map(|f| f.len() + 1).sum());
        for f in &now.facts {
            key.push(f.len() as u64);
            key.extend(f.iter().map(|&w| u64::from(w)));
        }
        key.into_boxed_slice()
    }

    /// Term `flat` in KIF's normal form.
    pub fn text(&self, flat: &[u32]) -> String {
        fn write(flat: &[u32], at: &mut usize, d: &Description, out: &mut String) {
            let t = flat[*at];
            *at += 1;
            if t & 1 == 0 {
                out.push_str(d.symbols.name(t >> 1));
                return;
            }
            let n = flat[*at];
            *at += 1;
            out.push('(');
            out.push_str(d.symbols.name(t >> 1));
            for _ in 0..n {
                out.push(' ');
                write(flat, at, d, out);
            }
            out.push(')');
        }
        let mut out = String::new();
        write(flat, &mut 0, &self.d, &mut out);
        out
    }

    /// The flat term a KIF term is, if every symbol in it is the
    /// description's.
    pub fn flat_of(&self, t: &super::kif::Sexp) -> Option<Flat> {
        use super::kif::Sexp;
        fn walk(t: &Sexp, d: &Description, out: &mut Vec<u32>) -> Option<()> {
            match t {
                Sexp::Symbol(s, _) => out.push(tag(d.symbols.get(s)?, false)),
                Sexp::Var(..) => return None,
                Sexp::List(items, _) => {
                    let (Sexp::Symbol(f, _), args) = items.split_first()? else {
                        return None;
                    };
                    out.push(tag(d.symbols.get(f)?, true));
                    out.push(args.len() as u32);
                    for a in args {
                        walk(a, d, out)?;
                    }
                }
            }
            Some(())
        }
        let mut out = Vec::new();
        walk(t, &self.d, &mut out)?;
        Some(out.into_boxed_slice())
    }
}

/// `d`'s rules for the derived relations `roots` need, rewritten by the
/// magic-sets method so that bottom-up evaluation derives only the
/// bindings some rule asks for. Each literal of a derived relation (one
/// with rules that depends on the state or the moves) is *adorned* by
/// which of its arguments are bound when it is reached, reading the body
/// in the order written: by the head's bound arguments and the positive
/// literals before it. Where some are bound, the literal reads a copy of
/// its relation (`rel#bf`) whose rules start with a *magic* literal
/// (`magic#rel#bf`) holding the bound values asked for, and a magic rule
/// derives those from the rule's own magic literal and the positive
/// literals before it. A negated literal is adorned alike (its variables
/// are bound by then where the rule is written in the usual order), and
/// its copy is complete for every binding asked for before the rule reads
/// it, where the rewritten rules stay stratified ([`strata`]; else the
/// rules are used as written). A relation with nothing bound (the roots)
/// keeps its name and is derived whole. New symbols
/// go into `symbols`; the names cannot clash with a description's, which
/// has no `#`.
fn magic(
    d: &Description,
    symbols: &mut super::logic::Symbols,
    derived: &dyn Fn(&Relation) -> bool,
    roots: &[Relation],
) -> Vec<Rule> {
    type Adorned = (Relation, Vec<bool>);
    let name = |symbols: &mut super::logic::Symbols, prefix: &str, (rel, bound): &Adorned| {
        let pattern: String = bound.iter().map(|&b| if b { 'b' } else { 'f' }).collect();
        symbols.intern(&format!("{prefix}{}#{pattern}", d.symbols.name(rel.0)))
    };
    // an adorned literal: the relation's copy, or itself with nothing bound
    let adorned = |symbols: &mut super::logic::Symbols, a: &Atom, bound: &[bool]| -> Atom {
        if bound.iter().any(|&b| b) {
            Atom {
                rel: name(symbols, "", &(a.relation(), bound.to_vec())),
                args: a.args.clone(),
            }
        } else {
            a.clone()
        }
    };
    let magic_atom = |symbols: &mut super::logic::Symbols, a: &Atom, bound: &[bool]| Atom {
        rel: name(symbols, "magic#", &(a.relation(), bound.to_vec())),
        args: a
            .args
            .iter()
            .zip(bound)
            .filter(|(_, &b)| b)
            .map(|(t, _)| t.clone())
            .collect(),
    };
    let mut out = Vec::new();
    let mut done: HashSet<Adorned> = HashSet::default();
    let mut todo: Vec<Adorned> = roots
        .iter()
        .filter(|r| derived(r))
        .map(|&r| (r, vec![false; r.1]))
        .collect();
    while let Some((rel, bound)) = todo.pop() {
        if !done.insert((rel, bound.clone())) {
            continue;
        }
        for rule in d.rules.iter().filter(|r| r.head.relation() == rel) {
            let mut known: Vec<u32> = Vec::new();
            for (t, _) in rule.head.args.iter().zip(&bound).filter(|(_, &b)| b) {
                t.vars(&mut known);
            }
            let mut body = Vec::new();
            if bound.iter().any(|&b| b) {
                body.push(Literal::Pos(magic_atom(symbols, &rule.head, &bound)));
            }
            for l in &rule.body {
                match l {
                    Literal::Pos(a) | Literal::Neg(a) if derived(&a.relation()) => {
                        let a_bound: Vec<bool> = a
                            .args
                            .iter()
                            .map(|t| {
                                let mut vars = Vec::new();
                                t.vars(&mut vars);
                                vars.iter().all(|v| known.contains(v))
                            })
                            .collect();
                        if a_bound.iter().any(|&b| b) {
                            // what this literal is asked for: the magic
                            // literal and the positive literals before it
                            let asks: Vec<Literal> = body
                                .iter()
                                .filter(|l| matches!(l, Literal::Pos(_)))
                                .cloned()
                                .collect();
                            out.push(Rule {
                                head: magic_atom(symbols, a, &a_bound),
                                body: asks,
                                vars: rule.vars.clone(),
                                pos: rule.pos,
                            });
                        }
                        let copy = adorned(symbols, a, &a_bound);
                        todo.push((a.relation(), a_bound));
                        if let Literal::Pos(_) = l {
                            body.push(Literal::Pos(copy));
                            a.args.iter().for_each(|t| t.vars(&mut known));
                        } else {
                            body.push(Literal::Neg(copy));
                        }
                    }
                    Literal::Pos(a) => {
                        body.push(l.clone());
                        a.args.iter().for_each(|t| t.vars(&mut known));
                    }
                    Literal::Neg(_) | Literal::Distinct(..) | Literal::Same(..) => {
                        body.push(l.clone())
                    }
                }
            }
            out.push(Rule {
                head: adorned(symbols, &rule.head, &bound),
                body,
                vars: rule.vars.clone(),
                pos: rule.pos,
            });
        }
    }
    out
}

/// `rules` in groups, each a relation's recursive group after the groups
/// it depends on; `None` where a group depends on itself through `not`.
fn strata(rules: &[Rule]) -> Option<Vec<Vec<Rule>>> {
    let Graph { scc, .. } = Graph::new(rules);
    let mut groups: Vec<Vec<Rule>> = vec![Vec::new(); scc.values().max().map_or(0, |m| m + 1)];
    for r in rules {
        let c = scc[&r.head.relation()];
        let recursive_not = r.body.iter().any(|l| match l {
            Literal::Neg(a) => scc[&a.relation()] == c,
            _ => false,
        });
        if recursive_not {
            return None;
        }
        groups[c].push(r.clone());
    }
    groups.retain(|g| !g.is_empty());
    Some(groups)
}

/// Role `role`'s goal rules, in the order written, with the value each
/// head writes: those whose head's role is `role` or a variable.
fn goal_rules(d: &Description, role: usize) -> impl Iterator<Item = (usize, &Term)> {
    let (goal, me) = (d.keys.goal, d.roles[role]);
    d.rules
        .iter()
        .enumerate()
        .filter_map(move |(i, r)| match &r.head.args[..] {
            [who, value] if r.head.rel == goal => match who {
                Term::Const(c) if *c != me => None,
                _ => Some((i, value)),
            },
            _ => None,
        })
}

/// The argument of every fact of the one-argument relation `rel` (`init`,
/// `next`): a state's terms, flat, sorted, each once.
fn arguments(store: &Store, model: &Model, rel: Sym) -> Vec<Flat> {
    let mut terms: Vec<Flat> = model
        .atoms(&(rel, 1))
        .iter()
        .map(|&a| flat(store, store.args(a)[0]))
        .collect();
    terms.sort();
    terms.dedup();
    terms
}

/// Term `g` of `store`, flat.
fn flat(store: &Store, g: Gid) -> Flat {
    fn walk(store: &Store, g: Gid, out: &mut Vec<u32>) {
        match store.get(g) {
            GTerm::Const(c) => out.push(tag(c, false)),
            GTerm::Fn(f, args) => {
                out.push(tag(f, true));
                out.push(args.len() as u32);
                for &a in args {
                    walk(store, a, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(store, g, &mut out);
    out.into_boxed_slice()
}

/// Flat term `flat`, stored in `store`.
fn unflat(store: &mut Store, flat: &[u32]) -> Gid {
    fn walk(store: &mut Store, flat: &[u32], at: &mut usize) -> Gid {
        let t = flat[*at];
        *at += 1;
        if t & 1 == 0 {
            return store.intern(GTerm::Const(t >> 1));
        }
        let n = flat[*at] as usize;
        *at += 1;
        let args: Vec<Gid> = (0..n).map(|_| walk(store, flat, at)).collect();
        store.intern(GTerm::Fn(t >> 1, &args))
    }
    walk(store, flat, &mut 0)
}

#[cfg(test)]
mod tests {
    use std::{path::Path, sync::Arc};

    use rand::{Rng as _, SeedableRng};

    use super::super::{kif, Gdl, Rules, DEFAULT_BUDGET};
    use super::*;
    use crate::core::{game::Game, seat::Seat};
    use crate::Rng;

    /// A state's terms, as a sorted list (the two reasoners list them in
    /// different orders).
    fn terms(g: &Gdl) -> Vec<String> {
        let mut t: Vec<String> = kif::parse(&g.observation(Seat::First))
            .unwrap()
            .iter()
            .map(ToString::to_string)
            .collect();
        t.sort();
        t
    }

    fn moves(g: &Gdl, r: usize) -> Vec<String> {
        let mut m: Vec<String> = g
            .legal_indices(r)
            .into_iter()
            .map(|i| g.move_of(r, i).0)
            .collect();
        m.sort();
        m
    }

    /// Random games of the description `text`, played by the grounded
    /// machine and by state-by-state reasoning in lockstep: the same state,
    /// legal moves, `terminal` and goals at every step. The number of
    /// states seen.
    fn lockstep(name: &str, text: &str, games: usize, rng: &mut Rng) -> usize {
        let ground = Arc::new(Rules::new(name, text).unwrap());
        let demand = Arc::new(Rules::on_demand(name, text, DEFAULT_BUDGET).unwrap());
        assert!(!ground.on_demand_reasoning() && demand.on_demand_reasoning());
        let mut states = 0;
        for game in 0..games {
            let (mut a, mut b) = (
                Gdl::start(Arc::clone(&ground)),
                Gdl::start(Arc::clone(&demand)),
            );
            loop {
                let at = format!("{name}, game {game}, state {states}: {:?}", terms(&a));
                states += 1;
                assert_eq!(terms(&a), terms(&b), "{at}");
                assert_eq!(a.terminal(), b.terminal(), "{at}");
                assert_eq!(a.goals(), b.goals(), "{at}");
                assert_eq!(a.over(), b.over(), "{at}");
                for r in 0..2 {
                    assert_eq!(moves(&a, r), moves(&b, r), "{at}, role {r}");
                }
                if a.over() {
                    break;
                }
                let (mut ca, mut cb) = ([0; 2], [0; 2]);
                for (r, (ma, mb)) in ca.iter_mut().zip(&mut cb).enumerate() {
                    let legal = a.legal_indices(r);
                    *ma = legal[rng.random_range(0..legal.len())];
                    let text = a.move_of(r, *ma).0;
                    *mb = b.legal_named(r, &text).expect("legal in both");
                    assert_eq!(b.move_of(r, *mb).0, text);
                }
                a.advance(&ca);
                b.advance(&cb);
            }
        }
        states
    }

    #[test]
    fn state_by_state_reasoning_agrees_with_the_grounded_machine_on_every_shipped_description() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/gdl");
        let mut rng = Rng::seed_from_u64(11);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let states = lockstep(&name, &text, 10, &mut rng);
            assert!(states > 10, "{name}: games were played");
        }
    }

    /// Propositions folded into the rules that read them (machine.rs's
    /// `fold_disjunctions`) are worked out as the rules say: a disjunction
    /// (`occupied`) read through a negation (`free`) by move rules, by a
    /// recursive group (`run`: the free cells joined to the first, whose
    /// ground atoms read each other both ways) and by `terminal` (through
    /// `open`, itself a disjunction read under `not`), and a disjunction of
    /// moves (`changed`) read under `not` by the frame rules.
    #[test]
    fn folded_propositions_are_read_as_the_rules_say() {
        let text = "(role white) (role black) (init (control white)) (init (step 0))\n\
            (index 1) (index 2) (index 3) (index 4) (index 5) (index 6) (first 1)\n\
            (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)\n\
            (succ 6 7) (succ 7 8) (succ 8 9) (succ 9 10)\n\
            (<= (adjacent ?c ?d) (succ ?c ?d) (index ?c) (index ?d))\n\
            (<= (adjacent ?d ?c) (succ ?c ?d) (index ?c) (index ?d))\n\
            (<= (occupied ?c) (true (cell ?c white)))\n\
            (<= (occupied ?c) (true (cell ?c black)))\n\
            (<= (free ?c) (index ?c) (not (occupied ?c)))\n\
            (<= (run ?c) (first ?c) (free ?c))\n\
            (<= (run ?d) (run ?c) (adjacent ?c ?d) (free ?d))\n\
            (<= open (free ?c))\n\
            (<= (legal ?p (mark ?c)) (true (control ?p)) (free ?c))\n\
            (<= (legal ?p pass) (true (control ?p)) (run 2))\n\
            (<= (legal white noop) (true (control black)))\n\
            (<= (legal black noop) (true (control white)))\n\
            (<= (changed ?c) (does ?p (mark ?c)))\n\
            (<= (next (cell ?c ?p)) (does ?p (mark ?c)))\n\
            (<= (next (cell ?c ?x)) (true (cell ?c ?x)) (not (changed ?c)))\n\
            (<= (next (control black)) (true (control white)))\n\
            (<= (next (control white)) (true (control black)))\n\
            (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))\n\
            (<= terminal (not open))\n\
            (<= terminal (true (step 9)))\n\
            (<= (goal white 100) (true (cell 1 white)))\n\
            (<= (goal white 0) (not (true (cell 1 white))))\n\
            (<= (goal black 100) (run 3))\n\
            (<= (goal black 0) (not (run 3)))\n";
        let mut rng = Rng::seed_from_u64(14);
        let states = lockstep("folded", text, 40, &mut rng);
        assert!(states > 200, "{states}");
    }

    /// A game in the style of the public `merrills.kif`: players in turn
    /// put a stone on an empty cell of a row of `cells` or skip, until the
    /// row is full or 30 turns have passed, and the stones are counted
    /// with accumulators over the numbers `0..numbers` (`count_loop`), so
    /// the relaxed model holds every count from every cell at once. More
    /// stones win.
    fn counting(cells: usize, numbers: usize) -> String {
        let mut t =
            String::from("(role white) (role black) (init (control white)) (init (step 0))\n");
        for c in 1..=cells {
            t.push_str(&format!("(init (cell {c} empty)) "));
        }
        t.push_str(
            "\n(<= (legal ?p (place ?c)) (true (control ?p)) (true (cell ?c empty)))\n\
             (<= (legal ?p skip) (true (control ?p)))\n\
             (<= (legal white noop) (true (control black)))\n\
             (<= (legal black noop) (true (control white)))\n\
             (<= (next (cell ?c ?p)) (does ?p (place ?c)))\n\
             (<= (next (cell ?c ?x)) (true (cell ?c ?x)) (does ?p (place ?d)) (distinct ?c ?d))\n\
             (<= (next (cell ?c ?x)) (true (cell ?c ?x)) (does ?p skip))\n\
             (<= (next (control black)) (true (control white)))\n\
             (<= (next (control white)) (true (control black)))\n\
             (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))\n\
             (<= open (true (cell ?c empty)))\n\
             (<= terminal (not open))\n\
             (<= terminal (true (step 30)))\n\
             (<= (count ?w ?b) (count_loop 1 0 0 ?w ?b))\n\
             (<= (count_loop ?c ?w1 ?b1 ?w ?b) (last ?c) (count_one ?c ?w1 ?b1 ?w ?b))\n\
             (<= (count_loop ?c ?w1 ?b1 ?w ?b) (count_one ?c ?w1 ?b1 ?w2 ?b2)\n\
                 (next_cell ?c ?d) (count_loop ?d ?w2 ?b2 ?w ?b))\n\
             (<= (count_one ?c ?w1 ?b ?w ?b) (true (cell ?c white)) (succ ?w1 ?w) (number ?b))\n\
             (<= (count_one ?c ?w ?b1 ?w ?b) (true (cell ?c black)) (succ ?b1 ?b) (number ?w))\n\
             (<= (count_one ?c ?w ?b ?w ?b) (true (cell ?c empty)) (number ?w) (number ?b))\n\
             (<= (goal black 100) (count ?w ?b) (less ?w ?b))\n\
             (<= (goal black 50) (count ?w ?w))\n\
             (<= (goal black 0) (count ?w ?b) (less ?b ?w))\n\
             (<= (goal white 100) (count ?w ?b) (less ?b ?w))\n\
             (<= (goal white 50) (count ?w ?w))\n\
             (<= (goal white 0) (count ?w ?b) (less ?w ?b))\n\
             (<= (less ?a ?b) (succ ?a ?b))\n\
             (<= (less ?a ?c) (succ ?a ?b) (less ?b ?c))\n",
        );
        for c in 1..cells {
            t.push_str(&format!("(next_cell {c} {}) ", c + 1));
        }
        t.push_str(&format!("(last {cells}) "));
        for n in 0..numbers.max(31) {
            if n < numbers {
                t.push_str(&format!("(number {n}) "));
            }
            t.push_str(&format!("(succ {n} {}) ", n + 1));
        }
        t.push('\n');
        t
    }

    /// Where counting is small enough to ground whole, both reasoners
    /// agree on it (the rules rewritten so only the counts asked for are
    /// derived, [`magic`], included).
    #[test]
    fn state_by_state_reasoning_agrees_on_a_game_that_counts_with_accumulators() {
        let mut rng = Rng::seed_from_u64(12);
        let states = lockstep("counting", &counting(5, 6), 10, &mut rng);
        assert!(states > 50, "{states}");
    }

    /// With counts up to 70 (as merrills), grounding whole is past the
    /// default budget;
    /// the game is reasoned about state by state, and every end state's
    /// goals are those its stones give.
    #[test]
    fn a_game_too_large_to_ground_whole_plays_state_by_state_within_the_default_budget() {
        let rules = Arc::new(Rules::new("counting", &counting(12, 71)).unwrap());
        assert!(rules.on_demand_reasoning());
        let mut rng = Rng::seed_from_u64(13);
        let mut results = std::collections::BTreeSet::new();
        for _ in 0..20 {
            let mut g = Gdl::start(Arc::clone(&rules));
            while !g.over() {
                let chosen = [0, 1].map(|r| {
                    let legal = g.legal_indices(r);
                    legal[rng.random_range(0..legal.len())]
                });
                g.advance(&chosen);
            }
            assert!(g.terminal() && g.error().is_none());
            let stones = |colour: &str| {
                terms(&g)
                    .iter()
                    .filter(|t| t.starts_with("(cell ") && t.ends_with(&format!(" {colour})")))
                    .count()
            };
            let (w, b) = (stones("white"), stones("black"));
            let expected = match w.cmp(&b) {
                std::cmp::Ordering::Greater => [100, 0],
                std::cmp::Ordering::Equal => [50, 50],
                std::cmp::Ordering::Less => [0, 100],
            };
            assert_eq!(g.goals(), expected, "{:?}", terms(&g));
            results.insert(g.goals());
        }
        assert!(results.len() > 1, "games ended differently: {results:?}");
    }

    /// Each target is reasoned about the way chosen at load (fewer steps on
    /// the first state), and the other way where that one runs past the
    /// budget: with counts up to 70, the rules as written explode, and a
    /// prover made to try them first still reasons about the states, to
    /// the same moves and goals.
    #[test]
    fn a_state_past_the_budget_one_way_is_reasoned_about_the_other_way() {
        use super::super::budget::Watch;
        let d = Description::parse(&counting(12, 71)).unwrap();
        // the rewritten rules take hundreds of steps on the first state,
        // the rules as written millions
        let steps = 1_000_000;
        let mut prover = Prover::new(&d, steps, &mut Watch::quiet(steps)).unwrap();
        let start = prover.first();
        let written = prover
            .for_state
            .other
            .as_ref()
            .expect("the rules as written");
        assert!(
            prover
                .derive_with(&start.facts, None, written, steps)
                .is_err(),
            "the rules as written explode (so the rewritten ones came first)"
        );
        let texts = |now: &Now| -> Vec<Vec<String>> {
            now.moves
                .iter()
                .map(|m| m.iter().map(|m| m.text.clone()).collect())
                .collect()
        };
        prover.for_state.swap();
        let again = prover.now(start.facts.clone());
        assert!(again.error.is_none(), "{:?}", again.error);
        assert_eq!(texts(&again), texts(&start));
        assert_eq!(
            (again.terminal, &again.goals),
            (start.terminal, &start.goals)
        );
        let next = prover.next(&again, &[1, 0]);
        assert!(next.error.is_none() && !texts(&next)[1].is_empty());
    }

    /// A state past the budget is stuck: no role moves, the game is over
    /// there, and the error says why.
    #[test]
    fn a_state_past_the_budget_is_stuck_and_says_why() {
        let nums: Vec<String> = (0..40).map(|i| format!("(num {i})")).collect();
        let text = format!(
            "(role a) (role b) (init (p)) (legal a go) (legal b noop)\n\
             (<= (next (q)) (does a go)) (<= terminal (true (q)) big)\n\
             (goal a 0) (goal b 0) {}\n\
             (<= big (true (q)) (num ?a) (num ?b) (num ?c) (num ?d) (num ?e) (num ?f))\n",
            nums.join(" ")
        );
        let budget = super::super::budget::Budget {
            steps: 100_000,
            seconds: 60,
        };
        let rules = Arc::new(Rules::on_demand("stuck", &text, budget).unwrap());
        let mut g = Gdl::start(rules);
        assert!(!g.over() && g.error().is_none());
        assert_eq!(g.move_of(0, 0).0, "go");
        g.advance(&[0, 0]);
        assert!(g.over());
        assert_eq!(g.legal_indices(0), Vec::<usize>::new());
        assert_eq!(g.goals(), [0, 0]);
        assert_eq!(
            g.error(),
            Some(
                "line 4, column 1: reasoning about this state takes more than 100000 steps \
                 (the grounding budget, `ground_steps` among the game's parameters)"
            )
        );
    }
}
