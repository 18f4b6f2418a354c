//! Bidding-game bots: the 2016 report's random and DP bidders, and `optimal`,
//! which plays the exact solution ([`super::solver`]).
//!
//! # The report's DP bidder, and what is implemented
//!
//! The report (sections 3.2-3.3) assumes "every bid is equi-probable" for the
//! opponent and computes, by dynamic programming over (opponent money, own
//! money, position, tie holder), the probability of winning for each bid,
//! then bids "the least amount" among the bids with the highest probability,
//! and "always an amount greater than 1" unless 1 is the only possible bid.
//! Its pseudocode is inconsistent: it takes a maximum over *both* players'
//! bids and then divides by the number of bid pairs (mixing a max with an
//! average), loops bids over `range(1, money)` (never bidding all-in), and in
//! `bid` evaluates one fixed successor for every candidate bid.
//!
//! Implemented here, as a well-defined algorithm with the same intent: the
//! bot's value of a state is its probability of winning when the opponent
//! bids uniformly at random among its legal bids (the report's model) and the
//! bot itself bids best in every later state:
//!
//! ```text
//! D(s) = max over own bids b of  mean over opponent bids x of  D(next(s, b, x))
//! ```
//!
//! with D = 1 where the bot has won, 0 where it has lost or drawn. It bids the
//! smallest bid reaching the highest expected value, never 1 when it has a
//! larger legal bid (the report's rule). Every non-final round lowers the total
//! money, so D is computed by increasing total money, once per process and
//! money setting, and shared by every game and thread ([`DpTable::shared`]).

use std::sync::Arc;

use rand::Rng as _;

use super::{
    exploit::Exploit,
    heuristics::{Heuristic, PositionParams},
    solver::{self, Solution, State},
    Bid, Bidding, BiddingParams,
};
use crate::{
    core::{
        bot::{bot_params, with_params, Answer, BotError, BotFactory, BotRng, Builtin, Crash},
        error::Invalid,
    },
    games::cache::Cache,
    Bot, BySeat, Seat, TimeLeft,
};

pub const BOTS: &[Builtin<Bidding>] = &[
    Builtin {
        name: "random",
        about:
            "the 2016 report's random bidder, made legal: uniform in 1..=min(max, money) (max = 20)",
        make: make_random,
    },
    Builtin {
        name: "dp",
        about:
            "the 2016 report's DP bidder: best win probability against a uniformly random opponent",
        make: make_lazy::<DpBidder>,
    },
    Builtin {
        name: "optimal",
        about: "exact play: never loses a won or drawn position, and sets the most traps",
        make: make_lazy::<Optimal>,
    },
    Builtin {
        name: "exploit",
        about: "exact play that, among the bids securing the value, picks the likeliest win against its model of the opponent",
        make: make_lazy::<Exploit>,
    },
    Builtin {
        name: "fraction",
        about: "bids `share` (0.15) of its money, plus or minus up to `noise` (0)",
        make: |name, params| with_params(name, params, Heuristic::fraction),
    },
    Builtin {
        name: "climber",
        about: "bids `start` (8), then one more than its own last bid; `noise` (0)",
        make: |name, params| with_params(name, params, Heuristic::climber),
    },
    Builtin {
        name: "mirror",
        about: "bids `start` (12), then whatever the opponent bid last round; `noise` (0)",
        make: |name, params| with_params(name, params, Heuristic::mirror),
    },
    Builtin {
        name: "position",
        about: "bids from the position alone: `bids` ([30, 22, 16, 13, 11, 9, 8, 7, 6]) at distance 1, 2, ... from its goal; `noise` (0)",
        make: make_position,
    },
    Builtin {
        name: "pacer",
        about: "bids its money divided by the steps to its goal, rounded up; `noise` (0)",
        make: |name, params| with_params(name, params, Heuristic::pacer),
    },
    Builtin {
        name: "enough",
        about: "bids `start` (12), then just enough to have beaten the opponent's last bid (one more, or the same with the draw advantage); `noise` (0)",
        make: |name, params| with_params(name, params, Heuristic::enough),
    },
];

/// The legal bids of a player holding `money`.
fn bids(money: u32) -> std::ops::RangeInclusive<u32> {
    Bidding::bid_range(money)
}

/// The report's random bidder: uniform in `1..=min(max, money)`, 0 when broke.
pub struct RandomBidder {
    max: u32,
    rng: BotRng,
}

impl Bot<Bidding> for RandomBidder {
    fn new_game(&mut self, _: &Bidding, _: Seat, seed: u64) -> Result<(), BotError> {
        self.rng.reseed(seed);
        Ok(())
    }

    fn choose(&mut self, game: &Bidding, seat: Seat, _: TimeLeft) -> Result<Answer<Bid>, BotError> {
        let money = game.money[seat];
        Ok(Answer::from(Bid(if money == 0 {
            0
        } else {
            self.rng.random_range(1..=money.min(self.max))
        })))
    }
}

/// The DP bidder's win probabilities for every state, from each seat's side.
pub struct DpTable {
    money: u32,
    length: u32,
    /// Indexed by seat, then like the solver's states.
    values: BySeat<Vec<f64>>,
}

impl DpTable {
    fn index(&self, st: &State) -> usize {
        let w = self.money as usize + 1;
        ((st.advantage.index() * (self.length as usize + 1) + st.position as usize) * w
            + st.money.first as usize)
            * w
            + st.money.second as usize
    }

    /// `seat`'s win probability in `st`, terminal states included.
    fn d(&self, seat: Seat, st: &State) -> f64 {
        let winner = if st.position == 0 {
            Some(Seat::First)
        } else if st.position >= self.length {
            Some(Seat::Second)
        } else {
            None
        };
        match winner {
            Some(w) => f64::from(u8::from(w == seat)),
            None if st.money.first == 0 && st.money.second == 0 => 0.0,
            None => self.values[seat][self.index(st)],
        }
    }

    /// Expected win probability of each own bid (in order of `bids`) of `seat`
    /// in `st` against a uniformly random opponent.
    pub fn expectations(&self, seat: Seat, st: &State) -> Vec<f64> {
        let other = seat.other();
        let (own, opp) = (st.money[seat], st.money[other]);
        let with = |mine: u32, theirs: u32| -> State {
            let (b1, b2) = if seat == Seat::First {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            Solution::next(st, b1, b2)
        };
        let opp_bids = bids(opp);
        let n = (opp_bids.end() - opp_bids.start() + 1) as f64;
        // suffix[x]: sum over opponent bids >= x of the outcome when the opponent outbids
        let hi = *opp_bids.end() as usize;
        let mut suffix = vec![0.0; hi + 2];
        for x in opp_bids.clone().rev().filter(|&x| x > 0) {
            suffix[x as usize] = suffix[x as usize + 1] + self.d(seat, &with(0, x));
        }
        bids(own)
            .map(|b| {
                // opponent bids x with lo <= x < b
                let below = b.min(*opp_bids.end() + 1).saturating_sub(*opp_bids.start()) as f64;
                let mut total = 0.0;
                if below > 0.0 {
                    total += below * self.d(seat, &with(b, 0));
                }
                if opp_bids.contains(&b) {
                    total += self.d(seat, &with(b, b));
                }
                if (b as usize) < hi {
                    total += suffix[b as usize + 1];
                }
                total / n
            })
            .collect()
    }

    /// Computes the table for `money` per player and a line of `length`.
    pub fn build(money: u32, length: u32) -> DpTable {
        let w = money as usize + 1;
        let size = 2 * (length as usize + 1) * w * w;
        let mut t = DpTable {
            money,
            length,
            values: BySeat::new(vec![0.0; size], vec![0.0; size]),
        };
        for st in solver::states_by_total_money(BySeat::new(money, money), length) {
            let i = t.index(&st);
            for seat in Seat::ALL {
                let best = t.expectations(seat, &st).into_iter().fold(0.0, f64::max);
                t.values[seat][i] = best;
            }
        }
        t
    }

    /// The table for `params`, built once per process and shared across threads.
    pub fn shared(params: &BiddingParams) -> Arc<DpTable> {
        static TABLES: Cache<(u32, u32), DpTable> = Cache::new();
        TABLES.get((params.money, params.length), || {
            DpTable::build(params.money, params.length)
        })
    }

    /// The DP bidder's bid: the smallest bid with the highest expected value,
    /// never 1 while a larger bid is legal.
    pub fn bid(&self, seat: Seat, st: &State) -> u32 {
        let own = st.money[seat];
        if own == 0 {
            return 0;
        }
        let values = self.expectations(seat, st);
        let candidates = || {
            bids(own)
                .zip(values.iter().copied())
                .filter(|&(b, _)| own == 1 || b > 1)
        };
        let best = candidates().map(|(_, v)| v).fold(f64::MIN, f64::max);
        candidates()
            .find(|&(_, v)| v >= best - 1e-12)
            .map_or(1, |(b, _)| b)
    }
}

/// The report's DP bidder.
pub struct DpBidder {
    table: Arc<DpTable>,
}

impl Bot<Bidding> for DpBidder {
    fn choose(&mut self, game: &Bidding, seat: Seat, _: TimeLeft) -> Result<Answer<Bid>, BotError> {
        Ok(Answer::from(Bid(self.table.bid(seat, &State::from(game)))))
    }
}

/// Exact play from the solution.
pub struct Optimal {
    solution: Arc<Solution>,
}

impl Optimal {
    /// The bid `optimal` plays: a bid that secures the state's value; among
    /// those, in a won state the smallest (it keeps the most money), else the
    /// one that leaves the opponent the most replies that hand `seat` a
    /// better value (the most chances to blunder), the smallest on a tie.
    pub fn bid(solution: &Solution, st: &State, seat: Seat) -> u32 {
        let value = solution.value(st).for_seat(seat);
        let secure = solution.secure_bids(st, seat);
        if value == 1 {
            return secure[0];
        }
        let traps = |b: u32| {
            bids(st.money[seat.other()])
                .filter(|&x| {
                    let (b1, b2) = if seat == Seat::First { (b, x) } else { (x, b) };
                    solution.value(&Solution::next(st, b1, b2)).for_seat(seat) > value
                })
                .count()
        };
        let mut best = (secure[0], traps(secure[0]));
        for &b in &secure[1..] {
            let t = traps(b);
            if t > best.1 {
                best = (b, t);
            }
        }
        best.0
    }
}

impl Optimal {
    /// Why a solution cannot be played with pure bids, if it cannot.
    fn unusable_for(solution: &Solution) -> Option<String> {
        (!solution.is_determined()).then(|| {
            "this money and length need mixed strategies, which optimal and exploit do not play"
                .to_string()
        })
    }
}

impl Bot<Bidding> for Optimal {
    fn choose(&mut self, game: &Bidding, seat: Seat, _: TimeLeft) -> Result<Answer<Bid>, BotError> {
        Ok(Answer::from(Bid(Optimal::bid(
            &self.solution,
            &State::from(game),
            seat,
        ))))
    }
}

/// The report's random bidder, with its `max`.
fn make_position(name: &str, params: &toml::Table) -> Result<BotFactory<Bidding>, Invalid> {
    let p: PositionParams = bot_params(name, params)?;
    if p.bids.is_empty() {
        return Err(Invalid::of(
            "bids",
            format!("bot `{name}`: `bids` needs at least one bid"),
        ));
    }
    Ok(Arc::new(move || Box::new(Heuristic::position(&p))))
}

fn make_random(_: &str, params: &toml::Table) -> Result<BotFactory<Bidding>, Invalid> {
    let max = random_max(params)?;
    Ok(Arc::new(move || {
        Box::new(RandomBidder {
            max,
            rng: BotRng::default(),
        })
    }))
}

/// A table-based bot; its table comes from the game's parameters when it first plays.
fn make_lazy<B: FromParams + Bot<Bidding> + 'static>(
    name: &str,
    params: &toml::Table,
) -> Result<BotFactory<Bidding>, Invalid> {
    crate::core::bot::no_params(name, params)?;
    Ok(Arc::new(|| Box::new(Lazy::<B>::default())))
}

fn random_max(params: &toml::Table) -> Result<u32, Invalid> {
    let mut max = 20;
    for (key, value) in params {
        match (key.as_str(), value.as_integer()) {
            ("max", Some(m)) if m >= 1 && m <= i64::from(u32::MAX) => max = m as u32,
            ("max", _) => {
                return Err(Invalid::of(
                    "max",
                    format!("bot `random`: `max` must be a whole number at least 1, got {value}"),
                ))
            }
            (other, _) => {
                return Err(Invalid::of(
                    other,
                    format!("bot `random` takes only `max`, got `{other}`"),
                ))
            }
        }
    }
    Ok(max)
}

/// A bot whose table is fetched (built once per process) for the game's
/// parameters at its first game: the factory does not know them.
struct Lazy<B> {
    bot: Option<B>,
}

impl<B> Default for Lazy<B> {
    fn default() -> Self {
        Lazy { bot: None }
    }
}

/// Bots built from the game's parameters.
trait FromParams {
    /// The bot's name, for its limits' messages.
    const NAME: &'static str;
    /// The most money per player the bot's table can be built for.
    const MAX_MONEY: u32;

    fn from_params(params: &BiddingParams) -> Self;

    /// Why the bot cannot play these parameters, if it cannot.
    fn unusable(&self) -> Option<String> {
        None
    }
}

impl FromParams for DpBidder {
    const NAME: &'static str = "dp";
    /// Its table holds every state: 2000 is about 350 MiB.
    const MAX_MONEY: u32 = 2000;

    fn from_params(params: &BiddingParams) -> Self {
        DpBidder {
            table: DpTable::shared(params),
        }
    }
}

impl FromParams for Exploit {
    const NAME: &'static str = "exploit";
    const MAX_MONEY: u32 = Optimal::MAX_MONEY;

    fn from_params(params: &BiddingParams) -> Self {
        Exploit::new(solver::shared(params))
    }

    fn unusable(&self) -> Option<String> {
        Optimal::unusable_for(self.solution())
    }
}

impl FromParams for Optimal {
    const NAME: &'static str = "optimal";
    /// The threshold solution is small, but its time grows with the square
    /// of the money.
    const MAX_MONEY: u32 = solver::MOST_MONEY;

    fn from_params(params: &BiddingParams) -> Self {
        Optimal {
            solution: solver::shared(params),
        }
    }

    /// Pure bids suffice for every setting tried (see `solver.rs`); where they
    /// would not, `optimal` says so rather than play bids that are not safe.
    fn unusable(&self) -> Option<String> {
        Optimal::unusable_for(&self.solution)
    }
}

/// The parameters of a game in progress (its budget is the larger money now:
/// a game starts with both players at `money`).
fn params_of(game: &Bidding) -> BiddingParams {
    BiddingParams {
        money: game.money.first.max(game.money.second),
        start: game.position.clamp(1, game.length - 1),
        length: game.length,
    }
}

/// The longest line the table-based bots accept.
pub const MAX_TABLE_LENGTH: u32 = 100;

/// Why table-based bot `B` cannot play `params`, if it cannot.
fn too_large<B: FromParams>(params: &BiddingParams) -> Option<String> {
    (params.money > B::MAX_MONEY || params.length > MAX_TABLE_LENGTH).then(|| {
        format!(
            "{} supports money up to {} and length up to {MAX_TABLE_LENGTH}, not {} and {}",
            B::NAME,
            B::MAX_MONEY,
            params.money,
            params.length
        )
    })
}

impl<B: FromParams + Bot<Bidding>> Bot<Bidding> for Lazy<B> {
    fn plays(&self, start: &Bidding) -> Result<(), Invalid> {
        match too_large::<B>(&params_of(start)) {
            Some(why) => Err(Invalid::new(why)),
            None => Ok(()),
        }
    }

    fn new_game(&mut self, game: &Bidding, seat: Seat, seed: u64) -> Result<(), BotError> {
        let params = params_of(game);
        if let Some(why) = too_large::<B>(&params) {
            return Err(BotError::Crash(Crash::Unplayable(why)));
        }
        let bot = self.bot.get_or_insert_with(|| B::from_params(&params));
        if let Some(why) = bot.unusable() {
            return Err(BotError::Crash(Crash::Unplayable(why)));
        }
        bot.new_game(game, seat, seed)
    }

    fn choose(
        &mut self,
        game: &Bidding,
        seat: Seat,
        time: TimeLeft,
    ) -> Result<Answer<Bid>, BotError> {
        self.bot
            .get_or_insert_with(|| B::from_params(&params_of(game)))
            .choose(game, seat, time)
    }

    fn observe(&mut self, game: &Bidding, moves: &BySeat<Option<Bid>>) -> Result<(), BotError> {
        match &mut self.bot {
            Some(bot) => bot.observe(game, moves),
            None => Ok(()),
        }
    }

    fn observes(&self) -> bool {
        self.bot.as_ref().is_none_or(|bot| bot.observes())
    }
}
