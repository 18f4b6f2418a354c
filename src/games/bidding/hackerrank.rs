//! Unmodified HackerRank "The Bidding Game" bots: one process per move.
//!
//! For every move ladder starts the program afresh in the bot's own working
//! directory (a fresh one per game, kept for the whole game, since some bots
//! keep state in files) and writes four lines to its stdin, then closes it:
//!
//! ```text
//! 1                 the bot's player id (1 or 2)
//! 5                 the bottle's position, 0..10; player 1 wants 0
//! 20 17             player 1's earlier bids, space-separated (empty at first)
//! 21 17             player 2's earlier bids
//! ```
//!
//! It reads one integer from stdout (a line end is optional). Anything else,
//! no answer in time, or a bid the rules forbid, forfeits the game.
//!
//! In the bwrap sandbox one sandbox serves the whole game: ladder starts
//! its move host inside it, which starts each move's process there and ends
//! whatever that process left running ([`move_host`]); a sandbox a move
//! cost several times the move.

use std::{
    path::Path,
    time::{Duration, Instant},
};

use super::{Bid, Bidding};
use crate::{
    core::{
        bot::{Answer, BadOutput, Bot, BotError, Crash, Exit},
        clock::TimeLeft,
        seat::{BySeat, Seat},
    },
    external::{
        line::shorten,
        process::{
            child,
            cleanup::WorkDir,
            exec,
            move_host::{self, Reply, Request},
            Child, Limits, Sandbox, SharedLog, MAX_LINE,
        },
        Command, Launch, ProcessProtocol,
    },
};

/// The protocol as a season names it: `protocol = "hackerrank"`.
pub const HACKERRANK: ProcessProtocol<Bidding> = ProcessProtocol {
    name: "hackerrank",
    about: "the HackerRank format of the bidding game: one process per move, four lines in, one bid out",
    own_dir: true,
    persistent: false,
    make: |launch| Box::new(HackerRankBot::new(launch)),
};

/// A HackerRank-style bidding bot.
pub struct HackerRankBot {
    command: Command,
    log: SharedLog,
    workdir: Option<WorkDir>,
    bids: BySeat<Vec<u32>>,
    /// The game being played (its index in the schedule), for logs.
    game: Option<u64>,
    /// The lines exchanged with the last move's process, for a forfeit's log entry.
    last: String,
    /// Under bwrap, the game's sandbox with its move host.
    host: Option<Child>,
}

/// How long past a move's limit ladder waits for the move host, which
/// answers at the limit when the program did not.
const HOST_GRACE: Duration = Duration::from_millis(500);

impl HackerRankBot {
    /// `launch.command` must not depend on its working directory: every path
    /// in it is made absolute when the config is read ([`ProcessProtocol::own_dir`]).
    pub fn new(launch: &Launch) -> Self {
        HackerRankBot {
            command: launch.command.clone(),
            log: launch.log.clone(),
            workdir: None,
            bids: BySeat::default(),
            game: None,
            last: String::new(),
            host: None,
        }
    }

    /// The game's sandbox with its move host in `dir`, where bots run in
    /// bwrap and ladder's binary can host them; `None` otherwise.
    fn start_host(&self, dir: &Path) -> Result<Option<Child>, BotError> {
        let sandbox = &self.command.sandbox;
        let exe = exec::helper().filter(|exe| exe.is_absolute());
        let (Some(exe), Some(_)) = (exe, &sandbox.bwrap) else {
            return Ok(None);
        };
        // the limits are the program's, set by the host as it starts it
        let outer = Sandbox {
            limits: Limits::default(),
            ..sandbox.clone()
        };
        let mut argv = vec![exe.to_string_lossy().into_owned()];
        argv.extend(move_host::host_args(sandbox.limits, &self.command.argv));
        let mut host = Child::spawn(&argv, Some(dir), &outer, &self.log, false)?;
        host.record = false;
        Ok(Some(host))
    }

    /// The first line of the program's answer to `input`, by the move host.
    fn answer_in_host(
        &mut self,
        input: &str,
        started: Instant,
        limit: Duration,
    ) -> Result<String, BotError> {
        let host = self.host.as_mut().expect("a move host");
        for line in input.lines() {
            host.recent.push('>', line);
        }
        let request = Request {
            ms: limit.saturating_sub(started.elapsed()).as_millis() as u64,
            input: input.to_string(),
        };
        let request = serde_json::to_string(&request).expect("a request is JSON");
        host.send(&request, Instant::now(), started + limit + HOST_GRACE)?;
        let (reply, _) = host
            .recv(started, limit + HOST_GRACE, "bid")
            .inspect_err(|_| {
                host.recent
                    .push('<', "(the sandbox's move host did not answer)");
            })?;
        // the bot shares the sandbox with its host and may write here too
        let reply: Reply = serde_json::from_str(&reply)
            .map_err(|_| BotError::BadOutput(BadOutput::NotABid(shorten(&reply))))?;
        match reply {
            Reply::Line(line) => {
                host.recent.push('<', &line);
                Ok(line)
            }
            Reply::Ended { code, signal } => {
                host.recent.push('<', "(output closed)");
                let exit = match (code, signal) {
                    (Some(code), _) => Some(Exit::Code(code)),
                    (None, Some(signal)) => Some(Exit::Signal(signal)),
                    (None, None) => None,
                };
                Err(child::ended(
                    self.command.argv.join(" "),
                    exit,
                    "while ladder waited for its bid",
                    &self.command.sandbox.limits.describe(),
                ))
            }
            Reply::Timeout => {
                let waited = started.elapsed();
                host.recent
                    .push('<', &format!("(no bid after {} ms)", waited.as_millis()));
                Err(BotError::Timeout {
                    waiting_for: "bid".to_string(),
                    waited,
                })
            }
            Reply::TooLong => {
                host.recent
                    .push('<', &format!("(a line longer than {MAX_LINE} bytes)"));
                Err(child::too_long())
            }
        }
    }

    /// The first line of the program's answer to `input`, from a process of
    /// its own (no sandbox, or no ladder binary to host it).
    fn answer_alone(
        &mut self,
        input: &str,
        started: Instant,
        limit: Duration,
    ) -> Result<(String, Child), BotError> {
        let deadline = started + limit;
        let dir = self.workdir.as_ref().map(|d| d.path().to_path_buf());
        let mut child = Child::spawn(
            &self.command.argv,
            dir.as_deref(),
            &self.command.sandbox,
            &self.log,
            false,
        )?;
        child.recent.game = self.game;
        // a program may answer without reading its input and be gone before
        // ladder writes it: what it printed still counts
        let _ = child.send_text(input, Instant::now(), deadline);
        child.close_stdin();
        let answer = child.recv(started, limit, "bid");
        self.last = child.recent.text();
        Ok((answer?.0, child))
    }

    /// The four input lines for `seat` in `game`.
    pub fn input(&self, game: &Bidding, seat: Seat) -> String {
        let list = |bids: &[u32]| {
            bids.iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "{}\n{}\n{}\n{}\n",
            seat.number(),
            game.position,
            list(&self.bids.first),
            list(&self.bids.second)
        )
    }
}

impl Bot<Bidding> for HackerRankBot {
    fn new_game(&mut self, _: &Bidding, _: Seat, _: u64) -> Result<(), BotError> {
        self.bids = BySeat::default();
        let dir = WorkDir::new("hackerrank").map_err(|e| {
            BotError::Harness(format!(
                "cannot make the bot's working folder in {}: {e}",
                std::env::temp_dir().display()
            ))
        })?;
        self.host = None;
        self.host = self.start_host(dir.path())?;
        if let Some(host) = &mut self.host {
            host.recent.game = self.game;
        }
        self.workdir = Some(dir);
        Ok(())
    }

    fn choose(
        &mut self,
        game: &Bidding,
        seat: Seat,
        time: TimeLeft,
    ) -> Result<Answer<Bid>, BotError> {
        let started = Instant::now();
        let input = self.input(game, seat);
        let (answer, child) = if self.host.is_some() {
            let answer = self.answer_in_host(&input, started, time.limit);
            if let Some(host) = &self.host {
                self.last = host.recent.text();
            }
            (answer, None)
        } else {
            match self.answer_alone(&input, started, time.limit) {
                Ok((line, child)) => (Ok(line), Some(child)),
                Err(e) => (Err(e), None),
            }
        };
        let line = match answer {
            Err(BotError::Crash(Crash::Ended {
                exit: Some(Exit::Code(0)),
                ..
            })) => Err(BotError::BadOutput(BadOutput::NoBid)),
            other => other,
        }?;
        let bid = line
            .trim()
            .parse::<u32>()
            .map_err(|_| BotError::BadOutput(BadOutput::NotABid(shorten(line.trim()))))?;
        // let it exit by itself; whatever is left at the deadline is killed
        // on drop (the move host has done both already)
        if let Some(mut child) = child {
            child.finish(started + time.limit);
        }
        Ok(Answer::from(Bid(bid)))
    }

    fn game_index(&mut self, index: u64) {
        self.game = Some(index);
        if let Some(host) = &mut self.host {
            host.recent.game = Some(index);
        }
    }

    fn forfeited(&mut self, why: &str) {
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .note_forfeit(self.game, why, &self.last);
    }

    fn observe(&mut self, _: &Bidding, moves: &BySeat<Option<Bid>>) -> Result<(), BotError> {
        for seat in Seat::ALL {
            if let Some(Bid(b)) = moves[seat] {
                self.bids[seat].push(b);
            }
        }
        Ok(())
    }

    fn game_over(&mut self, _: &Bidding, _: BySeat<i32>) -> Result<(), BotError> {
        // the sandbox takes a millisecond or two to end: not the game's time
        if let Some(host) = self.host.take() {
            std::thread::spawn(move || drop(host));
        }
        self.workdir = None;
        Ok(())
    }

    fn keeps_deadlines(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        core::clock::TimeControl, external::process::Log, games::bidding::BiddingParams, Game,
    };

    #[test]
    fn input_lines() {
        let mut bot = HackerRankBot::new(&Launch {
            command: Command {
                argv: vec!["true".into()],
                dir: None,
                sandbox: Default::default(),
                url: None,
            },
            log: Log::open(None).unwrap(),
            game: "bidding".into(),
            params: serde_json::Value::Null,
            time: TimeControl::default(),
        });
        let mut game = Bidding::new(&BiddingParams::default()).unwrap();
        assert_eq!(bot.input(&game, Seat::First), "1\n5\n\n\n");
        let round = BySeat::new(Some(Bid(20)), Some(Bid(21)));
        game.apply(&round);
        bot.observe(&game, &round).unwrap();
        let round = BySeat::new(Some(Bid(17)), Some(Bid(17)));
        game.apply(&round);
        bot.observe(&game, &round).unwrap();
        assert_eq!(bot.input(&game, Seat::Second), "2\n5\n20 17\n21 17\n");
    }
}
