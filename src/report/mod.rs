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

pub mod export;
pub mod html;
mod tables;

pub use tables::*;

use std::{fmt::Write as _, path::Path};

use serde::Serialize;

use crate::{
    core::error::Result,
    core::files,
    core::text::count,
    journal::recorded::Recorded,
    plan::Header,
    show::paint::Paint,
    stats::ratings,
    stats::sprt,
    stats::standings::{percent, Standings},
};

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
        "Season {}: {}, {}, {} bots, {} of {}",
        h.season,
        h.game,
        h.format,
        s.bots.len(),
        s.games(),
        count(h.scheduled, "game")
    )
}

/// The most bots whose crosstable the terminal gets: a column a bot, it is
/// already about 230 characters wide at 20.
pub const TERMINAL_CROSSTABLE_MOST: usize = 20;

/// What `ladder run` prints when a season ends. The crosstable of more
/// than [`TERMINAL_CROSSTABLE_MOST`] bots is left to the report files,
/// which have it whole.
pub fn terminal(h: &Header, s: &Standings, paint: Paint) -> String {
    let look = Look::Text(paint);
    let pair = head_to_head(h, s).map_or(String::new(), |p| format!("\n{}", p.text()));
    let crosstable = if s.bots.len() <= TERMINAL_CROSSTABLE_MOST {
        format!(
            "Crosstable (row bot's points / games)\n{}",
            crosstable(s, look)
        )
    } else {
        format!(
            "Crosstable: {} bots, too wide for the terminal (at most {TERMINAL_CROSSTABLE_MOST} \
             shown here); it is in the reports (index.html, leaderboard.md, standings.json)",
            s.bots.len()
        )
    };
    format!(
        "{}\n{}\n{pair}\n{crosstable}\n\nTerminations\n{}\n",
        title(h, s),
        standings_table(s, look),
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
        zero_point(s)
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
    if let Some((los, bounds)) = los_table(s, Look::Markdown) {
        let _ = write!(
            out,
            "\n## Likelihood of superiority\n\nThe probability that the row bot is stronger than the column bot, from the rating fit.\n\n{los}\n"
        );
        if bounds {
            let _ = write!(out, "\n`n/a`: {}\n", tables::LOS_NOTE);
        }
    }
    out
}

/// Where the rating scale's zero is: `dp at 0`, or the rated bots' mean.
pub fn zero_point(s: &Standings) -> String {
    match ratings::fit(&s.vs, s.anchor).anchor {
        Some(a) if Some(a) == s.anchor => format!("{} at 0", s.bots[a]),
        // a bot that won or lost every game has only a bound, so the
        // scale sits on the rated bot with the most games
        Some(a) => format!("{} at 0 (some bots have only a bound)", s.bots[a]),
        None => "mean 0".to_string(),
    }
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
        "format_version": crate::core::record::FORMAT_VERSION,
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
/// `standings.json` and the HTML report ([`html::files`]).
pub fn write_files(dir: &Path, h: &Header, s: &Standings) -> Result<()> {
    rendered(dir, h, s, &ReportFormat::ALL)
}

/// Writes the reports in `formats` into `dir`, together ([`files::replace_all`]).
fn rendered(dir: &Path, h: &Header, s: &Standings, formats: &[ReportFormat]) -> Result<()> {
    let mut texts = Vec::new();
    for format in formats {
        match format {
            ReportFormat::Markdown => texts.push(("leaderboard.md", markdown(h, s))),
            ReportFormat::Csv => texts.push(("standings.csv", csv(s))),
            ReportFormat::Json => texts.push(("standings.json", json(h, s))),
            ReportFormat::Html => texts.extend(html::files(dir, h, s)),
        }
    }
    files::replace_all(dir, &texts)
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
    let mut header = recorded.header();
    // a shard's folder holds its shard's games only
    if let Some(shard) = crate::journal::shard::shard_of(dir)? {
        header.format = format!("{} (shard {} of {})", header.format, shard.k, shard.n);
        header.scheduled = shard.count(header.scheduled);
    }
    let standings = recorded.standings(dir)?;
    rendered(dir, &header, &standings, formats)?;
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
            .map(|d| format!("; the first: {}", crate::core::text::harmless(&d)))
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
    use comfy_table::Color;

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
            settings: vec![("seed".into(), "1".into())],
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
    fn a_field_too_wide_for_the_terminal_leaves_its_crosstable_to_the_reports() {
        let field = |n: usize| {
            let bots: Vec<String> = (0..n).map(|i| format!("bot-{i}")).collect();
            let games: Vec<Scored> = (1..n)
                .map(|i| Scored {
                    index: i as u64,
                    seats: BySeat::new(0, i),
                    seed: 0,
                    result: GameResult::First,
                    goals: BySeat::new(100, 0),
                    termination: Termination::Normal,
                    plies: 5,
                })
                .collect();
            terminal(&header(), &Standings::new(&bots, &games), Paint::PLAIN)
        };
        let most = field(TERMINAL_CROSSTABLE_MOST);
        assert!(
            most.contains("Crosstable (row bot's points / games)"),
            "{most}"
        );
        assert!(most.contains("┆ bot-19 ┆"), "{most}");
        let wide = field(TERMINAL_CROSSTABLE_MOST + 1);
        assert!(!wide.contains("Crosstable (row"), "{wide}");
        assert!(
            wide.contains("Crosstable: 21 bots, too wide for the terminal"),
            "{wide}"
        );
        // the standings still list every bot
        assert!(wide.contains("│   21 ┆ bot-"), "{wide}");
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
    fn the_los_note_on_n_a_comes_only_with_a_bot_rated_by_a_bound() {
        // dp and random drew a game: both rated, no `n/a`
        let both = standings();
        let md = markdown(&header(), &both);
        assert!(md.contains("## Likelihood of superiority"), "{md}");
        assert!(!md.contains("n/a"), "{md}");
        assert!(!html::season_page(&header(), &both, &html::Place::default()).contains("n/a"));
        // a third bot that won every game has only a bound
        let bots: Vec<String> = ["dp", "random", "best"].map(String::from).into();
        let game = |index, a, b, result, goals: (i32, i32)| Scored {
            index,
            seats: BySeat::new(a, b),
            seed: 0,
            result,
            goals: BySeat::new(goals.0, goals.1),
            termination: Termination::Normal,
            plies: 5,
        };
        let bound = Standings::new(
            &bots,
            &[
                game(0, 0, 1, GameResult::First, (100, 0)),
                game(1, 1, 0, GameResult::Draw, (50, 50)),
                game(2, 2, 0, GameResult::First, (100, 0)),
                game(3, 2, 1, GameResult::First, (100, 0)),
            ],
        );
        let md = markdown(&header(), &bound);
        assert!(md.contains("| best   |    - |   n/a |"), "{md}");
        assert!(md.contains(&format!("\n`n/a`: {LOS_NOTE}\n")), "{md}");
        let page = html::season_page(&header(), &bound, &html::Place::default());
        assert!(page.contains("<td>n/a</td>"), "{page}");
        assert!(page.contains("<code>n/a</code>: a bot that won"), "{page}");
        assert!(!page.contains('`'), "no Markdown in HTML: {page}");
    }

    #[test]
    fn shares_above_half_are_green_below_red() {
        assert_eq!(share_color(3.0, 4), Some(Color::Green));
        assert_eq!(share_color(1.5, 4), Some(Color::Red));
        assert_eq!(share_color(2.0, 4), None);
        assert_eq!(share_color(0.0, 0), None);
    }
}
