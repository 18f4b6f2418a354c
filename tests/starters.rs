//! The starter bots of `bots/` in C, C++, JavaScript, Go, Java and Rust,
//! built with their real toolchains as their READMEs say and run in the
//! bubblewrap sandbox with its default limits (so a JVM, V8 and Go start
//! there): each passes `ladder check` in both games it plays, a season of
//! all of them against `random` on a smaller board has no forfeit, and,
//! since all six port one algorithm with one generator, they play the same
//! moves for the same seed.

mod common;

use std::{path::Path, process::Command};

/// A starter bot: its language, the toolchain that builds or runs it (and
/// its Debian package), and how its README builds it.
struct Starter {
    lang: &'static str,
    tool: &'static str,
    package: &'static str,
}

const STARTERS: [Starter; 6] = [
    Starter {
        lang: "c",
        tool: "gcc",
        package: "gcc",
    },
    Starter {
        lang: "cpp",
        tool: "g++",
        package: "g++",
    },
    Starter {
        lang: "js",
        tool: "node",
        package: "nodejs",
    },
    Starter {
        lang: "go",
        tool: "go",
        package: "golang-go",
    },
    Starter {
        lang: "java",
        tool: "javac",
        package: "default-jdk-headless",
    },
    Starter {
        lang: "rust",
        tool: "rustc",
        package: "rustc (rustup)",
    },
];

fn run(command: &mut Command) {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

impl Starter {
    /// Builds the bot into `dir`; its command, or `None` when the toolchain
    /// is missing outside CI.
    fn build(&self, dir: &Path) -> Option<Vec<String>> {
        if !common::toolchain(self.tool, self.package) {
            return None;
        }
        let source = |file: &str| common::repo(&format!("bots/{}/{file}", self.lang));
        let exe = dir.join(format!("starter-{}", self.lang));
        let path = |p: &Path| p.display().to_string();
        match self.lang {
            "c" => run(Command::new("gcc")
                .args(["-O2", "-Wall", "-Werror", "-o"])
                .args([&exe, &source("starter.c")])),
            "cpp" => run(Command::new("g++")
                .args(["-O2", "-std=c++17", "-Wall", "-Werror", "-o"])
                .args([&exe, &source("starter.cpp")])),
            "go" => common::go_build(&source("starter.go"), &exe, dir),
            "java" => {
                let classes = dir.join("java");
                run(Command::new("javac")
                    .arg("-d")
                    .args([&classes, &source("Starter.java")]));
                return Some(vec![
                    "java".into(),
                    "-cp".into(),
                    path(&classes),
                    "Starter".into(),
                ]);
            }
            "rust" => run(Command::new("rustc")
                .args(["--edition", "2021", "-O", "-D", "warnings", "-o"])
                .args([&exe, &source("starter.rs")])),
            _ => return Some(vec!["node".into(), path(&source("starter.js"))]),
        }
        Some(vec![path(&exe)])
    }
}

/// Every starter whose toolchain is here, built into `dir`: (language, command).
fn built(dir: &Path) -> Vec<(&'static str, Vec<String>)> {
    STARTERS
        .iter()
        .filter_map(|s| Some((s.lang, s.build(dir)?)))
        .collect()
}

/// The sandbox, with time enough for a JVM to start on a busy machine.
const SANDBOXED: [&str; 6] = [
    "--sandbox",
    "bwrap",
    "--startup-time-ms",
    "20000",
    "--move-time-ms",
    "2000",
];

#[test]
fn every_starter_bot_passes_ladder_check_in_the_sandbox_in_both_its_games() {
    if !common::bwrap_runs() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    for (lang, command) in built(tmp.path()) {
        for game in ["breakthrough", "troops"] {
            let mut args = vec!["check", "--game", game];
            args.extend(SANDBOXED);
            args.push("--");
            args.extend(command.iter().map(String::as_str));
            let out = common::ladder(tmp.path(), &args);
            assert!(out.contains("no problems found"), "{lang} {game}: {out}");
            assert!(out.contains("with `ready` in"), "{lang} {game}: {out}");
        }
    }
}

/// A season of every built starter and `random` in `game` with `params`,
/// in the sandbox with its default limits: its journal's games.
fn season(
    dir: &Path,
    starters: &[(&str, Vec<String>)],
    game: &str,
    params: &str,
) -> Vec<serde_json::Value> {
    let mut cfg = format!(
        "[season]\nname = \"{game}\"\ngame = \"{game}\"\ngames_per_pair = 2\nseed = 3\n\
         sandbox = \"bwrap\"\nstartup_time_ms = 20000\nmove_time_ms = 2000\n\n\
         [season.params]\n{params}\n\n[[bot]]\nname = \"random\"\nbuiltin = \"random\"\n"
    );
    for (lang, command) in starters {
        let command: Vec<String> = command.iter().map(|w| format!("{w:?}")).collect();
        cfg += &format!(
            "\n[[bot]]\nname = \"{lang}\"\ncommand = [{}]\n",
            command.join(", ")
        );
    }
    let config = dir.join(format!("{game}.toml"));
    std::fs::write(&config, cfg).unwrap();
    common::ladder(dir, &["run", &format!("{game}.toml"), "-q"]);
    let folder = dir.join("reports").join(game);
    common::assert_verified(&folder);
    common::season_games(&folder)
}

#[test]
fn a_season_of_the_starter_bots_has_no_forfeit_and_beats_random() {
    if !common::bwrap_runs() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let starters = built(tmp.path());
    let n = starters.len() + 1;
    // a board of 6 columns and 7 rows: the bots read the size from the greeting
    for (game, params) in [
        ("breakthrough", "width = 6\nheight = 7"),
        ("troops", "troops = 11"),
    ] {
        let games = season(tmp.path(), &starters, game, params);
        assert_eq!(games.len(), n * (n - 1), "{game}: two games a pair");
        for g in &games {
            assert_eq!(g["termination"]["kind"], "normal", "{game}: {g}");
        }
        // every starter outscores `random` over their two games
        for (lang, _) in &starters {
            let (mut mine, mut theirs) = (0, 0);
            for g in &games {
                let names: Vec<&str> = g["seats"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| b.as_str().unwrap())
                    .collect();
                let goals: Vec<u64> = g["goals"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap())
                    .collect();
                for seat in 0..2 {
                    if names[seat] == *lang && names[1 - seat] == "random" {
                        mine += goals[seat];
                        theirs += goals[1 - seat];
                    }
                }
            }
            assert!(mine > theirs, "{game}: {lang} {mine} to random's {theirs}");
        }
    }
}

#[test]
fn the_six_starter_bots_play_the_same_moves_for_the_same_seed() {
    if !common::bwrap_runs() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    for game in ["breakthrough", "troops"] {
        let mut played: Vec<(&str, Vec<serde_json::Value>)> = Vec::new();
        for (lang, command) in built(tmp.path()) {
            let reports = format!("{game}-{lang}");
            let bot = format!("cmd:{}", command.join(" "));
            let mut args = vec!["match", game, &bot, "random", "--games", "2", "--seed", "9"];
            args.extend(SANDBOXED);
            args.extend(["-q", "--reports", &reports]);
            common::ladder(tmp.path(), &args);
            let folder = std::fs::read_dir(tmp.path().join(&reports))
                .unwrap()
                .next()
                .unwrap()
                .unwrap()
                .path();
            let moves = common::season_games(&folder)
                .iter()
                .map(|g| g["moves"].clone())
                .collect();
            played.push((lang, moves));
        }
        for (lang, moves) in &played[1..] {
            assert_eq!(
                moves, &played[0].1,
                "{game}: {lang} played otherwise than {}",
                played[0].0
            );
        }
    }
}
