//! A GDL season's games as the GGP match archive publishes matches
//! (ggp-base's match JSON): `ladder export DIR --format ggp`, one match
//! object per line.
//!
//! Each object: `matchId` (`<season>.<game index>`), `gameName`,
//! `gameRulesheet` (the description, one line), `playerNamesFromHost` (the
//! bots by role), `startClock` and `playClock` (the season's start-up and
//! move times in whole seconds), `moves` (per turn, every role's move,
//! `noop` for a role that waited), `states` (the state before each turn and
//! the last one, as `( ( cell 1 1 b ) ... )`), `goalValues`, `isCompleted`
//! (the game reached a terminal state) and `isAborted` (it ended otherwise:
//! a forfeit, the ply cap, adjudication), with ladder's `termination`.
//! Terms are written with ggp-base's spacing (`( mark 1 1 )`). The journal
//! keeps no clock times, so `startTime` and `stateTimes` are left out.

use std::{io::Write, path::Path};

use serde_json::json;

use super::{Gdl, GdlMove, GdlParams};
use crate::{
    core::{error::Error, game::Game, record::Record, seat::Seat},
    external::ggp::normal,
    journal::{
        self,
        recorded::Recorded,
        verify::{play_back, start_of},
    },
    report::export::written,
    Result,
};

/// KIF in ggp-base's spacing: `(mark 1 1)` as `( mark 1 1 )`.
fn spaced(kif: &str) -> String {
    normal(kif).replace('(', "( ").replace(')', " )")
}

/// A state's facts (`(cell 1 1 b) (control x)`, as the observation
/// writes them) as one term.
fn state(facts: &str) -> String {
    let facts = facts.split_whitespace().collect::<Vec<_>>().join(" ");
    spaced(&format!("({facts})"))
}

/// Writes the games of the GDL season in folder `dir` (its `season.json`
/// read as `recorded`) to `out`, one match JSON object per line, and
/// flushes it. The description is grounded once for the whole season.
pub fn export(dir: &Path, recorded: &Recorded, out: &mut dyn Write) -> Result<()> {
    if recorded.kind != super::NAME {
        return Err(Error::Usage(format!(
            "--format ggp is for GDL games; `{}` is a native game (its GDL twin is in games/gdl/)",
            recorded.game
        )));
    }
    let params: GdlParams = serde_json::from_value(recorded.params.clone())
        .map_err(|e| Error::Usage(format!("the season's parameters: {e}")))?;
    let start = Gdl::new(&params).map_err(|e| Error::Usage(e.to_string()))?;
    journal::for_each_game(dir, |path, n, r| {
        let line = match_json(recorded, &params, &start, &r).map_err(|message| Error::Journal {
            path: path.to_path_buf(),
            line: n,
            message: format!("game {}: {message}", r.index),
        })?;
        writeln!(out, "{line}").map_err(written)
    })?;
    out.flush().map_err(written)
}

/// One game as a match object, replayed from `start` (or its opening).
fn match_json(
    recorded: &Recorded,
    params: &GdlParams,
    start: &Gdl,
    r: &Record,
) -> std::result::Result<serde_json::Value, String> {
    let first = start_of(params, start, r)?;
    let mut states = vec![state(&first.observation(Seat::First))];
    let mut moves: Vec<[String; 2]> = Vec::new();
    play_back(&first, r, |_, played, game| {
        let text = |m: &Option<GdlMove>| m.as_ref().map_or("noop".to_string(), |m| spaced(&m.0));
        moves.push([text(&played.first), text(&played.second)]);
        states.push(state(&game.observation(Seat::First)));
    })?;
    let seconds = |ms: Option<u64>| ms.map(|ms| (ms / 1000).max(1));
    let completed = r.termination.kind() == "normal";
    Ok(json!({
        "matchId": format!("{}.{}", recorded.name, r.index),
        "gameName": recorded.game,
        "gameRulesheet": normal(params.text.as_deref().unwrap_or_default()),
        "playerNamesFromHost": [r.seats.first, r.seats.second],
        "startClock": seconds(recorded.startup_time_ms),
        "playClock": seconds(recorded.move_time_ms),
        "moves": moves,
        "states": states,
        "goalValues": [r.goals.first, r.goals.second],
        "isCompleted": completed,
        "isAborted": !completed,
        "termination": r.termination.kind(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_take_ggp_bases_spacing() {
        assert_eq!(spaced("(mark 1 1)"), "( mark 1 1 )");
        assert_eq!(spaced("noop"), "noop");
        assert_eq!(
            state("(cell 1 1 b)\n(control xplayer)"),
            "( ( cell 1 1 b ) ( control xplayer ) )"
        );
    }
}
