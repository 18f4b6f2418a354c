//! External bots end to end, with real child processes: every way a bot can
//! fail, in every game, ends as the right named forfeit; seasons complete; no
//! child outlives ladder (checked in the process table); an interrupted or
//! killed season resumes with every game exactly once.

use std::{
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
    process::{Command as StdCommand, Stdio},
    time::{Duration, Instant},
};

use assert_cmd::Command;
use predicates::prelude::*;
use rustix::process::{kill_process, Pid, Signal};
use tempfile::TempDir;

mod common;
use common::journal_indices;
use common::Edit;
use ladder::catalog::GameKind;

fn ladder() -> Command {
    Command::cargo_bin("ladder").unwrap()
}

/// Test-bot processes started with `--tag TAG`.
fn running_with(tag: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = fs::read(entry.path().join("cmdline")) {
            let args: Vec<String> = cmdline
                .split(|&b| b == 0)
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect();
            let is_testbot = args.first().is_some_and(|p| p.ends_with("testbot"));
            let tagged = args.windows(2).any(|w| w[0] == "--tag" && w[1] == tag);
            if is_testbot && tagged {
                found.push(args.join(" "));
            }
        }
    }
    found
}

/// Waits up to ten seconds (generous for a busy machine: a process ladder
/// killed can take a moment to be reaped) for every process tagged `tag` to
/// be gone.
fn assert_no_bot_left(tag: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !running_with(tag).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        running_with(tag),
        Vec::<String>::new(),
        "bot processes outlived ladder"
    );
}

/// `ladder run CONFIG --reports REPORTS`.
fn run_season(cfg: &Path, reports: &Path) -> assert_cmd::assert::Assert {
    ladder()
        .arg("run")
        .arg(cfg)
        .arg("--reports")
        .arg(reports)
        .assert()
}

/// A season config: the testbot with `flags` (and a unique tag) against
/// random, in the catalogue game `game` (with its shipped parameters).
fn season(dir: &Path, game: &str, flags: &str, tag: &str, games_per_pair: u32) -> PathBuf {
    let params = GameKind::from_name(game).map_or(String::new(), common::season_params);
    let mut command = vec![common::testbot().to_string()];
    command.extend(flags.split_whitespace().map(str::to_string));
    command.extend(["--tag".to_string(), tag.to_string()]);
    let text = format!(
        r#"
[season]
name = "s"
game = "{game}"
games_per_pair = {games_per_pair}
seed = 3
move_time_ms = 300
startup_time_ms = 500
{params}
[[bot]]
name = "testbot"
command = {command:?}

[[bot]]
name = "random"
builtin = "random"
"#
    );
    let path = dir.join(format!("{tag}.toml"));
    fs::write(&path, text).unwrap();
    path
}

fn journal(reports: &Path) -> Vec<serde_json::Value> {
    common::season_games(&reports.join("s"))
}

/// The forfeit reason of a journal game, if the testbot forfeited it.
fn testbot_forfeit(game: &serde_json::Value) -> Option<String> {
    let t = &game["termination"];
    if t["kind"] != "forfeit" {
        return None;
    }
    let seat = if t["seat"] == "first" { 0 } else { 1 };
    assert_eq!(
        game["seats"][seat], "testbot",
        "only the testbot forfeits: {game}"
    );
    Some(t["reason"].as_str().unwrap().to_string())
}

#[test]
fn every_fault_in_every_game_is_the_right_forfeit() {
    let faults = [
        ("--crash-at 2", "crash"),
        ("--crash-at 0", "crash"),
        ("--hang-at 2", "timeout"),
        ("--no-handshake", "timeout"),
        ("--garbage-at 2", "bad-output"),
        ("--illegal-at 2", "illegal-move"),
        ("--flood-at 2", "bad-output"),
        ("--long-line-at 2", "bad-output"),
        ("--chatter-at 1", "bad-output"),
        ("--no-ready-after-over", "timeout"),
    ];
    let tmp = TempDir::new().unwrap();
    for kind in common::games() {
        let game = kind.name();
        for (n, (flags, reason)) in faults.iter().enumerate() {
            // coordination has no move that parses yet breaks the rules
            let reason = if game == "coordination" && *reason == "illegal-move" {
                "bad-output"
            } else {
                reason
            };
            let tag = format!("fault-{game}-{n}");
            let cfg = season(tmp.path(), game, flags, &tag, 2);
            let reports = tmp.path().join(&tag);
            run_season(&cfg, &reports)
                .success()
                .stdout(predicate::str::contains("2 of 2 games"));
            let games = journal(&reports);
            assert_eq!(games.len(), 2, "{game} {flags}: the season completes");
            for g in &games {
                assert_eq!(
                    testbot_forfeit(g).as_deref(),
                    Some(reason),
                    "{game} {flags}: {g}"
                );
            }
            let board = fs::read_to_string(reports.join("s/leaderboard.md")).unwrap();
            assert!(
                board.contains(&format!("forfeit: {}", reason.replace('-', " "))),
                "{board}"
            );
            assert_no_bot_left(&tag);
        }
    }
}

#[test]
fn well_behaved_bots_play_every_game_normally_and_slow_starts_are_allowed() {
    let tmp = TempDir::new().unwrap();
    for kind in common::games() {
        let game = kind.name();
        let tag = format!("good-{game}");
        let cfg = season(tmp.path(), game, "--slow-start 200 --stderr-spam", &tag, 6);
        let reports = tmp.path().join(&tag);
        run_season(&cfg, &reports).success();
        let games = journal(&reports);
        assert_eq!(games.len(), 6);
        for g in &games {
            assert_eq!(g["termination"]["kind"], "normal", "{game}: {g}");
        }
        // stderr went to the bot's log, capped in size
        let log = fs::metadata(reports.join("s/logs/testbot.log")).unwrap();
        assert!(
            log.len() > 0 && log.len() <= 1024 * 1024 + 200,
            "log size {}",
            log.len()
        );
        assert_no_bot_left(&tag);
    }
}

#[test]
fn a_failed_bot_is_restarted_for_its_next_game() {
    let tmp = TempDir::new().unwrap();
    let tag = "restart";
    // crashes at its 3rd move of every game: each game must reach move 3
    // with a fresh process, or the forfeit would come earlier
    let cfg = season(tmp.path(), "troops", "--crash-at 3", tag, 6);
    let reports = tmp.path().join(tag);
    run_season(&cfg, &reports).success();
    for g in journal(&reports) {
        assert_eq!(testbot_forfeit(&g).as_deref(), Some("crash"));
        assert_eq!(g["plies"], 2, "two rounds played before the crash: {g}");
        let detail = g["termination"]["detail"].as_str().unwrap();
        assert!(detail.contains("exited"), "{detail}");
    }
    assert_no_bot_left(tag);
}

#[test]
fn hackerrank_bots_play_and_their_faults_forfeit() {
    let testbot = common::testbot();
    let tmp = TempDir::new().unwrap();
    for (flags, expected) in [
        ("", None),
        ("--crash-at 2", Some("crash")),
        ("--garbage-at 2", Some("bad-output")),
        ("--illegal-at 2", Some("illegal-move")),
        ("--hang-at 2", Some("timeout")),
    ] {
        let tag = format!("hr{}", flags.replace(' ', ""));
        let text = format!(
            "[season]\nname = \"s\"\ngame = \"bidding\"\ngames_per_pair = 2\nmove_time_ms = 500\n\n\
             [[bot]]\nname = \"hr\"\ncommand = [\"{testbot}\", \"--hackerrank\", {}\"--tag\", \"{tag}\"]\nprotocol = \"hackerrank\"\n\n\
             [[bot]]\nname = \"random\"\nbuiltin = \"random\"\n",
            flags.split_whitespace().map(|w| format!("\"{w}\", ")).collect::<String>()
        );
        let cfg = tmp.path().join(format!("{tag}.toml"));
        fs::write(&cfg, text).unwrap();
        let reports = tmp.path().join(&tag);
        run_season(&cfg, &reports).success();
        for g in journal(&reports) {
            let t = &g["termination"];
            match expected {
                None => assert_eq!(t["kind"], "normal", "{g}"),
                Some(reason) => {
                    assert_eq!(t["reason"], reason, "{flags}: {g}");
                    let seat = if t["seat"] == "first" { 0 } else { 1 };
                    assert_eq!(g["seats"][seat], "hr");
                }
            }
        }
        assert_no_bot_left(&tag);
    }
}

/// Starts `ladder run` on `cfg` in the background.
fn spawn_run(cfg: &Path, reports: &Path) -> std::process::Child {
    ladder_run(cfg, reports).spawn().unwrap()
}

/// `ladder run CFG --reports REPORTS --jobs 2 --quiet`, output discarded.
fn ladder_run(cfg: &Path, reports: &Path) -> StdCommand {
    let mut cmd = StdCommand::new(env!("CARGO_BIN_EXE_ladder"));
    cmd.arg("run")
        .arg(cfg)
        .arg("--reports")
        .arg(reports)
        .args(["--jobs", "2", "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

/// Waits until the journal holds at least `n` games.
fn wait_for_games(reports: &Path, n: usize) {
    let path = reports.join("s/games.jsonl");
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        let count = fs::read_to_string(&path)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if count >= n {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the season did not reach {n} games");
}

fn assert_each_game_once(reports: &Path, total: usize) {
    let indices: Vec<u64> = journal(reports)
        .iter()
        .map(|g| g["index"].as_u64().unwrap())
        .collect();
    let distinct: BTreeSet<u64> = indices.iter().copied().collect();
    assert_eq!(distinct.len(), indices.len(), "no game twice");
    assert_eq!(
        indices,
        (0..total as u64).collect::<Vec<_>>(),
        "every game once, in order"
    );
}

/// Starts a 2000-game season of the testbot (about a second's work),
/// interrupts it with `interrupt` once 64 games are journaled, checks that no
/// bot is left, and resumes it.
fn interrupt_and_resume(tag: &str, interrupt: impl FnOnce(&mut std::process::Child)) {
    const GAMES: usize = 2000;
    let tmp = TempDir::new().unwrap();
    let cfg = season(tmp.path(), "coordination", "", tag, GAMES as u32);
    let reports = tmp.path().join(tag);
    let mut child = spawn_run(&cfg, &reports);
    wait_for_games(&reports, 64);
    interrupt(&mut child);
    let before = journal(&reports).len();
    assert!(
        before < GAMES,
        "interrupted after the season ended: nothing was tested"
    );
    assert_no_bot_left(tag);
    run_season(&cfg, &reports).success();
    assert_each_game_once(&reports, GAMES);
    assert_no_bot_left(tag);
}

#[test]
fn a_sigkilled_season_leaves_no_bot_and_resumes_exactly_once() {
    interrupt_and_resume("sigkill", |child| {
        child.kill().unwrap(); // SIGKILL: no chance to clean up
        child.wait().unwrap();
    });
}

#[test]
fn ctrl_c_kills_every_bot_and_the_season_resumes() {
    interrupt_and_resume("ctrlc", |child| {
        kill_process(Pid::from_child(child), Signal::INT).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(130), "exit code after Ctrl-C");
    });
}

#[test]
fn sigterm_saves_every_finished_game_and_prints_the_standings_so_far() {
    const GAMES: usize = 300;
    let tmp = TempDir::new().unwrap();
    // a bot that thinks: two workers finish their chunks out of order all the time
    let cfg = season(tmp.path(), "troops", "--think 4", "sigterm", GAMES as u32);
    let reports = tmp.path().join("sigterm");
    let child = ladder_run(&cfg, &reports)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_games(&reports, 20);
    kill_process(Pid::from_child(&child), Signal::TERM).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(143),
        "exit code after SIGTERM: {stderr}"
    );
    assert!(
        stdout.contains("Season s: troops"),
        "standings so far:\n{stdout}"
    );
    assert!(stderr.contains("interrupted by signal 15"), "{stderr}");
    // every game the standings count is on disk: in the journal, or pending
    let played: usize = stdout
        .lines()
        .find_map(|l| {
            l.split(" games played now")
                .next()
                .filter(|_| l.contains("played now"))
        })
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no count in:\n{stdout}"));
    let dir = reports.join("s");
    let journaled = journal_indices(&dir.join("games.jsonl"));
    let on_disk: BTreeSet<u64> = journaled
        .iter()
        .copied()
        .chain(journal_indices(&dir.join("pending.jsonl")))
        .collect();
    assert!(played < GAMES, "the signal came after the season ended");
    assert_eq!(on_disk.len(), played, "every finished game is on disk");
    assert_eq!(
        journaled,
        (0..journaled.len() as u64).collect::<Vec<_>>(),
        "the journal stays in schedule order"
    );
    assert_no_bot_left("sigterm");

    // the resumed season is the uninterrupted one, byte for byte
    run_season(&cfg, &reports).success();
    assert_each_game_once(&reports, GAMES);
    assert!(!dir.join("pending.jsonl").exists());
    let whole = tmp.path().join("whole");
    run_season(&cfg, &whole).success();
    assert_eq!(
        fs::read(dir.join("games.jsonl")).unwrap(),
        fs::read(whole.join("s/games.jsonl")).unwrap()
    );
}

#[test]
fn bad_external_bot_configs_are_refused() {
    let tmp = TempDir::new().unwrap();
    let cases = [
        (
            "command = [\"no-such-program-xyz\"]",
            "program `no-such-program-xyz` not found on PATH",
        ),
        (
            "command = [\"./missing.py\"]",
            "program `./missing.py` not found in",
        ),
        (
            "command = [\"/no/such/bot\"]",
            "program `/no/such/bot` not found\n",
        ),
        (
            "command = [\"/tmp\"]",
            "program `/tmp` is a folder, not a program",
        ),
        ("command = []", "the command is empty"),
        (
            "builtin = \"random\"\ncommand = [\"true\"]",
            "either `builtin` or `command`, not both",
        ),
        (
            "command = [\"true\"]\nprotocol = \"uci\"",
            "unknown protocol `uci`; known: line, hackerrank",
        ),
        (
            "command = [\"true\"]\nprotocol = \"hackerrank\"",
            "protocol \"hackerrank\" is for the bidding game, not troops",
        ),
        (
            "command = [\"true\"]\ndir = \"no/such/dir\"",
            "/no/such/dir` is not a directory (relative to the config's folder)",
        ),
        (
            "builtin = \"random\"\nprotocol = \"line\"",
            "`protocol` is for bots with a `command`",
        ),
        (
            "",
            "a bot needs `builtin` (an in-process bot) or `command` (a program)",
        ),
    ];
    for (bot, want) in cases {
        let text = format!("[season]\ngame = \"troops\"\n\n[[bot]]\nname = \"x\"\n{bot}\n\n[[bot]]\nname = \"r\"\nbuiltin = \"random\"\n");
        let cfg = tmp.path().join("bad.toml");
        fs::write(&cfg, text).unwrap();
        ladder()
            .arg("run")
            .arg(&cfg)
            .arg("--reports")
            .arg(tmp.path().join("reports"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(want));
    }
}

/// A path in a bot's command that names no file where the bot will look
/// for it (a config's folder, or the bot's `dir`) is noted on stderr before
/// the games start: otherwise it shows only as every game's forfeit at
/// start-up. Options, URLs and paths that exist are not noted.
#[test]
fn a_script_the_command_names_but_is_not_there_is_noted() {
    let tmp = TempDir::new().unwrap();
    let configs = tmp.path().join("configs");
    let bots = tmp.path().join("bots");
    fs::create_dir_all(&configs).unwrap();
    fs::create_dir_all(&bots).unwrap();
    fs::copy(repo("bots/python/troops_bot.py"), bots.join("bot.py")).unwrap();
    let season = |bot: &str| {
        let cfg = configs.join("s.toml");
        fs::write(
            &cfg,
            format!("[season]\ngame = \"troops\"\ngames_per_pair = 2\nsandbox = \"none\"\n\n[[bot]]\nname = \"py\"\n{bot}\n\n[[bot]]\nname = \"r\"\nbuiltin = \"random\"\n"),
        )
        .unwrap();
        let out = ladder()
            .current_dir(tmp.path())
            .args(["run", "configs/s.toml", "--fresh", "-q", "--reports"])
            .arg(tmp.path().join("reports"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let games = fs::read_to_string(tmp.path().join("reports/s/games.jsonl")).unwrap();
        (String::from_utf8(out.stderr).unwrap(), games)
    };
    // a script beside ladder's working folder, not the config's: noted,
    // and the bot cannot start
    let (stderr, games) = season(r#"command = ["python3", "bot.py", "--x", "http://a/b"]"#);
    assert!(
        stderr.starts_with(
            "note: bot `py`: `bot.py` in its command names no file in `configs` \
             (a config's paths are relative to its folder, or to the bot's `dir`)\n\
             warning: py forfeited every game it played (2); the first: crash: "
        ),
        "{stderr}"
    );
    assert_eq!(games.matches("\"reason\":\"crash\"").count(), 2, "{games}");
    // as the config's folder sees it, inside a `dir`, and from ladder's
    // working folder, where a bot without `dir` runs
    for bot in [
        r#"command = ["python3", "../bots/bot.py"]"#,
        "command = [\"python3\", \"bot.py\"]\ndir = \"../bots\"",
        r#"command = ["python3", "bots/bot.py"]"#,
    ] {
        let (stderr, games) = season(bot);
        assert_eq!(stderr, "", "{bot}");
        assert!(!games.contains("forfeit"), "{bot}: {games}");
    }
    let (stderr, _) = season("command = [\"python3\", \"bott.py\"]\ndir = \"../bots\"");
    assert!(
        stderr.contains(
            "note: bot `py`: `bott.py` in its command names no file in `configs/../bots`"
        ),
        "{stderr}"
    );
    // a bot named on the command line: paths from the working directory
    ladder()
        .current_dir(&configs)
        .args([
            "match",
            "troops",
            "cmd:python3 bot.py",
            "random",
            "--games",
            "2",
        ])
        .args(["--sandbox", "none", "--reports"])
        .arg(tmp.path().join("m"))
        .assert()
        .success()
        .stderr(predicate::str::starts_with(
            "note: `cmd:python3 bot.py`: `bot.py` names no file in the working directory\n",
        ));
}

/// A bot's `env` may set its `PATH` (a virtualenv's `bin`): its program
/// and its script's `#!/usr/bin/env` interpreter are looked up there, as
/// the bot is started with it, in the sandbox and without; in the sandbox
/// the PATH's folders are shown to it, also under `/tmp`.
#[test]
fn a_bots_own_path_finds_its_program_and_interpreter() {
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path().join("bot");
    fs::create_dir_all(dir.join("bin")).unwrap();
    let python = String::from_utf8(
        StdCommand::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    std::os::unix::fs::symlink(python.trim(), dir.join("bin/my-python")).unwrap();
    fs::create_dir_all(tmp.path().join("tools/bin")).unwrap();
    std::os::unix::fs::symlink(python.trim(), tmp.path().join("tools/bin/tool-python")).unwrap();
    let source = fs::read_to_string(common::repo("bots/python/coordination_bot.py")).unwrap();
    let (_, body) = source.split_once('\n').unwrap();
    let script = dir.join("bot.py");
    fs::write(&script, format!("#!/usr/bin/env my-python\n{body}")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:/usr/bin:/bin", dir.join("bin").display());
    let mut sandboxes = vec!["none"];
    if common::bwrap_runs() {
        sandboxes.push("bwrap");
    }
    for sandbox in sandboxes {
        let cfg = tmp.path().join("s.toml");
        let bot = |name: &str, command: &str| {
            format!(
                "[[bot]]\nname = \"{name}\"\ncommand = {command}\ndir = \"bot\"\n\
                 env = {{ PATH = \"{path}\" }}\n\n"
            )
        };
        // and a PATH folder outside the bot's own (under /tmp, where the
        // sandbox's /tmp is the bot's own)
        let tools = format!(
            "[[bot]]\nname = \"tools\"\ncommand = [\"tool-python\", \"bot.py\"]\n\
             dir = \"bot\"\nenv = {{ PATH = \"{}:/usr/bin:/bin\" }}\n\n",
            tmp.path().join("tools/bin").display()
        );
        fs::write(
            &cfg,
            format!(
                "[season]\nname = \"s\"\ngame = \"coordination\"\ngames_per_pair = 2\n\
                 sandbox = \"{sandbox}\"\n\n{}{}{tools}",
                bot("script", "[\"./bot.py\"]"),
                bot("named", "[\"my-python\", \"bot.py\"]"),
            ),
        )
        .unwrap();
        let reports = tmp.path().join(format!("reports-{sandbox}"));
        let out = ladder_run(&cfg, &reports)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{sandbox}: {stderr}");
        let games = common::season_games(&reports.join("s"));
        assert_eq!(games.len(), 6, "{sandbox}");
        for game in &games {
            assert_eq!(game["termination"]["kind"], "normal", "{sandbox}: {game}");
        }
    }
    // without its bin on the PATH it gives, neither starts
    let cfg = tmp.path().join("s.toml");
    for (command, says) in [
        ("[\"./bot.py\"]", "program `./bot.py` is run by `my-python`"),
        (
            "[\"my-python\", \"bot.py\"]",
            "program `my-python` not found on its env's PATH `/usr/bin:/bin`",
        ),
    ] {
        fs::write(
            &cfg,
            format!(
                "[season]\nname = \"s\"\ngame = \"coordination\"\n\n\
                 [[bot]]\nname = \"x\"\ncommand = {command}\ndir = \"bot\"\n\
                 env = {{ PATH = \"/usr/bin:/bin\" }}\n\n\
                 [[bot]]\nname = \"r\"\nbuiltin = \"random\"\n"
            ),
        )
        .unwrap();
        ladder()
            .arg("run")
            .arg(&cfg)
            .arg("--reports")
            .arg(tmp.path().join("refused"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
}

#[test]
fn match_takes_command_bots() {
    let testbot = common::testbot();
    let tmp = TempDir::new().unwrap();
    ladder()
        .args([
            "match",
            "breakthrough",
            &format!("cmd:{testbot} --tag matchcmd"),
            "greedy",
            "--games",
            "4",
            "--reports",
        ])
        .arg(tmp.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Season match-breakthrough-testbot-vs-greedy",
        ));
    assert_no_bot_left("matchcmd");
    // a program in a folder with a blank, quoted as in a shell
    let spaced = tmp.path().join("my bots");
    std::fs::create_dir_all(&spaced).unwrap();
    std::fs::copy(testbot, spaced.join("testbot")).unwrap();
    let quoted = format!("cmd:'{}/testbot' --tag \"match quoted\"", spaced.display());
    ladder()
        .args(["match", "troops", &quoted, "random", "--games", "2"])
        .arg("--reports")
        .arg(tmp.path().join("quoted"))
        .assert()
        .success();
    let journal = std::fs::read_to_string(
        tmp.path()
            .join("quoted/match-troops-testbot-vs-random/games.jsonl"),
    )
    .unwrap();
    assert_eq!(journal.lines().count(), 2);
    assert!(!journal.contains("forfeit"), "{journal}");
    ladder()
        .args(["match", "troops", "cmd:'my bots/testbot", "random"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("a quote is not closed"));
    ladder()
        .args([
            "match",
            "troops",
            &format!("hackerrank:{testbot}"),
            "random",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "hackerrank: bots play the bidding game, not troops",
        ));
}

#[test]
fn check_lists_every_problem_of_a_bot() {
    ladder()
        .args([
            "check",
            "--game",
            "troops",
            "--",
            common::testbot(),
            "--tag",
            "check-ok",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "ok    answers `ladder 2 troops move_ms=1000 rounds=5 troops=10` with `ready`",
        ))
        .stdout(predicate::str::contains("ok    exits on `quit`"))
        .stdout(
            predicate::str::is_match(r"ok    game 4 as player 2: \w+ \(\d+ to \d+\), 5 moves\n")
                .unwrap(),
        )
        .stdout(predicate::str::contains("no problems found"));
    ladder()
        .args([
            "check",
            "--game",
            "bidding",
            "--",
            common::testbot(),
            "--garbage-at",
            "2",
            "--tag",
            "check-bad",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "FAIL  game 1 as player 1: forfeit after 1 move: bad output: `xyzzy` is not a move",
        ))
        .stdout(predicate::str::contains("4 problems found"));
    ladder()
        .args([
            "check",
            "--game",
            "armies",
            "--move-time-ms",
            "200",
            "--",
            common::testbot(),
            "--no-handshake",
            "--tag",
            "check-quiet",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "FAIL  greeting `ladder 2 armies move_ms=200",
        ))
        .stdout(predicate::str::contains("no `ready` within the time limit"));
    ladder()
        .args([
            "check",
            "--protocol",
            "hackerrank",
            "--",
            common::testbot(),
            "--hackerrank",
            "--tag",
            "check-hr",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("HackerRank format"))
        .stdout(predicate::str::contains("no problems found"));
    ladder()
        .args(["check", "--", common::testbot()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("add --game GAME"));
    for tag in ["check-ok", "check-bad", "check-quiet", "check-hr"] {
        assert_no_bot_left(tag);
    }
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn the_example_python_bots_pass_the_check() {
    for kind in common::games() {
        let script = repo(kind.example_bot());
        let game = match kind {
            // a GDL game is named by its description
            GameKind::Gdl => "gdl:games/gdl/tictactoe.kif",
            _ => kind.name(),
        };
        ladder()
            .current_dir(repo(""))
            .args(["check", "--game", game, "--", "python3"])
            .arg(&script)
            .assert()
            .success()
            .stdout(predicate::str::contains("no problems found"));
    }
    ladder()
        .args(["check", "--protocol", "hackerrank", "--", "python3"])
        .arg(repo("bots/python/hackerrank_bidding.py"))
        .assert()
        .success()
        .stdout(predicate::str::contains("no problems found"));
}

/// `--games 0` checks the start-up and `quit` only, and times no move.
#[test]
fn check_with_no_games_times_no_answer() {
    let out = ladder()
        .args([
            "check", "--game", "bidding", "--games", "0", "--", "python3",
        ])
        .arg(repo("bots/python/bidding_bot.py"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("exits on `quit`"), "{out}");
    assert!(
        !out.contains("game 1") && !out.contains("slowest answer"),
        "{out}"
    );
}

#[test]
fn check_suggests_a_longer_move_time_when_a_move_times_out() {
    // a HackerRank bot is started for every move: a Python interpreter
    // cannot start within 1 ms, and the check says what to change
    ladder()
        .args(["check", "--protocol", "hackerrank", "--move-time-ms", "1"])
        .args(["--margin-ms", "0", "--games", "1", "--", "python3"])
        .arg(repo("bots/python/hackerrank_bidding.py"))
        .assert()
        .failure()
        .stdout(predicate::str::contains("timeout"))
        .stdout(predicate::str::contains(
            "hint: this protocol starts the program afresh for every move, so each move's 1 ms \
             include the interpreter's or runtime's start-up: try --move-time-ms 3000",
        ));
}

#[test]
fn the_shipped_external_season_plays_python_bots_of_both_protocols() {
    let tmp = TempDir::new().unwrap();
    ladder()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "configs/external.toml", "--reports"])
        .arg(tmp.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Season external: bidding, round-robin, 3 bots, 60 of 60 games",
        ))
        .stdout(predicate::str::contains("games at once: "));
    // -q: the results, not how the games were run; without bwrap (outside
    // CI only) stderr notes that the bots run unsandboxed
    let sandboxed = common::require_tool(common::bwrap_runs(), "bwrap", "bubblewrap");
    let quiet = ladder()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "configs/external.toml", "--fresh", "-q", "--reports"])
        .arg(tmp.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("60 games played now"))
        .stdout(predicate::str::contains("games at once: ").not());
    if sandboxed {
        quiet.stderr("");
    }
    let text = fs::read_to_string(tmp.path().join("external/games.jsonl")).unwrap();
    let games: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 60);
    let mut python_wins_vs_random = 0;
    for g in &games {
        assert_eq!(g["termination"]["kind"], "normal", "{g}");
        let seats = [
            g["seats"][0].as_str().unwrap(),
            g["seats"][1].as_str().unwrap(),
        ];
        if let Some(r) = seats.iter().position(|s| *s == "random") {
            let winner = match g["result"].as_str().unwrap() {
                "first" => 0,
                "second" => 1,
                _ => continue,
            };
            python_wins_vs_random += usize::from(winner != r);
        }
    }
    // both Python bots spread their money over the steps to go: random bidding cannot keep up
    assert!(
        python_wins_vs_random >= 36,
        "Python bots won only {python_wins_vs_random} of 40 against random"
    );
    assert!(tmp.path().join("external/logs/spread-py.log").exists());
}

#[test]
fn seeded_external_bots_give_the_same_journal_for_any_jobs() {
    let tmp = TempDir::new().unwrap();
    let cfg = season(tmp.path(), "breakthrough", "", "jobs-same", 40);
    let mut journals = Vec::new();
    for jobs in ["1", "2"] {
        let reports = tmp.path().join(format!("jobs{jobs}"));
        ladder()
            .arg("run")
            .arg(&cfg)
            .arg("--reports")
            .arg(&reports)
            .args(["--jobs", jobs])
            .assert()
            .success();
        journals.push(fs::read(reports.join("s/games.jsonl")).unwrap());
    }
    assert!(
        journals[0] == journals[1],
        "the journals differ between --jobs 1 and 2"
    );
    assert_no_bot_left("jobs-same");
}

#[test]
fn a_hackerrank_bot_that_exits_without_a_bid_is_bad_output_and_crashes_say_how() {
    let tmp = TempDir::new().unwrap();
    ladder()
        .args([
            "match",
            "bidding",
            "hackerrank:true",
            "random",
            "--games",
            "2",
            "-q",
        ])
        .arg("--reports")
        .arg(tmp.path())
        .assert()
        .success();
    let text =
        fs::read_to_string(tmp.path().join("match-bidding-true-vs-random/games.jsonl")).unwrap();
    for line in text.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(g["termination"]["reason"], "bad-output", "{g}");
        assert_eq!(
            g["termination"]["detail"], "the program exited without printing a bid",
            "{g}"
        );
    }
    // a line-protocol bot that exits: its code, and what ladder was doing
    let cfg = season(tmp.path(), "troops", "--crash-at 1", "crashhow", 2);
    let reports = tmp.path().join("crashhow");
    run_season(&cfg, &reports).success();
    let g = &journal(&reports)[0];
    let detail = g["termination"]["detail"].as_str().unwrap();
    assert!(
        detail.ends_with("exited with code 3 while ladder waited for its move"),
        "{detail}"
    );
    assert_no_bot_left("crashhow");
}

/// The `ladder-*` working folders in `dir`.
fn ladder_dirs(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("ladder-"))
        .collect()
}

#[test]
fn hackerrank_folders_go_on_a_signal_and_stale_ones_are_swept_at_start() {
    let testbot = common::testbot();
    let tmp = TempDir::new().unwrap();
    let own_tmp = tmp.path().join("tmp");
    fs::create_dir(&own_tmp).unwrap();
    let cfg = tmp.path().join("hr.toml");
    fs::write(
        &cfg,
        format!(
            "[season]\nname = \"s\"\ngame = \"bidding\"\ngames_per_pair = 2000\n\n\
             [[bot]]\nname = \"hr\"\ncommand = [\"{testbot}\", \"--hackerrank\", \"--tag\", \"hrdirs\"]\nprotocol = \"hackerrank\"\n\n\
             [[bot]]\nname = \"r\"\nbuiltin = \"random\"\n"
        ),
    )
    .unwrap();
    let reports = tmp.path().join("reports");
    let child = ladder_run(&cfg, &reports)
        .env("TMPDIR", &own_tmp)
        .spawn()
        .unwrap();
    wait_for_games(&reports, 10);
    assert!(
        !ladder_dirs(&own_tmp).is_empty(),
        "games in progress have folders"
    );
    kill_process(Pid::from_child(&child), Signal::INT).unwrap();
    let status = child.wait_with_output().unwrap().status;
    assert_eq!(status.code(), Some(130));
    assert_eq!(
        ladder_dirs(&own_tmp),
        Vec::<String>::new(),
        "no folder left"
    );
    assert_no_bot_left("hrdirs");

    // a folder of a ladder that was killed outright goes when the next starts;
    // one of a ladder that still runs (this test) stays
    let mut gone = StdCommand::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let stale = own_tmp.join(format!("ladder-hackerrank-{dead}-AbCdEf"));
    let live = own_tmp.join(format!("ladder-hackerrank-{}-AbCdEf", std::process::id()));
    fs::create_dir(&stale).unwrap();
    fs::create_dir(&live).unwrap();
    ladder()
        .args(["list", "games"])
        .env("TMPDIR", &own_tmp)
        .assert()
        .success();
    assert!(!stale.exists(), "the stale folder was swept");
    assert!(live.exists(), "a running ladder's folder is left alone");
}

#[test]
fn ladders_own_failure_stops_the_season_and_charges_no_bot() {
    let testbot = common::testbot();
    let tmp = TempDir::new().unwrap();
    let cfg = tmp.path().join("hr.toml");
    fs::write(
        &cfg,
        format!(
            "[season]\nname = \"s\"\ngame = \"bidding\"\ngames_per_pair = 4\n\n\
             [[bot]]\nname = \"hr\"\ncommand = [\"{testbot}\", \"--hackerrank\"]\nprotocol = \"hackerrank\"\n\n\
             [[bot]]\nname = \"r\"\nbuiltin = \"random\"\n"
        ),
    )
    .unwrap();
    let reports = tmp.path().join("reports");
    // no folder can be made for the HackerRank bot: ladder's problem, not the bot's
    ladder()
        .args(["run", "--jobs", "1", "-q", "--reports"])
        .arg(&reports)
        .arg(&cfg)
        .env("TMPDIR", tmp.path().join("no-such-folder"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "ladder could not run the game: cannot make the bot's working folder",
        ))
        .stderr(predicate::str::contains("No bot was charged with it"));
    let journaled = journal_indices(&reports.join("s/games.jsonl"));
    assert!(journaled.is_empty(), "no game recorded: {journaled:?}");
    // fixed: the season resumes and every game is played normally
    run_season(&cfg, &reports).success();
    for g in journal(&reports) {
        assert_eq!(g["termination"]["kind"], "normal", "{g}");
    }
    // a program that cannot be executed is a config error, not a crash in a game
    let script = tmp.path().join("bot.py");
    fs::write(&script, "print(1)\n").unwrap();
    let text = fs::read_to_string(&cfg).unwrap().edit(
        &format!("[\"{testbot}\", \"--hackerrank\"]"),
        &format!("[\"{}\"]", script.display()),
    );
    fs::write(&cfg, text).unwrap();
    let refused = || {
        ladder()
            .args(["run", "-q", "--fresh", "--reports"])
            .arg(&reports)
            .arg(&cfg)
            .assert()
            .code(2)
    };
    refused().stderr(predicate::str::contains("is not executable"));
    // nor is a script saved with Windows line ends, whose `#!` line the
    // system would read with the carriage return in the interpreter's name
    fs::write(&script, "#!/usr/bin/env python3\r\nprint(1)\r\n").unwrap();
    let mut perms = fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    fs::set_permissions(&script, perms).unwrap();
    refused()
        .stderr(predicate::str::contains(
            "starts `#!/usr/bin/env python3` with a carriage return at the line's end",
        ))
        .stderr(predicate::str::contains("dos2unix"));
    // the same file named after its interpreter is Python's to read, and runs
    let runs = ladder()
        .args(["check", "--game", "troops", "--games", "1", "--", "python3"])
        .arg(&script)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&runs.stdout);
    assert!(said.contains("with `1`, not `ready`"), "it ran: {said}");
    assert!(!said.contains("carriage return"), "{said}");
}

#[test]
fn check_explains_a_silent_greeting_and_extra_output() {
    let out = ladder()
        .args([
            "check",
            "--game",
            "troops",
            "--startup-time-ms",
            "200",
            "--",
        ])
        .args([common::testbot(), "--no-handshake", "--tag", "checkhints"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("no `ready` within the time limit (start-up limit 200 ms"),
        "{stdout}"
    );
    assert!(
        stdout.contains("does the bot flush stdout after each line?"),
        "{stdout}"
    );
    assert!(stdout.contains("1 problem found"), "{stdout}");
    assert!(
        stderr.contains("did not pass the check") && !stderr.contains("1 problem"),
        "{stderr}"
    );
    assert_no_bot_left("checkhints");

    // a byte-order mark before the first `ready` is let pass
    let out = ladder()
        .args(["check", "--game", "troops", "--games", "2", "--"])
        .args([common::testbot(), "--bom"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("with `ready` in"), "{stdout}");
}

#[test]
fn a_line_nobody_asked_for_forfeits_the_game_it_was_written_in_however_late_it_arrives() {
    // the bot writes an extra move 30 ms after its first answer: by then ladder
    // has read the answer and asked for the next move, so the extra line is
    // read as that answer and every later answer is one turn late; the
    // bot's `ready` after `over` brings the last one to light
    let tmp = TempDir::new().unwrap();
    for kind in common::games() {
        let game = kind.name();
        let tag = format!("late-{game}");
        let cfg = season(tmp.path(), game, "--chatter-late-at 1", &tag, 2);
        let reports = tmp.path().join(&tag);
        run_season(&cfg, &reports).success();
        for g in journal(&reports) {
            let reason = testbot_forfeit(&g);
            let detail = g["termination"]["detail"].as_str().unwrap_or_default();
            if game == "troops" || game == "coordination" {
                // every shifted move is still legal: only the end shows it
                assert_eq!(reason.as_deref(), Some("bad-output"), "{g}");
                assert!(detail.contains("output nobody asked for"), "{g}");
            } else {
                // a move for an earlier position may break the rules first
                assert!(
                    matches!(reason.as_deref(), Some("bad-output" | "illegal-move")),
                    "{game}: {g}"
                );
            }
        }
        assert_no_bot_left(&tag);
    }
    // `ladder check` finds it in the first game
    let out = ladder()
        .args(["check", "--game", "troops", "--games", "2", "--"])
        .args([
            common::testbot(),
            "--chatter-late-at",
            "1",
            "--tag",
            "late-check",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("game 1 as player 1: forfeit after")
            && stdout.contains("bad output: output nobody asked for"),
        "{stdout}"
    );
    assert_no_bot_left("late-check");
}

#[test]
fn a_configs_paths_are_relative_to_its_folder_wherever_ladder_runs() {
    // the shipped config, run from a folder beside the project; and a copy
    // of the project under /tmp, where the sandbox's /tmp is the bot's own
    // and the path through `..` must be mounted as written
    let tmp = TempDir::new().unwrap();
    let copy = tmp.path().join("copy");
    for file in [
        "configs/external.toml",
        "bots/python/bidding_bot.py",
        "bots/python/hackerrank_bidding.py",
    ] {
        fs::create_dir_all(copy.join(file).parent().unwrap()).unwrap();
        fs::copy(repo(file), copy.join(file)).unwrap();
    }
    for (k, config) in [
        repo("configs/external.toml"),
        copy.join("configs/external.toml"),
    ]
    .iter()
    .enumerate()
    {
        let elsewhere = tmp.path().join(format!("elsewhere-{k}"));
        fs::create_dir(&elsewhere).unwrap();
        let out = ladder()
            .current_dir(&elsewhere)
            .args(["run", "-q", "--max-games", "12", "--strict"])
            .arg(pathdiff(config, &elsewhere))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{}: {stderr}", config.display());
        assert!(!stderr.contains("forfeited"), "{stderr}");
        let games = common::season_games(&elsewhere.join("reports/external"));
        assert_eq!(games.len(), 12);
        assert!(games.iter().all(|g| g["termination"]["kind"] == "normal"));
    }
}

/// `path` relative to `from` (both absolute), through `..`s.
fn pathdiff(path: &Path, from: &Path) -> PathBuf {
    let mut up = PathBuf::new();
    let mut base = from.to_path_buf();
    while !path.starts_with(&base) {
        up.push("..");
        base.pop();
    }
    up.join(path.strip_prefix(&base).unwrap())
}

#[test]
fn a_bot_that_forfeits_every_game_is_named_and_strict_fails_the_run() {
    let testbot = common::testbot();
    let tmp = TempDir::new().unwrap();
    let cfg = tmp.path().join("s.toml");
    fs::write(
        &cfg,
        format!(
            "[season]\nname = \"broken\"\ngame = \"coordination\"\ngames_per_pair = 4\nsandbox = \"none\"\n\n\
             [[bot]]\nname = \"broken\"\ncommand = [\"{testbot}\", \"--crash-at\", \"0\", \"--tag\", \"strict\"]\n\n\
             [[bot]]\nname = \"left\"\nbuiltin = \"left\"\n"
        ),
    )
    .unwrap();
    for (strict, code) in [(false, 0), (true, 1)] {
        let mut cmd = ladder();
        cmd.args(["run", "-q", "--fresh", "--reports"])
            .arg(tmp.path().join("reports"))
            .arg(&cfg);
        if strict {
            cmd.arg("--strict");
        }
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{stderr}");
        assert!(
            stderr
                .contains("warning: broken forfeited every game it played (4); the first: crash: "),
            "{stderr}"
        );
        assert!(stderr.contains("exited with code 3"), "{stderr}");
        assert!(!stderr.contains("left forfeited"), "{stderr}");
    }
    assert_no_bot_left("strict");
}

#[test]
fn check_shows_a_bots_escape_sequences_escaped() {
    let out = ladder()
        .args(["check", "--sandbox", "none", "--game", "coordination", "--"])
        .args([
            "sh",
            "-c",
            "read x; printf '\\033[2J\\033]0;title\\007hello\\n'; sleep 1",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        !stdout.contains('\u{1b}') && !stdout.contains('\u{7}'),
        "{stdout:?}"
    );
    assert!(stdout.contains("\\u{1b}[2J"), "{stdout}");
}

#[test]
fn a_nul_byte_in_a_command_is_a_config_error() {
    let tmp = TempDir::new().unwrap();
    let cfg = tmp.path().join("nul.toml");
    fs::write(
        &cfg,
        "[season]\nname = \"nul\"\ngame = \"coordination\"\n\n[[bot]]\nname = \"a\"\ncommand = [\"sh\", \"-c\", \"x\\u0000y\"]\n\n[[bot]]\nname = \"b\"\nbuiltin = \"left\"\n",
    )
    .unwrap();
    ladder()
        .arg("run")
        .arg(&cfg)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nul.toml:7").and(predicate::str::contains("NUL byte")));
}

/// A bot that answers with terminal escape sequences (clear the screen,
/// retitle the window, set the clipboard): its words reach the user's
/// terminal only as escapes, in the season's warning, `ladder replay` and
/// `ladder check`.
#[test]
fn a_bots_escape_sequences_reach_the_terminal_as_escapes() {
    let tmp = TempDir::new().unwrap();
    fs::write(
        tmp.path().join("evil.py"),
        "import sys\n\
         for line in sys.stdin:\n\
         \x20   w = line.split()\n\
         \x20   if not w: continue\n\
         \x20   if w[0] == 'ladder': print('ready evil', flush=True)\n\
         \x20   elif w[0] == 'turn': print('\\x1b[2J\\x1b]52;c;ZWNobyBwd25lZA==\\x07 3,3,4', flush=True)\n\
         \x20   elif w[0] == 'over': print('ready', flush=True)\n\
         \x20   elif w[0] == 'quit': break\n",
    )
    .unwrap();
    let cfg = tmp.path().join("e.toml");
    fs::write(
        &cfg,
        "[season]\nname = \"e\"\ngame = \"troops\"\ngames_per_pair = 1\n\n\
         [[bot]]\nname = \"evil\"\ncommand = [\"python3\", \"evil.py\"]\n\n\
         [[bot]]\nname = \"r\"\nbuiltin = \"random\"\n",
    )
    .unwrap();
    let reports = tmp.path().join("reports");
    let run = ladder_run(&cfg, &reports)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let replay = ladder()
        .arg("replay")
        .arg(reports.join("e"))
        .args(["--game", "0"])
        .output()
        .unwrap();
    let check = ladder()
        .current_dir(tmp.path())
        .args([
            "check", "--game", "troops", "--games", "1", "--", "python3", "evil.py",
        ])
        .output()
        .unwrap();
    for (what, out) in [
        ("run", &run.stderr),
        ("replay", &replay.stdout),
        ("check", &check.stdout),
    ] {
        let text = String::from_utf8_lossy(out);
        assert!(
            !out.contains(&0x1b) && !out.contains(&0x07),
            "{what}: {text}"
        );
        assert!(
            text.contains("`\\u{1b}[2J\\u{1b}]52;c;ZWNobyBwd25lZA==\\u{7} 3,3,4` is not a move"),
            "{what}: {text}"
        );
    }
}
