//! Cargo run from inside a test (`tests/catalogue.rs` builds a copy of the
//! crate, `tests/packaging.rs` runs `cargo install`, [`super::testbot`]
//! brings the test bot up to date), in a target folder seeded from this
//! build or in this build's own, so that nothing is compiled again.
//!
//! Two things make a dependency compile again, and both are avoided here:
//! - the environment `cargo test` gives a test (`CARGO_MANIFEST_DIR`,
//!   `OUT_DIR`, ...): build scripts such as ring's watch those variables
//!   (`rerun-if-env-changed`), so an inner cargo that inherits them finds
//!   the dependency stale. [`plain`] removes them.
//! - a target folder of its own: [`seed`] hard-links this build's compiled
//!   dependencies into it and copies their fingerprints and build-script
//!   outputs (small files that cargo rewrites in place, which through a
//!   link would write into this build).

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The variables `cargo test` sets for a test, and `cargo run` for a
/// program, that a cargo started by the test must not inherit.
fn set_by_cargo(key: &str) -> bool {
    const PREFIXES: [&str; 6] = [
        "CARGO_MANIFEST_",
        "CARGO_PKG_",
        "CARGO_BIN_",
        "CARGO_CRATE_",
        "CARGO_PRIMARY_PACKAGE",
        "CARGO_TARGET_TMPDIR",
    ];
    key == "OUT_DIR" || PREFIXES.iter().any(|p| key.starts_with(p))
}

/// `cargo` (the one running the tests) with the test's own cargo variables
/// removed, so that it finds this build's units as `cargo test` left them.
pub fn plain() -> Command {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut command = Command::new(cargo);
    for (key, _) in std::env::vars_os() {
        if set_by_cargo(&key.to_string_lossy()) {
            command.env_remove(&key);
        }
    }
    command
}

/// [`plain`] cargo building into `target`.
pub fn command(target: &Path) -> Command {
    let mut command = plain();
    command.env("CARGO_TARGET_DIR", target);
    command
}

/// This build's `target/release`.
fn release() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_ladder"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The names of this package's own compiled units (the library, the
/// binary, each test, bench and example, and the build script's run, named
/// after the package), which an inner build compiles anew. The build
/// script's run above all: a copy has no git checkout, so it runs again and
/// writes `ladder --version`'s commit as `unknown`.
fn own_units() -> Vec<String> {
    let mut units = vec![
        "ladder".to_string(),
        "libladder".to_string(),
        "testbot".into(),
        env!("CARGO_PKG_NAME").into(),
    ];
    for folder in ["tests", "benches"] {
        for entry in fs::read_dir(Path::new(ROOT).join(folder))
            .unwrap()
            .flatten()
        {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "rs") {
                units.push(path.file_stem().unwrap().to_string_lossy().into_owned());
            }
        }
    }
    units
}

/// Puts every file under `from` into `to` (hard links, or copies where
/// `copy`), but this package's own units: those the inner build compiles
/// again, under the same names (cargo names a package's units the same
/// wherever it lies).
fn seed_tree(from: &Path, to: &Path, own: &[String], copy: bool) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap().flatten() {
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let name = entry.file_name().to_string_lossy().into_owned();
        let unit = name
            .rsplit_once('-')
            .map_or(name.as_str(), |(unit, _)| unit);
        if own.iter().any(|o| o == unit) || dst.exists() {
            continue;
        }
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            seed_tree(&src, &dst, own, copy);
        } else if kind.is_file() && (copy || fs::hard_link(&src, &dst).is_err()) {
            // with its time: cargo judges freshness by modification times
            fs::copy(&src, &dst).unwrap();
            let modified = entry.metadata().unwrap().modified().unwrap();
            fs::File::options()
                .write(true)
                .open(&dst)
                .unwrap()
                .set_modified(modified)
                .unwrap();
        }
    }
}

/// Seeds the target folder `target` with this build's compiled
/// dependencies (`target/release/deps`, linked) and their fingerprints and
/// build-script outputs (copied). Files already there are kept.
pub fn seed(target: &Path) {
    let own = own_units();
    let (from, to) = (release(), target.join("release"));
    seed_tree(&from.join("deps"), &to.join("deps"), &own, false);
    for part in ["build", ".fingerprint"] {
        seed_tree(&from.join(part), &to.join(part), &own, true);
    }
}
