// The Havannah tactical kernels against the CPU's tactical policy
// (src/sim/havannah_tactics.rs), emulated block-wide on the CPU:
//   E lines: hex_tactical_S (havannah.cu's board) from the kernel's own
//            streams must give every counter the CPU gave from the same
//            streams (the reference data's E lines, written by cargo test);
//   S lines: hex_tactical_S from other streams, and the packed tactical
//            kernels (shared and local boards; their uniform pick maps a
//            random number to another cell), within 4.5 standard errors of
//            the CPU's own playouts: Black's win rate and every cell's
//            first-play rate. The uniform packed kernel on the same
//            positions must be told apart from the CPU's tactical policy
//            somewhere (the check has the power to see a wrong policy).
// Usage: hex_tactical DATA_FILE [kernel playouts per S line]
#include "block_shim.h"
#include "src.inc"
#include "geometry.h"
#include "hex_launch.h"
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

struct Ref {
    std::string tag, colours;
    int side = 0, to_move = 0, last = -1;
    unsigned long long seed = 0;
    u32 playouts = 0;
    long long score2 = 0, wins2 = 0;
    std::vector<long long> tables;
};

static bool parse(const std::string& text, Ref& r) {
    std::istringstream in(text);
    std::string tables;
    if (!(in >> r.tag >> r.side >> r.to_move >> r.last >> r.seed >> r.playouts >> r.score2 >> r.wins2 >> r.colours >> tables)) return false;
    std::istringstream t(tables);
    std::string v;
    while (std::getline(t, v, ',')) r.tables.push_back(std::stoll(v));
    return true;
}

enum Which { TACTICAL, PACKED_TACTICAL, PACKED_LOCAL_TACTICAL, PACKED_UNIFORM };
static const char* NAMES[] = {"tactical", "packed/shared tactical", "packed/local tactical", "packed/shared uniform"};

template <int S> std::vector<u32> run(Which which, const Ref& r, u32 n, u64 seed) {
    const int C = hex_cells(S);
    set_tables<S>();
    std::vector<u8> board(C);
    for (int p = 0; p < C; ++p) board[p] = (u8)(r.colours[p] - '0');
    HexLeaf leaf{r.to_move, r.last, {0, 0}};
    std::vector<u32> st(stats_stride(C), 0);
    const u8* b = board.data();
    u32* o = st.data();
    switch (which) {
    case TACTICAL: launch(64, 2, 1, [&] { hex_playouts<S, true, false, true>(b, &leaf, o, n, seed); }); break;
    case PACKED_TACTICAL: launch(64, 2, 1, [&] { hex_packed_playouts<S, true, true>(b, &leaf, o, n, seed); }); break;
    case PACKED_LOCAL_TACTICAL: launch(64, 2, 1, [&] { hex_packed_playouts<S, false, true>(b, &leaf, o, n, seed); }); break;
    case PACKED_UNIFORM: launch(64, 2, 1, [&] { hex_packed_playouts<S, true, false>(b, &leaf, o, n, seed); }); break;
    }
    return st;
}

static std::vector<u32> run_any(Which which, const Ref& r, u32 n, u64 seed) {
    switch (r.side) {
    case 4: return run<4>(which, r, n, seed);
    case 6: return run<6>(which, r, n, seed);
    case 8: return run<8>(which, r, n, seed);
    case 10: return run<10>(which, r, n, seed);
    }
    printf("no kernel for side %d\n", r.side);
    exit(1);
}

// Every counter of the kernel's block against the reference.
static int exact(const Ref& r, const std::vector<u32>& st) {
    const int C = hex_cells(r.side);
    int bad = 0;
    long long score2 = (long long)((u64)st[0] | (u64)st[1] << 32);
    if (st[2] != r.playouts || (long long)st[3] != r.wins2 || score2 != r.score2) bad++;
    for (int i = 0; i < 5 * C; ++i) {
        long long v = i >= 4 * C ? (long long)(i32)st[4 + i] : (long long)st[4 + i];
        if (v != r.tables[i]) bad++;
    }
    return bad;
}

// The worst z of Black's win rate and the first-play rates per cell and
// colour, kernel (n playouts) against the reference (its own count).
static double worst_z(const Ref& r, const std::vector<u32>& st, u32 n) {
    const int C = hex_cells(r.side);
    auto z = [](double a, double na, double b, double nb) {
        double pa = a / na, pb = b / nb, pool = (a + b) / (na + nb);
        double se = sqrt(pool * (1 - pool) * (1 / na + 1 / nb));
        return se > 0 ? fabs(pa - pb) / se : (pa == pb ? 0.0 : 1e9);
    };
    double worst = z(st[3] / 2.0, n, r.wins2 / 2.0, r.playouts);
    for (int i = 0; i < 2 * C; ++i) worst = std::max(worst, z(st[4 + i], n, r.tables[i], r.playouts));
    return worst;
}

int main(int argc, char** argv) {
    if (argc < 2) { printf("usage: hex_tactical DATA [playouts]\n"); return 2; }
    setvbuf(stdout, nullptr, _IOLBF, 0);
    u32 n = argc > 2 ? atoi(argv[2]) : 2000;
    std::ifstream in(argv[1]);
    std::string text;
    int bad = 0, exact_lines = 0, exact_bad = 0, stat_lines = 0, told_apart = 0;
    double worst[3] = {0, 0, 0};
    while (std::getline(in, text)) {
        Ref r;
        if (!parse(text, r)) continue;
        if (r.tag == "E") {
            ++exact_lines;
            int b = exact(r, run_any(TACTICAL, r, r.playouts, r.seed));
            if (b) { bad++; exact_bad++; printf("side %d E line %d: %d counters differ\n", r.side, exact_lines, b); }
            else if (getenv("VERBOSE")) printf("side %d E line %d: equal\n", r.side, exact_lines);
        } else if (r.tag == "S") {
            ++stat_lines;
            for (Which w : {TACTICAL, PACKED_TACTICAL, PACKED_LOCAL_TACTICAL}) {
                double zz = worst_z(r, run_any(w, r, n, 99 + stat_lines), n);
                worst[w] = std::max(worst[w], zz);
                if (zz > 4.5) { bad++; printf("side %d S line %d: %s worst z %.2f\n", r.side, stat_lines, NAMES[w], zz); }
            }
            told_apart += worst_z(r, run_any(PACKED_UNIFORM, r, n, 7), n) > 4.5;
        }
    }
    printf("tactical exact: %d positions from the kernel's streams, every counter equal in %d\n", exact_lines, exact_lines - exact_bad);
    printf("tactical statistics: %d positions x %u playouts, worst z: tactical %.2f, packed/shared %.2f, packed/local %.2f; "
           "uniform kernel told apart from the CPU's tactical policy on %d\n",
           stat_lines, n, worst[0], worst[1], worst[2], told_apart);
    if (!exact_lines || !stat_lines) { printf("no reference data\n"); return 1; }
    if (!told_apart) { printf("the check cannot tell the uniform policy from the tactical one\n"); bad++; }
    return bad != 0;
}
