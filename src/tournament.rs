//! Runs a season: plays the scheduled games that the journal does not hold yet,
//! in parallel on a rayon pool, and feeds the results to the journal and the reports.
//!
//! Workers play games in any order; one writer thread puts the records back in
//! schedule order before they reach the journal, so the journal and the reports
//! are the same for any `--jobs`. Aggregation happens only after the parallel
//! part, on records in schedule order.

use std::{
    collections::{BTreeMap, HashMap},
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc, Arc,
    },
    time::{Duration, Instant},
};

use anyhow::{anyhow, bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::{
    config::{BotKind, Plan},
    external::{self, process::Log, Protocol},
    game::{BotFactory, Game},
    journal::{Finished, Journal, Lines, Scored},
    referee::{play_game, Played},
    report::{self, Header},
    schedule::{bot_seeds, schedule, Fixture, Format},
    seat::BySeat,
    standings::Standings,
    Bot,
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
}

/// How the tournament makes one bot of the season.
pub struct Maker<G: Game> {
    factory: BotFactory<G>,
    /// One bot (a process) serves all of a pairing's games on a worker,
    /// instead of a fresh one per game.
    persistent: bool,
}

/// Makers for the bots of `plan`; external bots log stderr to `dir/logs/<bot>.log`.
pub fn makers<G: Game>(plan: &Plan<G>, dir: &Path) -> Result<Vec<Maker<G>>> {
    let params = serde_json::to_value(&plan.params)?;
    plan.bots
        .iter()
        .map(|b| {
            Ok(match &b.kind {
                BotKind::Builtin(factory) => Maker {
                    factory: Arc::clone(factory),
                    persistent: false,
                },
                BotKind::External(command, protocol) => {
                    let path = dir.join("logs").join(format!("{}.log", b.name));
                    let log = Log::open(Some(&path))
                        .with_context(|| format!("opening {}", path.display()))?;
                    Maker {
                        factory: external::factory::<G>(
                            command,
                            *protocol,
                            &plan.limits,
                            log,
                            &params,
                        ),
                        persistent: *protocol == Protocol::Line,
                    }
                }
            })
        })
        .collect()
}

/// The persistent bots a worker holds for the pairing it is playing.
pub struct Lineup<G: Game> {
    pair: usize,
    bots: HashMap<usize, Box<dyn Bot<G>>>,
}

impl<G: Game> Default for Lineup<G> {
    fn default() -> Self {
        Lineup {
            pair: usize::MAX,
            bots: HashMap::new(),
        }
    }
}

impl<G: Game> Lineup<G> {
    /// Bot `b` for a game of pairing `pair`: the one kept from the pairing's
    /// earlier games if it is persistent, else a fresh one. Moving on to another
    /// pairing ends the previous pairing's bots.
    fn take(&mut self, makers: &[Maker<G>], b: usize, pair: usize) -> Box<dyn Bot<G>> {
        if pair != self.pair {
            self.bots.clear();
            self.pair = pair;
        }
        self.bots
            .remove(&b)
            .unwrap_or_else(|| (makers[b].factory)())
    }

    fn give_back(&mut self, makers: &[Maker<G>], b: usize, bot: Box<dyn Bot<G>>) {
        if makers[b].persistent {
            self.bots.insert(b, bot);
        }
    }
}

/// Plays one scheduled game.
pub fn play_fixture<G: Game>(
    plan: &Plan<G>,
    makers: &[Maker<G>],
    lineup: &mut Lineup<G>,
    fx: &Fixture,
) -> Played<G> {
    let mut first = lineup.take(makers, fx.seats.first, fx.pair);
    let mut second = lineup.take(makers, fx.seats.second, fx.pair);
    let played = play_game::<G>(
        &plan.params,
        BySeat::new(&mut *first, &mut *second),
        bot_seeds(fx.seed),
        plan.max_plies,
    );
    lineup.give_back(makers, fx.seats.first, first);
    lineup.give_back(makers, fx.seats.second, second);
    played
}

fn format_name<G: Game>(plan: &Plan<G>) -> String {
    match plan.format {
        Format::RoundRobin => "round-robin".to_string(),
        Format::Gauntlet { champion } => format!("gauntlet of {}", plan.bots[champion].name),
    }
}

/// Runs (or resumes) the season of `plan` and writes its reports.
pub fn run<G: Game>(plan: &Plan<G>, opts: &Options) -> Result<Summary> {
    let fixtures = schedule(
        plan.bots.len(),
        &plan.format,
        plan.games_per_pair,
        plan.seed,
    );
    let dir = opts.reports.join(&plan.name);
    let (journal, old) = Journal::open(&dir, &plan.describe(), opts.fresh)?;
    check_journal(plan, &fixtures, &old)
        .with_context(|| format!("{} does not match the config", dir.display()))?;

    let done: std::collections::HashSet<u64> = old.iter().map(|r| r.index).collect();
    let mut pending: Vec<&Fixture> = fixtures
        .iter()
        .filter(|f| !done.contains(&f.index))
        .collect();
    if let Some(max) = opts.max_games {
        pending.truncate(max as usize);
    }
    let jobs = opts
        .jobs
        .or(plan.jobs)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let bar = progress_bar(pending.len() as u64, opts.progress);
    let makers = makers(plan, &dir)?;
    let new = play_all(plan, &makers, &pending, jobs, journal, &bar)?;
    bar.finish_and_clear();

    let played = new.len() as u64;
    let resumed = old.len() as u64;
    let mut records = old;
    records.extend(new);
    records.sort_by_key(|r| r.index);
    let names: Vec<String> = plan.bots.iter().map(|b| b.name.clone()).collect();
    let standings = Standings::new(&names, &records);
    let header = Header {
        season: plan.name.clone(),
        game: G::NAME.to_string(),
        format: format_name(plan),
        scheduled: fixtures.len() as u64,
    };
    report::write_files(&dir, &header, &standings)?;
    Ok(Summary {
        header,
        standings,
        dir,
        played,
        resumed,
    })
}

/// Games a worker plays before handing them to the writer: enough to keep
/// channel traffic and flushes rare, few enough to keep every thread busy.
fn chunk_size(games: usize, jobs: usize) -> usize {
    (games / (jobs * 8)).clamp(1, 64)
}

/// A chunk of played games: their journal lines and their scores.
struct Chunk {
    lines: Lines,
    scored: Vec<Scored>,
}

/// Plays a chunk of fixtures and formats their journal lines.
fn play_chunk<G: Game>(
    plan: &Plan<G>,
    makers: &[Maker<G>],
    lineup: &mut Lineup<G>,
    fixtures: &[&Fixture],
    bar: &ProgressBar,
) -> Chunk {
    let mut chunk = Chunk {
        lines: Lines::default(),
        scored: Vec::with_capacity(fixtures.len()),
    };
    for fx in fixtures {
        let start = Instant::now();
        let played = play_fixture(plan, makers, lineup, fx);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let finished = Finished {
            index: fx.index,
            pair: fx.pair,
            seats: fx.seats.map(|b| plan.bots[b].name.as_str()),
            seed: fx.seed,
            played: &played,
        };
        chunk.lines.push(&finished, ms);
        chunk.scored.push(finished.scored());
        bar.inc(1);
    }
    chunk
}

/// Plays `pending` on `jobs` threads in chunks; a writer thread journals the
/// games in schedule order, flushing whenever it has caught up with the workers.
fn play_all<G: Game>(
    plan: &Plan<G>,
    makers: &[Maker<G>],
    pending: &[&Fixture],
    jobs: usize,
    mut journal: Journal,
    bar: &ProgressBar,
) -> Result<Vec<Scored>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .context("starting worker threads")?;
    let chunk = chunk_size(pending.len(), jobs);
    let failed = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Chunk)>();
    std::thread::scope(|scope| {
        let writer = scope.spawn(|| -> Result<Vec<Scored>> {
            let result = write_in_order(pending.len(), rx, &mut journal);
            if result.is_err() {
                failed.store(true, Ordering::Relaxed);
            }
            result
        });
        let mut tx = Some(tx);
        pool.install(|| {
            let tx = tx.take().expect("the sender, once");
            pending.par_chunks(chunk).enumerate().for_each_init(
                || (tx.clone(), Lineup::default()),
                |(tx, lineup), (c, fixtures)| {
                    if failed.load(Ordering::Relaxed) {
                        return;
                    }
                    let _ = tx.send((c, play_chunk(plan, makers, lineup, fixtures, bar)));
                },
            );
            drop(tx); // the writer stops when every sender is gone
        });
        writer
            .join()
            .map_err(|_| anyhow!("the journal writer panicked"))?
    })
}

/// Journals chunks in schedule order as they arrive, and returns the scores.
fn write_in_order(
    total: usize,
    rx: mpsc::Receiver<(usize, Chunk)>,
    journal: &mut Journal,
) -> Result<Vec<Scored>> {
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    let mut scored = Vec::with_capacity(total);
    while let Ok((c, chunk)) = rx.recv() {
        waiting.insert(c, chunk);
        while let Ok((c, chunk)) = rx.try_recv() {
            waiting.insert(c, chunk);
        }
        while let Some(chunk) = waiting.remove(&next) {
            journal.append_lines(&chunk.lines)?;
            scored.extend(chunk.scored);
            next += 1;
        }
        journal.flush()?;
    }
    if scored.len() != total {
        bail!("only {} of {total} games finished", scored.len());
    }
    Ok(scored)
}

/// Every journal record must be a game of this schedule, once.
fn check_journal<G: Game>(plan: &Plan<G>, fixtures: &[Fixture], records: &[Scored]) -> Result<()> {
    let mut seen = std::collections::HashSet::new();
    for r in records {
        let Some(fx) = fixtures.get(r.index as usize) else {
            bail!(
                "the journal holds game {} but the schedule has {} games",
                r.index,
                fixtures.len()
            );
        };
        let names = fx.seats.map(|b| plan.bots[b].name.clone());
        if r.seats != names || r.seed != fx.seed {
            bail!(
                "journal game {} does not match the schedule; rerun with --fresh",
                r.index
            );
        }
        if !seen.insert(r.index) {
            bail!(
                "the journal holds game {} twice; rerun with --fresh",
                r.index
            );
        }
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
            "{elapsed_precise} {wide_bar} {pos}/{len} games, {per_sec}, ETA {eta}",
        )
        .expect("valid template"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
