//! ladder's one error type, with kinds a caller can branch on, and the one
//! place where a kind becomes an exit code ([`Error::exit_code`]).
//!
//! In the style of ripgrep and nextest: what went wrong is data (the config's
//! file, line and key; the path of a file that could not be written), and the
//! message is made from it. Lower layers return the small [`Invalid`] for a
//! value that breaks a rule; the layer that knows where the value came from
//! (a config line, a command-line option) wraps it into an [`Error`].

use std::{fmt, io, path::PathBuf};

/// A value that breaks a rule its type cannot express: a game or bot
/// parameter out of range, an unknown name, a command that cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Invalid {
    /// The parameter it belongs to, where there is one (`money`, `max`).
    pub key: Option<String>,
    pub message: String,
}

impl Invalid {
    /// A broken rule with no particular key.
    pub fn new(message: impl Into<String>) -> Self {
        Invalid {
            key: None,
            message: message.into(),
        }
    }

    /// A broken rule of parameter `key`.
    pub fn of(key: &str, message: impl Into<String>) -> Self {
        Invalid {
            key: Some(key.to_string()),
            message: message.into(),
        }
    }
}

/// Where in a config file an error is, and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub file: String,
    /// Line and column (from 1), and the text of that line; `None` for an
    /// error about the file as a whole (two bots missing, say).
    pub at: Option<Position>,
    /// The dotted key at that place (`season.params.money`), if any.
    pub key: Option<String>,
    pub message: String,
}

/// A place in a text file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
    pub text: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(at) = &self.at else {
            return write!(f, "{}: {}", self.file, self.message);
        };
        write!(f, "{}:{}:{}: ", self.file, at.line, at.column)?;
        if let Some(key) = &self.key {
            write!(f, "key `{key}`: ")?;
        }
        // a value of megabytes is shown in part: the place is what matters
        write!(
            f,
            "{}\n{:>5} | {}",
            clip(&self.message, 400),
            at.line,
            clip(&at.text, 200)
        )
    }
}

/// `text` with each line cut to at most `most` characters, for a message
/// that quotes what a user gave (a line of megabytes is shown in part),
/// and its control characters but tabs escaped: a config's value or a
/// file's name quoted in an error may hold an escape sequence, which the
/// terminal would act on.
pub fn clip_lines(text: &str, most: usize) -> String {
    let lines: Vec<_> = text
        .split('\n')
        .map(|line| crate::core::text::harmless_line(&clip(line, most)))
        .collect();
    lines.join("\n")
}

/// At most `most` characters of `text`, with a note of what was left out.
fn clip(text: &str, most: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(most) {
        None => text.into(),
        Some((end, _)) => format!(
            "{}… ({} more characters)",
            &text[..end],
            text[end..].chars().count()
        )
        .into(),
    }
}

/// Everything that can stop a ladder command.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A config file that does not parse or breaks a rule.
    #[error("{0}")]
    Config(Box<ConfigError>),
    /// A bad command line: an unknown game or bot, an option out of range.
    #[error("{0}")]
    Usage(String),
    /// Results on disk that belong to another season; the user must choose
    /// between `--fresh` and another season name.
    #[error("{0}")]
    Mismatch(String),
    /// A file or folder that could not be read or written.
    #[error("{action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        source: io::Error,
    },
    /// A journal line that is not a game record.
    #[error("{}:{line}: not a game record: {message}", path.display())]
    Journal {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// `ladder check` found problems with a bot (listed on stdout).
    #[error("the bot did not pass the check (the problems are listed above)")]
    BotFailed { problems: usize },
    /// The reader of standard output has gone (`ladder list bots | head -1`):
    /// ladder stops quietly, with exit code 0.
    #[error("standard output was closed")]
    ClosedOutput,
    /// The machine refused something ladder needs (a thread, say).
    #[error("{0}")]
    System(String),
    /// `--strict` and a bot that forfeited its games (named above).
    #[error("{0}")]
    Forfeits(String),
    /// A folder another ladder is working in (a season run twice at once).
    #[error("{0}")]
    Busy(String),
    /// A file of ladder's own (`season.json`, `ladder.json`, `shard.json`)
    /// that is not what ladder wrote: its line and what is wrong.
    #[error("{}:{line}: {message}", path.display())]
    Damaged {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// An arena's database that cannot be used: what failed, and why.
    #[error("{}: {message}", path.display())]
    Store { path: PathBuf, message: String },
    /// A signal stopped ladder (SIGINT 2, SIGTERM 15, SIGHUP 1); what was
    /// finished before it is saved.
    #[error(
        "interrupted by signal {signal}: the games finished so far are saved; rerun to resume"
    )]
    Interrupted { signal: i32 },
}

impl Error {
    /// The process exit code for this error: 2 for input the user must fix
    /// (a config, the command line, a season mismatch), 128 + the signal for
    /// an interrupt (130 for Ctrl-C, 143 for SIGTERM), 1 for the rest.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Interrupted { signal } => u8::try_from(128 + signal).unwrap_or(1),
            Error::ClosedOutput => 0,
            Error::Config(_) | Error::Usage(_) | Error::Mismatch(_) => 2,
            Error::Io { .. }
            | Error::Journal { .. }
            | Error::BotFailed { .. }
            | Error::Busy(_)
            | Error::Forfeits(_)
            | Error::Damaged { .. }
            | Error::Store { .. }
            | Error::System(_) => 1,
        }
    }

    /// An I/O error while `action` (`reading`, `writing`, ...) on `path`.
    pub fn io(action: &'static str, path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> Error {
        let path = path.into();
        move |source| Error::Io {
            action,
            path,
            source,
        }
    }
}

impl From<ConfigError> for Error {
    fn from(e: ConfigError) -> Self {
        Error::Config(Box::new(e))
    }
}

/// ladder's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_errors_show_file_line_key_and_text() {
        let e = ConfigError {
            file: "x.toml".into(),
            at: Some(Position {
                line: 5,
                column: 1,
                text: "gams = 4".into(),
            }),
            key: Some("season.gams".into()),
            message: "unknown field `gams`".into(),
        };
        assert_eq!(
            e.to_string(),
            "x.toml:5:1: key `season.gams`: unknown field `gams`\n    5 | gams = 4"
        );
        let whole = ConfigError {
            at: None,
            key: None,
            ..e
        };
        assert_eq!(whole.to_string(), "x.toml: unknown field `gams`");
    }

    #[test]
    fn long_lines_are_cut_each_on_its_own() {
        let text = format!("a `{}`\nshort\n{}", "x".repeat(50), "é".repeat(12));
        assert_eq!(
            clip_lines(&text, 10),
            "a `xxxxxxx… (44 more characters)\nshort\néééééééééé… (2 more characters)"
        );
        assert_eq!(clip_lines("two\nlines", 10), "two\nlines");
        // what the terminal would act on is shown, not sent
        assert_eq!(
            clip_lines("`a\x1b]0;x\x07`\n\tb\r", 100),
            "`a\\u{1b}]0;x\\u{7}`\n\tb\\r"
        );
    }

    #[test]
    fn kinds_map_to_exit_codes() {
        assert_eq!(Error::Usage("x".into()).exit_code(), 2);
        assert_eq!(Error::Mismatch("x".into()).exit_code(), 2);
        let io = Error::io("writing", "/r/x")(io::Error::other("disk full"));
        assert_eq!(io.exit_code(), 1);
        assert_eq!(io.to_string(), "writing /r/x: disk full");
        assert_eq!(Error::BotFailed { problems: 2 }.exit_code(), 1);
        assert_eq!(Error::Interrupted { signal: 2 }.exit_code(), 130);
        assert_eq!(Error::Interrupted { signal: 15 }.exit_code(), 143);
    }
}
