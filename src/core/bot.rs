//! The `Bot` trait the referee talks to, the errors a bot can raise, the types
//! a game uses to list its built-in bots, and the generic built-in `random`.
//!
//! In-process bots and external processes implement the same trait, so the
//! referee never knows which kind it holds. A bot is made fresh for every game
//! from a [`BotFactory`], with its own seed, so games stay independent.

use std::{sync::Arc, time::Duration};

use rand::SeedableRng;

use crate::{
    core::{
        clock::TimeLeft,
        error::Invalid,
        game::Game,
        seat::{BySeat, Seat},
    },
    Rng,
};

/// Why a bot failed to give a move; each becomes a named forfeit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// No answer within the time limit.
    #[error("timeout: no {waiting_for} within the time limit")]
    Timeout {
        /// What the referee waited for: `move`, `` `ready` at start-up``.
        waiting_for: String,
        /// How long it waited.
        waited: Duration,
    },
    /// The bot is gone: its process exited or never started, or it panicked.
    #[error("crash: {0}")]
    Crash(Crash),
    /// An answer that breaks the protocol.
    #[error("bad output: {0}")]
    BadOutput(BadOutput),
    /// A move the bot's protocol reads against the legal moves (a GGP
    /// player's KIF), which none of them is: its text, cut to 80 characters.
    #[error("illegal move: `{0}` is not a legal move")]
    Illegal(String),
    /// Ladder itself could not run the bot (its working folder is gone, the
    /// system refused a process): not the bot's fault, so no forfeit; the
    /// game is not recorded and the season stops, to be resumed.
    #[error("ladder could not run the bot: {0}")]
    Harness(String),
}

/// How a bot crashed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Crash {
    #[error("cannot start `{command}`: {error}")]
    CannotStart { command: String, error: String },
    /// The process ended, or closed its output, while ladder needed it.
    #[error("`{command}` {} {during}", ended(*.exit))]
    Ended {
        command: String,
        /// How it ended: its exit status, `None` while it still runs with
        /// its output closed.
        exit: Option<Exit>,
        /// What ladder was doing: `while ladder waited for its move`.
        during: String,
    },
    /// A player served over HTTP closed the connection or refused it.
    #[error("`{player}` closed or refused the connection {during}: {error}")]
    Connection {
        player: String,
        error: String,
        during: String,
    },
    /// An in-process bot panicked.
    #[error("panicked: {0}")]
    Panicked(String),
    /// The process failed earlier in this game and is gone.
    #[error("the bot process is not running")]
    NotRunning,
    /// The bot cannot play this game's setting (a table too large, no move it knows).
    #[error("{0}")]
    Unplayable(String),
}

/// How a process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// A signal ended it.
    Signal(i32),
}

/// "exited with code 3", "was ended by signal 9", "closed its output".
fn ended(exit: Option<Exit>) -> String {
    match exit {
        Some(Exit::Code(c)) => format!("exited with code {c}"),
        Some(Exit::Signal(s)) => format!("was ended by signal {s}"),
        None => "closed its output".to_string(),
    }
}

/// How an answer broke the protocol.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadOutput {
    /// The answer (cut to 80 characters) does not parse as a move; `form`
    /// says what a move looks like, with an example.
    #[error("`{text}` is not a move: {form}")]
    NotAMove { text: String, form: String },
    /// The answer does not parse as a bid (HackerRank bots).
    #[error("`{0}` is not a bid")]
    NotABid(String),
    /// Something other than `ready` answered the greeting.
    #[error("expected `ready` at start-up, got `{0}`")]
    NotReady(String),
    /// A line nobody asked for.
    #[error("output nobody asked for: `{0}`")]
    Unrequested(String),
    /// The program exited cleanly without answering (HackerRank bots).
    #[error("the program exited without printing a bid")]
    NoBid,
    /// An HTTP answer with a status other than success (GGP players).
    #[error("HTTP status {status} in answer to {what}")]
    Http { status: u16, what: String },
    /// A line longer than the limit, in bytes.
    #[error("a line longer than {0} bytes")]
    TooLong(usize),
    /// More comment lines than the limit while answering one request.
    #[error("a flood of more than {0} comment lines")]
    Flood(usize),
}

impl BotError {
    /// What happened, without the kind (the forfeit reason names the kind).
    pub fn detail(&self) -> String {
        match self {
            BotError::Timeout { waiting_for, .. } => {
                format!("no {waiting_for} within the time limit")
            }
            BotError::Crash(c) => c.to_string(),
            BotError::BadOutput(b) => b.to_string(),
            BotError::Illegal(text) => format!("`{text}` is not a legal move"),
            BotError::Harness(why) => why.clone(),
        }
    }
}

/// A player of game `G`.
pub trait Bot<G: Game>: Send {
    /// Called once before the first move, with the bot's seat and a seed for its
    /// own random numbers.
    fn new_game(&mut self, _game: &G, _seat: Seat, _seed: u64) -> Result<(), BotError> {
        Ok(())
    }

    /// The move of `seat` in `game`, within `time`, with what the referee
    /// reads beside it ([`Answer`]; a bare move converts with `.into()`).
    /// The referee checks the move; never trust a bot.
    fn choose(&mut self, game: &G, seat: Seat, time: TimeLeft)
        -> Result<Answer<G::Move>, BotError>;

    /// Told what every acting seat played, once the joint move is applied. In a
    /// simultaneous game this is the first time a bot sees its opponent's move.
    fn observe(&mut self, _game: &G, _moves: &BySeat<Option<G::Move>>) -> Result<(), BotError> {
        Ok(())
    }

    /// Whether this bot is told the moves ([`Bot::observe`]). A bot that
    /// ignores them may say no, once per game, and the referee calls
    /// `observe` no more: three calls a turn become one.
    fn observes(&self) -> bool {
        true
    }

    /// Called once with the final goal values. A bot that fails here (a
    /// program that wrote more than it was asked for, or does not confirm
    /// the end of the game) forfeits the game it just finished, unless it
    /// was a forfeit already.
    fn game_over(&mut self, _game: &G, _goals: BySeat<i32>) -> Result<(), BotError> {
        Ok(())
    }

    /// Whether the bot can play games that start like `start` (a table-based
    /// bot has a size limit, say); asked once when a season is planned, so a
    /// setting no game could be played with is refused before any game.
    fn plays(&self, _start: &G) -> Result<(), Invalid> {
        Ok(())
    }

    /// Whether the bot stops waiting by itself at the limit of every call (an
    /// external program read with deadlines), so the watchdog leaves it more slack.
    fn keeps_deadlines(&self) -> bool {
        false
    }

    /// Whether the referee's clock applies: `false` only for a person at
    /// the keyboard (`ladder play`), who has no limit and is never charged.
    fn timed(&self) -> bool {
        true
    }

    /// Told the index in the season's schedule of the game about to start,
    /// for logs (a bot program's I/O log names it). A bot must not play
    /// differently by it.
    fn game_index(&mut self, _index: u64) {}

    /// Told that it forfeited the game just played, and why (`timeout: no
    /// move within the time limit`): a bot program writes the lines it
    /// exchanged before into its log.
    fn forfeited(&mut self, _why: &str) {}

    /// Whether [`Bot::prepare`] would start something (a program whose
    /// process is not running): the season's bot pool staggers such starts,
    /// and drops a bot whose process died instead of keeping it for later games.
    fn needs_start(&self) -> bool {
        false
    }

    /// Gets the bot ready before its game, outside the game's clock and the
    /// watchdog: a program starts its process and waits for its greeting.
    /// A failure is kept and reported by the next [`Bot::new_game`], so it
    /// forfeits that game like any other start-up failure.
    fn prepare(&mut self) {}
}

/// A bot's answer to a move request: the move, and what the referee reads
/// beside it. Most bots give only the move: `Ok(mv.into())`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer<M> {
    pub mv: M,
    /// The bot's own judgement of the position after this move, from its
    /// side, in hundredths of a point, if it gives one: the referee's
    /// adjudication (`[season.adjudication]`) reads it.
    pub score: Option<i32>,
    /// How long the move took as the bot's transport measured it: for a
    /// program, from the request written to the answer read. The referee
    /// charges this to the bot's clock, not its own measure, which also
    /// holds ladder's time around the move (the difference is reported as
    /// ladder's delay); `None` charges the referee's measure.
    pub spent: Option<Duration>,
}

impl<M> From<M> for Answer<M> {
    fn from(mv: M) -> Self {
        Answer {
            mv,
            score: None,
            spent: None,
        }
    }
}

/// Makes a fresh in-process bot for each game.
pub type BotFactory<G> = Arc<dyn Fn() -> Box<dyn Bot<G>> + Send + Sync>;

/// A built-in bot as `ladder list bots` shows it.
#[derive(Clone, Copy, Debug)]
pub struct BotInfo {
    pub name: &'static str,
    pub about: &'static str,
}

/// A game's own built-in bot: its name, one line for `ladder list bots`, and
/// how to make a factory for it from its `params` (the first argument is the
/// bot's name, for error messages).
pub struct Builtin<G: Game> {
    pub name: &'static str,
    pub about: &'static str,
    pub make: fn(&str, &toml::Table) -> Result<BotFactory<G>, Invalid>,
}

/// Plays a move drawn uniformly from the legal moves, from its own seeded stream.
pub struct RandomBot {
    rng: BotRng,
}

impl RandomBot {
    pub fn new() -> Self {
        RandomBot {
            rng: BotRng::default(),
        }
    }
}

impl Default for RandomBot {
    fn default() -> Self {
        RandomBot::new()
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn new_game(&mut self, _game: &G, _seat: Seat, seed: u64) -> Result<(), BotError> {
        self.rng.reseed(seed);
        Ok(())
    }

    fn choose(&mut self, game: &G, seat: Seat, _: TimeLeft) -> Result<Answer<G::Move>, BotError> {
        Ok(Answer::from(game.random_move(seat, &mut self.rng)))
    }

    fn observes(&self) -> bool {
        false
    }
}

/// A bot's own random numbers: seeded from 0 when the bot is made and
/// afresh from the seed [`Bot::new_game`] gives (`self.rng.reseed(seed)`),
/// so each game replays exactly. Use it as the generator it holds.
#[derive(Clone, Debug)]
pub struct BotRng(Rng);

impl Default for BotRng {
    fn default() -> Self {
        BotRng(Rng::seed_from_u64(0))
    }
}

impl BotRng {
    /// Starts the sequence of game seed `seed`.
    pub fn reseed(&mut self, seed: u64) {
        self.0 = Rng::seed_from_u64(seed);
    }
}

impl std::ops::Deref for BotRng {
    type Target = Rng;
    fn deref(&self) -> &Rng {
        &self.0
    }
}

impl std::ops::DerefMut for BotRng {
    fn deref_mut(&mut self) -> &mut Rng {
        &mut self.0
    }
}

/// The generic bots every game has.
pub const GENERIC_BOTS: &[BotInfo] = &[BotInfo {
    name: "random",
    about: "uniform over the legal moves",
}];

/// Every built-in bot of a game whose own bots are `own`: its own first, then
/// the generic ones it does not replace.
pub fn builtin_bots<G: Game>(own: &[Builtin<G>]) -> Vec<BotInfo> {
    let mine = own.iter().map(|b| BotInfo {
        name: b.name,
        about: b.about,
    });
    let generic = GENERIC_BOTS
        .iter()
        .filter(|g| own.iter().all(|o| o.name != g.name))
        .copied();
    mine.chain(generic).collect()
}

/// A factory for built-in bot `name` with `params`, among the own bots `own`
/// of game `game` and the generic ones, or why there is none.
pub fn builtin_bot<G: Game>(
    game: &str,
    own: &[Builtin<G>],
    name: &str,
    params: &toml::Table,
) -> Result<BotFactory<G>, Invalid> {
    if let Some(b) = own.iter().find(|b| b.name == name) {
        return (b.make)(name, params);
    }
    match name {
        "random" => simple::<G, RandomBot>(name, params),
        _ => {
            let known: Vec<&str> = builtin_bots(own).iter().map(|b| b.name).collect();
            Err(Invalid::new(format!(
                "no built-in bot `{name}` for game {game}; known: {}",
                known.join(", ")
            )))
        }
    }
}

/// A factory for a bot that takes no parameters and starts from `Default`:
/// most built-in bots are registered with just this.
pub fn simple<G: Game, B: Bot<G> + Default + 'static>(
    name: &str,
    params: &toml::Table,
) -> Result<BotFactory<G>, Invalid> {
    no_params(name, params)?;
    Ok(Arc::new(|| Box::new(B::default())))
}

/// A bot's parameters read into `P` (a serde struct with defaults and
/// `deny_unknown_fields`); the error names the offending key where it can.
pub fn bot_params<P: serde::de::DeserializeOwned>(
    name: &str,
    params: &toml::Table,
) -> Result<P, Invalid> {
    toml::Value::Table(params.clone())
        .try_into()
        .map_err(|e: toml::de::Error| {
            let message = format!("bot `{name}`: {}", e.message().trim());
            match params.keys().find(|k| message.contains(&format!("`{k}`"))) {
                Some(key) => Invalid::of(key, message),
                None => Invalid::new(message),
            }
        })
}

/// A factory for a bot made from its parameters `P` by `make`.
pub fn with_params<G: Game, P, B>(
    name: &str,
    params: &toml::Table,
    make: fn(&P) -> B,
) -> Result<BotFactory<G>, Invalid>
where
    P: serde::de::DeserializeOwned + Send + Sync + 'static,
    B: Bot<G> + 'static,
{
    let p: P = bot_params(name, params)?;
    Ok(Arc::new(move || Box::new(make(&p))))
}

/// Refuses parameters for a bot that takes none.
pub fn no_params(name: &str, params: &toml::Table) -> Result<(), Invalid> {
    match params.keys().next() {
        None => Ok(()),
        Some(key) => Err(Invalid::of(
            key,
            format!("bot `{name}` takes no parameters, got `{key}`"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_read_as_sentences() {
        let e = BotError::BadOutput(BadOutput::Unrequested("3,3,4".into()));
        assert_eq!(
            e.to_string(),
            "bad output: output nobody asked for: `3,3,4`"
        );
        let c = BotError::Crash(Crash::Ended {
            command: "bot".into(),
            exit: Some(Exit::Code(3)),
            during: "while ladder waited for its move".into(),
        });
        assert_eq!(
            c.detail(),
            "`bot` exited with code 3 while ladder waited for its move"
        );
        let t = BotError::Timeout {
            waiting_for: "move".into(),
            waited: Duration::from_millis(1050),
        };
        assert_eq!(t.detail(), "no move within the time limit");
    }
}
