//! Grounding: every rule of a description instantiated with the variable
//! values that can ever matter, so the reasoner works on propositions
//! only.
//!
//! The values come from the *relaxed* model: everything derivable when
//! `true` holds for every `init` and every `next`, `does` for every `legal`,
//! and `not` is ignored. That is a superset of every reachable state's
//! atoms, and finite by GDL's recursion restriction. It is computed by
//! semi-naive bottom-up evaluation (each round joins at least one literal
//! against the facts the round before found). Each rule is then
//! instantiated over the model: a positive literal must be in it, a
//! `distinct` must hold, and a negated atom that is not in it is always
//! true and is dropped.

use std::collections::{HashMap, HashSet};

use super::logic::{Atom, Description, Literal, Relation, Rule, Sym, Term};

/// A ground term's number.
pub type Gid = u32;

/// A ground term: a constant, or a function of ground terms.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GTerm {
    Const(Sym),
    Fn(Sym, Box<[Gid]>),
}

/// Every ground term met, by number (atoms are terms too: `(cell 1 1 b)`).
#[derive(Clone, Debug, Default)]
pub struct Store {
    terms: Vec<GTerm>,
    ids: HashMap<GTerm, Gid>,
}

impl Store {
    pub fn intern(&mut self, t: GTerm) -> Gid {
        if let Some(&id) = self.ids.get(&t) {
            return id;
        }
        let id = self.terms.len() as Gid;
        self.terms.push(t.clone());
        self.ids.insert(t, id);
        id
    }

    pub fn get(&self, id: Gid) -> &GTerm {
        &self.terms[id as usize]
    }

    pub fn find(&self, t: &GTerm) -> Option<Gid> {
        self.ids.get(t).copied()
    }

    /// The atom `rel(args)` (a constant when there are no arguments).
    pub fn atom(&mut self, rel: Sym, args: Vec<Gid>) -> Gid {
        if args.is_empty() {
            self.intern(GTerm::Const(rel))
        } else {
            self.intern(GTerm::Fn(rel, args.into_boxed_slice()))
        }
    }

    /// The arguments of an atom or function (none for a constant).
    pub fn args(&self, id: Gid) -> &[Gid] {
        match self.get(id) {
            GTerm::Const(_) => &[],
            GTerm::Fn(_, args) => args,
        }
    }

    /// The term in KIF's normal form: `(cell 1 1 b)`.
    pub fn text(&self, id: Gid, d: &Description) -> String {
        let mut s = String::new();
        self.write(id, d, &mut s);
        s
    }

    fn write(&self, id: Gid, d: &Description, out: &mut String) {
        match self.get(id) {
            GTerm::Const(c) => out.push_str(d.symbols.name(*c)),
            GTerm::Fn(f, args) => {
                out.push('(');
                out.push_str(d.symbols.name(*f));
                for &a in args.iter() {
                    out.push(' ');
                    self.write(a, d, out);
                }
                out.push(')');
            }
        }
    }
}

/// A ground rule: `head` holds when every `pos` does and no `neg` does.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GroundRule {
    pub head: Gid,
    pub pos: Vec<Gid>,
    pub neg: Vec<Gid>,
}

/// The grounded description.
pub struct Grounded {
    pub store: Store,
    pub rules: Vec<GroundRule>,
    /// The relaxed model's atoms, per relation.
    pub model: HashMap<Relation, Vec<Gid>>,
}

/// How much work grounding may do: every fact a rule's literal is tried
/// against, and every instance it yields, is one step.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub steps: u64,
}

/// Grounds `d`, or says the relaxed model grew past `limit` atoms, or that
/// grounding a rule ran past `budget` (naming the rule's line and column).
pub fn ground(d: &Description, limit: usize, budget: Budget) -> Result<Grounded, String> {
    let mut left = budget.steps;
    let over = |rule: &Rule| {
        format!(
            "{}: grounding this rule takes more than {} steps (the grounding budget, \
             `ground_steps` among the game's parameters)",
            rule.pos, budget.steps
        )
    };
    let k = d.keys;
    let mut store = Store::default();
    // the relaxed program: the rules, plus true <= init, true <= next, does <= legal
    let mut relaxed: Vec<Rule> = d.rules.clone();
    let link = |head: Sym, body: Sym, arity: usize| Rule {
        head: Atom {
            rel: head,
            args: (0..arity as u32).map(Term::Var).collect(),
        },
        body: vec![Literal::Pos(Atom {
            rel: body,
            args: (0..arity as u32).map(Term::Var).collect(),
        })],
        vars: (0..arity).map(|i| format!("v{i}")).collect(),
        pos: super::kif::Pos { line: 0, column: 0 },
    };
    relaxed.push(link(k.truth, k.init, 1));
    relaxed.push(link(k.truth, k.next, 1));
    relaxed.push(link(k.does, k.legal, 2));

    let mut model = Model::default();
    // rounds: the facts each relation had when the round before began, and when it ended
    let mut before: HashMap<Relation, usize> = HashMap::new();
    let mut first = true;
    loop {
        let now: HashMap<Relation, usize> =
            model.facts.iter().map(|(r, v)| (*r, v.len())).collect();
        // each atom once, in the order found: memory grows with the atoms,
        // not with the ways of deriving them
        let mut found: Vec<(Relation, Gid)> = Vec::new();
        let mut found_once: HashSet<Gid> = HashSet::new();
        for rule in &relaxed {
            let positives = positives(rule);
            // semi-naive: literal j over the last round's new facts, those
            // before it over older facts, those after over all
            let variants = if first { 1 } else { positives.len() };
            for j in 0..variants {
                let ranges: Vec<(usize, usize)> = positives
                    .iter()
                    .enumerate()
                    .map(|(i, a)| {
                        let r = a.relation();
                        let old = before.get(&r).copied().unwrap_or(0);
                        let all = now.get(&r).copied().unwrap_or(0);
                        if first {
                            (0, all)
                        } else if i < j {
                            (0, old)
                        } else if i == j {
                            (old, all)
                        } else {
                            (0, all)
                        }
                    })
                    .collect();
                if !first && ranges[j].0 == ranges[j].1 {
                    continue;
                }
                if positives.is_empty() && !first {
                    continue;
                }
                model.join(
                    rule,
                    &positives,
                    &ranges,
                    &mut store,
                    &mut left,
                    &mut |store, binds| {
                        let head = instantiate_atom(&rule.head, binds, store);
                        if found_once.insert(head) {
                            found.push((rule.head.relation(), head));
                        }
                    },
                );
                if left == 0 {
                    return Err(over(rule));
                }
            }
        }
        first = false;
        before = now;
        let mut grew = false;
        for (rel, atom) in found {
            grew |= model.add(rel, atom);
        }
        if model.seen.len() > limit {
            return Err(format!(
                "the game has more than {limit} ground atoms: too large to ground"
            ));
        }
        if !grew {
            break;
        }
    }

    // every rule instantiated over the model
    let mut rules = Vec::new();
    let mut unique = HashSet::new();
    for rule in &d.rules {
        let positives = positives(rule);
        let ranges: Vec<(usize, usize)> = positives
            .iter()
            .map(|a| (0, model.facts.get(&a.relation()).map_or(0, Vec::len)))
            .collect();
        model.join(
            rule,
            &positives,
            &ranges,
            &mut store,
            &mut left,
            &mut |store, binds| {
                let head = instantiate_atom(&rule.head, binds, store);
                let mut pos = Vec::new();
                let mut neg = Vec::new();
                for l in &rule.body {
                    match l {
                        Literal::Pos(a) => pos.push(instantiate_atom(a, binds, store)),
                        Literal::Neg(a) => neg.push(instantiate_atom(a, binds, store)),
                        Literal::Distinct(..) => {}
                    }
                }
                let g = GroundRule { head, pos, neg };
                if rules.len() <= limit && unique.insert(g.clone()) {
                    rules.push(g);
                }
            },
        );
        if left == 0 {
            return Err(over(rule));
        }
        if rules.len() > limit {
            return Err(format!(
                "{}: the game has more than {limit} ground rules: too large to ground",
                rule.pos
            ));
        }
    }
    // a negated atom the model lacks never holds: drop it
    for r in &mut rules {
        r.neg.retain(|g| model.seen.contains(g));
        // the literals stay in the order written (a description puts the
        // literal that fails most often first), without repeats
        let mut seen = HashSet::new();
        r.pos.retain(|g| seen.insert(*g));
    }
    Ok(Grounded {
        store,
        rules,
        model: model.facts,
    })
}

/// A rule's positive literals, in the order written.
fn positives(rule: &Rule) -> Vec<&Atom> {
    rule.body
        .iter()
        .filter_map(|l| match l {
            Literal::Pos(a) => Some(a),
            _ => None,
        })
        .collect()
}

/// The facts derived so far, per relation, in the order found.
#[derive(Default)]
struct Model {
    facts: HashMap<Relation, Vec<Gid>>,
    seen: HashSet<Gid>,
}

impl Model {
    fn add(&mut self, rel: Relation, atom: Gid) -> bool {
        if !self.seen.insert(atom) {
            return false;
        }
        self.facts.entry(rel).or_default().push(atom);
        true
    }

    /// Calls `emit` with every binding of `rule`'s variables under which
    /// each positive literal `positives[i]` matches a fact in `ranges[i]`
    /// and every `distinct` holds.
    fn join(
        &self,
        rule: &Rule,
        positives: &[&Atom],
        ranges: &[(usize, usize)],
        store: &mut Store,
        left: &mut u64,
        emit: &mut dyn FnMut(&mut Store, &[Option<Gid>]),
    ) {
        let distincts: Vec<(&Term, &Term)> = rule
            .body
            .iter()
            .filter_map(|l| match l {
                Literal::Distinct(a, b) => Some((a, b)),
                _ => None,
            })
            .collect();
        let mut binds = vec![None; rule.vars.len()];
        let mut trail = Vec::new();
        self.step(
            positives, ranges, &distincts, 0, &mut binds, &mut trail, store, left, emit,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn step(
        &self,
        positives: &[&Atom],
        ranges: &[(usize, usize)],
        distincts: &[(&Term, &Term)],
        i: usize,
        binds: &mut Vec<Option<Gid>>,
        trail: &mut Vec<u32>,
        store: &mut Store,
        left: &mut u64,
        emit: &mut dyn FnMut(&mut Store, &[Option<Gid>]),
    ) {
        if *left == 0 {
            return; // out of budget: the caller says so
        }
        // a distinct whose variables are all bound is checked at once
        for (a, b) in distincts {
            if let (Some(x), Some(y)) = (
                try_instantiate(a, binds, store),
                try_instantiate(b, binds, store),
            ) {
                if x == y {
                    return;
                }
            }
        }
        let Some(atom) = positives.get(i) else {
            *left -= 1;
            emit(store, binds);
            return;
        };
        let Some(facts) = self.facts.get(&atom.relation()) else {
            return;
        };
        let (lo, hi) = ranges[i];
        for &fact in &facts[lo..hi] {
            if *left == 0 {
                return;
            }
            *left -= 1;
            let mark = trail.len();
            let s: &Store = store;
            let ok = atom
                .args
                .iter()
                .zip(s.args(fact))
                .all(|(t, &g)| matches(t, g, binds, trail, s));
            if ok {
                self.step(
                    positives,
                    ranges,
                    distincts,
                    i + 1,
                    binds,
                    trail,
                    store,
                    left,
                    emit,
                );
            }
            for v in trail.drain(mark..) {
                binds[v as usize] = None;
            }
        }
    }
}

/// Whether pattern `t` matches ground term `g`, binding free variables.
fn matches(
    t: &Term,
    g: Gid,
    binds: &mut [Option<Gid>],
    trail: &mut Vec<u32>,
    store: &Store,
) -> bool {
    match t {
        Term::Var(v) => match binds[*v as usize] {
            Some(b) => b == g,
            None => {
                binds[*v as usize] = Some(g);
                trail.push(*v);
                true
            }
        },
        Term::Const(c) => *store.get(g) == GTerm::Const(*c),
        Term::Fn(f, args) => match store.get(g) {
            GTerm::Fn(gf, gargs) if gf == f && gargs.len() == args.len() => args
                .iter()
                .zip(gargs.iter())
                .all(|(t, &g)| matches(t, g, binds, trail, store)),
            _ => false,
        },
    }
}

/// `t` under `binds`, or `None` while one of its variables is unbound.
fn try_instantiate(t: &Term, binds: &[Option<Gid>], store: &mut Store) -> Option<Gid> {
    match t {
        Term::Const(c) => Some(store.intern(GTerm::Const(*c))),
        Term::Var(v) => binds[*v as usize],
        Term::Fn(f, args) => {
            let args = args
                .iter()
                .map(|a| try_instantiate(a, binds, store))
                .collect::<Option<Vec<_>>>()?;
            Some(store.intern(GTerm::Fn(*f, args.into_boxed_slice())))
        }
    }
}

fn instantiate_atom(a: &Atom, binds: &[Option<Gid>], store: &mut Store) -> Gid {
    let args = a
        .args
        .iter()
        .map(|t| try_instantiate(t, binds, store).expect("safe rules bind every variable"))
        .collect();
    store.atom(a.rel, args)
}
