#!/usr/bin/env python3
"""A breakthrough bot for ladder's line protocol: wins at once if it can, else
captures, else steps where no enemy piece can capture, else any step.
It plays any board size: the greeting says `width=W height=H` (8 and 8)."""
import random
import sys

FILES = "abcdefgh"
WIDTH, HEIGHT = 8, 8


def moves(board, me):
    """(from, to, captures) for every legal step of `me` ('w' or 'b')."""
    enemy = "b" if me == "w" else "w"
    forward = 1 if me == "w" else -1
    found = []
    for row in range(HEIGHT):
        for col in range(WIDTH):
            if board[row][col] != me:
                continue
            r = row + forward
            if not 0 <= r < HEIGHT:
                continue
            for dc in (-1, 0, 1):
                c = col + dc
                if not 0 <= c < WIDTH:
                    continue
                target = board[r][c]
                if target == me or (dc == 0 and target != "."):
                    continue
                found.append(((row, col), (r, c), target == enemy))
    return found


def attacked(board, square, by):
    """Whether a piece of `by` could capture on `square`."""
    row, col = square
    back = -1 if by == "w" else 1  # where an attacker of that colour stands
    return any(
        0 <= row + back < HEIGHT
        and 0 <= col + dc < WIDTH
        and board[row + back][col + dc] == by
        for dc in (-1, 1)
    )


def name(square):
    return FILES[square[1]] + str(square[0] + 1)


rng = random.Random(0)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "ladder":
        params = dict(w.split("=", 1) for w in words[3:] if "=" in w)
        WIDTH = int(params.get("width", 8))
        HEIGHT = int(params.get("height", 8))
        print("ready greedy-py", flush=True)
    elif words[0] == "new":
        rng = random.Random(int(words[2].split("=")[1]))
    elif words[0] == "turn":
        # turn side white board ROWS: WIDTH x HEIGHT cells, the last row
        # first, columns from a
        me = "w" if words[2] == "white" else "b"
        cells = words[4]
        board = [
            list(cells[(HEIGHT - 1 - row) * WIDTH:(HEIGHT - row) * WIDTH])
            for row in range(HEIGHT)
        ]
        enemy = "b" if me == "w" else "w"
        goal = HEIGHT - 1 if me == "w" else 0
        options = moves(board, me)
        wins = [m for m in options if m[1][0] == goal]
        captures = [m for m in options if m[2]]
        safe = [m for m in options if not attacked(board, m[1], enemy)]
        pick = rng.choice(wins or captures or safe or options)
        print(name(pick[0]) + name(pick[1]), flush=True)
    elif words[0] == "over":
        print("ready", flush=True)  # the game is over: ready for the next one
    elif words[0] == "quit":
        break
