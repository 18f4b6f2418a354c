//! The coordination game: see `rules.rs` for its rules and parameters.

mod rules;

pub use rules::*;
