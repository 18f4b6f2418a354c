//! Armies bots beyond `random`.

use super::{Armies, Commit, Commitment};
use crate::{
    core::bot::{simple, BotError, Builtin},
    Bot, Seat, TimeLeft,
};

pub const BOTS: &[Builtin<Armies>] = &[Builtin {
    name: "even",
    about: "spreads its armies evenly over the rounds left (all in when armies are added)",
    make: simple::<Armies, Even>,
}];

/// Commits its armies divided by the rounds left, so it never runs dry early.
#[derive(Default)]
pub struct Even;

impl Bot<Armies> for Even {
    fn choose(&mut self, game: &Armies, seat: Seat, _: TimeLeft) -> Result<Commitment, BotError> {
        let armies = game.armies[seat];
        let left = game.rounds - game.round;
        Ok(Commitment(match game.commit {
            Commit::Spend => armies / left.max(1),
            // committing more only grows the armies: always commit everything
            Commit::Add => armies,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        core::{bot::RandomBot, referee::play_game},
        games::armies::ArmiesParams,
        BySeat, Game, GameResult,
    };

    #[test]
    fn even_spreads_its_armies_and_beats_random() {
        let params = ArmiesParams::default();
        let mut won = 0;
        for g in 0..400u64 {
            let (mut a, mut b) = (Even, RandomBot::new());
            let p = play_game(
                &Armies::new(&params).unwrap(),
                BySeat::new(&mut b, &mut a),
                BySeat::new(g, g + 7),
                100,
            );
            let commits: Vec<u32> = p.turns.iter().map(|t| t.second.unwrap().0).collect();
            assert_eq!(commits, vec![2; 10], "20 armies over 10 rounds");
            won += usize::from(p.result == GameResult::Second);
        }
        assert!(won >= 300, "even won only {won} of 400");
    }
}
