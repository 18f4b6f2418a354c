//! The breakthrough game: `rules.rs` has its rules and parameters, `bots.rs` its own bots.

mod bots;
mod rules;
pub mod search;
pub mod solve;
pub mod twin;

pub use bots::*;
pub use rules::*;

/// The game's catalogue entry.
pub const ENTRY: super::Entry<Breakthrough> = super::Entry {
    name: NAME,
    about: ABOUT,
    builtins: BOTS,
    protocols: &[twin::GGP],
    config: "configs/breakthrough.toml",
    example_bot: "bots/python/breakthrough_bot.py",
    solve: Some(solve::command),
};
