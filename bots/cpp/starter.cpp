// A starter bot in C++ for ladder's line protocol (docs/PROTOCOL.md).
//
// It plays two games, told apart by the greeting:
//   breakthrough  keeps the board from `new` and `played`; wins at once if it
//                 can, else captures, else steps where no enemy piece can
//                 capture, else takes any step;
//   troops        the most even split of its troops (3,3,4 for 10), the
//                 larger shares on random fields.
// Ties are broken by a generator seeded from `new seat=S seed=N`, so the
// same seed gives the same game.
//
// Build and run (from the project root):
//   g++ -O2 -std=c++17 -o bots/cpp/starter bots/cpp/starter.cpp
//   ladder match troops "cmd:bots/cpp/starter" random --games 20
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// splitmix64: a small, good generator that every language can write alike
struct Random {
    uint64_t state = 0;
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }
};

struct Step {
    int from_row, from_col, to_row, to_col;
};

class Breakthrough {
  public:
    int width = 8, height = 8;

    // White on the first two rows, black on the last two; row 0 is rank 1.
    void reset() {
        board.assign(height, std::string(width, '.'));
        for (int col = 0; col < width; col++) {
            board[0][col] = board[1][col] = 'w';
            board[height - 1][col] = board[height - 2][col] = 'b';
        }
    }

    // "b2c3": from b2 to c3; the piece on c3, if any, is captured.
    void apply(const std::string &move) {
        int from_col = move[0] - 'a', from_row = move[1] - '1';
        int to_col = move[2] - 'a', to_row = move[3] - '1';
        board[to_row][to_col] = board[from_row][from_col];
        board[from_row][from_col] = '.';
    }

    std::string choose(char me, Random &rng) const {
        char enemy = me == 'w' ? 'b' : 'w';
        int forward = me == 'w' ? 1 : -1, goal = me == 'w' ? height - 1 : 0;
        // by rank: 3 wins, 2 captures, 1 is safe, 0 any other step
        std::vector<Step> ranked[4];
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
                    ranked[rank].push_back({row, col, r, c});
                }
            }
        }
        for (int rank = 3; rank >= 0; rank--) {
            const auto &steps = ranked[rank];
            if (steps.empty()) continue;
            const Step &s = steps[rng.below(static_cast<int>(steps.size()))];
            return square(s.from_row, s.from_col) + square(s.to_row, s.to_col);
        }
        return "";  // no piece left: ladder never asks then
    }

  private:
    std::vector<std::string> board;

    // whether a piece of `by` could capture on (row, col)
    bool attacked(int row, int col, char by) const {
        int from = by == 'w' ? row - 1 : row + 1;  // where such an attacker stands
        if (from < 0 || from >= height) return false;
        for (int c : {col - 1, col + 1})
            if (c >= 0 && c < width && board[from][c] == by) return true;
        return false;
    }

    static std::string square(int row, int col) {
        return std::string(1, static_cast<char>('a' + col)) + std::to_string(row + 1);
    }
};

std::string troops_move(int troops, Random &rng) {
    int split[3];
    for (int i = 0; i < 3; i++) split[i] = troops / 3 + (i < troops % 3 ? 1 : 0);
    for (int i = 2; i > 0; i--) std::swap(split[i], split[rng.below(i + 1)]);  // Fisher-Yates
    return std::to_string(split[0]) + "," + std::to_string(split[1]) + "," +
           std::to_string(split[2]);
}

// the value of `key=value` among words, or `fallback`
int param(const std::vector<std::string> &words, const std::string &key, int fallback) {
    for (const auto &word : words)
        if (word.rfind(key + "=", 0) == 0) return std::stoi(word.substr(key.size() + 1));
    return fallback;
}

}  // namespace

int main() {
    std::string game, line;
    int troops = 10;
    Breakthrough breakthrough;
    Random rng;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream in(line);
        std::vector<std::string> words;
        for (std::string word; in >> word;) words.push_back(word);
        if (words.empty()) continue;
        const std::string &kind = words[0];
        if (kind == "ladder") {  // ladder 2 GAME move_ms=MS KEY=VALUE...
            game = words[2];
            if (game != "breakthrough" && game != "troops") {
                std::cerr << "this bot plays breakthrough and troops, not " << game << "\n";
                return 1;
            }
            breakthrough.width = param(words, "width", 8);
            breakthrough.height = param(words, "height", 8);
            troops = param(words, "troops", 10);
            std::cout << "ready starter-cpp" << std::endl;  // endl flushes
        } else if (kind == "new") {  // new seat=S seed=N
            rng.state = std::stoull(words[2].substr(5));
            breakthrough.reset();
        } else if (kind == "turn") {  // turn side COLOUR board ROWS, or turn round R ...
            if (game == "troops")
                std::cout << troops_move(troops, rng) << std::endl;
            else
                std::cout << breakthrough.choose(words[2] == "white" ? 'w' : 'b', rng)
                          << std::endl;
        } else if (kind == "played") {  // played MOVE1 MOVE2, `-` for the seat not to move
            if (game == "breakthrough")
                for (int seat = 1; seat <= 2; seat++)
                    if (words[seat] != "-") breakthrough.apply(words[seat]);
        } else if (kind == "over") {
            std::cout << "ready" << std::endl;  // ready for the next game
        } else if (kind == "quit") {
            break;
        }
    }
    return 0;
}
