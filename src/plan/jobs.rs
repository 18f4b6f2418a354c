//! How many games a season plays at once: the `jobs` key and `--jobs`, a
//! number or `auto` ([`crate::run::concurrency`] judges `auto` while the
//! season runs).

use std::{fmt, str::FromStr};

use crate::core::error::Invalid;

/// The most games a season may play at once (`jobs`, `--jobs`). Each costs a
/// thread, up to two bot processes and six open files: 1024 games of two
/// small compiled bots take about 2 GiB of memory and 6,200 open files.
pub const MAX_JOBS: u32 = 1024;

/// How many games to play at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jobs {
    /// Exactly this many.
    Fixed(usize),
    /// One per core for in-process bots; measured while the season runs
    /// when bot programs play ([`Auto`]).
    Auto,
}

impl FromStr for Jobs {
    type Err = Invalid;

    fn from_str(s: &str) -> std::result::Result<Self, Invalid> {
        if s == "auto" {
            return Ok(Jobs::Auto);
        }
        match s.parse::<u64>() {
            Ok(n) if (1..=u64::from(MAX_JOBS)).contains(&n) => Ok(Jobs::Fixed(n as usize)),
            _ => Err(Invalid::new(format!(
                "jobs is a number of games at once, 1..={MAX_JOBS}, or `auto`; got `{s}`"
            ))),
        }
    }
}

impl fmt::Display for Jobs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Jobs::Fixed(n) => write!(f, "{n}"),
            Jobs::Auto => f.write_str("auto"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_are_a_count_or_auto() {
        assert_eq!("8".parse::<Jobs>().unwrap(), Jobs::Fixed(8));
        assert_eq!("auto".parse::<Jobs>().unwrap(), Jobs::Auto);
        assert_eq!("1024".parse::<Jobs>().unwrap(), Jobs::Fixed(1024));
        for bad in ["0", "1025", "-1", "many", ""] {
            let e = bad.parse::<Jobs>().unwrap_err().to_string();
            assert!(e.contains("1..=1024, or `auto`"), "{bad}: {e}");
        }
        assert_eq!(Jobs::Auto.to_string(), "auto");
    }
}
