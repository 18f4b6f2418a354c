//! The `ladder` binary: parses the command line, runs the subcommand's
//! function (one file each under [`cmd`]), and maps its error to an exit code
//! in one place ([`ladder::Error::exit_code`]: 0 ok, 1 runtime failure, 2 bad
//! input).

mod cli;
mod cmd;

use std::process::ExitCode;

use clap::Parser;
use ladder::{
    external::process::{cleanup, exec},
    Error,
};

use crate::cli::{Cli, Command};

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
    cmd::set_color(cli.color.choice());
    cleanup::install_cleanup();
    cleanup::sweep_stale_dirs();
    // `ladder play` tells the person itself that a signal ended the session
    let says_interrupts = matches!(cli.command, Command::Play(_));
    let result = match cli.command {
        Command::Run(a) => cmd::run::run(a),
        Command::Season(a) => cmd::season::run(a),
        Command::Standings(a) => cmd::standings::run(a),
        Command::Arena(a) => cmd::arena::run(a),
        Command::Match(a) => cmd::r#match::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Merge(a) => cmd::merge::run(a),
        Command::Openings(a) => cmd::openings::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Verify(a) => cmd::verify::run(a),
        Command::Report(a) => cmd::report::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::List(a) => cmd::list::run(a),
        Command::Completions(a) => cmd::completions::run(a),
        Command::Man(a) => cmd::man::run(a),
    };
    match result {
        // a closed pipe (`ladder list bots | head -1`) is no failure
        Ok(()) | Err(Error::ClosedOutput) => ExitCode::SUCCESS,
        Err(err @ Error::Interrupted { .. }) if says_interrupts => ExitCode::from(err.exit_code()),
        Err(err) => {
            eprintln!("{} {err}", cmd::paint_stderr().error("error:"));
            ExitCode::from(err.exit_code())
        }
    }
}
