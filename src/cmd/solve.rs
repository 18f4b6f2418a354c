//! `ladder solve GAME [OPTIONS]`: the game's own solver command, named by
//! its catalogue entry.

use ladder::{
    catalog::{self, GameKind},
    Error, Result,
};

use super::out;

/// The options of `ladder solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game to solve.
    pub game: String,
    /// The game's own options.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "OPTIONS"
    )]
    pub args: Vec<String>,
}

pub fn run(a: Args) -> Result<()> {
    solve(&a.game, &a.args)
}

/// `ladder solve GAME [OPTIONS]`: the game's own solver command.
fn solve(game: &str, args: &[String]) -> Result<()> {
    let kind = GameKind::named(game)?;
    let solve = kind
        .solve()
        .ok_or_else(|| Error::Usage(catalog::no_solver(game)))?;
    out(&solve(args)?)
}
