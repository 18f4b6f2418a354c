//! `ladder replay JOURNAL --game N`: one journaled game, move by move, with
//! the position drawn after each turn ([`crate::show::Show::picture`]:
//! the breakthrough board, the bidding bottle with both players' money and
//! the draw advantage, the round and scores of the simultaneous games).

use crate::show::{drawing::Drawing, Show};
use serde::Serialize;
use std::{fmt::Write as _, path::Path};

use crate::{
    core::record::Record,
    core::{
        error::{Error, Result},
        game::GameResult,
        seat::{BySeat, Seat},
        text::count,
    },
    journal::recorded::Recorded,
    journal::verify::{play_back, start_of},
    journal::{for_each_game, for_each_record},
};

/// The journal record of game `index` in `journal` (streamed to it): a
/// season's folder (its finished games, those still pending included, see
/// [`for_each_game`]) or one journal file.
pub fn find(journal: &Path, index: u64) -> Result<Record> {
    let (mut found, mut held) = (None, 0u64);
    let mut look = |record: Record| {
        held += 1;
        if record.index == index && found.is_none() {
            found = Some(record);
        }
        Ok(())
    };
    if journal.is_dir() {
        for_each_game(journal, |_, _, record| look(record))?;
    } else {
        for_each_record(journal, |_, record| look(record))?;
    }
    found.ok_or_else(|| {
        let holds = match held {
            0 => "it holds no game yet".to_string(),
            n => format!(
                "it holds {}; games are numbered from 0",
                count(n as usize, "game")
            ),
        };
        Error::Usage(format!("{}: no game {index} ({holds})", journal.display()))
    })
}

/// One position of a replay: after `turn` turns (0: the start), the moves
/// of that turn per seat (`[first, second]`), and the position in words and
/// drawn.
#[derive(Clone, Debug, Serialize)]
pub struct Ply {
    pub turn: usize,
    pub moves: [Option<String>; 2],
    pub picture: String,
    pub drawing: Drawing,
}

/// Every position of game `r` (played under `params`), from its start to
/// its end, as the replay viewer steps through them.
pub fn plies<G: Show>(params: &G::Params, r: &Record) -> Result<Vec<Ply>> {
    let first = G::new(params).map_err(|e| Error::Usage(e.to_string()))?;
    let wrong = |e: String| Error::Journal {
        path: "the journal".into(),
        line: 0,
        message: format!("game {}: {e}", r.index),
    };
    let start = start_of(params, &first, r).map_err(wrong)?;
    let mut out = vec![Ply {
        turn: 0,
        moves: [None, None],
        picture: start.picture(),
        drawing: start.drawing(None),
    }];
    play_back(&start, r, |turn, moves: &BySeat<Option<G::Move>>, game| {
        let text = |m: &Option<G::Move>| m.as_ref().map(ToString::to_string);
        out.push(Ply {
            turn,
            moves: [text(&moves.first), text(&moves.second)],
            picture: game.picture(),
            drawing: game.drawing(Some(moves)),
        });
    })
    .map_err(wrong)?;
    Ok(out)
}

/// Game `r` of the season `recorded`, told turn by turn.
pub fn replay<G: Show>(recorded: &Recorded, r: &Record) -> Result<String> {
    let params: G::Params = serde_json::from_value(recorded.params.clone())
        .map_err(|e| Error::Usage(format!("the season's parameters: {e}")))?;
    let plies = plies::<G>(&params, r)?;
    let from = match &r.opening {
        Some(text) => format!(", from the opening `{text}`"),
        None => String::new(),
    };
    let mut out = format!(
        "Game {} of season {} ({}): {} (player 1) against {} (player 2), seed {}{from}\n\n{}\n",
        r.index,
        recorded.name,
        recorded.game,
        r.seats.first,
        r.seats.second,
        r.seed,
        plies[0].picture
    );
    let names = &r.seats;
    for ply in &plies[1..] {
        let played: Vec<String> = Seat::ALL
            .into_iter()
            .zip(&ply.moves)
            .filter_map(|(s, m)| m.as_ref().map(|m| format!("{} plays {m}", names[s])))
            .collect();
        let _ = write!(
            out,
            "\nTurn {}: {}\n{}\n",
            ply.turn,
            played.join(", "),
            ply.picture
        );
    }
    let ending = r.termination.describe(&names.as_ref().map(String::as_str));
    let result = match r.result {
        GameResult::First => "player 1 wins",
        GameResult::Second => "player 2 wins",
        GameResult::Draw => "draw",
    };
    let _ = writeln!(
        out,
        "\nResult: {result}, goals {} to {} ({ending})",
        r.goals.first, r.goals.second
    );
    Ok(out)
}
