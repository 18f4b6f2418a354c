//! The HTML reports in a real browser: headless Chromium renders a season's
//! and a ladder's `index.html`; the rendered page shows the standings and
//! the charts, a screenshot is the right size and not blank, and the page
//! fetches nothing (checked in Chromium's network log, and in the file).
//!
//! Chromium is required under `CI=true` (`.ci/run` installs Debian's
//! `chromium`); elsewhere a machine without it skips these tests and says so.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command as StdCommand,
};

use assert_cmd::Command;
use tempfile::TempDir;

mod common;

/// The Chromium program, if there is one; under CI its absence fails.
fn chromium() -> Option<&'static str> {
    let found = ["chromium", "chromium-browser"].into_iter().find(|c| {
        StdCommand::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    common::require_tool(found.is_some(), "chromium", "chromium");
    found
}

/// Flags that keep Chromium's own background traffic down.
const QUIET: [&str; 10] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--disable-breakpad",
    "--hide-scrollbars",
];

/// Hosts Chromium itself talks to (updates, time, accounts), not the page.
const BROWSER_HOSTS: [&str; 4] = [
    "google.com/",
    "googleapis.com/",
    "gvt1.com/",
    "gstatic.com/",
];

/// The page's DOM after rendering, and every URL in the network log.
fn render(browser: &str, page: &Path, tmp: &Path) -> (String, Vec<String>) {
    let net = tmp.join("net.json");
    let out = StdCommand::new(browser)
        .args(QUIET)
        .arg(format!("--log-net-log={}", net.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log: serde_json::Value = serde_json::from_str(&fs::read_to_string(&net).unwrap())
        .unwrap_or(serde_json::json!({"events": []}));
    let mut urls = Vec::new();
    for e in log["events"].as_array().unwrap() {
        for key in ["url", "original_url"] {
            if let Some(u) = e["params"][key].as_str() {
                urls.push(u.to_string());
            }
        }
    }
    (String::from_utf8(out.stdout).unwrap(), urls)
}

/// A screenshot's size and how many of its pixels are not white.
fn screenshot(browser: &str, page: &Path, tmp: &Path) -> (u32, u32, usize) {
    let shot = tmp.join("shot.png");
    let out = StdCommand::new(browser)
        .args(QUIET)
        .arg("--window-size=1000,1400")
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let inked = buf[..info.buffer_size()]
        .chunks(channels)
        .filter(|p| p.iter().take(3).any(|&c| c < 200))
        .count();
    (info.width, info.height, inked)
}

/// What the file may not contain: anything that would load from elsewhere.
fn assert_self_contained(html: &str) {
    // SVG's namespace is a name, not a request
    let html = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    for bad in ["<script", "<link", "@import", "http://", "https://", "url("] {
        assert!(!html.contains(bad), "the page contains `{bad}`");
    }
}

fn assert_no_request_left(urls: &[String], page: &Path) {
    for url in urls {
        let browser = BROWSER_HOSTS.iter().any(|h| url.contains(h));
        assert!(
            browser || url == &format!("file://{}", page.display()),
            "the page requested {url}"
        );
    }
}

/// Opens `page` in the browser and checks it as a person gets it: a
/// self-contained file that shows each of `shown` and loads nothing else.
/// Returns the rendered DOM.
fn open_page(browser: &str, page: &Path, tmp: &Path, shown: &[&str]) -> String {
    assert_self_contained(&fs::read_to_string(page).unwrap());
    let (dom, urls) = render(browser, page, tmp);
    for shown in shown {
        assert!(dom.contains(shown), "the rendered page lacks {shown}");
    }
    assert_no_request_left(&urls, page);
    dom
}

fn ladder_bin() -> Command {
    Command::cargo_bin("ladder").unwrap()
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn a_seasons_report_shows_its_standings_and_charts_in_a_browser() {
    let Some(browser) = chromium() else { return };
    let tmp = TempDir::new().unwrap();
    ladder_bin()
        .arg("run")
        .arg(repo("configs/report-2016.toml"))
        .arg("--reports")
        .arg(tmp.path())
        .arg("-q")
        .current_dir(repo(""))
        .assert()
        .success();
    let dir = tmp.path().join("report-2016");
    let page = dir.join("index.html");
    open_page(
        browser,
        &page,
        tmp.path(),
        &[
            "<h2>Standings</h2>",
            "<td>optimal</td>",
            "<td class=\"n\">&gt; +1086</td>",
            "Likelihood of superiority",
            "aria-label=\"crosstable heatmap\"",
            "aria-label=\"game lengths\"",
            "Overall win percentage",
        ],
    );
    let (w, h, inked) = screenshot(browser, &page, tmp.path());
    assert_eq!((w, h), (1000, 1400));
    assert!(inked > 20_000, "only {inked} pixels drawn");
    // the charts stand alone too
    for svg in ["crosstable.svg", "lengths.svg"] {
        let text = fs::read_to_string(dir.join(svg)).unwrap();
        assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(text.contains("<rect"), "{svg} draws something");
    }
}

#[test]
fn a_ladders_report_shows_the_rating_history_chart_in_a_browser() {
    let Some(browser) = chromium() else { return };
    let tmp = TempDir::new().unwrap();
    let config = tmp.path().join("ladder.toml");
    fs::write(&config, include_str!("fixtures/bidders-ladder.toml")).unwrap();
    for _ in 0..3 {
        ladder_bin()
            .arg("season")
            .arg(&config)
            .arg("--reports")
            .arg(tmp.path())
            .arg("-q")
            .assert()
            .success();
    }
    let page = tmp.path().join("bidders/index.html");
    let dom = open_page(
        browser,
        &page,
        tmp.path(),
        &[
            "After season 3.",
            "Ratings across seasons",
            "<polyline",
            "<h2>Season 3</h2>",
            "Division 2",
            "season-003/division-1/index.html",
        ],
    );
    // one line per bot, a point per season
    assert_eq!(dom.matches("<polyline").count(), 4);
    assert_eq!(dom.matches("<circle").count(), 12);
    let (_, _, inked) = screenshot(browser, &page, tmp.path());
    assert!(inked > 20_000, "only {inked} pixels drawn");
    assert!(
        fs::read_to_string(tmp.path().join("bidders/rating-history.svg"))
            .unwrap()
            .contains("<polyline")
    );
}
