//! `ladder season CONFIG`: plays the ladder's next season (or finishes the
//! one a crash interrupted), then carries the ratings over, moves bots
//! between divisions, and saves the ladder.
//!
//! A season starts by fixing its rosters in `ladder.json` (bots added to the
//! config join, bots removed or made inactive retire with their history
//! kept); each division then plays an ordinary season of its bots under
//! `reports/<ladder>/season-NNN/` (in `division-D/` with more than one
//! division), resumable like any season. Only when every division is
//! complete are ratings updated (Glicko-2, one rating period per season),
//! bots promoted and relegated (and a bot alone in its division moved up
//! to the nearest one with bots, so the ladder never stalls), and the
//! season recorded, in one atomic write.

use std::path::PathBuf;

use skillratings::{
    glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating},
    Outcomes,
};

use crate::{
    core::{
        error::{Error, Result},
        game::Game,
    },
    ladder::{
        config::{self, Settings},
        html,
        state::{BotState, Division, Movement, Row, Season, State},
    },
    plan::config::ConfigFile,
    plan::schedule::{pairings, Format},
    plan::{Plan, Roster},
    report::{self as reports, ReportFormat},
    run::tournament::{self, Options, Summary},
    stats::standings::Standings,
};

/// What `ladder season` did.
pub struct Outcome {
    /// The number of the season played (or finished).
    pub number: u32,
    /// Each division that played games: its number and its season's summary.
    pub divisions: Vec<(u32, Summary)>,
    /// The ladder after the season (before it, when interrupted).
    pub state: State,
    /// The signal that stopped the season, if one did.
    pub interrupted: Option<i32>,
    /// Whether only a shard of the season was played (`--shard`): the
    /// season ends, and the ladder moves on, once the shards are merged
    /// and `ladder season` runs again.
    pub shard_only: bool,
}

/// The folder of the ladder of `plan` under `reports`.
pub fn ladder_dir<G: Game>(plan: &Plan<G>, reports: &std::path::Path) -> PathBuf {
    reports.join(&plan.name)
}

/// Plays the next season of the ladder configured in `src`, or finishes the
/// season in progress.
pub fn play<G: Game>(src: &ConfigFile, roster: &Roster<G>, opts: &Options) -> Result<Outcome> {
    let settings = config::settings(src)?;
    let base = crate::plan::config::plan(src, roster)?;
    let dir = ladder_dir(&base, &opts.reports);
    // one ladder at a time; the shards of a season, which run at once on
    // other machines, leave ladder.json alone and hold their own folders
    let _lock = match opts.shard {
        None => Some(crate::core::files::FolderLock::hold(&dir, "ladder")?),
        Some(_) => None,
    };
    let mut state = match State::load(&dir)? {
        Some(s) => {
            if s.game != base.start.name() {
                return Err(Error::Mismatch(format!(
                    "{} is a ladder of {}, not {}",
                    dir.display(),
                    s.game,
                    base.start.name()
                )));
            }
            s
        }
        None => State {
            ladder: base.name.clone(),
            game: base.start.name().to_string(),
            ..State::default()
        },
    };
    if state.current.is_none() {
        let season = start_season(&mut state, &base, &settings);
        state.current = Some(season);
        // shards running at once on other machines would race to write it:
        // they work out the same season from the same ladder, and the run
        // after the merge saves it
        if opts.shard.is_none() {
            state.save(&dir)?;
        }
    }
    let season = state.current.clone().expect("a season in progress");
    let many = season.divisions.len() > 1;
    let season_dir = dir.join(format!("season-{:03}", season.number));
    let mut played = Vec::new();
    for division in &season.divisions {
        // a division's season is named before its plan is built: the
        // folder of its division, or of the season when there is one
        let (name, reports) = if many {
            (
                format!("division-{}", division.division),
                season_dir.clone(),
            )
        } else {
            (format!("season-{:03}", season.number), dir.clone())
        };
        let Some(plan) = division_plan(&base, division, &settings, name)? else {
            continue;
        };
        if let Some(note) = whole_division_moves(division, &settings) {
            eprintln!("note: {note}");
        }
        let mut opts = opts.clone();
        opts.fresh = false;
        opts.max_games = None;
        opts.reports = reports;
        let summary = tournament::run(&plan, &opts)?;
        let interrupted = summary.interrupted;
        played.push((division.division, summary));
        if interrupted.is_some() {
            return Ok(Outcome {
                number: season.number,
                divisions: played,
                state,
                interrupted,
                shard_only: false,
            });
        }
    }
    if opts.shard.is_some() {
        return Ok(Outcome {
            number: season.number,
            divisions: played,
            state,
            interrupted: None,
            shard_only: true,
        });
    }
    finish_season(&mut state, season, &played, &settings);
    state.save(&dir)?;
    html::write_files(&dir, &state)?;
    Ok(Outcome {
        number: state.seasons.last().map_or(0, |s| s.number),
        divisions: played,
        state,
        interrupted: None,
        shard_only: false,
    })
}

/// Renders every report of the ladder in `dir` again from its journals and
/// `ladder.json`, in `formats`; returns how many season folders it did.
pub fn rerender(dir: &std::path::Path, formats: &[ReportFormat]) -> Result<usize> {
    let state = State::load(dir)?.ok_or_else(|| {
        Error::Usage(format!(
            "{}: no ladder.json, not a ladder's folder",
            dir.display()
        ))
    })?;
    let mut done = 0;
    for season in &state.seasons {
        for d in season.divisions.iter().filter(|d| !d.results.is_empty()) {
            reports::rerender(&dir.join(season.folder(d.division)), formats)?;
            done += 1;
        }
    }
    if formats.contains(&ReportFormat::Html) {
        html::write_files(dir, &state)?;
    }
    Ok(done)
}

/// The seed of division `division` of season `number`: the ladder seed,
/// the season and the division mixed by SplitMix64, so any season replays.
pub fn season_seed(ladder_seed: u64, number: u32, division: u32) -> u64 {
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    mix(mix(mix(ladder_seed) ^ u64::from(number)) ^ u64::from(division))
}

/// Fixes the rosters of the next season: joins, retirements, divisions.
fn start_season<G: Game>(state: &mut State, base: &Plan<G>, settings: &Settings) -> Season {
    let number = state.seasons.len() as u32 + 1;
    let lowest = settings.divisions;
    let active = |name: &str| settings.active.get(name).copied().unwrap_or(true);
    let mut joined = Vec::new();
    let mut retired = Vec::new();
    for (name, bot) in state.bots.iter_mut() {
        let in_config = base.bots.iter().any(|b| &b.name == name);
        if bot.active && !(in_config && active(name)) {
            bot.active = false;
            bot.movement = Movement::Retired;
            retired.push(name.clone());
        }
        // fewer divisions than before: the bots below go to the lowest
        bot.division = bot.division.min(lowest);
    }
    for b in base.bots.iter().filter(|b| active(&b.name)) {
        let placement = settings.placement.get(&b.name).copied().unwrap_or(lowest);
        match state.bots.get_mut(&b.name) {
            Some(bot) if bot.active => {}
            Some(bot) => {
                // back from retirement: its rating kept, placed like a newcomer
                bot.active = true;
                bot.division = placement;
                bot.joined = number;
                joined.push(b.name.clone());
            }
            None => {
                let fresh = Glicko2Rating::new();
                state.bots.insert(
                    b.name.clone(),
                    BotState {
                        rating: fresh.rating,
                        deviation: fresh.deviation,
                        volatility: fresh.volatility,
                        division: placement,
                        active: true,
                        joined: number,
                        games: 0,
                        won: 0,
                        lost: 0,
                        tie: 0,
                        movement: Movement::New,
                        history: Vec::new(),
                    },
                );
                joined.push(b.name.clone());
            }
        }
    }
    let divisions = (1..=settings.divisions)
        .map(|d| {
            // config order, so the schedule does not depend on the state's order
            let bots: Vec<String> = base
                .bots
                .iter()
                .filter(|b| {
                    state
                        .bots
                        .get(&b.name)
                        .is_some_and(|s| s.active && s.division == d)
                })
                .map(|b| b.name.clone())
                .collect();
            let newcomers = bots
                .iter()
                .filter(|n| joined.contains(n) || state.bots[*n].history.iter().all(|h| h.3 != d))
                .cloned()
                .collect();
            let seed = season_seed(base.seed, number, d);
            Division {
                division: d,
                seed,
                seed_text: Some(seed.to_string()),
                bots,
                newcomers,
                results: Vec::new(),
            }
        })
        .collect();
    Season {
        number,
        divisions,
        joined,
        retired,
        alone: Vec::new(),
    }
}

/// The season plan of one division, or `None` when it has no game to play.
fn division_plan<G: Game>(
    base: &Plan<G>,
    division: &Division,
    settings: &Settings,
    name: String,
) -> Result<Option<Plan<G>>> {
    let mut bots = Vec::new();
    for name in &division.bots {
        let bot = base.bots.iter().find(|b| &b.name == name).ok_or_else(|| {
            Error::Mismatch(format!(
                "bot `{name}` plays in the season in progress but is no longer in the config; \
                 put it back to finish the season"
            ))
        })?;
        bots.push(bot.clone());
    }
    let format = if settings.gauntlet {
        let newcomers = (0..bots.len())
            .filter(|&i| division.newcomers.contains(&bots[i].name))
            .collect();
        Format::Newcomers { newcomers }
    } else {
        Format::RoundRobin
    };
    if bots.len() < 2 || pairings(bots.len(), &format).is_empty() {
        return Ok(None);
    }
    Ok(Some(Plan {
        name,
        bots,
        format,
        seed: division.seed,
        ..base.clone()
    }))
}

/// What to tell a user whose `promote` or `relegate` takes in every bot of
/// a division that plays: all of it moves after the season (a slip in the
/// config, or a division that retirements shrank), or `None`.
fn whole_division_moves(division: &Division, settings: &Settings) -> Option<String> {
    let (d, size) = (division.division, division.bots.len());
    let (way, key, count) = if d > 1 && settings.promote as usize >= size {
        ("up", "promote", settings.promote)
    } else if d < settings.divisions && settings.relegate as usize >= size {
        ("down", "relegate", settings.relegate)
    } else {
        return None;
    };
    Some(format!(
        "division {d} has {size} bots and `{key} = {count}`: every one of them moves {way} \
         after this season"
    ))
}

/// Records a complete season: each division's table, ratings carried over
/// (Glicko-2, the season one rating period), promotion and relegation.
fn finish_season(
    state: &mut State,
    mut season: Season,
    played: &[(u32, Summary)],
    settings: &Settings,
) {
    let before: std::collections::BTreeMap<String, Glicko2Rating> = state
        .bots
        .iter()
        .map(|(n, b)| {
            let r = Glicko2Rating {
                rating: b.rating,
                deviation: b.deviation,
                volatility: b.volatility,
            };
            (n.clone(), r)
        })
        .collect();
    let config = Glicko2Config::new();
    let last = settings.divisions;
    for division in &mut season.divisions {
        let d = division.division;
        let standings = played
            .iter()
            .find(|(n, _)| *n == d)
            .map(|(_, s)| &s.standings);
        let Some(s) = standings else {
            // no games: ratings grow less certain, nobody moves
            for name in &division.bots {
                let bot = state.bots.get_mut(name).expect("a bot of the season");
                let r = glicko2_rating_period(&before[name], &[], &config);
                bot.rating = r.rating;
                bot.deviation = r.deviation;
                bot.volatility = r.volatility;
                bot.movement = if division.newcomers.contains(name) && bot.joined == season.number {
                    Movement::New
                } else {
                    Movement::Stay
                };
            }
            continue;
        };
        let ranking = s.ranking();
        let size = ranking.len();
        for (rank, &b) in ranking.iter().enumerate() {
            let name = &s.bots[b];
            let results = results_of(s, b, &before);
            let r = glicko2_rating_period(&before[name], &results, &config);
            let t = &s.totals[b];
            let up = d > 1 && rank < settings.promote as usize;
            let down = !up && d < last && rank + (settings.relegate as usize) >= size;
            let bot = state.bots.get_mut(name).expect("a bot of the season");
            bot.rating = r.rating;
            bot.deviation = r.deviation;
            bot.volatility = r.volatility;
            bot.games += t.games;
            bot.won += t.won;
            bot.lost += t.lost;
            bot.tie += t.tie;
            bot.movement = if up {
                bot.division = d - 1;
                Movement::Up
            } else if down {
                bot.division = d + 1;
                Movement::Down
            } else if bot.joined == season.number {
                Movement::New
            } else {
                Movement::Stay
            };
            bot.history.push((season.number, r.rating, r.deviation, d));
            division.results.push(Row {
                bot: name.clone(),
                rank: rank + 1,
                games: t.games,
                won: t.won,
                lost: t.lost,
                tie: t.tie,
                points: t.points(),
                rating: r.rating,
                deviation: r.deviation,
                next_division: bot.division,
                movement: bot.movement,
            });
        }
    }
    season.alone = move_up_alone(state, &season);
    state.seasons.push(season);
    state.current = None;
}

/// Moves up each bot that was alone in its division this season (so
/// played no games) and would be alone there again after the season's
/// moves: to the nearest division above that has bots, top-down, so a
/// ladder whose divisions hold one bot each (two bots in two divisions,
/// after one is promoted) still plays. A bot alone in the top division
/// stays, fed by promotion from below. The bots moved.
fn move_up_alone(state: &mut State, season: &Season) -> Vec<String> {
    let names: Vec<&String> = season.divisions.iter().flat_map(|d| &d.bots).collect();
    let held = |state: &State, d: u32| {
        names
            .iter()
            .filter(|n| state.bots[n.as_str()].division == d)
            .count()
    };
    let mut moved = Vec::new();
    for division in season.divisions.iter().filter(|d| d.bots.len() == 1) {
        let (name, d) = (&division.bots[0], division.division);
        if state.bots[name].division != d || held(state, d) != 1 {
            continue; // moved anyway, or has company next season
        }
        let Some(to) = (1..d).rev().find(|&u| held(state, u) > 0) else {
            continue; // nobody above
        };
        let bot = state.bots.get_mut(name).expect("a bot of the season");
        bot.division = to;
        bot.movement = Movement::Up;
        moved.push(name.clone());
    }
    moved
}

/// Bot `b`'s games of a season as Glicko-2 results against its opponents'
/// ratings before the season.
fn results_of(
    s: &Standings,
    b: usize,
    before: &std::collections::BTreeMap<String, Glicko2Rating>,
) -> Vec<(Glicko2Rating, Outcomes)> {
    let mut results = Vec::new();
    for (o, t) in s.vs[b].iter().enumerate() {
        let opponent = before[&s.bots[o]];
        for (count, outcome) in [
            (t.won, Outcomes::WIN),
            (t.lost, Outcomes::LOSS),
            (t.tie, Outcomes::DRAW),
        ] {
            results.extend(std::iter::repeat_n((opponent, outcome), count as usize));
        }
    }
    results
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_when_promote_or_relegate_moves_a_whole_division() {
        let settings = |promote, relegate| Settings {
            divisions: 3,
            promote,
            relegate,
            gauntlet: false,
            active: Default::default(),
            placement: Default::default(),
        };
        let division = |d, size: usize| Division {
            division: d,
            seed: 1,
            seed_text: None,
            bots: (0..size).map(|i| format!("b{i}")).collect(),
            newcomers: Vec::new(),
            results: Vec::new(),
        };
        let note = |d, size, promote, relegate| {
            whole_division_moves(&division(d, size), &settings(promote, relegate))
        };
        // ordinary: some of a division moves
        assert_eq!(note(2, 3, 1, 1), None);
        // one up and one down of two: every bot moves, but not all one way
        assert_eq!(note(2, 2, 1, 1), None);
        // nobody above the first division, nobody below the last
        assert_eq!(note(1, 2, 2, 0), None);
        assert_eq!(note(3, 2, 0, 2), None);
        assert_eq!(
            note(2, 2, 2, 0).as_deref(),
            Some("division 2 has 2 bots and `promote = 2`: every one of them moves up after this season")
        );
        assert_eq!(
            note(1, 3, 1, 5).as_deref(),
            Some("division 1 has 3 bots and `relegate = 5`: every one of them moves down after this season")
        );
        assert!(note(3, 2, 9, 9).unwrap().contains("moves up"));
    }

    #[test]
    fn season_seeds_differ_by_season_and_division_and_repeat() {
        let a = season_seed(7, 1, 1);
        assert_eq!(a, season_seed(7, 1, 1));
        assert_ne!(a, season_seed(7, 2, 1));
        assert_ne!(a, season_seed(7, 1, 2));
        assert_ne!(a, season_seed(8, 1, 1));
    }
}
