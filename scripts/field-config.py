#!/usr/bin/env python3
"""Writes the config of a round-robin of N `random` bots at coordination to
stdout (docs/PERFORMANCE.md, "A large field's reports: one rating fit"):
a season whose games cost next to nothing, so its reports are what it costs.

Usage: scripts/field-config.py N [GAMES_PER_PAIR] > field.toml
"""
import sys

n = int(sys.argv[1])
per_pair = int(sys.argv[2]) if len(sys.argv) > 2 else 2
print("[season]")
print(f'name = "field-{n}"')
print('game = "coordination"')
print('format = "round-robin"')
print(f"games_per_pair = {per_pair}")
print("seed = 1")
for i in range(n):
    print()
    print("[[bot]]")
    print(f'name = "random-{i}"')
    print('builtin = "random"')
