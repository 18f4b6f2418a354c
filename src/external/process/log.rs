//! A bot's stderr, drained by a thread into a file capped in size, shared by
//! every process of one bot.

use std::{
    fs::{File, OpenOptions},
    io::{self, Read, Write},
    path::Path,
    sync::{Arc, Mutex},
};

/// What a bot's stderr log may grow to; the rest is dropped, with a note.
pub const MAX_LOG: u64 = 1024 * 1024;

/// A log shared by the processes of one bot.
pub type SharedLog = Arc<Mutex<Log>>;

/// A stderr log shared by every process of one bot, capped at [`MAX_LOG`] bytes.
pub struct Log {
    file: Option<File>,
    written: u64,
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
        Ok(Arc::new(Mutex::new(Log { file, written })))
    }

    fn write(&mut self, bytes: &[u8]) {
        let Some(file) = self.file.as_mut() else {
            return;
        };
        if self.written >= MAX_LOG {
            return;
        }
        let room = (MAX_LOG - self.written) as usize;
        let (part, cut) = if bytes.len() > room {
            (&bytes[..room], true)
        } else {
            (bytes, false)
        };
        let _ = file.write_all(part);
        self.written += part.len() as u64;
        if cut {
            let _ = writeln!(
                file,
                "\n[ladder: log capped at {MAX_LOG} bytes; the rest is dropped]"
            );
            self.written = MAX_LOG;
        }
    }
}

/// Copies stderr into the log until end of file; never blocks the bot.
pub(super) fn drain(mut stderr: impl Read, log: &Mutex<Log>) {
    let mut buf = [0u8; 8192];
    while let Ok(n) = stderr.read(&mut buf) {
        if n == 0 {
            return;
        }
        log.lock()
            .unwrap_or_else(|e| e.into_inner())
            .write(&buf[..n]);
    }
}
