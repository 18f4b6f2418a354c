//! A bot's program files, kept in the arena's folder: a later edit of the
//! source changes no version that plays.
//!
//! Each is kept under `bots/HASH/`, named by content. A command's program
//! files are copied one by one ([`copy_programs`]: `python3 bot.py` keeps
//! `bots/HASH/bot.py`); a bot with a folder (`dir`, `arena add --dir`) has
//! the folder copied whole ([`copy_folder`]), since its program may read
//! any file in it (a module it imports, a class path, a model). A folder is
//! staged beside the kept ones and renamed into place ([`keep_folder`]), so
//! a kill leaves the whole folder or none of it; the same content kept
//! twice, or by two processes at once, is kept once.

use std::{
    fs,
    os::unix::fs::PermissionsExt,
    path::{Component, Path, PathBuf},
};

use sha2::{Digest, Sha256};

use crate::core::{
    error::{Error, Result},
    files,
};

/// The most a bot's folder may hold for [`copy_folder`], in bytes, each
/// file and folder counted 512 bytes more (a tar header's worth, as for
/// an upload): 64 MiB, what an upload may unpack to by default.
pub const MOST_FOLDER: u64 = 64 << 20;

/// What a file or folder costs against [`MOST_FOLDER`] besides its bytes.
const ENTRY: u64 = 512;

/// The file in the arena's `bots/` held (`flock`) while a bot's files are
/// placed and it joins, by an upload or `arena add`: one at a time, so
/// that one that fails removes only what it placed.
const JOINING: &str = ".upload.lock";

/// Waits for the arena's joining lock ([`JOINING`]); held until the file
/// is dropped.
pub fn hold_joining(arena: &Path) -> Result<fs::File> {
    let bots = arena.join("bots");
    fs::create_dir_all(&bots).map_err(Error::io("creating", &bots))?;
    let lock = bots.join(JOINING);
    let held = fs::File::create(&lock).map_err(Error::io("opening", &lock))?;
    held.lock().map_err(Error::io("locking", &lock))?;
    Ok(held)
}

/// The names of the folders in the arena's `bots/` now.
pub fn kept_folders(arena: &Path) -> Vec<std::ffi::OsString> {
    let mut names: Vec<_> = fs::read_dir(arena.join("bots"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name())
        .collect();
    names.sort();
    names
}

/// Removes the folders of the arena's `bots/` that are not in `before`
/// ([`kept_folders`]): what a bot that could not join placed there.
pub fn remove_placed(arena: &Path, before: &[std::ffi::OsString]) {
    for name in kept_folders(arena) {
        if before.binary_search(&name).is_err() {
            let _ = fs::remove_dir_all(arena.join("bots").join(name));
        }
    }
}

/// Sets a kept file's permission bits (`0o755`).
pub fn set_mode(path: &Path, mode: u32) -> Result<()> {
    let mode = fs::Permissions::from_mode(mode);
    fs::set_permissions(path, mode).map_err(Error::io("writing", path))
}

/// The name a hash gives a kept folder: its first 8 bytes in hex.
pub fn hash_name(hash: Sha256) -> String {
    hash.finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Moves the folder `staged` (in the arena's folder) to `dest`, unless
/// `dest` is there already (the same content, kept before or at the same
/// moment by another process): then `staged` is removed. Flushed to disk
/// before it is named. Whether this call made `dest`.
pub fn keep_folder(staged: tempfile::TempDir, dest: &Path) -> Result<bool> {
    if dest.exists() {
        return Ok(false);
    }
    if let Some(parent) = dest.parent() {
        fs::create_dir_all(parent).map_err(Error::io("creating", parent))?;
    }
    let kept = staged.keep();
    if let Err(e) = fs::rename(&kept, dest) {
        let _ = fs::remove_dir_all(&kept);
        return if dest.is_dir() {
            Ok(false)
        } else {
            Err(Error::io("writing", dest)(e))
        };
    }
    // the files and their names on disk before the arena names them
    if let Err(e) = files::sync_file_system(dest) {
        let _ = fs::remove_dir_all(dest);
        return Err(e);
    }
    Ok(true)
}

/// `command` with each program file it names copied into `arena/bots/HASH/`
/// and named there (relative to the arena): every word after the first that
/// names a file, and the first word when it is a relative path to a file
/// (`./bot`). A command found on `PATH` (`python3`) or given by an
/// absolute path (`/usr/bin/python3`) stays as it is: it is the machine's,
/// not the bot's.
pub fn copy_programs(arena: &Path, from: &Path, command: &[String]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for (i, word) in command.iter().enumerate() {
        // a file the arena keeps already (an uploaded bot's)
        let kept = from == arena
            && Path::new(word).starts_with("bots")
            && Path::new(word)
                .components()
                .all(|c| matches!(c, Component::Normal(_)));
        if kept {
            out.push(word.clone());
            continue;
        }
        let path = from.join(word);
        let program =
            path.is_file() && (i > 0 || (word.contains('/') && !Path::new(word).is_absolute()));
        if !program {
            out.push(word.clone());
            continue;
        }
        let mode = fs::metadata(&path)
            .map_err(Error::io("reading", &path))?
            .permissions()
            .mode();
        let bytes = read_bounded(&path, MOST_FOLDER)?;
        let hash = hash_name(Sha256::new_with_prefix(&bytes));
        let file = path.file_name().expect("a file has a name");
        let rel = Path::new("bots").join(&hash).join(file);
        let dest = arena.join(&rel);
        if !dest.is_file() {
            let folder = dest.parent().expect("in bots/HASH");
            fs::create_dir_all(folder).map_err(Error::io("creating", folder))?;
            files::replace(&dest, &bytes)?;
            set_mode(&dest, mode)?;
        } else {
            // the same file kept for a bot that read it (`python3 bot.py`)
            // runs as a program too once this one is (`./bot.py`)
            let kept = fs::metadata(&dest)
                .map_err(Error::io("reading", &dest))?
                .permissions()
                .mode();
            if mode & !kept & 0o111 != 0 {
                set_mode(&dest, kept | (mode & 0o111))?;
            }
        }
        out.push(rel.display().to_string());
    }
    Ok(out)
}

/// The file at `path`, read whole if it holds at most `most` bytes.
fn read_bounded(path: &Path, most: u64) -> Result<Vec<u8>> {
    let size = fs::metadata(path)
        .map_err(Error::io("reading", path))?
        .len();
    if size > most {
        return Err(Error::Usage(format!(
            "{}: {size} bytes, more than the {most} an arena keeps of a bot's program",
            path.display()
        )));
    }
    fs::read(path).map_err(Error::io("reading", path))
}

/// One thing in a bot's folder: its path inside it, and a file's bytes
/// and whether it runs (`None`: a folder).
type Entry = (PathBuf, Option<(bool, Vec<u8>)>);

/// Copies the bot's folder `folder` whole into `arena/bots/HASH/` (HASH of
/// its files' and folders' paths, bytes and whether each file runs), unless
/// it is kept there already; `bots/HASH`, relative to the arena. A link is
/// copied as the file it names when that file is in the folder; a link out
/// of it, to a folder, or a special file refuses the copy, and so does a
/// folder that holds more than [`MOST_FOLDER`] or the arena itself.
pub fn copy_folder(arena: &Path, folder: &Path) -> Result<PathBuf> {
    let shown = folder.display();
    let root = folder
        .canonicalize()
        .map_err(|e| Error::Usage(format!("dir `{shown}`: {e}")))?;
    if !root.is_dir() {
        return Err(Error::Usage(format!("dir `{shown}` is not a folder")));
    }
    if arena.canonicalize().is_ok_and(|a| a.starts_with(&root)) {
        return Err(Error::Usage(format!(
            "dir `{shown}` holds the arena: a bot's folder is copied whole into the arena"
        )));
    }
    let mut entries = Vec::new();
    let mut left = MOST_FOLDER;
    gather(&root, &root, Path::new(""), &mut entries, &mut left)
        .map_err(|m| Error::Usage(format!("dir `{shown}`: {m}")))?;
    let mut hash = Sha256::new();
    for (rel, file) in &entries {
        hash.update(rel.as_os_str().as_encoded_bytes());
        match file {
            None => hash.update([0, b'd']),
            Some((runs, bytes)) => {
                hash.update([0, if *runs { b'x' } else { b'f' }]);
                hash.update((bytes.len() as u64).to_le_bytes());
                hash.update(bytes);
            }
        }
    }
    let rel = Path::new("bots").join(hash_name(hash));
    place(arena, &entries, &arena.join(&rel))?;
    Ok(rel)
}

/// Copies every folder the arena `from` keeps in `bots/` into the arena
/// `to`'s `bots/` under the same name, which its bots' specs name (a
/// replay's arena); one kept there already stays.
pub fn copy_kept(from: &Path, to: &Path) -> Result<()> {
    for name in kept_folders(from) {
        if name.as_encoded_bytes().starts_with(b".") {
            continue;
        }
        let folder = from.join("bots").join(&name);
        let mut entries = Vec::new();
        // the arena kept it within its bounds already
        let mut left = u64::MAX;
        gather(&folder, &folder, Path::new(""), &mut entries, &mut left)
            .map_err(|m| Error::Usage(format!("{}: {m}", folder.display())))?;
        place(to, &entries, &to.join("bots").join(&name))?;
    }
    Ok(())
}

/// Writes `entries` into a folder staged in `arena` and keeps it as
/// `dest` ([`keep_folder`]), unless `dest` is there already.
fn place(arena: &Path, entries: &[Entry], dest: &Path) -> Result<()> {
    if dest.is_dir() {
        return Ok(());
    }
    let staged = tempfile::Builder::new()
        .prefix(".copy-")
        .tempdir_in(arena)
        .map_err(Error::io("creating a folder in", arena))?;
    for (path, file) in entries {
        let target = staged.path().join(path);
        match file {
            None => fs::create_dir_all(&target).map_err(Error::io("creating", &target))?,
            Some((runs, bytes)) => {
                fs::write(&target, bytes).map_err(Error::io("writing", &target))?;
                set_mode(&target, if *runs { 0o755 } else { 0o644 })?;
            }
        }
    }
    keep_folder(staged, dest)?;
    Ok(())
}

/// Adds what the folder `at` (`rel` inside `root`) holds to `entries`, in
/// name order, folders before what they hold; `left` is what may still be
/// read.
fn gather(
    root: &Path,
    at: &Path,
    rel: &Path,
    entries: &mut Vec<Entry>,
    left: &mut u64,
) -> std::result::Result<(), String> {
    let read = |e: std::io::Error| format!("{}: {e}", at.display());
    let mut names: Vec<_> = fs::read_dir(at)
        .map_err(read)?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<std::io::Result<_>>()
        .map_err(read)?;
    names.sort();
    for name in names {
        let path = at.join(&name);
        let inside = rel.join(&name);
        let shown = inside.display();
        let over = || {
            format!("it holds more than {MOST_FOLDER} bytes (each file and folder counted {ENTRY} more), the most an arena copies of a bot's folder")
        };
        *left = left.checked_sub(ENTRY).ok_or_else(over)?;
        let meta = fs::symlink_metadata(&path).map_err(|e| format!("{shown}: {e}"))?;
        let (file, meta) = if meta.file_type().is_symlink() {
            let target = path.canonicalize().ok().filter(|t| t.starts_with(root));
            match target.and_then(|t| fs::metadata(&t).ok().map(|m| (t, m))) {
                Some((t, m)) if m.is_file() => (t, m),
                _ => {
                    return Err(format!(
                        "`{shown}` is a link to a folder or out of the folder; only files \
                         and folders are copied, and links to files in it"
                    ))
                }
            }
        } else {
            (path.clone(), meta)
        };
        if meta.is_dir() {
            entries.push((inside.clone(), None));
            gather(root, &path, &inside, entries, left)?;
        } else if meta.is_file() {
            *left = left.checked_sub(meta.len()).ok_or_else(over)?;
            let bytes = fs::read(&file).map_err(|e| format!("{shown}: {e}"))?;
            let runs = meta.permissions().mode() & 0o111 != 0;
            entries.push((inside, Some((runs, bytes))));
        } else {
            return Err(format!(
                "`{shown}` is a special file (a pipe, a socket, a device); only files and \
                 folders are copied"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str, mode: u32) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
        set_mode(path, mode).unwrap();
    }

    #[test]
    fn a_folder_is_kept_whole_once_by_its_content() {
        let tmp = tempfile::tempdir().unwrap();
        let (arena, bot) = (tmp.path().join("arena"), tmp.path().join("bot"));
        fs::create_dir_all(&arena).unwrap();
        write(&bot.join("main.py"), "import helper\n", 0o644);
        write(&bot.join("lib/helper.py"), "x = 1\n", 0o644);
        write(&bot.join("run"), "#!/bin/sh\n", 0o755);
        fs::create_dir_all(bot.join("cache")).unwrap();
        std::os::unix::fs::symlink("lib/helper.py", bot.join("helper.py")).unwrap();
        let rel = copy_folder(&arena, &bot).unwrap();
        let kept = arena.join(&rel);
        assert_eq!(
            fs::read_to_string(kept.join("lib/helper.py")).unwrap(),
            "x = 1\n"
        );
        // the link is kept as the file it names
        assert!(!fs::symlink_metadata(kept.join("helper.py"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            fs::read_to_string(kept.join("helper.py")).unwrap(),
            "x = 1\n"
        );
        assert!(kept.join("cache").is_dir());
        let mode = |p: &str| fs::metadata(kept.join(p)).unwrap().permissions().mode() & 0o777;
        assert_eq!((mode("run"), mode("main.py")), (0o755, 0o644));
        // the same content again: the same folder, nothing staged left
        assert_eq!(copy_folder(&arena, &bot).unwrap(), rel);
        let names: Vec<_> = fs::read_dir(&arena)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["bots"]);
        // a changed file, or a file that now runs: another folder
        write(&bot.join("lib/helper.py"), "x = 2\n", 0o644);
        let changed = copy_folder(&arena, &bot).unwrap();
        assert_ne!(changed, rel);
        set_mode(&bot.join("main.py"), 0o755).unwrap();
        let runs = copy_folder(&arena, &bot).unwrap();
        assert!(runs != rel && runs != changed);
        // the first copy is as it was
        assert_eq!(
            fs::read_to_string(kept.join("lib/helper.py")).unwrap(),
            "x = 1\n"
        );
    }

    #[test]
    fn links_out_special_files_the_arena_itself_and_too_much_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let arena = tmp.path().join("arena");
        fs::create_dir_all(&arena).unwrap();
        let refused = |bot: &Path| copy_folder(&arena, bot).unwrap_err().to_string();
        let out = tmp.path().join("out");
        write(&out.join("main.py"), "pass\n", 0o644);
        std::os::unix::fs::symlink("/etc/passwd", out.join("passwd")).unwrap();
        assert!(
            refused(&out).contains("`passwd` is a link"),
            "{}",
            refused(&out)
        );
        let loops = tmp.path().join("loops");
        fs::create_dir_all(&loops).unwrap();
        std::os::unix::fs::symlink(".", loops.join("again")).unwrap();
        assert!(refused(&loops).contains("`again` is a link to a folder"));
        let fifo = tmp.path().join("fifo");
        fs::create_dir_all(&fifo).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            fifo.join("pipe"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o644),
            0,
        )
        .unwrap();
        assert!(refused(&fifo).contains("`pipe` is a special file"));
        assert!(refused(tmp.path()).contains("holds the arena"));
        let big = tmp.path().join("big");
        fs::create_dir_all(&big).unwrap();
        fs::File::create(big.join("model.bin"))
            .unwrap()
            .set_len(MOST_FOLDER)
            .unwrap();
        let e = refused(&big);
        assert!(e.contains("holds more than 67108864 bytes"), "{e}");
        assert!(refused(&tmp.path().join("nothing")).contains("dir `"));
        write(&tmp.path().join("file"), "x", 0o644);
        assert!(refused(&tmp.path().join("file")).contains("is not a folder"));
        // nothing was kept
        assert!(!arena.join("bots").exists());
        let names: Vec<_> = fs::read_dir(&arena).unwrap().collect();
        assert!(names.is_empty());
    }
}
