//! What a person playing a game sees before each move (`ladder play`): the
//! position drawn for the seat they hold, the turns so far, and colour only
//! where the terminal shows it.
//!
//! A game draws its own scene ([`super::Show::scene`]) from a
//! [`View`]; this module gives every game the same vocabulary (who is who,
//! the last turn, the choices so far) and the same [`Paint`], so the five
//! games look alike and a new game gets a usable scene for free.

use std::fmt::Write as _;

use super::paint::Paint;
use crate::core::seat::{BySeat, Seat};

/// What a scene is drawn from besides the position: the seat the person
/// holds, both players' names, the turns played so far, and the paint.
pub struct View<'a, M> {
    /// The person's seat.
    pub seat: Seat,
    /// Names per seat, as the tally shows them (`human`, `dp`).
    pub names: BySeat<&'a str>,
    /// Every turn of the game so far: the move of each seat that acted.
    pub turns: &'a [BySeat<Option<M>>],
    pub paint: Paint,
}

impl<M: std::fmt::Display> View<'_, M> {
    /// The name of `seat`, painted as the person's or the opponent's.
    pub fn name(&self, seat: Seat) -> String {
        if seat == self.seat {
            self.paint.mine(self.names[seat])
        } else {
            self.paint.theirs(self.names[seat])
        }
    }

    /// The last turn, if one was played.
    pub fn last(&self) -> Option<&BySeat<Option<M>>> {
        self.turns.last()
    }

    /// One turn in words: `human 3,3,4, dp 2,4,4` (the seats that acted).
    pub fn turn_text(&self, turn: &BySeat<Option<M>>) -> String {
        Seat::ALL
            .into_iter()
            .filter_map(|s| turn[s].as_ref().map(|m| format!("{} {m}", self.name(s))))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The last `count` turns, oldest first, one line each:
    /// `  round 3: human 3,3,4, dp 2,4,4` (`what` names a turn).
    pub fn recent(&self, what: &str, count: usize) -> String {
        let from = self.turns.len().saturating_sub(count);
        let mut out = String::new();
        for (i, turn) in self.turns.iter().enumerate().skip(from) {
            let _ = writeln!(out, "  {what} {}: {}", i + 1, self.turn_text(turn));
        }
        out
    }
}

/// What a game of `rounds` rounds says at its end.
fn all_played(rounds: u32) -> String {
    match rounds {
        1 => "The one round played".to_string(),
        _ => format!("All {rounds} rounds played"),
    }
}

/// The picture of a game of simultaneous rounds (`ladder replay`), from
/// its `observation` (`round 3 of 5 score 4 2`): as it is while the game
/// lasts, and once it is `over`, where the observation counts a round past
/// the last (`round 6 of 5 ...`), the rest after that all were played
/// (`All 5 rounds played: score 13 17`).
pub fn rounds_picture(observation: String, rounds: u32, over: bool) -> String {
    if !over {
        return observation;
    }
    // `round R of N` and the rest
    let rest = observation.splitn(5, ' ').nth(4).unwrap_or_default();
    format!("{}: {rest}", all_played(rounds))
}

/// The scene of a game of simultaneous rounds: `Round R of N` (or that
/// all were played), `lines` (scores, holdings), and the last five rounds.
pub fn rounds_scene<M: std::fmt::Display>(
    view: &View<'_, M>,
    rounds: u32,
    over: bool,
    lines: &[String],
) -> String {
    let played = view.turns.len();
    let heading = if over {
        all_played(rounds)
    } else {
        format!("Round {} of {rounds}", played + 1)
    };
    let mut s = format!("{}\n", view.paint.bold(&heading));
    for line in lines {
        let _ = writeln!(s, "{line}");
    }
    if played > 0 {
        let _ = writeln!(
            s,
            "{}",
            if played > 5 {
                "Last rounds:"
            } else {
                "Rounds so far:"
            }
        );
        s.push_str(&view.recent("round", 5));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paint_adds_nothing_and_colour_wraps_and_resets() {
        assert_eq!(Paint::PLAIN.mark("b2"), "b2");
        let c = Paint { color: true };
        assert_eq!(c.mark("b2"), "\x1b[1;43;30mb2\x1b[0m");
        assert_eq!(c.bold("x"), "\x1b[1mx\x1b[0m");
    }

    #[test]
    fn a_view_tells_the_recent_turns_oldest_first() {
        let turns = vec![
            BySeat::new(Some(1), Some(2)),
            BySeat::new(Some(3), None),
            BySeat::new(None, Some(4)),
        ];
        let view = View {
            seat: Seat::Second,
            names: BySeat::new("dp", "human"),
            turns: &turns,
            paint: Paint::PLAIN,
        };
        assert_eq!(
            view.recent("turn", 2),
            "  turn 2: dp 3\n  turn 3: human 4\n"
        );
        assert_eq!(view.turn_text(view.last().unwrap()), "human 4");
    }
}
