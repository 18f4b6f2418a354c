//! The ladder as people read it: the table of `ladder standings` (and the
//! end of `ladder season`) and the history of its seasons.

use std::fmt::Write as _;

use comfy_table::Color;

use crate::{
    ladder::state::{BotState, State},
    report::{rows_table, Look},
};

/// The bots in ladder order: active ones by division, then rating; retired
/// ones last, by rating.
pub fn order(state: &State) -> Vec<(&String, &BotState)> {
    let mut bots: Vec<(&String, &BotState)> = state.bots.iter().collect();
    bots.sort_by(|(an, a), (bn, b)| {
        (!a.active, a.division)
            .cmp(&(!b.active, b.division))
            .then(b.rating.total_cmp(&a.rating))
            .then(an.cmp(bn))
    });
    bots
}

/// The columns of the ladder table.
pub const HEADER: [&str; 9] = [
    "Rank", "Division", "Bot", "Rating", "Games", "Won", "Lost", "Tie", "Move",
];

/// The ladder table's rows as text, in ladder order: for the terminal and HTML.
pub fn rows(state: &State) -> Vec<Vec<String>> {
    order(state)
        .into_iter()
        .enumerate()
        .map(|(rank, (name, b))| {
            let if_active = |x: String| if b.active { x } else { "-".to_string() };
            vec![
                if_active((rank + 1).to_string()),
                if_active(b.division.to_string()),
                name.clone(),
                format!("{:.0} ± {:.0}", b.rating, 2.0 * b.deviation),
                b.games.to_string(),
                b.won.to_string(),
                b.lost.to_string(),
                b.tie.to_string(),
                b.movement.word().to_string(),
            ]
        })
        .collect()
}

/// The ladder now: rank, division, Glicko-2 rating with twice its deviation
/// (about a 95% interval), record, and the last season's movement.
pub fn standings(state: &State, look: Look) -> String {
    let movement = HEADER.len() - 1;
    let t = rows_table(look, &HEADER, rows(state), &[2, 8], |c, text| match text {
        "up" if c == movement => Some(Color::Green),
        "down" if c == movement => Some(Color::Red),
        _ => None,
    });
    let seasons = state.seasons.len();
    let mut out = format!(
        "Ladder {}: {}, after season {seasons}{}\n{t}\n",
        state.ladder,
        state.game,
        match &state.current {
            Some(s) => format!(" (season {} in progress)", s.number),
            None => String::new(),
        }
    );
    out.push_str("Rating: Glicko-2, carried from season to season; ± twice the deviation.\n");
    out
}

/// One line per season: each division's winner, who moved, who came and went.
pub fn history(state: &State) -> String {
    let mut out = String::from("Seasons\n");
    for s in &state.seasons {
        let mut parts = Vec::new();
        for d in &s.divisions {
            match d.results.first() {
                Some(top) => parts.push(format!(
                    "division {}: {} first of {}",
                    d.division,
                    top.bot,
                    d.results.len()
                )),
                None => parts.push(format!("division {}: no games", d.division)),
            }
        }
        let moved = |word: &str| -> Vec<&str> {
            s.divisions
                .iter()
                .flat_map(|d| d.results.iter())
                .filter(|r| r.movement.word() == word)
                .map(|r| r.bot.as_str())
                .collect()
        };
        let mut line = format!("  {:>3}. {}", s.number, parts.join("; "));
        for (label, names) in [
            (
                "up",
                [moved("up"), s.alone.iter().map(String::as_str).collect()].concat(),
            ),
            ("down", moved("down")),
            ("joined", s.joined.iter().map(String::as_str).collect()),
            ("retired", s.retired.iter().map(String::as_str).collect()),
        ] {
            if !names.is_empty() {
                let _ = write!(line, "; {label}: {}", names.join(", "));
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}
