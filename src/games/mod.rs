//! The games, one folder each: `rules.rs` holds the rules, parameters and
//! rule tests; bots written for one game live beside it in `bots.rs`, and
//! anything else that belongs to that game alone (the bidding game's solver
//! and HackerRank protocol) lives in its folder too. The catalogue lists them.

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
