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
//! many workers as before. What the writer does with the games is in
//! [`super::writer`].

use std::{
    collections::{HashMap, HashSet},
    path::{Path, PathBuf},
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
        referee::{Aborted, Played},
        seat::BySeat,
    },
    external::{
        process::{cleanup, IoLog, Level, Log},
        Launch,
    },
    season::{
        journal::Journal,
        plan::{BotKind, Plan},
        record::{Finished, Lines},
        schedule::{bot_seeds, Fixture},
        sprt::InOrder,
        standings::Standings,
        writer::{Msg, Piece, Writer},
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

/// Makers for the bots of `plan`; bot programs log stderr to
/// `dir/logs/<bot>.log`, and the lines they exchange with ladder to `log`
/// (`--log`) or, with `log = true`, to `dir/logs/<bot>.io.log`.
pub fn makers<G: Game>(
    plan: &Plan<G>,
    dir: &Path,
    log: Option<&(PathBuf, Level)>,
) -> Result<Vec<Maker<G>>> {
    let shared = match log {
        Some((path, level)) => Some(IoLog::open(path, *level).map_err(Error::io("opening", path))?),
        None => None,
    };
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
                    {
                        let mut log = log.lock().unwrap_or_else(|e| e.into_inner());
                        log.name = b.name.clone();
                        log.io = if b.log_io {
                            let path = dir.join("logs").join(format!("{}.io.log", b.name));
                            Some(
                                IoLog::open(&path, Level::All)
                                    .map_err(Error::io("opening", &path))?,
                            )
                        } else {
                            shared.clone()
                        };
                    }
                    let mut command = (**command).clone();
                    // a bot may not write the season's results, even from inside its own folder
                    let reports = dir.parent().unwrap_or(dir);
                    command.sandbox.read_only.push(absolute(reports));
                    let launch = Launch {
                        command,
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

/// `path` made absolute against the working directory (a sandbox binds absolute paths).
fn absolute(path: &Path) -> std::path::PathBuf {
    path.canonicalize()
        .or_else(|_| std::env::current_dir().map(|d| d.join(path)))
        .unwrap_or_else(|_| path.to_path_buf())
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
) -> Result<Played<G>, Aborted> {
    let mut first = lineup.take(makers, fx.seats.first, fx.pair);
    let mut second = lineup.take(makers, fx.seats.second, fx.pair);
    first.game_index(fx.index);
    second.game_index(fx.index);
    let played = plan.referee.play(
        plan.start_of(fx.index).0,
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
fn play_hosted<G: Game>(
    plan: &Plan<G>,
    makers: &[Maker<G>],
    fx: &Fixture,
) -> Result<Played<G>, Aborted> {
    let other = plan.referee.time.other_call().limit;
    let mut bots = fx.seats.map(|b| {
        let mut bot = Hosted::new((makers[b].factory)(), other);
        bot.game_index(fx.index);
        bot
    });
    let (first, second) = (&mut bots.first, &mut bots.second);
    plan.referee.play(
        plan.start_of(fx.index).0,
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
    to_play: Vec<Fixture>,
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
    /// The games `to_play` of `plan`, to be played by `jobs` workers.
    pub fn new(
        plan: Plan<G>,
        makers: Vec<Maker<G>>,
        to_play: Vec<Fixture>,
        jobs: usize,
        bar: ProgressBar,
    ) -> Self {
        Shared {
            chunk: chunk_size(to_play.len(), jobs),
            names: plan.bots.iter().map(|b| b.name.clone()).collect(),
            plan,
            makers,
            to_play,
            next: AtomicUsize::new(0),
            replays: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
            bar,
        }
    }

    fn chunks(&self) -> usize {
        self.to_play.len().div_ceil(self.chunk)
    }

    fn fixtures(&self, c: usize) -> &[Fixture] {
        let start = c * self.chunk;
        &self.to_play[start..(start + self.chunk).min(self.to_play.len())]
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

/// How long a finished game may wait in a worker before it is sent.
const PIECE_TIME: Duration = Duration::from_millis(500);

/// A worker: takes chunks (replays first) until none is left, and sends the
/// games it plays to the writer in pieces.
fn work<G: Game>(shared: &Shared<G>, slot: &Slot, tx: &mpsc::Sender<Msg>) {
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
        if !play_chunk(shared, &mut lineup, slot, c, hosted, tx) {
            return;
        }
    }
}

/// Plays chunk `c`, sending its games in pieces; `false` when the worker
/// must stop (abandoned, interrupted, or the writer is gone).
fn play_chunk<G: Game>(
    shared: &Shared<G>,
    lineup: &mut Lineup<G>,
    slot: &Slot,
    c: usize,
    hosted: bool,
    tx: &mpsc::Sender<Msg>,
) -> bool {
    let fixtures = shared.fixtures(c);
    let (plan, makers) = (&shared.plan, &shared.makers);
    let new_piece = || Piece {
        lines: Lines::default(),
        scored: Vec::new(),
    };
    let mut piece = new_piece();
    let mut piece_start = Instant::now();
    let send = |piece: Piece| piece.scored.is_empty() || tx.send(Msg::Piece(piece)).is_ok();
    for fx in fixtures {
        if shared.stop.load(Ordering::Relaxed) {
            // the test decided, or the writer failed: nothing more counts
            send(piece);
            return false;
        }
        let start = Instant::now();
        let played = if hosted {
            play_hosted(plan, makers, fx)
        } else {
            play_fixture(plan, makers, lineup, fx, &slot.watch)
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
                send(piece);
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
            send(piece);
            return false;
        }
        let now = Instant::now();
        let ms = (now - start).as_secs_f64() * 1e3;
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
            if !send(std::mem::replace(&mut piece, new_piece())) {
                return false;
            }
            piece_start = now;
        }
    }
    shared.bar.inc(piece.scored.len() as u64);
    send(piece)
}

/// How often the watchdog looks at the workers' calls.
const WATCHDOG_TICK: Duration = Duration::from_millis(10);
/// How long the writer waits for the workers' last games after a signal.
const INTERRUPT_GRACE: Duration = Duration::from_secs(1);

/// Starts a worker thread with a slot of its own.
fn spawn_worker<G: Game>(
    shared: &Arc<Shared<G>>,
    tx: &mpsc::Sender<Msg>,
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
}

/// Plays every pending game on `jobs` workers; this thread journals the
/// games in schedule order and watches the workers' calls. `resumed` are
/// games an earlier run finished out of order (`pending.jsonl`): they go
/// into the journal when their turn comes.
pub fn play_all<G: Game>(
    shared: &Arc<Shared<G>>,
    jobs: usize,
    journal: Journal,
    resumed: Vec<(u64, String)>,
    standings: Standings,
    in_order: Option<InOrder>,
) -> Result<Outcome> {
    let (tx, rx) = mpsc::channel::<Msg>();
    let mut workers = Vec::new();
    for _ in 0..jobs.min(shared.chunks()) {
        workers.push(spawn_worker(shared, &tx)?);
    }
    let mut watchdog = Watchdog::default();
    let mut writer = Writer::new(journal, &shared.to_play, resumed, standings, in_order)?;
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
        if writer.received != shared.to_play.len() && !writer.decided() {
            return Err(Error::System(format!(
                "only {} of {} games finished",
                writer.received,
                shared.to_play.len()
            )));
        }
        Ok(())
    })();
    shared.stop.store(true, Ordering::Relaxed);
    drop(tx);
    if let Some(failure) = failure.filter(|_| interrupted.is_none()) {
        result?;
        return Err(failure);
    }
    if interrupted.is_none() {
        // wait for the workers that are not stuck, so their bots are gone
        for (i, (_, handle)) in workers.into_iter().enumerate() {
            if !watchdog.abandoned.contains(&i) {
                let _ = handle.join();
            }
        }
    }
    result?;
    let complete = interrupted.is_none() && writer.is_complete();
    let decided = writer.decided();
    // after a decision only the games up to it count: those in the journal
    let played = if decided {
        writer.written
    } else {
        writer.received as u64
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
