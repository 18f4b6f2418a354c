//! A position as data for a page to draw (the replay viewer of the arena's
//! web pages and of season reports): a board of cells, a track with a
//! token on it, or the position's text. A game picks the shape that looks
//! like its position ([`super::Show::drawing`]); every drawing also carries
//! the game's text picture, so a page can always show the position in
//! words.

use serde::Serialize;

/// A position, drawn.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Drawing {
    /// A board: `cells[r][c]` with row 0 at the top (`""` for an empty
    /// cell), the rows' and columns' labels, and the cells to mark (the last
    /// move's squares).
    Board {
        cells: Vec<Vec<String>>,
        rows: Vec<String>,
        columns: Vec<String>,
        marked: Vec<[usize; 2]>,
        facts: Vec<String>,
    },
    /// A line of `length + 1` places from 0, a token at `at`, and facts
    /// beside it (money, an advantage).
    Track {
        length: u32,
        at: u32,
        ends: [String; 2],
        facts: Vec<String>,
    },
    /// The position in words alone.
    Text,
}

/// A text's words in reading order, to sort by: numbers by their value,
/// before words (`2` before `10`, both before `a`); parentheses only part
/// words.
pub fn reading_order(text: &str) -> Vec<(u8, i64, &str)> {
    text.split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .filter(|w| !w.is_empty())
        .map(|w| match w.parse::<i64>() {
            Ok(n) => (0, n, ""),
            Err(_) => (1, 0, w),
        })
        .collect()
}

/// The `X`, `Y` and `V` of a GDL fact `(cell X Y V)`, or `None` for any
/// other fact.
pub fn cell_fact(fact: &str) -> Option<[&str; 3]> {
    let words: Vec<&str> = fact
        .trim_matches(|c| c == '(' || c == ')')
        .split_whitespace()
        .collect();
    match words.as_slice() {
        ["cell", x, y, v] if fact.starts_with('(') => Some([x, y, v]),
        _ => None,
    }
}

/// The widest range of numbered labels a board fills in.
const MOST_FILLED: i64 = 64;

impl Drawing {
    /// A board read from GDL-style facts `(cell X Y V)` among `facts`
    /// (one fact a string); the other facts stay beside it. `X` runs
    /// across and `Y` up, the highest row on top, as chess, checkers,
    /// connect four and breakthrough are described (tic-tac-toe's
    /// `(cell ROW COLUMN V)` comes out turned a quarter, which keeps
    /// every line a line). `None` when no fact is a cell, or when a cell
    /// holds two values (a board would hide one). Labels are sorted in
    /// [`reading_order`]; a value equal to `blank` (`b` in descriptions
    /// that spell empty cells out) is an empty cell.
    /// `known` adds labels of columns and rows (those of the initial
    /// state, say; with them, a state without cells is an empty board),
    /// and numbered labels are filled in between.
    pub fn from_cell_facts(
        facts: &[String],
        blank: Option<&str>,
        known: [&[String]; 2],
    ) -> Option<Drawing> {
        let mut cells = Vec::new();
        let mut other = Vec::new();
        for fact in facts {
            match cell_fact(fact) {
                Some([x, y, v]) => cells.push((x, y, v)),
                None => other.push(fact.clone()),
            }
        }
        let mut places: Vec<(&str, &str)> = cells.iter().map(|&(x, y, _)| (x, y)).collect();
        places.sort_unstable();
        places.dedup();
        let no_board = cells.is_empty() && known.iter().any(|l| l.is_empty());
        if no_board || places.len() < cells.len() {
            return None;
        }
        let labels = |pick: usize| {
            let mut l: Vec<String> = cells.iter().map(|c| [c.0, c.1][pick].to_string()).collect();
            l.extend(known[pick].iter().cloned());
            // numbers: every one between the lowest and the highest, so a
            // row or column without pieces still shows (on a board's scale)
            // (numbers as ladder writes them: `07` is a word)
            let numbers: Option<Vec<i64>> = l
                .iter()
                .map(|w| w.parse().ok().filter(|n: &i64| n.to_string() == *w))
                .collect();
            if let Some((&low, &high)) = numbers
                .as_ref()
                .and_then(|n| n.iter().min().zip(n.iter().max()))
            {
                if high.checked_sub(low).is_some_and(|d| d < MOST_FILLED) {
                    l.extend((low..=high).map(|n| n.to_string()));
                }
            }
            l.sort_by(|a, b| reading_order(a).cmp(&reading_order(b)));
            l.dedup();
            l
        };
        let columns = labels(0);
        let mut rows = labels(1);
        rows.reverse();
        let mut grid = vec![vec![String::new(); columns.len()]; rows.len()];
        for (x, y, v) in cells {
            let at = |l: &[String], w: &str| l.iter().position(|u| u == w).expect("a label");
            grid[at(&rows, y)][at(&columns, x)] = if Some(v) == blank {
                String::new()
            } else {
                v.to_string()
            };
        }
        Some(Drawing::Board {
            cells: grid,
            rows,
            columns,
            marked: Vec::new(),
            facts: other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_facts_make_a_board_in_numeric_order_and_the_rest_stay_facts() {
        let facts: Vec<String> = [
            "(cell 10 1 x)",
            "(cell 2 1 b)",
            "(cell 2 2 o)",
            "(control white)",
        ]
        .map(String::from)
        .to_vec();
        let Some(Drawing::Board {
            cells,
            rows,
            columns,
            facts,
            ..
        }) = Drawing::from_cell_facts(&facts, Some("b"), [&[], &[]])
        else {
            panic!("a board")
        };
        // X across in order, numbers filled in; Y up: the highest row first
        let across: Vec<String> = (2..=10).map(|n| n.to_string()).collect();
        assert_eq!(columns, across);
        assert_eq!(rows, ["2", "1"]);
        let mut row = vec![String::new(); 9];
        row[0] = "o".into();
        assert_eq!(cells[0], row);
        row[0] = String::new();
        row[8] = "x".into();
        assert_eq!(cells[1], row);
        assert_eq!(facts, ["(control white)"]);
        assert_eq!(
            Drawing::from_cell_facts(&["(step 1)".into()], None, [&[], &[]]),
            None
        );
        // a cell with two values is no board: every fact stays in words
        let stacked = ["(cell 1 1 x)", "(cell 1 1 o)"].map(String::from);
        assert_eq!(Drawing::from_cell_facts(&stacked, None, [&[], &[]]), None);
        // where empty cells are not spelt out, `b` is a piece
        let Some(Drawing::Board { cells, .. }) =
            Drawing::from_cell_facts(&["(cell 1 1 b)".into()], None, [&[], &[]])
        else {
            panic!("a board")
        };
        assert_eq!(cells, [vec!["b"]]);
        // known labels (a row no piece is on yet) and words stay as given
        let Some(Drawing::Board { rows, columns, .. }) = Drawing::from_cell_facts(
            &["(cell a 3 x)".into(), "(cell c 1 o)".into()],
            None,
            [&["b".into()], &["4".into()]],
        ) else {
            panic!("a board")
        };
        assert_eq!(columns, ["a", "b", "c"]);
        assert_eq!(rows, ["4", "3", "2", "1"]);
        let Some(Drawing::Board { cells, .. }) =
            Drawing::from_cell_facts(&[], None, [&["a".into()], &["1".into(), "2".into()]])
        else {
            panic!("an empty board")
        };
        assert_eq!(cells, [vec![""], vec![""]]);
        // a numbered range too wide to be a board is not filled
        let Some(Drawing::Board { rows, .. }) = Drawing::from_cell_facts(
            &["(cell 1 1 x)".into(), "(cell 1 1000 o)".into()],
            None,
            [&[], &[]],
        ) else {
            panic!("a board")
        };
        assert_eq!(rows, ["1000", "1"]);
        // nor one whose ends are the far ends of the numbers
        let far = [i64::MIN, i64::MAX].map(|n| format!("(cell {n} 1 x)"));
        let Some(Drawing::Board { columns, .. }) = Drawing::from_cell_facts(&far, None, [&[], &[]])
        else {
            panic!("a board")
        };
        assert_eq!(columns.len(), 2);
        // a number spelt otherwise is a word: nothing is filled beside it
        let Some(Drawing::Board { columns, .. }) = Drawing::from_cell_facts(
            &["(cell 07 1 x)".into(), "(cell 9 1 o)".into()],
            None,
            [&[], &[]],
        ) else {
            panic!("a board")
        };
        assert_eq!(columns, ["07", "9"]);
    }
}
