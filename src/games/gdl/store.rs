//! Ground terms, each stored once and known by a number: what grounding
//! produces and the reasoner's propositions are made of.

use super::logic::{Atom, Description, Sym, Term};
use super::{hash::Interner, lists::NumberMap};

/// A ground term's number.
pub type Gid = u32;

/// A ground term: a constant, or a function of ground terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GTerm<'a> {
    Const(Sym),
    Fn(Sym, &'a [Gid]),
}

/// Every ground term met, by number (atoms are terms too: `(cell 1 1 b)`).
///
/// A term is its **key**: its symbol marked as a constant's or a
/// function's ([`tag`]), then its arguments' numbers, kept in an
/// [`Interner`], so a term costs no allocation of its own. A key to look
/// up can be built in a buffer kept for the purpose, so looking up a term
/// that exists allocates nothing (grounding looks up far more terms than
/// it makes).
#[derive(Clone, Debug, Default)]
pub struct Store {
    /// Every term's key, by the term's number.
    terms: Interner,
    /// Each constant's number, by its symbol (a constant is looked up far
    /// more often than any other term).
    constants: NumberMap,
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
            key_of(t, key);
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

    /// This store's terms, shared from now on: clones of the store
    /// returned copy none of them (see [`Interner::frozen`]).
    pub fn frozen(self) -> Store {
        Store {
            terms: self.terms.frozen(),
            ..self
        }
    }

    /// How many terms there are.
    pub fn count(&self) -> usize {
        self.terms.len()
    }

    /// Term `id`'s key.
    fn key(&self, id: Gid) -> &[u32] {
        self.terms.get(id)
    }

    /// The number of the term whose key is `key`, given it now if the term
    /// is new.
    pub fn intern_key(&mut self, key: &[u32]) -> Gid {
        // a key is never empty: it starts with its symbol
        let constant = (key.len() == 1 && key[0] & 1 == 0).then_some(key[0] >> 1);
        if let Some(id) = constant.and_then(|c| self.constant(c)) {
            return id;
        }
        let (id, new) = self.terms.intern(key);
        if let (Some(c), true) = (constant, new) {
            self.constants.set(c, id);
        }
        id
    }

    /// The number of constant `c`, if the store has it.
    #[inline]
    pub fn constant(&self, c: Sym) -> Option<Gid> {
        self.constants.get(c)
    }

    pub fn get(&self, id: Gid) -> GTerm<'_> {
        let key = self.key(id);
        if key[0] & 1 == 1 {
            GTerm::Fn(key[0] >> 1, &key[1..])
        } else {
            GTerm::Const(key[0] >> 1)
        }
    }

    pub fn find(&self, t: &GTerm) -> Option<Gid> {
        let mut key = Vec::new();
        key_of(*t, &mut key);
        self.find_key(&key)
    }

    /// The number of the term whose key is `key`, if the store has it.
    pub fn find_key(&self, key: &[u32]) -> Option<Gid> {
        match *key {
            [sym] if sym & 1 == 0 => self.constant(sym >> 1),
            _ => self.terms.find(key),
        }
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
        // a constant's key is its symbol alone
        &self.key(id)[1..]
    }

    /// The term in KIF's normal form: `(cell 1 1 b)`.
    pub fn text(&self, id: Gid, d: &Description) -> String {
        let mut s = String::new();
        self.write(id, d, &mut s);
        s
    }

    fn write(&self, id: Gid, d: &Description, out: &mut String) {
        match self.get(id) {
            GTerm::Const(c) => out.push_str(d.symbols.name(c)),
            GTerm::Fn(f, args) => {
                out.push('(');
                out.push_str(d.symbols.name(f));
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
fn key_of(t: GTerm, key: &mut Vec<u32>) {
    match t {
        GTerm::Const(c) => key.push(tag(c, false)),
        GTerm::Fn(f, args) => {
            key.push(tag(f, true));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_term_is_stored_once_and_read_back_whole() {
        let mut s = Store::default();
        let b = s.intern(GTerm::Const(3));
        let one = s.intern(GTerm::Const(4));
        let cell = s.atom(5, vec![one, one, b]);
        assert_eq!(s.intern(GTerm::Const(3)), b);
        assert_eq!(s.atom(5, vec![one, one, b]), cell);
        assert_eq!(s.get(b), GTerm::Const(3));
        assert_eq!(s.get(cell), GTerm::Fn(5, &[one, one, b]));
        assert_eq!(s.args(cell), &[one, one, b]);
        assert_eq!(s.args(b), &[] as &[Gid]);
        // `(f)` is not `f`, and a function is not its arguments' prefix
        let f = s.intern(GTerm::Const(5));
        let f_call = s.intern(GTerm::Fn(5, &[]));
        assert_ne!(f, f_call);
        assert_ne!(s.atom(5, vec![one, one]), cell);
        assert_eq!(s.find(&GTerm::Const(3)), Some(b));
        assert_eq!(s.find(&GTerm::Const(9)), None, "a constant never stored");
        assert_eq!(s.find(&GTerm::Fn(5, &[b])), None);
        assert_eq!(s.find_key(&[tag(5, true), one, one, b]), Some(cell));
        assert_eq!(s.find_key(&[tag(5, false)]), Some(f));
        assert_eq!(s.find_key(&[tag(5, true)]), Some(f_call));
    }

    #[test]
    fn many_terms_keep_their_numbers_as_the_table_grows() {
        let mut s = Store::default();
        let ids: Vec<Gid> = (0..5_000).map(|c| s.intern(GTerm::Const(c))).collect();
        let pairs: Vec<Gid> = ids.windows(2).map(|w| s.atom(1, w.to_vec())).collect();
        for (c, &id) in ids.iter().enumerate() {
            assert_eq!(s.find(&GTerm::Const(c as Sym)), Some(id));
        }
        for (w, &id) in ids.windows(2).zip(&pairs) {
            assert_eq!(s.find(&GTerm::Fn(1, w)), Some(id));
            assert_eq!(s.args(id), w);
        }
    }
}
