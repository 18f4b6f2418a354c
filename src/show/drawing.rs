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

impl Drawing {
    /// A board read from GDL-style facts `(cell R C V)` among `facts`
    /// (one fact a string); the other facts stay beside it. `None` when
    /// no fact is a cell, or when a cell holds two values (a board would
    /// hide one). Rows and columns are sorted in [`reading_order`]; a `b`
    /// value is an empty cell, as in most descriptions.
    pub fn from_cell_facts(facts: &[String]) -> Option<Drawing> {
        let mut cells = Vec::new();
        let mut other = Vec::new();
        for fact in facts {
            let words: Vec<&str> = fact
                .trim_matches(|c| c == '(' || c == ')')
                .split_whitespace()
                .collect();
            match words.as_slice() {
                ["cell", r, c, v] if fact.starts_with('(') => cells.push((*r, *c, *v)),
                _ => other.push(fact.clone()),
            }
        }
        let mut places: Vec<(&str, &str)> = cells.iter().map(|&(r, c, _)| (r, c)).collect();
        places.sort_unstable();
        places.dedup();
        if cells.is_empty() || places.len() < cells.len() {
            return None;
        }
        let labels = |pick: usize| {
            let mut l: Vec<String> = cells.iter().map(|c| [c.0, c.1][pick].to_string()).collect();
            l.sort_by(|a, b| reading_order(a).cmp(&reading_order(b)));
            l.dedup();
            l
        };
        let rows = labels(0);
        let columns = labels(1);
        let mut grid = vec![vec![String::new(); columns.len()]; rows.len()];
        for (r, c, v) in cells {
            let at = |l: &[String], x: &str| l.iter().position(|y| y == x).expect("a label");
            grid[at(&rows, r)][at(&columns, c)] = if v == "b" {
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
        }) = Drawing::from_cell_facts(&facts)
        else {
            panic!("a board")
        };
        assert_eq!(rows, ["2", "10"]);
        assert_eq!(columns, ["1", "2"]);
        assert_eq!(cells, [vec!["", "o"], vec!["x", ""]]);
        assert_eq!(facts, ["(control white)"]);
        assert_eq!(Drawing::from_cell_facts(&["(step 1)".into()]), None);
        // a cell with two values is no board: every fact stays in words
        let stacked = ["(cell 1 1 x)", "(cell 1 1 o)"].map(String::from);
        assert_eq!(Drawing::from_cell_facts(&stacked), None);
    }
}
