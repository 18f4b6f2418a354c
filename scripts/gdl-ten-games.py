#!/usr/bin/env python3
"""How one ladder binary copes with GDL descriptions it has not seen: for
each, the wall time of loading it and playing one random game, of ten
random games, the peak memory of the ten, and whether it was ground whole,
ground on what its questions can ask, or reasoned state by state
(docs/PERFORMANCE.md, "Loading descriptions").

Usage: scripts/gdl-ten-games.py LADDER KIF...
Each run is a whole process (`ladder match gdl:KIF random random -j 1`)
under /usr/bin/time; the one-game time is the best of three.
"""
import subprocess, sys, tempfile


def run(binary, kif, games):
    """(seconds, peak KiB, stderr lines of ladder) of one match."""
    with tempfile.TemporaryDirectory() as reports:
        done = subprocess.run(
            ["/usr/bin/time", "-f", "time %e %M", binary, "match", f"gdl:{kif}",
             "random", "random", "--games", str(games), "-j", "1", "-q",
             "--reports", reports],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines = done.stderr.splitlines()
    if done.returncode != 0:
        sys.exit(f"{kif}: ladder failed: {done.stderr.strip()}")
    seconds, kib = lines[-1].split()[1:]
    return float(seconds), int(kib), lines[:-1]


binary, kifs = sys.argv[1], sys.argv[2:]
print("| description | reasoned | load and one game | ten games | peak memory |")
print("| --- | --- | ---: | ---: | ---: |")
for kif in kifs:
    one = min(run(binary, kif, 1)[0] for _ in range(3))
    ten, kib, said = run(binary, kif, 10)
    way = ("state by state" if any("state by state" in line for line in said)
           else "ground on what is asked" if any("can ask instead" in line for line in said)
           else "ground whole")
    name = kif.split("/")[-1]
    print(f"| `{name}` | {way} | {one:.2f} s | {ten:.2f} s | {kib / 1024:.0f} MB |")
