//! `ladder arena` end to end, with real processes: an arena runs while
//! other processes add and retire bots (a built-in bot, a Python
//! line-protocol bot, a HackerRank bot), each plays within seconds; the
//! arena is killed with SIGKILL twice and restarted; a candidate is decided
//! by SPRT and promoted; every finished game is in its database exactly
//! once, and its export passes `ladder verify`. Also
//! the refusals: a bad `[arena]` key by file and line, an unchanged bot
//! added again, a second `arena run` of the same folder, a batch of an
//! arena that is not one.

use std::{
    fs,
    path::Path,
    process::{Child, Command, Stdio},
    time::Duration,
};

use ladder::arena::{
    self,
    seasons::{self, Season},
    store::Event,
};

mod common;
use common::{ladder, repo, wait_for};
use rustix::process::{kill_process, Pid, Signal};

const LADDER: &str = env!("CARGO_BIN_EXE_ladder");

/// `ladder ARGS`, expected to fail; its standard error.
fn refused(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(LADDER)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(!out.status.success(), "ladder {args:?} passed");
    String::from_utf8(out.stderr).unwrap()
}

/// Starts `ladder arena run arena` in `dir`.
fn start(dir: &Path) -> Child {
    Command::new(LADDER)
        .current_dir(dir)
        .args(["arena", "run", "arena", "-j", "2", "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Games in the arena's database that `bot` played.
fn games_of(dir: &Path, bot: &str) -> usize {
    let (store, _) = arena::open(&dir.join("arena")).unwrap();
    store
        .games()
        .unwrap()
        .iter()
        .filter(|g| g.record.contains(&format!("\"{bot}\"")))
        .count()
}

fn kill(child: &mut Child, signal: Signal) {
    kill_process(Pid::from_child(child), signal).unwrap();
    child.wait().unwrap();
}

#[test]
fn bots_join_and_leave_a_running_arena_and_kills_lose_or_repeat_no_game() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    ladder(dir, &["arena", "init", "arena", "--game", "bidding"]);
    fs::copy(repo("bots/python/bidding_bot.py"), dir.join("line_bot.py")).unwrap();
    fs::copy(
        repo("bots/python/hackerrank_bidding.py"),
        dir.join("hr_bot.py"),
    )
    .unwrap();
    let mut run = start(dir);

    // three bots join from another process while it runs, each plays at once
    ladder(dir, &["arena", "add", "arena", "dp", "--builtin", "dp"]);
    ladder(
        dir,
        &[
            "arena",
            "add",
            "arena",
            "py",
            "--",
            "python3",
            "line_bot.py",
        ],
    );
    let hr = ["arena", "add", "arena", "hr", "--protocol", "hackerrank"];
    ladder(dir, &[&hr[..], &["--", "python3", "hr_bot.py"]].concat());
    ladder(
        dir,
        &["arena", "add", "arena", "rnd", "--builtin", "random"],
    );
    for bot in ["dp@1", "py@1", "hr@1", "rnd@1"] {
        assert!(
            wait_for(120, || games_of(dir, bot) > 0),
            "{bot} never played"
        );
    }
    // the program was copied: a later edit of the source changes nothing
    fs::write(dir.join("line_bot.py"), "raise SystemExit(3)\n").unwrap();

    // killed twice in the middle of its batches, and restarted
    for _ in 0..2 {
        let before = arena::open(&dir.join("arena")).unwrap().1.next_game;
        assert!(wait_for(60, || arena::open(&dir.join("arena"))
            .unwrap()
            .1
            .next_game
            > before));
        std::thread::sleep(Duration::from_millis(300));
        kill(&mut run, Signal::KILL);
        run = start(dir);
    }

    // a retired bot plays no game after the batch it was in
    let said = ladder(dir, &["arena", "retire", "arena", "rnd"]);
    assert_eq!(said, "retired rnd@1\n");
    let (_, league) = arena::open(&dir.join("arena")).unwrap();
    let open = league.open.as_ref().map_or(0, |b| b.games.len() as u64);
    let settled = league.next_game + open;
    let at_retire = games_of(dir, "rnd@1");
    assert!(wait_for(60, || arena::open(&dir.join("arena"))
        .unwrap()
        .1
        .next_game
        > settled + 16));
    let in_batch = league.open.as_ref().map_or(0, |b| {
        b.games
            .iter()
            .filter(|g| g.contains(&"rnd@1".to_string()))
            .count()
    });
    assert!(games_of(dir, "rnd@1") <= at_retire + in_batch);

    // the table, read while it plays
    let show = ladder(dir, &["arena", "show", "arena"]);
    assert!(show.contains("dp@1") && show.contains("hr@1"), "{show}");

    // a candidate plays the pool under SPRT until decided, then waits
    let said = ladder(
        dir,
        &[
            "arena",
            "add",
            "arena",
            "dp",
            "--candidate",
            "--builtin",
            "exploit",
        ],
    );
    assert_eq!(said, "added dp@2\n");
    let decided = || {
        let show = ladder(dir, &["arena", "show", "arena"]);
        let row = show
            .lines()
            .find(|l| l.contains("dp@2"))
            .unwrap()
            .to_string();
        row.contains("accepted: promote or reject")
    };
    assert!(
        wait_for(180, decided),
        "{}",
        ladder(dir, &["arena", "show", "arena"])
    );
    ladder(dir, &["arena", "promote", "arena", "dp@2"]);
    // promoted, it plays on; the old version retires, its games stay
    let now = games_of(dir, "dp@2");
    assert!(wait_for(120, || games_of(dir, "dp@2") > now));
    assert!(games_of(dir, "dp@1") > 0);

    // SIGTERM stops it cleanly
    kill(&mut run, Signal::TERM);

    // every finished game once, numbered without a gap, in its batch
    let (store, league) = arena::open(&dir.join("arena")).unwrap();
    let games = store.games().unwrap();
    let numbers: Vec<u64> = games.iter().map(|g| g.number).collect();
    assert_eq!(numbers, (0..games.len() as u64).collect::<Vec<_>>());
    assert_eq!(league.next_game, games.len() as u64);
    let mut batches = 0;
    for (_, e) in store.events().unwrap() {
        if let Event::Batch {
            number,
            games: listed,
            first,
        } = e
        {
            let mine: Vec<_> = games.iter().filter(|g| g.batch == number).collect();
            if league.open.as_ref().is_none_or(|b| b.number != number) {
                assert_eq!(mine.len(), listed.len(), "batch {number}");
                assert_eq!(mine[0].number, first);
                batches += 1;
            }
        }
    }
    assert!(batches >= 4);
    // the copied program played on after its source was broken
    let show = ladder(dir, &["arena", "show", "arena"]);
    let py_row = show.lines().find(|l| l.contains("py@1")).unwrap();
    assert!(!py_row.contains("failing"), "{show}");
    assert!(show.contains("retired"), "{show}");

    // the export is a season that verifies
    let said = ladder(dir, &["arena", "export", "arena", "season"]);
    assert_eq!(said, format!("wrote {} games to season\n", games.len()));
    let verified = ladder(dir, &["verify", "season"]);
    assert!(verified.contains("every move legal"), "{verified}");
    // not into a season's folder, nor the arena's own, by any name
    for into in ["season", "arena", "./arena/", "season/../arena"] {
        let err = refused(dir, &["arena", "export", "arena", into]);
        assert!(err.contains("export into a new folder"), "{err}");
    }
    assert!(!dir.join("arena/games.jsonl").exists());
}

/// Every bid of `bot` in the exported games of `season`.
fn bids_of(season: &Path, bot: &str) -> Vec<u32> {
    let text = fs::read_to_string(season.join("games.jsonl")).unwrap();
    let mut bids = Vec::new();
    for line in text.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        let Some(seat) = g["seats"].as_array().unwrap().iter().position(|s| s == bot) else {
            continue;
        };
        for turn in g["moves"].as_array().unwrap() {
            bids.push(turn[seat].as_str().unwrap().parse().unwrap());
        }
    }
    bids
}

#[test]
fn a_bots_params_reach_its_games_and_a_failed_init_leaves_no_arena() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // a config's bot with `params`, and one that cannot join: the build
    // before refused the first (its params, written after `[[bot]]`, made
    // a table of the arena's config) and left a half-made arena
    let config = |second: &str| {
        format!(
            "[season]\ngame = \"bidding\"\n\n[[bot]]\nname = \"low\"\nbuiltin = \"random\"\n\
             params = {{ max = 2 }}\n\n[[bot]]\nname = \"dp\"\n{second}\n"
        )
    };
    fs::write(dir.join("a.toml"), config("command = [\"./nowhere\"]")).unwrap();
    let err = refused(dir, &["arena", "init", "x", "--config", "a.toml"]);
    assert!(err.contains("nowhere"), "{err}");
    assert!(!dir.join("x").exists(), "a failed init left its arena");
    fs::create_dir(dir.join("y")).unwrap();
    refused(dir, &["arena", "init", "y", "--config", "a.toml"]);
    assert_eq!(fs::read_dir(dir.join("y")).unwrap().count(), 0);

    fs::write(dir.join("a.toml"), config("builtin = \"dp\"")).unwrap();
    let made = ladder(dir, &["arena", "init", "x", "--config", "a.toml"]);
    assert!(made.ends_with("added low@1\nadded dp@1\n"), "{made}");
    // and `arena add --params`
    let said = ladder(
        dir,
        &[
            "arena",
            "add",
            "x",
            "one",
            "--builtin",
            "random",
            "--params",
            "max = 1",
        ],
    );
    assert_eq!(said, "added one@1\n");
    ladder(dir, &["arena", "run", "x", "-q", "--batches", "3"]);
    ladder(dir, &["arena", "export", "x", "season"]);
    let season = dir.join("season");
    for (bot, max) in [("low@1", 2), ("one@1", 1)] {
        let bids = bids_of(&season, bot);
        assert!(bids.len() > 20, "{bot} played too little: {bids:?}");
        // `random` without `max` bids up to 20: dozens of bids all at most
        // `max` come from its params
        assert!(
            bids.iter().all(|&b| b <= max),
            "{bot} bid above {max}: {bids:?}"
        );
    }
}

#[test]
fn an_arena_refuses_what_it_cannot_play() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // a config key an arena decides itself, and a bad [arena] key
    fs::write(
        dir.join("a.toml"),
        "[season]\ngame = \"bidding\"\nformat = \"gauntlet\"\n",
    )
    .unwrap();
    let err = refused(dir, &["arena", "init", "x", "--config", "a.toml"]);
    assert!(err.contains("a.toml:3") && err.contains("format"), "{err}");
    fs::write(
        dir.join("b.toml"),
        "[season]\ngame = \"bidding\"\n\n[arena]\nbatch_games = 3\n",
    )
    .unwrap();
    let err = refused(dir, &["arena", "init", "x", "--config", "b.toml"]);
    assert!(
        err.contains("b.toml:5") && err.contains("batch_games"),
        "{err}"
    );
    fs::write(
        dir.join("b.toml"),
        "[season]\ngame = \"bidding\"\n\n[arena]\nseason_games = 1\n",
    )
    .unwrap();
    let err = refused(dir, &["arena", "init", "x", "--config", "b.toml"]);
    assert!(
        err.contains("b.toml:5") && err.contains("season_games must be from 2"),
        "{err}"
    );
    assert!(!dir.join("x").exists());

    // a config's bots join, with their programs copied
    fs::copy(repo("bots/python/troops_bot.py"), dir.join("t.py")).unwrap();
    fs::write(
        dir.join("c.toml"),
        "[season]\ngame = \"troops\"\n\n[arena]\nbatch_games = 4\n\n\
         [[bot]]\nname = \"nash\"\nbuiltin = \"nash\"\n\n\
         [[bot]]\nname = \"py\"\ncommand = [\"python3\", \"t.py\"]\n",
    )
    .unwrap();
    let made = ladder(dir, &["arena", "init", "x", "--config", "c.toml"]);
    assert!(made.contains("added nash@1\nadded py@1\n"), "{made}");
    assert_eq!(fs::read_dir(dir.join("x/bots")).unwrap().count(), 1);
    let err = refused(dir, &["arena", "init", "x", "--game", "troops"]);
    assert!(err.contains("holds an arena already"), "{err}");

    // the same bot again is no new version; an unknown bot cannot join
    let err = refused(dir, &["arena", "add", "x", "nash", "--builtin", "nash"]);
    assert!(err.contains("nash@1 is this bot already"), "{err}");
    // retired, the same bot comes back as its next version
    ladder(dir, &["arena", "retire", "x", "nash"]);
    let back = ladder(dir, &["arena", "add", "x", "nash", "--builtin", "nash"]);
    assert_eq!(back, "added nash@2\n");
    assert!(row(dir, "nash@1").contains("retired"));
    assert!(!row(dir, "nash@2").contains("retired"));
    let err = refused(dir, &["arena", "add", "x", "zz", "--builtin", "nope"]);
    assert!(err.contains("cannot join") && err.contains("nope"), "{err}");
    let err = refused(dir, &["arena", "add", "x", "a@b", "--builtin", "nash"]);
    assert!(err.contains("no `@`"), "{err}");
    let err = refused(dir, &["arena", "retire", "x", "ghost"]);
    assert!(err.contains("no bot ghost"), "{err}");

    // two runs of one arena at once: the second is refused, naming the first
    let mut first = Command::new(LADDER)
        .current_dir(dir)
        .args(["arena", "run", "x", "-q"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    assert!(wait_for(60, || arena::open(&dir.join("x"))
        .unwrap()
        .1
        .next_game
        > 0));
    let err = refused(dir, &["arena", "run", "x", "-q"]);
    assert!(err.contains("being run by another ladder"), "{err}");
    kill(&mut first, Signal::INT);
    // played to a number of batches, it stops by itself
    ladder(dir, &["arena", "run", "x", "-q", "--batches", "2"]);

    let err = refused(dir, &["arena", "show", "nowhere"]);
    assert!(err.contains("is not an arena"), "{err}");

    // a script that cannot start by its `#!` line cannot join, named as given
    let text = fs::read_to_string(repo("bots/python/troops_bot.py")).unwrap();
    fs::write(dir.join("w.py"), text.replace('\n', "\r\n")).unwrap();
    let mut perms = fs::metadata(dir.join("w.py")).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    fs::set_permissions(dir.join("w.py"), perms).unwrap();
    let kept_folders = || {
        let mut names: Vec<_> = fs::read_dir(dir.join("x/bots"))
            .map(|r| r.map(|e| e.unwrap().file_name()).collect())
            .unwrap_or_default();
        names.sort();
        names
    };
    let before = kept_folders();
    let err = refused(dir, &["arena", "add", "x", "w", "--", "./w.py"]);
    assert!(
        err.contains(
            "cannot join: program `./w.py` starts `#!/usr/bin/env python3` with a carriage return"
        ),
        "{err}"
    );
    // and leaves no copy of its files behind
    let after: Vec<_> = kept_folders()
        .into_iter()
        .filter(|n| n != ".upload.lock")
        .collect();
    assert_eq!(
        after,
        before
            .into_iter()
            .filter(|n| n != ".upload.lock")
            .collect::<Vec<_>>()
    );
    // a kept bot that no longer starts forfeits its games; the arena plays on
    let good = text.replace("\r\n", "\n");
    fs::write(dir.join("w.py"), &good).unwrap();
    ladder(dir, &["arena", "add", "x", "w", "--", "./w.py"]);
    // the kept copy: the one of these bytes
    let kept = fs::read_dir(dir.join("x/bots"))
        .unwrap()
        .map(|e| e.unwrap().path().join("w.py"))
        .find(|p| fs::read_to_string(p).is_ok_and(|t| t == good))
        .unwrap();
    let mut perms = fs::metadata(&kept).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    fs::set_permissions(&kept, perms).unwrap();
    fs::write(&kept, text.replace('\n', "\r\n")).unwrap();
    ladder(dir, &["arena", "run", "x", "-q", "--batches", "2"]);
    let show = ladder(dir, &["arena", "show", "x"]);
    let w_row = show.lines().find(|l| l.contains("w@1")).unwrap();
    assert!(w_row.contains("failing"), "{show}");
}

/// The session in docs/ARENA.md: each `$` line run by `sh` in a fresh
/// folder (with `bots/python/bidding_bot.py`), its standard output compared
/// with the lines under it.
#[test]
fn the_docs_sessions_are_what_ladder_really_says() {
    let doc = fs::read_to_string(repo("docs/ARENA.md")).unwrap();
    let blocks: Vec<&str> = doc
        .split("```console\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    // the author's loop, and the seasons
    assert_eq!(blocks.len(), 2);
    for block in blocks {
        session(block);
    }
}

/// Runs a session of docs/ARENA.md, each command in a shell, in a fresh
/// folder with the files it names, and compares what it prints.
fn session(block: &str) {
    let tmp = tempfile::tempdir().unwrap();
    for file in ["bots/python/bidding_bot.py", "configs/arena-troops.toml"] {
        let to = tmp.path().join(file);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(repo(file), to).unwrap();
    }
    let bin = Path::new(LADDER).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let mut steps: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        match line.strip_prefix("$ ") {
            Some(command) => steps.push((command.to_string(), String::new())),
            None => {
                let (_, expected) = steps.last_mut().expect("a command first");
                expected.push_str(line);
                expected.push('\n');
            }
        }
    }
    assert!(steps.len() > 3);
    for (command, expected) in steps {
        let out = Command::new("sh")
            .arg("-c")
            .arg(&command)
            .current_dir(tmp.path())
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{command}");
    }
}

/// `ladder arena show`'s row of `bot`.
fn row(dir: &Path, bot: &str) -> String {
    let show = ladder(dir, &["arena", "show", "x"]);
    show.lines()
        .find(|l| l.contains(&format!(" {bot} ")))
        .unwrap_or_else(|| panic!("no {bot}: {show}"))
        .to_string()
}

/// Plays batch by batch until `bot`'s row says `word`; the batches played.
fn play_until(dir: &Path, bot: &str, word: &str) -> u32 {
    for batches in 1..=60 {
        ladder(dir, &["arena", "run", "x", "-q", "--batches", "1"]);
        if row(dir, bot).contains(word) {
            return batches;
        }
    }
    panic!("{bot} never showed `{word}`: {}", row(dir, bot));
}

#[test]
fn a_candidate_is_decided_by_sprt_then_waits_to_be_promoted_or_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::write(
        dir.join("a.toml"),
        "[season]\ngame = \"bidding\"\n\n[arena]\nsprt = { elo0 = 0, elo1 = 200 }\n\n\
         [[bot]]\nname = \"dp\"\nbuiltin = \"dp\"\n\n[[bot]]\nname = \"random\"\nbuiltin = \"random\"\n",
    )
    .unwrap();
    ladder(dir, &["arena", "init", "x", "--config", "a.toml"]);
    ladder(dir, &["arena", "run", "x", "-q", "--batches", "2"]);

    // a stronger dp plays the pool until the test accepts it
    let said = ladder(
        dir,
        &[
            "arena",
            "add",
            "x",
            "dp",
            "--candidate",
            "--builtin",
            "exploit",
        ],
    );
    assert_eq!(said, "added dp@2\n");
    assert!(row(dir, "dp@2").contains("candidate vs the pool"));
    assert!(!row(dir, "dp@1").contains("retired"));
    play_until(dir, "dp@2", "H1 accepted: promote or reject");
    // decided, it plays no more until its author decides
    let count = |bot: &str| {
        let (store, _) = arena::open(&dir.join("x")).unwrap();
        let needle = format!("\"{bot}\"");
        store
            .games()
            .unwrap()
            .iter()
            .filter(|g| g.record.contains(&needle))
            .count()
    };
    let decided_at = count("dp@2");
    ladder(dir, &["arena", "run", "x", "-q", "--batches", "2"]);
    assert!(count("dp@2") <= decided_at + 16);
    let after = count("dp@2");
    ladder(dir, &["arena", "run", "x", "-q", "--batches", "2"]);
    assert_eq!(count("dp@2"), after);
    assert_eq!(
        ladder(dir, &["arena", "promote", "x", "dp@2"]),
        "promoted dp@2\n"
    );
    assert!(row(dir, "dp@1").contains("retired"));
    assert!(!row(dir, "dp@2").contains("candidate"));
    let err = refused(dir, &["arena", "promote", "x", "dp@2"]);
    assert!(err.contains("dp@2 is no candidate"), "{err}");

    // a weaker bot against one version only: rejected once the test says so
    let err = refused(
        dir,
        &[
            "arena",
            "add",
            "x",
            "random",
            "--candidate",
            "--against",
            "dp@1",
            "--builtin",
            "climber",
        ],
    );
    assert!(err.contains("--against dp@1"), "{err}");
    let add = [
        "arena",
        "add",
        "x",
        "random",
        "--candidate",
        "--against",
        "dp@2",
    ];
    ladder(dir, &[&add[..], &["--builtin", "climber"]].concat());
    play_until(dir, "random@2", "H0 accepted");
    let (store, _) = arena::open(&dir.join("x")).unwrap();
    for g in store.games().unwrap() {
        if g.record.contains("\"random@2\"") {
            assert!(g.record.contains("\"dp@2\""), "{}", g.record);
        }
    }
    assert_eq!(
        ladder(dir, &["arena", "reject", "x", "random@2"]),
        "rejected random@2\n"
    );
    assert!(row(dir, "random@2").contains("rejected"));
    assert!(!row(dir, "random@1").contains("retired"));
}

/// The finished games' records of the arena `arena`, in order.
fn records(dir: &Path, arena: &str) -> Vec<String> {
    let (store, _) = arena::open(&dir.join(arena)).unwrap();
    store
        .games()
        .unwrap()
        .into_iter()
        .map(|g| g.record)
        .collect()
}

/// The batches the arena `arena` decided, in order.
fn batches(dir: &Path, arena: &str) -> Vec<Event> {
    let (store, _) = arena::open(&dir.join(arena)).unwrap();
    let events = store.events().unwrap().into_iter().map(|(_, e)| e);
    events
        .filter(|e| matches!(e, Event::Batch { .. }))
        .collect()
}

#[test]
fn a_replay_decides_and_plays_an_arenas_batches_again_at_any_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // (a start of a bot may wait as long as it likes: below, one waits)
    let config = "[season]\ngame = \"troops\"\nseed = 7\nstartup_time_ms = 3600000\n\n\
                  [arena]\nbatch_games = 8\n";
    fs::write(dir.join("a.toml"), config).unwrap();
    // the shipped bot, which waits to start while the file `hold` is there
    let hold = dir.join("hold");
    let bot = fs::read_to_string(repo("bots/python/troops_bot.py")).unwrap();
    let wait = format!("import os, time\nwhile os.path.exists({hold:?}): time.sleep(0.02)\n");
    fs::write(dir.join("bot.py"), wait + &bot).unwrap();
    // the arena: bots join and leave between its batches, one a program
    ladder(dir, &["arena", "init", "a", "--config", "a.toml"]);
    for (bot, builtin) in [("nash", "nash"), ("focus", "focus")] {
        ladder(dir, &["arena", "add", "a", bot, "--builtin", builtin]);
    }
    let run = ["arena", "run", "a", "-q", "-j", "2", "--batches"];
    ladder(dir, &[&run[..], &["3"]].concat());
    ladder(dir, &["arena", "add", "a", "py", "--", "python3", "bot.py"]);
    ladder(dir, &[&run[..], &["2"]].concat());
    ladder(dir, &["arena", "add", "a", "focus", "--builtin", "random"]);
    ladder(dir, &["arena", "retire", "a", "nash"]);
    ladder(dir, &[&run[..], &["3"]].concat());
    // the program's source goes: the arena kept its own copy
    fs::remove_file(dir.join("bot.py")).unwrap();

    // the replay, one game at a time, killed in the first batch the
    // program plays, while it waits to start
    fs::write(&hold, "").unwrap();
    let mut replay = Command::new(LADDER)
        .current_dir(dir)
        .args(["arena", "replay", "a", "b", "-j", "1", "-q"])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let playing = || {
        dir.join("b")
            .join("batches")
            .join("batch-00000003")
            .exists()
    };
    assert!(wait_for(120, playing), "the replay never reached batch 3");
    std::thread::sleep(Duration::from_millis(200));
    kill(&mut replay, Signal::KILL);
    let (_, league) = arena::open(&dir.join("b")).unwrap();
    assert_eq!(league.open.map(|b| b.number), Some(3));
    assert_eq!(records(dir, "b").len(), 24);
    fs::remove_file(&hold).unwrap();
    let said = ladder(dir, &["arena", "replay", "a", "b", "-j", "1", "-q"]);
    assert!(
        said.ends_with("into b: it holds 8 batches, each decided and played as recorded\n"),
        "{said}"
    );
    // the same batches decided, the same games played
    assert_eq!(batches(dir, "a").len(), 8);
    assert_eq!(batches(dir, "a"), batches(dir, "b"));
    assert_eq!(records(dir, "a").len(), 64);
    assert_eq!(records(dir, "a"), records(dir, "b"));
    assert!(records(dir, "b").iter().any(|r| r.contains("\"py@1\"")));
    // a rerun has nothing left to do; after a new program joins the arena
    // and two more batches, it replays those
    let said = ladder(dir, &["arena", "replay", "a", "b"]);
    assert!(said.starts_with("replayed 0 batches (0 games) of a into b: it holds 8 batches"));
    let source = fs::read_to_string(repo("bots/python/troops_bot.py")).unwrap();
    fs::write(dir.join("late.py"), source + "# a later bot\n").unwrap();
    ladder(
        dir,
        &["arena", "add", "a", "late", "--", "python3", "late.py"],
    );
    ladder(dir, &[&run[..], &["2"]].concat());
    let said = ladder(dir, &["arena", "replay", "a", "b"]);
    assert!(said.starts_with("batch 8: games 64-71 ("), "{said}");
    assert!(
        said.contains("): as recorded\nbatch 9: games 72-79 ("),
        "{said}"
    );
    assert!(said.contains("replayed 2 batches (16 games) of a into b: it holds 10"));
    assert_eq!(records(dir, "a"), records(dir, "b"));
    assert!(records(dir, "b")[64..]
        .iter()
        .any(|r| r.contains("\"late@1\"")));
    // the replay is an arena of its own
    ladder(dir, &["arena", "run", "b", "-q", "--batches", "1"]);
    assert_eq!(records(dir, "b").len(), 88);
}

#[test]
fn a_replay_stops_at_the_first_batch_or_game_that_differs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let config = "[season]\ngame = \"troops\"\n\n[arena]\nbatch_games = 4\n";
    fs::write(dir.join("a.toml"), config).unwrap();
    // a bot that plays what a file outside the arena says
    let split = dir.join("split.txt");
    fs::write(&split, "3,3,4\n").unwrap();
    let bot = format!(
        "import sys\nfor line in sys.stdin:\n    w = line.split()\n    \
         if not w: continue\n    \
         if w[0] == 'ladder': print('ready outside', flush=True)\n    \
         elif w[0] == 'turn': print(open({split:?}).read().strip(), flush=True)\n    \
         elif w[0] == 'over': print('ready', flush=True)\n    \
         elif w[0] == 'quit': break\n"
    );
    fs::write(dir.join("bot.py"), bot).unwrap();
    ladder(dir, &["arena", "init", "a", "--config", "a.toml"]);
    ladder(dir, &["arena", "add", "a", "nash", "--builtin", "nash"]);
    ladder(
        dir,
        &["arena", "add", "a", "out", "--", "python3", "bot.py"],
    );
    ladder(dir, &["arena", "run", "a", "-q", "--batches", "3"]);
    assert!(records(dir, "a")[0].contains("\"3,3,4\""));

    // the file changed: the replay's first game differs, and stops it
    fs::write(&split, "4,3,3\n").unwrap();
    // as docs/ARENA.md shows it
    let doc = fs::read_to_string(repo("docs/ARENA.md")).unwrap();
    let shown = doc
        .split("```text\nerror: game 0 differs")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the replay's difference in docs/ARENA.md");
    for _ in 0..2 {
        let said = refused(dir, &["arena", "replay", "a", "b", "-q"]);
        assert_eq!(said, format!("error: game 0 differs{shown}"));
        assert!(
            said.contains("game 0 differs from a's record at byte "),
            "{said}"
        );
        let line = |who: &str| {
            said.lines()
                .find(|l| l.starts_with(who))
                .map(str::to_string)
        };
        let (recorded, replayed) = (line("  recorded: "), line("  replayed: "));
        assert!(recorded.is_some() && replayed.is_some(), "{said}");
        assert_ne!(recorded.unwrap()[12..], replayed.unwrap()[12..]);
    }
    assert_eq!(records(dir, "b").len(), 4);
    fs::write(&split, "3,3,4\n").unwrap();
    let said = ladder(dir, &["arena", "replay", "a", "c", "-q"]);
    assert!(said.contains("it holds 3 batches"), "{said}");

    // a batch the arena did not decide so
    fs::create_dir(dir.join("d")).unwrap();
    for file in [arena::store::FILE, "bots"] {
        let to = dir.join("d").join(file);
        match file {
            "bots" => assert!(Command::new("cp")
                .arg("-r")
                .arg(dir.join("a").join(file))
                .arg(&to)
                .status()
                .unwrap()
                .success()),
            _ => {
                fs::copy(dir.join("a").join(file), to).unwrap();
            }
        }
    }
    let db = rusqlite::Connection::open(dir.join("d").join(arena::store::FILE)).unwrap();
    let (seq, data): (i64, String) = db
        .query_row(
            "SELECT seq, data FROM events WHERE data LIKE '{\"event\":\"batch\",\"number\":1,%'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let swapped = data.replacen("[\"nash@1\",\"out@1\"]", "[\"out@1\",\"nash@1\"]", 1);
    assert_ne!(swapped, data);
    db.execute("UPDATE events SET data = ?1 WHERE seq = ?2", (swapped, seq))
        .unwrap();
    drop(db);
    let said = refused(dir, &["arena", "replay", "d", "e", "-q"]);
    assert!(said.contains("batch 1 differs: d chose "), "{said}");
    assert_eq!(records(dir, "e").len(), 4);
    // c, a replay of a, is not one of d
    let said = refused(dir, &["arena", "replay", "d", "c", "-q"]);
    assert!(
        said.contains("c's event log is not d's from its event 4 on"),
        "{said}"
    );

    // an arena of other settings, and the arena itself, are refused
    let other = "[season]\ngame = \"troops\"\n\n[arena]\nbatch_games = 6\n";
    fs::write(dir.join("o.toml"), other).unwrap();
    ladder(dir, &["arena", "init", "o", "--config", "o.toml"]);
    let said = refused(dir, &["arena", "replay", "a", "o"]);
    assert!(said.contains("another `batch_games` than a's"), "{said}");
    let said = refused(dir, &["arena", "replay", "a", "a"]);
    assert!(said.contains("is the arena replayed"), "{said}");
    let said = refused(dir, &["arena", "replay", "none", "f"]);
    assert!(said.contains("none is not an arena"), "{said}");
}

#[test]
fn kills_at_random_moments_lose_or_repeat_no_game() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::write(
        dir.join("a.toml"),
        "[season]\ngame = \"breakthrough\"\n\n[arena]\nbatch_games = 6\n\n\
         [[bot]]\nname = \"random\"\nbuiltin = \"random\"\n\n\
         [[bot]]\nname = \"py\"\ncommand = [\"python3\", \"bot.py\"]\n",
    )
    .unwrap();
    fs::copy(repo("bots/python/breakthrough_bot.py"), dir.join("bot.py")).unwrap();
    ladder(dir, &["arena", "init", "arena", "--config", "a.toml"]);
    // kill -9 after 0 to 1.5 s, eight times: inside batches, between them,
    // while a batch's games go into the database
    let mut seed = u64::from(std::process::id());
    for _ in 0..8 {
        let mut run = start(dir);
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        std::thread::sleep(Duration::from_millis((seed >> 33) % 1500));
        kill(&mut run, Signal::KILL);
    }
    ladder(dir, &["arena", "run", "arena", "-q", "--batches", "2"]);
    let (store, league) = arena::open(&dir.join("arena")).unwrap();
    let games = store.games().unwrap();
    assert!(league.open.is_none());
    let numbers: Vec<u64> = games.iter().map(|g| g.number).collect();
    assert_eq!(numbers, (0..league.next_game).collect::<Vec<_>>());
    assert_eq!(league.next_batch, (games.len() / 6) as u64);
    ladder(dir, &["arena", "export", "arena", "season"]);
    let verified = ladder(dir, &["verify", "season"]);
    assert!(verified.contains("every move legal"), "{verified}");
}

#[test]
fn a_gdl_arena_plays_and_is_called_by_its_description_after_the_file_is_gone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::copy(repo("games/gdl/tictactoe.kif"), dir.join("ttt.kif")).unwrap();
    let made = ladder(dir, &["arena", "init", "arena", "--game", "gdl:ttt.kif"]);
    assert!(made.starts_with("made the arena arena (ttt)\n"), "{made}");
    fs::remove_file(dir.join("ttt.kif")).unwrap();
    for name in ["r", "s"] {
        ladder(dir, &["arena", "add", "arena", name, "--builtin", "random"]);
    }
    ladder(dir, &["arena", "run", "arena", "-q", "--batches", "1"]);
    let shown = ladder(dir, &["arena", "show", "arena"]);
    assert!(
        shown.starts_with("arena arena: ttt, 2 bots playing, 16 games in 1 batch\n"),
        "{shown}"
    );
    // its kind stays `gdl`, which is what the commands dispatch on
    assert_eq!(arena::game_of(&dir.join("arena")).unwrap(), "gdl");
}

#[test]
fn a_kept_program_another_bot_runs_as_a_program_is_made_runnable() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    ladder(dir, &["arena", "init", "arena", "--game", "breakthrough"]);
    let bot = dir.join("bot.py");
    fs::copy(repo("bots/python/breakthrough_bot.py"), &bot).unwrap();
    fs::set_permissions(&bot, fs::Permissions::from_mode(0o644)).unwrap();
    ladder(
        dir,
        &["arena", "add", "arena", "read", "--", "python3", "bot.py"],
    );
    // the same bytes, now run as a program: kept once, runnable for both
    fs::set_permissions(&bot, fs::Permissions::from_mode(0o755)).unwrap();
    ladder(dir, &["arena", "add", "arena", "runs", "--", "./bot.py"]);
    // a script that is not there joins (a bot may make a file it names),
    // with a note; one that is there joins without
    let add = |args: &[&str]| {
        let out = Command::new(LADDER)
            .current_dir(dir)
            .args(["arena", "add", "arena"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    assert_eq!(
        add(&["ghost", "--", "python3", "ghost.py", "-v"]),
        format!(
            "note: ghost@1: `ghost.py` in its command names no file in `{}`, so the arena keeps none\n",
            dir.display()
        )
    );
    assert_eq!(add(&["twice", "--", "python3", "bot.py", "-v"]), "");
    // an arena made from a config: its missing script is noted once, as
    // the config is read
    fs::create_dir_all(dir.join("conf")).unwrap();
    fs::write(
        dir.join("conf/a.toml"),
        "[season]\nname = \"a\"\ngame = \"breakthrough\"\n\n\
         [[bot]]\nname = \"gone\"\ncommand = [\"python3\", \"gone.py\"]\n\n\
         [[bot]]\nname = \"r\"\nbuiltin = \"random\"\n",
    )
    .unwrap();
    let out = Command::new(LADDER)
        .current_dir(dir)
        .args(["arena", "init", "from-config", "--config", "conf/a.toml"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("note: bot `gone`: `gone.py` in its command names no file in `conf`"),
        "{err}"
    );
    ladder(dir, &["arena", "retire", "arena", "ghost"]);
    ladder(dir, &["arena", "retire", "arena", "twice"]);
    ladder(dir, &["arena", "run", "arena", "-q", "--batches", "1"]);
    let (store, _) = arena::open(&dir.join("arena")).unwrap();
    let games = store.games().unwrap();
    assert!(!games.is_empty());
    for g in &games {
        assert!(g.record.contains("\"runs@1\""), "{}", g.record);
        assert!(!g.record.contains("forfeit"), "{}", g.record);
    }
}

#[test]
fn a_bot_of_several_files_is_kept_whole_and_runs_in_its_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // a bot that imports a module beside it and reads a file from its folder
    let bot = dir.join("mybot");
    fs::create_dir_all(bot.join("data")).unwrap();
    fs::write(bot.join("helper.py"), "GREETING = 'ok'\n").unwrap();
    fs::write(bot.join("data/notes.txt"), "notes\n").unwrap();
    let main = fs::read_to_string(repo("bots/python/troops_bot.py")).unwrap();
    let main = main.replacen(
        "\n",
        "\nimport helper\nassert open('data/notes.txt').read() == 'notes\\n'\n",
        1,
    );
    fs::write(bot.join("main.py"), main).unwrap();
    fs::write(
        dir.join("a.toml"),
        "[season]\ngame = \"troops\"\n\n[[bot]]\nname = \"random\"\nbuiltin = \"random\"\n\n\
         [[bot]]\nname = \"cfg\"\ndir = \"mybot\"\ncommand = [\"python3\", \"main.py\"]\n",
    )
    .unwrap();
    ladder(dir, &["arena", "init", "arena", "--config", "a.toml"]);
    let args = ["arena", "add", "arena", "cli", "--dir", "mybot", "--"];
    ladder(dir, &[&args[..], &["python3", "main.py"]].concat());
    // the same folder again is the same bot
    let again = refused(dir, &[&args[..], &["python3", "main.py"]].concat());
    assert!(again.contains("is this bot already"), "{again}");
    // the source is broken afterwards: the kept copies play on
    fs::write(bot.join("helper.py"), "raise SystemExit(3)\n").unwrap();
    ladder(dir, &["arena", "run", "arena", "-q", "--batches", "3"]);
    let (store, league) = arena::open(&dir.join("arena")).unwrap();
    let games = store.games().unwrap();
    for bot in ["cfg@1", "cli@1"] {
        assert!(games_of(dir, bot) > 0, "{bot} never played");
        let spec = &league.find(bot).unwrap().spec;
        assert!(spec.contains("dir = \"bots/"), "{spec}");
    }
    for g in &games {
        assert!(!g.record.contains("forfeit"), "{}", g.record);
    }
    // a folder holding the arena is refused
    let args = ["arena", "add", "arena", "all", "--dir", ".", "--"];
    let whole = refused(dir, &[&args[..], &["python3", "main.py"]].concat());
    assert!(whole.contains("holds the arena"), "{whole}");
}

/// The closed seasons the arena `arena` keeps.
fn seasons_of(dir: &Path, arena: &str) -> Vec<Season> {
    let (store, _) = arena::open(&dir.join(arena)).unwrap();
    seasons::stored(&store, 1, u64::MAX).unwrap()
}

#[test]
fn an_arenas_seasons_close_every_n_games_whatever_the_jobs_kills_or_replays() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // seasons of 10 games, batches of 6: most seasons end inside a batch
    let mut config = "[season]\ngame = \"troops\"\nseed = 3\n\n\
                      [arena]\nbatch_games = 6\nseason_games = 10\n"
        .to_string();
    for bot in ["nash", "focus", "random"] {
        config += &format!("\n[[bot]]\nname = \"{bot}\"\nbuiltin = \"{bot}\"\n");
    }
    fs::write(dir.join("a.toml"), config).unwrap();
    for name in ["a", "b"] {
        ladder(dir, &["arena", "init", name, "--config", "a.toml"]);
    }
    let run = |name: &str, jobs: &str, batches: u64| {
        let n = batches.to_string();
        ladder(
            dir,
            &["arena", "run", name, "-q", "-j", jobs, "--batches", &n],
        );
    };
    run("a", "1", 7);
    // b at two jobs, killed at random moments (inside batches, between
    // them, while a batch and its seasons are recorded), then played on
    let mut seed = u64::from(std::process::id());
    for _ in 0..5 {
        let mut child = Command::new(LADDER)
            .current_dir(dir)
            .args(["arena", "run", "b", "-j", "2", "-q"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        std::thread::sleep(Duration::from_millis((seed >> 33) % 60));
        kill(&mut child, Signal::KILL);
    }
    run("b", "2", 1);
    let played = |name: &str| arena::open(&dir.join(name)).unwrap().1.next_batch;
    // at least 40 batches: 24 seasons, more than `show` and the API list
    let most = played("a").max(played("b")).max(40);
    for (name, jobs) in [("a", "1"), ("b", "2")] {
        if played(name) < most {
            run(name, jobs, most - played(name));
        }
    }
    let games = records(dir, "a");
    assert_eq!(games, records(dir, "b"));
    let closed = seasons_of(dir, "a");
    assert_eq!(closed.len(), games.len() / 10);
    assert!(closed.len() >= 4, "{} seasons", closed.len());
    assert_eq!(closed, seasons_of(dir, "b"));

    // season 2's table: games 10-19 counted from the records themselves
    let season = &closed[1];
    assert_eq!((season.number, season.first, season.last), (2, 10, 19));
    let mut tally = std::collections::BTreeMap::<String, [u64; 4]>::new();
    for line in &games[10..20] {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        for (seat, other) in [(0, 1), (1, 0)] {
            let t = tally
                .entry(g["seats"][seat].as_str().unwrap().into())
                .or_default();
            t[0] += 1;
            match g["result"].as_str().unwrap() {
                "draw" => t[3] += 1,
                "first" if seat == 0 => t[1] += 1,
                "second" if seat == 1 => t[1] += 1,
                _ => t[2] += 1,
            }
            let _ = other;
        }
    }
    let rows: std::collections::BTreeMap<String, [u64; 4]> = season
        .rows
        .iter()
        .map(|r| (r.bot.clone(), [r.games, r.won, r.lost, r.drawn]))
        .collect();
    assert_eq!(rows, tally);
    for r in &season.rows {
        assert_eq!(r.points, r.won as f64 + r.drawn as f64 / 2.0);
        assert_eq!(
            r.rank,
            season.rows.iter().position(|x| x.bot == r.bot).unwrap() + 1
        );
    }
    // its ratings: the report's fits of an export cut to games 0-19, and
    // to the season's games, 10-19
    ladder(dir, &["arena", "export", "a", "ex"]);
    let report_of = |name: &str, cut: &[String]| -> serde_json::Value {
        fs::create_dir(dir.join(name)).unwrap();
        fs::copy(
            dir.join("ex/season.json"),
            dir.join(name).join("season.json"),
        )
        .unwrap();
        fs::write(dir.join(name).join("games.jsonl"), cut.join("\n") + "\n").unwrap();
        ladder(dir, &["report", name]);
        let json = fs::read_to_string(dir.join(name).join("standings.json")).unwrap();
        serde_json::from_str(&json).unwrap()
    };
    let all = report_of("upto", &games[..20]);
    let own = report_of("own", &games[10..20]);
    assert_eq!((&all["games"], &own["games"]), (&20.into(), &10.into()));
    let same = |report: &serde_json::Value, bot: &str, ours: [Option<f64>; 3]| {
        let theirs = report["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["bot"] == bot)
            .unwrap();
        for (ours, key) in ours.into_iter().zip(["elo", "elo_low", "elo_high"]) {
            match (ours, theirs[key].as_f64()) {
                (Some(a), Some(b)) => assert!((a - b).abs() < 1e-6, "{bot} {key}: {a} {b}"),
                (a, b) => assert_eq!(a, b, "{bot} {key}"),
            }
        }
    };
    for r in &season.rows {
        same(&all, &r.bot, [r.rating, r.low, r.high]);
        same(&own, &r.bot, [r.season_rating, r.season_low, r.season_high]);
    }
    // ranked by the season's fit, as the report ranks
    let ranks: Vec<&str> = own["standings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["games"] != 0)
        .map(|s| s["bot"].as_str().unwrap())
        .collect();
    let rows: Vec<&str> = season.rows.iter().map(|r| r.bot.as_str()).collect();
    assert_eq!(rows, ranks);

    // exported alone, the season is a season folder that verifies, whose
    // report rates it as the season's table does
    let said = ladder(dir, &["arena", "export", "a", "s2", "--season", "2"]);
    assert_eq!(said, "wrote 10 games of season 2 to s2\n");
    let verified = ladder(dir, &["verify", "s2"]);
    assert!(
        verified.contains("s2: 10 games in schedule order"),
        "{verified}"
    );
    let exported: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("s2/standings.json")).unwrap()).unwrap();
    for r in &season.rows {
        same(
            &exported,
            &r.bot,
            [r.season_rating, r.season_low, r.season_high],
        );
    }
    let err = refused(dir, &["arena", "export", "a", "s0", "--season", "0"]);
    assert!(err.contains("has no season 0: "), "{err}");

    // shown: the list under the table, and a season's own table
    let shown = ladder(dir, &["arena", "show", "a"]);
    let list = shown.split_once("Seasons (every 10 games)\n").unwrap().1;
    // the newest ten, each as its line says, after a line for the others
    let lines: Vec<&str> = list.lines().collect();
    let listed = closed.len().min(10);
    assert_eq!(lines.len(), listed + 2, "{list}");
    assert_eq!(
        lines[0],
        format!(
            "       seasons 1-{}: `ladder arena show DIR --season K` shows one",
            closed.len() - listed
        )
    );
    for (line, s) in lines[1..=listed]
        .iter()
        .zip(&closed[closed.len() - listed..])
    {
        let top = &s.rows[0];
        let said = format!(
            "{:>5}. games {}-{}: {} first of {} ({} points in {} games)",
            s.number,
            s.first,
            s.last,
            top.bot,
            s.rows.len(),
            top.points,
            top.games
        );
        assert_eq!(*line, said);
    }
    let next = closed.len() * 10;
    assert!(
        list.ends_with(&format!(
            ". games {next}-{}: in progress, {} of 10 played\n",
            next + 9,
            games.len() - next
        )),
        "{list}"
    );
    let table = ladder(dir, &["arena", "show", "a", "--season", "2"]);
    assert!(
        table.starts_with(&format!(
            "arena a: troops, season 2 of {}: games 10-19, {} bots\n",
            closed.len(),
            season.rows.len()
        )),
        "{table}"
    );
    assert!(
        table.ends_with("Season: the joint fit of the season's games; Rating: of games 0-19.\n"),
        "{table}"
    );
    for r in &season.rows {
        assert!(table.contains(&format!(" {} ", r.bot)), "{table}");
    }
    let beyond = (closed.len() + 1).to_string();
    let err = refused(dir, &["arena", "show", "a", "--season", &beyond]);
    assert!(err.contains(&format!("has no season {beyond}: ")), "{err}");

    // the JSON API gives them as kept
    let web = common::web::Served::start(dir, &["serve", "a"]);
    let api = |path: &str| common::web::get(&format!("{}/api/{path}", web.url));
    let (status, all) = api("seasons?limit=1000");
    assert_eq!(status, 200);
    assert_eq!(common::web::keys(&all), ["closed", "every", "seasons"]);
    assert_eq!(
        (&all["every"], &all["closed"]),
        (&10.into(), &closed.len().into())
    );
    assert_eq!(all["seasons"], serde_json::to_value(&closed).unwrap());
    // by default (or with an empty limit, as a form sends it) the newest
    // 20; one by its number
    let from = closed.len().saturating_sub(20);
    for path in ["seasons", "seasons?limit="] {
        let (_, newest) = api(path);
        let expected = serde_json::to_value(&closed[from..]).unwrap();
        assert_eq!(newest["seasons"], expected, "{path}");
    }
    let (status, one) = api("seasons/2");
    assert_eq!((status, one), (200, serde_json::to_value(season).unwrap()));
    for (path, code) in [
        ("seasons/0", 404),
        (&format!("seasons/{}", closed.len() + 1), 404),
        ("seasons/x", 400),
        ("seasons?limit=0", 400),
        ("seasons?limit=1001", 400),
        ("seasons?limit=x", 400),
        ("seasons?limit=1&limit=2", 400),
        ("seasons?season=1", 400),
    ] {
        let (status, said) = api(path);
        assert_eq!(status, code, "{path}: {said}");
        assert!(said["error"].is_string(), "{path}: {said}");
    }
    assert_eq!(
        common::web::keys(&all["seasons"][1]["rows"][0]),
        [
            "bot",
            "drawn",
            "forfeits",
            "games",
            "high",
            "lost",
            "low",
            "points",
            "rank",
            "rating",
            "rating_text",
            "season_high",
            "season_low",
            "season_rating",
            "season_rating_text",
            "won"
        ]
    );
    drop(web);

    // a replay closes the same seasons
    ladder(dir, &["arena", "replay", "a", "c", "-q"]);
    assert_eq!(seasons_of(dir, "c"), closed);

    // an arena without seasons shows none
    ladder(dir, &["arena", "init", "d", "--game", "troops"]);
    assert!(!ladder(dir, &["arena", "show", "d"]).contains("Seasons"));
    let err = refused(dir, &["arena", "show", "d", "--season", "1"]);
    assert!(
        err.contains("has no seasons ([arena] season_games)"),
        "{err}"
    );

    // season 2's export is the same whenever it is made: a bot that joins
    // later and the batches after change none of its files
    ladder(dir, &["arena", "add", "a", "late", "--builtin", "random"]);
    run("a", "1", 2);
    ladder(dir, &["arena", "export", "a", "s2-later", "--season", "2"]);
    let files = |name: &str| -> std::collections::BTreeMap<String, Vec<u8>> {
        common::files_under(&dir.join(name))
            .into_iter()
            .map(|(path, bytes)| (path.display().to_string(), bytes))
            .collect()
    };
    let (then, later) = (files("s2"), files("s2-later"));
    assert!(then.contains_key("events.jsonl"), "{:?}", then.keys());
    for (file, text) in &then {
        // the season's name is its folder's
        let ours = String::from_utf8_lossy(text).replace("s2", "NAME");
        let theirs = String::from_utf8_lossy(&later[file]).replace("s2-later", "NAME");
        assert!(ours == theirs, "{file} differs:\n{ours}\n---\n{theirs}");
    }
    assert_eq!(then.len(), later.len());
    let log = String::from_utf8(then["events.jsonl"].clone()).unwrap();
    assert!(!log.contains("late"), "{log}");
}

/// An arena made by a ladder of layout 1, before each game was listed
/// under the bots that played it, is brought to layout 2 the first time
/// this ladder opens it, saying so once (as docs/ARENA.md shows); its
/// table is as before, a filter on a bot finds that bot's games, and a
/// ladder of layout 1 would now refuse it.
#[test]
fn an_arena_of_the_layout_before_gets_its_games_listed_under_their_bots_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    ladder(dir, &["arena", "init", "a", "--game", "coordination"]);
    for bot in ["left", "copycat", "random"] {
        ladder(dir, &["arena", "add", "a", bot, "--builtin", bot]);
    }
    ladder(dir, &["arena", "run", "a", "-q", "--batches", "2"]);
    let table = ladder(dir, &["arena", "show", "a"]);
    let db = rusqlite::Connection::open(dir.join("a").join(arena::store::FILE)).unwrap();
    db.execute_batch(
        "DROP TABLE seats; DROP TABLE endings;
         DELETE FROM meta WHERE key = 'listed';
         UPDATE meta SET value = '1' WHERE key = 'schema';",
    )
    .unwrap();
    drop(db);

    let show = || {
        let out = Command::new(LADDER)
            .current_dir(dir)
            .args(["arena", "show", "a"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (text(out.stdout), text(out.stderr))
    };
    let (shown, said) = show();
    assert_eq!(shown, table);
    let note = "note: a/arena.db: listing its 32 games under their bots, once, \
                for this ladder's layout 2\n";
    assert_eq!(said, note);
    let doc = fs::read_to_string(repo("docs/ARENA.md")).unwrap();
    assert!(
        doc.replace("\n", " ").contains(note.trim_end()),
        "docs/ARENA.md shows the note"
    );
    assert_eq!(show(), (table, String::new()), "the second opening");

    let db = rusqlite::Connection::open(dir.join("a").join(arena::store::FILE)).unwrap();
    let layout: String = db
        .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(layout, "2");
    drop(db);
    // each bot's games, as the records' seats say
    let records = records(dir, "a");
    let board = std::sync::Mutex::new(ladder::web::api::Board::default());
    for bot in ["left@1", "copycat@1", "random@1"] {
        let seat = format!("\"seats\":[\"{bot}\"");
        let other = format!("\",\"{bot}\"]");
        let played = records
            .iter()
            .filter(|r| r.contains(&seat) || r.contains(&other))
            .count();
        assert!(played > 0, "{bot}");
        let query = [("bot".to_string(), bot.to_string())];
        let answer = ladder::web::api::games(&dir.join("a"), &query, &board).unwrap();
        assert_eq!(answer["total"].as_u64(), Some(played as u64), "{bot}");
    }
    // and each result's games, as the records' results say
    let mut all = 0;
    for result in ["first", "second", "draw"] {
        let said = format!("\"result\":\"{result}\"");
        let ended = records.iter().filter(|r| r.contains(&said)).count();
        let query = [("result".to_string(), result.to_string())];
        let answer = ladder::web::api::games(&dir.join("a"), &query, &board).unwrap();
        assert_eq!(answer["total"].as_u64(), Some(ended as u64), "{result}");
        all += ended;
    }
    assert_eq!(all, records.len());
}
