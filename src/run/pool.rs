//! The bots of a season: how each is made ([`Maker`]), and the pool that
//! keeps bot programs running from one game to the next.
//!
//! A program speaking the line protocol serves many games (`new` resets it),
//! and starting one is what costs: a Python interpreter takes about 0.1 s of
//! CPU here, far more than a game of moves. So a game checks a process out
//! of its bot's pool for each seat and gives it back when the game ends,
//! whatever the pairing; a season starts at most one process per bot per
//! game in flight (two when a bot plays itself), plus one after each failure
//! that killed one (a forfeit for a crash, a timeout or bad output).
//!
//! Starts are staggered: at most [`Pool::starts_at_once`] processes start at
//! a time (one per core), each with its whole start-up limit from its own
//! start, so a burst of hundreds of starts cannot time itself out. A game
//! waiting for its turn to start a process takes one that another game gives
//! back in the meantime, so a season never starts a process it could do
//! without. In-process bots and one-move programs (HackerRank bots) are made
//! fresh for every game, as before.

use std::{
    path::{Path, PathBuf},
    sync::{Arc, Condvar, Mutex, MutexGuard},
    thread,
};

use crate::{
    core::{
        bot::{Bot, BotFactory},
        error::{Error, Result},
        files,
        game::Game,
    },
    external::{
        process::{IoLog, Level, Log},
        Command, Launch,
    },
    journal,
    plan::{BotKind, Plan},
};

/// How the season makes one bot.
#[derive(Clone)]
pub struct Maker<G: Game> {
    factory: BotFactory<G>,
    /// One bot (a process) serves many games, kept in the pool between them.
    pooled: bool,
}

impl<G: Game> Maker<G> {
    /// A fresh bot, not started.
    pub fn make(&self) -> Box<dyn Bot<G>> {
        (self.factory)()
    }
}

/// Makers for the bots of `plan`; bot programs log stderr to
/// `dir/logs/<bot>.log`, and the lines they exchange with ladder to `log`
/// (`--log`) or, with `log = true`, to `dir/logs/<bot>.io.log`. A sandboxed
/// bot may not write under `reports`, the folder of every season's results.
pub fn makers<G: Game>(
    plan: &Plan<G>,
    dir: &Path,
    reports: &Path,
    log: Option<&(PathBuf, Level)>,
) -> Result<Vec<Maker<G>>> {
    // `--log -` is ladder's stderr: no journal to mistake, nothing to hide
    let file_log = log.filter(|(path, _)| !files::is_standard_stream(path));
    let shared = match log {
        None => None,
        Some((path, level)) if file_log.is_none() => {
            Some(IoLog::open(path, *level).map_err(Error::io("opening", "standard error"))?)
        }
        Some((path, level)) => {
            // a season's journal is never a log's (this season's or
            // another's), asked again once the log's folders are made
            let own = files::folder_of(path);
            let journal =
                || journal::is_journal_file(dir, path) || journal::is_journal_file(own, path);
            let refused = || {
                Error::Usage(format!(
                    "--log {}: that is a season's journal; write the log to another file",
                    path.display()
                ))
            };
            if journal() {
                return Err(refused());
            }
            let log = IoLog::open(path, *level).map_err(Error::io("opening", path))?;
            if journal() {
                return Err(refused());
            }
            Some(log)
        }
    };
    let params = serde_json::to_value(&plan.params).expect("parameters serialize");
    let mut hidden = vec![files::absolute(reports), files::absolute(dir)];
    hidden.extend(file_log.map(|(path, _)| files::absolute(path)));
    // each program's own (a file or not): its folder, which the other bots
    // may not see unless theirs is in it, and the files its command names
    // after the program (a script, its data), which they may not read
    // unless their commands name the same
    let theirs: Vec<(PathBuf, bool)> = plan
        .bots
        .iter()
        .flat_map(|b| match &b.kind {
            BotKind::External(command, _) => {
                let files = named_files(command).skip(1).filter(|p| p.is_file());
                let folder = command.dir.clone().map(|d| (d, false));
                folder.into_iter().chain(files.map(|f| (f, true))).collect()
            }
            BotKind::Builtin(_) => Vec::new(),
        })
        .collect();
    plan.bots
        .iter()
        .enumerate()
        .map(|(index, b)| {
            Ok(match &b.kind {
                BotKind::Builtin(factory) => Maker {
                    factory: Arc::clone(factory),
                    pooled: false,
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
                    let mine: Vec<PathBuf> = named_files(&command).collect();
                    let own = |(path, file): &(PathBuf, bool)| match file {
                        true => mine.contains(path),
                        false => {
                            command.dir.as_deref().is_some_and(|d| d.starts_with(path))
                                || command.argv.iter().any(|a| Path::new(a).starts_with(path))
                        }
                    };
                    let others = theirs.iter().filter(|t| !own(t)).map(|(p, _)| p.clone());
                    command.sandbox.hidden.extend(hidden.iter().cloned());
                    command.sandbox.others.extend(others);
                    let launch = Launch {
                        command,
                        log,
                        game: plan.start.name().to_string(),
                        params: params.clone(),
                        time: plan.time_of(index).clone(),
                    };
                    let make = protocol.make;
                    Maker {
                        factory: Arc::new(move || make(&launch)),
                        pooled: protocol.persistent,
                    }
                }
            })
        })
        .collect()
}

/// The paths `command`'s words name, program first, made absolute: a
/// relative one is in the bot's `dir`, where it runs.
fn named_files(command: &Command) -> impl Iterator<Item = PathBuf> + '_ {
    command.argv.iter().map(|word| {
        let path = Path::new(word);
        match &command.dir {
            Some(dir) if path.is_relative() => files::absolute(&dir.join(path)),
            _ => files::absolute(path),
        }
    })
}

/// The season's bots, with the programs that are between games.
pub struct Pool<G: Game> {
    makers: Vec<Maker<G>>,
    state: Mutex<State<G>>,
    /// Per bot: where games wait for one of its programs or a free start.
    /// Each event wakes one game that can use it, not every game waiting.
    ready: Vec<Condvar>,
    starts_at_once: usize,
}

struct State<G: Game> {
    /// Per bot: its programs between games, ready to play.
    idle: Vec<Vec<Box<dyn Bot<G>>>>,
    /// Processes starting now.
    starting: usize,
    /// Per bot: processes started so far.
    started: Vec<u64>,
    /// Per bot: games waiting for one of its programs.
    waiting: Vec<usize>,
    /// Set at the season's end: bots given back are ended, not kept.
    closed: bool,
}

impl<G: Game> Pool<G> {
    /// A pool for the bots `makers` make, starting at most `starts_at_once`
    /// processes at a time.
    pub fn new(makers: Vec<Maker<G>>, starts_at_once: usize) -> Self {
        let bots = makers.len();
        Pool {
            makers,
            state: Mutex::new(State {
                idle: (0..bots).map(|_| Vec::new()).collect(),
                starting: 0,
                started: vec![0; bots],
                waiting: vec![0; bots],
                closed: false,
            }),
            ready: (0..bots).map(|_| Condvar::new()).collect(),
            starts_at_once: starts_at_once.max(1),
        }
    }

    /// How each bot is made.
    pub fn makers(&self) -> &[Maker<G>] {
        &self.makers
    }

    fn lock(&self) -> MutexGuard<'_, State<G>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Bot `b`, ready for game `index`: a program kept from an earlier game,
    /// else a fresh one, started (or its failure to start kept for the game
    /// to report) once a start is free.
    pub fn check_out(&self, b: usize, index: u64) -> Box<dyn Bot<G>> {
        let maker = &self.makers[b];
        if maker.pooled {
            let mut state = self.lock();
            loop {
                if let Some(mut bot) = state.idle[b].pop() {
                    self.wake_one(&state);
                    drop(state);
                    bot.game_index(index);
                    return bot;
                }
                if state.starting < self.starts_at_once {
                    state.starting += 1;
                    self.wake_one(&state);
                    break;
                }
                state.waiting[b] += 1;
                state = self.ready[b].wait(state).unwrap_or_else(|e| e.into_inner());
                state.waiting[b] -= 1;
            }
        }
        let mut bot = maker.make();
        bot.game_index(index);
        if bot.needs_start() {
            bot.prepare();
        }
        if maker.pooled {
            let mut state = self.lock();
            state.starting -= 1;
            state.started[b] += 1;
            self.wake_one(&state);
        }
        bot
    }

    /// Wakes one waiting game that can go on: one waiting for a bot that
    /// has a program idle, else, if a start is free, any. A game that wakes
    /// calls this again, so no event is lost when several come at once.
    fn wake_one(&self, state: &State<G>) {
        let waiting = |b: &usize| state.waiting[*b] > 0;
        let bots = 0..state.waiting.len();
        let idle = bots
            .clone()
            .filter(waiting)
            .find(|&b| !state.idle[b].is_empty());
        let start = (state.starting < self.starts_at_once)
            .then(|| {
                bots.clone()
                    .filter(waiting)
                    .max_by_key(|&b| state.waiting[b])
            })
            .flatten();
        if let Some(b) = idle.or(start) {
            self.ready[b].notify_one();
        }
    }

    /// Bot `b` back after its game: kept for the next one if its program
    /// still runs, else ended.
    pub fn give_back(&self, b: usize, bot: Box<dyn Bot<G>>) {
        if !self.makers[b].pooled || bot.needs_start() {
            return; // dropped: a program that failed is gone already
        }
        let mut state = self.lock();
        if state.closed {
            drop(state);
            return;
        }
        state.idle[b].push(bot);
        self.wake_one(&state);
    }

    /// Processes started so far, per bot (0 for bots that are not pooled).
    pub fn started(&self) -> Vec<u64> {
        self.lock().started.clone()
    }

    /// Processes started so far, all bots together, and those starting now.
    pub fn starts(&self) -> (u64, usize) {
        let state = self.lock();
        (state.started.iter().sum(), state.starting)
    }

    /// Ends every program between games, all at once (each gets `quit` and
    /// a moment to exit), and every one given back from now on.
    pub fn close(&self) {
        let idle: Vec<Box<dyn Bot<G>>> = {
            let mut state = self.lock();
            state.closed = true;
            state.idle.iter_mut().flat_map(std::mem::take).collect()
        };
        thread::scope(|scope| {
            for bot in idle {
                let ended = thread::Builder::new()
                    .name("ladder-bot-quit".into())
                    .spawn_scoped(scope, move || drop(bot));
                // no thread to spare: the dropped closure ended the bot here
                drop(ended);
            }
        });
    }
}

impl<G: Game> Drop for Pool<G> {
    fn drop(&mut self) {
        self.close();
    }
}
