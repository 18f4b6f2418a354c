//! A bot's stderr, drained by a thread into a file capped in size, shared by
//! every process of one bot.

use std::{
    fs::{File, OpenOptions},
    io::{self, Read, Write},
    path::Path,
    sync::{Arc, Mutex},
};

use super::io_log::SharedIoLog;

/// What a bot's stderr log may grow to; the rest is dropped, with a note.
pub const MAX_LOG: u64 = 1024 * 1024;

/// A log shared by the processes of one bot.
pub type SharedLog = Arc<Mutex<Log>>;

/// A stderr log shared by every process of one bot, capped at [`MAX_LOG`] bytes.
pub struct Log {
    file: Option<File>,
    written: u64,
    /// The cap is reached and said so; the rest is dropped.
    capped: bool,
    /// The bot's name, for I/O log lines.
    pub name: String,
    /// Where the lines exchanged with the bot go (`--log`, `log = true`).
    pub io: Option<SharedIoLog>,
}

impl Log {
    /// Opens (appending) the log at `path`; `None` discards stderr.
    pub fn open(path: Option<&Path>) -> io::Result<SharedLog> {
        let file = match path {
            Some(p) => {
                if let Some(dir) = p.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                Some(OpenOptions::new().create(true).append(true).open(p)?)
            }
            None => None,
        };
        let written = file
            .as_ref()
            .map_or(0, |f| f.metadata().map_or(0, |m| m.len()));
        Ok(Arc::new(Mutex::new(Log {
            file,
            written,
            capped: false,
            name: "bot".to_string(),
            io: None,
        })))
    }

    /// Records a forfeit with the lines exchanged before it, in the bot's log
    /// and in its I/O log if it has one.
    pub fn note_forfeit(&mut self, game: Option<u64>, why: &str, recent: &str) {
        let game = game.map_or(String::new(), |g| format!("game {g}: "));
        let text = format!(
            "[ladder] {game}{} forfeits: {why}; the last lines exchanged (> ladder, < bot):\n{recent}",
            self.name
        );
        self.write(text.as_bytes());
        if let Some(io) = &self.io {
            io.lock().unwrap_or_else(|e| e.into_inner()).write(&text);
        }
    }

    fn write(&mut self, bytes: &[u8]) {
        let Some(file) = self.file.as_mut() else {
            return;
        };
        if self.capped || bytes.is_empty() {
            return;
        }
        let room = MAX_LOG.saturating_sub(self.written) as usize;
        let part = &bytes[..bytes.len().min(room)];
        let _ = file.write_all(part);
        self.written += part.len() as u64;
        if part.len() < bytes.len() {
            // said once, whether the cap falls inside a read or between two
            let _ = writeln!(
                file,
                "\n[ladder: log capped at {MAX_LOG} bytes; the rest is dropped]"
            );
            self.capped = true;
        }
    }
}

/// Copies a bot's output (stderr, or stdout where it answers elsewhere)
/// into the log until end of file; never blocks the bot.
pub(super) fn drain(mut from: impl Read, log: &Mutex<Log>) {
    let mut buf = [0u8; 8192];
    loop {
        match from.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => log
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .write(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_is_said_once_even_when_it_falls_between_two_reads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bot.log");
        let log = Log::open(Some(&path)).unwrap();
        let mut log = log.lock().unwrap();
        log.write(&vec![b'x'; MAX_LOG as usize]); // exactly full
        log.write(b"more\n");
        log.write(b"and more\n");
        drop(log);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches("log capped").count(), 1, "said once");
        assert!(!text.contains("more"), "nothing past the cap");
        assert!(text.starts_with(&"x".repeat(100)));
    }
}
