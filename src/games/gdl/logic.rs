//! A GDL game description as logic: interned symbols, terms, rules with
//! their bodies' literals, and the checks that make it valid GDL.
//!
//! The checks, each named in its error with the line and column of the
//! rule that breaks it (Love et al., *General Game Playing: Game
//! Description Language Specification*, 2008):
//! - **safety**: a variable of the head, of a negated literal or of a
//!   `distinct` also appears in a positive relational literal of the body;
//! - **recursion restriction**: in a rule whose head `p` is recursive with a
//!   body literal `q(t1 .. tk)`, each `ti` is ground, an argument of the head,
//!   or a variable of a positive literal whose relation is not recursive with
//!   `p` (this keeps the set of derivable atoms finite);
//! - **GDL's own relations**: `role` only in facts; `true` and `does` only in
//!   bodies; `init` and `next` only in heads; `init` does not depend on
//!   `true`, `does`, `next`, `legal`, `goal` or `terminal`; `legal`, `goal`
//!   and `terminal` do not depend on `does`; each is used with its arity
//!   (`role`/1, `init`/1, `true`/1, `next`/1, `legal`/2, `does`/2, `goal`/2,
//!   `terminal`/0, `distinct`/2).
//!
//! Stratified negation (no atom depends on itself through `not`) is checked
//! on the ground rules (`machine.rs`), where it is judged atom by atom: a
//! pie rule's `(<= (goal ?r 0) (role ?r) (not (goal ?r 100)))` is
//! stratified, since no `(goal R 100)` depends on a `(goal R 0)`.
//!
//! `(or A B ...)` in a body is read as one rule per alternative (nested
//! `or`s multiply out), before the checks.

use super::hash::{HashMap, HashSet};
use crate::core::text::count;

use super::kif::{self, KifError, Pos, Sexp};
use super::lists::Lists;

/// An interned symbol.
pub type Sym = u32;

/// Every symbol of a description, by number.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    names: Vec<String>,
    ids: HashMap<String, Sym>,
}

impl Symbols {
    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as Sym;
        self.names.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        id
    }

    pub fn get(&self, name: &str) -> Option<Sym> {
        self.ids.get(name).copied()
    }

    pub fn name(&self, id: Sym) -> &str {
        &self.names[id as usize]
    }
}

/// A term: a constant, a variable (numbered within its rule) or a function.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    Const(Sym),
    Var(u32),
    Fn(Sym, Vec<Term>),
}

impl Term {
    pub(super) fn vars(&self, out: &mut Vec<u32>) {
        match self {
            Term::Const(_) => {}
            Term::Var(v) => out.push(*v),
            Term::Fn(_, args) => args.iter().for_each(|a| a.vars(out)),
        }
    }
}

/// A relation: its name and arity (`(cell 1 1 b)` is `cell`/3).
pub type Relation = (Sym, usize);

/// A relational sentence: a relation applied to terms.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    pub rel: Sym,
    pub args: Vec<Term>,
}

impl Atom {
    pub fn relation(&self) -> Relation {
        (self.rel, self.args.len())
    }

    pub fn vars(&self) -> Vec<u32> {
        let mut out = Vec::new();
        self.args.iter().for_each(|a| a.vars(&mut out));
        out
    }
}

/// A literal of a rule's body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    Pos(Atom),
    Neg(Atom),
    Distinct(Term, Term),
    /// `(not (distinct a b))`: `a` and `b` are the same term.
    Same(Term, Term),
}

/// `head <= body`; a fact has an empty body.
#[derive(Clone, Debug)]
pub struct Rule {
    pub head: Atom,
    pub body: Vec<Literal>,
    /// The variables' names, by number.
    pub vars: Vec<String>,
    /// Where the rule is written.
    pub pos: Pos,
}

/// The symbols GDL gives a meaning.
#[derive(Copy, Clone, Debug)]
pub struct Keywords {
    pub role: Sym,
    pub init: Sym,
    pub truth: Sym,
    pub next: Sym,
    pub legal: Sym,
    pub does: Sym,
    pub goal: Sym,
    pub terminal: Sym,
    pub distinct: Sym,
}

/// A valid GDL description.
#[derive(Clone, Debug)]
pub struct Description {
    pub symbols: Symbols,
    pub keys: Keywords,
    pub rules: Vec<Rule>,
    /// The roles, in the order their facts are written.
    pub roles: Vec<Sym>,
}

impl Description {
    /// Reads and checks a rules text.
    pub fn parse(text: &str) -> Result<Description, KifError> {
        let d = Description::read(text)?;
        d.check()?;
        d.with_roles()
    }

    /// Reads a rules text, without checking that it is valid GDL
    /// ([`Description::check`]) or naming its roles
    /// ([`Description::with_roles`]).
    pub fn read(text: &str) -> Result<Description, KifError> {
        let sexps = kif::parse(text)?;
        let mut symbols = Symbols::default();
        let keys = Keywords {
            role: symbols.intern("role"),
            init: symbols.intern("init"),
            truth: symbols.intern("true"),
            next: symbols.intern("next"),
            legal: symbols.intern("legal"),
            does: symbols.intern("does"),
            goal: symbols.intern("goal"),
            terminal: symbols.intern("terminal"),
            distinct: symbols.intern("distinct"),
        };
        let mut rules = Vec::new();
        for s in &sexps {
            rules.extend(read_rule(s, &mut symbols)?);
        }
        Ok(Description {
            symbols,
            keys,
            rules,
            roles: Vec::new(),
        })
    }

    /// The description with its roles named, in the order their facts are
    /// written; an error if it has none.
    pub fn with_roles(mut self) -> Result<Description, KifError> {
        let mut seen = HashSet::default();
        self.roles.clear();
        for r in &self.rules {
            if r.head.rel == self.keys.role {
                if let [Term::Const(c)] = r.head.args[..] {
                    if seen.insert(c) {
                        self.roles.push(c);
                    }
                }
            }
        }
        if self.roles.is_empty() {
            return Err(KifError::at(
                Pos { line: 1, column: 1 },
                "the description has no `(role NAME)`",
            ));
        }
        Ok(self)
    }

    /// A relation's name and arity as text: `cell/3`.
    pub fn relation_name(&self, (rel, arity): Relation) -> String {
        format!("{}/{arity}", self.symbols.name(rel))
    }

    /// Checks that the rules are valid GDL (the module's text lists what
    /// is checked); the first rule that breaks a restriction is the error.
    pub fn check(&self) -> Result<(), KifError> {
        for r in &self.rules {
            self.check_keywords(r)?;
            check_safety(r, self)?;
        }
        let graph = Graph::new(&self.rules);
        self.check_recursion(&graph)?;
        self.check_dependencies(&graph)
    }

    fn check_keywords(&self, r: &Rule) -> Result<(), KifError> {
        let k = &self.keys;
        let arity = [
            (k.role, 1),
            (k.init, 1),
            (k.truth, 1),
            (k.next, 1),
            (k.legal, 2),
            (k.does, 2),
            (k.goal, 2),
            (k.terminal, 0),
        ];
        let atoms = std::iter::once(&r.head).chain(r.body.iter().filter_map(|l| match l {
            Literal::Pos(a) | Literal::Neg(a) => Some(a),
            Literal::Distinct(..) | Literal::Same(..) => None,
        }));
        for a in atoms {
            if let Some((_, n)) = arity.iter().find(|(s, _)| *s == a.rel) {
                if a.args.len() != *n {
                    return Err(KifError::at(
                        r.pos,
                        format!(
                            "`{}` takes {}, not {} (GDL's own relations)",
                            self.symbols.name(a.rel),
                            count(*n, "argument"),
                            a.args.len()
                        ),
                    ));
                }
            }
            if a.rel == k.distinct {
                return Err(KifError::at(r.pos, "`distinct` takes 2 arguments"));
            }
        }
        if r.head.rel == k.goal {
            if let Some(Term::Const(value)) = r.head.args.get(1) {
                check_goal_value(self.symbols.name(*value), r.pos)?;
            }
        }
        let name = self.symbols.name(r.head.rel);
        if r.head.rel == k.truth || r.head.rel == k.does {
            return Err(KifError::at(
                r.pos,
                format!("`{name}` is given by the game's state and moves: it cannot be a rule's head (GDL's own relations)"),
            ));
        }
        if r.head.rel == k.role && (!r.body.is_empty() || !r.head.vars().is_empty()) {
            return Err(KifError::at(
                r.pos,
                "`role` is only written as a fact, like `(role white)` (GDL's own relations)",
            ));
        }
        for l in &r.body {
            if let Literal::Pos(a) | Literal::Neg(a) = l {
                if a.rel == k.init || a.rel == k.next {
                    return Err(KifError::at(
                        r.pos,
                        format!(
                            "`{}` is only a rule's head, never in a body (GDL's own relations)",
                            self.symbols.name(a.rel)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    fn check_recursion(&self, g: &Graph) -> Result<(), KifError> {
        for r in &self.rules {
            let head_scc = g.scc[&r.head.relation()];
            // the head's arguments that are variables themselves (not inside a function)
            let head_vars: HashSet<u32> = r
                .head
                .args
                .iter()
                .filter_map(|t| match t {
                    Term::Var(v) => Some(*v),
                    _ => None,
                })
                .collect();
            let outside: HashSet<u32> = r
                .body
                .iter()
                .filter_map(|l| match l {
                    Literal::Pos(a) if g.scc[&a.relation()] != head_scc => Some(a.vars()),
                    _ => None,
                })
                .flatten()
                .collect();
            for l in &r.body {
                let Literal::Pos(a) = l else { continue };
                if g.scc[&a.relation()] != head_scc {
                    continue;
                }
                for t in &a.args {
                    let mut vars = Vec::new();
                    t.vars(&mut vars);
                    let ok = vars.is_empty()
                        || matches!(t, Term::Var(v) if head_vars.contains(v) || outside.contains(v));
                    if !ok {
                        return Err(KifError::at(
                            r.pos,
                            format!(
                                "the recursive literal `({} ...)` has an argument that is neither ground, nor a variable of the head, nor a variable of a positive literal outside the recursion (GDL's recursion restriction)",
                                self.symbols.name(a.rel)
                            ),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    fn check_dependencies(&self, g: &Graph) -> Result<(), KifError> {
        let k = &self.keys;
        let forbidden: [(Sym, &[Sym]); 4] = [
            (
                k.init,
                &[k.truth, k.does, k.next, k.legal, k.goal, k.terminal],
            ),
            (k.legal, &[k.does]),
            (k.goal, &[k.does]),
            (k.terminal, &[k.does]),
        ];
        for r in &self.rules {
            for (head, bad) in forbidden {
                if r.head.rel != head {
                    continue;
                }
                for l in &r.body {
                    let (Literal::Pos(a) | Literal::Neg(a)) = l else {
                        continue;
                    };
                    let reached = g.reaches(a.relation());
                    if let Some(b) = bad.iter().find(|b| reached.iter().any(|(s, _)| s == *b)) {
                        return Err(KifError::at(
                            r.pos,
                            format!(
                                "`{}` may not depend on `{}` (GDL's own relations)",
                                self.symbols.name(head),
                                self.symbols.name(*b)
                            ),
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Which relations each relation's rules use, and its strongly connected
/// component (the relations recursive with it).
pub(super) struct Graph {
    pub(super) edges: HashMap<Relation, Vec<Relation>>,
    pub(super) scc: HashMap<Relation, usize>,
}

impl Graph {
    pub(super) fn new(rules: &[Rule]) -> Graph {
        let mut edges: HashMap<Relation, Vec<Relation>> = HashMap::default();
        for r in rules {
            let from = r.head.relation();
            let to = edges.entry(from).or_default();
            for l in &r.body {
                if let Literal::Pos(a) | Literal::Neg(a) = l {
                    to.push(a.relation());
                }
            }
        }
        let targets: Vec<Relation> = edges.values().flatten().copied().collect();
        for t in targets {
            edges.entry(t).or_default();
        }
        let scc = strongly_connected(&edges);
        Graph { edges, scc }
    }

    /// Every relation `from` depends on, itself included.
    fn reaches(&self, from: Relation) -> HashSet<Relation> {
        let mut seen = HashSet::from_iter([from]);
        let mut todo = vec![from];
        while let Some(r) = todo.pop() {
            for &n in &self.edges[&r] {
                if seen.insert(n) {
                    todo.push(n);
                }
            }
        }
        seen
    }
}

/// The strongly connected components of a graph (Tarjan's algorithm, with
/// an explicit stack), numbered so that a component comes after every
/// component it has an edge to: in order of evaluation when edges point
/// from a relation to what it depends on. Every node an edge reaches must
/// be a key of `edges`.
pub fn strongly_connected<N: Copy + Eq + std::hash::Hash + Ord>(
    edges: &HashMap<N, Vec<N>>,
) -> HashMap<N, usize> {
    let mut nodes: Vec<N> = edges.keys().copied().collect();
    nodes.sort();
    let number: HashMap<N, u32> = nodes
        .iter()
        .enumerate()
        .map(|(i, &n)| (n, i as u32))
        .collect();
    let dense = Lists::build(nodes.len(), |v, out| {
        out.extend(edges[&nodes[v]].iter().map(|m| number[m]))
    });
    nodes.into_iter().zip(components(&dense)).collect()
}

/// [`strongly_connected`] of a graph whose nodes are `0..edges.len()`,
/// with node `v`'s edges in `edges.of(v)`: each node's component.
pub fn components(edges: &Lists) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut comp = vec![0; n];
    let mut components = 0;
    let mut counter = 0;
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // (node, next edge to look at)
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = work.last_mut() {
            let next = edges.of(v).get(*i).map(|&w| w as usize);
            *i += 1;
            match next {
                Some(w) if index[w] == UNSEEN => {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w as u32);
                    on_stack[w] = true;
                    work.push((w, 0));
                }
                Some(w) => {
                    if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                }
                None => {
                    work.pop();
                    if let Some(&(parent, _)) = work.last() {
                        low[parent] = low[parent].min(low[v]);
                    }
                    if low[v] == index[v] {
                        let id = components;
                        components += 1;
                        loop {
                            let w = stack.pop().expect("on the stack") as usize;
                            on_stack[w] = false;
                            comp[w] = id;
                            if w == v {
                                break;
                            }
                        }
                    }
                }
            }
        }
    }
    comp
}

fn check_safety(r: &Rule, d: &Description) -> Result<(), KifError> {
    match unsafe_vars(r).first() {
        Some(&(v, place)) => Err(KifError::at(
            r.pos,
            format!(
                "unsafe rule for `{}`: the variable ?{} of {place} appears in no positive literal of the body (GDL's safety restriction)",
                d.symbols.name(r.head.rel),
                r.vars[v as usize]
            ),
        )),
        None => Ok(()),
    }
}

/// The variables of `r` against GDL's safety restriction: needed (by the
/// head, a `not` or a `distinct`: [`needed_vars`]) but in no positive
/// literal of the body; each once, with where it is first needed.
pub(super) fn unsafe_vars(r: &Rule) -> Vec<(u32, &'static str)> {
    let bound: HashSet<u32> = r
        .body
        .iter()
        .filter_map(|l| match l {
            Literal::Pos(a) => Some(a.vars()),
            _ => None,
        })
        .flatten()
        .collect();
    let mut vars: Vec<(u32, &'static str)> = Vec::new();
    for (v, place) in needed_vars(r) {
        if !bound.contains(&v) && !vars.iter().any(|(w, _)| *w == v) {
            vars.push((v, place));
        }
    }
    vars
}

/// The variables GDL's safety restriction asks a positive literal of `r`'s
/// body to bind, with where each is: the head's, a `not`'s, a `distinct`'s.
pub(super) fn needed_vars(r: &Rule) -> Vec<(u32, &'static str)> {
    let mut needed: Vec<(u32, &'static str)> =
        r.head.vars().into_iter().map(|v| (v, "the head")).collect();
    for l in &r.body {
        match l {
            Literal::Neg(a) => needed.extend(a.vars().into_iter().map(|v| (v, "a `not`"))),
            Literal::Distinct(a, b) | Literal::Same(a, b) => {
                let mut vars = Vec::new();
                a.vars(&mut vars);
                b.vars(&mut vars);
                needed.extend(vars.into_iter().map(|v| (v, "a `distinct`")));
            }
            Literal::Pos(_) => {}
        }
    }
    needed
}

/// One expression of the text as rules: a fact, or a rule with one
/// version per alternative of its `or`s.
fn read_rule(s: &Sexp, symbols: &mut Symbols) -> Result<Vec<Rule>, KifError> {
    let mut vars = Vec::new();
    let (head, body) = match s {
        Sexp::List(items, _) if matches!(items.first(), Some(Sexp::Symbol(s, _)) if s == "<=") => {
            let Some(head) = items.get(1) else {
                return Err(KifError::at(s.pos(), "`(<= HEAD BODY...)` without a head"));
            };
            let head = read_atom(head, symbols, &mut vars)?;
            let mut bodies: Vec<Vec<Literal>> = vec![Vec::new()];
            for item in &items[2..] {
                let alternatives = read_literal(item, symbols, &mut vars)?;
                bodies = bodies
                    .iter()
                    .flat_map(|b| {
                        alternatives.iter().map(move |alt| {
                            let mut b = b.clone();
                            b.extend(alt.iter().cloned());
                            b
                        })
                    })
                    .collect();
            }
            (head, bodies)
        }
        _ => (read_atom(s, symbols, &mut vars)?, vec![Vec::new()]),
    };
    Ok(body
        .into_iter()
        .map(|body| Rule {
            head: head.clone(),
            body,
            vars: vars.clone(),
            pos: s.pos(),
        })
        .collect())
}

/// A body literal; `or` gives several alternatives, each a list of literals.
fn read_literal(
    s: &Sexp,
    symbols: &mut Symbols,
    vars: &mut Vec<String>,
) -> Result<Vec<Vec<Literal>>, KifError> {
    if let Sexp::List(items, pos) = s {
        if let Some(Sexp::Symbol(op, _)) = items.first() {
            match op.as_str() {
                "not" => {
                    let [_, inner] = &items[..] else {
                        return Err(KifError::at(*pos, "`not` takes one literal"));
                    };
                    // `(not (distinct a b))`: a and b are the same
                    if let Sexp::List(inner_items, _) = inner {
                        if let Some(Sexp::Symbol(op, _)) = inner_items.first() {
                            if op == "distinct" {
                                let [alternative] = &read_literal(inner, symbols, vars)?[..] else {
                                    unreachable!("a `distinct` is one literal");
                                };
                                let [Literal::Distinct(a, b)] = &alternative[..] else {
                                    unreachable!("a `distinct` reads as one");
                                };
                                return Ok(vec![vec![Literal::Same(a.clone(), b.clone())]]);
                            }
                        }
                    }
                    return Ok(vec![vec![Literal::Neg(read_atom(inner, symbols, vars)?)]]);
                }
                "distinct" => {
                    let [_, a, b] = &items[..] else {
                        return Err(KifError::at(*pos, "`distinct` takes 2 arguments"));
                    };
                    return Ok(vec![vec![Literal::Distinct(
                        read_term(a, symbols, vars)?,
                        read_term(b, symbols, vars)?,
                    )]]);
                }
                "or" => {
                    let mut out = Vec::new();
                    for alt in &items[1..] {
                        out.extend(read_literal(alt, symbols, vars)?);
                    }
                    if out.is_empty() {
                        return Err(KifError::at(*pos, "`or` without alternatives"));
                    }
                    return Ok(out);
                }
                "<=" => return Err(KifError::at(*pos, "a rule inside a rule")),
                _ => {}
            }
        }
    }
    Ok(vec![vec![Literal::Pos(read_atom(s, symbols, vars)?)]])
}

fn read_atom(s: &Sexp, symbols: &mut Symbols, vars: &mut Vec<String>) -> Result<Atom, KifError> {
    match s {
        Sexp::Symbol(name, pos) => {
            check_name(name, *pos)?;
            Ok(Atom {
                rel: symbols.intern(name),
                args: Vec::new(),
            })
        }
        Sexp::List(items, pos) => match items.first() {
            Some(Sexp::Symbol(name, npos)) => {
                check_name(name, *npos)?;
                Ok(Atom {
                    rel: symbols.intern(name),
                    args: items[1..]
                        .iter()
                        .map(|t| read_term(t, symbols, vars))
                        .collect::<Result<_, _>>()?,
                })
            }
            _ => Err(KifError::at(
                *pos,
                "a sentence starts with its relation's name, like `(cell 1 1 b)`",
            )),
        },
        Sexp::Var(v, pos) => Err(KifError::at(
            *pos,
            format!("a variable (?{v}) where a sentence is expected"),
        )),
    }
}

/// GDL's goal values are whole numbers from 0 to 100.
pub fn check_goal_value(value: &str, pos: Pos) -> Result<(), KifError> {
    match value.parse::<i32>() {
        Ok(v) if (0..=100).contains(&v) => Ok(()),
        _ => Err(KifError::at(
            pos,
            format!("a goal is a whole number from 0 to 100, not `{value}` (GDL's own relations)"),
        )),
    }
}

fn check_name(name: &str, pos: Pos) -> Result<(), KifError> {
    match name {
        "<=" | "not" | "or" | "distinct" => Err(KifError::at(
            pos,
            format!("`{name}` is not a relation: it is only used in a rule's body"),
        )),
        _ => Ok(()),
    }
}

fn read_term(s: &Sexp, symbols: &mut Symbols, vars: &mut Vec<String>) -> Result<Term, KifError> {
    match s {
        Sexp::Symbol(name, _) => Ok(Term::Const(symbols.intern(name))),
        Sexp::Var(name, _) => {
            let i = match vars.iter().position(|v| v == name) {
                Some(i) => i,
                None => {
                    vars.push(name.clone());
                    vars.len() - 1
                }
            };
            Ok(Term::Var(i as u32))
        }
        Sexp::List(items, pos) => match items.first() {
            Some(Sexp::Symbol(name, _)) => Ok(Term::Fn(
                symbols.intern(name),
                items[1..]
                    .iter()
                    .map(|t| read_term(t, symbols, vars))
                    .collect::<Result<_, _>>()?,
            )),
            _ => Err(KifError::at(
                *pos,
                "a function term starts with its name, like `(mark 1 1)`",
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        Description::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn roles_come_in_their_order_and_or_makes_one_rule_per_alternative() {
        let d = Description::parse(
            "(role x) (role o) (init (cell 1 b))
             (<= (legal ?r noop) (role ?r) (or (true (cell 1 b)) (true (cell 1 x))))",
        )
        .unwrap();
        let names: Vec<&str> = d.roles.iter().map(|&r| d.symbols.name(r)).collect();
        assert_eq!(names, ["x", "o"]);
        assert_eq!(d.rules.len(), 5);
    }

    #[test]
    fn each_restriction_is_named_with_its_place() {
        let cases = [
            (
                "(role a)\n(<= (p ?x) (q ?y))",
                "line 2, column 1: unsafe rule for `p`: the variable ?x of the head appears in no positive literal of the body (GDL's safety restriction)",
            ),
            (
                "(role a)\n(<= (p ?x) (q ?x) (not (r ?y)))",
                "safety restriction",
            ),
            ("(role a)\n(<= (p ?x) (q ?x) (distinct ?x ?z))", "safety restriction"),
            (
                "(role a) (q 1)\n(<= (p (f ?x)) (p ?x))\n(<= (p ?x) (q ?x))",
                "recursion restriction",
            ),
            ("(role a)\n(<= (true p) (q))", "line 2, column 1: `true` is given by the game's state and moves"),
            ("(role a)\n(<= (legal a m) (does a m))", "`legal` may not depend on `does`"),
            ("(role a)\n(<= (init p) (true p))", "`init` may not depend on `true`"),
            ("(role a)\n(<= (p) (next q))", "`next` is only a rule's head"),
            ("(role a)\n(legal a)", "`legal` takes 2 arguments, not 1"),
            ("(<= (role a) (q))", "`role` is only written as a fact"),
            ("(init p)", "no `(role NAME)`"),
            ("(role a)\n(?x 1)", "line 2, column 1: a sentence starts with its relation's name"),
        ];
        for (text, message) in cases {
            let e = error(text);
            assert!(e.contains(message), "{text}:\n{e}\nnot: {message}");
        }
    }

    #[test]
    fn a_recursion_through_a_variable_bound_outside_is_allowed() {
        // reachability over a static successor relation: the classic allowed case
        Description::parse(
            "(role a) (succ 1 2) (succ 2 3)
             (<= (less ?x ?y) (succ ?x ?y))
             (<= (less ?x ?z) (succ ?x ?y) (less ?y ?z))",
        )
        .unwrap();
    }

    #[test]
    fn components_are_found_in_cycles_and_chains() {
        let edges: HashMap<u32, Vec<u32>> =
            HashMap::from_iter([(1, vec![2]), (2, vec![3]), (3, vec![1, 4]), (4, vec![])]);
        let c = strongly_connected(&edges);
        assert_eq!(c[&1], c[&2]);
        assert_eq!(c[&2], c[&3]);
        assert!(c[&4] < c[&3], "what 3 depends on comes first");
        // components are numbered 0, 1, ... with no gaps
        let mut ids: Vec<usize> = c.values().copied().collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids, [0, 1]);
    }

    #[test]
    fn a_negated_distinct_needs_its_variables_bound_like_a_distinct() {
        let err =
            Description::parse("(role a) (num 1) (<= (p ?x) (num ?x) (not (distinct ?x ?y)))")
                .unwrap_err()
                .to_string();
        assert!(
            err.contains("unsafe rule for `p`: the variable ?y of a `distinct`"),
            "{err}"
        );
    }
}
