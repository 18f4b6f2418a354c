//! The command line, as clap types only; `main.rs` acts on them.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use ladder::{
    core::paint::ColorChoice,
    external::process::Mode,
    season::{concurrency::Jobs, recorded::ReportFormat, shard::ShardArg},
};

/// `ladder --version`: the crate's version, the line protocol's, and the git
/// commit it was built from (`build.rs`).
pub fn version() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        format!(
            "{} (line protocol {}, commit {})",
            env!("CARGO_PKG_VERSION"),
            ladder::external::protocol::VERSION,
            env!("LADDER_COMMIT")
        )
    })
}

/// ladder: run tournaments between bots for small two-player games.
#[derive(Debug, Parser)]
#[command(name = "ladder", version = version(), about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Colour in tables, the progress bar and `play`'s board: `auto` on a terminal unless
    /// NO_COLOR is set; `always` even into a pipe and despite NO_COLOR. Files never get colour.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

impl ColorArg {
    pub fn choice(self) -> ColorChoice {
        match self {
            ColorArg::Auto => ColorChoice::Auto,
            ColorArg::Always => ColorChoice::Always,
            ColorArg::Never => ColorChoice::Never,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play (or resume) the season a TOML config describes, then print the leaderboard.
    ///
    /// Results go to reports/<season>/: games.jsonl (one line per game), leaderboard.md,
    /// standings.csv and standings.json. Rerunning the same config resumes where it stopped.
    Run {
        /// The season config, e.g. configs/breakthrough.toml (keys: docs/CONFIG.md).
        config: PathBuf,
        /// Games at once: up to 1024, far above the core count for slow bot programs, or
        /// `auto` to measure (default: the config's `jobs`, else one per core). Results do
        /// not depend on it.
        #[arg(long, short = 'j', value_name = "N|auto")]
        jobs: Option<Jobs>,
        /// Discard earlier results of this season instead of resuming.
        #[arg(long)]
        fresh: bool,
        #[command(flatten)]
        run: RunArgs,
        /// Play at most this many new games now; a later run resumes the rest.
        #[arg(long, value_name = "N")]
        max_games: Option<u64>,
        /// Play only shard K of N (K from 1): the colour-swapped game pairs p with
        /// p mod N = K-1, journaled in reports/<season>/shards/K-of-N/; `auto` reads a Slurm
        /// array task's or a Kubernetes Indexed Job's variables (docs/DISTRIBUTED.md).
        /// `ladder merge` joins the shards.
        #[arg(long, value_name = "K/N|auto")]
        shard: Option<ShardArg>,
    },
    /// Print a shell's completion script: `ladder completions bash > /etc/bash_completion.d/ladder`.
    ///
    /// For zsh, save it as `_ladder` in a folder of your `fpath`; for fish, as
    /// `~/.config/fish/completions/ladder.fish`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print ladder's man page (roff): `ladder man > ladder.1 && man ./ladder.1`.
    Man,
    /// Join the shards of a season (`run --shard K/N`) into its journal and reports.
    ///
    /// DIR is the season's folder (reports/<season>, holding shards/), or a ladder's folder,
    /// whose season folders with shards are each merged. Every shard must belong to the same
    /// season and no game may be missing or come twice; else nothing is written and the
    /// missing games are listed with the shard that owes them. The result is byte for byte
    /// what one machine would have written.
    Merge {
        /// The season's folder, e.g. reports/troops, or its config (then its folder under
        /// --reports).
        dir: PathBuf,
        /// With a config: the folder that holds its season's folder.
        #[arg(long, default_value = "reports", value_name = "DIR")]
        reports: PathBuf,
    },
    /// Play the next season of a ladder (or finish the one a crash interrupted), then show it.
    ///
    /// A ladder config is a season config with a [ladder] table (docs/LADDER.md). Bots added
    /// to the config join, bots removed or made inactive retire; ratings carry over and bots
    /// move between divisions. Everything lives in reports/<ladder>/: ladder.json and a
    /// folder per season.
    Season {
        /// The ladder config, e.g. configs/ladder-bidding.toml.
        config: PathBuf,
        /// Games at once: up to 1024, far above the core count for slow bot programs, or
        /// `auto` to measure (default: the config's `jobs`, else one per core). Results do
        /// not depend on it.
        #[arg(long, short = 'j', value_name = "N|auto")]
        jobs: Option<Jobs>,
        #[command(flatten)]
        run: RunArgs,
        /// Play only shard K of N of the next season's divisions (as `run --shard`); after
        /// `ladder merge` on the ladder's folder, `ladder season` finishes the season.
        #[arg(long, value_name = "K/N|auto")]
        shard: Option<ShardArg>,
    },
    /// Show a ladder as it stands and the history of its seasons, without playing.
    Standings {
        /// The ladder config.
        config: PathBuf,
        /// The folder that holds the ladder's folder.
        #[arg(long, default_value = "reports", value_name = "DIR")]
        reports: PathBuf,
    },
    /// Play an ad-hoc match between two bots; reported like a small season.
    ///
    /// A bot is a built-in name (see `ladder list bots`), `cmd:PROGRAM ARGS...` for a program
    /// speaking the line protocol (docs/PROTOCOL.md), or `hackerrank:PROGRAM ARGS...` for an
    /// unmodified HackerRank bidding bot. Quote it: `"cmd:python3 bots/python/bidding_bot.py"`.
    Match {
        /// The game, e.g. bidding (see `ladder list games`).
        game: String,
        /// The bot in the first seat of the first game.
        first: String,
        /// The other bot; seats alternate game by game.
        second: String,
        /// Games to play.
        #[arg(long, default_value_t = 10, value_name = "N")]
        games: u32,
        /// The match seed; the same seed replays the same games.
        #[arg(long, default_value_t = 1, value_name = "S")]
        seed: u64,
        #[command(flatten)]
        time: TimeArgs,
        /// Where bot programs run: bwrap's sandbox, none, or bwrap when it works here (docs/SECURITY.md).
        #[arg(long, value_enum, default_value_t = SandboxArg::Auto)]
        sandbox: SandboxArg,
        /// Games at once: up to 1024, or `auto` to measure (default: one per core). Results
        /// do not depend on it.
        #[arg(long, short = 'j', value_name = "N|auto")]
        jobs: Option<Jobs>,
        /// Stop as soon as an SPRT decides whether FIRST is at least ELO1 Elo stronger than
        /// SECOND (H1) or at most ELO0 (H0); alpha = beta = 0.05, game pairs (docs/CONFIG.md).
        #[arg(long, value_name = "ELO0,ELO1")]
        sprt: Option<String>,
        /// How --sprt turns Elo into a score.
        #[arg(long, value_enum, default_value_t = SprtModel::Normalized)]
        sprt_model: SprtModel,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Play against a bot yourself, at the terminal: every game, any bot.
    ///
    /// Each turn shows the position for your seat; type your move at the prompt, `help`
    /// for the legal moves and an example, `quit` to stop (finished games are kept). The
    /// session is journaled like a season in reports/play-GAME-BOT-N/, so `ladder replay`
    /// and `ladder report` work on it. The bot's time control applies to the bot only.
    ///
    /// Example: ladder play bidding --bot dp --games 3
    Play {
        /// The game, e.g. bidding (see `ladder list games`).
        game: String,
        /// The bot to play: a built-in name, `cmd:PROGRAM ARGS...`, `hackerrank:PROGRAM ARGS...`,
        /// or with --config the name of a bot of that config.
        #[arg(long)]
        bot: String,
        /// Your seat in every game: 1 (player 1, white, moves first) or 2; without it seats
        /// alternate, you first.
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
        seat: Option<u8>,
        /// The session seed: the same seed and the same moves give the same games.
        #[arg(long, default_value_t = 1, value_name = "S")]
        seed: u64,
        /// Games to play; with more than one, the end shows the 2016 report's Table 4.1.
        #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
        /// A season config whose bot --bot names; its game parameters and time control apply.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        #[command(flatten)]
        time: TimeArgs,
        /// Where a bot program runs: bwrap's sandbox, none, or bwrap when it works here (docs/SECURITY.md).
        #[arg(long, value_enum, default_value_t = SandboxArg::Auto)]
        sandbox: SandboxArg,
        /// The folder that holds the session's folder.
        #[arg(long, default_value = "reports", value_name = "DIR")]
        reports: PathBuf,
    },
    /// Print start positions for a season's openings, one a line (`[season.openings] file`).
    ///
    /// Each is PLIES uniformly random plies from the game's first position (default
    /// parameters), all different. With --balanced, only positions where the built-in
    /// bot --judge, playing itself --playouts times from them, scores 35% to 65% for
    /// each seat. Example: ladder openings breakthrough --plies 4 --count 50 --balanced --judge greedy
    Openings {
        /// The game.
        game: String,
        /// Random plies from the first position.
        #[arg(long, value_name = "N")]
        plies: u32,
        /// How many positions.
        #[arg(long, default_value_t = 20, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=100_000))]
        count: u32,
        /// Keep only positions the judge finds roughly balanced.
        #[arg(long)]
        balanced: bool,
        /// The built-in bot that judges balance.
        #[arg(long, default_value = "random", value_name = "BOT")]
        judge: String,
        /// Games the judge plays from each position.
        #[arg(long, default_value_t = 20, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        playouts: u32,
        /// The seed: the same seed gives the same positions.
        #[arg(long, default_value_t = 1, value_name = "S")]
        seed: u64,
    },
    /// Check that a bot program speaks the protocol: start-up, greeting, a few games
    /// against `random`, and `quit`; every problem is listed with the bot's own words.
    ///
    /// Example: ladder check --game troops -- python3 bots/python/troops_bot.py
    Check {
        /// The game the bot plays (`hackerrank` bots play bidding).
        #[arg(long)]
        game: Option<String>,
        /// How ladder talks to the bot: `line`, or a game's own protocol (`hackerrank`).
        #[arg(long, default_value = "line")]
        protocol: String,
        /// Games to play against `random`.
        #[arg(long, default_value_t = 4, value_name = "N")]
        games: u32,
        #[command(flatten)]
        time: TimeArgs,
        /// Where the bot runs: bwrap's sandbox, none, or bwrap when it works here (docs/SECURITY.md).
        #[arg(long, value_enum, default_value_t = SandboxArg::Auto)]
        sandbox: SandboxArg,
        /// The bot's program and arguments, after `--`.
        #[arg(last = true, required = true, value_name = "COMMAND")]
        command: Vec<String>,
    },
    /// Solve a game exactly and print the solution (`ladder list games` shows which games have one).
    ///
    /// The options after the game's name are the game's own: `ladder solve bidding --help`
    /// lists them. Bidding: `--position P --money1 A --money2 B --advantage 1|2 --money M --json`.
    Solve {
        /// The game to solve.
        game: String,
        /// The game's own options.
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "OPTIONS"
        )]
        args: Vec<String>,
    },
    /// Check a season's journal: replay every game through the rules and check its
    /// moves, ending, goals and result, its place in the schedule, and the order.
    ///
    /// Reports the first mismatch with file and line (exit 1); a resumed season
    /// trusts its journal, so verify one that was copied or edited by hand.
    Verify {
        /// The season's folder, e.g. reports/breakthrough.
        dir: PathBuf,
    },
    /// Render the reports of a season or a ladder again from its journals, without playing.
    ///
    /// PATH is a season's folder (reports/<season>, with season.json) or a ladder's
    /// (reports/<ladder>, with ladder.json: every season's reports and the ladder's page).
    Report {
        /// The season's or ladder's folder.
        path: PathBuf,
        /// Only this kind of report (default: all).
        #[arg(long, value_enum)]
        format: Option<FormatArg>,
    },
    /// Print one journaled game move by move, with the position drawn after each turn.
    ///
    /// Example: ladder replay reports/breakthrough/games.jsonl --game 0
    Replay {
        /// A season's journal (games.jsonl) or its folder.
        journal: PathBuf,
        /// The game's index in the schedule (the journal's `index`).
        #[arg(long, value_name = "N")]
        game: u64,
    },
    /// List the games or the built-in bots.
    List {
        /// What to list.
        what: ListWhat,
        /// Only this game's bots.
        #[arg(long)]
        game: Option<String>,
    },
}

/// Where results go and what the terminal shows, for `run` and `match`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The folder that holds one folder of results per season.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    pub reports: PathBuf,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Write every line each bot program exchanges with ladder to FILE, with the time,
    /// the game and the bot (`[[bot]] log = true` logs one bot; docs/CONFIG.md).
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
#[derive(Debug, Args)]
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

/// `--format` of `ladder report`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    Md,
    Csv,
    Json,
    Html,
}

impl FormatArg {
    pub fn format(self) -> ReportFormat {
        match self {
            FormatArg::Md => ReportFormat::Markdown,
            FormatArg::Csv => ReportFormat::Csv,
            FormatArg::Json => ReportFormat::Json,
            FormatArg::Html => ReportFormat::Html,
        }
    }
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

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ListWhat {
    Games,
    Bots,
}

/// `--sprt-model` of `ladder match`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SprtModel {
    Normalized,
    Logistic,
}
