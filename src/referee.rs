//! Plays one game between two bots and says how it ended.
//!
//! One loop serves every game: ask each seat that [`Game::to_act`] names for a
//! move against the position before the round (so in a simultaneous game no bot
//! sees its opponent's move of the same round), check each move, apply the joint
//! move, then tell both bots what was played. A bot that fails or plays an
//! illegal move forfeits; a game that runs past the ply cap stops as a draw.

use std::{
    fmt,
    panic::{catch_unwind, AssertUnwindSafe},
};

use serde::{Deserialize, Serialize};

use crate::{
    bot::{Bot, BotError},
    game::{Game, GameResult},
    seat::{BySeat, Seat},
};

/// Why a bot lost by forfeit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ForfeitReason {
    /// The move parsed but broke the rules.
    IllegalMove,
    /// No answer within the time limit.
    Timeout,
    /// The bot's process exited or could not be run.
    Crash,
    /// An answer that is not a move.
    BadOutput,
}

impl fmt::Display for ForfeitReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ForfeitReason::IllegalMove => "illegal move",
            ForfeitReason::Timeout => "timeout",
            ForfeitReason::Crash => "crash",
            ForfeitReason::BadOutput => "bad output",
        })
    }
}

impl From<&BotError> for ForfeitReason {
    fn from(e: &BotError) -> Self {
        match e {
            BotError::Timeout(_) => ForfeitReason::Timeout,
            BotError::Crash(_) => ForfeitReason::Crash,
            BotError::BadOutput(_) => ForfeitReason::BadOutput,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Termination {
    /// The rules ended the game.
    Normal,
    /// A bot broke its contract; the other seat wins.
    Forfeit {
        seat: Seat,
        reason: ForfeitReason,
        detail: String,
    },
    /// The referee stopped a game that reached the ply cap; a draw.
    PlyLimit,
}

impl Termination {
    /// A short name for counting terminations by kind: `normal`,
    /// `forfeit: illegal move`, `ply limit`.
    pub fn kind(&self) -> String {
        match self {
            Termination::Normal => "normal".to_string(),
            Termination::Forfeit { reason, .. } => format!("forfeit: {reason}"),
            Termination::PlyLimit => "ply limit".to_string(),
        }
    }
}

/// A finished game, with its moves still typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played<G: Game> {
    /// One entry per turn: the move of each seat that acted.
    pub turns: Vec<BySeat<Option<G::Move>>>,
    pub goals: BySeat<i32>,
    pub result: GameResult,
    pub termination: Termination,
}

/// Plays one game of `G` from its start position.
///
/// `seeds` seed each bot's own random numbers; `max_plies` caps the number of
/// turns (joint moves) before the game is stopped as a draw.
pub fn play_game<G: Game>(
    params: &G::Params,
    mut bots: BySeat<&mut dyn Bot<G>>,
    seeds: BySeat<u64>,
    max_plies: u32,
) -> Played<G> {
    let mut game = G::new(params);
    let mut turns = Vec::new();
    let ending = 'game: {
        for seat in Seat::ALL {
            if let Err(e) = guarded(|| bots[seat].new_game(&game, seat, seeds[seat])) {
                break 'game bot_failed(seat, &e);
            }
        }
        loop {
            if let Some(goals) = game.outcome() {
                break 'game (Termination::Normal, goals);
            }
            if turns.len() >= max_plies as usize {
                let half = game.max_goal() / 2;
                break 'game (Termination::PlyLimit, BySeat::new(half, half));
            }
            let acting = game.to_act();
            let mut moves: BySeat<Option<G::Move>> = BySeat::default();
            for seat in Seat::ALL.into_iter().filter(|&s| acting[s]) {
                match ask(&mut *bots[seat], &game, seat) {
                    Ok(mv) => moves[seat] = Some(mv),
                    Err(forfeit) => break 'game forfeit,
                }
            }
            game.apply(&moves);
            for seat in Seat::ALL {
                if let Err(e) = guarded(|| bots[seat].observe(&game, &moves)) {
                    turns.push(moves);
                    break 'game bot_failed(seat, &e);
                }
            }
            turns.push(moves);
        }
    };
    let (termination, goals) = ending;
    let (termination, goals) = match termination {
        Termination::Forfeit { seat, .. } => {
            let goals = BySeat::from_fn(|s| if s == seat { 0 } else { game.max_goal() });
            (termination, goals)
        }
        other => (other, goals),
    };
    for seat in Seat::ALL {
        let _ = guarded(|| {
            bots[seat].game_over(&game, goals);
            Ok(())
        });
    }
    let result = match &termination {
        Termination::Forfeit { seat, .. } => GameResult::win(seat.other()),
        _ => GameResult::from_goals(goals),
    };
    Played {
        turns,
        goals,
        result,
        termination,
    }
}

/// One seat's move, checked against the rules.
fn ask<G: Game>(
    bot: &mut dyn Bot<G>,
    game: &G,
    seat: Seat,
) -> Result<G::Move, (Termination, BySeat<i32>)> {
    let mv = guarded(|| bot.choose(game, seat)).map_err(|e| bot_failed(seat, &e))?;
    match game.check(seat, &mv) {
        Ok(()) => Ok(mv),
        Err(why) => Err(forfeit(
            seat,
            ForfeitReason::IllegalMove,
            format!("{mv}: {why}"),
        )),
    }
}

/// Runs one call into a bot; an in-process bot that panics has crashed, and
/// forfeits like a process that died, instead of taking the season down.
fn guarded<T>(call: impl FnOnce() -> Result<T, BotError>) -> Result<T, BotError> {
    catch_unwind(AssertUnwindSafe(call)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "no message".to_string());
        Err(BotError::Crash(format!("panicked: {message}")))
    })
}

fn bot_failed(seat: Seat, e: &BotError) -> (Termination, BySeat<i32>) {
    forfeit(seat, ForfeitReason::from(e), e.detail().to_string())
}

/// A forfeit by `seat`; the goals are filled in by the caller, which knows the game.
fn forfeit(seat: Seat, reason: ForfeitReason, detail: String) -> (Termination, BySeat<i32>) {
    let termination = Termination::Forfeit {
        seat,
        reason,
        detail,
    };
    (termination, BySeat::new(0, 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        bot::RandomBot,
        games::{
            bidding::{Bid, BiddingParams},
            coordination::{CoordinationParams, Side},
            Bidding, Coordination,
        },
    };

    /// Bids a fixed amount every round, legal or not.
    struct Fixed(u32);
    impl Bot<Bidding> for Fixed {
        fn choose(&mut self, _: &Bidding, _: Seat) -> Result<Bid, BotError> {
            Ok(Bid(self.0))
        }
    }

    /// Fails on its `n`-th move.
    struct Fails(u32, BotError);
    impl Bot<Bidding> for Fails {
        fn choose(&mut self, _: &Bidding, _: Seat) -> Result<Bid, BotError> {
            if self.0 == 0 {
                return Err(self.1.clone());
            }
            self.0 -= 1;
            Ok(Bid(1))
        }
    }

    /// Remembers every move it was shown, and what it could see when choosing.
    #[derive(Default)]
    struct Spy {
        seen_when_choosing: Vec<usize>,
        observed: Vec<BySeat<Option<Side>>>,
    }
    impl Bot<Coordination> for Spy {
        fn choose(&mut self, _: &Coordination, _: Seat) -> Result<Side, BotError> {
            self.seen_when_choosing.push(self.observed.len());
            Ok(Side::Left)
        }
        fn observe(&mut self, _: &Coordination, m: &BySeat<Option<Side>>) -> Result<(), BotError> {
            self.observed.push(*m);
            Ok(())
        }
    }

    fn bidding(
        a: &mut dyn Bot<Bidding>,
        b: &mut dyn Bot<Bidding>,
        max_plies: u32,
    ) -> Played<Bidding> {
        play_game::<Bidding>(
            &BiddingParams::default(),
            BySeat::new(a, b),
            BySeat::new(1, 2),
            max_plies,
        )
    }

    fn assert_forfeit<G: Game>(played: &Played<G>, by: Seat, why: ForfeitReason, detail_has: &str) {
        match &played.termination {
            Termination::Forfeit {
                seat,
                reason,
                detail,
            } => {
                assert_eq!((*seat, *reason), (by, why));
                assert!(detail.contains(detail_has), "{detail}");
            }
            t => panic!("expected a forfeit, got {t:?}"),
        }
    }

    #[test]
    fn an_illegal_move_forfeits_and_the_opponent_wins() {
        let played = bidding(&mut Fixed(101), &mut RandomBot::new(), 1000);
        assert_eq!(played.result, GameResult::Second);
        assert_eq!(played.goals, BySeat::new(0, 100));
        assert_forfeit(&played, Seat::First, ForfeitReason::IllegalMove, "101");
        assert_eq!(played.termination.kind(), "forfeit: illegal move");
        assert!(played.turns.is_empty());
    }

    #[test]
    fn a_bot_error_forfeits_with_its_reason() {
        let mut a = RandomBot::new();
        let mut b = Fails(3, BotError::Timeout("no answer in 100 ms".into()));
        let played = bidding(&mut a, &mut b, 1000);
        assert_eq!(played.result, GameResult::First);
        assert_eq!(played.termination.kind(), "forfeit: timeout");
        assert!(played.turns.len() <= 3);
    }

    /// Panics on its first move.
    struct Panics;
    impl Bot<Bidding> for Panics {
        fn choose(&mut self, _: &Bidding, _: Seat) -> Result<Bid, BotError> {
            panic!("bot bug")
        }
    }

    #[test]
    fn a_panicking_bot_forfeits_as_a_crash() {
        let played = bidding(&mut RandomBot::new(), &mut Panics, 1000);
        assert_eq!(played.result, GameResult::First);
        assert_forfeit(&played, Seat::Second, ForfeitReason::Crash, "bot bug");
    }

    #[test]
    fn the_ply_cap_stops_a_game_as_a_draw() {
        let played = bidding(&mut Fixed(1), &mut Fixed(1), 3);
        assert_eq!(played.termination, Termination::PlyLimit);
        assert_eq!(played.result, GameResult::Draw);
        assert_eq!(played.turns.len(), 3);
    }

    #[test]
    fn equal_bids_alternate_with_the_advantage() {
        // 1 vs 1 every round: ties, won in turn by player 1 then player 2
        let played = bidding(&mut Fixed(1), &mut Fixed(1), 4);
        assert_eq!(played.turns.len(), 4);
        let mut g = Bidding::new(&BiddingParams::default());
        for t in &played.turns {
            g.apply(t);
        }
        assert_eq!(g.position, 5);
        assert_eq!(g.money, BySeat::new(98, 98));
    }

    #[test]
    fn simultaneous_moves_are_shown_only_after_both_chose() {
        let (mut a, mut b) = (Spy::default(), Spy::default());
        let played = play_game::<Coordination>(
            &CoordinationParams::default(),
            BySeat::new(&mut a, &mut b),
            BySeat::new(1, 2),
            1000,
        );
        assert_eq!(played.goals, BySeat::new(100, 100));
        assert_eq!(played.result, GameResult::Draw);
        for spy in [&a, &b] {
            assert_eq!(spy.seen_when_choosing, (0..20).collect::<Vec<_>>());
            assert_eq!(spy.observed.len(), 20);
            assert!(spy
                .observed
                .iter()
                .all(|m| m.first.is_some() && m.second.is_some()));
        }
    }
}
