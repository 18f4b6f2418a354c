//! `ladder play GAME --bot NAME`: a person plays any bot at the terminal,
//! as the 2016 report's console does ("Round 3 / Scotch Position: 7 / Human
//! Money: 100 / Bot Money: 62 / Enter Human Bid: 9 / Bot Bid: 16").
//!
//! A session is a small season of two players, the person (a bot named
//! `human`, [`human::Human`]) and the bot, played one game after another on
//! this thread and journaled like any season under `reports/play-GAME-BOT-N/`,
//! so `ladder replay`, `ladder report` and `ladder verify` work on it. The
//! referee's rules and clock apply to the bot; the person has no clock. With
//! `--seat` the person keeps that seat in every game (`"seating": "fixed"` in
//! `season.json`); without it seats alternate, the person first.
//!
//! The session ends after its last game, or early on `quit`, the end of
//! input or Ctrl-C: the games finished are kept and reported, the one in
//! progress is not recorded. At the end come the result, the 2016 report's
//! Table 4.1 for `human` when more than one game was played, and a
//! one-line summary.

pub mod console;
pub mod human;

use crate::show::Show;
use std::{
    path::{Path, PathBuf},
    sync::Arc,
    time::Instant,
};

use crate::{
    core::record::Finished,
    core::text::count,
    core::{
        clock::Watch,
        error::{Error, Result},
        game::GameResult,
        referee::{Referee, Termination},
        seat::Seat,
    },
    external::process::cleanup,
    journal::Journal,
    plan::jobs::Jobs,
    plan::schedule::{Format, Seating},
    plan::{BotKind, BotSpec, Plan, PlannedBot},
    report::{self, Look},
    run::pool::{self, Pool},
    run::workers,
    show::paint::Paint,
    stats::standings::Standings,
};

use self::{
    console::{lock, Console, Stop},
    human::Human,
};

/// The person's name in the journal and the reports.
pub const HUMAN: &str = "human";

/// What a session plays.
pub struct Setup<G: Show> {
    pub params: G::Params,
    pub start: G,
    /// The ply cap and the bot's time control.
    pub referee: Referee,
    /// The bot the person plays.
    pub opponent: PlannedBot<G>,
    /// The person's seat in every game; `None`: seats alternate, the person first.
    pub seat: Option<Seat>,
    pub games: u32,
    pub seed: u64,
    /// The folder that holds the session's folder.
    pub reports: PathBuf,
}

/// What a session did.
pub struct Outcome {
    pub dir: PathBuf,
    pub standings: Standings,
    /// Games finished and journaled.
    pub played: u64,
    /// Why the session ended early, if it did.
    pub stopped: Option<Stop>,
}

/// Plays the session of `setup` with the person at `console`, journals it
/// and writes its reports.
pub fn play<G: Show>(setup: Setup<G>, console: Console) -> Result<Outcome> {
    let console = console.shared();
    let mut opponent = setup.opponent;
    if opponent.name == HUMAN {
        opponent.name = format!("{HUMAN}-bot");
    }
    let bot_name = opponent.name.clone();
    let human = {
        let console = Arc::clone(&console);
        let bot_name = bot_name.clone();
        PlannedBot {
            name: HUMAN.to_string(),
            spec: BotSpec::Builtin {
                builtin: HUMAN.to_string(),
                params: toml::Table::new(),
            },
            kind: BotKind::Builtin(Arc::new(move || {
                Box::new(Human::<G>::new(Arc::clone(&console), HUMAN, &bot_name))
            })),
            log_io: false,
            time: None,
        }
    };
    // the first bot takes the first seat in a fixed seating, and in game 0
    let bots = match setup.seat {
        None | Some(Seat::First) => vec![human, opponent],
        Some(Seat::Second) => vec![opponent, human],
    };
    let seating = match setup.seat {
        Some(_) => Seating::Fixed,
        None => Seating::Alternate,
    };
    let name = session_name(&setup.reports, setup.start.name(), &bot_name);
    let plan = Plan {
        name,
        params: setup.params,
        start: setup.start,
        format: Format::RoundRobin,
        seating,
        order: crate::plan::schedule::Order::Pairings,
        games_per_pair: setup.games,
        seed: setup.seed,
        jobs: Some(Jobs::Fixed(1)),
        referee: setup.referee,
        bots,
        compress: false,
        anchor: None,
        sprt: None,
        openings: None,
    };
    let names: Vec<String> = plan.bots.iter().map(|b| b.name.clone()).collect();
    let me = names
        .iter()
        .position(|n| n == HUMAN)
        .expect("the person plays");
    let dir = setup.reports.join(&plan.name);
    let (mut journal, _) = Journal::open(&dir, &plan.describe(), true, &names, &mut |_| Ok(()))?;
    let pool = Pool::new(pool::makers(&plan, &dir, &setup.reports, None)?, 1);
    let schedule = plan.schedule();
    let mut standings = Standings::empty(&names);
    let _session = cleanup::SeasonRunning::start();
    let say = |text: &str| lock(&console).say(text);
    say(&intro(&plan, &names[1 - me]));

    let mut played = 0;
    let mut failure = None;
    for fx in schedule.from(0) {
        if lock(&console).stop.is_some() {
            break;
        }
        let seat = if fx.seats.first == me {
            Seat::First
        } else {
            Seat::Second
        };
        let paint = lock(&console).paint;
        say(&paint.bold(&format!(
            "\n=== Game {} of {}: {HUMAN} is player {}, {} is player {} ===\n",
            fx.index + 1,
            schedule.len(),
            seat.number(),
            names[1 - me],
            seat.other().number()
        )));
        let started = Instant::now();
        let result = workers::play_fixture(&plan, &pool, &fx, &Watch::default());
        if cleanup::interrupted().is_some() {
            // the signal may have ended the game by killing the bot: not recorded
            lock(&console).stop.get_or_insert(Stop::Signal);
            break;
        }
        let game = match result {
            Ok(game) => game,
            Err(_) if lock(&console).stop.is_some() => break,
            Err(why) => {
                failure = Some(Error::System(format!(
                    "game {}: {why}; the games finished so far are saved in {}",
                    fx.index,
                    dir.display()
                )));
                break;
            }
        };
        let finished = Finished {
            index: fx.index,
            pair: fx.pair,
            seats: fx.seats,
            names: &names,
            seed: fx.seed,
            opening: None,
            played: &game,
        };
        journal.append(&finished, started.elapsed().as_secs_f64() * 1e3)?;
        journal.flush()?;
        standings.add(&finished.scored());
        played += 1;
        say(&result_line(
            &game.result,
            &game.termination,
            &fx.seats.map(|b| names[b].as_str()),
        ));
    }
    let stopped = lock(&console).stop;
    if played == schedule.len() {
        journal.finish()?;
    } else {
        journal.flush()?;
    }
    let header = plan.header();
    report::write_files(&dir, &header, &standings)?;
    let paint = lock(&console).paint;
    say(&closing(
        &standings,
        paint,
        me,
        &dir,
        stopped,
        played,
        schedule.len(),
    ));
    if let Some(failure) = failure {
        return Err(failure);
    }
    Ok(Outcome {
        dir,
        standings,
        played,
        stopped,
    })
}

/// `play-GAME-BOT-N`, with N one more than the highest session of that game
/// and bot under `reports` (1 for the first), so no session overwrites another.
fn session_name(reports: &Path, game: &str, bot: &str) -> String {
    let prefix = format!("play-{game}-{bot}-");
    let mut highest = 0u64;
    if let Ok(entries) = std::fs::read_dir(reports) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(n) = name
                .strip_prefix(&prefix)
                .and_then(|n| n.parse::<u64>().ok())
            {
                highest = highest.max(n);
            }
        }
    }
    format!("{prefix}{}", highest + 1)
}

/// What the session is and how to play it.
fn intro<G: Show>(plan: &Plan<G>, bot: &str) -> String {
    let games = plan.games_per_pair;
    format!(
        "ladder play: {} against {bot}, {} (seed {}).\n\
         Type your {} at each prompt; `help` explains it, `quit` ends the session \
         (finished games are kept).\n",
        plan.start.name(),
        count(games, "game"),
        plan.seed,
        G::MOVE_WORD
    )
}

/// `Result: dp wins (player 2), goals 0 to 100.` with how the game ended
/// when the rules did not end it.
fn result_line(
    result: &GameResult,
    termination: &Termination,
    names: &crate::core::seat::BySeat<&str>,
) -> String {
    let who = match result {
        GameResult::First => format!("{} wins (player 1)", names.first),
        GameResult::Second => format!("{} wins (player 2)", names.second),
        GameResult::Draw => "a draw".to_string(),
    };
    let how = match termination {
        Termination::Normal => String::new(),
        other => format!(" ({})", other.describe(names)),
    };
    format!("Result: {who}{how}.\n")
}

/// The end of a session: Table 4.1 for the person when more than one game
/// was played, and one line of summary.
fn closing(
    s: &Standings,
    paint: Paint,
    me: usize,
    dir: &Path,
    stopped: Option<Stop>,
    played: u64,
    scheduled: u64,
) -> String {
    let mut out = String::from("\n");
    if scheduled > 1 && played > 0 {
        out.push_str(&format!(
            "{}\n\nOverall Win Percentage is {:.0}%\n\n",
            report::opponents_table(s, me, Look::Text(paint)),
            s.totals[me].win_percent()
        ));
    }
    let t = &s.totals[me];
    let ended = match stopped {
        Some(why) if played < scheduled => {
            format!(
                " ({why} after {played} of {})",
                count(scheduled, "game"),
                why = why.describe()
            )
        }
        _ => String::new(),
    };
    out.push_str(&format!(
        "{HUMAN} against {}: {} won, {} lost, {} tied in {}{ended}; journal in {}\n",
        s.bots[1 - me],
        t.won,
        t.lost,
        t.tie,
        count(played, "game"),
        dir.display()
    ));
    if played > 0 {
        out.push_str(&format!(
            "Replay a game: ladder replay {} --game 0\n",
            dir.display()
        ));
    }
    out
}
