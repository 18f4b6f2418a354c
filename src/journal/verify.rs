//! `ladder verify DIR`: checks a season's journal against the rules, so a
//! hand-edited or damaged journal is never trusted by mistake.
//!
//! Every game of `games.jsonl` (or its compressed `games.jsonl.zst`, and
//! `pending.jsonl` if the season is unfinished) is replayed from the start position: each recorded move must
//! parse and be legal when it was played, the turns must match who was to
//! act, and the recorded termination, goals, result and ply count must be
//! what the replay gives. The schedule is rebuilt from `season.json`, so each
//! game's seats and seed must be those of its index, and `games.jsonl` must
//! hold games 0, 1, 2, ... in order. The first mismatch is reported with its
//! file and line.

use std::path::{Path, PathBuf};

use crate::{
    core::record::{Record, Turn},
    core::{
        error::{Error, Result},
        game::{Game, GameResult},
        referee::{AdjudicationRule, Termination},
        seat::{BySeat, Seat},
    },
    journal::for_each_record,
    journal::recorded::Recorded,
    journal::shard::Shard,
    plan::schedule::Schedule,
};

/// What a verified journal holds.
#[derive(Debug, PartialEq, Eq)]
pub struct Verified {
    /// Games in `games.jsonl`.
    pub journaled: usize,
    /// Games in `pending.jsonl` that `games.jsonl` does not hold yet (each
    /// line there is checked: a game whose turn has come stays there too
    /// until the season ends or resumes).
    pub pending: usize,
    /// Games the schedule has (for a shard's folder, that shard's).
    pub scheduled: usize,
    /// The shard whose folder it is ([`Shard::WHOLE`] for a season's own).
    pub shard: Shard,
}

/// Replays the games of one season through its rules, as `ladder verify`
/// does: what `ladder merge` checks each shard's game with, since shards
/// come from other machines.
pub trait Replays {
    /// What is wrong with record `r` of the season, if anything: its place
    /// in the schedule, a move, its ending, goals or result.
    fn check(&self, r: &Record) -> std::result::Result<(), String>;
}

/// The checker of the games of `recorded`'s season of game `G`, or why
/// its `season.json` gives none.
pub fn rules<G: Game>(recorded: &Recorded) -> Result<Box<dyn Replays + '_>> {
    Ok(Box::new(Check::<G>::new(recorded)?))
}

/// Verifies the journal in `dir` of a season of game `G`, as its
/// `season.json` describes it.
pub fn verify<G: Game>(dir: &Path, recorded: &Recorded) -> Result<Verified> {
    let check = Check::<G>::new(recorded).map_err(|e| match e {
        Error::Mismatch(message) => Error::Damaged {
            path: dir.join("season.json"),
            line: 1,
            message,
        },
        other => other,
    })?;

    // a shard's folder holds that shard's games, in their order
    let shard = crate::journal::shard::shard_of(dir)?.unwrap_or(Shard::WHOLE);
    // streamed: a journal of any size is checked in the memory of one game
    let games = dir.join("games.jsonl");
    let mut journaled = 0;
    for_each_record(&games, |n, record| {
        let at = |message: String| mismatch(&games, n, record.index, message);
        let expected = shard.nth(n as u64 - 1);
        if record.index != expected {
            return Err(at(format!(
                "out of schedule order: line {n} should hold game {expected}"
            )));
        }
        check.record(&record).map_err(at)?;
        journaled += 1;
        Ok(())
    })?;
    let pending_path = dir.join("pending.jsonl");
    let mut pending = 0;
    for_each_record(&pending_path, |n, record| {
        check
            .record(&record)
            .map_err(|m| mismatch(&pending_path, n, record.index, m))?;
        if record.index >= shard.nth(journaled as u64) {
            pending += 1;
        }
        Ok(())
    })?;
    Ok(Verified {
        journaled,
        pending,
        scheduled: shard.count(check.fixtures.len()) as usize,
        shard,
    })
}

/// The position game `r` started from: its opening, or `start`.
pub fn start_of<G: Game>(
    params: &G::Params,
    start: &G,
    r: &Record,
) -> std::result::Result<G, String> {
    match &r.opening {
        Some(text) => {
            G::from_position(params, text).map_err(|e| format!("the opening `{text}`: {e}"))
        }
        None => Ok(start.clone()),
    }
}

/// Plays the moves of record `r` from `start`, each checked as it is
/// played; `each` sees every turn's number (from 1), its moves and the
/// position after them. The final position, or what is wrong.
pub fn play_back<G: Game>(
    start: &G,
    r: &Record,
    mut each: impl FnMut(usize, &BySeat<Option<G::Move>>, &G),
) -> std::result::Result<G, String> {
    let mut game = start.clone();
    for (t, turn) in r.moves.iter().enumerate() {
        let at = |m: String| format!("turn {}: {m}", t + 1);
        if game.outcome().is_some() {
            return Err(at("a move after the game was over".into()));
        }
        let acting = game.to_act();
        let text: BySeat<Option<&str>> = match (turn, acting.first, acting.second) {
            (Turn::One(m), true, false) => BySeat::new(Some(m), None),
            (Turn::One(m), false, true) => BySeat::new(None, Some(m)),
            (Turn::Both(ms), true, true) => BySeat::new(Some(&ms.first), Some(&ms.second)),
            (Turn::One(_), _, _) => return Err(at("one move where both seats act".into())),
            (Turn::Both(_), _, _) => return Err(at("two moves where one seat acts".into())),
        };
        let mut moves: BySeat<Option<G::Move>> = BySeat::default();
        for seat in Seat::ALL {
            if let Some(m) = text[seat] {
                let mv = m
                    .parse::<G::Move>()
                    .map_err(|_| at(format!("`{m}` is not a move")))?;
                game.check(seat, &mv)
                    .map_err(|e| at(format!("{m} by the {seat} seat: {e}")))?;
                moves[seat] = Some(mv);
            }
        }
        game.apply(&moves);
        each(t + 1, &moves, &game);
    }
    Ok(game)
}

fn mismatch(path: &Path, line: usize, index: u64, message: String) -> Error {
    Error::Journal {
        path: PathBuf::from(path),
        line,
        message: format!("game {index}: {message}"),
    }
}

/// What every record is checked against.
struct Check<'a, G: Game> {
    start: G,
    params: G::Params,
    /// Whether the season's games start from openings.
    openings: bool,
    fixtures: &'a Schedule,
    names: &'a [String],
    max_plies: u64,
}

impl<G: Game> Replays for Check<'_, G> {
    fn check(&self, r: &Record) -> std::result::Result<(), String> {
        self.record(r)
    }
}

impl<'a, G: Game> Check<'a, G> {
    /// The checker of `recorded`'s season, or why its parameters make no
    /// game (a [`Error::Mismatch`]).
    fn new(recorded: &'a Recorded) -> Result<Check<'a, G>> {
        let params: G::Params = serde_json::from_value(recorded.params.clone())
            .map_err(|e| Error::Mismatch(format!("no valid `params`: {e}")))?;
        let start = G::new(&params).map_err(|e| Error::Mismatch(e.to_string()))?;
        Ok(Check {
            start,
            params,
            openings: recorded.openings,
            fixtures: &recorded.schedule,
            names: &recorded.names,
            max_plies: recorded.max_plies,
        })
    }

    /// Checks one record against the schedule and the rules.
    fn record(&self, r: &Record) -> std::result::Result<(), String> {
        if r.index >= self.fixtures.len() {
            return Err(format!(
                "the schedule has only {} games",
                self.fixtures.len()
            ));
        }
        let fx = self.fixtures.fixture(r.index);
        let seats = fx.seats.map(|b| self.names[b].clone());
        if r.seats != seats {
            return Err(format!(
                "seats {} and {}, but the schedule has {} and {}",
                r.seats.first, r.seats.second, seats.first, seats.second
            ));
        }
        if r.seed != fx.seed {
            return Err(format!("seed {}, but the schedule has {}", r.seed, fx.seed));
        }
        if r.pair != fx.pair {
            return Err(format!("pair {}, but the schedule has {}", r.pair, fx.pair));
        }
        crate::core::record::plies_agree(r.plies, r.moves.len() as u64)?;
        let game = self.replay(r)?;
        let (goals, result) = self.ending(&game, r)?;
        if r.goals != goals {
            return Err(format!(
                "goals {:?}, but the game gives {:?}",
                [r.goals.first, r.goals.second],
                [goals.first, goals.second]
            ));
        }
        if r.result != result {
            return Err(format!(
                "result {:?}, but the game gives {result:?}",
                r.result
            ));
        }
        Ok(())
    }

    /// The position after every recorded move, each checked as it is played.
    fn replay(&self, r: &Record) -> std::result::Result<G, String> {
        if r.opening.is_some() != self.openings {
            return Err(if self.openings {
                "no opening, but the season's games start from openings".into()
            } else {
                "an opening, but the season has none".into()
            });
        }
        let start = start_of(&self.params, &self.start, r)?;
        play_back(&start, r, |_, _, _| {})
    }

    /// The goals and result the recorded termination gives after `game`.
    fn ending(
        &self,
        game: &G,
        r: &Record,
    ) -> std::result::Result<(BySeat<i32>, GameResult), String> {
        let max = game.max_goal();
        match &r.termination {
            Termination::Normal => {
                let goals = game
                    .outcome()
                    .ok_or("recorded as ended by the rules, but the game is not over")?;
                if let Some(why) = game.ill_formed() {
                    return Err(format!(
                        "recorded as ended by the rules, but the rules broke down: {why}"
                    ));
                }
                Ok((goals, GameResult::from_goals(goals)))
            }
            Termination::IllFormed { detail } => {
                let goals = game
                    .outcome()
                    .ok_or("recorded as ill-formed, but the game is not over")?;
                match game.ill_formed() {
                    Some(why) if why == *detail => Ok((goals, GameResult::from_goals(goals))),
                    Some(why) => Err(format!(
                        "recorded as ill-formed ({detail}), but the rules broke down otherwise: {why}"
                    )),
                    None => Err("recorded as ill-formed, but the rules ended the game".into()),
                }
            }
            Termination::PlyLimit => {
                if game.outcome().is_some() {
                    return Err("recorded as stopped at the ply cap, but the game is over".into());
                }
                if r.moves.len() as u64 != self.max_plies {
                    return Err(format!(
                        "stopped at the ply cap after {} turns, but the cap is {}",
                        r.moves.len(),
                        self.max_plies
                    ));
                }
                Ok((BySeat::new(max / 2, max / 2), GameResult::Draw))
            }
            // the scores it rests on are the bots' and not journaled: the
            // check is that the rules had not ended the game, and the result
            Termination::Adjudicated { rule, seat } => {
                if game.outcome().is_some() {
                    return Err("recorded as adjudicated, but the rules had ended the game".into());
                }
                match (rule, seat) {
                    (AdjudicationRule::Draw, None) => {
                        Ok((BySeat::new(max / 2, max / 2), GameResult::Draw))
                    }
                    (AdjudicationRule::Resign, Some(seat)) => Ok((
                        BySeat::from_fn(|s| if s == *seat { 0 } else { max }),
                        GameResult::win(seat.other()),
                    )),
                    _ => Err("an adjudication names a seat only when one resigns".into()),
                }
            }
            // a bot may fail while being told the last move, so a forfeit can
            // follow a move that ended the game
            Termination::Forfeit { seat, .. } => Ok((
                BySeat::from_fn(|s| if s == *seat { 0 } else { max }),
                GameResult::win(seat.other()),
            )),
        }
    }
}
