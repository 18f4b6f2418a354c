#!/usr/bin/env python3
"""Peak memory of a fresh season against its number of games: it should be
flat (docs/PERFORMANCE.md, "Flat memory while playing").

    cargo build --release && python3 benches/season_memory.py [OLD_LADDER] [GAMES ...]

Plays armies seasons of `random` against `even` (the fastest games, so the
journal's writer is the busiest) of each size under /usr/bin/time, with
target/release/ladder and, when given, an older binary in the same run.
The default sizes are 100,000, 2,000,000 and 8,000,000 games (the largest
writes a 2.4 GB journal). Prints a Markdown table.
"""

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LADDER = os.path.join(ROOT, "target", "release", "ladder")


def peak(binary, games):
    """(max RSS in KB, wall seconds) of a fresh season of `games` games."""
    with tempfile.TemporaryDirectory() as tmp:
        cfg = os.path.join(tmp, "big.toml")
        with open(cfg, "w") as f:
            f.write(f"""
[season]
name = "big"
game = "armies"
games_per_pair = {games}
seed = 2016

[[bot]]
name = "random"
builtin = "random"

[[bot]]
name = "even"
builtin = "even"
""")
        out = subprocess.run(
            ["/usr/bin/time", "-f", "%M %e", binary, "run", cfg, "-q",
             "--reports", os.path.join(tmp, "reports")],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        kb, secs = out.stderr.strip().splitlines()[-1].split()
        return int(kb), float(secs)


def main():
    args = sys.argv[1:]
    old = args.pop(0) if args and not args[0].isdigit() else None
    sizes = [int(a) for a in args] or [100_000, 2_000_000, 8_000_000]
    binaries = ([("before", old)] if old else []) + [("now", LADDER)]
    print("| games | " + " | ".join(f"{name}: max RSS" for name, _ in binaries) + " |")
    print("| ---: |" + " ---: |" * len(binaries))
    for games in sizes:
        cells = []
        for _, binary in binaries:
            kb, secs = peak(binary, games)
            cells.append(f"{kb:,} KB ({secs:.1f} s)")
        print(f"| {games:,} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
