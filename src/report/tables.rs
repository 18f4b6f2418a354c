//! The tables every report draws, terminal and Markdown alike (comfy-table):
//! the standings, the 2016 report's Table 4.1 per bot, the crosstable, the
//! terminations and the likelihood of superiority. [`super::html`] draws
//! its own from the same rows.

use comfy_table::{presets, Attribute, Cell, CellAlignment, Color, Table};

use crate::{
    show::paint::Paint,
    stats::{
        ratings,
        standings::{percent, Standings, Tally},
    },
};

/// How a table is drawn: as Markdown (for files), or with box-drawing lines
/// for a terminal, coloured when its [`Paint`] says so (never in a file).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Look {
    Markdown,
    Text(Paint),
}

impl Look {
    /// Plain box-drawing text.
    pub const PLAIN: Look = Look::Text(Paint::PLAIN);

    fn colored(self) -> bool {
        self == Look::Text(Paint { color: true })
    }

    /// A cell of `text`, in `color` when the look is coloured.
    pub fn cell(self, text: String, color: Option<Color>) -> Cell {
        match color {
            Some(c) if self.colored() => Cell::new(text).fg(c),
            _ => Cell::new(text),
        }
    }
}

/// The colour of a share of points (a bot's points out of `games`): green
/// above half, red below, none at half or without games.
pub fn share_color(points: f64, games: u64) -> Option<Color> {
    let half = games as f64 / 2.0;
    if games == 0 || points == half {
        None
    } else if points > half {
        Some(Color::Green)
    } else {
        Some(Color::Red)
    }
}

/// A table with `header`, drawn in `look`.
pub fn table(look: Look, header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_preset(if look == Look::Markdown {
        presets::ASCII_MARKDOWN
    } else {
        presets::UTF8_FULL_CONDENSED
    });
    if look.colored() {
        // `--color always` colours despite NO_COLOR, which crossterm (comfy-table's
        // styling) would otherwise honour on its own
        crossterm::style::force_color_output(true);
        t.enforce_styling();
        t.set_header(
            header
                .iter()
                .map(|h| Cell::new(h).add_attribute(Attribute::Bold)),
        );
    } else {
        // colour is ladder's decision (`Paint`), not comfy-table's guess
        t.force_no_tty();
        t.set_header(header.to_vec());
    }
    t
}

/// Right-aligns every column but `text_columns`.
pub fn align_numbers(t: &mut Table, text_columns: &[usize]) {
    let n = t.column_count();
    for i in (0..n).filter(|i| !text_columns.contains(i)) {
        if let Some(c) = t.column_mut(i) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
}

fn points(t: &Tally) -> String {
    format!("{}", t.points())
}

/// The columns of the standings table.
pub const STANDINGS_HEADER: [&str; 11] = [
    "Rank",
    "Bot",
    "Games",
    "Won",
    "Lost",
    "Tie",
    "Points",
    "Win %",
    "Mean goal",
    "Elo (95%)",
    "Forfeits",
];

/// The standings as rows of text, one per bot, best first: for the
/// terminal, Markdown and HTML.
pub fn standings_rows(s: &Standings) -> Vec<Vec<String>> {
    let fit = ratings::fit(&s.vs, s.anchor);
    s.ranking()
        .iter()
        .enumerate()
        .map(|(rank, &b)| {
            let tally = &s.totals[b];
            vec![
                (rank + 1).to_string(),
                s.bots[b].clone(),
                tally.games.to_string(),
                tally.won.to_string(),
                tally.lost.to_string(),
                tally.tie.to_string(),
                points(tally),
                format!("{:.1}%", tally.win_percent()),
                format!("{:.2}", tally.mean_goal()),
                fit.ratings[b].text(),
                s.forfeits[b].values().sum::<u64>().to_string(),
            ]
        })
        .collect()
}

/// The standings table: one row per bot, best first.
pub fn standings_table(s: &Standings, look: Look) -> Table {
    // a forfeit is something to look into
    let forfeits = STANDINGS_HEADER.len() - 1;
    rows_table(
        look,
        &STANDINGS_HEADER,
        standings_rows(s),
        &[1],
        |c, text| (c == forfeits && text != "0").then_some(Color::Red),
    )
}

/// The columns of the 2016 report's Table 4.1.
pub const OPPONENTS_HEADER: [&str; 7] = [
    "S.No",
    "Opponent",
    "Games Played",
    "Won",
    "Lost",
    "Tie",
    "Win %",
];

/// The 2016 report's Table 4.1 for bot `b` as rows of text: its results
/// against each opponent, best opponent first.
pub fn opponents_rows(s: &Standings, b: usize) -> Vec<Vec<String>> {
    s.ranking()
        .into_iter()
        .filter(|&o| o != b && s.vs[b][o].games > 0)
        .enumerate()
        .map(|(n, o)| {
            let v = &s.vs[b][o];
            vec![
                (n + 1).to_string(),
                s.bots[o].clone(),
                v.games.to_string(),
                v.won.to_string(),
                v.lost.to_string(),
                v.tie.to_string(),
                format!("{:.1}%", v.win_percent()),
            ]
        })
        .collect()
}

/// The 2016 report's Table 4.1 for bot `b`: its results against each opponent.
pub fn opponents_table(s: &Standings, b: usize, look: Look) -> Table {
    let win_percent = OPPONENTS_HEADER.len() - 1;
    rows_table(
        look,
        &OPPONENTS_HEADER,
        opponents_rows(s, b),
        &[1],
        |c, text| {
            let percent = text.trim_end_matches('%').parse::<f64>().ok()?;
            (c == win_percent).then(|| share_color(percent, 100))?
        },
    )
}

/// A table of `rows` under `header`, numbers right-aligned but in
/// `text_columns`; `tint(column, text)` colours a cell when the look is
/// coloured.
pub fn rows_table(
    look: Look,
    header: &[&str],
    rows: Vec<Vec<String>>,
    text_columns: &[usize],
    tint: impl Fn(usize, &str) -> Option<Color>,
) -> Table {
    let mut t = table(look, header);
    for row in rows {
        t.add_row(row.into_iter().enumerate().map(|(c, text)| {
            let color = tint(c, &text);
            look.cell(text, color)
        }));
    }
    align_numbers(&mut t, text_columns);
    t
}

/// Each row bot's points against each column bot, out of the games they played.
pub fn crosstable(s: &Standings, look: Look) -> Table {
    let order = s.ranking();
    let mut header: Vec<&str> = vec!["Bot"];
    header.extend(order.iter().map(|&b| s.bots[b].as_str()));
    let mut t = table(look, &header);
    for &a in &order {
        let mut row = vec![Cell::new(&s.bots[a])];
        for &b in &order {
            let v = &s.vs[a][b];
            row.push(match (a == b, v.games) {
                (true, _) => Cell::new("-"),
                (false, 0) => Cell::new(""),
                (false, g) => look.cell(format!("{}/{g}", points(v)), share_color(v.points(), g)),
            });
        }
        t.add_row(row);
    }
    align_numbers(&mut t, &[0]);
    t
}

/// The columns of the terminations table.
pub const TERMINATIONS_HEADER: [&str; 3] = ["Termination", "Games", "Share"];

/// Games per way of ending, as rows of text.
pub fn terminations_rows(s: &Standings) -> Vec<Vec<String>> {
    let total = s.games();
    s.terminations
        .iter()
        .map(|(kind, &n)| {
            vec![
                kind.clone(),
                n.to_string(),
                format!("{:.1}%", percent(n, total)),
            ]
        })
        .collect()
}

/// Games per way of ending.
pub fn terminations_table(s: &Standings, look: Look) -> Table {
    rows_table(
        look,
        &TERMINATIONS_HEADER,
        terminations_rows(s),
        &[0],
        |_, _| None,
    )
}

/// The likelihood of superiority between the rated bots, best first, as a
/// header and rows of text; `None` with fewer than two rated bots.
pub fn los_rows(s: &Standings) -> Option<(Vec<String>, Vec<Vec<String>>)> {
    let fit = ratings::fit(&s.vs, s.anchor);
    // every bot with games: one rated only by a bound (it won or lost every
    // game) stays in the table, its cells marked `n/a` (LOS_NOTE)
    let shown: Vec<usize> = s
        .ranking()
        .into_iter()
        .filter(|&b| s.totals[b].games > 0)
        .collect();
    let rated = shown
        .iter()
        .filter(|&&b| fit.ratings[b].elo.is_some())
        .count();
    if rated < 2 {
        return None;
    }
    let mut header = vec!["LOS".to_string()];
    header.extend(shown.iter().map(|&b| s.bots[b].clone()));
    let rows = shown
        .iter()
        .map(|&a| {
            let mut row = vec![s.bots[a].clone()];
            row.extend(shown.iter().map(|&b| match fit.los[a][b] {
                Some(p) if a != b => format!("{:.1}%", 100.0 * p),
                _ if a == b => "-".to_string(),
                _ => "n/a".to_string(),
            }));
            row
        })
        .collect();
    Some((header, rows))
}

/// What the LOS table says of its `n/a` cells, the bots rated only by a
/// bound.
pub const LOS_NOTE: &str = "a bot that won or lost every game has only a bound for its rating \
    (see the standings), so the fit gives no likelihood against it.";

/// Whether the LOS table's `rows` mark a bot rated only by a bound (`n/a`),
/// so that [`LOS_NOTE`] goes under it.
pub fn los_has_bounds(rows: &[Vec<String>]) -> bool {
    rows.iter()
        .flat_map(|r| r.iter().skip(1))
        .any(|c| c == "n/a")
}

/// [`los_rows`] as a table, and whether it needs [`LOS_NOTE`].
pub fn los_table(s: &Standings, look: Look) -> Option<(Table, bool)> {
    let (header, rows) = los_rows(s)?;
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let bounds = los_has_bounds(&rows);
    Some((rows_table(look, &header, rows, &[0], |_, _| None), bounds))
}
