// A starter bot in Go for ladder's line protocol (docs/PROTOCOL.md).
//
// It plays two games, told apart by the greeting:
//
//	breakthrough  keeps the board from `new` and `played`; wins at once if it
//	              can, else captures, else steps where no enemy piece can
//	              capture, else takes any step;
//	troops        the most even split of its troops (3,3,4 for 10), the
//	              larger shares on random fields.
//
// Ties are broken by a generator seeded from `new seat=S seed=N`, so the
// same seed gives the same game.
//
// Build and run (from the project root; one file, no module needed):
//
//	go build -o bots/go/starter bots/go/starter.go
//	ladder match breakthrough "cmd:bots/go/starter" greedy --games 20
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Random is splitmix64: a small, good generator that every language can
// write alike.
type Random struct{ state uint64 }

func (r *Random) next() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

func (r *Random) below(n int) int { return int(r.next() % uint64(n)) }

// Breakthrough keeps the board: board[row][col], row 0 is rank 1.
type Breakthrough struct {
	width, height int
	board         [][]byte
}

// reset puts white on the first two rows and black on the last two.
func (b *Breakthrough) reset() {
	b.board = make([][]byte, b.height)
	for row := range b.board {
		piece := byte('.')
		if row < 2 {
			piece = 'w'
		} else if row >= b.height-2 {
			piece = 'b'
		}
		b.board[row] = []byte(strings.Repeat(string(piece), b.width))
	}
}

// apply plays "b2c3": from b2 to c3; the piece on c3, if any, is captured.
func (b *Breakthrough) apply(move string) {
	fromCol, fromRow := int(move[0]-'a'), int(move[1]-'1')
	toCol, toRow := int(move[2]-'a'), int(move[3]-'1')
	b.board[toRow][toCol] = b.board[fromRow][fromCol]
	b.board[fromRow][fromCol] = '.'
}

// attacked tells whether a piece of `by` could capture on (row, col).
func (b *Breakthrough) attacked(row, col int, by byte) bool {
	from := row + 1 // where such an attacker stands
	if by == 'w' {
		from = row - 1
	}
	if from < 0 || from >= b.height {
		return false
	}
	for _, c := range []int{col - 1, col + 1} {
		if c >= 0 && c < b.width && b.board[from][c] == by {
			return true
		}
	}
	return false
}

func (b *Breakthrough) choose(me byte, rng *Random) string {
	enemy, forward, goal := byte('w'), -1, 0
	if me == 'w' {
		enemy, forward, goal = 'b', 1, b.height-1
	}
	var ranked [4][]string // 3 wins, 2 captures, 1 is safe, 0 any other step
	for row := 0; row < b.height; row++ {
		r := row + forward
		if r < 0 || r >= b.height {
			continue
		}
		for col := 0; col < b.width; col++ {
			if b.board[row][col] != me {
				continue
			}
			for dc := -1; dc <= 1; dc++ {
				c := col + dc
				if c < 0 || c >= b.width {
					continue
				}
				target := b.board[r][c]
				if target == me || (dc == 0 && target != '.') {
					continue
				}
				rank := 0
				switch {
				case r == goal:
					rank = 3
				case target == enemy:
					rank = 2
				case !b.attacked(r, c, enemy):
					rank = 1
				}
				ranked[rank] = append(ranked[rank], square(row, col)+square(r, c))
			}
		}
	}
	for rank := 3; rank >= 0; rank-- {
		if len(ranked[rank]) > 0 {
			return ranked[rank][rng.below(len(ranked[rank]))]
		}
	}
	return "" // no piece left: ladder never asks then
}

func square(row, col int) string { return string(rune('a'+col)) + strconv.Itoa(row+1) }

func troopsMove(troops int, rng *Random) string {
	split := [3]int{}
	for i := range split {
		split[i] = troops / 3
		if i < troops%3 {
			split[i]++
		}
	}
	for i := 2; i > 0; i-- { // Fisher-Yates
		j := rng.below(i + 1)
		split[i], split[j] = split[j], split[i]
	}
	return fmt.Sprintf("%d,%d,%d", split[0], split[1], split[2])
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<20) // a GDL greeting can be long; ours are short
	out := bufio.NewWriter(os.Stdout)
	say := func(line string) {
		out.WriteString(line + "\n")
		out.Flush()
	}
	game, troops := "", 10
	breakthrough := &Breakthrough{width: 8, height: 8}
	rng := &Random{}
	for in.Scan() {
		words := strings.Fields(in.Text())
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "ladder": // ladder 2 GAME move_ms=MS KEY=VALUE...
			game = words[2]
			if game != "breakthrough" && game != "troops" {
				fmt.Fprintf(os.Stderr, "this bot plays breakthrough and troops, not %s\n", game)
				os.Exit(1)
			}
			for _, word := range words[3:] {
				key, value, _ := strings.Cut(word, "=")
				n, _ := strconv.Atoi(value)
				switch key {
				case "width":
					breakthrough.width = n
				case "height":
					breakthrough.height = n
				case "troops":
					troops = n
				}
			}
			say("ready starter-go")
		case "new": // new seat=S seed=N
			rng.state, _ = strconv.ParseUint(strings.TrimPrefix(words[2], "seed="), 10, 64)
			breakthrough.reset()
		case "turn": // turn side COLOUR board ROWS, or turn round R of N score S1 S2
			if game == "troops" {
				say(troopsMove(troops, rng))
			} else if words[2] == "white" {
				say(breakthrough.choose('w', rng))
			} else {
				say(breakthrough.choose('b', rng))
			}
		case "played": // played MOVE1 MOVE2, `-` for the seat not to move
			if game == "breakthrough" {
				for _, move := range words[1:3] {
					if move != "-" {
						breakthrough.apply(move)
					}
				}
			}
		case "over":
			say("ready") // ready for the next game
		case "quit":
			return
		}
	}
}
