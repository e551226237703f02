// CPU check of the light kernel's board (go_bits_atari.cu, with its string
// growths on a window of the board around each move): random light games
// (drawn from its own candidates) on 9x9, 13x13 and 19x19, and before
// every move
//   - its sets of stones in atari equal a count of every string's
//     liberties (GaBoard::atari_stones on the whole board);
//   - its candidates equal, point for point, the empty points that are not
//     the ko point nor the mover's eye and that go_bits.cu's try_play
//     accepts;
//   - its play leaves the same stones, ko point and captures as try_play.
// Built and run by run.sh.
#include "go_shim.h"
#include "go_src.inc"

// One thread's GaScratch (the kernel's is in shared memory).
template <int N>
static GaScratch<N> scratch() {
    static u32 words[GaScratch<N>::SETS * GoGeo<N>::W * GB_BLOCK];
    return GaScratch<N>{words};
}

template <int N>
static long check(int games, u64 seed) {
    typedef GoGeo<N> G;
    typedef Bits<G::W> B;
    long positions = 0, captures = 0;
    for (int g = 0; g < games; ++g) {
        GaBoard<N> b;
        b.clear();
        Rng rng(playout_seed(seed, g, 0));
        int passes = 0;
        for (int m = 0; m < 3 * G::P && passes < 2; ++m) {
            const B empty = b.empty();
            if (!same(GaBoard<N>::atari_stones(b.own, empty), b.aown) ||
                !same(GaBoard<N>::atari_stones(b.opp, empty), b.aopp)) {
                printf("N=%d game %d move %d: the sets of stones in atari are wrong\n", N, g, m);
                exit(1);
            }
            const B cand = b.candidates(), eyes = b.eyes();
            B want = none<G::W>();
            for (int p = 0; p < G::P; ++p) {
                const int bit = G::bit_of(p);
                const B at = onehot<G::W>(bit);
                if (!any(at & empty) || bit == b.ko || any(at & eyes)) continue;
                GbBoard<N> c = b;
                if (c.try_play(at)) want |= at;
            }
            if (!same(cand, want)) {
                printf("N=%d game %d move %d: the candidates differ from try_play's legal moves\n", N, g, m);
                exit(1);
            }
            positions++;
            const int n = popc(cand);
            if (n > 0) {
                const int p = select_bit(cand, (int)rng.below((u32)n));
                const B at = onehot<G::W>(p);
                GbBoard<N> c = b;
                const bool ok = c.try_play(at);
                b.play(p, scratch<N>());
                if (!ok || !same(c.own, b.own) || !same(c.opp, b.opp) || c.ko != b.ko ||
                    c.captured_black != b.captured_black || c.captured_white != b.captured_white) {
                    printf("N=%d game %d move %d: play differs from try_play\n", N, g, m);
                    exit(1);
                }
                passes = 0;
            } else {
                passes++;
                b.ko = -1;
            }
            b.turn();
        }
        captures += b.captured_black + b.captured_white;
    }
    printf("N=%d: %d games, %ld positions, %ld stones captured: atari sets, candidates and plays agree\n", N, games,
           positions, captures);
    return positions;
}

int main(int argc, char** argv) {
    const int games = argc > 1 ? atoi(argv[1]) : 40;
    check<9>(games, 1);
    check<13>(games / 2 + 1, 2);
    check<19>(games / 4 + 1, 3);
    return 0;
}
