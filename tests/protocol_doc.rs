//! The transcripts of `docs/PROTOCOL.md` are real: each is played again with
//! the command shown above it, the Python bot behind a recording proxy
//! (`tests/fixtures/tee.py`), and the doc's lines must be what was said, in
//! order (`...` in the doc stands for lines left out).

use std::{fs, path::Path};

use assert_cmd::Command;

mod common;
use common::matches;

/// Each transcript of the doc: its `ladder match` command's words and its lines.
fn transcripts(doc: &str) -> Vec<(Vec<String>, Vec<String>)> {
    common::doc_transcripts(doc)
        .into_iter()
        .map(|(part, lines)| {
            let command = part
                .lines()
                .find(|l| l.starts_with("`ladder match "))
                .expect("the command above the transcript")
                .trim_matches('`');
            (words(command), lines)
        })
        .collect()
}

/// A command's words, with double-quoted words kept whole.
fn words(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, part) in command.split('"').enumerate() {
        if i % 2 == 1 {
            out.push(part.to_string());
        } else {
            out.extend(part.split_whitespace().map(str::to_string));
        }
    }
    out
}

#[test]
fn every_transcript_is_what_ladder_and_the_bot_really_say() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/PROTOCOL.md")).unwrap();
    let all = transcripts(&doc);
    assert_eq!(
        all.len(),
        ladder::catalog::GameKind::ALL.len(),
        "one transcript per game"
    );
    for (command, shown) in all {
        let tmp = tempfile::tempdir().unwrap();
        let log = tmp.path().join("transcript.log");
        let mut args: Vec<String> = command[1..].to_vec(); // without `ladder`
        let bot = args
            .iter_mut()
            .find(|a| a.starts_with("cmd:"))
            .expect("a cmd: bot");
        let real_bot = bot.trim_start_matches("cmd:").to_string();
        *bot = format!(
            "cmd:python3 {} {} {real_bot}",
            root.join("tests/fixtures/tee.py").display(),
            log.display()
        );
        Command::cargo_bin("ladder")
            .unwrap()
            .current_dir(root)
            .args(&args)
            // the recorder writes its log outside any folder a sandboxed bot may write
            .args(["--sandbox", "none", "-q", "--reports"])
            .arg(tmp.path())
            .assert()
            .success();
        let real: Vec<String> = fs::read_to_string(&log)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        assert!(
            matches(&shown, &real),
            "{}: the doc's transcript differs from a real run:\n{}",
            command.join(" "),
            real.join("\n")
        );
    }
}

#[test]
fn the_matcher_skips_only_where_the_doc_says_so() {
    let v = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
    assert!(matches(&v("a b c"), &v("a b c")));
    assert!(!matches(&v("a b"), &v("a b c")));
    assert!(matches(&v("a ... c"), &v("a b b c")));
    assert!(matches(&v("a ... b ... d"), &v("a x b y d")));
    assert!(!matches(&v("a ... c"), &v("a b d")));
    assert!(!matches(&v("a b ... b c"), &v("a b c")));
}
