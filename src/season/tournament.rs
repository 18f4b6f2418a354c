//! Runs a season: plays the scheduled games that the journal does not hold
//! yet on worker threads ([`super::workers`]), and turns the journal into
//! standings and report files.
//!
//! Records reach the journal in schedule order and aggregation happens only
//! after the parallel part, so the journal and the reports are the same for
//! any `--jobs`.

use std::{collections::HashSet, path::PathBuf, sync::Arc, thread, time::Duration};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::{
    core::{
        error::{Error, Result},
        game::Game,
    },
    external::process::{cleanup, Level},
    season::{
        html,
        journal::{self, Journal},
        plan::Plan,
        record::Scored,
        report::{self, Header},
        schedule::{Fixture, Schedule},
        sprt::InOrder,
        standings::Standings,
        workers::{self, Shared},
    },
};

/// How to run a season, beyond what the config says.
#[derive(Clone, Debug)]
pub struct Options {
    /// Worker threads; `None` uses the config's `jobs`, else every core.
    pub jobs: Option<usize>,
    /// Discard earlier results of the season instead of resuming.
    pub fresh: bool,
    /// The folder that holds one folder per season.
    pub reports: PathBuf,
    /// Draw a progress bar on stderr (only when stderr is a terminal).
    pub progress: bool,
    /// Play at most this many new games in this run; the rest wait for a rerun.
    pub max_games: Option<u64>,
    /// A file that receives the lines every bot program exchanges with
    /// ladder (`--log`), and which of them.
    pub log: Option<(PathBuf, Level)>,
}

/// What a run did and the season's standings after it.
pub struct Summary {
    pub header: Header,
    pub standings: Standings,
    pub dir: PathBuf,
    /// Games played in this run.
    pub played: u64,
    /// Games the journal already held.
    pub resumed: u64,
    /// Workers abandoned by the watchdog (their chunks were replayed).
    pub abandoned: usize,
    /// The signal that stopped the season before its end, if one did: the
    /// games finished before it are saved and counted.
    pub interrupted: Option<i32>,
}

/// Runs (or resumes) the season of `plan` and writes its reports.
pub fn run<G: Game>(plan: &Plan<G>, opts: &Options) -> Result<Summary> {
    let fixtures = plan.schedule();
    let names: Vec<String> = plan.bots.iter().map(|b| b.name.clone()).collect();
    let dir = opts.reports.join(&plan.name);
    // the journal is streamed: each game it holds is checked and tallied, not kept
    let mut standings = Standings::empty(&names);
    standings.anchor = plan.anchor;
    // the sequential test counts games in schedule order only
    let mut in_order = plan.sprt.clone().map(|t| InOrder::new(t, &names));
    let mut count = |scored: Scored| {
        check_game(&fixtures, &scored, &dir)?;
        standings.add(&scored);
        Ok(())
    };
    let (journal, resumed) =
        Journal::open(&dir, &plan.describe(), opts.fresh, &names, &mut |scored| {
            if let Some(o) = in_order.as_mut() {
                o.add(&scored);
            }
            count(scored)
        })?;
    let mut from_file = Vec::new();
    let mut pending_done = HashSet::new();
    let decided = in_order.as_ref().is_some_and(|o| o.decided_at.is_some());
    for (scored, line) in resumed.pending {
        if decided {
            break; // games after the decisive one do not count
        }
        pending_done.insert(scored.index);
        from_file.push((scored.index, line));
        count(scored)?;
    }

    // the journal holds games 0..k in order, and pending ones after k
    let first_missing = (resumed.journaled..)
        .find(|i| !pending_done.contains(i))
        .unwrap_or(0);
    let pending: Vec<Fixture> = fixtures
        .from(first_missing)
        .filter(|f| !pending_done.contains(&f.index))
        .take(if decided {
            0
        } else {
            opts.max_games.map_or(usize::MAX, |m| m as usize)
        })
        .collect();
    let jobs = opts
        .jobs
        .or(plan.jobs)
        .unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()));
    let bar = progress_bar(pending.len() as u64, opts.progress);
    let shared = Arc::new(Shared::new(
        plan.clone(),
        workers::makers(plan, &dir, opts.log.as_ref())?,
        pending,
        jobs,
        bar.clone(),
    ));
    let _season = cleanup::SeasonRunning::start();
    let resumed = resumed.journaled + from_file.len() as u64;
    let outcome = workers::play_all(&shared, jobs, journal, from_file, standings, in_order)?;
    bar.set_message("(writing the standings and reports)");
    let (played, standings) = (outcome.played, outcome.standings);
    // `--max-games` may leave games for later: those need the plain journal
    let complete = outcome.complete && (outcome.decided || resumed + played == fixtures.len());
    if complete && plan.compress {
        bar.set_message("(compressing the journal)");
        journal::compress(&dir)?;
    }
    let header = plan.header();
    report::write_files(&dir, &header, &standings)?;
    html::write_files(&dir, &header, &standings)?;
    bar.finish_and_clear();
    Ok(Summary {
        header,
        standings,
        dir,
        played,
        resumed,
        abandoned: outcome.abandoned,
        interrupted: outcome.interrupted,
    })
}

/// A journal record in `dir` must be a game of this schedule (the journal
/// reader lets no game in twice).
fn check_game(fixtures: &Schedule, r: &Scored, dir: &std::path::Path) -> Result<()> {
    let wrong = |why: String| {
        Error::Mismatch(format!(
            "{} does not match the config: {why}",
            dir.display()
        ))
    };
    if r.index >= fixtures.len() {
        return Err(wrong(format!(
            "the journal holds game {} but the schedule has {} games",
            r.index,
            fixtures.len()
        )));
    }
    let fx = fixtures.fixture(r.index);
    if r.seats != fx.seats || r.seed != fx.seed {
        return Err(wrong(format!(
            "journal game {} does not match the schedule; rerun with --fresh",
            r.index
        )));
    }
    Ok(())
}

fn progress_bar(len: u64, show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} {wide_bar} {pos}/{len} games, {rate}, ETA {left} {msg}",
        )
        .expect("valid template")
        .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&rate_text(s.per_sec()));
        })
        .with_key("left", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&eta_text(s.pos(), s.eta()));
        }),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A rate for the progress bar: `153,333 games/s`, `0.4 games/s`.
fn rate_text(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec <= 0.0 {
        return "- games/s".to_string();
    }
    if per_sec < 10.0 {
        return format!("{per_sec:.1} games/s");
    }
    let whole = per_sec.round() as u64;
    let digits = whole.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{grouped} games/s")
}

/// The time left for the progress bar: `-` until a game has finished.
fn eta_text(done: u64, eta: Duration) -> String {
    if done == 0 {
        return "-".to_string();
    }
    indicatif::HumanDuration(eta).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_bar_shows_whole_rates_and_no_eta_before_the_first_game() {
        assert_eq!(rate_text(153_332.67), "153,333 games/s");
        assert_eq!(rate_text(1_000.0), "1,000 games/s");
        assert_eq!(rate_text(999.4), "999 games/s");
        assert_eq!(rate_text(0.42), "0.4 games/s");
        assert_eq!(rate_text(0.0), "- games/s");
        assert_eq!(rate_text(f64::NAN), "- games/s");
        assert_eq!(eta_text(0, Duration::ZERO), "-");
        assert_eq!(eta_text(5, Duration::from_secs(90)), "2 minutes");
    }
}
