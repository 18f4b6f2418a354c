//! The statistics floor, pure: [`standings`] are the tables counted from
//! finished games, [`ratings`] the Bradley-Terry (Elo) fit to them with its
//! intervals, and [`sprt`] the sequential test that may stop a season early.

pub mod ratings;
pub mod sprt;
pub mod standings;
