//! The armies game: `rules.rs` has its rules and parameters, `bots.rs` its own bots.

mod bots;
pub mod equilibrium;
mod rules;
pub mod solve;
pub mod twin;

pub use bots::*;
pub use rules::*;

/// The game's catalogue entry.
pub const ENTRY: super::Entry<Armies> = super::Entry {
    name: NAME,
    about: ABOUT,
    builtins: BOTS,
    protocols: &[twin::GGP],
    config: "configs/armies.toml",
    example_bot: "bots/python/armies_bot.py",
    solve: Some(solve::command),
};
