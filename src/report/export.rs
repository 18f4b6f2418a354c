//! Exports of a season's games for other tools: `ladder export DIR --format
//! csv` writes one row per game, for pandas and spreadsheets; `--format pgn`
//! one PGN game per game, so Ordo, BayesElo and any PGN reader can rate a
//! season. The journal is streamed, so a season of any size costs the
//! memory of one game. (The GGP match JSON of GDL games is written where
//! GDL lives: `games/gdl/matches.rs`.)

use std::io::Write;
use std::path::Path;

use crate::{
    core::{
        error::Error,
        game::GameResult,
        record::{Record, Turn},
    },
    journal::{self, recorded::Recorded},
    Result,
};

/// The CSV header: what each row holds, in order.
pub const CSV_COLUMNS: &str =
    "index,pair,first,second,seed,result,goal1,goal2,termination,plies,opening";

/// Writes the games of the season folder `dir` to `out` as CSV, and flushes
/// it: one row per game ([`journal::for_each_game`]: `games.jsonl` in
/// schedule order, then the games of an unfinished season waiting in
/// `pending.jsonl`), `result` as `first`, `second` or
/// `draw`, the termination as the leaderboard counts it (`normal`,
/// `forfeit: timeout`), and the opening empty when the game started from
/// the usual position. A reader that has gone is [`Error::ClosedOutput`].
pub fn csv(dir: &Path, out: &mut dyn Write) -> Result<()> {
    writeln!(out, "{CSV_COLUMNS}").map_err(written)?;
    journal::for_each_game(dir, |_, _, r| {
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

/// `io::Error` of writing an export as ladder's error: a reader that has
/// gone is [`Error::ClosedOutput`].
pub fn written(e: std::io::Error) -> Error {
    match e.kind() {
        std::io::ErrorKind::BrokenPipe => Error::ClosedOutput,
        _ => Error::io("writing", "the export")(e),
    }
}

/// Writes the games of the season folder `dir` (its `season.json` read as
/// `recorded`) to `out` as PGN, and flushes it: per game the seven standard
/// tags (`Event` the season, `Site` ladder, `Date` unknown as `????.??.??`
/// since the journal keeps no dates, `Round` the game's index from 1,
/// `White` the first seat, `Black` the second, `Result`), then `Game`,
/// `Termination`, `Seed` and `Plies`; the moves in ladder's notation in a
/// comment (they are no chess moves), and the result: `1-0`, `0-1` or
/// `1/2-1/2` as the standings count it.
pub fn pgn(dir: &Path, recorded: &Recorded, out: &mut dyn Write) -> Result<()> {
    journal::for_each_game(dir, |_, _, r| {
        out.write_all(pgn_game(&recorded.name, &recorded.game, &r).as_bytes())
            .map_err(written)
    })?;
    out.flush().map_err(written)
}

/// One game as PGN, with a blank line after it.
fn pgn_game(season: &str, game: &str, r: &Record) -> String {
    let result = match r.result {
        GameResult::First => "1-0",
        GameResult::Second => "0-1",
        GameResult::Draw => "1/2-1/2",
    };
    let round = (r.index + 1).to_string();
    let seed = r.seed.to_string();
    let plies = r.plies.to_string();
    let tags = [
        ("Event", season),
        ("Site", "ladder"),
        ("Date", "????.??.??"),
        ("Round", &round),
        ("White", &r.seats.first),
        ("Black", &r.seats.second),
        ("Result", result),
        ("Game", game),
        ("Termination", r.termination.kind()),
        ("Seed", &seed),
        ("Plies", &plies),
    ];
    let mut text = String::new();
    for (tag, value) in tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        text.push_str(&format!("[{tag} \"{value}\"]\n"));
    }
    let moves: Vec<String> = r
        .moves
        .iter()
        .map(|t| match t {
            Turn::One(m) => m.clone(),
            Turn::Both(b) => format!("{}|{}", b.first, b.second),
        })
        .collect();
    text.push('\n');
    if !moves.is_empty() {
        // a comment ends at the first `}`, which no move of ladder's holds
        text.push_str(&format!("{{ {} }} ", moves.join(" ").replace('}', ")")));
    }
    text.push_str(result);
    text.push_str("\n\n");
    text
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
