//! How ladder reads a text file it is given, rewrites a file and holds a
//! folder: what every floor that reads inputs or keeps results on disk
//! needs, written once.
//!
//! A text file read whole (a config, a GDL description, an openings file)
//! is read up to [`MOST_TEXT`] bytes and refused past them: a wrong path
//! (`/dev/zero`, a log of gigabytes) gets a clear error instead of filling
//! memory until the system kills ladder.
//!
//! A file ladder rewrites (`season.json`, `ladder.json`, `pending.jsonl`, a
//! report) is replaced whole: written to a temporary file beside it, its
//! data flushed to disk, renamed over the old one, and the folder synced. A
//! kill or a power cut at any moment leaves the old file or the new one,
//! never a cut one. The temporary file has one name per target, so one left
//! by a kill is overwritten by the next write, not left to pile up. Files
//! written together (a season's reports, its replay pages) are replaced by
//! [`replace_all`]: each as above, the folder synced once for all of them,
//! and every one's writing to disk started before any is waited for.
//!
//! The flush is `fdatasync`, not `fsync`: for a file just written it still
//! flushes what reading the data back needs (its size, its blocks), and
//! leaves out its times. With one folder sync per group, and every file's
//! writing started before the first is waited for, a season's six reports
//! wait for about two commits of the file system's journal, not twelve
//! (docs/PERFORMANCE.md).
//!
//! A season folder (and a ladder's) is held by one ladder at a time: a
//! [`FolderLock`] is an advisory lock (`flock`) on a `.lock` file in it,
//! which the kernel releases when its process ends, however it ends. A
//! second ladder is refused with the first one's process id.

use std::{
    fs::{self, File, OpenOptions},
    io::{Read, Write},
    os::unix::fs::MetadataExt,
    path::{Path, PathBuf},
};

use super::error::{Error, Result};

/// The most bytes of a text file ladder reads whole: far above any real
/// config, description or openings file (the largest public GDL
/// descriptions are a few hundred kilobytes).
pub const MOST_TEXT: u64 = 64 << 20;

/// The text file at `path`, read whole; an error that says why past
/// [`MOST_TEXT`] bytes or where it is not UTF-8. A byte-order mark that
/// starts it (as editors on Windows save UTF-8) is not part of the text.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    File::open(path)?
        .take(MOST_TEXT + 1)
        .read_to_end(&mut bytes)?;
    if bytes.starts_with(b"\xef\xbb\xbf") {
        bytes.drain(..3);
    }
    if bytes.len() as u64 > MOST_TEXT {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!(
                "it is larger than {} MiB, the most ladder reads of such a file",
                MOST_TEXT >> 20
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "it is not UTF-8 text (byte {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Replaces `path` with `contents` atomically (see the module's comment).
pub fn replace(path: &Path, contents: &[u8]) -> Result<()> {
    replace_with(path, contents_of(path, contents))
}

/// Replaces `path` atomically with what `write` writes, streamed: a file of
/// any size (`ladder export -o`) costs no more memory than `write` keeps.
pub fn replace_with(path: &Path, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    let tmp = flushed(path, write)?;
    fs::rename(&tmp, path).map_err(Error::io("renaming", &tmp))?;
    sync_folder(path.parent());
    Ok(())
}

/// Writes a file the user named for ladder's output (`export -o`) with
/// `write`: a file (there or not) is replaced whole as [`replace_with`]
/// does; a link, the file it leads to; anything else there (a device such
/// as `/dev/null`, a pipe) is written into as it is, never replaced.
pub fn write_output(path: &Path, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    let mut target = path.to_path_buf();
    // a chain of links, to the file it ends at (there or not)
    for _ in 0..40 {
        match fs::read_link(&target) {
            Ok(to) => target = folder_of(&target).join(to),
            Err(_) => break,
        }
    }
    match fs::metadata(&target) {
        Ok(m) if !m.is_file() && !m.is_dir() => {
            let file = OpenOptions::new()
                .write(true)
                .open(&target)
                .map_err(Error::io("opening", path))?;
            let mut out = std::io::BufWriter::new(file);
            write(&mut out)?;
            out.flush().map_err(Error::io("writing", path))
        }
        Ok(m) if m.is_dir() => Err(Error::Usage(format!(
            "{}: that is a folder; name a file in it",
            path.display()
        ))),
        _ if !folder_of(&target).is_dir() => Err(Error::Usage(format!(
            "{}: there is no folder {}",
            path.display(),
            folder_of(&target).display()
        ))),
        _ => replace_with(&target, write),
    }
}

/// Replaces the files `files` (each a name and its contents) of the folder
/// `dir`, each atomically as [`replace`] does; the folder is synced once,
/// after the last is renamed.
pub fn replace_all<N: AsRef<str>, T: AsRef<[u8]>>(dir: &Path, files: &[(N, T)]) -> Result<()> {
    let mut written = Vec::with_capacity(files.len());
    for (name, contents) in files {
        let path = dir.join(name.as_ref());
        let (file, tmp) = written_whole(&path, contents_of(&path, contents.as_ref()))?;
        start_flush(&file);
        written.push((file, tmp, path));
    }
    for (file, tmp, _) in &written {
        file.sync_data().map_err(Error::io("writing", tmp))?;
    }
    for (_, tmp, path) in &written {
        fs::rename(tmp, path).map_err(Error::io("renaming", tmp))?;
    }
    if !written.is_empty() {
        sync_folder(Some(dir));
    }
    Ok(())
}

/// What writes `contents` whole into the temporary file of `path`; an error
/// names that file.
fn contents_of<'a>(
    path: &'a Path,
    contents: &'a [u8],
) -> impl FnOnce(&mut dyn Write) -> Result<()> + 'a {
    move |out| {
        out.write_all(contents)
            .map_err(|e| Error::io("writing", temporary(path))(e))
    }
}

/// Writes the temporary file of `path` with `write` and flushes its data to
/// disk; returns the temporary's path.
fn flushed(path: &Path, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<PathBuf> {
    let (file, tmp) = written_whole(path, write)?;
    file.sync_data().map_err(Error::io("writing", &tmp))?;
    Ok(tmp)
}

/// Writes the temporary file of `path` with `write`, not yet flushed to
/// disk; returns it and its path.
fn written_whole(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<(File, PathBuf)> {
    let tmp = temporary(path);
    let file = File::create(&tmp).map_err(Error::io("creating", &tmp))?;
    let mut out = std::io::BufWriter::new(file);
    write(&mut out)?;
    let file = out
        .into_inner()
        .map_err(|e| Error::io("writing", &tmp)(e.into_error()))?;
    Ok((file, tmp))
}

/// Starts writing what `file` holds to disk, without waiting for it
/// (Linux's `sync_file_range`; elsewhere nothing). Files written together
/// have theirs started one after another before any is waited for, so
/// that their flushes wait for one commit of the file system's journal
/// instead of one each (docs/PERFORMANCE.md). It only starts: a flush
/// (`sync_data`) still follows, and alone makes the data safe.
fn start_flush(file: &File) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: a system call on a descriptor `file` holds open, with no
        // pointer; its result is only a hint, so an error is ignored
        unsafe {
            libc::sync_file_range(file.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = file;
}

/// `path` made absolute: resolved where it exists, else against the
/// working directory (a sandbox binds and hides absolute paths).
pub fn absolute(path: &Path) -> PathBuf {
    path.canonicalize()
        .or_else(|_| std::env::current_dir().map(|d| d.join(path)))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// The folder `path` is in: its parent, or `.` for a bare file name.
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Flushes to disk everything written to the file system that holds
/// `path` (`syncfs`): for many new files at once (an unpacked upload), one
/// call where a flush a file would cost one disk wait each.
pub fn sync_file_system(path: &Path) -> Result<()> {
    let held = File::open(path).map_err(Error::io("opening", path))?;
    rustix::fs::syncfs(&held).map_err(|e| Error::io("syncing", path)(e.into()))
}

/// Syncs the folder `dir` (`None` or empty: the current one), so the names
/// renamed in it last; a folder that cannot be opened is left as it is.
fn sync_folder(dir: Option<&Path>) {
    let dir = match dir {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// The temporary file beside `path` that a replacement is written to: one
/// name per target.
fn temporary(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.tmp"))
}

/// The name of the lock file in a held folder.
pub const LOCK: &str = ".lock";

/// A folder held by this process until the value is dropped.
#[derive(Debug)]
pub struct FolderLock {
    file: File,
    path: PathBuf,
}

impl FolderLock {
    /// Holds `dir` (created if missing) for this process; `what` names it in
    /// the refusal ("season", "ladder").
    pub fn hold(dir: &Path, what: &str) -> Result<FolderLock> {
        fs::create_dir_all(dir).map_err(Error::io("creating", dir))?;
        let path = dir.join(LOCK);
        loop {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(Error::io("opening", &path))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(fs::TryLockError::WouldBlock) => {
                    let mut holder = String::new();
                    let _ = file.read_to_string(&mut holder);
                    let holder = match holder.trim().parse::<u32>() {
                        Ok(pid) => format!("process {pid}"),
                        Err(_) => "another process".to_string(),
                    };
                    return Err(Error::Busy(format!(
                        "the {what} in {} is being run by another ladder ({holder}); \
                         wait for it to finish, or stop it first",
                        dir.display()
                    )));
                }
                Err(fs::TryLockError::Error(e)) => {
                    return Err(Error::io("locking", &path)(e));
                }
            }
            // the holder before us may have removed the file as we opened
            // it: the lock must be on the file the folder has now
            let same = fs::metadata(&path)
                .ok()
                .zip(file.metadata().ok())
                .is_some_and(|(on_disk, ours)| {
                    on_disk.ino() == ours.ino() && on_disk.dev() == ours.dev()
                });
            if !same {
                continue;
            }
            file.set_len(0)
                .and_then(|()| file.write_all(format!("{}\n", std::process::id()).as_bytes()))
                .map_err(Error::io("writing", &path))?;
            return Ok(FolderLock { file, path });
        }
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // removed while still held, so no one locks a file about to go
        let _ = fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// Whether `path` is `-`, the name of a standard stream where a file is
/// asked for: stdout for an output (`export -o -`), stderr for a log
/// (`--log -`), as in most tools that take a file name.
pub fn is_standard_stream(path: &Path) -> bool {
    path.as_os_str() == "-"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_systems_sync_is_asked_of_a_path_that_exists() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("bot.py"), b"pass\n").unwrap();
        sync_file_system(dir.path()).unwrap();
        let missing = dir.path().join("gone");
        let e = sync_file_system(&missing).unwrap_err().to_string();
        assert!(e.contains("gone"), "{e}");
    }

    #[test]
    fn a_replaced_file_holds_the_new_contents_and_no_temporary_file_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("season.json");
        replace(&path, b"old").unwrap();
        replace(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("season.json")]);
    }

    #[test]
    fn files_replaced_together_hold_their_new_contents_and_leave_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        replace(&dir.path().join("a.md"), b"old a").unwrap();
        fs::write(dir.path().join(".b.csv.tmp"), b"left by a kill").unwrap();
        replace_all(dir.path(), &[("a.md", "new a"), ("b.csv", "b")]).unwrap();
        replace_all::<&str, &str>(dir.path(), &[]).unwrap();
        assert_eq!(fs::read(dir.path().join("a.md")).unwrap(), b"new a");
        assert_eq!(fs::read(dir.path().join("b.csv")).unwrap(), b"b");
        let mut names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["a.md", "b.csv"]);
        // a folder that is not there is an error naming the file
        let err = replace_all(&dir.path().join("gone"), &[("c.json", "{}")])
            .unwrap_err()
            .to_string();
        assert!(err.contains(".c.json.tmp"), "{err}");
    }

    #[test]
    fn an_output_replaces_a_file_writes_through_a_link_and_into_a_pipe() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &'static str| {
            move |out: &mut dyn Write| {
                out.write_all(text.as_bytes())
                    .map_err(Error::io("writing", "x"))
            }
        };
        // a file, there or not
        let file = dir.path().join("out.csv");
        write_output(&file, write("one")).unwrap();
        write_output(&file, write("two")).unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "two");
        // a link stays a link; the file it leads to gets the output
        let link = dir.path().join("link.csv");
        std::os::unix::fs::symlink("out.csv", &link).unwrap();
        write_output(&link, write("three")).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&file).unwrap(), "three");
        // a pipe is written into, not replaced by a file
        let fifo = dir.path().join("fifo");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
        };
        write_output(&fifo, write("four")).unwrap();
        assert_eq!(reader.join().unwrap(), "four");
        assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
        // a folder, or a file in a folder that is not there, is named
        let e = write_output(dir.path(), write("x"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("that is a folder"), "{e}");
        let e = write_output(&dir.path().join("gone/out.csv"), write("x"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("there is no folder") && e.ends_with("gone"),
            "{e}"
        );
        // (a device such as /dev/null is written into the same way; not
        // tried here, where a regression run as root would replace it)
    }

    #[test]
    fn a_held_folder_is_refused_to_a_second_holder_and_free_once_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let first = FolderLock::hold(dir.path(), "season").unwrap();
        let err = FolderLock::hold(dir.path(), "season")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("process {}", std::process::id())),
            "{err}"
        );
        drop(first);
        assert!(!dir.path().join(LOCK).exists());
        let _again = FolderLock::hold(dir.path(), "season").unwrap();
    }
}
