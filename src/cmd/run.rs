//! `ladder run CONFIG`: play (or resume) the season a config describes,
//! then print its leaderboard.

use ladder::show::Show;
use std::path::{Path, PathBuf};

use ladder::{
    catalog::GameVisitor,
    journal::shard::ShardArg,
    plan::{
        config::{self, ConfigFile},
        jobs::Jobs,
        Roster,
    },
    run::tournament::{self, Options, Summary},
    Result,
};

use super::{game_of, options, summary::finish, RunArgs};

/// The options of `ladder run`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The season config, e.g. configs/breakthrough.toml (keys: docs/CONFIG.md).
    pub config: PathBuf,
    /// Games at once: up to 1024, far above the core count for slow bot programs, or
    /// `auto` to measure (default: the config's `jobs`, else one per core). Results do
    /// not depend on it.
    #[arg(long, short = 'j', value_name = "N|auto")]
    pub jobs: Option<Jobs>,
    /// Discard earlier results of this season instead of resuming.
    #[arg(long)]
    pub fresh: bool,
    #[command(flatten)]
    pub run: RunArgs,
    /// Play at most this many new games now; a later run resumes the rest.
    #[arg(long, value_name = "N")]
    pub max_games: Option<u64>,
    /// Play only shard K of N (K from 1): the colour-swapped game pairs p with
    /// p mod N = K-1, journaled in reports/<season>/shards/K-of-N/; `auto` reads a Slurm
    /// array task's or a Kubernetes Indexed Job's variables (docs/DISTRIBUTED.md).
    /// `ladder merge` joins the shards.
    #[arg(long, value_name = "K/N|auto")]
    pub shard: Option<ShardArg>,
}

pub fn run(a: Args) -> Result<()> {
    let opts = options(&a.run, a.jobs, (a.max_games, a.fresh), a.shard)?;
    run_season(&a.config, opts)
}

/// `ladder run CONFIG`
fn run_season(path: &Path, opts: Options) -> Result<()> {
    let file = ConfigFile::read(path)?;
    if let Some(span) = file.ladder_table()? {
        return Err(file.error(
            Some(span),
            format!(
                "this is a ladder config: play its next season with `ladder season {}`",
                path.display()
            ),
        ));
    }
    let kind = game_of(&file)?;
    let summary = kind.visit(RunConfig {
        file: &file,
        opts: &opts,
    })?;
    finish(&summary)
}

struct RunConfig<'a> {
    file: &'a ConfigFile,
    opts: &'a Options,
}

impl GameVisitor for RunConfig<'_> {
    type Output = Result<Summary>;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Result<Summary> {
        let plan = config::plan(self.file, roster)?;
        tournament::run(&plan, self.opts)
    }
}
