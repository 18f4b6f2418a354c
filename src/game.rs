//! The `Game` trait every game implements, and `GameKind`, the one place that
//! maps a game's name to its type.
//!
//! One interface serves alternating and simultaneous games: [`Game::to_act`] says
//! which seats move now (one seat, both, or none once the game is over), and
//! [`Game::apply`] takes one move per acting seat (the idea of OpenSpiel's
//! `CurrentPlayer` and `ApplyActions`). Moves print and parse as their wire form
//! (`Display`/`FromStr`), shared by the journal, the protocol and the docs.
//! Parsing checks syntax only; [`Game::check`] checks the rules.

use std::{fmt, str::FromStr, sync::Arc};

use rand::Rng as _;
use serde::{de::DeserializeOwned, Deserialize, Serialize};

use crate::{
    bot::Bot,
    seat::{BySeat, Seat},
    Rng,
};

/// A move that parses but breaks the rules, with the rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct IllegalMove(pub String);

impl IllegalMove {
    pub fn new(why: impl Into<String>) -> Self {
        IllegalMove(why.into())
    }
}

/// Checks that parameter `key` lies in `range`, for [`Game::check_params`].
pub fn check_range(
    key: &str,
    value: u32,
    range: std::ops::RangeInclusive<u32>,
) -> Result<(), String> {
    if range.contains(&value) {
        Ok(())
    } else {
        Err(format!(
            "{key} must be {}..={}, got {value}",
            range.start(),
            range.end()
        ))
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
    pub make: fn(&str, &toml::Table) -> Result<BotFactory<G>, String>,
}

/// The rules of one two-player game.
pub trait Game: Clone + Send + Sync + 'static {
    /// The name used in configs and on the command line.
    const NAME: &'static str;
    /// One line for `ladder list games`.
    const ABOUT: &'static str;

    /// A move; `Display` and `FromStr` are its wire form. Parsing checks syntax only.
    type Move: Clone + Eq + fmt::Debug + fmt::Display + FromStr + Send + Sync + 'static;
    /// The game's parameters as read from `[season.params]`, with defaults.
    type Params: Serialize + DeserializeOwned + Default + Clone + fmt::Debug + Send + Sync + 'static;

    /// Checks parameter values that types cannot (ranges, relations).
    fn check_params(params: &Self::Params) -> Result<(), String>;

    /// The start position. Precondition: `check_params` passed.
    fn new(params: &Self::Params) -> Self;

    /// Which seats move now: one (alternating), both (simultaneous), none (over).
    fn to_act(&self) -> BySeat<bool>;

    /// Every legal move of `seat` now; empty when `seat` is not to act.
    fn legal_moves(&self, seat: Seat) -> Vec<Self::Move>;

    /// A move drawn uniformly from `legal_moves(seat)`. Games override this when
    /// they can draw without listing every move.
    fn random_move(&self, seat: Seat, rng: &mut Rng) -> Self::Move {
        let moves = self.legal_moves(seat);
        moves[rng.random_range(0..moves.len())].clone()
    }

    /// Whether `seat` may play `mv` now.
    fn check(&self, seat: Seat, mv: &Self::Move) -> Result<(), IllegalMove>;

    /// Plays one move for each acting seat at once.
    ///
    /// # Panics
    /// May panic, or corrupt the position, if a move did not pass `check` or a
    /// seat's move is missing or extra.
    fn apply(&mut self, moves: &BySeat<Option<Self::Move>>);

    /// The goal value of each seat once the game is over.
    fn outcome(&self) -> Option<BySeat<i32>>;

    /// The largest goal value a seat can reach; a forfeit gives it to the winner.
    fn max_goal(&self) -> i32;

    /// Everything `seat` may see now, as one line of words (the protocol's state line).
    fn observation(&self, seat: Seat) -> String;

    /// This game's own built-in bots; the generic `random` is there too unless
    /// the game has its own.
    fn builtin_bots() -> &'static [Builtin<Self>] {
        &[]
    }
}

/// How a finished game counts in the standings.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    First,
    Second,
    Draw,
}

impl GameResult {
    /// The result the goal values give: the higher goal wins.
    pub fn from_goals(goals: BySeat<i32>) -> Self {
        match goals.first.cmp(&goals.second) {
            std::cmp::Ordering::Greater => GameResult::First,
            std::cmp::Ordering::Less => GameResult::Second,
            std::cmp::Ordering::Equal => GameResult::Draw,
        }
    }

    /// A win for `seat`.
    pub fn win(seat: Seat) -> Self {
        match seat {
            Seat::First => GameResult::First,
            Seat::Second => GameResult::Second,
        }
    }

    /// Standings points of `seat`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn points(self, seat: Seat) -> f64 {
        match (self, seat) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::First, Seat::First) | (GameResult::Second, Seat::Second) => 1.0,
            _ => 0.0,
        }
    }
}

/// Every game ladder plays. [`GameKind::visit`] holds the one exhaustive `match`
/// from a name to a type; nothing else looks games up by name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Bidding,
    Armies,
    Troops,
    Coordination,
    Breakthrough,
}

impl GameKind {
    pub const ALL: [GameKind; 5] = [
        GameKind::Bidding,
        GameKind::Armies,
        GameKind::Troops,
        GameKind::Coordination,
        GameKind::Breakthrough,
    ];

    pub fn name(self) -> &'static str {
        use crate::games::*;
        match self {
            GameKind::Bidding => Bidding::NAME,
            GameKind::Armies => Armies::NAME,
            GameKind::Troops => Troops::NAME,
            GameKind::Coordination => Coordination::NAME,
            GameKind::Breakthrough => Breakthrough::NAME,
        }
    }

    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Calls `visitor` with this game's type.
    pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        use crate::games::*;
        match self {
            GameKind::Bidding => visitor.visit::<Bidding>(),
            GameKind::Armies => visitor.visit::<Armies>(),
            GameKind::Troops => visitor.visit::<Troops>(),
            GameKind::Coordination => visitor.visit::<Coordination>(),
            GameKind::Breakthrough => visitor.visit::<Breakthrough>(),
        }
    }
}

/// Code that runs for one game type, chosen at run time by [`GameKind::visit`].
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
