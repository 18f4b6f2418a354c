//! What a person sees of a game, apart from its rules: the position drawn
//! in lines of text (`ladder replay`), the scene before each move and the
//! help for a move (`ladder play`), with the vocabulary every game shares
//! ([`scene`]) and colour only where the terminal shows it ([`paint`]).
//!
//! [`Show`] has a default for everything, so a new game is shown the day
//! it is written (its observation, its legal moves) and draws itself better
//! when it implements more.

pub mod drawing;
pub mod paint;
pub mod scene;

use crate::core::{
    game::{list_moves, Game},
    seat::{BySeat, Seat},
};
use drawing::Drawing;
use scene::View;

/// How a game is drawn for a person; the rules are [`Game`]'s.
pub trait Show: Game {
    /// The position drawn for a person, in lines of text (`ladder replay`):
    /// by default what the first seat observes.
    fn picture(&self) -> String {
        self.observation(Seat::First)
    }

    /// The position as data for a page to draw (the replay viewer), after
    /// the turn `last` when there was one: by default its text
    /// ([`Drawing::Text`]; the page shows [`Show::picture`]).
    fn drawing(&self, last: Option<&BySeat<Option<Self::Move>>>) -> Drawing {
        let _ = last;
        Drawing::Text
    }

    /// What a move is called in a prompt (`Enter human bid:`).
    const MOVE_WORD: &'static str = "move";

    /// The position as a person holding `view.seat` sees it before they
    /// choose (`ladder play`), and once more when the game is over: by
    /// default the turn, the picture and the last turn.
    fn scene(&self, view: &View<'_, Self::Move>) -> String {
        let turn = format!("Turn {}", view.turns.len() + 1);
        let mut s = format!("{}\n{}\n", view.paint.bold(&turn), self.picture());
        if let Some(last) = view.last() {
            s.push_str(&format!("Last turn: {}\n", view.turn_text(last)));
        }
        s
    }

    /// What a person should notice about the turn `turn` that led from
    /// `before` to this position and that the move's text does not say
    /// (breakthrough: `captures on b6`), or nothing: by default nothing.
    fn turn_note(&self, before: &Self, turn: &BySeat<Option<Self::Move>>) -> Option<String> {
        let _ = (before, turn);
        None
    }

    /// What `help` tells a person about their move now: by default every
    /// legal move, and one of them as an example of the form.
    fn move_help(&self, seat: Seat) -> String {
        list_moves(&self.legal_moves(seat))
    }
}
