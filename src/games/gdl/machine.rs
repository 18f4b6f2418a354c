//! The reasoner: a grounded description as propositions and the rules
//! between them, evaluated in one pass per state in dependency order.
//!
//! Each ground atom is a proposition. `(true X)` atoms are the state,
//! `(does R M)` atoms the moves; everything else is derived. Propositions
//! that depend on neither are worked out once (the board's geometry,
//! `init`, the roles) and folded into the rules. What is left is split in
//! two phases: the *view* (what depends on the state alone: `legal`,
//! `goal`, `terminal`) and the *move* phase (what also depends on `does`:
//! most of `next`). Each phase evaluates its propositions in dependency
//! order, each one the `or` of its rules, each rule the `and` of its
//! literals: a single pass, except in recursive groups of propositions,
//! which are iterated until nothing changes (stratification keeps `not`
//! out of those groups, so that terminates).

use std::collections::HashMap;

use super::{
    ground::{ground, GTerm, Gid, Grounded},
    logic::{strongly_connected, Description},
};

/// The most ground atoms a description may have.
pub const MAX_ATOMS: usize = 2_000_000;

/// A proposition's number.
pub type Prop = u32;

/// One move of one role.
#[derive(Clone, Debug)]
pub struct MoveProps {
    /// `(legal ROLE MOVE)`.
    pub legal: Prop,
    /// `(does ROLE MOVE)`.
    pub does: Prop,
    /// The move in KIF's normal form.
    pub text: String,
}

/// What evaluates one group of propositions.
#[derive(Clone, Debug)]
enum Block {
    One(Prop),
    Cycle(Vec<Prop>),
}

/// A grounded game, ready to evaluate states.
#[derive(Debug)]
pub struct Machine {
    pub roles: Vec<String>,
    /// The state's propositions, `(true X)`, with X in KIF.
    pub base: Vec<Prop>,
    pub base_text: Vec<String>,
    /// For each base proposition, `(next X)`, if any rule can make it.
    next_of_base: Vec<Option<Prop>>,
    /// Each role's moves, and the move's index by its text.
    pub moves: Vec<Vec<MoveProps>>,
    move_index: Vec<HashMap<String, usize>>,
    terminal: Option<Prop>,
    /// Each role's goal propositions and their values.
    goals: Vec<Vec<(Prop, i32)>>,
    /// The values of every proposition in the first state (the static
    /// ones stay as they are).
    start: Vec<bool>,
    view: Vec<Block>,
    moving: Vec<Block>,
    /// Per proposition, its rules: `rule_start[p]..rule_start[p + 1]`.
    rule_start: Vec<u32>,
    /// Per rule: where its positive and negative literals are in `lits`.
    rules: Vec<(u32, u32, u32)>,
    lits: Vec<Prop>,
    /// Ground atoms and rules, for `ladder` to report.
    pub atoms: usize,
    pub ground_rules: usize,
}

impl Machine {
    /// Grounds `d` and prepares it.
    pub fn new(d: &Description) -> Result<Machine, String> {
        let Grounded {
            mut store,
            rules,
            model,
        } = ground(d, MAX_ATOMS)?;
        let k = d.keys;
        let atoms = store_size(&model);
        let ground_rules = rules.len();

        // a number for every atom the rules, the state and the moves mention
        let mut props = Props::default();
        let model_of = |rel, arity| model.get(&(rel, arity)).cloned().unwrap_or_default();
        let trues = model_of(k.truth, 1);
        let base: Vec<Prop> = trues.iter().map(|&g| props.id(g)).collect();
        let mut heads: HashMap<Prop, Vec<usize>> = HashMap::new();
        let mut rule_props: Vec<(Vec<Prop>, Vec<Prop>)> = Vec::new();
        for (i, r) in rules.iter().enumerate() {
            let h = props.id(r.head);
            heads.entry(h).or_default().push(i);
            rule_props.push((
                r.pos.iter().map(|&g| props.id(g)).collect(),
                r.neg.iter().map(|&g| props.id(g)).collect(),
            ));
        }
        let roles: Vec<String> = d
            .roles
            .iter()
            .map(|&r| d.symbols.name(r).to_string())
            .collect();
        let role_gid: Vec<Gid> = d
            .roles
            .iter()
            .map(|&r| store.intern(GTerm::Const(r)))
            .collect();
        let mut moves: Vec<Vec<MoveProps>> = vec![Vec::new(); roles.len()];
        for &legal in &model_of(k.legal, 2) {
            let [role, mv] = store.args(legal)[..] else {
                continue;
            };
            let Some(r) = role_gid.iter().position(|&g| g == role) else {
                continue;
            };
            let does = store.atom(k.does, vec![role, mv]);
            moves[r].push(MoveProps {
                legal: props.id(legal),
                does: props.id(does),
                text: store.text(mv, d),
            });
        }
        let mut goals: Vec<Vec<(Prop, i32)>> = vec![Vec::new(); roles.len()];
        for &goal in &model_of(k.goal, 2) {
            let [role, value] = store.args(goal)[..] else {
                continue;
            };
            let (Some(r), Ok(v)) = (
                role_gid.iter().position(|&g| g == role),
                store.text(value, d).parse::<i32>(),
            ) else {
                continue;
            };
            goals[r].push((props.id(goal), v));
        }
        let terminal = store.find(&GTerm::Const(k.terminal)).map(|g| props.id(g));
        let next_of_base: Vec<Option<Prop>> = trues
            .iter()
            .map(|&t| {
                let next = store.atom(k.next, vec![store.args(t)[0]]);
                props.get(next).filter(|p| heads.contains_key(p))
            })
            .collect();
        let n = props.atoms.len();

        // what each proposition depends on: 0 nothing, 1 the state, 2 the moves
        let mut kind = vec![0u8; n];
        for &b in &base {
            kind[b as usize] = 1;
        }
        for ms in &moves {
            for m in ms {
                kind[m.does as usize] = 2;
            }
        }
        let mut edges: HashMap<Prop, Vec<Prop>> = HashMap::new();
        for p in 0..n as Prop {
            let deps: Vec<Prop> = heads
                .get(&p)
                .into_iter()
                .flatten()
                .flat_map(|&i| rule_props[i].0.iter().chain(&rule_props[i].1).copied())
                .collect();
            edges.insert(p, deps);
        }
        let comp = strongly_connected(&edges);
        let mut groups: Vec<Vec<Prop>> = vec![Vec::new(); comp.values().max().map_or(0, |m| m + 1)];
        for p in 0..n as Prop {
            groups[comp[&p]].push(p);
        }
        // kinds, dependencies first
        for g in &groups {
            let k = g
                .iter()
                .flat_map(|p| &edges[p])
                .map(|&q| kind[q as usize])
                .chain(g.iter().map(|&p| kind[p as usize]))
                .max()
                .unwrap_or(0);
            for &p in g {
                kind[p as usize] = k;
            }
        }

        // the static propositions' values, once
        let mut start = vec![false; n];
        let eval_rule = |i: usize, vals: &[bool]| {
            rule_props[i].0.iter().all(|&q| vals[q as usize])
                && rule_props[i].1.iter().all(|&q| !vals[q as usize])
        };
        for g in groups.iter().filter(|g| kind[g[0] as usize] == 0) {
            loop {
                let mut changed = false;
                for &p in g {
                    let v = heads
                        .get(&p)
                        .is_some_and(|rs| rs.iter().any(|&i| eval_rule(i, &start)));
                    if v != start[p as usize] {
                        start[p as usize] = v;
                        changed = true;
                    }
                }
                if !changed || g.len() == 1 {
                    break;
                }
            }
        }
        // the first state: every X with (init X)
        for (i, &t) in trues.iter().enumerate() {
            let init = store.atom(k.init, vec![store.args(t)[0]]);
            start[base[i] as usize] = props.get(init).is_some_and(|p| start[p as usize]);
        }

        // the rules of the dynamic propositions, static literals folded in
        let mut rule_start = vec![0u32; n + 1];
        let mut flat_rules = Vec::new();
        let mut lits = Vec::new();
        for p in 0..n {
            rule_start[p] = flat_rules.len() as u32;
            if kind[p] == 0 {
                continue;
            }
            for &i in heads.get(&(p as Prop)).into_iter().flatten() {
                let (pos, neg) = &rule_props[i];
                let is_static = |q: &Prop| kind[*q as usize] == 0;
                if pos
                    .iter()
                    .filter(|q| is_static(q))
                    .any(|&q| !start[q as usize])
                    || neg
                        .iter()
                        .filter(|q| is_static(q))
                        .any(|&q| start[q as usize])
                {
                    continue; // never holds
                }
                let from = lits.len() as u32;
                lits.extend(pos.iter().filter(|q| !is_static(q)));
                let mid = lits.len() as u32;
                lits.extend(neg.iter().filter(|q| !is_static(q)));
                flat_rules.push((from, mid, lits.len() as u32));
            }
        }
        rule_start[n] = flat_rules.len() as u32;
        let block = |g: &Vec<Prop>| {
            let recursive = g.len() > 1 || edges[&g[0]].contains(&g[0]);
            if recursive {
                Block::Cycle(g.clone())
            } else {
                Block::One(g[0])
            }
        };
        let is_derived = |p: Prop| heads.contains_key(&p);
        let view = groups
            .iter()
            .filter(|g| kind[g[0] as usize] == 1 && g.iter().any(|&p| is_derived(p)))
            .map(block)
            .collect();
        let moving = groups
            .iter()
            .filter(|g| kind[g[0] as usize] == 2 && g.iter().any(|&p| is_derived(p)))
            .map(block)
            .collect();
        let move_index = moves
            .iter()
            .map(|ms| {
                ms.iter()
                    .enumerate()
                    .map(|(i, m)| (m.text.clone(), i))
                    .collect()
            })
            .collect();
        let base_text = trues
            .iter()
            .map(|&t| store.text(store.args(t)[0], d))
            .collect();
        let mut m = Machine {
            roles,
            base,
            base_text,
            next_of_base,
            moves,
            move_index,
            terminal,
            goals,
            start,
            view,
            moving,
            rule_start,
            rules: flat_rules,
            lits,
            atoms,
            ground_rules,
        };
        let mut first = m.start.clone();
        m.evaluate(&m.view, &mut first);
        m.start = first;
        Ok(m)
    }

    /// The values of the first state, its view evaluated.
    pub fn first(&self) -> Vec<bool> {
        self.start.clone()
    }

    fn rule_holds(&self, r: usize, vals: &[bool]) -> bool {
        let (a, b, c) = self.rules[r];
        self.lits[a as usize..b as usize]
            .iter()
            .all(|&q| vals[q as usize])
            && self.lits[b as usize..c as usize]
                .iter()
                .all(|&q| !vals[q as usize])
    }

    fn prop_holds(&self, p: Prop, vals: &[bool]) -> bool {
        let (a, b) = (self.rule_start[p as usize], self.rule_start[p as usize + 1]);
        (a..b).any(|r| self.rule_holds(r as usize, vals))
    }

    fn evaluate(&self, blocks: &[Block], vals: &mut [bool]) {
        for b in blocks {
            match b {
                Block::One(p) => vals[*p as usize] = self.prop_holds(*p, vals),
                Block::Cycle(ps) => {
                    for &p in ps {
                        vals[p as usize] = false;
                    }
                    loop {
                        let mut changed = false;
                        for &p in ps {
                            if !vals[p as usize] && self.prop_holds(p, vals) {
                                vals[p as usize] = true;
                                changed = true;
                            }
                        }
                        if !changed {
                            break;
                        }
                    }
                }
            }
        }
    }

    /// Whether `role` may play its move `m` in the state `vals`.
    pub fn legal(&self, vals: &[bool], role: usize, m: usize) -> bool {
        vals[self.moves[role][m].legal as usize]
    }

    /// The index of `role`'s move written `text`, if it is one of its moves.
    pub fn move_named(&self, role: usize, text: &str) -> Option<usize> {
        self.move_index[role].get(text).copied()
    }

    pub fn terminal(&self, vals: &[bool]) -> bool {
        self.terminal.is_some_and(|t| vals[t as usize])
    }

    /// `role`'s goal in state `vals`: the first goal that holds, else 0.
    pub fn goal(&self, vals: &[bool], role: usize) -> i32 {
        self.goals[role]
            .iter()
            .find(|(p, _)| vals[*p as usize])
            .map_or(0, |(_, v)| *v)
    }

    /// The state after each role plays its move `chosen[r]` (an index into
    /// its moves), evaluated.
    pub fn advance(&self, vals: &mut [bool], chosen: &[usize]) {
        for (r, &m) in chosen.iter().enumerate() {
            vals[self.moves[r][m].does as usize] = true;
        }
        self.evaluate(&self.moving, vals);
        let next: Vec<bool> = self
            .next_of_base
            .iter()
            .map(|n| n.is_some_and(|p| vals[p as usize]))
            .collect();
        for (r, &m) in chosen.iter().enumerate() {
            vals[self.moves[r][m].does as usize] = false;
        }
        for (i, &b) in self.base.iter().enumerate() {
            vals[b as usize] = next[i];
        }
        self.evaluate(&self.view, vals);
    }

    /// Sets the state to the base propositions `on` (indices into `base`), evaluated.
    pub fn set_state(&self, vals: &mut [bool], on: &[bool]) {
        for (i, &b) in self.base.iter().enumerate() {
            vals[b as usize] = on[i];
        }
        self.evaluate(&self.view, vals);
    }
}

fn store_size(model: &HashMap<super::logic::Relation, Vec<Gid>>) -> usize {
    model.values().map(Vec::len).sum()
}

/// The proposition numbers of ground atoms.
#[derive(Default)]
struct Props {
    of: HashMap<Gid, Prop>,
    atoms: Vec<Gid>,
}

impl Props {
    /// `g`'s number, given it now if it has none.
    fn id(&mut self, g: Gid) -> Prop {
        *self.of.entry(g).or_insert_with(|| {
            self.atoms.push(g);
            (self.atoms.len() - 1) as Prop
        })
    }

    fn get(&self, g: Gid) -> Option<Prop> {
        self.of.get(&g).copied()
    }
}
