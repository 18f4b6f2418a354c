//! `ladder man`: ladder's man pages, in roff: the top page (ladder(1)), one
//! subcommand's (`ladder man arena run` is ladder-arena-run(1)), or every
//! page into a folder (`--dir`), as the top page's SEE ALSO lists them.

use std::path::PathBuf;

use clap::CommandFactory;
use ladder::{Error, Result};

use super::out;
use crate::cli::Cli;

/// The options of `ladder man`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The subcommand whose page to print (`run`, `arena run`); none: the top page.
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
    /// Write every page (ladder.1, ladder-run.1, ladder-arena-run.1, ...) into DIR.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub dir: Option<PathBuf>,
}

pub fn run(a: Args) -> Result<()> {
    let mut top = Cli::command().disable_help_subcommand(true);
    top.build();
    // every page names ladder's version as its source, as the top page does
    // (a subcommand has no version of its own: its page would say "run ")
    let source = format!("ladder {}", top.get_version().unwrap_or_default());
    if let Some(dir) = a.dir {
        std::fs::create_dir_all(&dir).map_err(Error::io("creating", &dir))?;
        write_all(top, &source, &dir).map_err(Error::io("writing the man pages to", &dir))?;
        return out(&format!("man pages written to {}\n", dir.display()));
    }
    let mut page = top;
    for word in &a.command {
        let Some(sub) = page.find_subcommand(word).cloned() else {
            let known: Vec<&str> = page
                .get_subcommands()
                .filter(|s| !s.is_hide_set())
                .map(|s| s.get_name())
                .collect();
            return Err(Error::Usage(format!(
                "ladder man: `{}` has no subcommand `{word}` (it has: {})",
                page.get_display_name().unwrap_or(page.get_name()),
                known.join(", ")
            )));
        };
        page = sub;
    }
    let mut text = Vec::new();
    clap_mangen::Man::new(page)
        .source(source)
        .render(&mut text)
        .map_err(Error::io("rendering", "the man page"))?;
    out(&String::from_utf8_lossy(&text))
}

/// Writes the page of `cmd` and of each of its subcommands that is not
/// hidden into `dir`, each named as the top page's SEE ALSO names it.
fn write_all(cmd: clap::Command, source: &str, dir: &std::path::Path) -> std::io::Result<()> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_all(sub.clone(), source, dir)?;
    }
    clap_mangen::Man::new(cmd)
        .source(source)
        .generate_to(dir)
        .map(|_| ())
}
