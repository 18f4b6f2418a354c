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
/// A perfect score has no finite estimate: then `elo` is `None` and only the
/// bound the games support is given (`low` after all wins, `high` after all
/// losses). An interval end is `None` where it is unbounded.
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

impl Rating {
    /// The performance rating of a bot from its total: the Elo difference to the
    /// average opponent it met, with the 95% interval from the spread of its
    /// per-game scores (as cutechess-cli and fastchess report a match). After
    /// `n` wins in `n` games the bound is exact: the score `p` with `p^n = 0.025`.
    pub fn from_tally(t: &Tally) -> Option<Rating> {
        if t.games == 0 {
            return None;
        }
        let n = t.games as f64;
        if t.won == t.games || t.lost == t.games {
            let bound = elo_of(0.025f64.powf(1.0 / n));
            let (low, high) = if t.won == t.games {
                (Some(bound), None)
            } else {
                (None, Some(-bound))
            };
            return Some(Rating {
                elo: None,
                low,
                high,
            });
        }
        let score = t.points() / n;
        if t.tie == t.games {
            // no spread to estimate an interval from
            return Some(Rating {
                elo: Some(0.0),
                low: None,
                high: None,
            });
        }
        let variance = (t.won as f64 * (1.0 - score).powi(2)
            + t.tie as f64 * (0.5 - score).powi(2)
            + t.lost as f64 * score.powi(2))
            / n;
        let margin = 1.959964 * (variance / n).sqrt();
        let end = |s: f64| (s > 0.0 && s < 1.0).then(|| elo_of(s));
        Some(Rating {
            elo: Some(elo_of(score)),
            low: end(score - margin),
            high: end(score + margin),
        })
    }

    /// `+24 ± 34`; `> +692` or `< -692` where an end is unbounded; `+0`
    /// after nothing but draws (no spread to estimate an interval from).
    pub fn text(&self) -> String {
        // `+ 0.0` turns a negative zero into zero, so an even score prints `+0`
        let signed = |x: f64| format!("{:+.0}", x.round() + 0.0);
        match (self.elo, self.low, self.high) {
            (Some(elo), Some(lo), Some(hi)) => format!("{} ± {:.0}", signed(elo), (hi - lo) / 2.0),
            (_, Some(lo), None) => format!("> {}", signed(lo)),
            (_, None, Some(hi)) => format!("< {}", signed(hi)),
            (Some(elo), None, None) => signed(elo),
            (None, None, None) | (None, Some(_), Some(_)) => "-".to_string(),
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
        let n = bots.len();
        let mut s = Standings {
            bots: bots.to_vec(),
            totals: vec![Tally::default(); n],
            vs: vec![vec![Tally::default(); n]; n],
            terminations: BTreeMap::new(),
            forfeits: vec![BTreeMap::new(); n],
        };
        for r in records {
            let seats = r.seats;
            for seat in Seat::ALL {
                let (me, them) = (seats[seat], seats[seat.other()]);
                s.totals[me].add(r.result, seat, r.goals[seat]);
                s.vs[me][them].add(r.result, seat, r.goals[seat]);
            }
            let kind = r.termination.kind();
            if let Termination::Forfeit { seat, .. } = &r.termination {
                *s.forfeits[seats[*seat]].entry(kind.clone()).or_default() += 1;
            }
            *s.terminations.entry(kind).or_default() += 1;
        }
        s
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

    #[test]
    fn ratings() {
        let tally = |won, lost, tie| Tally {
            games: won + lost + tie,
            won,
            lost,
            tie,
            goal_sum: 0,
        };
        let r = Rating::from_tally(&tally(40, 40, 20)).unwrap();
        assert!(r.elo.unwrap().abs() < 1e-9);
        // score 0.5, sd 0.447, se 0.0447 -> +-0.0877 in score -> about +-62 Elo
        let half = (r.high.unwrap() - r.low.unwrap()) / 2.0;
        assert!((half - 61.6).abs() < 0.5, "{r:?}");
        assert_eq!(r.text(), "+0 ± 62");
        let strong = Rating::from_tally(&tally(75, 25, 0)).unwrap();
        assert!((strong.elo.unwrap() - 190.8).abs() < 0.5, "{strong:?}");
        let more = Rating::from_tally(&tally(300, 100, 0)).unwrap();
        let width = |r: &Rating| r.high.unwrap() - r.low.unwrap();
        assert!(
            width(&more) < width(&strong) / 1.8,
            "the interval shrinks with games"
        );
        assert_eq!(Rating::from_tally(&Tally::default()), None);
    }

    #[test]
    fn perfect_scores_give_a_bound_not_a_number() {
        let all = Rating::from_tally(&Tally {
            games: 200,
            won: 200,
            lost: 0,
            tie: 0,
            goal_sum: 0,
        })
        .unwrap();
        assert_eq!(all.elo, None);
        // 0.025^(1/200) = 0.98173 -> 400 log10(0.98173 / 0.01827) = 692
        assert_eq!(all.text(), "> +692");
        let none = Rating::from_tally(&Tally {
            games: 200,
            won: 0,
            lost: 200,
            tie: 0,
            goal_sum: 0,
        })
        .unwrap();
        assert_eq!(none.text(), "< -692");
        let almost = Rating::from_tally(&Tally {
            games: 200,
            won: 199,
            lost: 1,
            tie: 0,
            goal_sum: 0,
        })
        .unwrap();
        assert!(
            almost.elo.unwrap() > 900.0 && almost.high.is_none(),
            "{almost:?}"
        );
        assert!(almost.text().starts_with("> +"), "{}", almost.text());
        let draws = Rating::from_tally(&Tally {
            games: 50,
            won: 0,
            lost: 0,
            tie: 50,
            goal_sum: 0,
        })
        .unwrap();
        assert_eq!(draws.text(), "+0", "all draws: no spread, no interval");
    }
}
