//! Helpers shared by the end-to-end test files (each uses some of them).
#![allow(dead_code)]

pub mod cargo;
pub mod web;

use std::{fs, path::Path};

/// The game indices of a journal file's complete lines (empty if there is
/// no file). A last line that a kill cut short (SIGKILL can stop a large
/// write between pages) has no line end; resume drops it, and so does this.
pub fn journal_indices(path: &Path) -> Vec<u64> {
    fs::read_to_string(path)
        .unwrap_or_default()
        .split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]
                .as_u64()
                .unwrap()
        })
        .collect()
}

/// Every file under `dir`, by its path below it, with its bytes, sorted.
pub fn files_under(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let bytes = fs::read(&path).unwrap();
                files.push((path.strip_prefix(dir).unwrap().to_path_buf(), bytes));
            }
        }
    }
    files.sort();
    files
}

/// Whether `real` holds the doc's `shown` lines: the same lines, where a
/// `...` line stands for any lines.
pub fn matches(shown: &[String], real: &[String]) -> bool {
    let parts: Vec<&[String]> = shown.split(|l| l == "...").collect();
    if parts.len() == 1 {
        return shown == real;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !real.starts_with(first) || !real.ends_with(last) {
        return false;
    }
    let mut at = first.len();
    for middle in &parts[1..parts.len() - 1] {
        match real[at..].windows(middle.len()).position(|w| w == *middle) {
            Some(i) => at += i + middle.len(),
            None => return false,
        }
    }
    at <= real.len() - last.len()
}

/// Each transcript of a doc's `## Transcripts` section: its `### ` part
/// (the command above the block is in it) and the lines of its `text` block.
pub fn doc_transcripts(doc: &str) -> Vec<(&str, Vec<String>)> {
    let section = &doc[doc.find("## Transcripts").expect("a Transcripts section")..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    section
        .split("\n### ")
        .skip(1)
        .map(|part| {
            let lines = part
                .split("```text\n")
                .nth(1)
                .and_then(|b| b.split("```").next())
                .expect("a text block")
                .lines()
                .map(str::to_string)
                .collect();
            (part, lines)
        })
        .collect()
}

/// The games journaled in the season folder `dir`, as JSON.
pub fn season_games(dir: &Path) -> Vec<serde_json::Value> {
    fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `ladder verify DIR` passes: every journaled game checks out.
pub fn assert_verified(dir: &Path) {
    assert_cmd::Command::cargo_bin("ladder")
        .unwrap()
        .arg("verify")
        .arg(dir)
        .assert()
        .success();
}

/// The test bot (`tests/fixtures/testbot.rs`), an example of this package
/// that `cargo test` builds beside the test binaries (and `cargo install`
/// leaves out).
#[cfg(debug_assertions)]
const TESTBOT: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/../debug/examples/testbot");
#[cfg(not(debug_assertions))]
const TESTBOT: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/../release/examples/testbot");

/// The test bot's path, brought up to date first (once per test process):
/// it is an example (so `cargo install` leaves it out), which `cargo test`
/// builds for the whole suite but not for `cargo test --test NAME`.
pub fn testbot() -> &'static str {
    static BUILT: std::sync::Once = std::sync::Once::new();
    BUILT.call_once(|| {
        // without the test's cargo variables: with them, ring's build
        // script (it watches `CARGO_MANIFEST_DIR`, `OUT_DIR`, ...) runs
        // again, and ring, rustls, ureq and ladder compile again, here and
        // in the next `cargo test`
        let mut build = cargo::plain();
        build.args(["build", "--quiet", "--example", "testbot"]);
        if !cfg!(debug_assertions) {
            build.arg("--release");
        }
        let status = build
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("cargo runs");
        assert!(status.success(), "cargo build --example testbot failed");
    });
    TESTBOT
}

/// The files a season's run writes that must not depend on how it was run
/// (`--jobs`, shards): its journal, description and every report.
pub const SEASON_FILES: [&str; 8] = [
    "games.jsonl",
    "season.json",
    "leaderboard.md",
    "standings.csv",
    "standings.json",
    "index.html",
    "crosstable.svg",
    "lengths.svg",
];

/// Whether a system tool a test needs runs here (`found`). Without it the
/// test fails under `CI=true`, since CI must install Debian's `package`,
/// and elsewhere is skipped, saying so.
pub fn require_tool(found: bool, tool: &str, package: &str) -> bool {
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{tool} is missing or does not run; CI must install it (apt-get install {package})"
        );
        eprintln!("SKIPPED: {tool} does not run on this machine (apt-get install {package})");
    }
    found
}

/// Whether bubblewrap starts a sandbox here (see [`require_tool`]).
pub fn bwrap_runs() -> bool {
    let ok = std::process::Command::new("bwrap")
        .args(["--ro-bind", "/", "/", "--unshare-pid", "--proc", "/proc"])
        .args(["--die-with-parent", "true"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    require_tool(ok, "bwrap", "bubblewrap")
}

/// Every catalogue game's name, as a season's `game` key takes it.
pub fn games() -> Vec<ladder::catalog::GameKind> {
    ladder::catalog::GameKind::ALL.to_vec()
}

/// The `[season.params]` table of `kind`'s shipped season, for a config
/// written elsewhere (relative paths made absolute): empty for a game whose
/// parameters all have defaults, the description's file for GDL.
pub fn season_params(kind: ladder::catalog::GameKind) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join(kind.config());
    let config: toml::Table = fs::read_to_string(&path).unwrap().parse().unwrap();
    let Some(params) = config["season"].get("params").and_then(|p| p.as_table()) else {
        return String::new();
    };
    let mut table = params.clone();
    for (_, value) in table.iter_mut() {
        if let Some(rel) = value.as_str().filter(|s| s.starts_with("../")) {
            *value = toml::Value::String(path.parent().unwrap().join(rel).display().to_string());
        }
    }
    format!("\n[season.params]\n{}", toml::to_string(&table).unwrap())
}

/// A config (or journal) text edited by a test: [`Edit::edit`] replaces
/// `from` with `to` and fails the test when `from` is not there, so an edit
/// that no longer matches the shipped text cannot pass unnoticed.
pub trait Edit {
    fn edit(&self, from: &str, to: &str) -> String;
}

impl Edit for str {
    fn edit(&self, from: &str, to: &str) -> String {
        assert!(
            self.contains(from),
            "the text to edit has no `{from}`:\n{self}"
        );
        self.replace(from, to)
    }
}

/// `ladder run CONFIG --reports REPORTS EXTRA...`, asserted by the caller.
pub fn run(config: &Path, reports: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_ladder"))
        .arg("run")
        .arg(config)
        .arg("--reports")
        .arg(reports)
        .args(extra)
        .assert()
}

/// Waits until `check` holds or `secs` pass; whether it held.
pub fn wait_for(secs: u64, mut check: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while std::time::Instant::now() < deadline {
        if check() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    check()
}

/// A path in the project's folder.
pub fn repo(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// `ladder ARGS` in `dir`, expected to succeed; its standard output.
pub fn ladder<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(dir: &Path, args: &[S]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ladder"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    // what went wrong may be on either (`ladder check` lists it on stdout)
    assert!(
        out.status.success(),
        "ladder {args:?}:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Whether the toolchain `tool` runs here (`tool --version`, or Go's
/// `tool version`); without it the test fails under CI, which must install
/// Debian's `package`, and is skipped elsewhere ([`require_tool`]).
pub fn toolchain(tool: &str, package: &str) -> bool {
    let runs = |arg: &str| std::process::Command::new(tool).arg(arg).output().is_ok();
    require_tool(runs("--version") || runs("version"), tool, package)
}

/// Builds the one-file Go program `source` into `exe`, with Go's caches in
/// `scratch` (no module, no network), failing the test if it does not build.
pub fn go_build(source: &Path, exe: &Path, scratch: &Path) {
    let out = std::process::Command::new("go")
        .arg("build")
        .arg("-o")
        .args([exe, source])
        .env("GOCACHE", scratch.join("gocache"))
        .env("GOPATH", scratch.join("gopath"))
        .env("GO111MODULE", "off")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "go build {}: {}",
        source.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs the Python `script` with `interpreter` (`python3`) and `args`,
/// expected to succeed: its standard output.
pub fn python<S: AsRef<std::ffi::OsStr>>(interpreter: &str, script: &str, args: &[S]) -> Vec<u8> {
    let out = std::process::Command::new(interpreter)
        .args(["-c", script])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
