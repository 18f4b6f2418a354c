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
//!
//! Each rule is joined in the order that costs least (`join.rs`), but the
//! atoms and ground rules are *found* in the order of the rules as written
//! (nested loops over the literals, facts in the order found): each join's
//! results are sorted by the facts they matched, so the moves, the state's
//! terms and the ground rules come out in the same order however the join
//! ran, and a season's journal does not depend on the grounder.
//!
//! What grounding may cost is bounded ([`Budget`], `budget.rs`): steps (a
//! fact tried against a literal, or an instance yielded) and seconds.

use super::hash::{HashMap, HashSet};

pub use super::budget::{Budget, Watch};
pub use super::store::{GTerm, Gid, Store};
use super::{
    join::Model,
    kif::Pos,
    logic::{Atom, Description, Literal, Relation, Rule, Sym, Term},
    store::instantiate_atom,
};

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
    /// For each ground rule, the index of the description's rule it
    /// instantiates (the first, where several give the same).
    pub from: Vec<usize>,
    /// The relaxed model's atoms, per relation, in the order found.
    pub model: HashMap<Relation, Vec<Gid>>,
}

/// Grounds `d`, or says the relaxed model grew past `limit` atoms, or that
/// grounding ran past the budget of `watch` (naming the rule's line and
/// column).
pub fn ground(d: &Description, limit: usize, watch: &mut Watch) -> Result<Grounded, String> {
    let too_many = || format!("the game has more than {limit} ground atoms: too large to ground");
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
        pos: Pos { line: 0, column: 0 },
    };
    relaxed.push(link(k.truth, k.init, 1));
    relaxed.push(link(k.truth, k.next, 1));
    relaxed.push(link(k.does, k.legal, 2));

    watch.phase("grounding")?;
    let mut model = Model::default();
    // rounds: the facts each relation had when the round before began, and when it ended
    let mut before: HashMap<Relation, usize> = HashMap::default();
    let mut first = true;
    loop {
        let now: HashMap<Relation, usize> = model
            .facts
            .iter()
            .map(|(r, v)| (*r, v.atoms.len()))
            .collect();
        // each atom once, in the order found: memory grows with the atoms,
        // not with the ways of deriving them
        let mut found: Vec<(Relation, Gid)> = Vec::new();
        let mut found_once: HashSet<Gid> = HashSet::default();
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
                watch.rule = Some(rule.pos);
                // each new atom with the facts that first yield it (first
                // in the order of nested loops over the literals as written)
                let mut firsts: HashMap<Gid, Box<[u32]>> = HashMap::default();
                let known = model.len() + found_once.len();
                let complete = model.join(
                    rule,
                    &positives,
                    &ranges,
                    &mut store,
                    watch,
                    &mut |store, binds, facts| {
                        let head = instantiate_atom(&rule.head, binds, store);
                        if model.holds(head) || found_once.contains(&head) {
                            return true;
                        }
                        keep_first(&mut firsts, head, facts);
                        known + firsts.len() <= limit
                    },
                );
                if known + firsts.len() > limit {
                    return Err(too_many());
                }
                if !complete {
                    return Err(watch.error(Some(rule.pos)));
                }
                for head in in_found_order(firsts) {
                    found_once.insert(head);
                    found.push((rule.head.relation(), head));
                }
            }
        }
        first = false;
        before = now;
        let mut grew = false;
        for (rel, atom) in found {
            grew |= model.add(rel, atom, &store);
        }
        watch.atoms = model.len();
        if model.len() > limit {
            return Err(too_many());
        }
        if !grew {
            break;
        }
    }

    // every rule instantiated over the model
    let mut rules = Vec::new();
    let mut from = Vec::new();
    let mut unique = HashSet::default();
    for (index, rule) in d.rules.iter().enumerate() {
        let positives = positives(rule);
        let ranges: Vec<(usize, usize)> = positives
            .iter()
            .map(|a| {
                (
                    0,
                    model.facts.get(&a.relation()).map_or(0, |f| f.atoms.len()),
                )
            })
            .collect();
        watch.rule = Some(rule.pos);
        let mut firsts: HashMap<GroundRule, Box<[u32]>> = HashMap::default();
        let known = rules.len();
        let complete = model.join(
            rule,
            &positives,
            &ranges,
            &mut store,
            watch,
            &mut |store, binds, facts| {
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
                if !unique.contains(&g) {
                    keep_first(&mut firsts, g, facts);
                }
                known + firsts.len() <= limit
            },
        );
        if known + firsts.len() > limit {
            return Err(format!(
                "{}: the game has more than {limit} ground rules: too large to ground",
                rule.pos
            ));
        }
        if !complete {
            return Err(watch.error(Some(rule.pos)));
        }
        for g in in_found_order(firsts) {
            unique.insert(g.clone());
            rules.push(g);
            from.push(index);
        }
    }
    // a negated atom the model lacks never holds: drop it
    for r in &mut rules {
        r.neg.retain(|g| model.holds(*g));
        // the literals stay in the order written (a description puts the
        // literal that fails most often first), without repeats (a rule
        // has a few: no set needed)
        let mut i = 0;
        while i < r.pos.len() {
            if r.pos[..i].contains(&r.pos[i]) {
                r.pos.remove(i);
            } else {
                i += 1;
            }
        }
    }
    Ok(Grounded {
        store,
        rules,
        from,
        model: model.facts.into_iter().map(|(r, f)| (r, f.atoms)).collect(),
    })
}

/// Keeps, for `item`, the facts `facts` that yield it if they come before
/// those kept so far (in the order of nested loops over the literals).
fn keep_first<T: Eq + std::hash::Hash>(
    firsts: &mut HashMap<T, Box<[u32]>>,
    item: T,
    facts: &[u32],
) {
    match firsts.get_mut(&item) {
        Some(kept) => {
            if facts < &kept[..] {
                *kept = facts.into();
            }
        }
        None => {
            firsts.insert(item, facts.into());
        }
    }
}

/// The items a join found, in the order nested loops over the literals as
/// written would have found them.
fn in_found_order<T>(firsts: HashMap<T, Box<[u32]>>) -> Vec<T> {
    let mut items: Vec<(Box<[u32]>, T)> = firsts.into_iter().map(|(t, f)| (f, t)).collect();
    items.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    items.into_iter().map(|(_, t)| t).collect()
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
