//! `ladder check`: a conformance check for bot authors (fastchess's compliance
//! mode, for this project's protocols). A tool above the season floor: it
//! plays a few games with the referee, no season around them. It starts the bot, checks the greeting,
//! plays a few games against `random`, checks that `quit` ends the process,
//! and lists every problem with the bot's own words.

use std::{
    fmt::Write as _,
    fs,
    time::{Duration, Instant},
};

use crate::{
    core::text::{count, harmless},
    core::{
        bot::{Answer, Bot, BotError, RandomBot},
        clock::{TimeControl, TimeLeft, Watch},
        error::{Error, Result},
        game::Game,
        referee::{ForfeitReason, Referee, Termination},
        seat::{BySeat, Seat},
    },
    external::{
        line,
        process::{Child, Log, SharedLog},
        protocol, Command, Launch, ProcessProtocol,
    },
    plan::schedule::{bot_seeds, game_seed},
};

/// One checked step.
pub struct Finding {
    pub ok: bool,
    pub text: String,
}

/// What `ladder check` found.
pub struct CheckReport {
    pub title: String,
    pub findings: Vec<Finding>,
    /// The end of the bot's stderr, shown when something failed.
    pub stderr_tail: String,
    /// The lines exchanged up to the first failure, if one failed.
    pub failed_exchange: String,
    /// What to try, when a move or the start-up ran out of time.
    pub hint: String,
}

impl CheckReport {
    pub fn problems(&self) -> usize {
        self.findings.iter().filter(|f| !f.ok).count()
    }

    /// The report as the terminal shows it. What the bot wrote is shown
    /// with its control characters escaped (`\x1b`): a bot's output never
    /// drives the user's terminal.
    pub fn render(&self) -> String {
        let text = self.render_raw();
        let lines: Vec<String> = text.split('\n').map(harmless).collect();
        lines.join("\n")
    }

    fn render_raw(&self) -> String {
        let mut out = format!("{}\n", self.title);
        for f in &self.findings {
            let _ = writeln!(out, "  {}  {}", if f.ok { "ok  " } else { "FAIL" }, f.text);
        }
        match self.problems() {
            0 => out.push_str("no problems found\n"),
            n => {
                let _ = writeln!(out, "{} found", count(n, "problem"));
                if !self.failed_exchange.is_empty() {
                    let _ = write!(
                        out,
                        "\nthe lines exchanged up to the first failure (> ladder, < bot):\n{}",
                        self.failed_exchange
                    );
                }
                if !self.stderr_tail.is_empty() {
                    let _ = write!(out, "\nthe end of the bot's stderr:\n{}", self.stderr_tail);
                }
                if !self.hint.is_empty() {
                    let _ = writeln!(out, "\nhint: {}", self.hint);
                }
            }
        }
        out
    }
}

/// Checks the bot `command` speaking `protocol` in game `G`, from `start`,
/// over `games` games.
pub fn check<G: Game>(
    start: &G,
    params: &G::Params,
    command: &Command,
    protocol: ProcessProtocol<G>,
    time: &TimeControl,
    games: u32,
) -> Result<CheckReport> {
    let logdir = tempfile::tempdir().map_err(Error::io("creating", std::env::temp_dir()))?;
    let log_path = logdir.path().join("stderr.log");
    let log = Log::open(Some(&log_path)).map_err(Error::io("opening", &log_path))?;
    let mut report = CheckReport {
        title: format!(
            "ladder check: `{}` playing {}, {}",
            command.argv.join(" "),
            start.name(),
            protocol.about
        ),
        findings: Vec::new(),
        stderr_tail: String::new(),
        failed_exchange: String::new(),
        hint: String::new(),
    };
    let launch = Launch {
        command: command.clone(),
        log,
        game: start.name().to_string(),
        params: serde_json::to_value(params).expect("parameters serialize"),
        time: time.clone(),
    };
    // the line protocol's greeting, checked on its own first
    if protocol.persistent && protocol.name == "line" {
        if let Err(exchanged) = handshake(&launch, &mut report.findings) {
            report.stderr_tail = tail(&log_path);
            report.failed_exchange = exchanged;
            return Ok(report);
        }
    }
    let mut bot = (protocol.make)(&launch);
    let referee = Referee {
        time: time.clone(),
        ..Referee::new(Referee::DEFAULT_MAX_PLIES)
    };
    let mut slowest = Duration::ZERO;
    for g in 0..games {
        let seat = if g % 2 == 0 {
            Seat::First
        } else {
            Seat::Second
        };
        let mut random = RandomBot::new();
        let mut timed = Timed {
            inner: &mut *bot,
            slowest: Duration::ZERO,
        };
        // numbered as the findings are
        timed.game_index(u64::from(g) + 1);
        let bots: BySeat<&mut dyn Bot<G>> = match seat {
            Seat::First => BySeat::new(&mut timed, &mut random),
            Seat::Second => BySeat::new(&mut random, &mut timed),
        };
        let played = referee.play(
            start,
            bots,
            bot_seeds(game_seed(1, u64::from(g))),
            &Watch::default(),
        );
        slowest = slowest.max(timed.slowest);
        let played = match played {
            Ok(played) => played,
            Err(aborted) => {
                // not the bot's fault, but the check cannot go on
                report.findings.push(Finding {
                    ok: false,
                    text: format!("game {}: {aborted}", g + 1),
                });
                break;
            }
        };
        let moves = played.turns.iter().filter(|t| t[seat].is_some()).count();
        let moves = count(moves, "move");
        let text = format!("game {} as player {}: ", g + 1, seat.number());
        report.findings.push(match &played.termination {
            Termination::Forfeit {
                seat: s,
                reason,
                detail,
                ..
            } if *s == seat => {
                if *reason == ForfeitReason::Timeout && report.hint.is_empty() {
                    report.hint = timeout_hint(protocol.persistent, time);
                }
                Finding {
                    ok: false,
                    text: format!("{text}forfeit after {moves}: {reason}: {detail}"),
                }
            }
            _ => {
                let result = protocol::over(played.goals, seat);
                let word = result.rsplit(' ').next().unwrap_or("");
                Finding {
                    ok: true,
                    text: format!(
                        "{text}{word} ({} to {}), {moves}",
                        played.goals[seat],
                        played.goals[seat.other()]
                    ),
                }
            }
        });
    }
    let limit = time.move_time.unwrap_or(Duration::MAX);
    // without a game no move was asked for, so none was timed
    if games > 0 {
        report.findings.push(Finding {
            ok: slowest <= limit,
            text: format!(
                "slowest answer {} ms (limit {} ms)",
                slowest.as_millis(),
                time.announced_move_ms()
            ),
        });
    }
    drop(bot);
    if report.problems() > 0 {
        report.stderr_tail = tail(&log_path);
        report.failed_exchange = first_forfeit(&log_path);
    }
    Ok(report)
}

/// What to try after a timeout: a longer move time, which for a program
/// started afresh for every move (HackerRank's way) also pays its start-up.
fn timeout_hint(persistent: bool, time: &TimeControl) -> String {
    let now = time.announced_move_ms();
    let more = (now * 3).max(3000);
    if persistent {
        format!(
            "a slow machine or a slow bot: try a longer move time (--move-time-ms {more}, \
             a config's move_time_ms), or --startup-time-ms for the start-up"
        )
    } else {
        format!(
            "this protocol starts the program afresh for every move, so each move's {now} ms \
             include the interpreter's or runtime's start-up: try --move-time-ms {more} \
             (a config's move_time_ms)"
        )
    }
}

/// The first forfeit's entry in a bot's log: its `[ladder]` line and the
/// exchanged lines under it, indented.
fn first_forfeit(path: &std::path::Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    let mut lines = text.lines().skip_while(|l| !l.starts_with("[ladder] "));
    let Some(head) = lines.next() else {
        return String::new();
    };
    let mut out = format!("  {head}\n");
    for line in lines.take_while(|l| l.starts_with(' ')) {
        let _ = writeln!(out, "  {line}");
    }
    out
}

/// Starts the bot, checks `ready`, then `quit`; records both steps. A
/// failure gives the lines exchanged up to it.
fn handshake(launch: &Launch, findings: &mut Vec<Finding>) -> std::result::Result<(), String> {
    let (command, log): (&Command, &SharedLog) = (&launch.command, &launch.log);
    let start = Instant::now();
    let mut child = match Child::spawn(
        &command.argv,
        command.dir.as_deref(),
        &command.sandbox,
        log,
        true,
    ) {
        Ok(c) => c,
        Err(e) => {
            findings.push(Finding {
                ok: false,
                text: format!("starts: {e}"),
            });
            return Err(String::new());
        }
    };
    let hello = protocol::hello(&launch.game, &launch.time, &launch.params);
    let answer = child
        .send(&hello, start, start + launch.time.startup)
        .and_then(|()| line::answer(&mut child, start, launch.time.startup, "`ready`"))
        .map(|(line, _)| line);
    match answer {
        Ok(line) if protocol::is_ready(&line) => findings.push(Finding {
            ok: true,
            text: format!(
                "answers `{hello}` with `ready` in {} ms",
                start.elapsed().as_millis()
            ),
        }),
        Ok(line) => {
            findings.push(Finding {
                ok: false,
                text: format!("answers the greeting with `{line}`, not `ready`"),
            });
            return Err(child.recent.text());
        }
        Err(e) => {
            let hint = match e {
                BotError::Timeout { .. } => format!(
                    " (start-up limit {} ms; --startup-time-ms sets it): does the bot flush stdout after each line?",
                    launch.time.startup.as_millis()
                ),
                _ => String::new(),
            };
            findings.push(Finding {
                ok: false,
                text: format!("greeting `{hello}`: {e}{hint}"),
            });
            return Err(child.recent.text());
        }
    }
    let now = Instant::now();
    let _ = child.send(protocol::QUIT, now, now + Duration::from_millis(200));
    child.close_stdin();
    let exited = child
        .wait_until(Instant::now() + Duration::from_secs(1))
        .is_some();
    findings.push(Finding {
        ok: exited,
        text: if exited {
            "exits on `quit`".to_string()
        } else {
            "still running 1 s after `quit`".to_string()
        },
    });
    Ok(())
}

/// Wraps a bot to measure its slowest move.
struct Timed<'a, G: Game> {
    inner: &'a mut dyn Bot<G>,
    slowest: Duration,
}

impl<G: Game> Bot<G> for Timed<'_, G> {
    fn new_game(&mut self, game: &G, seat: Seat, seed: u64) -> Result<(), BotError> {
        self.inner.new_game(game, seat, seed)
    }
    fn choose(
        &mut self,
        game: &G,
        seat: Seat,
        time: TimeLeft,
    ) -> Result<Answer<G::Move>, BotError> {
        let start = Instant::now();
        let result = self.inner.choose(game, seat, time);
        self.slowest = self.slowest.max(start.elapsed());
        result
    }
    fn observe(&mut self, game: &G, moves: &BySeat<Option<G::Move>>) -> Result<(), BotError> {
        self.inner.observe(game, moves)
    }
    fn observes(&self) -> bool {
        self.inner.observes()
    }
    fn game_over(&mut self, game: &G, goals: BySeat<i32>) -> Result<(), BotError> {
        self.inner.game_over(game, goals)
    }
    fn keeps_deadlines(&self) -> bool {
        self.inner.keeps_deadlines()
    }
    fn game_index(&mut self, index: u64) {
        self.inner.game_index(index);
    }
    fn forfeited(&mut self, why: &str) {
        self.inner.forfeited(why);
    }
}

/// The last 20 lines the bot wrote to its log (ladder's own forfeit
/// entries, shown apart, left out).
fn tail(path: &std::path::Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    let mut in_entry = false;
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| {
            in_entry = l.starts_with("[ladder] ") || (in_entry && l.starts_with(' '));
            !in_entry
        })
        .collect();
    let start = lines.len().saturating_sub(20);
    lines[start..]
        .iter()
        .map(|l| format!("  {}\n", l.chars().take(160).collect::<String>()))
        .collect()
}
