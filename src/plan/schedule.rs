//! Who plays whom, in which seat, with which seed: the season's list of games,
//! fixed before anything runs.
//!
//! Every game is fully determined by the config and its index in this list, so
//! results never depend on thread count or timing (and a season could be split
//! into shards that run anywhere).

use rand::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::{core::seat::BySeat, Rng};

/// How bots are paired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "format", rename_all = "kebab-case")]
pub enum Format {
    /// Every pair of bots plays.
    RoundRobin,
    /// The champions (by index; one, or fastchess's `-seeds N`) each play
    /// every other bot; neither the champions nor the others meet among
    /// themselves.
    Gauntlet { champions: Vec<usize> },
    /// Newcomers (by index) against the field: every pair with at least
    /// one newcomer plays (a ladder season's gauntlet).
    Newcomers { newcomers: Vec<usize> },
    /// Each game listed with its bots, first seat first: the games an
    /// arena's matchmaking chose. Game `i` is game `first + i` of a longer
    /// list (an arena's), whose seed it takes, so a batch of an arena and
    /// the arena's export give each game the same seed.
    Listed {
        games: Vec<(usize, usize)>,
        first: u64,
    },
}

/// Who takes the first seat in a pairing's games.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Seating {
    /// The pairing's first bot in even games, the other in odd ones.
    #[default]
    Alternate,
    /// The pairing's first bot in every game (a person's chosen seat in
    /// `ladder play`, fastchess's `-noswap`); `season.json` says
    /// `"seating": "fixed"`.
    Fixed,
    /// As `Alternate`, the pairing's other bot first (fastchess's
    /// `-reverse`): `"seating": "reversed"`.
    Reversed,
    /// The pairing's other bot first in every game (`-noswap -reverse`):
    /// `"seating": "fixed-reversed"`.
    FixedReversed,
}

impl Seating {
    /// `season.json`'s word for it; `None` for the default.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Seating::Alternate => None,
            Seating::Fixed => Some("fixed"),
            Seating::Reversed => Some("reversed"),
            Seating::FixedReversed => Some("fixed-reversed"),
        }
    }

    /// The seating of `season.json`'s word (`None`: the default).
    pub fn from_name(name: Option<&str>) -> Option<Seating> {
        [
            Seating::Alternate,
            Seating::Fixed,
            Seating::Reversed,
            Seating::FixedReversed,
        ]
        .into_iter()
        .find(|s| s.name() == name)
    }

    /// The seating of fastchess's `noswap` and `reverse`.
    pub fn of(noswap: bool, reverse: bool) -> Seating {
        match (noswap, reverse) {
            (false, false) => Seating::Alternate,
            (true, false) => Seating::Fixed,
            (false, true) => Seating::Reversed,
            (true, true) => Seating::FixedReversed,
        }
    }
}

/// The order of a season's games.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// Pairing after pairing: all of a pairing's games, then the next's.
    #[default]
    Pairings,
    /// Round by round: a colour-swapped pair of games of every pairing, then
    /// the next pair of each, so that a season stopped early (`--max-games`,
    /// a report mid-season) has met every pairing; `season.json` says
    /// `"order": "rounds"`.
    Rounds,
}

impl Order {
    /// The config's and `season.json`'s word for it.
    pub fn name(self) -> &'static str {
        match self {
            Order::Pairings => "pairings",
            Order::Rounds => "rounds",
        }
    }

    pub fn from_name(name: &str) -> Option<Order> {
        [Order::Pairings, Order::Rounds]
            .into_iter()
            .find(|o| o.name() == name)
    }
}

/// One scheduled game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// Position in the season, from 0.
    pub index: u64,
    /// Which pairing it belongs to, from 0.
    pub pair: usize,
    /// The bot (index into the season's bot list) in each seat.
    pub seats: BySeat<usize>,
    /// The game's seed; the bots' seeds derive from it.
    pub seed: u64,
}

/// "round-robin", "gauntlet of NAME" or "newcomers (NAMES) against the
/// field", for report headers; `names` are the season's bots.
pub fn format_name(format: &Format, names: &[String]) -> String {
    match format {
        Format::RoundRobin => "round-robin".to_string(),
        Format::Gauntlet { champions } => {
            let list: Vec<&str> = champions.iter().map(|&b| names[b].as_str()).collect();
            format!("gauntlet of {}", list.join(", "))
        }
        Format::Newcomers { newcomers } => {
            let list: Vec<&str> = newcomers.iter().map(|&b| names[b].as_str()).collect();
            format!("newcomers ({}) against the field", list.join(", "))
        }
        Format::Listed { games, .. } => format!("{} listed games", games.len()),
    }
}

/// The pairings of `bots` bots under `format`, in schedule order.
pub fn pairings(bots: usize, format: &Format) -> Vec<(usize, usize)> {
    match *format {
        Format::RoundRobin => (0..bots)
            .flat_map(|a| (a + 1..bots).map(move |b| (a, b)))
            .collect(),
        Format::Gauntlet { ref champions } => champions
            .iter()
            .flat_map(|&c| {
                (0..bots)
                    .filter(|b| !champions.contains(b))
                    .map(move |b| (c, b))
            })
            .collect(),
        Format::Newcomers { ref newcomers } => (0..bots)
            .flat_map(|a| (a + 1..bots).map(move |b| (a, b)))
            .filter(|(a, b)| newcomers.contains(a) || newcomers.contains(b))
            .collect(),
        Format::Listed { ref games, .. } => games.clone(),
    }
}

/// A season's games, each computed from its index when needed, so a season
/// of billions of games costs no memory until it is played: each pairing
/// plays `games_per_pair` games with seats alternating (the pairing's first
/// bot takes the first seat in its even games), so an even count is
/// balanced between seats. Listed games ([`Format::Listed`]) are one game a
/// pairing, seated as listed.
#[derive(Clone, Debug)]
pub struct Schedule {
    pairings: Vec<(usize, usize)>,
    games_per_pair: u64,
    season_seed: u64,
    seating: Seating,
    order: Order,
    /// The index in the season's seed stream of game 0.
    first: u64,
}

impl Schedule {
    pub fn new(bots: usize, format: &Format, games_per_pair: u32, season_seed: u64) -> Self {
        let (games_per_pair, first) = match format {
            Format::Listed { first, .. } => (1, *first),
            _ => (u64::from(games_per_pair), 0),
        };
        Schedule {
            pairings: pairings(bots, format),
            games_per_pair,
            season_seed,
            seating: Seating::Alternate,
            order: Order::Pairings,
            first,
        }
    }

    /// The same games with `seating` (listed games, one a pairing, are
    /// seated as listed either way).
    pub fn with_seating(self, seating: Seating) -> Self {
        Schedule { seating, ..self }
    }

    /// The same games in `order` (listed games are played as listed).
    pub fn with_order(self, order: Order) -> Self {
        Schedule { order, ..self }
    }

    /// How many games the season has.
    pub fn len(&self) -> u64 {
        self.pairings.len() as u64 * self.games_per_pair
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Game `index` (below [`Schedule::len`]).
    pub fn fixture(&self, index: u64) -> Fixture {
        self.place(index, game_seed(self.season_seed, self.first + index))
    }

    /// The pairing of game `index` (its fixture's `pair`, without drawing
    /// its seed), or `None` past the schedule's end.
    pub fn pair_of(&self, index: u64) -> Option<usize> {
        (index < self.len()).then(|| self.pairing_of(index).0 as usize)
    }

    /// The games from `start` on, in order: seeds drawn one after another
    /// from the season's stream, which is cheaper than one look-up each.
    pub fn from(&self, start: u64) -> impl Iterator<Item = Fixture> + '_ {
        stream(self, start)
    }

    /// As [`Schedule::from`], owning the schedule: an iterator that may
    /// outlive it (a run's queue of games, handed out chunk by chunk).
    pub fn into_from(self, start: u64) -> impl Iterator<Item = Fixture> + Send {
        stream(self, start)
    }

    /// Game `index`'s pairing and its number among that pairing's games.
    fn pairing_of(&self, index: u64) -> (u64, u64) {
        let per = self.games_per_pair;
        match self.order {
            Order::Pairings => (index / per, index % per),
            Order::Rounds => {
                // rounds of two games a pairing; an odd count ends with a
                // round of one game a pairing
                let pairings = self.pairings.len() as u64;
                let full = 2 * pairings * (per / 2);
                if index < full {
                    let (round, at) = (index / (2 * pairings), index % (2 * pairings));
                    (at / 2, 2 * round + at % 2)
                } else {
                    (index - full, per - 1)
                }
            }
        }
    }

    fn place(&self, index: u64, seed: u64) -> Fixture {
        let (pair, game) = self.pairing_of(index);
        let (a, b) = self.pairings[pair as usize];
        let (a, b) = match self.seating {
            Seating::Reversed | Seating::FixedReversed => (b, a),
            Seating::Alternate | Seating::Fixed => (a, b),
        };
        let fixed = matches!(self.seating, Seating::Fixed | Seating::FixedReversed);
        let seats = if fixed || game.is_multiple_of(2) {
            BySeat::new(a, b)
        } else {
            BySeat::new(b, a)
        };
        Fixture {
            index,
            pair: pair as usize,
            seats,
            seed,
        }
    }
}

/// The games of `schedule` from `start` on, borrowed or owned.
fn stream<S: std::borrow::Borrow<Schedule>>(
    schedule: S,
    start: u64,
) -> impl Iterator<Item = Fixture> {
    let (mut seeds, len) = {
        let s = schedule.borrow();
        let mut seeds = Rng::seed_from_u64(s.season_seed);
        seeds.set_word_pos(2 * u128::from(s.first + start));
        (seeds, s.len())
    };
    (start..len).map(move |index| schedule.borrow().place(index, seeds.next_u64()))
}

/// Every game of a season, in a list: for small seasons and tests.
pub fn schedule(
    bots: usize,
    format: &Format,
    games_per_pair: u32,
    season_seed: u64,
) -> Vec<Fixture> {
    Schedule::new(bots, format, games_per_pair, season_seed)
        .from(0)
        .collect()
}

/// The seed of game `index`: the `index`-th 64-bit word of the ChaCha stream of
/// the season seed. [`Schedule::from`] draws them in order, which is cheaper.
pub fn game_seed(season_seed: u64, index: u64) -> u64 {
    let mut rng = Rng::seed_from_u64(season_seed);
    rng.set_word_pos(2 * u128::from(index));
    rng.next_u64()
}

/// The seeds of the two bots of a game: the first two words of the ChaCha
/// stream of the game seed, first seat first.
pub fn bot_seeds(game_seed: u64) -> BySeat<u64> {
    let mut rng = Rng::seed_from_u64(game_seed);
    let first = rng.next_u64();
    BySeat::new(first, rng.next_u64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_games_are_seated_as_listed_with_the_seeds_of_their_place() {
        let all = Format::Listed {
            games: vec![(0, 1), (1, 0), (2, 1), (0, 2)],
            first: 0,
        };
        let tail = Format::Listed {
            games: vec![(2, 1), (0, 2)],
            first: 2,
        };
        let whole = schedule(3, &all, 7, 99);
        let part = schedule(3, &tail, 7, 99);
        assert_eq!(whole.len(), 4);
        assert_eq!(whole[1].seats, BySeat::new(1, 0));
        for (p, w) in part.iter().zip(&whole[2..]) {
            assert_eq!((p.seats, p.seed), (w.seats, w.seed));
        }
        let from = Schedule::new(3, &tail, 1, 99);
        assert_eq!(from.fixture(1).seed, whole[3].seed);
    }

    #[test]
    fn round_robin_meets_every_pair_with_seats_balanced() {
        let games = schedule(4, &Format::RoundRobin, 4, 7);
        assert_eq!(games.len(), 6 * 4);
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.index, i as u64);
        }
        for pair in 0..6 {
            let of_pair: Vec<_> = games.iter().filter(|g| g.pair == pair).collect();
            let firsts: Vec<usize> = of_pair.iter().map(|g| g.seats.first).collect();
            assert_eq!(of_pair.len(), 4);
            assert_eq!(firsts[0], firsts[2]);
            assert_eq!(firsts[1], firsts[3]);
            assert_ne!(firsts[0], firsts[1]);
        }
        assert_eq!(pairings(3, &Format::RoundRobin), [(0, 1), (0, 2), (1, 2)]);
    }

    #[test]
    fn gauntlet_pairs_the_champion_with_each_other_bot() {
        assert_eq!(
            pairings(4, &Format::Gauntlet { champions: vec![2] }),
            [(2, 0), (2, 1), (2, 3)]
        );
        let games = schedule(4, &Format::Gauntlet { champions: vec![2] }, 3, 1);
        assert_eq!(games.len(), 9);
        assert!(games
            .iter()
            .all(|g| g.seats.first == 2 || g.seats.second == 2));
    }

    #[test]
    fn newcomers_meet_the_field_and_each_other_but_the_field_does_not_meet() {
        let format = Format::Newcomers {
            newcomers: vec![1, 3],
        };
        assert_eq!(
            pairings(4, &format),
            [(0, 1), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert!(pairings(3, &Format::Newcomers { newcomers: vec![] }).is_empty());
    }

    #[test]
    fn rounds_meet_every_pairing_early_with_the_same_games_in_all() {
        for per in [1, 2, 3, 4, 5] {
            let pairings = Schedule::new(4, &Format::RoundRobin, per, 7);
            let rounds = pairings.clone().with_order(Order::Rounds);
            assert_eq!(rounds.len(), pairings.len());
            let placed = |s: &Schedule| {
                let mut v: Vec<(usize, BySeat<usize>)> =
                    s.from(0).map(|f| (f.pair, f.seats)).collect();
                v.sort_by_key(|(p, s)| (*p, s.first, s.second));
                v
            };
            // the same pairings, each seated the same number of times
            assert_eq!(placed(&rounds), placed(&pairings), "{per} a pair");
            let games: Vec<Fixture> = rounds.from(0).collect();
            // the first six games meet all six pairings, when there are
            // two games a pairing
            if per >= 2 {
                let mut first: Vec<usize> = games[..12].iter().map(|f| f.pair).collect();
                first.dedup();
                assert_eq!(first, vec![0, 1, 2, 3, 4, 5]);
            }
            // games 2k and 2k + 1 of a full round are one pairing, seats swapped
            for k in 0..(6 * (per / 2)) as usize {
                let (x, y) = (games[2 * k], games[2 * k + 1]);
                assert_eq!((x.pair, x.seats), (y.pair, y.seats.swap()));
            }
            for (i, g) in games.iter().enumerate() {
                assert_eq!(rounds.fixture(i as u64), *g, "computed from its index");
                assert_eq!(rounds.pair_of(i as u64), Some(g.pair));
            }
            for (i, g) in pairings.from(0).enumerate() {
                assert_eq!(pairings.pair_of(i as u64), Some(g.pair));
            }
            assert_eq!(rounds.pair_of(rounds.len()), None);
        }
    }

    #[test]
    fn seeds_depend_on_season_seed_and_index_only() {
        let a = schedule(3, &Format::RoundRobin, 2, 42);
        let b = schedule(5, &Format::RoundRobin, 2, 42);
        assert_eq!(a[3].seed, b[3].seed, "same index, same seed");
        assert_ne!(a[3].seed, a[4].seed);
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        for g in &a {
            assert_eq!(g.seed, game_seed(42, g.index), "drawn in order = looked up");
        }
        let s = Schedule::new(3, &Format::RoundRobin, 2, 42);
        assert_eq!(s.len(), 6);
        for g in &a {
            assert_eq!(s.fixture(g.index), *g, "computed from its index");
        }
        assert_eq!(s.from(4).collect::<Vec<_>>(), a[4..]);
        let s = bot_seeds(a[0].seed);
        assert_ne!(s.first, s.second);
        assert_eq!(s, bot_seeds(a[0].seed));
    }
}
