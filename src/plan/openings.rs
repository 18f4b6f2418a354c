//! A season's openings (`[season.openings]`): positions games start from
//! instead of the first position, so that deterministic bots do not play one
//! game over and over. Each opening is played by a colour-swapped pair of
//! games (games 2k and 2k+1 of a pairing), the pentanomial unit.
//!
//! Game pair k of every pairing plays opening `k mod per_pair`, so all
//! pairings meet the same positions. The openings come from a file (one
//! position a line, in the game's text form, `Game::position`, or `moves`
//! and the turns played from the first position; `#` lines and blank lines
//! skipped), in file order or shuffled by the season seed, or are
//! made by `random_plies` uniformly random plies from the first position,
//! each from a seed drawn from the season seed.

use rand::{seq::SliceRandom, SeedableRng};

use crate::{
    core::{
        bot::BotFactory,
        error::Invalid,
        game::{random_turn, Game},
        referee::play_game,
        seat::{BySeat, Seat},
    },
    Rng,
};

/// The positions of a season's openings, in the order game pairs play them.
#[derive(Clone)]
pub struct Openings<G: Game> {
    /// Each opening's text (as journaled) and position.
    pub positions: Vec<(String, G)>,
    /// How many openings a pairing plays before it starts over.
    pub per_pair: u32,
    /// What `season.json` records of them.
    pub describe: serde_json::Value,
}

impl<G: Game> Openings<G> {
    /// The opening of game `index` of a season with `games_per_pair`.
    pub fn of(&self, index: u64, games_per_pair: u32) -> &(String, G) {
        let pair = (index % u64::from(games_per_pair)) / 2;
        let slot = pair % u64::from(self.per_pair);
        &self.positions[(slot % self.positions.len() as u64) as usize]
    }
}

/// Openings read from the `text` of the file at `path`: one position a
/// line. An error names the file and the line. `random` shuffles them with
/// the season `seed`.
pub fn from_file<G: Game>(
    params: &G::Params,
    path: &std::path::Path,
    text: &str,
    random: bool,
    seed: u64,
    per_pair: u32,
) -> Result<Openings<G>, Invalid> {
    let mut positions = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let game = match line.strip_prefix("moves ") {
            Some(moves) => after_moves(params, moves),
            None => G::from_position(params, line),
        }
        .map_err(|e| Invalid::new(format!("{}:{}: {e}", path.display(), n + 1)))?;
        positions.push((game.position(), game));
    }
    if positions.is_empty() {
        return Err(Invalid::new(format!(
            "{}: the openings file holds no position",
            path.display()
        )));
    }
    let checksum = fnv1a(positions.iter().map(|(t, _)| t.as_str()));
    if random {
        positions.shuffle(&mut Rng::seed_from_u64(seed ^ 0x6f70_656e_696e_6773));
    }
    let describe = serde_json::json!({
        "count": positions.len(),
        "order": if random { "random" } else { "sequential" },
        "checksum": format!("{checksum:016x}"),
        "per_pair": per_pair,
    });
    Ok(Openings {
        positions,
        per_pair,
        describe,
    })
}

/// The position after the listed turns from the first position: `b2b3
/// g7g6` (one move a turn), or `3,3,4|2,4,4 5,5,0|0,5,5` in a simultaneous
/// game (the first seat's move, `|`, the second's). Every move must be legal.
fn after_moves<G: Game>(params: &G::Params, turns: &str) -> Result<G, Invalid> {
    let mut game = G::new(params)?;
    for (t, turn) in turns.split_whitespace().enumerate() {
        let at = |why: String| Invalid::new(format!("turn {} `{turn}`: {why}", t + 1));
        if game.outcome().is_some() {
            return Err(at("the game is over".into()));
        }
        let acting = game.to_act();
        let words: Vec<&str> = turn.split('|').collect();
        let seats: Vec<Seat> = Seat::ALL.into_iter().filter(|&s| acting[s]).collect();
        if words.len() != seats.len() {
            return Err(at(format!(
                "{} seat(s) move now, so a turn is {}",
                seats.len(),
                if seats.len() == 2 {
                    "`FIRST|SECOND`"
                } else {
                    "one move"
                }
            )));
        }
        let mut moves = BySeat::default();
        for (seat, word) in seats.into_iter().zip(words) {
            let mv: G::Move = word.parse().map_err(&at)?;
            game.check(seat, &mv).map_err(|e| at(e.to_string()))?;
            moves[seat] = Some(mv);
        }
        game.apply(&moves);
    }
    crate::core::game::not_over(game)
}

/// `per_pair` openings of `plies` random plies from `start`, each from a
/// seed drawn from the season `seed`; a playout that ends the game early is
/// drawn again.
pub fn random_plies<G: Game>(
    start: &G,
    plies: u32,
    seed: u64,
    per_pair: u32,
) -> Result<Openings<G>, Invalid> {
    let mut seeds = Rng::seed_from_u64(seed ^ 0x7261_6e64_6f6d);
    let mut positions = Vec::new();
    for _ in 0..per_pair {
        let found = (0..1000).find_map(|_| {
            let mut rng = Rng::seed_from_u64(rand::RngCore::next_u64(&mut seeds));
            playout(start, plies, &mut rng)
        });
        let game = found.ok_or_else(|| {
            Invalid::new(format!(
                "{plies} random plies end the game too often to make an opening"
            ))
        })?;
        positions.push((game.position(), game));
    }
    let describe = serde_json::json!({ "random_plies": plies, "per_pair": per_pair });
    Ok(Openings {
        positions,
        per_pair,
        describe,
    })
}

/// How `ladder openings --balanced` judges a position: `playouts` games of
/// the reference bot against itself from it, seats alternating; balanced
/// when the side to move scores within `margin` of one half.
pub struct Judge<G: Game> {
    pub bot: BotFactory<G>,
    pub playouts: u32,
    pub margin: f64,
}

/// `count` positions of `plies` random plies from `start`, drawn from
/// `seed`, all different; with `judge`, only the balanced ones. `None` when
/// 100 times `count` tries do not find them.
pub fn generate<G: Game>(
    start: &G,
    plies: u32,
    count: usize,
    seed: u64,
    judge: Option<&Judge<G>>,
) -> Option<Vec<String>> {
    let mut seeds = Rng::seed_from_u64(seed);
    let mut found: Vec<String> = Vec::new();
    for _ in 0..count.saturating_mul(100).max(100) {
        if found.len() == count {
            break;
        }
        let mut rng = Rng::seed_from_u64(rand::RngCore::next_u64(&mut seeds));
        let Some(game) = playout(start, plies, &mut rng) else {
            continue;
        };
        let text = game.position();
        if found.contains(&text) {
            continue;
        }
        if let Some(judge) = judge {
            if !balanced(&game, judge, rand::RngCore::next_u64(&mut rng)) {
                continue;
            }
        }
        found.push(text);
    }
    (found.len() == count).then_some(found)
}

/// `plies` uniformly random plies from `start`, unless the game ends first.
fn playout<G: Game>(start: &G, plies: u32, rng: &mut Rng) -> Option<G> {
    let mut game = start.clone();
    for _ in 0..plies {
        if game.outcome().is_some() {
            return None;
        }
        let moves = random_turn(&game, rng);
        game.apply(&moves);
    }
    game.outcome().is_none().then_some(game)
}

/// Whether the reference bot, playing itself from `game`, gives the first
/// seat a score within the judge's margin of one half.
fn balanced<G: Game>(game: &G, judge: &Judge<G>, seed: u64) -> bool {
    let mut points = 0.0;
    for k in 0..judge.playouts {
        let (mut a, mut b) = ((judge.bot)(), (judge.bot)());
        let seeds = BySeat::new(
            seed.wrapping_add(2 * u64::from(k)),
            seed.wrapping_add(2 * u64::from(k) + 1),
        );
        let played = play_game(game, BySeat::new(&mut *a, &mut *b), seeds, 10_000);
        points += played.result.points(Seat::First);
    }
    let score = points / f64::from(judge.playouts.max(1));
    (score - 0.5).abs() <= judge.margin
}

/// The 64-bit FNV-1a hash of `texts`, each ended by a newline: a file's
/// openings fingerprint in `season.json`, so a changed file is noticed.
fn fnv1a<'a>(texts: impl Iterator<Item = &'a str>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for t in texts {
        for b in t.bytes().chain(std::iter::once(b'\n')) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}
