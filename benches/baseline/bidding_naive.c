/* The straightforward exact solver of the bidding game, for comparison with
 * ladder's (src/games/bidding/solver.rs): backward induction by increasing
 * total money, each state's full bid matrix, max-min for player 1.
 * Usage: bidding_naive MONEY  (prints states won by player 1, by player 2, drawn)
 */
#include <stdio.h>
#include <stdlib.h>

#define LEN 10
static int M;
static signed char *V; /* [adv][pos][m1][m2], 1 / 0 / -1 for player 1 */

static int idx(int adv, int pos, int m1, int m2) { return ((adv * (LEN + 1) + pos) * (M + 1) + m1) * (M + 1) + m2; }

static int val(int adv, int pos, int m1, int m2) {
    if (pos == 0) return 1;
    if (pos >= LEN) return -1;
    if (m1 == 0 && m2 == 0) return 0;
    return V[idx(adv, pos, m1, m2)];
}

static int next(int adv, int pos, int m1, int m2, int b1, int b2) {
    if (b1 > b2) return val(adv, pos - 1, m1 - b1, m2);
    if (b2 > b1) return val(adv, pos + 1, m1, m2 - b2);
    if (adv == 0) return val(1, pos - 1, m1 - b1, m2); /* player 1 wins the tie */
    return val(0, pos + 1, m1, m2 - b2);
}

int main(int argc, char **argv) {
    M = argc > 1 ? atoi(argv[1]) : 100;
    V = calloc((size_t)2 * (LEN + 1) * (M + 1) * (M + 1), 1);
    long won1 = 0, won2 = 0, drawn = 0;
    for (int total = 1; total <= 2 * M; total++)
        for (int m1 = total > M ? total - M : 0; m1 <= (total < M ? total : M); m1++) {
            int m2 = total - m1;
            for (int pos = 1; pos < LEN; pos++)
                for (int adv = 0; adv < 2; adv++) {
                    int lo1 = m1 ? 1 : 0, lo2 = m2 ? 1 : 0, best = -2;
                    for (int b1 = lo1; b1 <= m1; b1++) {
                        int worst = 2;
                        for (int b2 = lo2; b2 <= m2; b2++) {
                            int v = next(adv, pos, m1, m2, b1, b2);
                            if (v < worst) worst = v;
                        }
                        if (worst > best) best = worst;
                    }
                    V[idx(adv, pos, m1, m2)] = (signed char)best;
                    if (best == 1) won1++; else if (best == -1) won2++; else drawn++;
                }
        }
    printf("%ld %ld %ld\n", won1, won2, drawn);
    return 0;
}
