//! Any two-player game written in GDL, played through the reasoner: the
//! catalogue's `gdl` game.
//!
//! Rules:
//! - Everything the description says; ladder adds only what GDL leaves to
//!   the game master, below.
//! - The first `(role R)` written is the first seat, the second the
//!   second. A description with another number of roles is refused (the
//!   standings are built for two players).
//! - GDL games are simultaneous; a seat is asked for a move unless its only
//!   legal move is `noop`, which it then plays without being asked: GDL's
//!   convention for the player who waits, so turn-taking games alternate.
//!   A description that names its waiting move otherwise has it asked for.
//!   When both seats could only `noop`, both are asked.
//! - The game ends in a `terminal` state, or in a state where a role has no
//!   legal move at all (a broken description; the goals are read there).
//! - A seat's goal is the `(goal R N)` that holds, 0 if none does; goals
//!   run 0..=100. Where several hold at once (an ill-formed description),
//!   the value whose first rule is written first counts.
//!
//! Parameters: `rules` (required): the description's file, relative to the
//! config that names it (or to the working folder on the command line:
//! `ladder match gdl:games/gdl/tictactoe.kif random random`). The game's
//! name is the file's name without `.kif`. ladder reads the file when the
//! season is planned and records its text as `text` in `season.json`, so a
//! season's journal is verified, replayed and resumed against the very
//! rules it was played by (a changed file is a changed parameter).
//!
//! Moves: one KIF term in normal form (lower case, single spaces):
//! `(mark 1 1)`, `noop`. Observation: every `(true X)` of the state, as
//! `X` terms separated by spaces, in the description's order.
//!
//! A description too large to ground whole within `ground_steps` (or past
//! the limit of ground atoms) is ground on what its questions can ask
//! (`callers.rs`; tried as soon as the whole grounding passes half the
//! limit of ground rules, which it then gives up if that works). Where
//! that is too large as well, it is reasoned about state by state
//! (`prover.rs`): its moves and a state's terms then come in the order of
//! their symbols' first appearance in the description, and a state whose
//! reasoning takes more than `ground_steps` steps is stuck (no legal
//! moves: the game ends there, both goals 0, journaled as `ill-formed`
//! with the reason).

use std::{
    collections::HashMap,
    fmt,
    path::{Path, PathBuf},
    str::FromStr,
    sync::Arc,
};

use serde::{Deserialize, Serialize};

use super::{
    callers,
    ground::{Budget, Watch},
    kif,
    kif::KifError,
    logic::Description,
    machine::{Machine, State, DEFAULT_GROUND_SECONDS, DEFAULT_GROUND_STEPS, MAX_ATOMS},
    prover::{Now, Prover},
};
use crate::core::{
    error::Invalid,
    game::{Game, IllegalMove},
    seat::{BySeat, Seat},
    text::count,
};
use crate::show::{
    drawing::{cell_fact, reading_order, Drawing},
    Show,
};

/// The parameters of a GDL game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GdlParams {
    /// The description's file, as written.
    pub rules: PathBuf,
    /// The description itself, read from `rules` when the season is planned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The grounding budget in steps (default [`DEFAULT_GROUND_STEPS`]): a
    /// description that takes more is reasoned about state by state, each
    /// state within as many steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ground_steps: Option<u64>,
    /// The loading time budget in seconds (default
    /// [`DEFAULT_GROUND_SECONDS`]): a description that takes longer to
    /// ground and prepare is refused before any game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ground_seconds: Option<u64>,
}

impl GdlParams {
    /// The description in file `rules`, found in folder `dir`.
    pub fn read(rules: impl Into<PathBuf>, dir: &Path) -> Result<GdlParams, Invalid> {
        let rules = rules.into();
        let path = dir.join(&rules);
        let text = crate::core::files::read_text(&path)
            .map_err(|e| Invalid::of("rules", format!("cannot read {}: {e}", path.display())))?;
        Ok(GdlParams {
            rules,
            text: Some(text),
            ground_steps: None,
            ground_seconds: None,
        })
    }
}

/// A move: one KIF term in normal form.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GdlMove(pub String);

impl fmt::Display for GdlMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for GdlMove {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        kif::parse_one(s)
            .map(|t| GdlMove(t.to_string()))
            .map_err(|e| {
                format!("a move is one KIF term like `(mark 1 1)` or `noop`, not `{s}`: {e}")
            })
    }
}

/// The loading budget when a game's parameters set none.
pub const DEFAULT_BUDGET: Budget = Budget {
    steps: DEFAULT_GROUND_STEPS,
    seconds: DEFAULT_GROUND_SECONDS,
};

/// A description ready to play, with its name: what every game of a season
/// shares.
pub struct Rules {
    pub name: String,
    /// The roles' names, first seat first.
    pub roles: Vec<String>,
    pub reasoner: Reasoner,
    /// Each base proposition's index by its text, for positions (grounded
    /// descriptions only).
    base_index: HashMap<String, usize>,
    /// What the initial state says of its board, worked out at the
    /// first picture ([`Gdl::board`]).
    start_board: std::sync::OnceLock<StartBoard>,
}

/// The most columns or rows a board takes from its description (beyond,
/// only the labels of the cells a state holds are drawn).
const MOST_LABELS: usize = 64;

/// What a description's initial state says of its board: whether it
/// spells empty cells out as `(cell X Y b)`, so that `b` is a blank in a
/// picture (where it does not, as in connect four's `(cell C R b)` for a
/// black disc, `b` is a piece), and the labels of its columns and rows
/// (of the initial state, and of every cell fact a grounded description
/// can hold).
#[derive(Default)]
struct StartBoard {
    blank_spelt: bool,
    labels: [Vec<String>; 2],
}

/// How a description is reasoned about.
pub enum Reasoner {
    /// Grounded whole: propositions evaluated in dependency order.
    Ground(Machine),
    /// Too large to ground whole within its budget: each state worked out
    /// when it is met (`prover.rs`).
    Demand(Prover),
}

impl Rules {
    /// Reads, checks and grounds the description `text`, named `name`,
    /// within the default budget.
    pub fn new(name: &str, text: &str) -> Result<Rules, Invalid> {
        Rules::within(name, text, DEFAULT_BUDGET)
    }

    /// [`Rules::new`] within a loading budget. Loading that takes more
    /// than a second says on stderr what it is doing. A description too
    /// large to ground whole within the budget's steps (or past the limit
    /// of atoms) is reasoned about state by state, and says so on stderr.
    pub fn within(name: &str, text: &str, budget: Budget) -> Result<Rules, Invalid> {
        Rules::load(name, text, budget, false)
    }

    /// [`Rules::within`], reasoning state by state however small the
    /// description (what the tests compare the two reasoners with).
    pub fn on_demand(name: &str, text: &str, budget: Budget) -> Result<Rules, Invalid> {
        Rules::load(name, text, budget, true)
    }

    fn load(name: &str, text: &str, budget: Budget, demand: bool) -> Result<Rules, Invalid> {
        let mut watch = Watch::new(name, budget);
        let invalid = |e: KifError| Invalid::new(e.to_string());
        let d = Description::read(text).map_err(invalid)?;
        let d = match d.check() {
            Ok(()) => d,
            // rules that leave a variable unbound where every use binds it
            // are given the values their uses pass (`callers.rs`)
            Err(e) => match callers::bind_unsafe(&d, MAX_ATOMS, &mut watch) {
                Some(Ok(d)) => d,
                Some(Err(why)) => {
                    return Err(Invalid::new(format!(
                        "{e}; ladder plays such a rule where its uses bind the variable, \
                         but working out the values they pass failed: {why}"
                    )))
                }
                None => return Err(invalid(e)),
            },
        };
        let d = d.with_roles().map_err(invalid)?;
        if d.roles.len() != 2 {
            return Err(Invalid::new(format!(
                "the description has {}; ladder plays games of two roles",
                count(d.roles.len(), "role")
            )));
        }
        let on_demand = |watch: &mut Watch| {
            Prover::new(&d, budget.steps, watch)
                .map(Reasoner::Demand)
                .map_err(Invalid::new)
        };
        // grounded on what the game's questions can ask (`callers::asked_only`),
        // if that is small: within a twentieth of the steps, beside the
        // whole grounding once it passes half the limit of ground rules
        // (then, if that works, the whole grounding is given up), or after
        // it was too large
        let on_what_is_asked = |watch: &Watch| {
            let mut watch = watch.beside(budget.steps / 20);
            match callers::asked_only(&d, MAX_ATOMS, &mut watch) {
                Some(Ok(asked)) => Machine::new(&asked, &mut watch, None).ok(),
                _ => None,
            }
        };
        let reasoner = if demand {
            on_demand(&mut watch)?
        } else {
            let mut tried: Option<Option<Machine>> = None;
            let whole = Machine::new(
                &d,
                &mut watch,
                Some(&mut |watch: &Watch| {
                    let asked = on_what_is_asked(watch);
                    let found = asked.is_some();
                    tried = Some(asked);
                    found
                }),
            );
            match whole {
                Ok(machine) => Reasoner::Ground(machine),
                Err(e) if watch.too_large() => {
                    let halfway = tried.as_ref().is_some_and(Option::is_some);
                    let asked = tried.unwrap_or_else(|| on_what_is_asked(&watch));
                    match asked {
                        Some(machine) => {
                            let why = match halfway {
                                true => "costly to ground whole",
                                false => "too large to ground whole",
                            };
                            eprintln!(
                                "ladder: loading {name}: {why} ({e}); \
                                 ground on what its questions can ask instead"
                            );
                            Reasoner::Ground(machine)
                        }
                        None => {
                            eprintln!(
                                "ladder: loading {name}: too large to ground whole ({e}); \
                                 reasoning state by state"
                            );
                            watch.fresh_steps();
                            on_demand(&mut watch)?
                        }
                    }
                }
                Err(e) => return Err(Invalid::new(e)),
            }
        };
        let base_index = match &reasoner {
            Reasoner::Ground(m) => m
                .base_text
                .iter()
                .enumerate()
                .map(|(i, t)| (t.clone(), i))
                .collect(),
            Reasoner::Demand(_) => HashMap::new(),
        };
        Ok(Rules {
            name: name.to_string(),
            roles: d
                .roles
                .iter()
                .map(|&r| d.symbols.name(r).to_string())
                .collect(),
            reasoner,
            base_index,
            start_board: std::sync::OnceLock::new(),
        })
    }

    /// Whether the description is reasoned about state by state.
    pub fn on_demand_reasoning(&self) -> bool {
        matches!(self.reasoner, Reasoner::Demand(_))
    }
}

/// A GDL game in progress.
#[derive(Clone)]
pub struct Gdl {
    pub rules: Arc<Rules>,
    /// The current state.
    vals: Vals,
}

/// A state, as its reasoner keeps it.
#[derive(Clone)]
enum Vals {
    Ground(State),
    /// Shared by copies: a state reasoned about once.
    Demand(Arc<Now>),
}

impl fmt::Debug for Gdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Gdl({}: {})",
            self.rules.name,
            self.observation(Seat::First)
        )
    }
}

fn role(seat: Seat) -> usize {
    seat.index()
}

/// A state with its reasoner: what each of [`Gdl`]'s questions is asked of.
enum At<'a> {
    Ground(&'a Machine, &'a State),
    Demand(&'a Prover, &'a Now),
}

impl Gdl {
    /// The first position of `rules`.
    pub fn start(rules: Arc<Rules>) -> Gdl {
        let vals = match &rules.reasoner {
            Reasoner::Ground(m) => Vals::Ground(m.first()),
            Reasoner::Demand(p) => Vals::Demand(Arc::new(p.first())),
        };
        Gdl { rules, vals }
    }

    /// The state with its reasoner (a state is always of its own).
    fn at(&self) -> At<'_> {
        match (&self.rules.reasoner, &self.vals) {
            (Reasoner::Ground(m), Vals::Ground(s)) => At::Ground(m, s),
            (Reasoner::Demand(p), Vals::Demand(now)) => At::Demand(p, now),
            _ => unreachable!("a state of its own reasoner"),
        }
    }

    /// The indices of `role`'s legal moves now.
    pub fn legal_indices(&self, role: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.legal_into(role, &mut out);
        out
    }

    /// [`Gdl::legal_indices`] into `out`, without allocating.
    pub fn legal_into(&self, role: usize, out: &mut Vec<usize>) {
        match self.at() {
            At::Ground(m, s) => m.legal_moves(s, role, out),
            At::Demand(_, now) => {
                out.clear();
                out.extend(0..now.moves[role].len());
            }
        }
    }

    /// Whether the description's `terminal` holds (see [`Gdl::over`]).
    pub fn terminal(&self) -> bool {
        match self.at() {
            At::Ground(m, s) => m.terminal(s),
            At::Demand(_, now) => now.terminal,
        }
    }

    /// The state as a key for tables: two positions with one key are the
    /// same state.
    pub fn key(&self) -> Box<[u64]> {
        match self.at() {
            At::Ground(m, s) => m.key(s),
            At::Demand(p, now) => p.key(now),
        }
    }

    fn stuck(&self) -> bool {
        match self.at() {
            At::Ground(m, s) => (0..2).any(|r| !m.has_legal(s, r)),
            At::Demand(_, now) => now.moves.iter().any(Vec::is_empty),
        }
    }

    /// Why the state is stuck, where reasoning about it failed (a
    /// description reasoned about state by state, past its budget).
    pub fn error(&self) -> Option<&str> {
        match &self.vals {
            Vals::Demand(now) => now.error.as_deref(),
            Vals::Ground(_) => None,
        }
    }

    /// Plays move index `chosen[r]` for each role.
    pub fn advance(&mut self, chosen: &[usize; 2]) {
        match (&self.rules.reasoner, &mut self.vals) {
            (Reasoner::Ground(m), Vals::Ground(s)) => m.advance(s, chosen),
            (Reasoner::Demand(p), Vals::Demand(now)) => *now = Arc::new(p.next(now, chosen)),
            _ => unreachable!("a state of its own reasoner"),
        }
    }

    /// `role`'s move with index `m`, as text.
    pub fn move_of(&self, role: usize, m: usize) -> GdlMove {
        GdlMove(self.move_text(role, m).to_string())
    }

    fn move_text(&self, role: usize, m: usize) -> &str {
        match self.at() {
            At::Ground(machine, _) => &machine.moves[role][m].text,
            At::Demand(_, now) => &now.moves[role][m].text,
        }
    }

    /// A number for `role`'s move with index `m`, the same for the same
    /// move in every state of the game: what search bots learn moves by.
    pub fn move_id(&self, role: usize, m: usize) -> usize {
        match &self.vals {
            Vals::Ground(_) => m,
            Vals::Demand(now) => now.moves[role][m].id,
        }
    }

    /// The index of `role`'s move written `text` if it is legal now.
    pub fn legal_named(&self, role: usize, text: &str) -> Option<usize> {
        match self.at() {
            At::Ground(m, s) => m.move_named(role, text).filter(|&i| m.legal(s, role, i)),
            At::Demand(_, now) => now.moves[role].iter().position(|m| m.text == text),
        }
    }

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.terminal() || self.stuck()
    }

    /// The highest goal `role` can get in this game (the lowest is 0).
    pub fn goal_max(&self, role: usize) -> i32 {
        match &self.rules.reasoner {
            Reasoner::Ground(m) => m.goal_max(role),
            Reasoner::Demand(p) => p.goal_max(role),
        }
    }

    /// Each role's goal now.
    pub fn goals(&self) -> [i32; 2] {
        match self.at() {
            At::Ground(m, s) => [m.goal(s, 0), m.goal(s, 1)],
            At::Demand(_, now) => [now.goals[0], now.goals[1]],
        }
    }

    /// A uniformly random legal move of `role` now, its index: the one the
    /// ascending list of legal moves has at the index drawn with
    /// `rng.random_range(0..n)` from their number `n` (listed into
    /// `legal` only where it must be); `None` if `role` has none.
    fn random_index(
        &self,
        role: usize,
        rng: &mut crate::Rng,
        legal: &mut Vec<usize>,
    ) -> Option<usize> {
        use rand::Rng as _;
        match self.at() {
            At::Ground(m, s) => m.pick_legal(s, role, |n| rng.random_range(0..n), legal),
            At::Demand(_, now) => {
                let n = now.moves[role].len();
                (n > 0).then(|| rng.random_range(0..n))
            }
        }
    }

    /// `to_act()[seat]`, without asking about the other seat where this
    /// one has a choice.
    fn acts(&self, seat: Seat) -> bool {
        let r = role(seat);
        !self.over() && (!self.only_noop(r) || self.only_noop(1 - r))
    }

    /// The index of `role`'s move `noop`, if it has one (now, for a
    /// description reasoned about state by state).
    fn noop_index(&self, role: usize) -> Option<usize> {
        match self.at() {
            At::Ground(m, _) => m.noop(role),
            At::Demand(_, now) => now.moves[role].iter().position(|m| m.text == "noop"),
        }
    }

    /// Whether `role`'s one legal move now is `noop`: a role with nothing
    /// to choose, which is not asked for a move.
    fn only_noop(&self, role: usize) -> bool {
        match self.at() {
            At::Ground(m, s) => m.noop(role).is_some_and(|i| m.only_legal(s, role, i)),
            At::Demand(_, now) => matches!(&now.moves[role][..], [only] if only.text == "noop"),
        }
    }

    /// Plays uniformly random legal moves to the end (at most `max_turns`
    /// turns) and returns the goals there: the playouts of search bots and
    /// of the benchmark, with no move text.
    pub fn random_playout(&self, rng: &mut crate::Rng, max_turns: u32) -> [i32; 2] {
        let mut g = self.clone();
        let mut legal = Vec::new();
        for _ in 0..max_turns {
            if g.terminal() {
                break;
            }
            let mut chosen = [0usize; 2];
            for (r, pick) in chosen.iter_mut().enumerate() {
                let Some(m) = g.random_index(r, rng, &mut legal) else {
                    return g.goals();
                };
                *pick = m;
            }
            g.advance(&chosen);
        }
        g.goals()
    }
}

impl Game for Gdl {
    type Move = GdlMove;
    type Params = GdlParams;

    fn new(params: &GdlParams) -> Result<Self, Invalid> {
        let read;
        let text = match &params.text {
            Some(text) => text,
            None => {
                read = GdlParams::read(&params.rules, Path::new(""))?;
                read.text.as_ref().expect("read")
            }
        };
        let name = params
            .rules
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "gdl".to_string());
        let budget = Budget {
            steps: params.ground_steps.unwrap_or(DEFAULT_GROUND_STEPS),
            seconds: params.ground_seconds.unwrap_or(DEFAULT_GROUND_SECONDS),
        };
        let rules = Rules::within(&name, text, budget)
            .map_err(|e| Invalid::of("rules", format!("{}: {e}", params.rules.display())))?;
        Ok(Gdl::start(Arc::new(rules)))
    }

    fn name(&self) -> &str {
        &self.rules.name
    }

    fn catalogue_name(&self) -> &str {
        super::NAME
    }

    fn params_in(params: GdlParams, dir: &Path) -> Result<GdlParams, Invalid> {
        match params.text {
            Some(_) => Ok(params),
            None => Ok(GdlParams {
                ground_steps: params.ground_steps,
                ground_seconds: params.ground_seconds,
                ..GdlParams::read(params.rules, dir)?
            }),
        }
    }

    fn to_act(&self) -> BySeat<bool> {
        if self.over() {
            return BySeat::new(false, false);
        }
        match (!self.only_noop(0), !self.only_noop(1)) {
            (false, false) => BySeat::new(true, true),
            (a, b) => BySeat::new(a, b),
        }
    }

    fn legal_moves(&self, seat: Seat) -> Vec<GdlMove> {
        if !self.acts(seat) {
            return Vec::new();
        }
        self.legal_indices(role(seat))
            .into_iter()
            .map(|i| self.move_of(role(seat), i))
            .collect()
    }

    /// The move the default would draw (the same one draw, from the
    /// ascending list of legal moves), found without writing every legal
    /// move's text, and without listing the moves where the reasoner can
    /// pick one directly.
    fn random_move(&self, seat: Seat, rng: &mut crate::Rng) -> GdlMove {
        let r = role(seat);
        let m = self
            .random_index(r, rng, &mut Vec::new())
            .expect("a role asked for a move has a legal move");
        self.move_of(r, m)
    }

    fn check(&self, seat: Seat, mv: &GdlMove) -> Result<(), IllegalMove> {
        if !self.acts(seat) {
            return Err(IllegalMove::new("it is not this player's turn"));
        }
        let r = role(seat);
        let name = &self.rules.roles[r];
        match (&self.rules.reasoner, &self.vals) {
            (Reasoner::Ground(m), _) if m.move_named(r, &mv.0).is_none() => Err(IllegalMove::new(
                format!("`{mv}` is never a move of {name} in this game"),
            )),
            _ if self.legal_named(r, &mv.0).is_none() => Err(IllegalMove::new(format!(
                "`{mv}` is not legal for {name} now"
            ))),
            _ => Ok(()),
        }
    }

    fn apply(&mut self, moves: &BySeat<Option<GdlMove>>) {
        let pick = |seat: Seat| -> usize {
            let r = role(seat);
            match &moves[seat] {
                Some(mv) => self.legal_named(r, &mv.0).expect("checked move"),
                // a seat that was not asked has one legal move, `noop`
                None => self
                    .noop_index(r)
                    .unwrap_or_else(|| self.legal_indices(r)[0]),
            }
        };
        let chosen = [pick(Seat::First), pick(Seat::Second)];
        self.advance(&chosen);
    }

    fn outcome(&self) -> Option<BySeat<i32>> {
        self.over().then(|| {
            let [a, b] = self.goals();
            BySeat::new(a, b)
        })
    }

    fn max_goal(&self) -> i32 {
        100
    }

    fn ill_formed(&self) -> Option<String> {
        self.error().map(str::to_string)
    }

    fn write_observation(&self, _seat: Seat, out: &mut String) {
        let mut blank_before = false;
        let mut add = |fact: &str| {
            if std::mem::replace(&mut blank_before, true) {
                out.push(' ');
            }
            out.push_str(fact);
        };
        match self.at() {
            At::Ground(m, s) => m
                .base_text
                .iter()
                .enumerate()
                .filter(|(i, _)| m.holds(s, *i))
                .for_each(|(_, t)| add(t)),
            At::Demand(p, now) => now.facts.iter().for_each(|f| add(&p.text(f))),
        }
    }

    fn from_position(params: &GdlParams, text: &str) -> Result<Self, Invalid> {
        let mut game = Gdl::new(params)?;
        let terms = kif::parse(text).map_err(|e| Invalid::new(format!("position: {e}")))?;
        let never =
            |t: &kif::Sexp| Invalid::new(format!("`{t}` is never true in a state of this game"));
        let rules = Arc::clone(&game.rules);
        match (&rules.reasoner, &mut game.vals) {
            (Reasoner::Ground(m), Vals::Ground(s)) => {
                let mut on = vec![false; m.base.len()];
                for t in &terms {
                    on[*rules
                        .base_index
                        .get(&t.to_string())
                        .ok_or_else(|| never(t))?] = true;
                }
                m.set_state(s, &on);
            }
            (Reasoner::Demand(p), Vals::Demand(now)) => {
                let mut facts = terms
                    .iter()
                    .map(|t| p.flat_of(t).ok_or_else(|| never(t)))
                    .collect::<Result<Vec<_>, _>>()?;
                facts.sort();
                facts.dedup();
                let next = p.now(facts);
                if let Some(e) = &next.error {
                    return Err(Invalid::new(format!("position: {e}")));
                }
                *now = Arc::new(next);
            }
            _ => unreachable!("a state of its own reasoner"),
        }
        if game.over() {
            return Err(Invalid::new("this position is over"));
        }
        Ok(game)
    }
}

impl Gdl {
    /// The state's facts, each whole (a fact that nests a term too), in
    /// reading order: `(cell 1 1 b)`, `(cell 1 2 b)`, ..., `(cell 10 1 b)`.
    fn facts_in_order(&self) -> Vec<String> {
        let text = self.observation(Seat::First);
        let mut facts: Vec<String> = match kif::parse(&text) {
            Ok(terms) => terms.iter().map(ToString::to_string).collect(),
            Err(_) => vec![text],
        };
        facts.sort_by(|a, b| reading_order(a).cmp(&reading_order(b)));
        facts
    }

    /// The state's facts as a board, with the initial state's columns and
    /// rows, `b` a blank where the description spells empty cells out.
    fn board(&self, facts: &[String]) -> Option<Drawing> {
        let start = self.rules.start_board.get_or_init(|| {
            let mut start = StartBoard::default();
            let mut cell = |fact: &str, initial: bool| {
                if let Some([x, y, v]) = cell_fact(fact) {
                    start.blank_spelt |= initial && v == "b";
                    start.labels[0].push(x.to_string());
                    start.labels[1].push(y.to_string());
                }
            };
            for fact in Gdl::start(Arc::clone(&self.rules)).facts_in_order() {
                cell(&fact, true);
            }
            // a grounded description knows every cell that can hold a
            // piece: the whole board from the first turn (connect four's
            // starts empty)
            if let Reasoner::Ground(m) = &self.rules.reasoner {
                m.base_text.iter().for_each(|fact| cell(fact, false));
            }
            start.labels.iter_mut().for_each(|l| {
                l.sort();
                l.dedup();
            });
            // a board too wide to read is drawn from its pieces alone
            if start.labels.iter().any(|l| l.len() > MOST_LABELS) {
                start.labels = Default::default();
            }
            start
        });
        let known = [&start.labels[0][..], &start.labels[1][..]];
        Drawing::from_cell_facts(facts, start.blank_spelt.then_some("b"), known)
    }
}

impl Show for Gdl {
    /// The usual `(cell X Y V)` facts as a board (X across, Y up, `.` for
    /// an empty cell), then the other facts one a line; without cell
    /// facts, every fact one a line.
    fn picture(&self) -> String {
        let facts = self.facts_in_order();
        let Some(Drawing::Board {
            cells,
            rows,
            columns,
            facts: other,
            ..
        }) = self.board(&facts)
        else {
            return facts.join("\n");
        };
        let label = rows.iter().map(String::len).max().unwrap_or(0);
        let width = columns
            .iter()
            .chain(cells.iter().flatten())
            .map(String::len)
            .max()
            .unwrap_or(1)
            .max(1);
        let mut lines = vec![format!(
            "{:label$} {}",
            "",
            columns
                .iter()
                .map(|c| format!("{c:>width$}"))
                .collect::<Vec<_>>()
                .join(" ")
        )];
        for (row, line) in rows.iter().zip(&cells) {
            let cells: Vec<String> = line
                .iter()
                .map(|v| format!("{:>width$}", if v.is_empty() { "." } else { v }))
                .collect();
            lines.push(format!("{row:>label$} {}", cells.join(" ")));
        }
        lines.extend(other);
        lines.join("\n")
    }
    /// A board when the state has the usual `(cell X Y V)` facts, else
    /// the state's facts in words.
    fn drawing(&self, _last: Option<&BySeat<Option<GdlMove>>>) -> Drawing {
        self.board(&self.facts_in_order()).unwrap_or(Drawing::Text)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::core::game::random_turn;
    use crate::Rng;

    /// The folder of the shipped descriptions.
    fn shipped_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/gdl")
    }

    /// A description shipped in `games/gdl/`.
    pub fn shipped(file: &str) -> Gdl {
        Gdl::new(&shipped_params(file)).unwrap()
    }

    fn shipped_params(file: &str) -> GdlParams {
        GdlParams::read(file, &shipped_dir()).unwrap()
    }

    /// Every shipped description, by file name, in the order of the names.
    fn every_shipped() -> Vec<(String, Gdl)> {
        let mut files: Vec<String> = std::fs::read_dir(shipped_dir())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        files.sort();
        files
            .into_iter()
            .map(|file| {
                let g = shipped(&file);
                (file, g)
            })
            .collect()
    }

    fn play(g: &mut Gdl, first: Option<&str>, second: Option<&str>) {
        let mv = |m: Option<&str>| m.map(|m| m.parse::<GdlMove>().unwrap());
        let moves = BySeat::new(mv(first), mv(second));
        for seat in Seat::ALL {
            if let Some(m) = &moves[seat] {
                g.check(seat, m).unwrap();
            }
        }
        g.apply(&moves);
    }

    /// The playouts' shortcut (a move picked by its index among the legal
    /// ones, without listing them where the rules allow) gives the move
    /// the list gives, for every index, role and state of random games of
    /// every shipped description.
    #[test]
    fn a_move_picked_without_a_list_is_the_listed_move_at_that_index() {
        use rand::Rng as _;
        let mut rng = Rng::seed_from_u64(5);
        for (file, mut g) in every_shipped() {
            let (mut listed, mut states) = (Vec::new(), 0);
            for _ in 0..20 {
                g = Gdl::start(Arc::clone(&g.rules));
                while !g.over() {
                    states += 1;
                    let mut chosen = [0; 2];
                    for (r, pick) in chosen.iter_mut().enumerate() {
                        let legal = g.legal_indices(r);
                        let (Reasoner::Ground(machine), Vals::Ground(s)) =
                            (&g.rules.reasoner, &g.vals)
                        else {
                            panic!("{file} is grounded whole");
                        };
                        for (i, &m) in legal.iter().enumerate() {
                            let picked = machine.pick_legal(
                                s,
                                r,
                                |n| {
                                    assert_eq!(n, legal.len(), "{file}");
                                    i
                                },
                                &mut listed,
                            );
                            assert_eq!(picked, Some(m), "{file}, role {r}, index {i}");
                        }
                        *pick = legal[rng.random_range(0..legal.len())];
                    }
                    g.advance(&chosen);
                }
            }
            assert!(states > 20, "{file}: games were played");
        }
    }

    /// A game of one turn where `a` may pass (`noop`) or go, and `b` only
    /// passes.
    const PASS: &str = "(role a) (role b) (init (step 0))
        (legal a noop) (<= (legal a go) (true (step 0))) (legal b noop)
        (<= (next (step 1)) (true (step 0))) (<= terminal (true (step 1)))
        (<= (next went) (does a go))
        (<= (goal a 100) (true went)) (<= (goal a 0) (not (true went)))
        (goal b 50)";

    /// A person's picture: cell facts as a board, the rest in reading
    /// order; a fact that nests a term stays whole on its line.
    #[test]
    fn the_picture_draws_cell_facts_as_a_board_and_keeps_nested_facts_whole() {
        let mut g = shipped("tictactoe.kif");
        play(&mut g, Some("(mark 2 2)"), None);
        play(&mut g, None, Some("(mark 3 1)"));
        // (cell X Y V): X across, Y up; tic-tac-toe's (cell ROW COLUMN V)
        // comes out turned a quarter
        assert_eq!(
            g.picture(),
            "  1 2 3\n3 . . .\n2 . x .\n1 . . o\n(control xplayer)"
        );
        // connect four: discs fall down the columns, and its `b` is a
        // black disc (its empty cells are not spelt out as `b`)
        let mut c = shipped("connect4.kif");
        play(&mut c, Some("(drop 3)"), None);
        play(&mut c, None, Some("(drop 3)"));
        play(&mut c, Some("(drop 4)"), None);
        let board = c.picture();
        assert!(
            board.starts_with("  1 2 3 4 5 6 7\n6 . . . . . . .\n"),
            "{board}"
        );
        assert!(
            board.ends_with("\n2 . . b . . . .\n1 . . r r . . .\n(control black)"),
            "{board}"
        );
        // the whole board before the first disc, from the grounded cells
        let start = shipped("connect4.kif").picture();
        assert_eq!(start.lines().count(), 8, "{start}");
        // breakthrough: every row of the board, white's home at the bottom
        let mut b = shipped("breakthrough.kif");
        play(&mut b, Some("(move 3 2 3 3)"), None);
        let rows: Vec<String> = b.picture().lines().map(str::to_string).collect();
        assert_eq!(rows.len(), 10, "{rows:?}");
        assert!(rows[1].starts_with("8 black"), "{rows:?}");
        assert_eq!(
            rows[6].split_whitespace().collect::<Vec<_>>(),
            ["3", ".", ".", "white", ".", ".", ".", ".", "."]
        );
        assert!(rows[8].starts_with("1 white"), "{rows:?}");
        let nested = Gdl::new(&GdlParams {
            rules: PathBuf::from("nested.kif"),
            text: Some(
                "(role a) (role b) (init (at 10 (piece a))) (init (at 9 (piece b)))
                 (init turn) (legal a go) (legal b go) (<= terminal (true turn))
                 (goal a 50) (goal b 50)"
                    .to_string(),
            ),
            ground_steps: None,
            ground_seconds: None,
        })
        .unwrap();
        assert_eq!(
            nested.picture(),
            "(at 9 (piece b))\n(at 10 (piece a))\nturn"
        );
    }

    /// The shortcuts a season takes through the `Game` interface (who is
    /// asked for a move, told without listing the moves; a random move
    /// drawn without listing them) agree with the move lists, in every
    /// state of random games of every shipped description, and of
    /// tic-tac-toe reasoned about state by state.
    #[test]
    fn whose_turn_and_a_random_move_agree_with_the_move_lists() {
        use rand::{Rng as _, RngCore};
        let mut games = every_shipped();
        let by_state = Gdl::new(&GdlParams {
            ground_steps: Some(1000),
            ..shipped_params("tictactoe.kif")
        })
        .unwrap();
        assert!(matches!(by_state.rules.reasoner, Reasoner::Demand(_)));
        games.push(("tictactoe.kif, state by state".to_string(), by_state));
        // `noop` beside another move is a choice: that role is asked
        let pass = Gdl::new(&GdlParams {
            rules: PathBuf::from("pass.kif"),
            text: Some(PASS.to_string()),
            ground_steps: None,
            ground_seconds: None,
        })
        .unwrap();
        assert_eq!(pass.to_act(), BySeat::new(true, false));
        games.push(("pass.kif".to_string(), pass));
        let mut rng = Rng::seed_from_u64(9);
        for (name, start) in &games {
            let (mut asked, mut not_asked) = (0, 0);
            for _ in 0..10 {
                let mut g = start.clone();
                while g.outcome().is_none() {
                    let to_act = g.to_act();
                    for seat in Seat::ALL {
                        let r = role(seat);
                        let legal = g.legal_indices(r);
                        let noop = matches!(&legal[..], [m] if g.move_text(r, *m) == "noop");
                        assert_eq!(g.only_noop(r), noop, "{name}");
                        assert_eq!(g.acts(seat), to_act[seat], "{name}");
                        if !to_act[seat] {
                            // `apply` plays the seat's one move by its index
                            assert_eq!(g.noop_index(r), Some(legal[0]), "{name}");
                            not_asked += 1;
                            continue;
                        }
                        asked += 1;
                        let listed = g.legal_moves(seat);
                        let mut same = rng.clone();
                        let expected = &listed[same.random_range(0..listed.len())];
                        assert_eq!(&g.random_move(seat, &mut rng), expected, "{name}");
                        assert_eq!(rng.next_u64(), same.next_u64(), "{name}: one draw");
                    }
                    let moves = BySeat::from_fn(|s| to_act[s].then(|| g.random_move(s, &mut rng)));
                    g.apply(&moves);
                }
            }
            assert!(asked >= 10, "{name}: moves were asked for");
            if name.starts_with("breakthrough") {
                assert!(not_asked > 10, "{name}: the side not to move is not asked");
            }
        }
    }

    #[test]
    fn tictactoe_alternates_and_a_row_wins() {
        let mut g = shipped("tictactoe.kif");
        assert_eq!(g.name(), "tictactoe");
        assert_eq!(
            g.to_act(),
            BySeat::new(true, false),
            "o's only move is noop"
        );
        assert_eq!(g.legal_moves(Seat::First).len(), 9);
        assert!(g
            .legal_moves(Seat::First)
            .contains(&GdlMove("(mark 2 3)".into())));
        assert!(g
            .observation(Seat::First)
            .starts_with("(cell 1 1 b) (cell 1 2 b)"));
        play(&mut g, Some("(mark 1 1)"), None);
        assert_eq!(g.to_act(), BySeat::new(false, true));
        let taken = GdlMove("(mark 1 1)".into());
        assert_eq!(
            g.check(Seat::Second, &taken).unwrap_err().to_string(),
            "`(mark 1 1)` is not legal for oplayer now"
        );
        assert!(g
            .check(Seat::Second, &GdlMove("(jump 1)".into()))
            .unwrap_err()
            .to_string()
            .contains("never a move of oplayer"));
        for (x, o) in [("(mark 1 2)", "(mark 2 1)"), ("(mark 1 3)", "(mark 2 2)")] {
            assert_eq!(g.outcome(), None);
            play(&mut g, None, Some(o));
            play(&mut g, Some(x), None);
        }
        // x: 1 1, 1 2, 1 3 is a row... after o's two moves
        assert_eq!(g.outcome(), Some(BySeat::new(100, 0)), "{g:?}");
        assert_eq!(g.to_act(), BySeat::new(false, false));
    }

    #[test]
    fn random_tictactoe_games_end_within_nine_moves_with_goals_summing_to_100() {
        let start = shipped("tictactoe.kif");
        let mut rng = Rng::seed_from_u64(7);
        let mut draws = 0;
        for _ in 0..2000 {
            let mut g = start.clone();
            let mut plies = 0;
            while g.outcome().is_none() {
                let acting = g.to_act();
                let moves = random_turn(&g, &mut rng);
                // exactly one seat acts in tic-tac-toe
                assert!(acting.first != acting.second);
                g.apply(&moves);
                plies += 1;
            }
            assert!((5..=9).contains(&plies), "{plies}");
            let goals = g.outcome().unwrap();
            assert_eq!(goals[Seat::First] + goals[Seat::Second], 100);
            draws += usize::from(goals[Seat::First] == 50);
        }
        // random play draws now and then, not always
        assert!((50..1000).contains(&draws), "{draws}");
    }

    #[test]
    fn positions_round_trip_and_bad_ones_are_refused() {
        let mut g = shipped("tictactoe.kif");
        play(&mut g, Some("(mark 2 2)"), None);
        let params = shipped_params("tictactoe.kif");
        let again = Gdl::from_position(&params, &g.observation(Seat::First)).unwrap();
        assert_eq!(again.observation(Seat::First), g.observation(Seat::First));
        assert_eq!(again.to_act(), BySeat::new(false, true));
        assert!(Gdl::from_position(&params, "(cell 9 9 q)").is_err());
    }

    /// A one-turn game whose end is `(true done)`.
    const ONE_TURN: &str = "(role a) (role b)
        (<= (legal ?r noop) (role ?r))
        (<= (next done) (not (true done)))
        (<= terminal (true done))
        (winner a)
    ";

    fn goals_after_one_turn(goal_rules: &str) -> Option<BySeat<i32>> {
        let rules = Rules::new("t", &format!("{ONE_TURN}{goal_rules}")).unwrap();
        let mut g = Gdl::start(Arc::new(rules));
        assert_eq!(g.outcome(), None);
        g.apply(&BySeat::new(
            Some(GdlMove("noop".into())),
            Some(GdlMove("noop".into())),
        ));
        g.outcome()
    }

    #[test]
    fn negation_is_stratified_atom_by_atom_as_in_a_pie_rule() {
        let err = |text: &str| Rules::new("t", text).err().unwrap().to_string();
        assert_eq!(
            err("(role a) (role b) (q 1)\n(<= (p ?x) (q ?x) (not (p ?x)))"),
            "line 2, column 1: `(p 1)` depends on itself through `(not (p 1))`: negation must be stratified (GDL's stratification restriction)"
        );
        assert!(err(
            "(role a) (role b) (q 1)\n(<= (p ?x) (q ?x) (not (r ?x)))\n(<= (r ?x) (p ?x))"
        )
        .contains("stratification restriction"));
        // `goal` reads itself through `not`, but no atom does: the loser's 0
        // rests on the winner's 100, never the other way
        let pie = "(<= (goal ?r 100) (true done) (winner ?r))
                   (<= (goal ?r 0) (role ?r) (not (goal ?r 100)))";
        assert_eq!(goals_after_one_turn(pie), Some(BySeat::new(100, 0)));
    }

    #[test]
    fn where_two_goals_hold_the_one_written_first_counts() {
        // `(goal a 0)` is written first but found last (it rests on a
        // chain), `(goal a 100)` is written second: the 0 counts
        let chain = "(<= (goal a 0) deep) (<= deep mid) (<= mid (true done))
                     (<= (goal a 100) (true done))
                     (goal b 50)";
        assert_eq!(goals_after_one_turn(chain), Some(BySeat::new(0, 50)));
        let swapped = "(<= (goal a 100) (true done))
                       (<= (goal a 0) deep) (<= deep mid) (<= mid (true done))
                       (goal b 50)";
        assert_eq!(goals_after_one_turn(swapped), Some(BySeat::new(100, 50)));
        // a goal no rule gives in the state does not count
        let one = "(<= (goal a 0) (not (true done))) (<= (goal a 100) (true done)) (goal b 0)";
        assert_eq!(goals_after_one_turn(one), Some(BySeat::new(100, 0)));
    }

    #[test]
    fn files_that_are_not_two_player_gdl_are_refused_with_their_place() {
        let err = |text: &str| Rules::new("t", text).err().unwrap().to_string();
        assert!(err("(role a)").contains("has 1 role;"));
        assert!(err("(role a) (role b)\n(<= (p ?x) (q))").contains("line 2, column 1: unsafe rule"));
        let missing = GdlParams::read("no/such.kif", Path::new("")).err().unwrap();
        assert!(
            missing.to_string().contains("cannot read no/such.kif"),
            "{missing}"
        );
    }
}

#[cfg(test)]
mod recursion_tests {
    use rand::{Rng as _, SeedableRng};

    use super::*;
    use crate::Rng;

    /// Four nodes in a row; the first role adds links between neighbours,
    /// in any direction, until a path joins a and d. `path` is recursive
    /// through links that run both ways, so its ground propositions form
    /// cycles: the reasoner's recursive groups.
    const LINKS: &str = "
        (role builder) (role watcher)
        (next-to a b) (next-to b c) (next-to c d)
        (<= (legal builder (add ?x ?y)) (next-to ?x ?y) (not (true (edge ?x ?y))))
        (<= (legal builder (add ?y ?x)) (next-to ?x ?y) (not (true (edge ?y ?x))))
        (legal watcher noop)
        (<= (next (edge ?x ?y)) (true (edge ?x ?y)))
        (<= (next (edge ?x ?y)) (does builder (add ?x ?y)))
        (<= (link ?x ?y) (true (edge ?x ?y)))
        (<= (link ?x ?y) (true (edge ?y ?x)))
        (<= (path ?x ?y) (link ?x ?y))
        (<= (path ?x ?z) (link ?x ?y) (path ?y ?z))
        (<= terminal (path a d))
        (<= (goal builder 100) (path a d))
        (<= (goal builder 0) (not (path a d)))
        (goal watcher 50)";

    #[test]
    fn recursive_groups_follow_the_state_both_ways() {
        let rules = Arc::new(Rules::new("links", LINKS).unwrap());
        let mut rng = Rng::seed_from_u64(3);
        for _ in 0..300 {
            let mut g = Gdl::start(Arc::clone(&rules));
            let mut added: Vec<(char, char)> = Vec::new();
            while g.outcome().is_none() {
                let legal = g.legal_moves(Seat::First);
                let mv = legal[rng.random_range(0..legal.len())].clone();
                let t: Vec<char> = mv.0.chars().filter(|c| c.is_ascii_lowercase()).collect();
                // "(add x y)": the letters after "add"
                added.push((t[3], t[4]));
                g.apply(&BySeat::new(Some(mv), None));
                // a and d are joined exactly when each neighbour pair has a link
                let linked = |x: char, y: char| added.contains(&(x, y)) || added.contains(&(y, x));
                let joined = linked('a', 'b') && linked('b', 'c') && linked('c', 'd');
                assert_eq!(g.outcome().is_some(), joined, "{added:?}");
            }
            assert_eq!(g.outcome(), Some(BySeat::new(100, 50)));
            // from a position again: the same end
            let again = Gdl::from_position(
                &GdlParams {
                    rules: PathBuf::from("links.kif"),
                    text: Some(LINKS.to_string()),
                    ground_steps: None,
                    ground_seconds: None,
                },
                "(edge a b)",
            )
            .unwrap();
            assert_eq!(again.outcome(), None);
        }
    }

    /// The same row of four nodes, but the builder also cuts links, and the
    /// game lasts twelve turns: `path` must shrink as well as grow. The
    /// watcher may `shout` exactly while a path joins a and d, so every
    /// state shows whether the reasoner holds `path a d`.
    const CUTS: &str = "
        (role builder) (role watcher)
        (next-to a b) (next-to b c) (next-to c d)
        (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)
        (succ 6 7) (succ 7 8) (succ 8 9) (succ 9 10) (succ 10 11) (succ 11 12)
        (init (step 0))
        (<= (legal builder (add ?x ?y)) (next-to ?x ?y) (not (true (edge ?x ?y))))
        (<= (legal builder (add ?y ?x)) (next-to ?x ?y) (not (true (edge ?y ?x))))
        (<= (legal builder (cut ?x ?y)) (true (edge ?x ?y)))
        (<= (legal watcher shout) (path a d))
        (<= (legal watcher noop) (not (path a d)))
        (<= (next (edge ?x ?y)) (true (edge ?x ?y)) (not (does builder (cut ?x ?y))))
        (<= (next (edge ?x ?y)) (does builder (add ?x ?y)))
        (<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))
        (<= (link ?x ?y) (true (edge ?x ?y)))
        (<= (link ?x ?y) (true (edge ?y ?x)))
        (<= (path ?x ?y) (link ?x ?y))
        (<= (path ?x ?z) (link ?x ?y) (path ?y ?z))
        (<= terminal (true (step 12)))
        (<= (goal builder 100) (path a d))
        (<= (goal builder 0) (not (path a d)))
        (goal watcher 50)";

    #[test]
    fn recursive_groups_shrink_when_the_state_loses_what_they_rest_on() {
        let rules = Arc::new(Rules::new("cuts", CUTS).unwrap());
        let mut rng = Rng::seed_from_u64(5);
        let mut cuts_that_broke_a_path = 0;
        for _ in 0..300 {
            let mut g = Gdl::start(Arc::clone(&rules));
            // the directed edges the state holds, counted directly
            let mut edges: Vec<(char, char)> = Vec::new();
            let joined = |edges: &Vec<(char, char)>| {
                let linked = |x: char, y: char| edges.contains(&(x, y)) || edges.contains(&(y, x));
                linked('a', 'b') && linked('b', 'c') && linked('c', 'd')
            };
            while g.outcome().is_none() {
                // a watcher that may only `noop` is not asked; `shout` is asked
                let shout = g.to_act().second;
                assert_eq!(shout, joined(&edges), "{edges:?}");
                let legal = g.legal_moves(Seat::First);
                let mv = legal[rng.random_range(0..legal.len())].clone();
                let t: Vec<char> = mv.0.chars().filter(|c| c.is_ascii_lowercase()).collect();
                // "(add x y)" or "(cut x y)": the last two letters
                let edge = (t[t.len() - 2], t[t.len() - 1]);
                let before = joined(&edges);
                if mv.0.starts_with("(cut") {
                    edges.retain(|e| *e != edge);
                } else {
                    edges.push(edge);
                }
                cuts_that_broke_a_path += usize::from(before && !joined(&edges));
                let watcher = shout.then(|| g.legal_moves(Seat::Second)[0].clone());
                g.apply(&BySeat::new(Some(mv), watcher));
            }
            let goal = if joined(&edges) { 100 } else { 0 };
            assert_eq!(g.outcome(), Some(BySeat::new(goal, 50)), "{edges:?}");
        }
        // the test saw paths broken, not only built
        assert!(cuts_that_broke_a_path > 50, "{cuts_that_broke_a_path}");
    }
}
