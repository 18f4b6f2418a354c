//! Heuristic bidders of the kind people write first, so a leaderboard (and
//! `exploit`'s tests) has distinct styles to tell apart:
//! - `fraction`: bids a fixed share of its money, optionally with noise;
//! - `climber`: bids one more than it bid last round;
//! - `mirror`: bids what the opponent bid last round.
//!
//! Each clamps its bid to the legal range (at least 1 while it has money,
//! exactly 0 when broke, never more than it holds).

use rand::Rng as _;
use serde::Deserialize;

use super::{Bid, Bidding};
use crate::{
    core::bot::{Answer, BotError, BotRng},
    Bot, BySeat, Seat, TimeLeft,
};

/// A legal bid of a player holding `money` closest to `wanted`.
pub(super) fn legal(wanted: i64, money: u32) -> Bid {
    Bid(if money == 0 {
        0
    } else {
        wanted.clamp(1, i64::from(money)) as u32
    })
}

/// The parameters of `fraction`.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FractionParams {
    /// The share of its money it bids, 0 to 1.
    pub share: f64,
    /// Up to this much is added to or taken from each bid, uniformly.
    pub noise: u32,
}

impl Default for FractionParams {
    fn default() -> Self {
        FractionParams {
            share: 0.15,
            noise: 0,
        }
    }
}

/// Bids `share` of its money, plus or minus up to `noise`.
pub struct Fraction {
    params: FractionParams,
    rng: BotRng,
}

impl Fraction {
    pub fn new(params: &FractionParams) -> Self {
        Fraction {
            params: params.clone(),
            rng: BotRng::default(),
        }
    }
}

impl Bot<Bidding> for Fraction {
    fn new_game(&mut self, _: &Bidding, _: Seat, seed: u64) -> Result<(), BotError> {
        self.rng.reseed(seed);
        Ok(())
    }

    fn choose(&mut self, game: &Bidding, seat: Seat, _: TimeLeft) -> Result<Answer<Bid>, BotError> {
        let money = game.money[seat];
        let base = (f64::from(money) * self.params.share.clamp(0.0, 1.0)).round() as i64;
        let noise = i64::from(self.params.noise);
        let jitter = if noise > 0 {
            self.rng.random_range(-noise..=noise)
        } else {
            0
        };
        Ok(Answer::from(legal(base + jitter, money)))
    }
}

/// The parameters of `climber`.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClimberParams {
    /// Its first bid.
    pub start: u32,
}

impl Default for ClimberParams {
    fn default() -> Self {
        ClimberParams { start: 8 }
    }
}

/// Bids `start`, then one more than its own last bid.
pub struct Climber {
    start: u32,
    seat: Seat,
    last: Option<u32>,
}

impl Climber {
    pub fn new(params: &ClimberParams) -> Self {
        Climber {
            start: params.start,
            seat: Seat::First,
            last: None,
        }
    }
}

impl Bot<Bidding> for Climber {
    fn new_game(&mut self, _: &Bidding, seat: Seat, _: u64) -> Result<(), BotError> {
        self.seat = seat;
        self.last = None;
        Ok(())
    }

    fn choose(&mut self, game: &Bidding, seat: Seat, _: TimeLeft) -> Result<Answer<Bid>, BotError> {
        let wanted = self.last.map_or(self.start, |b| b + 1);
        Ok(Answer::from(legal(i64::from(wanted), game.money[seat])))
    }

    fn observe(&mut self, _: &Bidding, moves: &BySeat<Option<Bid>>) -> Result<(), BotError> {
        self.last = moves[self.seat].map(|b| b.0);
        Ok(())
    }
}

/// The parameters of `mirror`.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MirrorParams {
    /// Its first bid.
    pub start: u32,
}

impl Default for MirrorParams {
    fn default() -> Self {
        MirrorParams { start: 12 }
    }
}

/// Bids `start`, then whatever the opponent bid last round.
pub struct Mirror {
    start: u32,
    seat: Seat,
    theirs: Option<u32>,
}

impl Mirror {
    pub fn new(params: &MirrorParams) -> Self {
        Mirror {
            start: params.start,
            seat: Seat::First,
            theirs: None,
        }
    }
}

impl Bot<Bidding> for Mirror {
    fn new_game(&mut self, _: &Bidding, seat: Seat, _: u64) -> Result<(), BotError> {
        self.seat = seat;
        self.theirs = None;
        Ok(())
    }

    fn choose(&mut self, game: &Bidding, seat: Seat, _: TimeLeft) -> Result<Answer<Bid>, BotError> {
        Ok(Answer::from(legal(
            i64::from(self.theirs.unwrap_or(self.start)),
            game.money[seat],
        )))
    }

    fn observe(&mut self, _: &Bidding, moves: &BySeat<Option<Bid>>) -> Result<(), BotError> {
        self.theirs = moves[self.seat.other()].map(|b| b.0);
        Ok(())
    }
}
