//! The games a query keeps (`/api/games`, `/api/leaderboard`): its keys,
//! each checked, and the games of an arena that match them.

use std::sync::{Mutex, PoisonError};

use axum::http::StatusCode;

use super::Failure;
use crate::{
    arena::{
        league::{League, Version},
        store::{GameRow, Store, Wanted},
    },
    core::{game::GameResult, record::Scored, referee::Termination},
};

/// The games a filter keeps (`/api/games`, `/api/leaderboard`), read
/// from a URL's query: every key is checked, and a key it does not know,
/// or a key given twice, is an error.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    /// Games `bot` played (a version, `name@N`, or every version of a name).
    pub bot: Option<String>,
    /// Games `opponent` played (against `bot`, when both are given).
    pub opponent: Option<String>,
    /// `win`, `loss` or `draw` for `bot` (needs `bot`); `first`,
    /// `second` or `draw` by seat.
    pub result: Option<String>,
    /// `normal`, `forfeit`, `ply-limit` or `adjudicated`.
    pub termination: Option<String>,
    pub min_plies: Option<u32>,
    pub max_plies: Option<u32>,
    /// Game numbers, from and to (both included): the arena's clock.
    pub from: Option<u64>,
    pub to: Option<u64>,
    /// When the games were recorded, from and to (Unix seconds, both
    /// included; the query takes seconds or a UTC date `2026-11-24`, a
    /// time `2026-11-24T13:05` or `...:30Z`). Games recorded before the
    /// arena kept times are left out by either.
    pub since: Option<u64>,
    pub until: Option<u64>,
    /// The page of games `/api/games` returns: at most `limit` (100),
    /// newest first, after skipping `offset`.
    pub limit: Option<usize>,
    pub offset: Option<usize>,
}

const RESULTS: [&str; 6] = ["win", "loss", "draw", "first", "second", "any"];
const TERMINATIONS: [&str; 4] = ["normal", "forfeit", "ply-limit", "adjudicated"];

pub fn bad(message: String) -> Failure {
    Failure(StatusCode::BAD_REQUEST, message)
}

impl Filter {
    /// The filter a query gives, or a 400 naming the key that is wrong.
    pub fn parse(query: &[(String, String)]) -> Result<Filter, Failure> {
        let mut f = Filter::default();
        let mut given: Vec<&str> = Vec::new();
        for (key, value) in query {
            // an empty field of a form filters nothing
            if value.is_empty() {
                continue;
            }
            if given.contains(&key.as_str()) {
                return Err(bad(format!(
                    "`{key}` is given twice: a filter takes one value for each key"
                )));
            }
            given.push(key);
            let number = |what: &str| {
                value
                    .parse::<u64>()
                    .map_err(|_| bad(format!("`{key}`: `{value}` is not {what}")))
            };
            match key.as_str() {
                "bot" => f.bot = Some(value.clone()),
                "opponent" => f.opponent = Some(value.clone()),
                "result" if RESULTS.contains(&value.as_str()) => f.result = Some(value.clone()),
                "result" => {
                    return Err(bad(format!(
                        "`result`: `{value}` is none of {}",
                        RESULTS.join(", ")
                    )))
                }
                "termination" if TERMINATIONS.contains(&value.as_str()) => {
                    f.termination = Some(value.clone())
                }
                "termination" => {
                    return Err(bad(format!(
                        "`termination`: `{value}` is none of {}",
                        TERMINATIONS.join(", ")
                    )))
                }
                "min_plies" | "max_plies" => {
                    let turns = value
                        .parse::<u32>()
                        .map_err(|_| bad(format!("`{key}`: `{value}` is not a number of turns")))?;
                    if key == "min_plies" {
                        f.min_plies = Some(turns);
                    } else {
                        f.max_plies = Some(turns);
                    }
                }
                "since" | "until" => {
                    let t = time(value).ok_or_else(|| {
                        bad(format!(
                            "`{key}`: `{value}` is no time (Unix seconds, or a UTC date \
                             like 2026-11-24 or 2026-11-24T13:05)"
                        ))
                    })?;
                    if key == "since" {
                        f.since = Some(t);
                    } else {
                        f.until = Some(t);
                    }
                }
                "from" => f.from = Some(number("a game number")?),
                "to" => f.to = Some(number("a game number")?),
                "limit" => f.limit = Some(number("a count")? as usize),
                "offset" => f.offset = Some(number("a count")? as usize),
                _ => {
                    return Err(bad(format!(
                        "`{key}` is no filter (bot, opponent, result, termination, \
                         min_plies, max_plies, from, to, since, until, limit, offset)"
                    )))
                }
            }
        }
        if f.bot.is_none() && matches!(f.result.as_deref(), Some("win" | "loss")) {
            return Err(bad("`result` win or loss needs a `bot`".into()));
        }
        Ok(f)
    }

    /// Whether the store's lists alone say which games it keeps: all but
    /// an opponent and a result by the bot's seat (`win`, `loss`).
    pub fn listed(&self) -> bool {
        self.opponent.is_none() && !matches!(self.result.as_deref(), Some("win" | "loss"))
    }

    /// Whether it keeps only some games (a custom leaderboard).
    pub fn narrows(&self) -> bool {
        Filter {
            limit: None,
            offset: None,
            ..self.clone()
        } != Filter::default()
    }
}

/// Unix seconds from `text`: seconds, or a UTC date and time
/// (`2026-11-24`, `2026-11-24T13:05`, `2026-11-24T13:05:30Z`).
pub fn time(text: &str) -> Option<u64> {
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse().ok();
    }
    let text = text.strip_suffix('Z').unwrap_or(text);
    let (date, clock) = text.split_once('T').unwrap_or((text, "00:00"));
    let mut d = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    if d.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&day) {
        return None;
    }
    let mut c = clock.split(':').map(|p| p.parse::<i64>().ok());
    let (h, min) = (c.next()??, c.next()??);
    let sec = c.next().unwrap_or(Some(0))?;
    if c.next().is_some()
        || !(0..24).contains(&h)
        || !(0..60).contains(&min)
        || !(0..61).contains(&sec)
    {
        return None;
    }
    // days since 1970-01-01 of a Gregorian date (H. Hinnant's days_from_civil)
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days * 86_400 + h * 3600 + min * 60 + sec).ok()
}

/// The versions `who` names: one (`name@N`) or every version of a name;
/// a 404 when none.
pub fn versions<'a>(league: &'a League, who: &str) -> Result<Vec<&'a Version>, Failure> {
    let found: Vec<&Version> = league
        .versions
        .iter()
        .filter(|v| v.bot == who || v.name == who)
        .collect();
    if found.is_empty() {
        return Err(Failure(
            StatusCode::NOT_FOUND,
            format!("no bot {who} in the arena"),
        ));
    }
    Ok(found)
}

pub fn termination_kind(t: &Termination) -> &'static str {
    match t {
        Termination::Normal => "normal",
        Termination::Forfeit { .. } => "forfeit",
        Termination::PlyLimit => "ply-limit",
        Termination::IllFormed { .. } => "ill-formed",
        Termination::Adjudicated { .. } => "adjudicated",
    }
}

/// The games the server reads at once.
pub const PAGE: u64 = 4096;

/// The game numbers the server reads at once, their records left unread.
pub const NUMBERS: u64 = 16 * PAGE;

/// Held while a page of a scan is read ([`pages`]).
static SCANNING: Mutex<()> = Mutex::new(());

/// The finished games numbered `from..=to` of the `known` the league
/// knows (numbered below it), as `wanted` says ([`Store::games_matching`]),
/// in order, `page` at a time: `visit` sees each page, so memory holds one
/// page, not the arena's history. Each page is read in a snapshot of its
/// own ([`Store::renew`]; finished games never change, and the ones
/// finished since are not read), so a long scan does not keep the arena's
/// log from being checkpointed.
pub fn pages(
    store: &Store,
    known: u64,
    wanted: &Wanted,
    range: (u64, u64),
    page: u64,
    visit: impl FnMut(&[GameRow]) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let read = |next, most| store.games_matching(wanted, next, most);
    paged(store, known, range, page, read, |g| g.number, visit)
}

/// [`pages`] of what `read(next, most)` reads from game `next` on, each
/// item's game `number`.
fn paged<T>(
    store: &Store,
    known: u64,
    (from, to): (u64, u64),
    page: u64,
    read: impl Fn(u64, u64) -> crate::core::error::Result<Vec<T>>,
    number: impl Fn(&T) -> u64,
    mut visit: impl FnMut(&[T]) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let Some(to) = known.checked_sub(1).map(|last| last.min(to)) else {
        return Ok(());
    };
    // the store numbers games as SQLite's signed integers
    if to < from || i64::try_from(from).is_err() {
        return Ok(());
    }
    let mut next = from;
    loop {
        let most = (to - next).saturating_add(1).min(page);
        // one page read at a time in the whole server, so scans share
        // one core and leave the rest to the arena's play
        let reading = SCANNING.lock().unwrap_or_else(PoisonError::into_inner);
        let rows = read(next, most)?;
        visit(&rows)?;
        drop(reading);
        match rows.last().map(&number) {
            Some(last) if rows.len() as u64 == most && last < to => {
                next = last + 1;
                store.renew()?;
            }
            _ => return Ok(()),
        }
    }
}

/// The games `f` keeps, oldest first, `page` at a time with their scored
/// forms: the store gives those of its range of game numbers and times,
/// of its bot's (or opponent's) versions, and of its termination, length
/// and result by seat, and [`kept`] checks each.
pub fn each_kept(
    store: &Store,
    league: &League,
    f: &Filter,
    page: u64,
    mut visit: impl FnMut(Vec<(&GameRow, Scored)>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let bots = bots_of(league, f)?;
    let wanted = wanted(f, bots.as_deref());
    pages(store, league.next_game, &wanted, range(f), page, |rows| {
        visit(kept(league, rows, f)?)
    })
}

/// The numbers of the games `f` keeps, oldest first, `page` at a time
/// as [`pages`] reads, from the store's lists alone, their records left
/// unread ([`Store::numbers_matching`]): for a filter that is
/// [`Filter::listed`], the numbers [`each_kept`] sees.
pub fn each_number_kept(
    store: &Store,
    league: &League,
    f: &Filter,
    page: u64,
    visit: impl FnMut(&[u64]) -> Result<(), Failure>,
) -> Result<(), Failure> {
    debug_assert!(f.listed());
    let bots = bots_of(league, f)?;
    let wanted = wanted(f, bots.as_deref());
    let read = |next, most| store.numbers_matching(&wanted, next, most);
    paged(store, league.next_game, range(f), page, read, |&n| n, visit)
}

/// The versions (`name@N`) of `f`'s bot, or else of its opponent.
fn bots_of(league: &League, f: &Filter) -> Result<Option<Vec<String>>, Failure> {
    let Some(who) = f.bot.as_ref().or(f.opponent.as_ref()) else {
        return Ok(None);
    };
    Ok(Some(
        versions(league, who)?
            .iter()
            .map(|v| v.bot.clone())
            .collect(),
    ))
}

/// What the store's lists can say of the games `f` keeps, the games of
/// one of `bots` (`bots_of`).
fn wanted<'a>(f: &'a Filter, bots: Option<&'a [String]>) -> Wanted<'a> {
    let plies = (f.min_plies.is_some() || f.max_plies.is_some())
        .then(|| (f.min_plies.unwrap_or(0), f.max_plies.unwrap_or(u32::MAX)));
    let finished = (f.since.is_some() || f.until.is_some())
        .then(|| (f.since.unwrap_or(0), f.until.unwrap_or(u64::MAX)));
    Wanted {
        bots,
        finished,
        // `win` and `loss` depend on the bot's seat: `kept` alone keeps them
        result: f
            .result
            .as_deref()
            .filter(|r| ["first", "second", "draw"].contains(r)),
        termination: f.termination.as_deref(),
        plies,
    }
}

/// The game numbers `f` asks for, both included.
fn range(f: &Filter) -> (u64, u64) {
    (f.from.unwrap_or(0), f.to.unwrap_or(u64::MAX))
}

/// The newest `most` of the items pushed, and how many were pushed.
pub struct Newest<T> {
    pub items: std::collections::VecDeque<T>,
    pub pushed: usize,
    most: usize,
}

impl<T> Newest<T> {
    pub fn new(most: usize) -> Newest<T> {
        Newest {
            items: std::collections::VecDeque::new(),
            pushed: 0,
            most,
        }
    }

    pub fn push(&mut self, item: T) {
        self.pushed += 1;
        if self.most == 0 {
            return;
        }
        if self.items.len() == self.most {
            self.items.pop_front();
        }
        self.items.push_back(item);
    }
}

/// The games `f` keeps, oldest first, with their scored forms.
pub fn kept<'a>(
    league: &League,
    games: &'a [GameRow],
    f: &Filter,
) -> Result<Vec<(&'a GameRow, Scored)>, Failure> {
    let names = league.names();
    let ids = |who: &Option<String>| -> Result<Option<Vec<usize>>, Failure> {
        let Some(who) = who else { return Ok(None) };
        let vs = versions(league, who)?;
        Ok(Some(
            vs.iter()
                .map(|v| {
                    league
                        .versions
                        .iter()
                        .position(|w| w.bot == v.bot)
                        .expect("found")
                })
                .collect(),
        ))
    };
    let (bot, opponent) = (ids(&f.bot)?, ids(&f.opponent)?);
    let mut out = Vec::new();
    for g in games {
        if f.from.is_some_and(|n| g.number < n) || f.to.is_some_and(|n| g.number > n) {
            continue;
        }
        let at = g.finished;
        if f.since.is_some_and(|t| at.is_none_or(|at| at < t))
            || f.until.is_some_and(|t| at.is_none_or(|at| at > t))
        {
            continue;
        }
        let s = g.scored(&names).map_err(Failure::damaged)?;
        if f.min_plies.is_some_and(|p| s.plies < p) || f.max_plies.is_some_and(|p| s.plies > p) {
            continue;
        }
        if f.termination
            .as_deref()
            .is_some_and(|t| t != termination_kind(&s.termination))
        {
            continue;
        }
        // the seat `bot` held, when it played
        let held = |ids: &Option<Vec<usize>>| match ids {
            None => Some(None),
            Some(ids) => crate::core::seat::Seat::ALL
                .into_iter()
                .find(|&seat| ids.contains(&s.seats[seat]))
                .map(Some),
        };
        let Some(seat) = held(&bot) else { continue };
        match (&opponent, seat) {
            (None, _) => {}
            (Some(ids), Some(seat)) if ids.contains(&s.seats[seat.other()]) => {}
            (Some(_), Some(_)) => continue,
            (Some(_), None) if held(&opponent).flatten().is_some() => {}
            (Some(_), None) => continue,
        }
        let keep = match (f.result.as_deref(), seat) {
            (None | Some("any"), _) => true,
            (Some("draw"), _) => s.result == GameResult::Draw,
            (Some("first"), _) => s.result == GameResult::First,
            (Some("second"), _) => s.result == GameResult::Second,
            (Some(r), Some(seat)) => {
                let won = s.result == GameResult::win(seat);
                let lost = s.result == GameResult::win(seat.other());
                (r == "win" && won) || (r == "loss" && lost)
            }
            _ => false,
        };
        if keep {
            out.push((g, s));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_are_seconds_or_utc_dates() {
        use super::time;
        assert_eq!(time("0"), Some(0));
        assert_eq!(time("1970-01-02"), Some(86_400));
        assert_eq!(time("2000-03-01"), Some(951_868_800));
        assert_eq!(time("2026-11-24T13:05"), Some(1_795_525_500));
        assert_eq!(time("2026-11-24T13:05:30Z"), Some(1_795_525_530));
        for bad in [
            "",
            "yesterday",
            "2026-13-01",
            "2026-11-24T25:00",
            "1969-12-31",
            "2026-11",
        ] {
            assert_eq!(time(bad), None, "{bad}");
        }
    }
}
