//! The join at the heart of grounding: every binding of a rule's variables
//! under which its positive literals match facts derived so far.
//!
//! Each relation's facts are indexed by the term at every argument
//! position (and inside functions, a few levels deep), and the next
//! literal matched is the one with the fewest candidate facts under the
//! variables bound so far (a `(succ ?x ?y)` with `?x` bound has one): the
//! facts in all the lists of its bound positions (counted where the
//! shortest list is short, else judged by that list); once chosen, it is
//! matched only against the facts in all of its lists. A literal whose
//! variables are all bound (one fact or none) is matched first. Where a
//! join meets the same positions of a literal bound often enough that
//! intersecting their lists has cost as much as indexing the literal's
//! facts on those positions at once, it builds that index and looks the
//! facts up there instead.
//! So a join costs about what it yields, whatever order the rule's literals
//! are written in. Each binding comes with the facts it matched, so the caller
//! can put what it finds in the order nested loops over the literals as
//! written would have found it.
//!
//! A literal whose variables are in no other literal (*loose*) is matched
//! last: its matches multiply the others' bindings. Under a cap (grounding's
//! limit of ground rules), such a join counts its bindings before it makes
//! them, so a rule too large to ground is known at once; so does every join
//! once grounding has passed half its limit. Such a join that would pass
//! half of it pauses before it makes any binding, for grounding to ask
//! whether to go on (`ground.rs`, `Halfway`).

use std::sync::Arc;

use smallvec::SmallVec;

use super::hash::HashMap;

use super::{
    budget::Watch,
    lists::NumberMap,
    logic::{Atom, Literal, Relation, Rule, Term},
    store::{tag, try_instantiate, GTerm, Gid, Store},
};

/// How deep inside an atom's arguments its facts are indexed: `(true
/// (cell 1 2 b))` by `(cell 1 2 b)`, and by `1`, `2` and `b`.
const INDEX_DEPTH: usize = 3;

/// One relation's facts in the order found, with an index: for each
/// position (a path of argument numbers) and ground term, the facts that
/// have that term there, in ascending order.
#[derive(Clone, Default)]
pub(super) struct Facts {
    pub(super) atoms: Vec<Gid>,
    /// Each position's number, by its parent position's number ([`TOP`] for
    /// the atom itself) and its argument number there.
    paths: HashMap<(u32, u8), u32>,
    index: HashMap<(u32, Gid), SmallVec<[u32; 4]>>,
}

/// The parent of an atom's own arguments' positions.
const TOP: u32 = u32::MAX;

/// The argument numbers that lead from an atom to one of its subterms.
type Route = SmallVec<[u8; INDEX_DEPTH]>;

/// A subterm position of a literal: its path number in the index, the
/// literal's term there, and its route.
type Key<'a> = (Option<u32>, &'a Term, Route);

impl Facts {
    fn push(&mut self, atom: Gid, store: &Store) {
        let at = self.atoms.len() as u32;
        self.atoms.push(atom);
        self.index_args(store.args(atom), TOP, 1, at, store);
    }

    /// Indexes fact `at` by `args`, the arguments at position `parent`, at
    /// depth `depth`.
    fn index_args(&mut self, args: &[Gid], parent: u32, depth: usize, at: u32, store: &Store) {
        for (i, &g) in args.iter().enumerate().take(u8::MAX as usize) {
            let next = self.paths.len() as u32;
            let id = *self.paths.entry((parent, i as u8)).or_insert(next);
            self.index.entry((id, g)).or_default().push(at);
            if depth < INDEX_DEPTH {
                self.index_args(store.args(g), id, depth + 1, at, store);
            }
        }
    }

    /// Each subterm position of `atom`'s arguments: the index's path
    /// number (`None` where no fact has a term at that position), the term
    /// there, and the argument numbers that lead to it.
    fn keys<'a>(&self, atom: &'a Atom) -> Vec<Key<'a>> {
        fn walk<'a>(
            facts: &Facts,
            args: &'a [Term],
            parent: Option<u32>,
            route: &Route,
            out: &mut Vec<Key<'a>>,
        ) {
            for (i, t) in args.iter().enumerate().take(u8::MAX as usize) {
                let id = parent.and_then(|p| facts.paths.get(&(p, i as u8)).copied());
                let mut here = route.clone();
                here.push(i as u8);
                out.push((id, t, here.clone()));
                if let (Term::Fn(_, sub), true) = (t, here.len() < INDEX_DEPTH) {
                    walk(facts, sub, id, &here, out);
                }
            }
        }
        let mut out = Vec::new();
        walk(self, &atom.args, Some(TOP), &Route::new(), &mut out);
        out
    }
}

/// The facts derived so far, per relation, in the order found.
#[derive(Clone, Default)]
pub(super) struct Model {
    /// Each relation's facts, where this model has added to them.
    facts: HashMap<Relation, Facts>,
    /// Those of a model frozen before ([`Model::frozen`]), shared by every
    /// copy: a state's reasoning starts from the static facts without
    /// copying their indices. A relation added to is copied here first.
    base: Option<Arc<HashMap<Relation, Facts>>>,
    /// Every fact's position among its relation's facts, by the fact's
    /// number (none for a term that is not a fact).
    at: NumberMap,
    /// How many facts there are.
    count: usize,
}

/// The facts a literal may match: a range of its relation's facts, or a
/// list of their positions.
#[derive(Clone, Copy)]
enum Candidates<'a> {
    Range(usize, usize),
    List(&'a [u32]),
    /// The one fact a ground literal is.
    One(u32),
}

impl Candidates<'_> {
    fn len(&self) -> usize {
        match self {
            Candidates::Range(lo, hi) => hi - lo,
            Candidates::List(l) => l.len(),
            Candidates::One(_) => 1,
        }
    }

    fn get(&self, i: usize) -> u32 {
        match self {
            Candidates::Range(lo, _) => (lo + i) as u32,
            Candidates::List(l) => l[i],
            Candidates::One(at) => *at,
        }
    }
}

/// A positive literal ready to join: its relation's facts (none yet:
/// `None`), the range it may match, and its indexed positions.
struct Lit<'a> {
    atom: &'a Atom,
    facts: Option<&'a Facts>,
    range: (usize, usize),
    keys: Vec<Key<'a>>,
    /// Its variables as bits (`None`: one of them is past the 63rd).
    vars: Option<u64>,
}

/// One join in progress: the variables bound, and the fact each literal
/// matched.
struct Join<'a> {
    /// Every fact's position among its relation's facts.
    at: &'a NumberMap,
    lits: Vec<Lit<'a>>,
    /// Whether each literal is loose: none of its variables is in another
    /// positive literal or a `distinct` ([`loose`]). The loose literals
    /// are matched last.
    loose: Vec<bool>,
    /// How many literals are not loose, and how many of them are not
    /// matched yet.
    tight: usize,
    tight_left: usize,
    /// How many bindings the loose literals give each binding of the
    /// others: the product of their matches, counted when first needed.
    ahead: Option<u64>,
    /// The bindings found so far (those the loose literals will give
    /// counted as soon as only they are left), and where the join stops.
    found: u64,
    cap: u64,
    /// Whether it only counts the bindings (up to the cap), without
    /// matching the loose literals or giving any.
    count_only: bool,
    /// Each `distinct`'s terms, and whether they must differ (`false`: a
    /// `(not (distinct a b))`, they must be the same).
    distincts: Vec<(&'a Term, &'a Term, bool)>,
    binds: Vec<Option<Gid>>,
    trail: Vec<u32>,
    done: Vec<bool>,
    chosen: Vec<u32>,
    /// A buffer for terms' keys ([`look`]), empty between calls.
    keys: Vec<u32>,
    /// The index's lists of the last literal whose candidates were found,
    /// one for each of its positions bound (cut to its range).
    lists: Vec<&'a [u32]>,
    /// For each depth, the facts of several lists at once, when its
    /// literal has more than one position bound.
    common: Vec<[Vec<u32>; 2]>,
    /// The positions bound (numbers in its `keys`) and their terms, of
    /// the last literal whose candidates were found.
    bound: SmallVec<[(usize, Gid); 8]>,
    /// Indices on several positions at once, for each literal by the
    /// positions bound (bits over its `keys`), built once intersecting
    /// their lists has cost as much as building them would.
    combined: Vec<Vec<(u64, Combined)>>,
}

/// An index of one literal's facts (in its range) on a set of positions
/// at once: the facts with each combination of terms there. Until it is
/// built, the steps its lists' intersections took.
#[derive(Default)]
struct Combined {
    spent: usize,
    index: Option<CombinedIndex>,
}

/// The facts (positions, ascending) with each combination of terms.
type CombinedIndex = HashMap<SmallVec<[Gid; 4]>, SmallVec<[u32; 2]>>;

/// What a join hands each binding it finds: the store, the variables'
/// values and the fact each positive literal matched (in written order).
/// It returns false to stop the join.
pub(super) type Emit<'e> = dyn FnMut(&mut Store, &[Option<Gid>], &[u32]) -> bool + 'e;

impl Model {
    pub(super) fn add(&mut self, rel: Relation, atom: Gid, store: &Store) -> bool {
        if self.holds(atom) {
            return false;
        }
        let base = &self.base;
        let facts = self.facts.entry(rel).or_insert_with(|| {
            base.as_ref()
                .and_then(|b| b.get(&rel))
                .cloned()
                .unwrap_or_default()
        });
        self.at.set(atom, facts.atoms.len() as u32);
        self.count += 1;
        facts.push(atom, store);
        true
    }

    /// Relation `rel`'s facts, if it has any.
    pub(super) fn relation(&self, rel: &Relation) -> Option<&Facts> {
        self.facts
            .get(rel)
            .or_else(|| self.base.as_ref().and_then(|b| b.get(rel)))
    }

    /// The atoms of relation `rel`, in the order found.
    pub(super) fn atoms(&self, rel: &Relation) -> &[Gid] {
        self.relation(rel).map_or(&[], |f| &f.atoms)
    }

    /// Every relation's facts, this model's and its base's.
    fn merged(self) -> HashMap<Relation, Facts> {
        let mut all = self.base.map(Arc::unwrap_or_clone).unwrap_or_default();
        all.extend(self.facts);
        all
    }

    /// The model, its facts shared from now on by every copy (which only
    /// copies the relations it adds to).
    pub(super) fn frozen(mut self) -> Model {
        let (at, count) = (std::mem::take(&mut self.at), self.count);
        Model {
            facts: HashMap::default(),
            base: Some(Arc::new(self.merged())),
            at,
            count,
        }
    }

    /// Each relation's atoms, in the order found.
    pub(super) fn into_atoms(self) -> HashMap<Relation, Vec<Gid>> {
        self.merged()
            .into_iter()
            .map(|(r, f)| (r, f.atoms))
            .collect()
    }

    /// Whether `atom` is a fact.
    pub(super) fn holds(&self, atom: Gid) -> bool {
        self.at.get(atom).is_some()
    }

    /// How many facts there are.
    pub(super) fn len(&self) -> usize {
        self.count
    }

    /// Calls `emit` with every binding of `rule`'s variables under which
    /// each of its positive literals (`literals`, as written) matches a fact
    /// in the range beside it and every `distinct` holds. It stops early
    /// when the budget runs out, when `emit` says to stop, or once it knows
    /// of more than `cap` bindings (before it has given them all: a loose
    /// literal's matches multiply the bindings of the others at once).
    /// Bindings are counted only under a cap (see [`Cap`]).
    pub(super) fn join(
        &self,
        rule: &Rule,
        literals: &[(&Atom, (usize, usize))],
        store: &mut Store,
        watch: &mut Watch,
        cap: Cap,
        emit: &mut Emit,
    ) -> Joined {
        let Cap {
            most: cap,
            count_first,
            pause,
        } = cap;
        // each literal's variables as bits, and whether one is past the 63rd
        let vars: SmallVec<[(u64, bool); 8]> = literals
            .iter()
            .map(|(a, _)| var_bits(&mut a.args.iter()))
            .collect();
        let lits: Vec<Lit> = literals
            .iter()
            .zip(&vars)
            .map(|(&(atom, range), &(bits, wide))| {
                let facts = self.relation(&atom.relation());
                Lit {
                    atom,
                    facts,
                    range,
                    keys: facts.map(|f| f.keys(atom)).unwrap_or_default(),
                    vars: (!wide).then_some(bits),
                }
            })
            .collect();
        let distincts: Vec<(&Term, &Term, bool)> = rule
            .body
            .iter()
            .filter_map(|l| match l {
                Literal::Distinct(a, b) => Some((a, b, true)),
                Literal::Same(a, b) => Some((a, b, false)),
                _ => None,
            })
            .collect();
        let n = lits.len();
        let loose = loose(&vars, &distincts);
        let tight = loose.iter().filter(|&&l| !l).count();
        let mut join = Join {
            at: &self.at,
            lits,
            tight,
            tight_left: tight,
            loose,
            ahead: None,
            found: 0,
            cap,
            count_only: false,
            distincts,
            binds: vec![None; rule.vars.len()],
            trail: Vec::new(),
            done: vec![false; n],
            chosen: vec![0; n],
            keys: Vec::new(),
            lists: Vec::new(),
            common: vec![[Vec::new(), Vec::new()]; n],
            bound: SmallVec::new(),
            combined: (0..n).map(|_| Vec::new()).collect(),
        };
        // Loose literals that multiply the others' bindings: the bindings
        // are counted first (the others' times theirs), and a join that
        // would pass its cap stops before it gives any. Under a cap of
        // millions, that is the difference between matching the others
        // once and giving every binding up to the cap.
        if cap < u64::MAX && (join.tight < n || count_first) {
            let start = watch.spent_steps();
            let Some(ahead) = join.loose_matches(store, watch) else {
                return Joined {
                    complete: false,
                    bindings: 0,
                    paused: false,
                };
            };
            join.ahead = Some(ahead);
            if ahead > 1 || (count_first && ahead > 0) {
                join.count_only = true;
                let before = watch.spent_steps();
                if !join.step(0, store, watch, emit) {
                    // over the cap, or out of budget
                    return Joined {
                        complete: false,
                        bindings: join.found,
                        paused: false,
                    };
                }
                if join.found > pause {
                    // charged when it is joined again
                    watch.give_back(watch.spent_steps() - start);
                    return Joined {
                        complete: false,
                        bindings: join.found,
                        paused: true,
                    };
                }
                join.count_only = false;
                join.found = 0;
                if ahead == 1 {
                    // counted only because `count_first`: the bindings
                    // about to be made walk the same matches and are
                    // charged for them, so a join under its cap costs the
                    // steps it always did
                    watch.give_back(watch.spent_steps() - before);
                }
            }
        }
        let complete = join.step(0, store, watch, emit) || join.ahead == Some(0);
        Joined {
            complete,
            bindings: join.found,
            paused: false,
        }
    }
}

/// Where a join stops: once it knows of more than `most` bindings
/// (`u64::MAX`: never, and none are counted). With `count_first`, it counts
/// them all before it gives any, so that a join that would pass `most`
/// gives none; a join with loose literals always does. A join that counted
/// its bindings first and found more than `pause` (but not more than
/// `most`) gives none and is *paused*: its steps are given back, for the
/// caller to decide whether to join it again.
#[derive(Clone, Copy)]
pub(super) struct Cap {
    pub(super) most: u64,
    pub(super) count_first: bool,
    pub(super) pause: u64,
}

impl Cap {
    /// No cap: every binding is given, none counted.
    pub(super) const NONE: Cap = Cap {
        most: u64::MAX,
        count_first: false,
        pause: u64::MAX,
    };
}

/// How a join ended.
pub(super) struct Joined {
    /// Whether it found every binding.
    pub(super) complete: bool,
    /// The bindings it found, or knew of (past its cap, more than given).
    pub(super) bindings: u64,
    /// Whether it counted more than its pause and gave none ([`Cap`]).
    pub(super) paused: bool,
}

impl<'a> Join<'a> {
    /// Matches the literals not yet done, the one with fewest candidates
    /// first. False when the join must stop.
    fn step(
        &mut self,
        depth: usize,
        store: &mut Store,
        watch: &mut Watch,
        emit: &mut Emit,
    ) -> bool {
        // a distinct whose variables are all bound is checked at once
        for i in 0..self.distincts.len() {
            let (a, b, differ) = self.distincts[i];
            if same(a, b, &self.binds, store, &mut self.keys) == Some(differ) {
                return true;
            }
        }
        if depth == self.tight && self.cap < u64::MAX {
            // only loose literals are left (or none): they give `ahead` each
            let ahead = match self.ahead {
                Some(a) => a,
                None => {
                    let Some(a) = self.loose_matches(store, watch) else {
                        return false;
                    };
                    self.ahead = Some(a);
                    a
                }
            };
            if ahead == 0 {
                // no binding at all (`join` knows it is complete)
                return false;
            }
            self.found = self.found.saturating_add(ahead);
            if self.found > self.cap {
                return false;
            }
            if self.count_only {
                return true;
            }
        }
        if depth == self.lits.len() {
            return watch.spend() && emit(store, &self.binds, &self.chosen);
        }
        // a literal whose variables are all bound is one fact or none:
        // nothing has fewer candidates, so it is matched first, before the
        // others' candidates are counted (a missing one ends the binding)
        let bound = bound_bits(&self.binds);
        // the facts in all the lists of the best literal so far (where
        // counted), and of the one being counted
        let [mut kept, mut counting] = std::mem::take(&mut self.common[depth]);
        kept.clear();
        // (literal, candidates, how many, whether `kept` holds them)
        let mut best: Option<(usize, Candidates<'a>, usize, bool)> = None;
        for i in 0..self.lits.len() {
            if self.done[i] || self.loose[i] || self.lits[i].vars.is_none_or(|v| v & !bound != 0) {
                continue;
            }
            let c = self.candidates(i, store);
            if c.len() == 0 {
                self.common[depth] = [kept, counting];
                return true;
            }
            best = Some((i, c, 1, false));
            break;
        }
        for i in 0..self.lits.len() {
            if self.done[i] || best.is_some_and(|(_, _, b, _)| b == 1) {
                continue;
            }
            // a loose literal multiplies what the others yield: it is
            // matched last (its candidates never change: an empty one is
            // seen at the start)
            let postponed = self.loose[i] && self.tight_left > 0;
            if postponed && depth > 0 {
                continue;
            }
            let c = self.candidates(i, store);
            // a literal with several positions bound: the facts in all its
            // lists, where the shortest is short enough to count them (as
            // far as the best so far), kept in case it is chosen
            let mut size = c.len();
            let mut all = false;
            if size > 0 && size <= COUNT_UP_TO && self.lists.len() > 1 {
                let cap = best.map_or(usize::MAX, |(_, _, b, _)| b);
                counting.clear();
                if !self.combined(i, size, store, &mut counting) {
                    counting.extend(common(&mut self.lists).take(cap));
                }
                size = counting.len();
                all = size < cap;
            }
            if size == 0 {
                self.common[depth] = [kept, counting];
                return true;
            }
            if postponed {
                continue;
            }
            if best.is_none_or(|(_, _, b, _)| size < b) {
                best = Some((i, c, size, all));
                if all {
                    std::mem::swap(&mut kept, &mut counting);
                }
            }
        }
        let Some((i, cands, _, counted)) = best else {
            self.common[depth] = [kept, counting];
            return true;
        };
        // a literal with several positions bound: only the facts in every
        // one of their lists (each ascending), not just the shortest list
        let mut intersected = false;
        if let Candidates::List(_) = cands {
            intersected = counted;
            if !counted {
                self.candidates(i, store);
                if self.lists.len() > 1 {
                    kept.clear();
                    if !self.combined(i, cands.len(), store, &mut kept) {
                        kept.extend(self::common(&mut self.lists));
                    }
                    intersected = true;
                }
            }
        }
        // a step for each fact of the shortest list looked up
        if intersected && !watch.spend_many(cands.len() as u64) {
            self.common[depth] = [kept, counting];
            return false;
        }
        let cands = if intersected {
            Candidates::List(&kept)
        } else {
            cands
        };
        let facts = self.lits[i]
            .facts
            .expect("a literal with candidates has facts");
        let atom = self.lits[i].atom;
        self.done[i] = true;
        let tight = !self.loose[i] as usize;
        self.tight_left -= tight;
        let mut go_on = true;
        for c in 0..cands.len() {
            if !watch.spend() {
                go_on = false;
                break;
            }
            let at = cands.get(c);
            let fact = facts.atoms[at as usize];
            let mark = self.trail.len();
            let s: &Store = store;
            let ok = matches_all(
                &atom.args,
                s.args(fact),
                &mut self.binds,
                &mut self.trail,
                s,
            );
            if ok {
                self.chosen[i] = at;
                go_on = self.step(depth + 1, store, watch, emit);
            }
            for v in self.trail.drain(mark..) {
                self.binds[v as usize] = None;
            }
            if !go_on {
                break;
            }
        }
        self.done[i] = false;
        self.tight_left += tight;
        self.common[depth] = [kept, counting];
        go_on
    }

    /// The product of the loose literals' matches (`None`: the budget ran
    /// out).
    fn loose_matches(&mut self, store: &Store, watch: &mut Watch) -> Option<u64> {
        let mut product = 1u64;
        for i in 0..self.lits.len() {
            if self.loose[i] {
                product = product.saturating_mul(self.matches_alone(i, store, watch)?);
            }
        }
        Some(product)
    }

    /// How many facts loose literal `i` matches, whatever else is bound
    /// (`None`: the budget ran out).
    fn matches_alone(&mut self, i: usize, store: &Store, watch: &mut Watch) -> Option<u64> {
        let cands = self.candidates(i, store);
        let lit = &self.lits[i];
        let Some(facts) = lit.facts else {
            return Some(0);
        };
        let (mut count, mark) = (0, self.trail.len());
        for c in 0..cands.len() {
            if !watch.spend() {
                return None;
            }
            let fact = facts.atoms[cands.get(c) as usize];
            let ok = matches_all(
                &lit.atom.args,
                store.args(fact),
                &mut self.binds,
                &mut self.trail,
                store,
            );
            count += ok as u64;
            for v in self.trail.drain(mark..) {
                self.binds[v as usize] = None;
            }
        }
        Some(count)
    }

    /// The facts literal `i` may match under the variables bound so far:
    /// the shortest of its index's lists for the positions already bound,
    /// else its whole range.
    fn candidates(&mut self, i: usize, store: &Store) -> Candidates<'a> {
        const NONE: Candidates = Candidates::List(&[]);
        self.lists.clear();
        let lit = &self.lits[i];
        let Some(facts) = lit.facts else {
            return NONE;
        };
        let (lo, hi) = lit.range;
        // a literal whose variables are all bound is one fact or none: the
        // atom's key is built in `keys`
        let keys = &mut self.keys;
        let args = &lit.atom.args;
        keys.push(tag(lit.atom.rel, !args.is_empty()));
        for t in args {
            match look(t, &self.binds, store, keys) {
                Look::Unbound => break,
                Look::Missing => {
                    keys.clear();
                    return NONE;
                }
                Look::Found(g) => keys.push(g),
            }
        }
        if keys.len() == args.len() + 1 {
            let at = store.find_key(keys).and_then(|g| self.at.get(g));
            keys.clear();
            return match at {
                Some(at) if (lo..hi).contains(&(at as usize)) => Candidates::One(at),
                _ => NONE,
            };
        }
        keys.clear();
        self.bound.clear();
        let mut best = Candidates::Range(lo, hi);
        for (k, &(path, term, _)) in lit.keys.iter().enumerate() {
            let g = match look(term, &self.binds, store, keys) {
                Look::Unbound => continue,
                Look::Missing => return NONE,
                Look::Found(g) => g,
            };
            self.bound.push((k, g));
            let Some(list) = path.and_then(|p| facts.index.get(&(p, g))) else {
                return NONE;
            };
            // (a range from the first fact or to the last needs no search)
            let a = match lo {
                0 => 0,
                _ => list.partition_point(|&x| (x as usize) < lo),
            };
            let b = match hi >= facts.atoms.len() {
                true => list.len(),
                false => list.partition_point(|&x| (x as usize) < hi),
            };
            self.lists.push(&list[a..b]);
            if b - a < best.len() {
                best = Candidates::List(&list[a..b]);
            }
        }
        best
    }

    /// Puts in `out` the facts in all the lists of literal `i`'s positions
    /// bound (as [`Join::candidates`] last found them), from an index on
    /// those positions at once, and says whether it did. The index is
    /// built once the lists' intersections (`steps`, the shortest list's
    /// length, this time) have cost as much as building it would: the
    /// facts in the literal's range, for each position.
    fn combined(&mut self, i: usize, steps: usize, store: &Store, out: &mut Vec<u32>) -> bool {
        let lit = &self.lits[i];
        let (Some(facts), true) = (lit.facts, lit.keys.len() <= 64) else {
            return false;
        };
        let positions = self.bound.iter().fold(0u64, |m, &(k, _)| m | 1 << k);
        let all = &mut self.combined[i];
        let at = match all.iter().position(|(p, _)| *p == positions) {
            Some(at) => at,
            None => {
                all.push((positions, Combined::default()));
                all.len() - 1
            }
        };
        let combined = &mut all[at].1;
        let index = match &mut combined.index {
            Some(index) => index,
            None => {
                let (lo, hi) = (lit.range.0, lit.range.1.min(facts.atoms.len()));
                combined.spent += steps;
                if combined.spent < hi.saturating_sub(lo) * self.bound.len() {
                    return false;
                }
                let routes: SmallVec<[&Route; 4]> =
                    self.bound.iter().map(|&(k, _)| &lit.keys[k].2).collect();
                let mut index = CombinedIndex::default();
                'facts: for at in lo..hi {
                    let mut terms = SmallVec::new();
                    for route in &routes {
                        let mut t = facts.atoms[at];
                        for &a in route.iter() {
                            match store.args(t).get(a as usize) {
                                Some(&g) => t = g,
                                None => continue 'facts,
                            }
                        }
                        terms.push(t);
                    }
                    index.entry(terms).or_default().push(at as u32);
                }
                combined.index.insert(index)
            }
        };
        let terms: SmallVec<[Gid; 4]> = self.bound.iter().map(|&(_, g)| g).collect();
        if let Some(facts) = index.get(&terms) {
            out.extend_from_slice(facts);
        }
        true
    }
}

/// Which of the positive literals (their variables as [`var_bits`] gives
/// them) are loose: each of their variables is in no other positive
/// literal and no `distinct`. A loose literal's
/// matches are the same whatever else is bound, so the join's bindings are
/// the others' times its matches: matched earlier, it would only repeat
/// the others' work for each of its matches.
fn loose(vars: &[(u64, bool)], distincts: &[(&Term, &Term, bool)]) -> Vec<bool> {
    let (in_distincts, _) = var_bits(&mut distincts.iter().flat_map(|(a, b, _)| [*a, *b]));
    (0..vars.len())
        .map(|i| {
            let (mine, wide) = vars[i];
            let others = vars
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .fold(in_distincts, |acc, (_, &(v, _))| acc | v);
            !wide && mine & others == 0
        })
        .collect()
}

/// The variables in `terms` as bits, bit `v` for variable `v`, and whether
/// one of them is past the 63rd (then not among the bits).
fn var_bits(terms: &mut dyn Iterator<Item = &Term>) -> (u64, bool) {
    fn bits(t: &Term, all: &mut u64, wide: &mut bool) {
        match t {
            Term::Const(_) => {}
            Term::Var(v) if *v < 64 => *all |= 1 << v,
            Term::Var(_) => *wide = true,
            Term::Fn(_, args) => args.iter().for_each(|a| bits(a, all, wide)),
        }
    }
    let (mut all, mut wide) = (0, false);
    terms.for_each(|t| bits(t, &mut all, &mut wide));
    (all, wide)
}

/// The variables bound in `binds` as bits (as [`var_bits`], the first 64).
fn bound_bits(binds: &[Option<Gid>]) -> u64 {
    binds
        .iter()
        .take(64)
        .enumerate()
        .fold(0, |acc, (v, b)| acc | ((b.is_some() as u64) << v))
}

/// The longest list whose facts in common with a literal's other lists are
/// counted when the next literal is chosen. Counting longer ones cost more
/// than it saved (docs/PERFORMANCE.md).
const COUNT_UP_TO: usize = 256;

/// The numbers in every one of `lists` (each ascending), ascending: the
/// shortest list's, looked up in the others. Sorts `lists` by length, and
/// shortens the others as it goes (see [`skip_to`]).
fn common<'l, 'f>(lists: &'l mut [&'f [u32]]) -> impl Iterator<Item = u32> + use<'l, 'f> {
    lists.sort_unstable_by_key(|l| l.len());
    let (shortest, rest): (&[u32], &mut [&[u32]]) = match lists.split_first_mut() {
        Some((shortest, rest)) => (*shortest, rest),
        None => (&[], &mut []),
    };
    shortest
        .iter()
        .copied()
        .filter(move |&at| rest.iter_mut().all(|l| skip_to(l, at)))
}

/// Whether ascending `list` holds `at`, its numbers below `at` dropped
/// first. The numbers looked up in a list ascend, so each lookup starts
/// where the last ended, and gallops (1, 2, 4, ... ahead, then halves):
/// two lists of hundreds that share a few dozen cost a walk of both, not
/// a binary search of the longer for every number of the shorter.
fn skip_to(list: &mut &[u32], at: u32) -> bool {
    let l = *list;
    let mut bound = 1;
    while bound < l.len() && l[bound] < at {
        bound *= 2;
    }
    // below `bound / 2` every number is under `at`; from `bound` on none is
    let low = bound / 2;
    let high = bound.min(l.len());
    let first = low + l[low..high].partition_point(|&x| x < at);
    *list = &l[first..];
    list.first() == Some(&at)
}

/// A term under the bindings so far.
enum Look {
    /// One of its variables is not bound yet.
    Unbound,
    /// It is ground, and no fact holds it (the store has never seen it).
    Missing,
    Found(Gid),
}

/// `t` under `binds` ([`Look`]); a function's key is built at the end of
/// `keys` and taken off again.
fn look(t: &Term, binds: &[Option<Gid>], store: &Store, keys: &mut Vec<u32>) -> Look {
    match t {
        Term::Var(v) => binds[*v as usize].map_or(Look::Unbound, Look::Found),
        Term::Const(c) => store
            .find_key(&[tag(*c, false)])
            .map_or(Look::Missing, Look::Found),
        Term::Fn(f, args) => {
            let start = keys.len();
            keys.push(tag(*f, true));
            let mut missing = false;
            for a in args {
                match look(a, binds, store, keys) {
                    Look::Unbound => {
                        keys.truncate(start);
                        return Look::Unbound;
                    }
                    Look::Missing => missing = true,
                    Look::Found(g) => keys.push(g),
                }
            }
            let found = if missing {
                None
            } else {
                store.find_key(&keys[start..])
            };
            keys.truncate(start);
            found.map_or(Look::Missing, Look::Found)
        }
    }
}

/// Whether `a` and `b` are the same term under the bindings so far, or
/// `None` while either has an unbound variable.
fn same(
    a: &Term,
    b: &Term,
    binds: &[Option<Gid>],
    store: &mut Store,
    keys: &mut Vec<u32>,
) -> Option<bool> {
    match (look(a, binds, store, keys), look(b, binds, store, keys)) {
        (Look::Unbound, _) | (_, Look::Unbound) => None,
        (Look::Found(x), Look::Found(y)) => Some(x == y),
        // a term no fact holds: compare them whole
        _ => Some(try_instantiate(a, binds, store) == try_instantiate(b, binds, store)),
    }
}

/// Whether pattern `t` matches ground term `g`, binding free variables
/// (each one bound is pushed on `trail`).
pub(super) fn matches(
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
        Term::Const(c) => store.get(g) == GTerm::Const(*c),
        Term::Fn(f, args) => match store.get(g) {
            GTerm::Fn(gf, gargs) if gf == *f && gargs.len() == args.len() => {
                matches_all(args, gargs, binds, trail, store)
            }
            _ => false,
        },
    }
}

/// Whether each pattern of `terms` matches the ground term beside it in
/// `gs` (an atom's or a function's arguments), binding free variables.
fn matches_all(
    terms: &[Term],
    gs: &[Gid],
    binds: &mut [Option<Gid>],
    trail: &mut Vec<u32>,
    store: &Store,
) -> bool {
    terms
        .iter()
        .zip(gs)
        .all(|(t, &g)| matches(t, g, binds, trail, store))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numbers_common_to_lists_come_in_order() {
        let (a, b, c): (&[u32], &[u32], &[u32]) =
            (&[1, 3, 5, 7, 9, 11], &[3, 4, 5, 9, 11], &[0, 5, 9, 11, 20]);
        let all = |lists: &mut [&[u32]]| common(lists).collect::<Vec<u32>>();
        assert_eq!(all(&mut [a, b, c]), [5, 9, 11]);
        assert_eq!(all(&mut [c, a]), [5, 9, 11]);
        assert_eq!(
            common(&mut [a, b, c]).take(2).count(),
            2,
            "counted up to a cap"
        );
        assert_eq!(all(&mut [a, &[2, 4]]), [] as [u32; 0]);
        assert_eq!(all(&mut [a]), a, "one list: all of it");
        assert_eq!(all(&mut []), [] as [u32; 0]);
    }

    #[test]
    fn the_numbers_common_to_lists_of_any_lengths_are_those_in_each() {
        // lists of 0 to 300 ascending numbers, sparse and dense, against
        // a plain lookup of each number of the first in all the others
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..500 {
            let lists: Vec<Vec<u32>> = (0..rng.random_range(1..4))
                .map(|_| {
                    let (len, spread) = (rng.random_range(0..300), rng.random_range(1..6));
                    let mut l: Vec<u32> = (0..len)
                        .map(|_| rng.random_range(0..len * spread + 1))
                        .collect();
                    l.sort_unstable();
                    l.dedup();
                    l
                })
                .collect();
            let plain: Vec<u32> = lists[0]
                .iter()
                .copied()
                .filter(|x| lists.iter().all(|l| l.contains(x)))
                .collect();
            let mut slices: Vec<&[u32]> = lists.iter().map(|l| l.as_slice()).collect();
            assert_eq!(common(&mut slices).collect::<Vec<u32>>(), plain);
        }
    }
}
