//! GGP players over HTTP (`protocol = "ggp"`): a real HTTP player, written in
//! Python from the protocol's description (`tests/fixtures/ggp_player.py`,
//! with a GDL prover of its own), started by ladder as a child process or
//! reached at a URL, plays a GDL game and the five native games through
//! their GDL twins; a player that answers late, answers an illegal move,
//! closes the connection or exits is each a named forfeit.

mod common;

use std::{
    fs,
    net::TcpListener,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

fn player() -> String {
    common::repo("tests/fixtures/ggp_player.py")
        .to_string_lossy()
        .into_owned()
}

/// A season of `game` (`params` as TOML) between the player (`player_bot`,
/// a `[[bot]]` table) and `random`, with `extra` season keys (a move time
/// of 3 s unless they set one); its folder.
fn season(dir: &Path, game: &str, params: &str, player_bot: &str, extra: &str) -> PathBuf {
    season_in(dir, game, params, player_bot, extra, &[])
}

/// [`season`], with ladder run in an environment that also holds `env`.
fn season_in(
    dir: &Path,
    game: &str,
    params: &str,
    player_bot: &str,
    extra: &str,
    env: &[(&str, &str)],
) -> PathBuf {
    let config = dir.join("s.toml");
    let extra = if extra.contains("move_time_ms") {
        extra.to_string()
    } else {
        format!("move_time_ms = 3000\n{extra}")
    };
    fs::write(
        &config,
        format!(
            r#"[season]
game = "{game}"
{params}
games_per_pair = 4
{extra}

{player_bot}

[[bot]]
name = "random"
builtin = "random"
"#
        ),
    )
    .unwrap();
    assert_cmd::Command::new(env!("CARGO_BIN_EXE_ladder"))
        .arg("run")
        .arg(&config)
        .arg("--reports")
        .arg(dir.join("reports"))
        .envs(env.iter().copied())
        .assert()
        .success();
    dir.join("reports/s")
}

/// A `[[bot]]` started by ladder, with the player's extra arguments.
fn started(args: &str) -> String {
    format!(
        r#"[[bot]]
name = "player"
command = ["python3", "{}", "{{port}}" {args}]
protocol = "ggp""#,
        player()
    )
}

fn tictactoe() -> String {
    format!(
        "params = {{ rules = \"{}\" }}",
        common::repo("games/gdl/tictactoe.kif").display()
    )
}

/// The messages the player got, in order (its stderr, in its ladder log).
fn got(log: &str) -> Vec<String> {
    log.lines()
        .filter_map(|l| l.strip_prefix("got: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_started_player_plays_a_gdl_game_through_the_whole_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let s = season(dir.path(), "gdl", &tictactoe(), &started(""), "");
    let games = common::season_games(&s);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g["termination"]["kind"], "normal", "{g}");
    }
    common::assert_verified(&s);
    let messages = got(&fs::read_to_string(s.join("logs/player.log")).unwrap());
    // per match: START, a PLAY every turn (nil first), STOP with the last moves
    for index in 0..4u64 {
        let seat = if index % 2 == 0 { 1 } else { 2 };
        let id = format!("ladder.{index}.{seat}");
        let of: Vec<&String> = messages
            .iter()
            .filter(|m| m.contains(&format!(" {id} ")))
            .collect();
        let role = if seat == 1 { "xplayer" } else { "oplayer" };
        assert!(
            of[0].starts_with(&format!(
                "(START {id} {role} ((role xplayer) (role oplayer)"
            )),
            "{of:?}"
        );
        assert!(of[0].ends_with(" 5 3)"), "start and play clocks: {}", of[0]);
        assert_eq!(of[1], &format!("(PLAY {id} nil)"));
        let plies = games[index as usize]["plies"].as_u64().unwrap() as usize;
        // the player is asked every turn, its noop turns too
        assert_eq!(of.len(), 1 + plies + 1, "{of:?}");
        let last = of.last().unwrap();
        let moves: Vec<&str> = games[index as usize]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let final_move = moves.last().unwrap();
        let expected = if plies % 2 == 1 {
            format!("(STOP {id} ({final_move} noop))")
        } else {
            format!("(STOP {id} (noop {final_move}))")
        };
        assert_eq!(last, &&expected);
    }
    assert!(messages.iter().any(|m| m == "(INFO)"));
}

#[test]
fn the_five_native_games_are_played_through_their_gdl_twins() {
    for game in [
        "breakthrough",
        "bidding",
        "armies",
        "troops",
        "coordination",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let s = season(dir.path(), game, "", &started(""), "");
        let games = common::season_games(&s);
        assert_eq!(games.len(), 4, "{game}");
        for g in &games {
            assert_eq!(g["termination"]["kind"], "normal", "{game}: {g}");
        }
        common::assert_verified(&s);
        let log = fs::read_to_string(s.join("logs/player.log")).unwrap();
        assert!(got(&log).iter().any(|m| m.starts_with("(STOP ")), "{game}");
    }
}

#[test]
fn a_native_game_with_other_parameters_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let s = season(
        dir.path(),
        "troops",
        "params = { troops = 11 }",
        &started(""),
        "",
    );
    for g in common::season_games(&s) {
        let t = &g["termination"];
        assert_eq!(t["kind"], "forfeit", "{g}");
        assert!(
            t["detail"]
                .as_str()
                .unwrap()
                .contains("describes the default parameters"),
            "{g}"
        );
    }
}

/// Plays a season whose player misbehaves in `mode`: every game must be
/// the player's forfeit for `reason`, its detail saying `says`.
fn assert_forfeits(mode: &str, reason: &str, says: &str) {
    let dir = tempfile::tempdir().unwrap();
    let s = season(
        dir.path(),
        "gdl",
        &tictactoe(),
        &started(&format!(", \"--mode\", \"{mode}\"")),
        "move_time_ms = 1000\nmargin_ms = 500",
    );
    for g in common::season_games(&s) {
        let t = &g["termination"];
        assert_eq!(t["kind"], "forfeit", "{mode}: {g}");
        let seat = if t["seat"] == "first" { 0 } else { 1 };
        assert_eq!(g["seats"][seat], "player", "{mode}: {g}");
        assert_eq!(t["reason"], reason, "{mode}: {g}");
        let detail = t["detail"].as_str().unwrap_or("");
        assert!(detail.contains(says), "{mode}: {detail}");
    }
}

#[test]
fn a_late_answer_is_a_timeout() {
    assert_forfeits("late", "timeout", "answer to PLAY");
}

#[test]
fn an_illegal_answer_is_an_illegal_move() {
    assert_forfeits("illegal", "illegal-move", "(fly 99 99)");
}

#[test]
fn a_closed_connection_and_an_exit_are_crashes() {
    assert_forfeits("close", "crash", "closed or refused the connection");
    assert_forfeits("exit", "crash", "exited with code 3");
}

#[test]
fn an_answer_that_is_not_utf8_is_a_move_that_is_no_move_not_a_crash() {
    assert_forfeits("binary", "illegal-move", "(mark 1 1)");
}

#[test]
fn a_redirect_is_a_bad_answer_and_is_not_followed() {
    // followed, ladder would fetch any address the player names for it
    assert_forfeits(
        "redirect",
        "bad-output",
        "HTTP status 302 in answer to PLAY",
    );
}

#[test]
fn a_proxy_the_environment_names_is_not_used() {
    // nothing listens at port 9: through it, every message would be lost
    let dir = tempfile::tempdir().unwrap();
    let proxy = "http://127.0.0.1:9";
    let env = [
        ("ALL_PROXY", proxy),
        ("all_proxy", proxy),
        ("HTTP_PROXY", proxy),
        ("http_proxy", proxy),
        ("NO_PROXY", ""),
        ("no_proxy", ""),
    ];
    let s = season_in(dir.path(), "gdl", &tictactoe(), &started(""), "", &env);
    let games = common::season_games(&s);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g["termination"]["kind"], "normal", "{g}");
    }
}

/// A player running on its own, as a GGP competition's player does.
struct Running {
    child: std::process::Child,
    stderr: PathBuf,
    url: String,
}

impl Running {
    fn start(dir: &Path) -> Running {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let stderr = dir.join("player.err");
        let child = Command::new("python3")
            .arg(player())
            .arg(port.to_string())
            .stdout(Stdio::null())
            .stderr(fs::File::create(&stderr).unwrap())
            .spawn()
            .unwrap();
        let url = format!("http://127.0.0.1:{port}");
        assert!(
            common::wait_for(20, || std::net::TcpStream::connect(("127.0.0.1", port))
                .is_ok()),
            "the player listens"
        );
        Running { child, stderr, url }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_player_at_a_url_plays_and_hears_abort_when_a_game_ends_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let running = Running::start(dir.path());
    let bot = format!(
        "[[bot]]\nname = \"player\"\nurl = \"{}\"\nprotocol = \"ggp\"",
        running.url
    );
    // two plies: every game stops at the ply cap, not in a terminal state
    let s = season(
        dir.path(),
        "gdl",
        &tictactoe(),
        &bot,
        "max_plies = 2\njobs = 1",
    );
    let games = common::season_games(&s);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g["termination"]["kind"], "ply-limit", "{g}");
    }
    let messages = got(&fs::read_to_string(&running.stderr).unwrap());
    let starts = messages.iter().filter(|m| m.starts_with("(START ")).count();
    let aborts: Vec<&String> = messages
        .iter()
        .filter(|m| m.starts_with("(ABORT "))
        .collect();
    assert_eq!(starts, 4, "{messages:?}");
    assert_eq!(aborts.len(), 4, "{messages:?}");
    assert!(!messages.iter().any(|m| m.starts_with("(STOP ")));
}

#[test]
fn config_mistakes_with_ggp_players_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            format!("{}\nnetwork = false", started("")),
            "",
            "shares the network",
        ),
        (
            "[[bot]]\nname = \"player\"\nurl = \"http://127.0.0.1:9\"\ncommand = [\"x\"]"
                .to_string(),
            "",
            "`command` does not go with `url`",
        ),
        (
            "[[bot]]\nname = \"player\"\nurl = \"ftp://host\"".to_string(),
            "",
            "not an http:// URL",
        ),
        (
            "[[bot]]\nname = \"player\"\nurl = \"http://127.0.0.1:9\"\nprotocol = \"line\""
                .to_string(),
            "",
            "`url` is for GGP players",
        ),
        (
            started(""),
            "[season.openings]\nrandom_plies = 2",
            "has no openings",
        ),
    ];
    for (bot, extra, expected) in cases {
        let config = dir.path().join("bad.toml");
        fs::write(
            &config,
            format!(
                "[season]\ngame = \"gdl\"\n{}\n\n{bot}\n\n[[bot]]\nname = \"random\"\nbuiltin = \"random\"\n\n{extra}\n",
                tictactoe()
            ),
        )
        .unwrap();
        let out = common::run(&config, &dir.path().join("reports"), &[]).failure();
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains(expected), "{expected}: {stderr}");
        assert!(stderr.contains("bad.toml"), "{stderr}");
    }
}

#[test]
fn ladder_check_tries_a_ggp_player() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::ladder(
        dir.path(),
        &[
            "check",
            "--game",
            &format!("gdl:{}", common::repo("games/gdl/tictactoe.kif").display()),
            "--protocol",
            "ggp",
            "--move-time-ms",
            "3000",
            "--",
            "python3",
            &player(),
            "{port}",
        ],
    );
    assert!(out.contains("no problems found"), "{out}");
    assert_eq!(out.matches("  ok    game ").count(), 4, "{out}");
}

/// Reads each match of a `--format ggp` export with the Python player's own
/// GDL prover: from the rulesheet's initial state, every turn's moves must
/// lead to the next state written, and the last state's goals be the
/// match's; prints the number of matches and turns checked.
const CHECK_MATCHES: &str = r#"
import json, sys
sys.path.insert(0, sys.argv[1])
import ggp_player as g
matches = turns = 0
for line in open(sys.argv[2]):
    m = json.loads(line)
    game = g.Game(g.parse("(" + m["gameRulesheet"] + ")")[0])
    facts = lambda text: sorted(g.show(t) for t in g.parse(text)[0])
    state = game.initial()
    assert sorted(map(g.show, state)) == facts(m["states"][0]), m["matchId"]
    assert len(m["states"]) == len(m["moves"]) + 1
    for moves, after in zip(m["moves"], m["states"][1:]):
        does = {r: g.parse(mv)[0] for r, mv in zip(game.roles, moves)}
        state = game.next(state, does)
        assert sorted(map(g.show, state)) == facts(after), (m["matchId"], moves)
        turns += 1
    goals = [int(t[2]) for r in game.roles for t in game.ask(("goal", r, "?g"), state)]
    assert goals == m["goalValues"], (goals, m["goalValues"])
    matches += 1
print(matches, turns)
"#;

#[test]
fn export_ggp_writes_match_json_that_a_gdl_reader_replays() {
    let dir = tempfile::tempdir().unwrap();
    let s = season(dir.path(), "gdl", &tictactoe(), &started(""), "");
    let out = common::ladder(
        dir.path(),
        &["export", s.to_str().unwrap(), "--format", "ggp"],
    );
    let games = common::season_games(&s);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), games.len());
    for (m, g) in lines.iter().zip(&games) {
        assert_eq!(m["matchId"], format!("s.{}", g["index"]));
        assert_eq!(m["playerNamesFromHost"], g["seats"]);
        assert_eq!(m["goalValues"], g["goals"]);
        assert_eq!(m["isCompleted"], true);
        assert_eq!(
            (m["startClock"].as_u64(), m["playClock"].as_u64()),
            (Some(5), Some(3))
        );
        // one mark a turn, the other role's noop beside it
        let moves = m["moves"].as_array().unwrap();
        assert_eq!(moves.len() as u64, g["plies"].as_u64().unwrap());
        for (turn, played) in moves.iter().zip(g["moves"].as_array().unwrap()) {
            let spaced = played
                .as_str()
                .unwrap()
                .replace('(', "( ")
                .replace(')', " )");
            assert!(turn
                .as_array()
                .unwrap()
                .contains(&serde_json::json!("noop")));
            assert!(turn
                .as_array()
                .unwrap()
                .contains(&serde_json::json!(spaced)));
        }
    }
    let file = dir.path().join("matches.jsonl");
    fs::write(&file, &out).unwrap();
    let read = common::python(
        "python3",
        CHECK_MATCHES,
        &[common::repo("tests/fixtures"), file],
    );
    let checked = String::from_utf8(read).unwrap();
    assert!(
        checked.starts_with(&format!("{} ", games.len())),
        "{checked}"
    );
    // a native game has no match JSON
    let other = dir.path().join("native");
    fs::create_dir(&other).unwrap();
    let native = season(&other, "coordination", "", &started(""), "");
    let refused = Command::new(env!("CARGO_BIN_EXE_ladder"))
        .args(["export", native.to_str().unwrap(), "--format", "ggp"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("is for GDL games"));
}

/// `ladder ggp-player` logs what was wrong with each request; what a peer
/// sent (a header's value, a message) is written out in that log, never
/// sent to the operator's terminal as it came.
#[test]
fn ladder_ggp_player_writes_out_a_peers_escape_sequences_in_its_log() {
    use std::io::{BufRead, BufReader, Read, Write};
    let mut child = Command::new(env!("CARGO_BIN_EXE_ladder"))
        .args(["ggp-player", "--port", "0"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut log = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    log.read_line(&mut first).unwrap();
    let at = first
        .split("http://")
        .nth(1)
        .and_then(|a| a.trim().strip_suffix('/'))
        .unwrap_or_else(|| panic!("{first}"))
        .to_string();
    let send = |request: &[u8]| {
        let mut s = std::net::TcpStream::connect(&at).unwrap();
        s.write_all(request).unwrap();
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
    };
    // a header no request has, and a message no player understands
    send(b"POST / HTTP/1.1\r\nContent-Length: 1\x1b]0;pwned\x07\r\n\r\n");
    let body = b"(START m1 white ((role white)) 1 1)\x1b[2J(";
    let mut request = format!(
        "POST / HTTP/1.1\r\nContent-Type: text/acl\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend(body);
    send(&request);
    child.kill().unwrap();
    child.wait().unwrap();
    let mut rest = String::new();
    log.read_to_string(&mut rest).unwrap();
    let lines: Vec<&str> = rest.lines().collect();
    assert_eq!(lines.len(), 2, "{rest:?}");
    assert!(
        lines[0].contains("Content-Length `1\\u{1b}]0;pwned\\u{7}`"),
        "{rest:?}"
    );
    assert!(lines[1].starts_with("ggp-player: "), "{rest:?}");
    assert!(!rest.contains(['\x1b', '\x07']), "{rest:?}");
}

/// GGP has no token: `ladder ggp-player` opened beyond loopback must be
/// told whom to take messages from, and says so when it is not.
#[test]
fn ladder_ggp_player_beyond_loopback_needs_its_managers_named() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_ladder"))
            .args(["ggp-player", "--port", "0"])
            .args(args)
            .output()
            .unwrap()
    };
    let open = run(&["--bind", "0.0.0.0"]);
    assert_eq!(open.status.code(), Some(2), "{open:?}");
    let why = String::from_utf8_lossy(&open.stderr);
    assert!(
        why.contains("--bind 0.0.0.0") && why.contains("--manager ADDR"),
        "{why}"
    );
    let bad = run(&["--bind", "0.0.0.0", "--manager", "ggp.example.org"]);
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
    let why = String::from_utf8_lossy(&bad.stderr);
    assert!(
        why.contains("--manager \"ggp.example.org\": not an IP address"),
        "{why}"
    );
    // named, it serves them
    let mut child = Command::new(env!("CARGO_BIN_EXE_ladder"))
        .args([
            "ggp-player",
            "--port",
            "0",
            "--bind",
            "0.0.0.0",
            "--manager",
            "127.0.0.1",
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut log = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut log, &mut first).unwrap();
    let port = first
        .trim()
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches('/');
    let answer = post_info(&format!("127.0.0.1:{port}"));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(answer.ends_with("\r\n\r\navailable"), "{first} {answer}");
}

/// What a player at `at` answers to `(INFO)`, head and all.
fn post_info(at: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(at).unwrap();
    s.write_all(b"POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: 6\r\n\r\n(INFO)")
        .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    answer
}
