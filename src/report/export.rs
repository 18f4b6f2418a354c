//! Exports of a season's games for other tools: `ladder export DIR --format
//! csv` writes one row per game, for pandas and spreadsheets. The journal
//! is streamed, so a season of any size costs the memory of one game.

use std::io::Write;
use std::path::Path;

use crate::{
    core::{error::Error, game::GameResult},
    journal::{self, GAMES},
    Result,
};

/// The CSV header: what each row holds, in order.
pub const CSV_COLUMNS: &str =
    "index,pair,first,second,seed,result,goal1,goal2,termination,plies,opening";

/// Writes the games of the season folder `dir` to `out` as CSV, and flushes
/// it: one row per game in journal order, `result` as `first`, `second` or
/// `draw`, the termination as the leaderboard counts it (`normal`,
/// `forfeit: timeout`), and the opening empty when the game started from
/// the usual position. A reader that has gone is [`Error::ClosedOutput`].
pub fn csv(dir: &Path, out: &mut dyn Write) -> Result<()> {
    let path = dir.join(GAMES);
    let written = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::BrokenPipe => Error::ClosedOutput,
        _ => Error::io("writing", "the export")(e),
    };
    writeln!(out, "{CSV_COLUMNS}").map_err(written)?;
    journal::for_each_record(&path, |_, r| {
        let result = match r.result {
            GameResult::First => "first",
            GameResult::Second => "second",
            GameResult::Draw => "draw",
        };
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{}",
            r.index,
            r.pair,
            field(&r.seats.first),
            field(&r.seats.second),
            r.seed,
            result,
            r.goals.first,
            r.goals.second,
            field(r.termination.kind()),
            r.plies,
            field(r.opening.as_deref().unwrap_or("")),
        )
        .map_err(written)
    })?;
    out.flush().map_err(written)
}

/// One CSV field: quoted (with `"` doubled) when it holds a comma, a quote,
/// a line end or blanks at either end, as RFC 4180 and pandas read it.
fn field(text: &str) -> String {
    let plain = !text.contains([',', '"', '\n', '\r']) && text.trim() == text;
    if plain {
        text.to_string()
    } else {
        format!("\"{}\"", text.replace('"', "\"\""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_only_when_they_must_be() {
        assert_eq!(field("random"), "random");
        assert_eq!(field("forfeit: timeout"), "forfeit: timeout");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field(" x"), "\" x\"");
        assert_eq!(field(""), "");
    }
}
