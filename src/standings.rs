//! Standings from game records: per-bot totals, head-to-head tallies, ratings
//! with error bars, and terminations by kind. Pure: records in, numbers out;
//! [`crate::report`] turns them into tables.

use std::collections::BTreeMap;

use crate::{game::GameResult, journal::Scored, seat::Seat};

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

/// An Elo difference against the bot's own opponents, with a 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub elo: f64,
    /// Half the width of the 95% interval.
    pub error: f64,
}

/// The Elo difference that scores `score` (0..1) in expectation.
fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

impl Rating {
    /// The performance rating of a bot from its total: the Elo difference to the
    /// average opponent it met, and the 95% interval from the spread of its
    /// per-game scores (as cutechess-cli and fastchess report a match).
    pub fn from_tally(t: &Tally) -> Option<Rating> {
        if t.games == 0 {
            return None;
        }
        let n = t.games as f64;
        let score = t.points() / n;
        let variance = (t.won as f64 * (1.0 - score).powi(2)
            + t.tie as f64 * (0.5 - score).powi(2)
            + t.lost as f64 * score.powi(2))
            / n;
        let margin = 1.959964 * (variance / n).sqrt();
        let (lo, hi) = (elo_of(score - margin), elo_of(score + margin));
        Some(Rating {
            elo: elo_of(score),
            error: (hi - lo) / 2.0,
        })
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
}

impl Standings {
    /// Tallies `records` (any order) for the bots named `bots`.
    ///
    /// # Panics
    /// If a record names a bot not in `bots`; the tournament checks this first.
    pub fn new(bots: &[String], records: &[Scored]) -> Self {
        let n = bots.len();
        let index = |name: &str| {
            bots.iter()
                .position(|b| b == name)
                .expect("record names a known bot")
        };
        let mut s = Standings {
            bots: bots.to_vec(),
            totals: vec![Tally::default(); n],
            vs: vec![vec![Tally::default(); n]; n],
            terminations: BTreeMap::new(),
            forfeits: vec![BTreeMap::new(); n],
        };
        for r in records {
            let seats = r.seats.as_ref().map(|name| index(name));
            for seat in Seat::ALL {
                let (me, them) = (seats[seat], seats[seat.other()]);
                s.totals[me].add(r.result, seat, r.goals[seat]);
                s.vs[me][them].add(r.result, seat, r.goals[seat]);
            }
            let kind = r.termination.kind();
            if let crate::referee::Termination::Forfeit { seat, .. } = &r.termination {
                *s.forfeits[seats[*seat]].entry(kind.clone()).or_default() += 1;
            }
            *s.terminations.entry(kind).or_default() += 1;
        }
        s
    }

    /// Bot indices from first place to last: by points, then mean goal, then name.
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.bots.len()).collect();
        order.sort_by(|&a, &b| {
            let (ta, tb) = (&self.totals[a], &self.totals[b]);
            tb.points()
                .total_cmp(&ta.points())
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
    use crate::{
        referee::{ForfeitReason, Termination},
        seat::BySeat,
    };

    fn rec(
        first: &str,
        second: &str,
        result: GameResult,
        goals: (i32, i32),
        termination: Termination,
    ) -> Scored {
        Scored {
            index: 0,
            seats: BySeat::new(first.into(), second.into()),
            seed: 0,
            result,
            goals: BySeat::new(goals.0, goals.1),
            termination,
        }
    }

    #[test]
    fn tallies_totals_head_to_head_and_terminations() {
        let bots: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let forfeit = Termination::Forfeit {
            seat: Seat::Second,
            reason: ForfeitReason::IllegalMove,
            detail: String::new(),
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
    fn ratings() {
        let even = Tally {
            games: 100,
            won: 40,
            lost: 40,
            tie: 20,
            goal_sum: 0,
        };
        let r = Rating::from_tally(&even).unwrap();
        assert!(r.elo.abs() < 1e-9);
        // score 0.5, sd 0.447, se 0.0447 -> +-0.0877 in score -> about +-61 Elo
        assert!((r.error - 61.2).abs() < 1.0, "{r:?}");
        let strong = Tally {
            games: 100,
            won: 75,
            lost: 25,
            tie: 0,
            goal_sum: 0,
        };
        let r = Rating::from_tally(&strong).unwrap();
        assert!((r.elo - 190.8).abs() < 0.5, "{r:?}");
        let more = Tally {
            games: 400,
            won: 300,
            lost: 100,
            tie: 0,
            goal_sum: 0,
        };
        assert!(
            Rating::from_tally(&more).unwrap().error < r.error / 1.8,
            "error shrinks with games"
        );
        assert_eq!(Rating::from_tally(&Tally::default()), None);
    }
}
