// CPU check of the Go pattern kernel (go_bits_patterns.cu) against the CPU
// Patterns policy, from reference data the Rust side writes
// (src/sim/go_rollout/hostcheck.rs; run.sh runs both):
//   helpers  on every empty point of 1,180 positions (9x9, 13x13, 19x19)
//            on the kernel's board (GaBoard, its atari sets found from
//            the stones): eye (the board's eye set, and the 3x3 code's
//            test that the pattern candidates use), the random
//            candidates (legal, not eye, not ko), legality and self-atari
//            (gbp_move_kind, its liberty counts on the board's window),
//            the pattern candidates around every point
//            (gbp_pattern_moves), and the atari candidates with their
//            multiplicities around the last move (gbp_atari_moves), all
//            equal to the CPU board's answers;
//   stats    the kernel emulated block-wide (block_shim.h), Black win rate
//            and mean score per position within 4 standard errors of the
//            CPU policy's (the light kernel's figures printed beside).
// Usage: go_patterns DATA_DIR [playouts per position] [seed]
// (0 playouts: the helpers only)
#include "block_shim.h"
#include "go_patterns_src.inc"
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

struct Header {
    int size, to_move, ko, last;
    std::string colors;
};

static std::istream& operator>>(std::istream& in, Header& h) {
    return in >> h.size >> h.to_move >> h.ko >> h.last >> h.colors;
}

template <int N>
static GaBoard<N> board_of(const Header& h) {
    GaBoard<N> b;
    b.own = b.opp = none<GoGeo<N>::W>();
    b.me = h.to_move - 1;
    for (int p = 0; p < N * N; ++p) {
        int c = h.colors[p] - '0';
        auto at = onehot<GoGeo<N>::W>(GoGeo<N>::bit_of(p));
        if (c == h.to_move) b.own |= at;
        else if (c != 0) b.opp |= at;
    }
    b.ko = h.ko >= 0 ? GoGeo<N>::bit_of(h.ko) : -1;
    b.captured_black = b.captured_white = 0;
    const auto empty = b.empty();
    b.aown = GaBoard<N>::atari_stones(b.own, empty);
    b.aopp = GaBoard<N>::atari_stones(b.opp, empty);
    return b;
}

// One thread's scratch (GaScratch) for the helpers, its BACK set zero.
template <int N>
static GaScratch<N> scratch() {
    static std::vector<u32> words(GaScratch<N>::SETS * GoGeo<N>::W * GB_BLOCK, 0u);
    return GaScratch<N>{words.data()};
}

// Collects the atari candidates' multiplicities instead of drawing; the
// extensions the walk hands over untested apart, as the playout loop tests
// them after the draw.
struct Recorder {
    std::map<int, unsigned> weight, unverified;
    void add(int p, unsigned w, Rng&, bool unchecked = false) { (unchecked ? unverified : weight)[p] += w; }
};

static int failures = 0;
static void fail(const char* what, const Header& h, int p) {
    if (++failures <= 10) printf("MISMATCH %s at point %d: size %d to_move %d ko %d last %d\n  %s\n", what, p, h.size, h.to_move, h.ko, h.last, h.colors.c_str());
}

template <int N>
static void helpers(const Header& h, const std::string& eye, const std::string& legal, const std::string& self_atari,
                    const std::string& match, const std::string& cands, long counts[4]) {
    typedef GoGeo<N> G;
    const GaBoard<N> b = board_of<N>(h);
    const GaScratch<N> scr = scratch<N>();
    const auto eyes = b.eyes();
    const auto cand = b.candidates();
    for (int p = 0; p < G::P; ++p) {
        if (h.colors[p] != '0') continue;
        const auto at = onehot<G::W>(G::bit_of(p));
        if (any(eyes & at) != (eye[p] == '1')) fail("eye", h, p);
        // The 3x3 code's eye test (gbp_code_is_eye), the code built here
        // from the stones as patterns.rs packs it: own 1, opponent 2, off
        // the board 3; the row above (the next row), left, right, the row
        // below.
        u32 code = 0;
        for (int j = 0; j < 8; ++j) {
            const int rr = p / N + (j < 3 ? 1 : (j < 5 ? 0 : -1)), cc = p % N + gbp_dc(j);
            const int v = rr < 0 || rr >= N || cc < 0 || cc >= N ? 3
                          : h.colors[rr * N + cc] == '0'          ? 0
                                                                  : (h.colors[rr * N + cc] - '0' == h.to_move ? 1 : 2);
            code |= (u32)v << (2 * j);
        }
        if (gbp_code_is_eye(code) != (eye[p] == '1')) fail("eye from the 3x3 code", h, p);
        if (any(cand & at) != (legal[p] == '1' && eye[p] == '0' && p != h.ko)) fail("candidates", h, p);
        if (p == h.ko) {
            if (legal[p] != '0') fail("ko legal", h, p);
            continue;
        }
        const int kind = gbp_move_kind<N>(b, G::bit_of(p), scr);
        if ((kind != 0) != (legal[p] == '1')) fail("legal", h, p);
        if ((kind <= 1) != (self_atari[p] == '1')) fail("self-atari", h, p);
        counts[0]++;
        counts[1] += kind == 1;
    }
    // Pattern candidates around every point, as if it were the last move.
    for (int q = 0; q < G::P; ++q) {
        const unsigned got = gbp_pattern_moves<N>(b, G::bit_of(q), scr);
        unsigned want = 0;
        for (int j = 0; j < 8; ++j) {
            const int r = q / N + gbp_dr(j), c = q % N + gbp_dc(j);
            if (r < 0 || r >= N || c < 0 || c >= N) continue;
            const int p = r * N + c;
            if (h.colors[p] == '0' && match[p] == '1' && eye[p] == '0' && p != h.ko) want |= 1u << j;
        }
        if (got != want) fail("pattern candidates", h, q);
        counts[2] += __builtin_popcount(want);
    }
    if (h.last >= 0) {
        Recorder rec;
        Rng rng(1);
        gbp_atari_moves<N>(b, G::bit_of(h.last), rec, rng, scr, 0);
        for (const auto& [q, w] : rec.unverified)
            if (gbp_move_kind<N>(b, q, scr) == 2) rec.weight[q] += w;
        std::map<int, unsigned> want;
        unsigned total = 0;
        if (cands != "-") {
            std::stringstream in(cands);
            std::string tok;
            while (std::getline(in, tok, ',')) want[G::bit_of(std::stoi(tok))]++, total++;
        }
        // The CPU keeps at most 16 (see the kernel's file comment).
        if (total < 16 && rec.weight != want) fail("atari candidates", h, h.last);
        counts[3] += total;
    }
}

template <class F>
static void launch(unsigned threads, unsigned blocks, unsigned leaves, F f) {
    blockDim.x = threads;
    gridDim.x = blocks;
    gridDim.y = leaves;
    for (unsigned ly = 0; ly < leaves; ++ly)
        for (unsigned bx = 0; bx < blocks; ++bx) {
            blockIdx.x = bx;
            blockIdx.y = ly;
            block_bar = std::make_unique<std::barrier<>>(threads);
            for (unsigned w = 0; w < threads / 32; ++w) warps[w].bar = std::make_unique<std::barrier<>>(32);
            std::vector<std::thread> ts;
            for (unsigned t = 0; t < threads; ++t) ts.emplace_back([t, &f] { threadIdx.x = t; f(); });
            for (auto& t : ts) t.join();
        }
}

struct Counts {
    double playouts, win_rate, mean_score;
    std::vector<u32> raw;  // the leaf's whole statistics block
};

template <int N>
static Counts run_kernel(const Header& h, int passes, int komi2, unsigned n, bool patterns, u64 seed,
                         unsigned threads) {
    std::vector<u8> board(N * N);
    for (int p = 0; p < N * N; ++p) board[p] = h.colors[p] - '0';
    GoLeaf leaf = {h.to_move, h.ko, passes, komi2, h.last};
    std::vector<u32> stats(stats_stride(N * N), 0);
    launch(threads, 1, 1, [&] {
        if (patterns) go_bits_pattern_playouts<N>(board.data(), &leaf, stats.data(), n, seed);
        else go_bits_playouts<N>(board.data(), &leaf, stats.data(), n, seed);
    });
    const i64 score2 = (i64)((u64)stats[0] | (u64)stats[1] << 32);
    return {(double)stats[2], stats[3] / (2.0 * stats[2]), score2 / 2.0 / stats[2], stats};
}

static void stats_line(std::istream& in, unsigned n, u64 seed, double& worst) {
    Header h;
    int passes, komi2;
    double cn, cw2, csum, csq;
    in >> h >> passes >> komi2 >> cn >> cw2 >> csum >> csq;
    auto run = [&](bool patterns, u64 seed, unsigned threads, unsigned n) {
        switch (h.size) {
            case 9: return run_kernel<9>(h, passes, komi2, n, patterns, seed, threads);
            case 13: return run_kernel<13>(h, passes, komi2, n, patterns, seed, threads);
            default: return run_kernel<19>(h, passes, komi2, n, patterns, seed, threads);
        }
    };
    const Counts g = run(true, seed + (u64)h.last, GB_BLOCK, n), light = run(false, seed, GB_BLOCK, n);
    // A playout depends only on (seed, leaf, playout index): the smaller
    // blocks the host picks for the search's small leaves (64 playouts
    // here) must give the same statistics block, bit for bit.
    const bool same_small =
        run(true, seed, 32, 64).raw == run(true, seed, GB_BLOCK, 64).raw &&
        run(false, seed, 64, 64).raw == run(false, seed, GB_BLOCK, 64).raw;
    const double pc = cw2 / (2 * cn), mc = csum / 2 / cn;
    const double var = csq / 4 / cn - mc * mc;  // the CPU's score variance
    const double pp = (pc * cn + g.win_rate * n) / (cn + n);
    const double zw = fabs(g.win_rate - pc) / sqrt(pp * (1 - pp) * (1 / cn + 1.0 / n) + 1e-12);
    const double zs = fabs(g.mean_score - mc) / sqrt(var * (1 / cn + 1.0 / n) + 1e-12);
    worst = std::max(worst, std::max(zw, zs));
    const bool bad = g.playouts != n || zw >= 4 || zs >= 4 || !same_small;
    if (bad) failures++;
    printf("%s go%d last %3d: win gpu %.4f cpu %.4f (z %.2f), score gpu %6.2f cpu %6.2f (z %.2f); light kernel win %.4f score %6.2f; blocks 32/64 %s\n",
           bad ? "FAIL" : "ok  ", h.size, h.last, g.win_rate, pc, zw, g.mean_score, mc, zs, light.win_rate, light.mean_score,
           same_small ? "same" : "DIFFER");
    fflush(stdout);
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    const std::string dir = argv[1];
    const unsigned n = argc > 2 ? (unsigned)atoi(argv[2]) : 2048;
    const u64 seed = argc > 3 ? (u64)atoll(argv[3]) : 1234;
    {
        std::ifstream t(dir + "/go_pattern_table.txt");
        for (int i = 0; i < 1024; ++i) t >> go_pattern_table[i];
        if (!t) { printf("cannot read the pattern table\n"); return 2; }
    }
    {
        std::ifstream in(dir + "/go_helpers.txt");
        std::string tag;
        long counts[4] = {0, 0, 0, 0};
        int positions = 0;
        while (in >> tag) {
            Header h;
            std::string eye, legal, self_atari, match, cands;
            in >> h >> eye >> legal >> self_atari >> match >> cands;
            switch (h.size) {
                case 9: helpers<9>(h, eye, legal, self_atari, match, cands, counts); break;
                case 13: helpers<13>(h, eye, legal, self_atari, match, cands, counts); break;
                default: helpers<19>(h, eye, legal, self_atari, match, cands, counts); break;
            }
            positions++;
        }
        printf("helpers: %d positions, %ld empty points (%ld self-atari), %ld pattern candidates, %ld atari candidates; %d mismatches\n",
               positions, counts[0], counts[1], counts[2], counts[3], failures);
        if (positions == 0) failures++;
    }
    if (n > 0) {
        std::ifstream in(dir + "/go_stats.txt");
        std::string tag;
        double worst = 0;
        int lines = 0;
        while (in >> tag) stats_line(in, n, seed, worst), lines++;
        printf("stats: %d positions, %u GPU playouts each, worst z %.2f\n", lines, n, worst);
    }
    printf(failures ? "GO PATTERN HOST CHECK FAILED (%d)\n" : "go pattern host check passed\n", failures);
    return failures ? 1 : 0;
}
