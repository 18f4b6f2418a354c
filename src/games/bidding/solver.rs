//! The exact solution of the bidding game: for every state, whether player 1
//! can force a win, player 2 can, or each can only secure a draw, and which
//! bids secure that value.
//!
//! Every round that does not end the game lowers the total money (the winner
//! of a bid pays at least 1), so states are solved by increasing total money,
//! each from states already solved (backward induction). A round is a
//! simultaneous-move matrix game, but a cheap one: when player 1 bids more,
//! the next state depends only on player 1's bid; when player 2 bids more,
//! only on player 2's; a tie only on the bid. So each row's minimum and each
//! column's maximum come from running extremes in O(money), with no matrix.
//!
//! The solver checks in every state that the best pure bid of each player
//! secures the same value (max-min equals min-max): then pure bids suffice and
//! no state needs a mixed strategy. This holds for every setting tried: the
//! test suite checks budgets 1 to 60 and 100 on a line of 10 and 30 on lines
//! of 2, 3, 6 and 15, and a sweep run by hand (`determinacy_sweep`) every
//! line from 2 to 20 with budgets 1 to 60, and budgets up to 200 on a line of
//! 10. So no matrix game needs a mixed solution. A setting where it failed
//! would be reported by [`Solution::is_determined`] (and `ladder solve`);
//! the `optimal` bot then refuses to play it rather than play unsafe bids.

use std::sync::Arc;

use super::{Bidding, BiddingParams};
use crate::{
    core::seat::{BySeat, Seat},
    games::cache::Cache,
};

/// The most money per player [`Solution::solve`] is asked to solve for
/// (`ladder solve bidding --money`, the `optimal` and `exploit` bots): its
/// time grows with the square of the money, about 0.8 s at 1000 and 20 s at
/// 5000, so a budget of a million would take weeks.
pub const MOST_MONEY: u32 = 5000;

/// Who wins a state with best play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Value {
    /// Player 2 can force a win.
    Player2Wins,
    /// Each player can secure a draw, neither a win.
    Draw,
    /// Player 1 can force a win.
    Player1Wins,
}

impl Value {
    fn from_i8(v: i8) -> Value {
        match v {
            1 => Value::Player1Wins,
            -1 => Value::Player2Wins,
            _ => Value::Draw,
        }
    }

    /// The value as `seat` sees it: 1 won, 0 drawn, -1 lost.
    pub fn for_seat(self, seat: Seat) -> i8 {
        let v = match self {
            Value::Player1Wins => 1,
            Value::Draw => 0,
            Value::Player2Wins => -1,
        };
        if seat == Seat::First {
            v
        } else {
            -v
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Value::Player1Wins => "player 1 wins",
            Value::Player2Wins => "player 2 wins",
            Value::Draw => "draw",
        })
    }
}

/// A bidding state: where the bottle is, both players' money, who wins a tie.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub position: u32,
    pub money: BySeat<u32>,
    pub advantage: Seat,
}

impl State {
    /// The same state with player 2 holding `m2`.
    fn with_money2(self, m2: u32) -> State {
        State {
            money: BySeat::new(self.money.first, m2),
            ..self
        }
    }
}

impl From<&Bidding> for State {
    fn from(g: &Bidding) -> Self {
        State {
            position: g.position,
            money: g.money,
            advantage: g.advantage,
        }
    }
}

/// Every state that is not over (the bottle between the ends, some money
/// left), in an order where each comes after every state a round can lead to:
/// by increasing total money.
pub fn states_by_total_money(max_money: BySeat<u32>, length: u32) -> impl Iterator<Item = State> {
    (1..=max_money.first + max_money.second).flat_map(move |total| {
        let m1s = total.saturating_sub(max_money.second)..=total.min(max_money.first);
        m1s.flat_map(move |m1| {
            (1..length).flat_map(move |position| {
                Seat::ALL.into_iter().map(move |advantage| State {
                    position,
                    money: BySeat::new(m1, total - m1),
                    advantage,
                })
            })
        })
    })
}

/// The solved game for budgets up to `max_money` per player and a line of `length`.
pub struct Solution {
    pub max_money: BySeat<u32>,
    pub length: u32,
    values: Values,
    determined: bool,
}

/// How a solution stores its values.
enum Values {
    /// Value from player 1's side (1 win, 0 draw, -1 loss) of every state,
    /// indexed by `index` (the exhaustive solver's table).
    Table(Vec<i8>),
    /// Per (advantage, position, player 2's money), indexed by
    /// `threshold_index`: the least money with which player 1 draws, and
    /// the least with which it wins (`max_money.first + 1`: never).
    Thresholds { draw: Vec<u32>, win: Vec<u32> },
}

/// The legal bids of a player holding `money`.
fn bids(money: u32) -> std::ops::RangeInclusive<u32> {
    if money == 0 {
        0..=0
    } else {
        1..=money
    }
}

impl Solution {
    /// Solves every state with `position` in `0..=length` and money up to
    /// `max_money` for each player, by thresholds.
    ///
    /// Money never hurts its holder: a player who wins (or draws) with `m`
    /// also does with `m + 1`, since it can bid as if it had `m` (Develin and
    /// Payne, "Discrete bidding games", 2010, on Richman games). So for each
    /// advantage, position and player 2's money, player 1's value steps up
    /// from loss to draw to win at two thresholds of its own money, and the
    /// thresholds only grow with player 2's money. The solver finds them by
    /// walking player 1's money up from the previous thresholds, evaluating
    /// O(money) states per (advantage, position) instead of every one of the
    /// O(money²): 1000 against 1000 in well under a second. Player 2's
    /// money is taken in increasing order and positions upward, so every
    /// state a round leads to is known before it is needed (player 1
    /// outbids: one position down, same money for player 2; player 2
    /// outbids: less money for player 2).
    ///
    /// [`Solution::solve_exhaustive`] solves every state instead; the tests
    /// check the two agree on every budget up to 100 and on sampled states
    /// up to 300, which is also a check of the monotonicity used here.
    pub fn solve(max_money: BySeat<u32>, length: u32) -> Solution {
        let (m1_max, m2_max) = (max_money.first, max_money.second);
        let rows = 2 * (length as usize + 1) * (m2_max as usize + 1);
        let mut s = Solution {
            max_money,
            length,
            values: Values::Thresholds {
                draw: vec![0; rows],
                win: vec![m1_max + 1; rows],
            },
            determined: true,
        };
        for m2 in 0..=m2_max {
            for position in 1..length {
                for advantage in Seat::ALL {
                    let at = |m1: u32| State {
                        position,
                        money: BySeat::new(m1, m2),
                        advantage,
                    };
                    // the thresholds for one less money of player 2 bound these from below
                    let (mut draw, mut win) = if m2 == 0 {
                        (0, 0)
                    } else {
                        s.thresholds(&at(0).with_money2(m2 - 1))
                    };
                    while draw <= m1_max && !s.reaches(&at(draw), 0) {
                        draw += 1;
                    }
                    win = win.max(draw);
                    while win <= m1_max && !s.reaches(&at(win), 1) {
                        win += 1;
                    }
                    let i = s.threshold_index(&at(0));
                    if let Values::Thresholds { draw: d, win: w } = &mut s.values {
                        d[i] = draw;
                        w[i] = win;
                    }
                }
            }
        }
        s
    }

    /// Solves every state one by one, by increasing total money: the
    /// reference the threshold solver is tested against (cubic in the money).
    pub fn solve_exhaustive(max_money: BySeat<u32>, length: u32) -> Solution {
        let (w1, w2) = (max_money.first as usize + 1, max_money.second as usize + 1);
        let mut s = Solution {
            max_money,
            length,
            values: Values::Table(vec![0; 2 * (length as usize + 1) * w1 * w2]),
            determined: true,
        };
        for state in states_by_total_money(max_money, length) {
            let (lower, upper) = s.bounds(&state);
            if lower != upper {
                s.determined = false;
            }
            let i = s.index(&state);
            if let Values::Table(values) = &mut s.values {
                values[i] = lower;
            }
        }
        s
    }

    /// Whether player 1 secures at least `target` in a state not yet
    /// stored, from the states a round leads to; records a state that pure
    /// bids do not settle. Each walk stops at its first decisive bid.
    fn reaches(&mut self, st: &State, target: i8) -> bool {
        if st.money.first == 0 && st.money.second == 0 {
            return target <= 0;
        }
        // max-min >= target: some bid of player 1 holds target against every answer
        let mut lower = false;
        self.walk_rows(st, |_, worst| {
            lower = worst >= target;
            !lower
        });
        // min-max >= target: no bid of player 2 holds player 1 below it
        let mut upper = true;
        self.walk_columns(st, |_, best| {
            upper = best >= target;
            upper
        });
        if lower != upper {
            self.determined = false;
        }
        lower
    }

    fn threshold_index(&self, st: &State) -> usize {
        let w2 = self.max_money.second as usize + 1;
        (st.advantage.index() * (self.length as usize + 1) + st.position as usize) * w2
            + st.money.second as usize
    }

    /// The (draw, win) thresholds of player 1's money for `st`'s advantage,
    /// position and player 2's money (threshold solutions only).
    fn thresholds(&self, st: &State) -> (u32, u32) {
        match &self.values {
            Values::Thresholds { draw, win } => {
                let i = self.threshold_index(st);
                (draw[i], win[i])
            }
            Values::Table(_) => unreachable!("only the threshold solver asks"),
        }
    }

    /// Whether pure bids secure every state's value (max-min equals min-max everywhere).
    pub fn is_determined(&self) -> bool {
        self.determined
    }

    fn index(&self, st: &State) -> usize {
        let w1 = self.max_money.first as usize + 1;
        let w2 = self.max_money.second as usize + 1;
        let adv = st.advantage.index();
        ((adv * (self.length as usize + 1) + st.position as usize) * w1 + st.money.first as usize)
            * w2
            + st.money.second as usize
    }

    /// The value of `st` from player 1's side, terminal states included.
    fn v(&self, st: &State) -> i8 {
        if st.position == 0 {
            1
        } else if st.position >= self.length {
            -1
        } else if st.money.first == 0 && st.money.second == 0 {
            0
        } else {
            match &self.values {
                Values::Table(values) => values[self.index(st)],
                Values::Thresholds { draw, win } => {
                    let i = self.threshold_index(st);
                    let m1 = st.money.first;
                    i8::from(m1 >= draw[i]) + i8::from(m1 >= win[i]) - 1
                }
            }
        }
    }

    /// Whether the solution covers `st`.
    pub fn covers(&self, st: &State) -> bool {
        st.money.first <= self.max_money.first
            && st.money.second <= self.max_money.second
            && st.position <= self.length
    }

    /// The value of a state with best play.
    ///
    /// # Panics
    /// If the state lies outside the solved budgets ([`Solution::covers`]).
    pub fn value(&self, st: &State) -> Value {
        assert!(self.covers(st), "state {st:?} outside the solved budgets");
        Value::from_i8(self.v(st))
    }

    /// The state after a round with bids `b1` and `b2` (legal ones).
    pub fn next(st: &State, b1: u32, b2: u32) -> State {
        let mut n = *st;
        let winner = match b1.cmp(&b2) {
            std::cmp::Ordering::Greater => Seat::First,
            std::cmp::Ordering::Less => Seat::Second,
            std::cmp::Ordering::Equal => {
                n.advantage = st.advantage.other();
                st.advantage
            }
        };
        n.money[winner] -= if winner == Seat::First { b1 } else { b2 };
        match winner {
            Seat::First => n.position -= 1,
            Seat::Second => n.position += 1,
        }
        n
    }

    /// The value (player 1's side) after player 1 outbids player 2 with `b1`:
    /// it does not depend on player 2's bid.
    fn win1(&self, st: &State, b1: u32) -> i8 {
        let money = BySeat::new(st.money.first - b1, st.money.second);
        self.v(&State {
            position: st.position - 1,
            money,
            ..*st
        })
    }

    /// The value after player 2 outbids player 1 with `b2`.
    fn win2(&self, st: &State, b2: u32) -> i8 {
        let money = BySeat::new(st.money.first, st.money.second - b2);
        self.v(&State {
            position: st.position + 1,
            money,
            ..*st
        })
    }

    /// The value after both bid `b`: the advantage holder wins the bid and
    /// passes the advantage on.
    fn tie(&self, st: &State, b: u32) -> i8 {
        let after = State {
            advantage: st.advantage.other(),
            ..*st
        };
        match st.advantage {
            Seat::First => self.win1(&after, b),
            Seat::Second => self.win2(&after, b),
        }
    }

    /// Walks player 1's bids from the highest down, giving each bid's worst
    /// outcome over player 2's answers (a row minimum of the round's matrix),
    /// until `visit` returns false. The outcome of outbidding depends on one
    /// bid only, so a running minimum over player 2's higher bids does it in
    /// O(money), with no matrix and no allocation.
    fn walk_rows(&self, st: &State, mut visit: impl FnMut(u32, i8) -> bool) {
        let (m1, m2) = (st.money.first, st.money.second);
        let (lo1, lo2) = (*bids(m1).start(), *bids(m2).start());
        // min of win2 over player 2's bids above b1: those above m1 first
        let mut above = ((m1 + 1).max(lo2)..=m2)
            .map(|b2| self.win2(st, b2))
            .min()
            .unwrap_or(i8::MAX);
        for b1 in (lo1..=m1).rev() {
            if b1 < m1.min(m2) && b1 + 1 >= lo2 {
                above = above.min(self.win2(st, b1 + 1));
            }
            let mut worst = above;
            if lo2 < b1 {
                worst = worst.min(self.win1(st, b1));
            }
            if b1 >= lo2 && b1 <= m2 {
                worst = worst.min(self.tie(st, b1));
            }
            if !visit(b1, worst) {
                return;
            }
        }
    }

    /// Walks player 2's bids from the highest down, giving each bid's best
    /// outcome for player 1 over player 1's answers (a column maximum), until
    /// `visit` returns false: [`Solution::walk_rows`] from the other side.
    fn walk_columns(&self, st: &State, mut visit: impl FnMut(u32, i8) -> bool) {
        let (m1, m2) = (st.money.first, st.money.second);
        let (lo1, lo2) = (*bids(m1).start(), *bids(m2).start());
        let mut above = ((m2 + 1).max(lo1)..=m1)
            .map(|b1| self.win1(st, b1))
            .max()
            .unwrap_or(i8::MIN);
        for b2 in (lo2..=m2).rev() {
            if b2 < m1.min(m2) && b2 + 1 >= lo1 {
                above = above.max(self.win1(st, b2 + 1));
            }
            let mut best = above;
            if lo1 < b2 {
                best = best.max(self.win2(st, b2));
            }
            if b2 >= lo1 && b2 <= m1 {
                best = best.max(self.tie(st, b2));
            }
            if !visit(b2, best) {
                return;
            }
        }
    }

    /// Max-min and min-max of the round's matrix game (player 1 maximizes),
    /// each walk stopping once its bound cannot improve.
    fn bounds(&self, st: &State) -> (i8, i8) {
        let (mut lower, mut upper) = (i8::MIN, i8::MAX);
        self.walk_rows(st, |_, worst| {
            lower = lower.max(worst);
            lower < 1
        });
        self.walk_columns(st, |_, best| {
            upper = upper.min(best);
            upper > -1
        });
        (lower, upper)
    }

    /// The bids of `seat` that secure the state's value whatever the other
    /// player bids, in increasing order.
    pub fn secure_bids(&self, st: &State, seat: Seat) -> Vec<u32> {
        let value = self.v(st);
        let mut secure = Vec::new();
        match seat {
            Seat::First => self.walk_rows(st, |b, worst| {
                if worst >= value {
                    secure.push(b);
                }
                true
            }),
            Seat::Second => self.walk_columns(st, |b, best| {
                if best <= value {
                    secure.push(b);
                }
                true
            }),
        }
        secure.reverse();
        secure
    }

    /// Counts of non-terminal states (with some money left) won by player 1,
    /// won by player 2, and drawn.
    pub fn counts(&self) -> (u64, u64, u64) {
        let (mut p1, mut p2, mut d) = (0, 0, 0);
        for st in states_by_total_money(self.max_money, self.length) {
            match self.v(&st) {
                1 => p1 += 1,
                -1 => p2 += 1,
                _ => d += 1,
            }
        }
        (p1, p2, d)
    }

    /// How much more money `seat` would need to force a win in `st` (0 when
    /// it already can), its opponent's money unchanged; `None` when no
    /// money up to the solved budget would do.
    pub fn money_to_win(&self, st: &State, seat: Seat) -> Option<u32> {
        // player 2's view is player 1's in the mirrored state
        let (position, own, opponent, advantage) = match seat {
            Seat::First => (st.position, st.money.first, st.money.second, st.advantage),
            Seat::Second => (
                self.length - st.position,
                st.money.second,
                st.money.first,
                st.advantage.other(),
            ),
        };
        if position == 0 {
            return Some(0);
        }
        if position >= self.length {
            return None;
        }
        let at = State {
            position,
            money: BySeat::new(0, opponent.min(self.max_money.second)),
            advantage,
        };
        let least = match &self.values {
            Values::Thresholds { win, .. } => {
                Some(win[self.threshold_index(&at)]).filter(|&w| w <= self.max_money.first)
            }
            Values::Table(_) => self.threshold(position, at.money.second, advantage),
        }?;
        Some(least.saturating_sub(own))
    }

    /// The least money with which player 1 can force a win at `position`
    /// against `opponent` money, or `None` if no budget up to the solved
    /// maximum does.
    pub fn threshold(&self, position: u32, opponent: u32, advantage: Seat) -> Option<u32> {
        (0..=self.max_money.first).find(|&m1| {
            let st = State {
                position,
                money: BySeat::new(m1, opponent),
                advantage,
            };
            self.v(&st) == 1
        })
    }
}

/// The solution for a game's parameters, solved once per process and shared
/// across threads.
pub fn shared(params: &BiddingParams) -> Arc<Solution> {
    static SOLUTIONS: Cache<(u32, u32), Solution> = Cache::new();
    SOLUTIONS.get((params.money, params.length), || {
        Solution::solve(BySeat::new(params.money, params.money), params.length)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn st(position: u32, m1: u32, m2: u32, advantage: Seat) -> State {
        State {
            position,
            money: BySeat::new(m1, m2),
            advantage,
        }
    }

    /// Direct minimax over the full bid matrix, memoized: (max-min, min-max).
    fn brute(s: &State, length: u32, memo: &mut HashMap<State, i8>) -> i8 {
        if s.position == 0 {
            return 1;
        }
        if s.position >= length {
            return -1;
        }
        if s.money.first == 0 && s.money.second == 0 {
            return 0;
        }
        if let Some(&v) = memo.get(s) {
            return v;
        }
        let matrix: Vec<Vec<i8>> = bids(s.money.first)
            .map(|b1| {
                bids(s.money.second)
                    .map(|b2| brute(&Solution::next(s, b1, b2), length, memo))
                    .collect()
            })
            .collect();
        let lower = matrix
            .iter()
            .map(|row| *row.iter().min().unwrap())
            .max()
            .unwrap();
        let upper = (0..matrix[0].len())
            .map(|j| matrix.iter().map(|row| row[j]).max().unwrap())
            .min()
            .unwrap();
        assert_eq!(lower, upper, "pure bids suffice at {s:?}");
        memo.insert(*s, lower);
        lower
    }

    #[test]
    fn agrees_with_brute_force_minimax_for_small_budgets() {
        let (money, length) = (12, 10);
        let solution = Solution::solve(BySeat::new(money, money), length);
        assert!(solution.is_determined());
        let mut memo = HashMap::new();
        for position in 1..length {
            for m1 in 0..=money {
                for m2 in 0..=money {
                    for adv in Seat::ALL {
                        let s = st(position, m1, m2, adv);
                        let want = brute(&s, length, &mut memo);
                        assert_eq!(solution.v(&s), want, "{s:?}");
                        if m1 + m2 == 0 {
                            continue;
                        }
                        // secure bids: exactly those whose worst case keeps the value
                        let secure1: Vec<u32> = bids(m1)
                            .filter(|&b1| {
                                bids(m2).all(|b2| {
                                    brute(&Solution::next(&s, b1, b2), length, &mut memo) >= want
                                })
                            })
                            .collect();
                        let secure2: Vec<u32> = bids(m2)
                            .filter(|&b2| {
                                bids(m1).all(|b1| {
                                    brute(&Solution::next(&s, b1, b2), length, &mut memo) <= want
                                })
                            })
                            .collect();
                        assert_eq!(solution.secure_bids(&s, Seat::First), secure1, "{s:?}");
                        assert_eq!(solution.secure_bids(&s, Seat::Second), secure2, "{s:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn mirror_symmetry_and_monotonicity() {
        let (money, length) = (40, 10);
        let s = Solution::solve(BySeat::new(money, money), length);
        for position in 1..length {
            for m1 in 0..=money {
                for m2 in 0..=money {
                    for adv in Seat::ALL {
                        let v = s.v(&st(position, m1, m2, adv));
                        // the same state seen from the other side of the line
                        let mirror = s.v(&st(length - position, m2, m1, adv.other()));
                        assert_eq!(v, -mirror, "mirror of {position} {m1} {m2} {adv:?}");
                        if m1 < money {
                            assert!(
                                s.v(&st(position, m1 + 1, m2, adv)) >= v,
                                "more money never hurts player 1"
                            );
                        }
                        if m2 < money {
                            assert!(
                                s.v(&st(position, m1, m2 + 1, adv)) <= v,
                                "more money never hurts player 2"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn pure_bids_suffice_for_every_budget_up_to_60_and_other_lengths() {
        for money in 1..=60 {
            assert!(
                Solution::solve_exhaustive(BySeat::new(money, money), 10).is_determined(),
                "money {money}"
            );
        }
        for length in [2, 3, 6, 15] {
            assert!(
                Solution::solve_exhaustive(BySeat::new(30, 30), length).is_determined(),
                "length {length}"
            );
        }
    }

    /// Every state of `a` and `b` has the same value.
    fn same_values(a: &Solution, b: &Solution) {
        for st in states_by_total_money(a.max_money, a.length) {
            assert_eq!(a.v(&st), b.v(&st), "{st:?}");
        }
    }

    #[test]
    fn thresholds_agree_with_the_exhaustive_solver() {
        for money in 0..=100 {
            let m = BySeat::new(money, money);
            let fast = Solution::solve(m, 10);
            same_values(&fast, &Solution::solve_exhaustive(m, 10));
            assert!(fast.is_determined());
        }
        for (m1, m2, length) in [
            (30, 30, 2),
            (30, 30, 3),
            (25, 40, 6),
            (50, 20, 15),
            (7, 60, 10),
        ] {
            let m = BySeat::new(m1, m2);
            same_values(
                &Solution::solve(m, length),
                &Solution::solve_exhaustive(m, length),
            );
        }
    }

    #[test]
    fn thresholds_agree_with_the_exhaustive_solver_at_300() {
        use rand::{Rng as _, SeedableRng};
        let m = BySeat::new(300, 300);
        let (fast, full) = (Solution::solve(m, 10), Solution::solve_exhaustive(m, 10));
        let mut rng = crate::Rng::seed_from_u64(300);
        for _ in 0..200_000 {
            let st = st(
                rng.random_range(1..10),
                rng.random_range(0..=300),
                rng.random_range(0..=300),
                if rng.random_bool(0.5) {
                    Seat::First
                } else {
                    Seat::Second
                },
            );
            assert_eq!(fast.v(&st), full.v(&st), "{st:?}");
            for seat in Seat::ALL {
                assert_eq!(
                    fast.secure_bids(&st, seat),
                    full.secure_bids(&st, seat),
                    "{st:?}"
                );
            }
        }
    }

    /// A wider sweep than the test suite runs: `cargo test --release -- --ignored determinacy`.
    #[test]
    #[ignore = "slow: a sweep over many settings, run by hand"]
    fn determinacy_sweep() {
        for length in 2..=20 {
            for money in 1..=60 {
                assert!(
                    Solution::solve_exhaustive(BySeat::new(money, money), length).is_determined(),
                    "money {money}, length {length}"
                );
            }
        }
        for money in 61..=200 {
            assert!(
                Solution::solve_exhaustive(BySeat::new(money, money), 10).is_determined(),
                "money {money}"
            );
        }
    }

    #[test]
    fn hand_checked_tiny_states() {
        let s = Solution::solve(BySeat::new(3, 3), 10);
        let v = |p, m1, m2, a| s.value(&st(p, m1, m2, a));
        // one step from the goal with the only money: outbid a broke opponent
        assert_eq!(v(1, 1, 0, Seat::Second), Value::Player1Wins);
        // a broke player 1 watches player 2 spend its last coin: both broke, a draw
        assert_eq!(v(1, 0, 1, Seat::First), Value::Draw);
        // ... unless that coin reaches player 2's goal
        assert_eq!(v(9, 0, 1, Seat::First), Value::Player2Wins);
        // 1 against 1 with the advantage one step from the goal: the tie wins
        assert_eq!(v(1, 1, 1, Seat::First), Value::Player1Wins);
        // without the advantage player 2 wins the tie, then player 1 its last bid: a draw
        assert_eq!(v(1, 1, 1, Seat::Second), Value::Draw);
        assert_eq!(
            s.secure_bids(&st(1, 1, 1, Seat::First), Seat::First),
            vec![1]
        );
        // in the middle, 1 against 1 goes back and forth to a draw
        assert_eq!(v(5, 1, 1, Seat::First), Value::Draw);
    }

    #[test]
    fn the_standard_game_is_a_draw_with_pure_bids() {
        let s = Solution::solve(BySeat::new(100, 100), 10);
        assert!(s.is_determined());
        let start = st(5, 100, 100, Seat::First);
        assert_eq!(s.value(&start), Value::Draw);
        assert_eq!(
            s.secure_bids(&start, Seat::First),
            (10..=16).collect::<Vec<_>>()
        );
        assert_eq!(
            s.secure_bids(&start, Seat::Second),
            (11..=16).collect::<Vec<_>>()
        );
        let (p1, p2, _) = s.counts();
        assert_eq!(p1, p2, "symmetric");
    }
}
