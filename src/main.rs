//! The `ladder` binary: parses the command line, runs the subcommand's
//! function (one file each under [`cmd`]), and maps its error to an exit code
//! in one place ([`ladder::Error::exit_code`]: 0 ok, 1 runtime failure, 2 bad
//! input).

mod cli;
mod cmd;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};
use ladder::{
    external::process::{cleanup, exec, move_host},
    Error,
};

use crate::cli::{Cli, Command};

/// The command line, with clap's own messages (a usage error, `--help`)
/// coloured as `--color` says: clap reads the flag only after parsing, so
/// it is looked up first. `auto` leaves clap to its own reading of the
/// terminal and `NO_COLOR`, except that `TERM=dumb` means no colour.
fn parse() -> Cli {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let mut command = Cli::command();
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let given = words.iter().enumerate().find_map(|(i, w)| {
        w.strip_prefix("--color=")
            .map(str::to_string)
            .or_else(|| (w == "--color").then(|| words.get(i + 1).cloned().unwrap_or_default()))
    });
    let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
    match given.as_deref() {
        Some("always") => command = command.color(clap::ColorChoice::Always),
        // clap would colour a dumb terminal when CI is set
        Some("never") => command = command.color(clap::ColorChoice::Never),
        _ if dumb => command = command.color(clap::ColorChoice::Never),
        _ => {}
    }
    let matches = command.get_matches_from(join_negative_values(args));
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// Options whose value may be negative (`--sprt -5,5`). clap reads a word
/// starting with `-` as an option, or, told to take any word as the value,
/// takes the next option for it (`--sprt --reports DIR` would name `DIR` as
/// the stray argument). So a negative number after one of these is joined
/// to it (`--sprt=-5,5`) before clap reads the line, and any other word
/// starting with `-` stays an option.
const NEGATIVE_VALUES: &[&str] = &["--sprt"];

fn join_negative_values(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let negative = |w: &std::ffi::OsString| w.to_str().is_some_and(cmd::r#match::negative);
    let mut out = Vec::with_capacity(args.len());
    let mut words = args.into_iter().peekable();
    while let Some(word) = words.next() {
        if word == "--" {
            out.push(word);
            out.extend(words);
            break;
        }
        let takes = NEGATIVE_VALUES.iter().any(|o| word == *o);
        match words.peek() {
            Some(next) if takes && negative(next) => {
                let mut joined = word;
                joined.push("=");
                joined.push(words.next().expect("peeked"));
                out.push(joined);
            }
            _ => out.push(word),
        }
    }
    out
}

fn main() -> ExitCode {
    // ladder starts its bots through itself, so no process of hundreds of
    // threads has to fork (external::process::exec)
    if let Some(code) = exec::helper_main() {
        return ExitCode::from(code as u8);
    }
    if let Some(code) = move_host::host_main() {
        return ExitCode::from(code as u8);
    }
    if let Ok(exe) = std::env::current_exe() {
        exec::use_helper(exe);
    }
    let cli = parse();
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
        Command::Export(a) => cmd::export::run(a),
        Command::GgpPlayer(a) => cmd::ggp_player::run(a),
        Command::List(a) => cmd::list::run(a),
        Command::Completions(a) => cmd::completions::run(a),
        Command::Man(a) => cmd::man::run(a),
    };
    match result {
        // a closed pipe (`ladder list bots | head -1`) is no failure
        Ok(()) | Err(Error::ClosedOutput) => ExitCode::SUCCESS,
        Err(err @ Error::Interrupted { .. }) if says_interrupts => ExitCode::from(err.exit_code()),
        Err(err) => {
            // a message quoting a user's input of megabytes is cut, line by line
            let message = ladder::core::error::clip_lines(&err.to_string(), 1000);
            eprintln!("{} {message}", cmd::paint_stderr().error("error:"));
            ExitCode::from(err.exit_code())
        }
    }
}
