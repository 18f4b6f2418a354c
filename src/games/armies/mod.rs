//! The armies game: `rules.rs` has its rules and parameters, `bots.rs` its own bots.

mod bots;
pub mod equilibrium;
mod rules;
pub mod solve;

pub use bots::*;
pub use rules::*;
