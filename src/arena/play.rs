//! `ladder arena run`: batch after batch until stopped.
//!
//! Each turn of the loop either plays the batch in progress or decides the
//! next one. A batch is a season of listed games (`config::batch_plan`)
//! played by the season runner into `batches/batch-N/`; once it is whole,
//! its games go into the database with its `finished` event, and the
//! folder goes. A kill at any moment leaves either a batch in progress
//! (the next run resumes its journal, as a season resumes) or a recorded
//! one: no finished game is lost or played twice. With fewer than two bots
//! that may play, the loop waits for `ladder arena add`.

use std::{path::Path, time::Duration};

use crate::{
    arena::{
        candidates,
        config::{self, batch_name},
        league::League,
        matchmaking,
        seasons::Closer,
        show::{Followed, Tallies},
        store::{Event, Store},
    },
    core::{
        error::{Error, Result},
        files::FolderLock,
        game::Game,
    },
    external::process::cleanup,
    plan::{jobs::Jobs, Roster},
    run::tournament::{self, Options},
    stats::sprt::Verdict,
};

/// How long the loop sleeps when no batch can be played.
const IDLE: Duration = Duration::from_millis(200);

/// What a run did before it stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Played {
    pub batches: u64,
    pub games: u64,
    /// The signal that stopped it.
    pub interrupted: Option<i32>,
}

/// Plays the arena in `dir` until a signal stops it (or, with `batches`,
/// after that many batches); `say` gets a line per batch.
pub fn run<G: Game>(
    dir: &Path,
    roster: &Roster<G>,
    jobs: Option<Jobs>,
    batches: Option<u64>,
    say: &mut dyn FnMut(String),
) -> Result<Played> {
    let mut player = Player::open(dir, roster, jobs)?;
    let mut played = Played::default();
    loop {
        if let Some(signal) = cleanup::interrupted() {
            played.interrupted = Some(signal);
            return Ok(played);
        }
        if batches.is_some_and(|b| played.batches >= b) {
            return Ok(played);
        }
        match player.play_open()? {
            None => {
                if player.decide(|_| Ok(()))?.is_none() {
                    std::thread::sleep(IDLE);
                }
            }
            Some(Outcome::Interrupted(signal)) => {
                played.interrupted = Some(signal);
                return Ok(played);
            }
            Some(Outcome::Recorded(batch)) => {
                played.batches += 1;
                played.games += batch.games;
                say(batch.line);
            }
        }
    }
}

/// An arena opened to play ([`run`], and a replay's steps): its folder
/// held, its settings read, its league and tallies followed a batch at a
/// time, so deciding a batch costs what is new, not every game the arena
/// ever played.
pub struct Player<'a, G: Game> {
    dir: &'a Path,
    roster: &'a Roster<G>,
    jobs: Option<Jobs>,
    store: Store,
    settings: config::Settings,
    followed: Followed,
    /// Closes the arena's seasons, if it has them.
    closer: Option<Closer>,
    _lock: FolderLock,
}

/// What playing the open batch came to.
#[derive(Debug)]
pub enum Outcome {
    /// Its games are in the database.
    Recorded(Recorded),
    /// A signal stopped it; its journal in `batches/` resumes.
    Interrupted(i32),
}

/// A batch whose games went into the database.
#[derive(Debug)]
pub struct Recorded {
    pub number: u64,
    /// The number of its first game in the arena.
    pub first: u64,
    pub games: u64,
    /// What it was, for people: `batch 3: games 24-31 (a@1, b@2)`.
    pub line: String,
}

impl<'a, G: Game> Player<'a, G> {
    /// Holds the arena in `dir` for playing (one player at a time).
    pub fn open(dir: &'a Path, roster: &'a Roster<G>, jobs: Option<Jobs>) -> Result<Self> {
        let lock = FolderLock::hold(dir, "arena")?;
        let store = Store::open(dir)?;
        let settings = config::Settings::stored(&store)?;
        let closer = settings.season_games.map(Closer::new);
        Ok(Player {
            dir,
            roster,
            jobs,
            store,
            settings,
            followed: Followed::default(),
            closer,
            _lock: lock,
        })
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Decides the next batch ([`next`]) and writes its event, unless
    /// `check` refuses it: then nothing is written and its error returned.
    /// `None` when no batch can be played (or one is open).
    pub fn decide(&mut self, check: impl FnOnce(&Event) -> Result<()>) -> Result<Option<Event>> {
        let followed = &mut self.followed;
        let settings = &self.settings;
        self.store.decide(|store| {
            followed.catch_up(store)?;
            let decided = next(
                &followed.league,
                &followed.tallies,
                settings.matchmaking,
                &settings.sprt,
            );
            if let Some(event) = &decided {
                check(event)?;
            }
            Ok(decided)
        })
    }

    /// Plays the open batch (resuming its journal) and records its games;
    /// `None` when no batch is open.
    pub fn play_open(&mut self) -> Result<Option<Outcome>> {
        let followed = &mut self.followed;
        self.store.snapshot(|store| followed.catch_up(store))?;
        let league = &self.followed.league;
        let Some(batch) = league.open.clone() else {
            return Ok(None);
        };
        let (dir, season) = (self.dir, &self.settings.season);
        let base = config::base_plan(dir, season, &league.versions, self.roster)?;
        let plan = config::batch_plan(&base, batch.number, batch.first, &batch.games)?;
        let reports = dir.join("batches");
        let opts = Options {
            jobs: self.jobs,
            fresh: false,
            reports: reports.clone(),
            progress: None,
            progress_every: None,
            max_games: None,
            log: None,
            shard: None,
            strict: false,
        };
        let summary = tournament::run(&plan, &opts)?;
        if let Some(signal) = summary.interrupted {
            return Ok(Some(Outcome::Interrupted(signal)));
        }
        let folder = reports.join(batch_name(batch.number));
        let games = renumbered(&folder.join("games.jsonl"), batch.first)?;
        if games.len() != batch.games.len() {
            return Err(Error::Mismatch(format!(
                "{}: {} games of {} after the batch was played",
                folder.display(),
                games.len(),
                batch.games.len()
            )));
        }
        let forfeits = forfeit_notes(&folder.join("logs"), batch.first);
        let mut seasons = Vec::new();
        if let Some(closer) = &mut self.closer {
            // the table's standings are every game before the batch's
            let (names, before) = (self.followed.league.names(), &self.followed.tallies.all);
            for s in closer.close(&self.store, &names, before, batch.first, &games)? {
                let data = serde_json::to_string(&s).expect("a season serializes");
                seasons.push((s.number, data));
            }
        }
        self.store
            .finish_batch(batch.number, &games, &forfeits, &seasons)?;
        let _ = std::fs::remove_dir_all(&folder);
        let count = games.len() as u64;
        Ok(Some(Outcome::Recorded(Recorded {
            number: batch.number,
            first: batch.first,
            games: count,
            line: format!(
                "batch {}: games {}-{} ({})",
                batch.number,
                batch.first,
                batch.first + count - 1,
                bots_of(&batch.games).join(", ")
            ),
        })))
    }
}

/// The next batch's event, from the league and the tallies of its
/// finished games; `None` while no two bots may play each other.
/// Candidates under test take up to half the batch (a pairing each at
/// least), each against the pool bot (or its `against`) it has met least;
/// the pool's matchmaking ([`matchmaking::next_batch`]) fills the rest.
pub fn next(
    league: &League,
    tallies: &Tallies,
    settings: matchmaking::Settings,
    sprt: &candidates::Settings,
) -> Option<Event> {
    if league.open.is_some() {
        return None;
    }
    let standings = &tallies.all;
    let failing = tallies.failing(league.versions.len());
    // the versions that play: not retired, not failing every game
    let plays = |i: usize| !league.versions[i].retired && failing[i].is_none();
    let all = 0..league.versions.len();
    let pool: Vec<usize> = all
        .clone()
        .filter(|&i| plays(i) && !league.versions[i].candidate)
        .collect();
    let testing: Vec<usize> = all
        .filter(|&i| {
            plays(i)
                && league.versions[i].candidate
                && candidates::test(sprt, &standings.totals[i]).verdict == Verdict::Unfinished
        })
        .collect();
    let pairings = (settings.batch_games.max(2) / 2) as usize;
    let mut chosen: Vec<(usize, usize)> = Vec::new();
    let mut met: Vec<Vec<u64>> = standings
        .vs
        .iter()
        .map(|row| row.iter().map(|t| t.games).collect())
        .collect();
    if !testing.is_empty() {
        for k in 0..(pairings / 2).max(testing.len()).min(pairings) {
            let c = testing[k % testing.len()];
            let opponents: Vec<usize> = match &league.versions[c].against {
                Some(base) => pool
                    .iter()
                    .copied()
                    .filter(|&o| &league.versions[o].bot == base)
                    .collect(),
                None => pool.clone(),
            };
            let Some(o) = opponents.into_iter().min_by_key(|&o| (met[c][o], o)) else {
                continue;
            };
            chosen.extend([(c, o), (o, c)]);
            met[c][o] += 2;
            met[o][c] += 2;
        }
    }
    let left = pairings - chosen.len() / 2;
    if left > 0 {
        let vs: Vec<Vec<_>> = pool
            .iter()
            .map(|&a| pool.iter().map(|&b| standings.vs[a][b]).collect())
            .collect();
        let fill = matchmaking::Settings {
            batch_games: (left * 2) as u32,
            ..settings
        };
        for (a, b) in matchmaking::next_batch(&vs, fill) {
            chosen.push((pool[a], pool[b]));
        }
    }
    if chosen.is_empty() {
        return None;
    }
    let name = |i: usize| league.versions[i].bot.clone();
    Some(Event::Batch {
        number: league.next_batch,
        first: league.next_game,
        games: chosen
            .into_iter()
            .map(|(a, b)| [name(a), name(b)])
            .collect(),
    })
}

/// The bots of a batch, in the order they first play.
fn bots_of(games: &[[String; 2]]) -> Vec<String> {
    let mut bots: Vec<String> = Vec::new();
    for b in games.iter().flatten() {
        if !bots.contains(b) {
            bots.push(b.clone());
        }
    }
    bots
}

/// A batch's journal lines with each game numbered across the arena
/// (`first` + its index), in order.
/// The forfeits the bots' logs in `logs` note (`[ladder] game K: BOT
/// forfeits: ...` and the last lines exchanged after it), as (the game's
/// number in the arena, the bot, the note); games are numbered in the
/// batch from 0, in the arena from `first`. A log that cannot be read
/// gives none: the lines are help for the bot's author, not results.
fn forfeit_notes(logs: &Path, first: u64) -> Vec<(u64, String, String)> {
    let mut notes = Vec::new();
    let Ok(entries) = std::fs::read_dir(logs) else {
        return notes;
    };
    let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    files.sort();
    for path in files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let Some(bot) = name.as_deref().and_then(|n| n.strip_suffix(".log")) else {
            continue;
        };
        if bot.ends_with(".io") {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let mut lines = text.lines().peekable();
        while let Some(line) = lines.next() {
            let Some(rest) = line.strip_prefix("[ladder] game ") else {
                continue;
            };
            let Some((k, said)) = rest.split_once(": ") else {
                continue;
            };
            let Ok(k) = k.parse::<u64>() else { continue };
            let mut note = format!("{said}\n");
            // the exchanged lines: `  0.012345 game K bot > line`
            while let Some(next) = lines.peek() {
                let stamped = next
                    .trim_start()
                    .split_once(' ')
                    .is_some_and(|(t, _)| t.contains('.') && t.parse::<f64>().is_ok());
                if !stamped {
                    break;
                }
                note.push_str(next);
                note.push('\n');
                lines.next();
            }
            notes.push((first + k, bot.to_string(), note));
        }
    }
    notes
}

fn renumbered(journal: &Path, first: u64) -> Result<Vec<(u64, String)>> {
    let text = std::fs::read_to_string(journal).map_err(Error::io("reading", journal))?;
    let mut games = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let bad = |why: &str| Error::Journal {
            path: journal.to_path_buf(),
            line: k + 1,
            message: why.to_string(),
        };
        let n = first + k as u64;
        let line = renumber(line, k as u64, n).ok_or_else(|| bad("not the batch's next game"))?;
        games.push((n, line));
    }
    Ok(games)
}

/// Game `from`'s journal line (of a season of listed games, one a
/// pairing) as game `to`'s; `None` if it is not game `from`'s.
pub fn renumber(line: &str, from: u64, to: u64) -> Option<String> {
    let rest = line.strip_prefix(&format!("{{\"index\":{from},\"pair\":{from},"))?;
    Some(format!("{{\"index\":{to},\"pair\":{to},{rest}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_renumbered_across_the_arena_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        std::fs::write(
            &path,
            "{\"index\":0,\"pair\":0,\"seats\":[\"a@1\",\"b@1\"]}\n{\"index\":1,\"pair\":1,\"x\":1}\n",
        )
        .unwrap();
        let games = renumbered(&path, 40).unwrap();
        assert_eq!(
            games[1],
            (41, "{\"index\":41,\"pair\":41,\"x\":1}".to_string())
        );
        std::fs::write(&path, "{\"index\":1,\"pair\":1,\"x\":1}\n").unwrap();
        assert!(renumbered(&path, 0).is_err());
    }
}
