//! `ladder season CONFIG`: play a ladder's next season, then show each
//! division's leaderboard and the ladder.

use ladder::show::Show;
use std::path::{Path, PathBuf};

use ladder::{
    catalog::GameVisitor,
    journal::shard::ShardArg,
    plan::{config::ConfigFile, jobs::Jobs, Roster},
    report::Look,
    run::tournament::Options,
    Error, Result,
};

use super::{game_of, options, out, paint_stdout, summary::print_summary, RunArgs};

/// The options of `ladder season`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The ladder config, e.g. configs/ladder-bidding.toml.
    pub config: PathBuf,
    /// Games at once: up to 1024, far above the core count for slow bot programs, or
    /// `auto` to measure (default: the config's `jobs`, else one per core). Results do
    /// not depend on it.
    #[arg(long, short = 'j', value_name = "N|auto")]
    pub jobs: Option<Jobs>,
    #[command(flatten)]
    pub run: RunArgs,
    /// Play only shard K of N of the next season's divisions (as `run --shard`); after
    /// `ladder merge` on the ladder's folder, `ladder season` finishes the season.
    #[arg(long, value_name = "K/N|auto", conflicts_with = "seasons")]
    pub shard: Option<ShardArg>,
    /// Play this many seasons one after another (the first may be one a
    /// crash interrupted, finished); the last one's leaderboards are shown,
    /// a line for each before it. The config is read again for each, so
    /// bots added to it meanwhile join the next.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub seasons: u32,
}

pub fn run(a: Args) -> Result<()> {
    let opts = options(&a.run, a.jobs, (None, false), a.shard)?;
    for left in (0..a.seasons).rev() {
        ladder_season(&a.config, &opts, left == 0)?;
    }
    Ok(())
}

/// `ladder season CONFIG`: each division's leaderboard, then the ladder
/// (when `whole`; else a line that the season is complete).
fn ladder_season(path: &Path, opts: &Options, whole: bool) -> Result<()> {
    let file = ConfigFile::read(path)?;
    let kind = game_of(&file)?;
    let outcome = kind.visit(PlayLadder { file: &file, opts })?;
    if !whole && outcome.interrupted.is_none() && !outcome.shard_only {
        return out(&format!("Season {} complete.\n", outcome.number));
    }
    for (division, summary) in &outcome.divisions {
        if outcome.divisions.len() > 1 || *division > 1 {
            out(&format!("\nDivision {division}\n"))?;
        }
        print_summary(summary)?;
    }
    if let Some(signal) = outcome.interrupted {
        return Err(Error::Interrupted { signal });
    }
    if outcome.shard_only {
        return out(&format!(
            "\nWhen every shard of season {} is done: ladder merge {}, then ladder season {} \
             to finish the season and move the ladder on.\n",
            outcome.number,
            opts.reports.join(&outcome.state.ladder).display(),
            path.display()
        ));
    }
    out(&format!(
        "\nSeason {} complete.\n\n{}\n{}",
        outcome.number,
        ladder::ladder::table::standings(&outcome.state, Look::Text(paint_stdout())),
        ladder::ladder::table::history(&outcome.state)
    ))
}

struct PlayLadder<'a> {
    file: &'a ConfigFile,
    opts: &'a Options,
}

impl GameVisitor for PlayLadder<'_> {
    type Output = Result<ladder::ladder::season::Outcome>;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Self::Output {
        ladder::ladder::season::play(self.file, roster, self.opts)
    }
}
