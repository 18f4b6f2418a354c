//! The worker threads of a season, and the watchdog that keeps a stuck bot
//! from stopping it.
//!
//! Workers take chunks of games in turn and play them. The calling thread is
//! the writer: it puts chunks back in schedule order before they reach the
//! journal. It is also the watchdog: every worker publishes its bot calls on a
//! [`Watch`], and a call that runs past its limit (an in-process bot that
//! loops or sleeps forever) gets its worker abandoned: the thread is
//! detached, since Rust cannot stop it, and a fresh worker replays that chunk
//! with every bot on a thread of its own ([`Hosted`]), where the limit is
//! exact and the bot that hangs forfeits on time. The season goes on with as
//! many workers as before.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    path::Path,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        mpsc, Arc, Mutex,
    },
    thread,
    time::{Duration, Instant},
};

use indicatif::ProgressBar;

use crate::{
    core::{
        bot::{Bot, BotFactory},
        clock::Watch,
        error::{Error, Result},
        game::Game,
        hosted::Hosted,
        referee::Played,
        seat::BySeat,
    },
    external::{process::Log, Launch},
    season::{
        journal::Journal,
        plan::{BotKind, Plan},
        record::{Finished, Lines, Scored},
        schedule::{bot_seeds, Fixture},
    },
};

/// How the tournament makes one bot of the season.
#[derive(Clone)]
pub struct Maker<G: Game> {
    factory: BotFactory<G>,
    /// One bot (a process) serves all of a pairing's games on a worker,
    /// instead of a fresh one per game.
    persistent: bool,
}

/// Makers for the bots of `plan`; bot programs log stderr to `dir/logs/<bot>.log`.
pub fn makers<G: Game>(plan: &Plan<G>, dir: &Path) -> Result<Vec<Maker<G>>> {
    let params = serde_json::to_value(&plan.params).expect("parameters serialize");
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
                    let log = Log::open(Some(&path)).map_err(Error::io("opening", &path))?;
                    let launch = Launch {
                        command: command.clone(),
                        log,
                        game: plan.start.name().to_string(),
                        params: params.clone(),
                        time: plan.referee.time.clone(),
                    };
                    let make = protocol.make;
                    Maker {
                        factory: Arc::new(move || make(&launch)),
                        persistent: protocol.persistent,
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

/// Plays one scheduled game on this thread, publishing its bot calls on `watch`.
pub fn play_fixture<G: Game>(
    plan: &Plan<G>,
    makers: &[Maker<G>],
    lineup: &mut Lineup<G>,
    fx: &Fixture,
    watch: &Watch,
) -> Played<G> {
    let mut first = lineup.take(makers, fx.seats.first, fx.pair);
    let mut second = lineup.take(makers, fx.seats.second, fx.pair);
    let played = plan.referee.play(
        &plan.start,
        BySeat::new(&mut *first, &mut *second),
        bot_seeds(fx.seed),
        watch,
    );
    lineup.give_back(makers, fx.seats.first, first);
    lineup.give_back(makers, fx.seats.second, second);
    played
}

/// Plays one scheduled game with each bot, fresh, on a thread of its own:
/// the replay of a game whose worker was abandoned.
fn play_hosted<G: Game>(plan: &Plan<G>, makers: &[Maker<G>], fx: &Fixture) -> Played<G> {
    let other = plan.referee.time.other_call().limit;
    let mut bots = fx.seats.map(|b| Hosted::new((makers[b].factory)(), other));
    let (first, second) = (&mut bots.first, &mut bots.second);
    plan.referee.play(
        &plan.start,
        BySeat::new(first as &mut dyn Bot<G>, second),
        bot_seeds(fx.seed),
        &Watch::default(),
    )
}

/// Games a worker plays before handing them to the writer: enough to keep
/// channel traffic and flushes rare, few enough to keep every thread busy.
fn chunk_size(games: usize, jobs: usize) -> usize {
    (games / (jobs * 8)).clamp(1, 64)
}

/// What the workers share: the season and the queue of chunks.
pub struct Shared<G: Game> {
    plan: Plan<G>,
    makers: Vec<Maker<G>>,
    names: Vec<String>,
    /// The games to play, in schedule order, cut into chunks of `chunk`.
    pending: Vec<Fixture>,
    chunk: usize,
    /// The next chunk nobody has taken.
    next: AtomicUsize,
    /// Chunks of abandoned workers, to be played again with hosted bots.
    replays: Mutex<Vec<usize>>,
    /// Set when the writer fails: workers stop.
    stop: AtomicBool,
    bar: ProgressBar,
}

impl<G: Game> Shared<G> {
    /// The games `pending` of `plan`, to be played by `jobs` workers.
    pub fn new(
        plan: Plan<G>,
        makers: Vec<Maker<G>>,
        pending: Vec<Fixture>,
        jobs: usize,
        bar: ProgressBar,
    ) -> Self {
        Shared {
            chunk: chunk_size(pending.len(), jobs),
            names: plan.bots.iter().map(|b| b.name.clone()).collect(),
            plan,
            makers,
            pending,
            next: AtomicUsize::new(0),
            replays: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
            bar,
        }
    }

    fn chunks(&self) -> usize {
        self.pending.len().div_ceil(self.chunk)
    }

    fn fixtures(&self, c: usize) -> &[Fixture] {
        let start = c * self.chunk;
        &self.pending[start..(start + self.chunk).min(self.pending.len())]
    }
}

/// A worker as the watchdog sees it.
#[derive(Default)]
struct Slot {
    watch: Watch,
    /// The chunk it is playing (`usize::MAX` before the first).
    chunk: AtomicUsize,
    /// Set by the watchdog: the worker's results no longer count.
    abandoned: AtomicBool,
}

/// A chunk of played games: their journal lines and their scores.
struct Chunk {
    lines: Lines,
    scored: Vec<Scored>,
}

/// A worker: takes chunks (replays first) until none is left, and sends
/// each played chunk to the writer.
fn work<G: Game>(shared: &Shared<G>, slot: &Slot, tx: &mpsc::Sender<(usize, Chunk)>) {
    let mut lineup = Lineup::default();
    loop {
        if shared.stop.load(Ordering::Relaxed) || slot.abandoned.load(Ordering::Relaxed) {
            return;
        }
        let replay = shared
            .replays
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop();
        let (c, hosted) = match replay {
            Some(c) => (c, true),
            None => match shared.next.fetch_add(1, Ordering::Relaxed) {
                c if c < shared.chunks() => (c, false),
                _ => return,
            },
        };
        slot.chunk.store(c, Ordering::Relaxed);
        let Some(chunk) = play_chunk(shared, &mut lineup, slot, c, hosted) else {
            return; // abandoned meanwhile: a replay plays this chunk
        };
        if tx.send((c, chunk)).is_err() {
            return;
        }
    }
}

/// Plays chunk `c` and formats its journal lines; `None` if the worker was
/// abandoned while playing it.
fn play_chunk<G: Game>(
    shared: &Shared<G>,
    lineup: &mut Lineup<G>,
    slot: &Slot,
    c: usize,
    hosted: bool,
) -> Option<Chunk> {
    let fixtures = shared.fixtures(c);
    let mut chunk = Chunk {
        lines: Lines::default(),
        scored: Vec::with_capacity(fixtures.len()),
    };
    let (plan, makers) = (&shared.plan, &shared.makers);
    for fx in fixtures {
        let start = Instant::now();
        let played = if hosted {
            play_hosted(plan, makers, fx)
        } else {
            play_fixture(plan, makers, lineup, fx, &slot.watch)
        };
        if slot.abandoned.load(Ordering::Relaxed) {
            return None;
        }
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let finished = Finished {
            index: fx.index,
            pair: fx.pair,
            seats: fx.seats,
            names: &shared.names,
            seed: fx.seed,
            played: &played,
        };
        chunk.lines.push(&finished, ms);
        chunk.scored.push(finished.scored());
    }
    shared.bar.inc(fixtures.len() as u64);
    Some(chunk)
}

/// How often the watchdog looks at the workers' calls.
const WATCHDOG_TICK: Duration = Duration::from_millis(10);

/// Starts a worker thread with a slot of its own.
fn spawn_worker<G: Game>(
    shared: &Arc<Shared<G>>,
    tx: &mpsc::Sender<(usize, Chunk)>,
) -> Result<(Arc<Slot>, thread::JoinHandle<()>)> {
    let slot = Arc::new(Slot {
        chunk: AtomicUsize::new(usize::MAX),
        ..Slot::default()
    });
    let (shared, worker_slot, tx) = (Arc::clone(shared), Arc::clone(&slot), tx.clone());
    let handle = thread::Builder::new()
        .name("ladder-worker".into())
        .spawn(move || work(&shared, &worker_slot, &tx))
        .map_err(|e| Error::System(format!("cannot start a worker thread: {e}")))?;
    Ok((slot, handle))
}

/// Plays every pending game on `jobs` workers; this thread journals the
/// chunks in schedule order and watches the workers' calls. Returns the
/// scores and how many workers were abandoned.
pub fn play_all<G: Game>(
    shared: &Arc<Shared<G>>,
    jobs: usize,
    mut journal: Journal,
) -> Result<(Vec<Scored>, usize)> {
    let (tx, rx) = mpsc::channel::<(usize, Chunk)>();
    let mut workers = Vec::new();
    for _ in 0..jobs.min(shared.chunks()) {
        workers.push(spawn_worker(shared, &tx)?);
    }
    let mut watchdog = Watchdog::default();
    let result = (|| -> Result<Vec<Scored>> {
        let total = shared.chunks();
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        let mut scored = Vec::with_capacity(shared.pending.len());
        while next < total {
            match rx.recv_timeout(WATCHDOG_TICK) {
                Ok((c, chunk)) => {
                    // a chunk can come twice when a slow worker was abandoned
                    // just as it finished; the first copy counts
                    if c >= next {
                        waiting.entry(c).or_insert(chunk);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            while let Some(chunk) = waiting.remove(&next) {
                journal.append_lines(&chunk.lines)?;
                scored.extend(chunk.scored);
                next += 1;
            }
            journal.flush()?;
            for stuck in watchdog.stuck(&workers) {
                let (slot, _) = &workers[stuck];
                slot.abandoned.store(true, Ordering::Relaxed);
                let c = slot.chunk.load(Ordering::Relaxed);
                shared
                    .replays
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(c);
                watchdog.abandoned.insert(stuck);
                workers.push(spawn_worker(shared, &tx)?);
            }
        }
        if scored.len() != shared.pending.len() {
            return Err(Error::System(format!(
                "only {} of {} games finished",
                scored.len(),
                shared.pending.len()
            )));
        }
        Ok(scored)
    })();
    shared.stop.store(true, Ordering::Relaxed);
    drop(tx);
    // wait for the workers that are not stuck, so their bots are gone
    for (i, (_, handle)) in workers.into_iter().enumerate() {
        if !watchdog.abandoned.contains(&i) {
            let _ = handle.join();
        }
    }
    result.map(|s| (s, watchdog.abandoned.len()))
}

/// Finds worker calls that have run past their limit.
#[derive(Default)]
struct Watchdog {
    /// Per worker: the call count last seen, and when it was first seen.
    seen: Vec<(u64, Instant)>,
    last_look: Option<Instant>,
    abandoned: HashSet<usize>,
}

impl Watchdog {
    /// The workers, by index, whose current call has not returned within
    /// its limit since the watchdog first saw it under way.
    fn stuck(&mut self, workers: &[(Arc<Slot>, thread::JoinHandle<()>)]) -> Vec<usize> {
        let now = Instant::now();
        if self.last_look.is_some_and(|t| now - t < WATCHDOG_TICK) {
            return Vec::new();
        }
        self.last_look = Some(now);
        let mut stuck = Vec::new();
        for (i, (slot, _)) in workers.iter().enumerate() {
            if self.abandoned.contains(&i) {
                continue;
            }
            let (calls, limit) = slot.watch.sample();
            if i >= self.seen.len() {
                self.seen.push((calls, now));
            }
            let (last, since) = &mut self.seen[i];
            if *last != calls {
                (*last, *since) = (calls, now);
            } else if limit.is_some_and(|l| now - *since > l) {
                stuck.push(i);
            }
        }
        stuck
    }
}
