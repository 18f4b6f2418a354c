//! `mcts`, ladder's general game player for any GDL game: the Monte Carlo
//! tree search of the General Game Playing competitions' players
//! (CadiaPlayer, Sancho), with what they add to plain UCT (`uct`, bots.rs).
//!
//! - **Transpositions.** A node is a state, found by its key (the base
//!   propositions that hold), so a position reached by two orders of moves
//!   is searched once. The table lives for the whole game: each move's
//!   search starts from what the searches before found about the position.
//! - **Values.** A simulation's value for a role is its goal divided by the
//!   highest goal the description gives it, so 0..1 whatever the scale
//!   (most descriptions use 0..100; a twin whose goal is a score, such as
//!   troops' 0..30, would otherwise leave UCB1 all exploration).
//! - **MCTS-solver.** A terminal state is proven (its goals). A node where
//!   one role chooses is proven once one of its moves leads to a proven
//!   win for that role (its highest goal), or once all its moves are
//!   proven: the role takes its best goal, and among equal goals the one
//!   worst for the other role (ladder treats the other role as an
//!   opponent). A node where both roles choose is proven when all its
//!   joint moves are proven alike. A proven
//!   node backs up its goals instead of a playout; at a node where one role
//!   chooses, a move proven to give it 0 is not tried while another is
//!   open; a proven best move is played.
//! - **MAST** (move-average sampling). Each role's moves keep the average
//!   goal of the simulations that played them, over the whole game. A
//!   playout plays the best of these with probability `mast` (a move never
//!   played counts as a win), else a uniformly random legal move.
//! - **Depth-limited playouts.** With `depth = N`, a playout stops after N
//!   turns and counts the goals of the state it stopped in; when both are 0
//!   there (descriptions that define goals only at the end), as a draw.
//! - **Time.** The search stops after `playouts` iterations or when half the
//!   move time is spent ([`TimeLeft::aim`]), whichever comes first; the other
//!   half and the referee's margin are room for a loaded machine. With
//!   `playouts = 0` it plays on time alone, as GGP players do; its moves
//!   then depend on the machine's speed, so a season's journal is no longer
//!   reproducible. With a playout budget, moves are a function of the seed
//!   and the game so far while the budget runs out first.
//!
//! Selection is decoupled UCT, as in `uct`: each role picks by UCB1 among
//! its own moves' statistics at the node, which covers simultaneous turns
//! as well as alternating ones, where the waiting role has one move.

use std::{collections::HashMap, time::Instant};

use rand::Rng as _;
use serde::Deserialize;

use super::Gdl;
use crate::{
    core::{
        bot::{bot_params, Answer, BotError, BotFactory, BotRng},
        clock::deadline_after,
        error::Invalid,
    },
    Bot, Seat, TimeLeft,
};

/// The parameters of `mcts`.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MctsParams {
    /// Iterations (descent and playout) per move; 0: until the time aim.
    pub playouts: u32,
    /// The UCB1 exploration constant, on values 0..1 (goal over highest goal).
    pub exploration: f64,
    /// The share of playout moves chosen by MAST (0..1); 0: random playouts.
    pub mast: f64,
    /// Turns a playout plays before it stops and counts the goals; 0: to the end.
    pub depth: u32,
    /// Whether proven values propagate (MCTS-solver).
    pub solver: bool,
}

impl Default for MctsParams {
    fn default() -> Self {
        MctsParams {
            playouts: 1000,
            exploration: 0.85,
            mast: 0.2,
            depth: 0,
            solver: true,
        }
    }
}

/// Makes `mcts` from its parameters, refusing values that mean nothing.
pub fn make(name: &str, params: &toml::Table) -> Result<BotFactory<Gdl>, Invalid> {
    let p: MctsParams = bot_params(name, params)?;
    if !(0.0..=1.0).contains(&p.mast) {
        return Err(Invalid::of(
            "mast",
            format!(
                "bot `{name}`: `mast` is a share, from 0 to 1, not {}",
                p.mast
            ),
        ));
    }
    if !(p.exploration >= 0.0 && p.exploration.is_finite()) {
        return Err(Invalid::of(
            "exploration",
            format!(
                "bot `{name}`: `exploration` is a number of at least 0, not {}",
                p.exploration
            ),
        ));
    }
    Ok(std::sync::Arc::new(move || Box::new(Mcts::new(&p))))
}

/// Nodes the table holds at most; past half of it, a new move's search
/// starts from an empty table, and a search that fills it plays out from
/// new states without keeping them.
const MAX_NODES: usize = 1_000_000;
/// The longest playout, in turns (descriptions without a step limit).
const MAX_TURNS: u32 = 10_000;
/// The deepest descent through the table (transpositions can loop).
const MAX_DESCENT: usize = 1_000;
/// No node (the table is full).
const NONE: u32 = u32::MAX;

/// A state in the table: per role, its legal moves and their visits and
/// total value; children by joint move; the goals, once proven. `uct`'s
/// tree is made of them too (never proven but at the end).
pub(super) struct Node {
    pub moves: [Vec<usize>; 2],
    pub stats: [Vec<(u32, f64)>; 2],
    pub visits: u32,
    /// Child by joint move `picks[0] * moves[1].len() + picks[1]`.
    pub children: HashMap<u32, u32>,
    pub proven: Option<[i32; 2]>,
}

impl Node {
    pub fn new(g: &Gdl) -> Node {
        if g.over() {
            return Node {
                moves: [Vec::new(), Vec::new()],
                stats: [Vec::new(), Vec::new()],
                visits: 0,
                children: HashMap::new(),
                proven: Some(g.goals()),
            };
        }
        let moves = [g.legal_indices(0), g.legal_indices(1)];
        let stats = [
            vec![(0, 0.0); moves[0].len()],
            vec![(0, 0.0); moves[1].len()],
        ];
        Node {
            moves,
            stats,
            visits: 0,
            children: HashMap::new(),
            proven: None,
        }
    }

    pub fn joint(&self, picks: [usize; 2]) -> u32 {
        (picks[0] * self.moves[1].len() + picks[1]) as u32
    }

    /// UCB1's choice for role `r` among the moves `open` lets through (an
    /// index into them): a move never tried, else the highest mean plus
    /// `exploration` times the root of ln(visits here) over its visits.
    /// Ties go to a random one of the tied moves: with a fixed order, two
    /// roles choosing at once from alike statistics (a symmetric game such
    /// as Blotto) would pick the same index together every time, and only
    /// ever see those pairs.
    pub fn ucb1(
        &self,
        r: usize,
        exploration: f64,
        open: impl Fn(usize) -> bool,
        rng: &mut impl rand::Rng,
    ) -> usize {
        let stats = &self.stats[r];
        let ln = f64::from(self.visits.max(1)).ln();
        let mut best = usize::MAX;
        let mut best_value = f64::MIN;
        let mut ties = 0;
        for i in (0..stats.len()).filter(|&i| open(i)) {
            let (visits, total) = stats[i];
            let value = if visits == 0 {
                f64::INFINITY
            } else {
                let visits = f64::from(visits);
                total / visits + exploration * (ln / visits).sqrt()
            };
            if value > best_value {
                (best, best_value, ties) = (i, value, 1);
            } else if value == best_value {
                // each of the tied moves is kept with equal chance
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    best = i;
                }
            }
        }
        assert!(best != usize::MAX, "an open move");
        best
    }

    /// One simulation through joint move `picks` that ended in `value`.
    pub fn record(&mut self, picks: [usize; 2], value: [f64; 2]) {
        self.visits += 1;
        for (r, stats) in self.stats.iter_mut().enumerate() {
            stats[picks[r]].0 += 1;
            stats[picks[r]].1 += value[r];
        }
    }

    /// The role that chooses when only one does (0 when neither does).
    fn chooser(&self) -> Option<usize> {
        match (self.moves[0].len() > 1, self.moves[1].len() > 1) {
            (true, true) => None,
            (false, true) => Some(1),
            _ => Some(0),
        }
    }
}

/// The joint move where role `r` plays its `i`th move and the other role
/// its only one.
fn alone(r: usize, i: usize) -> [usize; 2] {
    if r == 0 {
        [i, 0]
    } else {
        [0, i]
    }
}

/// The proven goals after `at`'s joint move `picks`, if known.
fn proven_child(nodes: &[Node], at: u32, picks: [usize; 2]) -> Option<[i32; 2]> {
    let n = &nodes[at as usize];
    let c = *n.children.get(&n.joint(picks))?;
    nodes[c as usize].proven
}

/// Whether role `r`'s `i`th move at `at` is proven (with the solver on) to
/// give it 0 while it alone chooses there.
fn proven_loss(nodes: &[Node], solver: bool, at: u32, r: usize, i: usize) -> bool {
    solver
        && nodes[at as usize].chooser() == Some(r)
        && proven_child(nodes, at, alone(r, i)).is_some_and(|v| v[r] <= 0)
}

/// Whether `v` is better than `best` for role `r`: a higher goal, or an
/// equal one that is lower for the other role.
fn better(v: [i32; 2], best: Option<[i32; 2]>, r: usize) -> bool {
    best.is_none_or(|b| v[r] > b[r] || (v[r] == b[r] && v[1 - r] < b[1 - r]))
}

/// The general game player (see the module's documentation).
pub struct Mcts {
    params: MctsParams,
    rng: BotRng,
    nodes: Vec<Node>,
    table: HashMap<Box<[u64]>, u32>,
    /// Per role, per move number (`Gdl::move_id`): the simulations' total
    /// value and count (none yet past the end).
    mast: [Vec<(f64, u32)>; 2],
    /// Whether a game was started (`new_game`, or a first move without it).
    started: bool,
    /// This simulation's moves of roles that had a choice, by number.
    played: [Vec<usize>; 2],
    legal: Vec<usize>,
    /// Each role's highest goal in the game being played.
    top: [i32; 2],
}

impl Mcts {
    pub fn new(params: &MctsParams) -> Mcts {
        Mcts {
            params: params.clone(),
            rng: BotRng::default(),
            nodes: Vec::new(),
            table: HashMap::new(),
            mast: [Vec::new(), Vec::new()],
            started: false,
            played: [Vec::new(), Vec::new()],
            legal: Vec::new(),
            top: [100; 2],
        }
    }

    /// A new game's empty table and MAST averages, one per move of each role.
    fn start(&mut self, game: &Gdl) {
        self.nodes.clear();
        self.table.clear();
        self.mast = [Vec::new(), Vec::new()];
        self.started = true;
        self.top = [0, 1].map(|r| game.goal_max(r));
    }

    /// Goals as values 0..1: each over its role's highest goal (1/2 for a
    /// role that can only get 0).
    fn value(&self, goals: [i32; 2]) -> [f64; 2] {
        [0, 1].map(|r| match self.top[r] {
            0 => 0.5,
            top => f64::from(goals[r]) / f64::from(top),
        })
    }

    /// Whether `goals` give role `r` its highest goal.
    fn won(&self, goals: [i32; 2], r: usize) -> bool {
        self.top[r] > 0 && goals[r] >= self.top[r]
    }

    /// The nodes in the table (for tests).
    pub fn table_size(&self) -> usize {
        self.nodes.len()
    }

    /// `g`'s node, and whether it is new; [`NONE`] when the table is full.
    fn node_of(&mut self, g: &Gdl) -> (u32, bool) {
        let key = g.key();
        if let Some(&id) = self.table.get(&key) {
            return (id, false);
        }
        if self.nodes.len() >= MAX_NODES {
            return (NONE, false);
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(Node::new(g));
        self.table.insert(key, id);
        (id, true)
    }

    /// The child of `at` after joint move `picks` (played in `g` already)
    /// if it is known, else whether it had to be made.
    fn child(&mut self, at: u32, picks: [usize; 2], g: &Gdl) -> (u32, bool) {
        let joint = self.nodes[at as usize].joint(picks);
        if let Some(&c) = self.nodes[at as usize].children.get(&joint) {
            return (c, false);
        }
        let (c, new) = self.node_of(g);
        if c != NONE {
            self.nodes[at as usize].children.insert(joint, c);
        }
        (c, new)
    }

    /// UCB1's choice among `at`'s moves for role `r` (an index into them).
    fn select(&mut self, at: u32, r: usize) -> usize {
        let (nodes, solver) = (&self.nodes, self.params.solver);
        let node = &nodes[at as usize];
        let n = node.stats[r].len();
        if n == 1 {
            return 0;
        }
        // proven losses are left out while another move is open
        let lost = |i| proven_loss(nodes, solver, at, r, i);
        let all_lost = (0..n).all(lost);
        node.ucb1(
            r,
            self.params.exploration,
            |i| all_lost || !lost(i),
            &mut self.rng,
        )
    }

    /// Proves `at` if what is known of its children allows (the rules in
    /// the module's documentation).
    fn try_prove(&mut self, at: u32) {
        let node = &self.nodes[at as usize];
        if node.proven.is_some() {
            return;
        }
        let proven = match node.chooser() {
            Some(r) => {
                let mut best = None;
                let mut all = true;
                for i in 0..node.moves[r].len() {
                    match proven_child(&self.nodes, at, alone(r, i)) {
                        Some(v) if self.won(v, r) => {
                            best = Some(v);
                            break;
                        }
                        Some(v) => {
                            if better(v, best, r) {
                                best = Some(v);
                            }
                        }
                        None => all = false,
                    }
                }
                best.filter(|&v| all || self.won(v, r))
            }
            None => {
                let first = proven_child(&self.nodes, at, [0, 0]);
                let alike = (0..node.moves[0].len()).all(|i| {
                    (0..node.moves[1].len()).all(|j| {
                        let v = proven_child(&self.nodes, at, [i, j]);
                        v.is_some() && v == first
                    })
                });
                first.filter(|_| alike)
            }
        };
        self.nodes[at as usize].proven = proven;
    }

    /// One role's playout move among `self.legal` (two or more).
    fn playout_move(&mut self, g: &Gdl, r: usize) -> usize {
        let n = self.legal.len();
        if self.params.mast > 0.0 && self.rng.random::<f64>() < self.params.mast {
            // the best MAST average; ties go to the first from a random start
            let start = self.rng.random_range(0..n);
            let mut best = self.legal[start];
            let mut best_value = f64::MIN;
            for k in 0..n {
                let m = self.legal[(start + k) % n];
                let (total, count) = self.mast[r]
                    .get(g.move_id(r, m))
                    .copied()
                    .unwrap_or_default();
                let value = if count == 0 {
                    1.0
                } else {
                    total / f64::from(count)
                };
                if value > best_value {
                    best_value = value;
                    best = m;
                }
            }
            best
        } else {
            self.legal[self.rng.random_range(0..n)]
        }
    }

    /// Plays `g` on by the playout policy; the values where it stops.
    fn playout(&mut self, g: &mut Gdl) -> [f64; 2] {
        for turn in 0..MAX_TURNS {
            if g.terminal() {
                break;
            }
            if self.params.depth > 0 && turn >= self.params.depth {
                let goals = g.goals();
                return if goals == [0, 0] {
                    [0.5, 0.5]
                } else {
                    self.value(goals)
                };
            }
            let mut chosen = [0; 2];
            for (r, pick) in chosen.iter_mut().enumerate() {
                g.legal_into(r, &mut self.legal);
                *pick = match self.legal.len() {
                    0 => return self.value(g.goals()),
                    1 => self.legal[0],
                    _ => {
                        let m = self.playout_move(g, r);
                        self.played[r].push(g.move_id(r, m));
                        m
                    }
                };
            }
            g.advance(&chosen);
        }
        self.value(g.goals())
    }

    /// One descent from `root` (the node of `start`), a playout, and the
    /// values backed up: into the nodes passed, MAST, and proofs.
    fn iterate(&mut self, root: u32, start: &Gdl) {
        let mut g = start.clone();
        let mut path: Vec<(u32, [usize; 2])> = Vec::new();
        self.played.iter_mut().for_each(Vec::clear);
        let mut at = root;
        let value = loop {
            if let Some(goals) = self.nodes[at as usize].proven {
                break self.value(goals);
            }
            if path.len() >= MAX_DESCENT {
                break self.playout(&mut g);
            }
            let picks = [self.select(at, 0), self.select(at, 1)];
            path.push((at, picks));
            let node = &self.nodes[at as usize];
            let chosen = [node.moves[0][picks[0]], node.moves[1][picks[1]]];
            for (r, played) in self.played.iter_mut().enumerate() {
                if node.moves[r].len() > 1 {
                    played.push(g.move_id(r, chosen[r]));
                }
            }
            g.advance(&chosen);
            let (child, new) = self.child(at, picks, &g);
            if child == NONE {
                break self.playout(&mut g);
            }
            at = child;
            if new && self.nodes[at as usize].proven.is_none() {
                break self.playout(&mut g);
            }
        };
        let mut proving = self.params.solver && self.nodes[at as usize].proven.is_some();
        for &(id, picks) in path.iter().rev() {
            self.nodes[id as usize].record(picks, value);
            if proving {
                self.try_prove(id);
                proving = self.nodes[id as usize].proven.is_some();
            }
        }
        for ((mast, played), value) in self.mast.iter_mut().zip(&self.played).zip(value) {
            for &m in played {
                if m >= mast.len() {
                    mast.resize(m + 1, (0.0, 0));
                }
                mast[m].0 += value;
                mast[m].1 += 1;
            }
        }
    }

    /// The move (an index into the root's moves of role `me`) to play.
    fn best(&self, root: u32, me: usize) -> usize {
        let node = &self.nodes[root as usize];
        let n = node.moves[me].len();
        let solo = self.params.solver && node.chooser() == Some(me);
        let proven = |i| {
            solo.then(|| proven_child(&self.nodes, root, alone(me, i)))
                .flatten()
        };
        // a proven win is played at once
        if let Some(i) = (0..n).find(|&i| proven(i).is_some_and(|v| self.won(v, me))) {
            return i;
        }
        // moves proven worse than another proven one are left out, and proven
        // losses while a move is open; among the others (all of them when
        // every move is a proven loss, against an opponent that may not
        // find its win), the most visited
        let open = (0..n).any(|i| proven(i).is_none());
        let floor = (0..n)
            .filter_map(|i| proven(i).map(|v| v[me]))
            .chain(open.then_some(1))
            .max()
            .unwrap_or(0);
        let kept: Vec<usize> = (0..n)
            .filter(|&i| proven(i).is_none_or(|v| v[me] >= floor))
            .collect();
        let choices = if kept.is_empty() {
            (0..n).collect()
        } else {
            kept
        };
        // the most visited; among equally visited, the best mean
        let rank = |i: usize| {
            let (visits, total) = node.stats[me][i];
            let mean = if visits == 0 {
                f64::MIN
            } else {
                total / f64::from(visits)
            };
            (visits, mean)
        };
        *choices
            .iter()
            .rev()
            .max_by(|&&a, &&b| {
                let (a, b) = (rank(a), rank(b));
                a.0.cmp(&b.0).then(a.1.total_cmp(&b.1))
            })
            .expect("a legal move")
    }
}

impl Bot<Gdl> for Mcts {
    fn new_game(&mut self, game: &Gdl, _: Seat, seed: u64) -> Result<(), BotError> {
        self.rng.reseed(seed);
        self.start(game);
        Ok(())
    }

    fn choose(
        &mut self,
        game: &Gdl,
        seat: Seat,
        time: TimeLeft,
    ) -> Result<Answer<super::GdlMove>, BotError> {
        let me = seat.index();
        let deadline = deadline_after(time.aim());
        if !self.started {
            // a first move without new_game
            self.start(game);
        }
        if self.nodes.len() > MAX_NODES / 2 {
            self.nodes.clear();
            self.table.clear();
        }
        // at most half full: the root always finds room
        let (root, _) = self.node_of(game);
        let budget = match self.params.playouts {
            0 => u32::MAX,
            n => n,
        };
        for i in 0..budget {
            if i > 0 && Instant::now() >= deadline {
                break;
            }
            // proven (only the solver proves a root): nothing left to learn
            if self.nodes[root as usize].proven.is_some() {
                break;
            }
            self.iterate(root, game);
        }
        let node = &self.nodes[root as usize];
        let m = node.moves[me][self.best(root, me)];
        Ok(Answer::from(game.move_of(me, m)))
    }
}

#[cfg(test)]
mod tests {
    use std::{collections::HashSet, time::Duration};

    use super::*;
    use crate::{
        core::seat::BySeat,
        games::gdl::{
            bots::tests::{goals_at, points},
            rules::tests::shipped,
            GdlMove, Uct, UctParams,
        },
        Game,
    };

    fn with(playouts: u32) -> Mcts {
        Mcts::new(&MctsParams {
            playouts,
            ..MctsParams::default()
        })
    }

    fn time() -> TimeLeft {
        TimeLeft {
            budget: Duration::from_secs(60),
            limit: Duration::from_secs(60),
            on_clock: false,
        }
    }

    /// Tic-tac-toe after `moves`, x and o in turn.
    fn tictactoe(moves: &[&str]) -> Gdl {
        let mut g = shipped("tictactoe.kif");
        for (i, m) in moves.iter().enumerate() {
            let mv = Some(GdlMove(m.to_string()));
            g.apply(&if i % 2 == 0 {
                BySeat::new(mv, None)
            } else {
                BySeat::new(None, mv)
            });
        }
        g
    }

    fn choice(bot: &mut Mcts, g: &Gdl, seat: Seat) -> String {
        bot.new_game(g, seat, 3).unwrap();
        bot.choose(g, seat, time()).unwrap().mv.0
    }

    #[test]
    fn the_solver_plays_a_win_in_one_with_one_visit_a_move() {
        // x: 1 1 and 1 2; o: 2 1 and 2 2; x wins with (mark 1 3)
        let g = tictactoe(&["(mark 1 1)", "(mark 2 1)", "(mark 1 2)", "(mark 2 2)"]);
        let moves = g.legal_indices(0).len() as u32;
        assert_eq!(choice(&mut with(moves), &g, Seat::First), "(mark 1 3)");
    }

    #[test]
    fn the_solver_blocks_a_threat_it_has_proven() {
        // x: 1 1, 3 3; o: 2 2 and 1 2 threatens 3 2; x must block there
        let g = tictactoe(&["(mark 1 1)", "(mark 2 2)", "(mark 3 3)", "(mark 1 2)"]);
        let mut bot = with(200);
        assert_eq!(choice(&mut bot, &g, Seat::First), "(mark 3 2)");
        let root = bot.table[&g.key()];
        // every other move is proven to lose
        let node = &bot.nodes[root as usize];
        let lost = (0..node.moves[0].len())
            .filter(|&i| proven_loss(&bot.nodes, true, root, 0, i))
            .count();
        assert_eq!(lost, node.moves[0].len() - 1);
    }

    #[test]
    fn a_proven_draw_ends_the_search_and_the_whole_game_is_proven_from_the_start() {
        // with enough playouts the solver proves tic-tac-toe a draw
        let g = shipped("tictactoe.kif");
        let mut bot = with(2_000_000);
        choice(&mut bot, &g, Seat::First);
        let root = bot.table[&g.key()];
        assert_eq!(bot.nodes[root as usize].proven, Some([50, 50]));
        // transpositions: tic-tac-toe has 5,478 legal positions, fewer
        // than its 549,946 move sequences
        assert!(bot.table_size() <= 5_478, "{}", bot.table_size());
    }

    #[test]
    fn mcts_never_loses_at_tictactoe_and_beats_random() {
        let mut mcts = with(1000);
        let mut uct = Uct::new(&UctParams {
            playouts: 1000,
            ..UctParams::default()
        });
        let games = 20;
        // points 1 a win, 1/2 a draw: never losing is at least a half each
        let mut random = crate::core::bot::RandomBot::new();
        assert!(points(&mut mcts, &mut random, games) >= 0.9 * games as f64);
        assert!(points(&mut mcts, &mut uct, games) >= 0.5 * games as f64);
    }

    #[test]
    fn ucb1_breaks_ties_at_random() {
        // a node of troops' first round: 66 splits a role, none tried yet
        let g = shipped("troops.kif");
        let node = Node::new(&g);
        let mut rng = BotRng::default();
        let mut seen = HashSet::new();
        for _ in 0..200 {
            seen.insert(node.ucb1(0, 1.0, |_| true, &mut *rng));
        }
        assert!(seen.len() > 30, "{} moves of 66", seen.len());
        // moves left out are never chosen, tied or not
        let pick = node.ucb1(0, 1.0, |i| i == 7, &mut *rng);
        assert_eq!(pick, 7);
    }

    #[test]
    fn search_beats_random_at_a_symmetric_game_where_both_choose_at_once() {
        // troops (Blotto): with ties broken by index, both roles tried
        // their moves in the same order together, saw only tied rounds,
        // and played (split 0 0 10) at the end: mcts took 13.5 of these 40
        // games from random, uct 15.5; now 27.5 and 27
        let wins = |goals: Vec<[i32; 2]>| {
            goals
                .iter()
                .map(|&[a, b]| match a.cmp(&b) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                })
                .sum::<f64>()
        };
        let games = 40;
        let mut random = crate::core::bot::RandomBot::new();
        let mcts = wins(goals_at("troops.kif", &mut with(1000), &mut random, games));
        let mut uct = Uct::new(&UctParams::default());
        let uct = wins(goals_at("troops.kif", &mut uct, &mut random, games));
        assert!(mcts > 0.6 * games as f64, "mcts {mcts} of {games}");
        assert!(uct > 0.6 * games as f64, "uct {uct} of {games}");
    }
}
