//! `--color auto|always|never` and `NO_COLOR`, end to end: tables and
//! errors into a pipe, and tables and the progress bar in a real terminal
//! (a pseudo-terminal from util-linux's `script`). Files never get colour.
//! (`ladder play`'s board in a terminal: tests/play.rs, under tmux.)

use std::{fs, path::Path, process::Command};

use tempfile::TempDir;

mod common;

const LADDER: &str = env!("CARGO_BIN_EXE_ladder");
const CONFIG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/configs/troops.toml");

/// A bold table header, as the tables draw it.
const BOLD_HEADER: &str = "\x1b[1m Rank";
/// A green crosstable cell (a share above half).
const GREEN: &str = "\x1b[38;5;10m";
/// The progress bar's cyan.
const CYAN: &str = "\x1b[36m";

/// `ladder run` of 200 troops games into `reports`, output piped.
fn run_piped(reports: &Path, color: &str, no_color: bool) -> (String, String) {
    let mut cmd = Command::new(LADDER);
    cmd.args(["run", CONFIG, "--max-games", "200", "--reports"])
        .arg(reports)
        .args(["--color", color]);
    if no_color {
        cmd.env("NO_COLOR", "1");
    } else {
        cmd.env_remove("NO_COLOR");
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{out:?}");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Every file of a season's folder but the timing log, by name.
fn season_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap() != "timing.jsonl")
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// Removes ANSI SGR codes (`ESC [ ... m`).
fn strip(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('\x1b') {
        out.push_str(&rest[..i]);
        let end = rest[i..].find('m').expect("an SGR code ends in m");
        rest = &rest[i + end + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn into_a_pipe_only_always_colours_and_the_files_are_the_same() {
    let tmp = TempDir::new().unwrap();
    let (never, _) = run_piped(&tmp.path().join("never"), "never", false);
    let (auto, _) = run_piped(&tmp.path().join("auto"), "auto", false);
    let (always, _) = run_piped(&tmp.path().join("always"), "always", true);
    assert!(!never.contains('\x1b'), "{never}");
    assert!(!auto.contains('\x1b'), "a pipe is no terminal: {auto}");
    assert!(always.contains(BOLD_HEADER), "despite NO_COLOR: {always}");
    assert!(always.contains(GREEN), "{always}");
    // the colour codes are all that differ (bar the folder's name)
    assert_eq!(strip(&always).replace("always", "never"), never);
    // and the files never carry colour
    let season = |c: &str| season_files(&tmp.path().join(c).join("troops"));
    assert!(!season("always").is_empty());
    assert_eq!(season("always"), season("never"));
    for (name, bytes) in season("always") {
        assert!(!bytes.contains(&0x1b), "{name} has a colour code");
    }
}

#[test]
fn errors_are_red_only_when_colour_is_wanted() {
    let error = |color: &str| {
        let out = Command::new(LADDER)
            .args(["run", "no-such.toml", "--color", color])
            .env_remove("NO_COLOR")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8(out.stderr).unwrap()
    };
    assert!(error("auto").starts_with("error: "), "{}", error("auto"));
    assert!(
        error("always").starts_with("\x1b[1;31merror:\x1b[0m "),
        "{:?}",
        error("always")
    );
}

#[test]
fn clap_s_own_errors_follow_color_no_color_and_term_dumb() {
    // into a pipe: only `always` colours a usage error
    let piped = |args: &[&str]| {
        let out = Command::new(LADDER)
            .args(args)
            .env_remove("NO_COLOR")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8(out.stderr).unwrap()
    };
    assert!(piped(&["--color", "always", "bogus"]).contains('\x1b'));
    assert!(piped(&["--color=always", "bogus"]).contains('\x1b'));
    assert!(!piped(&["bogus"]).contains('\x1b'));
    // in a terminal: colour unless --color never, NO_COLOR or TERM=dumb
    let found = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !common::require_tool(found, "script", "bsdutils") {
        return;
    }
    let screen = |env: &[(&str, &str)], args: &str| {
        let mut cmd = Command::new("script");
        cmd.args(["-q", "-c", &format!("{LADDER} {args} bogus"), "/dev/null"])
            .env_remove("NO_COLOR")
            .env("TERM", "xterm-256color");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(text.contains("unrecognized subcommand"), "{text}");
        text
    };
    assert!(screen(&[], "").contains('\x1b'));
    assert!(!screen(&[], "--color never").contains('\x1b'));
    assert!(!screen(&[("NO_COLOR", "1")], "").contains('\x1b'));
    assert!(!screen(&[("TERM", "dumb")], "").contains('\x1b'));
    assert!(screen(&[("NO_COLOR", "1")], "--color always").contains('\x1b'));
}

#[test]
fn a_bad_color_value_is_refused_with_the_choices() {
    let out = Command::new(LADDER)
        .args(["run", CONFIG, "--color", "sometimes"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("[possible values: auto, always, never]"),
        "{err}"
    );
}

/// What a terminal shows of `ladder run ARGS` (stdout and stderr, every
/// byte) under `env`; `None` without `script`.
fn in_terminal(env: &[(&str, &str)], args: &[&str], reports: &Path) -> Option<String> {
    let found = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !common::require_tool(found, "script", "bsdutils") {
        return None;
    }
    let command = format!(
        "{LADDER} run {CONFIG} --max-games 300 --reports {} {}",
        reports.display(),
        args.join(" ")
    );
    let mut cmd = Command::new("script");
    cmd.args(["-q", "-e", "-c", &command, "/dev/null"])
        .env_remove("NO_COLOR")
        .env("TERM", "xterm-256color");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{out:?}");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_terminal_gets_coloured_tables_and_progress_unless_told_otherwise() {
    let tmp = TempDir::new().unwrap();
    let reports = |name: &str| tmp.path().join(name);
    // (environment, flags, colour expected)
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a [&'a str], bool);
    let cases: [Case; 6] = [
        (&[], &[], true),
        (&[("NO_COLOR", "1")], &[], false),
        (&[("TERM", "dumb")], &[], false),
        (&[("NO_COLOR", "")], &[], true), // empty: as if unset (no-color.org)
        (&[], &["--color", "never"], false),
        (&[("NO_COLOR", "1")], &["--color", "always"], true),
    ];
    for (i, (env, flags, colour)) in cases.into_iter().enumerate() {
        let Some(screen) = in_terminal(env, flags, &reports(&i.to_string())) else {
            return;
        };
        let what = format!("{env:?} {flags:?}");
        // the progress bar is drawn either way, since this is a terminal,
        // and not the progress lines a log gets; a dumb terminal, which
        // cannot redraw a line, gets the lines
        let dumb = env.contains(&("TERM", "dumb"));
        assert_eq!(screen.contains("/300 games"), !dumb, "{what}: {screen:?}");
        assert_eq!(screen.contains("progress: "), dumb, "{what}: {screen:?}");
        assert_eq!(
            screen.contains(CYAN),
            colour,
            "progress, {what}: {screen:?}"
        );
        assert_eq!(
            screen.contains(BOLD_HEADER),
            colour,
            "table, {what}: {screen:?}"
        );
        assert_eq!(screen.contains(GREEN), colour, "{what}: {screen:?}");
    }
}
