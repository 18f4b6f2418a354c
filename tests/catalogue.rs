//! A sixth game needs its folder and one catalogue line, and the per-game
//! tests pick it up: a copy of the crate gets the test-only game Nim
//! (`tests/fixtures/sixth_game/`) as `src/games/nim/`, its module line, one
//! `Nim => nim` line in `catalogue!`, and its shipped season; then the
//! per-game random-playout test of that copy runs. It passes for Nim as it
//! is, and fails naming Nim when Nim's rules are broken (a move that takes
//! no stone, so a game never ends): the test plays every catalogue game,
//! the sixth included, with no line of it to add.
//!
//! The copy builds in a target folder of its own seeded with this build's
//! compiled dependencies (`common::cargo`), so only ladder itself compiles
//! again, at opt-level 0 and incrementally: the first build and run take
//! about a minute on two cores (two at opt-level 1: optimising costs more
//! than the unoptimised playouts do), the second (Nim broken) seconds.

use std::{
    fs,
    path::{Path, PathBuf},
};

mod common;
use common::Edit;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Copies `from` into `to`, folders and files (no links).
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap().flatten() {
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&src, &dst);
        } else {
            fs::copy(&src, &dst).unwrap();
        }
    }
}

/// The crate's sources with Nim added, and a target folder of its own.
fn crate_with_nim(dir: &Path) -> PathBuf {
    let copy = dir.join("ladder");
    for part in ["src", "tests", "benches", "games", "configs", "bots"] {
        copy_tree(&Path::new(ROOT).join(part), &copy.join(part));
    }
    for file in ["Cargo.toml", "Cargo.lock", "build.rs", "README.md"] {
        fs::copy(Path::new(ROOT).join(file), copy.join(file)).unwrap();
    }
    let nim = copy.join("src/games/nim");
    fs::create_dir_all(&nim).unwrap();
    fs::copy(
        Path::new(ROOT).join("tests/fixtures/sixth_game/mod.rs"),
        nim.join("mod.rs"),
    )
    .unwrap();
    let games = copy.join("src/games/mod.rs");
    let text = fs::read_to_string(&games).unwrap();
    fs::write(
        &games,
        text.edit("pub mod gdl;\n", "pub mod gdl;\npub mod nim;\n"),
    )
    .unwrap();
    // the one catalogue line
    let catalog = copy.join("src/catalog.rs");
    let text = fs::read_to_string(&catalog).unwrap();
    fs::write(
        &catalog,
        text.edit("    Gdl => gdl,\n}", "    Gdl => gdl,\n    Nim => nim,\n}"),
    )
    .unwrap();
    fs::write(
        copy.join("configs/nim.toml"),
        "[season]\nname = \"nim\"\ngame = \"nim\"\n\n[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n\n[[bot]]\nname = \"b\"\nbuiltin = \"random\"\n",
    )
    .unwrap();
    // the copy's own units at opt-level 0, incrementally: the second build
    // (Nim broken) compiles in seconds, not minutes
    fs::create_dir_all(copy.join(".cargo")).unwrap();
    fs::write(
        copy.join(".cargo/config.toml"),
        "[profile.release]\nincremental = true\n\n[profile.release.package.botladder]\nopt-level = 0\n",
    )
    .unwrap();
    common::cargo::seed(&dir.join("target"));
    copy
}

/// `cargo test --release --test games` of the copy: whether it passed, and
/// what it printed.
fn per_game_tests(copy: &Path, target: &Path) -> (bool, String) {
    let out = common::cargo::command(target)
        .current_dir(copy)
        .args(["test", "--release", "--offline", "--test", "games"])
        .args(["--", "every_catalogue_game", "--nocapture"])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn a_sixth_game_is_its_folder_and_one_catalogue_line_and_the_per_game_tests_play_it() {
    let dir = tempfile::tempdir().unwrap();
    let copy = crate_with_nim(dir.path());
    let target = dir.path().join("target");

    let (passed, out) = per_game_tests(&copy, &target);
    assert!(passed, "Nim as it is passes:\n{out}");
    assert!(
        out.contains("test every_catalogue_game_keeps_the_invariants_over_random_playouts ... ok"),
        "{out}"
    );

    // broken rules: a take leaves the pile as it was, so no game ends
    let nim = copy.join("src/games/nim/mod.rs");
    let text = fs::read_to_string(&nim).unwrap();
    fs::write(
        &nim,
        text.edit("self.pile -= n; // SIXTH-GAME-APPLY", "let _ = n;"),
    )
    .unwrap();
    let (passed, out) = per_game_tests(&copy, &target);
    assert!(!passed, "a Nim that never ends passed:\n{out}");
    assert!(
        out.contains("nim game 0 runs past"),
        "the failure names the sixth game:\n{out}"
    );
}
