//! Reading a journal: line by line, plain or compressed (`games.jsonl.zst`),
//! in the memory of one line whatever its size, and never changing it: a
//! season another ladder is writing may be read at any moment.

use std::{
    fs::File,
    io::{self, BufRead, BufReader},
    path::{Path, PathBuf},
};

use crate::{
    core::error::{Error, Result},
    core::record::Record,
};

/// Reads a journal, dropping a last line that a crash cut short.
pub fn read_records(path: &Path) -> Result<Vec<Record>> {
    let mut records = Vec::new();
    for_each_record(path, |_, record| {
        records.push(record);
        Ok(())
    })?;
    Ok(records)
}

/// Calls `each` with every record of a journal and its line number, streaming.
pub fn for_each_record(
    path: &Path,
    mut each: impl FnMut(usize, Record) -> Result<()>,
) -> Result<()> {
    for_each_line(path, |n, line| {
        let bad = |message: String| Error::Journal {
            path: path.to_path_buf(),
            line: n,
            message,
        };
        each(n, parse_record(line).map_err(bad)?)
    })?;
    Ok(())
}

/// Calls `each` with every finished game of the season folder `dir`, each
/// once, streaming: the games of `games.jsonl` (or its compressed form) in
/// schedule order, then those waiting in `pending.jsonl` that it does not
/// hold yet, in the order they finished. A game finished ahead of its turn
/// stays in `pending.jsonl` after its turn has put it into `games.jsonl`,
/// until the season ends or resumes: a season read while it runs, or after
/// an interrupt, holds it twice.
pub fn for_each_game(
    dir: &Path,
    mut each: impl FnMut(&Path, usize, Record) -> Result<()>,
) -> Result<()> {
    for_each_game_line(dir, |path, n, line| {
        let record = parse_record(line).map_err(|message| Error::Journal {
            path: path.to_path_buf(),
            line: n,
            message,
        })?;
        let index = record.index;
        each(path, n, record)?;
        Ok(index)
    })
}

/// [`for_each_game`] for a reader of its own: `each` reads the line (file,
/// number from 1, text with its end) and returns its game's index. The
/// pending games are found first, by index only: their file is small (the
/// games finished ahead of a slower one).
pub fn for_each_game_line(
    dir: &Path,
    mut each: impl FnMut(&Path, usize, &str) -> Result<u64>,
) -> Result<()> {
    #[derive(serde::Deserialize)]
    struct Index {
        index: u64,
    }
    let pending_path = dir.join("pending.jsonl");
    // pending game's index -> its first line in pending.jsonl
    let mut waiting = std::collections::HashMap::new();
    for_each_line(&pending_path, |n, line| {
        let Index { index } = serde_json::from_str(line).map_err(|e| Error::Journal {
            path: pending_path.clone(),
            line: n,
            message: format!("not a game record: {e}"),
        })?;
        waiting.entry(index).or_insert(n);
        Ok(())
    })?;
    let games = dir.join("games.jsonl");
    for_each_line(&games, |n, line| {
        let index = each(&games, n, line)?;
        waiting.remove(&index);
        Ok(())
    })?;
    if waiting.is_empty() {
        return Ok(());
    }
    let lines: std::collections::HashSet<usize> = waiting.into_values().collect();
    for_each_line(&pending_path, |n, line| {
        if lines.contains(&n) {
            each(&pending_path, n, line)?;
        }
        Ok(())
    })?;
    Ok(())
}

/// One journal line read as a game's record, its seed checked against its
/// `seed_text`.
pub fn parse_record(line: &str) -> std::result::Result<Record, String> {
    let record = serde_json::from_str::<Record>(line.trim_end()).map_err(|e| e.to_string())?;
    crate::core::record::seed_agrees(record.seed, record.seed_text.as_deref())?;
    Ok(record)
}

/// Calls `each` with every complete line of the journal file at `path`
/// (numbered from 1, line end included), reading it piece by piece: a
/// journal of any size costs the memory of one line. Where only `PATH.zst`
/// exists (a complete season's compressed journal), that is read instead.
/// No file is no lines.
///
/// A last line without its end is not a line: a crash cut it short, or the
/// season's ladder is writing it now (`verify`, `report` and the rest read
/// a live season's journal). The file is never changed here; the length of
/// its complete lines is returned when it has such a last line, so that a
/// resume, which holds the season, can cut it off (its game is played again).
pub fn for_each_line(
    path: &Path,
    mut each: impl FnMut(usize, &str) -> Result<()>,
) -> Result<Option<u64>> {
    let Some((mut reader, shown, compressed)) = open_journal(path, 1 << 16)? else {
        return Ok(None);
    };
    let mut bytes = Vec::new();
    let mut good_len = 0u64;
    let mut n = 0;
    loop {
        bytes.clear();
        let read = reader
            .read_until(b'\n', &mut bytes)
            .map_err(Error::io("reading", &shown))?;
        if read == 0 {
            return Ok(None);
        }
        if bytes.last() != Some(&b'\n') {
            if compressed {
                return Err(Error::Journal {
                    path: shown,
                    line: n + 1,
                    message: "the compressed journal ends in the middle of a line".into(),
                });
            }
            return Ok(Some(good_len));
        }
        n += 1;
        let line = std::str::from_utf8(&bytes).map_err(|e| Error::Journal {
            path: shown.clone(),
            line: n,
            message: format!("not UTF-8 text: {e}"),
        })?;
        each(n, line)?;
        good_len += read as u64;
    }
}

/// A journal file to read: `path`, else `PATH.zst` (the plain file wins
/// when both exist: a compression that a crash cut short), with a buffer of
/// `buffer` bytes; with the path read and whether it is compressed. `None`
/// when neither exists.
type Opened = (Box<dyn BufRead>, PathBuf, bool);

fn open_journal(path: &Path, buffer: usize) -> Result<Option<Opened>> {
    let zst = zst_path(path);
    match File::open(path) {
        Ok(file) => Ok(Some((
            Box::new(BufReader::with_capacity(buffer, file)),
            path.to_path_buf(),
            false,
        ))),
        Err(e) if e.kind() == io::ErrorKind::NotFound && zst.exists() => {
            let file = File::open(&zst).map_err(Error::io("reading", &zst))?;
            let decoder = zstd::Decoder::new(file).map_err(Error::io("reading", &zst))?;
            Ok(Some((
                Box::new(BufReader::with_capacity(buffer, decoder)),
                zst,
                true,
            )))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io("reading", path)(e)),
    }
}

/// A journal read line by line on demand (plain or compressed), without
/// changing the file: a last line cut short by a crash is not a line.
pub struct LineReader {
    reader: Option<Box<dyn BufRead>>,
    path: PathBuf,
    /// Lines read so far.
    pub line: usize,
    buf: Vec<u8>,
}

impl LineReader {
    /// Reads `path` (or `PATH.zst`) through a buffer of `buffer` bytes; no
    /// file gives no lines.
    pub fn open(path: &Path, buffer: usize) -> Result<LineReader> {
        let opened = open_journal(path, buffer)?;
        let shown = opened.as_ref().map_or(path.to_path_buf(), |o| o.1.clone());
        Ok(LineReader {
            reader: opened.map(|o| o.0),
            path: shown,
            line: 0,
            buf: Vec::new(),
        })
    }

    /// The last line [`LineReader::next_line`] gave, without its line end.
    pub fn last_line(&self) -> &str {
        std::str::from_utf8(&self.buf).unwrap_or("")
    }

    /// The file read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The next whole line, its line end removed; `None` at the end.
    pub fn next_line(&mut self) -> Result<Option<&str>> {
        let Some(reader) = self.reader.as_mut() else {
            return Ok(None);
        };
        self.buf.clear();
        let read = reader
            .read_until(b'\n', &mut self.buf)
            .map_err(Error::io("reading", &self.path))?;
        if read == 0 || self.buf.last() != Some(&b'\n') {
            self.reader = None;
            return Ok(None);
        }
        self.line += 1;
        self.buf.pop();
        std::str::from_utf8(&self.buf)
            .map(Some)
            .map_err(|e| Error::Journal {
                path: self.path.clone(),
                line: self.line,
                message: format!("not UTF-8 text: {e}"),
            })
    }
}

/// `games.jsonl` → `games.jsonl.zst`.
pub(super) fn zst_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".zst");
    PathBuf::from(name)
}
