//! Rules that break GDL's safety restriction where every use binds them,
//! given the values their uses can pass.
//!
//! Some published descriptions leave a variable of a rule's head unbound,
//! trusting that whoever asks binds it. The public minichess writes
//! `(<= (kingmove ?u ?v ?u ?y) (adj ?v ?y))` (?u is the king's column,
//! given by the caller), `(<= (safe ?x ?y ?p) (true (cell ?x ?y b)))` (an
//! empty cell is safe for any ?p) and passes ?p on through `clearcolumn`
//! and `attacked` to `(not (attacked bk ?x ?y))`. That is not valid GDL
//! (ggp-base's validator refuses it), but a top-down prover such as
//! ggp-base's plays it: it evaluates each rule with its arguments bound. A
//! grounder instantiates each rule on its own, and cannot.
//!
//! So the values a rule's unbound variable can take are worked out from its
//! uses, as a top-down prover would receive them:
//! 1. An argument of a relation (a *place*: `(attacked, 0)`) needs its
//!    values from the uses where a rule leaves a variable of its head there
//!    unbound, or where a rule passes on to such a place a variable only
//!    its own head gives (`attacked` passes its ?p to `clearcolumn`, whose
//!    first rule leaves ?p unbound). A rule's body is read as a top-down
//!    prover evaluates it: a positive literal can be evaluated once the
//!    variables at its places that need values are bound (by the head, or
//!    by literals evaluated before it), and then binds the rest of its
//!    variables; a literal never binds what it needs itself. This is
//!    repeated until no place is added. A variable that is unbound
//!    and not a top-level argument of its rule's head, or a place of one of
//!    GDL's own relations (`next`, `terminal`, ... are asked with their
//!    arguments free), leaves the description invalid. The exception is
//!    the role of `legal` and `goal`: a game manager asks each role's
//!    moves and goal with the role given, so a rule such as
//!    `(<= (goal ?p 0) (not (true (gameOver))))` (the public
//!    `gt_attrition_breaks_propnet`) holds for every role, and gets the
//!    literal `(role ?p)`.
//! 2. Each such place gets a relation of its values, defined from each use:
//!    the used argument, with the literals of the using rule that bind its
//!    variables. Its values are taken from the relaxed model (as grounding
//!    computes it: `true` for every `init` and `next`, `does` for every
//!    `legal`, `not` ignored), so they include every value any reachable
//!    state can pass.
//! 3. Each rule gets, for every variable it left unbound, a literal of its
//!    place's values, which are facts: the rules are then safe and mean
//!    what they meant for every value that can be asked.
//!
//! Anything else keeps the error the safety check gives, and so does a
//! rule that leaves a variable unbound and is never used; values past the
//! atom limit or the load's budget add why to that error.

use super::hash::{HashMap, HashSet};

use super::{
    budget::Watch,
    ground::{relaxed_links, saturate},
    join::Model,
    kif::Pos,
    logic::{needed_vars, Atom, Description, Keywords, Literal, Relation, Rule, Sym, Term},
    store::{GTerm, Gid, Store},
};

/// A relation's top-level argument, by its index.
type Place = (Relation, usize);

/// How a rule's variables get their values, as a top-down prover would
/// evaluate its body: each variable's first binder, a positive literal
/// (by its index in the body) that could be evaluated with what the
/// literals before it in that order bound, or `None` where only the head
/// gives it.
struct Order {
    by: HashMap<u32, Option<usize>>,
}

impl Order {
    /// The order of `r`'s body given the places that need their values
    /// from their uses, and the variables its head gives.
    fn of(r: &Rule, needy: &HashSet<Place>, given: &[u32]) -> Order {
        let mut by: HashMap<u32, Option<usize>> = given.iter().map(|&v| (v, None)).collect();
        let mut done = vec![false; r.body.len()];
        loop {
            let mut progress = false;
            for (j, l) in r.body.iter().enumerate() {
                let Literal::Pos(a) = l else { continue };
                if done[j] || !needs(a, needy).iter().all(|v| by.contains_key(v)) {
                    continue;
                }
                done[j] = true;
                progress = true;
                for v in a.vars() {
                    by.entry(v).or_insert(Some(j));
                }
            }
            if !progress {
                return Order { by };
            }
        }
    }

    /// The first variable `r` needs bound and this order does not bind:
    /// of a literal's argument at a place in `needy` first (once the head
    /// gives it, the literal may bind the rest), then of the head, a `not`
    /// or a `distinct`.
    fn unbound(&self, r: &Rule, needy: &HashSet<Place>) -> Option<u32> {
        let mut vars = Vec::new();
        for l in &r.body {
            if let Literal::Pos(a) | Literal::Neg(a) = l {
                vars.extend(needs(a, needy));
            }
        }
        vars.extend(needed_vars(r).into_iter().map(|(v, _)| v));
        vars.into_iter().find(|v| !self.by.contains_key(v))
    }
}

/// The variables of `a`'s arguments at places in `needy`.
fn needs(a: &Atom, needy: &HashSet<Place>) -> Vec<u32> {
    let mut vars = Vec::new();
    for (i, t) in a.args.iter().enumerate() {
        if needy.contains(&(a.relation(), i)) {
            t.vars(&mut vars);
        }
    }
    vars
}

/// Where `v` is a top-level argument of `r`'s head, first.
fn head_place(r: &Rule, v: u32) -> Option<Place> {
    let at = r.head.args.iter().position(|t| *t == Term::Var(v))?;
    Some((r.head.relation(), at))
}

/// `d` with every rule that breaks the safety restriction where its uses
/// bind it given its values (see the module's text), checked; `None` where
/// that cannot be done, and `Some(Err(why))` where it could, but working
/// out the values passes `limit` atoms or the budget of `watch`.
pub(super) fn bind_unsafe(
    d: &Description,
    limit: usize,
    watch: &mut Watch,
) -> Option<Result<Description, String>> {
    let (needy, given) = needy_places(d)?;
    if given.iter().all(Vec::is_empty) {
        return None;
    }
    let known: HashSet<Place> = needy.iter().copied().collect();
    let mut out = d.clone();
    // each place's relation of values, named so no description can name it
    let values: HashMap<Place, Sym> = needy
        .iter()
        .map(|&((rel, arity), i)| {
            let name = format!("values of {}/{arity} at {i}", d.symbols.name(rel));
            (((rel, arity), i), out.symbols.intern(&name))
        })
        .collect();
    let guard = |r: &Rule, v: u32| -> Literal {
        let place = head_place(r, v).expect("a variable the head gives is a head's argument");
        Literal::Pos(Atom {
            rel: values.get(&place).copied().unwrap_or(d.keys.role),
            args: vec![Term::Var(v)],
        })
    };
    let mut guarded = Vec::with_capacity(d.rules.len());
    let mut uses = Vec::new();
    for (r, given) in d.rules.iter().zip(&given) {
        let order = Order::of(r, &known, given);
        // 2. each place's values from its uses: the argument, with the
        // literal that binds each of its variables
        for l in &r.body {
            let (Literal::Pos(a) | Literal::Neg(a)) = l else {
                continue;
            };
            for (i, t) in a.args.iter().enumerate() {
                let Some(&rel) = values.get(&(a.relation(), i)) else {
                    continue;
                };
                let mut vars = Vec::new();
                t.vars(&mut vars);
                let mut body: Vec<Literal> = Vec::new();
                for v in vars {
                    let binder = match order.by[&v] {
                        Some(j) => r.body[j].clone(),
                        None => guard(r, v),
                    };
                    if !body.contains(&binder) {
                        body.push(binder);
                    }
                }
                uses.push(Rule {
                    head: Atom {
                        rel,
                        args: vec![t.clone()],
                    },
                    body,
                    vars: r.vars.clone(),
                    pos: r.pos,
                });
            }
        }
        // 3. each variable the head gives limited to its place's values
        let mut r = r.clone();
        for &v in given {
            let g = guard(&r, v);
            r.body.push(g);
        }
        guarded.push(r);
    }
    // a rule no one asks is not evaluated by a top-down prover either:
    // it stays an error, as GDL has it
    let asked: HashSet<Sym> = uses.iter().map(|u| u.head.rel).collect();
    if values.values().any(|rel| !asked.contains(rel)) {
        return None;
    }
    let links = relaxed_links(&d.keys);
    let relaxed: Vec<&Rule> = guarded.iter().chain(&uses).chain(&links).collect();
    let mut model = Model::default();
    let mut store = Store::default();
    let worked_out = watch
        .phase("finding the values rules that leave a variable unbound are asked with")
        .and_then(|()| saturate(&mut model, &relaxed, false, None, &mut store, limit, watch));
    if let Err(why) = worked_out {
        return Some(Err(why));
    }
    // the values as facts, place by place in the order the places were found
    out.rules = guarded;
    for place in &needy {
        let rel = values[place];
        for &atom in model.atoms(&(rel, 1)) {
            out.rules.push(Rule {
                head: Atom {
                    rel,
                    args: vec![term(store.args(atom)[0], &store)],
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

/// 1. The places that need their values from their uses, in the order
///    found, and for each rule the variables its head gives; `None` where
///    a rule leaves unbound a variable no use can give.
fn needy_places(d: &Description) -> Option<(Vec<Place>, Vec<Vec<u32>>)> {
    let k = &d.keys;
    let own = [
        k.role, k.init, k.truth, k.next, k.legal, k.does, k.goal, k.terminal,
    ];
    let mut needy: Vec<Place> = Vec::new();
    let mut known: HashSet<Place> = HashSet::default();
    let mut given: Vec<Vec<u32>> = vec![Vec::new(); d.rules.len()];
    loop {
        let mut added = false;
        for (r, given) in d.rules.iter().zip(&mut given) {
            // what the head must give, one variable at a time, until the
            // order binds the rest
            while let Some(v) = Order::of(r, &known, given).unbound(r, &known) {
                let place = head_place(r, v)?;
                given.push(v);
                if asked_by_role(place, k) {
                    continue;
                }
                if own.contains(&place.0 .0) {
                    return None;
                }
                if known.insert(place) {
                    needy.push(place);
                    added = true;
                }
            }
        }
        if !added {
            return Some((needy, given));
        }
    }
}

/// Whether `place` is the role of `legal` or `goal`, which a game manager
/// asks with each role given.
fn asked_by_role(((rel, arity), at): Place, k: &Keywords) -> bool {
    (rel == k.legal || rel == k.goal) && arity == 2 && at == 0
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
            let Some(place) = name.strip_prefix("values of ") else {
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
        let d = bound("(<= (pair ?x ?y) (n ?y)) (<= (p ?y) (true (at ?x)) (pair ?x ?y))").unwrap();
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
             (<= (free ?x) (n ?x) (not (blocked 1 ?x)) (not (blocked 4 ?x)))",
        )
        .unwrap();
        assert_eq!(values(&d), ["threat/2 at 0: 1 4", "blocked/2 at 0: 1 4"]);
        // a literal that would bind its own needed argument does not: the
        // head gives it, from q's use in r
        let d =
            bound("(<= (pair ?x ?y) (n ?y)) (<= (q ?x) (pair ?x ?x)) (<= (r ?y) (n ?y) (q ?y))")
                .unwrap();
        assert_eq!(values(&d), ["pair/2 at 0: 1 2 3 4", "q/1 at 0: 1 2 3 4"]);
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
        assert_eq!(values(&d), ["pair/2 at 0: a b"]);
        for r in &d.rules {
            let head = d.symbols.name(r.head.rel);
            if (head == "goal" || head == "legal") && !r.body.is_empty() {
                let last = r.body.last().unwrap();
                let Literal::Pos(a) = last else {
                    panic!("a positive literal")
                };
                assert_eq!(d.symbols.name(a.rel), "role", "{head}");
            }
        }
    }

    #[test]
    fn values_past_the_atom_limit_are_an_error_of_their_own() {
        let d = Description::read(&format!(
            "{GAME}(<= (pair ?x ?y) (n ?y)) (<= (p ?y) (true (at ?x)) (pair ?x ?y))"
        ))
        .unwrap();
        let Some(Err(why)) = bind_unsafe(&d, 5, &mut Watch::quiet(1_000_000)) else {
            panic!("an error");
        };
        assert!(why.contains("more than 5 ground atoms"), "{why}");
    }

    #[test]
    fn what_no_use_can_bind_stays_invalid() {
        let cases = [
            // never used
            "(<= (pair ?x ?y) (n ?y))",
            // a use that binds ?z nowhere
            "(<= (pair ?x ?y) (n ?y)) (<= (q ?y) (n ?y) (pair ?z ?y))",
            // unbound in a `not` only, not in the head
            "(<= (q ?y) (n ?y) (not (n2 ?z))) (<= (n2 ?x) (n ?x)) (<= (r ?y) (q ?y))",
            // two literals that each need what only the other binds
            "(<= (pair ?x ?y) (n ?y)) (<= (s ?x ?y) (n ?x))
             (<= (q ?z) (n ?z) (pair ?x ?w) (s ?x ?w)) (<= (r ?z) (q ?z))",
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
