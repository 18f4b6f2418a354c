//! `ladder merge DIR`: the shards of a season (or of each season of a
//! ladder) joined into its journal, and its reports written.

use std::path::{Path, PathBuf};

use ladder::{
    catalog::GameKind, journal::recorded::Recorded, journal::verify::Replays,
    plan::config::ConfigFile, Error, Result,
};

use super::{game_of, out, paint_stdout, verify::SeasonRules, LadderDir};

/// The options of `ladder merge`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The season's folder, e.g. reports/troops, or its config (then its folder under
    /// --reports).
    pub dir: PathBuf,
    /// With a config: the folder that holds its season's folder.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    pub reports: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    merge(&a.dir, &a.reports)
}

/// `ladder merge DIR`: the shards of a season (or of each season of a
/// ladder) into its journal and reports.
fn merge(dir: &Path, reports: &Path) -> Result<()> {
    let dir = if dir.extension().is_some_and(|e| e == "toml") && dir.is_file() {
        // a config: its season's (or ladder's) folder
        let file = ConfigFile::read(dir)?;
        let kind = game_of(&file)?;
        kind.visit(LadderDir {
            file: &file,
            reports,
        })?
    } else {
        dir.to_path_buf()
    };
    // every problem with the shards is the user's to fix: exit 2, as
    // docs/DISTRIBUTED.md says (Kubernetes retries a merge until it passes)
    let merged = ladder::journal::merge::merge_all(&dir, &rules, &|m| {
        ladder::report::write_files(&m.dir, &m.header, &m.standings)
    })
    .map_err(|e| match e {
        Error::Io { .. } | Error::Journal { .. } | Error::Damaged { .. } => {
            Error::Mismatch(e.to_string())
        }
        other => other,
    })?;
    let mut text = String::new();
    for m in &merged {
        text.push_str(&ladder::report::terminal(
            &m.header,
            &m.standings,
            paint_stdout(),
        ));
        text.push_str(&format!(
            "\n{} shards merged: {} games in {}\n",
            m.shards,
            m.games,
            m.dir.join("games.jsonl").display()
        ));
    }
    out(&text)
}

/// The checker of a recorded season's games, by its game.
fn rules(recorded: &Recorded) -> Result<Box<dyn Replays + '_>> {
    GameKind::named(&recorded.kind)?.visit(SeasonRules { recorded })
}
