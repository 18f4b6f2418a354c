//! The bidding game: `rules.rs` has its rules and parameters, `solver.rs` its
//! exact solution, `bots.rs` its bots (the 2016 report's random and DP bidders,
//! and `optimal`).

mod bots;
mod rules;
pub mod solver;

pub use bots::*;
pub use rules::*;
