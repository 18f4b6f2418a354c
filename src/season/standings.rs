//! Standings from game records: per-bot totals, head-to-head tallies, ratings
//! with error bars, and terminations by kind. Pure: records in, numbers out;
//! [`crate::report`] turns them into tables.

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

/// An Elo difference against the bot's own opponents, with its 95% interval.
///
/// One method for every score: the Wilson score interval of the bot's score
/// fraction (points per game), turned into Elo. It is defined for every
/// score, never wider on one side than the data allow, and monotone: a
/// better score never gets a worse estimate or bound. A perfect score has no
/// finite estimate: then `elo` is `None` and only the bound the games
/// support is given (`low` after all wins, `high` after all losses). An
/// interval end is `None` where it is unbounded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub elo: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// The Elo difference that scores `score` (strictly between 0 and 1) in expectation.
fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The 97.5% quantile of the standard normal distribution.
const Z: f64 = 1.959964;

impl Rating {
    /// The performance rating of a bot from its total: the Elo difference to
    /// the average opponent it met, with the Wilson 95% interval.
    pub fn from_tally(t: &Tally) -> Option<Rating> {
        if t.games == 0 {
            return None;
        }
        let n = t.games as f64;
        let p = t.points() / n;
        let z2 = Z * Z;
        let center = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        let (all_lost, all_won) = (t.points() == 0.0, t.points() == n);
        Some(Rating {
            elo: (!all_lost && !all_won).then(|| elo_of(p)),
            low: (!all_lost).then(|| elo_of(center - half)),
            high: (!all_won).then(|| elo_of(center + half)),
        })
    }

    /// `+266 (+218, +325)`; `> +687` or `< -687` after a perfect score.
    pub fn text(&self) -> String {
        // `+ 0.0` turns a negative zero into zero, so an even score prints `+0`
        let signed = |x: f64| format!("{:+.0}", x.round() + 0.0);
        match (self.elo, self.low, self.high) {
            (Some(elo), Some(lo), Some(hi)) => {
                format!("{} ({}, {})", signed(elo), signed(lo), signed(hi))
            }
            (_, Some(lo), None) => format!("> {}", signed(lo)),
            (_, None, Some(hi)) => format!("< {}", signed(hi)),
            _ => "-".to_string(),
        }
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

    /// A total of `won`, `lost` and `tie` games.
    fn tally(won: u64, lost: u64, tie: u64) -> Tally {
        Tally {
            games: won + lost + tie,
            won,
            lost,
            tie,
            goal_sum: 0,
        }
    }

    #[test]
    fn ratings() {
        let r = Rating::from_tally(&tally(40, 40, 20)).unwrap();
        assert!(r.elo.unwrap().abs() < 1e-9);
        // p 0.5, n 100: Wilson 0.5 -+ 0.0962 -> 400 log10(0.5962 / 0.4038) = 67.7
        assert_eq!(r.text(), "+0 (-68, +68)");
        let strong = Rating::from_tally(&tally(75, 25, 0)).unwrap();
        assert!((strong.elo.unwrap() - 190.8).abs() < 0.5, "{strong:?}");
        let more = Rating::from_tally(&tally(300, 100, 0)).unwrap();
        let width = |r: &Rating| r.high.unwrap() - r.low.unwrap();
        assert!(
            width(&more) < width(&strong) / 1.8,
            "the interval shrinks with games"
        );
        // both ends are shown, as an interval may be asymmetric
        let few = Rating::from_tally(&tally(9, 1, 0)).unwrap();
        // 9 of 10: Wilson 0.5958 to 0.9821
        assert_eq!(few.text(), "+382 (+67, +696)");
        assert_eq!(Rating::from_tally(&Tally::default()), None);
    }

    #[test]
    fn perfect_scores_give_a_bound_not_a_number() {
        let t = tally;
        let all = Rating::from_tally(&t(200, 0, 0)).unwrap();
        assert_eq!(all.elo, None);
        // Wilson's lower end after 200 of 200: 200 / 203.84 = 0.98115 -> +687
        assert_eq!(all.text(), "> +687");
        assert_eq!(Rating::from_tally(&t(0, 200, 0)).unwrap().text(), "< -687");
        // a 4-0 winner: better than even, if not by much
        let four = Rating::from_tally(&t(4, 0, 0)).unwrap();
        assert!(four.low.unwrap() > 0.0, "{four:?}");
        let draws = Rating::from_tally(&t(0, 0, 50)).unwrap();
        assert_eq!(draws.elo, Some(0.0));
        assert!(draws.low.unwrap() < 0.0 && draws.high.unwrap() > 0.0);
    }

    #[test]
    fn a_better_score_never_gets_a_worse_estimate_or_bound() {
        let key = |x: Option<f64>, unbounded: f64| x.unwrap_or(unbounded);
        for games in [1u64, 4, 200, 1000] {
            let mut last: Option<(f64, f64, f64)> = None;
            // every score in half points, from all lost to all won
            for half_points in 0..=2 * games {
                let (won, tie) = (half_points / 2, half_points % 2);
                let r = Rating::from_tally(&tally(won, games - won - tie, tie)).unwrap();
                let now = (
                    key(
                        r.elo,
                        if won == games {
                            f64::INFINITY
                        } else {
                            f64::NEG_INFINITY
                        },
                    ),
                    key(r.low, f64::NEG_INFINITY),
                    key(r.high, f64::INFINITY),
                );
                if let Some(before) = last {
                    assert!(
                        now.0 > before.0,
                        "{games} games, {half_points} half points: {r:?}"
                    );
                    assert!(now.1 > before.1 || now.1 == f64::NEG_INFINITY, "{r:?}");
                    assert!(now.2 > before.2 || now.2 == f64::INFINITY, "{r:?}");
                }
                last = Some(now);
            }
        }
    }
}
