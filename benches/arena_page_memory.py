#!/usr/bin/env python3
"""Peak memory of an arena's server answering filtered games pages, a
shallow one and one deep in the history (docs/PERFORMANCE.md, "A filtered
page deep in the history").

    cargo build --release && python3 benches/arena_page_memory.py [OLD_LADDER] [GAMES]

Makes an arena of coordination with three `random` bots and about GAMES
finished games (1,000,000 by default; batches of 4,096), serves it with
`ladder arena serve`, and asks in turn `/api/games?termination=normal&limit=1`
(the first request, which folds the whole history into the server's board)
and the same filter with `limit=1000&offset=99999999999`, reading the
server's peak resident memory (VmHWM) after each. With OLD_LADDER, the same
arena is served by that binary too, in the same run. Prints a Markdown table.
"""

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LADDER = os.path.join(ROOT, "target", "release", "ladder")
BATCH = 4096

CONFIG = f"""
[season]
game = "coordination"
seed = 3

[arena]
batch_games = {BATCH}

[[bot]]
name = "r1"
builtin = "random"

[[bot]]
name = "r2"
builtin = "random"

[[bot]]
name = "r3"
builtin = "random"
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def peak_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError("no VmHWM")


def measure(binary, arena):
    """The server's peak memory (KB) after the first page and after the deep one."""
    port = free_port()
    server = subprocess.Popen(
        [binary, "arena", "serve", arena, "--listen", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/api/games?termination=normal"
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/arena", timeout=5).read()
                break
            except OSError:
                time.sleep(0.1)
        urllib.request.urlopen(url + "&limit=1", timeout=600).read()
        first = peak_kb(server.pid)
        urllib.request.urlopen(url + "&limit=1000&offset=99999999999", timeout=600).read()
        deep = peak_kb(server.pid)
        return first, deep
    finally:
        server.kill()
        server.wait()


def main():
    args = sys.argv[1:]
    old = args.pop(0) if args and not args[0].isdigit() else None
    games = int(args[0]) if args else 1_000_000
    with tempfile.TemporaryDirectory() as tmp:
        cfg = os.path.join(tmp, "arena.toml")
        with open(cfg, "w") as f:
            f.write(CONFIG)
        arena = os.path.join(tmp, "arena")
        subprocess.run([LADDER, "arena", "init", arena, "--config", cfg], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        batches = max(1, games // BATCH)
        subprocess.run([LADDER, "arena", "run", arena, "--batches", str(batches), "-q"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"an arena of {batches * BATCH:,} games; the server's peak resident memory")
        print()
        print("| ladder | after the first filtered page | after `offset=99999999999` |")
        print("| --- | ---: | ---: |")
        for name, binary in [("this tree", LADDER)] + ([("OLD", old)] if old else []):
            first, deep = measure(binary, arena)
            print(f"| {name} | {first / 1024:,.0f} MB | {deep / 1024:,.0f} MB |")


if __name__ == "__main__":
    main()
