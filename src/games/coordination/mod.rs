//! The coordination game: `rules.rs` has its rules and parameters, `bots.rs` its own bots.

mod bots;
mod rules;
pub mod twin;

pub use bots::*;
pub use rules::*;

/// The game's catalogue entry.
pub const ENTRY: super::Entry<Coordination> = super::Entry {
    name: NAME,
    about: ABOUT,
    builtins: BOTS,
    protocols: &[twin::GGP],
    config: "configs/coordination.toml",
    example_bot: "bots/python/coordination_bot.py",
    solve: None,
};
