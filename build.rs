//! Puts the git commit ladder is built from into `ladder --version`
//! (`LADDER_COMMIT`), so a bug report pins the build; `unknown` outside a
//! git checkout (a crate from crates.io, a source tarball).

use std::{path::PathBuf, process::Command};

/// What `git ARGS` prints, trimmed; `None` if git fails or prints nothing.
fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=LADDER_COMMIT={commit}");
    // rebuild when the checkout moves to another commit, and only then; in
    // a linked worktree `.git` is a file, and HEAD and the refs live in
    // folders that git names
    let folder = |what| git(&["rev-parse", "--path-format=absolute", what]).map(PathBuf::from);
    let mut watched: Vec<PathBuf> = Vec::new();
    if let Some(dir) = folder("--git-dir") {
        watched.push(dir.join("HEAD"));
    }
    if let Some(common) = folder("--git-common-dir") {
        watched.push(common.join("refs/heads"));
        watched.push(common.join("packed-refs"));
    }
    watched.retain(|p| p.exists());
    if watched.is_empty() {
        println!("cargo:rerun-if-changed=build.rs");
    }
    for path in watched {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}
