//! `ladder arena show`: the table of an arena, read from its database
//! while it plays (another process may be running it).
//!
//! One row per version, strongest first by the joint Bradley-Terry fit:
//! its rating with the 95% interval, games, points and their share,
//! forfeits, its trend (the rating's change over the last
//! [`TREND_BATCHES`] batches; `new` for a version without games before
//! them) and its state: a candidate's test (its LLR, bounds and verdict),
//! `retired`, `rejected`, or `failing` with the first forfeit's reason when
//! it forfeited every game.

use std::path::Path;

use crate::{
    arena::{candidates, config, league::League, matchmaking::ranked, store::GameRow},
    core::error::{Error, Result},
    report::{rows_table, share_color, Look},
    stats::{ratings, sprt::Verdict},
};

/// The batches the trend looks back over.
pub const TREND_BATCHES: u64 = 5;

/// The arena in `dir` as a table, with a line above it.
pub fn show(dir: &Path, look: Look) -> Result<String> {
    let (store, league) = super::open(dir)?;
    let games = store.games()?;
    let game = store.meta("game")?;
    let sprt = config::Settings::stored(&store)?.sprt;
    table(&league, &games, (&game, &sprt), dir, look)
}

fn table(
    league: &League,
    games: &[GameRow],
    (game, sprt): (&str, &candidates::Settings),
    dir: &Path,
    look: Look,
) -> Result<String> {
    let wrong = |m: String| Error::Mismatch(m);
    let standings = league.standings(games).map_err(wrong)?;
    let fit = ratings::fit(&standings.vs, None);
    let cut = league.next_batch.saturating_sub(TREND_BATCHES);
    let earlier: Vec<GameRow> = games.iter().filter(|g| g.batch < cut).cloned().collect();
    let then = league.standings(&earlier).map_err(wrong)?;
    let before = ratings::fit(&then.vs, None);
    let failing = league.failing(games);
    let playing = league.versions.iter().filter(|v| !v.retired).count();
    let mut head = format!(
        "arena {}: {game}, {playing} bots playing, {} games in {} batches",
        dir.display(),
        games.len(),
        league.next_batch
    );
    if let Some(b) = &league.open {
        head.push_str(&format!(
            "; batch {} ({} games) in progress",
            b.number,
            b.games.len()
        ));
    }
    let mut rows = Vec::new();
    let shares: Vec<f64> = standings
        .totals
        .iter()
        .map(|t| t.points() / t.games.max(1) as f64)
        .collect();
    for (rank, &b) in ranked(&fit.ratings, &shares).iter().enumerate() {
        let v = &league.versions[b];
        let t = standings.totals[b];
        let forfeits: u64 = standings.forfeits[b].values().sum();
        let trend = match (fit.ratings[b].elo, before.ratings[b].elo) {
            (Some(now), Some(was)) => format!("{:+.0}", (now - was).round() + 0.0),
            _ if t.games > 0 && then.totals[b].games == 0 => "new".to_string(),
            _ => String::new(),
        };
        let state = match (&failing[b], v.retired, v.candidate) {
            (Some(why), ..) => format!("failing: {why}"),
            (None, true, _) if v.rejected => "rejected".to_string(),
            (None, true, _) => "retired".to_string(),
            (None, false, true) => {
                let test = candidates::test(sprt, &t);
                let against = v.against.as_deref().unwrap_or("the pool");
                let next = match test.verdict {
                    Verdict::Unfinished => "",
                    _ => ": promote or reject",
                };
                format!("candidate vs {against}: {}{next}", test.text())
            }
            _ => String::new(),
        };
        rows.push(vec![
            (rank + 1).to_string(),
            v.bot.clone(),
            fit.ratings[b].text(),
            t.games.to_string(),
            format!("{}", t.points()),
            if t.games == 0 {
                String::new()
            } else {
                format!("{:.1}%", 100.0 * t.points() / t.games as f64)
            },
            forfeits.to_string(),
            trend,
            state,
        ]);
    }
    let header = [
        "Rank",
        "Bot",
        "Rating (95%)",
        "Games",
        "Points",
        "Score",
        "Forfeits",
        "Trend",
        "State",
    ];
    let t = rows_table(look, &header, rows, &[1, 7, 8], |c, text| {
        // a share of points: green above half, red below
        let share: f64 = text.strip_suffix('%')?.parse().ok()?;
        (c == 5).then(|| share_color(share, 100)).flatten()
    });
    Ok(format!("{head}\n{t}\n"))
}
