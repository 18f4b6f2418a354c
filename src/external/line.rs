//! A bot that is a program speaking the line protocol ([`crate::protocol`]).
//!
//! One process serves many games: it is started (and greeted) before its first
//! game and reused until it fails or ladder is done with it. Any failure ends
//! the game as a forfeit and kills the process; the next game starts a fresh one.

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use super::{
    process::{Child, Log},
    Command, Limits,
};
use crate::{
    bot::{Bot, BotError},
    game::Game,
    protocol,
    seat::{BySeat, Seat},
};

/// Comment lines a bot may write while answering one request; more is a flood.
const MAX_COMMENTS: usize = 10_000;

/// A line-protocol bot process.
pub struct LineBot {
    command: Command,
    limits: Limits,
    log: Arc<Mutex<Log>>,
    hello: String,
    child: Option<Child>,
    seat: Seat,
}

impl LineBot {
    /// A bot that will start `command` for game `game_name` with `params`
    /// (the game's parameters as JSON, sent in the greeting).
    pub fn new(
        command: Command,
        limits: Limits,
        log: Arc<Mutex<Log>>,
        game_name: &str,
        params: &serde_json::Value,
    ) -> Self {
        let hello = protocol::hello(game_name, limits.move_time.as_millis() as u64, params);
        LineBot {
            command,
            limits,
            log,
            hello,
            child: None,
            seat: Seat::First,
        }
    }

    /// Starts the process and waits for its `ready`.
    fn start(&mut self) -> Result<(), BotError> {
        let mut child = Child::spawn(
            &self.command.argv,
            self.command.dir.as_deref(),
            &self.log,
            true,
        )?;
        child.send(&self.hello)?;
        let deadline = Instant::now() + self.limits.startup_time;
        let line = answer(&mut child, deadline, "`ready` at start-up")?;
        if !protocol::is_ready(&line) {
            return Err(BotError::BadOutput(format!(
                "expected `ready` at start-up, got `{}`",
                shorten(&line)
            )));
        }
        self.child = Some(child);
        Ok(())
    }

    /// The running process; an error if there is none (it failed earlier).
    fn child(&mut self) -> Result<&mut Child, BotError> {
        self.child
            .as_mut()
            .ok_or_else(|| BotError::Crash("the bot process is not running".to_string()))
    }

    /// Runs `step`; on failure kills the process, so the next game starts afresh.
    fn guard<T>(
        &mut self,
        step: impl FnOnce(&mut Self) -> Result<T, BotError>,
    ) -> Result<T, BotError> {
        let result = step(self);
        if result.is_err() {
            self.child = None;
        }
        result
    }

    /// Fails if the bot wrote anything but comments since the last request.
    fn no_unrequested_output(child: &mut Child) -> Result<(), BotError> {
        while let Some(line) = child.try_recv() {
            let line = line?;
            if !protocol::is_comment(&line) {
                return Err(BotError::BadOutput(format!(
                    "unrequested output `{}`",
                    shorten(&line)
                )));
            }
        }
        Ok(())
    }
}

/// The next line that is not a comment, before `deadline`.
pub(crate) fn answer(child: &mut Child, deadline: Instant, what: &str) -> Result<String, BotError> {
    for _ in 0..=MAX_COMMENTS {
        let line = child.recv(deadline, what)?;
        if !protocol::is_comment(&line) {
            return Ok(line);
        }
    }
    Err(BotError::BadOutput(format!(
        "a flood of more than {MAX_COMMENTS} comment lines"
    )))
}

/// At most 80 characters of a bot's line, for error messages.
pub fn shorten(line: &str) -> String {
    let mut s: String = line.chars().take(80).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    s
}

impl<G: Game> Bot<G> for LineBot {
    fn new_game(&mut self, _game: &G, seat: Seat, seed: u64) -> Result<(), BotError> {
        self.seat = seat;
        self.guard(|bot| {
            if bot.child.is_none() {
                bot.start()?;
            }
            let child = bot.child()?;
            LineBot::no_unrequested_output(child)?;
            child.send(&protocol::new_game(seat, seed))
        })
    }

    fn choose(&mut self, game: &G, seat: Seat) -> Result<G::Move, BotError> {
        let move_time = self.limits.move_time;
        self.guard(|bot| {
            let child = bot.child()?;
            LineBot::no_unrequested_output(child)?;
            child.send(&protocol::turn(&game.observation(seat)))?;
            let line = answer(child, Instant::now() + move_time, "move")?;
            protocol::parse_move::<G::Move>(&line).map_err(BotError::BadOutput)
        })
    }

    fn observe(&mut self, _game: &G, moves: &BySeat<Option<G::Move>>) -> Result<(), BotError> {
        self.guard(|bot| bot.child()?.send(&protocol::played(moves)))
    }

    fn game_over(&mut self, _game: &G, goals: BySeat<i32>) {
        let seat = self.seat;
        let _ = self.guard(|bot| bot.child()?.send(&protocol::over(goals, seat)));
    }
}

impl Drop for LineBot {
    /// Says `quit` and gives the bot a moment to exit before its group is killed.
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            if child.send(protocol::QUIT).is_ok() {
                child.close_stdin();
                child.wait_until(Instant::now() + Duration::from_millis(200));
            }
        }
    }
}
