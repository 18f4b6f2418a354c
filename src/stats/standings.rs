//! Standings from game records: per-bot totals, head-to-head tallies, and
//! terminations by kind, with the ratings fitted to them
//! ([`crate::stats::ratings`]). Pure: records in, numbers out;
//! [`crate::report`] turns them into tables.

use std::collections::BTreeMap;

use crate::{
    core::record::Scored,
    core::{
        game::GameResult,
        referee::Termination,
        seat::{BySeat, Seat},
    },
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
    /// The bot rated 0 (`anchor` in the config); else the mean of the rated bots is 0.
    pub anchor: Option<usize>,
    /// Pentanomial counts per pairing `(a, b)`, `a < b`: how many
    /// colour-swapped game pairs (games `2k` and `2k + 1` of the schedule,
    /// same bots, seats swapped) gave bot `a` 0, 1/2, 1, 3/2 or 2 points.
    pub pairs: BTreeMap<(usize, usize), [u64; 5]>,
    /// Games whose partner in a pair has not been counted yet, by `index / 2`:
    /// the bots in their seats and the first seat's half points.
    unpaired: BTreeMap<u64, (BySeat<usize>, u8)>,
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
            anchor: None,
            pairs: BTreeMap::new(),
            unpaired: BTreeMap::new(),
        }
    }

    /// Takes in bot `name`, who has no games yet (a bot that joins a
    /// league that goes on).
    pub fn grow(&mut self, name: &str) {
        self.bots.push(name.to_string());
        self.totals.push(Tally::default());
        for row in &mut self.vs {
            row.push(Tally::default());
        }
        self.vs.push(vec![Tally::default(); self.bots.len()]);
        self.forfeits.push(BTreeMap::new());
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
        self.pair_up(r);
    }

    /// Counts game `r` into its colour-swapped pair once both are in.
    fn pair_up(&mut self, r: &Scored) {
        let half_points = |result: GameResult, seat: Seat| match result {
            GameResult::Draw => 1u8,
            x if x == GameResult::win(seat) => 2,
            _ => 0,
        };
        let mine = half_points(r.result, Seat::First);
        match self.unpaired.remove(&(r.index / 2)) {
            Some((seats, theirs))
                if seats.first == r.seats.second && seats.second == r.seats.first =>
            {
                // bot `a` is the lower index; sum its half points over both games
                let (a, b) = (seats.first.min(seats.second), seats.first.max(seats.second));
                let of_a = |first: usize, first_half: u8| {
                    if first == a {
                        first_half
                    } else {
                        2 - first_half
                    }
                };
                let total = of_a(seats.first, theirs) + of_a(r.seats.first, mine);
                self.pairs.entry((a, b)).or_default()[usize::from(total)] += 1;
            }
            // not a colour-swapped pair (an odd games_per_pair shifts pairs
            // across pairings): both games stay unpaired
            Some(_) => {}
            None => {
                self.unpaired.insert(r.index / 2, (r.seats, mine));
            }
        }
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

    #[test]
    fn colour_swapped_game_pairs_make_the_pentanomial_count() {
        let bots: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let game = |index: u64, first: usize, result| Scored {
            index,
            seats: BySeat::new(first, 1 - first),
            seed: 0,
            result,
            goals: BySeat::new(0, 0),
            termination: Termination::Normal,
            plies: 1,
        };
        let records = [
            // pair 0: a wins as first, draws as second: 3/2 for a
            game(1, 1, GameResult::Draw),
            game(0, 0, GameResult::First),
            // pair 1: a loses both: 0
            game(2, 0, GameResult::Second),
            game(3, 1, GameResult::First),
            // pair 2: half in
            game(4, 0, GameResult::First),
        ];
        let s = Standings::new(&bots, &records);
        assert_eq!(s.pairs[&(0, 1)], [1, 0, 0, 1, 0]);
        assert_eq!(s.unpaired.len(), 1);
    }
}
