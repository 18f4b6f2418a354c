//! The top floor: the one list of games ladder plays, and the only code that
//! names one. Each entry gives the game's rules type, its built-in bots, the
//! protocols it speaks beyond the line protocol, and its extra commands.
//!
//! Adding a game means a folder under `games/` and one line in each `match`
//! below (the compiler lists every place). [`GameKind::visit`] hands code that
//! works for any game its game's type and [`Roster`], so everything below this
//! file stays generic and statically dispatched (the idea of DESIGN's
//! "one exhaustive `match` on `GameKind`", in place of a plugin registry).

use crate::show::Show;
use crate::{
    core::error::Error,
    games::{armies, bidding, breakthrough, coordination, gdl, troops},
    plan::Roster,
};

/// Every game ladder plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Bidding,
    Armies,
    Troops,
    Coordination,
    Breakthrough,
    Gdl,
}

/// Code that runs for one game type, chosen at run time by [`GameKind::visit`].
pub trait GameVisitor {
    type Output;
    fn visit<G: Show>(self, roster: &Roster<G>) -> Self::Output;
}

/// A game's extra command (`ladder solve GAME ARGS...`): the words after the
/// game's name in, the text to print out.
pub type Command = fn(&[String]) -> Result<String, Error>;

/// The catalogue entry of one game, for code that knows its game at compile time.
pub const BIDDING: Roster<bidding::Bidding> = Roster {
    game: bidding::NAME,
    builtins: bidding::BOTS,
    protocols: &[bidding::hackerrank::HACKERRANK],
    elsewhere: extra_protocols,
};
/// The catalogue entry of one game, for code that knows its game at compile time.
pub const ARMIES: Roster<armies::Armies> = Roster {
    game: armies::NAME,
    builtins: armies::BOTS,
    protocols: &[],
    elsewhere: extra_protocols,
};
/// The catalogue entry of one game, for code that knows its game at compile time.
pub const TROOPS: Roster<troops::Troops> = Roster {
    game: troops::NAME,
    builtins: troops::BOTS,
    protocols: &[],
    elsewhere: extra_protocols,
};
/// The catalogue entry of one game, for code that knows its game at compile time.
pub const COORDINATION: Roster<coordination::Coordination> = Roster {
    game: coordination::NAME,
    builtins: coordination::BOTS,
    protocols: &[],
    elsewhere: extra_protocols,
};
/// The catalogue entry of one game, for code that knows its game at compile time.
pub const BREAKTHROUGH: Roster<breakthrough::Breakthrough> = Roster {
    game: breakthrough::NAME,
    builtins: breakthrough::BOTS,
    protocols: &[],
    elsewhere: extra_protocols,
};

/// The catalogue entry of any game written in GDL.
pub const GDL: Roster<gdl::Gdl> = Roster {
    game: gdl::NAME,
    builtins: gdl::BOTS,
    protocols: &[],
    elsewhere: extra_protocols,
};

impl GameKind {
    pub const ALL: [GameKind; 6] = [
        GameKind::Bidding,
        GameKind::Armies,
        GameKind::Troops,
        GameKind::Coordination,
        GameKind::Breakthrough,
        GameKind::Gdl,
    ];

    /// Calls `visitor` with this game's type and roster.
    pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        match self {
            GameKind::Bidding => visitor.visit(&BIDDING),
            GameKind::Armies => visitor.visit(&ARMIES),
            GameKind::Troops => visitor.visit(&TROOPS),
            GameKind::Coordination => visitor.visit(&COORDINATION),
            GameKind::Breakthrough => visitor.visit(&BREAKTHROUGH),
            GameKind::Gdl => visitor.visit(&GDL),
        }
    }

    /// The name configs and the command line use.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Bidding => bidding::NAME,
            GameKind::Armies => armies::NAME,
            GameKind::Troops => troops::NAME,
            GameKind::Coordination => coordination::NAME,
            GameKind::Breakthrough => breakthrough::NAME,
            GameKind::Gdl => gdl::NAME,
        }
    }

    /// One line for `ladder list games`.
    pub fn about(self) -> &'static str {
        match self {
            GameKind::Bidding => bidding::ABOUT,
            GameKind::Armies => armies::ABOUT,
            GameKind::Troops => troops::ABOUT,
            GameKind::Coordination => coordination::ABOUT,
            GameKind::Breakthrough => breakthrough::ABOUT,
            GameKind::Gdl => gdl::ABOUT,
        }
    }

    /// The game's shipped season, a path from the project's root: every
    /// catalogue game has one, and the per-game tests play it.
    pub fn config(self) -> &'static str {
        match self {
            GameKind::Bidding => "configs/bidding.toml",
            GameKind::Armies => "configs/armies.toml",
            GameKind::Troops => "configs/troops.toml",
            GameKind::Coordination => "configs/coordination.toml",
            GameKind::Breakthrough => "configs/breakthrough.toml",
            GameKind::Gdl => "configs/gdl-tictactoe.toml",
        }
    }

    /// The game's example bot program, a Python script speaking the line
    /// protocol (a path from the project's root; `bots/README.md`).
    pub fn example_bot(self) -> &'static str {
        match self {
            GameKind::Bidding => "bots/python/bidding_bot.py",
            GameKind::Armies => "bots/python/armies_bot.py",
            GameKind::Troops => "bots/python/troops_bot.py",
            GameKind::Coordination => "bots/python/coordination_bot.py",
            GameKind::Breakthrough => "bots/python/breakthrough_bot.py",
            GameKind::Gdl => "bots/python/gdl_tictactoe_bot.py",
        }
    }

    /// The game's `ladder solve` command, if it has a solver.
    pub fn solve(self) -> Option<Command> {
        match self {
            GameKind::Bidding => Some(bidding::solve::command),
            GameKind::Armies => Some(armies::solve::command),
            GameKind::Troops => Some(troops::solve::command),
            GameKind::Breakthrough => Some(breakthrough::solve::command),
            GameKind::Coordination | GameKind::Gdl => None,
        }
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
