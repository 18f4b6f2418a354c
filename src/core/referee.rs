//! Plays one game between two bots and says how it ended.
//!
//! One loop serves every game: ask each seat that [`Game::to_act`] names for a
//! move against the position before the round (so in a simultaneous game no bot
//! sees its opponent's move of the same round), check each move, apply the joint
//! move, then tell both bots what was played. A bot that fails or plays an
//! illegal move forfeits; a game that runs past the ply cap stops as a draw.
//!
//! The referee owns the clock ([`crate::core::clock`]): it hands every move
//! its [`TimeLeft`], runs the game clocks, and forfeits a bot that answers
//! past its limit, recording by how much it overran.

use std::{
    cell::Cell,
    fmt,
    panic::{catch_unwind, AssertUnwindSafe},
    time::{Duration, Instant},
};

use serde::{Deserialize, Serialize};

pub use crate::core::adjudication::{Adjudication, AdjudicationRule, DrawRule, ResignRule};
use crate::core::{
    bot::{Bot, BotError, Crash},
    clock::{Clocks, Delay, TimeControl, TimeLeft, Watch},
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

impl ForfeitReason {
    /// The forfeit a bot error stands for; `None` for ladder's own failure,
    /// which is charged to no bot.
    pub fn of(e: &BotError) -> Option<ForfeitReason> {
        match e {
            BotError::Timeout { .. } => Some(ForfeitReason::Timeout),
            BotError::Crash(_) => Some(ForfeitReason::Crash),
            BotError::BadOutput(_) => Some(ForfeitReason::BadOutput),
            BotError::Illegal(_) => Some(ForfeitReason::IllegalMove),
            BotError::Harness(_) => None,
        }
    }
}

/// A game the referee could not run through no fault of a bot's (see
/// [`BotError::Harness`]): it has no result and must not be recorded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ladder could not run the game: {0}")]
pub struct Aborted(pub String);

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
        /// For a timeout: how far past its budget the bot was when the
        /// referee stopped waiting (or when it answered), in milliseconds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        overrun_ms: Option<u64>,
    },
    /// The referee stopped a game that reached the ply cap; a draw.
    PlyLimit,
    /// The game ended where its rules could not say how it goes on
    /// ([`Game::ill_formed`]), with the goals they gave there.
    IllFormed { detail: String },
    /// The referee ended the game on the bots' own scores
    /// ([`Adjudication`]): a draw, or a loss for the seat that resigned.
    Adjudicated {
        rule: AdjudicationRule,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
}

impl Termination {
    /// How the game ended, in words, with the bots named by seat:
    /// `ended by the rules`, `dp forfeits: timeout: no move within the time
    /// limit`; a bot's words (raw in older journals) escaped for a terminal.
    pub fn describe(&self, names: &BySeat<&str>) -> String {
        crate::core::text::harmless(&match self {
            Termination::Normal => "ended by the rules".to_string(),
            Termination::PlyLimit => "stopped at the ply cap".to_string(),
            Termination::IllFormed { detail } => format!("the rules broke down: {detail}"),
            Termination::Adjudicated {
                seat: Some(seat), ..
            } => format!("adjudicated: {} resigned", names[*seat]),
            Termination::Adjudicated { .. } => "adjudicated: a draw by move count".to_string(),
            Termination::Forfeit {
                seat,
                reason,
                detail,
                ..
            } => format!("{} forfeits: {reason}: {detail}", names[*seat]),
        })
    }
}

impl Termination {
    /// A short name for counting terminations by kind: `normal`,
    /// `forfeit: illegal move`, `ply limit`.
    pub fn kind(&self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Forfeit { reason, .. } => match reason {
                ForfeitReason::IllegalMove => "forfeit: illegal move",
                ForfeitReason::Timeout => "forfeit: timeout",
                ForfeitReason::Crash => "forfeit: crash",
                ForfeitReason::BadOutput => "forfeit: bad output",
            },
            Termination::PlyLimit => "ply limit",
            Termination::IllFormed { .. } => "ill-formed",
            Termination::Adjudicated { rule, .. } => match rule {
                AdjudicationRule::Draw => "adjudicated: draw by move count",
                AdjudicationRule::Resign => "adjudicated: resign",
            },
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
    /// Ladder's own time around the programs' moves in this game (not
    /// journaled: it differs from run to run).
    pub delay: Delay,
}

/// How the referee runs games: the ply cap and the time control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Referee {
    /// Turns (joint moves) before a game is stopped as a draw.
    pub max_plies: u32,
    pub time: TimeControl,
    /// Ending games early on the bots' scores (none by default).
    pub adjudication: Adjudication,
}

impl Referee {
    /// The default cap on turns per game; every shipped game ends far sooner.
    pub const DEFAULT_MAX_PLIES: u32 = 10_000;

    /// A referee with `max_plies` and the default time control.
    pub fn new(max_plies: u32) -> Self {
        Referee {
            max_plies,
            time: TimeControl::default(),
            adjudication: Adjudication::default(),
        }
    }

    /// Plays one game from `start`. `seeds` seed each bot's own random
    /// numbers; every bot call is published on `watch`
    /// (`&Watch::default()` when nobody watches). A game ladder itself could
    /// not run is [`Aborted`].
    pub fn play<G: Game>(
        &self,
        start: &G,
        bots: BySeat<&mut dyn Bot<G>>,
        seeds: BySeat<u64>,
        watch: &Watch,
    ) -> Result<Played<G>, Aborted> {
        self.play_timed(
            start,
            bots,
            seeds,
            watch,
            BySeat::new(&self.time, &self.time),
        )
    }

    /// Plays one game as [`Referee::play`] does, each seat under its own
    /// time control (a `[[bot]]`'s `move_time_ms` or `time_control`).
    pub fn play_timed<G: Game>(
        &self,
        start: &G,
        bots: BySeat<&mut dyn Bot<G>>,
        seeds: BySeat<u64>,
        watch: &Watch,
        times: BySeat<&TimeControl>,
    ) -> Result<Played<G>, Aborted> {
        let other = times.map(|t| t.other_call());
        let clocks = times.map(Clocks::new);
        let slack = BySeat::from_fn(|s| bots[s].keeps_deadlines());
        let timed = BySeat::from_fn(|s| bots[s].timed());
        // without a game clock every move has the same time: work it out once
        let fixed =
            BySeat::from_fn(|s| (!clocks[s].running()).then(|| clocks[s].time_left(s.index())));
        // a person's calls have no limit the watchdog could hold them to
        let unless_untimed =
            |ms: BySeat<u64>| BySeat::from_fn(|s| if timed[s] { ms[s] } else { u64::MAX });
        let mut table = Table {
            game: start.clone(),
            bots,
            other_ms: unless_untimed(BySeat::from_fn(|s| watched(other[s], slack[s]))),
            move_ms: unless_untimed(BySeat::from_fn(|s| {
                fixed[s].map_or(0, |t| watched(t, slack[s]))
            })),
            slack,
            timed,
            clocks,
            fixed,
            other,
            watch,
            aborted: None,
            adjudication: self.adjudication,
            delay: Delay::default(),
            runs: BySeat::default(),
            scores: BySeat::default(),
        };
        thread_local! {
            /// The length of the last game on this thread (at most 4,096
            /// turns): room for a game's turns is allocated once, not each
            /// time the list doubles.
            static LAST_TURNS: Cell<usize> = const { Cell::new(0) };
        }
        let mut turns = Vec::with_capacity(LAST_TURNS.get());
        let ending = table.run(seeds, self.max_plies, &mut turns);
        LAST_TURNS.set(turns.len().min(4096));
        match table.aborted.take() {
            Some(why) => Err(Aborted(why)),
            None => Ok(table.finish(turns, ending)),
        }
    }
}

/// Plays one game from `start` with the default time control and nobody
/// watching: for tests that play in-process bots outside a season.
///
/// # Panics
/// If the game is [`Aborted`], which in-process bots never cause.
pub fn play_game<G: Game>(
    start: &G,
    bots: BySeat<&mut dyn Bot<G>>,
    seeds: BySeat<u64>,
    max_plies: u32,
) -> Played<G> {
    Referee::new(max_plies)
        .play(start, bots, seeds, &Watch::default())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// How long past its limit the watchdog waits for a bot that keeps its own
/// deadlines (an external program), so the bot's own timeout comes first.
pub const DEADLINE_SLACK: Duration = Duration::from_millis(500);

/// One game in progress: the position, the bots, their clocks.
struct Table<'a, 'w, G: Game> {
    game: G,
    bots: BySeat<&'a mut dyn Bot<G>>,
    /// Whether each bot keeps its own deadlines.
    slack: BySeat<bool>,
    /// Whether the clock applies to each seat (not to a person).
    timed: BySeat<bool>,
    clocks: BySeat<Clocks>,
    /// The time of every move when no game clock runs.
    fixed: BySeat<Option<TimeLeft>>,
    /// The limit of calls that are not moves.
    other: BySeat<TimeLeft>,
    /// What the watchdog is told, per seat, for other calls and fixed-time moves.
    other_ms: BySeat<u64>,
    move_ms: BySeat<u64>,
    watch: &'w Watch,
    /// Set when ladder itself failed to run a bot: the game is not recorded.
    aborted: Option<String>,
    adjudication: Adjudication,
    delay: Delay,
    /// Per seat: its last scores in a row within the draw score, and at or
    /// below minus the resign score.
    runs: BySeat<(u32, u32)>,
    /// Per seat: the score it gave with its last move, if any.
    scores: BySeat<Option<i32>>,
}

/// How a game ended, before the goals of a forfeit are filled in.
type Ending = (Termination, BySeat<i32>);

impl<G: Game> Table<'_, '_, G> {
    /// Plays until the game ends; `turns` receives every joint move.
    fn run(
        &mut self,
        seeds: BySeat<u64>,
        max_plies: u32,
        turns: &mut Vec<BySeat<Option<G::Move>>>,
    ) -> Ending {
        for seat in Seat::ALL {
            let (game, bot) = (&self.game, &mut *self.bots[seat]);
            if let Err(e) = call(self.watch, self.other_ms[seat], || {
                bot.new_game(game, seat, seeds[seat])
            }) {
                return bot_failed(seat, &e, self.other[seat].budget, &mut self.aborted);
            }
        }
        // asked once the bot has its seat
        let observes = BySeat::from_fn(|s| self.bots[s].observes());
        loop {
            if let Some(goals) = self.game.outcome() {
                let termination = match self.game.ill_formed() {
                    Some(detail) => Termination::IllFormed { detail },
                    None => Termination::Normal,
                };
                return (termination, goals);
            }
            if turns.len() >= max_plies as usize {
                let half = self.game.max_goal() / 2;
                return (Termination::PlyLimit, BySeat::new(half, half));
            }
            let acting = self.game.to_act();
            let mut moves: BySeat<Option<G::Move>> = BySeat::default();
            for seat in Seat::ALL.into_iter().filter(|&s| acting[s]) {
                match self.ask(seat) {
                    Ok(mv) => moves[seat] = Some(mv),
                    Err(ending) => return ending,
                }
            }
            self.game.apply(&moves);
            let adjudicated = self.adjudicate(&moves, turns.len() as u32 + 1);
            for seat in Seat::ALL.into_iter().filter(|&s| observes[s]) {
                let (game, bot) = (&self.game, &mut *self.bots[seat]);
                if let Err(e) = call(self.watch, self.other_ms[seat], || {
                    bot.observe(game, &moves)
                }) {
                    turns.push(moves);
                    return bot_failed(seat, &e, self.other[seat].budget, &mut self.aborted);
                }
            }
            turns.push(moves);
            if let Some(ending) = adjudicated {
                if self.game.outcome().is_none() {
                    return ending;
                }
            }
        }
    }

    /// Counts the scores the acting bots gave with this turn's moves, and
    /// the ending adjudication gives after `played` turns, if any.
    fn adjudicate(&mut self, moves: &BySeat<Option<G::Move>>, played: u32) -> Option<Ending> {
        let a = self.adjudication;
        if a.draw.is_none() && a.resign.is_none() {
            return None;
        }
        for seat in Seat::ALL.into_iter().filter(|&s| moves[s].is_some()) {
            let score = self.scores[seat];
            let run = &mut self.runs[seat];
            run.0 = match (score, a.draw) {
                (Some(v), Some(d)) if v.unsigned_abs() <= d.score.unsigned_abs() => run.0 + 1,
                _ => 0,
            };
            run.1 = match (score, a.resign) {
                (Some(v), Some(r)) if v <= -r.score => run.1 + 1,
                _ => 0,
            };
        }
        if let Some(r) = a.resign {
            if let Some(seat) = Seat::ALL
                .into_iter()
                .find(|&s| self.runs[s].1 >= r.move_count)
            {
                let max = self.game.max_goal();
                let goals = BySeat::from_fn(|s| if s == seat { 0 } else { max });
                let rule = AdjudicationRule::Resign;
                return Some((
                    Termination::Adjudicated {
                        rule,
                        seat: Some(seat),
                    },
                    goals,
                ));
            }
        }
        if let Some(d) = a.draw {
            if played >= d.move_number && Seat::ALL.iter().all(|&s| self.runs[s].0 >= d.move_count)
            {
                let half = self.game.max_goal() / 2;
                let rule = AdjudicationRule::Draw;
                let ending = Termination::Adjudicated { rule, seat: None };
                return Some((ending, BySeat::new(half, half)));
            }
        }
        None
    }

    /// One seat's move, timed when a game clock runs or a program plays it,
    /// and checked against the rules.
    fn ask(&mut self, seat: Seat) -> Result<G::Move, Ending> {
        // `time` is a reference, copied once into the call: a copy of the
        // fixed time on the stack first was read back in pieces of other
        // sizes than it was written in, a stall the processor cannot forward
        let on_clock;
        let (time, limit_ms, started) = match &self.fixed[seat] {
            // a program keeps its own deadline; timing it measures ladder's delay
            Some(time) => (
                time,
                self.move_ms[seat],
                self.slack[seat].then(Instant::now),
            ),
            None if !self.timed[seat] => {
                on_clock = self.clocks[seat].time_left(seat.index());
                (&on_clock, u64::MAX, None)
            }
            None => {
                on_clock = self.clocks[seat].time_left(seat.index());
                let ms = watched(on_clock, self.slack[seat]);
                (&on_clock, ms, Some(Instant::now()))
            }
        };
        let (game, bot) = (&self.game, &mut *self.bots[seat]);
        let answer = call(self.watch, limit_ms, || bot.choose(game, seat, *time))
            .map_err(|e| bot_failed(seat, &e, time.budget, &mut self.aborted))?;
        self.scores[seat] = answer.score;
        if let Some(started) = started {
            let measured = started.elapsed();
            // the bot is charged its transport's measure where it has one:
            // ladder's own time around the move is not the bot's
            let spent = match answer.spent {
                Some(own) => {
                    self.delay.add(measured.saturating_sub(own));
                    own
                }
                None => measured,
            };
            if self.fixed[seat].is_some() {
                // no game clock: the program's own deadline was the limit
                return self.checked(seat, answer.mv);
            }
            if spent > time.limit {
                let e = BotError::Timeout {
                    waiting_for: "move".to_string(),
                    waited: spent,
                };
                return Err(bot_failed(seat, &e, time.budget, &mut self.aborted));
            }
            self.clocks[seat].charge(seat.index(), spent);
        }
        self.checked(seat, answer.mv)
    }

    /// `mv` if the rules allow it, else the forfeit of `seat`.
    fn checked(&self, seat: Seat, mv: G::Move) -> Result<G::Move, Ending> {
        match self.game.check(seat, &mv) {
            Ok(()) => Ok(mv),
            Err(why) => Err(illegal(seat, &mv, why)),
        }
    }

    /// The record of the game, once it has ended: a forfeit gives the winner
    /// the game's top goal; both bots hear the final goals. A bot that fails
    /// to hear them (it wrote a line nobody asked for) forfeits a game that
    /// had ended otherwise: the first seat to fail, if both do.
    fn finish(mut self, turns: Vec<BySeat<Option<G::Move>>>, ending: Ending) -> Played<G> {
        let max = self.game.max_goal();
        let scored = |ending: Ending| match ending {
            (t @ Termination::Forfeit { seat, .. }, _) => {
                (t, BySeat::from_fn(|s| if s == seat { 0 } else { max }))
            }
            other => other,
        };
        let (mut termination, mut goals) = scored(ending);
        let mut forfeited = matches!(termination, Termination::Forfeit { .. });
        for seat in Seat::ALL {
            let (game, bot) = (&self.game, &mut *self.bots[seat]);
            let heard = call(self.watch, self.other_ms[seat], || {
                bot.game_over(game, goals)
            });
            if let Err(e) = heard {
                if !forfeited {
                    let ending = bot_failed(seat, &e, self.other[seat].budget, &mut self.aborted);
                    (termination, goals) = scored(ending);
                    forfeited = true;
                }
            }
        }
        if let Termination::Forfeit {
            seat,
            reason,
            detail,
            ..
        } = &termination
        {
            if self.aborted.is_none() {
                self.bots[*seat].forfeited(&format!("{reason}: {detail}"));
            }
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
            delay: self.delay,
        }
    }
}

/// The limit the watchdog holds a call to, in milliseconds: the call's own,
/// with slack for a bot that stops waiting by itself.
fn watched(time: TimeLeft, keeps_deadlines: bool) -> u64 {
    let limit = if keeps_deadlines {
        time.limit.saturating_add(DEADLINE_SLACK)
    } else {
        time.limit
    };
    limit.as_millis().min(u128::from(u64::MAX)) as u64
}

/// Runs one call into a bot, published on `watch`. An in-process bot that
/// panics has crashed, and forfeits like a process that died, instead of
/// taking the season down.
fn call<T>(
    watch: &Watch,
    limit_ms: u64,
    f: impl FnOnce() -> Result<T, BotError>,
) -> Result<T, BotError> {
    watch.begin(limit_ms);
    let result = catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "no message".to_string());
        Err(BotError::Crash(Crash::Panicked(message)))
    });
    watch.end();
    result
}

/// The forfeit of `seat` for `e`; a timeout records how far past `budget`
/// it went. Ladder's own failure is no forfeit: it goes to `aborted`, and the
/// ending returned is never recorded.
fn bot_failed(seat: Seat, e: &BotError, budget: Duration, aborted: &mut Option<String>) -> Ending {
    let overrun = match e {
        BotError::Timeout { waited, .. } => Some(waited.saturating_sub(budget).as_millis() as u64),
        _ => None,
    };
    match ForfeitReason::of(e) {
        Some(reason) => forfeit(seat, reason, e.detail(), overrun),
        None => {
            *aborted = Some(e.detail());
            forfeit(seat, ForfeitReason::Crash, e.detail(), None)
        }
    }
}

/// The forfeit of `seat` for playing `mv`, which the rules refuse for `why`;
/// out of the referee's loop, which seldom needs it.
#[cold]
fn illegal(seat: Seat, mv: &impl fmt::Display, why: impl fmt::Display) -> Ending {
    let detail = format!("{mv}: {why}");
    forfeit(seat, ForfeitReason::IllegalMove, detail, None)
}

/// A forfeit by `seat`; the goals are filled in by [`Table::finish`].
fn forfeit(seat: Seat, reason: ForfeitReason, detail: String, overrun_ms: Option<u64>) -> Ending {
    let termination = Termination::Forfeit {
        seat,
        reason,
        detail,
        overrun_ms,
    };
    (termination, BySeat::new(0, 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        core::{
            bot::{Answer, RandomBot},
            hosted::Hosted,
        },
        games::{
            bidding::{Bid, BiddingParams},
            coordination::{CoordinationParams, Side},
            Bidding, Coordination,
        },
    };

    /// Bids a fixed amount every round, legal or not.
    struct Fixed(u32);
    impl Bot<Bidding> for Fixed {
        fn choose(&mut self, _: &Bidding, _: Seat, _: TimeLeft) -> Result<Answer<Bid>, BotError> {
            Ok(Answer::from(Bid(self.0)))
        }
    }

    /// Fails on its `n`-th move.
    struct Fails(u32, BotError);
    impl Bot<Bidding> for Fails {
        fn choose(&mut self, _: &Bidding, _: Seat, _: TimeLeft) -> Result<Answer<Bid>, BotError> {
            if self.0 == 0 {
                return Err(self.1.clone());
            }
            self.0 -= 1;
            Ok(Answer::from(Bid(1)))
        }
    }

    /// Remembers every move it was shown, and what it could see when
    /// choosing; `blind`, it says it does not observe.
    #[derive(Default)]
    struct Spy {
        seen_when_choosing: Vec<usize>,
        observed: Vec<BySeat<Option<Side>>>,
        blind: bool,
    }
    impl Bot<Coordination> for Spy {
        fn choose(
            &mut self,
            _: &Coordination,
            _: Seat,
            _: TimeLeft,
        ) -> Result<Answer<Side>, BotError> {
            self.seen_when_choosing.push(self.observed.len());
            Ok(Answer::from(Side::Left))
        }
        fn observe(&mut self, _: &Coordination, m: &BySeat<Option<Side>>) -> Result<(), BotError> {
            self.observed.push(*m);
            Ok(())
        }
        fn observes(&self) -> bool {
            !self.blind
        }
    }

    /// Plays coordination `left` every round with a fixed score (or none).
    struct Scored(Option<i32>);
    impl Bot<Coordination> for Scored {
        fn choose(
            &mut self,
            _: &Coordination,
            _: Seat,
            _: TimeLeft,
        ) -> Result<Answer<Side>, BotError> {
            Ok(Answer {
                score: self.0,
                ..Answer::from(Side::Left)
            })
        }
    }

    fn coordination_under(
        adjudication: Adjudication,
        a: Option<i32>,
        b: Option<i32>,
    ) -> Played<Coordination> {
        let referee = Referee {
            adjudication,
            ..Referee::new(1000)
        };
        let start = Coordination::new(&CoordinationParams::default()).unwrap();
        referee
            .play(
                &start,
                BySeat::new(&mut Scored(a) as &mut dyn Bot<Coordination>, &mut Scored(b)),
                BySeat::new(1, 2),
                &Watch::default(),
            )
            .unwrap()
    }

    #[test]
    fn a_journals_detail_is_described_with_its_control_characters_escaped() {
        // a record written before ladder escaped a bot's words
        let t = Termination::Forfeit {
            seat: Seat::First,
            reason: ForfeitReason::BadOutput,
            detail: "`\u{1b}]0;x\u{7}` is not a move".to_string(),
            overrun_ms: None,
        };
        let names = BySeat::new("a", "b");
        assert_eq!(
            t.describe(&names),
            "a forfeits: bad output: `\\u{1b}]0;x\\u{7}` is not a move"
        );
    }

    #[test]
    fn a_bot_that_judges_itself_lost_long_enough_resigns() {
        let resign = Adjudication {
            draw: None,
            resign: Some(ResignRule {
                move_count: 3,
                score: 600,
            }),
        };
        let played = coordination_under(resign, Some(0), Some(-600));
        assert_eq!(
            played.termination,
            Termination::Adjudicated {
                rule: AdjudicationRule::Resign,
                seat: Some(Seat::Second)
            }
        );
        assert_eq!(played.turns.len(), 3, "after its third such score");
        assert_eq!(played.goals, BySeat::new(5 * 20, 0));
        assert_eq!(played.result, GameResult::First);
        assert_eq!(played.termination.kind(), "adjudicated: resign");
        // a score above the bound, or none, never resigns
        for score in [Some(-599), None] {
            let played = coordination_under(resign, Some(0), score);
            assert_eq!(played.termination, Termination::Normal);
            assert_eq!(played.turns.len(), 20);
        }
    }

    #[test]
    fn bots_that_judge_the_game_even_long_enough_draw_after_the_move_number() {
        let draw = Adjudication {
            draw: Some(DrawRule {
                move_number: 6,
                move_count: 2,
                score: 10,
            }),
            resign: None,
        };
        let played = coordination_under(draw, Some(10), Some(-10));
        assert_eq!(
            played.termination,
            Termination::Adjudicated {
                rule: AdjudicationRule::Draw,
                seat: None
            }
        );
        assert_eq!(played.turns.len(), 6, "not before the move number");
        assert_eq!(played.goals, BySeat::new(50, 50));
        assert_eq!(played.termination.kind(), "adjudicated: draw by move count");
        // one bot outside the bound, or silent, keeps the game going
        // the scores farthest from 0 (i32::MIN's `abs` wrapped to itself, a
        // negative number within any bound: a draw)
        for (a, b) in [
            (Some(11), Some(0)),
            (Some(0), None),
            (Some(i32::MIN), Some(0)),
            (Some(0), Some(i32::MAX)),
        ] {
            assert_eq!(
                coordination_under(draw, a, b).termination,
                Termination::Normal
            );
        }
        // and nothing is adjudicated without rules
        let none = coordination_under(Adjudication::default(), Some(0), Some(-10_000));
        assert_eq!(none.termination, Termination::Normal);
    }

    fn bidding(
        a: &mut dyn Bot<Bidding>,
        b: &mut dyn Bot<Bidding>,
        max_plies: u32,
    ) -> Played<Bidding> {
        bidding_under(&Referee::new(max_plies), a, b)
    }

    fn assert_forfeit<G: Game>(played: &Played<G>, by: Seat, why: ForfeitReason, detail_has: &str) {
        match &played.termination {
            Termination::Forfeit {
                seat,
                reason,
                detail,
                ..
            } => {
                assert_eq!((*seat, *reason), (by, why));
                assert!(detail.contains(detail_has), "{detail}");
            }
            t => panic!("expected a forfeit, got {t:?}"),
        }
    }

    /// Plays like `Fixed`, then says it wrote a line nobody asked for.
    struct Chatty(u32);
    impl Bot<Bidding> for Chatty {
        fn choose(&mut self, _: &Bidding, _: Seat, _: TimeLeft) -> Result<Answer<Bid>, BotError> {
            Ok(Answer::from(Bid(self.0)))
        }
        fn game_over(&mut self, _: &Bidding, _: BySeat<i32>) -> Result<(), BotError> {
            Err(BotError::BadOutput(
                crate::core::bot::BadOutput::Unrequested("12".into()),
            ))
        }
    }

    #[test]
    fn a_bot_that_fails_at_the_end_forfeits_the_game_it_played() {
        // 10 a round wins for the first seat, but it wrote an extra line
        let played = bidding(&mut Chatty(10), &mut Fixed(1), 1000);
        assert_forfeit(
            &played,
            Seat::First,
            ForfeitReason::BadOutput,
            "nobody asked for",
        );
        assert_eq!(played.result, GameResult::Second);
        assert_eq!(played.goals, BySeat::new(0, 100));
        assert!(!played.turns.is_empty(), "the moves stay recorded");
        // a game already forfeited keeps its first forfeit
        let played = bidding(&mut Chatty(101), &mut Chatty(1), 1000);
        assert_forfeit(&played, Seat::First, ForfeitReason::IllegalMove, "101");
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
        let mut b = Fails(
            3,
            BotError::Timeout {
                waiting_for: "move".into(),
                waited: Duration::from_millis(1300),
            },
        );
        let played = bidding(&mut a, &mut b, 1000);
        assert_eq!(played.result, GameResult::First);
        assert_eq!(played.termination.kind(), "forfeit: timeout");
        assert!(played.turns.len() <= 3);
        assert!(
            matches!(
                played.termination,
                Termination::Forfeit {
                    overrun_ms: Some(300),
                    ..
                }
            ),
            "{:?}",
            played.termination
        );
    }

    /// Panics on its first move.
    struct Panics;
    impl Bot<Bidding> for Panics {
        fn choose(&mut self, _: &Bidding, _: Seat, _: TimeLeft) -> Result<Answer<Bid>, BotError> {
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
        let mut g = Bidding::new(&BiddingParams::default()).unwrap();
        for t in &played.turns {
            g.apply(t);
        }
        assert_eq!(g.position, 5);
        assert_eq!(g.money, BySeat::new(98, 98));
    }

    #[test]
    fn simultaneous_moves_are_shown_only_after_both_chose() {
        let (mut a, mut b) = (Spy::default(), Spy::default());
        b.blind = true;
        let played = Referee::new(1000)
            .play(
                &Coordination::new(&CoordinationParams::default()).unwrap(),
                BySeat::new(&mut a, &mut b),
                BySeat::new(1, 2),
                &Watch::default(),
            )
            .unwrap();
        assert_eq!(played.goals, BySeat::new(100, 100));
        assert_eq!(played.result, GameResult::Draw);
        assert_eq!(a.seen_when_choosing, (0..20).collect::<Vec<_>>());
        assert_eq!(a.observed.len(), 20);
        assert!(a
            .observed
            .iter()
            .all(|m| m.first.is_some() && m.second.is_some()));
        // a bot that says it does not observe is never told
        assert_eq!(b.seen_when_choosing, vec![0; 20]);
        assert!(b.observed.is_empty());
    }

    /// Sleeps `ms` before every bid of 1; `None` sleeps forever.
    struct Sleeps(Option<u64>);
    impl Bot<Bidding> for Sleeps {
        fn choose(&mut self, _: &Bidding, _: Seat, _: TimeLeft) -> Result<Answer<Bid>, BotError> {
            match self.0 {
                Some(ms) => std::thread::sleep(Duration::from_millis(ms)),
                None => loop {
                    std::thread::park();
                },
            }
            Ok(Answer::from(Bid(1)))
        }
    }

    /// A bidding game between `a` and `b` under `referee`.
    fn bidding_under(
        referee: &Referee,
        a: &mut dyn Bot<Bidding>,
        b: &mut dyn Bot<Bidding>,
    ) -> Played<Bidding> {
        referee
            .play(
                &Bidding::new(&BiddingParams::default()).unwrap(),
                BySeat::new(a, b),
                BySeat::new(1, 2),
                &Watch::default(),
            )
            .unwrap()
    }

    fn timed(ms: u64, clock: Option<&str>) -> Referee {
        Referee {
            max_plies: 1000,
            adjudication: Adjudication::default(),
            time: TimeControl {
                move_time: (clock.is_none()).then(|| Duration::from_millis(ms)),
                clock: clock.map(|c| c.parse().unwrap()),
                margin: Duration::from_millis(20),
                startup: Duration::from_secs(1),
            },
        }
    }

    #[test]
    fn a_hosted_bot_that_never_answers_forfeits_on_time() {
        let referee = timed(50, None);
        // the sleeper never returns: that the game ends at all shows it was
        // not waited for
        let mut sleeper = Hosted::new(Box::new(Sleeps(None)), Duration::from_secs(1));
        let played = bidding_under(&referee, &mut RandomBot::new(), &mut sleeper);
        assert_forfeit(&played, Seat::Second, ForfeitReason::Timeout, "no move");
        let Termination::Forfeit { overrun_ms, .. } = played.termination else {
            unreachable!()
        };
        assert!(overrun_ms.unwrap() >= 20, "{overrun_ms:?}");
    }

    #[test]
    fn a_game_clock_runs_out_and_forfeits() {
        // 0.1 s for the whole game, 45 ms a move: the third move overruns
        let referee = timed(0, Some("0.1+0"));
        let played = bidding_under(&referee, &mut Sleeps(Some(45)), &mut Fixed(1));
        assert_forfeit(&played, Seat::First, ForfeitReason::Timeout, "no move");
        assert_eq!(played.result, GameResult::Second);
        assert!(played.turns.len() <= 2, "{}", played.turns.len());
    }

    #[test]
    fn an_increment_keeps_a_slow_bot_in_time() {
        // 30 ms a move against 0.1 s plus 100 ms a move: the clock never runs out
        let referee = timed(0, Some("0.1+0.1"));
        let played = bidding_under(&referee, &mut Sleeps(Some(30)), &mut Fixed(2));
        assert_eq!(played.termination, Termination::Normal);
    }

    /// Takes `wall` ms per move on the referee's clock but says its transport
    /// measured `own` ms: the rest was ladder's delay (a busy machine).
    struct DelayedBySomeoneElse {
        wall: u64,
        own: Option<u64>,
    }
    impl Bot<Bidding> for DelayedBySomeoneElse {
        fn choose(
            &mut self,
            game: &Bidding,
            seat: Seat,
            t: TimeLeft,
        ) -> Result<Answer<Bid>, BotError> {
            std::thread::sleep(Duration::from_millis(self.wall));
            let answer = RandomBot::new().choose(game, seat, t)?;
            Ok(Answer {
                spent: self.own.map(Duration::from_millis),
                ..answer
            })
        }
        fn keeps_deadlines(&self) -> bool {
            true
        }
    }

    #[test]
    fn a_program_is_charged_its_own_time_not_ladders_delay() {
        // 0.1 s for the game; every move takes 40 ms of which the bot's own is 1 ms
        let referee = timed(0, Some("0.1+0"));
        let mut bot = DelayedBySomeoneElse {
            wall: 40,
            own: Some(1),
        };
        let played = bidding_under(&referee, &mut bot, &mut Fixed(1));
        assert_eq!(played.termination, Termination::Normal);
        let moves = played.turns.len() as u64;
        assert!(moves >= 3, "the clock would have run out after 2 moves");
        assert_eq!(played.delay.moves, moves);
        assert!(
            played.delay.worst >= Duration::from_millis(39),
            "{:?}",
            played.delay
        );
        // the same bot with no measure of its own is charged the referee's
        let mut bot = DelayedBySomeoneElse {
            wall: 40,
            own: None,
        };
        let played = bidding_under(&referee, &mut bot, &mut Fixed(1));
        assert_forfeit(&played, Seat::First, ForfeitReason::Timeout, "no move");
        assert_eq!(played.delay.moves, 0);
    }

    #[test]
    fn without_a_game_clock_a_programs_delay_is_measured_too() {
        let referee = timed(1000, None);
        let mut bot = DelayedBySomeoneElse {
            wall: 2,
            own: Some(0),
        };
        let played = bidding_under(&referee, &mut bot, &mut Fixed(1));
        assert_eq!(played.termination, Termination::Normal);
        assert_eq!(played.delay.moves, played.turns.len() as u64);
        assert!(played.delay.total >= Duration::from_millis(2) * played.delay.moves as u32);
        // an in-process bot is not timed at all without a game clock
        let played = bidding_under(&referee, &mut Fixed(2), &mut Fixed(1));
        assert_eq!(played.delay, Delay::default());
    }

    /// Fails the way ladder itself can: its working folder is gone.
    struct HarnessFails;
    impl Bot<Bidding> for HarnessFails {
        fn choose(&mut self, _: &Bidding, _: Seat, _: TimeLeft) -> Result<Answer<Bid>, BotError> {
            Err(BotError::Harness("its working folder /x is gone".into()))
        }
    }

    #[test]
    fn ladders_own_failure_is_no_forfeit_and_no_game() {
        let aborted = Referee::new(1000)
            .play(
                &Bidding::new(&BiddingParams::default()).unwrap(),
                BySeat::new(
                    &mut RandomBot::new() as &mut dyn Bot<Bidding>,
                    &mut HarnessFails,
                ),
                BySeat::new(1, 2),
                &Watch::default(),
            )
            .unwrap_err();
        assert_eq!(aborted, Aborted("its working folder /x is gone".into()));
        assert_eq!(ForfeitReason::of(&BotError::Harness("x".into())), None);
    }
}
