//! The `ladder` binary: parses the command line, runs one function per
//! subcommand, and maps errors to exit codes in one place
//! ([`ladder::Error::exit_code`]: 0 ok, 1 runtime failure, 2 bad input).

mod cli;

use std::{path::Path, process::ExitCode, sync::OnceLock};

use clap::{CommandFactory, Parser};
use ladder::{
    catalog::{self, GameKind, GameVisitor},
    check,
    core::{
        clock::TimeControl,
        paint::{ColorChoice, Paint},
        referee::Referee,
    },
    external::{
        self,
        process::{cleanup, exec, Sandbox},
    },
    season::{
        concurrency::Jobs,
        config::{self, ConfigFile},
        openings,
        plan::{self, Roster},
        recorded::{Recorded, ReportFormat},
        report::Look,
        shard::ShardArg,
        sprt::{Model, Sprt, Statistics},
        tournament::{self, Options, Summary},
    },
    Error, Game, Result, Seat,
};

use crate::cli::{Cli, Command, FormatArg, ListWhat, RunArgs, SandboxArg, SprtModel, TimeArgs};

/// `--color`, set once from the command line before anything is printed.
static COLOR: OnceLock<ColorChoice> = OnceLock::new();

fn color() -> ColorChoice {
    COLOR.get().copied().unwrap_or_default()
}

/// How text printed to standard output is coloured.
fn paint_stdout() -> Paint {
    Paint::stdout(color())
}

/// How text printed to standard error (errors, warnings, progress) is coloured.
fn paint_stderr() -> Paint {
    Paint::stderr(color())
}

fn main() -> ExitCode {
    // ladder starts its bots through itself, so no process of hundreds of
    // threads has to fork (external::process::exec)
    if let Some(code) = exec::helper_main() {
        return ExitCode::from(code as u8);
    }
    if let Ok(exe) = std::env::current_exe() {
        exec::use_helper(exe);
    }
    let cli = Cli::parse();
    let _ = COLOR.set(cli.color.choice());
    cleanup::install_cleanup();
    cleanup::sweep_stale_dirs();
    // `ladder play` tells the person itself that a signal ended the session
    let says_interrupts = matches!(cli.command, Command::Play { .. });
    let result = match cli.command {
        Command::Run {
            config,
            jobs,
            fresh,
            run,
            max_games,
            shard,
        } => shard.map(ShardArg::resolve).transpose().and_then(|shard| {
            let opts = Options {
                shard,
                ..options(&run, jobs, max_games, fresh)
            };
            run_season(&config, opts)
        }),
        Command::Merge { dir, reports } => merge(&dir, &reports),
        Command::Completions { shell } => {
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "ladder", &mut text);
            out(&String::from_utf8_lossy(&text))
        }
        Command::Man => {
            let mut text = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut text)
                .map_err(Error::io("rendering", "the man page"))
                .and_then(|()| out(&String::from_utf8_lossy(&text)))
        }
        Command::Match {
            game,
            first,
            second,
            games,
            seed,
            time,
            sandbox,
            jobs,
            sprt,
            sprt_model,
            run,
        } => sandbox_of(sandbox).and_then(|sandbox| {
            let sprt = sprt
                .map(|bounds| match_sprt(&bounds, sprt_model))
                .transpose()?;
            play_match(
                &game,
                [first, second],
                (games, seed, sprt),
                (&time, &sandbox),
                options(&run, jobs, None, true),
            )
        }),
        Command::Play {
            game,
            bot,
            seat,
            seed,
            games,
            config,
            time,
            sandbox,
            reports,
        } => sandbox_of(sandbox).and_then(|sandbox| {
            play(PlayArgs {
                game: &game,
                params: toml::Table::new(),
                bot,
                seat: seat.map(|s| if s == 1 { Seat::First } else { Seat::Second }),
                seed,
                games,
                config: config.as_deref(),
                time: &time,
                sandbox: &sandbox,
                reports,
            })
        }),
        Command::Openings {
            game,
            plies,
            count,
            balanced,
            judge,
            playouts,
            seed,
        } => GameKind::with_params(&game).and_then(|(kind, params)| {
            let text = kind.visit(MakeOpenings {
                params,
                command: format!(
                    "# ladder openings {game} --plies {plies} --count {count}{} --seed {seed}",
                    if balanced {
                        format!(" --balanced --judge {judge} --playouts {playouts}")
                    } else {
                        String::new()
                    }
                ),
                plies,
                count,
                judge: balanced.then_some((judge, playouts)),
                seed,
            })?;
            out(&text)
        }),
        Command::Season {
            config,
            jobs,
            run,
            shard,
        } => shard.map(ShardArg::resolve).transpose().and_then(|shard| {
            let opts = Options {
                shard,
                ..options(&run, jobs, None, false)
            };
            ladder_season(&config, opts)
        }),
        Command::Standings { config, reports } => ladder_standings(&config, &reports),
        Command::List { what, game } => list(what, game.as_deref()),
        Command::Solve { game, args } => solve(&game, &args),
        Command::Verify { dir } => verify(&dir),
        Command::Report { path, format } => report(&path, format),
        Command::Replay { journal, game } => replay(&journal, game),
        Command::Check {
            game,
            protocol,
            games,
            time,
            sandbox,
            command,
        } => sandbox_of(sandbox).and_then(|sandbox| {
            check_bot(game.as_deref(), &protocol, games, &time, sandbox, &command)
        }),
    };
    match result {
        // a closed pipe (`ladder list bots | head -1`) is no failure
        Ok(()) | Err(Error::ClosedOutput) => ExitCode::SUCCESS,
        Err(err @ Error::Interrupted { .. }) if says_interrupts => ExitCode::from(err.exit_code()),
        Err(err) => {
            eprintln!("{} {err}", paint_stderr().error("error:"));
            ExitCode::from(err.exit_code())
        }
    }
}

fn options(run: &RunArgs, jobs: Option<Jobs>, max_games: Option<u64>, fresh: bool) -> Options {
    Options {
        shard: None,
        jobs,
        fresh,
        reports: run.reports.clone(),
        progress: (!run.quiet).then(paint_stderr),
        max_games,
        log: run.log.clone().map(|path| (path, run.log_level.level())),
        strict: run.strict,
    }
}

/// The time control of `--move-time-ms`, `--time-control` and `--margin-ms`.
fn time_control(t: &TimeArgs) -> Result<TimeControl> {
    TimeControl::from_settings(
        t.move_time_ms,
        t.time_control.as_deref(),
        Some(t.margin_ms),
        t.startup_time_ms,
    )
    .map_err(|e| {
        let option = e.key.as_deref().unwrap_or("time").replace('_', "-");
        Error::Usage(format!("--{option}: {e}"))
    })
}

/// The sandbox of `--sandbox`, for every bot program of a match or check.
fn sandbox_of(arg: SandboxArg) -> Result<Sandbox> {
    Sandbox::new(arg.mode(), Default::default(), true, Default::default())
        .map_err(|e| Error::Usage(format!("--sandbox: {e}")))
}

/// `ladder run CONFIG`
fn run_season(path: &Path, opts: Options) -> Result<()> {
    let file = ConfigFile::read(path)?;
    if let Some(span) = file.ladder_table()? {
        return Err(file.error(
            Some(span),
            format!(
                "this is a ladder config: play its next season with `ladder season {}`",
                path.display()
            ),
        ));
    }
    let kind = game_of(&file)?;
    let summary = kind.visit(RunConfig {
        file: &file,
        opts: &opts,
    })?;
    finish(&summary)
}

/// `ladder season CONFIG`: each division's leaderboard, then the ladder.
fn ladder_season(path: &Path, opts: Options) -> Result<()> {
    let file = ConfigFile::read(path)?;
    let kind = game_of(&file)?;
    let outcome = kind.visit(PlayLadder {
        file: &file,
        opts: &opts,
    })?;
    for (division, summary) in &outcome.divisions {
        if outcome.divisions.len() > 1 || *division > 1 {
            out(&format!("\nDivision {division}\n"))?;
        }
        print_summary(summary)?;
    }
    if let Some(signal) = outcome.interrupted {
        return Err(Error::Interrupted { signal });
    }
    if outcome.shard_only {
        return out(&format!(
            "\nWhen every shard of season {} is done: ladder merge {}, then ladder season {} \
             to finish the season and move the ladder on.\n",
            outcome.number,
            opts.reports.join(&outcome.state.ladder).display(),
            path.display()
        ));
    }
    out(&format!(
        "\nSeason {} complete.\n\n{}\n{}",
        outcome.number,
        ladder::ladder::table::standings(&outcome.state, Look::Text(paint_stdout())),
        ladder::ladder::table::history(&outcome.state)
    ))
}

struct PlayLadder<'a> {
    file: &'a ConfigFile,
    opts: &'a Options,
}

impl GameVisitor for PlayLadder<'_> {
    type Output = Result<ladder::ladder::season::Outcome>;
    fn visit<G: Game>(self, roster: &Roster<G>) -> Self::Output {
        ladder::ladder::season::play(self.file, roster, self.opts)
    }
}

/// `ladder standings CONFIG`
fn ladder_standings(path: &Path, reports: &Path) -> Result<()> {
    let file = ConfigFile::read(path)?;
    let kind = game_of(&file)?;
    ladder::ladder::config::settings(&file)?;
    let dir = kind.visit(LadderDir {
        file: &file,
        reports,
    })?;
    let state = ladder::ladder::state::State::load(&dir)?.ok_or_else(|| {
        Error::Usage(format!(
            "{}: no season played yet; play one with `ladder season {}`",
            dir.display(),
            path.display()
        ))
    })?;
    out(&format!(
        "{}\n{}",
        ladder::ladder::table::standings(&state, Look::Text(paint_stdout())),
        ladder::ladder::table::history(&state)
    ))
}

/// The folder of a config's season, or of its ladder: `reports/<name>`.
struct LadderDir<'a> {
    file: &'a ConfigFile,
    reports: &'a Path,
}

impl GameVisitor for LadderDir<'_> {
    type Output = Result<std::path::PathBuf>;
    fn visit<G: Game>(self, roster: &Roster<G>) -> Self::Output {
        let plan = config::plan(self.file, roster)?;
        Ok(ladder::ladder::season::ladder_dir(&plan, self.reports))
    }
}

/// The game a config names, or an error at its `game` key.
fn game_of(file: &ConfigFile) -> Result<GameKind> {
    let game = file.game()?;
    GameKind::from_name(game.get_ref())
        .ok_or_else(|| file.error(Some(game.span()), catalog::unknown_game(game.get_ref())))
}

struct RunConfig<'a> {
    file: &'a ConfigFile,
    opts: &'a Options,
}

impl GameVisitor for RunConfig<'_> {
    type Output = Result<Summary>;
    fn visit<G: Game>(self, roster: &Roster<G>) -> Result<Summary> {
        let plan = config::plan(self.file, roster)?;
        tournament::run(&plan, self.opts)
    }
}

/// The SPRT of `--sprt ELO0,ELO1`: the first bot tested against the second.
fn match_sprt(bounds: &str, model: SprtModel) -> Result<Sprt> {
    let bad = || {
        Error::Usage(format!(
            "--sprt: expected ELO0,ELO1 like `0,5`, got `{bounds}`"
        ))
    };
    let (a, b) = bounds.split_once(',').ok_or_else(bad)?;
    let elo = |x: &str| x.trim().parse::<f64>().map_err(|_| bad());
    let sprt = Sprt {
        elo0: elo(a)?,
        elo1: elo(b)?,
        alpha: 0.05,
        beta: 0.05,
        model: match model {
            SprtModel::Normalized => Model::Normalized,
            SprtModel::Logistic => Model::Logistic,
        },
        statistics: Statistics::Pentanomial,
        candidate: 0,
    };
    sprt.check()
        .map_err(|(_, why)| Error::Usage(format!("--sprt: {why}")))?;
    Ok(sprt)
}

/// `ladder match GAME BOT BOT`: always a fresh season of its own.
fn play_match(
    game: &str,
    bots: [String; 2],
    (games, seed, sprt): (u32, u64, Option<Sprt>),
    (time, sandbox): (&TimeArgs, &Sandbox),
    opts: Options,
) -> Result<()> {
    let (kind, params) = GameKind::with_params(game)?;
    let referee = Referee {
        time: time_control(time)?,
        ..Referee::new(Referee::DEFAULT_MAX_PLIES)
    };
    let summary = kind.visit(RunMatch {
        params,
        bots,
        games,
        seed,
        sprt,
        referee,
        sandbox,
        opts: &opts,
    })?;
    finish(&summary)
}

struct RunMatch<'a> {
    /// The parameters the game's name carries (`gdl:FILE`).
    params: toml::Table,
    bots: [String; 2],
    games: u32,
    seed: u64,
    sprt: Option<Sprt>,
    referee: Referee,
    sandbox: &'a Sandbox,
    opts: &'a Options,
}

impl GameVisitor for RunMatch<'_> {
    type Output = Result<Summary>;
    fn visit<G: Game>(self, roster: &Roster<G>) -> Result<Summary> {
        let mut plan = plan::match_plan(
            roster,
            &self.bots,
            self.games,
            self.seed,
            self.referee,
            self.sandbox,
            &self.params,
        )?;
        plan.sprt = self.sprt;
        tournament::run(&plan, self.opts)
    }
}

/// What `ladder openings` was given.
struct MakeOpenings {
    /// The parameters the game's name carries (`gdl:FILE`).
    params: toml::Table,
    /// The command, as the output's first line says it.
    command: String,
    plies: u32,
    count: u32,
    /// The judging bot and its playouts, with --balanced.
    judge: Option<(String, u32)>,
    seed: u64,
}

impl GameVisitor for MakeOpenings {
    type Output = Result<String>;
    fn visit<G: Game>(self, roster: &Roster<G>) -> Self::Output {
        let (_, start) = plan::default_game::<G>(&self.params)?;
        let judge = match &self.judge {
            Some((name, playouts)) => match roster.builtin(name, toml::Table::new()) {
                Ok((_, plan::BotKind::Builtin(bot))) => Some(openings::Judge {
                    bot,
                    playouts: *playouts,
                    margin: 0.15,
                }),
                Ok(_) => None,
                Err(e) => return Err(Error::Usage(format!("--judge: {e}"))),
            },
            None => None,
        };
        let found = openings::generate(&start, self.plies, self.count as usize, self.seed, judge.as_ref())
            .ok_or_else(|| {
                Error::Usage(format!(
                    "could not find {} different {}positions {} plies deep; try fewer plies or a smaller count",
                    self.count,
                    if judge.is_some() { "balanced " } else { "" },
                    self.plies
                ))
            })?;
        Ok(format!("{}\n{}\n", self.command, found.join("\n")))
    }
}

/// What `ladder play` was given.
struct PlayArgs<'a> {
    game: &'a str,
    /// The parameters the game's name carries (`gdl:FILE`), from `game`.
    params: toml::Table,
    bot: String,
    seat: Option<Seat>,
    seed: u64,
    games: u32,
    config: Option<&'a Path>,
    time: &'a TimeArgs,
    sandbox: &'a Sandbox,
    reports: std::path::PathBuf,
}

/// `ladder play GAME --bot NAME`: a person against a bot on this terminal.
fn play(mut args: PlayArgs<'_>) -> Result<()> {
    let (named, params) = GameKind::with_params(args.game)?;
    args.params = params;
    let kind = match args.config {
        Some(path) => {
            let file = ConfigFile::read(path)?;
            let kind = game_of(&file)?;
            if named.name() != kind.name() {
                return Err(Error::Usage(format!(
                    "{} is a config of the {} game, not {}",
                    path.display(),
                    kind.name(),
                    args.game
                )));
            }
            kind
        }
        None => named,
    };
    let outcome = kind.visit(args)?;
    match outcome.stopped {
        Some(ladder::play::console::Stop::Signal) => Err(Error::Interrupted {
            signal: cleanup::interrupted().unwrap_or(2),
        }),
        _ => Ok(()),
    }
}

impl GameVisitor for PlayArgs<'_> {
    type Output = Result<ladder::play::Outcome>;
    fn visit<G: Game>(self, roster: &Roster<G>) -> Self::Output {
        let (params, start, referee, opponent) = match self.config {
            Some(path) => {
                let file = ConfigFile::read(path)?;
                let plan = config::plan(&file, roster)?;
                let known: Vec<String> = plan.bots.iter().map(|b| b.name.clone()).collect();
                let Some(bot) = plan.bots.into_iter().find(|b| b.name == self.bot) else {
                    return Err(Error::Usage(format!(
                        "{} has no bot named `{}`; its bots: {}",
                        path.display(),
                        self.bot,
                        known.join(", ")
                    )));
                };
                (plan.params, plan.start, plan.referee, bot)
            }
            None => {
                let (params, start) = plan::default_game::<G>(&self.params)?;
                let bot = plan::command_line_bot(roster, &self.bot, &start, self.sandbox)?;
                let referee = Referee {
                    time: time_control(self.time)?,
                    ..Referee::new(Referee::DEFAULT_MAX_PLIES)
                };
                (params, start, referee, bot)
            }
        };
        ladder::play::play(
            ladder::play::Setup {
                params,
                start,
                referee,
                opponent,
                seat: self.seat,
                games: self.games,
                seed: self.seed,
                reports: self.reports,
            },
            ladder::play::console::Console::stdio(color()),
        )
    }
}

/// Prints the standings; a season stopped by a signal is an error after that
/// (exit 128 + the signal).
fn finish(s: &Summary) -> Result<()> {
    print_summary(s)?;
    if let Some(signal) = s.interrupted {
        return Err(Error::Interrupted { signal });
    }
    // a bot that forfeited its games is said, whatever else was printed:
    // a season of forfeits is usually a broken command, not a weak bot
    let failing = ladder::season::report::forfeiting_bots(&s.standings, &s.dir);
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

fn print_summary(s: &Summary) -> Result<()> {
    if let Some(shard) = s.shard {
        let season = s.dir.parent().and_then(Path::parent).unwrap_or(&s.dir);
        let mut text = format!(
            "Shard {} of {} of season {}: {} games played now, {} resumed; {} of its {} games are in {}\n",
            shard.k,
            shard.n,
            s.header.season,
            s.played,
            s.resumed,
            s.played + s.resumed,
            s.games,
            s.dir.display()
        );
        if s.played + s.resumed == s.games {
            text.push_str(&format!(
                "When every shard is done: ladder merge {}\n",
                season.display()
            ));
        }
        text.push_str(&run_facts(&s.run, s.played));
        out(&text)?;
        if let Some(warning) = oversubscribed(&s.run) {
            eprint!("{warning}");
        }
        return Ok(());
    }
    let mut text = ladder::season::report::terminal(&s.header, &s.standings, paint_stdout());
    text.push_str(&format!(
        "\n{} games played now, {} resumed from the journal; reports in {}\n",
        s.played,
        s.resumed,
        s.dir.display()
    ));
    if s.abandoned > 0 {
        text.push_str(&format!(
            "{} worker(s) were stuck in a bot that would not return; their games were replayed\n",
            s.abandoned
        ));
    }
    text.push_str(&run_facts(&s.run, s.played));
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
                "ladder's delay around a bot program's move (never charged to it): worst {:.1} ms, mean {:.2} ms over {} moves\n",
                run.delay.worst.as_secs_f64() * 1e3,
                mean.as_secs_f64() * 1e3,
                run.delay.moves
            ));
        }
    }
    text
}

/// The warning for a season whose machine was oversubscribed, if it was.
fn oversubscribed(run: &tournament::RunFacts) -> Option<String> {
    let cpu = run.cpu.filter(|_| run.oversubscribed())?;
    Some(format!(
        "{} the machine was oversubscribed: its {} cores were {:.0}% busy, so bots waited \
             for a core and a loss on time may be ladder's doing, not the bot's; lower --jobs \
             (or use --jobs auto)\n",
        paint_stderr().warn("warning:"),
        cpu.cores,
        cpu.busy * 100.0
    ))
}

/// Writes `text` to standard output. A reader that has gone (a closed pipe)
/// ends ladder quietly; any other failure (a full disk) is an error.
fn out(text: &str) -> Result<()> {
    use std::io::{ErrorKind, Write};
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Err(Error::ClosedOutput),
        Err(e) => Err(Error::io("writing", "standard output")(e)),
    }
}

/// `ladder merge DIR`: the shards of a season (or of each season of a
/// ladder) into its journal and reports.
fn merge(dir: &Path, reports: &Path) -> Result<()> {
    let dir = if dir.extension().is_some_and(|e| e == "toml") && dir.is_file() {
        // a config: its season's (or ladder's) folder
        let file = ConfigFile::read(dir)?;
        let kind = game_of(&file)?;
        kind.visit(LadderDir {
            file: &file,
            reports,
        })?
    } else {
        dir.to_path_buf()
    };
    let max_goal =
        |recorded: &Recorded| GameKind::named(&recorded.kind)?.visit(MaxGoal { recorded });
    // every problem with the shards is the user's to fix: exit 2, as
    // docs/DISTRIBUTED.md says (Kubernetes retries a merge until it passes)
    let merged = ladder::season::merge::merge_all(&dir, &max_goal).map_err(|e| match e {
        Error::Io { .. } | Error::Journal { .. } | Error::Damaged { .. } => {
            Error::Mismatch(e.to_string())
        }
        other => other,
    })?;
    let mut text = String::new();
    for m in &merged {
        text.push_str(&ladder::season::report::terminal(
            &m.header,
            &m.standings,
            paint_stdout(),
        ));
        text.push_str(&format!(
            "\n{} shards merged: {} games in {}\n",
            m.shards,
            m.games,
            m.dir.join("games.jsonl").display()
        ));
    }
    out(&text)
}

/// `ladder check -- COMMAND...`: exits 1 when the bot has problems.
fn check_bot(
    game: Option<&str>,
    protocol: &str,
    games: u32,
    time: &TimeArgs,
    sandbox: Sandbox,
    argv: &[String],
) -> Result<()> {
    let (kind, params) = match game {
        Some(name) => GameKind::with_params(name)?,
        None => match GameKind::speaking(protocol).as_slice() {
            [only] if protocol != "line" => (*only, toml::Table::new()),
            [] => {
                return Err(Error::Usage(format!(
                    "no game speaks the protocol `{protocol}`"
                )))
            }
            _ => {
                return Err(Error::Usage(
                    "which game does the bot play? add --game GAME (see `ladder list games`)"
                        .into(),
                ))
            }
        },
    };
    let report = kind.visit(CheckBot {
        params,
        argv,
        protocol,
        time: time_control(time)?,
        sandbox,
        games,
    })?;
    out(&report.render())?;
    if report.problems() > 0 {
        return Err(Error::BotFailed {
            problems: report.problems(),
        });
    }
    Ok(())
}

struct CheckBot<'a> {
    /// The parameters the game's name carries (`gdl:FILE`).
    params: toml::Table,
    argv: &'a [String],
    protocol: &'a str,
    time: TimeControl,
    sandbox: Sandbox,
    games: u32,
}

impl GameVisitor for CheckBot<'_> {
    type Output = Result<check::CheckReport>;
    fn visit<G: Game>(self, roster: &Roster<G>) -> Self::Output {
        let protocol = roster
            .protocol(self.protocol)
            .map_err(|e| Error::Usage(e.to_string()))?;
        let command = external::Command::resolve(
            self.argv,
            None,
            std::path::Path::new(""),
            protocol.own_dir,
            self.sandbox,
        )
        .map_err(|e| Error::Usage(e.to_string()))?;
        let (params, start) = plan::default_game::<G>(&self.params)?;
        check::check(&start, &params, &command, protocol, &self.time, self.games)
    }
}

/// `ladder solve GAME [OPTIONS]`: the game's own solver command.
fn solve(game: &str, args: &[String]) -> Result<()> {
    let kind = GameKind::named(game)?;
    let solve = kind
        .solve()
        .ok_or_else(|| Error::Usage(catalog::no_solver(game)))?;
    out(&solve(args)?)
}

/// `ladder report PATH`: a season's or a ladder's reports again.
fn report(path: &Path, format: Option<FormatArg>) -> Result<()> {
    let formats: Vec<ReportFormat> = match format {
        Some(f) => vec![f.format()],
        None => ReportFormat::ALL.to_vec(),
    };
    if path.join("ladder.json").exists() {
        let seasons = ladder::ladder::season::rerender(path, &formats)?;
        let state = ladder::ladder::state::State::load(path)?.expect("read just now");
        return out(&format!(
            "{}\nReports of {seasons} season folder(s) and the ladder rendered again in {}\n",
            ladder::ladder::table::standings(&state, Look::Text(paint_stdout())),
            path.display()
        ));
    }
    let (header, standings) = ladder::season::recorded::rerender(path, &formats)?;
    out(&format!(
        "{}\nReports rendered again in {}\n",
        ladder::season::report::terminal(&header, &standings, paint_stdout()),
        path.display()
    ))
}

/// `ladder replay JOURNAL --game N`
fn replay(journal: &Path, index: u64) -> Result<()> {
    let (dir, file) = if journal.is_dir() {
        (journal.to_path_buf(), journal.join("games.jsonl"))
    } else {
        let dir = journal.parent().unwrap_or(Path::new(".")).to_path_buf();
        (dir, journal.to_path_buf())
    };
    let recorded = Recorded::read(&dir)?;
    let record = ladder::season::replay::find(&file, index)?;
    let kind = GameKind::named(&recorded.kind)?;
    let text = kind.visit(ReplayGame {
        recorded: &recorded,
        record: &record,
    })?;
    out(&text)
}

struct ReplayGame<'a> {
    recorded: &'a Recorded,
    record: &'a ladder::season::record::Record,
}

impl GameVisitor for ReplayGame<'_> {
    type Output = Result<String>;
    fn visit<G: Game>(self, _: &Roster<G>) -> Self::Output {
        ladder::season::replay::replay::<G>(self.recorded, self.record)
    }
}

/// `ladder verify DIR`
fn verify(dir: &Path) -> Result<()> {
    let recorded = Recorded::read(dir)?;
    let kind = GameKind::named(&recorded.kind)?;
    let v = kind.visit(VerifyJournal {
        dir,
        recorded: &recorded,
    })?;
    out(&format!(
        "{}: {} games in schedule order and {} pending, of {} scheduled: every move legal, every ending, goal and result as recorded\n",
        dir.display(),
        v.journaled,
        v.pending,
        v.scheduled
    ))
}

struct MaxGoal<'a> {
    recorded: &'a Recorded,
}

impl GameVisitor for MaxGoal<'_> {
    type Output = Result<i32>;
    fn visit<G: Game>(self, _: &Roster<G>) -> Self::Output {
        ladder::season::verify::max_goal::<G>(self.recorded)
    }
}

struct VerifyJournal<'a> {
    dir: &'a Path,
    recorded: &'a Recorded,
}

impl GameVisitor for VerifyJournal<'_> {
    type Output = Result<ladder::season::verify::Verified>;
    fn visit<G: Game>(self, _: &Roster<G>) -> Self::Output {
        ladder::season::verify::verify::<G>(self.dir, self.recorded)
    }
}

/// `ladder list games|bots`
fn list(what: ListWhat, game: Option<&str>) -> Result<()> {
    let kinds = match game {
        Some(name) => vec![GameKind::named(name)?],
        None => GameKind::ALL.to_vec(),
    };
    for kind in kinds {
        out(&kind.visit(Describe { what, kind }))?;
    }
    Ok(())
}

struct Describe {
    what: ListWhat,
    kind: GameKind,
}

impl GameVisitor for Describe {
    type Output = String;
    fn visit<G: Game>(self, roster: &Roster<G>) -> String {
        let name = self.kind.name();
        match self.what {
            ListWhat::Games => {
                let params = match ladder::core::game::default_params::<G>() {
                    Ok(p) => toml::to_string(&p).expect("params serialize"),
                    Err(e) => format!("required ({e})"),
                };
                let params: Vec<&str> = params.lines().collect();
                let params = if params.is_empty() {
                    "none".to_string()
                } else {
                    params.join(", ")
                };
                let solver = match self.kind.solve() {
                    Some(_) => format!("{:<13} solver: ladder solve {name} --help\n", ""),
                    None => String::new(),
                };
                format!(
                    "{:<13} {}\n{:<13} parameters: {params}\n{solver}",
                    name,
                    self.kind.about(),
                    ""
                )
            }
            ListWhat::Bots => roster
                .bots()
                .iter()
                .map(|b| format!("{:<13} {:<12} {}\n", name, b.name, b.about))
                .collect(),
        }
    }
}
