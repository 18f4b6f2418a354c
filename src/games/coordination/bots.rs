//! Coordination bots beyond `random`: a fixed convention, a copier, and the
//! design card's coordination player, `coordinator`.
//!
//! Why `coordinator` randomises: two deterministic copiers that start on
//! different sides swap sides every round and never meet. After a miss,
//! `coordinator` moves to the other player's last side with probability 1/2,
//! so each round after a miss meets with probability at least 1/2 against
//! itself, a copier or any fixed convention, and a pair locks in within a
//! few rounds (two rounds on average).

use rand::Rng as _;
use serde::Deserialize;

use super::{Coordination, Side};
use crate::{
    core::bot::{simple, with_params, Answer, BotError, BotRng, Builtin},
    Bot, BySeat, Seat, TimeLeft,
};

pub const BOTS: &[Builtin<Coordination>] = &[
    Builtin {
        name: "left",
        about: "always left: a fixed convention",
        make: simple::<Coordination, Left>,
    },
    Builtin {
        name: "copycat",
        about: "plays `start` (left) first, then whatever the other player chose last round",
        make: |name, params| with_params(name, params, Copycat::new),
    },
    Builtin {
        name: "coordinator",
        about: "starts on `start` (left); after a miss takes the other's last side with probability 1/2",
        make: |name, params| with_params(name, params, Coordinator::new),
    },
];

/// The parameters of `copycat` and `coordinator`: the side of the first round.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StartParams {
    /// `left` (the default) or `right`.
    #[serde(deserialize_with = "side")]
    pub start: Side,
}

impl Default for StartParams {
    fn default() -> Self {
        StartParams { start: Side::Left }
    }
}

fn side<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Side, D::Error> {
    let text = String::deserialize(d)?;
    text.parse().map_err(serde::de::Error::custom)
}

/// Always plays `left`.
#[derive(Default)]
pub struct Left;

impl Bot<Coordination> for Left {
    fn choose(&mut self, _: &Coordination, _: Seat, _: TimeLeft) -> Result<Answer<Side>, BotError> {
        Ok(Answer::from(Side::Left))
    }
}

/// Plays its start side, then repeats the other player's last choice.
pub struct Copycat {
    start: Side,
    seat: Option<Seat>,
    last: Option<Side>,
}

impl Copycat {
    pub fn new(p: &StartParams) -> Self {
        Copycat {
            start: p.start,
            seat: None,
            last: None,
        }
    }
}

impl Default for Copycat {
    fn default() -> Self {
        Copycat::new(&StartParams::default())
    }
}

impl Bot<Coordination> for Copycat {
    fn new_game(&mut self, _: &Coordination, seat: Seat, _: u64) -> Result<(), BotError> {
        self.seat = Some(seat);
        self.last = None;
        Ok(())
    }

    fn choose(&mut self, _: &Coordination, _: Seat, _: TimeLeft) -> Result<Answer<Side>, BotError> {
        Ok(Answer::from(self.last.unwrap_or(self.start)))
    }

    fn observe(&mut self, _: &Coordination, moves: &BySeat<Option<Side>>) -> Result<(), BotError> {
        if let Some(seat) = self.seat {
            self.last = moves[seat.other()];
        }
        Ok(())
    }
}

/// Starts on its start side, keeps its side after a match, and after a miss
/// takes the other player's last side with probability 1/2.
pub struct Coordinator {
    start: Side,
    seat: Seat,
    mine: Side,
    rng: BotRng,
}

impl Coordinator {
    pub fn new(p: &StartParams) -> Self {
        Coordinator {
            start: p.start,
            seat: Seat::First,
            mine: p.start,
            rng: BotRng::default(),
        }
    }
}

impl Default for Coordinator {
    fn default() -> Self {
        Coordinator::new(&StartParams::default())
    }
}

impl Bot<Coordination> for Coordinator {
    fn new_game(&mut self, _: &Coordination, seat: Seat, seed: u64) -> Result<(), BotError> {
        self.seat = seat;
        self.mine = self.start;
        self.rng.reseed(seed);
        Ok(())
    }

    fn choose(&mut self, _: &Coordination, _: Seat, _: TimeLeft) -> Result<Answer<Side>, BotError> {
        Ok(Answer::from(self.mine))
    }

    fn observe(&mut self, _: &Coordination, moves: &BySeat<Option<Side>>) -> Result<(), BotError> {
        if let Some(theirs) = moves[self.seat.other()] {
            if theirs != self.mine && self.rng.random_bool(0.5) {
                self.mine = theirs;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        core::{bot::RandomBot, referee::play_game},
        games::coordination::CoordinationParams,
        Game,
    };

    fn mean_goal(a: &mut dyn Bot<Coordination>, b: &mut dyn Bot<Coordination>, games: u64) -> f64 {
        let total: i32 = (0..games)
            .map(|g| {
                let p = play_game(
                    &Coordination::new(&CoordinationParams::default()).unwrap(),
                    BySeat::new(&mut *a, &mut *b),
                    BySeat::new(g, g + 99),
                    100,
                );
                p.goals.first
            })
            .sum();
        f64::from(total) / games as f64
    }

    #[test]
    fn conventions_coordinate_and_copycats_follow() {
        assert_eq!(mean_goal(&mut Left, &mut Left, 3), 100.0);
        assert_eq!(
            mean_goal(&mut Copycat::default(), &mut Copycat::default(), 3),
            100.0
        );
        // copycat misses at most the first round against a fixed convention
        assert_eq!(mean_goal(&mut Left, &mut Copycat::default(), 3), 100.0);
        let right = StartParams { start: Side::Right };
        assert_eq!(
            mean_goal(&mut Copycat::default(), &mut Copycat::new(&right), 50),
            0.0,
            "two copycats that start apart swap sides forever"
        );
        let vs_random = mean_goal(&mut Copycat::default(), &mut RandomBot::new(), 400);
        assert!(
            (vs_random - 50.0).abs() < 3.0,
            "random matches half the time: {vs_random}"
        );
    }

    #[test]
    fn coordinators_lock_in_where_copycats_cannot() {
        let right = StartParams { start: Side::Right };
        type Player = Box<dyn Bot<Coordination>>;
        let pairs: Vec<(&str, Player, Player)> = vec![
            (
                "itself",
                Box::new(Coordinator::default()),
                Box::new(Coordinator::default()),
            ),
            (
                "itself, started apart",
                Box::new(Coordinator::default()),
                Box::new(Coordinator::new(&right)),
            ),
            (
                "copycat started apart",
                Box::new(Coordinator::default()),
                Box::new(Copycat::new(&right)),
            ),
            (
                "a fixed convention",
                Box::new(Coordinator::new(&right)),
                Box::new(Left),
            ),
        ];
        // Started apart, each round after a miss meets with probability 1/2:
        // two misses on average, 10 of 100 points lost in a 20-round game.
        for (what, mut a, mut b) in pairs {
            let mean = mean_goal(a.as_mut(), b.as_mut(), 500);
            if what == "itself" {
                assert_eq!(mean, 100.0, "two coordinators start together");
            } else {
                assert!((88.0..=92.0).contains(&mean), "with {what}: {mean} of 100");
            }
        }
    }

    #[test]
    fn start_parameter_is_checked() {
        let table = |text: &str| text.parse::<toml::Table>().unwrap();
        let bot = |params: &str| {
            super::BOTS
                .iter()
                .find(|b| b.name == "coordinator")
                .map(|b| (b.make)("coordinator", &table(params)))
                .unwrap()
        };
        assert!(bot("start = \"right\"").is_ok());
        let err = bot("start = \"up\"").err().unwrap();
        assert!(err.message.contains("`left` or `right`"), "{err}");
        let err = bot("speed = 3").err().unwrap();
        assert_eq!(err.key.as_deref(), Some("speed"), "{err}");
    }
}
