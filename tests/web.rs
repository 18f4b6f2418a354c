//! The arena's JSON API over real HTTP (`ladder arena serve` and `run
//! --listen`): every endpoint's shape, its filters checked against the
//! games themselves, its errors (a clear JSON error with a 4xx status, and
//! nothing written), the guard of actions (the header, the origin, the
//! token beyond loopback), uploads (a file, an archive, too large, an
//! archive that escapes its folder), and a replay's positions against
//! `ladder replay` of the arena's export.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
    time::Duration,
};

use serde_json::Value;

mod common;
use common::{
    ladder,
    web::{get, get_text, keys, post, Served},
};

const LADDER: &str = env!("CARGO_BIN_EXE_ladder");
const ACT: (&str, &str) = ("x-ladder", "1");

/// A breakthrough arena with two built-in bots and two batches played.
fn arena(dir: &Path) {
    ladder(dir, &["arena", "init", "arena", "--game", "breakthrough"]);
    ladder(
        dir,
        &["arena", "add", "arena", "alpha", "--builtin", "random"],
    );
    ladder(
        dir,
        &["arena", "add", "arena", "beta", "--builtin", "greedy"],
    );
    ladder(dir, &["arena", "run", "arena", "-q", "--batches", "2"]);
}

/// The journal lines of the games `bot` played in the arena.
fn records_of(dir: &Path, bot: &str) -> Vec<String> {
    let (store, _) = ladder::arena::open(&dir.join("arena")).unwrap();
    let games = store.games().unwrap();
    let seat = format!("\"{bot}\"");
    games
        .into_iter()
        .map(|g| g.record)
        .filter(|r| r.contains(&seat))
        .collect()
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                out.extend(files_under(&p));
            }
            out.push(p);
        }
    }
    out.sort();
    out
}

#[test]
fn every_read_endpoint_answers_in_its_documented_shape() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    arena(dir);
    let web = Served::start(dir, &["serve", "arena"]);
    let api = |path: &str| get(&format!("{}{path}", web.url));

    let (status, a) = api("/api/arena");
    assert_eq!(status, 200);
    assert_eq!(
        keys(&a),
        [
            "batches",
            "game",
            "games",
            "head",
            "in_progress",
            "name",
            "playing",
            "progress",
            "title"
        ]
    );
    assert_eq!(a["game"], "breakthrough");
    assert_eq!(a["title"], "breakthrough");
    assert_eq!(a["batches"], 2);
    let total = a["games"].as_u64().unwrap();
    assert!(total >= 2);

    let (status, lb) = api("/api/leaderboard");
    assert_eq!(status, 200);
    let rows = lb["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(
        keys(&rows[0]),
        [
            "bot",
            "detail",
            "forfeits",
            "games",
            "high",
            "low",
            "name",
            "points",
            "rank",
            "rating",
            "rating_text",
            "state",
            "test",
            "trend",
            "version"
        ]
    );
    assert_eq!(rows[0]["rank"], 1);
    // the greedy bot beats the random one
    assert_eq!(rows[0]["bot"], "beta@1");
    assert_eq!(rows[0]["games"].as_u64().unwrap(), total);
    assert_eq!(lb["filtered"], false);

    let (_, bots) = api("/api/bots");
    let names: Vec<&str> = bots["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["bot"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["alpha@1", "beta@1"]);
    assert_eq!(bots["bots"][0]["spec"]["builtin"], "random");

    for who in ["alpha", "alpha@1"] {
        let (status, b) = api(&format!("/api/bots/{who}"));
        assert_eq!(status, 200, "{who}");
        assert_eq!(
            keys(&b),
            [
                "bot",
                "forfeits",
                "history",
                "opponents",
                "recent",
                "row",
                "total",
                "versions"
            ]
        );
        assert_eq!(b["bot"]["bot"], "alpha@1");
        assert_eq!(b["total"]["games"].as_u64().unwrap(), total);
        let vs = &b["opponents"][0];
        assert_eq!(vs["bot"], "beta@1");
        let sum = ["won", "lost", "drawn"].map(|k| vs[k].as_u64().unwrap());
        assert_eq!(sum.iter().sum::<u64>(), vs["games"].as_u64().unwrap());
        assert!(!b["history"].as_array().unwrap().is_empty());
    }

    // every filter keeps exactly the games that match it
    let (_, all) = api("/api/games?limit=1000");
    assert_eq!(all["total"].as_u64().unwrap(), total);
    let games = all["games"].as_array().unwrap();
    assert_eq!(games.len() as u64, total);
    assert_eq!(
        keys(&games[0]),
        [
            "batch",
            "ending",
            "finished",
            "first",
            "goals",
            "number",
            "plies",
            "result",
            "second",
            "termination"
        ]
    );
    let numbers: Vec<u64> = games
        .iter()
        .map(|g| g["number"].as_u64().unwrap())
        .collect();
    assert!(numbers.windows(2).all(|w| w[0] > w[1]), "newest first");
    let count = |keep: &dyn Fn(&Value) -> bool| games.iter().filter(|g| keep(g)).count() as u64;
    let won_by = |g: &Value, bot: &str| {
        (g["result"] == "first" && g["first"] == bot)
            || (g["result"] == "second" && g["second"] == bot)
    };
    let median = {
        let mut p: Vec<u64> = games.iter().map(|g| g["plies"].as_u64().unwrap()).collect();
        p.sort();
        p[p.len() / 2]
    };
    let cases: Vec<(String, u64)> = vec![
        (
            "bot=beta&result=win".into(),
            count(&|g| won_by(g, "beta@1")),
        ),
        (
            "bot=alpha@1&result=loss".into(),
            count(&|g| won_by(g, "beta@1")),
        ),
        ("result=first".into(), count(&|g| g["result"] == "first")),
        (
            "termination=normal".into(),
            count(&|g| g["termination"] == "normal"),
        ),
        ("termination=forfeit".into(), 0),
        (
            format!("min_plies={median}"),
            count(&|g| g["plies"].as_u64().unwrap() >= median),
        ),
        (
            format!("max_plies={median}"),
            count(&|g| g["plies"].as_u64().unwrap() <= median),
        ),
        ("from=1&to=2".into(), 2),
        ("bot=alpha&opponent=beta".into(), total),
        // when they were recorded: today, not before 2000, not in 2999
        ("since=2000-01-01".into(), total),
        ("until=2000-01-01T12:00".into(), 0),
        ("since=32503680000".into(), 0),
    ];
    for (query, expected) in cases {
        let (status, got) = api(&format!("/api/games?{query}&limit=1000"));
        assert_eq!(status, 200, "{query}");
        assert_eq!(got["total"].as_u64().unwrap(), expected, "{query}");
        assert_eq!(got["games"].as_array().unwrap().len() as u64, expected);
    }
    let (_, page) = api("/api/games?limit=3&offset=2");
    assert_eq!(page["games"][0]["number"].as_u64().unwrap(), numbers[2]);
    assert_eq!(page["games"].as_array().unwrap().len(), 3);
    // without a filter only the page is read: the same answers as a filter
    // that keeps every game, which reads them all
    for paging in ["limit=1000", "limit=3&offset=2", "offset=999999"] {
        let (_, plain) = api(&format!("/api/games?{paging}"));
        let (_, kept) = api(&format!("/api/games?since=2000-01-01&{paging}"));
        assert_eq!(plain, kept, "{paging}");
        assert_eq!(plain["total"].as_u64().unwrap(), total, "{paging}");
    }

    // a leaderboard over the games a filter keeps: only those games count
    let (_, custom) = api("/api/leaderboard?from=0&to=3");
    assert_eq!(custom["filtered"], true);
    assert_eq!(custom["rows"][0]["games"], 4);
    // a range of game numbers at the ends of the numbers, or the wrong way
    // round, keeps what it says
    let max = u64::MAX;
    for (range, games) in [
        (format!("from=1&to={max}"), total - 1),
        (format!("from={max}"), 0),
        (format!("from={}", total - 2), 2),
        ("from=3&to=2".to_string(), 0),
        ("from=2&to=2".to_string(), 1),
    ] {
        let (status, kept) = api(&format!("/api/games?{range}&limit=1000"));
        assert_eq!(status, 200, "{range}: {kept}");
        assert_eq!(kept["total"].as_u64(), Some(games), "{range}");
    }

    // one game, with every position; its last is what `ladder replay` of the export shows
    let (status, g) = api("/api/games/1");
    assert_eq!(status, 200);
    assert_eq!(
        keys(&g),
        [
            "batch",
            "ending",
            "first",
            "game",
            "goals",
            "number",
            "opening",
            "plies",
            "result",
            "second",
            "seed",
            "seed_text",
            "simultaneous",
            "termination"
        ]
    );
    let plies = g["plies"].as_array().unwrap();
    assert_eq!(keys(&plies[0]), ["drawing", "moves", "picture", "turn"]);
    assert_eq!(plies[0]["drawing"]["kind"], "board");
    assert_eq!(g["simultaneous"], false);
    assert_eq!(g["seed_text"], g["seed"].as_u64().unwrap().to_string());
    ladder(dir, &["arena", "export", "arena", "out"]);
    let told = ladder(dir, &["replay", "out", "--game", "1"]);
    let last = plies.last().unwrap()["picture"].as_str().unwrap();
    let before_result = told.rsplit_once("\nResult:").unwrap().0.trim_end();
    assert!(before_result.ends_with(last), "{told}\n---\n{last}");
    assert_eq!(plies.len(), told.matches("\nTurn ").count() + 1);
    // the last move is marked on the board: its two squares
    assert_eq!(
        plies.last().unwrap()["drawing"]["marked"]
            .as_array()
            .unwrap()
            .len(),
        2
    );

    let (_, events) = api("/api/events");
    let events = events["events"].as_array().unwrap();
    assert_eq!(events[0]["event"]["event"], "added");
    let (_, later) = api("/api/events?after=2");
    assert_eq!(later["events"].as_array().unwrap().len(), events.len() - 2);

    // an arena made without seasons has none
    let (_, seasons) = api("/api/seasons");
    assert_eq!(
        seasons,
        serde_json::json!({ "every": null, "closed": 0, "seasons": [] })
    );

    let (_, cands) = api("/api/candidates");
    assert_eq!(cands["candidates"].as_array().unwrap().len(), 0);
    assert_eq!(cands["sprt"]["elo1"], 50.0);

    // the stream says where the arena stands at once
    let mut r = ureq::get(&format!("{}/api/stream", web.url))
        .call()
        .unwrap();
    assert_eq!(
        r.headers()["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    let mut first = [0u8; 15];
    std::io::Read::read_exact(&mut r.body_mut().as_reader(), &mut first).unwrap();
    assert_eq!(&first, b"event: progress");
    // two clients hear where it stands, then that a bot joined
    let mut clients: Vec<_> = (0..2)
        .map(|_| {
            let r = ureq::get(&format!("{}/api/stream", web.url))
                .call()
                .unwrap();
            std::io::BufReader::new(r.into_body().into_reader())
        })
        .collect();
    let data = |client: &mut std::io::BufReader<_>| -> Value {
        loop {
            let mut line = String::new();
            assert!(std::io::BufRead::read_line(client, &mut line).unwrap() > 0);
            if let Some(json) = line.strip_prefix("data: ") {
                return serde_json::from_str(json).unwrap();
            }
        }
    };
    let before: Vec<Value> = clients.iter_mut().map(&data).collect();
    assert_eq!(before[0], before[1]);
    ladder(
        dir,
        &["arena", "add", "arena", "delta", "--builtin", "random"],
    );
    for c in &mut clients {
        let after = data(c);
        assert_eq!(after["events"], before[0]["events"].as_u64().unwrap() + 1);
        assert_eq!(after["games"], before[0]["games"]);
    }
    drop(clients);

    // the kept leaderboard (folded a batch at a time) is the one made from
    // every game, also after a bot joined and batches went by
    let same = || {
        let (_, kept) = api("/api/leaderboard");
        let (_, fresh) = api("/api/leaderboard?from=0");
        assert_eq!(kept["rows"], fresh["rows"]);
        assert_eq!(kept["arena"], fresh["arena"]);
    };
    same();
    // a bot's page, kept for the progress it was made at, is made again
    // once the arena moves
    let (_, alpha) = api("/api/bots/alpha@1");
    assert_eq!(api("/api/bots/alpha@1").1, alpha);
    ladder(
        dir,
        &["arena", "add", "arena", "gamma", "--builtin", "random"],
    );
    ladder(dir, &["arena", "run", "arena", "-q", "--batches", "7"]);
    same();
    let (_, kept) = api("/api/leaderboard");
    let (_, now) = api("/api/bots/alpha@1");
    assert!(now["total"]["games"].as_u64() > alpha["total"]["games"].as_u64());
    let row = kept["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["bot"] == "alpha@1");
    assert_eq!(now["total"]["games"], row.unwrap()["games"]);
    // alpha, beta, delta (joined while the stream's clients listened), gamma
    assert_eq!(kept["rows"].as_array().unwrap().len(), 4);
    assert!(kept["rows"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["trend"] != "new" && r["trend"] != ""));

    // the pages and their script come from the binary, guarded by a strict policy
    let (status, kind, html) = get_text(&format!("{}/", web.url));
    assert_eq!(status, 200);
    assert!(kind.starts_with("text/html"));
    assert!(html.contains("/assets/app.js"));
    let r = ureq::get(&format!("{}/games/1", web.url)).call().unwrap();
    let csp = r.headers()["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("script-src 'self'"), "{csp}");
    let (status, kind, _) = get_text(&format!("{}/assets/app.js", web.url));
    assert_eq!((status, kind.starts_with("text/javascript")), (200, true));
    // a bot page's shell escapes the name in its address
    let (_, _, page) = get_text(&format!("{}/bots/%3Cscript%3Ex%3C%2Fscript%3E", web.url));
    assert!(!page.contains("<script>x"), "{page}");
    assert!(page.contains("&lt;script&gt;x"));
    // without JavaScript, each page names the API address of what it shows
    assert!(
        page.contains("<a href=\"/api/bots/%3Cscript%3Ex%3C%2Fscript%3E\">"),
        "{page}"
    );
    for (path, api) in [
        ("/", "/api/leaderboard"),
        ("/games", "/api/games"),
        ("/games/1", "/api/games/1"),
        ("/candidates", "/api/candidates"),
        ("/bots/alpha%401", "/api/bots/alpha@1"),
    ] {
        let (_, _, page) = get_text(&format!("{}{path}", web.url));
        let noscript = page.split("<noscript>").nth(1).unwrap_or_default();
        assert!(
            noscript.contains(&format!("<a href=\"{api}\">")),
            "{path}: {page}"
        );
        let (status, kind, _) = get_text(&format!("{}{api}", web.url));
        assert_eq!((status, kind.as_str()), (200, "application/json"), "{api}");
    }
}

#[test]
fn bad_requests_get_a_clear_json_error_and_change_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    arena(dir);
    let web = Served::start(dir, &["serve", "arena", "--upload-limit", "4000"]);
    let before = files_under(&dir.join("arena"));
    let (_, ev) = get(&format!("{}/api/events", web.url));
    let events_before = ev["events"].as_array().unwrap().len();
    let url = |p: &str| format!("{}{p}", web.url);
    let error = |(status, body): (u16, Value), expected: u16, says: &str| {
        assert_eq!(status, expected, "{body}");
        let message = body["error"].as_str().unwrap_or_else(|| panic!("{body}"));
        assert!(message.contains(says), "`{message}` does not say `{says}`");
    };
    error(get(&url("/api/bots/nobody")), 404, "no bot nobody");
    error(get(&url("/api/games?result=bogus")), 400, "`result`");
    error(get(&url("/api/games?min_plies=x")), 400, "`min_plies`");
    // a number of turns beyond any game's is refused, not cut short
    error(
        get(&url("/api/games?max_plies=4294967297")),
        400,
        "`max_plies`: `4294967297` is not a number of turns",
    );
    error(
        get(&url("/api/games?colour=red")),
        400,
        "`colour` is no filter",
    );
    error(get(&url("/api/games?result=win")), 400, "needs a `bot`");
    error(
        get(&url("/api/games?bot=a&bot=b")),
        400,
        "`bot` is given twice",
    );
    error(
        get(&url(
            "/api/leaderboard?result=first&termination=normal&result=second",
        )),
        400,
        "`result` is given twice",
    );
    error(
        get(&url("/api/games?since=yesterday")),
        400,
        "`since`: `yesterday` is no time",
    );
    error(get(&url("/api/games?bot=nobody")), 404, "no bot nobody");
    error(
        get(&url("/api/leaderboard?termination=x")),
        400,
        "`termination`",
    );
    error(
        get(&url("/api/games/999999")),
        404,
        "no finished game 999999",
    );
    error(get(&url("/api/games/abc")), 400, "not a game number");
    error(get(&url("/api/nothing")), 404, "no such page");
    // what the router refuses before any handler answers in JSON too
    error(
        get(&url("/api/events?after=-1")),
        400,
        "after: invalid digit",
    );
    error(get(&url("/api/bots/%ff")), 400, "UTF-8");
    error(
        post(&url("/api/games"), &[ACT], b""),
        405,
        "method not allowed",
    );
    error(
        post(
            &url("/api/bots?file=b.py&command=python3+b.py"),
            &[ACT],
            b"pass",
        ),
        400,
        "missing field `name`",
    );
    // actions: without the header, from another site, unknown
    error(
        post(&url("/api/bots/alpha/retire"), &[], b""),
        403,
        "X-Ladder",
    );
    error(
        post(
            &url("/api/bots/alpha/retire"),
            &[ACT, ("sec-fetch-site", "cross-site")],
            b"",
        ),
        403,
        "cross-site",
    );
    error(
        post(
            &url("/api/bots/alpha/retire"),
            &[ACT, ("origin", "http://evil.example")],
            b"",
        ),
        403,
        "another origin",
    );
    error(
        post(&url("/api/bots/alpha/explode"), &[ACT], b""),
        404,
        "no action `explode`",
    );
    error(
        post(&url("/api/bots/alpha@1/promote"), &[ACT], b""),
        400,
        "is no candidate",
    );
    error(
        post(&url("/api/bots/nobody/retire"), &[ACT], b""),
        400,
        "no bot nobody",
    );
    // uploads: too large, no command, a command naming no uploaded file, a bad name,
    // archives that reach outside their folder or hold a link, garbage
    let up = |q: &str, body: &[u8]| post(&url(&format!("/api/bots?{q}")), &[ACT], body);
    error(
        up("name=big&file=b.py&command=python3+b.py", &[b'#'; 5000]),
        413,
        "at most 4000 bytes",
    );
    error(
        up("name=x&file=b.py&command=", b"pass"),
        400,
        "needs the command",
    );
    error(
        up("name=x&file=b.py&command=python3+other.py", b"pass"),
        400,
        "names none",
    );
    // a word naming a file that is not the upload's: the arena's database,
    // through it or by its whole path, the arena's folder, a file of the
    // machine's (the arena would copy it for the bot)
    let db = dir.join("arena").join("arena.db").display().to_string();
    for words in [
        "python3 b.py arena.db".to_string(),
        "python3 b.py ../arena/arena.db".to_string(),
        format!("python3 b.py {db}"),
        format!("{db} b.py"),
        "python3 b.py .".to_string(),
        "python3 b.py /etc/passwd".to_string(),
    ] {
        let command = words.replace('/', "%2F").replace(' ', "+");
        error(
            up(&format!("name=x&file=b.py&command={command}"), b"pass"),
            400,
            "which is none of the uploaded files",
        );
    }
    error(
        up("name=x&file=b.py&command=python3+%27b.py", b"pass"),
        400,
        "a quote is not closed",
    );
    error(
        up("name=a@b&file=b.py&command=python3+b.py", b"pass"),
        400,
        "@",
    );
    error(
        up("name=x&file=../b.py&command=python3+b.py", b"pass"),
        400,
        "not a file name",
    );
    for (entry, kind) in [
        ("../evil.py", tar::EntryType::Regular),
        ("/tmp/evil.py", tar::EntryType::Regular),
        ("bot.py", tar::EntryType::Symlink),
    ] {
        let archive = evil_tar(entry, kind);
        error(
            up("name=x&file=b.tar&command=python3+bot.py", &archive),
            400,
            "archive's entry",
        );
    }
    error(
        up("name=x&file=b.tar.gz&command=python3+bot.py", b"not gzip"),
        400,
        "archive",
    );
    // a gzip of a few hundred bytes that unpacks to 100,000: past 8 times the limit
    error(
        up(
            "name=x&file=b.tar.gz&command=python3+bot.py",
            &gzip_bomb(100_000),
        ),
        400,
        "it unpacks to more than 32000 bytes",
    );
    assert!(!dir.join("evil.py").exists());
    assert_eq!(
        files_under(&dir.join("arena")),
        before,
        "a refused request wrote a file"
    );
    let (_, ev) = get(&url("/api/events"));
    assert_eq!(ev["events"].as_array().unwrap().len(), events_before);
}

/// A gzipped tar archive of `bot.py`, `size` zero bytes.
fn gzip_bomb(size: usize) -> Vec<u8> {
    use std::io::{Read, Write};
    let mut b = tar::Builder::new(Vec::new());
    let mut h = tar::Header::new_gnu();
    h.set_size(size as u64);
    h.set_mode(0o755);
    h.set_cksum();
    b.append_data(&mut h, "bot.py", std::io::repeat(0).take(size as u64))
        .unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(&b.into_inner().unwrap()).unwrap();
    let bomb = gz.finish().unwrap();
    assert!(bomb.len() < 4000, "{}", bomb.len());
    bomb
}

/// A tar archive of one entry, its name written as an attacker would.
fn evil_tar(name: &str, kind: tar::EntryType) -> Vec<u8> {
    let mut h = tar::Header::new_gnu();
    h.set_entry_type(kind);
    h.set_size(0);
    h.set_mode(0o644);
    h.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
    if kind.is_symlink() {
        h.set_link_name("/etc/shadow").unwrap();
    }
    h.set_cksum();
    let mut b = tar::Builder::new(Vec::new());
    b.append(&h, &[][..]).unwrap();
    b.into_inner().unwrap()
}

#[test]
fn uploads_and_actions_change_the_arena_and_a_token_guards_other_addresses() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    arena(dir);
    let web = Served::start(dir, &["serve", "arena"]);
    let url = |p: &str| format!("{}{p}", web.url);
    // a one-file bot, as a candidate against beta
    let bot =
        fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/python/breakthrough_bot.py"))
            .unwrap();
    // a key an upload does not take (a misspelt `candidate` would have
    // joined the pool), or one missing: a 400 naming it, and nothing joins
    for (query, named) in [
        (
            "name=typo&file=bot.py&command=python3+bot.py&canidate=true",
            "canidate",
        ),
        ("name=typo&command=python3+bot.py", "file"),
    ] {
        let (status, refused) = post(&url(&format!("/api/bots?{query}")), &[ACT], &bot);
        assert_eq!(status, 400, "{query}: {refused}");
        let error = refused["error"].as_str().unwrap();
        assert!(error.contains(&format!("`{named}`")), "{error}");
    }
    let (status, refused) = get(&url("/api/events?after=soon"));
    assert_eq!(status, 400);
    assert!(
        refused["error"].as_str().unwrap().contains("after"),
        "{refused}"
    );
    let (_, bots) = get(&url("/api/bots"));
    assert!(!bots.to_string().contains("typo"), "{bots}");
    let (status, added) = post(
        &url("/api/bots?name=py&file=bot.py&command=python3+bot.py&candidate=true&against=beta@1"),
        &[ACT],
        &bot,
    );
    assert_eq!(status, 201, "{added}");
    assert_eq!(added["bot"], "py@1");
    assert_eq!(
        added["notes"],
        serde_json::json!([]),
        "its command names its file"
    );
    let (_, b) = get(&url("/api/bots/py@1"));
    let spec = &b["bot"]["spec"];
    assert_eq!(spec["sandbox"], "bwrap");
    let command: Vec<&str> = spec["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert_eq!(command[0], "python3");
    assert!(
        command[1].starts_with("bots/") && command[1].ends_with("/bot.py"),
        "{command:?}"
    );
    assert_eq!(fs::read(dir.join("arena").join(command[1])).unwrap(), bot);
    // the same bytes under another name, and run as a program: each bot's
    // command names a file it has
    for (name, query, exec) in [
        ("other", "file=other.py&command=python3+other.py", false),
        ("runs", "file=bot.py&command=./bot.py", true),
    ] {
        let (status, added) = post(
            &url(&format!("/api/bots?name={name}&{query}")),
            &[ACT],
            &bot,
        );
        assert_eq!(status, 201, "{added}");
        let (_, b) = get(&url(&format!("/api/bots/{name}@1")));
        let words = &b["bot"]["spec"]["command"];
        let file = dir
            .join("arena")
            .join(words[if exec { 0 } else { 1 }].as_str().unwrap());
        assert_eq!(fs::read(&file).unwrap(), bot, "{words}");
        let mode = fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o111 != 0, exec, "{words}");
    }
    // the same new bytes uploaded four times at once: each joins
    let fresh = [&bot[..], b"\n# at once\n"].concat();
    std::thread::scope(|s| {
        let uploads: Vec<_> = (0..4)
            .map(|i| {
                let (url, fresh) = (&url, &fresh);
                s.spawn(move || {
                    let q = format!("/api/bots?name=same{i}&file=bot.py&command=python3+bot.py");
                    post(&url(&q), &[ACT], fresh)
                })
            })
            .collect();
        for u in uploads {
            let (status, added) = u.join().unwrap();
            assert_eq!(status, 201, "{added}");
        }
    });
    assert_eq!(b["bot"]["state"], "candidate");
    let (_, c) = get(&url("/api/candidates"));
    assert_eq!(c["candidates"][0]["bot"], "py@1");
    assert_eq!(c["candidates"][0]["state"], "under test");
    // an archive of a folder: the bot imports its sibling module
    let mut b = tar::Builder::new(Vec::new());
    // (importing the bot's module runs it)
    let helper = String::from_utf8(bot.clone()).unwrap();
    for (name, text) in [("main.py", "import sys, os\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), \"lib\"))\nimport helper\n".to_string()), ("lib/helper.py", helper)] {
        let mut h = tar::Header::new_gnu();
        h.set_size(text.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        b.append_data(&mut h, name, text.as_bytes()).unwrap();
    }
    let gz = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut e, &b.into_inner().unwrap()).unwrap();
        e.finish().unwrap()
    };
    let (status, added) = post(
        &url("/api/bots?name=arch&file=arch.tar.gz&command=python3+main.py"),
        &[ACT],
        &gz,
    );
    assert_eq!(status, 201, "{added}");
    let (_, b) = get(&url("/api/bots/arch"));
    let main_path = b["bot"]["spec"]["command"][1].as_str().unwrap().to_string();
    let folder = dir.join("arena").join(&main_path);
    assert!(folder.with_file_name("lib").join("helper.py").is_file());
    // it plays, importing its module, once the newcomers before it have had theirs
    for _ in 0..12 {
        if !records_of(dir, "arch@1").is_empty() {
            break;
        }
        ladder(dir, &["arena", "run", "arena", "-q", "--batches", "1"]);
    }
    let records = records_of(dir, "arch@1");
    assert!(!records.is_empty());
    for r in &records {
        assert!(!r.contains("forfeit"), "{r}");
    }
    // a word of the command that reads as a file but is none of the
    // upload's: the bot joins (it may make the file), and the answer says so
    let (status, added) = post(
        &url("/api/bots?name=arch2&file=arch.tar.gz&command=python3+main.py+--model+weights.py"),
        &[ACT],
        &gz,
    );
    assert_eq!(status, 201, "{added}");
    assert_eq!(
        added["notes"],
        serde_json::json!([
            "`weights.py` in the command is none of the uploaded files, so the bot \
                will not find it unless it makes it"
        ]),
        "{added}"
    );
    // actions
    let (status, r) = post(&url("/api/bots/py@1/reject"), &[ACT], b"");
    assert_eq!(status, 200, "{r}");
    let (_, b) = get(&url("/api/bots/py@1"));
    assert_eq!(b["bot"]["state"], "rejected");
    let (status, r) = post(&url("/api/bots/alpha/retire"), &[ACT], b"");
    assert_eq!((status, r["bots"][0].as_str()), (200, Some("alpha@1")));
    // a candidate promoted from the API joins the pool, and its older version retires
    ladder(
        dir,
        &[
            "arena",
            "add",
            "arena",
            "beta",
            "--builtin",
            "random",
            "--candidate",
        ],
    );
    let (status, r) = post(&url("/api/bots/beta@2/promote"), &[ACT], b"");
    assert_eq!(status, 200, "{r}");
    assert_eq!(get(&url("/api/bots/beta@2")).1["bot"]["state"], "playing");
    assert_eq!(get(&url("/api/bots/beta@1")).1["bot"]["state"], "retired");
    let (_, c) = get(&url("/api/candidates"));
    let states: Vec<&str> = c["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["rejected", "promoted"]);
    // each candidate's tally and LLR trail are its games, as the games list
    // through a filter finds them
    for c in c["candidates"].as_array().unwrap() {
        let bot = c["bot"].as_str().unwrap();
        let (_, g) = get(&url(&format!("/api/games?bot={bot}&limit=1000")));
        let mut numbers: Vec<u64> = g["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["number"].as_u64().unwrap())
            .collect();
        numbers.reverse();
        let trail: Vec<u64> = c["llr"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["number"].as_u64().unwrap())
            .collect();
        assert_eq!(trail, numbers, "{bot}");
        assert_eq!(c["tally"]["games"], g["total"], "{bot}");
        let wins = g["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| {
                (g["result"] == "first" && g["first"] == bot)
                    || (g["result"] == "second" && g["second"] == bot)
            })
            .count();
        assert_eq!(c["tally"]["won"], wins, "{bot}");
    }
    assert_eq!(
        keys(&c["candidates"][0]),
        ["against", "bot", "llr", "state", "tally", "test"]
    );
    drop(web);

    // beyond loopback a token is needed to start, and for every action
    let out = Command::new(LADDER)
        .current_dir(dir)
        .args(["arena", "serve", "arena", "--listen", "0.0.0.0:0"])
        .env_remove("LADDER_TOKEN")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a token"));
    // and one not guessed in a few tries
    let out = Command::new(LADDER)
        .current_dir(dir)
        .args(["arena", "serve", "arena", "--listen", "0.0.0.0:0"])
        .env("LADDER_TOKEN", "s3cret")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give at least 16"));
    let open = Served::start_with(
        dir,
        &["serve", "arena", "--listen", "0.0.0.0:0"],
        &[("LADDER_TOKEN", "s3cret-s3cret-s3cret")],
    );
    let port = open.url.rsplit(':').next().unwrap();
    let at = |p: &str| format!("http://127.0.0.1:{port}{p}");
    assert_eq!(get(&at("/api/arena")).0, 200, "reading needs no token");
    let (status, r) = post(&at("/api/bots/beta/retire"), &[ACT], b"");
    assert_eq!(status, 403, "{r}");
    assert!(r["error"].as_str().unwrap().contains("token"));
    let (status, _) = post(
        &at("/api/bots/beta/retire"),
        &[ACT, ("authorization", "Bearer wrong")],
        b"",
    );
    assert_eq!(status, 403);
    let (_, b) = get(&at("/api/bots/beta"));
    assert_eq!(
        b["bot"]["state"], "playing",
        "a refused action changed the arena"
    );
    let (status, r) = post(
        &at("/api/bots/beta/retire"),
        &[ACT, ("authorization", "Bearer s3cret-s3cret-s3cret")],
        b"",
    );
    assert_eq!(status, 200, "{r}");
}

/// A request sent by hand over `url`'s connection, under the `Host` name
/// `host` (a browser sends the name it looked up): its status and body.
fn as_host(
    url: &str,
    host: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, String) {
    use std::io::{Read, Write};
    let at = url.strip_prefix("http://").unwrap();
    let mut s = std::net::TcpStream::connect(at).unwrap();
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("Content-Length: 0\r\n\r\n");
    s.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, answer)
}

/// DNS rebinding: a page of another site whose name was pointed at
/// 127.0.0.1 is the same origin as itself there, and sends the header an
/// action needs. A server without a token answers only requests under a
/// loopback name, so that page reads nothing and does nothing; a server
/// with a token reads under any name, and acts only with the token.
#[test]
fn a_loopback_server_answers_no_request_under_another_sites_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    arena(dir);
    let web = Served::start(dir, &["serve", "arena"]);
    let port = web.url.rsplit(':').next().unwrap().to_string();
    let evil = format!("evil.example:{port}");
    let origin = format!("http://{evil}");
    let rebound = [
        ACT,
        ("origin", origin.as_str()),
        ("sec-fetch-site", "same-origin"),
    ];
    for (method, path) in [
        ("GET", "/"),
        ("GET", "/api/arena"),
        ("GET", "/api/bots/beta"),
    ] {
        let (status, answer) = as_host(&web.url, &evil, method, path, &[]);
        assert_eq!(status, 403, "{path}: {answer}");
        assert!(
            answer.contains("only requests for its loopback address"),
            "{answer}"
        );
        assert!(!answer.contains("beta@1"), "{answer}");
    }
    let (status, answer) = as_host(&web.url, &evil, "POST", "/api/bots/beta/retire", &rebound);
    assert_eq!(status, 403, "{answer}");
    // under its own names it answers and acts
    for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}")] {
        let (status, answer) = as_host(&web.url, &host, "GET", "/api/bots/beta", &[]);
        assert_eq!(status, 200, "{host}: {answer}");
        assert!(answer.contains("\"playing\""), "{answer}");
    }
    let own = format!("http://localhost:{port}");
    let (status, answer) = as_host(
        &web.url,
        &format!("localhost:{port}"),
        "POST",
        "/api/bots/beta/retire",
        &[ACT, ("origin", own.as_str())],
    );
    assert_eq!(status, 200, "{answer}");
    drop(web);
    // with a token: read under any name, act with the token only
    let token = "s3cret-s3cret-s3cret";
    let open = Served::start_with(
        dir,
        &["serve", "arena", "--listen", "127.0.0.1:0"],
        &[("LADDER_TOKEN", token)],
    );
    let port = open.url.rsplit(':').next().unwrap().to_string();
    let name = format!("arena.example.org:{port}");
    let (status, answer) = as_host(&open.url, &name, "GET", "/api/bots/alpha", &[]);
    assert_eq!(status, 200, "{answer}");
    let (status, _) = as_host(&open.url, &name, "POST", "/api/bots/alpha/retire", &[ACT]);
    assert_eq!(status, 403);
    let bearer = format!("Bearer {token}");
    let with = [ACT, ("authorization", bearer.as_str())];
    let (status, answer) = as_host(&open.url, &name, "POST", "/api/bots/alpha/retire", &with);
    assert_eq!(status, 200, "{answer}");
}

/// Opens `each` connections from each of `from` loopback addresses
/// (127.0.0.2, ...) to `url`'s port, as many at once, and keeps those
/// that connected.
fn flood(url: &str, from: u8, each: usize) -> Vec<tokio::net::TcpStream> {
    let port: u16 = url.rsplit(':').next().unwrap().parse().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut tries = Vec::new();
        for a in 2..2 + from {
            for _ in 0..each {
                tries.push(tokio::spawn(async move {
                    let socket = tokio::net::TcpSocket::new_v4().ok()?;
                    socket.bind(([127, 0, 0, a], 0).into()).ok()?;
                    let to = ([127, 0, 0, 1], port).into();
                    let connect = tokio::time::timeout(Duration::from_secs(5), socket.connect(to));
                    connect.await.ok()?.ok()
                }));
            }
        }
        let mut held = Vec::new();
        for t in tries {
            held.extend(t.await.unwrap());
        }
        held
    })
}

#[test]
fn a_flood_of_idle_connections_neither_stops_the_arena_nor_keeps_the_server_away() {
    // a server that took every connection gave a client that opens a few
    // hundred idle ones all of the process's files: the arena it plays
    // stopped at its next bot or lock file ("Too many open files")
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    ladder(dir, &["arena", "init", "arena", "--game", "bidding"]);
    ladder(dir, &["arena", "add", "arena", "dp", "--builtin", "dp"]);
    ladder(
        dir,
        &["arena", "add", "arena", "random", "--builtin", "random"],
    );
    let mut web = Served::start_limited(dir, &["run", "arena", "-q"], 128);
    let games = || {
        let store = ladder::arena::store::Store::open(&dir.join("arena")).unwrap();
        store.progress().unwrap().1
    };
    // 24 addresses of 20 connections each: 480, beyond the per-address
    // share and the server's whole limit, and far beyond 128 files
    let held = flood(&web.url, 24, 20);
    assert!(held.len() > 128, "only {} connected", held.len());
    let then = games();
    assert!(
        common::wait_for(300, || games() >= then + 64),
        "the arena stopped playing at {} games under the flood",
        games()
    );
    assert!(web.running(), "the arena's process ended under the flood");
    drop(held);
    let (status, arena) = get(&format!("{}/api/arena", web.url));
    assert_eq!(status, 200, "{arena}");
    assert!(arena["games"].as_u64().unwrap() >= then + 64, "{arena}");
}

/// The nice value (`/proc`'s `stat`, field 19) and name of each thread of
/// process `pid`.
fn threads_nice(pid: u32) -> Vec<(String, i32)> {
    let mut out = Vec::new();
    for task in fs::read_dir(format!("/proc/{pid}/task")).unwrap() {
        let task = task.unwrap().path();
        let (Ok(name), Ok(stat)) = (
            fs::read_to_string(task.join("comm")),
            fs::read_to_string(task.join("stat")),
        ) else {
            continue; // a thread that ended meanwhile
        };
        // the fields after the name, which ends at the last `)`
        let rest = &stat[stat.rfind(')').unwrap() + 2..];
        let nice: i32 = rest.split(' ').nth(16).unwrap().parse().unwrap();
        out.push((name.trim().to_string(), nice));
    }
    out
}

/// Visitors who ask for many scans at once take the CPU from the arena's
/// games only where the games leave it: every thread of the server runs
/// 10 nice values lower than the arena's play.
#[test]
fn the_server_runs_behind_the_arenas_games() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    arena(dir);
    let web = Served::start(dir, &["run", "arena", "-q"]);
    // a scan, read on one of the server's blocking threads
    let (status, page) = get(&format!("{}/api/games?termination=normal", web.url));
    assert_eq!(status, 200, "{page}");
    let threads = threads_nice(web.pid());
    let main = threads[0].1; // the task listed first is the process's own
    let nice = |n: i32| (n + 10).min(19);
    let served: Vec<_> = threads.iter().filter(|(t, _)| t == "ladder-web").collect();
    assert!(served.len() >= 3, "{threads:?}"); // its thread, two workers and a blocking one
    assert!(served.iter().all(|(_, n)| *n == nice(main)), "{threads:?}");
    let others: Vec<_> = threads.iter().filter(|(t, _)| t != "ladder-web").collect();
    assert!(others.iter().all(|(_, n)| *n == main), "{threads:?}");
}
