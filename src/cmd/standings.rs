//! `ladder standings CONFIG|DIR`: a ladder as it stands and the history of
//! its seasons, without playing.

use std::path::{Path, PathBuf};

use ladder::{plan::config::ConfigFile, report::Look, Error, Result};

use super::{game_of, out, paint_stdout, LadderDir};

/// The options of `ladder standings`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The ladder config, or the ladder's folder (reports/<ladder>).
    pub config: PathBuf,
    /// The folder that holds the ladder's folder.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    pub reports: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    ladder_standings(&a.config, &a.reports)
}

/// `ladder standings CONFIG|DIR`
fn ladder_standings(path: &Path, reports: &Path) -> Result<()> {
    let state = if path.is_dir() {
        ladder::ladder::state::State::load(path)?.ok_or_else(|| {
            Error::Usage(format!(
                "{}: not a ladder's folder (no ladder.json); give the ladder's config, \
                 or its folder as `ladder season` made it (reports/<ladder>)",
                path.display()
            ))
        })?
    } else {
        let file = ConfigFile::read(path)?;
        let kind = game_of(&file)?;
        ladder::ladder::config::settings(&file)?;
        let dir = kind.visit(LadderDir {
            file: &file,
            reports,
        })?;
        ladder::ladder::state::State::load(&dir)?.ok_or_else(|| {
            Error::Usage(format!(
                "{}: no season played yet; play one with `ladder season {}`",
                dir.display(),
                path.display()
            ))
        })?
    };
    out(&format!(
        "{}\n{}",
        ladder::ladder::table::standings(&state, Look::Text(paint_stdout())),
        ladder::ladder::table::history(&state)
    ))
}
