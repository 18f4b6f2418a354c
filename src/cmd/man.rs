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
    if let Some(dir) = a.dir {
        std::fs::create_dir_all(&dir).map_err(Error::io("creating", &dir))?;
        clap_mangen::generate_to(top, &dir).map_err(Error::io("writing the man pages to", &dir))?;
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
        .render(&mut text)
        .map_err(Error::io("rendering", "the man page"))?;
    out(&String::from_utf8_lossy(&text))
}
