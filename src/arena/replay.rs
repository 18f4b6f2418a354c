//! `ladder arena replay SRC DEST`: an arena's event log played again in a
//! new arena, which decides and plays every batch itself, each checked
//! against SRC's.
//!
//! An arena's games are a function of its seed and its event log
//! ([`super::league`]); the replay shows it for one arena, at any `--jobs`
//! and on another machine. DEST gets SRC's settings and kept bot programs
//! (`bots/`), then SRC's events in order: a bot's joining, retiring,
//! promotion or rejection is written as SRC wrote it; at each batch DEST
//! decides its own ([`Player::decide`]), which must be SRC's, and plays it,
//! and its games must be SRC's record for record. The first difference
//! stops the replay and is named: a bot that plays differently from run to
//! run (one that reads the clock, or loses on time on a busy machine) shows
//! here. A batch SRC has not finished is not replayed. DEST is an ordinary
//! arena: a rerun of the replay continues it (resuming a batch a kill
//! stopped), and `ladder arena run` plays it on.

use std::path::Path;

use crate::{
    arena::{
        config::Settings,
        league::League,
        play::{Outcome, Player},
        programs,
        store::{self, Event, Store, PAGE},
    },
    core::error::{Error, Result},
    external::process::cleanup,
    plan::{jobs::Jobs, Roster},
};

/// What a replay did before it stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replayed {
    /// The batches played by this replay, and their games.
    pub batches: u64,
    pub games: u64,
    /// The batches DEST holds, each decided and played as SRC's were.
    pub held: u64,
    /// SRC's batch in progress, which is not replayed.
    pub unfinished: Option<u64>,
    /// The signal that stopped it.
    pub interrupted: Option<i32>,
}

/// Replays the arena `src` into the arena `dest` (made if it is not one
/// yet); `say` gets a line per batch. An error names the first batch or
/// game that differs.
pub fn replay<G: crate::core::game::Game>(
    src: &Path,
    dest: &Path,
    roster: &Roster<G>,
    jobs: Option<Jobs>,
    say: &mut dyn FnMut(String),
) -> Result<Replayed> {
    if std::fs::canonicalize(src).ok() == std::fs::canonicalize(dest).ok() {
        return Err(Error::Usage(format!(
            "{} is the arena replayed; replay into a new folder",
            dest.display()
        )));
    }
    let source = Store::open(src)?;
    let (log, meta) = source.snapshot(|s| Ok((s.events()?, meta_of(s)?)))?;
    let league = League::from_events(&log).map_err(|m| source.damaged(m))?;
    let wanted = to_replay(&log);
    let unfinished = league.open.map(|b| b.number);
    if dest.join(store::FILE).exists() {
        let kept = meta_of(&Store::open(dest)?)?;
        let other = kept.iter().zip(&meta).find(|(a, b)| a != b);
        if let Some(((key, _), _)) = other {
            return Err(Error::Mismatch(format!(
                "{} is an arena with another `{key}` than {}'s; replay into a new folder",
                dest.display(),
                src.display()
            )));
        }
    } else {
        Store::create(dest, &meta)?;
    }
    // SRC's programs, also those of bots that joined it since DEST was
    // made (a folder kept already stays)
    programs::copy_kept(src, dest)?;
    let mut player = Player::open(dest, roster, jobs)?;
    let had: Vec<Event> = player
        .store()
        .events()?
        .into_iter()
        .map(|(_, e)| e)
        .filter(|e| !matches!(e, Event::Finished { .. }))
        .collect();
    if let Some(k) = (0..had.len()).find(|&k| wanted.get(k) != Some(&had[k])) {
        return Err(Error::Mismatch(format!(
            "{}'s event log is not {}'s from its event {} on; replay into a new folder",
            dest.display(),
            src.display(),
            k + 1
        )));
    }
    let mut replayed = Replayed {
        unfinished,
        ..Replayed::default()
    };
    // the games DEST holds already: a replay stopped by a difference
    // says so again when it is rerun
    same_games(src, &source, player.store(), 0, u64::MAX)?;
    let mut next = had.len();
    loop {
        if let Some(signal) = cleanup::interrupted() {
            replayed.interrupted = Some(signal);
            break;
        }
        // the batch in progress: decided before a kill, or just now
        match player.play_open()? {
            Some(Outcome::Interrupted(signal)) => {
                replayed.interrupted = Some(signal);
                break;
            }
            Some(Outcome::Recorded(batch)) => {
                same_games(src, &source, player.store(), batch.first, batch.games)?;
                replayed.batches += 1;
                replayed.games += batch.games;
                say(format!("{}: as recorded", batch.line));
                continue;
            }
            None => {}
        }
        let Some(event) = wanted.get(next) else { break };
        next += 1;
        if let Event::Batch { number, .. } = event {
            let decided = player.decide(|decided| {
                if decided == event {
                    Ok(())
                } else {
                    Err(differs(src, *number, event, Some(decided)))
                }
            })?;
            if decided.is_none() {
                return Err(differs(src, *number, event, None));
            }
        } else {
            player.store().append(event)?;
        }
    }
    replayed.held = player
        .store()
        .events()?
        .iter()
        .filter(|(_, e)| matches!(e, Event::Finished { .. }))
        .count() as u64;
    Ok(replayed)
}

/// The events a replay writes or checks, in order: `log`'s, without the
/// `finished` ones (a replay's batch is finished when it is played), up
/// to the first batch not finished.
fn to_replay(log: &[(u64, Event)]) -> Vec<Event> {
    let finished: std::collections::HashSet<u64> = log
        .iter()
        .filter_map(|(_, e)| match e {
            Event::Finished { number } => Some(*number),
            _ => None,
        })
        .collect();
    log.iter()
        .map(|(_, e)| e)
        .filter(|e| !matches!(e, Event::Finished { .. }))
        .take_while(|e| !matches!(e, Event::Batch { number, .. } if !finished.contains(number)))
        .cloned()
        .collect()
}

/// The settings a replay's arena must share with the arena it replays.
fn meta_of(store: &Store) -> Result<Vec<(&'static str, String)>> {
    Ok(Settings::stored(store)?.meta(&store.meta("game")?, &store.title()?))
}

/// The replay decided another batch than SRC's `number` (`None`: none).
fn differs(src: &Path, number: u64, wanted: &Event, decided: Option<&Event>) -> Error {
    let games = |e: Option<&Event>| match e {
        Some(Event::Batch { first, games, .. }) => {
            let pairs: Vec<String> = games.iter().map(|[a, b]| format!("{a}-{b}")).collect();
            format!("games {first} on: {}", pairs.join(" "))
        }
        _ => "no batch".to_string(),
    };
    Error::Mismatch(format!(
        "batch {number} differs: {} chose {}; the replay chose {}",
        src.display(),
        games(Some(wanted)),
        games(decided)
    ))
}

/// Checks that the games numbered from `first` (`count` of them, or all
/// there are) are the same records in `replay` as in `source` (the arena
/// `src`), a page at
/// a time; the first that differs is named, with where.
fn same_games(src: &Path, source: &Store, replay: &Store, first: u64, count: u64) -> Result<()> {
    let mut at = first;
    let end = first.saturating_add(count);
    while at < end {
        let theirs = replay.games_from(at, PAGE.min(end - at))?;
        let Some(last) = theirs.last() else {
            return Ok(());
        };
        let ours = source.games_from(at, theirs.len() as u64)?;
        for (i, game) in theirs.iter().enumerate() {
            let recorded = ours.get(i).filter(|g| g.number == game.number);
            let Some(recorded) = recorded else {
                return Err(Error::Mismatch(format!(
                    "game {}: the replay played it; {} has no such game",
                    game.number,
                    src.display()
                )));
            };
            if recorded.record != game.record {
                return Err(Error::Mismatch(format!(
                    "game {} differs from {}'s record {}",
                    game.number,
                    src.display(),
                    where_differs(&recorded.record, &game.record)
                )));
            }
        }
        at = last.number + 1;
    }
    Ok(())
}

/// Where two records part: the byte, and a stretch of each around it.
fn where_differs(recorded: &str, played: &str) -> String {
    let at = recorded
        .bytes()
        .zip(played.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(recorded.len().min(played.len()));
    let around = |text: &str| {
        let mut from = at.saturating_sub(40);
        while !text.is_char_boundary(from) {
            from -= 1;
        }
        let mut to = (at + 60).min(text.len());
        while !text.is_char_boundary(to) {
            to += 1;
        }
        let (open, close) = (
            if from > 0 { "…" } else { "" },
            if to < text.len() { "…" } else { "" },
        );
        format!("{open}{}{close}", &text[from..to])
    };
    format!(
        "at byte {at}:\n  recorded: {}\n  replayed: {}",
        around(recorded),
        around(played)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_finished_batches_are_replayed_and_finished_events_are_left_out() {
        let batch = |number: u64| Event::Batch {
            number,
            first: number * 2,
            games: vec![["a@1".into(), "b@1".into()]],
        };
        let retired = Event::Retired { bot: "b@1".into() };
        let log: Vec<(u64, Event)> = [
            batch(0),
            retired.clone(),
            Event::Finished { number: 0 },
            batch(1),
            retired.clone(),
        ]
        .into_iter()
        .enumerate()
        .map(|(k, e)| (k as u64 + 1, e))
        .collect();
        assert_eq!(to_replay(&log), [batch(0), retired.clone()]);
        assert_eq!(to_replay(&log[..3]), [batch(0), retired]);
        assert_eq!(to_replay(&log[..1]), []);
    }

    #[test]
    fn a_difference_is_shown_where_it_is() {
        let said = where_differs("{\"moves\":[1,2,3]}", "{\"moves\":[1,2,4]}");
        assert!(said.starts_with("at byte 14:"), "{said}");
        assert!(said.contains("recorded: {\"moves\":[1,2,3]}"), "{said}");
        assert!(said.contains("replayed: {\"moves\":[1,2,4]}"), "{said}");
        let long = format!("{}é{}", "x".repeat(100), "y".repeat(100));
        let other = format!("{}é{}z", "x".repeat(100), "y".repeat(100));
        let said = where_differs(&long, &other);
        assert!(said.starts_with("at byte 202:"), "{said}");
        assert!(said.contains("recorded: …yyyy"), "{said}");
        assert!(said.contains("replayed: …yyyy"), "{said}");
        assert!(said.ends_with("yz"), "{said}");
        let said = where_differs(&"é".repeat(60), &format!("{}a", "é".repeat(59)));
        assert!(said.starts_with("at byte 118:"), "{said}");
    }
}
