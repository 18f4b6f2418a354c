//! `ladder report PATH`: a season's or a ladder's reports rendered again
//! from its journals, without playing.

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use ladder::{
    catalog::{GameKind, GameVisitor},
    core::text::count,
    plan::Roster,
    report::{Look, ReportFormat},
    show::Show,
    Result,
};

use super::{out, paint_stdout};

/// The options of `ladder report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The season's or ladder's folder.
    pub path: PathBuf,
    /// Only this kind of report (default: all).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Also write every game's replay page (`replays/N.html`, and `replays/index.html`
    /// listing them), which open from the disk; the season's index.html links to them.
    #[arg(long)]
    pub replays: bool,
}

/// `--format` of `ladder report`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    Md,
    Csv,
    Json,
    Html,
}

impl FormatArg {
    pub fn format(self) -> ReportFormat {
        match self {
            FormatArg::Md => ReportFormat::Markdown,
            FormatArg::Csv => ReportFormat::Csv,
            FormatArg::Json => ReportFormat::Json,
            FormatArg::Html => ReportFormat::Html,
        }
    }
}

pub fn run(a: Args) -> Result<()> {
    if a.replays {
        // a ladder's folder is refused here, naming a division to give
        let recorded = ladder::journal::recorded::Recorded::read(&a.path)?;
        let kind = GameKind::named(&recorded.kind)?;
        let games = kind.visit(Replays(&a.path))?;
        eprintln!(
            "wrote {games} replay pages in {}",
            a.path.join(ladder::web::replays::FOLDER).display()
        );
    }
    report(&a.path, a.format)
}

struct Replays<'a>(&'a Path);

impl GameVisitor for Replays<'_> {
    type Output = Result<u64>;
    fn visit<G: Show>(self, _: &Roster<G>) -> Self::Output {
        ladder::web::replays::write::<G>(self.0)
    }
}

/// `ladder report PATH`: a season's or a ladder's reports again.
fn report(path: &Path, format: Option<FormatArg>) -> Result<()> {
    let formats: Vec<ReportFormat> = match format {
        Some(f) => vec![f.format()],
        None => ReportFormat::ALL.to_vec(),
    };
    if path.join("ladder.json").exists() {
        let seasons = ladder::ladder::season::rerender(path, &formats)?;
        let state = ladder::ladder::state::State::load(path)?.expect("read just now");
        return out(&format!(
            "{}\nReports of {} and the ladder rendered again in {}\n",
            ladder::ladder::table::standings(&state, Look::Text(paint_stdout())),
            count(seasons, "season folder"),
            path.display()
        ));
    }
    let (header, standings) = ladder::report::rerender(path, &formats)?;
    out(&format!(
        "{}\nReports rendered again in {}\n",
        ladder::report::terminal(&header, &standings, paint_stdout()),
        path.display()
    ))
}
