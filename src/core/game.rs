//! The `Game` trait every game implements, and its vocabulary: results and
//! illegal moves. Nothing here names a game; the catalogue lists them.
//!
//! One interface serves alternating and simultaneous games: [`Game::to_act`] says
//! which seats move now (one seat, both, or none once the game is over), and
//! [`Game::apply`] takes one move per acting seat (the idea of OpenSpiel's
//! `CurrentPlayer` and `ApplyActions`). Moves print and parse as their wire form
//! (`Display`/`FromStr`), shared by the journal, the protocol and the docs.
//! Parsing checks syntax only; [`Game::check`] checks the rules.

use std::{fmt, str::FromStr};

use rand::Rng as _;
use serde::{de::DeserializeOwned, Deserialize, Serialize};

use crate::{
    core::{
        error::Invalid,
        seat::{BySeat, Seat},
    },
    Rng,
};

/// A move that parses but breaks the rules, with the rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct IllegalMove(pub String);

impl IllegalMove {
    pub fn new(why: impl Into<String>) -> Self {
        IllegalMove(why.into())
    }
}

/// The parameters of a game whose season gives none: what serde's defaults
/// make of an empty table, or why the game needs them.
pub fn default_params<G: Game>() -> Result<G::Params, Invalid> {
    toml::Table::new()
        .try_into()
        .map_err(|e: toml::de::Error| Invalid::new(e.message()))
}

/// Checks that parameter `key` lies in `range`, for [`Game::new`].
pub fn check_range(
    key: &str,
    value: u32,
    range: std::ops::RangeInclusive<u32>,
) -> Result<(), Invalid> {
    if range.contains(&value) {
        Ok(())
    } else {
        Err(Invalid::of(
            key,
            format!(
                "{key} must be {}..={}, got {value}",
                range.start(),
                range.end()
            ),
        ))
    }
}

/// The rules of one two-player game.
///
/// A game may be native (a Rust type per game, its name a constant) or
/// defined at run time (a rules file read when the season is planned): so its
/// name is read from a position, its construction may fail, and its
/// parameters need not have defaults. A season builds the start position
/// once, when it is planned, and every game starts from a clone of it; the
/// hot loop stays statically dispatched.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move; `Display` and `FromStr` are its wire form. Parsing checks
    /// syntax only, and its error says the expected form with an example
    /// (`a bid is a whole number like `12`, not `x``), for bot authors.
    type Move: Clone
        + Eq
        + fmt::Debug
        + fmt::Display
        + FromStr<Err = String>
        + Send
        + Sync
        + 'static;
    /// The game's parameters as read from `[season.params]`. A season without
    /// that table reads an empty one, so defaults come from serde's
    /// `#[serde(default)]`; a game whose parameters have no sensible default
    /// leaves it out, and a config that omits them gets a clear error.
    type Params: Serialize + DeserializeOwned + Clone + fmt::Debug + Send + Sync + 'static;

    /// The start position for `params`, or why they make no game: a value out
    /// of range or, for a game defined at run time, a rules file that does
    /// not parse or a game that does not have two players.
    fn new(params: &Self::Params) -> Result<Self, Invalid>;

    /// The game's name, as configs, journals and the protocol's greeting show it.
    fn name(&self) -> &str;

    /// The game's name in the catalogue, when it is not [`Game::name`]: a
    /// game defined at run time is named after its rules file but listed
    /// under its kind (`gdl`).
    fn catalogue_name(&self) -> &str {
        self.name()
    }

    /// `params` as given in folder `dir` (a config's folder; the working
    /// folder for the command line): a game whose parameters name files
    /// reads them here, relative to `dir`, so the parameters a season
    /// records stand on their own. By default unchanged.
    fn params_in(params: Self::Params, dir: &std::path::Path) -> Result<Self::Params, Invalid> {
        let _ = dir;
        Ok(params)
    }

    /// Which seats move now: one (alternating), both (simultaneous), none (over).
    fn to_act(&self) -> BySeat<bool>;

    /// Every legal move of `seat` now; empty when `seat` is not to act.
    fn legal_moves(&self, seat: Seat) -> Vec<Self::Move>;

    /// A move drawn uniformly from `legal_moves(seat)`. Games override this when
    /// they can draw without listing every move.
    fn random_move(&self, seat: Seat, rng: &mut Rng) -> Self::Move {
        let moves = self.legal_moves(seat);
        moves[rng.random_range(0..moves.len())].clone()
    }

    /// Appends `mv`'s wire form, its `Display` text, to `out`: each move of
    /// a journal line is written so. A game may write the same text
    /// faster by hand, without `core::fmt`.
    fn write_move(mv: &Self::Move, out: &mut Vec<u8>) {
        use std::io::Write as _;
        write!(out, "{mv}").expect("writing into a Vec");
    }

    /// Whether `seat` may play `mv` now.
    fn check(&self, seat: Seat, mv: &Self::Move) -> Result<(), IllegalMove>;

    /// Plays one move for each acting seat at once.
    ///
    /// # Panics
    /// May panic, or corrupt the position, if a move did not pass `check` or a
    /// seat's move is missing or extra.
    fn apply(&mut self, moves: &BySeat<Option<Self::Move>>);

    /// The goal value of each seat once the game is over.
    fn outcome(&self) -> Option<BySeat<i32>>;

    /// Why the game ended without the rules saying how it goes on, where
    /// it did: a GDL state past its reasoning budget (`gdl/prover.rs`).
    /// Such an ending is journaled as `ill-formed`, with this reason.
    fn ill_formed(&self) -> Option<String> {
        None
    }

    /// The largest goal value a seat can reach; a forfeit gives it to the winner.
    fn max_goal(&self) -> i32;

    /// Appends everything `seat` may see now, as one line of words (the
    /// protocol's state line), to `out`: a bot program is sent one every
    /// move, written straight into the request's buffer ([`Words`] helps).
    fn write_observation(&self, seat: Seat, out: &mut String);

    /// [`Game::write_observation`]'s line as a `String` of its own.
    fn observation(&self, seat: Seat) -> String {
        let mut line = String::with_capacity(64);
        self.write_observation(seat, &mut line);
        line
    }

    /// The position `text` describes, in the form [`Game::position`]
    /// writes, in a game with `params`: a start other than the first
    /// position (a season's openings). A position that is over is refused.
    /// By default a game has no other start.
    fn from_position(params: &Self::Params, text: &str) -> Result<Self, Invalid> {
        let _ = (params, text);
        Err(Invalid::new(
            "this game starts only from its own first position",
        ))
    }

    /// The position as one line of text, in the form
    /// [`Game::from_position`] reads: by default what the first seat
    /// observes (every game's observation is its whole state).
    fn position(&self) -> String {
        self.observation(Seat::First)
    }
}

/// One uniformly random move for each seat that acts now (none for the
/// others): a random turn, for playouts and tests.
pub fn random_turn<G: Game>(game: &G, rng: &mut Rng) -> BySeat<Option<G::Move>> {
    let acting = game.to_act();
    BySeat::from_fn(|s: Seat| acting[s].then(|| game.random_move(s, rng)))
}

/// The numbers of a position written in `form`, where `#` stands for a
/// whole number and every other word must be as written:
/// `fields("round 2 of 5", "round # of #")` gives `[2, 5]`.
pub fn fields(text: &str, form: &str) -> Result<Vec<u64>, Invalid> {
    let bad = || Invalid::new(format!("a position is written `{form}`, not `{text}`"));
    let (words, pattern): (Vec<&str>, Vec<&str>) =
        (text.split_whitespace().collect(), form.split(' ').collect());
    if words.len() != pattern.len() {
        return Err(bad());
    }
    let mut numbers = Vec::new();
    for (w, p) in words.iter().zip(&pattern) {
        match *p {
            "#" => numbers.push(w.parse().map_err(|_| bad())?),
            literal if literal == *w => {}
            _ => return Err(bad()),
        }
    }
    Ok(numbers)
}

/// Checks a position's `round R of N` against the game's `rounds`: R is
/// the round to play, 1..=N.
pub fn round_of(round: u64, of: u64, rounds: u32) -> Result<(), Invalid> {
    if of != u64::from(rounds) {
        return Err(Invalid::new(format!(
            "the position is of a game of {of} rounds, the season's has {rounds}"
        )));
    }
    if round == 0 || round > of {
        return Err(Invalid::new(format!(
            "round {round} is not one of 1..={of}"
        )));
    }
    Ok(())
}

/// The two scores of a position after `played` rounds of a game whose
/// every round is worth `per_round` points in all (armies 2, troops 6):
/// they must add up to what those rounds gave, so a score no game reaches
/// (nor one near `i32::MAX`, which the next round would overflow) is refused.
pub fn scores_after(
    first: u64,
    second: u64,
    played: u32,
    per_round: u32,
) -> Result<BySeat<i32>, Invalid> {
    let total = u64::from(played) * u64::from(per_round);
    if first.checked_add(second) != Some(total) {
        return Err(Invalid::new(format!(
            "scores {first} and {second} after {}: a round is worth {per_round} points in all, so they add up to {total}",
            crate::core::text::count(played, "round")
        )));
    }
    // at most rounds x per_round, which a game's parameters keep within i32
    let score = |x: u64| i32::try_from(x).map_err(|_| Invalid::new(format!("{x} is too large")));
    Ok(BySeat::new(score(first)?, score(second)?))
}

/// Refuses a start position that is already over.
pub fn not_over<G: Game>(game: G) -> Result<G, Invalid> {
    match game.outcome() {
        Some(_) => Err(Invalid::new("a start position must not be over")),
        None => Ok(game),
    }
}

/// Moves as `help` lists them: wrapped at 72 columns, at most 200, with
/// the first as an example of the form.
pub fn list_moves<M: fmt::Display>(moves: &[M]) -> String {
    const SHOWN: usize = 200;
    let Some(first) = moves.first() else {
        return "You have no move now.".to_string();
    };
    let mut out = format!("Legal moves ({}):\n", moves.len());
    let mut line = String::new();
    for m in moves.iter().take(SHOWN) {
        let m = m.to_string();
        if !line.is_empty() && line.len() + 1 + m.len() > 72 {
            out.push_str(&format!("  {line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&m);
    }
    out.push_str(&format!("  {line}\n"));
    if moves.len() > SHOWN {
        out.push_str(&format!("  ... and {} more\n", moves.len() - SHOWN));
    }
    out.push_str(&format!("Type one as shown, e.g. `{first}`."));
    out
}

/// A line of words and whole numbers separated by single blanks, written
/// into a caller's `String` without `format!`'s machinery: an observation
/// is written for every move a bot program is asked for, and three
/// numbers through `format!` cost as much as a third of what ladder adds
/// to a pipe round trip.
///
/// `Words::on(&mut out, "round").number(3).word("of").number(20)` appends
/// `"round 3 of 20"` to `out`.
pub struct Words<'a>(&'a mut String);

impl<'a> Words<'a> {
    /// Appends `first` to `out`, the start of the words.
    pub fn on(out: &'a mut String, first: &str) -> Words<'a> {
        out.push_str(first);
        Words(out)
    }

    /// Appends `round R of N` to `out`, for the round to play (`round`,
    /// counted from 0) of `rounds`: the start of the observations of the
    /// games played in rounds, which [`round_of`] checks when read back.
    pub fn round_of(out: &'a mut String, round: u32, rounds: u32) -> Words<'a> {
        Words::on(out, "round")
            .number(round + 1)
            .word("of")
            .number(rounds)
    }

    /// A blank, then `word`.
    pub fn word(self, word: &str) -> Words<'a> {
        self.0.push(' ');
        self.0.push_str(word);
        self
    }

    /// A blank, then `n` in decimal.
    pub fn number(self, n: impl itoa::Integer) -> Words<'a> {
        self.word(itoa::Buffer::new().format(n))
    }
}

/// How a finished game counts in the standings.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    First,
    Second,
    Draw,
}

impl GameResult {
    /// The result the goal values give: the higher goal wins.
    pub fn from_goals(goals: BySeat<i32>) -> Self {
        match goals.first.cmp(&goals.second) {
            std::cmp::Ordering::Greater => GameResult::First,
            std::cmp::Ordering::Less => GameResult::Second,
            std::cmp::Ordering::Equal => GameResult::Draw,
        }
    }

    /// A win for `seat`.
    pub fn win(seat: Seat) -> Self {
        match seat {
            Seat::First => GameResult::First,
            Seat::Second => GameResult::Second,
        }
    }

    /// Standings points of `seat`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn points(self, seat: Seat) -> f64 {
        match (self, seat) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::First, Seat::First) | (GameResult::Second, Seat::Second) => 1.0,
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_joined_by_single_blanks_and_numbers_written_in_decimal() {
        let mut first = String::new();
        Words::on(&mut first, "round");
        assert_eq!(first, "round");
        let mut out = "turn ".to_string();
        Words::on(&mut out, "round")
            .number(3u32)
            .word("of")
            .number(20u32)
            .word("score")
            .number(-7i32)
            .number(0i64)
            .number(u64::MAX);
        assert_eq!(
            out,
            format!("turn round 3 of 20 score -7 0 {}", u64::MAX),
            "appended to what was there"
        );
        let mut round = String::new();
        Words::round_of(&mut round, 0, 20).word("score");
        assert_eq!(round, "round 1 of 20 score", "the round to play, from 1");
    }

    #[test]
    fn help_lists_moves_wrapped_with_an_example_and_cuts_long_lists() {
        let moves: Vec<u32> = (100..130).collect();
        let help = list_moves(&moves);
        assert!(help.starts_with("Legal moves (30):\n  100 101"), "{help}");
        assert!(help.lines().all(|l| l.len() <= 74), "{help}");
        assert!(help.ends_with("Type one as shown, e.g. `100`."), "{help}");
        let many: Vec<u32> = (0..250).collect();
        assert!(list_moves(&many).contains("... and 50 more"));
        assert_eq!(list_moves::<u32>(&[]), "You have no move now.");
    }
}
