//! `ladder completions SHELL`: a shell's completion script.

use clap::CommandFactory;
use ladder::Result;

use super::out;
use crate::cli::Cli;

/// The options of `ladder completions`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

pub fn run(a: Args) -> Result<()> {
    let mut text = Vec::new();
    clap_complete::generate(a.shell, &mut Cli::command(), "ladder", &mut text);
    out(&String::from_utf8_lossy(&text))
}
