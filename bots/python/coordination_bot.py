#!/usr/bin/env python3
"""A coordination bot for ladder's line protocol: follows the convention
`left`, and switches to whatever the other player did if they keep doing it.

`--think MS` makes it wait MS milliseconds before every move, as a bot that
asks a network model or a GPU would: configs/slow-bots.toml plays it."""
import sys
import time

think = 0.0
if len(sys.argv) == 3 and sys.argv[1] == "--think":
    think = int(sys.argv[2]) / 1000

seat, theirs = 1, []
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "ladder":
        print("ready convention", flush=True)
    elif words[0] == "new":
        seat, theirs = int(words[1].split("=")[1]), []
    elif words[0] == "turn":
        time.sleep(think)
        # follow the other player once they chose the same side twice in a row
        if len(theirs) >= 2 and theirs[-1] == theirs[-2]:
            print(theirs[-1], flush=True)
        else:
            print("left", flush=True)
    elif words[0] == "played":
        theirs.append(words[2] if seat == 1 else words[1])
    elif words[0] == "over":
        print("ready", flush=True)  # the game is over: ready for the next one
    elif words[0] == "quit":
        break
