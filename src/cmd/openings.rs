//! `ladder openings GAME`: start positions for a season's openings, one a
//! line.

use ladder::show::Show;
use ladder::{
    catalog::{GameKind, GameVisitor},
    plan::{self, openings, Roster},
    Error, Result,
};

use super::out;

/// The options of `ladder openings`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game.
    pub game: String,
    /// Random plies from the first position.
    #[arg(long, value_name = "N")]
    pub plies: u32,
    /// How many positions.
    #[arg(long, default_value_t = 20, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub count: u32,
    /// Keep only positions the judge finds roughly balanced.
    #[arg(long)]
    pub balanced: bool,
    /// The built-in bot that judges balance.
    #[arg(long, default_value = "random", value_name = "BOT")]
    pub judge: String,
    /// Games the judge plays from each position.
    #[arg(long, default_value_t = 20, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub playouts: u32,
    /// The seed: the same seed gives the same positions.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
}

pub fn run(a: Args) -> Result<()> {
    let (kind, params) = GameKind::with_params(&a.game)?;
    let text = kind.visit(MakeOpenings {
        params,
        command: format!(
            "# ladder openings {} --plies {} --count {}{} --seed {}",
            a.game,
            a.plies,
            a.count,
            if a.balanced {
                format!(" --balanced --judge {} --playouts {}", a.judge, a.playouts)
            } else {
                String::new()
            },
            a.seed
        ),
        plies: a.plies,
        count: a.count,
        judge: a.balanced.then_some((a.judge, a.playouts)),
        seed: a.seed,
    })?;
    out(&text)
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
    fn visit<G: Show>(self, roster: &Roster<G>) -> Self::Output {
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
