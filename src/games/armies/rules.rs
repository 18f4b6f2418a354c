//! Armies: a repeated contest of committed forces (from a short rule text based
//! on the Stanford GDL game "Colonel Blotto's Game, Variant 1").
//!
//! Rules:
//! - Both players start with `armies` armies and 0 points; the game lasts `rounds` rounds.
//! - Each round both players commit, at once, a whole number of armies from 0 to
//!   what they hold.
//! - The larger commitment scores 2 points, the smaller 0; equal commitments score
//!   1 each.
//! - With `commit = "spend"` (the default) committed armies are used up: they are
//!   subtracted from what the player holds. This is what the original GDL game
//!   does; the rule text's "adding the committed armies" misreads its sum rule.
//!   With `commit = "add"` (the rule text read literally) committed armies are
//!   added to what the player holds, so holdings only grow.
//! - After the last round each player's goal is their score; the higher wins.
//!
//! Parameters (defaults): `armies` (20), `rounds` (10), `commit` ("spend").
//!
//! Moves are the number of armies committed: `7`.
//! Observation: `round R of N armies A1 A2 score S1 S2`.

use std::{fmt, str::FromStr};

use rand::Rng as _;
use serde::{Deserialize, Serialize};

use crate::{
    core::{
        error::Invalid,
        game::{check_range, fields, not_over, round_of, scores_after, Game, IllegalMove, Words},
        seat::{BySeat, Seat},
    },
    games::scoring::round_points,
    show::scene::{rounds_picture, rounds_scene, View},
    show::Show,
    Rng,
};

/// What happens to committed armies.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Commit {
    /// Committed armies are subtracted (the original GDL game).
    Spend,
    /// Committed armies are added (the seed text read literally).
    Add,
}

impl Commit {
    /// The name configs use.
    pub fn name(self) -> &'static str {
        match self {
            Commit::Spend => "spend",
            Commit::Add => "add",
        }
    }
}

/// The parameters of an armies game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ArmiesParams {
    pub armies: u32,
    pub rounds: u32,
    pub commit: Commit,
}

impl Default for ArmiesParams {
    fn default() -> Self {
        ArmiesParams {
            armies: 20,
            rounds: 10,
            commit: Commit::Spend,
        }
    }
}

/// An armies game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Armies {
    pub round: u32,
    pub rounds: u32,
    pub commit: Commit,
    pub armies: BySeat<u32>,
    pub score: BySeat<i32>,
}

/// Armies committed in one round.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Commitment(pub u32);

impl Commitment {
    /// Hands its wire form to `put`: the one text of `Display` and of
    /// journal lines ([`Game::write_move`]), by itoa, not `write!`.
    fn text<R>(&self, put: impl FnOnce(&str) -> R) -> R {
        put(itoa::Buffer::new().format(self.0))
    }
}

impl fmt::Display for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.text(|s| f.write_str(s))
    }
}

impl FromStr for Commitment {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        s.parse::<u32>()
            .map(Commitment)
            .map_err(|_| format!("a commitment is a whole number of armies like `7`, not `{s}`"))
    }
}

/// Holdings grow without bound under `commit = "add"`; this caps them so the
/// arithmetic never overflows (20 armies doubled for 10 rounds is 20,480).
const MAX_ARMIES: u32 = 1 << 30;

/// The name configs and the command line use.
pub const NAME: &str = "armies";
/// One line for `ladder list games`.
pub const ABOUT: &str =
    "commit armies each round; the larger commitment scores (committed armies are spent)";

impl Game for Armies {
    type Move = Commitment;
    type Params = ArmiesParams;

    fn new(p: &ArmiesParams) -> Result<Self, Invalid> {
        check_params(p)?;
        Ok(Armies {
            round: 0,
            rounds: p.rounds,
            commit: p.commit,
            armies: BySeat::new(p.armies, p.armies),
            score: BySeat::new(0, 0),
        })
    }

    fn name(&self) -> &str {
        NAME
    }

    fn to_act(&self) -> BySeat<bool> {
        let acting = self.round < self.rounds;
        BySeat::new(acting, acting)
    }

    fn legal_moves(&self, seat: Seat) -> Vec<Commitment> {
        if self.round >= self.rounds {
            return Vec::new();
        }
        (0..=self.armies[seat]).map(Commitment).collect()
    }

    fn random_move(&self, seat: Seat, rng: &mut Rng) -> Commitment {
        Commitment(rng.random_range(0..=self.armies[seat]))
    }

    fn write_move(mv: &Commitment, out: &mut Vec<u8>) {
        mv.text(|s| out.extend_from_slice(s.as_bytes()))
    }

    fn check(&self, seat: Seat, mv: &Commitment) -> Result<(), IllegalMove> {
        if self.round >= self.rounds {
            Err(IllegalMove::new("the game is over"))
        } else if mv.0 > self.armies[seat] {
            Err(IllegalMove::new(format!(
                "commits {} armies but holds {}",
                mv.0, self.armies[seat]
            )))
        } else {
            Ok(())
        }
    }

    fn apply(&mut self, moves: &BySeat<Option<Commitment>>) {
        let commits = moves.map(|m| m.expect("both players commit every round").0);
        let points = round_points(commits.first, commits.second);
        for seat in Seat::ALL {
            self.score[seat] += points[seat];
            self.armies[seat] = match self.commit {
                Commit::Spend => self.armies[seat] - commits[seat],
                Commit::Add => (self.armies[seat] + commits[seat]).min(MAX_ARMIES),
            };
        }
        self.round += 1;
    }

    fn outcome(&self) -> Option<BySeat<i32>> {
        (self.round >= self.rounds).then_some(self.score)
    }

    fn max_goal(&self) -> i32 {
        2 * self.rounds as i32
    }

    fn from_position(p: &ArmiesParams, text: &str) -> Result<Self, Invalid> {
        let start = Armies::new(p)?;
        let f = fields(text, "round # of # armies # # score # #")?;
        let small =
            |x: u64| u32::try_from(x).map_err(|_| Invalid::new(format!("{x} is too large")));
        round_of(f[0], f[1], start.rounds)?;
        // spent armies only shrink a holding, added ones only grow it (to the cap)
        let (least, most) = match start.commit {
            Commit::Spend => (0, p.armies),
            Commit::Add => (p.armies, MAX_ARMIES),
        };
        let holding = |x: u64| {
            match small(x)? {
            a if (least..=most).contains(&a) => Ok(a),
            a => Err(Invalid::new(format!(
                "a holding of {a} armies: with commit = \"{}\" and {} to start, holdings lie in {least}..={most}",
                start.commit.name(),
                p.armies
            ))),
        }
        };
        let round = small(f[0])? - 1;
        not_over(Armies {
            round,
            armies: BySeat::new(holding(f[2])?, holding(f[3])?),
            score: scores_after(f[4], f[5], round, 2)?,
            ..start
        })
    }

    fn write_observation(&self, _seat: Seat, out: &mut String) {
        Words::round_of(out, self.round, self.rounds)
            .word("armies")
            .number(self.armies.first)
            .number(self.armies.second)
            .word("score")
            .number(self.score.first)
            .number(self.score.second);
    }
}

impl Show for Armies {
    /// The observation, or once all rounds are played, that they were.
    fn picture(&self) -> String {
        let over = self.round >= self.rounds;
        rounds_picture(self.observation(Seat::First), self.rounds, over)
    }
    const MOVE_WORD: &'static str = "commitment";
    fn scene(&self, view: &View<'_, Commitment>) -> String {
        let (you, them) = (view.seat, view.seat.other());
        let lines = [
            format!(
                "Armies: {} {}, {} {}",
                view.name(you),
                self.armies[you],
                view.name(them),
                self.armies[them]
            ),
            format!(
                "Score: {} {}, {} {}",
                view.name(you),
                self.score[you],
                view.name(them),
                self.score[them]
            ),
        ];
        rounds_scene(view, self.rounds, self.round >= self.rounds, &lines)
    }
    fn move_help(&self, seat: Seat) -> String {
        let held = self.armies[seat];
        format!(
            "Commit a whole number of armies from 0 to {held}, e.g. `{}`. The larger \
             commitment scores 2 points and equal ones 1 each; committed armies are {}.",
            held / 2,
            match self.commit {
                Commit::Spend => "spent",
                Commit::Add => "added to what you hold",
            }
        )
    }
}

/// Checks parameter values that types cannot (ranges, relations).
fn check_params(p: &ArmiesParams) -> Result<(), Invalid> {
    check_range("rounds", p.rounds, 1..=1000)?;
    check_range("armies", p.armies, 0..=1_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(g: &mut Armies, a: u32, b: u32) {
        g.check(Seat::First, &Commitment(a)).unwrap();
        g.check(Seat::Second, &Commitment(b)).unwrap();
        g.apply(&BySeat::new(Some(Commitment(a)), Some(Commitment(b))));
    }

    #[test]
    fn committed_armies_are_spent_by_default() {
        let mut g = Armies::new(&ArmiesParams::default()).unwrap();
        play(&mut g, 5, 3);
        assert_eq!(g.armies, BySeat::new(15, 17));
        assert_eq!(g.score, BySeat::new(2, 0));
        play(&mut g, 15, 15);
        assert_eq!(g.armies, BySeat::new(0, 2));
        assert_eq!(g.score, BySeat::new(3, 1));
        assert!(
            g.check(Seat::First, &Commitment(1)).is_err(),
            "no armies left"
        );
        assert!(g.check(Seat::Second, &Commitment(3)).is_err());
        assert_eq!(g.legal_moves(Seat::First), vec![Commitment(0)]);
    }

    #[test]
    fn literal_reading_adds_committed_armies() {
        let p = ArmiesParams {
            commit: Commit::Add,
            ..ArmiesParams::default()
        };
        let mut g = Armies::new(&p).unwrap();
        play(&mut g, 20, 0);
        assert_eq!(g.armies, BySeat::new(40, 20));
        assert!(g.check(Seat::First, &Commitment(40)).is_ok());
    }

    #[test]
    fn a_commitment_is_written_as_its_number_and_reads_back() {
        for n in [0, 7, 40, u32::MAX] {
            assert_eq!(Commitment(n).to_string(), format!("{n}"));
            assert_eq!(Commitment(n).to_string().parse(), Ok(Commitment(n)));
        }
    }

    #[test]
    fn ends_after_the_last_round_with_scores_as_goals() {
        let p = ArmiesParams {
            rounds: 3,
            ..ArmiesParams::default()
        };
        let mut g = Armies::new(&p).unwrap();
        for (a, b) in [(1, 2), (1, 1), (9, 0)] {
            assert_eq!(g.outcome(), None);
            play(&mut g, a, b);
        }
        assert_eq!(g.outcome(), Some(BySeat::new(3, 3)));
        assert_eq!(g.to_act(), BySeat::new(false, false));
        assert!(g.legal_moves(Seat::First).is_empty());
        assert_eq!(g.max_goal(), 6);
    }
}
