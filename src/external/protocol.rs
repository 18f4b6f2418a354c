//! The line protocol between ladder and an external bot: the text of every
//! message, and the parsing of the bot's answers. No I/O here; `docs/PROTOCOL.md`
//! is the bot author's guide.
//!
//! ```text
//! ladder -> bot   ladder 2 bidding move_ms=1000 length=10 money=100 start=5
//! bot -> ladder   ready
//! ladder -> bot   new seat=1 seed=8411936
//! ladder -> bot   turn position 5 money 100 100 advantage 1
//! bot -> ladder   12
//! ladder -> bot   played 12 15
//!                 ... more turns ...
//! ladder -> bot   over 0 100 loss
//! bot -> ladder   ready
//! ladder -> bot   quit
//! ```
//!
//! Every `turn` gets exactly one answer line, the move in the game's notation,
//! and every `over` the line `ready`: that answer proves every earlier line
//! of the bot has been read, so a line nobody asked for is always found in
//! the game where it was written (version 2).
//! Lines a bot writes that start with `#` are comments: skipped, so a bot can
//! log to stdout without breaking the protocol.

use std::{fmt, str::FromStr};

use crate::core::{
    bot::BadOutput,
    clock::TimeControl,
    game::GameResult,
    seat::{BySeat, Seat},
    text::harmless,
};

/// The protocol version ladder speaks; the first word after `ladder`.
pub const VERSION: u32 = 2;

/// The last message to a bot process.
pub const QUIT: &str = "quit";

/// The first line to a new process: version, game, time per move (and the
/// game clock as `time_control=BASE+INCREMENT` in seconds, when the season
/// has one), and the game's parameters as `key=value` words, in
/// alphabetical order (a string with blanks or quotes as a JSON string).
pub fn hello(game: &str, time: &TimeControl, params: &serde_json::Value) -> String {
    let mut line = format!(
        "ladder {VERSION} {game} move_ms={}",
        time.announced_move_ms()
    );
    if let Some(clock) = time.clock {
        line.push_str(&format!(" time_control={clock}"));
    }
    if let Some(map) = params.as_object() {
        for (key, value) in map {
            match value {
                // a value with blanks (a GDL description) keeps the line one
                // line of words: it is written as a JSON string
                serde_json::Value::String(s)
                    if s.chars()
                        .any(|c| c.is_whitespace() || c.is_control() || c == '"') =>
                {
                    line.push_str(&format!(" {key}={}", serde_json::Value::String(s.clone())))
                }
                serde_json::Value::String(s) => line.push_str(&format!(" {key}={s}")),
                other => line.push_str(&format!(" {key}={other}")),
            }
        }
    }
    line
}

/// Whether a bot's answer to [`hello`] or [`over`] accepts: the word
/// `ready`, optionally followed by anything (a name, a version). A
/// byte-order mark before it is let pass: some runtimes (.NET's UTF-8
/// console) write one before a program's first output.
pub fn is_ready(line: &str) -> bool {
    line.trim_start_matches('\u{feff}')
        .split_whitespace()
        .next()
        == Some("ready")
}

/// The start of a game: the bot's seat (1 or 2) and a seed for its own random numbers.
pub fn new_game(seat: Seat, seed: u64) -> String {
    format!("new seat={} seed={seed}", seat.number())
}

/// A request for a move, carrying everything the seat may see.
pub fn turn(observation: &str) -> String {
    let mut line = String::new();
    write_turn(&mut line, |out| out.push_str(observation));
    line
}

/// Appends [`turn`]'s line to `out`, the observation written by
/// `observation` in place (a move builds no line of its own:
/// [`crate::external::process::Child::send_written`]).
pub fn write_turn(out: &mut String, observation: impl FnOnce(&mut String)) {
    out.push_str("turn ");
    observation(out);
}

/// What each seat played this turn, first seat first; `-` for a seat that did not move.
pub fn played<M: fmt::Display>(moves: &BySeat<Option<M>>) -> String {
    let word = |m: &Option<M>| m.as_ref().map_or("-".to_string(), M::to_string);
    format!("played {} {}", word(&moves.first), word(&moves.second))
}

/// The end of a game: both goals, first seat first, and the result for `seat`.
pub fn over(goals: BySeat<i32>, seat: Seat) -> String {
    let result = GameResult::from_goals(goals);
    let word = match result {
        GameResult::Draw => "draw",
        r if r == GameResult::win(seat) => "win",
        _ => "loss",
    };
    format!("over {} {} {word}", goals.first, goals.second)
}

/// Whether a bot's line is a comment, to be skipped.
pub fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

/// The move in a bot's answer: the line without surrounding blanks. An
/// answer that is not a move says what a move looks like.
/// A move answer and the score a bot may attach to it as its last word:
/// `b2b3 score=-35` gives `b2b3` and -35 (the bot's own judgement, from its
/// side, in hundredths of a point; read by adjudication). A last word that
/// starts with `score=` but is no whole number stays part of the move, which
/// then does not parse.
pub fn split_score(line: &str) -> (&str, Option<i32>) {
    let line = line.trim();
    if let Some((mv, last)) = line.rsplit_once(char::is_whitespace) {
        if let Some(score) = last.strip_prefix("score=").and_then(|v| v.parse().ok()) {
            return (mv.trim_end(), Some(score));
        }
    }
    (line, None)
}

pub fn parse_move<M: FromStr<Err = String>>(line: &str) -> Result<M, BadOutput> {
    let text = line.trim();
    text.parse::<M>().map_err(|why| BadOutput::NotAMove {
        text: harmless(&text.chars().take(80).collect::<String>()),
        // the game's words end by quoting the text again: once is enough
        form: why
            .rsplit_once(", not `")
            .map_or(why.as_str(), |(form, _)| form)
            .to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bidding::{Bid, BiddingParams};
    use std::time::Duration;

    #[test]
    fn a_score_is_the_answers_last_word() {
        assert_eq!(split_score("b2b3 score=-35"), ("b2b3", Some(-35)));
        assert_eq!(split_score("(mark 1 2) score=7"), ("(mark 1 2)", Some(7)));
        assert_eq!(split_score("3,3,4  score=120 "), ("3,3,4", Some(120)));
        assert_eq!(split_score("left"), ("left", None));
        assert_eq!(split_score("b2b3 score=lots"), ("b2b3 score=lots", None));
        assert_eq!(split_score("score=5"), ("score=5", None));
    }

    #[test]
    fn messages() {
        let params = serde_json::to_value(BiddingParams::default()).unwrap();
        let ms = |n| TimeControl::per_move(Duration::from_millis(n));
        assert_eq!(
            hello("somegame", &ms(1000), &params),
            "ladder 2 somegame move_ms=1000 length=10 money=100 start=5"
        );
        let armies = serde_json::json!({"armies": 20, "commit": "spend"});
        assert_eq!(
            hello("armies", &ms(50), &armies),
            "ladder 2 armies move_ms=50 armies=20 commit=spend"
        );
        let clock = TimeControl {
            move_time: None,
            clock: Some("60+0.5".parse().unwrap()),
            ..TimeControl::default()
        };
        assert_eq!(
            hello("armies", &clock, &armies),
            "ladder 2 armies move_ms=60000 time_control=60+0.5 armies=20 commit=spend"
        );
        assert_eq!(new_game(Seat::Second, 42), "new seat=2 seed=42");
        assert_eq!(turn("position 5"), "turn position 5");
        assert_eq!(
            played(&BySeat::new(Some(Bid(3)), Some(Bid(4)))),
            "played 3 4"
        );
        assert_eq!(played(&BySeat::new(None, Some("b2c3"))), "played - b2c3");
        assert_eq!(over(BySeat::new(0, 100), Seat::First), "over 0 100 loss");
        assert_eq!(over(BySeat::new(0, 100), Seat::Second), "over 0 100 win");
        assert_eq!(over(BySeat::new(75, 75), Seat::Second), "over 75 75 draw");
    }

    #[test]
    fn answers() {
        assert!(is_ready("ready"));
        assert!(is_ready("ready mybot 0.3"));
        assert!(is_ready("\u{feff}ready"));
        assert!(!is_ready("READY"));
        assert!(!is_ready(""));
        assert!(is_comment("# thinking"));
        assert!(is_comment("   #x"));
        assert!(!is_comment("12"));
        assert_eq!(parse_move::<Bid>(" 12 \r"), Ok(Bid(12)));
        assert_eq!(
            parse_move::<Bid>("twelve").unwrap_err().to_string(),
            "`twelve` is not a move: a bid is a whole number like `12`"
        );
    }
}
