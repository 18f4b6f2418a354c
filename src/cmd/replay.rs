//! `ladder replay JOURNAL --game N`: one journaled game, move by move, with
//! the position drawn after each turn.

use ladder::show::Show;
use std::path::{Path, PathBuf};

use ladder::{
    catalog::{GameKind, GameVisitor},
    journal::recorded::Recorded,
    plan::Roster,
    Result,
};

use super::out;

/// The options of `ladder replay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A season's journal (games.jsonl) or its folder.
    pub journal: PathBuf,
    /// The game's index in the schedule (the journal's `index`).
    #[arg(long, value_name = "N")]
    pub game: u64,
}

pub fn run(a: Args) -> Result<()> {
    replay(&a.journal, a.game)
}

/// `ladder replay JOURNAL --game N`
fn replay(journal: &Path, index: u64) -> Result<()> {
    if !journal.exists() {
        return Err(ladder::Error::Usage(format!(
            "{}: no such season folder or journal",
            journal.display()
        )));
    }
    let dir = if journal.is_dir() {
        journal
    } else {
        journal.parent().unwrap_or(Path::new("."))
    };
    let recorded = Recorded::read(dir)?;
    let record = ladder::journal::replay::find(journal, index)?;
    let kind = GameKind::named(&recorded.kind)?;
    let text = kind.visit(ReplayGame {
        recorded: &recorded,
        record: &record,
    })?;
    out(&text)
}

struct ReplayGame<'a> {
    recorded: &'a Recorded,
    record: &'a ladder::core::record::Record,
}

impl GameVisitor for ReplayGame<'_> {
    type Output = Result<String>;
    fn visit<G: Show>(self, _: &Roster<G>) -> Self::Output {
        ladder::journal::replay::replay::<G>(self.recorded, self.record)
    }
}
