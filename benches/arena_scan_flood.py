#!/usr/bin/env python3
"""The games an arena plays a second while visitors keep asking its server
for filtered pages, against the same arena left alone (docs/PERFORMANCE.md,
"Visitors' scans against the arena's play").

    cargo build --release && python3 benches/arena_scan_flood.py [OLD_LADDER] [GAMES]

Makes an arena of bidding with `dp` and two `random` bots and about GAMES
finished games (50,000 by default), runs it with `ladder arena run
--listen`, and counts the games it plays in 10 s alone, then in 10 s while
8 clients ask again and again for `/api/games?termination=normal` at random
offsets (each a scan of every game). The clients run at nice 19 in a
process of their own: a visitor is on another machine, and takes no CPU
the arena would have. With OLD_LADDER, that binary's arena is measured
too, the two in turn, twice. Prints a Markdown table.
"""

import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LADDER = os.path.join(ROOT, "target", "release", "ladder")
CLIENTS = 8
SECONDS = 10


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def games(url):
    with urllib.request.urlopen(url + "/api/arena", timeout=600) as r:
        return json.load(r)["games"]


def rate(url):
    before = games(url)
    time.sleep(SECONDS)
    return (games(url) - before) / SECONDS


def flood(url, seconds, offsets):
    """The clients' side: CLIENTS threads asking for scans for `seconds`."""
    stop = time.monotonic() + seconds

    def ask():
        while time.monotonic() < stop:
            offset = random.randrange(offsets)
            try:
                urllib.request.urlopen(
                    f"{url}/api/games?termination=normal&offset={offset}", timeout=600
                ).read()
            except OSError:
                pass

    threads = [threading.Thread(target=ask) for _ in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def measure(binary, arena, offsets):
    """Games a second: alone, then under the clients' scans."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [binary, "arena", "run", arena, "-q", "--listen", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            games(url)
            break
        except OSError:
            time.sleep(0.1)
    time.sleep(2)
    alone = rate(url)
    clients = subprocess.Popen(
        ["nice", "-n", "19", sys.executable, __file__, "--flood", url,
         str(SECONDS + 3), str(offsets)]
    )
    time.sleep(1)
    flooded = rate(url)
    clients.wait()
    server.kill()
    server.wait()
    return alone, flooded


def main():
    args = sys.argv[1:]
    if args and args[0] == "--flood":
        flood(args[1], float(args[2]), int(args[3]))
        return
    old = args.pop(0) if args and not args[0].isdigit() else None
    total = int(args[0]) if args else 50_000
    with tempfile.TemporaryDirectory() as tmp:
        arena = os.path.join(tmp, "arena")
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "check": True}
        subprocess.run([LADDER, "arena", "init", arena, "--game", "bidding"], **quiet)
        for name, bot in [("dp", "dp"), ("r1", "random"), ("r2", "random")]:
            subprocess.run([LADDER, "arena", "add", arena, name, "--builtin", bot], **quiet)
        # batches of 16 games
        subprocess.run([LADDER, "arena", "run", arena, "-q", "--batches", str(total // 16)],
                       **quiet)
        print(f"an arena of bidding, {total // 16 * 16:,} games and on; games a second, "
              f"alone and under {CLIENTS} clients' scans")
        print()
        print("| ladder | run | alone (baseline) | under the scans | ratio |")
        print("| --- | ---: | ---: | ---: | ---: |")
        binaries = [("this tree", LADDER)] + ([("OLD", old)] if old else [])
        for run in (1, 2):
            for name, binary in binaries:
                alone, flooded = measure(binary, arena, total)
                print(f"| {name} | {run} | {alone:,.0f} | {flooded:,.0f} | {flooded / alone:.2f} |")


if __name__ == "__main__":
    main()
