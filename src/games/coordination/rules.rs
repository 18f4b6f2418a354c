//! Coordination: a pure coordination game (from a short rule text; every rule
//! ladder decided is stated below).
//!
//! Rules:
//! - Each round both players choose `left` or `right` at once.
//! - If the choices are equal, both score `reward` points; otherwise neither scores.
//! - After `rounds` rounds each player's goal is their score. Both always score the
//!   same, so every game is a draw in the standings: the game is cooperative, and
//!   the mean goal is what tells bots apart.
//!
//! Parameters (defaults): `rounds` (20), `reward` (5).
//!
//! Moves: `left` or `right`.
//! Observation: `round R of N score S`.

use std::{fmt, str::FromStr};

use rand::Rng as _;
use serde::{Deserialize, Serialize};

use crate::{
    core::{
        error::Invalid,
        game::{check_range, fields, list_moves, not_over, round_of, Game, IllegalMove, Words},
        seat::{BySeat, Seat},
    },
    show::scene::{rounds_picture, rounds_scene, View},
    show::Show,
    Rng,
};

/// The parameters of a coordination game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CoordinationParams {
    pub rounds: u32,
    pub reward: u32,
}

impl Default for CoordinationParams {
    fn default() -> Self {
        CoordinationParams {
            rounds: 20,
            reward: 5,
        }
    }
}

/// A direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Left,
    Right,
}

impl Side {
    /// Its wire form: the one text of `Display` and of journal lines
    /// ([`Game::write_move`]).
    fn text(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl FromStr for Side {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "left" => Ok(Side::Left),
            "right" => Ok(Side::Right),
            _ => Err(format!("a move is `left` or `right`, not `{s}`")),
        }
    }
}

/// A coordination game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coordination {
    pub round: u32,
    pub rounds: u32,
    pub reward: u32,
    /// Both players' score (always equal).
    pub score: i32,
}

/// The name configs and the command line use.
pub const NAME: &str = "coordination";
/// One line for `ladder list games`.
pub const ABOUT: &str =
    "choose left or right each round; both score when the choices match (cooperative)";

impl Game for Coordination {
    type Move = Side;
    type Params = CoordinationParams;

    fn new(p: &CoordinationParams) -> Result<Self, Invalid> {
        check_params(p)?;
        Ok(Coordination {
            round: 0,
            rounds: p.rounds,
            reward: p.reward,
            score: 0,
        })
    }

    fn name(&self) -> &str {
        NAME
    }

    fn to_act(&self) -> BySeat<bool> {
        let acting = self.round < self.rounds;
        BySeat::new(acting, acting)
    }

    fn legal_moves(&self, _seat: Seat) -> Vec<Side> {
        if self.round >= self.rounds {
            Vec::new()
        } else {
            vec![Side::Left, Side::Right]
        }
    }

    fn random_move(&self, _seat: Seat, rng: &mut Rng) -> Side {
        if rng.random::<bool>() {
            Side::Left
        } else {
            Side::Right
        }
    }

    fn write_move(mv: &Side, out: &mut Vec<u8>) {
        out.extend_from_slice(mv.text().as_bytes());
    }

    fn check(&self, _seat: Seat, _mv: &Side) -> Result<(), IllegalMove> {
        if self.round >= self.rounds {
            Err(IllegalMove::new("the game is over"))
        } else {
            Ok(())
        }
    }

    fn apply(&mut self, moves: &BySeat<Option<Side>>) {
        if moves.first.is_some() && moves.first == moves.second {
            self.score += self.reward as i32;
        }
        self.round += 1;
    }

    fn outcome(&self) -> Option<BySeat<i32>> {
        (self.round >= self.rounds).then_some(BySeat::new(self.score, self.score))
    }

    fn max_goal(&self) -> i32 {
        (self.rounds * self.reward) as i32
    }

    fn from_position(p: &CoordinationParams, text: &str) -> Result<Self, Invalid> {
        let start = Coordination::new(p)?;
        let f = fields(text, "round # of # score #")?;
        round_of(f[0], f[1], start.rounds)?;
        let round = f[0] as u32 - 1;
        // `reward` for each of the rounds before that the bots agreed on
        let reward = u64::from(start.reward);
        let score = f[2];
        if score % reward.max(1) != 0 || score > reward * u64::from(round) {
            return Err(Invalid::new(format!(
                "score {score} after {}: a multiple of the reward {reward}, at most {}",
                crate::core::text::count(round, "round"),
                reward * u64::from(round)
            )));
        }
        not_over(Coordination {
            round,
            score: i32::try_from(score).map_err(|_| Invalid::new("the score is too large"))?,
            ..start
        })
    }

    fn write_observation(&self, _seat: Seat, out: &mut String) {
        Words::round_of(out, self.round, self.rounds)
            .word("score")
            .number(self.score);
    }
}

impl Show for Coordination {
    /// The observation, or once all rounds are played, that they were.
    fn picture(&self) -> String {
        let over = self.round >= self.rounds;
        rounds_picture(self.observation(Seat::First), self.rounds, over)
    }
    const MOVE_WORD: &'static str = "choice";
    fn scene(&self, view: &View<'_, Side>) -> String {
        let score = format!("Score (shared): {}", self.score);
        rounds_scene(view, self.rounds, self.round >= self.rounds, &[score])
    }
    fn move_help(&self, seat: Seat) -> String {
        format!(
            "Both players score {} when their choices match, nothing otherwise.\n{}",
            self.reward,
            list_moves(&self.legal_moves(seat))
        )
    }
}

/// Checks parameter values that types cannot (ranges, relations).
fn check_params(p: &CoordinationParams) -> Result<(), Invalid> {
    check_range("rounds", p.rounds, 1..=10_000)?;
    check_range("reward", p.reward, 0..=10_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_choices_score_for_both() {
        let mut g = Coordination::new(&CoordinationParams {
            rounds: 4,
            reward: 5,
        })
        .unwrap();
        let rounds = [
            (Side::Left, Side::Left),
            (Side::Left, Side::Right),
            (Side::Right, Side::Left),
            (Side::Right, Side::Right),
        ];
        for (a, b) in rounds {
            assert_eq!(g.outcome(), None);
            g.apply(&BySeat::new(Some(a), Some(b)));
        }
        assert_eq!(g.outcome(), Some(BySeat::new(10, 10)));
        assert_eq!(g.max_goal(), 20);
        assert!(g.check(Seat::First, &Side::Left).is_err());
    }

    #[test]
    fn parse() {
        assert_eq!("left".parse::<Side>(), Ok(Side::Left));
        assert_eq!(Side::Right.to_string(), "right");
        assert!("up".parse::<Side>().is_err());
        assert!("Left".parse::<Side>().is_err());
    }
}
