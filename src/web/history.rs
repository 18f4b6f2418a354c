//! The rating chart of a bot's page (`GET /api/bots/BOT`): every version's
//! rating after each of up to [`POINTS`] evenly spread points of the
//! arena's history. The server keeps the chart's points as the arena grows
//! ([`History`]), so a page costs the games since the last page was made,
//! not a read of every game (docs/PERFORMANCE.md, "A bot's rating chart
//! kept").

use serde_json::{json, Value};

use super::Failure;
use crate::{
    arena::{league::League, store::Store},
    stats::{
        ratings::{self, Rating},
        standings::Standings,
    },
};

/// The most points a chart has.
pub const POINTS: u64 = 40;

/// The games [`History::catch_up`] reads at once.
pub const PAGE: u64 = 4096;

/// The batches between two points of the chart of an arena of `batches`
/// batches: the least power of two that leaves at most [`POINTS`] points.
/// A power of two, so that the points of a longer history are among those
/// of a shorter one, and points once fitted stay.
pub fn step(batches: u64) -> u64 {
    let mut step = 1;
    while batches.div_ceil(step) > POINTS {
        step *= 2;
    }
    step
}

/// The chart's points for an arena of `batches` batches: the end of every
/// `step`th batch, and the last.
fn ends(batches: u64) -> impl Iterator<Item = u64> {
    let step = step(batches);
    (1..=batches.div_ceil(step)).map(move |k| (k * step).min(batches))
}

/// One point of the chart, fitted once the games of every batch before
/// `end` were read: each version's rating and games then.
#[derive(Clone, Debug)]
struct Point {
    end: u64,
    of: Vec<(Rating, u64)>,
}

/// The games read so far, in order, as standings, and the chart's points
/// they passed.
#[derive(Clone, Debug)]
pub struct History {
    standings: Standings,
    /// The number of the first game not read.
    next: u64,
    /// The points passed, in order, at the ends of [`ends`] of the arena
    /// as last read.
    points: Vec<Point>,
}

impl Default for History {
    fn default() -> History {
        History {
            standings: Standings::empty(&[]),
            next: 0,
            points: Vec::new(),
        }
    }
}

impl History {
    /// Reads the games `store` got since the last catch-up, `page` at a
    /// time, fitting every version's rating at each point they pass;
    /// `league` is the league caught up in the same snapshot.
    pub fn catch_up(&mut self, store: &Store, league: &League, page: u64) -> Result<(), Failure> {
        let names = league.names();
        for name in names.iter().skip(self.standings.bots.len()) {
            self.standings.grow(name);
        }
        // a longer history keeps every other point of a shorter one
        let step = step(league.next_batch);
        self.points.retain(|p| p.end % step == 0);
        let mut end = self.points.last().map_or(0, |p| p.end) + step;
        loop {
            let rows = store.games_from(self.next, page)?;
            for g in &rows {
                while g.batch >= end {
                    self.points.push(Point {
                        end,
                        of: self.now(),
                    });
                    end += step;
                }
                self.standings
                    .add(&g.scored(&names).map_err(Failure::damaged)?);
                self.next = g.number + 1;
            }
            if (rows.len() as u64) < page {
                return Ok(());
            }
        }
    }

    /// Each version's rating and games over the games read.
    fn now(&self) -> Vec<(Rating, u64)> {
        let fit = ratings::fit(&self.standings.vs, None);
        fit.ratings
            .into_iter()
            .zip(self.standings.totals.iter().map(|t| t.games))
            .collect()
    }

    /// Version `b`'s chart in an arena of `batches` batches: at each
    /// point where it had played, its rating (the joint fit of every game
    /// before the point); the points not passed yet are the games read.
    pub fn chart(&self, b: usize, batches: u64) -> Vec<Value> {
        let mut now = None;
        let mut chart = Vec::new();
        for end in ends(batches) {
            let (rating, games) = match self.points.iter().find(|p| p.end == end) {
                Some(p) => p.of.get(b).copied(),
                None => now.get_or_insert_with(|| self.now()).get(b).copied(),
            }
            // a version that joined after the point had no games then
            .unwrap_or_default();
            if games > 0 {
                chart.push(json!({
                    "batch": end, "games": games,
                    "rating": rating.elo, "low": rating.low, "high": rating.high,
                }));
            }
        }
        chart
    }

    /// The number of the first game not read.
    pub fn next(&self) -> u64 {
        self.next
    }
}
