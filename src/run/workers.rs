//! The worker threads of a season, and the watchdog that keeps a stuck bot
//! from stopping it.
//!
//! Each worker plays one game at a time, so `--jobs N` games are in flight
//! on N threads; N may be far above the core count, because a game of bot
//! programs mostly waits on pipes (why threads and not an event loop:
//! `docs/ARCHITECTURE.md`). Workers take chunks of games in turn, each
//! holding one of the [`Gate`](crate::run::concurrency::Gate)'s permits while it plays one, and take their
//! bots from the season's [`Pool`], which keeps bot programs running from
//! game to game. With `--jobs auto` the writer moves the gate's number as
//! the CPU meter says ([`Auto`]) and starts more workers when it rises.
//!
//! The calling thread is the writer: it puts chunks back in schedule order
//! before they reach the journal. It is also the watchdog: every worker
//! publishes its bot calls on a [`Watch`], and a call that runs past its
//! limit (an in-process bot that loops or sleeps forever) gets its worker
//! abandoned: the thread is detached, since Rust cannot stop it, and a fresh
//! worker replays that chunk with every bot on a thread of its own
//! ([`Hosted`]), where the limit is exact and the bot that hangs forfeits on
//! time. The season goes on with as many workers as before. What the writer
//! does with the games is in [`super::writer`].

use std::{
    collections::HashSet,
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc, Arc, Mutex,
    },
    thread,
    time::{Duration, Instant},
};

use indicatif::ProgressBar;

use crate::{
    core::record::Finished,
    core::{
        bot::Bot,
        clock::{Delay, Watch},
        error::{Error, Result},
        game::Game,
        hosted::Hosted,
        referee::{Aborted, Played},
        seat::BySeat,
    },
    external::process::cleanup,
    journal::Journal,
    plan::schedule::{bot_seeds, Fixture},
    plan::Plan,
    run::concurrency::{Auto, CpuTime, CpuUse, Gate},
    run::pool::{Maker, Pool},
    run::progress,
    run::to_play::{Chunk, Queue, ToPlay},
    run::writer::{Msg, Piece, Spares, Writer},
    stats::sprt::InOrder,
    stats::standings::Standings,
};

/// Plays one scheduled game on this thread with bots from `pool`,
/// publishing its bot calls on `watch`.
pub fn play_fixture<G: Game>(
    plan: &Plan<G>,
    pool: &Pool<G>,
    fx: &Fixture,
    watch: &Watch,
) -> Result<Played<G>, Aborted> {
    let mut first = pool.check_out(fx.seats.first, fx.index);
    let mut second = pool.check_out(fx.seats.second, fx.index);
    let played = plan.referee.play_timed(
        plan.start_of(fx.index).0,
        BySeat::new(&mut *first, &mut *second),
        bot_seeds(fx.seed),
        watch,
        fx.seats.map(|b| plan.time_of(b)),
    );
    pool.give_back(fx.seats.first, first);
    pool.give_back(fx.seats.second, second);
    played
}

/// Plays one scheduled game with each bot, fresh, on a thread of its own:
/// the replay of a game whose worker was abandoned.
fn play_hosted<G: Game>(
    plan: &Plan<G>,
    makers: &[Maker<G>],
    fx: &Fixture,
) -> Result<Played<G>, Aborted> {
    let mut bots = fx.seats.map(|b| {
        let other = plan.time_of(b).other_call().limit;
        let mut bot = Hosted::new(makers[b].make(), other);
        bot.game_index(fx.index);
        bot
    });
    let (first, second) = (&mut bots.first, &mut bots.second);
    plan.referee.play_timed(
        plan.start_of(fx.index).0,
        BySeat::new(first as &mut dyn Bot<G>, second),
        bot_seeds(fx.seed),
        &Watch::default(),
        fx.seats.map(|b| plan.time_of(b)),
    )
}

/// Games a worker plays before handing them to the writer: enough to keep
/// channel traffic and flushes rare, few enough to keep every thread busy.
fn chunk_size(games: u64, jobs: usize) -> usize {
    (games / (jobs as u64 * 8)).clamp(1, 256) as usize
}

/// What the workers share: the season, its bots and the queue of chunks.
pub struct Shared<G: Game> {
    plan: Plan<G>,
    pool: Pool<G>,
    names: Vec<String>,
    /// The games to play, in schedule order.
    to_play: ToPlay,
    chunk: usize,
    queue: Queue,
    /// Chunks of abandoned workers, to be played again with hosted bots.
    replays: Mutex<Vec<Chunk>>,
    gate: Gate,
    /// The most games at once.
    most: usize,
    /// Ladder's delay around the programs' moves, from every game played.
    delay: Mutex<Delay>,
    /// Set when the writer fails: workers stop.
    stop: AtomicBool,
    /// Written pieces, emptied, for the workers to fill again.
    spares: Arc<Spares>,
    bar: ProgressBar,
    /// Progress lines for a log, taken by the writing loop.
    lines: Mutex<Option<progress::Lines>>,
}

impl<G: Game> Shared<G> {
    /// The games `to_play` of `plan`, played at most `jobs` at once (the
    /// most `--jobs auto` may reach), with bots from `pool`, showing progress
    /// on `bar` and, for a log, in `lines`.
    pub fn new(
        plan: Plan<G>,
        pool: Pool<G>,
        to_play: ToPlay,
        jobs: usize,
        bar: ProgressBar,
        lines: Option<progress::Lines>,
    ) -> Self {
        Shared {
            chunk: chunk_size(to_play.len(), jobs),
            names: plan.bots.iter().map(|b| b.name.clone()).collect(),
            plan,
            pool,
            queue: Queue::new(&to_play),
            to_play,
            replays: Mutex::new(Vec::new()),
            gate: Gate::new(jobs),
            most: jobs,
            delay: Mutex::new(Delay::default()),
            stop: AtomicBool::new(false),
            spares: Arc::default(),
            bar,
            lines: Mutex::new(lines),
        }
    }

    fn chunks(&self) -> u64 {
        self.to_play.len().div_ceil(self.chunk as u64)
    }

    /// Whether chunks are left for a new worker to take.
    fn work_left(&self) -> bool {
        !self.queue.is_empty()
            || !self
                .replays
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_empty()
    }
}

/// A worker as the watchdog sees it.
#[derive(Default)]
struct Slot {
    watch: Watch,
    /// The chunk it is playing (`None` before the first).
    chunk: Mutex<Option<Chunk>>,
    /// Whether it holds a permit of the gate; whoever clears it (the
    /// worker, or the watchdog abandoning it) gives the permit back.
    permit: AtomicBool,
    /// Set by the watchdog: the worker's results no longer count.
    abandoned: AtomicBool,
}

impl Slot {
    fn release<G: Game>(&self, shared: &Shared<G>) {
        if self.permit.swap(false, Ordering::AcqRel) {
            shared.gate.leave();
        }
    }
}

/// How long a finished game may wait in a worker before it is sent.
const PIECE_TIME: Duration = Duration::from_millis(500);

/// A worker: takes chunks (replays first) until none is left, each with a
/// permit of the gate, and sends the games it plays to the writer in pieces.
fn work<G: Game>(shared: &Shared<G>, slot: &Slot, tx: &mpsc::SyncSender<Msg>) {
    loop {
        if shared.stop.load(Ordering::Relaxed) || slot.abandoned.load(Ordering::Relaxed) {
            return;
        }
        if !shared.gate.enter(&shared.stop) {
            return;
        }
        slot.permit.store(true, Ordering::Release);
        let replay = shared
            .replays
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop();
        let (c, hosted) = match replay {
            Some(c) => (c, true),
            None => match shared.queue.take(shared.chunk) {
                Some(c) => (c, false),
                None => {
                    slot.release(shared);
                    return;
                }
            },
        };
        *slot.chunk.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::clone(&c));
        let go_on = play_chunk(shared, slot, &c, hosted, tx);
        slot.release(shared);
        if !go_on {
            return;
        }
    }
}

/// Plays the games of a chunk, sending them in pieces; `false` when the
/// worker must stop (abandoned, interrupted, or the writer is gone).
fn play_chunk<G: Game>(
    shared: &Shared<G>,
    slot: &Slot,
    fixtures: &[Fixture],
    hosted: bool,
    tx: &mpsc::SyncSender<Msg>,
) -> bool {
    let plan = &shared.plan;
    let new_piece = || shared.spares.take();
    let mut piece = new_piece();
    let mut piece_start = Instant::now();
    let mut delay = Delay::default();
    let send = |piece: Piece, delay: &mut Delay| {
        shared
            .delay
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .merge(&std::mem::take(delay));
        piece.scored.is_empty() || tx.send(Msg::Piece(piece)).is_ok()
    };
    for fx in fixtures {
        if shared.stop.load(Ordering::Relaxed) {
            // the test decided, or the writer failed: nothing more counts
            send(piece, &mut delay);
            return false;
        }
        let start = Instant::now();
        let played = if hosted {
            play_hosted(plan, shared.pool.makers(), fx)
        } else {
            play_fixture(plan, &shared.pool, fx, &slot.watch)
        };
        if slot.abandoned.load(Ordering::Relaxed) {
            return false; // a replay plays this chunk again
        }
        let played = match played {
            Ok(played) => played,
            Err(why) => {
                // ladder's own failure: keep what is finished, charge no bot;
                // after a signal it is the signal's doing (bots killed, their
                // folders removed), and the interrupt says so
                send(piece, &mut delay);
                if cleanup::interrupted().is_none() {
                    let _ = tx.send(Msg::Aborted {
                        index: fx.index,
                        why,
                    });
                }
                return false;
            }
        };
        if cleanup::interrupted().is_some() {
            // this game may have ended because the signal killed its bots:
            // keep only what finished before it
            send(piece, &mut delay);
            return false;
        }
        let now = Instant::now();
        let ms = (now - start).as_secs_f64() * 1e3;
        delay.merge(&played.delay);
        let finished = Finished {
            index: fx.index,
            pair: fx.pair,
            seats: fx.seats,
            names: &shared.names,
            seed: fx.seed,
            opening: plan.start_of(fx.index).1,
            played: &played,
        };
        piece.lines.push(&finished, ms);
        piece.scored.push(finished.scored());
        if now - piece_start >= PIECE_TIME {
            shared.bar.inc(piece.scored.len() as u64);
            if !send(std::mem::replace(&mut piece, new_piece()), &mut delay) {
                return false;
            }
            piece_start = now;
        }
    }
    shared.bar.inc(piece.scored.len() as u64);
    send(piece, &mut delay)
}

/// How often the watchdog looks at the workers' calls.
const WATCHDOG_TICK: Duration = Duration::from_millis(10);
/// How long the writer waits for the workers' last games after a signal.
const INTERRUPT_GRACE: Duration = Duration::from_secs(1);

/// A worker thread and what the watchdog sees of it.
type Worker = (Arc<Slot>, thread::JoinHandle<()>);

/// Starts a worker thread with a slot of its own.
fn spawn_worker<G: Game>(shared: &Arc<Shared<G>>, tx: &mpsc::SyncSender<Msg>) -> Result<Worker> {
    let slot = Arc::new(Slot::default());
    let (shared, worker_slot, tx) = (Arc::clone(shared), Arc::clone(&slot), tx.clone());
    let handle = thread::Builder::new()
        .name("ladder-worker".into())
        .spawn(move || work(&shared, &worker_slot, &tx))
        .map_err(|e| Error::System(format!("cannot start a worker thread: {e}")))?;
    Ok((slot, handle))
}

/// How many games to play at once.
pub enum Concurrency {
    /// This many.
    Fixed(usize),
    /// As many as [`Auto`] allows.
    Auto(Auto),
}

/// What playing the pending games gave.
pub struct Outcome {
    /// Games played now.
    pub played: u64,
    /// Whether the season's journal now holds every game of the schedule,
    /// or every game up to the one its sequential test decided on.
    pub complete: bool,
    /// Whether the sequential test decided.
    pub decided: bool,
    /// The season's standings: the resumed games and those played now.
    pub standings: Standings,
    /// Workers abandoned by the watchdog.
    pub abandoned: usize,
    /// The signal that stopped the season early, if one did.
    pub interrupted: Option<i32>,
    /// Per bot: the processes the pool started.
    pub started: Vec<u64>,
    /// Ladder's delay around the programs' moves.
    pub delay: Delay,
    /// The most games allowed at once (what `--jobs auto` reached).
    pub peak_jobs: usize,
    /// The machine's CPU use while the games were played.
    pub cpu: Option<CpuUse>,
}

/// Plays every pending game, `concurrency` at once; this thread journals
/// the games in schedule order and watches the workers' calls. `resumed`
/// are games an earlier run finished out of order (`pending.jsonl`): they
/// go into the journal when their turn comes.
pub fn play_all<G: Game>(
    shared: &Arc<Shared<G>>,
    mut concurrency: Concurrency,
    journal: Journal,
    resumed: Vec<(u64, String)>,
    held_back: bool,
    standings: Standings,
    in_order: Option<InOrder>,
) -> Result<Outcome> {
    // a bounded channel: workers wait while the writer catches up (a
    // journal on a slow disk), rather than piling games up in memory; room
    // enough that they seldom wait on a writer that keeps up (each wait
    // is a wake-up), at most 256 pieces of up to 64 games
    let (tx, rx) = mpsc::sync_channel::<Msg>((4 * shared.most).clamp(64, 256));
    let allowed = match &concurrency {
        Concurrency::Fixed(jobs) => *jobs,
        Concurrency::Auto(auto) => auto.allowed(),
    };
    shared.gate.set_allowed(allowed);
    let cpu_start = CpuTime::now();
    let mut workers: Vec<Worker> = Vec::new();
    for _ in 0..(allowed as u64).min(shared.chunks()) {
        workers.push(spawn_worker(shared, &tx)?);
    }
    let mut watchdog = Watchdog::default();
    let mut writer = Writer::new(
        journal,
        shared.to_play.indices(),
        resumed,
        standings,
        in_order,
        Arc::clone(&shared.spares),
    )?;
    let mut lines = shared
        .lines
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    let mut interrupted = None;
    let mut failure: Option<Error> = None;
    let result = (|| -> Result<()> {
        let mut grace_until = None;
        while writer.received < shared.to_play.len() && !writer.decided() {
            match rx.recv_timeout(WATCHDOG_TICK) {
                Ok(msg) => writer.take(msg, &mut failure)?,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            while let Ok(msg) = rx.try_recv() {
                writer.take(msg, &mut failure)?;
            }
            writer.journal.flush()?;
            if let Some(in_order) = &writer.in_order {
                shared.bar.set_message(in_order.line());
            }
            if let Some(lines) = lines.as_mut() {
                lines.after(writer.received, &writer.standings, writer.in_order.as_ref());
            }
            if interrupted.is_none() {
                interrupted = cleanup::interrupted();
            }
            if interrupted.is_some() || failure.is_some() {
                // save what the workers finished before, then stop
                shared.stop.store(true, Ordering::Relaxed);
                let until = *grace_until.get_or_insert(Instant::now() + INTERRUPT_GRACE);
                let busy = workers
                    .iter()
                    .enumerate()
                    .any(|(i, (_, h))| !watchdog.abandoned.contains(&i) && !h.is_finished());
                if !busy || Instant::now() >= until {
                    while let Ok(msg) = rx.try_recv() {
                        writer.take(msg, &mut failure)?;
                    }
                    return writer.journal.flush();
                }
                continue;
            }
            for stuck in watchdog.stuck(&workers) {
                let (slot, _) = &workers[stuck];
                slot.abandoned.store(true, Ordering::Relaxed);
                let chunk = slot.chunk.lock().unwrap_or_else(|e| e.into_inner()).clone();
                if let Some(c) = chunk {
                    shared
                        .replays
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(c);
                }
                slot.release(shared);
                watchdog.abandoned.insert(stuck);
                workers.push(spawn_worker(shared, &tx)?);
            }
            if let Concurrency::Auto(auto) = &mut concurrency {
                let (starts, starting) = shared.pool.starts();
                if let Some(allowed) = auto.tick(shared.gate.in_use(), starts, starting) {
                    shared.gate.set_allowed(allowed);
                    let live = workers.len() - watchdog.abandoned.len();
                    for _ in live..allowed {
                        if !shared.work_left() {
                            break;
                        }
                        workers.push(spawn_worker(shared, &tx)?);
                    }
                }
            }
        }
        if writer.received != shared.to_play.len() && !writer.decided() {
            return Err(Error::System(format!(
                "only {} of {} games finished",
                writer.received,
                shared.to_play.len()
            )));
        }
        Ok(())
    })();
    if let Some(lines) = lines.as_mut() {
        lines.end(writer.received, &writer.standings, writer.in_order.as_ref());
    }
    shared.stop.store(true, Ordering::Relaxed);
    drop(tx);
    // a worker waiting to send gets an error and stops: nothing it sends
    // now would count
    drop(rx);
    let cpu = cpu_start
        .zip(CpuTime::now())
        .and_then(|(start, end)| end.use_since(&start));
    if let Some(failure) = failure.filter(|_| interrupted.is_none()) {
        result?;
        return Err(failure);
    }
    if interrupted.is_none() {
        // wait for the workers that are not stuck, so their bots are back
        for (i, (_, handle)) in workers.into_iter().enumerate() {
            if !watchdog.abandoned.contains(&i) {
                let _ = handle.join();
            }
        }
    }
    shared.pool.close();
    result?;
    // games held back in pending.jsonl keep it (and the season unfinished)
    let complete = interrupted.is_none() && writer.is_complete() && !held_back;
    let decided = writer.decided();
    // after a decision only the games up to it count: those in the journal
    let played = if decided {
        writer.written
    } else {
        writer.received
    };
    if complete {
        writer.journal.finish()?;
    }
    let standings = match writer.in_order {
        Some(in_order) if decided => in_order.standings,
        _ => writer.standings,
    };
    Ok(Outcome {
        played,
        complete,
        decided,
        standings,
        abandoned: watchdog.abandoned.len(),
        interrupted,
        started: shared.pool.started(),
        delay: *shared.delay.lock().unwrap_or_else(|e| e.into_inner()),
        peak_jobs: match &concurrency {
            Concurrency::Fixed(jobs) => *jobs,
            Concurrency::Auto(auto) => auto.peak,
        },
        cpu,
    })
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
    fn stuck(&mut self, workers: &[Worker]) -> Vec<usize> {
        let now = Instant::now();
        if self.last_look.is_some_and(|t| now - t < WATCHDOG_TICK) {
            return Vec::new();
        }
        self.last_look = Some(now);
        let mut stuck = Vec::new();
        for (i, (slot, _)) in workers.iter().enumerate() {
            if i >= self.seen.len() {
                self.seen.push((0, now));
            }
            if self.abandoned.contains(&i) {
                continue;
            }
            let (calls, limit) = slot.watch.sample();
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
