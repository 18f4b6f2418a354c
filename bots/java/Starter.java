// A starter bot in Java for ladder's line protocol (docs/PROTOCOL.md).
//
// It plays two games, told apart by the greeting:
//   breakthrough  keeps the board from `new` and `played`; wins at once if it
//                 can, else captures, else steps where no enemy piece can
//                 capture, else takes any step;
//   troops        the most even split of its troops (3,3,4 for 10), the
//                 larger shares on random fields.
// Ties are broken by a generator seeded from `new seat=S seed=N`, so the
// same seed gives the same game. The seed is a 64-bit unsigned integer:
// Long.parseUnsignedLong reads it into a long's bits.
//
// Build and run (from the project root):
//   javac -d bots/java bots/java/Starter.java
//   ladder match breakthrough "cmd:java -cp bots/java Starter" greedy --games 20
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

public class Starter {
    /** splitmix64: a small, good generator that every language can write alike. */
    static final class Random {
        long state;

        long next() {
            long z = (state += 0x9E3779B97F4A7C15L);
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        int below(int n) {
            return (int) Long.remainderUnsigned(next(), n);
        }
    }

    /** The board, kept from `new` and `played`: board[row][col], row 0 is rank 1. */
    static final class Breakthrough {
        int width = 8, height = 8;
        char[][] board;

        /** White on the first two rows, black on the last two. */
        void reset() {
            board = new char[height][width];
            for (int row = 0; row < height; row++)
                for (int col = 0; col < width; col++)
                    board[row][col] = row < 2 ? 'w' : row >= height - 2 ? 'b' : '.';
        }

        /** "b2c3": from b2 to c3; the piece on c3, if any, is captured. */
        void apply(String move) {
            int fromCol = move.charAt(0) - 'a', fromRow = move.charAt(1) - '1';
            int toCol = move.charAt(2) - 'a', toRow = move.charAt(3) - '1';
            board[toRow][toCol] = board[fromRow][fromCol];
            board[fromRow][fromCol] = '.';
        }

        /** Whether a piece of `by` could capture on (row, col). */
        boolean attacked(int row, int col, char by) {
            int from = by == 'w' ? row - 1 : row + 1; // where such an attacker stands
            if (from < 0 || from >= height) return false;
            for (int c : new int[] {col - 1, col + 1})
                if (c >= 0 && c < width && board[from][c] == by) return true;
            return false;
        }

        String choose(char me, Random rng) {
            char enemy = me == 'w' ? 'b' : 'w';
            int forward = me == 'w' ? 1 : -1, goal = me == 'w' ? height - 1 : 0;
            List<List<String>> ranked = new ArrayList<>(); // 3 wins, 2 captures, 1 is safe, 0 any
            for (int rank = 0; rank < 4; rank++) ranked.add(new ArrayList<>());
            for (int row = 0; row < height; row++) {
                int r = row + forward;
                if (r < 0 || r >= height) continue;
                for (int col = 0; col < width; col++) {
                    if (board[row][col] != me) continue;
                    for (int dc = -1; dc <= 1; dc++) {
                        int c = col + dc;
                        if (c < 0 || c >= width) continue;
                        char target = board[r][c];
                        if (target == me || (dc == 0 && target != '.')) continue;
                        int rank = r == goal ? 3 : target == enemy ? 2 : attacked(r, c, enemy) ? 0 : 1;
                        ranked.get(rank).add(square(row, col) + square(r, c));
                    }
                }
            }
            for (int rank = 3; rank >= 0; rank--) {
                List<String> steps = ranked.get(rank);
                if (!steps.isEmpty()) return steps.get(rng.below(steps.size()));
            }
            return ""; // no piece left: ladder never asks then
        }

        static String square(int row, int col) {
            return (char) ('a' + col) + Integer.toString(row + 1);
        }
    }

    static String troopsMove(int troops, Random rng) {
        int[] split = new int[3];
        for (int i = 0; i < 3; i++) split[i] = troops / 3 + (i < troops % 3 ? 1 : 0);
        for (int i = 2; i > 0; i--) { // Fisher-Yates
            int j = rng.below(i + 1), t = split[i];
            split[i] = split[j];
            split[j] = t;
        }
        return split[0] + "," + split[1] + "," + split[2];
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintStream out = System.out;
        String game = "";
        int troops = 10;
        Breakthrough breakthrough = new Breakthrough();
        Random rng = new Random();
        for (String line; (line = in.readLine()) != null; ) {
            String[] words = line.trim().split("\\s+");
            switch (words[0]) {
                case "ladder": // ladder 2 GAME move_ms=MS KEY=VALUE...
                    game = words[2];
                    if (!game.equals("breakthrough") && !game.equals("troops")) {
                        System.err.println("this bot plays breakthrough and troops, not " + game);
                        System.exit(1);
                    }
                    for (int i = 3; i < words.length; i++) {
                        String[] kv = words[i].split("=", 2);
                        if (kv[0].equals("width")) breakthrough.width = Integer.parseInt(kv[1]);
                        if (kv[0].equals("height")) breakthrough.height = Integer.parseInt(kv[1]);
                        if (kv[0].equals("troops")) troops = Integer.parseInt(kv[1]);
                    }
                    out.println("ready starter-java");
                    break;
                case "new": // new seat=S seed=N
                    rng.state = Long.parseUnsignedLong(words[2].substring("seed=".length()));
                    breakthrough.reset();
                    break;
                case "turn": // turn side COLOUR board ROWS, or turn round R of N score S1 S2
                    if (game.equals("troops")) out.println(troopsMove(troops, rng));
                    else out.println(breakthrough.choose(words[2].equals("white") ? 'w' : 'b', rng));
                    break;
                case "played": // played MOVE1 MOVE2, `-` for the seat not to move
                    if (game.equals("breakthrough"))
                        for (int seat = 1; seat <= 2; seat++)
                            if (!words[seat].equals("-")) breakthrough.apply(words[seat]);
                    break;
                case "over":
                    out.println("ready"); // ready for the next game
                    break;
                case "quit":
                    return;
                default:
                    break;
            }
            out.flush();
        }
    }
}
