//! The `Bot` trait the referee talks to, the errors a bot can raise, and the
//! generic built-in `random` bot.
//!
//! In-process bots and external processes implement the same trait, so the
//! referee never knows which kind it holds. A bot is made fresh for every game
//! from a [`BotFactory`], with its own seed, so games stay independent.

use rand::SeedableRng;

use crate::{
    game::{BotFactory, BotInfo, Game},
    seat::{BySeat, Seat},
    Rng,
};

/// Why a bot failed to give a move; each becomes a named forfeit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    #[error("timeout: {0}")]
    Timeout(String),
    #[error("crash: {0}")]
    Crash(String),
    #[error("bad output: {0}")]
    BadOutput(String),
}

impl BotError {
    /// What happened, without the kind (the forfeit reason names the kind).
    pub fn detail(&self) -> &str {
        match self {
            BotError::Timeout(d) | BotError::Crash(d) | BotError::BadOutput(d) => d,
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

    /// The move of `seat` in `game`. The referee checks it; never trust a bot.
    fn choose(&mut self, game: &G, seat: Seat) -> Result<G::Move, BotError>;

    /// Told what every acting seat played, once the joint move is applied. In a
    /// simultaneous game this is the first time a bot sees its opponent's move.
    fn observe(&mut self, _game: &G, _moves: &BySeat<Option<G::Move>>) -> Result<(), BotError> {
        Ok(())
    }

    /// Called once with the final goal values.
    fn game_over(&mut self, _game: &G, _goals: BySeat<i32>) {}
}

/// Plays a move drawn uniformly from the legal moves, from its own seeded stream.
pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    pub fn new() -> Self {
        RandomBot {
            rng: Rng::seed_from_u64(0),
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
        self.rng = Rng::seed_from_u64(seed);
        Ok(())
    }

    fn choose(&mut self, game: &G, seat: Seat) -> Result<G::Move, BotError> {
        Ok(game.random_move(seat, &mut self.rng))
    }
}

/// The generic bots every game has.
pub const GENERIC_BOTS: &[BotInfo] = &[BotInfo {
    name: "random",
    about: "uniform over the legal moves",
}];

/// Every built-in bot of game `G`: its own first, then the generic ones it does not replace.
pub fn builtin_bots<G: Game>() -> Vec<BotInfo> {
    let own = G::builtin_bots().iter().map(|b| BotInfo {
        name: b.name,
        about: b.about,
    });
    let generic = GENERIC_BOTS
        .iter()
        .filter(|g| G::builtin_bots().iter().all(|o| o.name != g.name))
        .copied();
    own.chain(generic).collect()
}

/// A factory for built-in bot `name` of game `G` with `params`, or why there is none.
pub fn builtin_bot<G: Game>(name: &str, params: &toml::Table) -> Result<BotFactory<G>, String> {
    if let Some(own) = G::builtin_bots().iter().find(|b| b.name == name) {
        return (own.make)(name, params);
    }
    match name {
        "random" => simple::<G, RandomBot>(name, params),
        _ => {
            let known: Vec<&str> = builtin_bots::<G>().iter().map(|b| b.name).collect();
            Err(format!(
                "no built-in bot `{name}` for game {}; known: {}",
                G::NAME,
                known.join(", ")
            ))
        }
    }
}

/// A factory for a bot that takes no parameters and starts from `Default`:
/// most built-in bots are registered with just this.
pub fn simple<G: Game, B: Bot<G> + Default + 'static>(
    name: &str,
    params: &toml::Table,
) -> Result<BotFactory<G>, String> {
    no_params(name, params)?;
    Ok(std::sync::Arc::new(|| Box::new(B::default())))
}

/// Refuses parameters for a bot that takes none.
pub fn no_params(name: &str, params: &toml::Table) -> Result<(), String> {
    match params.keys().next() {
        None => Ok(()),
        Some(key) => Err(format!("bot `{name}` takes no parameters, got `{key}`")),
    }
}
