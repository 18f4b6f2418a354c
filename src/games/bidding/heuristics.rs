//! Heuristic bidders of the kinds contest bots use, so a leaderboard (and
//! `exploit`'s tests) has distinct styles to tell apart:
//! - `fraction`: bids a fixed share of its money;
//! - `climber`: bids one more than it bid last round;
//! - `mirror`: bids what the opponent bid last round;
//! - `position`: bids from the position alone, a table by distance to its goal;
//! - `pacer`: bids its money divided by the steps still to go, rounded up;
//! - `enough`: bids just enough to have beaten the opponent's last bid (one
//!   more, or the same when it holds the draw advantage).
//!
//! Each takes `noise` (0 by default): up to that much is added to or taken
//! from every bid, uniformly at random (from the game's seed). Each then
//! clamps its bid to the legal range (at least 1 while it has money, exactly
//! 0 when broke, never more than it holds).

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

/// Up to `noise` either way, uniformly; nothing drawn when `noise` is 0
/// (so a bot without noise never touches its generator).
fn jitter(rng: &mut BotRng, noise: u32) -> i64 {
    let noise = i64::from(noise);
    if noise > 0 {
        rng.random_range(-noise..=noise)
    } else {
        0
    }
}

/// The parameters of `fraction`.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FractionParams {
    /// The share of its money it bids, 0 to 1.
    pub share: f64,
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

/// The parameters of `climber`, `mirror` and `enough`: a first bid.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartParams {
    /// Its first bid.
    pub start: Option<u32>,
    #[serde(default)]
    pub noise: u32,
}

/// The parameters of `position`.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PositionParams {
    /// Its bid at distance 1, 2, ... from its goal; the last one beyond.
    pub bids: Vec<u32>,
    pub noise: u32,
}

impl Default for PositionParams {
    fn default() -> Self {
        PositionParams {
            bids: vec![30, 22, 16, 13, 11, 9, 8, 7, 6],
            noise: 0,
        }
    }
}

/// The parameters of `pacer`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NoiseParams {
    pub noise: u32,
}

/// How a heuristic bidder picks its bid before noise.
#[derive(Clone, Debug)]
pub enum Style {
    Fraction { share: f64 },
    Climber { start: u32 },
    Mirror { start: u32 },
    Position { bids: Vec<u32> },
    Pacer,
    Enough { start: u32 },
}

/// A heuristic bidder: a style, and noise.
pub struct Heuristic {
    style: Style,
    noise: u32,
    rng: BotRng,
    seat: Seat,
    /// Last round's bids, its own and the opponent's.
    last: Option<(u32, u32)>,
}

impl Heuristic {
    pub fn new(style: Style, noise: u32) -> Self {
        Heuristic {
            style,
            noise,
            rng: BotRng::default(),
            seat: Seat::First,
            last: None,
        }
    }

    pub fn fraction(p: &FractionParams) -> Self {
        Heuristic::new(
            Style::Fraction {
                share: p.share.clamp(0.0, 1.0),
            },
            p.noise,
        )
    }

    pub fn climber(p: &StartParams) -> Self {
        let start = p.start.unwrap_or(8);
        Heuristic::new(Style::Climber { start }, p.noise)
    }

    pub fn mirror(p: &StartParams) -> Self {
        let start = p.start.unwrap_or(12);
        Heuristic::new(Style::Mirror { start }, p.noise)
    }

    pub fn position(p: &PositionParams) -> Self {
        Heuristic::new(
            Style::Position {
                bids: p.bids.clone(),
            },
            p.noise,
        )
    }

    pub fn pacer(p: &NoiseParams) -> Self {
        Heuristic::new(Style::Pacer, p.noise)
    }

    pub fn enough(p: &StartParams) -> Self {
        let start = p.start.unwrap_or(12);
        Heuristic::new(Style::Enough { start }, p.noise)
    }

    /// The bid before noise and before it is made legal.
    fn wanted(&self, game: &Bidding, seat: Seat) -> i64 {
        let money = game.money[seat];
        let distance = match seat {
            Seat::First => game.position,
            Seat::Second => game.length - game.position,
        };
        i64::from(match &self.style {
            Style::Fraction { share } => return (f64::from(money) * share).round() as i64,
            Style::Climber { start } => self.last.map_or(*start, |(own, _)| own + 1),
            Style::Mirror { start } => self.last.map_or(*start, |(_, other)| other),
            Style::Position { bids } => {
                let i = (distance as usize).clamp(1, bids.len().max(1)) - 1;
                bids.get(i).copied().unwrap_or(1)
            }
            Style::Pacer => money.div_ceil(distance.max(1)),
            Style::Enough { start } => self.last.map_or(*start, |(_, other)| {
                other + u32::from(game.advantage != seat)
            }),
        })
    }
}

impl Bot<Bidding> for Heuristic {
    fn new_game(&mut self, _: &Bidding, seat: Seat, seed: u64) -> Result<(), BotError> {
        self.rng.reseed(seed);
        self.seat = seat;
        self.last = None;
        Ok(())
    }

    fn choose(&mut self, game: &Bidding, seat: Seat, _: TimeLeft) -> Result<Answer<Bid>, BotError> {
        let wanted = self.wanted(game, seat) + jitter(&mut self.rng, self.noise);
        Ok(Answer::from(legal(wanted, game.money[seat])))
    }

    fn observe(&mut self, _: &Bidding, moves: &BySeat<Option<Bid>>) -> Result<(), BotError> {
        self.last = match (moves[self.seat], moves[self.seat.other()]) {
            (Some(own), Some(other)) => Some((own.0, other.0)),
            _ => None,
        };
        Ok(())
    }
}
