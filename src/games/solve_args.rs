//! The command line of a game's `ladder solve GAME ARGS...`: each game's
//! solver parses its own options with clap, through this one function.

use clap::Parser;

use crate::core::error::Error;

/// The parsed options, or the text `--help` / `--version` asked for.
pub enum Parsed<A> {
    Args(A),
    Help(String),
}

/// Parses `args` (the words after the game's name) for the command `name`
/// (`ladder solve troops`).
pub fn parse<A: Parser>(name: &str, args: &[String]) -> Result<Parsed<A>, Error> {
    let words = std::iter::once(name.to_string()).chain(args.iter().cloned());
    match A::try_parse_from(words) {
        Ok(a) => Ok(Parsed::Args(a)),
        Err(e) if !e.use_stderr() => Ok(Parsed::Help(e.to_string())),
        Err(e) => Err(Error::Usage(e.to_string().trim_end().to_string())),
    }
}
