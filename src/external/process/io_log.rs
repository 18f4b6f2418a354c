//! What ladder and a bot program said to each other, line by line.
//!
//! Every process keeps its last [`RECENT`] lines in a small ring
//! ([`Recent`]), always: when the bot forfeits, they go into its log
//! (`logs/<bot>.log`), so a failure can be read without having asked for a
//! log in advance. An [`IoLog`] (`--log FILE` for every bot, `--log -` on
//! stderr, or `log = true` for one) receives every line as it passes, with the time since ladder
//! started, the game's index in the schedule and the bot's name:
//!
//! ```text
//!    0.004512 game 3 mybot > turn position 5 money 100 100 advantage 1
//!    0.004907 game 3 mybot < 12
//! ```
//!
//! `>` is what ladder sent, `<` what the bot wrote. With `errors` only the
//! lines before each forfeit reach the log. When no log is open, a line costs
//! one copy into a ring buffer whose strings are reused.

use std::{
    collections::VecDeque,
    fs::{File, OpenOptions},
    io::{self, BufWriter, Write},
    os::fd::AsFd,
    path::Path,
    sync::{Arc, Mutex, OnceLock},
    time::{Duration, Instant},
};

use crate::core::files;

/// Lines a process keeps for a forfeit's report.
pub const RECENT: usize = 12;

/// When ladder started: every log's clock.
fn epoch() -> Instant {
    static START: OnceLock<Instant> = OnceLock::new();
    *START.get_or_init(Instant::now)
}

/// Which lines an [`IoLog`] receives.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Level {
    /// Every line, as it passes.
    #[default]
    All,
    /// Only the lines before each forfeit.
    Errors,
}

/// A file of exchanged lines, shared by the bots that write to it.
pub struct IoLog {
    out: BufWriter<File>,
    pub level: Level,
}

/// An I/O log shared by bots and their processes.
pub type SharedIoLog = Arc<Mutex<IoLog>>;

impl IoLog {
    /// Opens (appending) the log at `path`; `-` is ladder's stderr
    /// ([`files::is_standard_stream`]).
    pub fn open(path: &Path, level: Level) -> io::Result<SharedIoLog> {
        epoch();
        let file = if files::is_standard_stream(path) {
            File::from(io::stderr().as_fd().try_clone_to_owned()?)
        } else {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)?;
            }
            OpenOptions::new().create(true).append(true).open(path)?
        };
        Ok(Arc::new(Mutex::new(IoLog {
            out: BufWriter::new(file),
            level,
        })))
    }

    /// Writes `text` and flushes, so a log is complete even if ladder is killed.
    pub fn write(&mut self, text: &str) {
        let _ = self.out.write_all(text.as_bytes());
        let _ = self.out.flush();
    }
}

/// How long after ladder started `at` is, as the logs show it.
fn since_epoch(at: Instant) -> Duration {
    at.saturating_duration_since(epoch())
}

/// One line as a log shows it: `   0.004512 game 3 mybot > turn ...`.
pub fn format_line(at: Duration, game: Option<u64>, bot: &str, dir: char, line: &str) -> String {
    let game = game.map_or(String::new(), |g| format!("game {g} "));
    format!("{:>11.6} {game}{bot} {dir} {line}\n", at.as_secs_f64())
}

/// The last lines of one process, and where every line goes if a log is open.
pub struct Recent {
    /// Each line with its time and the game it was exchanged in (a ring
    /// holds the end of the game before too).
    lines: VecDeque<(Instant, Option<u64>, char, String)>,
    /// The bot's name in log lines.
    pub bot: String,
    /// The game being played (its index in the schedule), once known.
    pub game: Option<u64>,
    /// The log that receives every line (`Level::All` only).
    every_line: Option<SharedIoLog>,
}

impl Recent {
    /// A ring for bot `bot`; `log` receives every line if its level is `All`.
    pub fn new(bot: &str, log: Option<&SharedIoLog>) -> Self {
        // the logs' clock starts before the first line it times
        epoch();
        let every_line = log
            .filter(|l| l.lock().unwrap_or_else(|e| e.into_inner()).level == Level::All)
            .cloned();
        Recent {
            lines: VecDeque::with_capacity(RECENT),
            bot: bot.to_string(),
            game: None,
            every_line,
        }
    }

    /// Records one line: `>` sent, `<` received.
    pub fn push(&mut self, dir: char, line: &str) {
        self.push_at(dir, line, Instant::now());
    }

    /// Records one line exchanged at `at` (a time the caller has read
    /// anyway: a move reads the clock twice, not once more per line).
    pub fn push_at(&mut self, dir: char, line: &str, at: Instant) {
        let mut text = if self.lines.len() == RECENT {
            self.lines
                .pop_front()
                .map(|(_, _, _, s)| s)
                .unwrap_or_default()
        } else {
            String::new()
        };
        text.clear();
        text.push_str(line);
        if let Some(log) = &self.every_line {
            let entry = format_line(since_epoch(at), self.game, &self.bot, dir, line);
            log.lock().unwrap_or_else(|e| e.into_inner()).write(&entry);
        }
        self.lines.push_back((at, self.game, dir, text));
    }

    /// The last lines, oldest first, as a log shows them.
    pub fn text(&self) -> String {
        self.lines
            .iter()
            .map(|(at, game, dir, line)| {
                format_line(since_epoch(*at), *game, &self.bot, *dir, line)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ring_keeps_the_last_lines_and_a_log_gets_every_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("io.log");
        let log = IoLog::open(&path, Level::All).unwrap();
        let mut r = Recent::new("mybot", Some(&log));
        r.game = Some(3);
        for i in 0..20 {
            r.push(if i % 2 == 0 { '>' } else { '<' }, &format!("line {i}"));
        }
        let kept = r.text();
        assert_eq!(kept.lines().count(), RECENT);
        assert!(
            kept.lines()
                .next()
                .unwrap()
                .ends_with("game 3 mybot > line 8"),
            "{kept}"
        );
        assert!(kept.ends_with("game 3 mybot < line 19\n"), "{kept}");
        let all = std::fs::read_to_string(&path).unwrap();
        assert_eq!(all.lines().count(), 20);
        assert!(all.lines().all(|l| l.contains(" game 3 mybot ")));
        // lines of the game before keep its number
        r.game = Some(4);
        r.push('>', "next game");
        let text = r.text();
        assert!(text.contains("game 3 mybot < line 19\n"), "{text}");
        assert!(text.ends_with("game 4 mybot > next game\n"), "{text}");

        // an `errors` log gets no line as it passes
        let quiet = dir.path().join("errors.log");
        let log = IoLog::open(&quiet, Level::Errors).unwrap();
        let mut r = Recent::new("mybot", Some(&log));
        r.push('>', "turn");
        assert_eq!(std::fs::read_to_string(&quiet).unwrap(), "");
    }
}
