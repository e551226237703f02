// Leaves for the stand-alone benchmark (bench.py): leaf i is the position
// after i * N * N / 2 / count moves of one random light game, made with
// go_bits.cu's own board code, so the leaves go from the empty board to
// half a board of moves as `warpstone bench`'s do. Needs common.cuh, go.cu,
// go_bitset.cu and go_bits.cu before it.
template <int N>
__device__ void bench_make_leaves(u8* boards, GoLeaf* leaves, u32 count, u64 seed) {
    typedef GoGeo<N> G;
    typedef Bits<G::W> B;
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    GbBoard<N> b;
    b.clear();
    Rng rng(playout_seed(seed, i, 0));
    int target = (int)((u64)i * (G::P / 2) / count), passes = 0;
    for (int m = 0; m < target && passes < 2; ++m) {
        B cand = gb_candidates<N>(b);
        int n = popc(cand);
        bool played = false;
        while (n > 0 && !played) {
            int p = select_bit(cand, (int)rng.below((u32)n));
            B at = onehot<G::W>(p);
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
    gb_write_colors<N>(b, boards + (u64)i * G::P);
    GoLeaf leaf;
    leaf.to_move = b.me + 1;
    leaf.ko = b.ko >= 0 ? G::point_of(b.ko) : -1;
    leaf.passes = passes;
    leaf.komi2 = 15;
    leaf.last = -1;
    leaves[i] = leaf;
}

#define BENCH_LEAVES_ENTRY(N)                                                                        \
    extern "C" __global__ void bench_make_leaves_##N(u8* boards, GoLeaf* leaves, u32 count, u64 seed) { \
        bench_make_leaves<N>(boards, leaves, count, seed);                                           \
    }
BENCH_LEAVES_ENTRY(9)
BENCH_LEAVES_ENTRY(13)
BENCH_LEAVES_ENTRY(19)
