//! A bot that is a program speaking the line protocol ([`crate::protocol`]).
//!
//! One process serves many games: it is started (and greeted) before its first
//! game and reused until it fails or ladder is done with it. Any failure ends
//! the game as a forfeit and kills the process; the next game starts a fresh one.

use std::time::{Duration, Instant};

use super::{
    process::{Child, SharedLog},
    protocol, Command, Launch,
};
use crate::core::{
    bot::{Answer, BadOutput, Bot, BotError, Crash},
    clock::TimeLeft,
    game::Game,
    seat::{BySeat, Seat},
    text::harmless,
};

/// Comment lines a bot may write while answering one request; more is a flood.
const MAX_COMMENTS: usize = 10_000;

/// A line-protocol bot process.
pub struct LineBot {
    command: Command,
    startup: Duration,
    log: SharedLog,
    hello: String,
    child: Option<Child>,
    seat: Seat,
    /// The game being played (its index in the schedule), for logs.
    game: Option<u64>,
    /// The lines exchanged before the last failure, for the forfeit's log entry.
    failed: Option<String>,
    /// Why the start before this game ([`Bot::prepare`]) failed, for `new_game` to report.
    start_failed: Option<BotError>,
}

impl LineBot {
    /// A bot that will start `launch.command`; the greeting tells it the
    /// game, its parameters and the time control.
    pub fn new(launch: &Launch) -> Self {
        let hello = protocol::hello(&launch.game, &launch.time, &launch.params);
        LineBot {
            command: launch.command.clone(),
            startup: launch.time.startup,
            log: launch.log.clone(),
            hello,
            child: None,
            seat: Seat::First,
            game: None,
            failed: None,
            start_failed: None,
        }
    }

    /// Starts the process and waits for its `ready`; the start-up limit
    /// runs from the process's start.
    fn start(&mut self) -> Result<(), BotError> {
        let mut child = Child::spawn(
            &self.command.argv,
            self.command.dir.as_deref(),
            &self.command.sandbox,
            &self.log,
            true,
        )?;
        child.recent.game = self.game;
        // kept at once, so a failed handshake's lines reach the forfeit's log entry
        let child = self.child.insert(child);
        let started = Instant::now();
        child.send(&self.hello, started, started + self.startup)?;
        let (line, _) = answer(child, started, self.startup, "`ready` at start-up")?;
        if !protocol::is_ready(&line) {
            return Err(BotError::BadOutput(BadOutput::NotReady(shorten(&line))));
        }
        Ok(())
    }

    /// The running process; an error if there is none (it failed earlier).
    fn child(&mut self) -> Result<&mut Child, BotError> {
        self.child
            .as_mut()
            .ok_or(BotError::Crash(Crash::NotRunning))
    }

    /// Runs `step`; on failure kills the process, so the next game starts afresh.
    fn guard<T>(
        &mut self,
        step: impl FnOnce(&mut Self) -> Result<T, BotError>,
    ) -> Result<T, BotError> {
        let result = step(self);
        if result.is_err() {
            if let Some(child) = self.child.take() {
                self.failed = Some(child.recent.text());
            }
        }
        result
    }

    /// Fails if the bot wrote anything but comments since the last request.
    fn no_unrequested_output(child: &mut Child) -> Result<(), BotError> {
        while let Some(line) = child.try_recv() {
            let line = line?;
            if !protocol::is_comment(&line) {
                return Err(BotError::BadOutput(BadOutput::Unrequested(shorten(&line))));
            }
        }
        Ok(())
    }
}

/// The next line that is not a comment, within `limit` after `started`,
/// and when it was read.
pub fn answer(
    child: &mut Child,
    started: Instant,
    limit: Duration,
    what: &str,
) -> Result<(String, Instant), BotError> {
    for _ in 0..=MAX_COMMENTS {
        let (line, at) = child.recv(started, limit, what)?;
        if !protocol::is_comment(&line) {
            return Ok((line, at));
        }
    }
    Err(BotError::BadOutput(BadOutput::Flood(MAX_COMMENTS)))
}

/// At most 80 characters of a bot's line (`…` after them if there were
/// more), its control characters escaped, for error messages.
pub fn shorten(line: &str) -> String {
    let cut: String = line.chars().take(80).collect();
    let mut s = harmless(&cut);
    if cut.len() < line.len() {
        s.push('…');
    }
    s
}

impl<G: Game> Bot<G> for LineBot {
    fn new_game(&mut self, _game: &G, seat: Seat, seed: u64) -> Result<(), BotError> {
        self.seat = seat;
        if let Some(e) = self.start_failed.take() {
            return Err(e);
        }
        let startup = self.startup;
        self.guard(|bot| {
            if bot.child.is_none() {
                bot.start()?;
            }
            let child = bot.child()?;
            LineBot::no_unrequested_output(child)?;
            let now = Instant::now();
            child.send(&protocol::new_game(seat, seed), now, now + startup)
        })
    }

    fn choose(
        &mut self,
        game: &G,
        seat: Seat,
        time: TimeLeft,
    ) -> Result<Answer<G::Move>, BotError> {
        self.guard(|bot| {
            let child = bot.child()?;
            LineBot::no_unrequested_output(child)?;
            // the bot's time starts as its request is written; the clock
            // is read twice a move, here and as the answer is read
            let started = Instant::now();
            child.send_written(started, started + time.limit, |out| {
                protocol::write_turn(out, |out| game.write_observation(seat, out))
            })?;
            let (line, answered) = answer(child, started, time.limit, "move")?;
            let spent = Some(answered.saturating_duration_since(started));
            let (mv, score) = protocol::split_score(&line);
            let mv = protocol::parse_move::<G::Move>(mv).map_err(BotError::BadOutput);
            child.recycle(line);
            Ok(Answer {
                mv: mv?,
                score,
                spent,
            })
        })
    }

    fn observe(&mut self, _game: &G, moves: &BySeat<Option<G::Move>>) -> Result<(), BotError> {
        let now = Instant::now();
        let deadline = now + self.startup;
        self.guard(|bot| bot.child()?.send(&protocol::played(moves), now, deadline))
    }

    /// Says `over` and waits for the bot's `ready`: every line it wrote
    /// before that answer has been read, so a line nobody asked for is
    /// found in the game where it was written, whenever it arrived.
    fn game_over(&mut self, _game: &G, goals: BySeat<i32>) -> Result<(), BotError> {
        let seat = self.seat;
        let limit = self.startup;
        self.guard(|bot| {
            let child = bot.child()?;
            let started = Instant::now();
            child.send(&protocol::over(goals, seat), started, started + limit)?;
            let (line, _) = answer(child, started, limit, "`ready` after `over`")?;
            if protocol::is_ready(&line) {
                Ok(())
            } else {
                Err(BotError::BadOutput(BadOutput::Unrequested(shorten(&line))))
            }
        })
    }

    fn keeps_deadlines(&self) -> bool {
        true
    }

    fn needs_start(&self) -> bool {
        self.child.is_none()
    }

    fn prepare(&mut self) {
        if self.child.is_none() {
            self.start_failed = self.guard(LineBot::start).err();
        }
    }

    fn game_index(&mut self, index: u64) {
        self.game = Some(index);
        self.failed = None;
        if let Some(child) = &mut self.child {
            child.recent.game = Some(index);
        }
    }

    fn forfeited(&mut self, why: &str) {
        let recent = self
            .failed
            .take()
            .or_else(|| self.child.as_ref().map(|c| c.recent.text()))
            .unwrap_or_default();
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .note_forfeit(self.game, why, &recent);
    }
}

impl Drop for LineBot {
    /// Says `quit` and gives the bot a moment to exit before its group is killed.
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let now = Instant::now();
            let deadline = now + Duration::from_millis(200);
            if child.send(protocol::QUIT, now, deadline).is_ok() {
                child.close_stdin();
                child.wait_until(deadline);
            }
        }
    }
}
