//! General Game Playing players over HTTP, unmodified: ladder is their game
//! manager (`protocol = "ggp"`, docs/GDL.md).
//!
//! The protocol, as ggp-base's game server and the GGP competitions speak
//! it: the manager POSTs one message per request, with `Content-Type:
//! text/acl`, and the player answers in the response's body.
//!
//! - `(INFO)`: any answer (`available`) says the player is up; ladder asks
//!   it until a started player listens.
//! - `(START id role (description...) startclock playclock)`: `ready`
//!   within the start clock (ladder's start-up time, in whole seconds).
//! - `(PLAY id nil)` for the first turn, then `(PLAY id (m1 m2))` with the
//!   turn before's moves in role order (`noop` for a waiting role): a move
//!   in KIF within the play clock (the move time, in whole seconds). A
//!   player is asked every turn, as GGP does, also when its only move is
//!   `noop`; that answer is not used.
//! - `(STOP id (m1 m2))` after the last turn of a game that reached a
//!   terminal state: `done`. A game that ends otherwise (a forfeit, the ply
//!   cap, adjudication) gets `(ABORT id)` instead: `aborted`.
//!
//! A player is a command (started by ladder, with the port it must serve
//! in place of `{port}` in its arguments and in `GGP_PORT`; one process
//! plays every game of a pairing, each a match of its own) or the URL of a
//! player already running. Late answers are timeouts, answers that are not
//! a legal move illegal moves, and a connection closed or refused a crash:
//! each a named forfeit, as for every other bot.
//!
//! GGP plays GDL, so a game takes part through a [`Twin`]: its GDL
//! description and how its moves are written there. The `gdl` game is its
//! own twin; the five native games send their shipped twins in
//! `games/gdl/` (for the default parameters, which those describe).

use std::{
    io::Read,
    net::TcpListener,
    time::{Duration, Instant},
};

use super::{
    line::shorten,
    process::{io_log::Recent, Child, SharedLog},
    Command, Launch, ProcessProtocol,
};
use crate::core::{
    bot::{Answer, BadOutput, Bot, BotError, Crash},
    clock::{TimeControl, TimeLeft},
    game::Game,
    seat::{BySeat, Seat},
};

/// The longest answer ladder reads from a player.
const MAX_ANSWER: u64 = 64 * 1024;

/// How a game is played by a GGP player: through a GDL description.
pub struct Twin<G: Game> {
    /// The description for a season's parameters (as JSON), or why there
    /// is none for them.
    pub description: fn(&serde_json::Value) -> Result<String, String>,
    /// A move as the description writes it, e.g. `(move 2 2 3 3)`.
    pub kif: fn(&G::Move) -> String,
}

/// The `ggp` protocol, its bots made by `make` (a game's
/// `|launch| ggp::player(launch, &TWIN)`).
pub const fn protocol<G: Game>(make: fn(&Launch) -> Box<dyn Bot<G>>) -> ProcessProtocol<G> {
    ProcessProtocol {
        name: "ggp",
        about: "a General Game Playing player over HTTP (docs/GDL.md): a command serving {port}, or url = \"http://host:port\"",
        own_dir: false,
        persistent: true,
        make,
    }
}

/// A GGP player of game `G`, through `twin`.
pub fn player<G: Game>(launch: &Launch, twin: &'static Twin<G>) -> Box<dyn Bot<G>> {
    Box::new(GgpBot::new(launch, twin))
}

/// A native game's twin `text`, which describes the game's default
/// parameters: the description, or why a season with others has none.
pub fn default_only<P: Default + serde::Serialize>(
    params: &serde_json::Value,
    text: &str,
) -> Result<String, String> {
    let default = serde_json::to_value(P::default()).map_err(|e| e.to_string())?;
    if *params == default {
        Ok(text.to_string())
    } else {
        Err(format!(
            "a GGP player plays this game through its GDL twin, which describes the default parameters {default} only, not {params}"
        ))
    }
}

/// The tokens of KIF text: `(`, `)` and atoms, comments (`;` to the end of
/// the line) left out.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split(';').next().unwrap_or("");
        let mut rest = line;
        while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
            rest = &rest[start..];
            if rest.starts_with('(') || rest.starts_with(')') {
                out.push(&rest[..1]);
                rest = &rest[1..];
            } else {
                let end = rest
                    .find(|c: char| c.is_whitespace() || c == '(' || c == ')')
                    .unwrap_or(rest.len());
                out.push(&rest[..end]);
                rest = &rest[end..];
            }
        }
    }
    out
}

/// KIF text in normal form, as ladder writes moves: lower case, on one
/// line, one space between items and none inside parentheses.
pub fn normal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for token in tokens(text) {
        if !(out.is_empty() || out.ends_with('(') || token == ")") {
            out.push(' ');
        }
        out.push_str(&token.to_lowercase());
    }
    out
}

/// The roles of a description, in the order written (`(role R)` at the top).
fn roles(description: &str) -> Vec<String> {
    let t = tokens(description);
    let mut depth = 0usize;
    let mut roles = Vec::new();
    for (i, token) in t.iter().enumerate() {
        match *token {
            "(" => {
                if depth == 0 && t.get(i + 1).is_some_and(|s| s.eq_ignore_ascii_case("role")) {
                    if let (Some(r), Some(&")")) = (t.get(i + 2), t.get(i + 3)) {
                        roles.push(r.to_lowercase());
                    }
                }
                depth += 1;
            }
            ")" => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    roles
}

/// A description ready to send: in one line, with its two roles.
struct Described {
    text: String,
    roles: [String; 2],
}

impl Described {
    fn new(description: &str) -> Result<Described, String> {
        let roles = roles(description);
        let [first, second] = <[String; 2]>::try_from(roles.clone()).map_err(|_| {
            format!(
                "a GGP player needs a description of two roles; this one has {:?}",
                roles
            )
        })?;
        Ok(Described {
            text: format!("({})", normal(description)),
            roles: [first, second],
        })
    }
}

/// What `(PLAY ...)` and `(STOP ...)` carry: the turn before's moves.
fn moves_text(last: &Option<[String; 2]>) -> String {
    match last {
        None => "nil".to_string(),
        Some([a, b]) => format!("({a} {b})"),
    }
}

/// Whole seconds of `d`, at least 1: GGP's clocks.
fn clock_seconds(d: Duration) -> u64 {
    d.as_secs().max(1)
}

/// A GGP player: a process ladder starts, or a URL.
pub struct GgpBot<G: Game> {
    twin: &'static Twin<G>,
    command: Command,
    log: SharedLog,
    time: TimeControl,
    /// The description and roles, or why the season has none.
    rules: Result<Described, String>,
    agent: ureq::Agent,
    /// The process, for a player ladder starts.
    child: Option<Child>,
    /// Where the player listens.
    url: String,
    recent: Recent,
    seat: Seat,
    game: Option<u64>,
    /// The match in progress, if any.
    id: Option<String>,
    /// The turn before's moves; `None` before the first turn.
    last: Option<[String; 2]>,
    /// Whether the player has been asked for this turn's move.
    asked: bool,
    /// The exchanges before the last failure, for the forfeit's log entry.
    failed: Option<String>,
    /// Why the start before this game ([`Bot::prepare`]) failed.
    start_failed: Option<BotError>,
}

impl<G: Game> GgpBot<G> {
    pub fn new(launch: &Launch, twin: &'static Twin<G>) -> Self {
        let rules = (twin.description)(&launch.params).and_then(|d| Described::new(&d));
        // straight to the player, as ggp-base's manager goes: never through
        // a proxy the environment names (`http_proxy` would send a loopback
        // player's messages elsewhere), never after a redirect (a player
        // could have ladder fetch any address and log what it got)
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_idle_connections(0)
            .proxy(None)
            .max_redirects(0)
            .build()
            .into();
        let recent = {
            let log = launch.log.lock().unwrap_or_else(|e| e.into_inner());
            Recent::new(&log.name, log.io.as_ref())
        };
        GgpBot {
            twin,
            command: launch.command.clone(),
            log: launch.log.clone(),
            time: launch.time.clone(),
            rules,
            agent,
            child: None,
            url: launch.command.url.clone().unwrap_or_default(),
            recent,
            seat: Seat::First,
            game: None,
            id: None,
            last: None,
            asked: false,
            failed: None,
            start_failed: None,
        }
    }

    /// What the player is called in messages: its command or its URL.
    fn label(&self) -> String {
        match &self.command.url {
            Some(url) => url.clone(),
            None => self.command.argv.join(" "),
        }
    }

    /// Whether the player must be started (or reached) before a game.
    fn down(&self) -> bool {
        self.command.url.is_none() && self.child.is_none()
    }

    /// Starts the player's process on a free port and waits until it
    /// answers `(INFO)`, within the start-up time.
    fn start(&mut self) -> Result<(), BotError> {
        let port = free_port()?;
        let port_text = port.to_string();
        let argv: Vec<String> = self
            .command
            .argv
            .iter()
            .map(|a| a.replace("{port}", &port_text))
            .collect();
        let mut sandbox = self.command.sandbox.clone();
        sandbox.env.insert("GGP_PORT".to_string(), port_text);
        let child = Child::spawn(
            &argv,
            self.command.dir.as_deref(),
            &sandbox,
            &self.log,
            true,
        )?;
        child.drain_stdout(&self.log);
        self.child = Some(child);
        self.url = format!("http://127.0.0.1:{port}/");
        let started = Instant::now();
        let limit = self.time.startup;
        loop {
            let left = limit.saturating_sub(started.elapsed());
            match self.post("(INFO)", left.min(Duration::from_millis(500)), "INFO") {
                Ok(_) => return Ok(()),
                Err(e @ BotError::Crash(Crash::Ended { .. })) => return Err(e),
                Err(e) if started.elapsed() >= limit => {
                    return Err(match e {
                        BotError::Timeout { .. } | BotError::Crash(Crash::Connection { .. }) => {
                            BotError::Timeout {
                                waiting_for: format!("answer to (INFO) on port {port}"),
                                waited: started.elapsed(),
                            }
                        }
                        other => other,
                    })
                }
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }

    /// Sends `message` and reads the answer within `limit`: the answer's
    /// body, trimmed. `what` names the message in errors.
    fn post(&mut self, message: &str, limit: Duration, what: &str) -> Result<String, BotError> {
        self.recent.push('>', message);
        let started = Instant::now();
        let sent = self
            .agent
            .post(&self.url)
            .header("Content-Type", "text/acl")
            .config()
            .timeout_global(Some(limit))
            .build()
            .send(message);
        let failed = |bot: &mut Self, e: ureq::Error| -> BotError {
            if matches!(e, ureq::Error::Timeout(_)) {
                let waited = started.elapsed();
                bot.recent.push(
                    '<',
                    &format!("(no answer to {what} after {} ms)", waited.as_millis()),
                );
                return BotError::Timeout {
                    waiting_for: format!("answer to {what}"),
                    waited,
                };
            }
            bot.recent.push('<', &format!("({e})"));
            if let Some(exit) = bot
                .child
                .as_mut()
                .and_then(|c| c.wait_until(Instant::now() + Duration::from_millis(50)))
            {
                return BotError::Crash(Crash::Ended {
                    command: bot.label(),
                    exit: Some(exit),
                    during: format!("while ladder waited for its answer to {what}"),
                });
            }
            BotError::Crash(Crash::Connection {
                player: bot.label(),
                error: e.to_string(),
                during: format!("while ladder waited for its answer to {what}"),
            })
        };
        let mut response = match sent {
            Ok(r) => r,
            Err(e) => return Err(failed(self, e)),
        };
        let status = response.status();
        let mut bytes = Vec::new();
        let read = response
            .body_mut()
            .as_reader()
            .take(MAX_ANSWER)
            .read_to_end(&mut bytes);
        if let Err(e) = read {
            let e = match e.downcast::<ureq::Error>() {
                Ok(e) => e,
                Err(io) => ureq::Error::Io(io),
            };
            return Err(failed(self, e));
        }
        // bytes that are not UTF-8 are the answer's, as a line program's are:
        // a move that is no move, not a broken connection
        let body = String::from_utf8_lossy(&bytes).trim().to_string();
        self.recent.push('<', &body);
        if !status.is_success() {
            return Err(BotError::BadOutput(BadOutput::Http {
                status: status.as_u16(),
                what: what.to_string(),
            }));
        }
        Ok(body)
    }

    /// Runs `step`; on failure the process (if ladder started it) is
    /// ended, so the next game starts afresh, and a URL player hears
    /// `(ABORT id)`.
    fn guard<T>(
        &mut self,
        step: impl FnOnce(&mut Self) -> Result<T, BotError>,
    ) -> Result<T, BotError> {
        let result = step(self);
        if result.is_err() {
            self.failed = Some(self.recent.text());
            if self.child.take().is_none() {
                self.abort(self.time.startup);
            }
        }
        result
    }

    /// Tells the player the match is over without a result.
    fn abort(&mut self, limit: Duration) {
        if let Some(id) = self.id.take() {
            let message = format!("(ABORT {id})");
            let _ = self.post(&message, limit, "ABORT");
        }
    }

    /// The play clock's limit for an answer ladder does not use (a
    /// waiting role's `noop`).
    fn play_limit(&self) -> Duration {
        self.time.move_time.unwrap_or(self.time.startup) + self.time.margin
    }

    /// `(PLAY id moves)`, answered within `limit`.
    fn play(&mut self, limit: Duration) -> Result<String, BotError> {
        let id = self.id.clone().unwrap_or_default();
        let message = format!("(PLAY {id} {})", moves_text(&self.last));
        self.post(&message, limit, "PLAY")
    }
}

/// A port nobody listens on now, for a player to serve.
fn free_port() -> Result<u16, BotError> {
    TcpListener::bind(("127.0.0.1", 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| BotError::Harness(format!("no free port for a GGP player: {e}")))
}

impl<G: Game> Bot<G> for GgpBot<G> {
    fn new_game(&mut self, _game: &G, seat: Seat, seed: u64) -> Result<(), BotError> {
        self.seat = seat;
        self.last = None;
        self.asked = false;
        if let Some(e) = self.start_failed.take() {
            return Err(e);
        }
        let description = match &self.rules {
            Ok(d) => d,
            Err(why) => return Err(BotError::Crash(Crash::Unplayable(why.clone()))),
        };
        let Some(move_time) = self.time.move_time else {
            return Err(BotError::Crash(Crash::Unplayable(
                "a GGP player needs move_time_ms: GGP gives a play clock per move, not a game clock".to_string(),
            )));
        };
        let id = format!("ladder.{}.{}", self.game.unwrap_or(seed), seat.number());
        let message = format!(
            "(START {id} {} {} {} {})",
            description.roles[seat.index()],
            description.text,
            clock_seconds(self.time.startup),
            clock_seconds(move_time)
        );
        let limit = self.time.startup;
        self.guard(|bot| {
            if bot.down() {
                bot.start()?;
            }
            bot.id = Some(id);
            let answer = bot.post(&message, limit, "START")?;
            if answer.eq_ignore_ascii_case("ready") {
                Ok(())
            } else {
                Err(BotError::BadOutput(BadOutput::NotReady(shorten(&answer))))
            }
        })
    }

    fn choose(
        &mut self,
        game: &G,
        seat: Seat,
        time: TimeLeft,
    ) -> Result<Answer<G::Move>, BotError> {
        let kif = self.twin.kif;
        self.guard(|bot| {
            bot.asked = true;
            let started = Instant::now();
            let answer = bot.play(time.limit)?;
            let spent = Some(started.elapsed());
            let said = normal(&answer);
            if said.is_empty() {
                return Err(BotError::BadOutput(BadOutput::NotAMove {
                    text: String::new(),
                    form: "a move in KIF, e.g. `(mark 1 1)` or `noop`".to_string(),
                }));
            }
            match game.legal_moves(seat).into_iter().find(|m| kif(m) == said) {
                Some(mv) => Ok(Answer {
                    mv,
                    score: None,
                    spent,
                }),
                None => Err(BotError::Illegal(shorten(&said))),
            }
        })
    }

    fn observe(&mut self, _game: &G, moves: &BySeat<Option<G::Move>>) -> Result<(), BotError> {
        let kif = self.twin.kif;
        let limit = self.play_limit();
        self.guard(|bot| {
            if !bot.asked {
                // GGP asks every role every turn: the waiting role's `noop`
                bot.play(limit)?;
            }
            bot.asked = false;
            let text = |m: &Option<G::Move>| m.as_ref().map_or("noop".to_string(), kif);
            bot.last = Some([text(&moves.first), text(&moves.second)]);
            Ok(())
        })
    }

    fn game_over(&mut self, game: &G, _goals: BySeat<i32>) -> Result<(), BotError> {
        if self.id.is_none() {
            return Ok(());
        }
        if game.outcome().is_none() {
            // ended by a forfeit, the ply cap or adjudication, not the rules
            self.abort(self.time.startup);
            return Ok(());
        }
        let limit = self.time.startup;
        self.guard(|bot| {
            let id = bot.id.take().unwrap_or_default();
            let message = format!("(STOP {id} {})", moves_text(&bot.last));
            bot.post(&message, limit, "STOP").map(|_| ())
        })
    }

    fn keeps_deadlines(&self) -> bool {
        true
    }

    fn needs_start(&self) -> bool {
        self.down()
    }

    fn prepare(&mut self) {
        if self.down() {
            self.start_failed = self.guard(GgpBot::start).err();
        }
    }

    fn game_index(&mut self, index: u64) {
        self.game = Some(index);
        self.failed = None;
        self.recent.game = Some(index);
    }

    fn forfeited(&mut self, why: &str) {
        let recent = self.failed.take().unwrap_or_else(|| self.recent.text());
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .note_forfeit(self.game, why, &recent);
    }
}

impl<G: Game> Drop for GgpBot<G> {
    /// A match left open is aborted; a started process is ended with its group.
    fn drop(&mut self) {
        self.abort(Duration::from_millis(200));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kif_is_normalised_as_ladder_writes_moves() {
        assert_eq!(normal("( MOVE 1  1\n 2 2 )"), "(move 1 1 2 2)");
        assert_eq!(normal("noop"), "noop");
        assert_eq!(normal("  ((a) (b c)) ; note"), "((a) (b c))");
    }

    #[test]
    fn roles_are_read_in_order_from_the_top_level_only() {
        let d = "; two roles\n(role white)\n(ROLE black)\n(<= (foo ?x) (role ?x))";
        assert_eq!(roles(d), ["white", "black"]);
        let described = Described::new(d).unwrap();
        assert_eq!(
            described.text,
            "((role white) (role black) (<= (foo ?x) (role ?x)))"
        );
        assert!(Described::new("(role a)").is_err());
    }

    #[test]
    fn clocks_are_whole_seconds_and_at_least_one() {
        assert_eq!(clock_seconds(Duration::from_millis(999)), 1);
        assert_eq!(clock_seconds(Duration::from_millis(2500)), 2);
        assert_eq!(moves_text(&None), "nil");
        assert_eq!(
            moves_text(&Some(["(mark 1 1)".into(), "noop".into()])),
            "((mark 1 1) noop)"
        );
    }
}
