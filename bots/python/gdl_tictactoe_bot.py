#!/usr/bin/env python3
"""Tic-tac-toe over ladder's line protocol, as the GDL game
games/gdl/tictactoe.kif: takes the centre if it is free, else the first
blank cell. It shows how a bot reads a GDL game: the description arrives in
the greeting as a JSON string (`text="..."`), the observation lists the true
facts, and a move is one KIF term.

    ladder match gdl:games/gdl/tictactoe.kif "cmd:python3 bots/python/gdl_tictactoe_bot.py" random
"""
import json
import re
import sys


def main():
    for line in sys.stdin:
        line = line.strip()
        if line.startswith("ladder "):
            text = re.search(r' text=("(?:[^"\\]|\\.)*")', line)
            rules = json.loads(text.group(1)) if text else ""
            if "(role xplayer)" not in rules:
                print("# this is not tic-tac-toe", flush=True)
            print("ready gdl-tictactoe", flush=True)
        elif line.startswith("turn "):
            blank = re.findall(r"\(cell (\d) (\d) b\)", line)
            row, col = ("2", "2") if ("2", "2") in blank else blank[0]
            print(f"(mark {row} {col})", flush=True)
        elif line.startswith("over "):
            print("ready", flush=True)
        elif line == "quit":
            return


if __name__ == "__main__":
    main()
