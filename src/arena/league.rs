//! An arena's state, folded from its event log: the bot versions and
//! whether each still plays, the batch in progress, and the standings of
//! the finished games. Everything an arena decides is decided from this, so
//! the same log gives the same decisions.

use crate::{
    arena::store::Event,
    core::{record::Scored, referee::Termination},
};

/// One version of a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version {
    /// `name@version`, as tables and journals name it.
    pub bot: String,
    pub name: String,
    pub version: u32,
    /// Its `[[bot]]` table (TOML).
    pub spec: String,
    /// Under test: it plays the pool (or `against`) until the arena's SPRT
    /// decides, then waits to be promoted (it joins the pool) or rejected.
    pub candidate: bool,
    /// The version a candidate plays, if not the whole pool.
    pub against: Option<String>,
    pub retired: bool,
    /// A candidate turned down.
    pub rejected: bool,
    /// Joined as a candidate: its test stays on the candidates' page after
    /// it was promoted or rejected.
    pub tested: bool,
}

/// The batch chosen last, while its games are not all recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    pub number: u64,
    pub first: u64,
    pub games: Vec<[String; 2]>,
}

/// What the event log says.
#[derive(Clone, Debug, Default)]
pub struct League {
    /// Every version, in the order they joined.
    pub versions: Vec<Version>,
    /// The batch being played, if one is.
    pub open: Option<Batch>,
    /// The number the next batch gets.
    pub next_batch: u64,
    /// The number the next game gets.
    pub next_game: u64,
}

/// A version that forfeited each of at least this many games, and no
/// other, plays no more until a new version of it joins.
pub const FAILING_AFTER: u64 = 4;

impl League {
    /// Folds `events` (in log order); an event that contradicts the ones
    /// before it is named.
    pub fn from_events(events: &[(u64, Event)]) -> Result<League, String> {
        let mut league = League::default();
        for (seq, event) in events {
            league.apply(*seq, event)?;
        }
        Ok(league)
    }

    /// Folds one more event, number `seq` of the log.
    pub fn apply(&mut self, seq: u64, event: &Event) -> Result<(), String> {
        let league = self;
        {
            let wrong = |why: &str| format!("event {seq}: {why}");
            match event {
                Event::Added {
                    bot,
                    name,
                    version,
                    spec,
                    candidate,
                    against,
                } => {
                    if league.find(bot).is_some() {
                        return Err(wrong(&format!("{bot} joined twice")));
                    }
                    league.versions.push(Version {
                        bot: bot.clone(),
                        name: name.clone(),
                        version: *version,
                        spec: spec.clone(),
                        candidate: *candidate,
                        against: against.clone(),
                        retired: false,
                        rejected: false,
                        tested: *candidate,
                    });
                }
                Event::Promoted { bot } | Event::Rejected { bot } => {
                    let promoted = matches!(event, Event::Promoted { .. });
                    let v = league
                        .versions
                        .iter()
                        .position(|v| &v.bot == bot && v.candidate && !v.retired)
                        .ok_or_else(|| wrong(&format!("{bot} is no candidate")))?;
                    let name = league.versions[v].name.clone();
                    league.versions[v].candidate = false;
                    if promoted {
                        for older in league.versions.iter_mut().filter(|o| o.name == name) {
                            older.retired |= &older.bot != bot;
                        }
                    } else {
                        league.versions[v].retired = true;
                        league.versions[v].rejected = true;
                    }
                }
                Event::Retired { bot } => {
                    let v = league
                        .versions
                        .iter_mut()
                        .find(|v| &v.bot == bot)
                        .ok_or_else(|| wrong(&format!("{bot} retired but never joined")))?;
                    v.retired = true;
                }
                Event::Batch {
                    number,
                    first,
                    games,
                } => {
                    if league.open.is_some() || *number != league.next_batch {
                        return Err(wrong(&format!("batch {number} out of order")));
                    }
                    if *first != league.next_game {
                        return Err(wrong(&format!("batch {number} starts at game {first}")));
                    }
                    if let Some(g) = games.iter().flatten().find(|b| league.find(b).is_none()) {
                        return Err(wrong(&format!(
                            "batch {number} names {g}, who never joined"
                        )));
                    }
                    league.open = Some(Batch {
                        number: *number,
                        first: *first,
                        games: games.clone(),
                    });
                }
                Event::Finished { number } => {
                    let open = league
                        .open
                        .take()
                        .filter(|b| b.number == *number)
                        .ok_or_else(|| wrong(&format!("batch {number} finished, not begun")))?;
                    league.next_batch += 1;
                    league.next_game += open.games.len() as u64;
                }
            }
        }
        Ok(())
    }

    /// The version called `bot` (`name@version`).
    pub fn find(&self, bot: &str) -> Option<&Version> {
        self.versions.iter().find(|v| v.bot == bot)
    }

    /// The newest version of `name`, if it ever joined.
    pub fn latest(&self, name: &str) -> Option<&Version> {
        self.versions.iter().rev().find(|v| v.name == name)
    }

    /// Every version's name, in joining order (the standings' bots).
    pub fn names(&self) -> Vec<String> {
        self.versions.iter().map(|v| v.bot.clone()).collect()
    }
}

/// Each version's games and forfeits, game by game: whether a version
/// forfeited every one of its games, at least [`FAILING_AFTER`] of them.
#[derive(Clone, Debug, Default)]
pub struct Forfeiting {
    played: Vec<u64>,
    lost: Vec<u64>,
    first: Vec<Option<String>>,
}

impl Forfeiting {
    /// Counts one more game of a league of `versions`.
    pub fn add(&mut self, s: &Scored, versions: usize) {
        self.played.resize(versions, 0);
        self.lost.resize(versions, 0);
        self.first.resize(versions, None);
        for b in [s.seats.first, s.seats.second] {
            self.played[b] += 1;
        }
        if let Termination::Forfeit { seat, detail, .. } = &s.termination {
            let b = s.seats[*seat];
            self.lost[b] += 1;
            self.first[b].get_or_insert_with(|| detail.clone());
        }
    }

    /// Per version of `versions`: the first forfeit's detail of one that
    /// forfeited each of its games, at least [`FAILING_AFTER`].
    pub fn failing(&self, versions: usize) -> Vec<Option<String>> {
        (0..versions)
            .map(|b| {
                let played = self.played.get(b).copied().unwrap_or(0);
                let lost = self.lost.get(b).copied().unwrap_or(0);
                (played >= FAILING_AFTER && lost == played)
                    .then(|| self.first.get(b).cloned().flatten())
                    .flatten()
            })
            .collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `BOT@1` joining the pool (the arena tests' first events).
    pub(crate) fn added(bot: &str) -> Event {
        Event::Added {
            bot: format!("{bot}@1"),
            name: bot.into(),
            version: 1,
            spec: String::new(),
            candidate: false,
            against: None,
        }
    }

    #[test]
    fn the_log_gives_versions_batches_and_numbers() {
        let events: Vec<(u64, Event)> = [
            added("a"),
            added("b"),
            Event::Batch {
                number: 0,
                first: 0,
                games: vec![["a@1".into(), "b@1".into()], ["b@1".into(), "a@1".into()]],
            },
            Event::Finished { number: 0 },
            Event::Retired { bot: "a@1".into() },
            Event::Batch {
                number: 1,
                first: 2,
                games: vec![],
            },
        ]
        .into_iter()
        .enumerate()
        .map(|(i, e)| (i as u64 + 1, e))
        .collect();
        let league = League::from_events(&events).unwrap();
        assert_eq!(league.names(), ["a@1", "b@1"]);
        assert!(league.find("a@1").unwrap().retired);
        assert_eq!(league.open.as_ref().unwrap().first, 2);
        assert_eq!((league.next_batch, league.next_game), (1, 2));
        // a batch out of order, or one that names a stranger, is refused
        let mut bad = events.clone();
        bad.insert(2, (9, Event::Finished { number: 0 }));
        assert!(League::from_events(&bad).unwrap_err().contains("event 9"));
        let stranger = vec![(
            1,
            Event::Batch {
                number: 0,
                first: 0,
                games: vec![["x@1".into(), "a@1".into()]],
            },
        )];
        assert!(League::from_events(&stranger).is_err());
    }
}
