#!/usr/bin/env bash
# Takes the screenshots of the arena's pages that docs/ARENA.md and the
# README show, from the real pages: tests/browser.rs drives Chromium
# (Debian's chromium and chromium-driver) and writes each page's PNG into
# docs/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
LADDER_SCREENSHOTS="$PWD/docs/screenshots" cargo test --release --test browser -- --test-threads 1
