//! The arena: a league that never stops. Bots join, retire and come back as
//! new versions while it plays; its matchmaking ([`matchmaking`]) spends
//! each batch of games where the ratings are least certain.
//!
//! An arena is a folder: `arena.db` ([`store`]) holds its settings, its
//! event log and every finished game. `ladder arena run` ([`play`]) plays
//! batch after batch, each an ordinary season of listed games in
//! `batches/` (so the referee, the bot pool, the sandbox, the clocks and
//! the journal's resume after a kill are a season's), whose games go into
//! the database with the batch's `finished` event in one transaction. A
//! batch is decided, and its event written, in one transaction over the
//! log, from the games of earlier batches only: an arena's games are a
//! function of its seed and its event log ([`league`]).

pub mod candidates;
pub mod config;
pub mod league;
pub mod matchmaking;
pub mod play;
pub mod programs;
pub mod replay;
pub mod seasons;
pub mod show;
pub mod store;
pub mod wal;

use std::path::{Path, PathBuf};

use crate::{
    core::error::{Error, Result},
    core::game::Game,
    plan::{config::ConfigFile, Roster},
};
use league::{League, Version};
use store::{Event, Store};

/// The event log's file in an export.
pub const EVENTS: &str = "events.jsonl";

/// The arena in `dir` and its state now.
pub fn open(dir: &Path) -> Result<(Store, League)> {
    let store = Store::open(dir)?;
    let league = league_of(&store)?;
    Ok((store, league))
}

fn league_of(store: &Store) -> Result<League> {
    League::from_events(&store.events()?).map_err(|m| store.damaged(m))
}

/// The catalogue name of the arena's game (`gdl` for any GDL game).
pub fn game_of(dir: &Path) -> Result<String> {
    Store::open(dir)?.meta("game")
}

/// The game's own name (a GDL game's description: `nim`), for people.
pub fn title_of(dir: &Path) -> Result<String> {
    Store::open(dir)?.title()
}

/// Makes an arena in `dir` from the config `src`, with the config's bots
/// as its first; the versions that joined.
pub fn init<G: Game>(dir: &Path, src: &ConfigFile, roster: &Roster<G>) -> Result<Vec<Joined>> {
    let setup = config::read(src, roster)?;
    let checked = config::base_plan(Path::new(""), &setup.settings.season, &[], roster)?;
    let existed = (dir.exists(), dir.join("bots").exists());
    let before = programs::kept_folders(dir);
    let start = &checked.start;
    Store::create(
        dir,
        &setup.settings.meta(start.catalogue_name(), start.name()),
    )?;
    let mut joined = Vec::new();
    for bot in &setup.bots {
        let added = bot
            .get("name")
            .and_then(|n| n.as_str())
            .ok_or_else(|| Error::Usage("a [[bot]] without a name".into()))
            .and_then(|name| {
                let mut table = bot.clone();
                table.remove("name");
                add(dir, roster, name, &table, &setup.dir, Joining::Now)
            });
        match added {
            Ok(bot) => joined.push(bot),
            Err(e) => {
                // all or nothing: an arena without the config's bots would
                // only be refused by the next `init` as one made already
                unmake(dir, existed, &before);
                return Err(e);
            }
        }
    }
    Ok(joined)
}

/// Removes what [`init`] made in `dir`: the database, the bots' folders
/// placed since `before`, and `bots/` and `dir` themselves where they did
/// not exist before (`existed`, in that order) and are left empty.
fn unmake(dir: &Path, (dir_existed, bots_existed): (bool, bool), before: &[std::ffi::OsString]) {
    programs::remove_placed(dir, before);
    if !bots_existed {
        let _ = std::fs::remove_dir(dir.join("bots"));
    }
    for end in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(dir.join(format!("{}{end}", store::FILE)));
    }
    if !dir_existed {
        let _ = std::fs::remove_dir(dir);
    }
}

/// How a version joins: as the bot's version from now on, or as a
/// candidate under the arena's SPRT (against the pool, or one version).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Joining {
    #[default]
    Now,
    Candidate {
        against: Option<String>,
    },
}

/// A bot that joined the arena.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Joined {
    /// Its name, `name@version`.
    pub bot: String,
    /// The words of its command that read as files but named none as it
    /// joined, so that the arena keeps none ([`Command::unfound_files`]):
    /// the bot joins, since it may make such a file, and the caller tells
    /// the person who added it.
    ///
    /// [`Command::unfound_files`]: crate::external::Command::unfound_files
    pub unfound: Vec<String>,
    /// The folder the command's words were looked for in (where it was
    /// added from, or the bot's `dir` there).
    pub looked_in: PathBuf,
}

/// Adds bot `name` (its `[[bot]]` keys `table`, paths relative to `from`)
/// as its next version: it retires the one before, unless it joins as a
/// candidate. A bot that cannot join leaves no
/// files behind in `bots/`; where others may add at the same time, the
/// caller holds [`programs::hold_joining`].
pub fn add<G: Game>(
    dir: &Path,
    roster: &Roster<G>,
    name: &str,
    table: &toml::Table,
    from: &Path,
    joining: Joining,
) -> Result<Joined> {
    let before = programs::kept_folders(dir);
    let added = add_version(dir, roster, name, table, from, joining);
    if added.is_err() {
        programs::remove_placed(dir, &before);
    }
    added
}

fn add_version<G: Game>(
    dir: &Path,
    roster: &Roster<G>,
    name: &str,
    table: &toml::Table,
    from: &Path,
    joining: Joining,
) -> Result<Joined> {
    config::check_bot_name(name)?;
    let (store, league) = open(dir)?;
    let previous = league.latest(name).cloned();
    let version = previous.as_ref().map_or(1, |v| v.version + 1);
    let season = config::Settings::stored(&store)?.season;
    let spec = config::version_spec(dir, from, table, name, version, &season)?;
    if let Some(p) = &previous {
        // a retired bot comes back by being added again, as its next version
        if !p.retired && same_bot(&p.spec, &spec) {
            return Err(Error::Usage(format!(
                "{} is this bot already (same settings and program)",
                p.bot
            )));
        }
    }
    let bot = format!("{name}@{version}");
    let (candidate, against) = match joining {
        Joining::Now => (false, None),
        Joining::Candidate { against } => (true, against),
    };
    if let Some(base) = &against {
        match league.find(base) {
            Some(v) if !v.retired && !v.candidate => {}
            _ => {
                return Err(Error::Usage(format!(
                    "--against {base}: no such version plays in the arena's pool"
                )))
            }
        }
    }
    let mut versions = league.versions.clone();
    versions.push(Version {
        bot: bot.clone(),
        name: name.to_string(),
        version,
        spec: spec.clone(),
        candidate,
        against: against.clone(),
        retired: false,
        rejected: false,
        tested: candidate,
    });
    let plan = config::base_plan(dir, &season, &versions, roster)
        .map_err(|e| Error::Usage(format!("bot {name} cannot join: {}", without_file(&e))))?;
    // a newcomer's program must start by its `#!` line (the stored ones
    // were checked as they joined)
    let joining = plan.bots.iter().find(|b| b.name == bot);
    let mut unfound = Vec::new();
    if let Some(crate::plan::PlannedBot {
        kind: crate::plan::BotKind::External(command, protocol),
        ..
    }) = joining
    {
        // named as the user wrote it, not as the arena keeps it
        let given = table
            .get("command")
            .and_then(|c| c.as_array()?.first()?.as_str());
        let shown = given.unwrap_or_default();
        command
            .check_script(shown)
            .map_err(|e| Error::Usage(format!("bot {name} cannot join: {e}")))?;
        // the arena copied every file the command names, so a word that
        // names none now will not name one later (unless the bot makes it,
        // which is why this is a note and not a refusal)
        unfound = command
            .unfound_files(protocol.own_dir)
            .into_iter()
            .map(str::to_string)
            .collect();
    }
    // the new version and the retirement of the one before, together: a
    // failure leaves neither (and the files placed are removed)
    let mut events = vec![Event::Added {
        bot: bot.clone(),
        name: name.to_string(),
        version,
        spec,
        candidate,
        against,
    }];
    if !candidate {
        events.extend(
            league
                .versions
                .iter()
                .filter(|v| v.name == name && !v.retired)
                .map(|v| Event::Retired { bot: v.bot.clone() }),
        );
    }
    store.append_all(&events)?;
    let looked_in = match table.get("dir").and_then(toml::Value::as_str) {
        Some(dir) => from.join(dir),
        None => from.to_path_buf(),
    };
    Ok(Joined {
        bot,
        unfound,
        looked_in,
    })
}

/// A config error about the arena's own settings text, without the name
/// of the file that does not exist.
fn without_file(e: &Error) -> String {
    match e {
        Error::Config(c) => c.message.clone(),
        other => other.to_string(),
    }
}

/// Whether two `[[bot]]` tables are the same bot but for the name.
fn same_bot(a: &str, b: &str) -> bool {
    let table = |s: &str| {
        let mut t: toml::Table = s.parse().unwrap_or_default();
        t.remove("name");
        t
    };
    table(a) == table(b)
}

/// Retires `bot` (a name: every version of it that plays; or `name@N`);
/// the versions retired.
pub fn retire(dir: &Path, bot: &str) -> Result<Vec<String>> {
    let (store, league) = open(dir)?;
    let playing: Vec<&Version> = league
        .versions
        .iter()
        .filter(|v| !v.retired && (v.bot == bot || v.name == bot))
        .collect();
    if playing.is_empty() {
        return Err(Error::Usage(
            match league.find(bot).or(league.latest(bot)) {
                Some(_) => format!("{bot} has retired already"),
                None => format!("no bot {bot} in the arena"),
            },
        ));
    }
    let retired: Vec<Event> = playing
        .iter()
        .map(|v| Event::Retired { bot: v.bot.clone() })
        .collect();
    store.append_all(&retired)?;
    Ok(playing.iter().map(|v| v.bot.clone()).collect())
}

/// Writes the arena's finished games as a season folder `out` (a journal
/// of listed games with the arena's seeds, `season.json` and the reports),
/// which `ladder verify`, `report` and `replay` read, with the arena's
/// event log beside them (`events.jsonl`, one event a line, in order); the
/// games written. With `season`, that closed season's games alone: the
/// folder's game 0 is the season's first, and the bots and the log are
/// the arena's as they stood when the season closed (up to the batch that
/// finished its last game), so the export is the same whenever it is made.
pub fn export<G: Game>(
    dir: &Path,
    out: &Path,
    roster: &Roster<G>,
    season: Option<u64>,
) -> Result<u64> {
    use crate::{journal::Journal, plan::schedule::Format};
    // the log read once: written beside the games, and the league folded
    // from the part of it the export keeps
    let store = Store::open(dir)?;
    let mut events = store.events()?;
    if std::fs::canonicalize(out).ok() == std::fs::canonicalize(dir).ok() {
        return Err(Error::Usage(format!(
            "{} is the arena's own folder; export into a new folder",
            out.display()
        )));
    }
    let (games, first) = match season {
        None => (store.games()?, 0),
        Some(k) => {
            let (s, _) = seasons::find(&store, dir, k)?;
            let games = store.games_from(s.first, s.last - s.first + 1)?;
            if games.len() as u64 != s.last - s.first + 1 {
                return Err(store.damaged(format!("season {k}'s games are not all there")));
            }
            let last = games.last().map(|g| g.batch);
            let closed = events
                .iter()
                .position(|(_, e)| matches!(e, Event::Finished { number } if Some(*number) == last))
                .ok_or_else(|| store.damaged(format!("season {k}'s last batch never finished")))?;
            events.truncate(closed + 1);
            (games, s.first)
        }
    };
    let league = League::from_events(&events).map_err(|m| store.damaged(m))?;
    let base = config::base_plan(
        dir,
        &config::Settings::stored(&store)?.season,
        &league.versions,
        roster,
    )?;
    let names = league.names();
    let wrong = |m: String| store.damaged(m);
    // each record read once: for the standings and for its seats
    let mut standings = crate::stats::standings::Standings::empty(&names);
    let mut listed = Vec::new();
    for g in &games {
        let scored = g.scored(&names).map_err(wrong)?;
        standings.add(&scored);
        listed.push((scored.seats.first, scored.seats.second));
    }
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| Error::Usage(format!("{}: no folder name", out.display())))?;
    let plan = crate::plan::Plan {
        name: crate::plan::check_name(&name).map_err(|e| Error::Usage(e.to_string()))?,
        bots: base.bots[..names.len()].to_vec(),
        format: Format::Listed {
            games: listed,
            first,
        },
        games_per_pair: 1,
        compress: false,
        ..base
    };
    if out.join(crate::journal::GAMES).exists() {
        return Err(Error::Usage(format!(
            "{} holds a season already; export into a new folder",
            out.display()
        )));
    }
    let (mut journal, _) = Journal::open(out, &plan.describe(), false, &names, &mut |_| Ok(()))?;
    let mut text = String::new();
    for g in &games {
        let line = play::renumber(&g.record, g.number, g.number - first)
            .ok_or_else(|| wrong(format!("game {} is not numbered as it is", g.number)))?;
        text.push_str(&line);
        text.push('\n');
    }
    journal.append_games(text.as_bytes())?;
    journal.finish()?;
    let mut log = String::new();
    for (_, event) in events {
        log.push_str(&serde_json::to_string(&event).expect("events serialize"));
        log.push('\n');
    }
    crate::core::files::replace(&out.join(EVENTS), log.as_bytes())?;
    crate::report::write_files(out, &plan.header(), &standings)?;
    Ok(games.len() as u64)
}

/// Promotes candidate `bot` (`name@N`) into the pool, retiring the older
/// versions of its bot; or, `promote` false, rejects it (it retires).
pub fn decide(dir: &Path, bot: &str, promote: bool) -> Result<()> {
    let (store, league) = open(dir)?;
    match league.find(bot) {
        Some(v) if v.candidate && !v.retired => {}
        Some(_) => return Err(Error::Usage(format!("{bot} is no candidate"))),
        None => return Err(Error::Usage(format!("no bot {bot} in the arena"))),
    }
    let bot = bot.to_string();
    store.append(&if promote {
        Event::Promoted { bot }
    } else {
        Event::Rejected { bot }
    })?;
    Ok(())
}
