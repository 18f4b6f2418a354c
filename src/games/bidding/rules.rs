//! The Bidding Game (the scotch-bottle game of HackerRank's bot challenge and of
//! a 2016 student report on it; every rule ladder decided is stated below).
//!
//! Rules:
//! - A bottle stands on a line of positions `0..=length`, at `start`. Player 1
//!   (the first seat) wants it at 0, player 2 at `length`. Both start with `money`.
//! - Each round both players bid at once, in whole units: at least 1 while they
//!   have money, exactly 0 when broke, never more than they have.
//! - The higher bid moves the bottle one step toward its bidder, who pays the bid
//!   (to nobody); the loser keeps their money.
//! - Equal bids go to the holder of the draw advantage, who pays, moves the bottle,
//!   and passes the advantage to the other player. Player 1 holds it first.
//! - The game ends when the bottle reaches 0 (player 1 wins) or `length` (player
//!   2 wins), or in a draw when both players are broke.
//! - Goals: 100 for the winner, 0 for the loser, 50 each in a draw.
//!
//! Parameters (defaults): `money` (100), `start` (5), `length` (10).
//!
//! Moves are bids, written as the integer: `12`.
//! Observation: `position P money M1 M2 advantage A` (A is 1 or 2).

use std::{fmt, str::FromStr};

use rand::Rng as _;
use serde::{Deserialize, Serialize};

use crate::{
    core::{
        error::Invalid,
        game::{check_range, fields, not_over, Game, IllegalMove, Words},
        seat::{BySeat, Seat},
    },
    show::Show,
    show::{drawing::Drawing, scene::View},
    Rng,
};

/// The parameters of a bidding game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BiddingParams {
    /// Money each player starts with.
    pub money: u32,
    /// Where the bottle starts.
    pub start: u32,
    /// The last position; player 2's goal.
    pub length: u32,
}

impl Default for BiddingParams {
    fn default() -> Self {
        BiddingParams {
            money: 100,
            start: 5,
            length: 10,
        }
    }
}

/// A bid.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bid(pub u32);

impl Bid {
    /// Hands its wire form to `put`: the one text of `Display` and of
    /// journal lines ([`Game::write_move`]), by itoa, not `write!`.
    fn text<R>(&self, put: impl FnOnce(&str) -> R) -> R {
        put(itoa::Buffer::new().format(self.0))
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.text(|s| f.write_str(s))
    }
}

impl FromStr for Bid {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        s.parse::<u32>()
            .map(Bid)
            .map_err(|_| format!("a bid is a whole number like `12`, not `{s}`"))
    }
}

/// A bidding game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bidding {
    /// Where the bottle is, `0..=length`.
    pub position: u32,
    pub length: u32,
    pub money: BySeat<u32>,
    /// Who wins a tie.
    pub advantage: Seat,
}

impl Bidding {
    /// The legal bids of a player holding `money`: `1..=money`, or just 0 when broke.
    pub fn bid_range(money: u32) -> std::ops::RangeInclusive<u32> {
        if money == 0 {
            0..=0
        } else {
            1..=money
        }
    }

    fn winner(&self) -> Option<Seat> {
        if self.position == 0 {
            Some(Seat::First)
        } else if self.position >= self.length {
            Some(Seat::Second)
        } else {
            None
        }
    }

    fn is_over(&self) -> bool {
        self.winner().is_some() || (self.money.first == 0 && self.money.second == 0)
    }
}

/// The name configs and the command line use.
pub const NAME: &str = "bidding";
/// One line for `ladder list games`.
pub const ABOUT: &str =
    "the scotch-bottle bidding game: bid each round to move the bottle your way";

impl Game for Bidding {
    type Move = Bid;
    type Params = BiddingParams;

    fn new(p: &BiddingParams) -> Result<Self, Invalid> {
        check_params(p)?;
        Ok(Bidding {
            position: p.start,
            length: p.length,
            money: BySeat::new(p.money, p.money),
            advantage: Seat::First,
        })
    }

    fn name(&self) -> &str {
        NAME
    }

    fn to_act(&self) -> BySeat<bool> {
        let acting = !self.is_over();
        BySeat::new(acting, acting)
    }

    fn legal_moves(&self, seat: Seat) -> Vec<Bid> {
        if self.is_over() {
            return Vec::new();
        }
        Bidding::bid_range(self.money[seat]).map(Bid).collect()
    }

    fn random_move(&self, seat: Seat, rng: &mut Rng) -> Bid {
        Bid(rng.random_range(Bidding::bid_range(self.money[seat])))
    }

    fn write_move(bid: &Bid, out: &mut Vec<u8>) {
        bid.text(|s| out.extend_from_slice(s.as_bytes()))
    }

    fn check(&self, seat: Seat, bid: &Bid) -> Result<(), IllegalMove> {
        let money = self.money[seat];
        if self.is_over() {
            Err(IllegalMove::new("the game is over"))
        } else if bid.0 > money {
            Err(IllegalMove::new(format!(
                "bid {} exceeds money {money}",
                bid.0
            )))
        } else if money > 0 && bid.0 == 0 {
            Err(IllegalMove::new("a player with money must bid at least 1"))
        } else {
            Ok(())
        }
    }

    fn apply(&mut self, moves: &BySeat<Option<Bid>>) {
        let bids = moves.map(|m| m.expect("both players bid every round").0);
        let winner = match bids.first.cmp(&bids.second) {
            std::cmp::Ordering::Greater => Seat::First,
            std::cmp::Ordering::Less => Seat::Second,
            std::cmp::Ordering::Equal => {
                let holder = self.advantage;
                self.advantage = holder.other();
                holder
            }
        };
        self.money[winner] -= bids[winner];
        match winner {
            Seat::First => self.position -= 1,
            Seat::Second => self.position += 1,
        }
    }

    fn outcome(&self) -> Option<BySeat<i32>> {
        match self.winner() {
            Some(Seat::First) => Some(BySeat::new(100, 0)),
            Some(Seat::Second) => Some(BySeat::new(0, 100)),
            None if self.is_over() => Some(BySeat::new(50, 50)),
            None => None,
        }
    }

    fn max_goal(&self) -> i32 {
        100
    }

    fn from_position(p: &BiddingParams, text: &str) -> Result<Self, Invalid> {
        let start = Bidding::new(p)?;
        let f = fields(text, "position # money # # advantage #")?;
        let number =
            |x: u64| u32::try_from(x).map_err(|_| Invalid::new(format!("{x} is too large")));
        let position = number(f[0])?;
        if position > start.length {
            return Err(Invalid::new(format!(
                "the bottle at {position} is off the line 0..={}",
                start.length
            )));
        }
        let advantage = match f[3] {
            1 => Seat::First,
            2 => Seat::Second,
            a => {
                return Err(Invalid::new(format!(
                    "the draw advantage is 1 or 2, not {a}"
                )))
            }
        };
        // money is only ever paid out
        let money = |x: u64| match number(x)? {
            m if m <= start.money.first => Ok(m),
            m => Err(Invalid::new(format!(
                "money {m} is more than the {} each player starts with",
                start.money.first
            ))),
        };
        not_over(Bidding {
            position,
            money: BySeat::new(money(f[1])?, money(f[2])?),
            advantage,
            ..start
        })
    }

    fn write_observation(&self, _seat: Seat, out: &mut String) {
        Words::on(out, "position")
            .number(self.position)
            .word("money")
            .number(self.money.first)
            .number(self.money.second)
            .word("advantage")
            .number(self.advantage.number());
    }
}

impl Show for Bidding {
    /// The bottle on its line (player 1 wants 0, player 2 the end), both
    /// players' money and who holds the draw advantage.
    fn picture(&self) -> String {
        let line: String = (0..=self.length)
            .map(|p| if p == self.position { 'o' } else { '-' })
            .collect();
        format!(
            "0 {line} {}   bottle at {}\nmoney: player 1 {}, player 2 {}; draw advantage: player {}",
            self.length,
            self.position,
            self.money.first,
            self.money.second,
            self.advantage.number()
        )
    }
    /// The bottle on its line, with both players' money and the draw
    /// advantage beside it.
    fn drawing(&self, _last: Option<&BySeat<Option<Bid>>>) -> Drawing {
        Drawing::Track {
            length: self.length,
            at: self.position,
            ends: ["player 1's goal".into(), "player 2's goal".into()],
            facts: vec![
                format!(
                    "money: player 1 {}, player 2 {}",
                    self.money.first, self.money.second
                ),
                format!("draw advantage: player {}", self.advantage.number()),
            ],
        }
    }
    const MOVE_WORD: &'static str = "bid";
    /// As the 2016 report's console shows it: the round, the bottle on its
    /// line, both players' money, the draw advantage and the last bids.
    fn scene(&self, view: &View<'_, Bid>) -> String {
        let paint = view.paint;
        let line: String = (0..=self.length)
            .map(|p| if p == self.position { 'o' } else { '-' })
            .collect();
        let (before, after) = line.split_at(self.position.min(self.length) as usize);
        let (bottle, after) = after.split_at(1);
        let goal = |seat: Seat| match seat {
            Seat::First => 0,
            Seat::Second => self.length,
        };
        let heading = if self.is_over() {
            "Game over".to_string()
        } else {
            format!("Round {}", view.turns.len() + 1)
        };
        let mut s = format!(
            "{}\nScotch position: {}   0 {before}{}{after} {}\n",
            paint.bold(&heading),
            self.position,
            paint.mark(bottle),
            self.length
        );
        for seat in [view.seat, view.seat.other()] {
            s.push_str(&format!(
                "{} money: {} (pulls the bottle toward {})\n",
                view.name(seat),
                self.money[seat],
                goal(seat)
            ));
        }
        s.push_str(&format!("Draw advantage: {}\n", view.name(self.advantage)));
        if let Some(BySeat {
            first: Some(a),
            second: Some(b),
        }) = view.last()
        {
            // a tie went to the holder before this position's holder
            let winner = match a.0.cmp(&b.0) {
                std::cmp::Ordering::Greater => Seat::First,
                std::cmp::Ordering::Less => Seat::Second,
                std::cmp::Ordering::Equal => self.advantage.other(),
            };
            s.push_str(&format!(
                "Last round: {} bid {a}, {} bid {b}: {} moved the bottle{}\n",
                view.name(Seat::First),
                view.name(Seat::Second),
                view.name(winner),
                if a == b { " (draw advantage)" } else { "" }
            ));
        }
        s
    }
    fn move_help(&self, seat: Seat) -> String {
        let money = self.money[seat];
        if money == 0 {
            return "You have no money left: bid `0`.".to_string();
        }
        format!(
            "Bid a whole number from 1 to {money}, e.g. `{}`. The higher bid moves the \
             bottle one step toward its bidder, who pays it; the other keeps their money. \
             Equal bids go to the holder of the draw advantage, who pays, and the advantage \
             passes to the other player. You bid 0 only once your money is gone.",
            money.div_ceil(10)
        )
    }
}

/// Checks parameter values that types cannot (ranges, relations).
fn check_params(p: &BiddingParams) -> Result<(), Invalid> {
    check_range("length", p.length, 2..=1000)?;
    check_range("money", p.money, 0..=1_000_000)?;
    if p.start == 0 || p.start >= p.length {
        return Err(Invalid::of(
            "start",
            format!(
                "start must lie strictly between 0 and length {}, got {}",
                p.length, p.start
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::show::paint::Paint;

    #[test]
    fn the_scene_shows_a_tie_won_by_the_draw_advantage_and_the_persons_money_first() {
        let mut g = Bidding::new(&BiddingParams::default()).unwrap();
        let tie = BySeat::new(Some(Bid(7)), Some(Bid(7)));
        g.apply(&tie);
        let turns = vec![tie];
        let view = View {
            seat: Seat::Second,
            names: BySeat::new("dp", "human"),
            turns: &turns,
            paint: Paint::PLAIN,
        };
        assert_eq!(
            g.scene(&view),
            "Round 2\n\
             Scotch position: 4   0 ----o------ 10\n\
             human money: 100 (pulls the bottle toward 10)\n\
             dp money: 93 (pulls the bottle toward 0)\n\
             Draw advantage: human\n\
             Last round: dp bid 7, human bid 7: dp moved the bottle (draw advantage)\n"
        );
        assert!(g
            .move_help(Seat::Second)
            .starts_with("Bid a whole number from 1 to 100"));
        g.money = BySeat::new(0, 0);
        assert!(g.scene(&view).starts_with("Game over\n"));
        assert_eq!(g.move_help(Seat::First), "You have no money left: bid `0`.");
    }

    fn state(position: u32, m1: u32, m2: u32, advantage: Seat) -> Bidding {
        Bidding {
            position,
            length: 10,
            money: BySeat::new(m1, m2),
            advantage,
        }
    }

    #[test]
    fn the_picture_shows_the_bottle_money_and_advantage() {
        assert_eq!(
            state(3, 80, 55, Seat::Second).picture(),
            "0 ---o------- 10   bottle at 3\nmoney: player 1 80, player 2 55; draw advantage: player 2"
        );
    }

    fn play(game: &mut Bidding, b1: u32, b2: u32) {
        for (seat, b) in [(Seat::First, b1), (Seat::Second, b2)] {
            game.check(seat, &Bid(b)).unwrap();
        }
        game.apply(&BySeat::new(Some(Bid(b1)), Some(Bid(b2))));
    }

    #[test]
    fn start_state() {
        let g = Bidding::new(&BiddingParams::default()).unwrap();
        assert_eq!(g, state(5, 100, 100, Seat::First));
        assert_eq!(g.to_act(), BySeat::new(true, true));
        assert_eq!(g.outcome(), None);
        assert_eq!(
            g.observation(Seat::Second),
            "position 5 money 100 100 advantage 1"
        );
    }

    #[test]
    fn rounds_table() {
        // (before, bids, after)
        let cases = [
            // higher bid moves the bottle toward its bidder, who alone pays
            (
                state(5, 100, 100, Seat::First),
                (20, 21),
                state(6, 100, 79, Seat::First),
            ),
            (
                state(5, 100, 100, Seat::First),
                (30, 7),
                state(4, 70, 100, Seat::First),
            ),
            // a tie goes to the advantage holder, who pays and passes the advantage
            (
                state(5, 100, 100, Seat::First),
                (17, 17),
                state(4, 83, 100, Seat::Second),
            ),
            (
                state(5, 83, 100, Seat::Second),
                (9, 9),
                state(6, 83, 91, Seat::First),
            ),
            // a broke player bids 0 and loses every bid
            (
                state(5, 0, 10, Seat::First),
                (0, 1),
                state(6, 0, 9, Seat::First),
            ),
            (
                state(5, 10, 0, Seat::Second),
                (1, 0),
                state(4, 9, 0, Seat::Second),
            ),
        ];
        for (before, (b1, b2), after) in cases {
            let mut g = before.clone();
            play(&mut g, b1, b2);
            assert_eq!(g, after, "from {before:?} with bids {b1} {b2}");
        }
    }

    #[test]
    fn illegal_bids() {
        let g = state(5, 10, 0, Seat::First);
        assert!(
            g.check(Seat::First, &Bid(0)).is_err(),
            "solvent player bids 0"
        );
        assert!(g.check(Seat::First, &Bid(11)).is_err(), "bid above money");
        assert!(g.check(Seat::First, &Bid(10)).is_ok(), "all-in");
        assert!(
            g.check(Seat::Second, &Bid(1)).is_err(),
            "broke player bids 1"
        );
        assert!(g.check(Seat::Second, &Bid(0)).is_ok());
        assert_eq!(g.legal_moves(Seat::Second), vec![Bid(0)]);
        assert_eq!(g.legal_moves(Seat::First).len(), 10);
        assert!("-1".parse::<Bid>().is_err());
        assert!("x".parse::<Bid>().is_err());
        assert_eq!(" 7".trim().parse::<Bid>(), Ok(Bid(7)));
        for bid in [0, 7, 100, u32::MAX] {
            assert_eq!(Bid(bid).to_string(), format!("{bid}"));
        }
    }

    #[test]
    fn ends_at_either_goal_or_when_both_broke() {
        let mut g = state(1, 5, 5, Seat::First);
        play(&mut g, 3, 2);
        assert_eq!(g.outcome(), Some(BySeat::new(100, 0)));
        assert_eq!(g.to_act(), BySeat::new(false, false));

        let mut g = state(9, 5, 5, Seat::First);
        play(&mut g, 3, 4);
        assert_eq!(g.outcome(), Some(BySeat::new(0, 100)));

        // the last coin spent without reaching a goal: a draw
        let mut g = state(5, 0, 1, Seat::First);
        play(&mut g, 0, 1);
        assert_eq!(g.money, BySeat::new(0, 0));
        assert_eq!(g.outcome(), Some(BySeat::new(50, 50)));

        // a goal reached with the last coin is still a win
        let mut g = state(9, 0, 1, Seat::First);
        play(&mut g, 0, 1);
        assert_eq!(g.outcome(), Some(BySeat::new(0, 100)));
    }

    #[test]
    fn params_are_checked() {
        let ok = BiddingParams::default();
        assert!(Bidding::new(&ok).is_ok());
        for bad in [
            BiddingParams {
                start: 0,
                ..ok.clone()
            },
            BiddingParams {
                start: 10,
                ..ok.clone()
            },
            BiddingParams {
                length: 1,
                start: 1,
                ..ok.clone()
            },
        ] {
            assert!(Bidding::new(&bad).is_err(), "{bad:?}");
        }
    }
}
