//! The command line: the global options and the list of subcommands, whose
//! help is here and whose options are in their own files under `cmd/`.

use clap::{Parser, Subcommand, ValueEnum};
use ladder::show::paint::ColorChoice;

use crate::cmd;

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
    Run(cmd::run::Args),
    /// Print a shell's completion script: `ladder completions bash > /etc/bash_completion.d/ladder`.
    ///
    /// For zsh, save it as `_ladder` in a folder of your `fpath`; for fish, as
    /// `~/.config/fish/completions/ladder.fish`.
    Completions(cmd::completions::Args),
    /// Print ladder's man page (roff): `ladder man > ladder.1 && man ./ladder.1`.
    ///
    /// `ladder man run` prints ladder-run(1), `ladder man arena run` ladder-arena-run(1),
    /// and `ladder man --dir DIR` writes every page into DIR (for `man -M` or a package).
    Man(cmd::man::Args),
    /// Join the shards of a season (`run --shard K/N`) into its journal and reports.
    ///
    /// DIR is the season's folder (reports/<season>, holding shards/), or a ladder's folder,
    /// whose season folders with shards are each merged. Every shard must belong to the same
    /// season and no game may be missing or come twice, and every game is replayed through
    /// the rules as `verify` replays it; else nothing is written and the missing games are
    /// listed with the shard that owes them. The result is byte for byte what one machine
    /// would have written.
    Merge(cmd::merge::Args),
    /// Play the next season of a ladder (or finish the one a crash interrupted), then show it.
    ///
    /// A ladder config is a season config with a [ladder] table (docs/LADDER.md). Bots added
    /// to the config join, bots removed or made inactive retire; ratings carry over and bots
    /// move between divisions. Everything lives in reports/<ladder>/: ladder.json and a
    /// folder per season.
    Season(cmd::season::Args),
    /// Show a ladder as it stands and the history of its seasons, without playing.
    Standings(cmd::standings::Args),
    /// A league that never stops: bots join, retire and come back as new versions while it
    /// plays, and its games go where the ratings are least certain (docs/ARENA.md).
    Arena(cmd::arena::Args),
    /// Play an ad-hoc match between two bots; reported like a small season.
    ///
    /// A bot is a built-in name (see `ladder list bots`), `cmd:PROGRAM ARGS...` for a program
    /// speaking the line protocol (docs/PROTOCOL.md), or `hackerrank:PROGRAM ARGS...` for an
    /// unmodified HackerRank bidding bot. Quote it: `"cmd:python3 bots/python/bidding_bot.py"`.
    Match(cmd::r#match::Args),
    /// Play against a bot yourself, at the terminal: every game, any bot.
    ///
    /// Each turn shows the position for your seat; type your move at the prompt, `help`
    /// for the legal moves and an example, `quit` to stop (finished games are kept). The
    /// session is journaled like a season in reports/play-GAME-BOT-N/, so `ladder replay`
    /// and `ladder report` work on it. The bot's time control applies to the bot only.
    ///
    /// Example: ladder play bidding --bot dp --games 3
    Play(cmd::play::Args),
    /// Print start positions for a season's openings, one a line (`[season.openings] file`).
    ///
    /// Each is PLIES uniformly random plies from the game's first position (default
    /// parameters), all different. With --balanced, only positions where the built-in
    /// bot --judge, playing itself --playouts times from them, scores 35% to 65% for
    /// each seat. Example: ladder openings breakthrough --plies 4 --count 50 --balanced --judge greedy
    Openings(cmd::openings::Args),
    /// Check that a bot program speaks the protocol: start-up, greeting, a few games
    /// against `random`, and `quit`; every problem is listed with the bot's own words.
    ///
    /// Example: ladder check --game troops -- python3 bots/python/troops_bot.py
    Check(cmd::check::Args),
    /// Solve a game exactly and print the solution (`ladder list games` shows which games have one).
    ///
    /// The options after the game's name are the game's own: `ladder solve bidding --help`
    /// lists them. Bidding: `--position P --money1 A --money2 B --advantage 1|2 --money M --json`.
    Solve(cmd::solve::Args),
    /// Check a season's journal: replay every game through the rules and check its
    /// moves, ending, goals and result, its place in the schedule, and the order.
    ///
    /// Reports the first mismatch with file and line (exit 1); a resumed season
    /// trusts its journal, so verify one that was copied or edited by hand.
    Verify(cmd::verify::Args),
    /// Render the reports of a season or a ladder again from its journals, without playing.
    ///
    /// PATH is a season's folder (reports/<season>, with season.json) or a ladder's
    /// (reports/<ladder>, with ladder.json: every season's reports and the ladder's page).
    Report(cmd::report::Args),
    /// Print one journaled game move by move, with the position drawn after each turn.
    ///
    /// Example: ladder replay reports/breakthrough/games.jsonl --game 0
    Replay(cmd::replay::Args),
    /// Write a season's games in a format other tools read: `csv`, `pgn` or `ggp`.
    ///
    /// `ladder export reports/troops --format csv > troops.csv` (or `-o troops.csv`) gives
    /// index, pair, both seats' bots, seed, result, both goals, termination, plies and
    /// opening, for pandas and spreadsheets; `--format pgn` one PGN game per game, for
    /// Ordo and BayesElo; `--format ggp` one GGP match JSON object per line (GDL games).
    Export(cmd::export::Args),
    /// Serve a built-in GDL bot (`mcts` by default) as a General Game Playing player over HTTP.
    ///
    /// Any GGP game manager can play it: ggp-base's server, the competitions' servers, and
    /// ladder (`protocol = "ggp"`, which plays the native games through their GDL twins):
    /// `command = ["ladder", "ggp-player", "--port", "{port}"]` (docs/GDL.md).
    GgpPlayer(cmd::ggp_player::Args),
    /// List the games or the built-in bots.
    List(cmd::list::Args),
}
