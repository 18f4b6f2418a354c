//! The arena's event log over the API (`GET /api/events?after=N`), a page
//! at a time: the whole log in one answer held 368 MB for a million games'
//! batches, every such request again (docs/PERFORMANCE.md).

use std::path::Path;

use serde_json::{json, Value};

use super::Failure;
use crate::arena::store::{Event, Store};

/// The most events `GET /api/events` answers with at once, and the most
/// games their batches may name together (at least one event is sent).
pub const EVENTS_AT_ONCE: u64 = 1000;
pub const EVENT_GAMES_AT_ONCE: usize = 10_000;

/// `GET /api/events?after=N`: the event log after event `N`, a page at a
/// time: at most [`EVENTS_AT_ONCE`] events naming at most
/// [`EVENT_GAMES_AT_ONCE`] games, with `more` when the log goes on (ask
/// again after the last `seq`).
pub fn events(dir: &Path, after: u64) -> Result<Value, Failure> {
    // a few events read at a time: a batch's event names up to 10,000 games
    const READ: u64 = 8;
    let store = Store::open(dir)?;
    let (mut events, mut games, mut last) = (Vec::new(), 0, after);
    let more = 'page: loop {
        let read = store.events_after(last, READ)?;
        if read.is_empty() {
            break false;
        }
        for (seq, e) in read {
            if let Event::Batch { games: named, .. } = &e {
                games += named.len();
            }
            if events.len() as u64 == EVENTS_AT_ONCE
                || (!events.is_empty() && games > EVENT_GAMES_AT_ONCE)
            {
                break 'page true;
            }
            events.push(json!({ "seq": seq, "event": e }));
            last = seq;
        }
    };
    Ok(json!({ "events": events, "more": more }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The event log is answered a page at a time: at most a thousand
    /// events naming at most 10,000 games (one event at least), with
    /// `more` until the last; paging after each answer's last `seq` reads
    /// every event once, in order.
    #[test]
    fn the_event_log_is_answered_a_page_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::create(dir.path(), &[("game", "coordination".into())]).unwrap();
        let pairs = |n: usize| vec![["a@1".to_string(), "b@1".to_string()]; n];
        let mut log = vec![crate::arena::league::tests::added("a")];
        for (number, first) in [(0, 0), (1, 6000)] {
            log.push(Event::Batch {
                number,
                first,
                games: pairs(6000),
            });
            log.push(Event::Finished { number });
        }
        // a batch larger than a page's games alone, then many small events
        log.push(Event::Batch {
            number: 2,
            first: 12_000,
            games: pairs(10_001),
        });
        log.extend((0..2500).map(|k| Event::Retired {
            bot: format!("x{k}"),
        }));
        store.append_all(&log).unwrap();
        let (mut seen, mut after, mut answers) = (Vec::new(), 0, Vec::new());
        loop {
            let answer = events(dir.path(), after).unwrap();
            let page = answer["events"].as_array().unwrap().clone();
            let named: usize = page
                .iter()
                .filter_map(|e| e["event"]["games"].as_array().map(Vec::len))
                .sum();
            assert!(page.len() as u64 <= EVENTS_AT_ONCE);
            assert!(
                page.len() == 1 || named <= EVENT_GAMES_AT_ONCE,
                "{named} games"
            );
            seen.extend(page.iter().map(|e| e["seq"].as_u64().unwrap()));
            answers.push(page.len());
            if answer["more"] == false {
                break;
            }
            after = *seen.last().unwrap();
        }
        assert_eq!(seen, (1..=log.len() as u64).collect::<Vec<_>>());
        // the first two batches' 12,000 games part; the 10,001 alone; then
        // a thousand at a time
        assert_eq!(answers, [3, 2, 1, 1000, 1000, 500]);
    }
}
