//! `ladder verify DIR`: every game of a season's journal replayed through
//! the rules and checked.

use ladder::show::Show;
use std::path::{Path, PathBuf};

use ladder::{
    catalog::{GameKind, GameVisitor},
    journal::recorded::Recorded,
    plan::Roster,
    Result,
};

use super::out;

/// The options of `ladder verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The season's folder, e.g. reports/breakthrough.
    pub dir: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    verify(&a.dir)
}

/// `ladder verify DIR`
fn verify(dir: &Path) -> Result<()> {
    let recorded = Recorded::read(dir)?;
    let kind = GameKind::named(&recorded.kind)?;
    let v = kind.visit(VerifyJournal {
        dir,
        recorded: &recorded,
    })?;
    out(&format!(
        "{}: {} games in schedule order and {} pending, of {} scheduled: every move legal, every ending, goal and result as recorded\n",
        dir.display(),
        v.journaled,
        v.pending,
        v.scheduled
    ))
}

/// The most a game of the recorded season gives a seat.
pub struct MaxGoal<'a> {
    pub recorded: &'a Recorded,
}

impl GameVisitor for MaxGoal<'_> {
    type Output = Result<i32>;
    fn visit<G: Show>(self, _: &Roster<G>) -> Self::Output {
        ladder::journal::verify::max_goal::<G>(self.recorded)
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
