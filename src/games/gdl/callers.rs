//! Rules that break GDL's safety restriction where every question asked
//! of them binds them, given the values those questions can pass.
//!
//! Some published descriptions leave a variable of a rule's head unbound,
//! trusting that whoever asks binds it. The public minichess writes
//! `(<= (kingmove ?u ?v ?u ?y) (adj ?v ?y))` (?u is the king's column,
//! given by the caller), `(<= (safe ?x ?y ?p) (true (cell ?x ?y b)))` (an
//! empty cell is safe for any ?p) and passes ?p on through `clearcolumn`
//! and `attacked` to `(not (attacked bk ?x ?y))`; the public attritionWar
//! writes `(<= (sum ?x 0 ?x) (succ 0 1))`, asked sometimes with the first
//! argument given and sometimes with the last. That is not valid GDL
//! (ggp-base's validator refuses it), but a top-down prover such as
//! ggp-base's plays it: it evaluates each rule with the arguments its
//! question gives bound. A grounder instantiates each rule on its own, and
//! cannot.
//!
//! So the questions are worked out as a top-down prover would meet them:
//! 1. A *call* is a relation asked with some of its top-level arguments
//!    given (`(sum, {1, 2})`). The game asks `init`, `next` and `terminal`
//!    with nothing given, and `legal` and `goal` with the role given (a
//!    game manager asks each role's moves and goal). A rule answers a call
//!    if its body, read as a top-down prover reads it, binds every
//!    variable of its head, of its `not`s and of its `distinct`s: a
//!    positive literal is evaluated once the call it makes (the arguments
//!    bound so far) is one its relation answers, and then binds all its
//!    variables; `true`, `does` and relations of facts answer anything. A
//!    relation answers a call if all its rules do; this is decided for
//!    every call the game's questions lead to, assuming each answered until
//!    shown otherwise, to a fixpoint.
//! 2. A rule that breaks the safety restriction gets, for each call of its
//!    relation, a literal for each variable only its head gives: the values
//!    that can be asked at the first given argument holding the variable
//!    (a *place*, `(sum, 2)`). A place's values are defined from each
//!    literal that asks it: the argument, with the literal that binds each
//!    of its variables (or, for a variable its own rule's head gives, that
//!    place's values in turn). They are taken from the relaxed model (as
//!    grounding computes it: `true` for every `init` and `next`, `does` for
//!    every `legal`, `not` ignored), so they include every value any
//!    reachable state can ask. The rules are then safe and mean what they
//!    meant for every question that can be asked.
//!
//! The same reading grounds a valid description too large to ground whole
//! on what its questions can ask ([`asked_only`]): a rule no question asks
//! is left out, and an argument every question of a relation gives is
//! limited to the values asked there, as above.
//!
//! Where the relaxed model passes the atom limit or the load's budget (the
//! public attritionWar's joins a score and both bids), each argument's
//! values (`domains.rs`) stand in for it: more values, but a rule that
//! leaves a variable to its callers holds whatever the value.
//!
//! The description stays invalid, with the error the safety check gives,
//! where a question of the game cannot be answered so (a variable no
//! literal binds, two literals that each need what only the other binds),
//! or where a rule that breaks the restriction is never asked; values past
//! the atom limit or the load's budget both ways add why to that error.

use super::hash::{HashMap, HashSet};

use super::{
    budget::Watch,
    domains::{domains, Place},
    ground::{relaxed_links, saturate},
    join::Model,
    kif::Pos,
    logic::{needed_vars, unsafe_vars, Atom, Description, Literal, Relation, Rule, Sym, Term},
    store::{GTerm, Gid, Store},
};

/// A relation asked with the top-level arguments whose bits are set given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Call {
    rel: Relation,
    given: u64,
}

impl Call {
    fn gives(&self, at: usize) -> bool {
        self.given & (1 << at) != 0
    }
}

/// The variables of a term.
fn vars_of(t: &Term) -> Vec<u32> {
    let mut vars = Vec::new();
    t.vars(&mut vars);
    vars
}

/// The call `a` makes once the variables of `bound` are bound.
fn call_of(a: &Atom, bound: &HashMap<u32, Option<usize>>) -> Call {
    let given = a.args.iter().enumerate().fold(0, |given, (i, t)| {
        match vars_of(t).iter().all(|v| bound.contains_key(v)) {
            true => given | 1 << i,
            false => given,
        }
    });
    Call {
        rel: a.relation(),
        given,
    }
}

/// How a top-down prover reads a rule asked with a call: the calls its
/// literals make (by their index in the body), each variable's first
/// binder (a positive literal, or `None` where the head gives it), and
/// whether it binds everything it must.
struct Reading {
    calls: Vec<(usize, Call)>,
    by: HashMap<u32, Option<usize>>,
    answers: bool,
}

impl Reading {
    fn of(r: &Rule, given: u64, answered: &impl Fn(Call) -> bool) -> Reading {
        let mut by: HashMap<u32, Option<usize>> = HashMap::default();
        for (i, t) in r.head.args.iter().enumerate() {
            if given & (1 << i) != 0 {
                for v in vars_of(t) {
                    by.insert(v, None);
                }
            }
        }
        let mut calls = Vec::new();
        let mut done = vec![false; r.body.len()];
        loop {
            let mut progress = false;
            for (j, l) in r.body.iter().enumerate() {
                let Literal::Pos(a) = l else { continue };
                let call = call_of(a, &by);
                if done[j] || !answered(call) {
                    continue;
                }
                done[j] = true;
                progress = true;
                calls.push((j, call));
                for v in a.vars() {
                    by.entry(v).or_insert(Some(j));
                }
            }
            if !progress {
                break;
            }
        }
        let mut answers = r
            .body
            .iter()
            .zip(&done)
            .all(|(l, done)| *done || !matches!(l, Literal::Pos(_)));
        answers &= needed_vars(r).iter().all(|(v, _)| by.contains_key(v));
        // a `not` asks its atom with everything given
        for (j, l) in r.body.iter().enumerate() {
            if let Literal::Neg(a) = l {
                let call = call_of(a, &by);
                answers &= answered(call);
                calls.push((j, call));
            }
        }
        Reading { calls, by, answers }
    }
}

/// A call, with the reading of each rule it asks (by the rule's index).
type Asked = (Call, Vec<(usize, Reading)>);

/// The calls the game's questions lead to, in the order met, each with the
/// readings of the rules it asks (by rule index); `Ok(None)` where a
/// question of the game cannot be answered. Each reading of a rule costs
/// `watch` a step a literal, so that a description crafted to give many
/// ways of asking ends at the load's budget.
fn calls_asked(d: &Description, watch: &mut Watch) -> Result<Option<Vec<Asked>>, String> {
    let k = &d.keys;
    let mut rules_of: HashMap<Relation, Vec<usize>> = HashMap::default();
    for (i, r) in d.rules.iter().enumerate() {
        rules_of.entry(r.head.relation()).or_default().push(i);
    }
    let asks = |rel, given| Call { rel, given };
    let game = [
        asks((k.init, 1), 0),
        asks((k.next, 1), 0),
        asks((k.terminal, 0), 0),
        asks((k.legal, 2), 1),
        asks((k.goal, 2), 1),
    ];
    let mut unanswered: HashSet<Call> = HashSet::default();
    loop {
        let answered = |c: Call| !unanswered.contains(&c);
        let mut met: Vec<Call> = game.to_vec();
        let mut seen: HashSet<Call> = met.iter().copied().collect();
        let mut read = Vec::new();
        let mut changed = false;
        let mut at = 0;
        while at < met.len() {
            let call = met[at];
            at += 1;
            let mut readings = Vec::new();
            for &i in rules_of.get(&call.rel).map_or(&[][..], |v| &v[..]) {
                if !watch.spend_many(1 + d.rules[i].body.len() as u64) {
                    return Err(watch.error(Some(d.rules[i].pos)));
                }
                let reading = Reading::of(&d.rules[i], call.given, &answered);
                if !reading.answers && !unanswered.contains(&call) {
                    changed = true;
                }
                for &(_, c) in &reading.calls {
                    if seen.insert(c) {
                        met.push(c);
                    }
                }
                readings.push((i, reading));
            }
            read.push((call, readings));
        }
        if !changed {
            return Ok(match game.iter().any(|c| unanswered.contains(c)) {
                true => None,
                false => Some(read),
            });
        }
        for (call, readings) in &read {
            if readings.iter().any(|(_, r)| !r.answers) {
                unanswered.insert(*call);
            }
        }
    }
}

/// Where a variable only the head gives is taken from, for a rule asked
/// with `call`: the first given argument that is that variable, or holds it.
fn place_of(r: &Rule, call: Call, v: u32) -> Option<Place> {
    let holds = |t: &Term| vars_of(t).contains(&v);
    let at = (r.head.args.iter().enumerate())
        .filter(|(i, _)| call.gives(*i))
        .find(|(_, t)| **t == Term::Var(v))
        .or_else(|| (r.head.args.iter().enumerate()).find(|(i, t)| call.gives(*i) && holds(t)))?
        .0;
    Some((r.head.relation(), at))
}

/// `d` with every rule that breaks the safety restriction where every
/// question asked of it binds it given its values (see the module's text),
/// checked; `None` where that cannot be done, and `Some(Err(why))` where it
/// could, but working out the values passes `limit` atoms or the budget of
/// `watch`.
pub(super) fn bind_unsafe(
    d: &Description,
    limit: usize,
    watch: &mut Watch,
) -> Option<Result<Description, String>> {
    limited(d, Scope::Unsafe, limit, watch)
}

/// The same game as the valid `d`, limited to what its questions can ask,
/// for a description too large to ground whole: a rule whose relation no
/// question asks is left out, and each argument that every question of a
/// relation gives is limited to the values they can pass there (as
/// [`bind_unsafe`] limits a variable only the head gives). A description
/// whose helpers are asked only of a few values, as crisscross's `count`
/// of four given cells, then grounds on those. `None` where nothing is
/// limited or a question cannot be answered; `Some(Err(why))` as for
/// [`bind_unsafe`].
pub(super) fn asked_only(
    d: &Description,
    limit: usize,
    watch: &mut Watch,
) -> Option<Result<Description, String>> {
    limited(d, Scope::Every, limit, watch)
}

/// Which rules [`limited`] limits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Those that break the safety restriction.
    Unsafe,
    /// Every rule, where every question gives an argument.
    Every,
}

fn limited(
    d: &Description,
    scope: Scope,
    limit: usize,
    watch: &mut Watch,
) -> Option<Result<Description, String>> {
    let unsafe_rules: Vec<Vec<u32>> = (d.rules.iter())
        .map(|r| unsafe_vars(r).into_iter().map(|(v, _)| v).collect())
        .collect();
    let wide = |a: &Atom| a.args.len() > 64;
    let atoms = d.rules.iter().flat_map(|r| {
        let body = r.body.iter().filter_map(|l| match l {
            Literal::Pos(a) | Literal::Neg(a) => Some(a),
            _ => None,
        });
        std::iter::once(&r.head).chain(body)
    });
    let nothing_unsafe = unsafe_rules.iter().all(Vec::is_empty);
    if (scope == Scope::Unsafe && nothing_unsafe) || atoms.clone().any(wide) {
        return None;
    }
    let asked = watch
        .phase("reading the rules as their questions ask them")
        .and_then(|()| calls_asked(d, watch));
    let asked = match asked {
        Ok(asked) => asked?,
        Err(why) => return Some(Err(why)),
    };
    // 2. the places each unsafe rule's variables are taken from, per call
    let mut places: Vec<Place> = Vec::new();
    let mut guards: Vec<Vec<Vec<Place>>> = vec![Vec::new(); d.rules.len()];
    for (call, readings) in &asked {
        for (i, reading) in readings {
            if unsafe_rules[*i].is_empty() || !reading.answers {
                continue;
            }
            let r = &d.rules[*i];
            let mut guard = Vec::new();
            for &v in &unsafe_rules[*i] {
                let place = place_of(r, *call, v)?;
                if !guard.contains(&place) {
                    guard.push(place);
                }
            }
            places.extend(&guard);
            if !guards[*i].contains(&guard) {
                guards[*i].push(guard);
            }
        }
    }
    // a rule no question asks is not evaluated by a top-down prover
    // either: it stays an error, as GDL has it
    if (unsafe_rules.iter().zip(&guards)).any(|(vars, g)| !vars.is_empty() && g.is_empty()) {
        return None;
    }
    // every other rule, where every rule is limited: left out where no
    // question asks its relation, limited where every question gives
    let mut left_out = vec![false; d.rules.len()];
    if scope == Scope::Every {
        let mut always: HashMap<Relation, u64> = HashMap::default();
        for (call, _) in &asked {
            *always.entry(call.rel).or_insert(call.given) &= call.given;
        }
        let k = &d.keys;
        let own = [k.role, k.init, k.next, k.legal, k.goal, k.terminal];
        for (i, r) in d.rules.iter().enumerate() {
            if !unsafe_rules[i].is_empty() {
                continue;
            }
            let rel = r.head.relation();
            let Some(&given) = always.get(&rel) else {
                left_out[i] = !own.contains(&rel.0);
                continue;
            };
            let guard: Vec<Place> = (r.head.args.iter().enumerate())
                .filter(|(at, t)| given & (1 << at) != 0 && !vars_of(t).is_empty())
                .map(|(at, _)| (rel, at))
                .collect();
            if !guard.is_empty() {
                places.extend(&guard);
                guards[i].push(guard);
            }
        }
        if places.is_empty() && !left_out.contains(&true) {
            return None;
        }
    }
    // the places the values of those places are taken from, in turn
    let mut uses: Vec<(Place, &Term, &Rule, Call, &Reading)> = Vec::new();
    let mut known: HashSet<Place> = HashSet::default();
    let mut at = 0;
    while at < places.len() {
        let place = places[at];
        at += 1;
        if !known.insert(place) {
            continue;
        }
        for (call, readings) in &asked {
            for (i, reading) in readings.iter().filter(|(_, r)| r.answers) {
                let r = &d.rules[*i];
                for &(j, c) in &reading.calls {
                    let (Literal::Pos(a) | Literal::Neg(a)) = &r.body[j] else {
                        continue;
                    };
                    if c.rel != place.0 || !c.gives(place.1) {
                        continue;
                    }
                    let arg = &a.args[place.1];
                    for v in vars_of(arg) {
                        if reading.by[&v].is_none() {
                            places.push(place_of(r, *call, v)?);
                        }
                    }
                    uses.push((place, arg, r, *call, reading));
                }
            }
        }
    }
    places.retain({
        let mut once = HashSet::default();
        move |p| once.insert(*p)
    });
    let mut out = d.clone();
    // each place's relation of values, named so no description can name it
    let what = match scope {
        Scope::Unsafe => "values of",
        Scope::Every => "asked of",
    };
    let values: HashMap<Place, Sym> = places
        .iter()
        .map(|&((rel, arity), i)| {
            let name = format!("{what} {}/{arity} at {i}", d.symbols.name(rel));
            (((rel, arity), i), out.symbols.intern(&name))
        })
        .collect();
    let value = |place: Place, t: &Term| {
        Literal::Pos(Atom {
            rel: values[&place],
            args: vec![t.clone()],
        })
    };
    let k = &d.keys;
    let mut defined: Vec<Rule> = Vec::new();
    // the game gives each role to `legal` and `goal`
    for rel in [(k.legal, 2), (k.goal, 2)] {
        if values.contains_key(&(rel, 0)) {
            defined.push(Rule {
                head: Atom {
                    rel: values[&(rel, 0)],
                    args: vec![Term::Var(0)],
                },
                body: vec![Literal::Pos(Atom {
                    rel: k.role,
                    args: vec![Term::Var(0)],
                })],
                vars: vec!["?r".to_string()],
                pos: Pos { line: 0, column: 0 },
            });
        }
    }
    for (place, arg, r, call, reading) in uses {
        let mut body: Vec<Literal> = Vec::new();
        for v in vars_of(arg) {
            let binder = match reading.by[&v] {
                Some(j) => r.body[j].clone(),
                None => {
                    let from = place_of(r, call, v)?;
                    value(from, &r.head.args[from.1])
                }
            };
            if !body.contains(&binder) {
                body.push(binder);
            }
        }
        defined.push(Rule {
            head: Atom {
                rel: values[&place],
                args: vec![arg.clone()],
            },
            body,
            vars: r.vars.clone(),
            pos: r.pos,
        });
    }
    // each unsafe rule once for each way it is asked, and each other
    // rule limited once, to the values of their places; left-out rules
    // not at all
    let mut guarded = Vec::with_capacity(d.rules.len());
    for ((r, guards), left_out) in d.rules.iter().zip(&guards).zip(left_out) {
        if guards.is_empty() && !left_out {
            guarded.push(r.clone());
        }
        for guard in guards {
            let mut r = r.clone();
            for &place in guard {
                let g = value(place, &r.head.args[place.1]);
                r.body.push(g);
            }
            guarded.push(r);
        }
    }
    let links = relaxed_links(k);
    let relaxed: Vec<&Rule> = guarded.iter().chain(&defined).chain(&links).collect();
    let mut store = Store::default();
    let rels: Vec<Sym> = places.iter().map(|p| values[p]).collect();
    let found = match worked_out(&relaxed, &rels, scope, &mut store, limit, watch) {
        Ok(found) => found,
        Err(why) => return Some(Err(why)),
    };
    // the values as facts, place by place in the order the places were found
    out.rules = guarded;
    for (place, found) in places.iter().zip(&found) {
        let rel = values[place];
        for &value in found {
            out.rules.push(Rule {
                head: Atom {
                    rel,
                    args: vec![term(value, &store)],
                },
                body: Vec::new(),
                vars: Vec::new(),
                pos: Pos { line: 0, column: 0 },
            });
        }
    }
    out.check().ok()?;
    Some(Ok(out))
}

/// The values of each relation of `rels` (a place's, of one argument),
/// in the order found: worked out from the relaxed model of `relaxed`, or,
/// for rules that leave a variable to their callers (`scope`), where that
/// passes `limit` atoms or the budget of `watch`, from each argument's
/// values ([`domains`]), with the steps afresh. Those are more values, but
/// a rule that leaves a variable to its callers holds whatever the value,
/// so the game is the same; only its grounding is larger.
fn worked_out(
    relaxed: &[&Rule],
    rels: &[Sym],
    scope: Scope,
    store: &mut Store,
    limit: usize,
    watch: &mut Watch,
) -> Result<Vec<Vec<Gid>>, String> {
    let mut model = Model::default();
    let exact = watch
        .phase("finding the values rules that leave a variable unbound are asked with")
        .and_then(|()| saturate(&mut model, relaxed, false, None, store, limit, watch));
    match exact {
        Ok(()) => Ok((rels.iter())
            .map(|&rel| {
                let atoms = model.atoms(&(rel, 1)).iter();
                atoms.map(|&atom| store.args(atom)[0]).collect()
            })
            .collect()),
        Err(why) if scope == Scope::Unsafe && watch.too_large() => {
            watch.fresh_steps();
            *store = Store::default();
            watch.phase("finding each argument's values instead")?;
            let d = domains(relaxed, store, limit, watch).ok_or(why)?;
            Ok((rels.iter())
                .map(|&rel| d.of(((rel, 1), 0)).to_vec())
                .collect())
        }
        Err(why) => Err(why),
    }
}

/// A ground term of `store` as a term of the rules.
fn term(id: Gid, store: &Store) -> Term {
    match store.get(id) {
        GTerm::Const(c) => Term::Const(c),
        GTerm::Fn(f, args) => Term::Fn(f, args.iter().map(|&a| term(a, store)).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{budget::Watch, logic::Description};
    use super::*;

    const GAME: &str = "(role a) (role b) (init (at 2)) (init (at 3)) (legal a noop) (legal b noop)
        (<= (next (at ?x)) (true (at ?x))) (<= terminal (true (at 4))) (goal a 0) (goal b 0)
        (n 1) (n 2) (n 3) (n 4)\n";

    fn bound(rules: &str) -> Option<Description> {
        let d = Description::read(&format!("{GAME}{rules}")).unwrap();
        assert!(d.check().is_err(), "the rules are not valid GDL as written");
        bind_unsafe(&d, 10_000, &mut Watch::quiet(1_000_000)).map(|d| d.unwrap())
    }

    /// The values found for each place, as `relation/arity at index: values`.
    fn values(d: &Description) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in &d.rules {
            let name = d.symbols.name(r.head.rel);
            let Some(place) =
                (name.strip_prefix("values of ")).or_else(|| name.strip_prefix("asked of "))
            else {
                continue;
            };
            let Term::Const(c) = r.head.args[0] else {
                panic!("a constant");
            };
            match out.last_mut() {
                Some(last) if last.starts_with(&format!("{place}:")) => {
                    last.push(' ');
                    last.push_str(d.symbols.name(c));
                }
                _ => out.push(format!("{place}: {}", d.symbols.name(c))),
            }
        }
        out
    }

    #[test]
    fn a_variable_left_unbound_takes_the_values_its_uses_pass() {
        // pair leaves ?x to its use, which passes where a piece is
        let d = bound(
            "(<= (pair ?x ?y) (n ?y)) (<= (p ?y) (true (at ?x)) (pair ?x ?y)) (<= terminal (p ?z))",
        )
        .unwrap();
        assert_eq!(values(&d), ["pair/2 at 0: 2 3"]);
        // the rule now binds ?x by those values
        let pair = d
            .rules
            .iter()
            .find(|r| d.symbols.name(r.head.rel) == "pair")
            .unwrap();
        assert_eq!(pair.body.len(), 2);
    }

    #[test]
    fn a_variable_passed_on_unbound_takes_the_values_passed_to_the_rule_that_passes_it() {
        // threat leaves ?p (only in a distinct); blocked passes its own ?p
        // on; the use, under `not`, passes constants
        let d = bound(
            "(<= (threat ?p ?x) (n ?x) (distinct ?p ?x))
             (<= (blocked ?p ?x) (threat ?p ?x))
             (<= (free ?x) (n ?x) (not (blocked 1 ?x)) (not (blocked 4 ?x)))
             (<= terminal (free 2))",
        )
        .unwrap();
        assert_eq!(values(&d), ["threat/2 at 0: 1 4", "blocked/2 at 0: 1 4"]);
        // a literal that would bind its own needed argument does not: the
        // head gives it, from q's use in r
        let d = bound(
            "(<= (pair ?x ?y) (n ?y)) (<= (q ?x) (pair ?x ?x)) (<= (r ?y) (n ?y) (q ?y))
             (<= terminal (r ?z))",
        )
        .unwrap();
        assert_eq!(values(&d), ["pair/2 at 0: 1 2 3 4", "q/1 at 0: 1 2 3 4"]);
    }

    #[test]
    fn a_variable_the_head_gives_at_two_places_takes_the_values_of_either() {
        // eq is asked with its first argument given (by f) and with its
        // second (by g): each way binds ?x
        let d = bound(
            "(<= (eq ?x ?x) (n 1)) (<= (f ?y) (true (at ?y)) (eq ?y ?z))
             (<= (g ?z) (n ?z) (eq ?y ?z) (true (at ?y))) (<= terminal (f ?a) (g ?b))",
        )
        .unwrap();
        assert_eq!(values(&d), ["eq/2 at 0: 2 3", "eq/2 at 1: 1 2 3 4"]);
        let eq = |r: &&Rule| d.symbols.name(r.head.rel) == "eq";
        assert_eq!(d.rules.iter().filter(eq).count(), 2, "once for each way");
    }

    #[test]
    fn the_role_of_legal_and_goal_is_given_by_whoever_asks() {
        // each role's goal and moves are asked with the role given
        let d = bound(
            "(<= (goal ?p 10) (true (at 4))) (<= (legal ?r wait) (not (true (at 4))))
             (<= (pair ?x ?y) (n ?y)) (<= (goal ?p 90) (true (at 3)) (pair ?p 3))",
        )
        .unwrap();
        // pair's ?x is asked with the roles, through goal's
        assert_eq!(
            values(&d),
            ["legal/2 at 0: a b", "goal/2 at 0: a b", "pair/2 at 0: a b"]
        );
        // the two rules that left the role unbound now bind it
        let mut guarded = 0;
        for r in &d.rules {
            let head = d.symbols.name(r.head.rel);
            let Some(Literal::Pos(last)) = r.body.last() else {
                continue;
            };
            let own = head == "goal" || head == "legal";
            if own && d.symbols.name(last.rel) == format!("values of {head}/2 at 0") {
                assert_eq!(r.head.args[0], last.args[0], "{head}");
                guarded += 1;
            }
        }
        assert_eq!(guarded, 2);
    }

    #[test]
    fn every_rule_can_be_limited_to_what_the_game_asks_of_it() {
        let d = Description::read(&format!(
            "{GAME}(<= (far ?a ?b) (n ?a) (n ?b)) (<= terminal (far 1 4)) (<= (spare ?a) (n ?a))"
        ))
        .unwrap();
        d.check().unwrap();
        let limited = asked_only(&d, 10_000, &mut Watch::quiet(1_000_000)).unwrap();
        let limited = limited.unwrap();
        assert_eq!(values(&limited), ["far/2 at 0: 1", "far/2 at 1: 4"]);
        let rules = |d: &Description, name: &str| {
            let named = |r: &&Rule| d.symbols.name(r.head.rel) == name;
            d.rules.iter().filter(named).count()
        };
        assert_eq!(rules(&limited, "spare"), 0, "no question asks it");
        assert_eq!(rules(&limited, "far"), 1);
        // the game's own relations stay, whether asked or not
        for own in ["role", "init", "next", "legal", "goal", "terminal"] {
            assert_eq!(rules(&limited, own), rules(&d, own), "{own}");
        }
        // nothing to limit: nothing done
        let plain = Description::read(
            "(role a) (role b) (init (at 2)) (legal a noop) (legal b noop) (goal a 0) (goal b 0)
             (<= (next (at ?x)) (true (at ?x))) (<= terminal (true (at 4)))",
        )
        .unwrap();
        assert!(asked_only(&plain, 10_000, &mut Watch::quiet(1_000_000)).is_none());
    }

    #[test]
    fn values_past_the_atom_limit_or_the_budget_are_an_error_of_their_own() {
        let d = Description::read(&format!(
            "{GAME}(<= (pair ?x ?y) (n ?y)) (<= (p ?y) (true (at ?x)) (pair ?x ?y))
             (<= terminal (p ?z))"
        ))
        .unwrap();
        let Some(Err(why)) = bind_unsafe(&d, 5, &mut Watch::quiet(1_000_000)) else {
            panic!("an error");
        };
        assert!(why.contains("more than 5 ground atoms"), "{why}");
        // reading the rules as their questions ask them costs steps too
        let Some(Err(why)) = bind_unsafe(&d, 10_000, &mut Watch::quiet(5)) else {
            panic!("an error");
        };
        assert!(why.contains("more than 5 steps"), "{why}");
        assert!(asked_only(&d, 10_000, &mut Watch::quiet(5)).is_some_and(|r| r.is_err()));
    }

    #[test]
    fn what_no_use_can_bind_stays_invalid() {
        let cases = [
            // never used
            "(<= (pair ?x ?y) (n ?y))",
            // a use that binds ?z nowhere
            "(<= (pair ?x ?y) (n ?y)) (<= (q ?y) (n ?y) (pair ?z ?y)) (<= terminal (q ?w))",
            // unbound in a `not` only, not in the head
            "(<= (q ?y) (n ?y) (not (n2 ?z))) (<= (n2 ?x) (n ?x)) (<= (r ?y) (q ?y))
             (<= terminal (r ?w))",
            // two literals that each need what only the other binds
            "(<= (pair ?x ?y) (n ?y)) (<= (s ?x ?y) (n ?x))
             (<= (q ?z) (n ?z) (pair ?x ?w) (s ?x ?w)) (<= (r ?z) (q ?z)) (<= terminal (r ?v))",
            // one of GDL's own relations: asked with its arguments free
            "(<= (legal a (m ?x)) (true (at 2)))",
            // a use in one of GDL's own relations that only its head binds
            "(<= (pair ?x ?y) (n ?y)) (<= (next (at ?x)) (pair ?x 1))",
            // goal's value and legal's move are asked free, not given
            "(<= (goal a ?x) (true (at 2)))",
            "(<= (legal b ?m) (true (at 3)))",
        ];
        for rules in cases {
            assert!(bound(rules).is_none(), "{rules}");
        }
    }
}
