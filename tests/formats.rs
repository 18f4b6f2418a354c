//! docs/FORMATS.md against real files: seasons of several kinds (openings,
//! an SPRT match, a GDL game, a ladder, a shard) are played, and every key
//! of every JSON file they write must be documented under its file, every
//! documented key be in some real file (unless its row says "only"), and
//! the CSV headers and PGN tags be the ones documented.

mod common;

use std::{
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
};

use serde_json::Value;

/// The documented keys of each section of FORMATS.md (by its heading,
/// without `#`), each with whether its row says it is optional ("Only").
fn documented() -> Vec<(String, Vec<(String, bool)>)> {
    let doc = fs::read_to_string(common::repo("docs/FORMATS.md")).unwrap();
    let mut sections: Vec<(String, Vec<(String, bool)>)> = Vec::new();
    for line in doc.lines() {
        if let Some(h) = line.strip_prefix("#") {
            sections.push((h.trim_start_matches('#').trim().to_string(), Vec::new()));
        } else if let Some(row) = line.strip_prefix("| `") {
            let first = format!("`{}", row.split(" |").next().unwrap());
            let optional = line.contains("| Only");
            let section = &mut sections.last_mut().unwrap().1;
            for key in first.split('`').skip(1).step_by(2) {
                section.push((key.to_string(), optional));
            }
        }
    }
    sections
}

fn section(heading: &str) -> Vec<(String, bool)> {
    documented()
        .into_iter()
        .find(|(h, _)| h == heading)
        .unwrap_or_else(|| panic!("FORMATS.md has no section `{heading}`"))
        .1
}

/// The keys of `objects`, each of which must be a JSON object.
fn keys<'a>(objects: impl IntoIterator<Item = &'a Value>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for o in objects {
        let map = o
            .as_object()
            .unwrap_or_else(|| panic!("not an object: {o}"));
        out.extend(map.keys().cloned());
    }
    out
}

/// Every key of the real objects is documented under `heading`, and every
/// key documented there that is not optional is in a real object.
fn agree(heading: &str, objects: &[&Value]) {
    assert!(!objects.is_empty(), "no real {heading} was made");
    let real = keys(objects.iter().copied());
    let doc = section(heading);
    let named: BTreeSet<&str> = doc.iter().map(|(k, _)| k.as_str()).collect();
    for key in &real {
        assert!(
            named.contains(key.as_str()),
            "`{key}` of {heading} is not in docs/FORMATS.md"
        );
    }
    for (key, optional) in &doc {
        assert!(
            *optional || real.contains(key),
            "docs/FORMATS.md names `{key}` under {heading}, which no real file has"
        );
    }
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn lines(path: &Path) -> Vec<Value> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Real season folders of several kinds, in `tmp`.
fn seasons(tmp: &Path) -> Vec<PathBuf> {
    let reports = tmp.join("reports");
    let r = reports.to_str().unwrap();
    common::run(
        &common::repo("configs/breakthrough-openings.toml"),
        &reports,
        &["--max-games", "6", "-q"],
    )
    .success();
    common::run(
        &common::repo("configs/gdl-tictactoe.toml"),
        &reports,
        &["--max-games", "4", "-q"],
    )
    .success();
    common::ladder(
        tmp,
        &[
            "match",
            "troops",
            "random",
            "focus",
            "--sprt",
            "0,50",
            "--reports",
            r,
            "-q",
        ],
    );
    fs::read_dir(&reports)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("season.json").is_file())
        .collect()
}

#[test]
fn every_season_file_and_export_is_documented_field_by_field() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = seasons(tmp.path());
    assert_eq!(dirs.len(), 3);
    let seasons: Vec<Value> = dirs.iter().map(|d| json(&d.join("season.json"))).collect();
    agree("`season.json`", &seasons.iter().collect::<Vec<_>>());
    let games: Vec<Value> = dirs
        .iter()
        .flat_map(|d| lines(&d.join("games.jsonl")))
        .collect();
    agree("`games.jsonl`", &games.iter().collect::<Vec<_>>());
    let timing: Vec<Value> = dirs
        .iter()
        .flat_map(|d| lines(&d.join("timing.jsonl")))
        .collect();
    agree("`timing.jsonl`", &timing.iter().collect::<Vec<_>>());

    let standings: Vec<Value> = dirs
        .iter()
        .map(|d| json(&d.join("standings.json")))
        .collect();
    agree("`standings.json`", &standings.iter().collect::<Vec<_>>());
    let rows: Vec<&Value> = standings
        .iter()
        .flat_map(|s| s["standings"].as_array().unwrap())
        .collect();
    agree("Each row of `standings`", &rows);
    let opponents: Vec<&Value> = rows
        .iter()
        .flat_map(|r| r["opponents"].as_array().unwrap())
        .collect();
    agree("Each entry of `opponents`", &opponents);
    let h2h: Vec<&Value> = standings
        .iter()
        .map(|s| &s["head_to_head"])
        .filter(|h| !h.is_null())
        .collect();
    agree("`head_to_head`", &h2h);
    let sprt: Vec<&Value> = standings
        .iter()
        .map(|s| &s["sprt"])
        .filter(|s| !s.is_null())
        .collect();
    agree("`sprt`", &sprt);
    for s in &seasons {
        assert_eq!(s["format_version"], 1);
    }

    // the CSV headers are the documented ones
    let doc = fs::read_to_string(common::repo("docs/FORMATS.md")).unwrap();
    let csv = fs::read_to_string(dirs[0].join("standings.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert!(doc.contains(&format!("`{header}`")), "{header}");
    let dir = dirs[0].to_str().unwrap();
    let export = common::ladder(tmp.path(), &["export", dir, "--format", "csv"]);
    let header = export.lines().next().unwrap();
    assert!(doc.contains(&format!("`{header}`")), "{header}");
    // every PGN tag is named in its section
    let pgn = common::ladder(tmp.path(), &["export", dir, "--format", "pgn"]);
    let pgn_section = doc
        .split("## `ladder export DIR --format pgn`")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    for line in pgn.lines().filter(|l| l.starts_with('[')) {
        let tag = line[1..].split(' ').next().unwrap();
        assert!(pgn_section.contains(&format!("`{tag}`")), "tag {tag}");
    }
    // the GGP match JSON of the GDL season
    let gdl = dirs
        .iter()
        .find(|d| json(&d.join("season.json"))["kind"] == "gdl")
        .unwrap();
    let matches = common::ladder(
        tmp.path(),
        &["export", gdl.to_str().unwrap(), "--format", "ggp"],
    );
    let matches: Vec<Value> = matches
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    agree(
        "`ladder export DIR --format ggp`",
        &matches.iter().collect::<Vec<_>>(),
    );
}

#[test]
fn ladder_and_shard_files_are_documented_field_by_field() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("lad.toml");
    fs::write(
        &config,
        "[season]\nname = \"lad\"\ngame = \"troops\"\ngames_per_pair = 2\n\n\
         [ladder]\ndivisions = 1\n\n\
         [[bot]]\nname = \"random\"\nbuiltin = \"random\"\n\n\
         [[bot]]\nname = \"focus\"\nbuiltin = \"focus\"\n",
    )
    .unwrap();
    let reports = tmp.path().join("reports");
    let r = reports.to_str().unwrap();
    let c = config.to_str().unwrap();
    common::ladder(tmp.path(), &["season", c, "--reports", r, "-q"]);
    let state = json(&reports.join("lad/ladder.json"));
    agree("`ladder.json`", &[&state]);
    let bots: Vec<&Value> = state["bots"].as_object().unwrap().values().collect();
    agree("Each of `bots`", &bots);
    let seasons: Vec<&Value> = state["seasons"].as_array().unwrap().iter().collect();
    agree("Each of `seasons`", &seasons);
    let division = &seasons[0]["divisions"][0];
    assert_eq!(
        division["seed_text"],
        division["seed"].as_u64().unwrap().to_string()
    );

    // a shard of a plain season (the ladder's config without [ladder])
    let plain = tmp.path().join("plain.toml");
    let text = fs::read_to_string(&config).unwrap();
    fs::write(&plain, text.replace("[ladder]\ndivisions = 1\n", "")).unwrap();
    common::run(
        &plain,
        &tmp.path().join("sharded"),
        &["--shard", "1/2", "-q"],
    )
    .success();
    let shard = json(&tmp.path().join("sharded/lad/shards/1-of-2/shard.json"));
    agree("`shard.json`", &[&shard]);
}

#[test]
fn a_season_seed_javascript_would_round_is_written_as_text_too() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("big.toml");
    fs::write(
        &config,
        "[season]\ngame = \"troops\"\ngames_per_pair = 2\nseed = 18446744073709551615\n\n\
         [[bot]]\nname = \"random\"\nbuiltin = \"random\"\n\n\
         [[bot]]\nname = \"focus\"\nbuiltin = \"focus\"\n",
    )
    .unwrap();
    let reports = tmp.path().join("reports");
    common::run(&config, &reports, &["-q"]).success();
    let season = json(&reports.join("big/season.json"));
    assert_eq!(season["seed"].as_u64(), Some(u64::MAX));
    assert_eq!(season["seed_text"], u64::MAX.to_string());
    // the same config resumes the finished season, and verify believes it
    let again = common::run(&config, &reports, &[]).success();
    let said = String::from_utf8_lossy(&again.get_output().stdout).into_owned();
    assert!(said.contains("0 games played now, 2 resumed"), "{said}");
    common::assert_verified(&reports.join("big"));
    // a seed_text that disagrees is refused where the file is read
    let path = reports.join("big/season.json");
    let text = fs::read_to_string(&path)
        .unwrap()
        .replace("\"18446744073709551615\"", "\"18446744073709551614\"");
    fs::write(&path, text).unwrap();
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_ladder"))
        .arg("verify")
        .arg(reports.join("big"))
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("one of them was edited"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

/// `season.json` is checked before its names are shown: a name holding
/// an escape sequence, two bots of one name, or a key written twice (JSON
/// readers keep either) was not written by ladder, and every command that
/// reads the folder refuses it without printing it.
#[test]
fn a_season_json_naming_a_bot_with_an_escape_sequence_or_twice_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("s.toml");
    fs::write(
        &config,
        "[season]\ngame = \"troops\"\ngames_per_pair = 2\nseed = 1\n\n\
         [[bot]]\nname = \"random\"\nbuiltin = \"random\"\n\n\
         [[bot]]\nname = \"focus\"\nbuiltin = \"focus\"\n",
    )
    .unwrap();
    let reports = tmp.path().join("reports");
    common::run(&config, &reports, &["-q"]).success();
    let dir = reports.join("s");
    let original = fs::read_to_string(dir.join("season.json")).unwrap();
    let focus_as = |to: &str| original.replace("\"focus\"", to);
    for (text, says) in [
        (
            focus_as("\"focus\\u001b]0;pwned\\u0007\""),
            "`bots.1.name` holds a control character: `focus\\u{1b}]0;pwned\\u{7}`",
        ),
        (focus_as("\"random\""), "two bots are called `random`"),
        (
            original.replacen('{', "{\n  \"game\": \"bidding\",", 1),
            "the key `game` is repeated",
        ),
    ] {
        fs::write(dir.join("season.json"), text).unwrap();
        for args in [&["verify"][..], &["report"], &["replay", "--game", "0"]] {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_ladder"))
                .args(args)
                .arg(&dir)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
            assert!(err.contains(says), "{args:?}: {err}");
            assert!(
                !err.contains('\x1b') && out.stdout.is_empty(),
                "{args:?}: {err:?}"
            );
        }
    }
}
