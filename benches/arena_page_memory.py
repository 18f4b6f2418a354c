#!/usr/bin/env python3
"""Peak memory of an arena's server answering filtered games pages, a
shallow one and one deep in the history, and the event log from its start
(docs/PERFORMANCE.md, "A filtered page deep in the history").

    cargo build --release && python3 benches/arena_page_memory.py [OLD_LADDER] [GAMES]

Makes an arena of coordination with three `random` bots and about GAMES
finished games (1,000,000 by default; batches of 4,096), serves it with
`ladder arena serve`, and asks in turn `/api/games?termination=normal&limit=1`
(the first request, which folds the whole history into the server's board)
and the same filter with `limit=1000&offset=99999999999`; then, of a fresh
server, `/api/arena` and `/api/events` from the log's start; reading the
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


class Server:
    """`ladder arena serve` of `arena` by `binary`, on a free port."""

    def __init__(self, binary, arena):
        self.port = free_port()
        self.process = subprocess.Popen(
            [binary, "arena", "serve", arena, "--listen", f"127.0.0.1:{self.port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                self.get("/api/arena")
                return
            except OSError:
                time.sleep(0.1)

    def get(self, path):
        urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=600).read()

    def peak(self, path):
        """The server's peak memory (KB) once it has answered `path`."""
        self.get(path)
        return peak_kb(self.process.pid)

    def stop(self):
        self.process.kill()
        self.process.wait()


def measure(binary, arena):
    """The server's peak memory (KB): after the first filtered page, after
    the deep one; a fresh server's after `/api/arena`, and after the event
    log."""
    server = Server(binary, arena)
    first = server.peak("/api/games?termination=normal&limit=1")
    deep = server.peak("/api/games?termination=normal&limit=1000&offset=99999999999")
    server.stop()
    server = Server(binary, arena)
    fresh = server.peak("/api/arena")
    events = server.peak("/api/events?after=0")
    server.stop()
    return first, deep, fresh, events


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
        print("| ladder | after the first filtered page (baseline) | after `offset=99999999999` "
              "| a fresh server (baseline) | after `/api/events?after=0` |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for name, binary in [("this tree", LADDER)] + ([("OLD", old)] if old else []):
            cells = " | ".join(f"{kb / 1024:,.0f} MB" for kb in measure(binary, arena))
            print(f"| {name} | {cells} |")


if __name__ == "__main__":
    main()
