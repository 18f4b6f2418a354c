//! Ladder seasons: a standing ladder that bots join and leave, played one
//! season at a time, with ratings carried over and divisions with promotion
//! and relegation. It sits on the season floor: each division of a season
//! is an ordinary season ([`crate::run::tournament`]).
//!
//! [`config`] reads a ladder config's own keys, [`state`] is
//! `reports/<ladder>/ladder.json`, [`season`] plays the next season, and
//! [`table`] and [`html`] show the ladder. `docs/LADDER.md` is the user's
//! guide.

pub mod config;
pub mod html;
pub mod season;
pub mod state;
pub mod table;
