//! ladder as a packaged command-line tool: shell completions and the man
//! page cover every subcommand, `--version` pins the build (the line
//! protocol's version and the git commit), and the crate's package holds
//! none of the seasons' output.

use std::process::Command;

mod common;

const LADDER: &str = env!("CARGO_BIN_EXE_ladder");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn ladder(args: &[&str]) -> String {
    let out = Command::new(LADDER).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "ladder {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands `ladder --help` lists.
fn subcommands() -> Vec<String> {
    let help = ladder(&["--help"]);
    let listed = help
        .split("Commands:")
        .nth(1)
        .expect("a Commands: section")
        .split("\n\n")
        .next()
        .unwrap();
    let names: Vec<String> = listed
        .lines()
        // a command's line; a long description goes on, indented further
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(str::to_string)
        .collect();
    for expected in [
        "run",
        "season",
        "match",
        "play",
        "merge",
        "completions",
        "man",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} not in {names:?}"
        );
    }
    names
}

#[test]
fn completions_and_the_man_page_cover_every_subcommand() {
    let names = subcommands();
    for shell in ["bash", "zsh", "fish"] {
        let script = ladder(&["completions", shell]);
        for name in &names {
            assert!(
                script.contains(name.as_str()),
                "{shell} completions lack `{name}`"
            );
        }
        // and the options of a subcommand
        assert!(script.contains("shard"), "{shell} completions lack --shard");
    }
    let man = ladder(&["man"]);
    assert!(
        man.starts_with(".ie") && man.contains(".TH ladder 1"),
        "not roff: {}",
        &man[..80]
    );
    for name in &names {
        assert!(
            // roff escapes every hyphen: ladder\-ggp\-player
            man.contains(&format!("ladder\\-{}", name.replace('-', "\\-"))),
            "the man page lacks `{name}`"
        );
    }
    // every page the top page points at is there: one command's, or all
    let run = ladder(&["man", "run"]);
    assert!(run.contains(".TH ladder-run 1"), "{}", &run[..120]);
    // a subcommand's page names ladder and its version as its source, as the
    // top page does (not the subcommand's bare name: "run ")
    let source = |page: &str| {
        page.lines()
            .find(|l| l.starts_with(".TH "))
            .and_then(|l| l.split('"').nth(1))
            .map(str::to_string)
    };
    let top_source = source(&man).expect("the top page's .TH names a source");
    assert!(top_source.starts_with("ladder 0."), "{top_source}");
    assert_eq!(source(&run), Some(top_source.clone()));
    assert!(
        run.contains("max\\-games"),
        "ladder-run(1) has run's options"
    );
    let arena_run = ladder(&["man", "arena", "run"]);
    assert!(arena_run.contains(".TH ladder-arena-run 1"));
    assert!(
        arena_run.contains("listen"),
        "ladder-arena-run(1) has its options"
    );
    let dir = tempfile::TempDir::new().unwrap();
    let pages = dir.path().join("man1");
    Command::new(LADDER)
        .args(["man", "--dir"])
        .arg(&pages)
        .output()
        .unwrap();
    for name in &names {
        let page = pages.join(format!("ladder-{name}.1"));
        let text = std::fs::read_to_string(&page).unwrap_or_else(|_| panic!("no {page:?}"));
        assert!(text.contains(&format!(".TH ladder-{name} 1")), "{page:?}");
        assert_eq!(source(&text), Some(top_source.clone()), "{page:?}");
    }
    assert!(pages.join("ladder.1").exists() && pages.join("ladder-arena-add.1").exists());
    let unknown = Command::new(LADDER)
        .args(["man", "arena", "nope"])
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr)
        .contains("`ladder-arena` has no subcommand `nope` (it has: init, run, add,"));
    let bad = Command::new(LADDER)
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn the_version_names_the_protocol_and_the_commit() {
    let version = ladder(&["--version"]);
    let expected_start = format!(
        "ladder {} (line protocol 2, commit ",
        env!("CARGO_PKG_VERSION")
    );
    assert!(version.starts_with(&expected_start), "{version}");
    let commit = version
        .trim_end()
        .trim_end_matches(')')
        .rsplit(' ')
        .next()
        .unwrap();
    let git = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(ROOT)
        .output();
    match git {
        Ok(out) if out.status.success() => {
            assert_eq!(commit, String::from_utf8_lossy(&out.stdout).trim());
        }
        _ => assert_eq!(commit, "unknown"),
    }
}

#[test]
fn the_package_holds_the_sources_and_none_of_the_output() {
    let out = Command::new(env!("CARGO"))
        .args(["package", "--list", "--allow-dirty", "--offline"])
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files = String::from_utf8(out.stdout).unwrap();
    for needed in [
        "Cargo.toml",
        "LICENSE",
        "README.md",
        "CHANGELOG.md",
        "src/main.rs",
        "build.rs",
    ] {
        assert!(
            files.lines().any(|f| f == needed),
            "{needed} is not packaged"
        );
    }
    for f in files.lines() {
        assert!(
            !f.starts_with("reports/") && !f.starts_with("target/") && !f.starts_with(".ci/"),
            "{f} is packaged"
        );
    }
}

#[test]
fn the_package_has_a_name_of_its_own_and_installs_the_command_ladder() {
    // `ladder` on crates.io is another crate's name
    let manifest: toml::Table = std::fs::read_to_string(format!("{ROOT}/Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(manifest["package"]["name"].as_str(), Some("botladder"));
    assert_eq!(manifest["lib"]["name"].as_str(), Some("ladder"));
    assert_eq!(manifest["bin"][0]["name"].as_str(), Some("ladder"));
    let readme = std::fs::read_to_string(format!("{ROOT}/README.md")).unwrap();
    assert!(readme.contains("The package is named `botladder`"));
}

#[test]
fn cargo_install_installs_ladder_alone_and_it_runs_a_shipped_config() {
    let tmp = tempfile::TempDir::new().unwrap();
    let root = tmp.path().join("root");
    // a target folder of its own, kept between runs (this cargo runs inside
    // `cargo test`, which holds the package's own), seeded with this build's
    // dependencies: those whose features are the same without the
    // dev-dependencies are not compiled again
    let target = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("install-target");
    common::cargo::seed(&target);
    // ladder's own units at opt-level 0: what is installed and that it runs
    // is tested here, not its speed, and an optimised build of ladder alone
    // takes two minutes on two cores
    let out = common::cargo::command(&target)
        .args([
            "--config",
            "profile.release.package.botladder.opt-level = 0",
        ])
        .args(["install", "--offline", "--locked", "--path", ROOT, "--root"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let installed: Vec<String> = std::fs::read_dir(root.join("bin"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        installed,
        ["ladder"],
        "only ladder is installed, no test fixture"
    );
    let ladder = root.join("bin/ladder");
    let version = Command::new(&ladder).arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("ladder "));
    let run = Command::new(&ladder)
        .args(["run", "configs/troops.toml", "--quiet", "--reports"])
        .arg(tmp.path().join("reports"))
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("1200 games played now"));
}
