#!/usr/bin/env python3
"""An armies bot for ladder's line protocol: commits its armies evenly over the rounds left."""
import sys

seat = 1
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "ladder":
        print("ready even", flush=True)
    elif words[0] == "new":
        seat = int(words[1].split("=")[1])
    elif words[0] == "turn":
        # turn round R of N armies A1 A2 score S1 S2
        rnd, rounds = int(words[2]), int(words[4])
        armies = int(words[6]) if seat == 1 else int(words[7])
        print(armies // (rounds - rnd + 1), flush=True)
    elif words[0] == "over":
        print("ready", flush=True)  # the game is over: ready for the next one
    elif words[0] == "quit":
        break
