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

use std::time::Instant;

use super::{Bid, Bidding};
use crate::{
    core::{
        bot::{Answer, BadOutput, Bot, BotError, Crash, Exit},
        clock::TimeLeft,
        seat::{BySeat, Seat},
    },
    external::{
        line::shorten,
        process::{cleanup::WorkDir, Child, SharedLog},
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
}

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
        }
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
        let deadline = started + time.limit;
        let dir = self.workdir.as_ref().map(|d| d.path().to_path_buf());
        let mut child = Child::spawn(
            &self.command.argv,
            dir.as_deref(),
            &self.command.sandbox,
            &self.log,
            false,
        )?;
        child.recent.game = self.game;
        let input = self.input(game, seat);
        // a program may answer without reading its input and be gone before
        // ladder writes it: what it printed still counts
        let _ = child.send_text(&input, deadline);
        child.close_stdin();
        let answer = match child.recv(started, time.limit, "bid") {
            Err(BotError::Crash(Crash::Ended {
                exit: Some(Exit::Code(0)),
                ..
            })) => Err(BotError::BadOutput(BadOutput::NoBid)),
            other => other,
        };
        self.last = child.recent.text();
        let line = answer?;
        let bid = line
            .trim()
            .parse::<u32>()
            .map_err(|_| BotError::BadOutput(BadOutput::NotABid(shorten(line.trim()))))?;
        // let it exit by itself; whatever is left at the deadline is killed on drop
        child.finish(deadline);
        Ok(Answer::from(Bid(bid)))
    }

    fn game_index(&mut self, index: u64) {
        self.game = Some(index);
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
