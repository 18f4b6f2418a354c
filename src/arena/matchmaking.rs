//! Which games an arena plays next: where they tell the most.
//!
//! The rule, decided from the games of earlier batches only (so an arena's
//! games are a function of its seed and its event log):
//!
//! 1. **Newcomers first.** A bot with fewer than `newcomer_games` games
//!    plays before anything else, against the bot it has met least (ties:
//!    the bot with more games, whose rating says more, then the older bot).
//! 2. **Then the neighbours least surely apart.** The bots are ordered by
//!    the joint Bradley-Terry fit (`stats::ratings`). Of each two
//!    neighbours in that order, the pair whose rating gap exceeds their two
//!    95% half-widths by least is where the table is least sure; of the two,
//!    the bot with the wider interval plays, against the opponent whose
//!    games with it shrink its variance most (the Sherman-Morrison update of
//!    the fit's Fisher information: an opponent near its rating, whose own
//!    rating is well known). The pairing then counts as played, and the
//!    next is chosen the same way until the batch is full. While some bot
//!    has only a bound (it won or lost every game), the bots with bounds
//!    play their neighbours in the order instead.
//!
//! Every pairing plays two games, seats swapped. Games between far-apart
//! bots tell almost nothing (the stronger wins), which is where a
//! round-robin spends most of its games; `benches/matchmaking.rs` measures
//! the difference (docs/PERFORMANCE.md).

use crate::stats::{ratings, standings::Tally};

/// How an arena chooses its games (`[arena]` in its config).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Games in a batch (even: pairings play twice, seats swapped).
    pub batch_games: u32,
    /// Games a new bot plays before the rest of the field's.
    pub newcomer_games: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            batch_games: 16,
            newcomer_games: 8,
        }
    }
}

/// The next batch for `vs` (bot `i`'s tally against `j`, for the bots that
/// may play now): its games, first seat first. Empty with fewer than two bots.
pub fn next_batch(vs: &[Vec<Tally>], settings: Settings) -> Vec<(usize, usize)> {
    let n = vs.len();
    if n < 2 {
        return Vec::new();
    }
    let pairings = (settings.batch_games.max(2) / 2) as usize;
    let games = |i: usize| vs[i].iter().map(|t| t.games).sum::<u64>();
    let mut played: Vec<u64> = (0..n).map(games).collect();
    let mut met: Vec<Vec<u64>> = vs
        .iter()
        .map(|row| row.iter().map(|t| t.games).collect())
        .collect();
    let mut chosen = Vec::new();
    // 1. newcomers, the oldest first, until each has its games
    while chosen.len() < pairings {
        let Some(new) = (0..n).find(|&i| played[i] < settings.newcomer_games) else {
            break;
        };
        let other = (0..n)
            .filter(|&j| j != new)
            .min_by_key(|&j| (met[new][j], std::cmp::Reverse(played[j]), j))
            .expect("two bots at least");
        chosen.push((other, new));
        for (a, b) in [(new, other), (other, new)] {
            played[a] += 2;
            met[a][b] += 2;
        }
    }
    if chosen.len() < pairings {
        let fit = ratings::fit(vs, None);
        let more = pairings - chosen.len();
        if fit.ratings.iter().all(|r| r.elo.is_some()) {
            chosen.extend(designed(vs, &fit, more));
        } else {
            // some bots only have a bound: they play their neighbours
            // bounded bots by their bounds: a share says little this early
            let order = ranked(&fit.ratings, &vec![0.0; vs.len()]);
            let unsure: Vec<(usize, usize)> = order
                .windows(2)
                .filter(|w| fit.ratings[w[0]].elo.is_none() || fit.ratings[w[1]].elo.is_none())
                .map(|w| (w[0], w[1]))
                .collect();
            chosen.extend(unsure.iter().cycle().take(more));
        }
    }
    chosen
        .into_iter()
        .flat_map(|(a, b)| [(a, b), (b, a)])
        .collect()
}

/// Natural units (the logistic's) per Elo point.
const UNIT: f64 = std::f64::consts::LN_10 / 400.0;
/// The 97.5% quantile of the standard normal distribution.
const Z: f64 = 1.959964;

/// `want` pairings that each most shrink the interval that keeps two
/// neighbours apart least: the neighbours in the fit's order whose gap
/// exceeds their two 95% half-widths by least; of the two, the bot with
/// the wider interval; its opponent, the bot whose two games with it
/// shrink its variance most (Sherman-Morrison on the fit's information).
/// Each pairing chosen counts as played for the next.
fn designed(vs: &[Vec<Tally>], fit: &ratings::Fit, want: usize) -> Vec<(usize, usize)> {
    let n = vs.len();
    let theta: Vec<f64> = fit
        .ratings
        .iter()
        .map(|r| r.elo.unwrap_or(0.0) * UNIT)
        .collect();
    let weight = |i: usize, j: usize| {
        let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
        p * (1.0 - p)
    };
    let mut info = vec![vec![0.0; n]; n];
    let add = |info: &mut Vec<Vec<f64>>, i: usize, j: usize, w: f64| {
        info[i][i] += w;
        info[j][j] += w;
        info[i][j] -= w;
        info[j][i] -= w;
    };
    for (i, row) in vs.iter().enumerate() {
        for (j, tally) in row.iter().enumerate().skip(i + 1) {
            if tally.games > 0 {
                add(&mut info, i, j, tally.games as f64 * weight(i, j));
            }
        }
    }
    let order = ranked(&fit.ratings, &vec![0.0; vs.len()]);
    let mut chosen = Vec::new();
    while chosen.len() < want {
        let Some(cov) = covariance(&info) else {
            break;
        };
        let se = |i: usize| cov[i][i].max(0.0).sqrt();
        let (a, b) = order
            .windows(2)
            .map(|w| (w[0], w[1]))
            .min_by(|&(a, b), &(c, d)| {
                let margin = |x: usize, y: usize| theta[x] - theta[y] - Z * (se(x) + se(y));
                margin(a, b).total_cmp(&margin(c, d))
            })
            .expect("two bots at least");
        let i = if se(b) > se(a) { b } else { a };
        let gain = |j: usize| {
            let w = 2.0 * weight(i, j);
            let (ci, cj) = (cov[i][i] - cov[i][j], cov[j][j] - cov[i][j]);
            w * ci * ci / (1.0 + w * (ci + cj))
        };
        let j = (0..n)
            .filter(|&j| j != i)
            .max_by(|&x, &y| gain(x).total_cmp(&gain(y)).then(y.cmp(&x)))
            .expect("two bots at least");
        chosen.push((i, j));
        add(&mut info, i, j, 2.0 * weight(i, j));
    }
    chosen
}

/// The covariance of the ratings (natural units, mean fixed at 0): the
/// pseudo-inverse of the information matrix, `(I + 1/n)^-1 - 1/n`; `None`
/// where the games do not connect the bots.
fn covariance(info: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = info.len();
    let shift = 1.0 / n as f64;
    let mut a: Vec<Vec<f64>> = info
        .iter()
        .map(|row| row.iter().map(|x| x + shift).collect())
        .collect();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    // Gauss-Jordan with partial pivoting
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let p = a[col][col];
        for k in 0..n {
            a[col][k] /= p;
            inv[col][k] /= p;
        }
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for k in 0..n {
                        a[row][k] -= f * a[col][k];
                        inv[row][k] -= f * inv[col][k];
                    }
                }
            }
        }
    }
    for row in inv.iter_mut() {
        for x in row.iter_mut() {
            *x -= shift;
        }
    }
    Some(inv)
}

/// The bots from the strongest down: rated bots by rating; a bot bounded
/// below (it won everything) above them and one bounded above below them,
/// each group by its share of points (`shares`, zeros to order by bounds
/// alone), then its bound; bots
/// without games in the middle; ties by index.
pub fn ranked(ratings: &[ratings::Rating], shares: &[f64]) -> Vec<usize> {
    let key = |i: usize| {
        let r = &ratings[i];
        match (r.elo, r.low, r.high) {
            (Some(elo), ..) => (1, 0.0, elo),
            (None, Some(low), None) => (2, shares[i], low),
            (None, None, Some(high)) => (0, shares[i], high),
            _ => (1, 0.0, 0.0),
        }
    };
    let mut order: Vec<usize> = (0..ratings.len()).collect();
    order.sort_by(|&a, &b| {
        let (ka, kb) = (key(a), key(b));
        kb.0.cmp(&ka.0)
            .then(kb.1.total_cmp(&ka.1))
            .then(kb.2.total_cmp(&ka.2))
            .then(a.cmp(&b))
    });
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tallies of `n` bots where `i` beat `j` `wins[i][j]` times.
    fn tallies(wins: &[Vec<u64>]) -> Vec<Vec<Tally>> {
        let n = wins.len();
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| Tally {
                        games: wins[i][j] + wins[j][i],
                        won: wins[i][j],
                        lost: wins[j][i],
                        ..Tally::default()
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_newcomer_plays_first_against_the_bots_it_met_least() {
        // three established bots, a fourth without games
        let mut w = vec![vec![0; 4]; 4];
        w[0][1] = 6;
        w[1][0] = 4;
        w[1][2] = 6;
        w[2][1] = 4;
        w[0][2] = 7;
        w[2][0] = 3;
        let batch = next_batch(&tallies(&w), Settings::default());
        assert_eq!(batch.len(), 16);
        // its first 8 games: each opponent in turn, seats swapped
        assert_eq!(&batch[..4], &[(0, 3), (3, 0), (1, 3), (3, 1)]);
        assert!(batch[..8].iter().all(|&(a, b)| a == 3 || b == 3));
        // then every game pairs seats both ways
        for pair in batch.chunks(2) {
            assert_eq!(pair[0], (pair[1].1, pair[1].0));
        }
    }

    #[test]
    fn the_neighbours_least_surely_apart_play_and_far_apart_bots_do_not() {
        // a ladder 0 > 1 > 2 > 3 where 1 and 2 are close and the rest clear
        let mut w = vec![vec![0; 4]; 4];
        let mut set = |a: usize, b: usize, x: u64, y: u64| {
            w[a][b] = x;
            w[b][a] = y;
        };
        set(0, 1, 40, 10);
        set(1, 2, 21, 19);
        set(2, 3, 40, 10);
        set(0, 2, 45, 5);
        set(1, 3, 45, 5);
        set(0, 3, 49, 1);
        let settings = Settings {
            batch_games: 4,
            newcomer_games: 8,
        };
        let batch = next_batch(&tallies(&w), settings);
        assert_eq!(batch, [(1, 2), (2, 1), (1, 2), (2, 1)]);
        let wide = next_batch(
            &tallies(&w),
            Settings {
                batch_games: 40,
                newcomer_games: 8,
            },
        );
        assert!(!wide.contains(&(0, 3)) && !wide.contains(&(3, 0)));
    }

    #[test]
    fn a_bot_that_won_everything_is_placed_on_top_and_keeps_playing() {
        let mut w = vec![vec![0; 3]; 3];
        w[0][1] = 10;
        w[0][2] = 10;
        w[1][2] = 6;
        w[2][1] = 4;
        let t = tallies(&w);
        let fit = ratings::fit(&t, None);
        assert_eq!(ranked(&fit.ratings, &[1.0, 0.6, 0.4]), [0, 1, 2]);
        let batch = next_batch(&t, Settings::default());
        assert_eq!(batch[..2], [(0, 1), (1, 0)]);
    }

    #[test]
    fn fewer_than_two_bots_play_nothing() {
        assert!(next_batch(&tallies(&[vec![0]]), Settings::default()).is_empty());
        assert!(next_batch(&[], Settings::default()).is_empty());
    }
}
