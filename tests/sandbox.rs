//! The bwrap sandbox with real processes: a hostile bot cannot see, signal
//! or write to its opponent, cannot write the reports or read ladder's
//! secrets; no process of a bot tree outlives ladder, even `setsid`
//! grandchildren after `kill -9`; a bot over its memory limit forfeits as a
//! crash that names the limit. The same attacks succeed with
//! `sandbox = "none"`, which shows the tests can fail.
//!
//! bwrap is required under `CI=true`; elsewhere a machine without it skips
//! these tests and says so.

use std::{
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
    process::{Command as StdCommand, Stdio},
    time::Duration,
};

use assert_cmd::Command;
use predicates::prelude::*;
use tempfile::TempDir;

mod common;
use common::{wait_for, Edit};

/// How long a bot's processes may take to be gone once ladder ended or
/// killed them: they are gone in milliseconds, but a busy machine may be
/// slow to reap them, and a wait that holds returns at once.
const GONE_SECS: u64 = 30;

/// The sandbox modes a test can try here: `none`, and `bwrap` where it runs.
fn modes() -> &'static [&'static str] {
    if common::bwrap_runs() {
        &["none", "bwrap"]
    } else {
        &["none"]
    }
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A project folder: the spy and a victim bot (the example coordination or
/// bidding bot), and a config of `games` games in which the spy runs with
/// `spy_args` and the bot settings `spy_keys`.
fn project(game: &str, sandbox: &str, spy_args: &str, spy_keys: &str, games: u32) -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::copy(repo("tests/fixtures/spy.py"), tmp.path().join("spy.py")).unwrap();
    fs::copy(
        repo(&format!("bots/python/{game}_bot.py")),
        tmp.path().join("victim.py"),
    )
    .unwrap();
    let reports = tmp.path().join("reports");
    let cfg = format!(
        r#"[season]
name = "spy"
game = "{game}"
games_per_pair = {games}
move_time_ms = 5000
sandbox = "{sandbox}"

[[bot]]
name = "spy"
command = ["python3", "spy.py", "{victim}", "{reports}" {spy_args}]
dir = "."
{spy_keys}

[[bot]]
name = "victim"
command = ["python3", "{victim}"]
dir = "."
"#,
        reports = reports.display(),
        // absolute, so that a spy without a sandbox, which sees every
        // process of the machine, targets only its own opponent
        victim = tmp.path().join("victim.py").display()
    );
    fs::write(tmp.path().join("spy.toml"), cfg).unwrap();
    tmp
}

fn run(tmp: &TempDir) -> assert_cmd::assert::Assert {
    Command::cargo_bin("ladder")
        .unwrap()
        .current_dir(tmp.path())
        .env("LADDER_TEST_SECRET", "hunter2")
        .args(["run", "spy.toml", "-q"])
        .assert()
}

fn journal(tmp: &TempDir) -> Vec<serde_json::Value> {
    common::season_games(&tmp.path().join("reports/spy"))
}

fn spy_log(tmp: &TempDir) -> String {
    fs::read_to_string(tmp.path().join("reports/spy/logs/spy.log")).unwrap()
}

/// Forfeits in the journal, as "BOT: DETAIL".
fn forfeits(tmp: &TempDir) -> Vec<String> {
    journal(tmp)
        .iter()
        .filter(|g| g["termination"]["kind"] == "forfeit")
        .map(|g| {
            let t = &g["termination"];
            let seat = usize::from(t["seat"] == "second");
            format!(
                "{}: {}",
                g["seats"][seat].as_str().unwrap(),
                t["detail"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn a_spy_in_the_sandbox_cannot_touch_its_opponent_the_reports_or_ladders_secrets() {
    if !common::bwrap_runs() {
        return;
    }
    let tmp = project(
        "coordination",
        "bwrap",
        "",
        "env = { GIVEN = \"from-the-config\" }",
        4,
    );
    run(&tmp).success();
    let log = spy_log(&tmp);
    assert!(
        log.contains("opened 0 and killed 0 of the target's"),
        "{log}"
    );
    assert!(log.contains("ladder's secret: (not visible)"), "{log}");
    assert!(log.contains("given variable: from-the-config"), "{log}");
    assert!(log.contains("cannot write into the reports"), "{log}");
    assert!(log.contains("wrote into its own folder"), "{log}");
    assert!(!tmp.path().join("reports/spy-was-here").exists());
    assert!(tmp.path().join("own-file").exists());
    assert_eq!(journal(&tmp).len(), 4);
    assert_eq!(forfeits(&tmp), Vec::<String>::new());
}

#[test]
fn without_the_sandbox_the_same_spy_wins_by_killing_its_opponent() {
    let tmp = project("coordination", "none", "", "", 2);
    run(&tmp).success();
    let log = spy_log(&tmp);
    assert!(log.contains("ladder's secret: hunter2"), "{log}");
    assert!(log.contains("wrote into the reports"), "{log}");
    let forfeits = forfeits(&tmp);
    assert!(
        forfeits.iter().any(|f| f.starts_with("victim: ")),
        "{forfeits:?}"
    );
}

/// Processes whose command line contains `marker`.
fn running_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = fs::read(entry.path().join("cmdline")) {
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if text.contains(marker) {
                found.push(text);
            }
        }
    }
    found
}

#[test]
fn kill_9_of_ladder_leaves_no_process_of_any_bot_tree() {
    if !common::bwrap_runs() {
        return;
    }
    let marker = format!("ladder-linger-{}", std::process::id());
    // a line bot and a HackerRank bot, each leaving a setsid grandchild; the
    // HackerRank bot then hangs
    let tmp = project(
        "bidding",
        "auto",
        &format!(", \"--linger\", \"{marker}-line\""),
        "",
        2,
    );
    let keys = format!(
        "[[bot]]\nname = \"hanger\"\nprotocol = \"hackerrank\"\ncommand = [\"python3\", \"spy.py\", \"{}\", \"/nonexistent\", \"--hackerrank\", \"--linger\", \"{marker}-hr\"]\ndir = \".\"\n",
        tmp.path().join("victim.py").display()
    );
    let cfg = tmp.path().join("spy.toml");
    let text = fs::read_to_string(&cfg)
        .unwrap()
        .edit("move_time_ms = 5000", "move_time_ms = 60000");
    fs::write(&cfg, text + &keys).unwrap();
    let mut ladder = StdCommand::new(env!("CARGO_BIN_EXE_ladder"))
        .current_dir(tmp.path())
        .args(["run", "spy.toml", "-q", "--jobs", "3"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let both = || {
        let found = running_with(&marker);
        found.iter().any(|p| p.contains("-line")) && found.iter().any(|p| p.contains("-hr"))
    };
    let started = wait_for(30, both);
    ladder.kill().unwrap(); // SIGKILL
    ladder.wait().unwrap();
    let gone = wait_for(GONE_SECS, || running_with(&marker).is_empty());
    let left = running_with(&marker);
    // leave no process behind, whatever the outcome
    let _ = StdCommand::new("pkill").args(["-f", &marker]).status();
    assert!(started, "the bots never left their grandchildren: {left:?}");
    assert!(gone, "processes outlived ladder: {left:?}");
}

#[test]
fn a_setsid_grandchild_ends_with_its_bot_when_the_season_finishes() {
    if !common::bwrap_runs() {
        return;
    }
    let marker = format!("ladder-finish-{}", std::process::id());
    let tmp = project(
        "coordination",
        "bwrap",
        &format!(", \"--linger\", \"{marker}\""),
        "",
        1,
    );
    run(&tmp).success();
    let gone = wait_for(GONE_SECS, || running_with(&marker).is_empty());
    let left = running_with(&marker);
    let _ = StdCommand::new("pkill").args(["-f", &marker]).status();
    assert!(spy_log(&tmp).contains("left a grandchild behind"));
    assert!(gone, "a grandchild outlived the season: {left:?}");
}

#[test]
fn without_a_sandbox_a_child_in_the_bots_process_group_ends_with_it() {
    // the whole process group is ended, not only the bot ladder started
    let marker = format!("ladder-group-{}", std::process::id());
    let tmp = project(
        "coordination",
        "none",
        &format!(", \"--child\", \"{marker}\""),
        "",
        2,
    );
    run(&tmp).success();
    let gone = wait_for(GONE_SECS, || running_with(&marker).is_empty());
    let left = running_with(&marker);
    let _ = StdCommand::new("pkill").args(["-f", &marker]).status();
    assert!(spy_log(&tmp).contains("left a child behind in its process group"));
    assert!(gone, "a child outlived the season: {left:?}");
}

#[test]
fn a_bot_over_its_memory_limit_forfeits_as_a_crash_naming_the_limit() {
    let tmp = project(
        "coordination",
        "auto",
        ", \"--hog\", \"400\"",
        "memory_mb = 200",
        2,
    );
    run(&tmp).success();
    let forfeits = forfeits(&tmp);
    assert_eq!(forfeits.len(), 2, "{forfeits:?}");
    for f in &forfeits {
        assert!(f.starts_with("spy: "), "{f}");
        assert!(f.contains("exited with code 1"), "{f}");
        assert!(f.contains("(its limits: memory 200 MiB)"), "{f}");
    }
    let games = journal(&tmp);
    assert!(games.iter().all(|g| g["termination"]["reason"] == "crash"));
    assert!(spy_log(&tmp).contains("MemoryError"));
}

#[test]
fn bad_sandbox_settings_name_their_line_and_key() {
    let cases = [
        (
            "sandbox = \"bwrap\"",
            "sandbox = \"docker\"",
            "spy.toml:6",
            "unknown sandbox `docker`",
        ),
        (
            "dir = \".\"\n\n",
            "dir = \".\"\nmemory_mb = 0\n\n",
            "memory_mb",
            "memory_mb must be at least 1",
        ),
        (
            "dir = \".\"\n\n",
            "dir = \".\"\nenv = { \"A=B\" = \"1\" }\n\n",
            "env",
            "`A=B` is not a variable name",
        ),
    ];
    for (from, to, at, message) in cases {
        let tmp = project("coordination", "bwrap", "", "", 1);
        let cfg = tmp.path().join("spy.toml");
        let text = fs::read_to_string(&cfg).unwrap().replacen(from, to, 1);
        fs::write(&cfg, text).unwrap();
        run(&tmp)
            .code(2)
            .stderr(predicate::str::contains(at).and(predicate::str::contains(message)));
    }
    // sandbox keys belong to bot programs
    let tmp = project("coordination", "none", "", "", 1);
    let cfg = tmp.path().join("spy.toml");
    let text = fs::read_to_string(&cfg).unwrap()
        + "\n[[bot]]\nname = \"r\"\nbuiltin = \"random\"\nmemory_mb = 5\n";
    fs::write(&cfg, text).unwrap();
    run(&tmp).code(2).stderr(predicate::str::contains(
        "`memory_mb` is for bots with a `command`, not built-in ones",
    ));
}

#[test]
fn network_off_leaves_a_bot_only_its_own_loopback() {
    if !common::bwrap_runs() {
        return;
    }
    let tmp = project("coordination", "bwrap", "", "network = false", 1);
    run(&tmp).success();
    let log = spy_log(&tmp);
    assert!(log.contains("network interfaces: lo\n"), "{log}");
    // with the network, the machine's interfaces are there too (any machine
    // that runs the tests has one besides the loopback, or the check is moot)
    let host = fs::read_to_string("/proc/net/dev").unwrap();
    if host
        .lines()
        .skip(2)
        .any(|l| !l.trim_start().starts_with("lo:"))
    {
        let tmp = project("coordination", "bwrap", "", "", 1);
        run(&tmp).success();
        let log = spy_log(&tmp);
        assert!(!log.contains("network interfaces: lo\n"), "{log}");
    }
}

#[test]
fn a_bot_over_its_cpu_time_is_ended_by_the_kernel_and_forfeits_as_a_crash() {
    let tmp = project("coordination", "auto", ", \"--spin\"", "cpu_seconds = 1", 1);
    run(&tmp).success();
    let forfeits = forfeits(&tmp);
    assert_eq!(forfeits.len(), 1, "{forfeits:?}");
    assert!(forfeits[0].starts_with("spy: "), "{forfeits:?}");
    assert!(forfeits[0].contains("was ended by signal"), "{forfeits:?}");
    assert!(
        forfeits[0].contains("(its limits: cpu 1 s)"),
        "{forfeits:?}"
    );
}

#[test]
fn a_missing_working_folder_is_ladders_problem_not_the_bots_crash() {
    use ladder::{
        external::process::{Child, Log, Mode, Sandbox},
        BotError,
    };
    if !common::bwrap_runs() {
        return;
    }
    let sandbox = Sandbox::new(Mode::Bwrap, Default::default(), true, Default::default()).unwrap();
    let log = Log::open(None).unwrap();
    let gone = Path::new("/nonexistent/ladder-folder");
    let err = Child::spawn(&["true".to_string()], Some(gone), &sandbox, &log, false)
        .err()
        .unwrap();
    assert!(
        matches!(&err, BotError::Harness(why) if why.contains("working folder")),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// Hostile bots run by root (as CI and the image run ladder) and by an
// unprivileged user (the test drops privileges with setpriv when it runs as
// root; run as a user, it can only be that user, and says so).

/// Who runs ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum User {
    /// Whoever runs the tests (root under CI).
    Me,
    /// `nobody` (uid 65534), through setpriv, when the tests run as root.
    Nobody,
}

const NOBODY: u32 = 65534;

fn running_as_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// Root and an unprivileged user when the tests run as root; else only the
/// user running them.
fn users() -> Vec<User> {
    if running_as_root() {
        let setpriv = StdCommand::new("setpriv").arg("--version").output().is_ok();
        if common::require_tool(setpriv, "setpriv", "util-linux") {
            return vec![User::Me, User::Nobody];
        }
        return vec![User::Me];
    }
    eprintln!("note: the tests run as a user, so the root half of this test is skipped");
    vec![User::Me]
}

/// Gives `tmp` (and everything in it) to `user`, with a copy of ladder in
/// it that `user` can run; returns that copy's path.
fn hand_over(tmp: &TempDir, user: User) -> PathBuf {
    let exe = tmp.path().join("ladder-bin");
    fs::copy(env!("CARGO_BIN_EXE_ladder"), &exe).unwrap();
    if user == User::Nobody {
        chown_all(tmp.path(), NOBODY);
    }
    exe
}

fn chown_all(path: &Path, uid: u32) {
    std::os::unix::fs::lchown(path, Some(uid), Some(uid)).unwrap();
    if path.is_dir() && !path.is_symlink() {
        for entry in fs::read_dir(path).unwrap().flatten() {
            chown_all(&entry.path(), uid);
        }
    }
}

/// A command that runs `exe` as `user`.
fn run_as(tmp: &TempDir, user: User, exe: &Path) -> StdCommand {
    match user {
        User::Me => StdCommand::new(exe),
        User::Nobody => {
            let mut c = StdCommand::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
                .arg(exe)
                .env_clear()
                .env("PATH", "/usr/local/bin:/usr/bin:/bin")
                .env("HOME", tmp.path());
            c
        }
    }
}

/// `ladder ARGS` in `tmp` as `user`, with ladder's secret in its environment.
fn ladder_as(tmp: &TempDir, user: User, args: &[&str]) -> std::process::Output {
    ladder_as_with(tmp, user, args, &[])
}

/// [`ladder_as`], with `env` in ladder's environment as well.
fn ladder_as_with(
    tmp: &TempDir,
    user: User,
    args: &[&str],
    env: &[(&str, &Path)],
) -> std::process::Output {
    let exe = hand_over(tmp, user);
    let mut cmd = run_as(tmp, user, &exe);
    cmd.current_dir(tmp.path())
        .env("LADDER_TEST_SECRET", "hunter2")
        .envs(env.iter().copied())
        .args(args)
        .stdin(Stdio::null());
    // the copy was just written: a fork in another test thread may still
    // hold it open for writing for a moment ("text file busy")
    // (setpriv says so on stderr)
    for _ in 0..100 {
        match cmd.output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {}
            Ok(out) if String::from_utf8_lossy(&out.stderr).contains("Text file busy") => {}
            out => return out.unwrap(),
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("{} stayed busy", exe.display());
}

/// Plays the spy season as `user`; the spy's log.
fn spy_season_as(tmp: &TempDir, user: User) -> String {
    let out = ladder_as(tmp, user, &["run", "spy.toml", "-q"]);
    assert!(
        out.status.success(),
        "{user:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    spy_log(tmp)
}

#[test]
fn a_bot_run_by_root_or_a_user_has_no_capability_to_remount_or_unmount() {
    if !common::bwrap_runs() {
        return;
    }
    for user in users() {
        let outside = PathBuf::from(format!("/var/tmp/ladder-escaped-{}", std::process::id()));
        let _ = fs::remove_file(&outside);
        let args = format!(", \"--escape\", \"{}\"", outside.display());
        let tmp = project("coordination", "bwrap", &args, "", 2);
        let log = spy_season_as(&tmp, user);
        let escaped = outside.exists();
        let _ = fs::remove_file(&outside);
        assert!(!escaped, "{user:?}: {log}");
        assert!(
            log.contains(&format!("cannot write {}", outside.display())),
            "{user:?}: {log}"
        );
        assert!(!log.contains("remount exit 0"), "{user:?}: {log}");
        assert!(!log.contains("umount /tmp exit 0"), "{user:?}: {log}");
        assert_eq!(forfeits(&tmp), Vec::<String>::new());
    }
}

/// Runs `command` (a shell line) in a fresh pseudo-terminal, as a user at a
/// shell prompt would, and returns what the terminal showed.
fn in_a_terminal(dir: &Path, command: &str) -> String {
    let script = r#"
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp("sh", ["sh", "-c", sys.argv[1]])
out = b""
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
"#;
    let out = StdCommand::new("python3")
        .current_dir(dir)
        .args(["-c", script, command])
        .env("LADDER_TEST_SECRET", "hunter2")
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn no_bot_sandboxed_or_not_can_type_into_the_users_terminal() {
    let sandboxes = modes();
    for user in users() {
        for sandbox in sandboxes {
            let tmp = project("coordination", sandbox, ", \"--tty\"", "", 2);
            let exe = hand_over(&tmp, user);
            let ladder = match user {
                User::Me => format!("{} run spy.toml -q", exe.display()),
                User::Nobody => format!(
                    "setpriv --reuid=65534 --regid=65534 --clear-groups env PATH=/usr/bin:/bin {} run spy.toml -q",
                    exe.display()
                ),
            };
            // what the bot typed would be read by the shell after ladder exits
            let shown = in_a_terminal(
                tmp.path(),
                &format!("{ladder}; read -t 2 line; echo \"SHELL-READ:[$line]\""),
            );
            let log = spy_log(&tmp);
            assert!(
                shown.contains("SHELL-READ:[]"),
                "{user:?} {sandbox}: {shown}\n{log}"
            );
            assert!(
                log.contains("cannot type into a terminal"),
                "{user:?} {sandbox}: {log}"
            );
        }
    }
}

#[test]
fn a_bot_leads_a_process_group_and_leads_a_session_where_a_terminal_is() {
    // ladder's terminal is this test's. Without one, a bot has none to
    // reach and shares ladder's session (a session of its own would be a
    // scheduling group of its own too); with one it leads a session of its
    // own, in bwrap led with its group by the sandbox's first process
    // (`--new-session`). Either way it cannot type into a terminal.
    let terminal = fs::File::open("/dev/tty").is_ok();
    // SAFETY: getsid has no preconditions
    let ours = unsafe { libc::getsid(0) };
    for sandbox in modes() {
        let tmp = project("coordination", sandbox, ", \"--ids\", \"--tty\"", "", 2);
        run(&tmp).success();
        let log = spy_log(&tmp);
        let ids = log
            .lines()
            .find_map(|l| l.strip_prefix("spy: ids: "))
            .unwrap_or_else(|| panic!("{sandbox}: no ids in\n{log}"));
        let id = |key: &str| -> i32 {
            ids.split(' ')
                .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{sandbox}: no {key} in {ids}"))
        };
        if *sandbox == "bwrap" {
            // ids outside its PID namespace are 0 in it
            let expected = if terminal { (1, 1) } else { (0, 0) };
            assert_eq!((id("sid"), id("pgid")), expected, "{sandbox}: {ids}");
        } else {
            assert_eq!(id("pgid"), id("pid"), "{sandbox}: {ids}");
            let session = if terminal { id("pid") } else { ours };
            assert_eq!(id("sid"), session, "{sandbox}: {ids}");
        }
        assert!(
            log.contains("cannot type into a terminal"),
            "{sandbox}: {log}"
        );
    }
}

/// The System V shared memory segments with `key` on the machine.
fn shm_segments(key: i32) -> usize {
    let key = key.to_string();
    fs::read_to_string("/proc/sysvipc/shm")
        .unwrap_or_default()
        .lines()
        .skip(1)
        .filter(|l| l.split_whitespace().next() == Some(key.as_str()))
        .count()
}

/// A season of two spies that both use shared memory segment `key`.
fn two_spies(sandbox: &str, key: i32) -> TempDir {
    let tmp = project(
        "coordination",
        sandbox,
        &format!(", \"--shm\", \"{key}\""),
        "",
        2,
    );
    let cfg = tmp.path().join("spy.toml");
    let victim = format!(
        "command = [\"python3\", \"{}\"]",
        tmp.path().join("victim.py").display()
    );
    let text = fs::read_to_string(&cfg).unwrap().edit(
        &victim,
        // a target no process has: without a sandbox, and as root, the spy
        // kills every process of the machine whose command line holds it
        &format!(
            "command = [\"python3\", \"spy.py\", \"{}\", \"/nonexistent\", \"--shm\", \"{key}\"]",
            tmp.path().join("no-such-bot").display()
        ),
    );
    fs::write(&cfg, text).unwrap();
    tmp
}

#[test]
fn bots_share_no_memory_and_leave_no_shared_memory_behind() {
    if !common::bwrap_runs() {
        return;
    }
    for user in users() {
        let key = 0x1add_0000 + (std::process::id() as i32 & 0xffff);
        let tmp = two_spies("bwrap", key);
        let out = ladder_as(&tmp, user, &["run", "spy.toml", "-q"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let logs = spy_log(&tmp)
            + &fs::read_to_string(tmp.path().join("reports/spy/logs/victim.log")).unwrap();
        let left = shm_segments(key);
        let _ = StdCommand::new("ipcrm")
            .args(["-M", &key.to_string()])
            .status();
        assert!(logs.contains("left shared memory"), "{user:?}: {logs}");
        assert!(
            !logs.contains("shared memory from another bot"),
            "{user:?}: {logs}"
        );
        assert_eq!(left, 0, "{user:?}: a segment outlived ladder");
    }
    // the same two bots without the sandbox talk, and leave the segment
    let key = 0x1ade_0000 + (std::process::id() as i32 & 0xffff);
    let tmp = two_spies("none", key);
    run(&tmp).success();
    let left = shm_segments(key);
    let _ = StdCommand::new("ipcrm")
        .args(["-M", &key.to_string()])
        .status();
    let logs = spy_log(&tmp)
        + &fs::read_to_string(tmp.path().join("reports/spy/logs/victim.log")).unwrap();
    assert!(
        logs.contains("shared memory from another bot: hello from"),
        "{logs}"
    );
    assert_eq!(left, 1);
}

#[test]
fn a_bots_tmp_and_dev_shm_are_private_and_bounded_by_its_memory_limit() {
    if !common::bwrap_runs() {
        return;
    }
    for user in users() {
        let tmp = project(
            "coordination",
            "bwrap",
            ", \"--fill\", \"300\"",
            "memory_mb = 100",
            1,
        );
        let log = spy_season_as(&tmp, user);
        for place in ["/tmp", "/dev/shm"] {
            let line = log
                .lines()
                .find(|l| l.ends_with(&format!("MB into {place}")))
                .unwrap_or_else(|| panic!("{user:?}: {log}"));
            let mb: u64 = line.split_whitespace().nth(2).unwrap().parse().unwrap();
            assert!(mb <= 100, "{user:?}: {line}");
        }
    }
}

/// A spy that reads its opponent's live I/O log and looks into its folder;
/// the opponent runs in a folder of its own and logs every line.
fn log_reader(sandbox: &str) -> TempDir {
    let tmp = project("coordination", sandbox, "", "", 2);
    let log = tmp.path().join("reports/spy/logs/victim.io.log");
    let victim = tmp.path().join("victim");
    fs::create_dir(&victim).unwrap();
    fs::rename(tmp.path().join("victim.py"), victim.join("victim.py")).unwrap();
    let cfg = tmp.path().join("spy.toml");
    let old = tmp.path().join("victim.py").display().to_string();
    let text = fs::read_to_string(&cfg)
        .unwrap()
        .edit(
            &format!("command = [\"python3\", \"{old}\"]\ndir = \".\""),
            "command = [\"python3\", \"victim.py\"]\ndir = \"victim\"\nlog = true",
        )
        .edit(
            &format!("\"{old}\","),
            &format!(
                "\"{old}\", \"--read\", \"{}\", \"--read\", \"victim/victim.py\",",
                log.display(),
            ),
        );
    fs::write(&cfg, text).unwrap();
    tmp
}

#[test]
fn a_sandboxed_bot_sees_neither_its_opponents_live_log_nor_its_folder() {
    if !common::bwrap_runs() {
        return;
    }
    for user in users() {
        let tmp = log_reader("bwrap");
        let log = spy_season_as(&tmp, user);
        assert!(
            log.contains("victim.io.log: No such file"),
            "{user:?}: {log}"
        );
        assert!(
            log.contains("victim/victim.py: No such file"),
            "{user:?}: {log}"
        );
        assert!(
            log.contains("cannot write into the reports"),
            "{user:?}: {log}"
        );
        assert!(!tmp.path().join("reports/spy-was-here").exists());
        // the log was written all the same
        let io = fs::read_to_string(tmp.path().join("reports/spy/logs/victim.io.log")).unwrap();
        assert!(io.contains("turn"), "{io}");
    }
    // without the sandbox the spy reads both
    let tmp = log_reader("none");
    run(&tmp).success();
    let log = spy_log(&tmp);
    assert!(
        log.contains("bytes of") && log.contains("victim.io.log"),
        "{log}"
    );
}

/// A bot without a folder of its own whose program lies beside the
/// reports: its program's folder is shown to it, the reports in it are not.
#[test]
fn a_bot_without_a_folder_sees_no_results_beside_its_program() {
    if !common::bwrap_runs() {
        return;
    }
    for user in users() {
        let tmp = project("coordination", "bwrap", "", "", 2);
        let log = tmp.path().join("reports/spy/logs/victim.io.log");
        let cfg = tmp.path().join("spy.toml");
        let victim = tmp.path().join("victim.py").display().to_string();
        let text = fs::read_to_string(&cfg)
            .unwrap()
            .edit(
                &format!("\"{victim}\","),
                &format!("\"{victim}\", \"--read\", \"{}\",", log.display()),
            )
            .edit("]\ndir = \".\"\n\n", "]\n\n")
            .edit(
                &format!("[\"python3\", \"{victim}\"]\ndir = \".\""),
                &format!("[\"python3\", \"{victim}\"]\ndir = \".\"\nlog = true"),
            );
        fs::write(&cfg, text).unwrap();
        let log = spy_season_as(&tmp, user);
        assert!(
            log.contains("victim.io.log: No such file"),
            "{user:?}: {log}"
        );
        assert!(
            log.contains("cannot write into the reports"),
            "{user:?}: {log}"
        );
        let io = fs::read_to_string(tmp.path().join("reports/spy/logs/victim.io.log")).unwrap();
        assert!(io.contains("turn"), "{io}");
    }
}

/// Writes `spy.py`, whose lines `looks` fill the list `seen`, then play
/// troops: `10,0,0` when it saw anything, else `3,3,4`; and `victim.py`,
/// the shipped troops bot, beside it.
fn spy_beside_victim(tmp: &TempDir, looks: &str) {
    let plays = "for line in sys.stdin:\n\
        \x20   w = line.split()\n\
        \x20   if not w: continue\n\
        \x20   if w[0] == 'ladder': print('ready spy', flush=True)\n\
        \x20   elif w[0] == 'turn': print('10,0,0' if seen else '3,3,4', flush=True)\n\
        \x20   elif w[0] == 'over': print('ready', flush=True)\n\
        \x20   elif w[0] == 'quit': break\n";
    fs::write(tmp.path().join("spy.py"), format!("{looks}{plays}")).unwrap();
    fs::copy(
        repo("bots/python/troops_bot.py"),
        tmp.path().join("victim.py"),
    )
    .unwrap();
}

/// An arena's bots, each a program its author added: a spy that looks
/// beside its own kept folder for the other bots' programs and for the
/// arena's database, and plays `10,0,0` when it finds any.
fn arena_spy(tmp: &TempDir, sandbox: &str) {
    let spy = "import os, sys\n\
        mine = os.path.dirname(os.path.abspath(sys.argv[0]))\n\
        kept = os.path.dirname(mine)\n\
        seen = []\n\
        for d in (os.listdir(kept) if os.path.isdir(kept) else []):\n\
        \x20   p = os.path.join(kept, d)\n\
        \x20   if p != mine and os.path.isdir(p):\n\
        \x20       seen += os.listdir(p)\n\
        if os.path.exists(os.path.join(os.path.dirname(kept), 'arena.db')):\n\
        \x20   seen.append('arena.db')\n\
        print('spy sees', seen, file=sys.stderr)\n\
";
    spy_beside_victim(tmp, spy);
    let config = format!("[season]\ngame = \"troops\"\nsandbox = \"{sandbox}\"\n");
    fs::write(tmp.path().join("a.toml"), config).unwrap();
}

/// The spy's arena made, its two bots added, a batch played.
const ARENA_STEPS: [&[&str]; 4] = [
    &["arena", "init", "arena", "--config", "a.toml"],
    &[
        "arena",
        "add",
        "arena",
        "victim",
        "--",
        "python3",
        "victim.py",
    ],
    &["arena", "add", "arena", "spy", "--", "python3", "spy.py"],
    &["arena", "run", "arena", "-q", "--batches", "1"],
];

/// The spy's moves in the arena's games, and the games' count.
fn spy_moves(tmp: &TempDir) -> (Vec<String>, usize) {
    let (store, _) = ladder::arena::open(&tmp.path().join("arena")).unwrap();
    let games = store.games().unwrap();
    let mut moves = Vec::new();
    for g in &games {
        let record: serde_json::Value = serde_json::from_str(&g.record).unwrap();
        let seat = usize::from(record["seats"][1] == "spy@1");
        for turn in record["moves"].as_array().unwrap() {
            moves.push(turn[seat].as_str().unwrap().to_string());
        }
    }
    (moves, games.len())
}

#[test]
fn an_arenas_bot_sees_neither_the_other_bots_programs_nor_the_database() {
    if !common::bwrap_runs() {
        return;
    }
    for user in users() {
        let tmp = tempfile::tempdir().unwrap();
        arena_spy(&tmp, "bwrap");
        for args in ARENA_STEPS {
            let out = ladder_as(&tmp, user, args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{user:?} {args:?}: {stderr}");
        }
        let (moves, games) = spy_moves(&tmp);
        assert_eq!(games, 16, "{user:?}");
        assert!(moves.iter().all(|m| m == "3,3,4"), "{user:?}: {moves:?}");
    }
    // without the sandbox the spy finds both
    let tmp = tempfile::tempdir().unwrap();
    arena_spy(&tmp, "none");
    for args in ARENA_STEPS {
        common::ladder(tmp.path(), args);
    }
    let (moves, _) = spy_moves(&tmp);
    assert!(moves.iter().all(|m| m == "10,0,0"), "{moves:?}");
}

/// A season's spy beside its opponents' programs: it reads every other
/// file in its program's folder, and plays `10,0,0` when one holds
/// anything. The victim's command names its program and a data file; a
/// twin runs the same program.
fn season_spy(tmp: &TempDir, sandbox: &str, dir: &str) {
    let spy = "import os, sys\n\
        mine = os.path.dirname(os.path.abspath(sys.argv[0]))\n\
        seen = []\n\
        for f in sorted(os.listdir(mine)):\n\
        \x20   p = os.path.join(mine, f)\n\
        \x20   if f.endswith(('.py', '.txt')) and f != 'spy.py' and os.path.isfile(p):\n\
        \x20       try:\n\
        \x20           if open(p).read(): seen.append(f)\n\
        \x20       except OSError: pass\n\
        print('spy read', seen, file=sys.stderr)\n\
";
    spy_beside_victim(tmp, spy);
    fs::write(tmp.path().join("notes.txt"), "the victim's secret notes\n").unwrap();
    let config = format!(
        "[season]\nname = \"spy\"\ngame = \"troops\"\ngames_per_pair = 2\nsandbox = \"{sandbox}\"\n\n\
         [[bot]]\nname = \"spy\"\ncommand = [\"python3\", \"spy.py\"]\n{dir}\n\
         [[bot]]\nname = \"victim\"\ncommand = [\"python3\", \"victim.py\", \"notes.txt\"]\n{dir}\n\
         [[bot]]\nname = \"twin\"\ncommand = [\"python3\", \"victim.py\"]\n{dir}\n"
    );
    fs::write(tmp.path().join("spy.toml"), config).unwrap();
}

/// The spy's moves in the season's games, and the forfeits.
fn season_spy_moves(tmp: &TempDir) -> (Vec<String>, Vec<String>) {
    let mut moves = Vec::new();
    for g in journal(tmp) {
        let Some(seat) = (0..2).find(|&s| g["seats"][s] == "spy") else {
            continue;
        };
        for turn in g["moves"].as_array().unwrap() {
            moves.push(turn[seat].as_str().unwrap().to_string());
        }
    }
    (moves, forfeits(tmp))
}

#[test]
fn a_seasons_bot_reads_no_file_another_bots_command_names_beside_its_own_program() {
    if !common::bwrap_runs() {
        return;
    }
    // with a folder of their own (the same one) and without
    for dir in ["dir = \".\"\n", ""] {
        for user in users() {
            let tmp = tempfile::tempdir().unwrap();
            season_spy(&tmp, "bwrap", dir);
            let log = spy_season_as(&tmp, user);
            assert!(log.contains("spy read []"), "{user:?} {dir}: {log}");
            let (moves, forfeits) = season_spy_moves(&tmp);
            assert!(!moves.is_empty(), "{user:?} {dir}");
            assert!(moves.iter().all(|m| m == "3,3,4"), "{user:?}: {moves:?}");
            // the victim and its twin, which runs the same program, play
            assert_eq!(forfeits, Vec::<String>::new(), "{user:?} {dir}");
            assert_eq!(journal(&tmp).len(), 6);
        }
    }
    // without the sandbox the spy reads both
    let tmp = tempfile::tempdir().unwrap();
    season_spy(&tmp, "none", "");
    run(&tmp).success();
    assert!(
        spy_log(&tmp).contains("spy read ['notes.txt', 'victim.py']"),
        "{}",
        spy_log(&tmp)
    );
    let (moves, _) = season_spy_moves(&tmp);
    assert!(moves.iter().all(|m| m == "10,0,0"), "{moves:?}");
}

/// The keys and tokens of the user running ladder, in the `HOME` the test
/// gives it, and a file of theirs that is no secret.
const HOME_SECRETS: &[&str] = &[
    ".ssh/id_ed25519",
    ".aws/credentials",
    ".netrc",
    ".git-credentials",
    ".config/gh/hosts.yml",
    ".docker/config.json",
];

/// The system's secrets and sockets the spy also looks at: each file
/// it reads, each folder it lists.
const SYSTEM_LOOKS: &[&str] = &["/etc/shadow", "/etc/ssh", "/run/dbus", "/run/user"];

/// The names of [`SYSTEM_LOOKS`] that hold something for this process: a
/// file it can read, a folder with entries.
fn system_secrets_here() -> Vec<String> {
    SYSTEM_LOOKS
        .iter()
        .filter(|p| match fs::read_dir(p) {
            Ok(mut entries) => entries.next().is_some(),
            Err(_) => fs::read(p).is_ok_and(|b| !b.is_empty()),
        })
        .map(|p| p.rsplit('/').next().unwrap().to_string())
        .collect()
}

/// A spy given the paths of its user's keys and tokens, the system's
/// secrets and sockets ([`SYSTEM_LOOKS`]) and a plain file (`notes.txt`)
/// reads each file it can and lists each folder; it plays `10,0,0` when
/// it found a secret.
fn secrets_spy(tmp: &TempDir, sandbox: &str) -> PathBuf {
    let home = tmp.path().join("home");
    for f in HOME_SECRETS.iter().chain(&["notes.txt"]) {
        let path = home.join(f);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, format!("the user's {f}\n")).unwrap();
    }
    let spy = "import os, sys\n\
        seen = []\n\
        for p in sys.argv[1:]:\n\
        \x20   try:\n\
        \x20       found = os.listdir(p) if os.path.isdir(p) else open(p).read()\n\
        \x20       if found: seen.append(p.rsplit('/', 1)[-1])\n\
        \x20   except OSError: pass\n\
        print('spy read', seen, file=sys.stderr)\n\
        seen = [s for s in seen if s != 'notes.txt']\n";
    spy_beside_victim(tmp, spy);
    let mut words = vec!["\"python3\"".to_string(), "\"spy.py\"".to_string()];
    for f in HOME_SECRETS.iter().chain(&["notes.txt"]) {
        words.push(format!("\"{}\"", home.join(f).display()));
    }
    words.extend(SYSTEM_LOOKS.iter().map(|p| format!("\"{p}\"")));
    let config = format!(
        "[season]\nname = \"spy\"\ngame = \"troops\"\ngames_per_pair = 2\nsandbox = \"{sandbox}\"\n\n\
         [[bot]]\nname = \"spy\"\ncommand = [{}]\n\n\
         [[bot]]\nname = \"victim\"\ncommand = [\"python3\", \"victim.py\"]\n",
        words.join(", ")
    );
    fs::write(tmp.path().join("spy.toml"), config).unwrap();
    home
}

#[test]
fn a_bot_reads_none_of_its_users_keys_and_tokens_nor_the_password_hashes() {
    if !common::bwrap_runs() {
        return;
    }
    for user in users() {
        let tmp = tempfile::tempdir().unwrap();
        let home = secrets_spy(&tmp, "bwrap");
        let out = ladder_as_with(&tmp, user, &["run", "spy.toml", "-q"], &[("HOME", &home)]);
        assert!(
            out.status.success(),
            "{user:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // its command names them all: the plain file it reads, no secret
        let log = spy_log(&tmp);
        assert!(log.contains("spy read ['notes.txt']"), "{user:?}: {log}");
        let (moves, forfeits) = season_spy_moves(&tmp);
        assert!(
            !moves.is_empty() && moves.iter().all(|m| m == "3,3,4"),
            "{user:?}: {moves:?}"
        );
        assert_eq!(forfeits, Vec::<String>::new(), "{user:?}");
    }
    // without the sandbox it reads them, and what the system shows its user
    let tmp = tempfile::tempdir().unwrap();
    let home = secrets_spy(&tmp, "none");
    let out = ladder_as_with(
        &tmp,
        User::Me,
        &["run", "spy.toml", "-q"],
        &[("HOME", &home)],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = spy_log(&tmp);
    let mut read: Vec<String> = HOME_SECRETS
        .iter()
        .chain(&["notes.txt"])
        .map(|f| f.rsplit('/').next().unwrap().to_string())
        .collect();
    read.extend(system_secrets_here());
    let listed: Vec<String> = read.iter().map(|r| format!("'{r}'")).collect();
    let said = format!("spy read [{}]", listed.join(", "));
    assert!(log.contains(&said), "{said}\n{log}");
    let (moves, _) = season_spy_moves(&tmp);
    assert!(moves.iter().all(|m| m == "10,0,0"), "{moves:?}");
}

#[test]
fn the_process_limit_counts_the_bots_processes_not_ladders_or_the_users() {
    if !common::bwrap_runs() {
        return;
    }
    // ladder's own threads and its other bots do not count against a bot:
    // 16 games at once as one user, each bot allowed 10 processes
    for user in users() {
        let tmp = project("coordination", "bwrap", "", "processes = 10", 16);
        let cfg = tmp.path().join("spy.toml");
        let text = fs::read_to_string(&cfg)
            .unwrap()
            .edit("games_per_pair = 16", "games_per_pair = 16\njobs = 16")
            + "processes = 10\n";
        fs::write(&cfg, text).unwrap();
        let log = spy_season_as(&tmp, user);
        assert_eq!(forfeits(&tmp), Vec::<String>::new(), "{user:?}: {log}");
        assert_eq!(journal(&tmp).len(), 16);
    }
    // a bot that starts more than its limit is held to it; the kernel does
    // not hold root (uid 0 outside the sandbox) to a process limit
    for user in users() {
        let tmp = project(
            "coordination",
            "bwrap",
            ", \"--fork\", \"30\"",
            "processes = 10",
            1,
        );
        let log = spy_season_as(&tmp, user);
        let line = log
            .lines()
            .find(|l| l.contains("of 30 processes"))
            .unwrap_or_else(|| panic!("{log}"));
        let started: u32 = line.split_whitespace().nth(2).unwrap().parse().unwrap();
        let root = user == User::Me && running_as_root();
        if root {
            assert_eq!(started, 30, "{line}");
        } else {
            assert!(started < 10, "{user:?}: {line}");
        }
    }
}

/// A runtime's memory bot, built in `dir`: its command with `mb` megabytes
/// to fill, or `None` when the toolchain is missing outside CI.
fn runtime_bot(runtime: &str, dir: &Path, mb: u32) -> Option<Vec<String>> {
    let src = repo("tests/fixtures/runtimes");
    let (tool, package) = match runtime {
        "node" => ("node", "nodejs"),
        "java" => ("javac", "default-jdk-headless"),
        _ => ("go", "golang-go"),
    };
    if !common::toolchain(tool, package) {
        return None;
    }
    let mb = mb.to_string();
    Some(match runtime {
        "node" => {
            fs::copy(src.join("mem_bot.js"), dir.join("mem_bot.js")).unwrap();
            vec![
                "node".into(),
                dir.join("mem_bot.js").display().to_string(),
                mb,
            ]
        }
        "java" => {
            if !dir.join("MemBot.class").exists() {
                let ok = StdCommand::new("javac")
                    .arg("-d")
                    .arg(dir)
                    .arg(src.join("MemBot.java"))
                    .status()
                    .unwrap();
                assert!(ok.success());
            }
            vec![
                "java".into(),
                "-cp".into(),
                dir.display().to_string(),
                "MemBot".into(),
                mb,
            ]
        }
        _ => {
            let exe = dir.join("mem_bot");
            if !exe.exists() {
                common::go_build(&src.join("mem_bot.go"), &exe, dir);
            }
            vec![exe.display().to_string(), mb]
        }
    })
}

#[test]
fn node_java_and_go_bots_start_within_a_memory_limit_and_crash_beyond_it() {
    if !common::bwrap_runs() {
        return;
    }
    for runtime in ["node", "java", "go"] {
        for user in users() {
            for (mb, fits) in [(20, true), (400, false)] {
                let tmp = tempfile::tempdir().unwrap();
                let Some(command) = runtime_bot(runtime, tmp.path(), mb) else {
                    return;
                };
                let command: Vec<String> = command.iter().map(|w| format!("\"{w}\"")).collect();
                let cfg = format!(
                    "[season]\nname = \"spy\"\ngame = \"coordination\"\ngames_per_pair = 2\nstartup_time_ms = 20000\nsandbox = \"bwrap\"\n\n\
                     [[bot]]\nname = \"{runtime}\"\ncommand = [{}]\nmemory_mb = 256\n\n\
                     [[bot]]\nname = \"left\"\nbuiltin = \"left\"\n",
                    command.join(", ")
                );
                fs::write(tmp.path().join("spy.toml"), cfg).unwrap();
                let out = ladder_as(&tmp, user, &["run", "spy.toml", "-q"]);
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let forfeits = forfeits(&tmp);
                let log =
                    fs::read_to_string(tmp.path().join(format!("reports/spy/logs/{runtime}.log")))
                        .unwrap_or_default();
                if fits {
                    assert_eq!(
                        forfeits,
                        Vec::<String>::new(),
                        "{runtime} {user:?} {mb} MB: {log}"
                    );
                } else {
                    assert_eq!(
                        forfeits.len(),
                        2,
                        "{runtime} {user:?} {mb} MB: {forfeits:?} {log}"
                    );
                    for f in &forfeits {
                        assert!(f.contains("(its limits: memory 256 MiB)"), "{f}");
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// A bot that hangs ladder, or works outside the sandbox and not inside.

fn ladder() -> Command {
    Command::cargo_bin("ladder").unwrap()
}

#[test]
fn a_bot_that_never_reads_its_input_times_out_instead_of_hanging_ladder() {
    // a description of 200 KB: its greeting is larger than a pipe holds
    let dir = tempfile::tempdir().unwrap();
    let kif = dir.path().join("big.kif");
    let mut text = fs::read_to_string(repo("games/gdl/tictactoe.kif")).unwrap();
    for i in 0..4000 {
        text.push_str(&format!(
            "; padding line {i} of a long description ..............\n"
        ));
    }
    fs::write(&kif, text).unwrap();
    let sandboxes = modes();
    for sandbox in sandboxes {
        let out = ladder()
            .args([
                "check",
                "--sandbox",
                sandbox,
                "--startup-time-ms",
                "500",
                "--game",
            ])
            .arg(format!("gdl:{}", kif.display()))
            .args([
                "--",
                common::testbot(),
                "--never-read",
                "--tag",
                "neverread",
            ])
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{sandbox}: {stdout}");
        assert!(
            stdout.contains("no read of its input within the time limit"),
            "{sandbox}: {stdout}"
        );
        assert!(wait_for(GONE_SECS, || running_with("neverread").is_empty()));
    }
}

#[test]
fn a_bot_that_closes_its_output_crashes_at_once_in_any_sandbox() {
    let sandboxes = modes();
    for sandbox in sandboxes {
        let out = ladder()
            .args([
                "check",
                "--sandbox",
                sandbox,
                "--move-time-ms",
                "60000",
                "--game",
                "coordination",
            ])
            .args([
                "--",
                "sh",
                "-c",
                "read x; echo ready sh; exec 1>&-; sleep 100 # closeout",
            ])
            .timeout(Duration::from_secs(50))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{sandbox}: {stdout}");
        assert!(stdout.contains("crash"), "{sandbox}: {stdout}");
        assert!(!stdout.contains("timeout"), "{sandbox}: {stdout}");
        assert!(wait_for(GONE_SECS, || running_with("closeout").is_empty()));
    }
}

#[test]
fn a_two_file_hackerrank_bot_under_tmp_imports_its_sibling_in_the_sandbox() {
    let tmp = TempDir::new().unwrap(); // under /tmp, which the sandbox replaces
    assert!(tmp.path().starts_with("/tmp"));
    let bot = tmp.path().join("bot");
    fs::create_dir(&bot).unwrap();
    fs::write(bot.join("helper.py"), "def bid(lines):\n    return 1\n").unwrap();
    fs::write(
        bot.join("main.py"),
        "import sys\nfrom helper import bid\nprint(bid(sys.stdin.read().split('\\n')))\n",
    )
    .unwrap();
    let sandboxes = modes();
    for sandbox in sandboxes {
        let cfg = tmp.path().join("hr.toml");
        fs::write(
            &cfg,
            format!(
                "[season]\nname = \"hr\"\ngame = \"bidding\"\ngames_per_pair = 2\nmove_time_ms = 5000\nsandbox = \"{sandbox}\"\n\n\
                 [[bot]]\nname = \"two-files\"\nprotocol = \"hackerrank\"\ncommand = [\"python3\", \"bot/main.py\"]\n\n\
                 [[bot]]\nname = \"random\"\nbuiltin = \"random\"\n"
            ),
        )
        .unwrap();
        let out = ladder()
            .args(["run", "-q", "--fresh", "--strict", "--reports"])
            .arg(tmp.path().join("reports"))
            .arg(&cfg)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{sandbox}: {stderr}");
        let games = common::season_games(&tmp.path().join("reports/hr"));
        assert!(
            games.iter().all(|g| g["termination"]["kind"] != "forfeit"),
            "{sandbox}: {games:?}"
        );
    }
}

// One sandbox a game for HackerRank bots (src/external/process/move_host.rs)

/// A project folder: `script` as a HackerRank bot `spy` (`python3 bot.py
/// ARG`, with the bot keys `keys`) against `random`, `games` games in bwrap.
fn hackerrank_project(script: &str, arg: &str, keys: &str, games: u32) -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("bot.py"), script).unwrap();
    let cfg = format!(
        "[season]\nname = \"spy\"\ngame = \"bidding\"\ngames_per_pair = {games}\nmove_time_ms = 5000\nsandbox = \"bwrap\"\n\n\
         [[bot]]\nname = \"spy\"\nprotocol = \"hackerrank\"\ncommand = [\"python3\", \"bot.py\", \"{arg}\"]\ndir = \".\"\n{keys}\n\n\
         [[bot]]\nname = \"random\"\nbuiltin = \"random\"\n"
    );
    fs::write(tmp.path().join("spy.toml"), cfg).unwrap();
    tmp
}

/// A HackerRank bot that, each move, leaves a process in a session of its
/// own (a sleeper with `marker` in its command line), and the next move
/// bids `still-running` (which ladder refuses) if that process is there and
/// has not ended.
const LEAVER: &str = r#"import os, subprocess, sys
sys.stdin.read()
try:
    stat = open("/proc/%d/stat" % int(open("left.pid").read())).read()
    if stat.rsplit(")", 1)[1].split()[0] not in "ZX":
        print("still-running")
        sys.exit(0)
except (OSError, ValueError):
    pass
left = subprocess.Popen(
    ["python3", "-c", "import time; time.sleep(60)", sys.argv[1]],
    start_new_session=True,
    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
)
open("left.pid", "w").write(str(left.pid))
print(1)
"#;

#[test]
fn what_a_hackerrank_move_leaves_running_is_gone_before_the_next_move() {
    if !common::bwrap_runs() {
        return;
    }
    for user in users() {
        let marker = format!("ladder-leaver-{}-{user:?}", std::process::id());
        let tmp = hackerrank_project(LEAVER, &marker, "", 2);
        spy_season_as(&tmp, user);
        let left = running_with(&marker);
        let _ = StdCommand::new("pkill").args(["-f", &marker]).status();
        let games = journal(&tmp);
        assert_eq!(games.len(), 2);
        for g in &games {
            // every round asked the leaver again, and it found nothing left
            assert_eq!(g["termination"]["kind"], "normal", "{user:?}: {g}");
            assert!(g["moves"].as_array().unwrap().len() >= 5, "{g}");
        }
        assert!(left.is_empty(), "{user:?}: left running: {left:?}");
    }
}

#[test]
fn the_move_host_refuses_to_run_outside_a_pid_namespace_of_its_own() {
    // it ends every process it may signal after a move: only as process 2
    // of bwrap's namespace is that the bot's alone (a test never is)
    let out = StdCommand::new(env!("CARGO_BIN_EXE_ladder"))
        .args(["__move-host", "-", "-", "-", "--", "true"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(127));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("only as process 2 of a PID namespace"),
        "{err}"
    );
}

/// A HackerRank bot that starts up to 8 sleeping children and says on
/// stderr how many started.
const FORKER: &str = r#"import os, sys, time
sys.stdin.read()
started = 0
for _ in range(8):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        os.close(1)
        time.sleep(5)
        os._exit(0)
    started += 1
print("started %d children" % started, file=sys.stderr)
print(1)
"#;

#[test]
fn a_hackerrank_bots_process_limit_is_what_it_was_with_a_sandbox_a_move() {
    if !common::bwrap_runs() {
        return;
    }
    // `processes = 4` counts bubblewrap's process and the bot: 2 children
    // are left, as with a sandbox a move; the move host is not the bot's
    for user in users() {
        let tmp = hackerrank_project(FORKER, "-", "processes = 4", 1);
        let log = spy_season_as(&tmp, user);
        let counts: BTreeSet<&str> = log
            .lines()
            .filter_map(|l| l.split("started ").nth(1))
            .collect();
        let root = user == User::Me && running_as_root();
        let expected = if root { "8 children" } else { "2 children" };
        assert_eq!(counts, BTreeSet::from([expected]), "{user:?}: {log}");
    }
}

/// A bot is untrusted, and the server on loopback takes actions without a
/// token: a program that joins an arena goes without the network, so a
/// hostile one cannot reach the server to retire its rivals (with the
/// network, its request retired them).
#[test]
fn an_arenas_bot_cannot_act_on_its_server() {
    if !common::bwrap_runs() {
        return;
    }
    for user in users() {
        an_arenas_bot_cannot_act_on_its_server_as(user);
    }
}

fn an_arenas_bot_cannot_act_on_its_server_as(user: User) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    common::ladder(dir, &["arena", "init", "arena", "--game", "bidding"]);
    common::ladder(
        dir,
        &["arena", "add", "arena", "victim", "--builtin", "random"],
    );
    common::ladder(dir, &["arena", "add", "arena", "other", "--builtin", "dp"]);
    let evil = dir.join("evil");
    fs::create_dir(&evil).unwrap();
    fs::copy(
        common::repo("bots/python/bidding_bot.py"),
        evil.join("bidding_bot.py"),
    )
    .unwrap();
    // as it starts, it asks the server to retire its rival, then plays
    let attack = format!(
        r##"import runpy, sys, urllib.request
request = urllib.request.Request(
    "http://127.0.0.1:{port}/api/bots/victim/retire", data=b"", method="POST",
    headers={{"X-Ladder": "1"}})
try:
    urllib.request.urlopen(request, timeout=2).read()
    print("# retired victim", file=sys.stderr)
except Exception as e:
    print("# refused:", e, file=sys.stderr)
runpy.run_path("bidding_bot.py")
"##
    );
    fs::write(evil.join("evil.py"), attack).unwrap();
    common::ladder(
        dir,
        &[
            "arena", "add", "arena", "evil", "--dir", "evil", "--", "python3", "evil.py",
        ],
    );
    let listen = format!("127.0.0.1:{port}");
    let exe = hand_over(&tmp, user);
    let args = ["run", "arena", "-q", "--listen", &listen];
    let web = common::web::Served::start_command(run_as(&tmp, user, &exe), dir, &args);
    let played = |n: u64| {
        let (_, arena) = common::web::get(&format!("{}/api/arena", web.url));
        arena["games"].as_u64().unwrap_or(0) >= n
    };
    // evil's program has started and played several batches meanwhile
    assert!(
        common::wait_for(120, || played(64)),
        "{user:?}: the arena stalled"
    );
    let (status, bots) = common::web::get(&format!("{}/api/bots", web.url));
    assert_eq!(status, 200, "{bots}");
    let victim = bots["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["bot"] == "victim@1")
        .unwrap_or_else(|| panic!("{bots}"));
    assert_eq!(victim["state"], "playing", "{user:?}: {victim}");
    let evil = bots["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["bot"] == "evil@1");
    assert_eq!(evil.unwrap()["spec"]["network"], false, "{bots}");
}
