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

use super::hash::{HashMap, HashSet, Interner};

pub use super::budget::{Budget, Watch};
pub use super::store::{GTerm, Gid, Store};
use super::{
    join::{Cap, Emit, Model},
    kif::Pos,
    logic::{Atom, Description, Keywords, Literal, Relation, Rule, Sym, Term},
    store::instantiate_atom,
};

/// A ground rule: `head` holds when every `pos` does and no `neg` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroundRule<'a> {
    pub head: u32,
    pub pos: &'a [u32],
    pub neg: &'a [u32],
}

/// Ground rules, kept flat (hundreds of thousands of them for a game like
/// checkers: no allocation per rule). Their atoms are ground terms' numbers
/// ([`Gid`]) until the reasoner renumbers them ([`GroundRules::renumber`]).
#[derive(Clone, Debug, Default)]
pub struct GroundRules {
    heads: Vec<u32>,
    /// Where each rule's negated literals start and where it ends in `lits`.
    ends: Vec<(u32, u32)>,
    lits: Vec<u32>,
}

impl GroundRules {
    pub fn len(&self) -> usize {
        self.heads.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heads.is_empty()
    }

    pub fn get(&self, i: usize) -> GroundRule<'_> {
        let start = if i == 0 { 0 } else { self.ends[i - 1].1 };
        let (neg, end) = self.ends[i];
        GroundRule {
            head: self.heads[i],
            pos: &self.lits[start as usize..neg as usize],
            neg: &self.lits[neg as usize..end as usize],
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = GroundRule<'_>> + Clone {
        (0..self.len()).map(|i| self.get(i))
    }

    fn push(&mut self, head: u32, pos: impl Iterator<Item = u32>, neg: impl Iterator<Item = u32>) {
        self.heads.push(head);
        self.lits.extend(pos);
        let neg_start = self.lits.len() as u32;
        self.lits.extend(neg);
        self.ends.push((neg_start, self.lits.len() as u32));
    }

    /// Every head and literal `a` replaced by `f(a)`, rule by rule: its
    /// head, then its literals in order.
    pub fn renumber(&mut self, mut f: impl FnMut(u32) -> u32) {
        let mut start = 0;
        for (head, &(_, end)) in self.heads.iter_mut().zip(&self.ends) {
            *head = f(*head);
            for a in &mut self.lits[start..end as usize] {
                *a = f(*a);
            }
            start = end as usize;
        }
    }
}

/// Asked once, when a whole grounding's ground rules pass half the limit,
/// with the grounding's watch: whether a cheaper way of loading the game
/// was found. `true` gives the grounding up (too large, past half the
/// limit); `false` lets it go on.
pub type Halfway<'a> = &'a mut dyn FnMut(&Watch) -> bool;

/// The rules of a whole grounding's relaxed model whose bindings are its
/// ground rules: the first `rules` of those saturated (the description's),
/// and what is asked once they pass half the limit.
pub(super) struct Counted<'a> {
    pub(super) rules: usize,
    pub(super) halfway: Option<Halfway<'a>>,
}

/// The grounded description.
pub struct Grounded {
    pub store: Store,
    pub rules: GroundRules,
    /// For each ground rule, the index of the description's rule it
    /// instantiates (the first, where several give the same).
    pub from: Vec<usize>,
    /// The relaxed model's atoms, per relation, in the order found.
    pub model: HashMap<Relation, Vec<Gid>>,
}

/// Grounds `d`, or says the relaxed model grew past `limit` atoms, or that
/// grounding ran past the budget of `watch` (naming the rule's line and
/// column), or that `halfway` gave it up past half the limit of ground
/// rules.
pub fn ground(
    d: &Description,
    limit: usize,
    watch: &mut Watch,
    halfway: Option<Halfway>,
) -> Result<Grounded, String> {
    let mut store = Store::default();
    let links = relaxed_links(&d.keys);

    // Each ground rule is kept once, as written (before repeated literals
    // and negated atoms the model lacks are dropped); its key is its head,
    // its count of positive literals, its positive literals and its negated
    // atoms. A rule's own join never gives the same binding twice, so never
    // the same ground rule; and two rules give the same one only if they
    // have the same head relation and the same relations in their
    // literals, in order. Only the ground rules of such alike rules are
    // met through a table.
    let signatures: Vec<Signature> = d.rules.iter().map(signature).collect();
    let mut alike: HashMap<&Signature, usize> = HashMap::default();
    for s in &signatures {
        *alike.entry(s).or_default() += 1;
    }

    watch.phase("grounding")?;
    let mut model = Model::default();
    let relaxed: Vec<&Rule> = d.rules.iter().chain(&links).collect();
    let count = Some(Counted {
        rules: d.rules.len(),
        halfway,
    });
    saturate(&mut model, &relaxed, false, count, &mut store, limit, watch)?;

    // every rule instantiated over the model
    let mut rules = GroundRules::default();
    let mut from = Vec::new();
    let mut met = Interner::default();
    let mut key = Vec::new();
    let mut negs = Vec::new();
    let mut heads = Heads::default();
    for (index, rule) in d.rules.iter().enumerate() {
        let positives = positives(rule);
        let literals: Vec<(&Atom, (usize, usize))> = positives
            .iter()
            .map(|&a| (a, (0, model.atoms(&a.relation()).len())))
            .collect();
        watch.rule = Some(rule.pos);
        let (_, _, negated) = &signatures[index];
        let shared = alike[&signatures[index]] > 1;
        // the keys of the ground rules new in this rule's join (`stride`
        // numbers apiece), and the facts that yield each (`width` apiece)
        let width = positives.len();
        let stride = 2 + width + negated.len();
        let mut found: Vec<u32> = Vec::new();
        let mut firsts: Vec<u32> = Vec::new();
        let known = rules.len();
        // a positive literal, once matched, is the fact it matched
        let facts_of: Vec<&[Gid]> = positives
            .iter()
            .map(|a| model.atoms(&a.relation()))
            .collect();
        heads.start(rule, &positives);
        let joined = model.join(
            rule,
            &literals,
            &mut store,
            watch,
            Cap::NONE,
            &mut |store, binds, facts| {
                key.clear();
                key.push(heads.head(rule, binds, facts, store));
                key.push(width as u32);
                let mut matched = facts.iter().zip(&facts_of);
                for l in &rule.body {
                    match l {
                        Literal::Pos(_) => {
                            let (&at, atoms) = matched.next().expect("a fact per positive literal");
                            key.push(atoms[at as usize]);
                        }
                        Literal::Neg(a) => negs.push(instantiate_atom(a, binds, store)),
                        Literal::Distinct(..) | Literal::Same(..) => {}
                    }
                }
                key.append(&mut negs);
                if !shared || met.intern(&key).1 {
                    found.extend_from_slice(&key);
                    firsts.extend_from_slice(facts);
                }
                known + found.len() / stride <= limit
            },
        );
        if known + found.len() / stride > limit {
            return Err(too_many_rules(rule, limit, watch));
        }
        if !joined.complete {
            return Err(watch.error(Some(rule.pos)));
        }
        // in the order nested loops over the literals as written find them
        let mut order: Vec<usize> = (0..found.len() / stride).collect();
        if width > 0 {
            let facts = |k: usize| &firsts[k * width..][..width];
            order.sort_unstable_by(|&a, &b| facts(a).cmp(facts(b)));
        }
        for k in order {
            let key = &found[k * stride..][..stride];
            let (head, pos, neg) = (key[0], &key[2..2 + width], &key[2 + width..]);
            // the literals stay in the order written (a description puts
            // the literal that fails most often first), without repeats (a
            // rule has a few: no set needed); a negated atom the model
            // lacks never holds: it is dropped
            let pos = (0..pos.len())
                .filter(|&j| !pos[..j].contains(&pos[j]))
                .map(|j| pos[j]);
            let neg = neg.iter().copied().filter(|&g| model.holds(g));
            rules.push(head, pos, neg);
            from.push(index);
        }
    }
    Ok(Grounded {
        store,
        rules,
        from,
        model: model.into_atoms(),
    })
}

/// What makes a description's rules its relaxed program: `true <= init`,
/// `true <= next`, `does <= legal`.
pub(super) fn relaxed_links(k: &Keywords) -> [Rule; 3] {
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
    [
        link(k.truth, k.init, 1),
        link(k.truth, k.next, 1),
        link(k.does, k.legal, 2),
    ]
}

/// Adds to `model` everything `rules` derive from it, by semi-naive
/// bottom-up evaluation: each round joins at least one literal against the
/// facts the round before found, and the new atoms are added in the order
/// nested loops over the literals as written would find them. With
/// `negation`, a rule holds only where none of its negated atoms is in the
/// model (which must then be complete for their relations: stratified
/// evaluation); without, `not` is ignored (the relaxed model). Fails past
/// `limit` atoms or the budget of `watch`.
///
/// With `ground_rules`, the relaxed model of grounding: every binding of
/// the first `ground_rules.rules` of `rules` (the description's, not the
/// [`relaxed_links`] after them) is a ground rule grounding will
/// instantiate (the model only grows, and a rule's join over it finds
/// every binding found here), so it fails past `limit` of those too,
/// before grounding would have instantiated them. Grounding instantiates
/// every binding (and only then keeps once the ground rules that alike
/// rules both give), so the limit bounds its work: a game whose rules'
/// bindings pass it is too large to ground whole, found while the relaxed
/// model is built, before any ground rule is made. Once they pass half
/// the limit, `ground_rules.halfway` (if any) is asked whether to give up.
pub(super) fn saturate(
    model: &mut Model,
    rules: &[&Rule],
    negation: bool,
    ground_rules: Option<Counted>,
    store: &mut Store,
    limit: usize,
    watch: &mut Watch,
) -> Result<(), String> {
    let too_many = |watch: &mut Watch| {
        watch.over_limit = true;
        format!("the game has more than {limit} ground atoms: too large to ground")
    };
    let (ground_rules, mut halfway) = match ground_rules {
        Some(Counted { rules, halfway }) => (Some(rules), halfway),
        None => (None, None),
    };
    let mut promised = 0usize;
    // the rules (by number, ascending) that read each relation: a round
    // after the first joins only those that read a relation that grew, so
    // a round costs what it finds, not the number of rules (a chain of
    // rules takes as many rounds as it is long)
    let mut readers: HashMap<Relation, Vec<usize>> = HashMap::default();
    for (r, rule) in rules.iter().enumerate() {
        for atom in positives(rule) {
            let list = readers.entry(atom.relation()).or_default();
            if list.last() != Some(&r) {
                list.push(r);
            }
        }
    }
    // the relations that grew in the round before, with the facts each had
    // before it (every other relation's facts are all old)
    let mut grown: HashMap<Relation, usize> = HashMap::default();
    let mut first = true;
    let mut firsts = Firsts::default();
    let mut heads = Heads::default();
    loop {
        let to_join: Vec<usize> = if first {
            (0..rules.len()).collect()
        } else {
            let mut to_join: Vec<usize> = grown
                .keys()
                .filter_map(|rel| readers.get(rel))
                .flatten()
                .copied()
                .collect();
            to_join.sort_unstable();
            to_join.dedup();
            to_join
        };
        // each atom once, in the order found: memory grows with the atoms,
        // not with the ways of deriving them
        let mut found: Vec<(Relation, Gid)> = Vec::new();
        let mut found_once: HashSet<Gid> = HashSet::default();
        for r in to_join {
            let rule = rules[r];
            watch.rules_tried += 1;
            let counted = ground_rules.is_some_and(|n| r < n);
            let positives = positives(rule);
            // semi-naive: literal j over the last round's new facts, those
            // before it over older facts, those after over all
            let variants = if first { 1 } else { positives.len() };
            for j in 0..variants {
                let literals: Vec<(&Atom, (usize, usize))> = positives
                    .iter()
                    .enumerate()
                    .map(|(i, &a)| {
                        let r = a.relation();
                        // the model does not change within a round
                        let all = model.atoms(&r).len();
                        let old = grown.get(&r).copied().unwrap_or(all);
                        let range = if first {
                            (0, all)
                        } else if i < j {
                            (0, old)
                        } else if i == j {
                            (old, all)
                        } else {
                            (0, all)
                        };
                        (a, range)
                    })
                    .collect();
                if !first {
                    // no new facts for literal j: nothing new to join
                    let (from, to) = literals[j].1;
                    if from == to {
                        continue;
                    }
                }
                if positives.is_empty() && !first {
                    continue;
                }
                watch.rule = Some(rule.pos);
                firsts.start(positives.len());
                heads.start(rule, &positives);
                let known = model.len() + found_once.len();
                let cap = match counted {
                    // past half the limit, a join that would pass it is
                    // known before it makes any atom; a join counted first
                    // that would pass half of it asks `halfway` first
                    true => Cap {
                        most: (limit - promised) as u64,
                        count_first: promised > limit / 2,
                        pause: match halfway {
                            Some(_) if promised <= limit / 2 => (limit / 2 - promised) as u64,
                            _ => u64::MAX,
                        },
                    },
                    false => Cap::NONE,
                };
                let emit: &mut Emit = &mut |store, binds, facts| {
                    if negation && negated_hold(rule, binds, store, model) {
                        return true;
                    }
                    let head = heads.head(rule, binds, facts, store);
                    if model.holds(head) || found_once.contains(&head) {
                        return true;
                    }
                    firsts.keep(head, facts);
                    known + firsts.len() <= limit
                };
                let mut joined = model.join(rule, &literals, store, watch, cap, emit);
                if joined.paused {
                    // its bindings pass half the limit: asked before they
                    // are made, and made if the grounding goes on
                    ask_halfway(&mut halfway, rule, limit, watch)?;
                    let cap = Cap {
                        pause: u64::MAX,
                        ..cap
                    };
                    joined = model.join(rule, &literals, store, watch, cap, emit);
                }
                if known + firsts.len() > limit {
                    return Err(too_many(watch));
                }
                let was = promised;
                if counted {
                    promised = promised.saturating_add(joined.bindings as usize);
                    if promised > limit {
                        return Err(too_many_rules(rule, limit, watch));
                    }
                }
                if !joined.complete {
                    return Err(watch.error(Some(rule.pos)));
                }
                if was <= limit / 2 && promised > limit / 2 {
                    ask_halfway(&mut halfway, rule, limit, watch)?;
                }
                for head in firsts.in_found_order() {
                    found_once.insert(head);
                    found.push((rule.head.relation(), head));
                }
            }
        }
        first = false;
        grown.clear();
        let mut grew = false;
        for (rel, atom) in found {
            grown.entry(rel).or_insert_with(|| model.atoms(&rel).len());
            grew |= model.add(rel, atom, store);
        }
        watch.atoms = model.len();
        if model.len() > limit {
            return Err(too_many(watch));
        }
        if !grew {
            return Ok(());
        }
    }
}

/// Asks `halfway` (once: it is taken) whether to give up a grounding past
/// half the limit of ground rules at `rule`; the error if it says so (a
/// cheaper way of loading the game was found).
fn ask_halfway(
    halfway: &mut Option<Halfway>,
    rule: &Rule,
    limit: usize,
    watch: &mut Watch,
) -> Result<(), String> {
    let Some(halfway) = halfway.take() else {
        return Ok(());
    };
    if !halfway(watch) {
        return Ok(());
    }
    watch.over_limit = true;
    Err(format!(
        "{}: the game has more than {} ground rules, half the limit",
        rule.pos,
        limit / 2
    ))
}

/// The error for more than `limit` ground rules, found at `rule`.
fn too_many_rules(rule: &Rule, limit: usize, watch: &mut Watch) -> String {
    watch.over_limit = true;
    format!(
        "{}: the game has more than {limit} ground rules: too large to ground",
        rule.pos
    )
}

/// Whether one of `rule`'s negated atoms, under `binds`, is in `model`.
fn negated_hold(rule: &Rule, binds: &[Option<Gid>], store: &mut Store, model: &Model) -> bool {
    rule.body.iter().any(|l| match l {
        Literal::Neg(a) => model.holds(instantiate_atom(a, binds, store)),
        _ => false,
    })
}

/// A rule's head, kept by the fact a literal matched where that literal
/// binds every variable of the head (a frame rule's `(true (cell ?x ?y
/// ?s))` for `(next (cell ?x ?y ?s))`): the same fact gives the same head,
/// so it is made once a join, not looked up again for every binding that
/// matches the fact.
#[derive(Default)]
struct Heads {
    /// The positive literal (its place among them) that binds the head.
    by: Option<usize>,
    /// The head each fact of that literal's relation gave, or [`NO_HEAD`].
    of_fact: Vec<Gid>,
    /// The facts with a head kept, to clear when the join is done.
    kept: Vec<u32>,
}

/// No head kept for a fact.
const NO_HEAD: Gid = Gid::MAX;

impl Heads {
    /// Ready for a join of `rule`, whose positive literals are `positives`.
    fn start(&mut self, rule: &Rule, positives: &[&Atom]) {
        for &f in &self.kept {
            self.of_fact[f as usize] = NO_HEAD;
        }
        self.kept.clear();
        let head = rule.head.vars();
        self.by = match head.is_empty() {
            true => None,
            false => positives.iter().position(|a| {
                let vars = a.vars();
                head.iter().all(|v| vars.contains(v))
            }),
        };
    }

    /// The head of `rule` under `binds`, which matched `facts`.
    fn head(
        &mut self,
        rule: &Rule,
        binds: &[Option<Gid>],
        facts: &[u32],
        store: &mut Store,
    ) -> Gid {
        let Some(by) = self.by else {
            return instantiate_atom(&rule.head, binds, store);
        };
        let fact = facts[by];
        if let Some(&head) = self.of_fact.get(fact as usize) {
            if head != NO_HEAD {
                return head;
            }
        }
        let head = instantiate_atom(&rule.head, binds, store);
        if self.of_fact.len() <= fact as usize {
            self.of_fact.resize(fact as usize + 1, NO_HEAD);
        }
        self.of_fact[fact as usize] = head;
        self.kept.push(fact);
        head
    }
}

/// The atoms one join found, each with the facts that first yield it (first
/// in the order of nested loops over the literals as written), kept flat:
/// one buffer for every join of a saturation, no allocation per atom.
#[derive(Default)]
struct Firsts {
    /// Each atom's place in `heads`.
    index: HashMap<Gid, usize>,
    heads: Vec<Gid>,
    /// `width` facts per atom, in the order of `heads`.
    facts: Vec<u32>,
    width: usize,
}

impl Firsts {
    /// Empties it for a join whose bindings each match `width` facts.
    fn start(&mut self, width: usize) {
        self.index.clear();
        self.heads.clear();
        self.facts.clear();
        self.width = width;
    }

    fn len(&self) -> usize {
        self.heads.len()
    }

    /// Keeps `facts` for `head` if they come before those kept so far.
    fn keep(&mut self, head: Gid, facts: &[u32]) {
        match self.index.get(&head) {
            Some(&k) => {
                let kept = &mut self.facts[k * self.width..][..self.width];
                if facts < &kept[..] {
                    kept.copy_from_slice(facts);
                }
            }
            None => {
                self.index.insert(head, self.heads.len());
                self.heads.push(head);
                self.facts.extend_from_slice(facts);
            }
        }
    }

    /// The atoms found, in the order nested loops over the literals as
    /// written would have found them.
    fn in_found_order(&self) -> impl Iterator<Item = Gid> + '_ {
        let facts = |k: usize| &self.facts[k * self.width..][..self.width];
        let mut order: Vec<usize> = (0..self.heads.len()).collect();
        order.sort_unstable_by(|&a, &b| facts(a).cmp(facts(b)));
        order.into_iter().map(|k| self.heads[k])
    }
}

/// What two rules must share to give the same ground rule: the head's
/// relation, and the relations of the positive literals and of the negated
/// ones, each in the order written.
type Signature = (Relation, Vec<Relation>, Vec<Relation>);

fn signature(rule: &Rule) -> Signature {
    let (mut pos, mut neg) = (Vec::new(), Vec::new());
    for l in &rule.body {
        match l {
            Literal::Pos(a) => pos.push(a.relation()),
            Literal::Neg(a) => neg.push(a.relation()),
            Literal::Distinct(..) | Literal::Same(..) => {}
        }
    }
    (rule.head.relation(), pos, neg)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gdl::logic::Description;

    /// A budget of `n` steps and a minute.
    fn steps(n: u64) -> Budget {
        Budget {
            steps: n,
            seconds: 60,
        }
    }

    #[test]
    fn flat_ground_rules_give_back_each_rule_and_renumber_rule_by_rule() {
        let mut rules = GroundRules::default();
        rules.push(7, [1, 2].into_iter(), [3].into_iter());
        rules.push(8, [].into_iter(), [].into_iter());
        rules.push(9, [4].into_iter(), [5, 6].into_iter());
        assert_eq!(rules.len(), 3);
        let r = rules.get(2);
        assert_eq!((r.head, r.pos, r.neg), (9, &[4][..], &[5, 6][..]));
        assert_eq!(rules.get(1).pos, &[] as &[u32]);
        // numbers given in the order met: a rule's head, then its literals
        let mut order = Vec::new();
        rules.renumber(|a| {
            order.push(a);
            a * 10
        });
        assert_eq!(order, [7, 1, 2, 3, 8, 9, 4, 5, 6]);
        let r = rules.get(0);
        assert_eq!((r.head, r.pos, r.neg), (70, &[10, 20][..], &[30][..]));
    }

    #[test]
    fn a_ground_rule_two_rules_give_is_kept_once_from_the_first() {
        let d = Description::parse(
            "(role a) (role b) (init (cell 1)) (init (cell 2))
(<= (legal ?r (mark ?c)) (role ?r) (true (cell ?c)))
(<= (legal ?p (mark ?x)) (role ?p) (true (cell ?x)))
(<= (legal ?r (mark ?c)) (true (cell ?c)) (role ?r))
(<= (next (cell ?c)) (true (cell ?c)))
(<= terminal (true (cell 3)))
(<= (goal ?r 50) (role ?r))",
        )
        .unwrap();
        let on_line = |line| d.rules.iter().position(|r| r.pos.line == line).unwrap();
        let budget = steps(1_000_000);
        let g = ground(&d, 1000, &mut Watch::new("test", budget), None).unwrap();
        let legal: Vec<usize> = (0..g.rules.len())
            .filter(|&i| [2, 3, 4].map(on_line).contains(&g.from[i]))
            .collect();
        let from: Vec<usize> = legal.iter().map(|&i| g.from[i]).collect();
        // line 3 is line 2 again with other names: nothing of its own; line
        // 4 has its literals in another order: other ground rules
        assert_eq!(
            from,
            [on_line(2); 4]
                .iter()
                .chain(&[on_line(4); 4])
                .copied()
                .collect::<Vec<_>>()
        );
        let mut texts: Vec<String> = legal
            .iter()
            .map(|&i| {
                let r = g.rules.get(i);
                let lits: Vec<String> = r.pos.iter().map(|&p| g.store.text(p, &d)).collect();
                format!("{} <= {}", g.store.text(r.head, &d), lits.join(" "))
            })
            .collect();
        texts.sort();
        texts.dedup();
        assert_eq!(texts.len(), 8, "each ground rule once: {texts:?}");
    }

    #[test]
    fn a_literal_with_two_positions_bound_matches_the_facts_in_both_lists() {
        // `tri` has 1,000 facts: with `?a` and `?b` bound by `pair`, each of
        // its lists for one position has 100, and both together 10
        let mut text = String::from("(role a) (role b) (init (s 0)) (<= terminal (true (s 1)))");
        for (a, b, c) in
            (0..10).flat_map(|a| (0..10).flat_map(move |b| (0..10).map(move |c| (a, b, c))))
        {
            if (a + b + c) % 3 != 0 {
                text += &format!(" (tri {a} {b} {c})");
            }
        }
        text += " (pair 1 2) (pair 2 2) (pair 7 3) (pair 9 9)";
        text += " (<= (hit ?a ?b ?c) (pair ?a ?b) (tri ?a ?b ?c))";
        let d = Description::parse(&text).unwrap();
        let budget = steps(1_000_000);
        let g = ground(&d, 100_000, &mut Watch::new("test", budget), None).unwrap();
        let hit = d.symbols.get("hit").unwrap();
        let mut found: Vec<String> = g.model[&(hit, 3)]
            .iter()
            .map(|&h| g.store.text(h, &d))
            .collect();
        found.sort();
        let mut expected: Vec<String> = [(1, 2), (2, 2), (7, 3), (9, 9)]
            .iter()
            .flat_map(|&(a, b)| {
                (0..10)
                    .filter(move |c| (a + b + c) % 3 != 0)
                    .map(move |c| format!("(hit {a} {b} {c})"))
            })
            .collect();
        expected.sort();
        assert_eq!(found, expected);
    }

    /// A description whose rule on line 2 has `?b` and `?e` each in one
    /// literal alone (loose; `?e` twice in it), written between and after
    /// the others.
    fn loose_literals(points: usize, colours: usize) -> Description {
        let mut text = String::from("(role a) (role b) (init (s 0)) (<= terminal (true (s 1)))\n");
        text += "(<= (h ?x ?y ?a ?b ?e) (c ?a) (p ?x) (c ?b) (p ?y) (distinct ?x ?y) (c2 ?a ?a) \
                 (c2 ?e ?e))\n";
        for i in 0..points {
            text += &format!(" (p {i})");
        }
        for i in 0..colours {
            // half the `c2` facts repeat their term
            text += &format!(" (c {i}) (c2 {i} {}) ", i - i % 2);
        }
        Description::parse(&text).unwrap()
    }

    #[test]
    fn loose_literals_give_every_binding_in_the_order_written() {
        let d = loose_literals(3, 4);
        let budget = steps(1_000_000);
        let g = ground(&d, 10_000, &mut Watch::new("test", budget), None).unwrap();
        let h = d.symbols.get("h").unwrap();
        let found: Vec<String> = g.model[&(h, 5)]
            .iter()
            .map(|&a| g.store.text(a, &d))
            .collect();
        // nested loops over the literals as written: ?a, ?x, ?b, ?y, ?e;
        // `(c2 ?a ?a)` and `(c2 ?e ?e)` hold for the even colours only
        let mut expected = Vec::new();
        for a in [0, 2] {
            for x in 0..3 {
                for b in 0..4 {
                    for y in (0..3).filter(|&y| y != x) {
                        for e in [0, 2] {
                            expected.push(format!("(h {x} {y} {a} {b} {e})"));
                        }
                    }
                }
            }
        }
        assert_eq!(found, expected);
        let line_2 = d.rules.iter().position(|r| r.pos.line == 2).unwrap();
        assert_eq!(g.from.iter().filter(|&&f| f == line_2).count(), 96);
    }

    /// Random rules of two to four literals over random facts (constants,
    /// variables shared or not, a function term, `distinct`s; in a third
    /// of the cases, enough facts that a join builds an index on several
    /// positions at once), ground, and
    /// their atoms against nested loops over the literals as written: the
    /// same atoms in the same order, whatever literal the join matches
    /// first. Where some facts are derived (a round later), the same atoms.
    #[test]
    fn random_joins_find_what_nested_loops_over_the_literals_find() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        // relation name, arity; `r`'s first argument is `(f c)`
        let relations = [("p", 2), ("q", 3), ("r", 2)];
        for case in 0..300 {
            let derived = case % 2 == 1;
            // every third case: many facts over six values, and three
            // literals, so that a join meets the same positions bound often
            let (values, most, literals) = match case % 3 == 2 {
                true => (6, 200, 3..4),
                false => (4, 25, 2..5),
            };
            let mut facts: Vec<Vec<Vec<u32>>> = Vec::new();
            let mut text =
                String::from("(role a) (role b) (init (s 0)) (<= terminal (true (s 1)))\n");
            for &(name, arity) in &relations {
                let mut rel: Vec<Vec<u32>> = Vec::new();
                for _ in 0..rng.random_range(0..most) {
                    let args: Vec<u32> = (0..arity).map(|_| rng.random_range(0..values)).collect();
                    if !rel.contains(&args) {
                        rel.push(args);
                    }
                }
                for (k, args) in rel.iter().enumerate() {
                    let mut terms: Vec<String> = args.iter().map(|a| a.to_string()).collect();
                    if name == "r" {
                        terms[0] = format!("(f {})", terms[0]);
                    }
                    // derived: every other `p` fact comes from `p0`, a round later
                    let name = if derived && name == "p" && k % 2 == 1 {
                        "p0"
                    } else {
                        name
                    };
                    text += &format!("({name} {})\n", terms.join(" "));
                }
                facts.push(rel);
            }
            if derived {
                text += "(<= (p ?a ?b) (p0 ?a ?b))\n";
            }
            // the rule: each argument a variable of five (often) or a constant
            let literals: Vec<(usize, Vec<Result<usize, u32>>)> = (0..rng.random_range(literals))
                .map(|_| {
                    let r = rng.random_range(0..relations.len());
                    let args = (0..relations[r].1)
                        .map(|_| match rng.random_bool(0.8) {
                            true => Ok(rng.random_range(0..5)),
                            false => Err(rng.random_range(0..values)),
                        })
                        .collect();
                    (r, args)
                })
                .collect();
            let mut vars: Vec<usize> = literals
                .iter()
                .flat_map(|(_, a)| a.iter().filter_map(|t| t.ok()))
                .collect();
            vars.sort_unstable();
            vars.dedup();
            if vars.is_empty() {
                continue;
            }
            let distincts: Vec<(usize, usize)> = (0..rng.random_range(0..3))
                .map(|_| {
                    let pick =
                        |rng: &mut rand_chacha::ChaCha8Rng| vars[rng.random_range(0..vars.len())];
                    (pick(&mut rng), pick(&mut rng))
                })
                .collect();
            let head: Vec<String> = vars.iter().map(|v| format!("?v{v}")).collect();
            let mut body: Vec<String> = literals
                .iter()
                .map(|(r, args)| {
                    let mut terms: Vec<String> = args
                        .iter()
                        .map(|t| match t {
                            Ok(v) => format!("?v{v}"),
                            Err(c) => c.to_string(),
                        })
                        .collect();
                    if relations[*r].0 == "r" {
                        terms[0] = format!("(f {})", terms[0]);
                    }
                    format!("({} {})", relations[*r].0, terms.join(" "))
                })
                .collect();
            body.extend(
                distincts
                    .iter()
                    .map(|(a, b)| format!("(distinct ?v{a} ?v{b})")),
            );
            let rule = format!("(<= (h {}) {})", head.join(" "), body.join(" "));
            text += &rule;
            // nested loops over the literals as written, each over its
            // relation's facts in the order given
            fn nested(
                literals: &[(usize, Vec<Result<usize, u32>>)],
                facts: &[Vec<Vec<u32>>],
                binds: &mut [Option<u32>; 5],
                out: &mut Vec<[Option<u32>; 5]>,
            ) {
                let Some(((r, args), rest)) = literals.split_first() else {
                    out.push(*binds);
                    return;
                };
                for fact in &facts[*r] {
                    let before = *binds;
                    let fits = args.iter().zip(fact).all(|(t, &x)| match *t {
                        Err(c) => c == x,
                        Ok(v) => *binds[v].get_or_insert(x) == x,
                    });
                    if fits {
                        nested(rest, facts, binds, out);
                    }
                    *binds = before;
                }
            }
            let mut bindings = Vec::new();
            nested(&literals, &facts, &mut [None; 5], &mut bindings);
            let mut expected: Vec<String> = Vec::new();
            for b in bindings {
                if distincts.iter().any(|&(x, y)| b[x] == b[y]) {
                    continue;
                }
                let args: Vec<String> = vars.iter().map(|&v| b[v].unwrap().to_string()).collect();
                let atom = format!("(h {})", args.join(" "));
                if !expected.contains(&atom) {
                    expected.push(atom);
                }
            }
            let d = Description::parse(&text).unwrap();
            let g = ground(
                &d,
                100_000,
                &mut Watch::new("test", steps(10_000_000)),
                None,
            )
            .unwrap();
            let mut found: Vec<String> = d
                .symbols
                .get("h")
                .and_then(|h| g.model.get(&(h, vars.len())))
                .map_or(Vec::new(), |atoms| {
                    atoms.iter().map(|&a| g.store.text(a, &d)).collect()
                });
            if derived {
                found.sort();
                expected.sort();
            }
            assert_eq!(found, expected, "case {case}: {rule}");
        }
    }

    #[test]
    fn a_rule_past_the_ground_rule_limit_is_refused_before_its_bindings_are_made() {
        // 40 * 39 pairs of points, times 15 colours for `?a` (those `c2`
        // repeats), 30 for `?b` and 15 for `?e`: 10,530,000 ground rules.
        // Counting past 10,000 of them takes a few hundred steps; making
        // 10,000 would take more than the budget.
        let d = loose_literals(40, 30);
        let budget = steps(5_000);
        let mut watch = Watch::new("test", budget);
        let e = ground(&d, 10_000, &mut watch, None).err().expect("refused");
        assert_eq!(
            e,
            "line 2, column 1: the game has more than 10000 ground rules: too large to ground"
        );
        assert!(watch.over_limit, "{e}");
    }

    /// The relaxed model of `h` (60 x 200 = 12,000 ground rules, and 60
    /// atoms; with the 12,060 facts it joins, past half of a limit of
    /// 40,000) and, if `with_g`, of `g`, whose bindings are `h`'s times `zs`
    /// for the first `ys` values of `?y` (`ys` x `zs` facts more); the `g`
    /// atoms made, how saturating ended, and the steps it took.
    fn half_then(with_g: bool, ys: usize, zs: usize) -> (usize, Result<(), String>, u64) {
        half_then_within(40_000, with_g, ys, zs)
    }

    fn half_then_within(
        limit: usize,
        with_g: bool,
        ys: usize,
        zs: usize,
    ) -> (usize, Result<(), String>, u64) {
        let mut text = String::from("(role a) (role b) (init (s 0)) (<= terminal (true (s 1)))\n");
        text += "(<= (h ?x) (p ?x) (q ?x ?y))\n";
        if with_g {
            text += "(<= (g ?x ?y ?z) (q ?x ?y) (r ?y ?z))\n";
        }
        for x in 0..60 {
            text += &format!(" (p {x})");
            for y in 0..200 {
                text += &format!(" (q {x} {y})");
            }
        }
        for y in 0..ys {
            for z in 0..zs {
                text += &format!(" (r {y} {z})");
            }
        }
        let d = Description::parse(&text).unwrap();
        let (ended, store, spent) = relaxed_model(&d, limit);
        (made(&store, &d, "g"), ended, spent)
    }

    /// The relaxed model of grounding `d`, every rule's bindings counted
    /// against `limit`: how building it ended, its store, the steps spent.
    fn relaxed_model(d: &Description, limit: usize) -> (Result<(), String>, Store, u64) {
        relaxed_model_asking(d, limit, None)
    }

    /// [`relaxed_model`], asking `halfway` past half the limit.
    fn relaxed_model_asking(
        d: &Description,
        limit: usize,
        halfway: Option<Halfway>,
    ) -> (Result<(), String>, Store, u64) {
        let links = relaxed_links(&d.keys);
        let relaxed: Vec<&Rule> = d.rules.iter().chain(&links).collect();
        let (mut model, mut store) = (Model::default(), Store::default());
        let mut watch = Watch::new("test", steps(100_000_000));
        let ended = saturate(
            &mut model,
            &relaxed,
            false,
            Some(Counted {
                rules: d.rules.len(),
                halfway,
            }),
            &mut store,
            limit,
            &mut watch,
        );
        (ended, store, watch.spent_steps())
    }

    #[test]
    fn past_half_the_ground_rule_limit_a_join_that_would_pass_it_makes_no_atom() {
        let (made, ended, _) = half_then(false, 200, 10);
        assert_eq!((made, ended), (0, Ok(())));
        // `g` would add 120,000 ground rules to 26,060: refused, and none of
        // its atoms was made
        let refused = "line 3, column 1: the game has more than 40000 ground rules: too large \
                       to ground";
        let (made, ended, _) = half_then(true, 200, 10);
        assert_eq!((made, ended), (0, Err(refused.to_string())));
        // counted first and under the limit, its atoms are made: 60 x 30,
        // for the steps they take where the limit is far (no count first)
        let (made, ended, steps) = half_then(true, 30, 1);
        assert_eq!((made, ended), (1_800, Ok(())));
        let (made, ended, far) = half_then_within(1_000_000, true, 30, 1);
        assert_eq!((made, ended), (1_800, Ok(())));
        assert_eq!(steps, far);
    }

    /// Two alike rules `h` (the same relations, so grounding keeps once a
    /// ground rule both give) at line 2 and 3, and the 100 x 100 facts
    /// they join.
    fn two_alike_rules() -> Description {
        let mut text = String::from("(role a) (role b) (init (s 0)) (<= terminal (true (s 1)))\n");
        text += "(<= (h ?x ?y) (q ?x ?y))\n(<= (h ?y ?x) (q ?x ?y))\n";
        for x in 0..100 {
            for y in 0..100 {
                text += &format!(" (q {x} {y})");
            }
        }
        Description::parse(&text).unwrap()
    }

    /// The atoms of relation `name`/`arity` in `g`'s model, as text, in the
    /// order found.
    fn model_texts(g: &Grounded, d: &Description, name: &str, arity: usize) -> Vec<String> {
        let rel = d.symbols.get(name).unwrap();
        g.model[&(rel, arity)]
            .iter()
            .map(|&a| g.store.text(a, d))
            .collect()
    }

    /// The atoms of relation `name` in `store`.
    fn made(store: &Store, d: &Description, name: &str) -> usize {
        let rel = d.symbols.get(name);
        (0..store.count() as Gid)
            .filter(|&id| matches!(store.get(id), GTerm::Fn(s, _) if Some(s) == rel))
            .count()
    }

    /// Two alike rules and the facts they join: each rule's bindings
    /// are under the limit, all of them together over it. Building the
    /// relaxed model refuses the game, naming the rule that passes the
    /// limit, before grounding makes a ground rule; under a limit above
    /// them all, it goes on, and grounding keeps every ground rule.
    #[test]
    fn every_rule_s_bindings_and_every_fact_count_against_the_ground_rule_limit() {
        let d = two_alike_rules();
        let saturated = |limit: usize| relaxed_model(&d, limit).0;
        // 10,000 facts, and 10,000 bindings of each rule
        assert_eq!(
            saturated(25_000),
            Err(
                "line 3, column 1: the game has more than 25000 ground rules: too large to \
                 ground"
                    .to_string()
            )
        );
        assert_eq!(saturated(30_010), Ok(()));
        let g = ground(
            &d,
            30_010,
            &mut Watch::new("test", steps(100_000_000)),
            None,
        )
        .unwrap();
        // the two rules give the same ground rule where `?x` and `?y` are
        // the same: kept once
        let h = d.symbols.get("h");
        let hs = g
            .rules
            .iter()
            .filter(|r| matches!(g.store.get(r.head), GTerm::Fn(s, _) if Some(s) == h));
        assert_eq!(hs.count(), 20_000 - 100);
    }

    /// Grounding asks `halfway` once, when its ground rules pass half the
    /// limit, and with the answer `false` goes on to the same ground rules
    /// as without it; with `true` it gives up, naming the rule, as too
    /// large. Under half the limit it never asks.
    #[test]
    fn past_half_the_ground_rule_limit_grounding_asks_once_whether_to_give_up() {
        let d = two_alike_rules();
        let watch = || Watch::new("test", steps(100_000_000));
        let plain = ground(&d, 30_010, &mut watch(), None).unwrap();
        // 10,000 facts, then 10,000 bindings of the first `h` rule: half of
        // 30,010 passed there
        let mut asked = Vec::new();
        let mut go_on = |w: &Watch| {
            asked.push(w.rule);
            false
        };
        let g = ground(&d, 30_010, &mut watch(), Some(&mut go_on)).unwrap();
        assert_eq!(asked, [Some(Pos { line: 2, column: 1 })]);
        assert!(g.rules.iter().eq(plain.rules.iter()));
        // the roles, `init`, the facts and both rules' (less the 100 both give)
        assert_eq!(g.rules.len(), 3 + 10_000 + 20_000 - 100);
        let mut gave_up = watch();
        let e = ground(&d, 30_010, &mut gave_up, Some(&mut |_: &Watch| true)).err();
        assert_eq!(
            e.as_deref(),
            Some("line 2, column 1: the game has more than 15005 ground rules, half the limit")
        );
        assert!(gave_up.too_large());
        let mut times = 0;
        let mut count = |_: &Watch| {
            times += 1;
            true
        };
        ground(&d, 60_020, &mut watch(), Some(&mut count)).unwrap();
        assert_eq!(times, 0);
    }

    /// A join whose bindings are counted first (a loose literal) and would
    /// pass half the limit asks before it makes any atom; told to go on,
    /// it makes them, and grounding takes the very steps it takes without
    /// being asked (the count's steps given back), to the same ground
    /// rules.
    #[test]
    fn a_join_counted_first_past_half_the_limit_asks_before_it_makes_an_atom() {
        let mut text = String::from("(role a) (role b) (init (s 0)) (<= terminal (true (s 1)))\n");
        text += "(<= (h ?x) (p ?x) (q ?y))\n";
        for x in 0..100 {
            text += &format!(" (p {x})");
        }
        for y in 0..200 {
            text += &format!(" (q {y})");
        }
        let d = Description::parse(&text).unwrap();
        let made = |store: &Store| made(store, &d, "h");
        // 303 facts, then `h`'s 100 x 200 bindings: past half of 30,000
        let (ended, store, spent) = relaxed_model(&d, 30_000);
        assert_eq!((ended, made(&store)), (Ok(()), 100));
        let mut asked = 0;
        let mut go_on = |_: &Watch| {
            asked += 1;
            false
        };
        let (ended, store, spent_asked) = relaxed_model_asking(&d, 30_000, Some(&mut go_on));
        assert_eq!((ended, made(&store), asked), (Ok(()), 100, 1));
        assert_eq!(spent_asked, spent);
        let (ended, store, _) = relaxed_model_asking(&d, 30_000, Some(&mut |_: &Watch| true));
        let given_up =
            "line 2, column 1: the game has more than 15000 ground rules, half the limit";
        assert_eq!((ended, made(&store)), (Err(given_up.to_string()), 0));
        let watch = || Watch::new("test", steps(100_000_000));
        let plain = ground(&d, 30_000, &mut watch(), None).unwrap();
        let asked = ground(&d, 30_000, &mut watch(), Some(&mut |_: &Watch| false)).unwrap();
        assert!(asked.rules.iter().eq(plain.rules.iter()));
        assert_eq!(plain.rules.len(), 3 + 300 + 20_000);
    }

    /// Heads kept by the fact a literal matched are each rule's own: `f`
    /// and `g` are joined one after the other, their literals `p` and `q`
    /// have facts at the same places, and each gets its own heads, in the
    /// model and in the ground rules.
    #[test]
    fn a_head_kept_by_its_fact_is_its_own_rule_s() {
        let d = Description::parse(
            "(role a) (role b) (init (s 0)) (<= terminal (true (s 1)))
             (<= (f ?x) (p ?x) (r ?y)) (<= (g ?x ?x) (q ?x) (r ?y))
             (p 1) (p 2) (q 3) (q 4) (r 5) (r 6)",
        )
        .unwrap();
        let g = ground(&d, 1000, &mut Watch::new("test", steps(1_000_000)), None).unwrap();
        assert_eq!(model_texts(&g, &d, "f", 1), ["(f 1)", "(f 2)"]);
        assert_eq!(model_texts(&g, &d, "g", 2), ["(g 3 3)", "(g 4 4)"]);
        let heads: Vec<String> = (g.rules.iter())
            .filter(|r| !r.pos.is_empty())
            .map(|r| g.store.text(r.head, &d))
            .collect();
        let each = ["(f 1)", "(f 1)", "(f 2)", "(f 2)"];
        let each_g = ["(g 3 3)", "(g 3 3)", "(g 4 4)", "(g 4 4)"];
        assert_eq!(heads, [&each[..], &each_g[..]].concat());
    }

    /// A chain of rules, each reading the next one's head, written so that
    /// a round finds one more link: grounding takes as many rounds as the
    /// chain is long, and each round after the first takes up only the rule
    /// whose relation grew, not every rule (which made the time quadratic
    /// in the chain's length: 100,000 rules ran past the loading budget).
    #[test]
    fn a_round_takes_up_only_the_rules_that_read_a_relation_that_grew() {
        let links = 1_000;
        let mut text = String::from("(role a) (role b) (init (s 0)) (<= terminal (true (s 1)))\n");
        for i in 0..links {
            text += &format!("(<= (p{i} ?x) (p{} ?x))\n", i + 1);
        }
        text += &format!("(p{links} 7) (p{links} 8)");
        let d = Description::parse(&text).unwrap();
        let mut watch = Watch::new("test", steps(100_000_000));
        let g = ground(&d, 1_000_000, &mut watch, None).unwrap();
        for i in 0..=links {
            assert_eq!(
                model_texts(&g, &d, &format!("p{i}"), 1),
                [format!("(p{i} 7)"), format!("(p{i} 8)")]
            );
        }
        // grounding saturates the relaxed model, then the model: each
        // takes every rule up in its first round, then one a round (and
        // a last round finds nothing)
        assert!(
            watch.rules_tried <= 2 * (2 * links + 1),
            "{} rules taken up",
            watch.rules_tried
        );
    }

    #[test]
    fn a_negated_distinct_holds_where_its_terms_are_the_same() {
        let d = Description::parse(
            "(role a) (role b) (init (s 0)) (<= terminal (true (s 1)))
             (num 1) (num 2) (num 3) (box (f 2))
             (<= (eq ?x ?y) (num ?x) (num ?y) (not (distinct ?x ?y)))
             (<= (ne ?x ?y) (num ?x) (num ?y) (distinct ?x ?y))
             (<= (boxed ?x) (num ?x) (box ?b) (not (distinct (f ?x) ?b)))
             (<= (either ?x) (num ?x) (or (not (distinct ?x 1)) (not (distinct ?x 3))))",
        )
        .unwrap();
        let budget = steps(1_000_000);
        let g = ground(&d, 1000, &mut Watch::new("test", budget), None).unwrap();
        let atoms = |name: &str, arity: usize| {
            let rel = d.symbols.get(name).unwrap();
            let mut found: Vec<String> = g.model[&(rel, arity)]
                .iter()
                .map(|&a| g.store.text(a, &d))
                .collect();
            found.sort();
            found
        };
        assert_eq!(atoms("eq", 2), ["(eq 1 1)", "(eq 2 2)", "(eq 3 3)"]);
        assert_eq!(atoms("ne", 2).len(), 6);
        assert_eq!(atoms("boxed", 1), ["(boxed 2)"]);
        assert_eq!(atoms("either", 1), ["(either 1)", "(either 3)"]);
    }
}
