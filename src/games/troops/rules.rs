//! Troops: a repeated three-field Colonel Blotto game (from a short rule text;
//! every rule ladder decided is stated below).
//!
//! Rules:
//! - Each round both players, at once, split `troops` troops over three fields:
//!   three whole numbers from 0 to `troops` that sum to exactly `troops`.
//! - On each field the larger number scores 2 points, the smaller 0; equal
//!   numbers score 1 each. A round is worth 6 points in all.
//! - After `rounds` rounds each player's goal is their total score; the higher wins.
//!
//! Parameters (defaults): `troops` (10), `rounds` (5).
//!
//! Moves are the three numbers separated by commas, no spaces: `3,3,4`.
//! Observation: `round R of N score S1 S2`.

use std::{fmt, str::FromStr};

use rand::Rng as _;
use serde::{Deserialize, Serialize};

use crate::{
    core::{
        error::Invalid,
        game::{check_range, fields, not_over, round_of, scores_after, Game, IllegalMove, Words},
        seat::{BySeat, Seat},
    },
    games::scoring::round_points,
    show::scene::{rounds_picture, rounds_scene, View},
    show::Show,
    Rng,
};

/// The parameters of a troops game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TroopsParams {
    pub troops: u32,
    pub rounds: u32,
}

impl Default for TroopsParams {
    fn default() -> Self {
        TroopsParams {
            troops: 10,
            rounds: 5,
        }
    }
}

/// Troops on each of the three fields.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Split(pub [u32; 3]);

impl Split {
    /// Hands its wire form to `put`, piece by piece: the one text of
    /// `Display` and of journal lines ([`Game::write_move`]), by itoa, not
    /// `write!`. Stops at the first piece `put` fails.
    fn text<E>(&self, mut put: impl FnMut(&str) -> Result<(), E>) -> Result<(), E> {
        let mut n = itoa::Buffer::new();
        let [a, b, c] = self.0;
        put(n.format(a))?;
        put(",")?;
        put(n.format(b))?;
        put(",")?;
        put(n.format(c))
    }
}

impl fmt::Display for Split {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.text(|s| f.write_str(s))
    }
}

impl FromStr for Split {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("a split is three whole numbers like `3,3,4`, not `{s}`");
        let mut parts = s.split(',').map(|p| p.parse::<u32>().map_err(|_| bad()));
        let split = [
            parts.next().ok_or_else(bad)??,
            parts.next().ok_or_else(bad)??,
            parts.next().ok_or_else(bad)??,
        ];
        match parts.next() {
            None => Ok(Split(split)),
            Some(_) => Err(bad()),
        }
    }
}

/// A troops game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Troops {
    pub troops: u32,
    pub round: u32,
    pub rounds: u32,
    pub score: BySeat<i32>,
}

/// Points per seat for one round.
pub fn split_points(a: Split, b: Split) -> BySeat<i32> {
    let mut total = BySeat::new(0, 0);
    for field in 0..3 {
        let p = round_points(a.0[field], b.0[field]);
        total.first += p.first;
        total.second += p.second;
    }
    total
}

/// Every split of `troops` over three fields, in lexicographic order.
pub fn all_splits(troops: u32) -> Vec<Split> {
    (0..=troops)
        .flat_map(|a| (0..=troops - a).map(move |b| Split([a, b, troops - a - b])))
        .collect()
}

/// The name configs and the command line use.
pub const NAME: &str = "troops";
/// One line for `ladder list games`.
pub const ABOUT: &str =
    "Colonel Blotto: split troops over three fields each round; larger wins a field";

impl Game for Troops {
    type Move = Split;
    type Params = TroopsParams;

    fn new(p: &TroopsParams) -> Result<Self, Invalid> {
        check_params(p)?;
        Ok(Troops {
            troops: p.troops,
            round: 0,
            rounds: p.rounds,
            score: BySeat::new(0, 0),
        })
    }

    fn name(&self) -> &str {
        NAME
    }

    fn to_act(&self) -> BySeat<bool> {
        let acting = self.round < self.rounds;
        BySeat::new(acting, acting)
    }

    fn legal_moves(&self, _seat: Seat) -> Vec<Split> {
        if self.round >= self.rounds {
            return Vec::new();
        }
        all_splits(self.troops)
    }

    /// Uniform over the splits by "stars and bars": two bars among `troops + 2` slots.
    fn random_move(&self, _seat: Seat, rng: &mut Rng) -> Split {
        let slots = self.troops + 2;
        let p = rng.random_range(0..slots);
        let mut q = rng.random_range(0..slots - 1);
        if q >= p {
            q += 1;
        }
        let (lo, hi) = (p.min(q), p.max(q));
        Split([lo, hi - lo - 1, slots - 1 - hi])
    }

    fn write_move(mv: &Split, out: &mut Vec<u8>) {
        let Ok(()) = mv.text(|s| {
            out.extend_from_slice(s.as_bytes());
            Ok::<(), std::convert::Infallible>(())
        });
    }

    fn check(&self, _seat: Seat, mv: &Split) -> Result<(), IllegalMove> {
        let sum: u64 = mv.0.iter().map(|&x| u64::from(x)).sum();
        if self.round >= self.rounds {
            Err(IllegalMove::new("the game is over"))
        } else if sum != u64::from(self.troops) {
            Err(IllegalMove::new(format!(
                "split {mv} sums to {sum}, not {}",
                self.troops
            )))
        } else {
            Ok(())
        }
    }

    fn apply(&mut self, moves: &BySeat<Option<Split>>) {
        let splits = moves.map(|m| m.expect("both players split every round"));
        let points = split_points(splits.first, splits.second);
        self.score.first += points.first;
        self.score.second += points.second;
        self.round += 1;
    }

    fn outcome(&self) -> Option<BySeat<i32>> {
        (self.round >= self.rounds).then_some(self.score)
    }

    fn max_goal(&self) -> i32 {
        6 * self.rounds as i32
    }

    fn from_position(p: &TroopsParams, text: &str) -> Result<Self, Invalid> {
        let start = Troops::new(p)?;
        let f = fields(text, "round # of # score # #")?;
        round_of(f[0], f[1], start.rounds)?;
        let round = f[0] as u32 - 1;
        not_over(Troops {
            round,
            score: scores_after(f[2], f[3], round, 6)?,
            ..start
        })
    }

    fn write_observation(&self, _seat: Seat, out: &mut String) {
        Words::round_of(out, self.round, self.rounds)
            .word("score")
            .number(self.score.first)
            .number(self.score.second);
    }
}

impl Show for Troops {
    /// The observation, or once all rounds are played, that they were.
    fn picture(&self) -> String {
        let over = self.round >= self.rounds;
        rounds_picture(self.observation(Seat::First), self.rounds, over)
    }
    const MOVE_WORD: &'static str = "split";
    fn scene(&self, view: &View<'_, Split>) -> String {
        let (you, them) = (view.seat, view.seat.other());
        let score = format!(
            "Score: {} {}, {} {}",
            view.name(you),
            self.score[you],
            view.name(them),
            self.score[them]
        );
        rounds_scene(view, self.rounds, self.round >= self.rounds, &[score])
    }
    fn move_help(&self, _seat: Seat) -> String {
        format!(
            "Split your {t} troops over three fields: three whole numbers that sum to {t}, \
             separated by commas, e.g. `{}`. On each field the larger number scores 2 points \
             and equal numbers 1 each.",
            Split([
                self.troops / 3,
                self.troops / 3,
                self.troops - 2 * (self.troops / 3)
            ]),
            t = self.troops
        )
    }
}

/// Checks parameter values that types cannot (ranges, relations).
fn check_params(p: &TroopsParams) -> Result<(), Invalid> {
    check_range("rounds", p.rounds, 1..=1000)?;
    check_range("troops", p.troops, 1..=1000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn scoring_table() {
        let s = |t: &str| t.parse::<Split>().unwrap();
        let cases = [
            ("3,3,4", "3,3,4", (3, 3)),
            ("10,0,0", "0,5,5", (2, 4)),
            ("4,4,2", "3,3,4", (4, 2)),
            ("0,0,10", "1,1,8", (2, 4)),
            ("0,1,9", "1,0,9", (3, 3)),
            ("5,5,0", "5,0,5", (3, 3)),
        ];
        for (a, b, (pa, pb)) in cases {
            assert_eq!(split_points(s(a), s(b)), BySeat::new(pa, pb), "{a} vs {b}");
            assert_eq!(split_points(s(b), s(a)), BySeat::new(pb, pa), "{b} vs {a}");
        }
    }

    #[test]
    fn parse_and_check() {
        let g = Troops::new(&TroopsParams::default()).unwrap();
        assert_eq!("3,3,4".parse::<Split>(), Ok(Split([3, 3, 4])));
        assert_eq!(Split([3, 3, 4]).to_string(), "3,3,4");
        for bad in ["3,3", "3,3,4,0", "a,b,c", "3 3 4", "", "-1,5,6"] {
            assert!(bad.parse::<Split>().is_err(), "{bad:?}");
        }
        assert!(g.check(Seat::First, &Split([3, 3, 4])).is_ok());
        assert!(
            g.check(Seat::First, &Split([3, 3, 3])).is_err(),
            "sums to 9"
        );
        assert!(g.check(Seat::First, &Split([11, 0, 0])).is_err());
        assert!(
            g.check(Seat::First, &Split([u32::MAX, 11, 0])).is_err(),
            "no overflow"
        );
        assert_eq!(g.legal_moves(Seat::First).len(), 66);
    }

    #[test]
    fn random_splits_are_uniform_over_legal_moves() {
        let g = Troops::new(&TroopsParams {
            troops: 3,
            rounds: 1,
        })
        .unwrap();
        let legal = g.legal_moves(Seat::First);
        assert_eq!(legal.len(), 10);
        let mut rng = Rng::seed_from_u64(1);
        let mut counts = std::collections::HashMap::new();
        let draws = 20_000;
        for _ in 0..draws {
            let m = g.random_move(Seat::First, &mut rng);
            assert!(legal.contains(&m), "{m}");
            *counts.entry(m).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 10);
        for (m, c) in counts {
            // expected 2000 each; 5 standard deviations is about 212
            assert!((1750..2250).contains(&c), "{m} drawn {c} times");
        }
    }

    #[test]
    fn five_rounds_then_scores_decide() {
        let mut g = Troops::new(&TroopsParams::default()).unwrap();
        for _ in 0..5 {
            assert_eq!(g.outcome(), None);
            g.apply(&BySeat::new(Some(Split([4, 4, 2])), Some(Split([3, 3, 4]))));
        }
        assert_eq!(g.outcome(), Some(BySeat::new(20, 10)));
        assert_eq!(g.max_goal(), 30);
    }
}
