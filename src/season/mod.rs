//! The season pipeline, in the order a season flows through it:
//! [`config`] (TOML to a validated [`plan::Plan`]) → [`schedule`] (pairings
//! and seeds) → [`tournament`] (games in parallel on [`workers`], with a
//! watchdog) →
//! [`journal`] (one [`record`] per finished game, resumable) →
//! [`standings`] (tables from records, [`ratings`] fitted to them) →
//! [`report`] (terminal and files) and [`html`] (the HTML report);
//! [`verify`] replays a journal through the rules, [`recorded`] reads a
//! season back from its folder, and [`replay`] tells one game.
//! Nothing here names a game: the catalogue hands each step its game's type
//! and [`plan::Roster`].

pub mod concurrency;
pub mod config;
pub mod html;
pub mod journal;
pub mod merge;
pub mod openings;
pub mod plan;
pub mod pool;
pub mod ratings;
pub mod record;
pub mod recorded;
pub mod replay;
pub mod report;
pub mod schedule;
pub mod shard;
pub mod sprt;
pub mod standings;
pub mod tournament;
pub mod verify;
pub mod workers;
pub mod writer;
