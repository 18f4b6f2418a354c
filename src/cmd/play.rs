//! `ladder play GAME --bot NAME`: a person against a bot on this terminal.

use ladder::show::Show;
use std::path::{Path, PathBuf};

use ladder::{
    catalog::{GameKind, GameVisitor},
    core::referee::Referee,
    external::process::{cleanup, Sandbox},
    plan::{
        self,
        config::{self, ConfigFile},
        Roster,
    },
    Error, Result, Seat,
};

use super::{color, game_of, sandbox_of, time_control, SandboxArg, TimeArgs};

/// The options of `ladder play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game, e.g. bidding (see `ladder list games`).
    pub game: String,
    /// The bot to play: a built-in name, `cmd:PROGRAM ARGS...`, `hackerrank:PROGRAM ARGS...`,
    /// or with --config the name of a bot of that config.
    #[arg(long)]
    pub bot: String,
    /// Your seat in every game: 1 (player 1, white, moves first) or 2; without it seats
    /// alternate, you first.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub seat: Option<u8>,
    /// The session seed: the same seed and the same moves give the same games.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Games to play; with more than one, the end shows the 2016 report's Table 4.1.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// A season config whose bot --bot names; its game parameters and time control apply.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub time: TimeArgs,
    /// Where a bot program runs: bwrap's sandbox, none, or bwrap when it works here (docs/SECURITY.md).
    #[arg(long, value_enum, default_value_t = SandboxArg::Auto)]
    pub sandbox: SandboxArg,
    /// The folder that holds the session's folder.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    pub reports: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    let sandbox = sandbox_of(a.sandbox)?;
    play(PlayArgs {
        game: &a.game,
        params: toml::Table::new(),
        bot: a.bot,
        seat: a
            .seat
            .map(|s| if s == 1 { Seat::First } else { Seat::Second }),
        seed: a.seed,
        games: a.games,
        config: a.config.as_deref(),
        time: &a.time,
        sandbox: &sandbox,
        reports: a.reports,
    })
}

/// What `ladder play` was given.
struct PlayArgs<'a> {
    game: &'a str,
    /// The parameters the game's name carries (`gdl:FILE`), from `game`.
    params: toml::Table,
    bot: String,
    seat: Option<Seat>,
    seed: u64,
    games: u32,
    config: Option<&'a Path>,
    time: &'a TimeArgs,
    sandbox: &'a Sandbox,
    reports: std::path::PathBuf,
}

/// `ladder play GAME --bot NAME`: a person against a bot on this terminal.
fn play(mut args: PlayArgs<'_>) -> Result<()> {
    let (named, params) = GameKind::with_params(args.game)?;
    args.params = params;
    let kind = match args.config {
        Some(path) => {
            let file = ConfigFile::read(path)?;
            let kind = game_of(&file)?;
            if named.name() != kind.name() {
                return Err(Error::Usage(format!(
                    "{} is a config of the {} game, not {}",
                    path.display(),
                    kind.name(),
                    args.game
                )));
            }
            kind
        }
        None => named,
    };
    let outcome = kind.visit(args)?;
    match outcome.stopped {
        Some(ladder::play::console::Stop::Signal) => Err(Error::Interrupted {
            signal: cleanup::interrupted().unwrap_or(2),
        }),
        _ => Ok(()),
    }
}

impl GameVisitor for PlayArgs<'_> {
    type Output = Result<ladder::play::Outcome>;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Self::Output {
        let (params, start, referee, opponent) = match self.config {
            Some(path) => {
                let file = ConfigFile::read(path)?;
                let plan = config::plan(&file, roster)?;
                let known: Vec<String> = plan.bots.iter().map(|b| b.name.clone()).collect();
                let Some(bot) = plan.bots.into_iter().find(|b| b.name == self.bot) else {
                    return Err(Error::Usage(format!(
                        "{} has no bot named `{}`; its bots: {}",
                        path.display(),
                        self.bot,
                        known.join(", ")
                    )));
                };
                (plan.params, plan.start, plan.referee, bot)
            }
            None => {
                let (params, start) = plan::default_game::<G>(&self.params)?;
                let bot = plan::command_line_bot(roster, &self.bot, &start, self.sandbox)?;
                let referee = Referee {
                    time: time_control(self.time)?,
                    ..Referee::new(Referee::DEFAULT_MAX_PLIES)
                };
                (params, start, referee, bot)
            }
        };
        ladder::play::play(
            ladder::play::Setup {
                params,
                start,
                referee,
                opponent,
                seat: self.seat,
                games: self.games,
                seed: self.seed,
                reports: self.reports,
            },
            ladder::play::console::Console::stdio(color()),
        )
    }
}
