//! What `exploit` believes its opponent will bid: rules of the kinds contest
//! bidders follow, fitted to the bids it has seen in a game.
//!
//! Most bidders people write are deterministic functions of what they can see
//! (the position, both players' money, who holds the draw advantage, the last
//! round's bids). The rules tried, simplest first:
//!
//! - **offset**: a base plus a whole number: a constant (base 0), its own last
//!   bid plus k (a climber), the opponent's last bid plus k (a mirror), the
//!   opponent's money plus k, just enough to surely win the round (the
//!   opponent's money, plus 1 unless it holds the advantage) plus k, or just
//!   enough to have beaten the opponent's last bid (the same rule on its last
//!   bid) plus k;
//! - **share**: a fixed share of a quantity, rounded half away from zero,
//!   down or up: its own money, the opponent's money, or either divided by its
//!   owner's distance to its goal (money per step still to go);
//! - **table**: a bid for each distance to its goal, from the position alone.
//!
//! Every rule's bid is made legal as the game's bidders do: at least 1 while
//! it has money, 0 when broke, never more than it holds. A rule that needs
//! the last round's bids predicts the first round's bid as the one seen.
//!
//! A rule's share is fitted exactly: each bid seen bounds the share to an
//! interval, the intervals are intersected, and the middle of what is left is
//! checked against every bid. A table is trusted only where a distance was
//! seen twice with the same bid.

use super::{heuristics::legal, solver::State};
use crate::Seat;

/// What a bidder sees before a round, from its own side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct View {
    pub state: State,
    /// The bidder being modelled.
    pub seat: Seat,
    /// The board's last position (the game's `length`).
    pub length: u32,
    /// The round before's bids, its own and its opponent's; none in the first.
    pub last: Option<(u32, u32)>,
}

impl View {
    fn own_money(&self) -> u32 {
        self.state.money[self.seat]
    }

    fn other_money(&self) -> u32 {
        self.state.money[self.seat.other()]
    }

    /// Steps from the bottle to `seat`'s goal.
    fn distance(&self, seat: Seat) -> u32 {
        match seat {
            Seat::First => self.state.position,
            Seat::Second => self.length - self.state.position,
        }
    }

    /// Whether a bid tells anything: a broke player, or one holding 1, has one legal bid.
    fn informative(&self) -> bool {
        self.own_money() >= 2
    }
}

/// One bid seen, with what its bidder saw.
#[derive(Copy, Clone, Debug)]
pub struct Seen {
    pub view: View,
    pub bid: u32,
}

/// What an offset rule adds its whole number to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Base {
    Zero,
    OwnLast,
    OtherLast,
    OtherMoney,
    /// The opponent's money, plus 1 unless the bidder holds the advantage.
    RoundWinning,
    /// The opponent's last bid, plus 1 unless the bidder holds the advantage.
    LastBeaten,
}

/// What a share rule takes its share of.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Quantity {
    OwnMoney,
    OtherMoney,
    OwnPerStep,
    OtherPerStep,
}

/// How a share is made whole.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rounding {
    Nearest,
    Down,
    Up,
}

/// A deterministic bidding rule.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    Offset {
        base: Base,
        add: i64,
    },
    Share {
        of: Quantity,
        rounding: Rounding,
        share: f64,
    },
    /// The bid at each distance to its goal, where known.
    Table(Vec<Option<u32>>),
}

const BASES: [Base; 6] = [
    Base::Zero,
    Base::OwnLast,
    Base::OtherLast,
    Base::OtherMoney,
    Base::RoundWinning,
    Base::LastBeaten,
];
const QUANTITIES: [Quantity; 4] = [
    Quantity::OwnMoney,
    Quantity::OtherMoney,
    Quantity::OwnPerStep,
    Quantity::OtherPerStep,
];
const ROUNDINGS: [Rounding; 3] = [Rounding::Nearest, Rounding::Down, Rounding::Up];

impl Base {
    fn of(self, v: &View) -> Option<i64> {
        Some(match self {
            Base::Zero => 0,
            Base::OwnLast => i64::from(v.last?.0),
            Base::OtherLast => i64::from(v.last?.1),
            Base::OtherMoney => i64::from(v.other_money()),
            Base::RoundWinning => {
                i64::from(v.other_money()) + i64::from(v.state.advantage != v.seat)
            }
            Base::LastBeaten => i64::from(v.last?.1) + i64::from(v.state.advantage != v.seat),
        })
    }
}

impl Quantity {
    fn of(self, v: &View) -> f64 {
        let per_step =
            |money: u32, seat: Seat| f64::from(money) / f64::from(v.distance(seat).max(1));
        match self {
            Quantity::OwnMoney => f64::from(v.own_money()),
            Quantity::OtherMoney => f64::from(v.other_money()),
            Quantity::OwnPerStep => per_step(v.own_money(), v.seat),
            Quantity::OtherPerStep => per_step(v.other_money(), v.seat.other()),
        }
    }
}

impl Rounding {
    fn apply(self, x: f64) -> i64 {
        (match self {
            Rounding::Nearest => x.round(),
            Rounding::Down => x.floor(),
            Rounding::Up => x.ceil(),
        }) as i64
    }

    /// The values of x that round into `lo..=hi`, as `[from, to)` or `(from, to]`
    /// (ends are checked again afterwards, so their openness does not matter).
    fn preimage(self, lo: i64, hi: i64) -> (f64, f64) {
        let (lo, hi) = (lo as f64, hi as f64);
        match self {
            Rounding::Nearest => (lo - 0.5, hi + 0.5),
            Rounding::Down => (lo, hi + 1.0),
            Rounding::Up => (lo - 1.0, hi),
        }
    }
}

impl Rule {
    /// Whether the rule reads the last round's bids: (its own, its opponent's).
    pub fn reads_last(&self) -> (bool, bool) {
        match self {
            Rule::Offset {
                base: Base::OwnLast,
                ..
            } => (true, false),
            Rule::Offset {
                base: Base::OtherLast | Base::LastBeaten,
                ..
            } => (false, true),
            _ => (false, false),
        }
    }

    /// The bid the rule makes, before it is made legal; `None` where it
    /// cannot say (a table's unseen distance, a history rule's first round).
    fn raw(&self, v: &View) -> Option<i64> {
        match self {
            Rule::Offset { base, add } => base.of(v).map(|b| b + add),
            Rule::Share {
                of,
                rounding,
                share,
            } => Some(rounding.apply(share * of.of(v))),
            Rule::Table(bids) => bids
                .get(v.distance(v.seat) as usize)
                .copied()
                .flatten()
                .map(i64::from),
        }
    }

    /// The legal bid the rule makes in `v`.
    pub fn predict(&self, v: &View) -> Option<u32> {
        self.raw(v).map(|raw| legal(raw, v.own_money()).0)
    }
}

/// A rule fitted to a game's bids, and how well it did.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub rule: Rule,
    /// Informative bids it predicted, and informative bids it could predict.
    pub hits: usize,
    pub tried: usize,
    /// The first round's bid, for a rule that reads the last round's.
    pub first: Option<u32>,
}

/// Informative bids a fit must have predicted, all of them, before `exploit`
/// trusts it enough to leave the value-securing bids.
pub const EXACT_AFTER: usize = 3;

impl Fit {
    /// Whether it predicted every bid it could, on enough evidence.
    pub fn is_exact(&self) -> bool {
        self.hits == self.tried && self.tried >= EXACT_AFTER
    }

    /// Its prediction in `v`.
    pub fn predict(&self, v: &View) -> Option<u32> {
        match (v.last, self.rule.reads_last()) {
            (None, (true, _) | (_, true)) => self.first,
            _ => self.rule.predict(v),
        }
    }
}

/// The rule that predicted the most of `seen`, simplest first on a tie;
/// `None` when none predicted any informative bid.
pub fn fit(seen: &[Seen]) -> Option<Fit> {
    let first = seen
        .first()
        .filter(|s| s.view.last.is_none())
        .map(|s| s.bid);
    let score = |rule: Rule| -> Fit {
        let (mut hits, mut tried) = (0, 0);
        for s in seen.iter().filter(|s| s.view.informative()) {
            if let Some(p) = rule.predict(&s.view) {
                tried += 1;
                hits += usize::from(p == s.bid);
            }
        }
        Fit {
            rule,
            hits,
            tried,
            first,
        }
    };
    let mut best: Option<Fit> = None;
    let mut consider = |f: Fit| {
        if f.hits > 0 && best.as_ref().is_none_or(|b| f.hits > b.hits) {
            best = Some(f);
        }
    };
    for base in BASES {
        let mut adds: Vec<i64> = seen
            .iter()
            .filter_map(|s| base.of(&s.view).map(|b| i64::from(s.bid) - b))
            .collect();
        adds.sort_unstable();
        adds.dedup();
        for add in adds {
            consider(score(Rule::Offset { base, add }));
        }
    }
    for of in QUANTITIES {
        for rounding in ROUNDINGS {
            for share in shares(seen, of, rounding) {
                consider(score(Rule::Share {
                    of,
                    rounding,
                    share,
                }));
            }
        }
    }
    consider(score(table(seen)));
    best
}

/// Shares worth trying for one quantity and rounding: the middle of the
/// shares every informative bid allows, if any, then the middle of each
/// one's own (for a rule that fits most bids but not all).
fn shares(seen: &[Seen], of: Quantity, rounding: Rounding) -> Vec<f64> {
    let mut all = (0.0f64, f64::INFINITY);
    let mut each = Vec::new();
    for s in seen.iter().filter(|s| s.view.informative()) {
        let x = of.of(&s.view);
        if x <= 0.0 {
            continue;
        }
        // the raw bids that come out as this bid once made legal
        let money = i64::from(s.view.own_money());
        let bid = i64::from(s.bid);
        let (lo, hi) = match bid {
            1 => (i64::MIN / 4, 1),
            b if b == money => (money, i64::MAX / 4),
            b => (b, b),
        };
        let (from, to) = rounding.preimage(lo, hi);
        let (from, to) = ((from / x).max(0.0), to / x);
        all = (all.0.max(from), all.1.min(to));
        if to.is_finite() {
            each.push((from + to) / 2.0);
        }
    }
    let mut out = Vec::new();
    if all.0 < all.1 && all.1.is_finite() {
        out.push((all.0 + all.1) / 2.0);
    }
    out.extend(each);
    out
}

/// The bids seen at each distance to the bidder's goal, kept only where a
/// distance was seen twice or more with one bid.
fn table(seen: &[Seen]) -> Rule {
    let mut by: Vec<(u32, Option<u32>, bool)> = Vec::new(); // (count, bid, consistent)
    for s in seen.iter().filter(|s| s.view.informative()) {
        let d = s.view.distance(s.view.seat) as usize;
        if by.len() <= d {
            by.resize(d + 1, (0, None, true));
        }
        let e = &mut by[d];
        e.2 &= e.1.is_none_or(|b| b == s.bid);
        e.0 += 1;
        e.1 = Some(s.bid);
    }
    Rule::Table(
        by.into_iter()
            .map(|(n, b, ok)| b.filter(|_| n >= 2 && ok))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BySeat;

    fn view(position: u32, own: u32, other: u32, last: Option<(u32, u32)>) -> View {
        View {
            state: State {
                position,
                money: BySeat::new(own, other),
                advantage: Seat::First,
            },
            seat: Seat::First,
            length: 10,
            last,
        }
    }

    /// The bids `rule` makes along a few made-up rounds, as seen bids.
    fn seen_of(bid: impl Fn(&View) -> u32) -> Vec<Seen> {
        let mut out = Vec::new();
        let mut last = None;
        for (i, (own, other)) in [
            (100, 100),
            (87, 100),
            (87, 80),
            (70, 80),
            (70, 61),
            (55, 61),
        ]
        .into_iter()
        .enumerate()
        {
            let v = view(5 + (i as u32 % 2), own, other, last);
            let b = legal(i64::from(bid(&v)), own).0;
            out.push(Seen { view: v, bid: b });
            last = Some((b, 7 + i as u32));
        }
        out
    }

    /// A made-up bidder's rule.
    type Bidder = Box<dyn Fn(&View) -> u32>;

    #[test]
    fn each_kind_of_rule_is_found_exactly() {
        let cases: Vec<(&str, Bidder)> = vec![
            ("constant", Box::new(|_| 9)),
            (
                "share",
                Box::new(|v| (0.13 * f64::from(v.own_money())).round() as u32),
            ),
            ("floor share of theirs", Box::new(|v| v.other_money() / 7)),
            (
                "per step",
                Box::new(|v| v.own_money().div_ceil(v.distance(Seat::First))),
            ),
            ("mirror", Box::new(|v| v.last.map_or(12, |l| l.1))),
            ("climber", Box::new(|v| v.last.map_or(8, |l| l.0 + 1))),
            ("enough", Box::new(|v| v.other_money() + 1)),
            (
                "position",
                Box::new(|v| [0, 30, 25, 20, 15, 10, 5, 4, 3, 2][v.distance(Seat::First) as usize]),
            ),
        ];
        for (name, bid) in cases {
            let seen = seen_of(&bid);
            let f = fit(&seen).unwrap();
            assert!(f.is_exact(), "{name}: {f:?}");
            for s in &seen {
                assert_eq!(
                    f.predict(&s.view),
                    Some(legal(i64::from(bid(&s.view)), s.view.own_money()).0),
                    "{name}: {f:?}"
                );
            }
        }
    }

    #[test]
    fn noise_is_not_taken_for_a_rule() {
        let noise = [0i64, 3, -2, 1, -3, 2];
        let seen: Vec<Seen> = seen_of(|_| 0)
            .into_iter()
            .zip(noise)
            .map(|(s, n)| Seen {
                bid: (13 + n) as u32,
                ..s
            })
            .collect();
        let f = fit(&seen);
        assert!(f.as_ref().is_none_or(|f| !f.is_exact()), "{f:?}");
    }
}
