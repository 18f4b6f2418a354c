//! The run floor, the only code that starts threads: [`tournament`] opens
//! the journal and finds the games still to play ([`to_play`], computed as
//! they are needed), [`workers`] plays them on
//! worker threads with a watchdog, [`pool`] keeps long-lived bot programs
//! between games, [`writer`] puts finished games into the journal in
//! schedule order, [`progress`] writes progress lines for a log, and
//! [`concurrency`] judges how many games run at once.

pub mod concurrency;
pub mod pool;
pub mod progress;
pub mod to_play;
pub mod tournament;
pub mod workers;
pub mod writer;
