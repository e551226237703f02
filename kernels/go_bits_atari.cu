// Go light playouts on the bitboard with the strings in atari kept up to
// date, so that the legal moves are known exactly before the draw.
//
// `aown` / `aopp`: the stones of the mover's / the opponent's strings that
// have exactly one liberty. With them, an empty point is legal for the
// mover exactly when it has an empty neighbour, an own neighbour outside
// `aown` (a string with another liberty) or an opponent neighbour inside
// `aopp` (a capture): one neighbour set, no growth, and no suicide is ever
// drawn. A move changes the liberties of the strings next to it and, when
// it captures, of the mover's strings next to the captured stones; only
// those are counted again (up to two liberties, stopping there).
//
// Same policy as go_bits.cu: uniform over the empty points that are not
// the simple-ko point, not the mover's eye and not suicide; one draw a
// move instead of a draw, a try and a redraw after each suicide, so the
// random stream differs and the distribution does not. go_bits.cu's light
// kernel plays this way where GbLight says so (19x19: H200, 256 leaves x
// 2048, 9.60-9.66 M playouts/s against 9.01-9.05 M; on 9x9 and 13x13 within
// 1%, kernels/NOTES_19x19.md). hostcheck/go_atari.cpp checks the sets,
// the candidates and every play against brute force and try_play.
//
// Needs common.cuh, go.cu, go_bitset.cu and go_bits.cu before it.

#ifndef GA_COUNT_GROW
#define GA_COUNT_GROW()
#endif

template <int N>
struct GaBoard : GbBoard<N> {
    static constexpr int W = GoGeo<N>::W;
    typedef Bits<W> B;
    B aown, aopp;

    __device__ __forceinline__ void turn() {
        GbBoard<N>::turn();
        B t = aown;
        aown = aopp;
        aopp = t;
    }

    // The whole of the strings of `within` that meet `s`.
    __device__ __forceinline__ static B flood(B s, const B& within) {
        for (;;) {
            GA_COUNT_GROW();
            B g = (nbrs<N>(s) & within) | s;
            if (same(g, s)) return s;
            s = g;
        }
    }

    // At least two points in `x`: two of its words share a set bit, or the
    // words' union has two (two instructions a word).
    __device__ __forceinline__ static bool two_or_more(const B& x) {
        u32 seen = 0, twice = 0;
#pragma unroll
        for (int i = 0; i < W; ++i) {
            twice |= seen & x.w[i];
            seen |= x.w[i];
        }
        return (twice | (seen & (seen - 1))) != 0;
    }

    // Grows `s` (stones of `color`) until its liberties number two (returns
    // 2, `s` part of the string) or it is the whole string (returns its
    // liberties, 0 or 1). It takes two growth steps between tests, as the
    // tests cost nearly as much as a step: it may grow one step more than
    // it needs, and the answer is the same. H200, devbench 256 x 2048,
    // 19x19 light, one to four steps between tests: 11.10 / 11.60 / 11.47
    // / 10.23 M playouts/s; the captures' and joins' floods are better off
    // testing every step (11.09 M with two). The pattern kernel keeps its
    // own count (gbp_grow_libs), faster there than this one.
    __device__ __forceinline__ static int liberties_upto2(B& s, const B& color, const B& empty) {
        for (;;) {
            GA_COUNT_GROW();
            GA_COUNT_GROW();
            const B g = (nbrs<N>(s) & color) | s;
            const B d = nbrs<N>(g);
            const B libs = d & empty;
            if (two_or_more(libs)) {
                s = g;
                return 2;
            }
            const B h = (d & color) | g;
            if (same(h, g)) {
                s = g;
                return any(libs) ? 1 : 0;
            }
            s = h;
        }
    }

    // The stones of `color`'s strings with exactly one liberty.
    __device__ static B atari_stones(const B& color, const B& empty) {
        B a = none<W>(), rest = color;
        while (any(rest)) {
            B s = flood(lowest_set(rest), color);
            if (popc(nbrs<N>(s) & empty) == 1) a |= s;
            rest = andnot(rest, s);
        }
        return a;
    }

    // The empty board, Black to move: no string, none in atari.
    __device__ __forceinline__ void clear() {
        GbBoard<N>::clear();
        aown = aopp = none<W>();
    }

    // Empty points the mover may play by the policy: not the ko point, not
    // an own eye, not suicide.
    __device__ __forceinline__ B candidates() const {
        const B empty = this->empty();
        const B good = empty | andnot(this->own, aown) | (this->opp & aopp);
        B cand = andnot(empty, this->eyes()) & nbrs<N>(good);
        if (this->ko >= 0) cand = andnot(cand, onehot<W>(this->ko));
        return cand;
    }

    // Plays the mover at `at`, a candidate (so legal). Does not pass the
    // turn.
    __device__ __forceinline__ void play(const B& at) {
        const B nb = nbrs<N>(at);
        const bool lone = !any(nb & this->own);
        B taken = nb & this->opp & aopp;
        int n = 0;
        if (any(taken)) {
            taken = flood(taken, aopp);
            n = popc(taken);
            this->opp = andnot(this->opp, taken);
            aopp = andnot(aopp, taken);
            if (this->me == 0) this->captured_white += n;
            else this->captured_black += n;
            // Own strings next to the captured stones gain liberties: those
            // in atari have two now.
            const B freed = nbrs<N>(taken) & aown;
            if (any(freed)) aown = andnot(aown, flood(freed, aown));
        }
        this->own |= at;
        const B empty = this->empty();
        // The strings the stone joins were in atari at `at` or had another
        // liberty; the new string is counted again.
        const B joined = nb & aown;
        if (any(joined)) aown = andnot(aown, flood(joined, aown));
        if (!two_or_more(nb & empty)) {
            // The stone and its own neighbours: the first growth step,
            // from neighbours known already.
            B s = (nb & this->own) | at;
            if (liberties_upto2(s, this->own, empty) < 2) aown |= s;
        }
        // The opponent's strings next to `at` lost a liberty.
        B foes = nb & this->opp;
        while (any(foes)) {
            B s = lowest_set(foes);
            if (liberties_upto2(s, this->opp, empty) < 2) aopp |= s;
            foes = andnot(foes, s);
        }
        this->ko = -1;
        if (n == 1 && lone && popc(nb & empty) == 1) this->ko = select_bit(taken, 0);
    }
};

// go_bits_playouts (go_bits.cu) on a GaBoard: one draw a move, from the
// exact candidates. The leaf's strings in atari are found once a block
// (two threads, a colour each) and copied into each playout.
template <int N>
__device__ void go_bits_atari_playouts(const u8* __restrict__ boards, const GoLeaf* __restrict__ leaves,
                                       u32* __restrict__ stats, u32 playouts_per_leaf, u64 seed) {
    typedef GoGeo<N> G;
    typedef Bits<G::W> B;
    __shared__ SharedStats head;
    __shared__ u32 tables[5 * G::P];
    const u32 leaf = blockIdx.y;
    if (blockDim.x > GB_BLOCK || (blockDim.x & 31)) __trap();
    clear_shared(tables, &head, G::P);
    __shared__ u32 start[2][G::W];
    __shared__ u32 start_atari[2][G::W];
    __shared__ u32 first[2 * G::W * GB_BLOCK];  // [colour][word][thread]
    const GoLeaf info = leaves[leaf];
    gb_load_leaf<N>(boards + (u64)leaf * G::P, start);
    if (threadIdx.x < 2) {
        B stones, empty;
#pragma unroll
        for (int i = 0; i < G::W; ++i) {
            stones.w[i] = start[threadIdx.x][i];
            empty.w[i] = go_masks<N>().all.w[i] & ~(start[0][i] | start[1][i]);
        }
        const B a = GaBoard<N>::atari_stones(stones, empty);
#pragma unroll
        for (int i = 0; i < G::W; ++i) start_atari[threadIdx.x][i] = a.w[i];
    }
    __syncthreads();
    const int start_ko = info.ko >= 0 ? G::bit_of(info.ko) : -1;
    const u32 stride = gridDim.x * blockDim.x;
    for (u32 k0 = blockIdx.x * blockDim.x + (threadIdx.x & ~31u); k0 < playouts_per_leaf; k0 += stride) {
        const u32 k = k0 + (threadIdx.x & 31);
        const bool active = k < playouts_per_leaf;
        GaBoard<N> b;
        gb_start<N>(b, info, start, first, start_ko);
#pragma unroll
        for (int i = 0; i < G::W; ++i) {
            b.aown.w[i] = start_atari[b.me][i];
            b.aopp.w[i] = start_atari[b.me ^ 1][i];
        }
        Rng rng(playout_seed(seed, leaf, k));
        int passes = info.passes;
        bool done = !active || passes >= 2;
        int moves = 0;
        while (__any_sync(0xFFFFFFFFu, !done)) {
            if (done) continue;
            const B cand = b.candidates();
            const int n = popc(cand);
            if (n > 0) {
                const int p = select_bit(cand, (int)rng.below((u32)n));
                b.play(onehot<G::W>(p));
                gb_note_first<N>(first, p, b.me);
                passes = 0;
            } else {
                passes++;
                b.ko = -1;
            }
            b.turn();
            done = ++moves >= 3 * G::P || passes >= 2;
        }
        gb_finish<N>(b, info.komi2, active, tables, &head, first);
    }
    __syncthreads();
    flush_stats(stats + (u64)leaf * stats_stride(G::P), tables, &head, G::P);
}
