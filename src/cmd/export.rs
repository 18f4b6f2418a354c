//! `ladder export DIR --format csv|pgn|ggp`: a season's games in a format
//! other tools read, on stdout or into a file.

use std::path::PathBuf;

use clap::ValueEnum;
use ladder::{Error, Result};

/// The options of `ladder export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The season's folder (reports/<season>, with games.jsonl).
    pub dir: PathBuf,
    /// The format: `csv`, one row per game (index, pair, seats, seed,
    /// result, goals, termination, plies, opening); `pgn`, one PGN game per
    /// game (for Ordo and BayesElo); `ggp`, one GGP match JSON object per
    /// line (GDL games).
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// Write to FILE instead of stdout (`-`: stdout).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `--format` of `ladder export`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    Csv,
    Pgn,
    Ggp,
}

pub fn run(a: Args) -> Result<()> {
    // a season's folder, its season.json checked before anything is written
    let recorded = ladder::journal::recorded::Recorded::read(&a.dir)?;
    // `-o -` is stdout
    let output = a
        .output
        .as_deref()
        .filter(|p| !ladder::core::files::is_standard_stream(p));
    if let Some(path) = output {
        if ladder::journal::is_journal_file(&a.dir, path) {
            return Err(Error::Usage(format!(
                "-o {}: that is the season's own journal, which the export reads; \
                 write the export to another file",
                path.display()
            )));
        }
    }
    let write = |out: &mut dyn std::io::Write| match a.format {
        ExportFormat::Csv => ladder::report::export::csv(&a.dir, out),
        ExportFormat::Pgn => ladder::report::export::pgn(&a.dir, &recorded, out),
        ExportFormat::Ggp => ladder::games::gdl::matches::export(&a.dir, &recorded, out),
    };
    match output {
        None => write(&mut std::io::BufWriter::new(std::io::stdout().lock())),
        // a file replaced whole (a reader never sees half of it); a device
        // or a pipe written into
        Some(path) => ladder::core::files::write_output(path, write),
    }
}
