//! `exploit` against a field of bidders in the styles contest bots use
//! (`fraction`, `climber`, `mirror`, `position`, `pacer`, `enough`, each at
//! several settings, and noisy versions of each): it beats every predictable
//! one in every game where a win is available, and loses to none.
//!
//! "A win is available" is decided by an oracle that knows the bidder's rule
//! from the first round (the rule written out by hand below, not fitted) and
//! searches every bid for a forced win against it from the start. It shares
//! no code with `exploit`'s model or search.

use std::collections::HashMap;

use ladder::{
    core::{
        bot::{builtin_bot, Answer},
        referee::play_game,
    },
    games::{
        bidding::{
            solver::{self, Solution, State},
            Bid, BiddingParams,
        },
        Bidding,
    },
    Bot, BotError, BySeat, Game, GameResult, Seat, TimeLeft,
};

/// A built-in bidder made from its name and TOML parameters.
fn make(name: &str, params: &str) -> Box<dyn Bot<Bidding>> {
    let params: toml::Table = params.parse().unwrap();
    builtin_bot::<Bidding>("bidding", ladder::games::bidding::BOTS, name, &params).unwrap()()
}

/// Plays one game; the result for `seat` (1 won, 0 drawn, -1 lost).
fn result(me: &mut dyn Bot<Bidding>, them: &mut dyn Bot<Bidding>, seat: Seat, seed: u64) -> i8 {
    let start = Bidding::new(&BiddingParams::default()).unwrap();
    let bots: BySeat<&mut dyn Bot<Bidding>> = match seat {
        Seat::First => BySeat::new(me, them),
        Seat::Second => BySeat::new(them, me),
    };
    match play_game(&start, bots, BySeat::new(seed, seed + 1), 1000).result {
        GameResult::Draw => 0,
        r if r == GameResult::win(seat) => 1,
        _ => -1,
    }
}

/// What a bidder sees before a round, from its side.
#[derive(Copy, Clone, Debug)]
struct Sees {
    own: u32,
    other: u32,
    /// Steps from the bottle to its goal, and to its opponent's.
    steps: u32,
    other_steps: u32,
    /// Whether it holds the draw advantage.
    advantage: bool,
    /// Last round's bids, its own and its opponent's.
    last: Option<(u32, u32)>,
}

impl Sees {
    fn of(st: &State, seat: Seat, length: u32, last: Option<(u32, u32)>) -> Sees {
        let steps = |s: Seat| match s {
            Seat::First => st.position,
            Seat::Second => length - st.position,
        };
        Sees {
            own: st.money[seat],
            other: st.money[seat.other()],
            steps: steps(seat),
            other_steps: steps(seat.other()),
            advantage: st.advantage == seat,
            last,
        }
    }
}

/// A deterministic bidder's rule, written out by hand: its bid before it is
/// made legal.
type Policy = Box<dyn Fn(&Sees) -> i64 + Send + Sync>;

/// A legal bid of a player holding `money` nearest `wanted`.
fn legal(wanted: i64, money: u32) -> u32 {
    if money == 0 {
        0
    } else {
        wanted.clamp(1, i64::from(money)) as u32
    }
}

/// A bidder playing a [`Policy`]: the contest-style bots ladder does not ship.
struct Scripted {
    policy: Policy,
    seat: Seat,
    last: Option<(u32, u32)>,
}

impl Bot<Bidding> for Scripted {
    fn new_game(&mut self, _: &Bidding, seat: Seat, _: u64) -> Result<(), BotError> {
        self.seat = seat;
        self.last = None;
        Ok(())
    }

    fn choose(&mut self, game: &Bidding, seat: Seat, _: TimeLeft) -> Result<Answer<Bid>, BotError> {
        let sees = Sees::of(&State::from(game), seat, game.length, self.last);
        Ok(Answer::from(Bid(legal((self.policy)(&sees), sees.own))))
    }

    fn observe(&mut self, _: &Bidding, moves: &BySeat<Option<Bid>>) -> Result<(), BotError> {
        self.last = moves[self.seat]
            .zip(moves[self.seat.other()])
            .map(|(a, b)| (a.0, b.0));
        Ok(())
    }
}

/// One bidder of the field: how to make it, and its rule for the oracle.
struct Entry {
    name: String,
    make: Box<dyn Fn() -> Box<dyn Bot<Bidding>>>,
    policy: Policy,
    /// Whether the rule reads the last round's bids.
    reads_last: bool,
}

fn builtin(name: &'static str, params: String, policy: Policy, reads_last: bool) -> Entry {
    Entry {
        name: format!("{name} {params}"),
        make: Box::new(move || make(name, &params)),
        policy,
        reads_last,
    }
}

fn scripted(name: &str, policy: fn(&Sees) -> i64) -> Entry {
    Entry {
        name: name.to_string(),
        make: Box::new(move || {
            Box::new(Scripted {
                policy: Box::new(policy),
                seat: Seat::First,
                last: None,
            })
        }),
        policy: Box::new(policy),
        reads_last: false,
    }
}

/// The predictable field: ladder's heuristic bidders at several settings,
/// and contest-style rules with special cases near the ends.
fn predictable() -> Vec<Entry> {
    let mut field = Vec::new();
    for share in [0.05, 0.1, 0.12, 0.13, 0.14, 0.15, 0.2, 0.25, 0.33, 0.5] {
        let policy: Policy = Box::new(move |s| (f64::from(s.own) * share).round() as i64);
        field.push(builtin(
            "fraction",
            format!("share = {share}"),
            policy,
            false,
        ));
    }
    for start in [1, 5, 8, 15] {
        let climber: Policy = Box::new(move |s| i64::from(s.last.map_or(start, |l| l.0 + 1)));
        field.push(builtin(
            "climber",
            format!("start = {start}"),
            climber,
            true,
        ));
    }
    for start in [3, 12, 20, 40] {
        let mirror: Policy = Box::new(move |s| i64::from(s.last.map_or(start, |l| l.1)));
        field.push(builtin("mirror", format!("start = {start}"), mirror, true));
        let enough: Policy =
            Box::new(move |s| i64::from(s.last.map_or(start, |l| l.1 + u32::from(!s.advantage))));
        field.push(builtin("enough", format!("start = {start}"), enough, true));
    }
    for bids in [
        vec![30, 22, 16, 13, 11, 9, 8, 7, 6],
        vec![12; 9],
        vec![5, 10, 15, 20, 25, 20, 15, 10, 5],
        vec![40, 30, 20, 10, 5, 3, 2, 1, 1],
    ] {
        let params = format!("bids = {bids:?}");
        let policy: Policy = Box::new(move |s| i64::from(bids[s.steps as usize - 1]));
        field.push(builtin("position", params, policy, false));
    }
    let pacer: Policy = Box::new(|s| i64::from(s.own.div_ceil(s.steps)));
    field.push(builtin("pacer", String::new(), pacer, false));
    // all in one step from its goal, all it can against one step from losing
    field.push(scripted("ends", |s| match (s.steps, s.other_steps) {
        (1, _) => i64::from(s.own),
        (_, 1) => i64::from(s.own.min(s.other)),
        _ => i64::from((s.own / 5).max(1)),
    }));
    // a share, and everything when the opponent is one step from winning
    field.push(scripted("guard", |s| match s.other_steps {
        1 => i64::from(s.other + u32::from(!s.advantage)),
        _ => (f64::from(s.own) * 0.13).round() as i64,
    }));
    // money per step to go, all in at two steps or fewer
    field.push(scripted("sprint", |s| match s.steps {
        0..=2 => i64::from(s.own),
        n => i64::from(s.own / n),
    }));
    // cautious when poorer, bolder when richer
    field.push(scripted("purse", |s| {
        if s.own >= s.other {
            i64::from(s.other / 6 + 1)
        } else {
            i64::from(s.own / 8)
        }
    }));
    field
}

/// Whether `seat` can force a win from the start against `policy` (the
/// opponent's rule), searching every bid that can differ.
fn winnable(e: &Entry, seat: Seat) -> bool {
    let params = BiddingParams::default();
    let solution = solver::shared(&params);
    let start = State::from(&Bidding::new(&params).unwrap());
    type Key = (State, Option<(u32, u32)>);
    fn dfs(
        e: &Entry,
        solution: &Solution,
        seat: Seat,
        st: State,
        last: Option<(u32, u32)>,
        memo: &mut HashMap<Key, bool>,
    ) -> bool {
        if st.position == 0 || st.position >= solution.length {
            return (st.position == 0) == (seat == Seat::First);
        }
        if st.money.first == 0 && st.money.second == 0 {
            return false;
        }
        if solution.value(&st).for_seat(seat) == 1 {
            return true;
        }
        let key = (st, last.filter(|_| e.reads_last));
        if let Some(&w) = memo.get(&key) {
            return w;
        }
        assert!(
            memo.len() < 20_000_000,
            "{}: the oracle ran too long",
            e.name
        );
        memo.insert(key, false);
        let theirs = seat.other();
        let sees = Sees::of(&st, theirs, solution.length, last.map(|(o, t)| (t, o)));
        let x = legal((e.policy)(&sees), st.money[theirs]);
        let won = Bidding::bid_range(st.money[seat]).any(|b| {
            let (b1, b2) = if seat == Seat::First { (b, x) } else { (x, b) };
            dfs(
                e,
                solution,
                seat,
                Solution::next(&st, b1, b2),
                Some((b, x)),
                memo,
            )
        });
        memo.insert(key, won);
        won
    }
    dfs(e, &solution, seat, start, None, &mut HashMap::new())
}

#[test]
fn exploit_beats_every_predictable_bidder_where_a_win_is_available() {
    let mut missed = Vec::new();
    let (mut games, mut available, mut won) = (0, 0, 0);
    for e in predictable() {
        for seat in Seat::ALL {
            let can = winnable(&e, seat);
            let mut me = make("exploit", "");
            let mut them = (e.make)();
            let r = result(me.as_mut(), them.as_mut(), seat, 7);
            eprintln!("{} as {seat:?}: winnable {can}, result {r}", e.name);
            games += 1;
            available += usize::from(can);
            won += usize::from(r == 1);
            assert!(r >= 0, "{}: exploit lost as {seat:?}", e.name);
            if can && r != 1 {
                missed.push(format!("{} as {seat:?}", e.name));
            }
        }
    }
    eprintln!("{games} games, {available} winnable, {won} won");
    assert!(missed.is_empty(), "wins missed: {missed:#?}");
}

#[test]
fn exploit_loses_to_no_noisy_bidder() {
    let noisy = [
        ("fraction", "share = 0.13\nnoise = 1"),
        ("fraction", "share = 0.2\nnoise = 3"),
        ("climber", "noise = 2"),
        ("mirror", "noise = 2"),
        ("enough", "noise = 1"),
        ("position", "noise = 2"),
        ("pacer", "noise = 1"),
        ("pacer", "noise = 4"),
    ];
    for (name, params) in noisy {
        let mut tally = [0; 3];
        for g in 0..40u64 {
            let seat = if g % 2 == 0 {
                Seat::First
            } else {
                Seat::Second
            };
            let mut me = make("exploit", "");
            let mut them = make(name, params);
            let r = result(me.as_mut(), them.as_mut(), seat, 100 + 7 * g);
            tally[(r + 1) as usize] += 1;
        }
        eprintln!(
            "{name} {params:?}: lost {}, drawn {}, won {}",
            tally[0], tally[1], tally[2]
        );
        assert_eq!(tally[0], 0, "{name} {params:?}: exploit lost");
    }
}

#[test]
fn the_shipped_field_season_puts_exploit_first_without_a_loss() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::TempDir::new().unwrap();
    assert_cmd::Command::cargo_bin("ladder")
        .unwrap()
        .args(["run", "-q", "--reports"])
        .arg(tmp.path())
        .arg(root.join("configs/bidding-field.toml"))
        .assert()
        .success();
    let csv = std::fs::read_to_string(tmp.path().join("bidding-field/standings.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let points = |r: &Vec<&str>| r[6].parse::<f64>().unwrap();
    let exploit = rows.iter().find(|r| r[1] == "exploit").unwrap();
    assert_eq!(exploit[4], "0", "exploit lost a game: {exploit:?}");
    for r in &rows {
        assert!(
            points(exploit) >= points(r),
            "{r:?} scored more than exploit"
        );
    }
    assert!(rows.len() >= 15, "the field: {rows:?}");
}
