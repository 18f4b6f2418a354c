//! The person at the keyboard, as a [`Bot`]: the referee asks them for moves
//! like any bot, and they see each position drawn for their seat
//! ([`Show::scene`]).
//!
//! Bad input (not a move, an illegal move) is explained and asked again; it
//! never forfeits. `help` explains the move; `quit` (or the end of input, or
//! Ctrl-C) ends the session: the game in progress fails as ladder's own
//! failure ([`BotError::Harness`]), so the referee records nothing for it and
//! charges no one. The referee's clock does not apply to a person
//! ([`Bot::timed`]).

use crate::show::Show;
use crate::{
    core::{
        bot::{Answer, Bot, BotError},
        clock::TimeLeft,
        seat::{BySeat, Seat},
    },
    play::console::{lock, Shared, Stop},
    show::scene::View,
};

/// What the person types to leave.
const QUIT: [&str; 3] = ["quit", "exit", "q"];
/// What the person types for help.
const HELP: [&str; 2] = ["help", "?"];

/// The harness failure that abandons the game in progress when the person leaves.
pub const LEFT: &str = "the person left the session";

/// The width help text is wrapped to.
const WIDTH: usize = 78;

/// `text` as a move, also written as a person may write a list of numbers:
/// `3 3 4` or `3, 3, 4` for `3,3,4` (a bot's line must be exact).
fn parse_typed<M: std::str::FromStr>(text: &str) -> Result<M, M::Err> {
    text.parse().or_else(|why| {
        let words: Vec<&str> = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .collect();
        let numbers =
            words.len() > 1 && words.iter().all(|w| w.bytes().all(|b| b.is_ascii_digit()));
        if numbers {
            words.join(",").parse().map_err(|_| why)
        } else {
            Err(why)
        }
    })
}

/// `text` with every line longer than `width` broken at spaces.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.len() <= width {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let mut current = String::new();
        for word in line.split(' ') {
            if !current.is_empty() && current.len() + 1 + word.len() > width {
                out.push_str(current.trim_end());
                out.push('\n');
                current.clear();
            } else if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        out.push_str(&current);
        out.push('\n');
    }
    out
}

/// A person playing one game.
pub struct Human<G: Show> {
    console: Shared,
    /// The names of the person (`human`) and of their opponent.
    me: String,
    opponent: String,
    seat: Seat,
    turns: Vec<BySeat<Option<G::Move>>>,
    /// The position before the latest turn, for what a turn did
    /// ([`Show::turn_note`]: a capture).
    before: Option<G>,
}

impl<G: Show> Human<G> {
    pub fn new(console: Shared, me: &str, opponent: &str) -> Self {
        Human {
            console,
            me: me.to_string(),
            opponent: opponent.to_string(),
            seat: Seat::First,
            turns: Vec::new(),
            before: None,
        }
    }

    fn names(&self) -> BySeat<&str> {
        match self.seat {
            Seat::First => BySeat::new(self.me.as_str(), self.opponent.as_str()),
            Seat::Second => BySeat::new(self.opponent.as_str(), self.me.as_str()),
        }
    }

    /// The position drawn for the person.
    fn scene(&self, game: &G) -> String {
        let console = lock(&self.console);
        game.scene(&View {
            seat: self.seat,
            names: self.names(),
            turns: &self.turns,
            paint: console.paint,
        })
    }
}

impl<G: Show> Bot<G> for Human<G> {
    fn new_game(&mut self, game: &G, seat: Seat, _seed: u64) -> Result<(), BotError> {
        self.seat = seat;
        self.turns.clear();
        self.before = Some(game.clone());
        Ok(())
    }

    fn choose(
        &mut self,
        game: &G,
        seat: Seat,
        _time: TimeLeft,
    ) -> Result<Answer<G::Move>, BotError> {
        let scene = self.scene(game);
        let mut console = lock(&self.console);
        console.say(&format!("\n{scene}"));
        // a forced move (a bid of 0 when broke) is not asked for
        if let [only] = game.legal_moves(seat).as_slice() {
            console.say(&format!(
                "Your only {} is {only}: it is played for you.\n",
                G::MOVE_WORD
            ));
            return Ok(Answer::from(only.clone()));
        }
        let prompt = console
            .paint
            .bold(&format!("Enter {} {}: ", self.me, G::MOVE_WORD));
        loop {
            let Some(line) = console.ask(&prompt) else {
                return Err(BotError::Harness(LEFT.to_string()));
            };
            let text = line.trim();
            let word = text.to_ascii_lowercase();
            if text.is_empty() {
                continue;
            }
            if QUIT.contains(&word.as_str()) {
                console.stop = Some(Stop::Quit);
                return Err(BotError::Harness(LEFT.to_string()));
            }
            if HELP.contains(&word.as_str()) {
                let help = format!(
                    "{}\nCommands: `help` shows this, `quit` ends the session \
                     (the games finished so far are kept).\n",
                    game.move_help(seat)
                );
                console.say(&wrap(&help, WIDTH));
                continue;
            }
            let problem = match parse_typed::<G::Move>(text) {
                Err(why) => format!("That is not a {}: {why}.", G::MOVE_WORD),
                Ok(mv) => match game.check(seat, &mv) {
                    Ok(()) => return Ok(Answer::from(mv)),
                    Err(why) => format!("You cannot play {mv} now: {why}."),
                },
            };
            // a pasted line of megabytes is quoted in part
            let warning = console
                .paint
                .warn(&crate::core::error::clip_lines(&problem, 300));
            console.say(&format!("{warning} Type `help` for help.\n"));
        }
    }

    fn observe(&mut self, game: &G, moves: &BySeat<Option<G::Move>>) -> Result<(), BotError> {
        self.turns.push(moves.clone());
        let note = self
            .before
            .replace(game.clone())
            .and_then(|before| game.turn_note(&before, moves))
            .map(|n| format!(", {n}"))
            .unwrap_or_default();
        let them = self.seat.other();
        let mut console = lock(&self.console);
        if let Some(mv) = &moves[them] {
            let name = console.paint.theirs(&self.opponent);
            // a simultaneous choice is shown only now, after the person's own
            let line = match moves[self.seat] {
                Some(_) => format!("{name} {}: {mv}{note}\n", G::MOVE_WORD),
                None => format!("{name} plays {mv}{note}\n"),
            };
            console.say(&line);
        } else if let (Some(mv), false) = (&moves[self.seat], note.is_empty()) {
            let name = console.paint.mine(&self.me);
            console.say(&format!("{name} plays {mv}{note}\n"));
        }
        Ok(())
    }

    fn game_over(&mut self, game: &G, _goals: BySeat<i32>) -> Result<(), BotError> {
        let scene = self.scene(game);
        lock(&self.console).say(&format!("\n{scene}"));
        Ok(())
    }

    fn timed(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_numbers_may_be_typed_with_blanks_or_spaced_commas() {
        use crate::games::{breakthrough::Step as Move, troops::Split};
        for typed in ["3,3,4", "3 3 4", "3, 3, 4", " 3 ,3  4"] {
            let split: Split = parse_typed(typed).unwrap();
            assert_eq!(split.to_string(), "3,3,4", "{typed}");
        }
        // what is not a list of whole numbers stays refused, with the
        // game's own reason for the text as typed
        for typed in ["3;3;4", "3 3 x", "-3 3 10", "ten"] {
            let why = parse_typed::<Split>(typed).unwrap_err();
            assert_eq!(why, typed.parse::<Split>().unwrap_err(), "{typed}");
        }
        assert!(parse_typed::<Move>("b2 b3").is_err());
        assert_eq!(parse_typed::<Move>("b2b3").unwrap().to_string(), "b2b3");
    }

    #[test]
    fn help_is_wrapped_at_spaces_and_short_lines_are_kept() {
        assert_eq!(wrap("aa bb cc dd", 5), "aa bb\ncc dd\n");
        assert_eq!(wrap("  a2a3 b2b3\nx", 78), "  a2a3 b2b3\nx\n");
        assert_eq!(
            wrap("averyveryverylongword b", 5),
            "averyveryverylongword\nb\n"
        );
    }
}
