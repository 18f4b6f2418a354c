#!/usr/bin/env python3
"""A bidding-game bot for ladder's line protocol (docs/PROTOCOL.md).

Strategy: spread its money evenly over the steps the bottle still has to go
toward its own goal, and outbid a broke opponent with 1.
"""
import sys

seat = 1
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "ladder":
        print("ready spread", flush=True)
    elif words[0] == "new":
        seat = int(words[1].split("=")[1])
    elif words[0] == "turn":
        # turn position P money M1 M2 advantage A
        position, m1, m2 = int(words[2]), int(words[4]), int(words[5])
        mine, theirs = (m1, m2) if seat == 1 else (m2, m1)
        steps = position if seat == 1 else 10 - position
        if mine == 0:
            bid = 0
        elif theirs == 0:
            bid = 1
        else:
            bid = max(1, min(mine, mine // max(steps, 1)))
        print(bid, flush=True)
    elif words[0] == "over":
        print("ready", flush=True)  # the game is over: ready for the next one
    elif words[0] == "quit":
        break
