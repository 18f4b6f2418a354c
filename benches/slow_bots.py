#!/usr/bin/env python3
"""Slow bots at full concurrency: wall time, time losses and processes started
for seasons of bots that wait more than they compute, each beside its ideal.

    cargo build --release --example testbot && python3 benches/slow_bots.py

Seasons (coordination, 20 rounds, move_time_ms = 1000, 2 bots):
- `configs/slow-bots.toml`: the shipped Python bot waiting 20 ms a move
  against the built-in `left`, 1,000 games, at --jobs 25, 100, 250 and auto;
- the same with the compiled test bot (`testbot --think 20`);
- 500 games of two compiled test bots that sleep 1 s a move (2 rounds),
  all 500 at once.

Ideal = games x seconds a game / games at once (a game of 20 rounds at 20 ms
is 0.4 s; one of 2 rounds at 1 s a move for each seat, asked in turn, 4 s).
The baseline of the same run is the CPU one Python start-up costs here
(`python3 bots/python/coordination_bot.py` answering `quit`), which bounds
what any number of Python processes can cost to start.
Prints a Markdown table for docs/PERFORMANCE.md.
"""

import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LADDER = os.path.join(ROOT, "target", "release", "ladder")
TESTBOT = os.path.join(ROOT, "target", "release", "examples", "testbot")


def python_start_cpu(runs=20):
    """CPU seconds one start of the Python bot costs, from this process's children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(runs):
        subprocess.run(
            ["python3", os.path.join(ROOT, "bots/python/coordination_bot.py")],
            input=b"quit\n",
            check=True,
        )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return spent / runs


def config(tmp, name, bot, games, rounds, think_ms):
    """A season file like configs/slow-bots.toml with `bot` as its slow bot."""
    text = f"""
[season]
name = "{name}"
game = "coordination"
games_per_pair = {games}
seed = 16
move_time_ms = {max(1000, 2 * think_ms)}

[season.params]
rounds = {rounds}

[[bot]]
name = "slow"
command = {json.dumps(bot)}
"""
    if name.startswith("sleep"):
        text += f'\n[[bot]]\nname = "other"\ncommand = {json.dumps(bot)}\n'
    else:
        text += '\n[[bot]]\nname = "left"\nbuiltin = "left"\n'
    path = os.path.join(tmp, name + ".toml")
    with open(path, "w") as f:
        f.write(text)
    return path


def run(tmp, cfg, name, jobs):
    reports = os.path.join(tmp, "reports")
    start = time.monotonic()
    out = subprocess.run(
        [LADDER, "run", cfg, "--reports", reports, "--fresh", "-q", "--jobs", jobs],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    wall = time.monotonic() - start
    if out.returncode != 0:
        sys.exit(f"ladder failed:\n{out.stdout}\n{out.stderr}")
    with open(os.path.join(reports, name, "games.jsonl")) as f:
        games = [json.loads(line) for line in f]
    timeouts = sum(
        1
        for g in games
        if g["termination"]["kind"] == "forfeit"
        and g["termination"]["reason"] == "timeout"
    )
    forfeits = sum(1 for g in games if g["termination"]["kind"] == "forfeit")
    started = re.search(r"bot processes started: (.*)", out.stdout)
    at_once = re.search(r"games at once: ([^;\n]*)", out.stdout)
    delay = re.search(r"worst ([\d.]+) ms, mean ([\d.]+) ms", out.stdout)
    return {
        "wall": wall,
        "games": len(games),
        "timeouts": timeouts,
        "forfeits": forfeits,
        "started": started.group(1) if started else "-",
        "at_once": at_once.group(1) if at_once else jobs,
        "delay": f"{delay.group(1)} / {delay.group(2)}" if delay else "-",
        "warned": "oversubscribed" in out.stderr,
    }


def main():
    for path in (LADDER, TESTBOT):
        if not os.path.exists(path):
            sys.exit(f"{path} is missing: run `cargo build --release --example testbot` first")
    start_cpu = python_start_cpu()
    print(f"baseline: one Python bot start-up costs {start_cpu * 1000:.0f} ms of CPU here\n")
    seasons = [
        ("python", ["python3", "bots/python/coordination_bot.py", "--think", "20"], 1000, 20, 20,
         ["25", "100", "250", "auto"]),
        ("compiled", [TESTBOT, "--think", "20"], 1000, 20, 20, ["25", "100", "250", "auto"]),
        ("sleep1s", [TESTBOT, "--think", "1000"], 500, 2, 1000, ["500", "auto"]),
    ]
    print("| bot | `--jobs` | games at once | wall | ideal | ratio | losses on time | "
          "forfeits | processes started | ladder's delay worst / mean (ms) | warned |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for name, bot, games, rounds, think, jobs_list in seasons:
            cfg = config(tmp, name, bot, games, rounds, think)
            # the slow bot moves in every round; two slow bots are asked in turn
            per_game = rounds * think / 1000 * (2 if name.startswith("sleep") else 1)
            for jobs in jobs_list:
                r = run(tmp, cfg, name, jobs)
                slots = int(re.sub(r"\D", "", r["at_once"].split("up to")[-1]) or jobs)
                ideal = games * per_game / min(slots, games)
                print(
                    f"| {name} | {jobs} | {r['at_once']} | {r['wall']:.1f} s | {ideal:.1f} s | "
                    f"{r['wall'] / ideal:.2f} | {r['timeouts']} | {r['forfeits']} | "
                    f"{r['started']} | {r['delay']} | {'yes' if r['warned'] else 'no'} |"
                )
                sys.stdout.flush()


if __name__ == "__main__":
    main()
