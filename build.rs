//! Puts the git commit ladder is built from into `ladder --version`
//! (`LADDER_COMMIT`), so a bug report pins the build; `unknown` outside a
//! git checkout (a crate from crates.io, a source tarball).

use std::{path::Path, process::Command};

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=LADDER_COMMIT={commit}");
    // rebuild when the checkout moves to another commit, and only then
    let watched: Vec<&str> = [".git/HEAD", ".git/refs/heads", ".git/packed-refs"]
        .into_iter()
        .filter(|p| Path::new(p).exists())
        .collect();
    if watched.is_empty() {
        println!("cargo:rerun-if-changed=build.rs");
    }
    for path in watched {
        println!("cargo:rerun-if-changed={path}");
    }
}
