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
        // clap's text starts `error: `, which ladder's own report of the error adds
        Err(e) => {
            let text = e.to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            Err(Error::Usage(text.trim_end().to_string()))
        }
    }
}

/// A solver's figure with round-off below `below` printed as 0, so the
/// output does not show `-0.000` or `1.7e-16` for an exact 0.
pub fn round_off(x: f64, below: f64) -> f64 {
    if x.abs() < below {
        0.0
    } else {
        x
    }
}
