//! `ladder match GAME BOT BOT`: an ad-hoc match between two bots, reported
//! like a small season in `reports/match-GAME-A-vs-B/`. Rerunning the same
//! match resumes it; a match of the same two names with other settings goes
//! to a folder of its own (`...-2`), and the earlier one is kept.

use clap::ValueEnum;
use ladder::show::Show;
use ladder::{
    catalog::{GameKind, GameVisitor},
    core::referee::{Adjudication, DrawRule, Referee, ResignRule},
    external::process::Sandbox,
    journal::{self, Holds},
    plan::{self, jobs::Jobs, schedule::Seating, Match, MatchOpenings, Plan, Roster},
    run::tournament::{self, Options, Summary},
    stats::sprt::{Model, Sprt},
    Error, Result,
};

use super::{options, sandbox_of, summary::finish, time_control, RunArgs, SandboxArg, TimeArgs};

/// The options of `ladder match`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game, e.g. bidding (see `ladder list games`).
    pub game: String,
    /// The bot in the first seat of the first game.
    pub first: String,
    /// The other bot; seats alternate game by game.
    pub second: String,
    /// Games to play.
    #[arg(long, default_value_t = 10, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// The match seed; the same seed replays the same games.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    #[command(flatten)]
    pub time: TimeArgs,
    /// Where bot programs run: bwrap's sandbox, none, or bwrap when it works here (docs/SECURITY.md).
    #[arg(long, value_enum, default_value_t = SandboxArg::Auto)]
    pub sandbox: SandboxArg,
    /// Games at once: up to 1024, or `auto` to measure (default: one per core). Results
    /// do not depend on it.
    #[arg(long, short = 'j', value_name = "N|auto")]
    pub jobs: Option<Jobs>,
    /// Stop as soon as an SPRT decides whether FIRST is at least ELO1 Elo stronger than
    /// SECOND (H1) or at most ELO0 (H0), counting game pairs (docs/CONFIG.md).
    #[arg(long, value_name = "ELO0,ELO1", value_parser = sprt_bounds)]
    pub sprt: Option<String>,
    /// How --sprt turns Elo into a score.
    #[arg(long, value_enum, default_value_t = SprtModel::Normalized)]
    pub sprt_model: SprtModel,
    /// The SPRT's false positive rate (accepting H1 when H0 holds).
    #[arg(long, default_value_t = 0.05, value_name = "A")]
    pub sprt_alpha: f64,
    /// The SPRT's false negative rate (accepting H0 when H1 holds).
    #[arg(long, default_value_t = 0.05, value_name = "B")]
    pub sprt_beta: f64,
    /// Start the games from the positions in FILE, one per colour-swapped
    /// pair of games (a position a line, or `moves ...`; docs/CONFIG.md).
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    pub openings: Option<std::path::PathBuf>,
    /// The order of --openings: in the file's order, or shuffled by the seed.
    #[arg(long, value_enum, default_value_t = OpeningsOrder::Sequential, requires = "openings")]
    pub openings_order: OpeningsOrder,
    /// Start each pair of games after N random plies from the start.
    #[arg(long, value_name = "N")]
    pub random_plies: Option<u32>,
    /// Adjudicate a draw as fastchess does: `movenumber=40,movecount=8,score=10`
    /// (after turn MOVENUMBER, both bots' last MOVECOUNT scores within SCORE of 0).
    #[arg(long, value_name = "RULE")]
    pub draw: Option<String>,
    /// Adjudicate a resignation as fastchess does: `movecount=3,score=600` (a
    /// bot's last MOVECOUNT scores at or below -SCORE).
    #[arg(long, value_name = "RULE")]
    pub resign: Option<String>,
    /// Every game with FIRST in the first seat, instead of seats alternating
    /// (fastchess's -noswap).
    #[arg(long)]
    pub noswap: bool,
    /// SECOND takes the first seat first (fastchess's -reverse).
    #[arg(long)]
    pub reverse: bool,
    /// Discard this match's earlier results instead of resuming them.
    #[arg(long)]
    pub fresh: bool,
    #[command(flatten)]
    pub run: RunArgs,
}

/// `--openings-order` of `ladder match`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum OpeningsOrder {
    Sequential,
    Random,
}

/// `--sprt-model` of `ladder match`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SprtModel {
    Normalized,
    Logistic,
}

/// `ladder match GAME BOT BOT`: plays the match, or resumes it.
pub fn run(a: Args) -> Result<()> {
    let sandbox = sandbox_of(a.sandbox)?;
    let sprt = a
        .sprt
        .map(|bounds| match_sprt(&bounds, a.sprt_model, a.sprt_alpha, a.sprt_beta))
        .transpose()?;
    let (kind, params) = GameKind::with_params(&a.game)?;
    let mut referee = Referee {
        time: time_control(&a.time)?,
        ..Referee::new(Referee::DEFAULT_MAX_PLIES)
    };
    referee.adjudication = Adjudication {
        draw: a.draw.as_deref().map(draw_rule).transpose()?,
        resign: a.resign.as_deref().map(resign_rule).transpose()?,
    };
    let openings = match (a.openings, a.random_plies) {
        (Some(path), _) => Some(MatchOpenings::File {
            path,
            random: matches!(a.openings_order, OpeningsOrder::Random),
        }),
        (None, Some(plies)) => Some(MatchOpenings::RandomPlies(plies)),
        (None, None) => None,
    };
    let summary = kind.visit(RunMatch {
        params,
        m: Match {
            bots: [a.first, a.second],
            games: a.games,
            seed: a.seed,
            sprt,
            openings,
            seating: Seating::of(a.noswap, a.reverse),
        },
        referee,
        sandbox: &sandbox,
        opts: &options(&a.run, a.jobs, (None, a.fresh), None)?,
    })?;
    finish(&summary)
}

/// `movenumber=40,movecount=8,score=10` as its values by key; blanks may
/// separate the pairs too. `option` names the option in errors.
fn rule_values(option: &str, text: &str, keys: &[&str]) -> Result<Vec<Option<i64>>> {
    let mut values = vec![None; keys.len()];
    for pair in text.split([',', ' ']).filter(|p| !p.is_empty()) {
        let bad = || {
            Error::Usage(format!(
                "{option}: expected KEY=NUMBER pairs with keys {}, got `{pair}`",
                keys.join(", ")
            ))
        };
        let (key, value) = pair.split_once('=').ok_or_else(bad)?;
        let at = keys.iter().position(|k| *k == key).ok_or_else(bad)?;
        let value: i64 = value.parse().map_err(|_| bad())?;
        if value < 0 || value > i64::from(i32::MAX) {
            return Err(Error::Usage(format!(
                "{option}: {key} must lie in 0..={}",
                i32::MAX
            )));
        }
        values[at] = Some(value);
    }
    Ok(values)
}

/// `--draw movenumber=N,movecount=N,score=S`: movecount and score are needed.
fn draw_rule(text: &str) -> Result<DrawRule> {
    let v = rule_values("--draw", text, &["movenumber", "movecount", "score"])?;
    match (v[0], v[1], v[2]) {
        (number, Some(count), Some(score)) if count >= 1 => Ok(DrawRule {
            move_number: number.unwrap_or(0) as u32,
            move_count: count as u32,
            score: score as i32,
        }),
        _ => Err(Error::Usage(
            "--draw needs movecount (at least 1) and score, e.g. movenumber=40,movecount=8,score=10".to_string(),
        )),
    }
}

/// `--resign movecount=N,score=S`.
fn resign_rule(text: &str) -> Result<ResignRule> {
    let v = rule_values("--resign", text, &["movecount", "score"])?;
    match (v[0], v[1]) {
        (Some(count), Some(score)) if count >= 1 => Ok(ResignRule {
            move_count: count as u32,
            score: score as i32,
        }),
        _ => Err(Error::Usage(
            "--resign needs movecount (at least 1) and score, e.g. movecount=3,score=600"
                .to_string(),
        )),
    }
}

/// Whether a word of the command line starts as a negative number does
/// (`-5,5`, `-.5`): a value, where any other word starting with `-` is an
/// option.
pub fn negative(word: &str) -> bool {
    word.strip_prefix('-')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
}

/// `--sprt`'s value as the command line gives it: a negative bound (`-5,5`,
/// joined to the option by `main`) is a value, an option (`--sprt=-q`) is not.
fn sprt_bounds(text: &str) -> std::result::Result<String, String> {
    if text.starts_with('-') && !negative(text) {
        return Err(format!(
            "expected ELO0,ELO1 like `0,5` or `-5,5`, not the option `{text}`"
        ));
    }
    Ok(text.to_string())
}

/// The SPRT of `--sprt ELO0,ELO1`: the first bot tested against the second,
/// with the error rates `alpha` and `beta`.
fn match_sprt(bounds: &str, model: SprtModel, alpha: f64, beta: f64) -> Result<Sprt> {
    let bad = || {
        Error::Usage(format!(
            "--sprt: expected ELO0,ELO1 like `0,5`, got `{bounds}`"
        ))
    };
    let (a, b) = bounds.split_once(',').ok_or_else(bad)?;
    let elo = |x: &str| x.trim().parse::<f64>().map_err(|_| bad());
    let model = match model {
        SprtModel::Normalized => Model::Normalized,
        SprtModel::Logistic => Model::Logistic,
    };
    let sprt = Sprt {
        alpha,
        beta,
        ..Sprt::of_match(elo(a)?, elo(b)?, model)
    };
    sprt.check()
        .map_err(|(_, why)| Error::Usage(format!("--sprt: {why}")))?;
    Ok(sprt)
}

struct RunMatch<'a> {
    /// The parameters the game's name carries (`gdl:FILE`).
    params: toml::Table,
    m: Match,
    referee: Referee,
    sandbox: &'a Sandbox,
    opts: &'a Options,
}

impl GameVisitor for RunMatch<'_> {
    type Output = Result<Summary>;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Result<Summary> {
        let mut plan = plan::match_plan(roster, self.m, self.referee, self.sandbox, &self.params)?;
        plan.name = folder(&plan, &self.opts.reports)?;
        tournament::run(&plan, self.opts)
    }
}

/// The folder name of the match `plan`: the first of `NAME`, `NAME-2`, ...
/// that holds this very match (which then resumes) or nothing. A folder
/// holding anything else is kept, and stderr says so.
fn folder<G: ladder::core::game::Game>(
    plan: &Plan<G>,
    reports: &std::path::Path,
) -> Result<String> {
    let mut earlier: Option<(std::path::PathBuf, Vec<String>)> = None;
    for n in 1u32.. {
        let name = match n {
            1 => plan.name.clone(),
            n => format!("{}-{n}", plan.name),
        };
        let mut described = plan.describe();
        described["name"] = serde_json::Value::String(name.clone());
        let dir = reports.join(&name);
        match journal::holds(&dir, &described)? {
            Holds::Nothing | Holds::This => {
                if let Some((first, keys)) = earlier {
                    let changed = match keys.is_empty() {
                        true => String::new(),
                        false => format!(" (changed: {})", keys.join(", ")),
                    };
                    eprintln!(
                        "ladder match: {} holds an earlier match of these two names with other \
                         settings{changed}; it is kept, and this match plays in {}",
                        first.display(),
                        dir.display()
                    );
                }
                return Ok(name);
            }
            Holds::Other(keys) if earlier.is_none() => earlier = Some((dir, keys)),
            _ if earlier.is_none() => earlier = Some((dir, Vec::new())),
            _ => {}
        }
    }
    unreachable!("some folder name is free")
}
