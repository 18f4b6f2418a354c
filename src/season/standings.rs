//! Standings from game records: per-bot totals, head-to-head tallies, and
//! terminations by kind, with the ratings fitted to them
//! ([`crate::season::ratings`]). Pure: records in, numbers out;
//! [`crate::season::report`] turns them into tables.

use std::collections::BTreeMap;

use crate::{
    core::{game::GameResult, referee::Termination, seat::Seat},
    season::record::Scored,
};

/// Games, wins, losses, ties and goal total of one bot (against one opponent or all).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u64,
    pub won: u64,
    pub lost: u64,
    pub tie: u64,
    pub goal_sum: i64,
}

impl Tally {
    /// 1 per win, 0.5 per tie.
    pub fn points(&self) -> f64 {
        self.won as f64 + self.tie as f64 / 2.0
    }

    /// Wins as a percentage of games (the 2016 report's "Win %").
    pub fn win_percent(&self) -> f64 {
        percent(self.won, self.games)
    }

    pub fn mean_goal(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.goal_sum as f64 / self.games as f64
        }
    }

    fn add(&mut self, result: GameResult, seat: Seat, goal: i32) {
        self.games += 1;
        match result {
            GameResult::Draw => self.tie += 1,
            r if r == GameResult::win(seat) => self.won += 1,
            _ => self.lost += 1,
        }
        self.goal_sum += i64::from(goal);
    }
}

/// `part` as a percentage of `whole` (0 when `whole` is 0).
pub fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// Everything the reports show, for bots in config order.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    pub bots: Vec<String>,
    /// Each bot's total.
    pub totals: Vec<Tally>,
    /// `vs[a][b]`: bot `a`'s tally against bot `b`.
    pub vs: Vec<Vec<Tally>>,
    /// Games per termination kind (`normal`, `forfeit: timeout`, ...).
    pub terminations: BTreeMap<String, u64>,
    /// Forfeits per bot, by termination kind.
    pub forfeits: Vec<BTreeMap<String, u64>>,
    /// Games by length in turns.
    pub lengths: BTreeMap<u32, u64>,
}

impl Standings {
    /// Tallies `records` (any order) for the bots named `bots`; a record's
    /// seats are indices into `bots`.
    pub fn new(bots: &[String], records: &[Scored]) -> Self {
        let mut s = Standings::empty(bots);
        for r in records {
            s.add(r);
        }
        s
    }

    /// No games yet, for the bots named `bots`.
    pub fn empty(bots: &[String]) -> Self {
        let n = bots.len();
        Standings {
            bots: bots.to_vec(),
            totals: vec![Tally::default(); n],
            vs: vec![vec![Tally::default(); n]; n],
            terminations: BTreeMap::new(),
            forfeits: vec![BTreeMap::new(); n],
            lengths: BTreeMap::new(),
        }
    }

    /// Counts one more game: the standings of a season keep no game, so
    /// they take the same memory for ten games or a billion.
    pub fn add(&mut self, r: &Scored) {
        let seats = r.seats;
        for seat in Seat::ALL {
            let (me, them) = (seats[seat], seats[seat.other()]);
            self.totals[me].add(r.result, seat, r.goals[seat]);
            self.vs[me][them].add(r.result, seat, r.goals[seat]);
        }
        // counted without a string per game: only a kind's first game makes its key
        let count = |map: &mut BTreeMap<String, u64>| match map.get_mut(r.termination.kind()) {
            Some(n) => *n += 1,
            None => {
                map.insert(r.termination.kind().to_string(), 1);
            }
        };
        if let Termination::Forfeit { seat, .. } = &r.termination {
            count(&mut self.forfeits[seats[*seat]]);
        }
        count(&mut self.terminations);
        *self.lengths.entry(r.plies).or_default() += 1;
    }

    /// Bot indices from first place to last: by points per game (in a gauntlet
    /// the champion plays more games than the others), then mean goal, then name.
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.bots.len()).collect();
        let score = |t: &Tally| {
            if t.games == 0 {
                0.0
            } else {
                t.points() / t.games as f64
            }
        };
        order.sort_by(|&a, &b| {
            let (ta, tb) = (&self.totals[a], &self.totals[b]);
            score(tb)
                .total_cmp(&score(ta))
                .then(tb.mean_goal().total_cmp(&ta.mean_goal()))
                .then(self.bots[a].cmp(&self.bots[b]))
        });
        order
    }

    /// Total games.
    pub fn games(&self) -> u64 {
        self.terminations.values().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{referee::ForfeitReason, seat::BySeat};

    fn rec(
        first: &str,
        second: &str,
        result: GameResult,
        goals: (i32, i32),
        termination: Termination,
    ) -> Scored {
        Scored {
            index: 0,
            // bots a, b, c (or champ, x, y) are 0, 1, 2
            seats: BySeat::new(first, second).map(|n| match n {
                "a" | "champ" => 0,
                "b" | "x" => 1,
                _ => 2,
            }),
            seed: 0,
            result,
            goals: BySeat::new(goals.0, goals.1),
            termination,
            plies: 10,
        }
    }

    #[test]
    fn tallies_totals_head_to_head_and_terminations() {
        let bots: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let forfeit = Termination::Forfeit {
            seat: Seat::Second,
            reason: ForfeitReason::IllegalMove,
            detail: String::new(),
            overrun_ms: None,
        };
        let records = [
            rec("a", "b", GameResult::First, (100, 0), Termination::Normal),
            rec("b", "a", GameResult::Draw, (50, 50), Termination::Normal),
            rec("a", "c", GameResult::First, (100, 0), forfeit),
            rec("c", "b", GameResult::Second, (0, 100), Termination::Normal),
        ];
        let s = Standings::new(&bots, &records);
        assert_eq!(
            s.totals[0],
            Tally {
                games: 3,
                won: 2,
                lost: 0,
                tie: 1,
                goal_sum: 250
            }
        );
        assert_eq!(s.totals[0].points(), 2.5);
        assert_eq!(
            s.vs[0][1],
            Tally {
                games: 2,
                won: 1,
                lost: 0,
                tie: 1,
                goal_sum: 150
            }
        );
        assert_eq!(
            s.vs[1][0],
            Tally {
                games: 2,
                won: 0,
                lost: 1,
                tie: 1,
                goal_sum: 50
            }
        );
        assert_eq!(
            s.totals[2],
            Tally {
                games: 2,
                won: 0,
                lost: 2,
                tie: 0,
                goal_sum: 0
            }
        );
        assert_eq!(s.terminations["normal"], 3);
        assert_eq!(s.terminations["forfeit: illegal move"], 1);
        assert_eq!(s.forfeits[2]["forfeit: illegal move"], 1);
        assert!(s.forfeits[0].is_empty());
        assert_eq!(s.ranking(), vec![0, 1, 2]);
        assert_eq!(s.games(), 4);
        // every game counted once per side
        let total_games: u64 = s.totals.iter().map(|t| t.games).sum();
        assert_eq!(total_games, 2 * records.len() as u64);
    }

    #[test]
    fn ranking_is_by_points_per_game() {
        // a gauntlet: "champ" plays both others, who never meet
        let bots: Vec<String> = ["champ", "x", "y"].map(String::from).to_vec();
        let records = [
            rec(
                "champ",
                "x",
                GameResult::First,
                (100, 0),
                Termination::Normal,
            ),
            rec(
                "x",
                "champ",
                GameResult::First,
                (100, 0),
                Termination::Normal,
            ),
            rec(
                "champ",
                "y",
                GameResult::Second,
                (0, 100),
                Termination::Normal,
            ),
            rec(
                "y",
                "champ",
                GameResult::First,
                (100, 0),
                Termination::Normal,
            ),
        ];
        let s = Standings::new(&bots, &records);
        // champ: 1 point in 4 games; x: 1 in 2; y: 2 in 2
        assert_eq!(s.totals[0].points(), 1.0);
        assert_eq!(s.totals[1].points(), 1.0);
        assert_eq!(
            s.ranking(),
            vec![2, 1, 0],
            "by points per game: y 1.0, x 0.5, champ 0.25"
        );
    }
}
