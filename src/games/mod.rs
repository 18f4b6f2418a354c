//! The games, one folder each: `rules.rs` holds the rules, parameters and
//! rule tests; bots written for one game live beside it in `bots.rs`, and
//! anything else that belongs to that game alone (the bidding game's solver
//! and HackerRank protocol) lives in its folder too. Each folder's `mod.rs`
//! declares its [`Entry`], and the catalogue lists the entries, one line a game.

pub mod armies;
pub mod bidding;
pub mod breakthrough;
pub mod cache;
pub mod coordination;
pub mod gdl;
pub mod scoring;
pub mod solve_args;
pub mod troops;
pub mod zero_sum;

pub use armies::Armies;
pub use bidding::Bidding;
pub use breakthrough::Breakthrough;
pub use coordination::Coordination;
pub use troops::Troops;

use crate::{
    core::{bot::Builtin, error::Error, game::Game},
    external::ProcessProtocol,
};

/// A game's extra command (`ladder solve GAME ARGS...`): the words after the
/// game's name in, the text to print out.
pub type Command = fn(&[String]) -> Result<String, Error>;

/// Everything the catalogue knows of one game, declared in the game's own
/// `mod.rs` as `ENTRY`.
pub struct Entry<G: Game> {
    /// The name configs and the command line use.
    pub name: &'static str,
    /// One line for `ladder list games`.
    pub about: &'static str,
    /// Its own built-in bots (the generic `random` comes on top).
    pub builtins: &'static [Builtin<G>],
    /// The protocols it speaks beyond the line protocol.
    pub protocols: &'static [ProcessProtocol<G>],
    /// Its shipped season, a path from the project's root: the per-game
    /// tests play it.
    pub config: &'static str,
    /// Its example bot program, a Python script speaking the line protocol
    /// (a path from the project's root; `bots/README.md`).
    pub example_bot: &'static str,
    /// Its `ladder solve` command, if it has a solver.
    pub solve: Option<Command>,
}
