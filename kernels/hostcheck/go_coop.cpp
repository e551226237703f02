// CPU check of the cooperative light kernel (go_bits_coop.cu): emulated
// block-wide with fibers (fiber_shim.h), it must produce the same
// statistics block, word for word, as the light kernel it replaces
// (go_bits.cu's go_bits_playouts) from the same leaves and seeds: the
// same playouts, only their string growth done by the warp. Leaves: random
// light games stopped after 0 to N * N / 2 moves (ko points and a pending
// pass included as they come); blocks of 128, 64 and 32 threads.
// Usage: go_coop [leaves per size] [playouts per leaf]
#include "fiber_shim.h"
#include "go_coop_src.inc"
#include <random>

template <int N>
static void make_leaf(int index, int count, u64 seed, std::vector<u8>& colors, GoLeaf& leaf) {
    typedef GoGeo<N> G;
    typedef Bits<G::W> B;
    GbBoard<N> b;
    b.own = b.opp = none<G::W>();
    b.me = 0;
    b.ko = -1;
    b.captured_black = b.captured_white = 0;
    Rng rng(playout_seed(seed, index, 0));
    int target = (int)((u64)index * (G::P / 2) / count), passes = 0;
    for (int m = 0; m < target && passes < 2; ++m) {
        B cand = gb_candidates<N>(b);
        int n = popc(cand);
        bool played = false;
        while (n > 0 && !played) {
            B at = onehot<G::W>(select_bit(cand, (int)rng.below((u32)n)));
            played = b.try_play(at);
            if (!played) {
                cand = andnot(cand, at);
                --n;
            }
        }
        if (played) {
            passes = 0;
        } else {
            passes++;
            b.ko = -1;
        }
        b.turn();
    }
    colors.assign(G::P, 0);
    const B black = b.black(), white = b.white();
    for (int p = 0; p < G::P; ++p) {
        B at = onehot<G::W>(G::bit_of(p));
        colors[p] = any(black & at) ? 1 : (any(white & at) ? 2 : 0);
    }
    leaf.to_move = b.me + 1;
    leaf.ko = b.ko >= 0 ? G::point_of(b.ko) : -1;
    leaf.passes = passes;
    leaf.komi2 = 15;
    leaf.last = -1;
}

template <int N>
static int check(int leaves, unsigned playouts) {
    typedef GoGeo<N> G;
    const unsigned stride = stats_stride(G::P);
    int failures = 0, with_ko = 0;
    long stones = 0;
    for (int l = 0; l < leaves; ++l) {
        std::vector<u8> colors;
        GoLeaf leaf;
        make_leaf<N>(l, leaves, 99, colors, leaf);
        with_ko += leaf.ko >= 0;
        for (u8 c : colors) stones += c != 0;
        for (unsigned threads : {128u, 64u, 32u}) {
            std::vector<u32> a(stride, 0), b(stride, 0);
            blockIdx.x = blockIdx.y = 0;
            gridDim.x = gridDim.y = 1;
            blockDim.x = threads;
            const u64 seed = 1000 + l;
            fiber::run_block(threads, [&] { go_bits_playouts<N>(colors.data(), &leaf, a.data(), playouts, seed); });
            fiber::run_block(threads, [&] { go_bits_coop_playouts<N>(colors.data(), &leaf, b.data(), playouts, seed); });
            if (a[2] != playouts || a != b) {
                unsigned k = 0;
                while (k < stride && a[k] == b[k]) ++k;
                printf("  %dx%d leaf %d, %u threads: statistics differ at word %u (%u against %u)\n", N, N, l, threads,
                       k, k < stride ? b[k] : 0, k < stride ? a[k] : 0);
                failures++;
            }
        }
    }
    printf("%dx%d: %d leaves (%ld stones, %d with a ko point) x 3 block sizes x %u playouts: %d differ\n", N, N,
           leaves, stones, with_ko, playouts, failures);
    return failures;
}

int main(int argc, char** argv) {
    int leaves = argc > 1 ? atoi(argv[1]) : 12;
    unsigned playouts = argc > 2 ? (unsigned)atoi(argv[2]) : 128;
    int failures = check<9>(leaves, playouts) + check<13>(leaves, playouts) + check<19>(leaves, playouts);
    if (failures) {
        printf("go_coop: FAILED\n");
        return 1;
    }
    printf("go_coop: the cooperative kernel's statistics equal the light kernel's\n");
    return 0;
}
