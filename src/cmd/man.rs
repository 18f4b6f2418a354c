//! `ladder man`: ladder's man page, in roff.

use clap::CommandFactory;
use ladder::{Error, Result};

use super::out;
use crate::cli::Cli;

pub fn run() -> Result<()> {
    let mut text = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut text)
        .map_err(Error::io("rendering", "the man page"))?;
    out(&String::from_utf8_lossy(&text))
}
