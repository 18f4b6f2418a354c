//! Ratings from a season's results: one joint fit of every bot, not a
//! performance rating per bot.
//!
//! The model is Bradley-Terry on the Elo scale (as Ordo and BayesElo use): bot
//! `i` scores against bot `j` with probability `1 / (1 + 10^((r_j - r_i) / 400))`,
//! a draw counting as half a point. The ratings are the maximum-likelihood
//! fit over all games at once, so a bot that beat only weak bots is not rated
//! above one that beat strong ones, whatever the schedule (a gauntlet, a
//! lopsided round-robin). They are anchored to a mean of 0 (or to a named
//! bot at 0); when some bots can only be bounded (below), at the rated bot
//! with the most games, since the bounds are relative to the rated bots.
//!
//! The covariance of the fit comes from the inverse of its Fisher
//! information, and the likelihood of superiority (LOS) of `i` over `j` is
//! the normal probability that `r_i > r_j` under it.
//!
//! A maximum-likelihood rating exists only where results connect both ways
//! (Zermelo's condition): the fit takes the largest group of bots in which
//! every bot took points, directly or through others, from every other. A
//! bot outside it won, or lost, every game it played against the group: it
//! gets no number but an honest bound (`> +687` after all wins): the
//! likelihood-ratio bound, where the chance of its results has fallen to
//! e^(-1.96²/2) = 15% of its supremum, the same 95% criterion as the intervals.
//!
//! Intervals are likelihood-ratio intervals (each bot's rating with the
//! others held at theirs, so they follow the data's asymmetry and never get
//! worse with a better score), widened to the joint fit's uncertainty by the
//! ratio of its standard error to the conditional one.

use std::cell::RefCell;

use crate::stats::standings::Tally;

/// A bot's rating on the Elo scale with its 95% interval. A bot with no
/// finite estimate (it won or lost every game against the rated bots) has
/// `elo` `None` and the one bound its games support (`low` after all wins,
/// `high` after all losses); an interval end is `None` where it is unbounded.
/// The default is no rating at all (a bot without games).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rating {
    pub elo: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

impl Rating {
    /// `+266 (+218, +325)`; `> +687` or `< -687` for a bound; `+0 (zero
    /// point)` for the bot the scale is anchored at (or the only rated
    /// bot), whose interval is the others'; `-` without games.
    pub fn text(&self) -> String {
        // `+ 0.0` turns a negative zero into zero, so an even score prints `+0`
        let signed = |x: f64| format!("{:+.0}", x.round() + 0.0);
        match (self.elo, self.low, self.high) {
            (Some(elo), Some(lo), Some(hi)) => {
                format!("{} ({}, {})", signed(elo), signed(lo), signed(hi))
            }
            (Some(elo), None, None) => format!("{} (zero point)", signed(elo)),
            (_, Some(lo), None) => format!("> {}", signed(lo)),
            (_, None, Some(hi)) => format!("< {}", signed(hi)),
            _ => "-".to_string(),
        }
    }
}

/// The ratings of every bot, with the LOS matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Per bot, in the order of the input; `elo` is `None` for a bound.
    pub ratings: Vec<Rating>,
    /// `los[i][j]`: the probability that bot `i` is stronger than `j`, for
    /// two bots both rated by the fit.
    pub los: Vec<Vec<Option<f64>>>,
    /// The bot the scale is anchored at (rated 0); `None`: the rated bots' mean is 0.
    pub anchor: Option<usize>,
}

/// Natural units (the logistic's) to Elo.
const ELO_PER_UNIT: f64 = 400.0 / std::f64::consts::LN_10;
/// The 97.5% quantile of the standard normal distribution.
const Z: f64 = 1.959964;

/// Fits ratings to the head-to-head tallies `vs` (`vs[i][j]`: bot `i`'s
/// tally against `j`), anchored at `anchor` when it is rated; otherwise at
/// the mean of the rated bots when every bot with games is rated, and at the
/// rated bot with the most games when some can only be bounded.
pub fn fit(vs: &[Vec<Tally>], anchor: Option<usize>) -> Fit {
    // a season's reports ask for the same fit several times (the
    // leaderboard, Markdown, CSV, JSON and HTML, their tables and notes),
    // and a field of hundreds of bots takes a second or more to fit: the
    // last fit made on this thread is given again for the same tallies
    thread_local! {
        static LAST: RefCell<Option<Kept>> = const { RefCell::new(None) };
    }
    LAST.with(|last| {
        if let Some(kept) = &*last.borrow() {
            if kept.anchor == anchor && kept.vs.as_slice() == vs {
                return kept.fit.clone();
            }
        }
        let fit = fit_with(vs, anchor, true);
        *last.borrow_mut() = Some(Kept {
            vs: vs.to_vec(),
            anchor,
            fit: fit.clone(),
        });
        fit
    })
}

/// A fit kept by [`fit`], with the tallies and anchor it was made from.
struct Kept {
    vs: Vec<Vec<Tally>>,
    anchor: Option<usize>,
    fit: Fit,
}

/// [`fit`]'s ratings and bounds alone: no intervals of the rated bots and
/// no LOS (their cost is most of a fit's), for a figure such as a trend
/// that needs only where each bot stands.
pub fn fit_ratings(vs: &[Vec<Tally>], anchor: Option<usize>) -> Fit {
    fit_with(vs, anchor, false)
}

fn fit_with(vs: &[Vec<Tally>], anchor: Option<usize>, intervals: bool) -> Fit {
    let n = vs.len();
    let points = |i: usize, j: usize| vs[i][j].points();
    let games = |i: usize, j: usize| vs[i][j].games as f64;
    let group = largest_connected_group(vs, anchor);
    let mut ratings = vec![Rating::default(); n];
    let mut los = vec![vec![None; n]; n];
    if group.is_empty() {
        return Fit {
            ratings,
            los,
            anchor: None,
        };
    }

    // Newton's method on the log-likelihood, in natural units
    let m = group.len();
    let mut theta = vec![0.0; m];
    for _ in 0..100 {
        let (gradient, info) = derivatives(&group, &theta, &points, &games);
        let step = solve(&with_mean_fixed(&info), &gradient);
        let Some(step) = step else { break };
        for (t, d) in theta.iter_mut().zip(&step) {
            *t += d;
        }
        let mean = theta.iter().sum::<f64>() / m as f64;
        theta.iter_mut().for_each(|t| *t -= mean);
        if step.iter().all(|d| d.abs() < 1e-12) {
            break;
        }
    }
    let (_, info) = derivatives(&group, &theta, &points, &games);
    // covariance of the mean-anchored ratings: the pseudo-inverse of the
    // information, (I + J)^-1 - J / m^2
    let cov = intervals
        .then(|| invert(&with_mean_fixed(&info)))
        .flatten()
        .map(|mut c| {
            for row in c.iter_mut() {
                for x in row.iter_mut() {
                    *x -= 1.0 / (m * m) as f64;
                }
            }
            c
        });
    // bounds are relative to the rated bots' estimates: when there are any,
    // a mean that moves with the rated bots would make them incomparable,
    // so the scale is then anchored at the rated bot with the most games
    let with_games = (0..n)
        .filter(|&i| vs[i].iter().any(|t| t.games > 0))
        .count();
    let anchor = anchor.or_else(|| {
        let most = |&i: &usize| (vs[i].iter().map(|t| t.games).sum::<u64>(), usize::MAX - i);
        (group.len() < with_games)
            .then(|| group.iter().copied().max_by_key(most))
            .flatten()
    });
    let anchor_at = anchor.and_then(|a| group.iter().position(|&g| g == a));
    // the variance of r_a - r_b (of r_a itself against the mean: b = None)
    let var = |a: usize, b: Option<usize>| -> Option<f64> {
        let c = cov.as_ref()?;
        let v = match b.or(anchor_at) {
            Some(b) => c[a][a] + c[b][b] - 2.0 * c[a][b],
            None => c[a][a],
        };
        Some(v.max(0.0))
    };
    let zero = anchor_at.map_or(0.0, |k| theta[k]);
    for (k, &i) in group.iter().enumerate() {
        let elo = (theta[k] - zero) * ELO_PER_UNIT;
        let ends = var(k, None)
            .filter(|&v| intervals && m > 1 && v > 0.0)
            .map(|v| interval(k, &group, &theta, v, &points, &games));
        ratings[i] = Rating {
            elo: Some(elo),
            low: ends.map(|(lo, _)| (lo - zero) * ELO_PER_UNIT),
            high: ends.map(|(_, hi)| (hi - zero) * ELO_PER_UNIT),
        };
    }
    for (a, &i) in group.iter().enumerate().filter(|_| intervals) {
        for (b, &j) in group.iter().enumerate() {
            if i != j {
                let sd = var(a, Some(b)).map(f64::sqrt).unwrap_or(0.0);
                let diff = theta[a] - theta[b];
                los[i][j] = Some(if sd > 0.0 { normal_cdf(diff / sd) } else { 0.5 });
            }
        }
    }
    // the bots outside the group: a bound against the rated opponents they met
    for i in (0..n).filter(|i| !group.contains(i)) {
        let met: Vec<(f64, f64)> = group
            .iter()
            .enumerate()
            .filter(|&(_, &j)| vs[i][j].games > 0)
            .map(|(k, &j)| (theta[k] - zero, games(i, j)))
            .collect();
        if met.is_empty() {
            continue;
        }
        let won_all = group.iter().all(|&j| points(i, j) == games(i, j));
        let chance = |t: f64| -> f64 {
            // log-probability of the results at rating t
            met.iter()
                .map(|&(r, g)| {
                    let p = 1.0 / (1.0 + (r - t).exp());
                    g * if won_all { p.ln() } else { (1.0 - p).ln() }
                })
                .sum()
        };
        // where the likelihood has fallen from its supremum (1, at infinity)
        // as far as at the ends of an interval: 2 x the drop is 1.96^2
        let bound = bisect(|t| chance(t) + Z * Z / 2.0, won_all) * ELO_PER_UNIT;
        ratings[i] = if won_all {
            Rating {
                elo: None,
                low: Some(bound),
                high: None,
            }
        } else {
            Rating {
                elo: None,
                low: None,
                high: Some(bound),
            }
        };
    }
    Fit {
        ratings,
        los,
        anchor: anchor.filter(|_| anchor_at.is_some()),
    }
}

/// The 95% interval of bot `a` of `group` (natural units): the
/// likelihood-ratio interval of its rating with the others held at theirs,
/// which follows the data's asymmetry and never gets worse with a better
/// score, widened or narrowed to `variance`, the joint fit's variance of
/// the rating (against the mean or the anchor), by the ratio of standard
/// errors. Against a single fixed opponent the two agree and it is the
/// exact likelihood-ratio interval.
fn interval(
    a: usize,
    group: &[usize],
    theta: &[f64],
    variance: f64,
    points: &impl Fn(usize, usize) -> f64,
    games: &impl Fn(usize, usize) -> f64,
) -> (f64, f64) {
    let i = group[a];
    let others: Vec<(f64, f64, f64)> = group
        .iter()
        .enumerate()
        .filter(|&(b, &j)| b != a && games(i, j) > 0.0)
        .map(|(b, &j)| (theta[b], points(i, j), games(i, j)))
        .collect();
    let log_likelihood = |t: f64| -> f64 {
        others
            .iter()
            .map(|&(r, s, n)| {
                let p = 1.0 / (1.0 + (r - t).exp());
                let ln = |x: f64| if x > 0.0 { x.ln() } else { -1e300 };
                s * ln(p) + (n - s) * ln(1.0 - p)
            })
            .sum()
    };
    let info: f64 = others
        .iter()
        .map(|&(r, _, n)| {
            let p = 1.0 / (1.0 + (r - theta[a]).exp());
            n * p * (1.0 - p)
        })
        .sum();
    let top = log_likelihood(theta[a]);
    // chi-squared with one degree of freedom, 95%: 1.96^2
    let drop = |t: f64| 2.0 * (top - log_likelihood(t)) - Z * Z;
    let lo = bisect_between(&drop, theta[a] - 100.0, theta[a]);
    let hi = bisect_between(&drop, theta[a] + 100.0, theta[a]);
    let k = (variance * info).sqrt();
    (
        theta[a] - k * (theta[a] - lo),
        theta[a] + k * (hi - theta[a]),
    )
}

/// The point between `outside` (where `f` > 0) and `inside` (where `f` < 0)
/// at which `f` crosses 0.
fn bisect_between(f: &impl Fn(f64) -> f64, outside: f64, inside: f64) -> f64 {
    let (mut out, mut inn) = (outside, inside);
    for _ in 0..200 {
        let mid = (out + inn) / 2.0;
        let before = (out, inn);
        if f(mid) > 0.0 {
            out = mid;
        } else {
            inn = mid;
        }
        // the ends are next to each other: every step after this one
        // changes nothing (stopping here gives the 200 steps' result)
        if (out, inn) == before {
            break;
        }
    }
    (out + inn) / 2.0
}

/// The Elo difference that a pentanomial count implies, as fastchess reports
/// it: `counts[k]` colour-swapped game pairs gave the bot `k / 2` points; the
/// mean score per game and its standard error over pairs (which keeps the
/// correlation of a pair's two games) give the estimate and its 95%
/// interval. `None` without pairs; no estimate (`elo` `None`) at a score of
/// 0 or 1.
pub fn pentanomial_elo(counts: &[u64; 5]) -> Option<Rating> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let score = |k: usize| k as f64 / 4.0;
    let mean = (0..5).map(|k| counts[k] as f64 * score(k)).sum::<f64>() / n;
    let var = (0..5)
        .map(|k| counts[k] as f64 * (score(k) - mean).powi(2))
        .sum::<f64>()
        / n;
    let se = (var / n).sqrt();
    let elo = |p: f64| (p > 0.0 && p < 1.0).then(|| -400.0 * (1.0 / p - 1.0).log10());
    Some(Rating {
        elo: elo(mean),
        low: elo(mean - Z * se),
        high: elo(mean + Z * se),
    })
}

/// Normalized Elo (nElo) with the half-width of its 95% interval, as
/// fastchess prints it: the mean score's distance from 1/2 in standard
/// deviations of one outcome, times 800 / ln 10, so it does not depend on
/// the draw rate. `outcomes[k]` outcomes scored `k / (outcomes.len() - 1)`:
/// game pairs (five classes, whose spread is divided by sqrt 2 to count per
/// game) or games (three: loss, draw, win). `None` without outcomes or with
/// no spread (every outcome alike).
pub fn nelo(outcomes: &[u64]) -> Option<(f64, f64)> {
    let n: u64 = outcomes.iter().sum();
    let classes = outcomes.len();
    if n == 0 || classes < 2 {
        return None;
    }
    let n = n as f64;
    let score = |k: usize| k as f64 / (classes - 1) as f64;
    let mean = (0..classes)
        .map(|k| outcomes[k] as f64 * score(k))
        .sum::<f64>()
        / n;
    let var = (0..classes)
        .map(|k| outcomes[k] as f64 * (score(k) - mean).powi(2))
        .sum::<f64>()
        / n;
    if var <= 0.0 {
        return None;
    }
    // a pair's score is the mean of two games: its variance is half a game's
    let per_game = if classes == 5 { 2.0 } else { 1.0 };
    let scale = 800.0 / std::f64::consts::LN_10;
    let nelo = (mean - 0.5) / (per_game * var).sqrt() * scale;
    let half = Z * scale / (per_game * n).sqrt();
    Some((nelo, half))
}

/// The gradient of the log-likelihood and the Fisher information (the
/// negated Hessian) at `theta`, over the bots of `group`.
fn derivatives(
    group: &[usize],
    theta: &[f64],
    points: &impl Fn(usize, usize) -> f64,
    games: &impl Fn(usize, usize) -> f64,
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let m = group.len();
    let mut gradient = vec![0.0; m];
    let mut info = vec![vec![0.0; m]; m];
    for a in 0..m {
        for b in 0..m {
            let (i, j) = (group[a], group[b]);
            let n = games(i, j);
            if a == b || n == 0.0 {
                continue;
            }
            let p = 1.0 / (1.0 + (theta[b] - theta[a]).exp());
            gradient[a] += points(i, j) - n * p;
            let w = n * p * (1.0 - p);
            info[a][a] += w;
            info[a][b] -= w;
        }
    }
    (gradient, info)
}

/// `info + J` (J all ones): invertible when the group is connected, and
/// its solutions move the ratings without moving their mean.
fn with_mean_fixed(info: &[Vec<f64>]) -> Vec<Vec<f64>> {
    info.iter()
        .map(|row| row.iter().map(|x| x + 1.0).collect())
        .collect()
}

/// The largest set of bots in which each took points, directly or through
/// others, from each other (a strongly connected component of the graph
/// "took points from"); ties go to the one holding `anchor`, else the
/// lowest index. Bots without games are left out.
fn largest_connected_group(vs: &[Vec<Tally>], anchor: Option<usize>) -> Vec<usize> {
    let n = vs.len();
    let took = |i: usize, j: usize| vs[i][j].points() > 0.0;
    // reachability by repeated squaring is plenty for the bots of a season
    let mut reach = vec![vec![false; n]; n];
    for (i, row) in reach.iter_mut().enumerate() {
        row[i] = true;
        for (j, r) in row.iter_mut().enumerate() {
            *r |= took(i, j);
        }
    }
    for k in 0..n {
        let via = reach[k].clone();
        for row in reach.iter_mut().filter(|row| row[k]) {
            for (r, &v) in row.iter_mut().zip(&via) {
                *r |= v;
            }
        }
    }
    let played = |i: usize| vs[i].iter().any(|t| t.games > 0);
    let mut best: Vec<usize> = Vec::new();
    for i in (0..n).filter(|&i| played(i)) {
        let group: Vec<usize> = (0..n).filter(|&j| reach[i][j] && reach[j][i]).collect();
        let anchored = |g: &[usize]| anchor.is_some_and(|a| g.contains(&a));
        if group.len() > best.len() || (group.len() == best.len() && anchored(&group)) {
            best = group;
        }
    }
    best
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None`
/// when `a` is singular.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let x = solve_many(a, &[b.to_vec()])?;
    Some(x.into_iter().map(|row| row[0]).collect())
}

/// Solves `a x = b` for every `b` of `bs` at once, by the same elimination
/// as one ([`solve`]: each column's result is the one it gives alone);
/// `x[i][k]` is unknown `i` of right-hand side `k`.
fn solve_many(a: &[Vec<f64>], bs: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, row)| row.iter().copied().chain(bs.iter().map(|b| b[i])).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for (_, row) in m.iter_mut().enumerate().filter(|&(r, _)| r != col) {
            let f = row[col] / pivot_row[col];
            if f != 0.0 {
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    Some(
        (0..n)
            .map(|i| (0..bs.len()).map(|k| m[i][n + k] / m[i][i]).collect())
            .collect(),
    )
}

/// The inverse of `a`: every column at once.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let identity: Vec<Vec<f64>> = (0..n)
        .map(|c| (0..n).map(|r| f64::from(r == c)).collect())
        .collect();
    solve_many(a, &identity)
}

/// The root of the monotone `f` (increasing when `up`), in natural units.
fn bisect(f: impl Fn(f64) -> f64, up: bool) -> f64 {
    let (mut lo, mut hi) = (-100.0, 100.0);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        // f rises with t for a bot that won all (its chance grows with its rating)
        let below = if up { f(mid) < 0.0 } else { f(mid) > 0.0 };
        if below {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The standard normal distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function, to about 1e-7 (Numerical Recipes'
/// Chebyshev fit).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.26551223
        + t * (1.00002368
            + t * (0.37409196
                + t * (0.09678418
                    + t * (-0.18628806
                        + t * (0.27886807
                            + t * (-1.13520398
                                + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nelo_by_hand() {
        let close = |a: f64, b: f64| assert!((a - b).abs() < 1e-3, "{a} {b}");
        // one pair scoring 1/2 per game, one scoring 3/4: mean 0.625,
        // variance 1/64 per pair, so nElo = 0.125 / sqrt(2/64) * 800 / ln 10
        let (n, half) = nelo(&[0, 0, 1, 1, 0]).unwrap();
        close(n, 0.125 * 32f64.sqrt() * 347.435_48);
        close(half, 1.959964 * 347.435_5 / 2.0);
        // a draw and a win: mean 3/4, variance 1/16 per game
        let (n, half) = nelo(&[0, 1, 1]).unwrap();
        close(n, 347.435_5);
        close(half, 1.959964 * 347.435_5 / 2f64.sqrt());
        // even results give 0; no spread or no games give none
        close(nelo(&[1, 0, 1]).unwrap().0, 0.0);
        assert_eq!(nelo(&[0, 0, 0, 0, 7]), None);
        assert_eq!(nelo(&[0, 0, 0]), None);
    }

    /// Head-to-head tallies from (i, j, wins of i, draws, losses of i).
    fn table(n: usize, results: &[(usize, usize, u64, u64, u64)]) -> Vec<Vec<Tally>> {
        let mut vs = vec![vec![Tally::default(); n]; n];
        for &(i, j, w, d, l) in results {
            let t = |won, tie, lost| Tally {
                games: won + tie + lost,
                won,
                lost,
                tie,
                goal_sum: 0,
            };
            vs[i][j] = t(w, d, l);
            vs[j][i] = t(l, d, w);
        }
        vs
    }

    fn elo(f: &Fit, i: usize) -> f64 {
        f.ratings[i].elo.unwrap()
    }

    /// The fit kept for the same tallies is never given for others: after
    /// one more game, or another anchor, the fit is made afresh, and it is
    /// the fit of what was asked.
    #[test]
    fn a_kept_fit_is_given_again_only_for_the_same_tallies_and_anchor() {
        let mut vs = table(3, &[(0, 1, 6, 2, 4), (1, 2, 5, 0, 5), (0, 2, 3, 3, 3)]);
        let first = fit(&vs, None);
        assert_eq!(fit(&vs, None), first);
        assert_eq!(first, fit_with(&vs, None, true));
        let anchored = fit(&vs, Some(2));
        assert_ne!(anchored, first);
        assert_eq!(anchored, fit_with(&vs, Some(2), true));
        vs[0][1].won += 1;
        vs[0][1].games += 1;
        vs[1][0].lost += 1;
        vs[1][0].games += 1;
        let after = fit(&vs, None);
        assert_ne!(after, first);
        assert_eq!(after, fit_with(&vs, None, true));
        assert!(elo(&after, 0) > elo(&first, 0));
    }

    #[test]
    fn two_bots_at_a_known_score() {
        // 75%: a difference of 400 log10(3) = 190.85 Elo, split about the mean
        let f = fit(&table(2, &[(0, 1, 30, 0, 10)]), None);
        assert!((elo(&f, 0) - 95.42).abs() < 0.01, "{f:?}");
        assert!((elo(&f, 1) + 95.42).abs() < 0.01, "{f:?}");
        // draws are half points: 20 wins, 20 draws = 75% again
        let g = fit(&table(2, &[(0, 1, 20, 20, 0)]), None);
        assert!((elo(&g, 0) - elo(&f, 0)).abs() < 1e-6);
        // anchored at bot 1, bot 0's interval is the likelihood-ratio one:
        // 75% of 40 games, where 2 x the drop in log-likelihood is 1.96^2
        let a = fit(&table(2, &[(0, 1, 30, 0, 10)]), Some(1));
        let ll = |elo: f64| {
            let p = 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
            30.0 * p.ln() + 10.0 * (1.0 - p).ln()
        };
        let r = a.ratings[0];
        for end in [r.low.unwrap(), r.high.unwrap()] {
            let drop = 2.0 * (ll(r.elo.unwrap()) - ll(end));
            assert!((drop - Z * Z).abs() < 1e-6, "{r:?}: {drop}");
        }
        // 30 wins pull harder below the estimate than 10 losses above it
        assert!(r.high.unwrap() - r.elo.unwrap() > r.elo.unwrap() - r.low.unwrap());
        // about the mean, each bot carries half the difference's uncertainty
        let half = |r: Rating| r.high.unwrap() - r.low.unwrap();
        assert!((half(f.ratings[0]) * 2.0 - half(r)).abs() < 1e-6);
        // anchored at bot 1
        let a = fit(&table(2, &[(0, 1, 30, 0, 10)]), Some(1));
        assert!((elo(&a, 0) - 190.85).abs() < 0.01);
        assert_eq!(elo(&a, 1), 0.0);
        assert!(a.los[0][1].unwrap() > 0.99);
        assert!((a.los[0][1].unwrap() + a.los[1][0].unwrap() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_transitive_three_bot_case_fits_exactly() {
        // results generated exactly by ratings +200, 0, -200 (scores 76%, 76%, 91%)
        let p = |d: f64| 1.0 / (1.0 + 10f64.powf(-d / 400.0));
        let n = 10_000.0;
        let w = |d: f64| (p(d) * n).round() as u64;
        let vs = table(
            3,
            &[
                (0, 1, w(200.0), 0, 10_000 - w(200.0)),
                (1, 2, w(200.0), 0, 10_000 - w(200.0)),
                (0, 2, w(400.0), 0, 10_000 - w(400.0)),
            ],
        );
        let f = fit(&vs, None);
        for (i, want) in [200.0, 0.0, -200.0].iter().enumerate() {
            assert!((elo(&f, i) - want).abs() < 1.0, "{f:?}");
        }
        assert!(f.los[0][1].unwrap() > 0.999 && f.los[2][1].unwrap() < 0.001);
    }

    #[test]
    fn a_gauntlet_rates_who_you_beat_not_just_how_often() {
        // the champion C meets everyone; `weakling` W loses 90% to C; `strong`
        // S scores 50% against C; `feeder` F only plays W and beats it 80%.
        // Per-bot performance would rate F (80%) above S (50%); the fit
        // knows F beat only the weakest.
        let (c, w, s, f) = (0, 1, 2, 3);
        let vs = table(
            4,
            &[(c, w, 90, 0, 10), (c, s, 50, 0, 50), (f, w, 80, 0, 20)],
        );
        let fit = fit(&vs, None);
        assert!(elo(&fit, s) > elo(&fit, f), "{fit:?}");
        assert!((elo(&fit, s) - elo(&fit, c)).abs() < 1e-6);
        // W is 90% below C: -381.7; F is 80% above W: +240.8 from there
        let cw = 400.0 * 9f64.log10();
        let fw = 400.0 * 4f64.log10();
        assert!((elo(&fit, c) - elo(&fit, w) - cw).abs() < 0.01);
        assert!((elo(&fit, f) - elo(&fit, w) - fw).abs() < 0.01);
    }

    #[test]
    fn error_bars_shrink_as_games_grow() {
        let width = |n: u64| {
            let f = fit(&table(2, &[(0, 1, 3 * n, 0, n)]), None);
            f.ratings[0].high.unwrap() - f.ratings[0].low.unwrap()
        };
        assert!(width(10) > width(100) && width(100) > width(1000));
        // as 1 / sqrt(games), once the interval is nearly symmetric
        assert!((width(10) / width(1000) / 10.0 - 1.0).abs() < 0.05);
    }

    #[test]
    fn a_perfect_score_is_a_bound_that_grows_with_the_games() {
        let bound = |n: u64| {
            let vs = table(3, &[(0, 1, n, 0, 0), (0, 2, n, 0, 0), (1, 2, 6, 0, 4)]);
            let f = fit(&vs, None);
            assert_eq!(f.ratings[0].elo, None);
            assert_eq!(f.ratings[0].high, None);
            assert!(f.los[0][1].is_none());
            f.ratings[0].low.unwrap()
        };
        assert!(bound(4) < bound(40) && bound(40) < bound(400));
        // the chance of 4 + 4 wins at the bound is e^(-1.96^2 / 2)
        let vs = table(3, &[(0, 1, 4, 0, 0), (0, 2, 4, 0, 0), (1, 2, 6, 0, 4)]);
        let f = fit(&vs, None);
        let p = |a: f64, b: f64| 1.0 / (1.0 + 10f64.powf((b - a) / 400.0));
        let low = f.ratings[0].low.unwrap();
        let chance = (p(low, elo(&f, 1)) * p(low, elo(&f, 2))).powi(4);
        assert!((chance - (-Z * Z / 2.0).exp()).abs() < 1e-6, "{chance}");
        // and a bot that lost everything gets an upper bound
        let vs = table(3, &[(0, 1, 0, 0, 5), (0, 2, 0, 0, 5), (1, 2, 6, 0, 4)]);
        let f = fit(&vs, None);
        assert!(f.ratings[0].high.unwrap() < elo(&f, 2));
        assert_eq!((f.ratings[0].elo, f.ratings[0].low), (None, None));
        // the scale then sits on a rated bot (both have 15 games: the first),
        // and the fit says which
        assert_eq!(f.anchor, Some(1));
        assert_eq!(elo(&f, 1), 0.0);
        // with every bot rated, the mean is 0 and no bot is the anchor
        let vs = table(3, &[(0, 1, 3, 1, 1), (0, 2, 2, 1, 2), (1, 2, 6, 0, 4)]);
        assert_eq!(fit(&vs, None).anchor, None);
        assert_eq!(fit(&vs, Some(2)).anchor, Some(2));
    }

    #[test]
    fn of_two_equal_groups_the_anchors_is_rated() {
        // 0 and 1 took points from each other, and so did 2 and 3; 0 and 1
        // beat 2 and 3 in every game: two groups of two, neither reachable
        // from the other both ways
        let vs = table(
            4,
            &[
                (0, 1, 3, 1, 2),
                (2, 3, 2, 2, 2),
                (0, 2, 4, 0, 0),
                (0, 3, 4, 0, 0),
                (1, 2, 4, 0, 0),
                (1, 3, 4, 0, 0),
            ],
        );
        // the tie goes to the group holding the anchor, rated from it
        let f = fit(&vs, Some(3));
        assert_eq!(f.anchor, Some(3));
        assert_eq!(elo(&f, 3), 0.0);
        assert!(f.ratings[2].elo.is_some());
        assert_eq!((f.ratings[0].elo, f.ratings[1].elo), (None, None));
        // without an anchor, to the group of the lowest index
        let f = fit(&vs, None);
        assert!(f.ratings[0].elo.is_some() && f.ratings[1].elo.is_some());
        assert_eq!((f.ratings[2].elo, f.ratings[3].elo), (None, None));
    }

    #[test]
    fn the_fit_is_deterministic_and_a_bot_without_games_is_unrated() {
        let vs = table(3, &[(0, 1, 7, 2, 3)]);
        assert_eq!(fit(&vs, None), fit(&vs, None));
        let f = fit(&vs, None);
        assert_eq!(
            f.ratings[2],
            Rating {
                elo: None,
                low: None,
                high: None
            }
        );
    }

    #[test]
    fn a_better_score_never_gets_a_worse_estimate_or_bound() {
        let key = |x: Option<f64>, unbounded: f64| x.unwrap_or(unbounded);
        for games in [1u64, 4, 200] {
            let mut last: Option<(f64, f64, f64)> = None;
            // every score of bot 0 in half points, from all lost to all won,
            // rated against bot 1 at 0
            for half_points in 0..=2 * games {
                let (won, tie) = (half_points / 2, half_points % 2);
                let vs = table(2, &[(0, 1, won, tie, games - won - tie)]);
                let r = fit(&vs, Some(1)).ratings[0];
                let perfect = if won == games {
                    f64::INFINITY
                } else {
                    f64::NEG_INFINITY
                };
                let now = (
                    key(r.elo, perfect),
                    key(r.low, f64::NEG_INFINITY),
                    key(r.high, f64::INFINITY),
                );
                if let Some(before) = last {
                    assert!(now.0 > before.0, "{games} games, {half_points}: {r:?}");
                    assert!(now.1 > before.1 || now.1 == f64::NEG_INFINITY, "{r:?}");
                    assert!(now.2 > before.2 || now.2 == f64::INFINITY, "{r:?}");
                }
                last = Some(now);
            }
        }
        // a 4-0 winner is better than even, if not by much
        let r = fit(&table(2, &[(0, 1, 4, 0, 0)]), Some(1)).ratings[0];
        assert!(r.low.unwrap() > 0.0 && r.low.unwrap() < 400.0, "{r:?}");
        assert!(r.text().starts_with("> +"), "{}", r.text());
    }

    #[test]
    fn pentanomial_counts_give_fastchess_elo() {
        assert_eq!(pentanomial_elo(&[0; 5]), None);
        // symmetric pairs: an even score
        let even = pentanomial_elo(&[5, 10, 20, 10, 5]).unwrap();
        assert!(even.elo.unwrap().abs() < 1e-9);
        assert!((even.high.unwrap() + even.low.unwrap()).abs() < 1e-9);
        // all pairs 3/2 of 2: 75% with no spread at all
        let sure = pentanomial_elo(&[0, 0, 0, 10, 0]).unwrap();
        assert!((sure.elo.unwrap() - 190.85).abs() < 0.01);
        assert_eq!(sure.low, sure.elo);
        // 10 pairs: 4 x 2, 4 x 1, 2 x 0: mean 0.6, variance 0.14, se 0.1183
        let r = pentanomial_elo(&[2, 0, 4, 0, 4]).unwrap();
        let elo = |p: f64| -400.0 * (1.0 / p - 1.0).log10();
        assert!((r.elo.unwrap() - elo(0.6)).abs() < 1e-9);
        let se = (0.14f64 / 10.0).sqrt();
        assert!((r.low.unwrap() - elo(0.6 - Z * se)).abs() < 1e-6);
        assert!((r.high.unwrap() - elo(0.6 + Z * se)).abs() < 1e-6);
    }

    #[test]
    fn the_normal_distribution() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959964) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158655).abs() < 1e-6);
    }
}
