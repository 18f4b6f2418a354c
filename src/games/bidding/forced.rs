//! A forced win against a predicted opponent: `exploit`'s search once it has
//! fitted a rule to the opponent's bids ([`super::model`]).
//!
//! With the opponent's bid known in every state, the game is a puzzle for one
//! player: find bids that reach the goal. The search is depth-first over
//! states (position, money, advantage, and the last round's bids where the
//! rule reads them); a state is won when the solution says it is won for us
//! whatever the opponent does, or when some bid leads to a won state against
//! the predicted bid. Where the rule cannot predict, a state counts as won
//! only if the solution says so.
//!
//! When the rule does not read our last bid, only three of our bids differ:
//! losing the round (any bid below the prediction), tying it (the same bid),
//! and winning it at the least cost (the least bid above); otherwise every
//! bid is tried. Bids may be limited to the ones securing the state's value,
//! which makes a plan safe even when the prediction fails.
//!
//! The search counts the states it expands and gives up past a budget, so
//! its answer depends on the game alone, never on the machine's speed.
//! Results are kept between moves while the rule stays the same.

use std::collections::HashMap;

use super::{
    model::{Fit, View},
    solver::{Solution, State},
    Bidding,
};
use crate::Seat;

/// States one search may expand before it gives up, by default.
pub const BUDGET: u64 = 200_000;

/// A state of the search: the game's state and the last round's bids
/// (ours, theirs), kept only where the rule reads them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Node {
    state: State,
    ours: Option<u32>,
    theirs: Option<u32>,
}

/// Searches against one fitted rule, keeping what it learnt.
pub struct Forced {
    fit: Fit,
    seat: Seat,
    secure_only: bool,
    /// Whether a state is won; only states whose search finished.
    won: HashMap<Node, bool>,
    /// Whether the search ever ran out of budget (then "not won" may be wrong).
    pub gave_up: bool,
    /// States one search may expand.
    pub budget: u64,
}

struct OutOfBudget;

impl Forced {
    pub fn new(fit: Fit, seat: Seat, secure_only: bool) -> Self {
        Forced {
            fit,
            seat,
            secure_only,
            won: HashMap::new(),
            gave_up: false,
            budget: BUDGET,
        }
    }

    /// Whether this search is for `fit`, `seat` and `secure_only`.
    pub fn is_for(&self, fit: &Fit, seat: Seat, secure_only: bool) -> bool {
        self.fit == *fit && self.seat == seat && self.secure_only == secure_only
    }

    /// A first bid of a plan that wins from `state` against the rule, the
    /// last round's bids being `last` (ours, theirs; none in the first
    /// round); `None` if there is none or the budget ran out.
    pub fn plan(
        &mut self,
        solution: &Solution,
        state: State,
        last: Option<(u32, u32)>,
    ) -> Option<u32> {
        let root = self.node(state, last);
        let mut spent = 0;
        let (x, bids) = self.bids(solution, &root)?;
        for b in bids {
            match self.wins(solution, self.after(&root, b, x), &mut spent) {
                Ok(true) => return Some(b),
                Ok(false) => {}
                Err(OutOfBudget) => {
                    self.gave_up = true;
                    return None;
                }
            }
        }
        None
    }

    fn node(&self, state: State, last: Option<(u32, u32)>) -> Node {
        let (own, other) = self.fit.rule.reads_last();
        Node {
            state,
            ours: last.filter(|_| other).map(|l| l.0),
            theirs: last.filter(|_| own).map(|l| l.1),
        }
    }

    /// The node after we bid `b` and they bid `x`.
    fn after(&self, n: &Node, b: u32, x: u32) -> Node {
        let (b1, b2) = match self.seat {
            Seat::First => (b, x),
            Seat::Second => (x, b),
        };
        self.node(Solution::next(&n.state, b1, b2), Some((b, x)))
    }

    /// Their predicted bid and the bids of ours worth trying in `n`.
    fn bids(&self, solution: &Solution, n: &Node) -> Option<(u32, Vec<u32>)> {
        let view = View {
            state: n.state,
            seat: self.seat.other(),
            length: solution.length,
            // (its own, ours); a rule reads one side at most, the other is not kept
            last: match (n.theirs, n.ours) {
                (None, None) => None,
                (t, o) => Some((t.unwrap_or(0), o.unwrap_or(0))),
            },
        };
        let x = self.fit.predict(&view)?;
        let allowed: Vec<u32> = if self.secure_only {
            solution.secure_bids(&n.state, self.seat)
        } else {
            Bidding::bid_range(n.state.money[self.seat]).collect()
        };
        if self.fit.rule.reads_last().1 {
            return Some((x, allowed));
        }
        // win the round, tie it, lose it
        let win = allowed.iter().copied().find(|&b| b > x);
        let tie = allowed.contains(&x).then_some(x);
        let lose = allowed.iter().copied().find(|&b| b < x);
        Some((x, [win, tie, lose].into_iter().flatten().collect()))
    }

    fn wins(&mut self, solution: &Solution, n: Node, spent: &mut u64) -> Result<bool, OutOfBudget> {
        let st = &n.state;
        if st.position == 0 || st.position >= solution.length {
            return Ok((st.position == 0) == (self.seat == Seat::First));
        }
        if st.money.first == 0 && st.money.second == 0 {
            return Ok(false);
        }
        if solution.value(st).for_seat(self.seat) == 1 {
            return Ok(true);
        }
        if let Some(&w) = self.won.get(&n) {
            return Ok(w);
        }
        *spent += 1;
        if *spent > self.budget {
            return Err(OutOfBudget);
        }
        let mut won = false;
        if let Some((x, bids)) = self.bids(solution, &n) {
            for b in bids {
                if self.wins(solution, self.after(&n, b, x), spent)? {
                    won = true;
                    break;
                }
            }
        }
        self.won.insert(n, won);
        Ok(won)
    }
}
