//! `ladder verify DIR`: every game of a season's journal replayed through
//! the rules and checked; of a ladder's folder, every season's.

use ladder::show::Show;
use std::path::{Path, PathBuf};

use ladder::{
    catalog::{GameKind, GameVisitor},
    core::text::count,
    journal::recorded::Recorded,
    journal::verify::Replays,
    plan::Roster,
    Result,
};

use super::out;

/// The options of `ladder verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The season's folder, e.g. reports/breakthrough, or a ladder's (each
    /// of its seasons is verified).
    pub dir: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    if !a.dir.join("ladder.json").exists() {
        return verify(&a.dir);
    }
    let state = ladder::ladder::state::State::load(&a.dir)?
        .ok_or_else(|| ladder::Error::Usage(format!("{}: no ladder.json", a.dir.display())))?;
    let mut verified = 0;
    for season in &state.seasons {
        for d in &season.divisions {
            // a season a crash interrupted has the folders it started
            let folder = a.dir.join(season.folder(d.division));
            if folder.join("season.json").exists() {
                verify(&folder)?;
                verified += 1;
            }
        }
    }
    out(&format!(
        "{}: the ladder's {} verified\n",
        a.dir.display(),
        count(verified, "season folder")
    ))
}

/// `ladder verify DIR`
fn verify(dir: &Path) -> Result<()> {
    let recorded = Recorded::read(dir)?;
    let kind = GameKind::named(&recorded.kind)?;
    let v = kind.visit(VerifyJournal {
        dir,
        recorded: &recorded,
    })?;
    let whose = match v.shard.n {
        1 => String::new(),
        _ => format!(" for shard {} of {}", v.shard.k, v.shard.n),
    };
    out(&format!(
        "{}: {} in schedule order and {} pending, of {} scheduled{whose}: every move legal, every ending, goal and result as recorded\n",
        dir.display(),
        count(v.journaled, "game"),
        v.pending,
        v.scheduled
    ))
}

/// The checker of the recorded season's games.
pub struct SeasonRules<'a> {
    pub recorded: &'a Recorded,
}

impl<'a> GameVisitor for SeasonRules<'a> {
    type Output = Result<Box<dyn Replays + 'a>>;
    fn visit<G: Show>(self, _: &Roster<G>) -> Self::Output {
        ladder::journal::verify::rules::<G>(self.recorded)
    }
}

struct VerifyJournal<'a> {
    dir: &'a Path,
    recorded: &'a Recorded,
}

impl GameVisitor for VerifyJournal<'_> {
    type Output = Result<ladder::journal::verify::Verified>;
    fn visit<G: Show>(self, _: &Roster<G>) -> Self::Output {
        ladder::journal::verify::verify::<G>(self.dir, self.recorded)
    }
}
