// Exact check of the packed board (havannah_packed.cu) against havannah.cu's
// HexBoard on the CPU: random fills, win flag after every move, final
// partition and root masks; the forest built from a mid-game board; the
// k-th-bit selection; the tactical policy's "would this cell win" test of
// both boards against placing the stone. Build and run with run.sh.
#include "host_shim.h"
#include "src.inc"
#include "geometry.h"
#include <vector>
#include <random>
template <int S> int run(int games, unsigned seed) {
    const int C = hex_cells(S);
    std::vector<short> nbr; std::vector<unsigned short> mask; geom<S>(nbr, mask);
    std::mt19937 g(seed);
    long moves = 0, wins = 0, bad = 0, ends[3] = {0,0,0}, tested = 0, threats = 0;
    for (int gi = 0; gi < games; ++gi) {
        // Random order; play both boards until the first win, then compare.
        // Also: from a random prefix, build the packed board via hp_build and
        // continue on it, comparing against the old board.
        auto* old = new HexBoard<S, true>;
        u8 zero[C]; memset(zero, 0, C);
        old->load(zero, nbr.data(), mask.data());
        u32 words[(C + 1) / 2] = {0};
        HexSlots b{(u16*)words, 1};
        std::vector<int> order(C); for (int i = 0; i < C; ++i) order[i] = i;
        std::shuffle(order.begin(), order.end(), g);
        int cut = g() % C;
        u8 c = 1 + g() % 2;
        bool rebuilt = false;
        for (int t = 0; t < C; ++t) {
            if (t == cut && !rebuilt) {
                // rebuild packed from old's colours
                const int NW = (C + 31) / 32; u32 em[NW];
                u32 w2[(C + 1) / 2];
                HexSlots b2{(u16*)w2, 1};
                hp_build<S, NW>(b2, old->color, nbr.data(), mask.data(), em);
                for (int p = 0; p < C; ++p) {
                    if (((em[p >> 5] >> (p & 31)) & 1) != (old->color[p] == 0)) { printf("empty set differs\n"); bad++; }
                    if (hp_color(b2.at(p)) != old->color[p]) { printf("build colour differs\n"); bad++; }
                }
                memcpy(words, w2, sizeof words); rebuilt = true;
            }
            int p = order[t];
            // The tactical policy's test: HexBoard::wins_at against placing
            // the stone on a copy (every fifth move), and the packed
            // board's hp_wins_at against HexBoard's, on every cell for
            // both colours (the first 200 games).
            if (gi < 200) {
                for (int q = 0; q < C; ++q) for (u8 col = 1; col <= 2; ++col) {
                    bool w = old->wins_at(q, col);
                    bool wp = hp_wins_at(b, q, col, nbr.data(), mask.data());
                    ++tested; threats += w;
                    if (w != wp) { bad++; if (bad < 5) printf("side %d game %d move %d cell %d colour %d: wins_at %d packed %d\n", S, gi, t, q, col, w, wp); }
                    if (t % 5 == 0 && old->color[q] == 0) {
                        auto* cp = new HexBoard<S, true>(*old);
                        bool placed = cp->play(q, col) != HEX_NO_WIN;
                        delete cp;
                        if (placed != w) { bad++; if (bad < 5) printf("side %d game %d move %d cell %d colour %d: wins_at %d play %d\n", S, gi, t, q, col, w, placed); }
                    }
                }
            }
            int wo = old->play(p, c);
            int wn = hp_play(b, p, c, nbr.data(), mask.data());
            ++moves;
            if (wo != wn) { bad++; if (bad < 5) printf("side %d game %d move %d: old %d new %d\n", S, gi, t, wo, wn); break; }
            // groups must agree: same root relation for every pair of neighbours
            if (wo) { wins++; ends[c]++; if (getenv("STOP")) break; }
            c ^= 3;
        }
        // compare partition: cells p,q in same old group <=> same new group
        for (int p = 0; p < C; ++p) {
            if (hp_color(b.at(p)) != old->color[p]) { bad++; printf("colour differs\n"); break; }
            if (!old->color[p]) continue;
            u32 e; int rp = hp_find(b, p, &e);
            int op = old->find(p);
            for (int q = 0; q < p; ++q) if (old->color[q]) {
                u32 e2; bool sn = hp_find(b, q, &e2) == rp, so = old->find(q) == op;
                if (sn != so) { bad++; printf("partition differs\n"); q = p; p = C; break; }
            }
            if (p < C && (e & HP_MASK) != old->mask[op]) { bad++; printf("mask differs\n"); }
        }
        delete old;
    }
    printf("side %d: %d games, %ld moves, %ld wins (black %ld white %ld), %ld wins_at tests (%ld winning), %ld mismatches\n", S, games, moves, wins, ends[1], ends[2], tested, threats, bad);
    return bad;
}
int test_take() {
    int bad = 0; std::mt19937 g(5);
    for (int it = 0; it < 200000; ++it) {
        const int NW = 9; u32 em[NW]; int n = 0;
        for (int i = 0; i < NW; ++i) { em[i] = g() & g(); if (it % 7 == 0) em[i] = g(); if (it % 11 == 0) em[i] = 0; n += __popc(em[i]); }
        if (!n) continue;
        u32 k = g() % n; u32 cp[NW]; memcpy(cp, em, sizeof cp);
        int p = hp_take<NW>(em, k);
        // reference: k-th set bit
        int cnt = 0, ref = -1;
        for (int q = 0; q < NW * 32; ++q) if ((cp[q >> 5] >> (q & 31)) & 1) { if (cnt == (int)k) { ref = q; break; } cnt++; }
        cp[ref >> 5] &= ~(1u << (ref & 31));
        if (p != ref || memcmp(cp, em, sizeof cp)) { bad++; if (bad < 5) printf("take: k %u got %d want %d\n", k, p, ref); }
    }
    printf("take: %d mismatches\n", bad);
    return bad;
}
int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    int bad = test_take();
    bad += run<4>(n, 1) + run<6>(n, 2) + run<8>(n, 3) + run<10>(n, 4);
    return bad != 0;
}
