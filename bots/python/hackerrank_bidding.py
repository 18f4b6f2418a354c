#!/usr/bin/env python3
"""A bot in the format of HackerRank's "The Bidding Game": started afresh for
every move, it reads four lines (player id, bottle position, player 1's bids,
player 2's bids) and prints one bid.

Strategy: replay the bids to know both players' money, then spread its money
evenly over the steps the bottle still has to go toward its goal.
"""
import sys

lines = sys.stdin.read().split("\n")
player = int(lines[0])
position = int(lines[1])
first = [int(b) for b in lines[2].split()] if len(lines) > 2 else []
second = [int(b) for b in lines[3].split()] if len(lines) > 3 else []

money = {1: 100, 2: 100}
advantage = 1  # the draw advantage: player 1 holds it first
for b1, b2 in zip(first, second):
    if b1 > b2 or (b1 == b2 and advantage == 1):
        money[1] -= b1
    else:
        money[2] -= b2
    if b1 == b2:
        advantage = 3 - advantage

mine, theirs = money[player], money[3 - player]
steps = position if player == 1 else 10 - position
if mine == 0:
    bid = 0
elif theirs == 0:
    bid = 1
else:
    bid = max(1, min(mine, mine // max(steps, 1)))
print(bid)
