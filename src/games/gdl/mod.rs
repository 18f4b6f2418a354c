//! GDL, the General Game Playing world's Game Description Language: any
//! game written in it, read from a file when a season is planned.
//!
//! - `kif.rs`: the syntax (symbols, variables, lists), with line and column;
//! - `logic.rs`: rules and their literals, and GDL's restrictions checked;
//! - `callers.rs`: rules that leave a variable unbound where every use binds
//!   it (not valid GDL, played by top-down provers), given the values
//!   their uses can pass;
//! - `domains.rs`: each argument's values, a cheap over-approximation of
//!   what the rules derive (for `callers.rs` where that is too large);
//! - `store.rs`: ground terms, each stored once, by number;
//! - `join.rs`: a rule's literals matched against facts, through indexes;
//! - `budget.rs`: what loading may cost, and what it says while it takes long;
//! - `ground.rs`: every rule instantiated over the relaxed model;
//! - `lists.rs`: a list of numbers per node, kept flat (rules, edges);
//! - `machine.rs`: the reasoner, propositions evaluated in dependency order;
//! - `legal.rs`: each role's legal moves, a bit per move rule that holds;
//! - `prover.rs`: reasoning state by state, for a description too large
//!   to ground whole (grounding on demand);
//! - `rules.rs`: the catalogue's `gdl` game (any two-role description);
//! - `bots.rs`: bots for any GDL game (`greedy`, `uct`);
//! - `mcts.rs`: `mcts`, the general game player;
//! - `player.rs`: a GDL bot as a GGP player over HTTP (`ladder ggp-player`);
//! - `matches.rs`: a season's games as GGP match JSON (`ladder export`);
//! - `twin.rs`: the description as GGP players get it (`protocol = "ggp"`).
//!
//! The descriptions ladder ships are in `games/gdl/` at the project's top.
//!
//! Why grounding: a GDL game's states and moves are finite, and after
//! grounding each state costs one pass over propositions held in a flat
//! array, with no unification, no variable bindings and no allocation: the
//! propositional-network family of reasoners, the fastest known for GDL.
//! The price is the grounding itself, paid once per season (measured in
//! docs/PERFORMANCE.md). A description too large to ground whole within
//! its budget is reasoned about state by state instead (`prover.rs`):
//! slower a state, but only the states played are worked out.

mod bots;
pub mod budget;
mod callers;
mod domains;
pub mod ground;
mod hash;
mod join;
pub mod kif;
mod legal;
mod lists;
pub mod logic;
pub mod machine;
pub mod matches;
pub mod mcts;
pub mod player;
pub mod prover;
pub(crate) mod rules;
pub mod store;
pub mod twin;

pub use bots::*;
pub use rules::*;

/// The game's name in configs: `game = "gdl"`.
pub const NAME: &str = "gdl";
/// One line for `ladder list games`.
pub const ABOUT: &str =
    "any two-role game written in GDL, from [season.params] rules = \"FILE.kif\" (or gdl:FILE.kif)";

/// The game's catalogue entry.
pub const ENTRY: super::Entry<Gdl> = super::Entry {
    name: NAME,
    about: ABOUT,
    builtins: BOTS,
    protocols: &[twin::GGP],
    config: "configs/gdl-tictactoe.toml",
    example_bot: "bots/python/gdl_tictactoe_bot.py",
    solve: None,
};
