//! The ladder's HTML report, `reports/<ladder>/index.html`: the ladder now,
//! a chart of every bot's rating across the seasons (also written as
//! `rating-history.svg`), and each season's division tables. Self-contained
//! like the season reports it links to.

use std::{fmt::Write as _, path::Path};

use crate::{
    core::error::Result,
    core::files,
    ladder::{
        state::State,
        table::{order, rows, HEADER},
    },
    report::html::{escape, page, table},
};

/// Line colours, one per bot in ladder order (repeating).
const COLOURS: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// The ladder's page.
pub fn ladder_page(state: &State) -> String {
    let title = format!("Ladder {}: {}", state.ladder, state.game);
    let mut body = format!(
        "<h1>{}</h1>\n<p>After season {}.</p>\n<h2>The ladder</h2>\n",
        escape(&title),
        state.seasons.len()
    );
    // one table per division, then the retired bots
    let all = rows(state);
    let mut groups: Vec<(String, Vec<Vec<String>>)> = Vec::new();
    for row in all {
        let heading = match row[1].as_str() {
            "-" => "Retired".to_string(),
            d => format!("Division {d}"),
        };
        match groups.last_mut() {
            Some((h, rows)) if *h == heading => rows.push(row),
            _ => groups.push((heading, vec![row])),
        }
    }
    for (heading, rows) in &groups {
        let _ = writeln!(body, "<h3>{}</h3>", escape(heading));
        body.push_str(&table(&HEADER, rows));
    }
    body.push_str(
        "<p class=\"note\">Rating: Glicko-2, carried from season to season; ± twice the deviation.</p>\n",
    );
    let _ = write!(
        body,
        "<h2>Ratings across seasons</h2>\n{}\n",
        rating_history_svg(state)
    );
    for season in state.seasons.iter().rev() {
        let _ = writeln!(body, "<h2>Season {}</h2>", season.number);
        for d in &season.divisions {
            let folder = format!("{}/index.html", season.folder(d.division));
            if d.results.is_empty() {
                let up = match d.bots.iter().find(|b| season.alone.contains(b)) {
                    Some(b) => format!(" {} had no one to play and moved up.", escape(b)),
                    None => String::new(),
                };
                let _ = writeln!(body, "<p>Division {}: no games.{up}</p>", d.division);
                continue;
            }
            let _ = writeln!(
                body,
                "<h3>Division {} (<a href=\"{}\">its report</a>)</h3>",
                d.division,
                escape(&folder)
            );
            let rows: Vec<Vec<String>> = d
                .results
                .iter()
                .map(|r| {
                    vec![
                        r.rank.to_string(),
                        r.bot.clone(),
                        r.games.to_string(),
                        r.won.to_string(),
                        r.lost.to_string(),
                        r.tie.to_string(),
                        format!("{}", r.points),
                        format!("{:.0} ± {:.0}", r.rating, 2.0 * r.deviation),
                        r.movement.word().to_string(),
                    ]
                })
                .collect();
            body.push_str(&table(
                &[
                    "Rank", "Bot", "Games", "Won", "Lost", "Tie", "Points", "Rating", "Move",
                ],
                &rows,
            ));
        }
        if !season.joined.is_empty() || !season.retired.is_empty() {
            let _ = writeln!(
                body,
                "<p class=\"note\">Joined: {}. Retired: {}.</p>",
                escape(&or_none(&season.joined)),
                escape(&or_none(&season.retired))
            );
        }
    }
    page(&title, &body)
}

fn or_none(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

/// Every bot's rating after each season it played, one line per bot, each
/// line told apart by its colour, width and dashes (also in the legend).
pub fn rating_history_svg(state: &State) -> String {
    let (w, h, left, right, top, bottom) =
        (760usize, 360usize, 60usize, 160usize, 20usize, 40usize);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"ratings across seasons\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n"
    );
    let seasons = state.seasons.len().max(1);
    let points = || {
        state
            .bots
            .values()
            .flat_map(|b| b.history.iter().map(|p| p.1))
    };
    let (lo, hi) = (
        points().fold(f64::INFINITY, f64::min),
        points().fold(f64::NEG_INFINITY, f64::max),
    );
    if !lo.is_finite() {
        svg.push_str("</svg>\n");
        return svg;
    }
    // whole hundreds around the ratings
    let (lo, hi) = ((lo / 100.0).floor() * 100.0, (hi / 100.0).ceil() * 100.0);
    let hi = if hi <= lo { lo + 100.0 } else { hi };
    let plot_w = (w - left - right) as f64;
    let plot_h = (h - top - bottom) as f64;
    let x = |season: u32| {
        left as f64
            + if seasons == 1 {
                plot_w / 2.0
            } else {
                plot_w * f64::from(season - 1) / (seasons - 1) as f64
            }
    };
    let y = |rating: f64| top as f64 + plot_h * (hi - rating) / (hi - lo);
    let mut grid = lo;
    while grid <= hi {
        let _ = writeln!(
            svg,
            "<line x1=\"{left}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#eee\"/>\n<text x=\"{}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\" dominant-baseline=\"middle\">{grid:.0}</text>",
            y(grid),
            left as f64 + plot_w,
            y(grid),
            left - 6,
            y(grid)
        );
        grid += ((hi - lo) / 5.0 / 100.0).ceil().max(1.0) * 100.0;
    }
    for n in 1..=seasons as u32 {
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{n}</text>",
            x(n),
            h - bottom + 16
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">season</text>",
        left as f64 + plot_w / 2.0,
        h - 6
    );
    // bots with the same ratings would hide each other: each line has its
    // own width and dashes, the widest drawn first, so one under another
    // still shows at its edges and through its gaps
    const WIDTHS: [f64; 3] = [6.0, 3.5, 1.5];
    const DASHES: [&str; 4] = ["none", "9 4", "3 3", "12 3 3 3"];
    for (k, (name, bot)) in order(state).into_iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let (width, dash) = (WIDTHS[k % WIDTHS.len()], DASHES[k % DASHES.len()]);
        let path: Vec<String> = bot
            .history
            .iter()
            .map(|p| format!("{:.1},{:.1}", x(p.0), y(p.1)))
            .collect();
        if path.is_empty() {
            continue;
        }
        let _ = writeln!(
            svg,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{width}\" stroke-dasharray=\"{dash}\" stroke-opacity=\"0.85\"/>",
            path.join(" ")
        );
        for p in &bot.history {
            let _ = writeln!(
                svg,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{colour}\"><title>{} season {}: {:.0} ± {:.0}</title></circle>",
                x(p.0),
                y(p.1),
                escape(name),
                p.0,
                p.1,
                2.0 * p.2
            );
        }
        let _ = writeln!(
            svg,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"{width}\" stroke-dasharray=\"{dash}\"/>\n<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"{colour}\">{}</text>",
            w - right + 8,
            top + 16 * k + 6,
            w - right + 34,
            top + 16 * k + 6,
            w - right + 40,
            top + 16 * k + 10,
            escape(name)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// Writes `index.html` and `rating-history.svg` into the ladder's folder.
pub fn write_files(dir: &Path, state: &State) -> Result<()> {
    files::replace_all(
        dir,
        &[
            ("index.html", ladder_page(state)),
            ("rating-history.svg", rating_history_svg(state)),
        ],
    )
}
