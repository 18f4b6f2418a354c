//! Progress for a log. On a terminal the progress bar shows how a season
//! goes; a CI job's or a Slurm array's log would stay empty until the end,
//! so when stderr is not a terminal ladder writes a plain line every N
//! games and one at the end instead, with the leaders and the sequential
//! test's LLR, as fastchess's `-ratinginterval` does.

use std::time::Instant;

use crate::{
    core::text::count,
    stats::{sprt::InOrder, standings::Standings},
};

/// The default interval: about twenty lines a season, at least ten games apart.
pub fn default_every(games: u64) -> u64 {
    (games / 20).max(10)
}

/// Writes a progress line every `every` games of this run, and at the end.
#[derive(Debug)]
pub struct Lines {
    every: u64,
    /// Games in the season (or shard), and how many were done before this run.
    total: u64,
    resumed: u64,
    start: Instant,
    /// Games of this run when the last line was written.
    written_at: Option<u64>,
}

impl Lines {
    pub fn new(every: u64, total: u64, resumed: u64) -> Lines {
        Lines {
            every: every.max(1),
            total,
            resumed,
            start: Instant::now(),
            written_at: None,
        }
    }

    /// After `played` games of this run: a line when a multiple of `every`
    /// was crossed since the last one.
    pub fn after(&mut self, played: u64, standings: &Standings, sprt: Option<&InOrder>) {
        let last = self.written_at.unwrap_or(0);
        if played / self.every > last / self.every {
            self.write(played, standings, sprt);
        }
    }

    /// At the end of the run: a line unless the last one said it all.
    pub fn end(&mut self, played: u64, standings: &Standings, sprt: Option<&InOrder>) {
        if self.written_at != Some(played) {
            self.write(played, standings, sprt);
        }
    }

    fn write(&mut self, played: u64, standings: &Standings, sprt: Option<&InOrder>) {
        self.written_at = Some(played);
        let secs = self.start.elapsed().as_secs_f64();
        let rate = (secs > 0.0).then(|| played as f64 / secs);
        eprintln!(
            "{}",
            line(self.resumed + played, self.total, rate, standings, sprt)
        );
    }
}

/// `progress: 200 of 1200 games (16.7%), 41.0 games/s; 1. focus 62.0%,
/// 2. nash 51.3%, 3. balanced 40.1%; LLR: 1.23 (-2.94, 2.94) [0.00, 5.00]`:
/// the games done, the rate, the top three by score (points per game), and
/// the sequential test when there is one.
pub fn line(
    done: u64,
    total: u64,
    rate: Option<f64>,
    standings: &Standings,
    sprt: Option<&InOrder>,
) -> String {
    let share = if total == 0 {
        100.0
    } else {
        100.0 * done as f64 / total as f64
    };
    let mut text = format!("progress: {done} of {} ({share:.1}%)", count(total, "game"));
    if let Some(rate) = rate {
        text += &format!(", {rate:.1} games/s");
    }
    let top: Vec<String> = standings
        .ranking()
        .into_iter()
        .filter(|&b| standings.totals[b].games > 0)
        .take(3)
        .enumerate()
        .map(|(place, b)| {
            let t = &standings.totals[b];
            let score = 100.0 * t.points() / t.games as f64;
            format!("{}. {} {score:.1}%", place + 1, standings.bots[b])
        })
        .collect();
    if !top.is_empty() {
        text += &format!("; {}", top.join(", "));
    }
    if let Some(sprt) = sprt {
        text += &format!("; {}", sprt.line());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_names_the_games_the_leaders_by_score_and_nothing_before_a_game() {
        let names = ["a".to_string(), "b".to_string()];
        let empty = Standings::empty(&names);
        assert_eq!(
            line(0, 40, None, &empty, None),
            "progress: 0 of 40 games (0.0%)"
        );
        let mut s = Standings::empty(&names);
        s.totals[1].games = 4;
        s.totals[1].won = 3;
        s.totals[0].games = 4;
        s.totals[0].lost = 3;
        s.totals[0].tie = 1;
        s.totals[1].tie = 1;
        assert_eq!(
            line(4, 40, Some(2.0), &s, None),
            "progress: 4 of 40 games (10.0%), 2.0 games/s; 1. b 87.5%, 2. a 12.5%"
        );
        assert_eq!(default_every(100), 10);
        assert_eq!(default_every(1200), 60);
    }
}
