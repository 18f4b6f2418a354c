//! The breakthrough game: `rules.rs` has its rules and parameters, `bots.rs` its own bots.

mod bots;
mod rules;
pub mod search;
pub mod solve;

pub use bots::*;
pub use rules::*;
