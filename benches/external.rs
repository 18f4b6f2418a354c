//! External bots against raw baselines measured in the same run:
//! - a move through the line protocol (`LineBot::choose`) against a raw pipe
//!   ping-pong with the same compiled bot: the same request and move
//!   (`raw_pipe_turn`, and `..._started_as_ladder_starts_bots`, where only
//!   the bot's start is ladder's) and a plain echo (`raw_pipe_round_trip`),
//!   and what ladder's reader adds between them (`reader_round_trip*`, and
//!   `polled_pipe_round_trip_untimed` for what a poll before the read costs);
//! - a HackerRank move (`HackerRankBot::choose`: spawn, four lines, one bid)
//!   against a raw spawn-and-wait of the same program;
//! - a season of external bots at `--jobs 1` and `--jobs 2`;
//! - the pieces of a move's wait: the look for unrequested output
//!   (`look_on_an_empty_pipe_*`) and a read armed with the alarm thread
//!   against a raw one (`pipe_byte_read_*`);
//! - the same moves in the bwrap sandbox (skipped where bwrap cannot run).
//!
//! Bots start through the ladder binary's exec helper, as in a season.
//! Run with `cargo bench --bench external` (it builds `testbot` first).
//! A round trip's wall time on a virtual machine depends on whether the
//! two processes share a CPU (a wake-up across CPUs costs several µs and
//! varies with where the scheduler puts them): `taskset -c 0 cargo bench
//! ...` puts both on one CPU, where the figure is the work both sides do.
//! `docs/PERFORMANCE.md` records the figures.

use std::{
    io::{BufRead, BufReader, Read, Write},
    path::PathBuf,
    process::{Command as StdCommand, Stdio},
    time::{Duration, Instant},
};

use divan::{counter::ItemsCount, Bencher};
use ladder::{
    catalog,
    core::{clock::TimeControl, referee::Referee},
    external::{
        line::LineBot,
        process::{lines::StdoutLines, Log, Mode, Sandbox},
        Command, Launch,
    },
    games::{
        bidding::{hackerrank::HackerRankBot, BiddingParams},
        coordination::CoordinationParams,
        Bidding, Coordination,
    },
    plan::jobs::Jobs,
    plan::match_plan,
    run::tournament::{self, Options},
    Bot, Game, Seat, TimeLeft,
};

fn main() {
    // bots start as the ladder binary starts them: through its exec helper
    // (a session of their own, limits and output set up inside the sandbox)
    ladder::external::process::exec::use_helper(PathBuf::from(env!("CARGO_BIN_EXE_ladder")));
    divan::main();
}

/// The test bot, built by cargo for this package.
fn testbot() -> String {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let bot = dir.join("examples").join("testbot");
    assert!(
        bot.exists(),
        "build it first: cargo build --release --example testbot"
    );
    bot.to_string_lossy().into_owned()
}

/// Five seconds a move: no benchmarked move comes near it.
fn time() -> TimeControl {
    TimeControl {
        startup: Duration::from_secs(5),
        ..TimeControl::per_move(Duration::from_secs(5))
    }
}

fn launch(argv: Vec<String>, game: &str, params: serde_json::Value) -> Launch {
    launch_in(Sandbox::default(), argv, game, params)
}

fn launch_in(sandbox: Sandbox, argv: Vec<String>, game: &str, params: serde_json::Value) -> Launch {
    Launch {
        command: Command {
            argv,
            dir: None,
            sandbox,
            url: None,
        },
        log: Log::open(None).unwrap(),
        game: game.to_string(),
        params,
        time: time(),
    }
}

const MOVE: TimeLeft = TimeLeft {
    budget: Duration::from_secs(5),
    limit: Duration::from_secs(5),
    on_clock: false,
};

/// Baseline: write a line to the bot, read its answer; no protocol, no threads.
#[divan::bench]
fn raw_pipe_round_trip(bencher: Bencher) {
    let (child, stdin, stdout) = echo_bot();
    ping_pong(
        bencher,
        child,
        stdin,
        BufReader::new(stdout),
        b"turn round 1 of 20 score 0\n",
    );
}

/// Writes `request` and reads a line back per iteration, with std's
/// blocking pipe I/O; then ends the bot.
fn ping_pong(
    bencher: Bencher,
    mut child: std::process::Child,
    mut stdin: std::process::ChildStdin,
    mut stdout: BufReader<std::process::ChildStdout>,
    request: &[u8],
) {
    let mut line = String::new();
    bencher.bench_local(|| {
        stdin.write_all(request).unwrap();
        stdin.flush().unwrap();
        line.clear();
        stdout.read_line(&mut line).unwrap();
    });
    drop(stdin);
    child.wait().unwrap();
}

/// One coordination move through the line protocol: request, answer, parse.
#[divan::bench]
fn line_protocol_move(bencher: Bencher) {
    let params = serde_json::to_value(CoordinationParams::default()).unwrap();
    let game = Coordination::new(&CoordinationParams::default()).unwrap();
    let mut bot = LineBot::new(&launch(vec![testbot()], game.name(), params));
    Bot::<Coordination>::new_game(&mut bot, &game, Seat::First, 1).unwrap();
    bencher
        .bench_local(|| Bot::<Coordination>::choose(&mut bot, &game, Seat::First, MOVE).unwrap());
}

/// The same move with every line written to an I/O log (`--log`): the
/// cost of logging on; `line_protocol_move` is logging off.
#[divan::bench]
fn line_protocol_move_logged(bencher: Bencher) {
    let params = serde_json::to_value(CoordinationParams::default()).unwrap();
    let game = Coordination::new(&CoordinationParams::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let launch = launch(vec![testbot()], game.name(), params);
    launch.log.lock().unwrap().io = Some(
        ladder::external::process::IoLog::open(
            &dir.path().join("io.log"),
            ladder::external::process::Level::All,
        )
        .unwrap(),
    );
    let mut bot = LineBot::new(&launch);
    Bot::<Coordination>::new_game(&mut bot, &game, Seat::First, 1).unwrap();
    bencher
        .bench_local(|| Bot::<Coordination>::choose(&mut bot, &game, Seat::First, MOVE).unwrap());
}

/// Baseline: start the HackerRank-mode bot, give it the four lines, wait for it.
#[divan::bench(sample_count = 50)]
fn raw_spawn_and_wait(bencher: Bencher) {
    let bot = testbot();
    bencher.bench_local(|| {
        let mut child = StdCommand::new(&bot)
            .arg("--hackerrank")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"1\n5\n\n\n")
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(!out.stdout.is_empty());
    });
}

/// One HackerRank move: a fresh process in the game's directory, four lines, one bid.
#[divan::bench(sample_count = 50)]
fn hackerrank_move(bencher: Bencher) {
    let game = Bidding::new(&BiddingParams::default()).unwrap();
    let argv = vec![testbot(), "--hackerrank".to_string()];
    let mut bot = HackerRankBot::new(&launch(argv, game.name(), serde_json::Value::Null));
    bot.new_game(&game, Seat::First, 1).unwrap();
    bencher.bench_local(|| bot.choose(&game, Seat::First, MOVE).unwrap());
}

/// The bwrap sandbox, or `None` (and a note) where it cannot run.
fn bwrap() -> Option<Sandbox> {
    let sandbox = Sandbox::new(Mode::Bwrap, Default::default(), true, Default::default());
    if let Err(e) = &sandbox {
        eprintln!("skipped: {e}");
    }
    sandbox.ok()
}

/// One coordination move of a line-protocol bot in the bwrap sandbox.
#[divan::bench]
fn line_protocol_move_in_bwrap(bencher: Bencher) {
    let Some(sandbox) = bwrap() else { return };
    let params = serde_json::to_value(CoordinationParams::default()).unwrap();
    let game = Coordination::new(&CoordinationParams::default()).unwrap();
    let mut bot = LineBot::new(&launch_in(sandbox, vec![testbot()], game.name(), params));
    Bot::<Coordination>::new_game(&mut bot, &game, Seat::First, 1).unwrap();
    bencher
        .bench_local(|| Bot::<Coordination>::choose(&mut bot, &game, Seat::First, MOVE).unwrap());
}

/// A bidding game and the HackerRank test bot in the bwrap sandbox, or
/// `None` (and a note) where it cannot run.
fn hackerrank_in_bwrap() -> Option<(Bidding, HackerRankBot)> {
    let sandbox = bwrap()?;
    let game = Bidding::new(&BiddingParams::default()).unwrap();
    let argv = vec![testbot(), "--hackerrank".to_string()];
    let bot = HackerRankBot::new(&launch_in(
        sandbox,
        argv,
        game.name(),
        serde_json::Value::Null,
    ));
    Some((game, bot))
}

/// A HackerRank bot's game of one move in the bwrap sandbox: the sandbox
/// and its move host started, the move, and the sandbox ended (what a game
/// costs beyond its moves is this less `hackerrank_move_in_bwrap`).
#[divan::bench(sample_count = 50)]
fn hackerrank_one_move_game_in_bwrap(bencher: Bencher) {
    let Some((game, mut bot)) = hackerrank_in_bwrap() else {
        return;
    };
    bencher.bench_local(|| {
        bot.new_game(&game, Seat::First, 1).unwrap();
        bot.choose(&game, Seat::First, MOVE).unwrap();
        bot.game_over(&game, Default::default()).unwrap();
    });
}

/// One HackerRank move in the bwrap sandbox: a process started by the
/// game's move host inside the game's sandbox.
#[divan::bench(sample_count = 50)]
fn hackerrank_move_in_bwrap(bencher: Bencher) {
    let Some((game, mut bot)) = hackerrank_in_bwrap() else {
        return;
    };
    bot.new_game(&game, Seat::First, 1).unwrap();
    bencher.bench_local(|| bot.choose(&game, Seat::First, MOVE).unwrap());
}

const SEASON_GAMES: u32 = 200;

/// A coordination season of two line-protocol test bots (20 moves per bot per game).
#[divan::bench(args = [1, 2], sample_count = 10)]
fn external_season(bencher: Bencher, jobs: usize) {
    let bot = format!("cmd:{}", testbot());
    let referee = Referee {
        time: time(),
        ..Referee::new(Referee::DEFAULT_MAX_PLIES)
    };
    let bots = [bot.clone(), bot];
    let plan = match_plan(
        &catalog::roster(&ladder::games::coordination::ENTRY),
        ladder::plan::Match {
            bots: bots.clone(),
            games: SEASON_GAMES,
            seed: 1,
            sprt: None,
            openings: None,
            seating: Default::default(),
        },
        referee,
        &Default::default(),
        &toml::Table::new(),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let opts = Options {
        jobs: Some(Jobs::Fixed(jobs)),
        fresh: true,
        reports: PathBuf::from(dir.path()),
        progress: None,
        progress_every: None,
        max_games: None,
        log: None,
        shard: None,
        strict: false,
    };
    bencher
        .counter(ItemsCount::new(SEASON_GAMES))
        .bench_local(|| tournament::run(&plan, &opts).unwrap().played);
}

/// The test bot in `--echo` mode with both pipes, for the round trips.
fn echo_bot() -> (
    std::process::Child,
    std::process::ChildStdin,
    std::process::ChildStdout,
) {
    let mut child = StdCommand::new(testbot())
        .arg("--echo")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    (child, stdin, stdout)
}

/// The line-protocol bot itself with no ladder code: the greeting, then the
/// same `turn` request as `line_protocol_move`, written and its move read
/// with std's blocking pipe I/O. The baseline a line-protocol move is held
/// to: the same bot doing the same work, so what is left is ladder's.
#[divan::bench]
fn raw_pipe_turn(bencher: Bencher) {
    raw_turn(bencher, StdCommand::new(testbot()));
}

/// The same, the bot started as ladder starts a line-protocol bot
/// (`exec::command`: the exec helper, a process group of its own, and a
/// session of its own only while ladder has a terminal): a bot's
/// start that costs its every move shows here (a session of its own is a
/// scheduling group of its own under autogroup, docs/PERFORMANCE.md).
#[divan::bench]
fn raw_pipe_turn_started_as_ladder_starts_bots(bencher: Bencher) {
    let bot = testbot();
    let cmd = ladder::external::process::exec::command(bot.as_ref(), Default::default(), true);
    raw_turn(bencher, cmd);
}

/// `raw_pipe_turn` of the bot `cmd` starts.
fn raw_turn(bencher: Bencher, mut cmd: StdCommand) {
    use ladder::external::protocol;
    let params = serde_json::to_value(CoordinationParams::default()).unwrap();
    let game = Coordination::new(&CoordinationParams::default()).unwrap();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "{}", protocol::hello(game.name(), &time(), &params)).unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    writeln!(stdin, "{}", protocol::new_game(Seat::First, 1)).unwrap();
    let turn = format!("{}\n", protocol::turn(&game.observation(Seat::First)));
    ping_pong(bencher, child, stdin, stdout, turn.as_bytes());
}

/// The echo round trip read by ladder's reader (`StdoutLines`: a blocking
/// read whose deadline the alarm thread keeps) instead of std's.
#[divan::bench]
fn reader_round_trip(bencher: Bencher) {
    read_by_ladder(bencher, false);
}

/// `reader_round_trip` with the look for unrequested output that comes
/// before every line-protocol request (`StdoutLines::next(None)`: how much
/// is there, and no wait).
#[divan::bench]
fn reader_round_trip_checked(bencher: Bencher) {
    read_by_ladder(bencher, true);
}

/// The echo round trip read by ladder's reader, after a look if `look`.
fn read_by_ladder(bencher: Bencher, look: bool) {
    let (mut child, mut stdin, stdout) = echo_bot();
    let mut lines = StdoutLines::new(stdout);
    bencher.bench_local(|| {
        if look {
            lines.next(None);
        }
        stdin.write_all(b"turn round 1 of 20 score 0\n").unwrap();
        lines.next(Some(Instant::now() + Duration::from_secs(5)))
    });
    drop(stdin);
    child.wait().unwrap();
}

/// The echo round trip read by a poll with no deadline, then a read: what
/// a poll before each read costs (ladder's reader did this, with the
/// deadline as the poll's timeout, until it read with the alarm).
#[divan::bench]
fn polled_pipe_round_trip_untimed(bencher: Bencher) {
    use rustix::event::{poll, PollFd, PollFlags};
    let (mut child, mut stdin, mut stdout) = echo_bot();
    let mut chunk = [0u8; 64];
    bencher.bench_local(|| {
        stdin.write_all(b"turn round 1 of 20 score 0\n").unwrap();
        poll(&mut [PollFd::new(&stdout, PollFlags::IN)], None).unwrap();
        stdout.read(&mut chunk).unwrap()
    });
    drop(stdin);
    child.wait().unwrap();
}

/// The look for unrequested output on an empty pipe, as ladder makes it
/// (`FIONREAD`: how much is there), one system call.
#[divan::bench]
fn look_on_an_empty_pipe_fionread(bencher: Bencher) {
    let (read, _write) = std::io::pipe().unwrap();
    bencher.bench_local(|| rustix::io::ioctl_fionread(&read).unwrap());
}

/// The same look as a poll that does not wait, as ladder made it before.
#[divan::bench]
fn look_on_an_empty_pipe_poll(bencher: Bencher) {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let (read, _write) = std::io::pipe().unwrap();
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    bencher.bench_local(|| poll(&mut [PollFd::new(&read, PollFlags::IN)], Some(&now)).unwrap());
}

/// A byte written and read back on one thread with a raw read: the
/// baseline of `pipe_byte_read_by_the_alarm`.
#[divan::bench]
fn pipe_byte_read_raw(bencher: Bencher) {
    let (read, mut write) = std::io::pipe().unwrap();
    let mut buf = [0u8; 8];
    bencher.bench_local(|| {
        write.write_all(b"x").unwrap();
        rustix::io::read(&read, &mut buf[..]).unwrap()
    });
}

/// The same byte read with a deadline kept by the alarm thread
/// (`alarm::read_by`): what arming and disarming a read costs.
#[divan::bench]
fn pipe_byte_read_by_the_alarm(bencher: Bencher) {
    use ladder::external::process::alarm;
    let (read, mut write) = std::io::pipe().unwrap();
    let mut buf = [0u8; 8];
    let deadline = Instant::now() + Duration::from_secs(3600);
    bencher.bench_local(|| {
        write.write_all(b"x").unwrap();
        alarm::read_by(&read, &mut buf[..], deadline).unwrap()
    });
}
