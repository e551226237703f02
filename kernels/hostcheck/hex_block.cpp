// Emulates whole blocks of havannah.cu's and havannah_packed.cu's playout
// kernels on the CPU (one std::thread per GPU thread, barriers for
// __syncthreads and the warp ballots) and compares the per-leaf counters of
// the old and the packed kernel statistically. Build and run with run.sh.
#include "block_shim.h"
#include "src.inc"
#include "geometry.h"
#include "hex_launch.h"
#include <cmath>
#include <random>
template <int S> int test(int leaves_n, u32 n, int filled) {
    const int C = hex_cells(S);
    set_tables<S>();
    std::vector<short> nbr; std::vector<unsigned short> mask; geom<S>(nbr, mask);
    // Leaves: random positions without a win, `filled` stones each.
    std::mt19937 g(7);
    std::vector<u8> boards; std::vector<HexLeaf> hl;
    for (int l = 0; l < leaves_n; ++l) {
        for (;;) {
            auto* b = new HexBoard<S, true>; u8 z[C] = {0}; b->load(z, nbr.data(), mask.data());
            std::vector<int> order(C); for (int i = 0; i < C; ++i) order[i] = i;
            std::shuffle(order.begin(), order.end(), g);
            u8 c = 1; bool won = false; int k = filled * (l + 1) / leaves_n;
            for (int t = 0; t < k && !won; ++t) { won = b->play(order[t], c); c ^= 3; }
            if (!won) { boards.insert(boards.end(), b->color, b->color + C); hl.push_back(HexLeaf{c, -1, {0,0}}); delete b; break; }
            delete b;
        }
    }
    u32 stride = stats_stride(C);
    std::vector<u32> old_s(stride * leaves_n, 0), new_s(stride * leaves_n, 0);
    launch(64, 2, leaves_n, [&] { hex_playouts<S, true, false>(boards.data(), hl.data(), old_s.data(), n, 11); });
    launch(64, 2, leaves_n, [&] { hex_packed_playouts<S, true>(boards.data(), hl.data(), new_s.data(), n, 12); });
    int bad = 0; double worst = 0;
    auto z = [&](double a, double b, double va, double vb) { double se = sqrt(va + vb); return se > 0 ? fabs(a - b) / se : (a == b ? 0 : 1e9); };
    for (int l = 0; l < leaves_n; ++l) {
        u32* o = &old_s[l * stride]; u32* w = &new_s[l * stride];
        if (o[2] != n || w[2] != n) { printf("playouts %u %u\n", o[2], w[2]); bad++; }
        double po = o[3] / (2.0 * n), pw = w[3] / (2.0 * n);
        double zz = z(po, pw, po * (1 - po) / n + 1e-12, pw * (1 - pw) / n + 1e-12);
        worst = std::max(worst, zz); if (zz > 4.5) { bad++; printf("leaf %d win z %.2f\n", l, zz); }
        i64 so = (i64)((u64)o[0] | (u64)o[1] << 32), sw = (i64)((u64)w[0] | (u64)w[1] << 32);
        // per-cell counters (Poisson-ish z)
        for (int i = 4; i < 4 + 5 * C; ++i) {
            double a = (i32)o[i], b = (i32)w[i];
            if (i >= 4 + 4 * C) { a = (i32)o[i]; b = (i32)w[i]; double zc = fabs(a - b) / sqrt(2.0 * n); worst = std::max(worst, zc); if (zc > 4.5) { bad++; printf("leaf %d own cell %d: %g vs %g\n", l, i - 4 - 4 * C, a, b); } continue; }
            double zc = fabs(a - b) / sqrt(std::max(1.0, a + b) * (i >= 4 + 2 * C ? 2.0 : 1.0));
            worst = std::max(worst, zc);
            if (zc > 4.5) { bad++; if (bad < 10) printf("leaf %d counter %d: %g vs %g\n", l, i, a, b); }
            // cells occupied at the start have no first plays
            int cell = ((i - 4) % (2 * C)) / 2;
            if (boards[l * C + cell] != 0 && (a != 0 || b != 0)) { bad++; printf("occupied cell has first plays\n"); }
        }
        if (l < 3 || l == leaves_n - 1) printf("  leaf %d: black win rate old %.4f new %.4f, mean score old %.3f new %.3f\n", l, po, pw, so / 2.0 / n, sw / 2.0 / n);
    }
    printf("side %d: %d leaves x %u playouts, worst z %.2f, %d bad\n", S, leaves_n, n, worst, bad);
    return bad;
}
int main(int argc, char** argv) {
    u32 n = argc > 1 ? atoi(argv[1]) : 4000;
    int bad = test<4>(4, n, 12) + test<8>(4, n, 60) + test<10>(4, n, 100);
    return bad != 0;
}
