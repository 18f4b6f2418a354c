#!/bin/sh
# What a batch of `ladder arena run` costs as the arena's history grows, for
# two ladder binaries side by side (docs/PERFORMANCE.md, "A batch decided
# from what is new"): an arena of coordination's `random` and `copycat`
# (batches of 16 games) is played to 0, 1,000 and 4,000 batches, and each
# binary then plays 200 more batches on its own copy of it.
#
# Usage: scripts/arena-history.sh OLD_LADDER NEW_LADDER (from an empty
# folder on the disk to measure; it makes `base` and `w` there).
set -e
OLD=$1
NEW=$2
"$NEW" arena init base --game coordination > /dev/null
"$NEW" arena add base r --builtin random > /dev/null
"$NEW" arena add base c --builtin copycat > /dev/null
played=0
for batches in 0 1000 4000; do
  if [ "$batches" -gt "$played" ]; then
    "$NEW" arena run base -q --batches $((batches - played))
    played=$batches
  fi
  for which in before after; do
    if [ "$which" = before ]; then bin=$OLD; else bin=$NEW; fi
    rm -rf w && cp -r base w
    /usr/bin/time -f "history of $((batches * 16)) games, $which: %e s wall, %U s user, %M KB peak" \
      "$bin" arena run w -q --batches 200
  done
done
