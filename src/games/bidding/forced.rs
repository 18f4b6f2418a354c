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

use std::collections::HashMap;

use super::{
    model::{Fit, View},
    solver::{Solution, State},
    Bidding,
};
use crate::Seat;

/// States one search may expand before it gives up.
pub const BUDGET: u64 = 200_000;

/// A state of the search: the game's state and the last round's bids
/// (ours, theirs), kept only where the rule reads them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Node {
    state: State,
    ours: Option<u32>,
    theirs: Option<u32>,
}

/// A first bid of a plan that wins for `seat` from `state` against `fit`'s
/// predictions, the last round's bids being `last` (ours, theirs; none in
/// the first round), among the secure bids or among all; `None` if there is
/// none or the budget ran out.
pub fn plan(
    fit: &Fit,
    seat: Seat,
    secure_only: bool,
    solution: &Solution,
    state: State,
    last: Option<(u32, u32)>,
) -> Option<u32> {
    let mut search = Search {
        fit,
        seat,
        secure_only,
        solution,
        won: HashMap::new(),
        spent: 0,
    };
    let root = search.node(state, last);
    let (x, bids) = search.bids(&root)?;
    for b in bids {
        match search.wins(search.after(&root, b, x)) {
            Ok(true) => return Some(b),
            Ok(false) => {}
            Err(OutOfBudget) => return None,
        }
    }
    None
}

/// One search against one fitted rule.
struct Search<'a> {
    fit: &'a Fit,
    seat: Seat,
    secure_only: bool,
    solution: &'a Solution,
    /// Whether a state is won; only states whose search finished.
    won: HashMap<Node, bool>,
    /// States expanded so far.
    spent: u64,
}

struct OutOfBudget;

impl Search<'_> {
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
    fn bids(&self, n: &Node) -> Option<(u32, Vec<u32>)> {
        let solution = self.solution;
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

    fn wins(&mut self, n: Node) -> Result<bool, OutOfBudget> {
        let st = &n.state;
        // the solution's value covers the ends too: a bottle at our goal is won
        if self.solution.value(st).for_seat(self.seat) == 1 {
            return Ok(true);
        }
        let over = st.position == 0 || st.position >= self.solution.length;
        if over || (st.money.first == 0 && st.money.second == 0) {
            return Ok(false);
        }
        if let Some(&w) = self.won.get(&n) {
            return Ok(w);
        }
        self.spent += 1;
        if self.spent > BUDGET {
            return Err(OutOfBudget);
        }
        let mut won = false;
        if let Some((x, bids)) = self.bids(&n) {
            for b in bids {
                if self.wins(self.after(&n, b, x))? {
                    won = true;
                    break;
                }
            }
        }
        self.won.insert(n, won);
        Ok(won)
    }
}
