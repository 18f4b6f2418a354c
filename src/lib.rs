//! ladder: a bot tournament and ladder runner for small two-player games.
//!
//! The code is built in floors; a module uses only the floors below it
//! (`docs/ARCHITECTURE.md` draws them, and `tests/architecture.rs` checks it):
//!
//! - [`catalog`]: the one list of games, and the only code that names one;
//! - [`check`]: `ladder check`, a conformance test for bot programs;
//! - [`games`]: one folder per game: rules, bots, and what belongs to that game alone;
//! - [`play`]: `ladder play`, a person against a bot at the terminal;
//! - [`web`]: the arena in the browser: its pages and JSON API, served by ladder;
//! - [`arena`]: a league that never stops: bots join while it plays;
//! - [`ladder`]: ladder seasons: ratings carried over, divisions, promotion;
//! - [`report`]: the reports: terminal tables, Markdown, CSV, JSON, HTML;
//! - [`run`]: a season's games played on worker threads into the journal;
//! - [`journal`]: the files of a season: the journal, verify, shards;
//! - [`plan`]: a config read into a validated plan, its schedule and openings;
//! - [`stats`]: standings, ratings and the SPRT, from finished games;
//! - [`external`]: bot programs: child processes and the line protocol;
//! - [`show`]: a game drawn for a person (the `Show` trait), and colour;
//! - [`core`]: seats, the `Game` and `Bot` traits, the referee and its clock, errors.

pub mod arena;
pub mod catalog;
pub mod check;
pub mod core;
pub mod external;
pub mod games;
pub mod journal;
pub mod ladder;
pub mod plan;
pub mod play;
pub mod report;
pub mod run;
pub mod show;
pub mod stats;
pub mod web;

pub use crate::core::{
    bot::{Bot, BotError},
    clock::TimeLeft,
    error::{Error, Result},
    game::{Game, GameResult, IllegalMove},
    seat::{BySeat, Seat},
};

/// The random number generator of games and bots: seeded, portable, and fast.
pub type Rng = rand_chacha::ChaCha8Rng;
