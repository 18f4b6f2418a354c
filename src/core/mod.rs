//! The bottom floor: what every other part speaks in. Seats, the `Game` and
//! `Bot` traits, the referee that plays one game and owns its clock, and the
//! error kinds, a finished game in its three shapes ([`record`]: what the
//! journal writes and the statistics count), and how a file is replaced and
//! a folder held ([`files`]), counts in words ([`text`]), and connections
//! counted by address ([`shares`]).
//! Nothing here names a game or starts a process.

pub mod adjudication;
pub mod bot;
pub mod clock;
pub mod error;
pub mod files;
pub mod game;
pub mod hosted;
pub mod record;
pub mod referee;
pub mod seat;
pub mod shares;
pub mod text;
