//! Helpers shared by the end-to-end test files.

use std::{fs, path::Path};

/// The game indices of a journal file's complete lines (empty if there is
/// no file). A last line that a kill cut short (SIGKILL can stop a large
/// write between pages) has no line end; resume drops it, and so does this.
pub fn journal_indices(path: &Path) -> Vec<u64> {
    fs::read_to_string(path)
        .unwrap_or_default()
        .split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]
                .as_u64()
                .unwrap()
        })
        .collect()
}
