//! Ground terms, each stored once and known by a number: what grounding
//! produces and the reasoner's propositions are made of.

use std::collections::HashMap;

use super::logic::{Atom, Description, Sym, Term};

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

/// `t` under `binds`, or `None` while one of its variables is unbound.
pub(super) fn try_instantiate(t: &Term, binds: &[Option<Gid>], store: &mut Store) -> Option<Gid> {
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

pub(super) fn instantiate_atom(a: &Atom, binds: &[Option<Gid>], store: &mut Store) -> Gid {
    let args = a
        .args
        .iter()
        .map(|t| try_instantiate(t, binds, store).expect("safe rules bind every variable"))
        .collect();
    store.atom(a.rel, args)
}
