//! Bots for any GDL game beyond `random`: `greedy`, which looks one turn
//! ahead at the goals; `uct`, plain Monte Carlo tree search with random
//! playouts (the baseline `mcts` is measured against); and the catalogue
//! of them with `mcts`, the general game player (mcts.rs).
//!
//! `uct` stops its search at its playout budget or when half its move
//! time is spent ([`TimeLeft::aim`]), whichever comes first: the other half
//! and the referee's margin are room for a loaded machine. Its moves are a
//! function of the seed while the budget runs out first.
//!
//! `uct` is decoupled UCT (each role picks its own move by UCB1 at every
//! node, which covers simultaneous turns as well as alternating ones, where
//! the waiting role has one move): the usual search of General Game Playing
//! programs. A node's statistics are the playouts' goals for each role and
//! move, scaled to 0..1. It keeps no tree between moves, and a state reached
//! by two orders of moves is two nodes; its nodes and UCB1 are `mcts`'s.

use std::time::Instant;

use rand::Rng as _;
use serde::Deserialize;

use super::{mcts::Node, Gdl};
use crate::{
    core::{
        bot::{simple, with_params, Answer, BotError, BotRng, Builtin},
        clock::deadline_after,
    },
    Bot, Seat, TimeLeft,
};

pub const BOTS: &[Builtin<Gdl>] = &[
    Builtin {
        name: "greedy",
        about: "the move whose next state gives it the best goal, averaged over the other's moves",
        make: simple::<Gdl, Greedy>,
    },
    Builtin {
        name: "mcts",
        about:
            "general game player: MCTS with transpositions, MCTS-solver, MAST playouts (`mast` 0.2) and an optional `depth`; `playouts` (1000) a move, 0 for time alone",
        make: super::mcts::make,
    },
    Builtin {
        name: "uct",
        about:
            "plain Monte Carlo tree search (decoupled UCT) with `playouts` (1000) random playouts a move, fewer if half the move time runs out",
        make: |name, params| with_params(name, params, Uct::new),
    },
];

/// Index of `seat`'s role.
fn role(seat: Seat) -> usize {
    seat.index()
}

/// One turn ahead: each legal move scored by the bot's goal in the next
/// state, averaged over the other role's legal moves; ties broken at random.
#[derive(Default)]
pub struct Greedy {
    rng: BotRng,
}

impl Bot<Gdl> for Greedy {
    fn new_game(&mut self, _: &Gdl, _: Seat, seed: u64) -> Result<(), BotError> {
        self.rng.reseed(seed);
        Ok(())
    }

    fn choose(
        &mut self,
        game: &Gdl,
        seat: Seat,
        _: TimeLeft,
    ) -> Result<Answer<super::GdlMove>, BotError> {
        let me = role(seat);
        let mine = game.legal_indices(me);
        let theirs = game.legal_indices(1 - me);
        let mut best: Vec<usize> = Vec::new();
        let mut best_score = f64::MIN;
        for &m in &mine {
            let mut total = 0.0;
            for &t in &theirs {
                let mut next = game.clone();
                let mut chosen = [0; 2];
                chosen[me] = m;
                chosen[1 - me] = t;
                next.advance(&chosen);
                total += f64::from(next.goals()[me]);
            }
            let score = total / theirs.len().max(1) as f64;
            if score > best_score + 1e-9 {
                best_score = score;
                best.clear();
            }
            if (score - best_score).abs() <= 1e-9 {
                best.push(m);
            }
        }
        let pick = best[self.rng.random_range(0..best.len())];
        Ok(Answer::from(game.move_of(me, pick)))
    }
}

/// The parameters of `uct`.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UctParams {
    /// Random playouts per move.
    pub playouts: u32,
    /// The UCB1 exploration constant.
    pub exploration: f64,
}

impl Default for UctParams {
    fn default() -> Self {
        UctParams {
            playouts: 1000,
            exploration: 1.4,
        }
    }
}

/// Decoupled UCT with a playout budget.
pub struct Uct {
    params: UctParams,
    rng: BotRng,
}

impl Uct {
    pub fn new(params: &UctParams) -> Uct {
        Uct {
            params: params.clone(),
            rng: BotRng::default(),
        }
    }

    /// One descent from the root, a playout, and the values backed up.
    fn iterate(&mut self, tree: &mut Vec<Node>, root: &Gdl) {
        let mut g = root.clone();
        let mut path: Vec<(usize, [usize; 2])> = Vec::new();
        let mut at = 0;
        let goals = loop {
            if g.over() {
                break g.goals();
            }
            let c = self.params.exploration;
            let picks = [0, 1].map(|r| tree[at].ucb1(r, c, |_| true, &mut *self.rng));
            path.push((at, picks));
            let chosen = [tree[at].moves[0][picks[0]], tree[at].moves[1][picks[1]]];
            g.advance(&chosen);
            let joint = tree[at].joint(picks);
            match tree[at].children.get(&joint) {
                Some(&child) => at = child as usize,
                None => {
                    let child = tree.len();
                    tree.push(Node::new(&g));
                    tree[at].children.insert(joint, child as u32);
                    break g.random_playout(&mut self.rng, 10_000);
                }
            }
        };
        for (node, picks) in path {
            tree[node].record(picks, scale(goals));
        }
    }
}

/// Goals 0..100 scaled to values 0..1 (`uct` assumes GDL's usual scale).
fn scale(goals: [i32; 2]) -> [f64; 2] {
    goals.map(|v| f64::from(v) / 100.0)
}

impl Bot<Gdl> for Uct {
    fn new_game(&mut self, _: &Gdl, _: Seat, seed: u64) -> Result<(), BotError> {
        self.rng.reseed(seed);
        Ok(())
    }

    fn choose(
        &mut self,
        game: &Gdl,
        seat: Seat,
        time: TimeLeft,
    ) -> Result<Answer<super::GdlMove>, BotError> {
        let me = role(seat);
        let deadline = deadline_after(time.aim());
        let mut tree = vec![Node::new(game)];
        for i in 0..self.params.playouts.max(1) {
            if i > 0 && Instant::now() >= deadline {
                break;
            }
            self.iterate(&mut tree, game);
        }
        // the most visited move
        let root = &tree[0];
        let best = (0..root.moves[me].len())
            .max_by_key(|&i| root.stats[me][i].0)
            .expect("a legal move");
        Ok(Answer::from(game.move_of(me, root.moves[me][best])))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::{core::seat::BySeat, games::gdl::rules::tests::shipped, Game};

    /// Plays `games` tic-tac-toe games of `a` (x) against `b` (o) and back,
    /// returning a's points (1 a win, 1/2 a draw).
    pub fn points(a: &mut dyn Bot<Gdl>, b: &mut dyn Bot<Gdl>, games: u64) -> f64 {
        points_at("tictactoe.kif", a, b, games)
    }

    /// [`points`] at the shipped description `file`.
    pub fn points_at(file: &str, a: &mut dyn Bot<Gdl>, b: &mut dyn Bot<Gdl>, games: u64) -> f64 {
        goals_at(file, a, b, games)
            .iter()
            .map(|&[mine, _]| f64::from(mine) / 100.0)
            .sum()
    }

    /// The goals of `games` games of `a` against `b` at the shipped
    /// description `file`, seats alternating: a's first, then b's.
    pub fn goals_at(
        file: &str,
        a: &mut dyn Bot<Gdl>,
        b: &mut dyn Bot<Gdl>,
        games: u64,
    ) -> Vec<[i32; 2]> {
        let start = shipped(file);
        let mut all = Vec::new();
        for seed in 0..games {
            let a_first = seed % 2 == 0;
            let mut g = start.clone();
            let seat_of_a = if a_first { Seat::First } else { Seat::Second };
            a.new_game(&g, seat_of_a, seed).unwrap();
            b.new_game(&g, seat_of_a.other(), seed + 1000).unwrap();
            while g.outcome().is_none() {
                let acting = g.to_act();
                let moves = BySeat::from_fn(|s| {
                    acting[s].then(|| {
                        let bot: &mut dyn Bot<Gdl> = if s == seat_of_a { &mut *a } else { &mut *b };
                        let time = TimeLeft {
                            budget: std::time::Duration::from_secs(5),
                            limit: std::time::Duration::from_secs(5),
                            on_clock: false,
                        };
                        bot.choose(&g, s, time).unwrap().mv
                    })
                });
                g.apply(&moves);
            }
            let goals = g.outcome().unwrap();
            all.push([goals[seat_of_a], goals[seat_of_a.other()]]);
        }
        all
    }

    #[test]
    fn uct_beats_random_and_greedy_at_tictactoe() {
        let mut uct = Uct::new(&UctParams {
            playouts: 400,
            ..UctParams::default()
        });
        let mut random = crate::core::bot::RandomBot::new();
        let games = 40;
        let vs_random = points(&mut uct, &mut random, games);
        assert!(vs_random > 0.85 * games as f64, "{vs_random} of {games}");
        let mut greedy = Greedy::default();
        let vs_greedy = points(&mut uct, &mut greedy, games);
        assert!(vs_greedy > 0.6 * games as f64, "{vs_greedy} of {games}");
    }

    #[test]
    fn uct_stops_at_half_its_move_time_whatever_its_playout_budget() {
        // a budget no machine plays within 20 ms: only the clock ends the search
        let mut uct = Uct::new(&UctParams {
            playouts: u32::MAX,
            ..UctParams::default()
        });
        let g = shipped("breakthrough.kif");
        uct.new_game(&g, Seat::First, 1).unwrap();
        let time = TimeLeft::new(
            std::time::Duration::from_millis(20),
            std::time::Duration::ZERO,
        );
        let mv = uct.choose(&g, Seat::First, time).unwrap().mv;
        assert!(g.legal_indices(0).iter().any(|&m| g.move_of(0, m) == mv));
    }

    #[test]
    fn greedy_takes_a_winning_move() {
        let mut g = shipped("tictactoe.kif");
        // x: 1 1 and 1 2; o: 2 1 and 2 2; x to move wins with (mark 1 3)
        for (x, o) in [("(mark 1 1)", "(mark 2 1)"), ("(mark 1 2)", "(mark 2 2)")] {
            g.apply(&BySeat::new(Some(super::super::GdlMove(x.into())), None));
            g.apply(&BySeat::new(None, Some(super::super::GdlMove(o.into()))));
        }
        let mut greedy = Greedy::default();
        let time = TimeLeft {
            budget: std::time::Duration::from_secs(5),
            limit: std::time::Duration::from_secs(5),
            on_clock: false,
        };
        let mv = greedy.choose(&g, Seat::First, time).unwrap().mv;
        assert_eq!(mv.0, "(mark 1 3)");
    }
}
