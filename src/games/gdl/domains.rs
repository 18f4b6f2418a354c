//! Each argument's values: a cheap over-approximation of a description's
//! relaxed model, for when the relaxed model itself is too large to work
//! out.
//!
//! The values a rule that leaves a variable to its callers can be asked
//! with (`callers.rs`) are read from the relaxed model, which joins each
//! rule's literals. The public attritionWar joins a score and both bids
//! (each 0 to 100) in each of its two score rules: about 3 million
//! bindings, more than the default grounding budget, only to learn which
//! numbers its `sum` and `min` are asked of. Here every argument of every
//! relation (a *place*) gets a set of values instead, and each variable of
//! a rule takes every value that each place it holds in a positive literal
//! allows, on its own, not joined with the others: a head argument takes
//! every combination of its variables' values. Worked out to a fixpoint,
//! every value the relaxed model has at a place is among the place's
//! values (each of a binding's values is allowed where it stands), and the
//! work is the places' sizes, not their products. `not` is ignored, as in
//! the relaxed model. This is the per-argument domain analysis of GDL
//! grounders (ggp-base's sentence domain models).

use super::hash::{HashMap, HashSet};

use super::{
    budget::Watch,
    join::matches,
    logic::{Literal, Relation, Rule, Term},
    store::{try_instantiate, Gid, Store},
};

/// A relation's top-level argument, by its index.
pub(super) type Place = (Relation, usize);

/// Each place's values, in the order found.
#[derive(Default)]
pub(super) struct Domains {
    values: HashMap<Place, Vec<Gid>>,
    known: HashSet<(Place, Gid)>,
}

impl Domains {
    /// The values of `place`, in the order found.
    pub(super) fn of(&self, place: Place) -> &[Gid] {
        self.values.get(&place).map_or(&[], Vec::as_slice)
    }

    /// Adds `value` to `place`; whether it is new.
    fn add(&mut self, place: Place, value: Gid) -> bool {
        let new = self.known.insert((place, value));
        if new {
            self.values.entry(place).or_default().push(value);
        }
        new
    }

    /// How many values there are, over every place.
    fn len(&self) -> usize {
        self.known.len()
    }
}

/// The domains of `rules` (see the module's text), or `None` past `limit`
/// values in all, past the budget of `watch` (a step per value tried
/// against a literal's argument and per value made), or where a rule's
/// head holds a variable that no positive literal of its body holds.
pub(super) fn domains(
    rules: &[&Rule],
    store: &mut Store,
    limit: usize,
    watch: &mut Watch,
) -> Option<Domains> {
    let mut d = Domains::default();
    loop {
        let mut grew = false;
        for rule in rules {
            let Some(values) = each_variable(rule, &d, store, watch)? else {
                continue; // a variable no value allows: the rule gives nothing
            };
            let head = rule.head.relation();
            for (i, t) in rule.head.args.iter().enumerate() {
                let vars = distinct_vars(t);
                // each variable's values (every head variable has some)
                let lists: Vec<&[Gid]> = (vars.iter())
                    .map(|&v| values[v as usize].as_deref())
                    .collect::<Option<_>>()?;
                let mut binds: Vec<Option<Gid>> = vec![None; rule.vars.len()];
                let mut at = vec![0usize; vars.len()];
                // every combination of the variables' values, in order
                'combinations: loop {
                    for (k, &v) in vars.iter().enumerate() {
                        binds[v as usize] = Some(lists[k][at[k]]);
                    }
                    if !watch.spend() {
                        return None;
                    }
                    let value = try_instantiate(t, &binds, store)?;
                    if d.add((head, i), value) {
                        grew = true;
                        if d.len() > limit {
                            return None;
                        }
                    }
                    for k in (0..vars.len()).rev() {
                        at[k] += 1;
                        if at[k] < lists[k].len() {
                            continue 'combinations;
                        }
                        at[k] = 0;
                    }
                    break;
                }
            }
        }
        if !grew {
            return Some(d);
        }
    }
}

/// The values each variable of `rule` may take: those of every place it
/// holds in a positive literal, each place's on its own (`None` for a
/// variable no positive literal holds). `Some(None)` where a variable can
/// take none; `None` past the budget of `watch`, or where the head holds a
/// variable that no positive literal holds.
#[allow(clippy::type_complexity)]
fn each_variable(
    rule: &Rule,
    d: &Domains,
    store: &Store,
    watch: &mut Watch,
) -> Option<Option<Vec<Option<Vec<Gid>>>>> {
    let n = rule.vars.len();
    let mut values: Vec<Option<Vec<Gid>>> = vec![None; n];
    let mut binds: Vec<Option<Gid>> = vec![None; n];
    let mut trail: Vec<u32> = Vec::new();
    for l in &rule.body {
        let Literal::Pos(a) = l else {
            continue;
        };
        for (i, t) in a.args.iter().enumerate() {
            let vars = distinct_vars(t);
            if vars.is_empty() {
                continue;
            }
            // the values of each of `t`'s variables where `t` matches
            let mut seen: Vec<(Vec<Gid>, HashSet<Gid>)> = vec![Default::default(); vars.len()];
            for &g in d.of((a.relation(), i)) {
                if !watch.spend() {
                    return None;
                }
                if matches(t, g, &mut binds, &mut trail, store) {
                    for (k, &v) in vars.iter().enumerate() {
                        let x = binds[v as usize].expect("a matched variable is bound");
                        if seen[k].1.insert(x) {
                            seen[k].0.push(x);
                        }
                    }
                }
                for v in trail.drain(..) {
                    binds[v as usize] = None;
                }
            }
            for (k, &v) in vars.iter().enumerate() {
                let (order, set) = &seen[k];
                let narrowed = match values[v as usize].take() {
                    None => order.clone(),
                    Some(before) => before.into_iter().filter(|x| set.contains(x)).collect(),
                };
                values[v as usize] = Some(narrowed);
            }
        }
    }
    // a variable the head holds but no positive literal does: unsafe
    if rule
        .head
        .vars()
        .iter()
        .any(|&v| values[v as usize].is_none())
    {
        return None;
    }
    if values.iter().any(|v| v.as_ref().is_some_and(Vec::is_empty)) {
        return Some(None);
    }
    Some(Some(values))
}

/// The variables of `t`, each once, in the order met.
fn distinct_vars(t: &Term) -> Vec<u32> {
    let mut vars = Vec::new();
    t.vars(&mut vars);
    let mut seen = HashSet::default();
    vars.retain(|v| seen.insert(*v));
    vars
}

#[cfg(test)]
mod tests {
    use super::super::{
        budget::Budget,
        ground::{relaxed_links, saturate},
        join::Model,
        logic::Description,
    };
    use super::*;
    use std::path::Path;

    fn watch() -> Watch {
        Watch::new(
            "test",
            Budget {
                steps: 10_000_000,
                seconds: 60,
            },
        )
    }

    /// The values of `rel`/`arity` at argument `at`, as text.
    fn shown(
        d: &Description,
        doms: &Domains,
        store: &Store,
        rel: &str,
        arity: usize,
        at: usize,
    ) -> Vec<String> {
        let rel = d.symbols.get(rel).expect("a relation of the description");
        doms.of(((rel, arity), at))
            .iter()
            .map(|&g| store.text(g, d))
            .collect()
    }

    /// Each variable takes the values every place it holds allows, on its
    /// own: `?x` of `r` only 2 (both `p` and `q` allow it), `?y` both `a`
    /// and `b`, although only `(r 2 a)` holds; a function of a variable
    /// takes its values; `not` is ignored.
    #[test]
    fn each_variable_takes_what_every_place_it_holds_allows() {
        let d = Description::parse(
            "(role a) (role b) (init (s 0)) (<= terminal (true (s 1)))
             (p 1) (p 2) (q 2 a) (q 3 b)
             (<= (r ?x ?y) (p ?x) (q ?x ?y))
             (<= (t (f ?x) ?y) (r ?x ?y) (not (p ?x)))
             (<= (u ?x) (q ?x c))",
        )
        .unwrap();
        let rules: Vec<&Rule> = d.rules.iter().collect();
        let mut store = Store::default();
        let doms = domains(&rules, &mut store, 1000, &mut watch()).unwrap();
        assert_eq!(shown(&d, &doms, &store, "r", 2, 0), ["2"]);
        assert_eq!(shown(&d, &doms, &store, "r", 2, 1), ["a", "b"]);
        assert_eq!(shown(&d, &doms, &store, "t", 2, 0), ["(f 2)"]);
        assert_eq!(shown(&d, &doms, &store, "t", 2, 1), ["a", "b"]);
        // `q`'s second argument is never `c`, but each place on its own
        // does not know: `?x` takes every first argument of `q`
        assert_eq!(shown(&d, &doms, &store, "u", 1, 0), ["2", "3"]);
    }

    /// Every value the relaxed model has at a place is among the place's
    /// values, in every shipped description.
    #[test]
    fn the_relaxed_model_of_every_shipped_description_is_within_its_domains() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/gdl");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "kif"))
            .collect();
        files.sort();
        assert!(files.len() >= 10, "{files:?}");
        for file in files {
            let d = Description::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let links = relaxed_links(&d.keys);
            let rules: Vec<&Rule> = d.rules.iter().chain(&links).collect();
            let mut store = Store::default();
            let mut model = Model::default();
            saturate(
                &mut model,
                &rules,
                false,
                None,
                &mut store,
                2_000_000,
                &mut watch(),
            )
            .unwrap();
            let doms = domains(&rules, &mut store, 2_000_000, &mut watch()).unwrap();
            let mut checked = 0;
            for (rel, atoms) in model.into_atoms() {
                for atom in atoms {
                    for (at, &value) in store.args(atom).iter().enumerate() {
                        assert!(
                            doms.of((rel, at)).contains(&value),
                            "{}: {} at {at}",
                            file.display(),
                            store.text(atom, &d)
                        );
                        checked += 1;
                    }
                }
            }
            assert!(checked > 100, "{}: {checked}", file.display());
        }
    }
}
