//! `ladder list games|bots`: the catalogue's games with their parameters,
//! or the built-in bots.

use clap::ValueEnum;
use ladder::show::Show;
use ladder::{
    catalog::{GameKind, GameVisitor},
    plan::Roster,
    Error, Result,
};

use super::out;

/// The options of `ladder list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to list.
    pub what: ListWhat,
    /// Only this game's bots.
    #[arg(long)]
    pub game: Option<String>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ListWhat {
    Games,
    Bots,
}

pub fn run(a: Args) -> Result<()> {
    list(a.what, a.game.as_deref())
}

/// `ladder list games|bots`
fn list(what: ListWhat, game: Option<&str>) -> Result<()> {
    let kinds = match game {
        // `gdl:FILE` as `match` and `play` take it: the GDL game's bots
        Some(name) => {
            let (kind, params) = GameKind::with_params(name)?;
            if let Some(rules) = params.get("rules").and_then(|r| r.as_str()) {
                match std::fs::metadata(rules) {
                    Ok(m) if m.is_file() => {}
                    Ok(_) => {
                        return Err(Error::Usage(format!(
                            "{name}: {rules} is not a file, as a GDL description is"
                        )))
                    }
                    Err(_) => return Err(Error::Usage(format!("{name}: no file {rules}"))),
                }
            }
            vec![kind]
        }
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
    fn visit<G: Show>(self, roster: &Roster<G>) -> String {
        let name = self.kind.name();
        match self.what {
            ListWhat::Games => {
                let params = match ladder::core::game::default_params::<G>() {
                    Ok(p) => toml::to_string(&p).expect("params serialize"),
                    // serde says `missing field `rules``: name the key a config must give
                    Err(e) => match e.to_string().split('`').nth(1) {
                        Some(key) if e.to_string().starts_with("missing field") => {
                            format!("{key} = ... (no default: give it in [season.params])")
                        }
                        _ => format!("none by default ({e})"),
                    },
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
