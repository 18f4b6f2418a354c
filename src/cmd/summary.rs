//! What `run`, `match` and `season` print at the end of a season: the
//! leaderboard, what was played and resumed, how the games were played, and
//! the warnings (an oversubscribed machine, bots that forfeited).

use std::path::Path;

use ladder::{
    core::text::count,
    plan::jobs::Jobs,
    run::tournament::{self, Summary},
    Error, Result,
};

use super::{out, paint_stderr, paint_stdout};

/// Prints the standings; a season stopped by a signal is an error after that
/// (exit 128 + the signal).
pub fn finish(s: &Summary) -> Result<()> {
    print_summary(s)?;
    if let Some(signal) = s.interrupted {
        return Err(Error::Interrupted { signal });
    }
    // a bot that forfeited its games is said, whatever else was printed:
    // a season of forfeits is usually a broken command, not a weak bot
    let failing = ladder::report::forfeiting_bots(&s.standings, &s.dir);
    for warning in &failing {
        eprintln!("{} {warning}", paint_stderr().warn("warning:"));
    }
    if s.strict && !failing.is_empty() {
        return Err(Error::Forfeits(format!(
            "--strict: {} bot(s) forfeited their games",
            failing.len()
        )));
    }
    Ok(())
}

pub fn print_summary(s: &Summary) -> Result<()> {
    if let Some(shard) = s.shard {
        let season = s.dir.parent().and_then(Path::parent).unwrap_or(&s.dir);
        let mut text = format!(
            "Shard {} of {} of season {}: {} played now, {} resumed; {} of its {} are in {}\n",
            shard.k,
            shard.n,
            s.header.season,
            count(s.played, "game"),
            s.resumed,
            s.played + s.resumed,
            count(s.games, "game"),
            s.dir.display()
        );
        if s.played + s.resumed == s.games {
            text.push_str(&format!(
                "When every shard is done: ladder merge {}\n",
                season.display()
            ));
        }
        if !s.quiet {
            text.push_str(&run_facts(&s.run, s.played));
        }
        out(&text)?;
        if let Some(warning) = oversubscribed(&s.run) {
            eprint!("{warning}");
        }
        return Ok(());
    }
    let mut text = ladder::report::terminal(&s.header, &s.standings, paint_stdout());
    text.push_str(&format!(
        "\n{} played now, {} resumed from the journal; reports in {}\n",
        count(s.played, "game"),
        s.resumed,
        s.dir.display()
    ));
    if s.abandoned > 0 {
        text.push_str(&format!(
            "{} worker(s) were stuck in a bot that would not return; their games were replayed\n",
            s.abandoned
        ));
    }
    if !s.quiet {
        text.push_str(&run_facts(&s.run, s.played));
    }
    out(&text)?;
    if let Some(warning) = oversubscribed(&s.run) {
        eprint!("{warning}");
    }
    Ok(())
}

/// How the games were played, when bot programs played them: games at once,
/// processes started, ladder's delay, and a warning when the machine was
/// oversubscribed.
fn run_facts(run: &tournament::RunFacts, played: u64) -> String {
    let mut text = String::new();
    if run.programs && played > 0 {
        let at_once = match run.jobs {
            Jobs::Auto => format!("auto, up to {}", run.peak_jobs),
            Jobs::Fixed(n) => n.to_string(),
        };
        let started: Vec<String> = run
            .started
            .iter()
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        text.push_str(&format!("games at once: {at_once}"));
        if !started.is_empty() {
            text.push_str(&format!("; bot processes started: {}", started.join(", ")));
        }
        text.push('\n');
        if let Some(mean) = run.delay.mean() {
            text.push_str(&format!(
                "ladder's delay around a bot program's move (never charged to it): worst {:.1} ms, mean {:.2} ms over {}\n",
                run.delay.worst.as_secs_f64() * 1e3,
                mean.as_secs_f64() * 1e3,
                count(run.delay.moves, "move")
            ));
        }
    }
    text
}

/// The warning for a season whose machine was oversubscribed, if it was.
fn oversubscribed(run: &tournament::RunFacts) -> Option<String> {
    let cpu = run.cpu.filter(|_| run.oversubscribed())?;
    let ladders = match cpu.machine {
        Some(_) => format!(", {:.0}% with ladder's games", cpu.busy * 100.0),
        None => String::new(),
    };
    Some(format!(
        "{} the machine was oversubscribed: its {} cores were {:.0}% busy{ladders}, so bots \
             waited for a core and a loss on time may be ladder's doing, not the bot's; lower \
             --jobs (or use --jobs auto)\n",
        paint_stderr().warn("warning:"),
        cpu.cores,
        cpu.machine_busy() * 100.0
    ))
}
