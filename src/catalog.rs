//! The top floor: the one list of games ladder plays, and the only code that
//! names one. Each game's folder declares its entry (`games::Entry`: its
//! name, built-in bots, the protocols it speaks beyond the line protocol, its
//! shipped season and example bot, its extra commands).
//!
//! Adding a game means a folder under `games/` and one line in the
//! `catalogue!` list below. [`GameKind::visit`] hands code that
//! works for any game its game's type and [`Roster`], so everything below this
//! file stays generic and statically dispatched (the idea of DESIGN's
//! "one exhaustive `match` on `GameKind`", in place of a plugin registry).

use crate::show::Show;
use crate::{
    core::error::Error,
    games::{self, gdl, Entry},
    plan::Roster,
};

/// The catalogue: one line a game, `Kind => folder`, where `games/folder/`
/// declares the game's [`Entry`] as `ENTRY`. The order is `ladder list
/// games`'s.
macro_rules! catalogue {
    ($($kind:ident => $folder:ident),* $(,)?) => {
        /// Every game ladder plays.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $($kind),*
        }

        impl GameKind {
            pub const ALL: [GameKind; [$(stringify!($kind)),*].len()] = [$(GameKind::$kind),*];

            /// Calls `visitor` with this game's type and roster.
            pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $(GameKind::$kind => visitor.visit(&roster(&games::$folder::ENTRY)),)*
                }
            }

            /// What the game's entry says, without its type.
            fn info(self) -> Info {
                match self {
                    $(GameKind::$kind => Info::of(&games::$folder::ENTRY),)*
                }
            }
        }
    };
}

catalogue! {
    Bidding => bidding,
    Armies => armies,
    Troops => troops,
    Coordination => coordination,
    Breakthrough => breakthrough,
    Gdl => gdl,
}

/// Code that runs for one game type, chosen at run time by [`GameKind::visit`].
pub trait GameVisitor {
    type Output;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Self::Output;
}

pub use games::Command;

/// The roster of a game whose type the caller knows at compile time:
/// `catalog::roster(&games::bidding::ENTRY)`.
pub fn roster<G: Show>(entry: &Entry<G>) -> Roster<G> {
    Roster {
        game: entry.name,
        builtins: entry.builtins,
        protocols: entry.protocols,
        elsewhere: extra_protocols,
    }
}

/// The parts of an [`Entry`] that do not depend on the game's type.
struct Info {
    name: &'static str,
    about: &'static str,
    config: &'static str,
    example_bot: &'static str,
    solve: Option<Command>,
}

impl Info {
    fn of<G: Show>(entry: &Entry<G>) -> Info {
        Info {
            name: entry.name,
            about: entry.about,
            config: entry.config,
            example_bot: entry.example_bot,
            solve: entry.solve,
        }
    }
}

impl GameKind {
    /// The name configs and the command line use.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// One line for `ladder list games`.
    pub fn about(self) -> &'static str {
        self.info().about
    }

    /// The game's shipped season, a path from the project's root: every
    /// catalogue game has one, and the per-game tests play it.
    pub fn config(self) -> &'static str {
        self.info().config
    }

    /// The game's example bot program, a Python script speaking the line
    /// protocol (a path from the project's root; `bots/README.md`).
    pub fn example_bot(self) -> &'static str {
        self.info().example_bot
    }

    /// The game's `ladder solve` command, if it has a solver.
    pub fn solve(self) -> Option<Command> {
        self.info().solve
    }

    /// The game called `name`.
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The game called `name`, or an error that lists the known ones.
    pub fn named(name: &str) -> Result<GameKind, Error> {
        GameKind::from_name(name).ok_or_else(|| Error::Usage(unknown_game(name)))
    }

    /// The game the command line names, with the parameters the name
    /// carries: `bidding` (none: the game's defaults), or `gdl:FILE.kif`
    /// for the GDL description in FILE.kif (`rules = "FILE.kif"`).
    pub fn with_params(text: &str) -> Result<(GameKind, toml::Table), Error> {
        match text.split_once(':') {
            Some((kind, file)) if kind == gdl::NAME => {
                let mut params = toml::Table::new();
                params.insert("rules".into(), toml::Value::String(file.into()));
                Ok((GameKind::Gdl, params))
            }
            _ => Ok((GameKind::named(text)?, toml::Table::new())),
        }
    }

    /// The games that speak protocol `name` (every game speaks `line`).
    pub fn speaking(protocol: &str) -> Vec<GameKind> {
        GameKind::ALL
            .into_iter()
            .filter(|k| protocol == "line" || k.visit(Protocols).contains(&protocol))
            .collect()
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// "unknown game `NAME`; known: ..."
pub fn unknown_game(name: &str) -> String {
    let known: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
    format!("unknown game `{name}`; known: {}", known.join(", "))
}

/// "only the bidding and troops games have solvers", from the entries.
pub fn no_solver(name: &str) -> String {
    let with: Vec<&str> = GameKind::ALL
        .into_iter()
        .filter(|k| k.solve().is_some())
        .map(GameKind::name)
        .collect();
    match with.as_slice() {
        [one] => format!("{name} has no solver: only the {one} game has one"),
        [init @ .., last] => format!(
            "{name} has no solver: only the {} and {last} games have solvers",
            init.join(", ")
        ),
        [] => format!("{name} has no solver: no game has one"),
    }
}

/// The protocol names a game speaks beyond the line protocol.
struct Protocols;

impl GameVisitor for Protocols {
    type Output = Vec<&'static str>;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Vec<&'static str> {
        roster.protocols.iter().map(|p| p.name).collect()
    }
}

/// Every protocol beyond the line protocol, with the game that speaks it.
fn extra_protocols() -> Vec<(&'static str, &'static str)> {
    GameKind::ALL
        .into_iter()
        .flat_map(|k| k.visit(Protocols).into_iter().map(move |p| (p, k.name())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        for kind in GameKind::ALL {
            assert_eq!(GameKind::from_name(kind.name()), Some(kind));
        }
        assert!(GameKind::named("chess")
            .unwrap_err()
            .to_string()
            .contains("known: bidding, armies"));
    }

    #[test]
    fn protocols_belong_to_their_games() {
        assert_eq!(GameKind::speaking("hackerrank"), [GameKind::Bidding]);
        assert_eq!(GameKind::speaking("line").len(), 6);
        assert!(no_solver("coordination").contains("games have solvers"));
    }
}
