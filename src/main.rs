//! The `ladder` binary: parses the command line, runs one function per
//! subcommand, and maps errors to exit codes (0 ok, 1 runtime failure, 2 bad input).

mod cli;

use std::{fs, path::Path, process::ExitCode, time::Duration};

use anyhow::Result;
use clap::Parser;
use ladder::{
    bot,
    config::{self, BadInput},
    external::{self, Protocol},
    game::{Game, GameKind, GameVisitor},
    games::{
        bidding::{solver, BiddingParams},
        Bidding,
    },
    tournament::{self, Options, Summary},
};

use crate::cli::{CheckProtocol, Cli, Command, ListWhat, RunArgs};

fn main() -> ExitCode {
    let cli = Cli::parse();
    ladder::external::process::install_cleanup();
    let result = match cli.command {
        Command::Run {
            config,
            run,
            max_games,
        } => run_season(&config, &run, max_games),
        Command::Match {
            game,
            first,
            second,
            games,
            seed,
            move_time_ms,
            run,
        } => play_match(&game, [first, second], games, seed, move_time_ms, &run),
        Command::List { what, game } => list(what, game.as_deref()),
        Command::Solve {
            game,
            position,
            money1,
            money2,
            advantage,
            money,
            json,
        } => solve(&game, [position, money1, money2], advantage, money, json),
        Command::Check {
            game,
            protocol,
            games,
            move_time_ms,
            command,
        } => check_bot(game.as_deref(), protocol, games, move_time_ms, &command),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            if err.downcast_ref::<BadInput>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

fn options(run: &RunArgs, max_games: Option<u64>, fresh: bool) -> Options {
    Options {
        jobs: run.jobs.map(|j| j as usize),
        fresh,
        reports: run.reports.clone(),
        progress: !run.quiet,
        max_games,
    }
}

/// `ladder run CONFIG`
fn run_season(path: &Path, run: &RunArgs, max_games: Option<u64>) -> Result<()> {
    let text = fs::read_to_string(path)
        .map_err(|e| BadInput(format!("{}: cannot read the config: {e}", path.display())))?;
    let kind = config::game_of(&path.display().to_string(), &text)?;
    let opts = options(run, max_games, run.fresh);
    let summary = kind.visit(RunConfig {
        path,
        text: &text,
        opts: &opts,
    })?;
    print_summary(&summary);
    Ok(())
}

struct RunConfig<'a> {
    path: &'a Path,
    text: &'a str,
    opts: &'a Options,
}

impl GameVisitor for RunConfig<'_> {
    type Output = Result<Summary>;
    fn visit<G: Game>(self) -> Result<Summary> {
        let plan = config::plan::<G>(self.path, self.text)?;
        tournament::run(&plan, self.opts)
    }
}

/// `ladder match GAME BOT BOT`: always a fresh season of its own.
fn play_match(
    game: &str,
    bots: [String; 2],
    games: u32,
    seed: u64,
    move_time_ms: u32,
    run: &RunArgs,
) -> Result<()> {
    let kind = game_kind(game)?;
    let opts = options(run, None, true);
    let summary = kind.visit(RunMatch {
        bots,
        games,
        seed,
        move_time_ms,
        opts: &opts,
    })?;
    print_summary(&summary);
    Ok(())
}

struct RunMatch<'a> {
    bots: [String; 2],
    games: u32,
    seed: u64,
    move_time_ms: u32,
    opts: &'a Options,
}

impl GameVisitor for RunMatch<'_> {
    type Output = Result<Summary>;
    fn visit<G: Game>(self) -> Result<Summary> {
        let plan = config::match_plan::<G>(&self.bots, self.games, self.seed, self.move_time_ms)?;
        tournament::run(&plan, self.opts)
    }
}

fn game_kind(name: &str) -> Result<GameKind> {
    GameKind::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
        BadInput(format!(
            "unknown game `{name}`; known: {}",
            known.join(", ")
        ))
        .into()
    })
}

fn print_summary(s: &Summary) {
    print!("{}", ladder::report::terminal(&s.header, &s.standings));
    println!(
        "\n{} games played now, {} resumed from the journal; reports in {}",
        s.played,
        s.resumed,
        s.dir.display()
    );
}

/// `ladder check -- COMMAND...`: exits 1 when the bot has problems.
fn check_bot(
    game: Option<&str>,
    protocol: CheckProtocol,
    games: u32,
    move_time_ms: u32,
    argv: &[String],
) -> Result<()> {
    let protocol = match protocol {
        CheckProtocol::Line => Protocol::Line,
        CheckProtocol::Hackerrank => Protocol::Hackerrank,
    };
    let kind = match (game, protocol) {
        (Some(name), _) => game_kind(name)?,
        (None, Protocol::Hackerrank) => GameKind::Bidding,
        (None, Protocol::Line) => {
            return Err(BadInput(
                "which game does the bot play? add --game GAME (see `ladder list games`)".into(),
            )
            .into())
        }
    };
    if protocol == Protocol::Hackerrank && kind != GameKind::Bidding {
        return Err(BadInput(format!("hackerrank bots play the bidding game, not {kind}")).into());
    }
    let command = external::Command::resolve(argv, None, protocol == Protocol::Hackerrank)
        .map_err(BadInput)?;
    let limits = external::Limits {
        move_time: Duration::from_millis(move_time_ms.into()),
        startup_time: Duration::from_millis(config::DEFAULT_STARTUP_TIME_MS.into()),
    };
    let report = kind.visit(CheckBot {
        command: &command,
        protocol,
        limits: &limits,
        games,
    })?;
    print!("{}", report.render());
    std::io::Write::flush(&mut std::io::stdout())?;
    if report.problems() > 0 {
        anyhow::bail!("the bot has {} problem(s); see above", report.problems());
    }
    Ok(())
}

struct CheckBot<'a> {
    command: &'a external::Command,
    protocol: Protocol,
    limits: &'a external::Limits,
    games: u32,
}

impl GameVisitor for CheckBot<'_> {
    type Output = Result<ladder::check::CheckReport>;
    fn visit<G: Game>(self) -> Self::Output {
        ladder::check::check::<G>(self.command, self.protocol, self.limits, self.games)
    }
}

/// `ladder solve bidding [--position P --money1 A --money2 B --advantage 1|2]`
fn solve(
    game: &str,
    state: [Option<u32>; 3],
    advantage: Option<u8>,
    money: u32,
    json: bool,
) -> Result<()> {
    if game_kind(game)? != GameKind::Bidding {
        return Err(BadInput(format!("only the bidding game has a solver, not {game}")).into());
    }
    let params = BiddingParams {
        money,
        ..BiddingParams::default()
    };
    Bidding::check_params(&params).map_err(BadInput)?;
    let [position, money1, money2] = state;
    let st = ladder::solve::state_of(
        position.unwrap_or(params.start),
        money1.unwrap_or(money),
        money2.unwrap_or(money),
        advantage.unwrap_or(1),
    );
    if st.position > params.length || st.money.first > money || st.money.second > money {
        return Err(BadInput(format!(
            "the state must have position 0..={} and money 0..={money} each (use --money for larger budgets)",
            params.length
        ))
        .into());
    }
    let solution = solver::Solution::solve(ladder::BySeat::new(money, money), params.length);
    let any_state =
        position.is_some() || money1.is_some() || money2.is_some() || advantage.is_some();
    print!(
        "{}",
        if any_state {
            ladder::solve::state(&solution, &st, json)
        } else {
            ladder::solve::overview(&solution, &st, json)
        }
    );
    Ok(())
}

/// `ladder list games|bots`
fn list(what: ListWhat, game: Option<&str>) -> Result<()> {
    let kinds = match game {
        Some(name) => vec![game_kind(name)?],
        None => GameKind::ALL.to_vec(),
    };
    for kind in kinds {
        print!("{}", kind.visit(Describe(what)));
    }
    Ok(())
}

struct Describe(ListWhat);

impl GameVisitor for Describe {
    type Output = String;
    fn visit<G: Game>(self) -> String {
        match self.0 {
            ListWhat::Games => {
                let params = toml::to_string(&G::Params::default()).expect("params serialize");
                let params: Vec<&str> = params.lines().collect();
                let params = if params.is_empty() {
                    "none".to_string()
                } else {
                    params.join(", ")
                };
                format!(
                    "{:<13} {}\n{:<13} parameters: {params}\n",
                    G::NAME,
                    G::ABOUT,
                    ""
                )
            }
            ListWhat::Bots => bot::builtin_bots::<G>()
                .iter()
                .map(|b| format!("{:<13} {:<10} {}\n", G::NAME, b.name, b.about))
                .collect(),
        }
    }
}
