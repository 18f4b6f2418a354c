//! Ground terms, each stored once and known by a number: what grounding
//! produces and the reasoner's propositions are made of.

use super::hash::HashMap;

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
///
/// A term is found by its **key**: its symbol marked as a constant's or a
/// function's ([`tag`]), then its arguments' numbers. A key can be built
/// in a buffer kept for the purpose, so looking up a term that exists
/// allocates nothing (grounding looks up far more terms than it makes).
#[derive(Clone, Debug, Default)]
pub struct Store {
    terms: Vec<GTerm>,
    ids: HashMap<Box<[u32]>, Gid>,
    /// A buffer for keys, empty between calls.
    scratch: Vec<u32>,
}

/// The first number of a term's key: its symbol, and whether it is a
/// function's (`(f)` and `f` are different terms).
pub fn tag(sym: Sym, function: bool) -> u32 {
    sym << 1 | u32::from(function)
}

impl Store {
    pub fn intern(&mut self, t: GTerm) -> Gid {
        self.with_keys(|store, key| {
            key_of(&t, key);
            store.intern_key(key)
        })
    }

    /// Calls `f` with the store and its key buffer (empty), and empties the
    /// buffer again.
    fn with_keys<R>(&mut self, f: impl FnOnce(&mut Store, &mut Vec<u32>) -> R) -> R {
        let mut keys = std::mem::take(&mut self.scratch);
        let r = f(self, &mut keys);
        keys.clear();
        self.scratch = keys;
        r
    }

    /// The number of the term whose key is `key`, given it now if the term
    /// is new.
    pub fn intern_key(&mut self, key: &[u32]) -> Gid {
        if let Some(&id) = self.ids.get(key) {
            return id;
        }
        // a key is never empty: it starts with its symbol
        let (sym, args) = (key[0], &key[1..]);
        let t = if sym & 1 == 1 {
            GTerm::Fn(sym >> 1, args.into())
        } else {
            GTerm::Const(sym >> 1)
        };
        let id = self.terms.len() as Gid;
        self.terms.push(t);
        self.ids.insert(key.into(), id);
        id
    }

    pub fn get(&self, id: Gid) -> &GTerm {
        &self.terms[id as usize]
    }

    pub fn find(&self, t: &GTerm) -> Option<Gid> {
        let mut key = Vec::new();
        key_of(t, &mut key);
        self.find_key(&key)
    }

    /// The number of the term whose key is `key`, if the store has it.
    pub fn find_key(&self, key: &[u32]) -> Option<Gid> {
        self.ids.get(key).copied()
    }

    /// The atom `rel(args)` (a constant when there are no arguments).
    pub fn atom(&mut self, rel: Sym, args: Vec<Gid>) -> Gid {
        self.with_keys(|store, key| {
            key.push(tag(rel, !args.is_empty()));
            key.extend_from_slice(&args);
            store.intern_key(key)
        })
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

/// Appends `t`'s key to `key`.
fn key_of(t: &GTerm, key: &mut Vec<u32>) {
    match t {
        GTerm::Const(c) => key.push(tag(*c, false)),
        GTerm::Fn(f, args) => {
            key.push(tag(*f, true));
            key.extend_from_slice(args);
        }
    }
}

/// `t` under `binds`, or `None` while one of its variables is unbound.
pub(super) fn try_instantiate(t: &Term, binds: &[Option<Gid>], store: &mut Store) -> Option<Gid> {
    store.with_keys(|store, keys| instantiate_into(t, binds, store, keys))
}

/// [`try_instantiate`], with `keys` to build keys in: each function's key
/// is built at its end and taken off again.
fn instantiate_into(
    t: &Term,
    binds: &[Option<Gid>],
    store: &mut Store,
    keys: &mut Vec<u32>,
) -> Option<Gid> {
    match t {
        Term::Const(c) => Some(store.intern_key(&[tag(*c, false)])),
        Term::Var(v) => binds[*v as usize],
        Term::Fn(f, args) => {
            let start = keys.len();
            keys.push(tag(*f, true));
            for a in args.iter() {
                let Some(g) = instantiate_into(a, binds, store, keys) else {
                    keys.truncate(start);
                    return None;
                };
                keys.push(g);
            }
            let id = store.intern_key(&keys[start..]);
            keys.truncate(start);
            Some(id)
        }
    }
}

pub(super) fn instantiate_atom(a: &Atom, binds: &[Option<Gid>], store: &mut Store) -> Gid {
    store.with_keys(|store, keys| {
        // an atom with no arguments is a constant
        keys.push(tag(a.rel, !a.args.is_empty()));
        for t in &a.args {
            let g = instantiate_into(t, binds, store, keys);
            keys.push(g.expect("safe rules bind every variable"));
        }
        store.intern_key(keys)
    })
}
