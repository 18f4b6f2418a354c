#!/usr/bin/env python3
"""Time and memory of `ladder merge`, against the number of shards and of games.

    cargo build --release && python3 benches/merge.py [GAMES ...]

For each case, a season of two built-in bots is split into shards whose
journals are written synthetically (each game a short valid journal line,
in the shard it belongs to: game i in shard (i // 2) mod N + 1), then
`ladder merge` runs under /usr/bin/time. Cases: 10 and 1,000 shards of the
same games (memory should not grow with shards), and 1,000 shards of a
tenth of the games (time should grow with games). The default is
10,000,000 games; give another count to try a smaller one first.
Prints a Markdown table for docs/PERFORMANCE.md.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LADDER = os.path.join(ROOT, "target", "release", "ladder")


def season(tmp, games, shards):
    """A season folder under tmp with `shards` shard folders holding `games` games."""
    cfg = os.path.join(tmp, "big.toml")
    with open(cfg, "w") as f:
        f.write(f"""
[season]
name = "big"
game = "coordination"
games_per_pair = {games}
seed = 1

[[bot]]
name = "a"
builtin = "left"

[[bot]]
name = "b"
builtin = "random"
""")
    reports = os.path.join(tmp, "reports")
    # a shard run that plays nothing writes season.json and shard.json
    subprocess.run(
        [LADDER, "run", cfg, "--reports", reports, "-q", "--shard", f"1/{shards}", "--max-games", "0"],
        check=True,
        capture_output=True,
    )
    dir = os.path.join(reports, "big")
    first = os.path.join(dir, "shards", f"1-of-{shards}")
    with open(os.path.join(first, "season.json")) as f:
        season_json = f.read()
    files = []
    for k in range(1, shards + 1):
        d = os.path.join(dir, "shards", f"{k}-of-{shards}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "season.json"), "w") as f:
            f.write(season_json)
        mine = (games // (2 * shards)) * 2 + min(2, max(0, games % (2 * shards) - 2 * (k - 1)))
        with open(os.path.join(d, "shard.json"), "w") as f:
            json.dump({"shard": k, "of": shards, "games": mine, "season_games": games,
                       "compress": False}, f, indent=2)
            f.write("\n")
        files.append(open(os.path.join(d, "games.jsonl"), "w", buffering=1 << 16))
    seats = ['["a","b"]', '["b","a"]']
    for i in range(games):
        line = (f'{{"index":{i},"pair":0,"seats":{seats[i % 2]},"seed":{i},"result":"draw",'
                f'"goals":[100,100],"termination":{{"kind":"normal"}},"plies":1,"moves":[["left","left"]]}}\n')
        files[(i // 2) % shards].write(line)
    for f in files:
        f.close()
    return dir


def merge(dir):
    start = time.monotonic()
    out = subprocess.run(
        ["/usr/bin/time", "-f", "%M", LADDER, "merge", dir],
        capture_output=True,
        text=True,
    )
    wall = time.monotonic() - start
    if out.returncode != 0:
        sys.exit(f"merge failed:\n{out.stdout}\n{out.stderr}")
    max_rss_kb = int(out.stderr.strip().splitlines()[-1])
    size = os.path.getsize(os.path.join(dir, "games.jsonl"))
    return wall, max_rss_kb, size


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    cases = [(games, 10), (games, 1000), (games // 10, 1000)]
    print("| games | shards | journal | merge wall | per million games | max RSS |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for n, shards in cases:
        with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as tmp:
            dir = season(tmp, n, shards)
            wall, rss, size = merge(dir)
            print(f"| {n:,} | {shards:,} | {size / 1e6:,.0f} MB | {wall:.1f} s | "
                  f"{wall / (n / 1e6):.2f} s | {rss / 1024:.0f} MB |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
