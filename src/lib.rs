//! ladder: a bot tournament and ladder runner for small two-player games.
//!
//! A season flows through these modules in order:
//! [`config`] (TOML to a validated plan) → [`schedule`] (pairings and seeds) →
//! [`tournament`] (games in parallel) → [`referee`] (one game, two bots) →
//! [`journal`] (one JSON line per finished game, resumable) →
//! [`standings`] (tables from records) → [`report`] (terminal and files).
//!
//! Games implement [`Game`]; bots implement [`Bot`]. [`GameKind`] is the one
//! place where a game's name becomes its type.

pub mod bot;
pub mod check;
pub mod config;
pub mod external;
pub mod game;
pub mod games;
pub mod journal;
pub mod protocol;
pub mod referee;
pub mod report;
pub mod schedule;
pub mod seat;
pub mod solve;
pub mod standings;
pub mod tournament;

pub use bot::{Bot, BotError};
pub use game::{Game, GameKind, GameResult, IllegalMove};
pub use seat::{BySeat, Seat};

/// The random number generator of games and bots: seeded, portable, and fast.
pub type Rng = rand_chacha::ChaCha8Rng;
