//! One file per subcommand, each owning its options (`Args`, with clap) and
//! its output (`run`); what several share is here: the colour of the
//! output, writing to standard output, the option groups of the commands that
//! play (`RunArgs`, `TimeArgs`, `--sandbox`) and how a config names its game.

pub mod arena;
pub mod check;
pub mod completions;
pub mod export;
pub mod ggp_player;
pub mod list;
pub mod man;
pub mod r#match;
pub mod merge;
pub mod openings;
pub mod play;
pub mod replay;
pub mod report;
pub mod run;
pub mod season;
pub mod solve;
pub mod standings;
pub mod summary;
pub mod verify;

use ladder::show::Show;
use std::{
    path::{Path, PathBuf},
    sync::OnceLock,
};

use clap::ValueEnum;
use ladder::{
    catalog::{self, GameKind, GameVisitor},
    core::clock::TimeControl,
    external::process::{Mode, Sandbox},
    journal::shard::ShardArg,
    plan::{
        config::{self, ConfigFile},
        jobs::Jobs,
        Roster,
    },
    run::tournament::Options,
    show::paint::{ColorChoice, Paint},
    Error, Result,
};

/// `--color`, set once from the command line before anything is printed.
static COLOR: OnceLock<ColorChoice> = OnceLock::new();

/// Sets `--color` for the whole run; called once, before any output.
pub fn set_color(choice: ColorChoice) {
    let _ = COLOR.set(choice);
}

fn color() -> ColorChoice {
    COLOR.get().copied().unwrap_or_default()
}

/// How text printed to standard output is coloured.
fn paint_stdout() -> Paint {
    Paint::stdout(color())
}

/// How text printed to standard error (errors, warnings, progress) is coloured.
pub fn paint_stderr() -> Paint {
    Paint::stderr(color())
}

/// Writes `text` to standard output. A reader that has gone (a closed pipe)
/// ends ladder quietly; any other failure (a full disk) is an error.
fn out(text: &str) -> Result<()> {
    use std::io::{ErrorKind, Write};
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Err(Error::ClosedOutput),
        Err(e) => Err(Error::io("writing", "standard output")(e)),
    }
}

/// The runner's options from the options every playing command shares,
/// and the shard to play (`--shard`, resolved here: `auto` reads Slurm's or
/// Kubernetes's variables).
fn options(
    run: &RunArgs,
    jobs: Option<Jobs>,
    (max_games, fresh): (Option<u64>, bool),
    shard: Option<ShardArg>,
) -> Result<Options> {
    Ok(Options {
        shard: shard.map(ShardArg::resolve).transpose()?,
        jobs,
        fresh,
        reports: run.reports.clone(),
        // an I/O log on stderr has it alone: a progress bar would be
        // drawn among its lines
        progress: (!run.quiet && !run.logs_to_stderr()).then(paint_stderr),
        progress_every: run.progress_every,
        max_games,
        log: run.log.clone().map(|path| (path, run.log_level.level())),
        strict: run.strict,
    })
}

/// The time control of `--move-time-ms`, `--time-control` and `--margin-ms`.
fn time_control(t: &TimeArgs) -> Result<TimeControl> {
    TimeControl::from_settings(
        t.move_time_ms,
        t.time_control.as_deref(),
        Some(t.margin_ms),
        t.startup_time_ms,
    )
    .map_err(|e| {
        let option = e.key.as_deref().unwrap_or("time").replace('_', "-");
        Error::Usage(format!("--{option}: {e}"))
    })
}

/// The sandbox of `--sandbox`, for every bot program of a match or check.
fn sandbox_of(arg: SandboxArg) -> Result<Sandbox> {
    Sandbox::new(arg.mode(), Default::default(), true, Default::default())
        .map_err(|e| Error::Usage(format!("--sandbox: {e}")))
}

/// The folder of a config's season, or of its ladder: `reports/<name>`.
struct LadderDir<'a> {
    file: &'a ConfigFile,
    reports: &'a Path,
}

impl GameVisitor for LadderDir<'_> {
    type Output = Result<std::path::PathBuf>;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Self::Output {
        let plan = config::plan(self.file, roster)?;
        Ok(ladder::ladder::season::ladder_dir(&plan, self.reports))
    }
}

/// The game a config names, or an error at its `game` key.
fn game_of(file: &ConfigFile) -> Result<GameKind> {
    let game = file.game()?;
    GameKind::from_name(game.get_ref())
        .ok_or_else(|| file.error(Some(game.span()), catalog::unknown_game(game.get_ref())))
}

/// Where results go and what the terminal shows, for `run` and `match`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The folder that holds one folder of results per season.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    pub reports: PathBuf,
    /// No progress bar, and no progress lines.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// When stderr is not a terminal (a CI or Slurm log), write a progress line
    /// every N games, with the leaders and the SPRT's LLR, and one at the end
    /// [default: a twentieth of the games, at least 10].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub progress_every: Option<u64>,
    /// Write every line each bot program exchanges with ladder to FILE, with the time,
    /// the game and the bot (`[[bot]] log = true` logs one bot; docs/CONFIG.md);
    /// `-` writes them to stderr, in place of the progress (as with `--quiet`).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Which lines --log writes: all, or only the last ones before each forfeit.
    #[arg(long, value_enum, default_value_t = LogLevel::All, requires = "log")]
    pub log_level: LogLevel,
    /// Exit with code 1 when a bot forfeited every game it played, or most
    /// of them for one reason (ladder says so on stderr either way).
    #[arg(long)]
    pub strict: bool,
}

impl RunArgs {
    /// Whether `--log -` sends the I/O log to stderr.
    fn logs_to_stderr(&self) -> bool {
        self.log
            .as_deref()
            .is_some_and(ladder::core::files::is_standard_stream)
    }
}

/// `--log-level`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum LogLevel {
    All,
    Errors,
}

impl LogLevel {
    pub fn level(self) -> ladder::external::process::Level {
        match self {
            LogLevel::All => ladder::external::process::Level::All,
            LogLevel::Errors => ladder::external::process::Level::Errors,
        }
    }
}

/// The time control of `match` and `check` (a season's config has the same keys).
#[derive(Debug, clap::Args)]
pub struct TimeArgs {
    /// Time a bot has per move, in milliseconds [default: 1000, or none with --time-control].
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u32).range(1..))]
    pub move_time_ms: Option<u32>,
    /// A game clock per bot, BASE+INCREMENT in seconds (e.g. 60+0.5); with it,
    /// moves have no budget of their own unless --move-time-ms is given too.
    #[arg(long, value_name = "TC")]
    pub time_control: Option<String>,
    /// How far past its budget a bot may answer, in milliseconds.
    #[arg(long, default_value_t = 50, value_name = "MS")]
    pub margin_ms: u32,
    /// Time a bot program has from its start to `ready`, in milliseconds [default: 5000].
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u32).range(1..))]
    pub startup_time_ms: Option<u32>,
}

/// `--sandbox`: the `sandbox` key of a config.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SandboxArg {
    Auto,
    Bwrap,
    None,
}

impl SandboxArg {
    pub fn mode(self) -> Mode {
        match self {
            SandboxArg::Auto => Mode::Auto,
            SandboxArg::Bwrap => Mode::Bwrap,
            SandboxArg::None => Mode::None,
        }
    }
}
