//! The HTML report of a season: one self-contained `index.html` (inline
//! style and SVG; no script, font or request leaves the page) with the
//! standings and ratings, the likelihood of superiority, each bot's results
//! against each opponent (the 2016 report's Table 4.1), a crosstable
//! heatmap, the terminations and the distribution of game lengths. The
//! charts are also written as standalone `.svg` files. Pure rendering, like
//! [`crate::report`]: the same results give the same bytes.

use std::{fmt::Write as _, path::Path};

use crate::{core::text::count, plan::Header, report, stats::standings::Standings};

/// `text` safe inside HTML or SVG text and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A whole page around `body`: the style inline, nothing fetched.
pub fn page(title: &str, body: &str) -> String {
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; color: #222; }}
h1 {{ font-size: 1.5em; }} h2 {{ font-size: 1.2em; margin-top: 2em; }}
table {{ border-collapse: collapse; margin: 0.5em 0; }}
th, td {{ border: 1px solid #ccc; padding: 0.25em 0.6em; }}
th {{ background: #f3f3f3; }} td.n {{ text-align: right; font-variant-numeric: tabular-nums; }}
p.note {{ color: #555; font-size: 0.9em; }}
svg text {{ font-family: system-ui, sans-serif; }}
</style>
</head>
<body>
{body}
</body>
</html>
"#,
        title = escape(title)
    )
}

/// An HTML table: `header`, then rows of cells; cells that look like
/// numbers are right-aligned.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = String::from("<table>\n<tr>");
    for h in header {
        let _ = write!(out, "<th>{}</th>", escape(h));
    }
    out.push_str("</tr>\n");
    for row in rows {
        out.push_str("<tr>");
        for cell in row {
            let numeric = cell
                .trim_start_matches(['+', '-', '>', '<', ' '])
                .starts_with(|c: char| c.is_ascii_digit());
            let class = if numeric { " class=\"n\"" } else { "" };
            let _ = write!(out, "<td{class}>{}</td>", escape(cell));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out
}

/// Where a season's page sits: in a ladder (its name and the way back to
/// its page), and whether its games have replay pages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub ladder: Option<(String, String)>,
    pub replays: bool,
}

impl Place {
    /// The place of the season folder `dir`: a ladder's when `ladder.json`
    /// is one or two folders up (`season-003/`, `season-003/division-1/`).
    pub fn of(dir: &Path) -> Place {
        let mut ladder = None;
        let mut up = dir.to_path_buf();
        for back in ["../index.html", "../../index.html"] {
            match up.parent() {
                Some(p) if !p.as_os_str().is_empty() => up = p.to_path_buf(),
                _ => break,
            }
            if up.join("ladder.json").is_file() {
                let name = up
                    .canonicalize()
                    .ok()
                    .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .unwrap_or_else(|| "ladder".into());
                ladder = Some((name, back.to_string()));
                break;
            }
        }
        Place {
            ladder,
            replays: dir.join("replays/index.html").is_file(),
        }
    }
}

/// The season's `index.html`.
pub fn season_page(h: &Header, s: &Standings, place: &Place) -> String {
    let order = s.ranking();
    let title = match &place.ladder {
        Some((ladder, _)) => format!("Ladder {ladder}, {}: {}", h.season, h.game),
        None => format!("Season {}: {}", h.season, h.game),
    };
    let back = match &place.ladder {
        Some((ladder, href)) => format!(
            "<p><a href=\"{}\">&larr; the ladder {}</a></p>\n",
            escape(href),
            escape(ladder)
        ),
        None => String::new(),
    };
    let mut body = format!(
        "{back}<h1>{}</h1>\n<p>{}, {} bots, {} of {}.</p>\n<h2>Standings</h2>\n",
        escape(&title),
        escape(&h.format),
        s.bots.len(),
        s.games(),
        count(h.scheduled, "game")
    );
    body.push_str(&table(
        &report::STANDINGS_HEADER,
        &report::standings_rows(s),
    ));
    let _ = writeln!(
        body,
        "<p class=\"note\">Elo: one maximum-likelihood fit of every game (Bradley-Terry, draws as \
         half points) with its 95% interval, {}; <code>&gt;</code>/<code>&lt;</code>: a bound for a \
         bot that won or lost every game against the rated bots.</p>",
        escape(&report::zero_point(s))
    );
    body.push_str("<h2>Games</h2>\n");
    if place.replays {
        body.push_str(
            "<p><a href=\"replays/index.html\">Every game</a>, each with its replay: step, play \
             and scrub through its positions.</p>\n",
        );
    } else {
        body.push_str(
            "<p class=\"note\">Every game is in <code>games.jsonl</code>. <code>ladder report \
             DIR --replays</code> writes a replay page for each (linked here); <code>ladder replay \
             DIR --game N</code> tells one at the terminal.</p>\n",
        );
    }
    body.push_str("<h2>Settings</h2>\n");
    let mut rows: Vec<Vec<String>> = h
        .settings
        .iter()
        .map(|(k, v)| vec![k.clone(), v.clone()])
        .collect();
    rows.push(vec![
        "everything, as the season ran".into(),
        "season.json (in this folder)".into(),
    ]);
    body.push_str(&table(&["Setting", "Value"], &rows));
    if let Some(pair) = report::head_to_head(h, s) {
        body.push_str("<h2>Head to head</h2>\n");
        for line in pair.text().lines() {
            let _ = writeln!(body, "<p>{}</p>", escape(line));
        }
    }
    body.push_str(&los_section(s));
    let cut = if s.bots.len() > MATRIX_MOST {
        cut_note(
            s.bots.len(),
            "<code>leaderboard.md</code> and <code>standings.json</code> have",
        )
    } else {
        String::new()
    };
    let _ = write!(
        body,
        "<h2>Crosstable</h2>\n<p class=\"note\">The row bot's points against the column bot, out of \
         their games; green where it scored more than half.</p>\n{cut}{}\n",
        heatmap_svg(s)
    );
    body.push_str("<h2>Terminations</h2>\n");
    body.push_str(&table(
        &report::TERMINATIONS_HEADER,
        &report::terminations_rows(s),
    ));
    let _ = write!(
        body,
        "<h2>Game lengths</h2>\n<p class=\"note\">Games by the number of turns they lasted.</p>\n{}\n",
        lengths_svg(s)
    );
    for &b in &order {
        let _ = writeln!(body, "<h2>{}</h2>", escape(&s.bots[b]));
        body.push_str(&table(
            &report::OPPONENTS_HEADER,
            &report::opponents_rows(s, b),
        ));
        let _ = writeln!(
            body,
            "<p>Overall win percentage: {:.1}%</p>",
            s.totals[b].win_percent()
        );
    }
    page(&title, &body)
}

/// The most bots the page's matrices (the likelihood of superiority, the
/// crosstable heatmap and `crosstable.svg`) show: a larger field's show
/// the bots ranked first, and `leaderboard.md` and `standings.json` have
/// every pair. A matrix grows with the square of the field: 600 bots' whole
/// heatmap was 68 MB, more than a browser shows.
pub const MATRIX_MOST: usize = 40;

/// The note under a matrix cut to [`MATRIX_MOST`] of `all` bots.
fn cut_note(all: usize, whole_in: &str) -> String {
    format!(
        "<p class=\"note\">The {MATRIX_MOST} bots ranked first of {all}; {whole_in} every \
         pair.</p>\n"
    )
}

/// The likelihood-of-superiority matrix of the rated bots.
fn los_section(s: &Standings) -> String {
    let Some((mut header, mut rows)) = report::los_rows(s) else {
        return String::new();
    };
    let all = rows.len();
    let cut = if all > MATRIX_MOST {
        rows.truncate(MATRIX_MOST);
        header.truncate(MATRIX_MOST + 1);
        for row in &mut rows {
            row.truncate(MATRIX_MOST + 1);
        }
        cut_note(all, "<code>standings.json</code> (<code>los</code>) has")
    } else {
        String::new()
    };
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let note = if report::los_has_bounds(&rows) {
        format!(
            "<p class=\"note\"><code>n/a</code>: {}</p>\n",
            escape(report::LOS_NOTE)
        )
    } else {
        String::new()
    };
    format!(
        "<h2>Likelihood of superiority</h2>\n<p class=\"note\">The probability that the row bot is \
         stronger than the column bot, from the rating fit.</p>\n{cut}{}{note}",
        table(&header, &rows)
    )
}

/// A colour from red (0) through white (0.5) to green (1).
fn score_colour(score: f64) -> String {
    let s = score.clamp(0.0, 1.0);
    let (r, g, b) = if s < 0.5 {
        let t = s / 0.5;
        (230.0 + 25.0 * t, 90.0 + 165.0 * t, 90.0 + 165.0 * t)
    } else {
        let t = (s - 0.5) / 0.5;
        (255.0 - 165.0 * t, 255.0 - 45.0 * t, 255.0 - 165.0 * t)
    };
    format!("rgb({},{},{})", r as u8, g as u8, b as u8)
}

/// The crosstable as an SVG heatmap, bots in ranking order (the first
/// [`MATRIX_MOST`] of a larger field).
pub fn heatmap_svg(s: &Standings) -> String {
    let mut order = s.ranking();
    let all = order.len();
    order.truncate(MATRIX_MOST);
    let n = order.len();
    let what = if all > n {
        format!("crosstable heatmap of the {n} bots ranked first of {all}")
    } else {
        "crosstable heatmap".to_string()
    };
    let label = 8 * order
        .iter()
        .map(|&b| s.bots[b].len())
        .max()
        .unwrap_or(4)
        .max(4)
        + 16;
    let cell = 84;
    // room on the right for the slanted column names
    let (w, h) = (2 * label + cell * n, label + cell * n + 10);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{what}\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n"
    );
    for (k, &b) in order.iter().enumerate() {
        let name = escape(&s.bots[b]);
        let c = label + k * cell + cell / 2;
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{c}\" font-size=\"13\" text-anchor=\"end\" dominant-baseline=\"middle\">{name}</text>",
            label - 6
        );
        let _ = writeln!(
            svg,
            "<text x=\"{c}\" y=\"{}\" font-size=\"13\" text-anchor=\"start\" transform=\"rotate(-45 {c} {})\">{name}</text>",
            label - 6,
            label - 6
        );
    }
    for (i, &a) in order.iter().enumerate() {
        for (j, &b) in order.iter().enumerate() {
            let (x, y) = (label + j * cell, label + i * cell);
            let v = &s.vs[a][b];
            let (fill, text) = match (a == b, v.games) {
                (true, _) => ("#ddd".to_string(), String::new()),
                (false, 0) => ("#f7f7f7".to_string(), String::new()),
                (false, g) => (
                    score_colour(v.points() / g as f64),
                    format!("{}/{g}", v.points()),
                ),
            };
            let _ = writeln!(
                svg,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"{fill}\" stroke=\"white\"/>"
            );
            if !text.is_empty() {
                let _ = writeln!(
                    svg,
                    "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" dominant-baseline=\"middle\">{text}</text>",
                    x + cell / 2,
                    y + cell / 2
                );
            }
        }
    }
    svg.push_str("</svg>\n");
    svg
}

/// A bar chart of game lengths (turns), in at most 40 bins.
pub fn lengths_svg(s: &Standings) -> String {
    let (w, h, left, bottom) = (640usize, 260usize, 50usize, 40usize);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"game lengths\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n"
    );
    let (Some((&lo, _)), Some((&hi, _))) =
        (s.lengths.first_key_value(), s.lengths.last_key_value())
    else {
        svg.push_str("</svg>\n");
        return svg;
    };
    let width = ((hi - lo) / 40 + 1) as usize;
    let bins = (hi - lo) as usize / width + 1;
    let mut counts = vec![0u64; bins];
    for (&len, &n) in &s.lengths {
        counts[(len - lo) as usize / width] += n;
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1);
    let plot_w = w - left - 10;
    let plot_h = h - bottom - 10;
    let bar = plot_w as f64 / bins as f64;
    for (k, &n) in counts.iter().enumerate() {
        let bh = plot_h as f64 * n as f64 / top as f64;
        let _ = writeln!(
            svg,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"#4a7ab7\"><title>{}{} turns: {}</title></rect>",
            left as f64 + k as f64 * bar + 1.0,
            10.0 + plot_h as f64 - bh,
            (bar - 2.0).max(1.0),
            lo as usize + k * width,
            if width > 1 {
                format!("-{}", lo as usize + (k + 1) * width - 1)
            } else {
                String::new()
            },
            count(n, "game")
        );
    }
    let axis_y = 10 + plot_h;
    let _ = writeln!(
        svg,
        "<line x1=\"{left}\" y1=\"{axis_y}\" x2=\"{}\" y2=\"{axis_y}\" stroke=\"#333\"/>\n<line x1=\"{left}\" y1=\"10\" x2=\"{left}\" y2=\"{axis_y}\" stroke=\"#333\"/>",
        w - 10
    );
    let _ = writeln!(
        svg,
        "<text x=\"{left}\" y=\"{}\" font-size=\"12\">{lo}</text>\n<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\">{hi}</text>\n<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">turns</text>\n<text x=\"{}\" y=\"20\" font-size=\"12\" text-anchor=\"end\">{top}</text>",
        axis_y + 16,
        w - 10,
        axis_y + 16,
        left + plot_w / 2,
        axis_y + 32,
        left - 6
    );
    svg.push_str("</svg>\n");
    svg
}

/// The HTML report of the season in `dir`: `index.html`, `crosstable.svg`
/// and `lengths.svg`, each a name and its text.
pub fn files(dir: &Path, h: &Header, s: &Standings) -> [(&'static str, String); 3] {
    [
        ("index.html", season_page(h, s, &Place::of(dir))),
        ("crosstable.svg", heatmap_svg(s)),
        ("lengths.svg", lengths_svg(s)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        core::record::Scored,
        core::{game::GameResult, referee::Termination, seat::BySeat},
    };

    /// A round robin of `n` bots, each pair once won by each: every bot rated.
    fn field(n: usize) -> Standings {
        let bots: Vec<String> = (0..n).map(|i| format!("bot-{i}")).collect();
        let mut games = Vec::new();
        for i in 0..n {
            for j in (i + 1)..n {
                for result in [GameResult::First, GameResult::Second] {
                    games.push(Scored {
                        index: games.len() as u64,
                        seats: BySeat::new(i, j),
                        seed: 0,
                        result,
                        goals: match result {
                            GameResult::First => BySeat::new(100, 0),
                            _ => BySeat::new(0, 100),
                        },
                        termination: Termination::Normal,
                        plies: 5,
                    });
                }
            }
        }
        Standings::new(&bots, &games)
    }

    #[test]
    fn a_large_fields_matrices_show_the_bots_ranked_first_and_say_so() {
        let header = Header {
            season: "s".into(),
            game: "g".into(),
            format: "round-robin".into(),
            scheduled: 0,
            sprt: None,
            settings: Vec::new(),
        };
        let section = |page: &str, from: &str, to: &str| -> String {
            let start = page.find(from).unwrap();
            let end = start + page[start..].find(to).unwrap();
            page[start..end].to_string()
        };
        for (n, shown) in [(MATRIX_MOST, MATRIX_MOST), (MATRIX_MOST + 5, MATRIX_MOST)] {
            let s = field(n);
            let page = season_page(&header, &s, &Place::of(Path::new("no-such-folder")));
            let los = section(&page, "<h2>Likelihood of superiority", "<h2>Crosstable");
            // a header row and a row a bot shown, each with a cell a bot shown
            assert_eq!(los.matches("<tr>").count(), shown + 1, "{n} bots");
            assert_eq!(los.matches("<th>").count(), shown + 1, "{n} bots");
            let heatmap = heatmap_svg(&s);
            assert_eq!(
                heatmap.matches("<rect x=").count(),
                shown * shown,
                "{n} bots"
            );
            let cut = format!("The {MATRIX_MOST} bots ranked first of {n}");
            if n > MATRIX_MOST {
                assert_eq!(page.matches(&cut).count(), 2, "{page}");
                assert!(heatmap.contains(&format!(
                    "aria-label=\"crosstable heatmap of the {MATRIX_MOST} bots ranked first of {n}\""
                )));
                // the first shown are the first ranked
                let first = &s.bots[s.ranking()[0]];
                assert!(los.contains(&format!("<th>{first}</th>")), "{los}");
            } else {
                assert!(!page.contains("ranked first of"), "{n} bots");
                assert!(heatmap.contains("aria-label=\"crosstable heatmap\""));
            }
            // every bot keeps its own section
            for i in 0..n {
                assert!(page.contains(&format!("<h2>bot-{i}</h2>")), "bot-{i}");
            }
        }
    }

    #[test]
    fn text_is_escaped_and_colours_run_from_red_to_green() {
        assert_eq!(escape("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
        assert_eq!(score_colour(0.5), "rgb(255,255,255)");
        assert_eq!(score_colour(1.0), "rgb(90,210,90)");
        assert_eq!(score_colour(0.0), "rgb(230,90,90)");
    }
}
