//! Breakthrough bots beyond `random`: `greedy` (one ply of rules of thumb)
//! and `search` (alpha-beta, [`super::search`]).

use rand::seq::{IndexedRandom, SliceRandom};
use serde::Deserialize;

use std::sync::{Arc, Mutex};

use super::{search::Searcher, solve::Prover, Board, Breakthrough, Step};
use crate::{
    core::bot::{simple, with_params, Answer, BotError, BotRng, Builtin, Crash},
    games::cache::Cache,
    Bot, Game, Rng, Seat, TimeLeft,
};

pub const BOTS: &[Builtin<Breakthrough>] = &[
    Builtin {
        name: "greedy",
        about: "wins at once if it can, else captures the most advanced enemy piece, else steps where no enemy can capture",
        make: simple::<Breakthrough, Greedy>,
    },
    Builtin {
        name: "search",
        about: "alpha-beta with iterative deepening and a transposition table; `nodes` (20000) per move; exact on boards up to `exact_cells` (20)",
        make: |name, params| with_params(name, params, Search::new),
    },
];

/// The parameters of `search`.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchParams {
    /// Nodes searched per move: the deterministic budget.
    pub nodes: u64,
    /// Also stop at a tenth of the time the referee allows per move (the
    /// games are then no longer reproducible).
    pub use_clock: bool,
    /// On boards of at most this many cells, play exactly: only moves the
    /// prover ([`super::solve`]) shows keep a won position won. The proofs
    /// are shared by every game of the process. 0 turns it off.
    pub exact_cells: u32,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            nodes: 20_000,
            use_clock: false,
            exact_cells: 20,
        }
    }
}

/// The proofs of one board size, shared by every game of the process.
struct Exact {
    prover: Prover,
    /// A proof ran past the limit: this board is played by search alone.
    hopeless: bool,
}

/// The most nodes one proof may take before the board is left to search.
const PROOF_LIMIT: u64 = 20_000_000;

/// The exact winning moves of the side to move, where the board is small
/// enough (`None` where it is not, or the proof is too hard).
fn exact_winning_moves(g: &Breakthrough) -> Option<Vec<Step>> {
    static PROOFS: Cache<Board, Mutex<Exact>> = Cache::new();
    let shared: Arc<Mutex<Exact>> = PROOFS.get(g.board, || {
        Mutex::new(Exact {
            prover: Prover::with_limit(PROOF_LIMIT),
            hopeless: false,
        })
    });
    let mut exact = shared.lock().unwrap_or_else(|e| e.into_inner());
    if exact.hopeless {
        return None;
    }
    let found = exact.prover.winning_moves(g);
    exact.hopeless = found.is_none();
    found
}

/// Alpha-beta search within a node budget. The seed shuffles the root moves
/// before ordering, so among equally good moves the choice varies by game.
pub struct Search {
    params: SearchParams,
    searcher: Option<Searcher>,
    rng: BotRng,
}

impl Search {
    pub fn new(params: &SearchParams) -> Self {
        Search {
            params: params.clone(),
            searcher: None,
            rng: BotRng::default(),
        }
    }
}

impl Bot<Breakthrough> for Search {
    fn new_game(&mut self, _: &Breakthrough, _: Seat, seed: u64) -> Result<(), BotError> {
        self.rng.reseed(seed);
        // a fresh table each game, so a game does not depend on the last one
        self.searcher = Some(Searcher::new(18));
        Ok(())
    }

    fn choose(
        &mut self,
        game: &Breakthrough,
        seat: Seat,
        time: TimeLeft,
    ) -> Result<Answer<Step>, BotError> {
        let mut root = game.legal_moves(seat);
        let cells = u32::from(game.board.width) * u32::from(game.board.height);
        if cells <= self.params.exact_cells {
            if let Some(winning) = exact_winning_moves(game) {
                // won: search picks among the moves that keep it won; lost:
                // search picks the stoutest defence among all moves
                if !winning.is_empty() {
                    root = winning;
                }
            }
        }
        root.shuffle(&mut self.rng);
        let searcher = self.searcher.get_or_insert_with(|| Searcher::new(18));
        let clock = self.params.use_clock.then_some(time);
        let found = searcher
            .search(game, root, self.params.nodes.max(1), clock)
            .ok_or_else(|| BotError::Crash(Crash::Unplayable("no legal move".into())))?;
        // the search's value of the move, from its side: about 100 a piece,
        // near ±1,000,000 for a win it has found
        Ok(Answer {
            score: Some(found.score),
            ..Answer::from(found.best)
        })
    }
}

/// One-ply greedy play: a winning step, else the capture of the enemy piece
/// nearest its goal, else a random step onto a cell no enemy piece attacks,
/// else any random step.
#[derive(Default)]
pub struct Greedy {
    rng: BotRng,
}

impl Bot<Breakthrough> for Greedy {
    fn new_game(&mut self, _: &Breakthrough, _: Seat, seed: u64) -> Result<(), BotError> {
        self.rng.reseed(seed);
        Ok(())
    }

    fn choose(
        &mut self,
        game: &Breakthrough,
        seat: Seat,
        _: TimeLeft,
    ) -> Result<Answer<Step>, BotError> {
        let moves = game.legal_moves(seat);
        let enemy = game.pieces[seat.other()];
        let pick = |rng: &mut Rng, steps: &[Step]| steps.choose(rng).copied();
        let b = game.board;
        let progress = |seat: Seat, square: u8| b.progress(seat, square);
        if let Some(win) = moves.iter().find(|s| progress(seat, s.to) == b.height - 1) {
            return Ok(Answer::from(*win));
        }
        let captures: Vec<Step> = moves
            .iter()
            .copied()
            .filter(|s| enemy & (1 << s.to) != 0)
            .collect();
        if let Some(most) = captures.iter().map(|s| progress(seat.other(), s.to)).max() {
            let best: Vec<Step> = captures
                .into_iter()
                .filter(|s| progress(seat.other(), s.to) == most)
                .collect();
            return Ok(Answer::from(pick(&mut self.rng, &best).expect("non-empty")));
        }
        let attacked = game.attacks(seat.other());
        let safe: Vec<Step> = moves
            .iter()
            .copied()
            .filter(|s| attacked & (1 << s.to) == 0)
            .collect();
        let chosen = pick(&mut self.rng, &safe).or_else(|| pick(&mut self.rng, &moves));
        chosen
            .map(Answer::from)
            .ok_or_else(|| BotError::Crash(Crash::Unplayable("no legal move".into())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        core::{bot::RandomBot, referee::play_game},
        games::breakthrough::BreakthroughParams,
        BySeat, GameResult,
    };

    #[test]
    fn greedy_takes_a_win_and_the_most_dangerous_capture() {
        let sq = |s: &str| 1u64 << ((s.as_bytes()[1] - b'1') * 8 + (s.as_bytes()[0] - b'a'));
        let mut bot = Greedy::default();
        // white can win from c7 and could also capture on d5
        let g = Breakthrough::from_pieces(sq("c7") | sq("c4"), sq("d5") | sq("h8"), Seat::First);
        let step = bot
            .choose(
                &g,
                Seat::First,
                TimeLeft::new(std::time::Duration::from_secs(1), std::time::Duration::ZERO),
            )
            .unwrap()
            .mv;
        assert_eq!(
            (step.from, step.to / 8),
            (sq("c7").trailing_zeros() as u8, 7),
            "{step}"
        );
        // two captures: the black piece on b2 is one step from winning
        let g = Breakthrough::from_pieces(
            sq("a1") | sq("e4"),
            sq("b2") | sq("f5") | sq("h8"),
            Seat::First,
        );
        assert_eq!(
            bot.choose(
                &g,
                Seat::First,
                TimeLeft::new(std::time::Duration::from_secs(1), std::time::Duration::ZERO)
            )
            .unwrap()
            .mv
            .to_string(),
            "a1b2"
        );
    }

    /// Wins of `a` over `games` colour-balanced games against `b`.
    fn wins(
        params: &BreakthroughParams,
        a: &dyn Fn() -> Box<dyn Bot<Breakthrough>>,
        b: &dyn Fn() -> Box<dyn Bot<Breakthrough>>,
        games: u64,
    ) -> usize {
        let start = Breakthrough::new(params).unwrap();
        (0..games)
            .filter(|&g| {
                let (mut x, mut y) = (a(), b());
                let seat = if g % 2 == 0 {
                    Seat::First
                } else {
                    Seat::Second
                };
                let bots: BySeat<&mut dyn Bot<Breakthrough>> = match seat {
                    Seat::First => BySeat::new(x.as_mut(), y.as_mut()),
                    Seat::Second => BySeat::new(y.as_mut(), x.as_mut()),
                };
                let played = play_game(&start, bots, BySeat::new(g, g + 1000), 1000);
                played.result == GameResult::win(seat)
            })
            .count()
    }

    fn search(nodes: u64) -> impl Fn() -> Box<dyn Bot<Breakthrough>> {
        move || {
            Box::new(Search::new(&SearchParams {
                nodes,
                ..SearchParams::default()
            }))
        }
    }

    #[test]
    fn search_beats_greedy_and_a_larger_budget_beats_a_smaller() {
        let params = BreakthroughParams::default();
        let greedy = || -> Box<dyn Bot<Breakthrough>> { Box::new(Greedy::default()) };
        let w = wins(&params, &search(20_000), &greedy, 40);
        assert!(w >= 38, "search won {w} of 40 against greedy");
        let w = wins(&params, &search(20_000), &search(2_000), 40);
        assert!(
            w >= 28,
            "search at 20000 nodes won {w} of 40 against 2000 nodes"
        );
    }

    #[test]
    fn search_is_reproducible_and_the_seed_varies_its_games() {
        let params = BreakthroughParams::default();
        let start = Breakthrough::new(&params).unwrap();
        let game = |seed: u64| {
            let (mut a, mut b) = (search(3_000)(), search(3_000)());
            let p = play_game(
                &start,
                BySeat::new(a.as_mut(), b.as_mut()),
                BySeat::new(seed, seed + 1),
                1000,
            );
            p.turns
                .iter()
                .map(|t| format!("{:?}", t))
                .collect::<Vec<_>>()
        };
        assert_eq!(game(5), game(5));
        assert_ne!(game(5), game(6));
    }

    #[test]
    fn search_wins_at_once_and_stops_a_runner() {
        let sq = |s: &str| 1u64 << ((s.as_bytes()[1] - b'1') * 8 + (s.as_bytes()[0] - b'a'));
        let time = TimeLeft::new(std::time::Duration::from_secs(1), std::time::Duration::ZERO);
        let mut bot = search(5_000)();
        bot.new_game(
            &Breakthrough::new(&BreakthroughParams::default()).unwrap(),
            Seat::First,
            1,
        )
        .unwrap();
        // white wins from c7 at once
        let g = Breakthrough::from_pieces(sq("c7") | sq("a2"), sq("h8") | sq("a7"), Seat::First);
        let m = bot.choose(&g, Seat::First, time).unwrap().mv;
        assert_eq!(m.to / 8, 7, "{m}");
        // black's runner on e2 must be captured by d1 or f1
        let g = Breakthrough::from_pieces(sq("d1") | sq("a4"), sq("e2") | sq("h8"), Seat::First);
        let m = bot.choose(&g, Seat::First, time).unwrap().mv;
        assert_eq!(m.to_string(), "d1e2");
    }

    #[test]
    fn search_rejects_unknown_parameters() {
        let table: toml::Table = "depth = 3".parse().unwrap();
        let err = (BOTS[1].make)("search", &table).err().unwrap();
        assert_eq!(err.key.as_deref(), Some("depth"));
        let table: toml::Table = "nodes = 500\nuse_clock = true".parse().unwrap();
        assert!((BOTS[1].make)("search", &table).is_ok());
    }

    #[test]
    fn greedy_beats_random_clearly() {
        let params = BreakthroughParams::default();
        let mut wins = 0;
        for game in 0..200u64 {
            let (mut greedy, mut random) = (Greedy::default(), RandomBot::new());
            let seat = if game % 2 == 0 {
                Seat::First
            } else {
                Seat::Second
            };
            let bots: BySeat<&mut dyn Bot<Breakthrough>> = match seat {
                Seat::First => BySeat::new(&mut greedy, &mut random),
                Seat::Second => BySeat::new(&mut random, &mut greedy),
            };
            let played = play_game(
                &Breakthrough::new(&params).unwrap(),
                bots,
                BySeat::new(game, game + 1000),
                1000,
            );
            wins += usize::from(played.result == GameResult::win(seat));
        }
        assert!(wins >= 180, "greedy won only {wins} of 200");
    }
}
