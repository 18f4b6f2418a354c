//! A bot uploaded from a page (`POST /api/bots`): one program file, or an
//! archive (`.tar`, `.tar.gz`, `.tgz`) of a bot's folder, with the command
//! that runs it and its protocol.
//!
//! The upload is unpacked into a new folder first; an archive entry that
//! would land outside it (an absolute path, `..`) or that is anything but
//! a file or a folder (a link, a device) refuses the whole upload, and so
//! does an archive that unpacks to more than [`UNPACKED_PER_UPLOADED`]
//! times the upload limit (a small gzip of zeros can unpack to gigabytes);
//! a refused upload leaves nothing behind. The folder then becomes
//! `bots/HASH/` in the arena (a hash of the upload's bytes, its file name
//! and whether the command runs the file itself: immutable, like every
//! program `ladder arena add` copies), the command's words that
//! name its files point there, and the bot joins as `arena add` adds it,
//! always with `sandbox = "bwrap"`.

use std::{
    io::Read,
    path::{Component, Path, PathBuf},
};

use axum::http::StatusCode;
use sha2::{Digest, Sha256};

use super::{Failure, GameOf};
use crate::{
    arena::{
        programs::{self, set_mode},
        Joining,
    },
    core::{error::Error, files},
};

/// The query of an upload.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Upload {
    /// The bot's name (its next version when it exists).
    pub name: String,
    /// The uploaded file's name (`bot.py`, `bot.tar.gz`).
    pub file: String,
    /// The command, words split at blanks (quotes as in a shell); it names the bot's files
    /// relative to its folder (`python3 bot.py`).
    pub command: String,
    #[serde(default)]
    pub protocol: Option<String>,
    /// Joins as a candidate (`true`), else into the pool.
    #[serde(default)]
    pub candidate: Option<String>,
    #[serde(default)]
    pub against: Option<String>,
}

/// An archive unpacks to at most this many times the upload limit
/// (64 MiB for the default 8 MiB), counting its entries' headers: gzip
/// shrinks program text about four times, zeros a thousand.
pub const UNPACKED_PER_UPLOADED: u64 = 8;

fn refuse(message: String) -> Failure {
    Failure(StatusCode::BAD_REQUEST, message)
}

/// Adds the bot `bytes` hold to the arena in `dir`; its name `name@N`.
/// `limit` is the upload limit the bytes were taken under.
pub fn add(
    dir: &Path,
    game: &dyn GameOf,
    q: &Upload,
    bytes: &[u8],
    limit: usize,
) -> Result<crate::arena::Joined, Failure> {
    let command = crate::plan::command_words(&q.command)
        .map_err(|e| refuse(format!("the command `{}`: {e}", q.command)))?;
    if command.is_empty() {
        return Err(refuse(
            "an upload needs the command that runs the bot".into(),
        ));
    }
    let file = Path::new(&q.file);
    let file_name = match file.components().collect::<Vec<_>>().as_slice() {
        [Component::Normal(n)] => n.to_string_lossy().into_owned(),
        _ => return Err(refuse(format!("`{}` is not a file name", q.file))),
    };
    crate::arena::config::check_bot_name(&q.name)?;
    let joining = match q.candidate.as_deref() {
        Some("true" | "1" | "on") => Joining::Candidate {
            against: q.against.clone().filter(|a| !a.is_empty()),
        },
        None | Some("" | "false" | "0") => Joining::Now,
        Some(other) => {
            return Err(refuse(format!(
                "`candidate`: `{other}` is not true or false"
            )))
        }
    };
    let archive = [".tar", ".tar.gz", ".tgz"]
        .iter()
        .any(|e| file_name.ends_with(e));
    let runs_itself = !archive && Path::new(&command[0]).file_name() == Some(file_name.as_ref());
    // named by all that makes its files: the same bytes uploaded as
    // another file name, or run as a program rather than read by one,
    // are another folder
    let mut key = Sha256::new();
    key.update(file_name.as_bytes());
    key.update([0, u8::from(runs_itself)]);
    key.update(bytes);
    let hash = programs::hash_name(key);
    // unpacked beside the arena's files, and gone unless the upload is good
    let staging = tempfile::Builder::new()
        .prefix(".upload-")
        .tempdir_in(dir)
        .map_err(Error::io("creating a folder in", dir))?;
    if archive {
        let most = (limit as u64).saturating_mul(UNPACKED_PER_UPLOADED);
        unpack(bytes, file_name.ends_with(".tar"), staging.path(), most)?;
    } else {
        let path = staging.path().join(&file_name);
        std::fs::write(&path, bytes).map_err(Error::io("writing", &path))?;
        let mode = if runs_itself { 0o755 } else { 0o644 };
        set_mode(&path, mode)?;
    }
    // every word that names one of the bot's files, as the arena names it
    let rel = Path::new("bots").join(&hash);
    let mut words = Vec::new();
    for word in &command {
        let inside = Path::new(word)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        if inside && staging.path().join(word).is_file() {
            words.push(rel.join(word).display().to_string());
        } else {
            words.push(word.clone());
        }
    }
    if words == command {
        return Err(refuse(format!(
            "the command `{}` names none of the uploaded files",
            q.command
        )));
    }
    // any other word names no file (but the program, a machine's: `python3`,
    // `/usr/bin/java`): the arena would copy it for the bot, or show it the
    // folder, and a file there may be another bot's or the arena's own
    let arena = files::absolute(dir);
    for (i, (word, given)) in words.iter().zip(&command).enumerate() {
        let path = Path::new(word);
        let machines = i == 0
            && (!word.contains('/')
                || (path.is_absolute() && !files::absolute(path).starts_with(&arena)));
        if word != given || machines || dir.join(path).symlink_metadata().is_err() {
            continue;
        }
        return Err(refuse(format!(
            "the command `{}` names `{word}`, which is none of the uploaded files: an \
             upload's command names only its own files and the machine's programs",
            q.command
        )));
    }
    // one bot at a time places its folder and joins (also across servers
    // and `arena add`): another may not take a folder this one is about to
    // remove
    let _held = programs::hold_joining(dir)?;
    let dest = dir.join(&rel);
    let created = programs::keep_folder(staging, &dest)?;
    let mut table = toml::Table::new();
    table.insert(
        "command".into(),
        toml::Value::try_from(&words).expect("words"),
    );
    if let Some(p) = q.protocol.as_deref().filter(|p| !p.is_empty()) {
        table.insert("protocol".into(), p.into());
    }
    table.insert("sandbox".into(), "bwrap".into());
    game.add(&q.name, &table, dir, joining).map_err(|e| {
        // a bot that cannot join leaves no files behind
        if created {
            let _ = std::fs::remove_dir_all(&dest);
        }
        Failure::from(e)
    })
}

/// What the page tells the person who uploaded a bot that joined: each
/// word of its command that reads as a file but is none of the uploaded
/// files (the bot joins, since it may make the file).
pub fn notes(joined: &crate::arena::Joined) -> Vec<String> {
    joined
        .unfound
        .iter()
        .map(|word| {
            format!(
                "`{word}` in the command is none of the uploaded files, so the bot \
                 will not find it unless it makes it"
            )
        })
        .collect()
}

/// Unpacks a tar archive (gzipped unless `plain`) into `into`, refusing
/// any entry that is not a file or folder inside it, and an archive whose
/// tar stream is longer than `most` bytes.
fn unpack(bytes: &[u8], plain: bool, into: &Path, most: u64) -> Result<(), Failure> {
    let reader: Box<dyn Read> = if plain {
        Box::new(bytes)
    } else {
        Box::new(flate2::read::GzDecoder::new(bytes))
    };
    let mut archive = tar::Archive::new(Bounded {
        inner: reader,
        left: most,
        most,
    });
    let broken = |e: std::io::Error| refuse(format!("the archive cannot be read: {e}"));
    let mut files = 0;
    for entry in archive.entries().map_err(broken)? {
        let mut entry = entry.map_err(broken)?;
        let path: PathBuf = entry.path().map_err(broken)?.into_owned();
        let shown = path.display().to_string();
        if !path
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        {
            return Err(refuse(format!(
                "the archive's entry `{shown}` would land outside the bot's folder"
            )));
        }
        let kind = entry.header().entry_type();
        let target = into.join(&path);
        if kind.is_dir() {
            std::fs::create_dir_all(&target).map_err(Error::io("creating", &target))?;
        } else if kind.is_file() {
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(Error::io("creating", parent))?;
            }
            let mut data = Vec::new();
            entry.read_to_end(&mut data).map_err(broken)?;
            // flushed all at once when the upload is complete (`add`)
            std::fs::write(&target, &data).map_err(Error::io("writing", &target))?;
            let exec = entry.header().mode().unwrap_or(0o644) & 0o111 != 0;
            set_mode(&target, if exec { 0o755 } else { 0o644 })?;
            files += 1;
        } else {
            return Err(refuse(format!(
                "the archive's entry `{shown}` is a link or a special file; only files \
                 and folders are taken"
            )));
        }
    }
    if files == 0 {
        return Err(refuse("the archive holds no file".into()));
    }
    Ok(())
}

/// A reader that fails once more than `most` bytes have been read from it.
struct Bounded<R> {
    inner: R,
    left: u64,
    most: u64,
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // one byte past the bound tells a longer stream from one that ends there
        let want = buf.len().min(
            usize::try_from(self.left)
                .unwrap_or(usize::MAX)
                .saturating_add(1),
        );
        let n = self.inner.read(&mut buf[..want])?;
        if n as u64 > self.left {
            return Err(std::io::Error::other(format!(
                "it unpacks to more than {} bytes",
                self.most
            )));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tar_of(entries: &[(&str, tar::EntryType, &[u8])]) -> Vec<u8> {
        let mut b = tar::Builder::new(Vec::new());
        for (path, kind, data) in entries {
            let mut h = tar::Header::new_gnu();
            h.set_entry_type(*kind);
            h.set_size(data.len() as u64);
            h.set_mode(0o755);
            // set_path refuses `..`: write the name as an attacker would
            let name = path.as_bytes();
            h.as_old_mut().name[..name.len()].copy_from_slice(name);
            if kind.is_symlink() {
                h.set_link_name("/etc/passwd").unwrap();
            }
            h.set_cksum();
            b.append(&h, *data).unwrap();
        }
        b.into_inner().unwrap()
    }

    #[test]
    fn an_archive_unpacks_its_files_and_folders() {
        let dir = tempfile::tempdir().unwrap();
        let t = tar_of(&[
            ("lib/", tar::EntryType::Directory, b""),
            ("lib/util.py", tar::EntryType::Regular, b"x = 1\n"),
            ("bot.py", tar::EntryType::Regular, b"import lib.util\n"),
        ]);
        unpack(&t, true, dir.path(), t.len() as u64).unwrap();
        assert_eq!(
            std::fs::read(dir.path().join("lib/util.py")).unwrap(),
            b"x = 1\n"
        );
        assert!(dir.path().join("bot.py").is_file());
    }

    #[test]
    fn entries_outside_the_folder_and_links_are_refused() {
        for (path, kind) in [
            ("../escape.py", tar::EntryType::Regular),
            ("/tmp/abs.py", tar::EntryType::Regular),
            ("a/../../x.py", tar::EntryType::Regular),
            ("link", tar::EntryType::Symlink),
            ("hard", tar::EntryType::Link),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let inside = dir.path().join("in");
            std::fs::create_dir(&inside).unwrap();
            let t = tar_of(&[(path, kind, b"")]);
            let e = unpack(&t, true, &inside, 1 << 20).unwrap_err();
            assert_eq!(e.0, StatusCode::BAD_REQUEST, "{path}");
            assert!(!dir.path().join("escape.py").exists());
            assert!(!Path::new("/tmp/abs.py").exists());
        }
        // garbage is a clear error, not a panic
        assert!(unpack(b"not a tar", false, Path::new("/nonexistent"), 1 << 20).is_err());
    }

    #[test]
    fn an_archive_that_unpacks_past_its_bound_is_refused_before_it_is_read_whole() {
        use std::io::Write;
        // 16 MiB of zeros: a gzip of about 16 KiB
        let zeros = vec![0u8; 16 << 20];
        let t = tar_of(&[("bot.py", tar::EntryType::Regular, &zeros)]);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&t).unwrap();
        let gz = gz.finish().unwrap();
        assert!(gz.len() < 64 << 10, "{}", gz.len());
        let dir = tempfile::tempdir().unwrap();
        let e = unpack(&gz, false, dir.path(), 1 << 20).unwrap_err();
        assert_eq!(e.0, StatusCode::BAD_REQUEST);
        assert!(
            e.1.contains("it unpacks to more than 1048576 bytes"),
            "{}",
            e.1
        );
        // nothing past the bound was written
        let written = std::fs::metadata(dir.path().join("bot.py")).map_or(0, |m| m.len());
        assert_eq!(written, 0);
        // the same archive within its bound unpacks whole
        unpack(&gz, false, dir.path(), t.len() as u64).unwrap();
        assert_eq!(
            std::fs::metadata(dir.path().join("bot.py")).unwrap().len(),
            zeros.len() as u64
        );
    }
}
