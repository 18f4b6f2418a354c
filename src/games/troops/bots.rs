//! Troops bots beyond `random`: two recognisable styles (`balanced`,
//! `focus`) and `nash`, which plays the solved round's equilibrium mix.

use std::sync::Arc;

use rand::seq::SliceRandom;

use super::{
    equilibrium::{Equilibrium, MAX_NASH_TROOPS},
    Split, Troops,
};
use crate::{
    core::{
        bot::{simple, Answer, BotError, BotRng, Builtin},
        error::Invalid,
    },
    games::zero_sum,
    Bot, Seat, TimeLeft,
};

pub const BOTS: &[Builtin<Troops>] = &[
    Builtin {
        name: "balanced",
        about:
            "splits the troops as evenly as possible (3,3,4), the larger share on a random field",
        make: simple::<Troops, Balanced>,
    },
    Builtin {
        name: "focus",
        about: "piles its troops on two random fields, split evenly (5,5,0), conceding the third",
        make: simple::<Troops, Focus>,
    },
    Builtin {
        name: "nash",
        about: "plays the round's equilibrium mix (solved by LP): never behind on average",
        make: simple::<Troops, Nash>,
    },
];

/// The most even split, shuffled over the fields each round.
#[derive(Default)]
pub struct Balanced {
    rng: BotRng,
}

impl Bot<Troops> for Balanced {
    fn new_game(&mut self, _: &Troops, _: Seat, seed: u64) -> Result<(), BotError> {
        self.rng.reseed(seed);
        Ok(())
    }

    fn choose(&mut self, game: &Troops, _: Seat, _: TimeLeft) -> Result<Answer<Split>, BotError> {
        let (base, extra) = (game.troops / 3, game.troops % 3);
        let mut split = [0, 1, 2].map(|field| base + u32::from(field < extra));
        split.shuffle(&mut self.rng);
        Ok(Answer::from(Split(split)))
    }
}

/// Two fields of about half the troops each, the empty field chosen at random.
#[derive(Default)]
pub struct Focus {
    rng: BotRng,
}

impl Bot<Troops> for Focus {
    fn new_game(&mut self, _: &Troops, _: Seat, seed: u64) -> Result<(), BotError> {
        self.rng.reseed(seed);
        Ok(())
    }

    fn choose(&mut self, game: &Troops, _: Seat, _: TimeLeft) -> Result<Answer<Split>, BotError> {
        let half = game.troops / 2;
        let mut split = [half, game.troops - half, 0];
        split.shuffle(&mut self.rng);
        Ok(Answer::from(Split(split)))
    }
}

/// Draws each round's split from the equilibrium mix of one round.
#[derive(Default)]
pub struct Nash {
    solved: Option<Arc<Equilibrium>>,
    rng: BotRng,
}

impl Nash {
    /// The round solved for `troops` (every game of a season shares it).
    fn solution(&mut self, troops: u32) -> Arc<Equilibrium> {
        match &self.solved {
            Some(e) if e.troops == troops => Arc::clone(e),
            _ => Arc::clone(self.solved.insert(Equilibrium::shared(troops))),
        }
    }
}

impl Bot<Troops> for Nash {
    fn plays(&self, start: &Troops) -> Result<(), Invalid> {
        if start.troops > MAX_NASH_TROOPS {
            return Err(Invalid::new(format!(
                "nash solves rounds of up to {MAX_NASH_TROOPS} troops, not {}",
                start.troops
            )));
        }
        Ok(())
    }

    fn new_game(&mut self, game: &Troops, _: Seat, seed: u64) -> Result<(), BotError> {
        self.plays(game)
            .map_err(|e| BotError::Crash(crate::core::bot::Crash::Unplayable(e.message)))?;
        self.solution(game.troops);
        self.rng.reseed(seed);
        Ok(())
    }

    fn choose(&mut self, game: &Troops, _: Seat, _: TimeLeft) -> Result<Answer<Split>, BotError> {
        let solved = self.solution(game.troops);
        Ok(Answer::from(
            solved.splits[zero_sum::sample(&solved.solution.row, &mut self.rng)],
        ))
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

    /// Plays one split every round.
    struct Fixed(Split);

    impl Bot<Troops> for Fixed {
        fn choose(&mut self, _: &Troops, _: Seat, _: TimeLeft) -> Result<Answer<Split>, BotError> {
            Ok(Answer::from(self.0))
        }
    }

    #[test]
    fn nash_is_never_behind_on_average_against_any_fixed_split() {
        let params = TroopsParams::default();
        let start = Troops::new(&params).unwrap();
        let solved = Equilibrium::shared(params.troops);
        for (j, &split) in solved.splits.iter().enumerate() {
            // exactly: the mix's expected margin against the split
            let exact: f64 = (0..solved.splits.len())
                .map(|i| solved.solution.row[i] * solved.margin[i][j])
                .sum();
            assert!(exact > -1e-9, "against {split}: {exact}");
            // and in play: 200 games of 5 rounds, nash in both seats
            let mut margin = 0i64;
            let mut squares = 0i64;
            for g in 0..200u64 {
                let (mut nash, mut fixed) = (Nash::default(), Fixed(split));
                let nash_first = g % 2 == 0;
                let bots: BySeat<&mut dyn Bot<Troops>> = if nash_first {
                    BySeat::new(&mut nash, &mut fixed)
                } else {
                    BySeat::new(&mut fixed, &mut nash)
                };
                let p = play_game(&start, bots, BySeat::new(g, g + 1), 100);
                let m = i64::from(p.goals.first - p.goals.second);
                let m = if nash_first { m } else { -m };
                margin += m;
                squares += m * m;
            }
            let mean = margin as f64 / 200.0;
            let sd = (squares as f64 / 200.0 - mean * mean).max(0.0).sqrt();
            // a mean margin below zero by more than 4 standard errors would
            // mean nash loses on average to this split
            assert!(
                mean >= -4.0 * sd / 200f64.sqrt(),
                "nash against {split}: mean margin {mean} (sd {sd})"
            );
        }
    }

    #[test]
    fn nash_gains_on_random_play() {
        // The styles are mixes of fixed splits, covered above; random play
        // wastes troops, and nash profits: exactly, and in play.
        let solved = Equilibrium::shared(10);
        let n = solved.splits.len();
        let exact: f64 = (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .map(|(i, j)| solved.solution.row[i] * solved.margin[i][j] / n as f64)
            .sum();
        assert!(
            exact > 0.1,
            "expected margin per round against random: {exact}"
        );
        let start = Troops::new(&TroopsParams::default()).unwrap();
        let games = 4000;
        let mut margin = 0;
        for g in 0..games {
            let p = play_game(
                &start,
                BySeat::new(&mut Nash::default(), &mut RandomBot::new()),
                BySeat::new(g, g + 5),
                100,
            );
            margin += p.goals.first - p.goals.second;
        }
        let per_round = f64::from(margin) / (games as f64 * 5.0);
        assert!(
            (per_round - exact).abs() < 0.1,
            "mean margin per round in play {per_round}, expected {exact}"
        );
    }

    #[test]
    fn focus_leaves_one_field_empty() {
        let params = TroopsParams::default();
        let p = play_game(
            &Troops::new(&params).unwrap(),
            BySeat::new(&mut Focus::default(), &mut Balanced::default()),
            BySeat::new(1, 2),
            100,
        );
        for t in &p.turns {
            let mut s = t.first.unwrap().0;
            s.sort();
            assert_eq!(s, [0, 5, 5]);
        }
    }

    #[test]
    fn nash_refuses_rounds_too_large_to_solve() {
        let big = Troops::new(&TroopsParams {
            troops: MAX_NASH_TROOPS + 1,
            rounds: 1,
        })
        .unwrap();
        let err = Nash::default().plays(&big).unwrap_err();
        assert!(err.message.contains("up to 20 troops"), "{err}");
    }
}
