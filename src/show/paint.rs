//! Colour on a terminal, plain text everywhere else: the one place that
//! decides whether ladder's output carries ANSI colours (`--color
//! auto|always|never`, `NO_COLOR`), and the few marks it uses.
//!
//! Files ladder writes (journals, reports) never carry colour; only what it
//! prints to a terminal does: tables, the progress bar, `ladder play`'s
//! board, and the word `error:`.

use std::io::IsTerminal;

/// `--color`: when ladder's output may carry colour.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum ColorChoice {
    /// Colour when the output is a terminal and `NO_COLOR` is unset or
    /// empty (<https://no-color.org>). The default.
    #[default]
    Auto,
    /// Colour even into a pipe or a file, and despite `NO_COLOR`.
    Always,
    /// Never colour.
    Never,
}

/// How text is marked: ANSI colours where the [`ColorChoice`] wants them,
/// plain text otherwise.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Paint {
    pub color: bool,
}

impl Paint {
    /// Plain text.
    pub const PLAIN: Paint = Paint { color: false };

    /// Colour for an output that is (or is not) a terminal, under `choice`.
    pub fn choose(choice: ColorChoice, is_terminal: bool) -> Paint {
        // NO_COLOR (no-color.org), and a terminal that says it has no colour
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
            || std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        Paint {
            color: match choice {
                ColorChoice::Always => true,
                ColorChoice::Never => false,
                ColorChoice::Auto => is_terminal && !no_color,
            },
        }
    }

    /// The paint for standard output under `choice`.
    pub fn stdout(choice: ColorChoice) -> Paint {
        Paint::choose(choice, std::io::stdout().is_terminal())
    }

    /// The paint for standard error under `choice`.
    pub fn stderr(choice: ColorChoice) -> Paint {
        Paint::choose(choice, std::io::stderr().is_terminal())
    }

    fn wrap(self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// Headings and prompts.
    pub fn bold(self, text: &str) -> String {
        self.wrap("1", text)
    }

    /// The person's own things (their pieces, their name).
    pub fn mine(self, text: &str) -> String {
        self.wrap("1;36", text)
    }

    /// The opponent's things.
    pub fn theirs(self, text: &str) -> String {
        self.wrap("1;31", text)
    }

    /// What changed last (the squares of the last move).
    pub fn mark(self, text: &str) -> String {
        self.wrap("1;43;30", text)
    }

    /// Less important text (hints, empty squares).
    pub fn dim(self, text: &str) -> String {
        self.wrap("2", text)
    }

    /// Something to fix (bad input), and warnings.
    pub fn warn(self, text: &str) -> String {
        self.wrap("1;33", text)
    }

    /// A failure: the word `error:`.
    pub fn error(self, text: &str) -> String {
        self.wrap("1;31", text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn always_and_never_ignore_the_terminal() {
        for terminal in [false, true] {
            assert!(Paint::choose(ColorChoice::Always, terminal).color);
            assert!(!Paint::choose(ColorChoice::Never, terminal).color);
        }
        // auto off a terminal: plain whatever NO_COLOR says
        assert!(!Paint::choose(ColorChoice::Auto, false).color);
    }

    #[test]
    fn marks_are_plain_without_colour() {
        assert_eq!(Paint::PLAIN.error("error:"), "error:");
        assert_eq!(
            Paint { color: true }.error("error:"),
            "\x1b[1;31merror:\x1b[0m"
        );
    }
}
