/* A starter bot in C for ladder's line protocol (docs/PROTOCOL.md).
 *
 * It plays two games, told apart by the greeting:
 *   breakthrough  keeps the board from `new` and `played`; wins at once if it
 *                 can, else captures, else steps where no enemy piece can
 *                 capture, else takes any step;
 *   troops        the most even split of its troops (3,3,4 for 10), the
 *                 larger shares on random fields.
 * Ties are broken by a generator seeded from `new seat=S seed=N`, so the
 * same seed gives the same game.
 *
 * Build and run (from the project root):
 *   gcc -O2 -o bots/c/starter bots/c/starter.c
 *   ladder match breakthrough "cmd:bots/c/starter" greedy --games 20
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE 8

static char game[64];
static int width = 8, height = 8, troops = 10;
static char board[MAX_SIDE][MAX_SIDE]; /* board[row][col], row 0 is rank 1 */
static uint64_t rng_state;

/* splitmix64: a small, good generator that every language can write alike */
static uint64_t next_random(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int below(int n) { return (int)(next_random() % (uint64_t)n); }

/* ---------------------------------------------------------------- breakthrough */

static void new_board(void) {
    for (int row = 0; row < height; row++)
        for (int col = 0; col < width; col++)
            board[row][col] = row < 2 ? 'w' : row >= height - 2 ? 'b' : '.';
}

/* "b2c3": from b2 to c3; the piece on c3, if any, is captured */
static void apply_move(const char *move) {
    int from_col = move[0] - 'a', from_row = move[1] - '1';
    int to_col = move[2] - 'a', to_row = move[3] - '1';
    board[to_row][to_col] = board[from_row][from_col];
    board[from_row][from_col] = '.';
}

/* whether a piece of `by` could capture on (row, col) */
static int attacked(int row, int col, char by) {
    int from = by == 'w' ? row - 1 : row + 1; /* where such an attacker stands */
    if (from < 0 || from >= height) return 0;
    for (int dc = -1; dc <= 1; dc += 2) {
        int c = col + dc;
        if (c >= 0 && c < width && board[from][c] == by) return 1;
    }
    return 0;
}

typedef struct { int from_row, from_col, to_row, to_col, rank; } Step;

static void breakthrough_move(char me, char *out) {
    char enemy = me == 'w' ? 'b' : 'w';
    int forward = me == 'w' ? 1 : -1, goal = me == 'w' ? height - 1 : 0;
    Step steps[3 * MAX_SIDE * MAX_SIDE];
    int count = 0, best = -1;
    for (int row = 0; row < height; row++) {
        for (int col = 0; col < width; col++) {
            int r = row + forward;
            if (board[row][col] != me || r < 0 || r >= height) continue;
            for (int dc = -1; dc <= 1; dc++) {
                int c = col + dc;
                if (c < 0 || c >= width) continue;
                char target = board[r][c];
                if (target == me || (dc == 0 && target != '.')) continue;
                /* 3: wins, 2: captures, 1: safe, 0: any other step */
                int rank = r == goal ? 3 : target == enemy ? 2 : !attacked(r, c, enemy) ? 1 : 0;
                steps[count++] = (Step){row, col, r, c, rank};
                if (rank > best) best = rank;
            }
        }
    }
    int best_count = 0;
    for (int i = 0; i < count; i++) best_count += steps[i].rank == best;
    int pick = below(best_count); /* a random step of the best rank */
    Step chosen = steps[0];
    for (int i = 0; i < count; i++) {
        if (steps[i].rank == best && pick-- == 0) {
            chosen = steps[i];
            break;
        }
    }
    sprintf(out, "%c%d%c%d", 'a' + chosen.from_col, chosen.from_row + 1, 'a' + chosen.to_col,
            chosen.to_row + 1);
}

/* -------------------------------------------------------------------- troops */

static void troops_move(char *out) {
    int split[3];
    for (int i = 0; i < 3; i++) split[i] = troops / 3 + (i < troops % 3 ? 1 : 0);
    for (int i = 2; i > 0; i--) { /* Fisher-Yates shuffle */
        int j = below(i + 1), t = split[i];
        split[i] = split[j];
        split[j] = t;
    }
    sprintf(out, "%d,%d,%d", split[0], split[1], split[2]);
}

/* ---------------------------------------------------------------- the protocol */

int main(void) {
    static char line[1 << 17]; /* a GDL greeting can be long; ours are short */
    char move[32];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *word = strtok(line, " ");
        if (word == NULL) continue;
        if (strcmp(word, "ladder") == 0) {
            /* ladder 2 GAME move_ms=MS KEY=VALUE... */
            strtok(NULL, " ");
            snprintf(game, sizeof game, "%s", strtok(NULL, " "));
            while ((word = strtok(NULL, " ")) != NULL) {
                if (strncmp(word, "width=", 6) == 0) width = atoi(word + 6);
                if (strncmp(word, "height=", 7) == 0) height = atoi(word + 7);
                if (strncmp(word, "troops=", 7) == 0) troops = atoi(word + 7);
            }
            if (strcmp(game, "breakthrough") != 0 && strcmp(game, "troops") != 0) {
                fprintf(stderr, "this bot plays breakthrough and troops, not %s\n", game);
                return 1;
            }
            printf("ready starter-c\n");
        } else if (strcmp(word, "new") == 0) {
            strtok(NULL, " "); /* seat=S */
            rng_state = strtoull(strtok(NULL, " ") + 5, NULL, 10); /* seed=N */
            new_board();
        } else if (strcmp(word, "turn") == 0) {
            if (strcmp(game, "troops") == 0) {
                troops_move(move);
            } else {
                strtok(NULL, " "); /* turn side COLOUR board ROWS */
                breakthrough_move(strcmp(strtok(NULL, " "), "white") == 0 ? 'w' : 'b', move);
            }
            printf("%s\n", move);
        } else if (strcmp(word, "played") == 0) {
            if (strcmp(game, "breakthrough") == 0) {
                for (int seat = 0; seat < 2; seat++) {
                    word = strtok(NULL, " ");
                    if (strcmp(word, "-") != 0) apply_move(word);
                }
            }
        } else if (strcmp(word, "over") == 0) {
            printf("ready\n"); /* ready for the next game */
        } else if (strcmp(word, "quit") == 0) {
            break;
        }
        fflush(stdout);
    }
    return 0;
}
