#!/usr/bin/env python3
"""A troops (Colonel Blotto) bot for ladder's line protocol: the most even split
of its troops (3,3,4 for 10), the larger share on a random field."""
import random
import sys

troops = 10
rng = random.Random(0)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "ladder":
        for word in words[3:]:
            key, _, value = word.partition("=")
            if key == "troops":
                troops = int(value)
        print("ready balanced", flush=True)
    elif words[0] == "new":
        rng = random.Random(int(words[2].split("=")[1]))
    elif words[0] == "turn":
        split = [troops // 3 + (1 if i < troops % 3 else 0) for i in range(3)]
        rng.shuffle(split)
        print(",".join(map(str, split)), flush=True)
    elif words[0] == "over":
        print("ready", flush=True)  # the game is over: ready for the next one
    elif words[0] == "quit":
        break
