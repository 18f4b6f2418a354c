//! An in-process bot on a thread of its own, so that the referee can stop
//! waiting for it: the in-process counterpart of an external program.
//!
//! Each call travels to the bot's thread with a copy of the position and
//! waits for the answer until the call's limit; a bot that overruns it
//! forfeits on time and its thread is abandoned (detached: Rust cannot stop a
//! thread, and the bot's code may never return). Handing every move to
//! another thread costs microseconds, so the season runner plays in-process
//! bots on its own threads and uses this only to replay the games of a worker
//! whose bot would not return (the season's tournament).

use std::{
    sync::mpsc::{self, Receiver, RecvTimeoutError, Sender},
    thread,
    time::{Duration, Instant},
};

use crate::core::{
    bot::{Answer, Bot, BotError, Crash},
    clock::TimeLeft,
    game::Game,
    seat::{BySeat, Seat},
};

/// One call, carried to the bot's thread.
enum Call<G: Game> {
    NewGame(G, Seat, u64),
    Choose(G, Seat, TimeLeft),
    Observe(G, BySeat<Option<G::Move>>),
    GameOver(G, BySeat<i32>),
    GameIndex(u64),
    Forfeited(String),
}

/// What a call returned: for `Choose`, the bot's answer.
type Reply<G> = Result<Option<Answer<<G as Game>::Move>>, BotError>;

/// A bot running on its own thread.
pub struct Hosted<G: Game> {
    calls: Option<Sender<Call<G>>>,
    answers: Receiver<Reply<G>>,
    /// The limit of calls other than moves.
    other_limit: Duration,
}

impl<G: Game> Hosted<G> {
    /// Starts a thread for `bot`; calls other than moves wait at most `other_limit`.
    pub fn new(mut bot: Box<dyn Bot<G>>, other_limit: Duration) -> Self {
        let (calls, inbox) = mpsc::channel::<Call<G>>();
        let (reply, answers) = mpsc::channel::<Reply<G>>();
        thread::Builder::new()
            .name("ladder-hosted-bot".into())
            .spawn(move || {
                for call in inbox {
                    let answer = match call {
                        Call::NewGame(g, seat, seed) => bot.new_game(&g, seat, seed).map(|()| None),
                        Call::Choose(g, seat, time) => bot.choose(&g, seat, time).map(Some),
                        Call::GameIndex(index) => {
                            bot.game_index(index);
                            Ok(None)
                        }
                        Call::Forfeited(why) => {
                            bot.forfeited(&why);
                            Ok(None)
                        }
                        Call::Observe(g, moves) => bot.observe(&g, &moves).map(|()| None),
                        Call::GameOver(g, goals) => bot.game_over(&g, goals).map(|()| None),
                    };
                    if reply.send(answer).is_err() {
                        return;
                    }
                }
            })
            .map_or_else(
                |_| Hosted::dead(other_limit),
                |_| Hosted {
                    calls: Some(calls),
                    answers,
                    other_limit,
                },
            )
    }

    /// A host whose thread could not start: every call fails.
    fn dead(other_limit: Duration) -> Self {
        let (_, answers) = mpsc::channel();
        Hosted {
            calls: None,
            answers,
            other_limit,
        }
    }

    /// Sends `call` and waits for its answer until `limit`; on a timeout the
    /// thread is abandoned and every later call fails at once.
    fn call(&mut self, call: Call<G>, limit: Duration, waiting_for: &str) -> Reply<G> {
        let start = Instant::now();
        let sent = self.calls.as_ref().is_some_and(|c| c.send(call).is_ok());
        if !sent {
            return Err(BotError::Crash(Crash::NotRunning));
        }
        match self.answers.recv_timeout(limit) {
            Ok(answer) => answer,
            Err(RecvTimeoutError::Timeout) => {
                self.calls = None;
                Err(BotError::Timeout {
                    waiting_for: waiting_for.to_string(),
                    waited: start.elapsed(),
                })
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.calls = None;
                Err(BotError::Crash(Crash::Panicked(
                    "the bot's thread ended".to_string(),
                )))
            }
        }
    }
}

impl<G: Game> Bot<G> for Hosted<G> {
    fn new_game(&mut self, game: &G, seat: Seat, seed: u64) -> Result<(), BotError> {
        let limit = self.other_limit;
        self.call(
            Call::NewGame(game.clone(), seat, seed),
            limit,
            "answer to `new`",
        )
        .map(|_| ())
    }

    fn choose(
        &mut self,
        game: &G,
        seat: Seat,
        time: TimeLeft,
    ) -> Result<Answer<G::Move>, BotError> {
        match self.call(Call::Choose(game.clone(), seat, time), time.limit, "move")? {
            Some(answer) => Ok(answer),
            None => Err(BotError::Crash(Crash::NotRunning)),
        }
    }

    fn observe(&mut self, game: &G, moves: &BySeat<Option<G::Move>>) -> Result<(), BotError> {
        let limit = self.other_limit;
        self.call(
            Call::Observe(game.clone(), moves.clone()),
            limit,
            "answer to `played`",
        )
        .map(|_| ())
    }

    fn game_over(&mut self, game: &G, goals: BySeat<i32>) -> Result<(), BotError> {
        let limit = self.other_limit;
        self.call(
            Call::GameOver(game.clone(), goals),
            limit,
            "answer to `over`",
        )
        .map(|_| ())
    }

    fn keeps_deadlines(&self) -> bool {
        true
    }

    fn game_index(&mut self, index: u64) {
        let limit = self.other_limit;
        let _ = self.call(Call::GameIndex(index), limit, "game index");
    }

    fn forfeited(&mut self, why: &str) {
        let limit = self.other_limit;
        let _ = self.call(Call::Forfeited(why.to_string()), limit, "forfeit note");
    }
}
