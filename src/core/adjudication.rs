//! The rules by which the referee ends a game early on the scores the bots
//! give with their moves (`[season.adjudication]`, `ladder match --draw` and
//! `--resign`); the referee applies them turn by turn.

use serde::{Deserialize, Serialize};

/// Which adjudication ended a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AdjudicationRule {
    /// Both bots judged the game even for long enough: a draw.
    Draw,
    /// A bot judged itself lost for long enough: it loses.
    Resign,
}

/// Ending a game early on the scores the bots attach to their moves
/// (`[season.adjudication]`), as cutechess-cli's `-draw` and `-resign` do.
/// A score is a bot's own judgement of the position after its move, from
/// its side, in hundredths of a point (a line-protocol bot writes
/// `b2b3 score=-35`); a move without one breaks every run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Adjudication {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
}

/// A draw once `move_number` turns are played and each bot's last
/// `move_count` scores all lie within `score` of 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// A loss for a bot whose last `move_count` scores were all `score` or more
/// below 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
}
