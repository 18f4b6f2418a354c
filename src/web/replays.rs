//! A season's games in the replay viewer, without a server (`ladder report
//! DIR --replays`): `replays/N.html` for game N, each holding its game as
//! the API's JSON, with the arena's own script and style beside them, and
//! `replays/index.html` listing every game. They open from the disk
//! (`file://`) and work offline; the season's `index.html` links to them.

use std::{fmt::Write as _, path::Path};

use super::{api::game_json, pages::escape_json};
use crate::{
    core::{
        error::{Error, Result},
        files,
    },
    journal::{for_each_game, recorded::Recorded, replay::plies},
    report::html::escape,
    show::Show,
};

/// The folder of the replay pages in a season's folder.
pub const FOLDER: &str = "replays";

/// Writes the replay pages of every game in the season folder `dir`; the
/// games written.
pub fn write<G: Show>(dir: &Path) -> Result<u64> {
    let recorded = Recorded::read(dir)?;
    let params: G::Params = serde_json::from_value(recorded.params.clone())
        .map_err(|e| Error::Usage(format!("the season's parameters: {e}")))?;
    let start = G::new(&params).map_err(|e| Error::Usage(e.to_string()))?;
    let acting = start.to_act();
    let simultaneous = acting.first && acting.second;
    let out = dir.join(FOLDER);
    std::fs::create_dir_all(&out).map_err(Error::io("creating", &out))?;
    files::replace_all(
        &out,
        &[
            ("app.js", super::pages::APP_JS),
            ("style.css", super::pages::STYLE_CSS),
        ],
    )?;
    let mut list = String::new();
    let mut count = 0;
    // pages are written in groups, the folder synced once a group
    let mut pages: Vec<(String, String)> = Vec::new();
    for_each_game(dir, |_, _, record| {
        let positions = plies::<G>(&params, &record)?;
        let json = game_json(&record, None, &recorded.game, positions, simultaneous);
        let title = format!(
            "Game {}: {} vs {}",
            record.index, record.seats.first, record.seats.second
        );
        let page = static_page(&title, &escape_json(&json.to_string()), &recorded.name);
        pages.push((format!("{}.html", record.index), page));
        if pages.len() == PAGES_AT_ONCE {
            files::replace_all(&out, &pages)?;
            pages.clear();
        }
        let ending = record
            .termination
            .describe(&record.seats.as_ref().map(String::as_str));
        let _ = writeln!(
            list,
            "<tr><td><a href=\"{n}.html\">{n}</a></td><td>{}</td><td>{}</td><td>{} to {}</td><td>{}</td><td>{}</td></tr>",
            escape(&record.seats.first),
            escape(&record.seats.second),
            record.goals.first,
            record.goals.second,
            escape(&ending),
            record.plies,
            n = record.index,
        );
        count += 1;
        Ok(())
    })?;
    let index = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Games of {name}</title>\n\
         <link rel=\"stylesheet\" href=\"style.css\">\n</head>\n<body>\n<main>\n<h1>Games of {name}</h1>\n\
         <p><a href=\"../index.html\">Back to the season</a></p>\n<table>\n<thead><tr><th>Game</th><th>Player 1</th>\
         <th>Player 2</th><th>Goals</th><th>Ending</th><th>Turns</th></tr></thead>\n<tbody>\n{list}</tbody>\n</table>\n\
         </main>\n</body>\n</html>\n",
        name = escape(&recorded.name)
    );
    pages.push(("index.html".to_string(), index));
    files::replace_all(&out, &pages)?;
    Ok(count)
}

/// Replay pages written at once: few enough to hold in memory.
const PAGES_AT_ONCE: usize = 64;

/// A replay page that holds its game (`data` is its JSON, safe inside a
/// script element).
fn static_page(title: &str, data: &str, season: &str) -> String {
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · {season}</title>
<link rel="stylesheet" href="style.css">
</head>
<body>
<header><a class="brand" href="../index.html">{season}</a><nav><a href="index.html">Games</a></nav></header>
<main id="app" data-page="replay" data-static="true">
<h1>{title}</h1>
</main>
<script type="application/json" id="game-data">{data}</script>
<script src="app.js"></script>
</body>
</html>
"#,
        title = escape(title),
        season = escape(season),
    )
}
