//! `ladder solve GAME [OPTIONS]`: the game's own solver command, named by
//! its catalogue entry.

use ladder::{
    catalog::{self, GameKind},
    Error, Result,
};

use super::out;

/// The options of `ladder solve`. `--help` after a game's name shows that
/// game's options, so clap's own help flag is replaced by one that does.
/// GAME may be left out only for that help, so the usage says it as the
/// error for a missing GAME does (clap's own would show `[GAME]`).
#[derive(Debug, clap::Args)]
#[command(
    disable_help_flag = true,
    override_usage = "ladder solve <GAME> [OPTIONS]..."
)]
pub struct Args {
    /// Print help; after GAME, that game's options (`ladder solve bidding --help`).
    #[arg(short = 'h', long = "help", action = clap::ArgAction::SetTrue)]
    pub help: bool,
    /// The game to solve.
    #[arg(required_unless_present = "help")]
    pub game: Option<String>,
    /// The game's own options.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "OPTIONS"
    )]
    pub args: Vec<String>,
}

pub fn run(a: Args) -> Result<()> {
    match (a.game, a.help) {
        (Some(game), false) => solve(&game, &a.args),
        // the game's own help: its options
        (Some(game), true) => solve(&game, &["--help".to_string()]),
        (None, _) => {
            use clap::CommandFactory;
            let mut cli = crate::cli::Cli::command();
            cli.build();
            let solve = cli
                .find_subcommand_mut("solve")
                .expect("solve is a subcommand");
            out(&format!("{}\n", solve.render_long_help()))
        }
    }
}

/// `ladder solve GAME [OPTIONS]`: the game's own solver command.
fn solve(game: &str, args: &[String]) -> Result<()> {
    // `gdl:FILE.kif` names a GDL game, which has no solver
    let (kind, _) = GameKind::with_params(game)?;
    let solve = kind
        .solve()
        .ok_or_else(|| Error::Usage(catalog::no_solver(game)))?;
    out(&solve(args)?)
}
