#!/usr/bin/env python3
"""Writes a GDL description with a chain of N rules, each reading the next
one's head, to stdout (docs/PERFORMANCE.md, "A round takes up only the rules
whose relations grew"): a game of one move whose goal needs the whole chain.

Usage: scripts/gdl-chain.py N > chainN.kif
"""
import sys

n = int(sys.argv[1])
lines = [
    "(role a)", "(role b)", "(init (s 0))", "(<= (legal ?r go) (role ?r))",
    "(<= (next (s 1)) (true (s 0)))", "(<= terminal (true (s 1)))",
    "(<= (goal a 100) (p0))", "(<= (goal a 0) (not (p0)))", "(<= (goal b 0) (role b))",
    f"(<= (p{n}) (true (s 0)))",
]
lines += [f"(<= (p{i}) (p{i + 1}))" for i in range(n)]
print("\n".join(lines))
