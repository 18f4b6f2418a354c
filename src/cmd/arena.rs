//! `ladder arena ...`: a league that never stops (docs/ARENA.md).
//! `init` makes one, `run` plays it until stopped (`--listen`: with its
//! web pages), `add` and `retire` change its bots while it plays, `show`
//! prints its table, `serve` serves its pages alone, `export` writes its
//! games as a season folder, `replay` plays its log again in a new arena.

use std::path::{Path, PathBuf};

use ladder::{
    arena,
    catalog::{GameKind, GameVisitor},
    core::text::count,
    plan::{config::ConfigFile, jobs::Jobs, Roster},
    report::Look,
    show::Show,
    Error, Result,
};

use super::{out, paint_stdout};

/// The options of `ladder arena`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: Sub,
}

#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Make an arena in DIR for a game (`--game`) or from a season config (`--config`),
    /// whose [season] settings every game is played under and whose bots join first.
    Init {
        /// The new arena's folder.
        dir: PathBuf,
        /// The game (`ladder list games`; `gdl:FILE.kif` for a GDL game).
        #[arg(long, conflicts_with = "config", required_unless_present = "config")]
        game: Option<String>,
        /// A season config: its [season] table (no format, sprt or openings), its bots,
        /// and an optional [arena] table (batch_games, newcomer_games, sprt, season_games).
        #[arg(long)]
        config: Option<PathBuf>,
    },
    /// Play the arena until Ctrl-C or SIGTERM; a rerun continues where it stopped.
    Run {
        /// The arena's folder.
        dir: PathBuf,
        /// Games at once (default: one per core). Results do not depend on it.
        #[arg(long, short = 'j', value_name = "N|auto")]
        jobs: Option<Jobs>,
        /// Stop after this many batches.
        #[arg(long, value_name = "N")]
        batches: Option<u64>,
        /// Print nothing while playing.
        #[arg(long, short)]
        quiet: bool,
        /// Serve the arena's web pages and JSON API on this address while it plays
        /// (127.0.0.1:8080 when given without one). An address other than loopback
        /// needs --token.
        #[arg(long, value_name = "ADDR", num_args = 0..=1,
              default_missing_value = ladder::web::DEFAULT_LISTEN)]
        listen: Option<std::net::SocketAddr>,
        /// The token every action (upload, retire, promote, reject) must carry
        /// (`Authorization: Bearer TOKEN`); also from the environment variable LADDER_TOKEN.
        #[arg(long, env = "LADDER_TOKEN", hide_env_values = true)]
        token: Option<String>,
        /// The largest bot upload taken, in bytes.
        #[arg(long, value_name = "BYTES", default_value_t = ladder::web::UPLOAD_LIMIT)]
        upload_limit: usize,
    },
    /// Add a bot (or its next version: NAME@2, NAME@3...) while the arena plays.
    ///
    /// A built-in bot (`--builtin`) or a program after `--`; program files the command
    /// names (or the bot's whole `--dir`) are copied into the arena, so a later edit of
    /// the source changes nothing.
    /// A new version retires the one before it, whose games stay (a candidate waits
    /// for `promote`).
    Add {
        /// The arena's folder.
        dir: PathBuf,
        /// The bot's name: a new name joins; a name in the arena already gets its
        /// next version (NAME@2, NAME@3...).
        name: String,
        /// A built-in bot (`ladder list bots GAME`).
        #[arg(long, conflicts_with = "command")]
        builtin: Option<String>,
        /// The built-in bot's parameters, as TOML: `--params 'depth = 3'`.
        #[arg(long, requires = "builtin")]
        params: Option<String>,
        /// The program's protocol (default `line`; `hackerrank` for the bidding game).
        #[arg(long)]
        protocol: Option<String>,
        /// The bot's folder: copied whole into the arena, the program runs in the
        /// copy and the command's paths are relative to it (a bot of several files:
        /// modules, classes, data).
        #[arg(long = "dir", value_name = "FOLDER", conflicts_with = "builtin")]
        bot_dir: Option<PathBuf>,
        /// A candidate: it plays the pool (or `--against` one version) under the arena's
        /// SPRT until the test decides, then waits for `promote` or `reject`; the bot's
        /// older version keeps playing meanwhile.
        #[arg(long)]
        candidate: bool,
        /// The version a candidate plays (default: the whole pool).
        #[arg(long, requires = "candidate", value_name = "NAME@N")]
        against: Option<String>,
        /// The program and its arguments.
        #[arg(last = true, value_name = "COMMAND")]
        command: Vec<String>,
    },
    /// Retire a bot (every version that plays) or one version (NAME@N); its games stay.
    Retire {
        /// The arena's folder.
        dir: PathBuf,
        /// The bot (every version that plays) or one version, NAME@N.
        bot: String,
    },
    /// Promote a candidate (NAME@N) into the pool; the older versions of its bot retire.
    Promote {
        /// The arena's folder.
        dir: PathBuf,
        /// The candidate, NAME@N.
        bot: String,
    },
    /// Reject a candidate (NAME@N): it retires.
    Reject {
        /// The arena's folder.
        dir: PathBuf,
        /// The candidate, NAME@N.
        bot: String,
    },
    /// Print the arena's table, also while another process runs it, and its seasons.
    Show {
        /// The arena's folder.
        dir: PathBuf,
        /// Print this closed season's table instead ([arena] season_games).
        #[arg(long, value_name = "K")]
        season: Option<u64>,
    },
    /// Serve the arena's web pages and JSON API without playing (another process, or
    /// none, runs it), until stopped.
    Serve {
        /// The arena's folder.
        dir: PathBuf,
        /// The address to listen on. An address other than loopback needs --token.
        #[arg(long, value_name = "ADDR", default_value = ladder::web::DEFAULT_LISTEN)]
        listen: std::net::SocketAddr,
        /// The token every action must carry (`Authorization: Bearer TOKEN`).
        #[arg(long, env = "LADDER_TOKEN", hide_env_values = true)]
        token: Option<String>,
        /// The largest bot upload taken, in bytes.
        #[arg(long, value_name = "BYTES", default_value_t = ladder::web::UPLOAD_LIMIT)]
        upload_limit: usize,
    },
    /// Replay the arena SRC in a new arena DEST, each batch and game checked against SRC's.
    ///
    /// DEST gets SRC's settings, bot programs and events, decides and plays each batch
    /// itself, and stops at the first batch or game that is not SRC's (exit code 2),
    /// naming it. A rerun continues the replay.
    Replay {
        /// The arena replayed.
        src: PathBuf,
        /// The new arena's folder (or a replay's to continue).
        dest: PathBuf,
        /// Games at once (default: one per core). Results do not depend on it.
        #[arg(long, short = 'j', value_name = "N|auto")]
        jobs: Option<Jobs>,
        /// Print nothing while playing.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Write the arena's finished games as a season folder OUT, which `ladder verify`,
    /// `report` and `replay` read.
    Export {
        /// The arena's folder.
        dir: PathBuf,
        /// The season folder to write, new or empty.
        out: PathBuf,
        /// Only this closed season's games ([arena] season_games); the folder's game 0
        /// is the season's first.
        #[arg(long, value_name = "K")]
        season: Option<u64>,
    },
}

pub fn run(a: Args) -> Result<()> {
    match a.command {
        Sub::Init { dir, game, config } => {
            let src = match (config, game) {
                (Some(path), _) => ConfigFile::read(&path)?,
                (None, Some(game)) => {
                    let (kind, params) = GameKind::with_params(&game)?;
                    ConfigFile {
                        file: "(--game)".to_string(),
                        text: arena::config::of_game(kind.name(), &params),
                        stored: false,
                    }
                }
                (None, None) => unreachable!("clap requires --game or --config"),
            };
            let kind = GameKind::named(src.game()?.get_ref())?;
            let joined = kind.visit(Init {
                dir: &dir,
                src: &src,
            })?;
            let title = arena::title_of(&dir)?;
            let mut text = format!("made the arena {} ({title})\n", dir.display());
            // (a config's missing files were noted as it was read)
            for bot in joined {
                text.push_str(&format!("added {}\n", bot.bot));
            }
            out(&text)
        }
        Sub::Run {
            dir,
            jobs,
            batches,
            quiet,
            listen,
            token,
            upload_limit,
        } => {
            let kind = GameKind::named(&arena::game_of(&dir)?)?;
            let web = listen.map(|listen| ladder::web::Options {
                listen,
                token: token.filter(|t| !t.is_empty()),
                upload_limit,
            });
            let played = kind.visit(Play {
                dir: &dir,
                jobs,
                batches,
                quiet,
                web,
            })?;
            if !quiet {
                eprintln!(
                    "played {} in {}",
                    count(played.games, "game"),
                    count(played.batches, "batch")
                );
            }
            match played.interrupted {
                Some(signal) => Err(Error::Interrupted { signal }),
                None => Ok(()),
            }
        }
        Sub::Add {
            dir,
            name,
            builtin,
            params,
            protocol,
            bot_dir: folder,
            candidate,
            against,
            command,
        } => {
            let mut table = toml::Table::new();
            if let Some(folder) = folder {
                let folder = folder.to_str().ok_or_else(|| {
                    Error::Usage(format!("--dir {}: not UTF-8", folder.display()))
                })?;
                table.insert("dir".into(), folder.into());
            }
            match (builtin, command.is_empty()) {
                (Some(b), true) => {
                    table.insert("builtin".into(), b.into());
                    if let Some(p) = params {
                        let p: toml::Table = p
                            .parse()
                            .map_err(|e| Error::Usage(format!("--params: {e}")))?;
                        table.insert("params".into(), p.into());
                    }
                }
                (None, false) => {
                    table.insert(
                        "command".into(),
                        toml::Value::try_from(&command).expect("words"),
                    );
                }
                _ => {
                    return Err(Error::Usage(
                        "give a bot: --builtin BOT, or a program after `--`".into(),
                    ))
                }
            }
            if let Some(p) = protocol {
                table.insert("protocol".into(), p.into());
            }
            let kind = GameKind::named(&arena::game_of(&dir)?)?;
            let here = std::env::current_dir().map_err(Error::io("reading", "."))?;
            let joined = kind.visit(Add {
                dir: &dir,
                name: &name,
                table: &table,
                from: &here,
                joining: if candidate {
                    arena::Joining::Candidate { against }
                } else {
                    arena::Joining::Now
                },
            })?;
            note_unfound(&joined);
            out(&format!("added {}\n", joined.bot))
        }
        Sub::Retire { dir, bot } => {
            let retired = arena::retire(&dir, &bot)?;
            out(&format!("retired {}\n", retired.join(", ")))
        }
        Sub::Promote { dir, bot } => {
            arena::decide(&dir, &bot, true)?;
            out(&format!("promoted {bot}\n"))
        }
        Sub::Reject { dir, bot } => {
            arena::decide(&dir, &bot, false)?;
            out(&format!("rejected {bot}\n"))
        }
        Sub::Serve {
            dir,
            listen,
            token,
            upload_limit,
        } => {
            let kind = GameKind::named(&arena::game_of(&dir)?)?;
            let game = kind.visit(WebGame(&dir))?;
            let options = ladder::web::Options {
                listen,
                token: token.filter(|t| !t.is_empty()),
                upload_limit,
            };
            let server = ladder::web::serve(&dir, game, options)?;
            eprintln!("serving the arena's pages at http://{}/", server.addr);
            loop {
                std::thread::park();
            }
        }
        Sub::Replay {
            src,
            dest,
            jobs,
            quiet,
        } => {
            let kind = GameKind::named(&arena::game_of(&src)?)?;
            let replayed = kind.visit(Replay {
                src: &src,
                dest: &dest,
                jobs,
                quiet,
            })?;
            if let Some(signal) = replayed.interrupted {
                return Err(Error::Interrupted { signal });
            }
            let mut said = format!(
                "replayed {} ({}) of {} into {}: it holds {}, each decided and played as \
                 recorded\n",
                count(replayed.batches, "batch"),
                count(replayed.games, "game"),
                src.display(),
                dest.display(),
                count(replayed.held, "batch"),
            );
            if let Some(number) = replayed.unfinished {
                said.push_str(&format!(
                    "batch {number} of {} is not finished: not replayed\n",
                    src.display()
                ));
            }
            out(&said)
        }
        Sub::Show { dir, season } => out(&arena::show::show(
            &dir,
            Look::Text(paint_stdout()),
            season,
        )?),
        Sub::Export {
            dir,
            out: to,
            season,
        } => {
            let kind = GameKind::named(&arena::game_of(&dir)?)?;
            let games = kind.visit(Export {
                dir: &dir,
                out: &to,
                season,
            })?;
            let of = season.map_or(String::new(), |k| format!(" of season {k}"));
            out(&format!(
                "wrote {}{of} to {}\n",
                count(games, "game"),
                to.display()
            ))
        }
    }
}

struct Export<'a> {
    dir: &'a Path,
    out: &'a Path,
    season: Option<u64>,
}

impl GameVisitor for Export<'_> {
    type Output = Result<u64>;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Self::Output {
        arena::export(self.dir, self.out, roster, self.season)
    }
}

struct Replay<'a> {
    src: &'a Path,
    dest: &'a Path,
    jobs: Option<Jobs>,
    quiet: bool,
}

impl GameVisitor for Replay<'_> {
    type Output = Result<arena::replay::Replayed>;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Self::Output {
        let quiet = self.quiet;
        arena::replay::replay(self.src, self.dest, roster, self.jobs, &mut |line| {
            if !quiet {
                println!("{line}");
            }
        })
    }
}

/// Notes on stderr each word of a joining bot's command that reads as a
/// file but named none, so that the arena keeps none.
fn note_unfound(joined: &arena::Joined) {
    for word in &joined.unfound {
        eprintln!(
            "note: {}: `{word}` in its command names no file in `{}`, so the arena keeps none",
            joined.bot,
            joined.looked_in.display()
        );
    }
}

struct Init<'a> {
    dir: &'a Path,
    src: &'a ConfigFile,
}

impl GameVisitor for Init<'_> {
    type Output = Result<Vec<arena::Joined>>;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Self::Output {
        arena::init(self.dir, self.src, roster)
    }
}

struct Add<'a> {
    dir: &'a Path,
    name: &'a str,
    table: &'a toml::Table,
    from: &'a Path,
    joining: arena::Joining,
}

impl GameVisitor for Add<'_> {
    type Output = Result<arena::Joined>;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Self::Output {
        // not beside an upload, whose files a failed add might take
        let _held = arena::programs::hold_joining(self.dir)?;
        arena::add(
            self.dir,
            roster,
            self.name,
            self.table,
            self.from,
            self.joining,
        )
    }
}

struct Play<'a> {
    dir: &'a Path,
    jobs: Option<Jobs>,
    batches: Option<u64>,
    quiet: bool,
    web: Option<ladder::web::Options>,
}

impl GameVisitor for Play<'_> {
    type Output = Result<arena::play::Played>;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Self::Output {
        if let Some(options) = self.web {
            let game = ladder::web::game_of(self.dir, roster)?;
            let server = ladder::web::serve(self.dir, game, options)?;
            // said even with --quiet: the address is how the pages are found
            eprintln!("serving the arena's pages at http://{}/", server.addr);
        }
        let quiet = self.quiet;
        arena::play::run(self.dir, roster, self.jobs, self.batches, &mut |line| {
            if !quiet {
                println!("{line}");
            }
        })
    }
}

/// The arena's game as the web server needs it.
struct WebGame<'a>(&'a Path);

impl GameVisitor for WebGame<'_> {
    type Output = Result<std::sync::Arc<dyn ladder::web::GameOf>>;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Self::Output {
        ladder::web::game_of(self.0, roster)
    }
}
