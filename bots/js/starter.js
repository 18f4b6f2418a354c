#!/usr/bin/env node
// A starter bot in JavaScript (Node) for ladder's line protocol
// (docs/PROTOCOL.md).
//
// It plays two games, told apart by the greeting:
//   breakthrough  keeps the board from `new` and `played`; wins at once if it
//                 can, else captures, else steps where no enemy piece can
//                 capture, else takes any step;
//   troops        the most even split of its troops (3,3,4 for 10), the
//                 larger shares on random fields.
// Ties are broken by a generator seeded from `new seat=S seed=N`, so the
// same seed gives the same game. The seed is a 64-bit unsigned integer, more
// than a Number holds exactly: it is read as a BigInt.
//
// Run (from the project root):
//   ladder match breakthrough "cmd:node bots/js/starter.js" greedy --games 20
"use strict";
const readline = require("readline");

const MASK = (1n << 64n) - 1n;

// splitmix64: a small, good generator that every language can write alike
class Random {
  constructor(seed) {
    this.state = BigInt(seed) & MASK;
  }
  next() {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  }
  below(n) {
    return Number(this.next() % BigInt(n));
  }
}

class Breakthrough {
  constructor(width, height) {
    this.width = width;
    this.height = height;
  }

  // White on the first two rows, black on the last two; row 0 is rank 1.
  reset() {
    this.board = [];
    for (let row = 0; row < this.height; row++) {
      const piece = row < 2 ? "w" : row >= this.height - 2 ? "b" : ".";
      this.board.push(Array(this.width).fill(piece));
    }
  }

  // "b2c3": from b2 to c3; the piece on c3, if any, is captured.
  apply(move) {
    const fromCol = move.charCodeAt(0) - 97, fromRow = Number(move[1]) - 1;
    const toCol = move.charCodeAt(2) - 97, toRow = Number(move[3]) - 1;
    this.board[toRow][toCol] = this.board[fromRow][fromCol];
    this.board[fromRow][fromCol] = ".";
  }

  // whether a piece of `by` could capture on (row, col)
  attacked(row, col, by) {
    const from = by === "w" ? row - 1 : row + 1; // where such an attacker stands
    if (from < 0 || from >= this.height) return false;
    return [col - 1, col + 1].some(
      (c) => c >= 0 && c < this.width && this.board[from][c] === by,
    );
  }

  choose(me, rng) {
    const enemy = me === "w" ? "b" : "w";
    const forward = me === "w" ? 1 : -1;
    const goal = me === "w" ? this.height - 1 : 0;
    const ranked = [[], [], [], []]; // 3 wins, 2 captures, 1 is safe, 0 any other step
    for (let row = 0; row < this.height; row++) {
      const r = row + forward;
      if (r < 0 || r >= this.height) continue;
      for (let col = 0; col < this.width; col++) {
        if (this.board[row][col] !== me) continue;
        for (const dc of [-1, 0, 1]) {
          const c = col + dc;
          if (c < 0 || c >= this.width) continue;
          const target = this.board[r][c];
          if (target === me || (dc === 0 && target !== ".")) continue;
          const rank =
            r === goal ? 3 : target === enemy ? 2 : this.attacked(r, c, enemy) ? 0 : 1;
          ranked[rank].push(square(row, col) + square(r, c));
        }
      }
    }
    for (let rank = 3; rank >= 0; rank--) {
      if (ranked[rank].length > 0) return ranked[rank][rng.below(ranked[rank].length)];
    }
    return ""; // no piece left: ladder never asks then
  }
}

function square(row, col) {
  return String.fromCharCode(97 + col) + String(row + 1);
}

function troopsMove(troops, rng) {
  const split = [0, 1, 2].map((i) => Math.floor(troops / 3) + (i < troops % 3 ? 1 : 0));
  for (let i = 2; i > 0; i--) {
    // Fisher-Yates
    const j = rng.below(i + 1);
    [split[i], split[j]] = [split[j], split[i]];
  }
  return split.join(",");
}

let game = "";
let troops = 10;
let breakthrough = new Breakthrough(8, 8);
let rng = new Random(0);

const input = readline.createInterface({ input: process.stdin, terminal: false });
// console.log writes at once when stdout is a pipe: nothing to flush
input.on("line", (line) => {
  const words = line.trim().split(/\s+/);
  switch (words[0]) {
    case "ladder": {
      // ladder 2 GAME move_ms=MS KEY=VALUE...
      game = words[2];
      if (game !== "breakthrough" && game !== "troops") {
        console.error(`this bot plays breakthrough and troops, not ${game}`);
        process.exit(1);
      }
      const params = {};
      for (const word of words.slice(3)) {
        const at = word.indexOf("=");
        if (at > 0) params[word.slice(0, at)] = word.slice(at + 1);
      }
      breakthrough = new Breakthrough(Number(params.width || 8), Number(params.height || 8));
      troops = Number(params.troops || 10);
      console.log("ready starter-js");
      break;
    }
    case "new": // new seat=S seed=N
      rng = new Random(words[2].split("=")[1]);
      breakthrough.reset();
      break;
    case "turn": // turn side COLOUR board ROWS, or turn round R of N score S1 S2
      if (game === "troops") console.log(troopsMove(troops, rng));
      else console.log(breakthrough.choose(words[2] === "white" ? "w" : "b", rng));
      break;
    case "played": // played MOVE1 MOVE2, `-` for the seat not to move
      if (game === "breakthrough") {
        for (const move of words.slice(1, 3)) if (move !== "-") breakthrough.apply(move);
      }
      break;
    case "over":
      console.log("ready"); // ready for the next game
      break;
    case "quit":
      process.exit(0);
  }
});
