//! The games a run plays, computed from the schedule as they are needed:
//! the workers take them chunk by chunk and the writer follows their
//! indices, so a season's memory does not grow with its number of games.
//!
//! A run plays, in schedule order, the games of its shard from the first
//! one the journal lacks, except those an earlier run finished out of order
//! (they wait in `pending.jsonl`), and at most `--max-games` of them.

use std::{
    collections::HashSet,
    sync::{Arc, Mutex},
};

use crate::{
    journal::shard::Shard,
    plan::schedule::{Fixture, Schedule},
};

/// The games of one run, as a rule to compute them (not a list).
#[derive(Clone)]
pub struct ToPlay {
    schedule: Schedule,
    shard: Shard,
    /// Games an earlier run finished out of order: not played again.
    done: Arc<HashSet<u64>>,
    /// The first game to look at.
    first: u64,
    /// How many games this run plays.
    len: u64,
}

impl ToPlay {
    /// The games of `shard` in `schedule` from `first` on, without those in
    /// `done`, at most `most` of them; and the first game left for a later
    /// run when `most` cuts the list short.
    pub fn new(
        schedule: Schedule,
        shard: Shard,
        done: HashSet<u64>,
        first: u64,
        most: u64,
    ) -> (ToPlay, Option<u64>) {
        let total = schedule.len();
        let first = first.min(total);
        let done_here = done
            .iter()
            .filter(|&&i| i >= first && i < total && shard.holds(i))
            .count() as u64;
        let available = shard.count(total) - shard.count(first) - done_here;
        let mut to_play = ToPlay {
            schedule,
            shard,
            done: Arc::new(done),
            first,
            len: available,
        };
        let left = (available > most).then(|| {
            let left = to_play.indices().nth(most as usize);
            to_play.len = most;
            left
        });
        (to_play, left.flatten())
    }

    /// How many games this run plays.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether a game is one this run may play: its shard's, and not
    /// finished by an earlier run.
    fn plays(&self) -> impl Fn(u64) -> bool + Send + 'static {
        let (shard, done) = (self.shard, Arc::clone(&self.done));
        move |i| shard.holds(i) && !done.contains(&i)
    }

    /// The games' indices, ascending.
    pub fn indices(&self) -> impl Iterator<Item = u64> + Send + 'static {
        let plays = self.plays();
        (self.first..self.schedule.len())
            .filter(move |&i| plays(i))
            .take(self.len as usize)
    }

    /// The games, in schedule order.
    pub fn fixtures(&self) -> impl Iterator<Item = Fixture> + Send + 'static {
        let plays = self.plays();
        self.schedule
            .clone()
            .into_from(self.first)
            .filter(move |f| plays(f.index))
            .take(self.len as usize)
    }
}

/// A chunk of consecutive games to play, shared with the watchdog, which
/// hands it to a replay when its worker is abandoned.
pub type Chunk = Arc<[Fixture]>;

/// The games of a run nobody has taken yet, handed out to the workers a
/// chunk at a time.
pub struct Queue {
    /// The games not taken, and how many are left.
    games: Mutex<(Box<dyn Iterator<Item = Fixture> + Send>, u64)>,
}

impl Queue {
    pub fn new(to_play: &ToPlay) -> Queue {
        Queue {
            games: Mutex::new((Box::new(to_play.fixtures()), to_play.len())),
        }
    }

    /// The next `n` games nobody has taken (fewer at the end); `None` when
    /// all are taken.
    pub fn take(&self, n: usize) -> Option<Chunk> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let chunk: Chunk = games.0.by_ref().take(n).collect();
        games.1 -= chunk.len() as u64;
        (!chunk.is_empty()).then_some(chunk)
    }

    /// Whether every game has been taken.
    pub fn is_empty(&self) -> bool {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).1 == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::schedule::Format;

    fn schedule() -> Schedule {
        Schedule::new(3, &Format::RoundRobin, 4, 7) // 12 games
    }

    #[test]
    fn a_run_plays_its_shards_games_from_the_first_missing_without_those_done() {
        let shard = Shard { k: 2, n: 2 }; // games 2, 3, 6, 7, 10, 11
        let (to_play, left) = ToPlay::new(schedule(), shard, HashSet::from([6]), 3, 100);
        assert_eq!(left, None);
        assert_eq!(to_play.len(), 4);
        assert_eq!(to_play.indices().collect::<Vec<_>>(), [3, 7, 10, 11]);
        let all: Vec<Fixture> = schedule().from(0).collect();
        let fixtures: Vec<Fixture> = to_play.fixtures().collect();
        assert_eq!(
            fixtures,
            [3, 7, 10, 11].map(|i| all[i]),
            "each game as the schedule has it, seed included"
        );
    }

    #[test]
    fn the_queue_hands_out_every_game_once_in_chunks() {
        let (to_play, _) = ToPlay::new(schedule(), Shard::WHOLE, HashSet::new(), 0, 100);
        let queue = Queue::new(&to_play);
        let sizes: Vec<usize> = std::iter::from_fn(|| queue.take(5).map(|c| c.len())).collect();
        assert_eq!(sizes, [5, 5, 2]);
        assert!(queue.is_empty());
    }

    #[test]
    fn max_games_cuts_the_list_and_names_the_first_game_left() {
        let (to_play, left) = ToPlay::new(schedule(), Shard::WHOLE, HashSet::from([5]), 3, 2);
        assert_eq!(to_play.indices().collect::<Vec<_>>(), [3, 4]);
        assert_eq!(to_play.fixtures().count(), 2);
        assert_eq!(left, Some(6), "game 5 is done: 6 is the first left");
        let (none, left) = ToPlay::new(schedule(), Shard::WHOLE, HashSet::new(), 12, 5);
        assert!(none.is_empty());
        assert_eq!(left, None);
    }
}
