#!/usr/bin/env python3
"""Wall time to load each GDL description and play one random game, for two
ladder binaries side by side (docs/PERFORMANCE.md, "Loading descriptions").

Usage: scripts/gdl-load-times.py OLD_LADDER NEW_LADDER [KIF...]
Best of three runs each; the default descriptions are every games/gdl/*.kif.
"""
import glob, subprocess, sys, tempfile, time

def best(binary, kif):
    times = []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as reports:
            start = time.perf_counter()
            subprocess.run([binary, "match", f"gdl:{kif}", "random", "random",
                            "--games", "1", "-q", "--reports", reports],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
    return min(times)

old, new = sys.argv[1], sys.argv[2]
kifs = sys.argv[3:] or sorted(glob.glob("games/gdl/*.kif"))
print("| description | before | after | ratio |")
print("| --- | ---: | ---: | ---: |")
for kif in kifs:
    a, b = best(old, kif), best(new, kif)
    print(f"| `{kif.split('/')[-1]}` | {a:.2f} s | {b:.2f} s | {a / b:.1f}x |")
