//! `ladder play` end to end: a scripted person drives whole sessions of every
//! game through stdin and stdout, reading each screen before answering, with
//! bad input of every kind, `help`, `quit` and the end of input; the journal
//! must hold exactly the moves the person typed. One test runs a session in a
//! real terminal (tmux) and reads the screen as a person sees it.
//!
//! tmux is required under `CI=true` (`.ci/run` installs Debian's package);
//! elsewhere a machine without it skips that test and says so.

use std::{
    io::{Read, Write},
    path::{Path, PathBuf},
    process::{Child, ChildStdin, Command as StdCommand, ExitStatus, Stdio},
    sync::{Arc, Mutex},
    thread,
    time::{Duration, Instant},
};

use assert_cmd::Command;
use tempfile::TempDir;

mod common;
use ladder::catalog::GameKind;

const LADDER: &str = env!("CARGO_BIN_EXE_ladder");
/// How long a screen may take to show its prompt (a debug build, a busy machine).
const PATIENCE: Duration = Duration::from_secs(60);

/// A `ladder play` process whose screen the test reads as it is written.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    screen: Arc<Mutex<String>>,
    /// The thread that reads ladder's stdout into `screen`, until its end.
    reader: thread::JoinHandle<()>,
    /// How much of the screen the test has read.
    seen: usize,
}

impl Session {
    fn start(args: &[&str], dir: &Path) -> Session {
        let mut child = StdCommand::new(LADDER)
            .arg("play")
            .args(args)
            .current_dir(dir)
            .env_remove("NO_COLOR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut out = child.stdout.take().unwrap();
        let screen = Arc::new(Mutex::new(String::new()));
        let shared = Arc::clone(&screen);
        let reader = thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = out.read(&mut buf) {
                if n == 0 {
                    break;
                }
                shared
                    .lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Session {
            stdin: child.stdin.take(),
            child,
            screen,
            reader,
            seen: 0,
        }
    }

    /// The screen since the last answer, once it ends with a prompt
    /// (`Enter human bid: `); `None` when the session has ended instead.
    fn next_prompt(&mut self) -> Option<String> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let ended = self.child.try_wait().unwrap().is_some();
            // read after try_wait, so what an ended process wrote is all here
            thread::sleep(Duration::from_millis(if ended { 50 } else { 2 }));
            let screen = self.screen.lock().unwrap();
            let new = &screen[self.seen..];
            let last = new.rsplit('\n').next().unwrap_or("");
            if last.starts_with("Enter human ") && last.ends_with(": ") {
                return Some(new.to_string());
            }
            if ended {
                return None;
            }
            assert!(Instant::now() < deadline, "no prompt; the screen:\n{new}");
        }
    }

    /// Types `line` and Enter.
    fn answer(&mut self, line: &str) {
        self.seen = self.screen.lock().unwrap().len();
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Closes the input (as a script that runs out does) and waits for the end.
    fn finish(mut self) -> (ExitStatus, String) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        // every byte ladder wrote, however slow the reader is to get it
        let deadline = Instant::now() + PATIENCE;
        while !self.reader.is_finished() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(10));
        }
        let screen = self.screen.lock().unwrap().clone();
        (status, screen)
    }
}

/// A legal move for the person, read from the screen since the last answer,
/// or `help` to get the legal moves listed first.
fn pick(game: &str, screen: &str) -> String {
    let number_after = |label: &str| -> u32 {
        let line = screen
            .lines()
            .rev()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no `{label}` on the screen:\n{screen}"));
        line[label.len()..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    match game.split(':').next().unwrap() {
        "bidding" => {
            let money = number_after("human money: ");
            (if money == 0 { 0 } else { 1 + money / 5 }).to_string()
        }
        "troops" => "3,3,4".to_string(),
        "armies" => (number_after("Armies: human ") / 3).to_string(),
        "coordination" => "left".to_string(),
        "breakthrough" => match screen.find("Legal moves (") {
            Some(at) => screen[at..]
                .lines()
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap()
                .to_string(),
            None => "help".to_string(),
        },
        // the first legal move listed: one KIF term, blanks and all
        "gdl" => match screen.find("Legal moves (") {
            Some(at) => {
                let line = screen[at..].lines().nth(1).unwrap().trim_start();
                line[..=line.find(')').unwrap()].to_string()
            }
            None => "help".to_string(),
        },
        other => panic!("no picker for {other}"),
    }
}

/// Per game: text `help` must show, a line that is no move, a move that
/// parses but is illegal at the start (none in coordination, where both
/// moves are always legal), and what a move is called.
struct BadInput {
    help_says: &'static str,
    not_a_move: &'static str,
    illegal: Option<&'static str>,
    word: &'static str,
}

fn bad_input(game: &str) -> BadInput {
    let (help_says, not_a_move, illegal, word) = match game.split(':').next().unwrap() {
        "bidding" => (
            "Bid a whole number from 1 to 100",
            "ten",
            Some("101"),
            "bid",
        ),
        "troops" => (
            "three whole numbers that sum to 10",
            "3;3;4",
            Some("1,1,1"),
            "split",
        ),
        "armies" => ("from 0 to 20", "-1", Some("21"), "commitment"),
        "coordination" => ("Legal moves (2):", "up", None, "choice"),
        "breakthrough" => ("Legal moves (22):", "b2-b3", Some("a2a4"), "move"),
        "gdl" => ("Legal moves (9):", "(mark 1", Some("(mark 9 9)"), "move"),
        other => panic!("{other}"),
    };
    BadInput {
        help_says,
        not_a_move,
        illegal,
        word,
    }
}

/// The moves `seat` played in each game of a journal, as written.
fn journal_moves(dir: &Path, person: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    text.lines()
        .map(|line| {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            let seat = usize::from(r["seats"][1] == person);
            r["moves"]
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
                .filter_map(|(ply, turn)| match turn {
                    serde_json::Value::Array(both) => both[seat].as_str().map(str::to_string),
                    one if ply % 2 == seat => one.as_str().map(str::to_string),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// A session of three games of `game` against `bot` with a scripted person:
/// bad input of each kind and `help` at the first prompt, then legal moves
/// read off the screen for two whole games, and `quit` at the first prompt
/// of the third. Returns the screen, the session folder and the legal moves
/// typed.
fn scripted_session(
    game: &str,
    bot: &str,
    extra: &[&str],
    tmp: &TempDir,
) -> (String, PathBuf, Vec<String>) {
    let args = [&[game, "--bot", bot, "--games", "3"], extra].concat();
    let mut s = Session::start(&args, tmp.path());
    let bad = bad_input(game);
    let mut typed = Vec::new();
    let mut first = true;
    while let Some(screen) = s.next_prompt() {
        if screen.contains("=== Game 3 of 3") {
            s.answer("quit");
            continue;
        }
        if first {
            first = false;
            s.answer("help");
            let help = s.next_prompt().unwrap();
            assert!(help.contains(bad.help_says), "{game} help:\n{help}");
            assert!(help.contains("`quit` ends the session"), "{help}");
            s.answer(bad.not_a_move);
            let said = s.next_prompt().unwrap();
            assert!(
                said.contains(&format!("That is not a {}:", bad.word)),
                "{game}:\n{said}"
            );
            if let Some(illegal) = bad.illegal {
                s.answer(illegal);
                let said = s.next_prompt().unwrap();
                assert!(
                    said.contains(&format!("You cannot play {illegal} now:")),
                    "{game}:\n{said}"
                );
            }
            s.answer("");
            let again = s.next_prompt().unwrap();
            assert!(
                !again.contains("That is not"),
                "an empty line is asked again quietly"
            );
        }
        // a forced move (a bid of 0 when broke) is played for the person
        for line in screen.lines() {
            if let Some(rest) = line.strip_prefix(&format!("Your only {} is ", bad.word)) {
                typed.push(rest.trim_end_matches(": it is played for you.").to_string());
            }
        }
        let mut mv = pick(game, &screen);
        if mv == "help" {
            s.answer("help");
            let listed = s.next_prompt().unwrap();
            mv = pick(game, &listed);
        }
        typed.push(mv.clone());
        s.answer(&mv);
    }
    let (status, screen) = s.finish();
    assert!(status.success(), "{game}: {status}\n{screen}");
    let mut sessions: Vec<PathBuf> = std::fs::read_dir(tmp.path().join("reports"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(sessions.len(), 1, "one session folder: {sessions:?}");
    let dir = sessions.pop().unwrap();
    (screen, dir, typed)
}

fn ladder(args: &[&str], dir: &Path) -> assert_cmd::assert::Assert {
    Command::new(LADDER).args(args).current_dir(dir).assert()
}

#[test]
fn a_scripted_person_plays_whole_sessions_of_every_game() {
    // every catalogue game (a game added to it fails to compile here until
    // it has a bot to play and a picker above)
    let tictactoe = format!("gdl:{}/games/gdl/tictactoe.kif", env!("CARGO_MANIFEST_DIR"));
    for kind in GameKind::ALL {
        let (game, bot) = match kind {
            GameKind::Bidding => ("bidding", "dp"),
            GameKind::Troops => ("troops", "nash"),
            GameKind::Armies => ("armies", "equilibrium"),
            GameKind::Coordination => ("coordination", "copycat"),
            GameKind::Breakthrough => ("breakthrough", "greedy"),
            GameKind::Gdl => (tictactoe.as_str(), "greedy"),
        };
        let tmp = TempDir::new().unwrap();
        let (screen, dir, typed) = scripted_session(game, bot, &[], &tmp);
        assert!(!screen.contains('\x1b'), "no colour on a pipe:\n{screen}");
        assert!(
            screen.contains(&format!(
                "=== Game 2 of 3: human is player 2, {bot} is player 1 ==="
            )),
            "{screen}"
        );
        assert_eq!(screen.matches("Result: ").count(), 2, "{screen}");
        if kind == GameKind::Breakthrough {
            // greedy takes what it can, and the person is told where
            assert!(
                screen.contains(", captures on "),
                "a capture is called out:\n{screen}"
            );
        }
        // the 2016 report's Table 4.1 for the person, then one line of summary
        assert!(
            screen.contains("S.No") && screen.contains("Games Played"),
            "{screen}"
        );
        assert!(screen.contains("Overall Win Percentage is"), "{screen}");
        assert!(
            screen.contains(&format!("human against {bot}: ")),
            "{screen}"
        );
        assert!(
            screen.contains("in 2 games (you quit after 2 of 3 games); journal in reports/play-"),
            "{screen}"
        );
        // the journal holds the person's moves exactly as typed, and checks out
        let journaled: Vec<String> = journal_moves(&dir, "human").concat();
        assert_eq!(journaled, typed, "{game}");
        let rel = dir.strip_prefix(tmp.path()).unwrap().to_str().unwrap();
        ladder(&["verify", rel], tmp.path())
            .success()
            .stdout(predicates::str::contains(
                "2 games in schedule order and 0 pending, of 3 scheduled",
            ));
        ladder(&["replay", rel, "--game", "1"], tmp.path())
            .success()
            .stdout(predicates::str::contains(format!(
                "{bot} (player 1) against human (player 2)"
            )));
        ladder(&["report", rel], tmp.path()).success();
        assert!(dir.join("index.html").exists() && dir.join("leaderboard.md").exists());
    }
}

#[test]
fn each_turn_shows_what_the_game_needs() {
    let tmp = TempDir::new().unwrap();
    // bidding: round, the bottle on its line, both players' money, the draw
    // advantage, the last round's bids; the bot's bid only after the person's
    let mut s = Session::start(&["bidding", "--bot", "dp"], tmp.path());
    let first = s.next_prompt().unwrap();
    for shown in [
        "Round 1\n",
        "Scotch position: 5   0 -----o----- 10\n",
        "human money: 100 (pulls the bottle toward 0)\n",
        "dp money: 100 (pulls the bottle toward 10)\n",
        "Draw advantage: human\n",
    ] {
        assert!(first.contains(shown), "{shown:?} in\n{first}");
    }
    assert!(
        !first.contains("dp bid"),
        "the bot's bid is not shown before the person's"
    );
    s.answer("9");
    let second = s.next_prompt().unwrap();
    assert!(second.starts_with("9\ndp bid: "), "{second}");
    assert!(second.contains("Round 2\n"), "{second}");
    assert!(
        second.contains("Last round: human bid 9, dp bid "),
        "{second}"
    );
    s.answer("quit");
    let (status, screen) = s.finish();
    assert!(status.success());
    assert!(screen.contains("(you quit after 0 of 1 game)"), "{screen}");

    // breakthrough: the board with coordinates, whose turn, the last move marked
    let mut s = Session::start(
        &["breakthrough", "--bot", "greedy", "--seat", "2"],
        tmp.path(),
    );
    let board = s.next_prompt().unwrap();
    assert!(board.contains("greedy plays "), "{board}");
    assert!(board.contains("Turn 2: black (human) to move"), "{board}");
    // seen from black's side: row 1 on top, columns h to a
    assert!(
        board.contains("    h  g  f  e  d  c  b  a\n 1  W  W  W  W  W  W  W  W  1\n"),
        "{board}"
    );
    assert!(board.contains(" 8  B  B  B  B  B  B  B  B  8\n"), "{board}");
    let marked = board.matches('[').count();
    assert_eq!(
        marked, 2,
        "the last move's two squares are marked:\n{board}"
    );
    assert!(board.contains("Last move: greedy "), "{board}");
    // the way each side goes, by row numbers: the board is turned for black
    assert!(
        board.contains("human plays black (B, toward row 1), greedy plays white (W, toward row 8)"),
        "{board}"
    );
    s.answer("quit");
    assert!(s.finish().0.success());

    // a simultaneous game: round, running scores, previous choices
    let mut s = Session::start(&["troops", "--bot", "balanced"], tmp.path());
    s.next_prompt().unwrap();
    s.answer("2,2,6");
    let round2 = s.next_prompt().unwrap();
    let theirs = round2
        .strip_prefix("2,2,6\nbalanced split: ")
        .and_then(|r| r.lines().next())
        .unwrap_or_else(|| panic!("the bot's split comes after the person's:\n{round2}"));
    let fields: Vec<u32> = theirs.split(',').map(|f| f.parse().unwrap()).collect();
    // 2 points per field won, 1 per field tied
    let score = |a: u32, b: u32| 2 * u32::from(a > b) + u32::from(a == b);
    let mine: u32 = [2, 2, 6]
        .iter()
        .zip(&fields)
        .map(|(&a, &b)| score(a, b))
        .sum();
    let score_line = format!("Score: human {mine}, balanced {}\n", 6 - mine);
    let round_line = format!("  round 1: human 2,2,6, balanced {theirs}\n");
    for shown in ["Round 2 of 5\n", &score_line, &round_line] {
        assert!(round2.contains(shown), "{shown:?} in\n{round2}");
    }
    s.answer("quit");
    assert!(s.finish().0.success());
}

#[test]
fn a_person_who_is_broke_is_not_asked_for_a_bid() {
    let tmp = TempDir::new().unwrap();
    let mut s = Session::start(&["bidding", "--bot", "dp", "--games", "2"], tmp.path());
    s.next_prompt().unwrap();
    s.answer("100");
    // the rest of the game is played for the person: its only bid is 0
    let next = s.next_prompt().unwrap();
    assert!(next.contains("human money: 0 "), "{next}");
    assert!(
        next.contains("Your only bid is 0: it is played for you.\n"),
        "{next}"
    );
    assert!(next.contains("=== Game 2 of 2"), "{next}");
    s.answer("quit");
    assert!(s.finish().0.success());
    let dir = std::fs::read_dir(tmp.path().join("reports"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let bids = &journal_moves(&dir, "human")[0];
    assert_eq!(bids[0], "100");
    assert!(
        bids.len() > 1 && bids[1..].iter().all(|b| b == "0"),
        "{bids:?}"
    );
}

#[test]
fn a_fixed_seat_is_kept_in_every_game_and_recorded() {
    let tmp = TempDir::new().unwrap();
    let (screen, dir, _) = scripted_session("coordination", "left", &["--seat", "2"], &tmp);
    for game in 1..=3 {
        assert!(screen.contains(&format!(
            "=== Game {game} of 3: human is player 2, left is player 1 ==="
        )));
    }
    let season: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("season.json")).unwrap()).unwrap();
    assert_eq!(season["seating"], "fixed");
    let journal = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert_eq!(
        journal.matches(r#""seats":["left","human"]"#).count(),
        2,
        "{journal}"
    );
    let rel = dir.strip_prefix(tmp.path()).unwrap().to_str().unwrap();
    ladder(&["verify", rel], tmp.path()).success();
}

#[test]
fn a_person_may_type_a_split_with_blanks_or_spaced_commas() {
    let tmp = TempDir::new().unwrap();
    // five rounds of troops, each `3,3,4` written another way
    let script = "3 3 4\n3, 3, 4\n 3 3  4 \n3,3,4\n3 ,3, 4\n";
    let out = Command::new(LADDER)
        .args(["play", "troops", "--bot", "nash", "--games", "1"])
        .current_dir(tmp.path())
        .write_stdin(script)
        .assert()
        .success();
    let screen = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(!screen.contains("That is not"), "{screen}");
    let dir = tmp.path().join("reports/play-troops-nash-1");
    assert_eq!(journal_moves(&dir, "human"), vec![vec!["3,3,4"; 5]]);
}

#[test]
fn quit_and_the_end_of_input_keep_the_finished_games_only() {
    let tmp = TempDir::new().unwrap();
    // one whole coordination game (20 rounds), then `quit` in the second
    let script = format!("{}left\nquit\nleft\n", "left\n".repeat(20));
    let out = Command::new(LADDER)
        .args(["play", "coordination", "--bot", "left", "--games", "3"])
        .current_dir(tmp.path())
        .write_stdin(script)
        .assert()
        .success();
    let screen = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(screen.contains("Enter human choice: quit\n"), "{screen}");
    assert!(screen.contains("(you quit after 1 of 3 games)"), "{screen}");
    assert!(!screen.contains("=== Game 3"), "{screen}");
    let dir = tmp.path().join("reports/play-coordination-left-1");
    assert_eq!(journal_moves(&dir, "human").len(), 1);
    ladder(&["verify", "reports/play-coordination-left-1"], tmp.path())
        .success()
        .stdout(predicates::str::contains(
            "1 game in schedule order and 0 pending, of 3 scheduled",
        ));

    // a line that is not UTF-8 is a bad move, and the session goes on; so
    // is a line of megabytes, echoed and quoted in part
    let mut script = b"\xff\xfeleft\r\n".to_vec();
    script.extend("x".repeat(1_000_000).as_bytes());
    script.push(b'\n');
    script.extend("left\n".repeat(20).as_bytes());
    let out = Command::new(LADDER)
        .args(["play", "coordination", "--bot", "left", "--games", "1"])
        .current_dir(tmp.path())
        .write_stdin(script)
        .assert()
        .success();
    let screen = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(screen.contains("not `\u{fffd}\u{fffd}left`"), "{screen}");
    assert!(screen.contains("1 tied in 1 game;"), "{screen}");
    assert!(
        screen.contains("xxx… (999800 more characters)\n"),
        "{screen}"
    );
    assert!(
        screen.len() < 20_000,
        "{} bytes on the screen",
        screen.len()
    );
    let dir = tmp.path().join("reports/play-coordination-left-2");
    assert_eq!(journal_moves(&dir, "human").len(), 1);

    // input that ends mid-game: the same, and the next session gets a folder of its own
    let out = Command::new(LADDER)
        .args(["play", "coordination", "--bot", "left", "--games", "2"])
        .current_dir(tmp.path())
        .write_stdin("left\n".repeat(25))
        .assert()
        .success();
    let screen = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        screen.contains("(the input ended after 1 of 2 games)"),
        "{screen}"
    );
    assert!(
        screen.contains("journal in reports/play-coordination-left-3"),
        "{screen}"
    );
    assert_eq!(
        journal_moves(
            &tmp.path().join("reports/play-coordination-left-3"),
            "human"
        )
        .len(),
        1
    );
}

#[test]
fn a_misbehaving_bot_forfeits_and_the_session_goes_on_while_the_person_has_no_clock() {
    let testbot = common::testbot();
    // the person takes far longer than the bot's budget and does not forfeit;
    // a bot program that hangs, crashes or answers garbage forfeits that
    // game with its reason, and the next game gets a fresh process
    for (fault, reason) in [
        (
            "--hang-at 3",
            "forfeits: timeout: no move within the time limit",
        ),
        ("--crash-at 2", "forfeits: crash: "),
        (
            "--garbage-at 2",
            "forfeits: bad output: `xyzzy` is not a move",
        ),
    ] {
        let tmp = TempDir::new().unwrap();
        let bot = format!("cmd:{testbot} {fault}");
        let mut s = Session::start(
            &[
                "coordination",
                "--bot",
                &bot,
                "--move-time-ms",
                "100",
                "--margin-ms",
                "0",
                "--sandbox",
                "none",
                "--games",
                "2",
            ],
            tmp.path(),
        );
        let mut rounds = 0;
        while let Some(_screen) = s.next_prompt() {
            if rounds == 0 {
                thread::sleep(Duration::from_millis(400));
            }
            rounds += 1;
            s.answer("right");
        }
        let (status, screen) = s.finish();
        assert!(status.success(), "{fault}: {screen}");
        assert_eq!(screen.matches(reason).count(), 2, "{fault}: {screen}");
        assert!(!screen.contains("human forfeits"), "{screen}");
        assert_eq!(screen.matches("Result: human wins").count(), 2, "{screen}");
    }
}

#[test]
fn a_game_clock_is_never_charged_to_the_person() {
    let tmp = TempDir::new().unwrap();
    let mut s = Session::start(
        &["bidding", "--bot", "random", "--time-control", "0.2+0"],
        tmp.path(),
    );
    let mut first = true;
    while let Some(screen) = s.next_prompt() {
        if screen.contains("=== Game 3 of 3") {
            s.answer("quit");
            continue;
        }
        if first {
            // longer than the whole game clock of 0.2 s
            thread::sleep(Duration::from_millis(500));
            first = false;
        }
        let bid = pick("bidding", &screen);
        s.answer(&bid);
    }
    let (status, screen) = s.finish();
    assert!(status.success(), "{screen}");
    assert!(!screen.contains("forfeits"), "{screen}");
}

#[test]
fn bad_bots_seats_and_configs_are_refused_before_any_game() {
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path();
    let refused = |args: &[&str], says: &str| {
        Command::new(LADDER)
            .arg("play")
            .args(args)
            .current_dir(dir)
            .write_stdin("")
            .assert()
            .code(2)
            .stderr(predicates::str::contains(says));
    };
    refused(&["bidding", "--bot", "nobody"], "nobody");
    refused(&["chess", "--bot", "random"], "chess");
    refused(&["bidding", "--bot", "dp", "--seat", "3"], "--seat");
    refused(&["bidding", "--bot", "dp", "--games", "0"], "--games");
    let configs = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
    let bidding = configs.join("bidding.toml");
    let bidding = bidding.to_str().unwrap();
    refused(
        &["troops", "--bot", "dp", "--config", bidding],
        "is a config of the bidding game, not troops",
    );
    refused(
        &["bidding", "--bot", "nope", "--config", bidding],
        "has no bot named `nope`; its bots: optimal, dp",
    );
    assert!(
        !dir.join("reports").exists(),
        "nothing is journaled for a refused session"
    );
}

#[test]
fn a_bot_from_a_config_plays_with_the_configs_settings() {
    let tmp = TempDir::new().unwrap();
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/bidding.toml");
    let out = Command::new(LADDER)
        .args([
            "play",
            "bidding",
            "--bot",
            "fraction-13",
            "--config",
            config.to_str().unwrap(),
        ])
        .current_dir(tmp.path())
        .write_stdin("20\nquit\n")
        .assert()
        .success();
    let screen = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    // fraction-13 bids 13% of what it holds: 13 of 100
    assert!(screen.contains("fraction-13 bid: 13\n"), "{screen}");
    let season = std::fs::read_to_string(
        tmp.path()
            .join("reports/play-bidding-fraction-13-1/season.json"),
    )
    .unwrap();
    assert!(season.contains(r#""builtin": "fraction""#), "{season}");
}

/// tmux, if present; under CI its absence fails.
fn tmux() -> bool {
    let found = StdCommand::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    common::require_tool(found, "tmux", "tmux")
}

/// A tmux server of the test's own, so it never touches a user's sessions.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// A terminal 100 x 50 running `ladder play ARGS` in `dir` after the
    /// shell words `env` (`NO_COLOR=1`), then `EXIT=<code>`; `None` without tmux.
    fn start(name: &str, env: &str, args: &str, dir: &Path) -> Option<Tmux> {
        if !tmux() {
            return None;
        }
        let t = Tmux {
            socket: format!("ladder-test-{name}-{}", std::process::id()),
        };
        let command = format!(
            "cd {} && {env} {LADDER} play {args}; echo EXIT=$?; sleep 60",
            dir.display()
        );
        let size = ["-x", "100", "-y", "50"];
        t.run(&[&["new-session", "-d", "-s", "play"][..], &size, &[&command]].concat());
        Some(t)
    }

    fn run(&self, args: &[&str]) -> String {
        let out = StdCommand::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Types `text` (literally: `left` is no arrow key) and Enter.
    fn keys(&self, text: &str) {
        self.run(&["send-keys", "-t", "play", "-l", text]);
        self.run(&["send-keys", "-t", "play", "Enter"]);
    }

    /// The screen as the person sees it (`escapes`: with its colour codes).
    fn screen(&self, escapes: bool) -> String {
        let mut args = vec!["capture-pane", "-p", "-t", "play"];
        if escapes {
            args.push("-e");
        }
        self.run(&args)
    }

    fn wait_for(&self, text: &str) -> String {
        self.wait_until(text, |screen| screen.contains(text))
    }

    /// Waits for `text` and then for the prompt `prompt` as the last line:
    /// ladder writes a message and the prompt that follows it in two
    /// writes, and tmux may show the screen between them.
    fn wait_for_prompt(&self, text: &str, prompt: &str) -> String {
        self.wait_until(&format!("{text:?} and then {prompt:?} last"), |screen| {
            screen.contains(text) && screen.trim_end().ends_with(prompt)
        })
    }

    fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let screen = self.screen(false);
            if done(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "no {what} on the screen:\n{screen}"
            );
            thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}

#[test]
fn a_session_in_a_real_terminal_shows_the_board_and_prompt_in_colour() {
    let tmp = TempDir::new().unwrap();
    let Some(t) = Tmux::start(
        "colour",
        "unset NO_COLOR &&",
        "breakthrough --bot greedy",
        tmp.path(),
    ) else {
        return;
    };
    let screen = t.wait_for("Enter human move:");
    assert!(screen.contains("Turn 1: white (human) to move"), "{screen}");
    assert!(screen.contains(" 8  B  B  B  B  B  B  B  B  8"), "{screen}");
    assert!(screen.contains(" 1  W  W  W  W  W  W  W  W  1"), "{screen}");
    assert!(screen.contains("    a  b  c  d  e  f  g  h"), "{screen}");
    // the prompt is the last line, waiting
    assert!(screen.trim_end().ends_with("Enter human move:"), "{screen}");
    // a terminal gets colour: the person's pieces cyan, the bot's red
    let painted = t.screen(true);
    // (tmux redraws `ESC[1;36m` as `ESC[1m ESC[36m`)
    assert!(painted.contains("\x1b[36mW"), "{painted:?}");
    assert!(painted.contains("\x1b[31mB"), "{painted:?}");

    t.keys("e2e3");
    let screen = t.wait_for_prompt("Turn 3: white (human) to move", "Enter human move:");
    assert!(screen.contains("greedy plays "), "{screen}");
    // the bot's move, marked; the person's move of the turn before is not
    assert_eq!(screen.matches('[').count(), 2, "{screen}");
    let painted = t.screen(true);
    assert!(
        painted.contains("43m["),
        "the last move is highlighted: {painted:?}"
    );

    t.keys("a1a5");
    // asked again: the message, then the prompt (or the wait fails)
    t.wait_for_prompt("You cannot play a1a5 now", "Enter human move:");
    t.keys("quit");
    let screen = t.wait_for("EXIT=0");
    assert!(screen.contains("(you quit after 0 of 1 game)"), "{screen}");
    assert!(tmp
        .path()
        .join("reports/play-breakthrough-greedy-1/season.json")
        .exists());
}

#[test]
fn no_color_turns_colour_off_even_in_a_terminal() {
    let tmp = TempDir::new().unwrap();
    let Some(t) = Tmux::start(
        "no-colour",
        "NO_COLOR=1",
        "breakthrough --bot greedy",
        tmp.path(),
    ) else {
        return;
    };
    t.wait_for("Enter human move:");
    let painted = t.screen(true);
    assert!(!painted.contains("\x1b["), "{painted:?}");
    t.keys("quit");
}

#[test]
fn the_color_flag_overrides_the_terminal_and_no_color() {
    let tmp = TempDir::new().unwrap();
    // (name, environment, flag, colour expected)
    for (name, env, flag, colour) in [
        ("never", "unset NO_COLOR &&", "never", false),
        ("always", "NO_COLOR=1", "always", true),
        ("auto", "NO_COLOR=1", "auto", false),
    ] {
        let Some(t) = Tmux::start(
            name,
            env,
            &format!("breakthrough --bot greedy --color {flag}"),
            tmp.path(),
        ) else {
            return;
        };
        t.wait_for("Enter human move:");
        let painted = t.screen(true);
        assert_eq!(
            painted.contains("\x1b[36mW"),
            colour,
            "--color {flag} with {env}: {painted:?}"
        );
        t.keys("quit");
        t.wait_for("EXIT=0");
    }
}

#[test]
fn ctrl_c_in_a_terminal_ends_the_session_keeping_the_finished_games() {
    let tmp = TempDir::new().unwrap();
    let Some(t) = Tmux::start(
        "ctrl-c",
        "",
        "coordination --bot left --games 3",
        tmp.path(),
    ) else {
        return;
    };
    t.wait_for("Enter human choice:");
    for _ in 0..20 {
        t.keys("left");
    }
    t.wait_for("=== Game 2 of 3");
    t.run(&["send-keys", "-t", "play", "C-c"]);
    let screen = t.wait_for("EXIT=");
    assert!(screen.contains("EXIT=130"), "{screen}");
    assert!(
        screen.contains("(interrupted after 1 of 3 games)"),
        "{screen}"
    );
    assert!(!screen.contains("error:"), "{screen}");
    let dir = tmp.path().join("reports/play-coordination-left-1");
    assert_eq!(journal_moves(&dir, "human"), vec![vec!["left"; 20]]);
    assert!(dir.join("leaderboard.md").exists());
}

#[test]
fn a_person_plays_bot_programs_of_both_protocols() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (game, bot, name) in [
        (
            "bidding",
            "hackerrank:python3 bots/python/hackerrank_bidding.py",
            "hackerrank_bidding",
        ),
        (
            "coordination",
            "cmd:python3 bots/python/coordination_bot.py",
            "coordination_bot",
        ),
    ] {
        let tmp = TempDir::new().unwrap();
        // bot programs are found from the folder ladder runs in (a copy: the
        // sandbox shows a bot its own files, not a link's target)
        let bots = tmp.path().join("bots/python");
        std::fs::create_dir_all(&bots).unwrap();
        for file in ["hackerrank_bidding.py", "coordination_bot.py"] {
            std::fs::copy(root.join("bots/python").join(file), bots.join(file)).unwrap();
        }
        let (screen, dir, typed) = scripted_session(game, bot, &[], &tmp);
        assert!(dir.ends_with(format!("play-{game}-{name}-1")), "{dir:?}");
        assert!(
            screen.contains(&format!("human against {name}: ")),
            "{screen}"
        );
        assert!(!screen.contains("forfeits"), "{screen}");
        assert_eq!(journal_moves(&dir, "human").concat(), typed);
        assert!(typed.len() > 3, "whole games were played: {typed:?}");
    }
}

/// Each transcript of `docs/PLAY.md`: its script (the `printf` text), the
/// words after `ladder`, and the lines shown.
fn transcripts(doc: &str) -> Vec<(String, Vec<String>, Vec<String>)> {
    common::doc_transcripts(doc)
        .into_iter()
        .map(|(part, shown)| {
            let command = part
                .lines()
                .find(|l| l.starts_with("`printf '"))
                .expect("the command above the transcript")
                .trim_matches('`');
            let (script, rest) = command["printf '".len()..]
                .split_once("' | ladder ")
                .expect("printf '...' | ladder ...");
            let args = rest.split_whitespace().map(str::to_string).collect();
            (script.replace("\\n", "\n"), args, shown)
        })
        .collect()
}

#[test]
fn the_transcripts_of_the_doc_are_real_sessions() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/PLAY.md"))
        .unwrap();
    let all = transcripts(&doc);
    assert_eq!(all.len(), 2);
    for (script, args, shown) in all {
        let tmp = TempDir::new().unwrap();
        let out = Command::new(LADDER)
            .args(&args)
            .current_dir(tmp.path())
            .write_stdin(script)
            .assert()
            .success();
        let real: Vec<String> = String::from_utf8(out.get_output().stdout.clone())
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        if args[1] == "bidding" {
            // the README's excerpt is a part of this session, as it is
            let readme =
                std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
                    .unwrap();
            let section = &readme[readme.find("## Play a bot yourself").unwrap()..];
            let excerpt: Vec<String> = section
                .split("```")
                .nth(3) // the second block, after the commands
                .unwrap()
                .trim_start_matches('\n')
                .lines()
                .map(str::to_string)
                .collect();
            assert!(
                real.windows(excerpt.len()).any(|w| w == excerpt),
                "README:\n{}",
                excerpt.join("\n")
            );
        }
        assert!(
            common::matches(&shown, &real),
            "docs/PLAY.md shows:\n{}\n\nladder {} printed:\n{}",
            shown.join("\n"),
            args.join(" "),
            real.join("\n")
        );
    }
}
