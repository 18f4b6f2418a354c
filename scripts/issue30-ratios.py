#!/usr/bin/env python3
"""Every speed ratio issue 30 asks for, each beside its baseline from the
same run of `cargo bench`, in one table (docs/PERFORMANCE.md, "Issue 30's
ratios in one run").

Runs, in turn:
  cargo bench --bench games -- bare_loop referee_alone season_runner
  cargo bench --bench gdl -- gdl_playout native_playout gdl_prepare
  taskset -c 0 cargo bench --bench external -- raw_pipe_turn$ line_protocol_move$ \
      line_protocol_move_in_bwrap hackerrank_move$ hackerrank_move_in_bwrap \
      hackerrank_one_move_game_in_bwrap
(the bot programs' benches pinned to one CPU: unpinned, the figures are
dominated by waking the other core, docs/PERFORMANCE.md), reads divan's
medians and prints figure, ratio, target and whether it is met.

Usage: scripts/issue30-ratios.py [--logs DIR | --from-logs DIR]
  --logs DIR       also keep each command's output in DIR (games.txt,
                   gdl.txt, external.txt)
  --from-logs DIR  read those files instead of running the commands
"""
import os
import re
import subprocess
import sys

UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
BRANCH = re.compile(r"^(?P<indent>(?:│  |   )*)(?:├─|╰─) (?P<name>\S+)\s*(?P<rest>.*)$")


def medians(text):
    """Each bench's median time in seconds, by its path in divan's tree."""
    found = {}
    path = []
    for line in text.splitlines():
        m = BRANCH.match(line)
        if not m:
            continue
        depth = len(m.group("indent")) // 3
        path = path[:depth] + [m.group("name")]
        cells = [c.strip() for c in m.group("rest").split("│")]
        if len(cells) >= 3 and cells[2]:
            value, unit = cells[2].split()
            found[tuple(path)] = float(value) * UNITS[unit]
    return found


def run(command, log):
    print("$", " ".join(command), file=sys.stderr)
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    if log:
        with open(log, "w") as f:
            f.write(out)
    return out


def outputs(logs, keep):
    commands = {
        "games": ["cargo", "bench", "--bench", "games", "--",
                  "bare_loop", "referee_alone", "season_runner"],
        "gdl": ["cargo", "bench", "--bench", "gdl", "--",
                "gdl_playout", "native_playout", "gdl_prepare"],
        "external": ["taskset", "-c", "0", "cargo", "bench", "--bench", "external", "--",
                     "raw_pipe_turn$", "line_protocol_move$", "line_protocol_move_in_bwrap",
                     "hackerrank_move$", "hackerrank_move_in_bwrap",
                     "hackerrank_one_move_game_in_bwrap"],
    }
    if logs:
        return {k: open(os.path.join(logs, f"{k}.txt")).read() for k in commands}
    return {k: run(c, keep and os.path.join(keep, f"{k}.txt")) for k, c in commands.items()}


def main():
    args = dict(zip(sys.argv[1::2], sys.argv[2::2]))
    if args.get("--logs"):
        os.makedirs(args["--logs"], exist_ok=True)
    out = {k: medians(v) for k, v in outputs(args.get("--from-logs"), args.get("--logs")).items()}
    rows = []

    def row(figure, value, target, met):
        rows.append((figure, value, target, "-" if met is None else "yes" if met else "no"))

    g = out["games"]
    for game in ["Armies", "Bidding", "Breakthrough", "Coordination", "Troops"]:
        bare = g[("bare_loop", game)]
        referee = bare / g[("referee_alone", game)]
        row(f"{game.lower()}: referee alone / bare loop", f"{referee:.2f}", "(bounds --jobs 1)", None)
        for jobs in ["1", "2"]:
            r = bare / g[("season_runner", game, jobs)]
            row(f"{game.lower()}: runner --jobs {jobs} / bare loop", f"{r:.2f}", ">= 0.8", r >= 0.8)
    d = out["gdl"]
    for game in ["Breakthrough", "Bidding", "Armies", "Troops", "Coordination"]:
        r = d[("native_playout", game)] / d[("gdl_playout", game.lower())]
        if game == "Breakthrough":
            row(f"GDL {game.lower()} playouts / native", f"1/{1 / r:.1f}", ">= 1/10", r >= 0.1)
        else:
            row(f"GDL {game.lower()} playouts / native", f"1/{1 / r:.1f}", "(reported)", None)
    loads = sorted(((k[1], v) for k, v in d.items() if k[0] == "gdl_prepare"),
                   key=lambda kv: -kv[1])
    name, slowest = loads[0]
    row(f"slowest shipped load ({name})", f"{slowest * 1e3:.0f} ms", "< 1 s", slowest < 1.0)
    e = out["external"]
    raw = e[("raw_pipe_turn",)]
    for bench, label in [("line_protocol_move", "line-protocol move"),
                         ("line_protocol_move_in_bwrap", "line-protocol move in bwrap")]:
        if (bench,) in e:
            r = e[(bench,)] / raw
            row(f"{label} / raw pipe turn (pinned)", f"{r:.2f}", "<= 1.2", r <= 1.2)
    if ("hackerrank_move_in_bwrap",) in e:
        r = e[("hackerrank_move_in_bwrap",)] / e[("hackerrank_move",)]
        row("HackerRank move in bwrap / unsandboxed", f"{r:.2f}", "<= 1.5", r <= 1.5)
        start = e[("hackerrank_one_move_game_in_bwrap",)] - e[("hackerrank_move_in_bwrap",)]
        row("HackerRank game's sandbox start", f"{start * 1e3:.1f} ms", "(reported)", None)
    width = max(len(r[0]) for r in rows)
    print(f"| {'figure':<{width}} | value | target | met |")
    print(f"| {'-' * width} | ---: | --- | --- |")
    for figure, value, target, met in rows:
        print(f"| {figure:<{width}} | {value} | {target} | {met} |")


if __name__ == "__main__":
    main()
