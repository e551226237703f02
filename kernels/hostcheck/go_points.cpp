// CPU check of the Go kernels' 3x3 and M2 policies (go_weights.cu; the
// point-per-thread kernel (a), go_points.cu, and the one-playout-per-thread
// kernel (b), go.cu) against the CPU `Weighted3x3` and `M2` policies, from
// reference data the Rust side writes (src/sim/go_rollout/hostcheck.rs;
// run.sh runs both). Kernel (a) runs block-wide, one fiber per CUDA thread
// (fiber_shim.h); kernel (b) as one thread:
//   weights  every point's weight under both policies (pt_load, pt_atari,
//            pt_weight) equal to the CPU's, on positions of all sizes
//            (atari, ko and suicide cases included);
//   exact    go_point_playouts (a) and go_playouts (b) run with the
//            CPU's seeds: the leaf's whole statistics block (score sum,
//            wins, AMAF counts and wins, ownership) equal to the CPU's
//            playouts from the same random streams (the same draws give
//            the same game);
//   stats    kernel (a)'s runs against CPU playouts from other seeds:
//            Black win rate and mean score within 4 standard errors.
// Usage: go_points DATA_DIR
#include "fiber_shim.h"
#include "go_points_src.inc"
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

struct Header {
    int size, to_move, ko, last;
    std::string colors;
};

static std::istream& operator>>(std::istream& in, Header& h) {
    return in >> h.size >> h.to_move >> h.ko >> h.last >> h.colors;
}

static int failures = 0;
static void fail(const char* what, const Header& h, int p) {
    if (++failures <= 10)
        printf("MISMATCH %s at point %d: size %d to_move %d ko %d last %d\n  %s\n", what, p, h.size, h.to_move, h.ko,
               h.last, h.colors.c_str());
}

static std::vector<u8> colors_of(const Header& h) {
    std::vector<u8> c(h.colors.size());
    for (size_t p = 0; p < c.size(); ++p) c[p] = (u8)(h.colors[p] - '0');
    return c;
}

static std::vector<long long> numbers(const std::string& list) {
    std::vector<long long> out;
    std::stringstream in(list);
    std::string tok;
    while (std::getline(in, tok, ',')) out.push_back(std::stoll(tok));
    return out;
}

// Every point's weight for the side to move, as the kernel computes it.
template <int N, bool M2>
static std::vector<u32> kernel_weights(const Header& h) {
    std::vector<u32> out(N * N);
    const std::vector<u8> colors = colors_of(h);
    blockDim.x = PointBoard<N>::T;
    fiber::run_block(PointBoard<N>::T, [&] {
        __shared__ PointBoard<N> b;
        __shared__ PtAtari<N> a;
        pt_load<N>(b, colors.data(), h.ko);
        pt_atari<N>(b, a);
        const int t = threadIdx.x;
        const u32 w = pt_weight<N, M2>(b, a, t, (u8)h.to_move);
        if (t < N * N) out[t] = w;
    });
    return out;
}

template <int N>
static void weights_line(const Header& h, const std::string& w3, const std::string& wm2, long& points) {
    const std::vector<long long> want[2] = {numbers(w3), numbers(wm2)};
    const std::vector<u32> got[2] = {kernel_weights<N, false>(h), kernel_weights<N, true>(h)};
    for (int m2 = 0; m2 < 2; ++m2) {
        if (want[m2].size() != (size_t)(N * N)) fail("weight count", h, -1);
        for (int p = 0; p < N * N && p < (int)want[m2].size(); ++p)
            if ((long long)got[m2][p] != want[m2][p]) fail(m2 ? "m2 weight" : "3x3 weight", h, p);
    }
    points += N * N;
}

// The kernel's statistics block for one leaf: `n` playouts, one block.
template <int N>
static std::vector<u32> run_kernel(const Header& h, int passes, int komi2, int policy, u32 n, u64 seed) {
    const std::vector<u8> board = colors_of(h);
    GoLeaf leaf = {h.to_move, h.ko, passes, komi2, h.last};
    std::vector<u32> stats(stats_stride(N * N), 0);
    blockDim.x = PointBoard<N>::T;
    gridDim.x = gridDim.y = 1;
    blockIdx.x = blockIdx.y = 0;
    fiber::run_block(PointBoard<N>::T, [&] {
        if (policy == GO_POLICY_M2) go_point_playouts<N, GO_POLICY_M2>(board.data(), &leaf, stats.data(), n, seed);
        else go_point_playouts<N, GO_POLICY_3X3>(board.data(), &leaf, stats.data(), n, seed);
    });
    return stats;
}

// Kernel (b)'s statistics block: one thread plays the `n` playouts.
template <int N>
static std::vector<u32> run_kernel_b(const Header& h, int passes, int komi2, int policy, u32 n, u64 seed) {
    const std::vector<u8> board = colors_of(h);
    GoLeaf leaf = {h.to_move, h.ko, passes, komi2, h.last};
    std::vector<u32> stats(stats_stride(N * N), 0);
    blockDim.x = 1;
    gridDim.x = gridDim.y = 1;
    blockIdx.x = blockIdx.y = 0;
    fiber::run_block(1, [&] {
        if (policy == GO_POLICY_M2) go_playouts<N, false, GO_POLICY_M2>(board.data(), &leaf, stats.data(), n, seed);
        else go_playouts<N, false, GO_POLICY_3X3>(board.data(), &leaf, stats.data(), n, seed);
    });
    return stats;
}

// Whether a kernel's statistics block is the CPU's: score sum, playouts,
// wins and the tables (ownership sums signed).
static bool same_block(const std::vector<u32>& g, long long sum, long long wins, u32 n, const std::vector<long long>& want,
                       int P) {
    const long long score2 = (long long)((u64)g[0] | (u64)g[1] << 32);
    bool same = score2 == sum && g[2] == n && (long long)g[3] == wins && want.size() == (size_t)(5 * P);
    for (int i = 0; same && i < 5 * P; ++i)
        same = (i < 4 * P ? (long long)g[4 + i] : (long long)(i32)g[4 + i]) == want[i];
    return same;
}

// `policy S header passes komi2 cpu_playouts wins2 score2_sum
// score2_squares X seed n score2_sum wins2 tables`: the CPU's statistics
// from its own seeds (S) and from the kernel's seeds (X).
static void playouts_line(std::istream& in, double& worst, long& exact_values) {
    std::string policy_name, s_tag, x_tag, tables;
    Header h;
    int passes, komi2;
    double cn, cw2, csum, csq;
    unsigned long long seed;
    u32 n;
    long long xsum, xwins;
    in >> policy_name >> s_tag >> h >> passes >> komi2 >> cn >> cw2 >> csum >> csq >> x_tag >> seed >> n >> xsum >> xwins >> tables;
    const int policy = policy_name == "m2" ? GO_POLICY_M2 : GO_POLICY_3X3;
    auto t0 = std::chrono::steady_clock::now();
    std::vector<u32> g, gb;
    switch (h.size) {
        case 9:
            g = run_kernel<9>(h, passes, komi2, policy, n, seed);
            gb = run_kernel_b<9>(h, passes, komi2, policy, n, seed);
            break;
        case 13:
            g = run_kernel<13>(h, passes, komi2, policy, n, seed);
            gb = run_kernel_b<13>(h, passes, komi2, policy, n, seed);
            break;
        default:
            g = run_kernel<19>(h, passes, komi2, policy, n, seed);
            gb = run_kernel_b<19>(h, passes, komi2, policy, n, seed);
            break;
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // Exact: the whole block, both kernels.
    const long long score2 = (long long)((u64)g[0] | (u64)g[1] << 32);
    const std::vector<long long> want = numbers(tables);
    const int P = h.size * h.size;
    const bool same_a = same_block(g, xsum, xwins, n, want, P), same_b = same_block(gb, xsum, xwins, n, want, P);
    const bool same = same_a && same_b;
    exact_values += 2 * (4 + 5 * P);
    // Statistical: against the CPU's own seeds.
    const double gw = g[3] / (2.0 * n), gm = score2 / 2.0 / n;
    const double pc = cw2 / (2 * cn), mc = csum / 2 / cn;
    const double var = csq / 4 / cn - mc * mc;
    const double pp = (pc * cn + gw * n) / (cn + n);
    const double zw = fabs(gw - pc) / sqrt(pp * (1 - pp) * (1 / cn + 1.0 / n) + 1e-12);
    const double zs = fabs(gm - mc) / sqrt(var * (1 / cn + 1.0 / n) + 1e-12);
    worst = std::max(worst, std::max(zw, zs));
    const bool bad = !same || zw >= 4 || zs >= 4;
    if (bad) failures++;
    printf("%s %-3s go%d: exact (a) %s (b) %s; win gpu %.4f cpu %.4f (z %.2f), score gpu %6.2f cpu %6.2f (z %.2f); %u playouts in %.1f s\n",
           bad ? "FAIL" : "ok  ", policy_name.c_str(), h.size, same_a ? "yes" : "NO", same_b ? "yes" : "NO", gw, pc, zw, gm, mc, zs, n, secs);
    fflush(stdout);
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    const std::string dir = argv[1];
    {
        std::ifstream t(dir + "/go_pattern_table.txt");
        for (int i = 0; i < 1024; ++i) t >> go_pattern_table[i];
        if (!t) {
            printf("cannot read the pattern table\n");
            return 2;
        }
    }
    {
        std::ifstream in(dir + "/go_points_weights.txt");
        std::string tag, w3, wm2;
        int positions = 0;
        long points = 0;
        Header h;
        while (in >> tag >> h >> w3 >> wm2) {
            switch (h.size) {
                case 9: weights_line<9>(h, w3, wm2, points); break;
                case 13: weights_line<13>(h, w3, wm2, points); break;
                default: weights_line<19>(h, w3, wm2, points); break;
            }
            positions++;
        }
        printf("weights: %d positions, %ld points, both policies; %d mismatches\n", positions, points, failures);
        if (positions == 0) failures++;
    }
    {
        std::ifstream in(dir + "/go_points_playouts.txt");
        std::string line;
        double worst = 0;
        long exact_values = 0;
        int lines = 0;
        while (std::getline(in, line)) {
            if (line.empty()) continue;
            std::istringstream ls(line);
            playouts_line(ls, worst, exact_values);
            lines++;
        }
        printf("playouts: %d runs, %ld statistics values compared exactly, worst z %.2f\n", lines, exact_values, worst);
        if (lines == 0) failures++;
    }
    printf(failures ? "GO POINT KERNEL HOST CHECK FAILED (%d)\n" : "go point kernel host check passed\n", failures);
    return failures ? 1 : 0;
}
