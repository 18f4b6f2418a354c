//! Candidates: a new version tested before it joins the pool, as OpenBench
//! and fishtest test a patch. A candidate plays the pool (the versions that
//! play and are no candidates), or one version named with `--against`,
//! under the arena's SPRT on its own results (trinomial: its wins, draws
//! and losses; `stats::sprt`). Once the test decides, the candidate stops
//! playing and waits: its author promotes it (it joins the pool, the older
//! versions of its bot retire) or rejects it, as CG Arena and OpenBench
//! keep that decision with the person.

use serde::{Deserialize, Serialize};

use crate::stats::{
    sprt::{Model, Sprt, Statistics, Verdict},
    standings::Tally,
};

/// The arena's test: `[arena.sprt]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    #[serde(default)]
    pub elo0: f64,
    #[serde(default = "default_elo1")]
    pub elo1: f64,
    #[serde(default = "default_error")]
    pub alpha: f64,
    #[serde(default = "default_error")]
    pub beta: f64,
    #[serde(default = "default_model")]
    pub model: Model,
}

/// Bots in an arena differ by tens to hundreds of Elo, not by the few a
/// chess engine's patch gains: a test for 50 decides in tens of games.
fn default_elo1() -> f64 {
    50.0
}

fn default_error() -> f64 {
    Sprt::DEFAULT_ERROR
}

fn default_model() -> Model {
    Model::Logistic
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            elo0: 0.0,
            elo1: default_elo1(),
            alpha: default_error(),
            beta: default_error(),
            model: default_model(),
        }
    }
}

impl Settings {
    /// The test this makes: the candidate's games, one by one.
    pub fn sprt(&self) -> Sprt {
        Sprt {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            model: self.model,
            statistics: Statistics::Trinomial,
            candidate: 0,
        }
    }
}

/// Where a candidate's test stands after its games `totals`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Test {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub verdict: Verdict,
}

/// The test of a candidate whose games (all against its opponents) total `t`.
pub fn test(settings: &Settings, t: &Tally) -> Test {
    let sprt = settings.sprt();
    let llr = sprt.llr_trinomial(&[t.lost, t.tie, t.won]);
    let (lower, upper) = sprt.bounds();
    Test {
        llr,
        lower,
        upper,
        verdict: sprt.verdict(llr),
    }
}

impl Test {
    /// `LLR 2.95 (-2.94, 2.94): H1 accepted`.
    pub fn text(&self) -> String {
        format!(
            "LLR {:.2} ({:.2}, {:.2}): {}",
            self.llr,
            self.lower,
            self.upper,
            self.verdict.text()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_candidate_that_wins_passes_and_one_that_loses_fails() {
        let s = Settings::default();
        let fresh = test(&s, &Tally::default());
        assert_eq!(fresh.verdict, Verdict::Unfinished);
        let wins = Tally {
            games: 400,
            won: 300,
            lost: 100,
            ..Tally::default()
        };
        assert_eq!(test(&s, &wins).verdict, Verdict::H1);
        let losses = Tally {
            games: 400,
            won: 100,
            lost: 300,
            ..Tally::default()
        };
        assert_eq!(test(&s, &losses).verdict, Verdict::H0);
        assert!(test(&s, &wins).text().contains("H1 accepted"));
    }
}
