//! Leaderboards: the standings as comfy-table tables on the terminal, and as
//! Markdown, CSV and JSON files under `reports/<season>/`.
//!
//! The tables follow the 2016 report's win table (opponent, games, won, lost,
//! tie, win %) and add points, mean goal, an Elo rating with its 95% interval,
//! a crosstable and the terminations. Rendering is pure (a `String` out); only
//! [`write_files`] touches the disk. Nothing here depends on time or thread
//! count, so the same results give byte-identical reports.
//!
//! The HTML report, with its SVG charts, is [`html`].

pub mod html;

use std::{fmt::Write as _, path::Path};

use comfy_table::{presets, Attribute, Cell, CellAlignment, Color, Table};
use serde::Serialize;

use crate::{
    core::files,
    core::{error::Result, paint::Paint},
    journal::recorded::Recorded,
    plan::Header,
    stats::ratings,
    stats::sprt,
    stats::standings::{percent, Standings, Tally},
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

/// What a two-bot season says about the pair: the first bot's Elo against
/// the second (the joint fit anchored at the second), the likelihood that it
/// is stronger, and fastchess's pentanomial view of their colour-swapped
/// game pairs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeadToHead {
    pub bot: String,
    pub opponent: String,
    pub elo: Option<f64>,
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
    pub los: Option<f64>,
    /// Game pairs that gave `bot` 0, 1/2, 1, 3/2 and 2 points.
    pub pentanomial: [u64; 5],
    pub pentanomial_elo: Option<f64>,
    pub pentanomial_low: Option<f64>,
    pub pentanomial_high: Option<f64>,
    /// Normalized Elo and the half-width of its 95% interval (from the
    /// pairs when there are any, else from the games).
    pub nelo: Option<f64>,
    pub nelo_interval: Option<f64>,
    /// Games drawn, in percent.
    pub draw_ratio: f64,
    /// The sequential test, if the season runs one.
    pub sprt: Option<sprt::Report>,
    #[serde(skip)]
    rating: ratings::Rating,
    #[serde(skip)]
    pair_rating: Option<ratings::Rating>,
}

/// The head-to-head of a season of two bots, else `None`.
pub fn head_to_head(h: &Header, s: &Standings) -> Option<HeadToHead> {
    if s.bots.len() != 2 || (s.games() == 0 && h.sprt.is_none()) {
        return None;
    }
    let fit = ratings::fit(&s.vs, Some(1));
    let rating = fit.ratings[0];
    let pentanomial = s.pairs.get(&(0, 1)).copied().unwrap_or_default();
    let pair_rating = ratings::pentanomial_elo(&pentanomial);
    let t = &s.vs[0][1];
    let nelo = if pentanomial.iter().sum::<u64>() > 0 {
        ratings::nelo(&pentanomial)
    } else {
        ratings::nelo(&[t.lost, t.tie, t.won])
    };
    Some(HeadToHead {
        bot: s.bots[0].clone(),
        opponent: s.bots[1].clone(),
        elo: rating.elo,
        elo_low: rating.low,
        elo_high: rating.high,
        los: fit.los[0][1],
        pentanomial,
        pentanomial_elo: pair_rating.and_then(|r| r.elo),
        pentanomial_low: pair_rating.and_then(|r| r.low),
        pentanomial_high: pair_rating.and_then(|r| r.high),
        nelo: nelo.map(|n| n.0),
        nelo_interval: nelo.map(|n| n.1),
        draw_ratio: percent(t.tie, t.games),
        sprt: h.sprt.as_ref().map(|t| t.report(s)),
        rating,
        pair_rating,
    })
}

impl HeadToHead {
    /// Two lines for people.
    pub fn text(&self) -> String {
        let los = self
            .los
            .map_or(String::new(), |p| format!(", LOS {:.1}%", 100.0 * p));
        let pairs: u64 = self.pentanomial.iter().sum();
        let nelo = match (self.nelo, self.nelo_interval) {
            (Some(n), Some(i)) => format!(", nElo {n:+.1} +/- {i:.1}"),
            _ => String::new(),
        };
        let mut out = format!(
            "Head to head: {} against {}: Elo {}{nelo}{los}, draw ratio {:.1}%\n",
            self.bot,
            self.opponent,
            self.rating.text(),
            self.draw_ratio
        );
        if pairs > 0 {
            let p = &self.pentanomial;
            let _ = writeln!(
                out,
                "Pentanomial ({pairs} colour-swapped game pairs, {}'s points 0, 1/2, 1, 3/2, 2): [{}, {}, {}, {}, {}], Elo {}",
                self.bot,
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                self.pair_rating.map_or("-".to_string(), |r| r.text())
            );
        }
        if let Some(t) = &self.sprt {
            let _ = writeln!(out, "{}", t.text());
        }
        out
    }
}

fn title(h: &Header, s: &Standings) -> String {
    format!(
        "Season {}: {}, {}, {} bots, {} of {} games",
        h.season,
        h.game,
        h.format,
        s.bots.len(),
        s.games(),
        h.scheduled
    )
}

/// What `ladder run` prints when a season ends.
pub fn terminal(h: &Header, s: &Standings, paint: Paint) -> String {
    let look = Look::Text(paint);
    let pair = head_to_head(h, s).map_or(String::new(), |p| format!("\n{}", p.text()));
    format!(
        "{}\n{}\n{pair}\nCrosstable (row bot's points / games)\n{}\n\nTerminations\n{}\n",
        title(h, s),
        standings_table(s, look),
        crosstable(s, look),
        terminations_table(s, look)
    )
}

/// The full Markdown leaderboard, with a Table 4.1 for every bot.
pub fn markdown(h: &Header, s: &Standings) -> String {
    let mut out = format!(
        "# {}\n\n## Standings\n\n{}\n",
        title(h, s),
        standings_table(s, Look::Markdown)
    );
    out.push_str(&format!(
        "\nPoints: 1 per win, 1/2 per tie. Elo: one maximum-likelihood fit of every game \
             (Bradley-Terry, draws as half points), {}, with the 95% interval; `>`/`<`: a bot \
             that won/lost every game against the rated bots, with the bound its games support \
             (docs/RATINGS.md).\n",
        match ratings::fit(&s.vs, s.anchor).anchor {
            Some(a) if Some(a) == s.anchor => format!("{} at 0", s.bots[a]),
            // a bot that won or lost every game has only a bound, so the
            // scale sits on the rated bot with the most games
            Some(a) => format!("{} at 0 (some bots have only a bound)", s.bots[a]),
            None => "mean 0".to_string(),
        }
    ));
    if let Some(pair) = head_to_head(h, s) {
        let _ = write!(
            out,
            "\n## Head to head\n\n{}",
            pair.text().replace('\n', "\n\n")
        );
    }
    for &b in &s.ranking() {
        let _ = write!(
            out,
            "\n## {}\n\n{}\n\nOverall win percentage: {:.1}%\n",
            s.bots[b],
            opponents_table(s, b, Look::Markdown),
            s.totals[b].win_percent()
        );
    }
    let _ = write!(
        out,
        "\n## Crosstable\n\nRow bot's points / games against the column bot.\n\n{}\n\n## Terminations\n\n{}\n",
        crosstable(s, Look::Markdown),
        terminations_table(s, Look::Markdown)
    );
    if let Some(los) = los_table(s, Look::Markdown) {
        let _ = write!(
            out,
            "\n## Likelihood of superiority\n\nThe probability that the row bot is stronger than the column bot, from the rating fit.\n\n{los}\n"
        );
    }
    out
}

/// The likelihood of superiority between the rated bots, best first, as a
/// header and rows of text; `None` with fewer than two rated bots.
pub fn los_rows(s: &Standings) -> Option<(Vec<String>, Vec<Vec<String>>)> {
    let fit = ratings::fit(&s.vs, s.anchor);
    let rated: Vec<usize> = s
        .ranking()
        .into_iter()
        .filter(|&b| fit.ratings[b].elo.is_some())
        .collect();
    if rated.len() < 2 {
        return None;
    }
    let mut header = vec!["LOS".to_string()];
    header.extend(rated.iter().map(|&b| s.bots[b].clone()));
    let rows = rated
        .iter()
        .map(|&a| {
            let mut row = vec![s.bots[a].clone()];
            row.extend(rated.iter().map(|&b| match fit.los[a][b] {
                Some(p) if a != b => format!("{:.1}%", 100.0 * p),
                _ => "-".to_string(),
            }));
            row
        })
        .collect();
    Some((header, rows))
}

/// [`los_rows`] as a table.
pub fn los_table(s: &Standings, look: Look) -> Option<Table> {
    let (header, rows) = los_rows(s)?;
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    Some(rows_table(look, &header, rows, &[0], |_, _| None))
}

/// `los[bot][opponent]` between the rated bots, for the JSON report.
fn los_map(
    s: &Standings,
) -> std::collections::BTreeMap<&str, std::collections::BTreeMap<&str, f64>> {
    let fit = ratings::fit(&s.vs, s.anchor);
    let mut map = std::collections::BTreeMap::new();
    for (a, row) in fit.los.iter().enumerate() {
        let entries: std::collections::BTreeMap<&str, f64> = row
            .iter()
            .enumerate()
            .filter_map(|(b, p)| p.map(|p| (s.bots[b].as_str(), p)))
            .collect();
        if !entries.is_empty() {
            map.insert(s.bots[a].as_str(), entries);
        }
    }
    map
}

/// The standings as CSV, one row per bot, best first.
pub fn csv(s: &Standings) -> String {
    let mut out = String::from(
        "rank,bot,games,won,lost,tie,points,win_percent,mean_goal,elo,elo_low,elo_high,forfeits\n",
    );
    let fit = ratings::fit(&s.vs, s.anchor);
    for (rank, &b) in s.ranking().iter().enumerate() {
        let t = &s.totals[b];
        let r = Some(fit.ratings[b]);
        let num = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:.1}"));
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{:.4},{:.4},{},{},{},{}",
            rank + 1,
            s.bots[b],
            t.games,
            t.won,
            t.lost,
            t.tie,
            t.points(),
            t.win_percent(),
            t.mean_goal(),
            num(r.and_then(|r| r.elo)),
            num(r.and_then(|r| r.low)),
            num(r.and_then(|r| r.high)),
            s.forfeits[b].values().sum::<u64>()
        );
    }
    out
}

#[derive(Serialize)]
struct JsonBot<'a> {
    rank: usize,
    bot: &'a str,
    games: u64,
    won: u64,
    lost: u64,
    tie: u64,
    points: f64,
    win_percent: f64,
    mean_goal: f64,
    elo: Option<f64>,
    elo_low: Option<f64>,
    elo_high: Option<f64>,
    forfeits: &'a std::collections::BTreeMap<String, u64>,
    opponents: Vec<JsonOpponent<'a>>,
}

#[derive(Serialize)]
struct JsonOpponent<'a> {
    opponent: &'a str,
    games: u64,
    won: u64,
    lost: u64,
    tie: u64,
    win_percent: f64,
}

/// The standings as JSON, for tools.
pub fn json(h: &Header, s: &Standings) -> String {
    let fit = ratings::fit(&s.vs, s.anchor);
    let bots: Vec<JsonBot> = s
        .ranking()
        .iter()
        .enumerate()
        .map(|(rank, &b)| {
            let t = &s.totals[b];
            let r = Some(fit.ratings[b]);
            JsonBot {
                rank: rank + 1,
                bot: &s.bots[b],
                games: t.games,
                won: t.won,
                lost: t.lost,
                tie: t.tie,
                points: t.points(),
                win_percent: t.win_percent(),
                mean_goal: t.mean_goal(),
                elo: r.and_then(|r| r.elo),
                elo_low: r.and_then(|r| r.low),
                elo_high: r.and_then(|r| r.high),
                forfeits: &s.forfeits[b],
                opponents: (0..s.bots.len())
                    .filter(|&o| o != b && s.vs[b][o].games > 0)
                    .map(|o| {
                        let v = &s.vs[b][o];
                        JsonOpponent {
                            opponent: &s.bots[o],
                            games: v.games,
                            won: v.won,
                            lost: v.lost,
                            tie: v.tie,
                            win_percent: v.win_percent(),
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    let doc = serde_json::json!({
        "season": h.season,
        "game": h.game,
        "format": h.format,
        "games": s.games(),
        "scheduled": h.scheduled,
        "standings": bots,
        "terminations": s.terminations,
        "head_to_head": head_to_head(h, s),
        "sprt": h.sprt.as_ref().map(|t| t.report(s)),
        "los": los_map(s),
    });
    serde_json::to_string_pretty(&doc).expect("standings serialize") + "\n"
}

/// Writes every report into `dir`: `leaderboard.md`, `standings.csv`,
/// `standings.json` and the HTML report ([`html::write_files`]).
pub fn write_files(dir: &Path, h: &Header, s: &Standings) -> Result<()> {
    html::write_files(dir, h, s)?;
    for (name, text) in [
        ("leaderboard.md", markdown(h, s)),
        ("standings.csv", csv(s)),
        ("standings.json", json(h, s)),
    ] {
        let path = dir.join(name);
        files::replace(&path, text.as_bytes())?;
    }
    Ok(())
}

/// Which reports to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    Markdown,
    Csv,
    Json,
    Html,
}

impl ReportFormat {
    pub const ALL: [ReportFormat; 4] = [
        ReportFormat::Markdown,
        ReportFormat::Csv,
        ReportFormat::Json,
        ReportFormat::Html,
    ];
}

/// Renders the reports of the season in `dir` again from its journal, in
/// `formats`; returns what they show.
pub fn rerender(dir: &Path, formats: &[ReportFormat]) -> Result<(Header, Standings)> {
    let recorded = Recorded::read(dir)?;
    let header = recorded.header();
    let standings = recorded.standings(dir)?;
    for format in formats {
        let (name, text) = match format {
            ReportFormat::Markdown => ("leaderboard.md", markdown(&header, &standings)),
            ReportFormat::Csv => ("standings.csv", csv(&standings)),
            ReportFormat::Json => ("standings.json", json(&header, &standings)),
            ReportFormat::Html => {
                html::write_files(dir, &header, &standings)?;
                continue;
            }
        };
        let path = dir.join(name);
        files::replace(&path, text.as_bytes())?;
    }
    Ok((header, standings))
}

/// The bots that forfeited every game they played, or most of them for
/// one reason, each said as one line naming the bot, the count and the
/// first such forfeit's detail (read from the journal in `dir`). Empty when
/// every bot played its games.
pub fn forfeiting_bots(s: &Standings, dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for (b, name) in s.bots.iter().enumerate() {
        let games = s.totals[b].games;
        let total: u64 = s.forfeits[b].values().sum();
        let Some((kind, most)) = s.forfeits[b].iter().max_by_key(|(_, n)| **n) else {
            continue;
        };
        if games == 0 || (total < games && most * 2 <= games) {
            continue;
        }
        let what = if total == games {
            format!("forfeited every game it played ({games})")
        } else {
            format!("forfeited {most} of its {games} games by {kind}")
        };
        let first = first_forfeit(dir, name)
            .map(|d| format!("; the first: {d}"))
            .unwrap_or_default();
        out.push(format!(
            "{name} {what}{first} (its log: {})",
            dir.join("logs").join(format!("{name}.log")).display()
        ));
    }
    out
}

/// The reason and detail of `bot`'s first forfeit in the journal in `dir`.
fn first_forfeit(dir: &Path, bot: &str) -> Option<String> {
    use crate::journal::LineReader;
    for file in ["games.jsonl", "pending.jsonl"] {
        let mut reader = LineReader::open(&dir.join(file), 1 << 16).ok()?;
        while let Ok(Some(line)) = reader.next_line() {
            let Ok(game) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let t = &game["termination"];
            if t["kind"] != "forfeit" {
                continue;
            }
            let seat = usize::from(t["seat"] == "second");
            if game["seats"][seat] == bot {
                return Some(format!(
                    "{}: {}",
                    t["reason"].as_str().unwrap_or("?"),
                    t["detail"].as_str().unwrap_or("")
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        core::record::Scored,
        core::{game::GameResult, referee::Termination, seat::BySeat},
    };

    fn standings() -> Standings {
        let rec = |a: &str, b: &str, result, goals: (i32, i32)| Scored {
            index: 0,
            seats: BySeat::new(a, b).map(|name| usize::from(name == "random")),
            seed: 0,
            result,
            goals: BySeat::new(goals.0, goals.1),
            termination: Termination::Normal,
            plies: 5,
        };
        let bots = vec!["dp".to_string(), "random".to_string()];
        Standings::new(
            &bots,
            &[
                rec("dp", "random", GameResult::First, (100, 0)),
                rec("random", "dp", GameResult::Draw, (50, 50)),
            ],
        )
    }

    fn header() -> Header {
        Header {
            season: "s".into(),
            game: "somegame".into(),
            format: "round-robin".into(),
            scheduled: 2,
            sprt: None,
        }
    }

    #[test]
    fn markdown_has_the_report_table_for_each_bot() {
        let md = markdown(&header(), &standings());
        assert!(
            md.starts_with("# Season s: somegame, round-robin, 2 bots, 2 of 2 games\n"),
            "{md}"
        );
        assert!(
            md.contains("| S.No | Opponent | Games Played | Won | Lost | Tie | Win % |"),
            "{md}"
        );
        assert!(
            md.contains("|    1 | random   |            2 |   1 |    0 |   1 | 50.0% |"),
            "{md}"
        );
        assert!(md.contains("Overall win percentage: 50.0%"), "{md}");
        assert!(md.contains("| dp     |     - |  1.5/2 |"), "{md}");
        assert!(md.contains("| normal      |     2 | 100.0% |"), "{md}");
    }

    #[test]
    fn csv_and_json() {
        let s = standings();
        let csv = csv(&s);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(
            lines[1].starts_with("1,dp,2,1,0,1,1.5,50.0000,75.0000,"),
            "{csv}"
        );
        assert!(
            lines[2].starts_with("2,random,2,0,1,1,0.5,0.0000,25.0000,"),
            "{csv}"
        );
        let v: serde_json::Value = serde_json::from_str(&json(&header(), &s)).unwrap();
        assert_eq!(v["standings"][0]["bot"], "dp");
        assert_eq!(v["standings"][0]["opponents"][0]["tie"], 1);
        assert_eq!(v["terminations"]["normal"], 2);
        let los = v["los"]["dp"]["random"].as_f64().unwrap();
        assert!(los > 0.5 && los < 1.0, "{los}");
        assert!(markdown(&header(), &s).contains("## Likelihood of superiority"));
    }

    #[test]
    fn terminal_output_is_a_table() {
        let text = terminal(&header(), &standings(), Paint::PLAIN);
        assert!(text.contains("│    1 ┆ dp "), "{text}");
        assert!(text.contains("Terminations"), "{text}");
        assert!(!text.contains('\x1b'), "no colour: {text}");
    }

    #[test]
    fn coloured_tables_mark_headers_and_shares_and_read_the_same_without_the_codes() {
        let (h, s) = (header(), standings());
        let plain = terminal(&h, &s, Paint::PLAIN);
        let colored = terminal(&h, &s, Paint { color: true });
        assert!(colored.contains("\x1b[1m Rank"), "bold header: {colored}");
        // dp beat random: its crosstable cell is green, random's red
        assert!(
            colored.contains("\x1b[38;5;10m") || colored.contains("\x1b[32m"),
            "{colored}"
        );
        assert!(
            colored.contains("\x1b[38;5;9m") || colored.contains("\x1b[31m"),
            "{colored}"
        );
        // the codes are all that differ
        let mut stripped = String::new();
        let mut rest = colored.as_str();
        while let Some(i) = rest.find('\x1b') {
            stripped.push_str(&rest[..i]);
            let end = rest[i..].find('m').expect("an SGR code ends in m");
            rest = &rest[i + end + 1..];
        }
        stripped.push_str(rest);
        assert_eq!(stripped, plain);
        // a file never gets colour
        assert!(!markdown(&h, &s).contains('\x1b'));
    }

    #[test]
    fn shares_above_half_are_green_below_red() {
        assert_eq!(share_color(3.0, 4), Some(Color::Green));
        assert_eq!(share_color(1.5, 4), Some(Color::Red));
        assert_eq!(share_color(2.0, 4), None);
        assert_eq!(share_color(0.0, 0), None);
    }
}
