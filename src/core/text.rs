//! Counts in the words a person reads: `1 game`, `2 games`, `1 batch`,
//! `3 batches`. One place, so that every message, report and page says
//! `1 game played now` rather than `1 games`.

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

#[cfg(test)]
mod tests {
    use super::count;

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
