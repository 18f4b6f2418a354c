//! The referee's clock: how much time each bot has, for in-process bots and
//! external programs alike.
//!
//! A [`TimeControl`] is built once, from the config or the command line. It
//! gives a per-move budget (`move_time_ms`), an optional game clock with an
//! increment (`time_control = "60+0.5"`, in seconds, as in cutechess-cli and
//! fastchess), a margin a bot may overrun by without losing, and the time a
//! program has to start. For every move the referee hands the bot a
//! [`TimeLeft`]: the budget to aim for and the limit past which it forfeits
//! on time.
//!
//! External bots enforce the limit themselves (a deadline on every read). An
//! in-process bot runs on the referee's own thread, so nothing can interrupt
//! it; instead the referee publishes every call on a [`Watch`], and the season
//! runner's watchdog abandons a worker whose call runs past its limit and
//! replays that worker's games with each in-process bot on a thread of its own
//! (`hosted.rs`), where the limit is exact. Publishing is two plain
//! stores per call: reading a clock on every move would cost more than a
//! random move of the small games.

use std::{
    fmt,
    str::FromStr,
    sync::atomic::{AtomicU64, Ordering},
    time::{Duration, Instant},
};

use crate::core::error::Invalid;

/// A game clock: `base` for the whole game, plus `increment` after each move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    pub base: Duration,
    pub increment: Duration,
}

impl FromStr for GameClock {
    type Err = Invalid;

    /// `"60+0.5"` (60 s, then 0.5 s more after each move) or `"60"` (no increment).
    fn from_str(s: &str) -> Result<Self, Invalid> {
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let seconds = |t: &str| -> Result<Duration, Invalid> {
            let v: f64 = t.trim().parse().map_err(|_| {
                Invalid::new(format!(
                    "time_control is \"BASE+INCREMENT\" in seconds, e.g. \"60+0.5\"; `{t}` is not a number"
                ))
            })?;
            if !(0.0..=86_400.0).contains(&v) {
                return Err(Invalid::new(format!(
                    "time_control seconds must lie in 0..=86400, got {t}"
                )));
            }
            Ok(Duration::from_secs_f64(v))
        };
        let clock = GameClock {
            base: seconds(base)?,
            increment: seconds(inc)?,
        };
        if clock.base.is_zero() {
            return Err(Invalid::new("time_control needs a base time above 0"));
        }
        Ok(clock)
    }
}

impl fmt::Display for GameClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

/// Every time limit of a season.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The budget of one move; `None` when only the game clock limits moves.
    pub move_time: Option<Duration>,
    /// The game clock of each bot, if the season has one.
    pub clock: Option<GameClock>,
    /// How far past its budget a bot may answer without forfeiting.
    pub margin: Duration,
    /// From the start of a bot program to its `ready`.
    pub startup: Duration,
}

impl TimeControl {
    pub const DEFAULT_MOVE_TIME_MS: u32 = 1000;
    pub const DEFAULT_MARGIN_MS: u32 = 50;
    pub const DEFAULT_STARTUP_TIME_MS: u32 = 5000;

    /// The one way to build a time control from settings as written (config
    /// keys or command-line options; `None` for one not given): a game clock
    /// alone leaves moves without a budget of their own; nothing at all gives
    /// the default per-move budget. An error names the setting at fault.
    pub fn from_settings(
        move_time_ms: Option<u32>,
        time_control: Option<&str>,
        margin_ms: Option<u32>,
        startup_time_ms: Option<u32>,
    ) -> Result<TimeControl, Invalid> {
        let at_least_1 = |key: &str, v: Option<u32>| match v {
            Some(0) => Err(Invalid::of(key, format!("{key} must be at least 1"))),
            v => Ok(v),
        };
        let clock = match time_control {
            Some(text) => Some(text.parse::<GameClock>().map_err(|e| Invalid {
                key: Some("time_control".to_string()),
                ..e
            })?),
            None => None,
        };
        let default_move = clock.is_none().then_some(Self::DEFAULT_MOVE_TIME_MS);
        let move_ms = at_least_1("move_time_ms", move_time_ms)?.or(default_move);
        let startup_ms = at_least_1("startup_time_ms", startup_time_ms)?
            .unwrap_or(Self::DEFAULT_STARTUP_TIME_MS);
        let ms = |v: u32| Duration::from_millis(v.into());
        Ok(TimeControl {
            move_time: move_ms.map(ms),
            clock,
            margin: ms(margin_ms.unwrap_or(Self::DEFAULT_MARGIN_MS)),
            startup: ms(startup_ms),
        })
    }

    /// A per-move budget with the default margin and start-up time.
    pub fn per_move(move_time: Duration) -> Self {
        TimeControl {
            move_time: Some(move_time),
            clock: None,
            margin: Duration::from_millis(Self::DEFAULT_MARGIN_MS.into()),
            startup: Duration::from_millis(Self::DEFAULT_STARTUP_TIME_MS.into()),
        }
    }

    /// What the greeting of the line protocol announces as `move_ms`: the
    /// per-move budget, else the game clock's base time.
    pub fn announced_move_ms(&self) -> u64 {
        let t = self
            .move_time
            .or(self.clock.map(|c| c.base))
            .unwrap_or_default();
        t.as_millis() as u64
    }

    /// The limit of a call that is not a move (`new_game`, `observe`,
    /// `game_over`): such calls should be instant; a program's start counts here.
    pub fn other_call(&self) -> TimeLeft {
        TimeLeft::new(self.startup, self.margin)
    }
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl::per_move(Duration::from_millis(Self::DEFAULT_MOVE_TIME_MS.into()))
    }
}

/// The time a bot has for one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// What the bot should spend at most: its move budget, or what is left
    /// on its game clock if that is less.
    pub budget: Duration,
    /// When the referee stops waiting and the bot forfeits: the budget plus the margin.
    pub limit: Duration,
    /// Whether the budget is what is left on a game clock, which the rest
    /// of the game's moves share (not a budget for this move alone).
    pub on_clock: bool,
}

impl TimeLeft {
    /// A budget of `budget` for this move with `margin` on top.
    pub fn new(budget: Duration, margin: Duration) -> Self {
        TimeLeft {
            budget,
            limit: budget + margin,
            on_clock: false,
        }
    }

    /// What a bot that searches until a deadline should aim to spend on
    /// this move: half its move budget (the other half, and the margin, is
    /// room for a loaded machine), or a twentieth of what is left on a
    /// game clock. At least a millisecond.
    pub fn aim(&self) -> Duration {
        let share = if self.on_clock { 20 } else { 2 };
        (self.budget / share).max(Duration::from_millis(1))
    }
}

/// The instant `after` from now, for a search's deadline: a budget too
/// large for the clock to add (a GGP manager's play clock of 2^64 s) gives
/// a deadline a century away instead of a panic.
pub fn deadline_after(after: Duration) -> Instant {
    const CENTURY: Duration = Duration::from_secs(100 * 365 * 86_400);
    let now = Instant::now();
    now.checked_add(after)
        .unwrap_or_else(|| now + after.min(CENTURY))
}

/// What a running game's clocks say, kept by the referee for one game.
#[derive(Clone, Debug)]
pub struct Clocks {
    move_time: Option<Duration>,
    margin: Duration,
    increment: Duration,
    /// Time left on each seat's game clock; `None` without a game clock.
    left: Option<[Duration; 2]>,
}

impl Clocks {
    /// Full clocks at the start of a game.
    pub fn new(tc: &TimeControl) -> Self {
        Clocks {
            move_time: tc.move_time,
            margin: tc.margin,
            increment: tc.clock.map_or(Duration::ZERO, |c| c.increment),
            left: tc.clock.map(|c| [c.base, c.base]),
        }
    }

    /// Whether moves must be timed (a game clock runs); without one, the
    /// per-move limit is enforced by the bots' own deadlines and the watchdog.
    pub fn running(&self) -> bool {
        self.left.is_some()
    }

    /// The time the bot in seat `index` (0 or 1) has for its next move.
    pub fn time_left(&self, index: usize) -> TimeLeft {
        let clock = self.left.map(|l| l[index]);
        let budget = match (self.move_time, clock) {
            (Some(m), Some(c)) => m.min(c),
            (Some(m), None) => m,
            (None, Some(c)) => c,
            (None, None) => Duration::MAX / 4,
        };
        TimeLeft {
            on_clock: clock.is_some_and(|c| self.move_time.is_none_or(|m| c < m)),
            ..TimeLeft::new(budget, self.margin)
        }
    }

    /// Charges a move that took `spent` to seat `index`: its clock loses
    /// `spent` (never below zero) and gains the increment.
    pub fn charge(&mut self, index: usize, spent: Duration) {
        if let Some(left) = self.left.as_mut() {
            left[index] = left[index].saturating_sub(spent) + self.increment;
        }
    }
}

/// Ladder's own time around the moves of bot programs: per move, the
/// referee's measure (from asking the bot to having its move) minus the
/// bot's transport's (from the request written to the answer read). It
/// holds formatting the request, parsing the answer, and any wait of the
/// worker's thread for a core: the scheduling delay that is never charged to
/// a bot, reported per season like fastchess's latency.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delay {
    /// The longest of one move.
    pub worst: Duration,
    pub total: Duration,
    /// Moves measured.
    pub moves: u64,
}

impl Delay {
    /// One move's delay.
    pub fn add(&mut self, delay: Duration) {
        self.worst = self.worst.max(delay);
        self.total += delay;
        self.moves += 1;
    }

    /// The delays of `other` too.
    pub fn merge(&mut self, other: &Delay) {
        self.worst = self.worst.max(other.worst);
        self.total += other.total;
        self.moves += other.moves;
    }

    /// The mean delay of a move, if any was measured.
    pub fn mean(&self) -> Option<Duration> {
        (self.moves > 0).then(|| self.total / self.moves.min(u32::MAX as u64) as u32)
    }
}

/// A worker's current bot call, published for the season runner's watchdog.
///
/// The worker stores an odd count when a call starts and the next even count
/// when it returns, with the call's limit beside it; the watchdog samples the
/// counts and finds a call that has not returned within its limit. Only the
/// worker writes, with plain stores: no read-modify-write on the hot path.
#[derive(Debug, Default)]
pub struct Watch {
    calls: AtomicU64,
    limit_ms: AtomicU64,
}

impl Watch {
    /// A call with a limit of `limit_ms` milliseconds begins.
    #[inline]
    pub fn begin(&self, limit_ms: u64) {
        // the worker is the only writer, so a load and a store suffice
        let n = self.calls.load(Ordering::Relaxed) + 1;
        self.limit_ms.store(limit_ms, Ordering::Relaxed);
        self.calls.store(n, Ordering::Release);
    }

    /// The call returned.
    #[inline]
    pub fn end(&self) {
        let n = self.calls.load(Ordering::Relaxed) + 1;
        self.calls.store(n, Ordering::Release);
    }

    /// For the watchdog: the call count and, if a call is under way, its limit.
    pub fn sample(&self) -> (u64, Option<Duration>) {
        let calls = self.calls.load(Ordering::Acquire);
        let limit =
            (calls % 2 == 1).then(|| Duration::from_millis(self.limit_ms.load(Ordering::Relaxed)));
        (calls, limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_aims_at_half_a_move_budget_and_a_twentieth_of_a_game_clock() {
        let ms = Duration::from_millis;
        let per_move = TimeControl::per_move(ms(1000));
        let left = Clocks::new(&per_move).time_left(0);
        assert!(!left.on_clock);
        assert_eq!(left.aim(), ms(500));
        let clock = TimeControl::from_settings(None, Some("10+0.1"), None, None).unwrap();
        let left = Clocks::new(&clock).time_left(0);
        assert!(left.on_clock);
        assert_eq!(left.aim(), ms(500));
        // a move budget below what the clock has left is the move's own
        let both = TimeControl::from_settings(Some(200), Some("10"), None, None).unwrap();
        let mut clocks = Clocks::new(&both);
        assert_eq!(clocks.time_left(0).aim(), ms(100));
        clocks.charge(0, ms(9_900));
        let left = clocks.time_left(0);
        assert!(
            left.on_clock,
            "100 ms left on the clock, below the 200 ms budget"
        );
        assert_eq!(left.aim(), ms(5));
    }

    #[test]
    fn a_deadline_too_far_for_the_clock_is_a_century_away() {
        let now = Instant::now();
        assert!(deadline_after(Duration::MAX) > now + Duration::from_secs(99 * 365 * 86_400));
        let soon = deadline_after(Duration::from_millis(5));
        assert!(soon > now && soon < now + Duration::from_secs(3600));
    }

    #[test]
    fn game_clocks_parse_and_print() {
        let c: GameClock = "60+0.5".parse().unwrap();
        assert_eq!(c.base, Duration::from_secs(60));
        assert_eq!(c.increment, Duration::from_millis(500));
        assert_eq!(c.to_string(), "60+0.5");
        assert_eq!("2".parse::<GameClock>().unwrap().increment, Duration::ZERO);
        for bad in ["", "x+1", "1+y", "0+1", "-1+0", "1e9"] {
            assert!(bad.parse::<GameClock>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_clock_runs_down_and_gains_the_increment() {
        let tc = TimeControl {
            move_time: None,
            clock: Some("1+0.1".parse().unwrap()),
            ..TimeControl::default()
        };
        let mut clocks = Clocks::new(&tc);
        assert!(clocks.running());
        assert_eq!(clocks.time_left(0).budget, Duration::from_secs(1));
        assert_eq!(clocks.time_left(0).limit, Duration::from_millis(1050));
        clocks.charge(0, Duration::from_millis(600));
        assert_eq!(clocks.time_left(0).budget, Duration::from_millis(500));
        assert_eq!(clocks.time_left(1).budget, Duration::from_secs(1));
        clocks.charge(0, Duration::from_secs(9));
        assert_eq!(clocks.time_left(0).budget, Duration::from_millis(100));
    }

    #[test]
    fn a_move_budget_caps_the_clock() {
        let tc = TimeControl {
            clock: Some("10".parse().unwrap()),
            ..TimeControl::per_move(Duration::from_millis(200))
        };
        assert_eq!(
            Clocks::new(&tc).time_left(1).budget,
            Duration::from_millis(200)
        );
        assert!(!Clocks::new(&TimeControl::default()).running());
    }

    #[test]
    fn the_watch_shows_a_call_under_way() {
        let w = Watch::default();
        assert_eq!(w.sample(), (0, None));
        w.begin(30);
        assert_eq!(w.sample(), (1, Some(Duration::from_millis(30))));
        w.end();
        assert_eq!(w.sample(), (2, None));
    }
}
