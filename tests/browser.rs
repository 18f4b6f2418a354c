//! The arena's pages in a real browser: Debian's Chromium, driven through
//! chromedriver (WebDriver), against `ladder arena run --listen` and
//! `arena serve`. A leaderboard page left open shows a bot that another
//! process added, without a reload; a bot uploaded from the page plays; a
//! hostile bot's output renders as text; every catalogue game's replay,
//! stepped to its last turn, shows the final position `ladder replay`
//! tells; an action without the token is refused beyond loopback, and
//! done with it; a candidate is rejected from its page.
//!
//! With `LADDER_SCREENSHOTS=DIR` the tests also write each page's
//! screenshot into DIR (`scripts/screenshots.sh` makes docs/screenshots/).

use std::{fs, path::Path, process::Command};

use serde_json::Value;

mod common;
use common::{
    ladder, repo,
    web::{get, Browser, Served},
};

const LADDER: &str = env!("CARGO_BIN_EXE_ladder");

/// Writes the page's screenshot as `name.png` into `LADDER_SCREENSHOTS`
/// when it is set; always checks that a screenshot is a PNG, and that the
/// page shows no value its script lacked (`undefined`, `null`, `NaN`).
fn screenshot(browser: &Browser, name: &str) {
    let lacking = browser.eval(
        "return (document.body.innerText.match(/\\b(undefined|null|NaN)\\b/g) || []).join(' ')",
    );
    assert_eq!(lacking, "", "{name}: a value the page lacked");
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("shot.png");
    browser.screenshot(&path);
    assert_eq!(&fs::read(&path).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
    if let Ok(dir) = std::env::var("LADDER_SCREENSHOTS") {
        fs::create_dir_all(&dir).unwrap();
        fs::copy(&path, Path::new(&dir).join(format!("{name}.png"))).unwrap();
    }
}

/// An arena of `game` (with `params`) and `bots` (`[[bot]]` tables), in
/// batches of `batch` games.
fn arena(dir: &Path, game: &str, params: &str, batch: u32, bots: &str) {
    let config = format!(
        "[season]\ngame = \"{game}\"\nseed = 7\n{params}\n[arena]\nbatch_games = {batch}\nnewcomer_games = 2\n{bots}"
    );
    fs::write(dir.join("arena.toml"), config).unwrap();
    ladder(dir, &["arena", "init", "arena", "--config", "arena.toml"]);
}

const TWO_BOTS: &str = "[[bot]]\nname = \"alpha\"\nbuiltin = \"random\"\n\n[[bot]]\nname = \"beta\"\nbuiltin = \"greedy\"\n";

/// Uploads `file` from the page at `url`/upload as the bot `name` run by
/// `command`; `before_submit` may look at or change the filled form. The
/// page's messages afterwards.
fn upload(
    browser: &Browser,
    url: &str,
    (name, file, command): (&str, &Path, &str),
    before_submit: impl FnOnce(&Browser),
) -> Value {
    browser.goto(&format!("{url}/upload"));
    browser.expect(30, "return document.querySelector('#upload') !== null");
    browser.type_into("#upload input[name=name]", name);
    browser.type_into("#upload input[name=file]", &file.display().to_string());
    browser.type_into("#upload input[name=command]", command);
    before_submit(browser);
    browser.eval("document.querySelector('#upload button[type=submit]').click(); return 1");
    browser.expect(
        60,
        "const m = document.getElementById('messages'); return m && m.textContent",
    )
}

/// The bot of row `bot` in the leaderboard, or `null`.
fn row(bot: &str) -> String {
    format!("return document.querySelector('#leaderboard tr[data-bot=\"{bot}\"]') !== null")
}

#[test]
fn the_leaderboard_moves_by_itself_an_upload_plays_and_hostile_text_stays_text() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    arena(dir, "breakthrough", "", 4, TWO_BOTS);
    let web = Served::start(dir, &["run", "arena"]);
    browser.goto(&format!("{}/", web.url));
    // the leaderboard shows its bots
    browser.expect(60, &row("beta@1"));
    // a mark on the page: a reload would lose it
    browser.eval("window.kept = 'this page'; return 1");
    ladder(
        dir,
        &["arena", "add", "arena", "gamma", "--builtin", "random"],
    );
    // a bot added elsewhere appears
    browser.expect(60, &row("gamma@1"));
    // the page heard of it on the event stream (which sets this mark)
    assert_ne!(
        browser.eval("return document.getElementById('app').dataset.progress || ''"),
        ""
    );
    assert_eq!(
        browser.eval("return window.kept"),
        "this page",
        "the page reloaded"
    );
    // games in progress are shown, or that none is
    assert!(browser
        .eval("return document.getElementById('in-progress').textContent")
        .as_str()
        .unwrap()
        .contains("progress"));
    screenshot(&browser, "leaderboard");

    // an upload from the page joins and plays
    let bot = dir.join("bot.py");
    fs::copy(repo("bots/python/breakthrough_bot.py"), &bot).unwrap();
    let said = upload(
        &browser,
        &web.url,
        ("uploaded", &bot, "python3 bot.py"),
        |b| screenshot(b, "upload"),
    );
    assert_eq!(said, "added uploaded@1");
    let played = common::wait_for(180, || {
        get(&format!("{}/api/bots/uploaded@1", web.url)).1["total"]["games"]
            .as_u64()
            .is_some_and(|g| g > 0)
    });
    assert!(played, "the uploaded bot never played");
    let (_, b) = get(&format!("{}/api/bots/uploaded@1", web.url));
    assert_eq!(b["bot"]["spec"]["sandbox"], "bwrap");
    assert_eq!(
        b["total"]["games"].as_u64(),
        Some(
            b["total"]["won"].as_u64().unwrap()
                + b["total"]["lost"].as_u64().unwrap()
                + b["total"]["drawn"].as_u64().unwrap()
        )
    );

    // a name the arena refuses: its message, which quotes it, is text
    let said = upload(
        &browser,
        &web.url,
        ("<script>alert(1)</script>", &bot, "python3 bot.py"),
        |b| {
            b.eval(
                "document.querySelector('#upload input[name=name]').removeAttribute('pattern'); \
                 return 1",
            );
        },
    );
    assert!(
        said.as_str().unwrap().contains("<script>alert(1)</script>"),
        "{said}"
    );
    assert_eq!(
        browser.eval("return document.querySelectorAll('#messages script').length"),
        0
    );

    // a word of the command that reads as a file but is none of the
    // upload's: the bot joins, and the page notes the word, as text
    let said = upload(
        &browser,
        &web.url,
        ("noted", &bot, "python3 bot.py <b>book</b>.py"),
        |_| {},
    );
    assert_eq!(
        said,
        "added noted@1note: `<b>book</b>.py` in the command is none of the uploaded files, \
         so the bot will not find it unless it makes it"
    );
    assert_eq!(
        browser.eval("return document.querySelectorAll('#messages b').length"),
        0
    );
    ladder(dir, &["arena", "retire", "arena", "noted"]);

    // a bot named `<script>alert(1)</script>` (an address anyone can type):
    // its page shows the name, and the arena's answer quoting it, as text
    browser.goto(&format!(
        "{}/bots/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        web.url
    ));
    let said = browser.expect(
        30,
        "const e = document.querySelector('#app .error'); return e && e.textContent",
    );
    assert_eq!(said, "no bot <script>alert(1)</script> in the arena");
    assert_eq!(
        browser.eval("return document.querySelectorAll('#app script').length"),
        0
    );
    // a hostile bot whose every answer is markup: its forfeits show it as text
    let evil = "import sys\nfor line in sys.stdin:\n    w = line.split()\n    if w and w[0] == 'ladder':\n        print('ready evil', flush=True)\n    elif w and w[0] == 'turn':\n        print('<img src=x onerror=\"window.pwned=1\"><script>window.pwned=1</script>', flush=True)\n    elif w and w[0] == 'over':\n        print('ready', flush=True)\n";
    fs::write(dir.join("evil.py"), evil).unwrap();
    ladder(
        dir,
        &["arena", "add", "arena", "evil", "--", "python3", "evil.py"],
    );
    let forfeited = common::wait_for(180, || {
        get(&format!("{}/api/bots/evil@1", web.url)).1["forfeits"]
            .as_array()
            .is_some_and(|f| !f.is_empty())
    });
    assert!(forfeited, "the hostile bot never forfeited");
    browser.goto(&format!("{}/bots/evil@1", web.url));
    let text = browser.expect(
        60,
        "const f = document.getElementById('forfeits'); return f && f.textContent",
    );
    assert!(
        text.as_str()
            .unwrap()
            .contains("<script>window.pwned=1</script>"),
        "{text}"
    );
    assert_eq!(
        browser.eval("return document.querySelectorAll('#forfeits img, #forfeits script').length"),
        0
    );
    assert_eq!(browser.eval("return window.pwned === undefined"), true);
    // the bot page has its chart, its results per opponent, its versions
    screenshot(&browser, "forfeits");
    // a rated bot's page has its rating over time as a chart
    let mut rated = None;
    let found = common::wait_for(180, || {
        let (_, lb) = get(&format!("{}/api/leaderboard", web.url));
        rated = lb["rows"].as_array().and_then(|rows| {
            rows.iter()
                .find(|r| r["rating"].is_number() && r["bot"] != "evil@1")
                .map(|r| r["bot"].as_str().unwrap().to_string())
        });
        rated.is_some()
    });
    assert!(found, "no bot was ever rated");
    browser.goto(&format!("{}/bots/{}", web.url, rated.unwrap()));
    browser.expect(
        60,
        "return document.querySelectorAll('svg.chart polyline').length === 1",
    );
    screenshot(&browser, "bot");

    // the games page: a filter narrows the list and the leaderboard over it
    browser.goto(&format!("{}/games?bot=evil&result=loss", web.url));
    let total = browser.expect(
        60,
        "const h = document.getElementById('games-total'); return h && h.textContent",
    );
    let (_, api) = get(&format!("{}/api/games?bot=evil&result=loss", web.url));
    let shown: u64 = total
        .as_str()
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        shown >= 1 && shown <= api["total"].as_u64().unwrap(),
        "{total} vs {api}"
    );
    assert_eq!(
        browser.eval("return document.querySelector('#filtered-leaderboard') !== null"),
        true
    );
    screenshot(&browser, "games");
}

/// The final position `ladder replay` tells: the text between the last
/// turn's line and the result.
fn final_picture(told: &str) -> String {
    let body = told.rsplit_once("\n\nResult:").unwrap().0;
    let after_turn = body.rsplit_once("\nTurn ").map_or(body, |(_, t)| t);
    after_turn
        .split_once('\n')
        .map_or("", |(_, p)| p)
        .trim_end()
        .to_string()
}

#[test]
fn an_arenas_seasons_show_under_its_leaderboard_and_stay_open_while_it_moves() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // (the bots' tables follow the [arena] table's keys)
    // 24 seasons of 2 games: the page shows the newest 20
    let bots = format!("season_games = 2\n{TWO_BOTS}");
    arena(dir, "breakthrough", "", 4, &bots);
    ladder(dir, &["arena", "run", "arena", "-q", "--batches", "12"]);
    let web = Served::start(dir, &["serve", "arena"]);
    browser.goto(&format!("{}/", web.url));
    browser.expect(
        60,
        "return document.querySelectorAll('#seasons details').length === 20",
    );
    assert_eq!(
        browser.eval("return document.getElementById('earlier-seasons').textContent"),
        "The newest 20 of 24; season K's table: /api/seasons/K"
    );
    // newest first, each season's rows as the API gives them
    let shown = browser.eval(
        "return [...document.querySelectorAll('#seasons details')].map((d) => d.dataset.season + ': ' + \
         [...d.querySelectorAll('tbody tr')].map((r) => [...r.cells].map((c) => c.textContent).join('|')).join('; '))",
    );
    let (_, api) = get(&format!("{}/api/seasons", web.url));
    assert_eq!(api["every"], 2);
    let keys = [
        "rank",
        "bot",
        "season_rating_text",
        "rating_text",
        "games",
        "won",
        "lost",
        "drawn",
        "points",
        "forfeits",
    ];
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => format!("{}", n.as_f64().unwrap()),
        other => panic!("{other}"),
    };
    let expected: Vec<String> = api["seasons"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .map(|season| {
            let rows: Vec<String> = season["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| keys.map(|k| text(&r[k])).join("|"))
                .collect();
            format!("{}: {}", season["number"], rows.join("; "))
        })
        .collect();
    assert_eq!(shown, serde_json::json!(expected));
    assert_eq!(expected.len(), 20);
    assert!(expected[19].starts_with("5: 1|"), "{expected:?}");
    // a season opened stays open when the page redraws for a bot added
    // from a terminal
    let first = "document.querySelector('#seasons details[data-season=\"5\"]')";
    browser.eval(&format!(
        "{first}.querySelector('summary').click(); return 1"
    ));
    ladder(
        dir,
        &["arena", "add", "arena", "gamma", "--builtin", "random"],
    );
    browser.expect(60, &row("gamma@1"));
    assert_eq!(browser.eval(&format!("return {first}.open")), true);
    screenshot(&browser, "seasons");
}

#[test]
fn every_catalogue_game_replays_to_the_final_position_its_journal_implies() {
    let Some(browser) = Browser::start() else {
        return;
    };
    for kind in common::games() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let bots = "[[bot]]\nname = \"alpha\"\nbuiltin = \"random\"\n\n[[bot]]\nname = \"beta\"\nbuiltin = \"random\"\n";
        arena(dir, kind.name(), &common::season_params(kind), 2, bots);
        ladder(dir, &["arena", "run", "arena", "-q", "--batches", "1"]);
        ladder(dir, &["arena", "export", "arena", "out"]);
        let told = ladder(dir, &["replay", "out", "--game", "1"]);
        let expected = final_picture(&told);
        let turns = told.matches("\nTurn ").count();
        let web = Served::start(dir, &["serve", "arena"]);
        browser.goto(&format!("{}/games/1", web.url));
        browser.expect(60, "return document.getElementById('last') !== null");
        browser.eval("document.getElementById('last').click(); return 1");
        let shown = browser
            .expect(30, "const r = document.getElementById('result'); return r && document.getElementById('picture').textContent");
        assert_eq!(
            shown.as_str().unwrap().trim_end(),
            expected,
            "{}: the last position",
            kind.name()
        );
        let ply = browser.eval("return document.getElementById('ply').textContent");
        assert!(
            ply.as_str()
                .unwrap()
                .starts_with(&format!("Turn {turns} of {turns}")),
            "{}: {ply}",
            kind.name()
        );
        assert_eq!(
            browser.eval("return location.hash"),
            format!("#ply={turns}")
        );
        let result = browser.eval("return document.getElementById('result').textContent");
        assert!(result.as_str().unwrap().starts_with("Result: "), "{result}");
        // what a game has not (a board, a result yet) leaves nothing, not
        // the word `null`
        let stray = "return [...document.getElementById('position').childNodes].filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent).join('|')";
        assert_eq!(browser.eval(stray), "", "{}: the last turn", kind.name());
        // the board, where the game has one, holds the pieces its picture shows
        let cells = browser.eval("return [...document.querySelectorAll('table.board td')].map(td => td.textContent).join('')");
        if kind.name() == "breakthrough" {
            let on_board: Vec<char> = cells.as_str().unwrap().chars().collect();
            for piece in ['W', 'B'] {
                let in_picture = expected
                    .lines()
                    .filter(|l| l.len() > 3 && l.as_bytes()[0].is_ascii_digit())
                    .flat_map(|l| l.chars())
                    .filter(|&c| c == piece)
                    .count();
                assert_eq!(
                    on_board.iter().filter(|&&c| c == piece).count(),
                    in_picture,
                    "{piece}"
                );
            }
            assert_eq!(
                browser.eval("return document.querySelectorAll('table.board td.marked').length"),
                2
            );
            screenshot(&browser, "replay-breakthrough");
        }
        if kind.name() == "bidding" {
            assert_eq!(
                browser.eval("return document.querySelectorAll('table.track td.token').length"),
                1
            );
            screenshot(&browser, "replay-bidding");
        }
        // a permalink opens at its turn; stepping back moves one turn
        browser.goto(&format!("{}/games/1#ply=1", web.url));
        let at = browser.expect(
            30,
            "const p = document.getElementById('ply'); return p && p.textContent",
        );
        assert!(at.as_str().unwrap().starts_with("Turn 1 of"), "{at}");
        browser.eval("document.getElementById('back').click(); return 1");
        let at: Value = browser.eval("return document.getElementById('ply').textContent");
        assert!(at.as_str().unwrap().starts_with("Turn 0 of"), "{at}");
        assert_eq!(browser.eval(stray), "", "{}: the start", kind.name());
    }
}

#[test]
fn beyond_loopback_an_action_needs_the_token_and_a_candidate_is_rejected_from_its_page() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    arena(dir, "breakthrough", "", 4, TWO_BOTS);
    ladder(
        dir,
        &[
            "arena",
            "add",
            "arena",
            "cand",
            "--builtin",
            "random",
            "--candidate",
        ],
    );
    ladder(dir, &["arena", "run", "arena", "-q", "--batches", "2"]);
    let web = Served::start_with(
        dir,
        &["serve", "arena", "--listen", "0.0.0.0:0"],
        &[("LADDER_TOKEN", "s3cret-s3cret-s3cret")],
    );
    let port = web.url.rsplit(':').next().unwrap().to_string();
    let url = format!("http://127.0.0.1:{port}");
    browser.goto(&format!("{url}/candidates"));
    browser.expect(
        60,
        "return document.querySelector('.candidate[data-bot=\"cand@1\"] button') !== null",
    );
    assert_eq!(
        browser.eval("return document.querySelectorAll('svg.chart').length"),
        1
    );
    screenshot(&browser, "candidates");
    let reject = "[...document.querySelectorAll('.candidate[data-bot=\"cand@1\"] button')].find(b => b.textContent === 'Reject').click(); return 1";
    browser.eval(reject);
    let said = browser.expect(
        30,
        "const m = document.getElementById('messages'); return m && m.textContent",
    );
    assert!(said.as_str().unwrap().contains("token"), "{said}");
    let (_, b) = get(&format!("{url}/api/bots/cand@1"));
    assert_eq!(
        b["bot"]["state"], "candidate",
        "refused, and nothing changed"
    );
    // with the token in the page's field, the same click rejects it
    browser.eval("const t = document.getElementById('token'); t.value = 's3cret-s3cret-s3cret'; t.dispatchEvent(new Event('change')); return 1");
    browser.eval(reject);
    let done = common::wait_for(30, || {
        get(&format!("{url}/api/bots/cand@1")).1["bot"]["state"] == "rejected"
    });
    assert!(done, "the candidate was not rejected");
}

#[test]
fn a_seasons_replay_pages_open_from_the_disk_and_its_index_links_them() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let reports = tmp.path();
    common::run(
        &repo("configs/breakthrough.toml"),
        reports,
        &["-q", "--max-games", "2"],
    )
    .success();
    let season = reports.join("breakthrough");
    let before = fs::read_to_string(season.join("index.html")).unwrap();
    assert!(
        before.contains("--replays"),
        "the page says how to get replays"
    );
    let out = Command::new(LADDER)
        .args(["report", "--replays"])
        .arg(&season)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("wrote 2 replay pages"));
    let index = fs::read_to_string(season.join("index.html")).unwrap();
    assert!(index.contains("href=\"replays/index.html\""));
    let list = fs::read_to_string(season.join("replays/index.html")).unwrap();
    assert!(list.contains("href=\"0.html\"") && list.contains("href=\"1.html\""));
    let told = ladder(reports, &["replay", "breakthrough", "--game", "1"]);
    browser.goto(&format!(
        "file://{}",
        season.join("replays/1.html").display()
    ));
    browser.expect(60, "return document.getElementById('last') !== null");
    browser.eval("document.getElementById('last').click(); return 1");
    let shown = browser.expect(
        30,
        "const r = document.getElementById('result'); return r && document.getElementById('picture').textContent",
    );
    assert_eq!(shown.as_str().unwrap().trim_end(), final_picture(&told));
    assert_eq!(
        browser.eval("return document.querySelectorAll('table.board td.marked').length"),
        2
    );
}
