//! Armies bots beyond `random`: two styles (`even`, `all-in`) and
//! `equilibrium`, which plays the exact solution ([`super::equilibrium`]).

use std::sync::Arc;

use super::{equilibrium::Equilibrium, Armies, Commit, Commitment};
use crate::{
    core::{
        bot::{simple, Answer, BotError, BotRng, Builtin, Crash},
        error::Invalid,
    },
    games::zero_sum,
    Bot, Seat, TimeLeft,
};

pub const BOTS: &[Builtin<Armies>] = &[
    Builtin {
        name: "even",
        about: "spreads its armies evenly over the rounds left (all in when armies are added)",
        make: simple::<Armies, Even>,
    },
    Builtin {
        name: "all-in",
        about: "commits everything it holds every round (spent at once when armies are spent)",
        make: simple::<Armies, AllIn>,
    },
    Builtin {
        name: "equilibrium",
        about:
            "plays the exact solution's mix in every state (solved by LP): never behind on average",
        make: simple::<Armies, EquilibriumBot>,
    },
];

/// Commits its armies divided by the rounds left, so it never runs dry early.
#[derive(Default)]
pub struct Even;

impl Bot<Armies> for Even {
    fn choose(
        &mut self,
        game: &Armies,
        seat: Seat,
        _: TimeLeft,
    ) -> Result<Answer<Commitment>, BotError> {
        let armies = game.armies[seat];
        let left = game.rounds - game.round;
        Ok(Answer::from(Commitment(match game.commit {
            Commit::Spend => armies / left.max(1),
            // committing more only grows the armies: always commit everything
            Commit::Add => armies,
        })))
    }
}

/// Commits everything it holds.
#[derive(Default)]
pub struct AllIn;

impl Bot<Armies> for AllIn {
    fn choose(
        &mut self,
        game: &Armies,
        seat: Seat,
        _: TimeLeft,
    ) -> Result<Answer<Commitment>, BotError> {
        Ok(Answer::from(Commitment(game.armies[seat])))
    }
}

/// Draws each round's commitment from the equilibrium mix of the state
/// (round, own armies, opponent's armies). Under `commit = "add"`
/// committing everything is the equilibrium (see [`super::equilibrium`]).
#[derive(Default)]
pub struct EquilibriumBot {
    solved: Option<Arc<Equilibrium>>,
    rng: BotRng,
}

impl EquilibriumBot {
    /// The solution for `game`'s parameters (every game of a season shares them).
    fn solution(&mut self, game: &Armies) -> Result<Arc<Equilibrium>, String> {
        let start = game.armies.first.max(game.armies.second);
        match &self.solved {
            Some(e) if e.rounds == game.rounds && e.armies >= start => Ok(Arc::clone(e)),
            _ => {
                let e = Equilibrium::shared(start, game.rounds, Commit::Spend)?;
                self.solved = Some(Arc::clone(&e));
                Ok(e)
            }
        }
    }
}

impl Bot<Armies> for EquilibriumBot {
    fn plays(&self, start: &Armies) -> Result<(), Invalid> {
        if start.commit == Commit::Add {
            return Ok(());
        }
        let armies = start.armies.first.max(start.armies.second);
        Equilibrium::check_size(armies, start.rounds, start.commit)
            .map_err(|why| Invalid::new(format!("equilibrium cannot solve this game: {why}")))
    }

    fn new_game(&mut self, game: &Armies, _: Seat, seed: u64) -> Result<(), BotError> {
        self.rng.reseed(seed);
        if game.commit == Commit::Spend {
            self.solution(game)
                .map_err(|why| BotError::Crash(Crash::Unplayable(why)))?;
        }
        Ok(())
    }

    fn choose(
        &mut self,
        game: &Armies,
        seat: Seat,
        _: TimeLeft,
    ) -> Result<Answer<Commitment>, BotError> {
        let own = game.armies[seat];
        if game.commit == Commit::Add {
            return Ok(Answer::from(Commitment(own)));
        }
        let solved = self
            .solution(game)
            .map_err(|why| BotError::Crash(Crash::Unplayable(why)))?;
        let mix = solved
            .mix(game.round, own, game.armies[seat.other()])
            .ok_or_else(|| {
                BotError::Crash(Crash::Unplayable("a state outside the solution".into()))
            })?;
        Ok(Answer::from(Commitment(
            zero_sum::sample(mix, &mut self.rng) as u32,
        )))
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

    type Make = fn() -> Box<dyn Bot<Armies>>;

    /// The equilibrium bot's mean margin over `games` against `make()`, in both seats.
    fn mean_margin(params: &ArmiesParams, make: Make, games: u64) -> (f64, f64) {
        let start = Armies::new(params).unwrap();
        let margins: Vec<f64> = (0..games)
            .map(|g| {
                let (mut eq, mut other) = (EquilibriumBot::default(), make());
                let first = g % 2 == 0;
                let bots: BySeat<&mut dyn Bot<Armies>> = if first {
                    BySeat::new(&mut eq, other.as_mut())
                } else {
                    BySeat::new(other.as_mut(), &mut eq)
                };
                let p = play_game(&start, bots, BySeat::new(g, g + 3), 100);
                let m = f64::from(p.goals.first - p.goals.second);
                if first {
                    m
                } else {
                    -m
                }
            })
            .collect();
        let mean = margins.iter().sum::<f64>() / games as f64;
        let var = margins.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / games as f64;
        (mean, var.sqrt() / (games as f64).sqrt())
    }

    #[test]
    fn equilibrium_is_never_behind_the_baselines() {
        let opponents: [(&str, Make); 4] = [
            ("random", || Box::new(RandomBot::new())),
            ("even", || Box::new(Even)),
            ("all-in", || Box::new(AllIn)),
            ("equilibrium", || Box::new(EquilibriumBot::default())),
        ];
        for commit in [Commit::Spend, Commit::Add] {
            let params = ArmiesParams {
                commit,
                ..ArmiesParams::default()
            };
            for (name, make) in opponents {
                let (mean, se) = mean_margin(&params, make, 400);
                assert!(
                    mean >= -4.0 * se,
                    "{commit:?} against {name}: {mean} ± {se}"
                );
                if commit == Commit::Spend && name != "equilibrium" {
                    assert!(mean > 0.0, "{name} should lose points: {mean}");
                }
            }
        }
    }

    #[test]
    fn all_in_spends_everything_at_once() {
        let params = ArmiesParams::default();
        let p = play_game(
            &Armies::new(&params).unwrap(),
            BySeat::new(&mut AllIn, &mut Even),
            BySeat::new(1, 2),
            100,
        );
        let commits: Vec<u32> = p.turns.iter().map(|t| t.first.unwrap().0).collect();
        assert_eq!(commits[0], 20);
        assert!(commits[1..].iter().all(|&c| c == 0));
        assert_eq!(
            p.result,
            GameResult::Second,
            "even wins the other nine rounds"
        );
    }

    #[test]
    fn equilibrium_refuses_games_too_large_to_solve() {
        let big = Armies::new(&ArmiesParams {
            armies: 1000,
            ..ArmiesParams::default()
        })
        .unwrap();
        let err = EquilibriumBot::default().plays(&big).unwrap_err();
        assert!(err.message.contains("more than 100000 states"), "{err}");
    }
}
