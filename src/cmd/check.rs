//! `ladder check -- COMMAND...`: a conformance test of a bot program; exits
//! 1 when the bot has problems.

use ladder::show::Show;
use ladder::{
    catalog::{GameKind, GameVisitor},
    check,
    core::clock::TimeControl,
    external::{self, process::Sandbox},
    plan::{self, Roster},
    Error, Result,
};

use super::{out, sandbox_of, time_control, SandboxArg, TimeArgs};

/// The options of `ladder check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game the bot plays (`hackerrank` bots play bidding).
    #[arg(long)]
    pub game: Option<String>,
    /// How ladder talks to the bot: `line`, `ggp` (a GGP player over HTTP; put `{port}` in its arguments), or a game's own protocol (`hackerrank`).
    #[arg(long, default_value = "line")]
    pub protocol: String,
    /// Games to play against `random`.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub games: u32,
    #[command(flatten)]
    pub time: TimeArgs,
    /// Where the bot runs: bwrap's sandbox, none, or bwrap when it works here (docs/SECURITY.md).
    #[arg(long, value_enum, default_value_t = SandboxArg::Auto)]
    pub sandbox: SandboxArg,
    /// The bot's program and arguments, after `--`.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

pub fn run(a: Args) -> Result<()> {
    let sandbox = sandbox_of(a.sandbox)?;
    check_bot(
        a.game.as_deref(),
        &a.protocol,
        a.games,
        &a.time,
        sandbox,
        &a.command,
    )
}

/// `ladder check -- COMMAND...`: exits 1 when the bot has problems.
fn check_bot(
    game: Option<&str>,
    protocol: &str,
    games: u32,
    time: &TimeArgs,
    sandbox: Sandbox,
    argv: &[String],
) -> Result<()> {
    let (kind, params) = match game {
        Some(name) => GameKind::with_params(name)?,
        None => match GameKind::speaking(protocol).as_slice() {
            [only] if protocol != "line" => (*only, toml::Table::new()),
            [] => {
                return Err(Error::Usage(format!(
                    "no game speaks the protocol `{protocol}`"
                )))
            }
            _ => {
                return Err(Error::Usage(
                    "which game does the bot play? add --game GAME (see `ladder list games`)"
                        .into(),
                ))
            }
        },
    };
    let report = kind.visit(CheckBot {
        params,
        argv,
        protocol,
        time: time_control(time)?,
        sandbox,
        games,
    })?;
    out(&report.render())?;
    if report.problems() > 0 {
        return Err(Error::BotFailed {
            problems: report.problems(),
        });
    }
    Ok(())
}

struct CheckBot<'a> {
    /// The parameters the game's name carries (`gdl:FILE`).
    params: toml::Table,
    argv: &'a [String],
    protocol: &'a str,
    time: TimeControl,
    sandbox: Sandbox,
    games: u32,
}

impl GameVisitor for CheckBot<'_> {
    type Output = Result<check::CheckReport>;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Self::Output {
        let protocol = roster
            .protocol(self.protocol)
            .map_err(|e| Error::Usage(e.to_string()))?;
        let command = external::Command::resolve(
            self.argv,
            None,
            std::path::Path::new(""),
            protocol.own_dir,
            self.sandbox,
        )
        .map_err(|e| Error::Usage(e.to_string()))?;
        command
            .check_script(&self.argv[0])
            .map_err(|e| Error::Usage(e.to_string()))?;
        let (params, start) = plan::default_game::<G>(&self.params)?;
        check::check(&start, &params, &command, protocol, &self.time, self.games)
    }
}
