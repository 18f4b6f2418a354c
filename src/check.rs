//! `ladder check`: a conformance check for bot authors (fastchess's compliance
//! mode, for this project's protocols). It starts the bot, checks the greeting,
//! plays a few games against `random`, checks that `quit` ends the process,
//! and lists every problem with the bot's own words.

use std::{
    fmt::Write as _,
    fs,
    time::{Duration, Instant},
};

use anyhow::Result;

use crate::{
    bot::RandomBot,
    external::{
        self, line,
        process::{Child, Log},
        Command, Limits, Protocol,
    },
    game::Game,
    protocol,
    referee::{play_game, Termination},
    schedule::{bot_seeds, game_seed},
    seat::{BySeat, Seat},
    Bot,
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
}

impl CheckReport {
    pub fn problems(&self) -> usize {
        self.findings.iter().filter(|f| !f.ok).count()
    }

    /// The report as the terminal shows it.
    pub fn render(&self) -> String {
        let mut out = format!("{}\n", self.title);
        for f in &self.findings {
            let _ = writeln!(out, "  {}  {}", if f.ok { "ok  " } else { "FAIL" }, f.text);
        }
        match self.problems() {
            0 => out.push_str("no problems found\n"),
            n => {
                let _ = writeln!(out, "{n} problem{} found", if n == 1 { "" } else { "s" });
                if !self.stderr_tail.is_empty() {
                    let _ = write!(out, "\nthe end of the bot's stderr:\n{}", self.stderr_tail);
                }
            }
        }
        out
    }
}

/// Checks the bot `command` speaking `protocol` in game `G` over `games` games.
pub fn check<G: Game>(
    command: &Command,
    protocol: Protocol,
    limits: &Limits,
    games: u32,
) -> Result<CheckReport> {
    let logdir = tempfile::tempdir()?;
    let log_path = logdir.path().join("stderr.log");
    let log = Log::open(Some(&log_path))?;
    let kind = match protocol {
        Protocol::Line => "line protocol",
        Protocol::Hackerrank => "HackerRank format, one process per move",
    };
    let mut report = CheckReport {
        title: format!(
            "ladder check: `{}` playing {}, {kind}",
            command.argv.join(" "),
            G::NAME
        ),
        findings: Vec::new(),
        stderr_tail: String::new(),
    };
    let params = serde_json::to_value(G::Params::default())?;
    if protocol == Protocol::Line {
        let started = handshake(
            command,
            limits,
            &log,
            &params,
            G::NAME,
            &mut report.findings,
        );
        if !started {
            report.stderr_tail = tail(&log_path);
            return Ok(report);
        }
    }
    let factory = external::factory::<G>(command, protocol, limits, log, &params);
    let mut bot = factory();
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
        let bots: BySeat<&mut dyn Bot<G>> = match seat {
            Seat::First => BySeat::new(&mut timed, &mut random),
            Seat::Second => BySeat::new(&mut random, &mut timed),
        };
        let played = play_game(
            &G::Params::default(),
            bots,
            bot_seeds(game_seed(1, u64::from(g))),
            10_000,
        );
        slowest = slowest.max(timed.slowest);
        let moves = played.turns.iter().filter(|t| t[seat].is_some()).count();
        let text = format!("game {} as player {}: ", g + 1, seat.number());
        report.findings.push(match &played.termination {
            Termination::Forfeit {
                seat: s,
                reason,
                detail,
            } if *s == seat => Finding {
                ok: false,
                text: format!("{text}forfeit after {moves} moves: {reason}: {detail}"),
            },
            _ => {
                let result = protocol::over(played.goals, seat);
                let word = result.rsplit(' ').next().unwrap_or("");
                Finding {
                    ok: true,
                    text: format!(
                        "{text}{word} ({} to {}), {moves} moves",
                        played.goals[seat],
                        played.goals[seat.other()]
                    ),
                }
            }
        });
    }
    report.findings.push(Finding {
        ok: slowest <= limits.move_time,
        text: format!(
            "slowest answer {} ms (limit {} ms)",
            slowest.as_millis(),
            limits.move_time.as_millis()
        ),
    });
    drop(bot);
    if report.problems() > 0 {
        report.stderr_tail = tail(&log_path);
    }
    Ok(report)
}

/// Starts the bot, checks `ready`, then `quit`; records both steps.
fn handshake(
    command: &Command,
    limits: &Limits,
    log: &std::sync::Arc<std::sync::Mutex<Log>>,
    params: &serde_json::Value,
    game: &str,
    findings: &mut Vec<Finding>,
) -> bool {
    let start = Instant::now();
    let mut child = match Child::spawn(&command.argv, command.dir.as_deref(), log, true) {
        Ok(c) => c,
        Err(e) => {
            findings.push(Finding {
                ok: false,
                text: format!("starts: {e}"),
            });
            return false;
        }
    };
    let hello = protocol::hello(game, limits.move_time.as_millis() as u64, params);
    let answer = child
        .send(&hello)
        .and_then(|()| line::answer(&mut child, start + limits.startup_time, "`ready`"));
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
            return false;
        }
        Err(e) => {
            findings.push(Finding {
                ok: false,
                text: format!("greeting `{hello}`: {e}"),
            });
            return false;
        }
    }
    let _ = child.send(protocol::QUIT);
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
    true
}

/// Wraps a bot to measure its slowest move.
struct Timed<'a, G: Game> {
    inner: &'a mut dyn Bot<G>,
    slowest: Duration,
}

impl<G: Game> Bot<G> for Timed<'_, G> {
    fn new_game(&mut self, game: &G, seat: Seat, seed: u64) -> Result<(), crate::BotError> {
        self.inner.new_game(game, seat, seed)
    }
    fn choose(&mut self, game: &G, seat: Seat) -> Result<G::Move, crate::BotError> {
        let start = Instant::now();
        let result = self.inner.choose(game, seat);
        self.slowest = self.slowest.max(start.elapsed());
        result
    }
    fn observe(
        &mut self,
        game: &G,
        moves: &BySeat<Option<G::Move>>,
    ) -> Result<(), crate::BotError> {
        self.inner.observe(game, moves)
    }
    fn game_over(&mut self, game: &G, goals: BySeat<i32>) {
        self.inner.game_over(game, goals)
    }
}

/// The last 20 lines of a log.
fn tail(path: &std::path::Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(20);
    lines[start..]
        .iter()
        .map(|l| format!("  {}\n", l.chars().take(160).collect::<String>()))
        .collect()
}
