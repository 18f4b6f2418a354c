//! Troops bots beyond `random`.

use rand::{seq::SliceRandom, SeedableRng};

use super::{Split, Troops};
use crate::{
    core::bot::{simple, BotError, Builtin},
    Bot, Rng, Seat, TimeLeft,
};

pub const BOTS: &[Builtin<Troops>] = &[Builtin {
    name: "balanced",
    about: "splits the troops as evenly as possible (3,3,4), the larger share on a random field",
    make: simple::<Troops, Balanced>,
}];

/// The most even split, shuffled over the fields each round.
pub struct Balanced {
    rng: Rng,
}

impl Default for Balanced {
    fn default() -> Self {
        Balanced {
            rng: Rng::seed_from_u64(0),
        }
    }
}

impl Bot<Troops> for Balanced {
    fn new_game(&mut self, _: &Troops, _: Seat, seed: u64) -> Result<(), BotError> {
        self.rng = Rng::seed_from_u64(seed);
        Ok(())
    }

    fn choose(&mut self, game: &Troops, _: Seat, _: TimeLeft) -> Result<Split, BotError> {
        let (base, extra) = (game.troops / 3, game.troops % 3);
        let mut split = [0, 1, 2].map(|field| base + u32::from(field < extra));
        split.shuffle(&mut self.rng);
        Ok(Split(split))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        core::{bot::RandomBot, referee::play_game},
        games::troops::TroopsParams,
        BySeat, Game, GameResult,
    };

    #[test]
    fn balanced_splits_are_legal_and_beat_random() {
        let params = TroopsParams::default();
        let (mut won, mut lost) = (0, 0);
        for g in 0..400u64 {
            let (mut a, mut b) = (Balanced::default(), RandomBot::new());
            let p = play_game(
                &Troops::new(&params).unwrap(),
                BySeat::new(&mut a, &mut b),
                BySeat::new(g, g + 7),
                100,
            );
            assert_eq!(p.termination, crate::core::referee::Termination::Normal);
            for t in &p.turns {
                let mut s = t.first.unwrap().0;
                s.sort();
                assert_eq!(s, [3, 3, 4]);
            }
            won += usize::from(p.result == GameResult::First);
            lost += usize::from(p.result == GameResult::Second);
        }
        assert!(won > 2 * lost, "balanced won {won}, lost {lost} of 400");
    }
}
