//! Breakthrough bots beyond `random`.

use rand::{seq::IndexedRandom, SeedableRng};

use super::{Breakthrough, Step};
use crate::{
    core::bot::{simple, BotError, Builtin, Crash},
    Bot, Game, Rng, Seat, TimeLeft,
};

pub const BOTS: &[Builtin<Breakthrough>] = &[Builtin {
    name: "greedy",
    about: "wins at once if it can, else captures the most advanced enemy piece, else steps where no enemy can capture",
    make: simple::<Breakthrough, Greedy>,
}];

/// One-ply greedy play: a winning step, else the capture of the enemy piece
/// nearest its goal, else a random step onto a cell no enemy piece attacks,
/// else any random step.
pub struct Greedy {
    rng: Rng,
}

impl Default for Greedy {
    fn default() -> Self {
        Greedy {
            rng: Rng::seed_from_u64(0),
        }
    }
}

/// How far a piece of `seat` on `square` has come (0 on its own home row).
fn progress(seat: Seat, square: u8) -> u8 {
    match seat {
        Seat::First => square / 8,
        Seat::Second => 7 - square / 8,
    }
}

impl Bot<Breakthrough> for Greedy {
    fn new_game(&mut self, _: &Breakthrough, _: Seat, seed: u64) -> Result<(), BotError> {
        self.rng = Rng::seed_from_u64(seed);
        Ok(())
    }

    fn choose(&mut self, game: &Breakthrough, seat: Seat, _: TimeLeft) -> Result<Step, BotError> {
        let moves = game.legal_moves(seat);
        let enemy = game.pieces[seat.other()];
        let pick = |rng: &mut Rng, steps: &[Step]| steps.choose(rng).copied();
        if let Some(win) = moves.iter().find(|s| progress(seat, s.to) == 7) {
            return Ok(*win);
        }
        let captures: Vec<Step> = moves
            .iter()
            .copied()
            .filter(|s| enemy & (1 << s.to) != 0)
            .collect();
        if let Some(most) = captures.iter().map(|s| progress(seat.other(), s.to)).max() {
            let best: Vec<Step> = captures
                .into_iter()
                .filter(|s| progress(seat.other(), s.to) == most)
                .collect();
            return Ok(pick(&mut self.rng, &best).expect("non-empty"));
        }
        let attacked = game.attacks(seat.other());
        let safe: Vec<Step> = moves
            .iter()
            .copied()
            .filter(|s| attacked & (1 << s.to) == 0)
            .collect();
        let chosen = pick(&mut self.rng, &safe).or_else(|| pick(&mut self.rng, &moves));
        chosen.ok_or_else(|| BotError::Crash(Crash::Unplayable("no legal move".into())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        core::{bot::RandomBot, referee::play_game},
        games::breakthrough::BreakthroughParams,
        BySeat, GameResult,
    };

    #[test]
    fn greedy_takes_a_win_and_the_most_dangerous_capture() {
        let sq = |s: &str| 1u64 << ((s.as_bytes()[1] - b'1') * 8 + (s.as_bytes()[0] - b'a'));
        let mut bot = Greedy::default();
        // white can win from c7 and could also capture on d5
        let g = Breakthrough::from_pieces(sq("c7") | sq("c4"), sq("d5") | sq("h8"), Seat::First);
        let step = bot
            .choose(
                &g,
                Seat::First,
                TimeLeft::new(std::time::Duration::from_secs(1), std::time::Duration::ZERO),
            )
            .unwrap();
        assert_eq!(
            (step.from, step.to / 8),
            (sq("c7").trailing_zeros() as u8, 7),
            "{step}"
        );
        // two captures: the black piece on b2 is one step from winning
        let g = Breakthrough::from_pieces(
            sq("a1") | sq("e4"),
            sq("b2") | sq("f5") | sq("h8"),
            Seat::First,
        );
        assert_eq!(
            bot.choose(
                &g,
                Seat::First,
                TimeLeft::new(std::time::Duration::from_secs(1), std::time::Duration::ZERO)
            )
            .unwrap()
            .to_string(),
            "a1b2"
        );
    }

    #[test]
    fn greedy_beats_random_clearly() {
        let params = BreakthroughParams::default();
        let mut wins = 0;
        for game in 0..200u64 {
            let (mut greedy, mut random) = (Greedy::default(), RandomBot::new());
            let seat = if game % 2 == 0 {
                Seat::First
            } else {
                Seat::Second
            };
            let bots: BySeat<&mut dyn Bot<Breakthrough>> = match seat {
                Seat::First => BySeat::new(&mut greedy, &mut random),
                Seat::Second => BySeat::new(&mut random, &mut greedy),
            };
            let played = play_game(
                &Breakthrough::new(&params).unwrap(),
                bots,
                BySeat::new(game, game + 1000),
                1000,
            );
            wins += usize::from(played.result == GameResult::win(seat));
        }
        assert!(wins >= 180, "greedy won only {wins} of 200");
    }
}
