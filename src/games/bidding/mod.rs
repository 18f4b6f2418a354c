//! The bidding game: `rules.rs` has its rules and parameters, `bots.rs` its
//! bots (the 2016 report's random and DP bidders, and `optimal`), `exploit.rs`
//! and `heuristics.rs` more bots, `model.rs` and `forced.rs` `exploit`'s
//! opponent model and forced-win search, `solver.rs` its exact solution and
//! `solve.rs` the `ladder solve bidding` command, and `hackerrank.rs` the
//! HackerRank bot format, a protocol only this game speaks.

mod bots;
pub mod exploit;
pub mod forced;
pub mod hackerrank;
pub mod heuristics;
pub mod model;
mod rules;
pub mod solve;
pub mod solver;
pub mod twin;

pub use bots::*;
pub use rules::*;

/// The game's catalogue entry.
pub const ENTRY: super::Entry<Bidding> = super::Entry {
    name: NAME,
    about: ABOUT,
    builtins: BOTS,
    protocols: &[hackerrank::HACKERRANK, twin::GGP],
    config: "configs/bidding.toml",
    example_bot: "bots/python/bidding_bot.py",
    solve: Some(solve::command),
};
