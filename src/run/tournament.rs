//! Runs a season: plays the scheduled games that the journal does not hold
//! yet on worker threads ([`super::workers`]), and turns the journal into
//! standings and report files.
//!
//! Records reach the journal in schedule order and aggregation happens only
//! after the parallel part, so the journal and the reports are the same for
//! any `--jobs`.

use std::{collections::HashSet, path::PathBuf, sync::Arc, time::Duration};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::{
    core::record::Scored,
    core::{
        clock::Delay,
        error::{Error, Result},
        game::Game,
    },
    external::process::{cleanup, Level},
    journal::shard::{self, Shard},
    journal::{self, Journal},
    plan::jobs::{Jobs, MAX_JOBS},
    plan::schedule::Schedule,
    plan::Header,
    plan::{BotKind, Plan},
    report,
    run::concurrency::{
        cores, open_files_hard_limit, open_files_needed, raise_open_files, Auto, CpuUse,
    },
    run::pool::{self, Pool},
    run::progress,
    run::to_play::ToPlay,
    run::workers::{self, Concurrency, Shared},
    show::paint::Paint,
    stats::sprt::InOrder,
    stats::standings::Standings,
};

/// How to run a season, beyond what the config says.
#[derive(Clone, Debug)]
pub struct Options {
    /// Games at once; `None` uses the config's `jobs`, else one per core.
    pub jobs: Option<Jobs>,
    /// Discard earlier results of the season instead of resuming.
    pub fresh: bool,
    /// The folder that holds one folder per season.
    pub reports: PathBuf,
    /// Draw a progress bar on stderr (only when stderr is a terminal), in
    /// this paint; `None`: no bar.
    pub progress: Option<Paint>,
    /// With `progress` and stderr not a terminal (a CI or Slurm log): a
    /// progress line every this many games, and at the end; `None`: about
    /// twenty lines a season ([`progress::default_every`]).
    pub progress_every: Option<u64>,
    /// Play at most this many new games in this run; the rest wait for a rerun.
    pub max_games: Option<u64>,
    /// A file that receives the lines every bot program exchanges with
    /// ladder (`--log`), and which of them.
    pub log: Option<(PathBuf, Level)>,
    /// The part of the season to play (`--shard K/N`, even `1/1`), journaled
    /// in its shard's folder for `ladder merge`; `None`: the whole season.
    pub shard: Option<Shard>,
    /// `--strict`: a bot that forfeited its games makes the run fail.
    pub strict: bool,
}

/// What a run did and the season's standings after it.
pub struct Summary {
    /// `-q`: the summary shows results and errors only (no run facts).
    pub quiet: bool,
    /// `--strict` was given.
    pub strict: bool,
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
    /// How the games of this run were played: concurrency, bot processes,
    /// ladder's delay, CPU use. Not in any report: it differs run by run.
    pub run: RunFacts,
    /// The shard played, if one was; a shard writes its journal only
    /// (`dir` is the shard's folder), `ladder merge` the reports.
    pub shard: Option<Shard>,
    /// Games of the shard (or the season) in all.
    pub games: u64,
}

/// How a run played its games, for the summary on the terminal.
#[derive(Clone, Debug)]
pub struct RunFacts {
    /// `--jobs` as given (`8`, `auto`).
    pub jobs: Jobs,
    /// The most games allowed at once.
    pub peak_jobs: usize,
    /// Each bot program kept from game to game, with the processes started for it.
    pub started: Vec<(String, u64)>,
    /// Ladder's delay around the programs' moves.
    pub delay: Delay,
    /// The machine's CPU use while the games were played.
    pub cpu: Option<CpuUse>,
    /// Whether bot programs played (their time is what oversubscription spoils).
    pub programs: bool,
}

impl RunFacts {
    /// Whether the summary should warn that the machine was oversubscribed:
    /// ladder ran more games than cores, and the cores were busy to their
    /// limit, at least half of them with ladder's work, so bots waited for a
    /// core and time losses may be ladder's doing. (With a game per core at
    /// most, lowering `--jobs` would not help.)
    pub fn oversubscribed(&self) -> bool {
        self.cpu
            .is_some_and(|c| c.oversubscribed() && self.peak_jobs > c.cores)
    }
}

/// A season folder made by this run, removed again when dropped before
/// the season starts playing (nothing in it is a game yet).
struct Made(Option<PathBuf>);

impl Drop for Made {
    fn drop(&mut self) {
        if let Some(dir) = self.0.take() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Runs (or resumes) the season of `plan` and writes its reports.
pub fn run<G: Game>(plan: &Plan<G>, opts: &Options) -> Result<Summary> {
    let fixtures = plan.schedule();
    let names: Vec<String> = plan.bots.iter().map(|b| b.name.clone()).collect();
    let (shard, sharded) = (opts.shard.unwrap_or(Shard::WHOLE), opts.shard.is_some());
    let dir = match opts.shard {
        None => opts.reports.join(&plan.name),
        Some(part) => part.dir(&opts.reports.join(&plan.name)),
    };
    // the journal is streamed: each game it holds is checked and tallied, not kept
    let mut standings = Standings::empty(&names);
    standings.anchor = plan.anchor;
    // the sequential test counts games in schedule order only, so a shard
    // plays all its games and `ladder merge` applies the test
    let mut in_order = plan
        .sprt
        .clone()
        .filter(|_| !sharded)
        .map(|t| InOrder::new(t, &names));
    let max_goal = plan.start.max_goal();
    let mut count = |scored: Scored| {
        check_game(&fixtures, &scored, &dir, max_goal)?;
        standings.add(&scored);
        Ok(())
    };
    let describe = plan.describe();
    // a season that cannot start (a `--log` that cannot be opened, too few
    // open files) leaves no folder behind where it found none
    let mut made = Made((!dir.exists()).then(|| dir.clone()));
    let pair_of = |i| fixtures.pair_of(i);
    let (journal, resumed) = Journal::open_shard(
        &dir,
        &describe,
        opts.fresh,
        &names,
        shard,
        &pair_of,
        &mut |scored| {
            if let Some(o) = in_order.as_mut() {
                o.add(&scored);
            }
            count(scored)
        },
    )?;
    if sharded {
        shard::write_shard_file(&dir, shard, fixtures.len(), plan.compress)?;
    }
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

    // the journal holds the (shard's) first k games in order, and pending ones after them
    let first_missing = (resumed.journaled..)
        .map(|p| shard.nth(p))
        .find(|i| !pending_done.contains(i))
        .unwrap_or(0);
    let most = if decided {
        0
    } else {
        opts.max_games.unwrap_or(u64::MAX)
    };
    // with `--max-games`, a game finished before an earlier interruption may
    // lie beyond a game still left unplayed: it stays in pending.jsonl, and
    // games.jsonl stays in schedule order
    let (to_play, left_unplayed) =
        ToPlay::new(fixtures.clone(), shard, pending_done, first_missing, most);
    let left_unplayed = left_unplayed.filter(|_| !decided);
    let (from_file, held_back): (Vec<_>, Vec<_>) = from_file
        .into_iter()
        .partition(|(index, _)| left_unplayed.is_none_or(|left| *index < left));
    let jobs = opts.jobs.or(plan.jobs).unwrap_or(Jobs::Fixed(cores()));
    // every game in flight may run two bot programs
    let programs = plan
        .bots
        .iter()
        .any(|b| matches!(b.kind, BotKind::External(..)));
    // how many games at once, and the most there may ever be
    let (concurrency, most) = match jobs {
        Jobs::Fixed(n) => (Concurrency::Fixed(n), n),
        Jobs::Auto if !programs => (Concurrency::Fixed(cores()), cores()),
        Jobs::Auto => {
            let cap = auto_cap();
            (Concurrency::Auto(Auto::new(cores(), cap)), cap)
        }
    };
    if programs {
        raise_open_files(open_files_needed(most, 2), most)?;
    }
    let bar = progress_bar(to_play.len(), opts.progress);
    let resumed = resumed.journaled + (from_file.len() + held_back.len()) as u64;
    let games = shard.count(fixtures.len());
    // lines wherever the bar does not draw (indicatif's test): not a
    // terminal, or TERM unset or `dumb`
    let bar_draws = console::Term::stderr().is_term() && !console::is_dumb();
    let lines = (opts.progress.is_some() && !bar_draws).then(|| {
        let every = opts
            .progress_every
            .unwrap_or_else(|| progress::default_every(games));
        progress::Lines::new(every, games, resumed)
    });
    let pool = Pool::new(
        pool::makers(plan, &dir, &opts.reports, opts.log.as_ref())?,
        cores(),
    );
    let shared = Arc::new(Shared::new(
        plan.clone(),
        pool,
        to_play,
        most,
        bar.clone(),
        lines,
    ));
    let _season = cleanup::SeasonRunning::start();
    made.0 = None; // it starts: whatever happens now is the season's
    let outcome = workers::play_all(
        &shared,
        concurrency,
        journal,
        from_file,
        !held_back.is_empty(),
        standings,
        in_order,
    )?;
    let run = RunFacts {
        jobs,
        peak_jobs: outcome.peak_jobs,
        started: plan
            .bots
            .iter()
            .zip(&outcome.started)
            .filter(|(_, &n)| n > 0)
            .map(|(b, &n)| (b.name.clone(), n))
            .collect(),
        delay: outcome.delay,
        cpu: outcome.cpu,
        programs,
    };
    bar.set_message("(writing the standings and reports)");
    let (played, standings) = (outcome.played, outcome.standings);
    // `--max-games` may leave games for later: those need the plain journal
    let complete = outcome.complete && (outcome.decided || resumed + played == games);
    if complete && plan.compress && !sharded {
        bar.set_message("(compressing the journal)");
        journal::compress(&dir)?;
    }
    let header = plan.header();
    if !sharded {
        report::write_files(&dir, &header, &standings)?;
    }
    bar.finish_and_clear();
    Ok(Summary {
        quiet: opts.progress.is_none(),
        strict: opts.strict,
        header,
        standings,
        dir,
        played,
        resumed,
        abandoned: outcome.abandoned,
        interrupted: outcome.interrupted,
        run,
        shard: opts.shard,
        games,
    })
}

/// The most games `--jobs auto` may play at once: [`MAX_JOBS`], or fewer
/// when the open-file limit cannot serve that many bot programs.
fn auto_cap() -> usize {
    let most = MAX_JOBS as usize;
    match open_files_hard_limit() {
        Some(limit) if limit < open_files_needed(most, 2) => {
            ((limit.saturating_sub(open_files_needed(0, 2))) / 6).max(1) as usize
        }
        _ => most,
    }
}

/// A journal record in `dir` must be a game of this schedule (the journal
/// reader lets no game in twice).
fn check_game(fixtures: &Schedule, r: &Scored, dir: &std::path::Path, max_goal: i32) -> Result<()> {
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
            "journal game {} does not match the schedule; {}",
            r.index,
            journal::keep_them(dir)
        )));
    }
    r.consistent(max_goal).map_err(|why| {
        Error::Mismatch(format!(
            "game {} is not what ladder wrote: {why}; nothing was played (`ladder verify {}` checks every game)",
            r.index,
            dir.display()
        ))
    })
}

fn progress_bar(len: u64, paint: Option<Paint>) -> ProgressBar {
    let Some(paint) = paint else {
        return ProgressBar::hidden();
    };
    // `--color` decides, not console's own reading of NO_COLOR
    console::set_colors_enabled_stderr(paint.color);
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(if paint.color {
            "{elapsed_precise:.dim} {wide_bar:.cyan/blue} {pos:.bold}/{len} games, {rate}, ETA {left} {msg}"
        } else {
            "{elapsed_precise} {wide_bar} {pos}/{len} games, {rate}, ETA {left} {msg}"
        })
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
