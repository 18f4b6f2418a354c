//! Coordination bots beyond `random`.

use super::{Coordination, Side};
use crate::{
    core::bot::{simple, BotError, Builtin},
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
        about: "plays left first, then whatever the other player chose last round",
        make: simple::<Coordination, Copycat>,
    },
];

/// Always plays `left`.
#[derive(Default)]
pub struct Left;

impl Bot<Coordination> for Left {
    fn choose(&mut self, _: &Coordination, _: Seat, _: TimeLeft) -> Result<Side, BotError> {
        Ok(Side::Left)
    }
}

/// Plays `left`, then repeats the other player's last choice.
#[derive(Default)]
pub struct Copycat {
    seat: Option<Seat>,
    last: Option<Side>,
}

impl Bot<Coordination> for Copycat {
    fn new_game(&mut self, _: &Coordination, seat: Seat, _: u64) -> Result<(), BotError> {
        *self = Copycat {
            seat: Some(seat),
            last: None,
        };
        Ok(())
    }

    fn choose(&mut self, _: &Coordination, _: Seat, _: TimeLeft) -> Result<Side, BotError> {
        Ok(self.last.unwrap_or(Side::Left))
    }

    fn observe(&mut self, _: &Coordination, moves: &BySeat<Option<Side>>) -> Result<(), BotError> {
        if let Some(seat) = self.seat {
            self.last = moves[seat.other()];
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
        let vs_random = mean_goal(&mut Copycat::default(), &mut RandomBot::new(), 400);
        assert!(
            (vs_random - 50.0).abs() < 3.0,
            "random matches half the time: {vs_random}"
        );
    }
}
