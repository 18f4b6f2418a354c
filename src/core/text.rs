//! Words a person reads: counts (`1 game`, `2 games`, `1 batch`,
//! `3 batches`), one place, so that every message, report and page says
//! `1 game played now` rather than `1 games`; and a bot's words quoted
//! in a message, their control characters made harmless.

use std::fmt::Display;

/// `n` and `noun`, the noun plural unless `n` is one: `es` after a noun
/// ending in `s`, `x`, `ch` or `sh` (`batch`, `batches`), `s` otherwise.
pub fn count(n: impl Display, noun: &str) -> String {
    let n = n.to_string();
    if n == "1" {
        return format!("1 {noun}");
    }
    let es = ["s", "x", "ch", "sh"].iter().any(|end| noun.ends_with(end));
    format!("{n} {noun}{}", if es { "es" } else { "s" })
}

/// `text` (a bot's words, quoted in a message) with every control
/// character written as an escape (`\u{1b}`): ladder prints such messages
/// to the user's terminal, where an escape sequence from a bot would act
/// (clear the screen, retitle the window, set the clipboard).
pub fn harmless(text: &str) -> String {
    escaped(text, |_| false)
}

/// One line of a message ladder prints (an error quoting a config's value
/// or line, a file's name): [`harmless`], but a tab stays a tab.
pub fn harmless_line(text: &str) -> String {
    escaped(text, |c| c == '\t')
}

fn escaped(text: &str, keep: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && !keep(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{count, harmless, harmless_line};

    #[test]
    fn a_bots_control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(harmless("3,3,4"), "3,3,4");
        assert_eq!(harmless("é ü 𝄞"), "é ü 𝄞");
        assert_eq!(
            harmless("\x1b[2J\x1b]52;c;ZWNobw==\x07\t\u{9b}x\u{7f}"),
            "\\u{1b}[2J\\u{1b}]52;c;ZWNobw==\\u{7}\\t\\u{9b}x\\u{7f}"
        );
        assert_eq!(harmless_line("a\tb\x1b[2J\r"), "a\tb\\u{1b}[2J\\r");
    }

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        let table = [
            (0u64, "game", "0 games"),
            (1, "game", "1 game"),
            (2, "game", "2 games"),
            (11, "move", "11 moves"),
            (1, "batch", "1 batch"),
            (7, "batch", "7 batches"),
            (2, "bot", "2 bots"),
            (3, "box", "3 boxes"),
        ];
        for (n, noun, want) in table {
            assert_eq!(count(n, noun), want);
        }
        assert_eq!(count(1usize, "round"), "1 round");
        assert_eq!(count(1_000_000u32, "game"), "1000000 games");
    }
}
