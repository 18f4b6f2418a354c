//! The arena's pages: one small HTML shell each, with the navigation and
//! the page's name, and one script (`assets/app.js`) that fills it from
//! the JSON API and refreshes it on the event stream. The script puts
//! every name, move and line into the page as text, never as HTML; the
//! shell escapes the little it shows itself.

use axum::{
    extract::Path as UrlPath,
    http::{header, StatusCode},
    response::{Html, IntoResponse, Response},
};

use crate::report::html::escape;

/// The pages' one script, and their style.
pub(super) const APP_JS: &str = include_str!("assets/app.js");
pub(super) const STYLE_CSS: &str = include_str!("assets/style.css");

/// JSON made safe to sit inside a `<script>` element: no `<` (so no
/// `</script>` and no `<!--`), written as the JSON escape `\u003c`.
pub fn escape_json(json: &str) -> String {
    json.replace('<', "\\u003c")
}

/// A path segment as a URL writes it: every byte but ASCII letters, digits
/// and `-._~@` percent-encoded.
fn url_segment(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A page: its title, the script's name for it and its argument (a bot,
/// a game number), and the API address of what it shows, for a browser
/// without JavaScript.
fn shell(title: &str, page: &str, arg: &str, api: &str) -> Html<String> {
    Html(format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · ladder arena</title>
<link rel="stylesheet" href="/assets/style.css">
</head>
<body>
<header>
<a class="brand" href="/">ladder arena</a>
<nav><a href="/">Leaderboard</a> <a href="/games">Games</a> <a href="/candidates">Candidates</a> <a href="/upload">Upload</a></nav>
<label class="token">token <input id="token" type="password" autocomplete="off" placeholder="for actions"></label>
</header>
<main id="app" data-page="{page}" data-arg="{arg}">
<h1>{title}</h1>
<p class="loading">Loading…</p>
<noscript><p>This page is drawn by its script, which this browser does not run. The same data is at <a href="{api}">{api}</a> (JSON), and <code>ladder arena show</code> prints the leaderboard in a terminal.</p></noscript>
</main>
<script src="/assets/app.js"></script>
</body>
</html>
"#,
        title = escape(title),
        page = escape(page),
        arg = escape(arg),
        api = escape(api),
    ))
}

pub async fn leaderboard() -> Html<String> {
    shell("Leaderboard", "leaderboard", "", "/api/leaderboard")
}

pub async fn bot(UrlPath(bot): UrlPath<String>) -> Html<String> {
    shell(
        &bot,
        "bot",
        &bot,
        &format!("/api/bots/{}", url_segment(&bot)),
    )
}

pub async fn games() -> Html<String> {
    shell("Games", "games", "", "/api/games")
}

pub async fn replay(UrlPath(number): UrlPath<String>) -> Html<String> {
    let api = format!("/api/games/{}", url_segment(&number));
    shell(&format!("Game {number}"), "replay", &number, &api)
}

pub async fn candidates() -> Html<String> {
    shell("Candidates", "candidates", "", "/api/candidates")
}

pub async fn upload() -> Html<String> {
    shell("Upload a bot", "upload", "", "/api/bots")
}

/// The script and the style sheet.
pub async fn asset(UrlPath(file): UrlPath<String>) -> Response {
    let (kind, text) = match file.as_str() {
        "app.js" => ("text/javascript; charset=utf-8", APP_JS),
        "style.css" => ("text/css; charset=utf-8", STYLE_CSS),
        _ => return (StatusCode::NOT_FOUND, "no such file").into_response(),
    };
    ([(header::CONTENT_TYPE, kind)], text).into_response()
}
