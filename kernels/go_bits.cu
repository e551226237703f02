// Go playouts, one playout per thread, the whole board in registers as
// two bit sets (go_bitset.cu: the layout and the set operations).
//
// Same policy and rules as go.cu (the CPU `Random` policy): uniform over
// empty points that are not the simple-ko point, not the mover's one-point
// eye (four own/edge neighbours and fewer than two "defects": opponent
// diagonals plus one for touching the edge) and not suicide; pass when none
// is left; two passes or 3 * N * N moves end the game; Tromp-Taylor area.
// Moves are drawn uniformly from the allowed points less the certain
// suicides (see `sure_suicides`), redrawing after any other suicide: the
// same distribution as the CPU policy and go_points.cu (which draw among
// all allowed points and redraw every suicide), fewer draws.
//
// Where the time goes, and what keeps it small: a move is a few dozen word
// operations unless a neighbouring string may be captured or the move may
// be suicide; only then is a string grown (by neighbour shifts), and the
// growth stops as soon as it touches a liberty. The per-leaf statistics
// are gathered a warp at a time: 32 ballots turn the 32 lanes' first-play
// and area sets into per-point counts, one lane per point adds them.
//
// Needs common.cuh, go.cu (GoLeaf) and go_bitset.cu before it.

// Threads per block of the playout kernel (the host's PLAYOUT_BLOCK).
#define GB_BLOCK 128

// Steps along strings that `sure_suicides` takes by default (the warp
// model's and go_exact's candidates; see there; go_rows.cu computes the
// 0-step set; the light kernel's are in GbLight). H200, 256 leaves x 2048 light playouts, 9x9 / 13x13 /
// 19x19: 0 steps 102 / 27.0 / 6.4 M, 4 steps 123-127 / 34.3-34.9 / 7.6 M;
// 6 steps no better, 8 and 12 slower (docs/gpu-kernels.md, "Certain suicides
// along strings").
#ifndef GB_SURE_STEPS
#define GB_SURE_STEPS 4
#endif

// The light kernel's settings per board size, each measured against the
// others on an H100 or H200 with kernels/devbench (256 leaves x 2048
// playouts, docs/gpu-kernels-19x19.md):
//   near        the `near_liberty` steps `try_play` takes before growing;
//   sure_steps  the steps of `sure_suicides`;
//   grow2       `grow` takes two steps between tests;
//   atari       play with go_bits_atari.cu's board instead, which keeps the
//               strings in atari and so draws from the exact legal moves
//               (the other settings then do not apply: they are the best
//               measured without it);
//   window      with atari: the words of the board around a move that its
//               string growths run on (GaWindow). H200: 19x19 3 / 4 / 5 / 6
//               words 14.58 / 15.83 / 16.06 / 15.20 M playouts/s; 13x13 2 /
//               3 / 4 / 6 (all) 53.7 / 57.7 / 52.6 / 44.1 M, 40.8 M without
//               atari; 9x9 2 / 3 (all) 166.5 / 156.0 M, 143.2 M without.
// None of them changes the distribution of the playouts; near, grow2 and
// window do not change the playouts either, sure_steps and atari change the
// random stream (fewer rejected draws, none with atari).
template <int N>
struct GbLight;
template <>
struct GbLight<9> {
    static constexpr int near = 1, sure_steps = 4, window = 2;
    static constexpr bool grow2 = true, atari = true;
};
template <>
struct GbLight<13> {
    static constexpr int near = 1, sure_steps = 5, window = 3;
    static constexpr bool grow2 = true, atari = true;
};
template <>
struct GbLight<19> {
    static constexpr int near = 0, sure_steps = 5, window = 5;
    static constexpr bool grow2 = false, atari = true;
};

// Counting hooks for the CPU warp model (hostcheck/go_warp_model.cpp),
// which defines them; empty in the kernels.
#ifndef GB_COUNT_GROW
#define GB_COUNT_GROW()
#endif
#ifndef GB_COUNT_CAPTURE_TEST
#define GB_COUNT_CAPTURE_TEST()
#endif

// A board seen from the side to move: `own` is the mover's stones, `opp`
// the other side's; `turn()` swaps them. (Indexing a pair by colour at run
// time would put the sets in local memory.)
template <int N>
struct GbBoard {
    static constexpr int W = GoGeo<N>::W;
    Bits<W> own, opp;
    int me;              // 0: Black to move, 1: White
    int ko;              // bit index or -1
    u32 captured_black;  // stones captured of each colour
    u32 captured_white;

    // The empty board, Black to move.
    __device__ __forceinline__ void clear() {
        own = opp = none<W>();
        me = 0;
        ko = -1;
        captured_black = captured_white = 0;
    }

    __device__ __forceinline__ void turn() {
        Bits<W> t = own;
        own = opp;
        opp = t;
        me ^= 1;
    }
    __device__ __forceinline__ Bits<W> black() const { return me == 0 ? own : opp; }
    __device__ __forceinline__ Bits<W> white() const { return me == 0 ? opp : own; }

    __device__ __forceinline__ Bits<W> empty() const { return andnot(go_masks<N>().all, own | opp); }

    // Empty points that are the mover's one-point eyes (see the file
    // comment).
    __device__ __forceinline__ Bits<W> eyes() const {
        const GoMasks<N>& m = go_masks<N>();
        const int S = GoGeo<N>::S;
        Bits<W> eye = empty() & (shr(own, 1) | m.col_last) & (shl(own, 1) | m.col0) &
                      (shr(own, S) | m.row_last) & (shl(own, S) | m.row0);
        if (!any(eye)) return eye;
        // Opponent diagonals, counted to two (one set at a time keeps
        // fewer sets live).
        Bits<W> one = shr(opp, S + 1), two = none<W>(), d = shr(opp, S - 1);
        two |= one & d;
        one |= d;
        d = shl(opp, S - 1);
        two |= one & d;
        one |= d;
        d = shl(opp, S + 1);
        two |= one & d;
        one |= d;
        return andnot(andnot(eye, two), m.edge & one);
    }

    // Empty points where the mover's stone would certainly be suicide:
    // "walled" points (all four neighbours opponent stones or off the
    // board) none of whose neighbouring strings is captured by the move.
    // A string survives when it has a liberty other than the walled point:
    // certainly so when one of its stones has two empty neighbours, or an
    // empty neighbour that is not walled (so not the point played). STEPS
    // steps along the strings carry that "safe" mark from such stones to
    // the stones next to the walled points; a walled point all of whose
    // neighbouring stones are marked is a certain suicide. Late in a
    // playout most empty points are such opponent eyes; drawing them only
    // to reject them cost more than half of the kernel's time (one redraw
    // loop per lane, run by few lanes), and each rejected draw is one more
    // warp step. STEPS 0 is the first version (only stones with two empty
    // neighbours count): the warp model (hostcheck/go_warp_model.cpp, 19x19)
    // counts 297 rejected draws a playout with it, 82 with 4 steps, 44 with
    // 8, and 1,076 / 666 / 591 warp steps per 32 playouts.
    template <int STEPS>
    __device__ __forceinline__ Bits<W> sure_suicides(const Bits<W>& empty) const {
        const GoMasks<N>& m = go_masks<N>();
        const int S = GoGeo<N>::S;
        Bits<W> walled = empty & (shr(opp, 1) | m.col_last) & (shl(opp, 1) | m.col0) &
                         (shr(opp, S) | m.row_last) & (shl(opp, S) | m.row0);
        if (!any(walled)) return walled;
        // Empty neighbours counted to two, per point.
        Bits<W> one = shr(empty, 1), two = none<W>(), d = shl(empty, 1);
        two |= one & d;
        one |= d;
        d = shr(empty, S);
        two |= one & d;
        one |= d;
        d = shl(empty, S);
        two |= one & d;
        Bits<W> safe = opp & two;
        if (STEPS > 0) {
            safe |= opp & nbrs<N>(andnot(empty, walled));
#pragma unroll
            for (int k = 0; k < STEPS; ++k) safe |= opp & nbrs<N>(safe);
        }
        return andnot(walled, nbrs<N>(andnot(opp, safe)));
    }

    // Grows `s` (stones of the set `color`) until it touches `empty`
    // (returns true: the string has a liberty) or stops growing (false;
    // `s` is then the whole string). TWO: two neighbour steps between
    // tests (the second step's neighbours include the first's), which
    // saves two tests every two steps and may grow one step past the
    // first liberty; the answer is the same.
    template <bool TWO = false>
    __device__ __forceinline__ static bool grow(Bits<W>& s, const Bits<W>& color, const Bits<W>& empty) {
        if (TWO) {
            for (;;) {
                GB_COUNT_GROW();
                const Bits<W> g = (nbrs<N>(s) & color) | s;
                const Bits<W> d = nbrs<N>(g);
                if (any(d & empty)) {
                    s = g;
                    return true;
                }
                const Bits<W> h = (d & color) | g;
                if (same(h, g)) {
                    s = g;
                    return false;
                }
                s = h;
            }
        }
        for (;;) {
            GB_COUNT_GROW();
            Bits<W> d = nbrs<N>(s);
            if (any(d & empty)) return true;
            Bits<W> g = (d & color) | s;
            if (same(g, s)) return false;
            s = g;
        }
    }

    // Stones of `color` at most STEPS steps along their string from a
    // stone next to an empty point: their strings have a liberty.
    template <int STEPS>
    __device__ __forceinline__ static Bits<W> near_liberty(const Bits<W>& color, const Bits<W>& empty) {
        Bits<W> live = color & nbrs<N>(empty);
#pragma unroll
        for (int k = 0; k < STEPS; ++k) live |= color & nbrs<N>(live);
        return live;
    }

    // Plays the mover at the empty, non-ko point `at` (a one-bit set) if
    // that is not suicide; returns false and changes nothing otherwise.
    // Does not pass the turn.
    //
    // Strings that may be captured (or, for the mover's own, be suicide)
    // are grown until they touch a liberty. Growing takes a data-dependent
    // number of steps, which the warp pays at its slowest lane: Nsight
    // Compute (H200, 9x9 light) had those loops at about half of the
    // kernel's instructions, at 4-5 active lanes of 32. With NEAR > 0, a
    // fixed NEAR steps first mark every stone that close to a liberty
    // along its string (`near_liberty`, the same work on every lane), and
    // only strings none of whose stones next to `at` is marked are grown.
    // H200, 256 leaves x 2048 light playouts, 9x9: NEAR 0 / 1 / 2 / 4 gave
    // 96.8 / 103.3 / 101.4 / 97.6 M playouts/s (two runs each). The pattern
    // kernel, which rejects self-atari and so meets fewer big dead
    // strings, was 1.5-3% slower with 1 when it played here. On 19x19, since
    // the certain suicides took 4 steps, 0 is faster (GbLight).
    //
    // GROW2: `grow`'s two-step form.
    template <int NEAR = 1, bool GROW2 = false>
    __device__ __forceinline__ bool try_play(const Bits<W>& at) {
        const Bits<W> mine = own | at;
        const Bits<W> empty = andnot(go_masks<N>().all, mine | opp);
        const Bits<W> nb = nbrs<N>(at);
        Bits<W> taken = none<W>();
        // A neighbouring stone next to an empty point keeps its string
        // alive; only the others need their strings grown.
        Bits<W> danger = nb & opp;
        if (any(danger)) {
            danger = andnot(danger, nbrs<N>(empty));
            if (NEAR > 0 && any(danger)) danger = andnot(danger, near_liberty<NEAR>(opp, empty));
        }
        while (any(danger)) {
            GB_COUNT_CAPTURE_TEST();
            Bits<W> s = lowest_set(danger);
            if (!grow<GROW2>(s, opp, empty)) taken |= s;
            danger = andnot(danger, s);
        }
        if (any(taken)) {
            int n = popc(taken);
            bool lone = !any(nb & own);
            opp = andnot(opp, taken);
            own = mine;
            if (me == 0) captured_white += n;
            else captured_black += n;
            ko = -1;
            if (n == 1 && lone && popc(nb & this->empty()) == 1) ko = select_bit(taken, 0);
            return true;
        }
        if (!any(nb & empty) && (NEAR == 0 || !any(nb & near_liberty<NEAR>(mine, empty)))) {
            Bits<W> s = at;
            if (!grow<GROW2>(s, mine, empty)) return false;  // suicide
        }
        own = mine;
        ko = -1;
        return true;
    }

    // Tromp-Taylor: Black area minus White area; the areas into `area`.
    __device__ __forceinline__ int score(Bits<W>& area_black, Bits<W>& area_white) const {
        const Bits<W> e = empty();
        Bits<W> reach[2];
        const Bits<W> stones[2] = {black(), white()};
#pragma unroll
        for (int c = 0; c < 2; ++c) {
            Bits<W> r = nbrs<N>(stones[c]) & e;
            for (;;) {
                Bits<W> n = (nbrs<N>(r) & e) | r;
                if (same(n, r)) break;
                r = n;
            }
            reach[c] = r;
        }
        area_black = stones[0] | andnot(reach[0], reach[1]);
        area_white = stones[1] | andnot(reach[1], reach[0]);
        return popc(area_black) - popc(area_white);
    }
};

// The points a random move is drawn from: empty points that are not the
// mover's eye, not ko and not certain suicide (both bitboard kernels and
// the warp model).
template <int N, int STEPS = GB_SURE_STEPS>
__device__ __forceinline__ Bits<GoGeo<N>::W> gb_candidates(const GbBoard<N>& b) {
    typedef Bits<GoGeo<N>::W> B;
    const B empty = b.empty();
    B cand = andnot(andnot(empty, b.eyes()), b.template sure_suicides<STEPS>(empty));
    if (b.ko >= 0) cand = andnot(cand, onehot<GoGeo<N>::W>(b.ko));
    return cand;
}

// Adds one warp's playouts (32 lanes, `active` ones count) to the block's
// tables: per word, 32 ballots give lane j the lanes whose set has bit j.
template <int N>
__device__ __forceinline__ void gb_record_warp(u32* tables, SharedStats* head, bool active,
                                               const u32* first, const Bits<GoGeo<N>::W> area[2],
                                               i32 score2, u32 bw) {
    typedef GoGeo<N> G;
    const u32 FULL = 0xFFFFFFFFu;
    const u32 lane = threadIdx.x & 31;
    const u32 win2 = __ballot_sync(FULL, active && bw == 2);
    const u32 win1 = __ballot_sync(FULL, active && bw == 1);
    const u32 live = __ballot_sync(FULL, active);
    i64 s = active ? (i64)score2 : 0;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(FULL, s, off);
    if (lane == 0) {
        atomicAdd(&head->score2, (u64)s);
        atomicAdd(&head->playouts, (u32)__popc(live));
        atomicAdd(&head->wins2, (u32)(2 * __popc(win2) + __popc(win1)));
    }
#pragma unroll
    for (int i = 0; i < G::W; ++i) {
        u32 f0 = active ? first[(0 * G::W + i) * GB_BLOCK + threadIdx.x] : 0;
        u32 f1 = active ? first[(1 * G::W + i) * GB_BLOCK + threadIdx.x] : 0;
        u32 a0 = active ? area[0].w[i] : 0, a1 = active ? area[1].w[i] : 0;
        u32 c0 = 0, c1 = 0, o0 = 0, o1 = 0;
        // Not unrolled: unrolled, the compiler hoists all 128 ballots into
        // registers before it selects.
#pragma unroll 1
        for (int j = 0; j < 32; ++j) {
            u32 v0 = __ballot_sync(FULL, (f0 >> j) & 1), v1 = __ballot_sync(FULL, (f1 >> j) & 1);
            u32 u0 = __ballot_sync(FULL, (a0 >> j) & 1), u1 = __ballot_sync(FULL, (a1 >> j) & 1);
            if (lane == (u32)j) {
                c0 = v0;
                c1 = v1;
                o0 = u0;
                o1 = u1;
            }
        }
        int b = 32 * i + (int)lane;
        if (b < G::NB && b % G::S != N) {
            int p = G::point_of(b);
            if (c0) {
                atomicAdd(&tables[2 * p], (u32)__popc(c0));
                u32 w = 2 * __popc(c0 & win2) + __popc(c0 & win1);
                if (w) atomicAdd(&tables[2 * G::P + 2 * p], w);
            }
            if (c1) {
                atomicAdd(&tables[2 * p + 1], (u32)__popc(c1));
                u32 w = 2 * __popc(c1 & win2) + __popc(c1 & win1);
                if (w) atomicAdd(&tables[2 * G::P + 2 * p + 1], w);
            }
            int o = __popc(o0) - __popc(o1);
            if (o) atomicAdd((i32*)&tables[4 * G::P + p], o);
        }
    }
}

// The leaf's stones, read by every thread of the block into shared
// words (`start[colour][word]`).
template <int N>
__device__ __forceinline__ void gb_load_leaf(const u8* __restrict__ colors, u32 (*start)[GoGeo<N>::W]) {
    typedef GoGeo<N> G;
    for (int i = threadIdx.x; i < 2 * G::W; i += blockDim.x) start[i / G::W][i % G::W] = 0;
    __syncthreads();
    for (int p = threadIdx.x; p < G::P; p += blockDim.x) {
        u8 c = colors[p];
        int bit = G::bit_of(p);
        if (c == 1 || c == 2) atomicOr(&start[c - 1][bit >> 5], 1u << (bit & 31));
    }
    __syncthreads();
}

// A playout's board from the leaf's stones; clears the thread's first-play
// sets (`first[colour][word][thread]`).
template <int N>
__device__ __forceinline__ void gb_start(GbBoard<N>& b, const GoLeaf& info, const u32 (*start)[GoGeo<N>::W],
                                         u32* first, int ko) {
    typedef GoGeo<N> G;
    b.me = info.to_move - 1;
#pragma unroll
    for (int i = 0; i < G::W; ++i) {
        b.own.w[i] = start[b.me][i];
        b.opp.w[i] = start[b.me ^ 1][i];
        first[(0 * G::W + i) * GB_BLOCK + threadIdx.x] = 0;
        first[(1 * G::W + i) * GB_BLOCK + threadIdx.x] = 0;
    }
    b.ko = ko;
    b.captured_black = b.captured_white = 0;
}

// Notes the mover's play at bit p if nobody played there first.
template <int N>
__device__ __forceinline__ void gb_note_first(u32* first, int p, int me) {
    typedef GoGeo<N> G;
    u32* f = &first[(p >> 5) * GB_BLOCK + threadIdx.x];
    u32 m = 1u << (p & 31);
    if (!((f[0] | f[G::W * GB_BLOCK]) & m)) f[me * G::W * GB_BLOCK] |= m;
}

// Scores the finished playout and adds it to the block's tables with the
// rest of the warp.
template <int N>
__device__ __forceinline__ void gb_finish(const GbBoard<N>& b, i32 komi2, bool active, u32* tables,
                                          SharedStats* head, const u32* first) {
    Bits<GoGeo<N>::W> area[2];
    int diff = b.score(area[0], area[1]);
    i32 score2 = 2 * diff - komi2;
    u32 bw = score2 > 0 ? 2 : (score2 == 0 ? 1 : 0);
    gb_record_warp<N>(tables, head, active, first, area, score2, bw);
}

// What a move step of a bitboard playout kernel returns besides the point
// it played.
enum { GB_PASS = -1, GB_AGAIN = -2 };

// One leaf's playouts, the frame of the light kernels (go_bits_playouts,
// go_bits_atari.cu's; the pattern kernel writes it out, see there); the
// policy makes the moves. Each warp plays 32 playouts side by side; warps
// loop until the leaf has its playouts. The block (one leaf) gathers the
// statistics in shared memory and flushes them once. The leaf's stones and
// each thread's first-play sets (AMAF) live in shared memory, which keeps
// registers for the board: a move reads and writes one word of its
// first-play sets.
//
// The warp steps together, one try per lane per step: `policy.step` makes
// one move (returns the point played, or GB_PASS) or one try that failed
// (GB_AGAIN: a drawn point rejected; the lane tries again at the next
// step), so no lane waits inside a redraw loop for another. (Nsight
// Compute, H200, 9x9: with a redraw loop inside each move, the warp turned
// that loop 5.7 times a move at 6.5 active lanes; lanes drawing the
// opponent's eyes late in a playout set the pace.) The vote at the top
// keeps the lanes in step.
//
// Policy: `Board` (GbBoard<N> or a board derived from it);
// `prepare(start)`, by every thread once the leaf's stones are loaded;
// `begin(b, info)` for each playout, `b` set up from the leaf;
// `int step(Board& b, Rng& rng)`.
template <int N, class Policy>
__device__ __forceinline__ void gb_leaf_playouts(const u8* __restrict__ boards, const GoLeaf* __restrict__ leaves,
                                                 u32* __restrict__ stats, u32 playouts_per_leaf, u64 seed,
                                                 Policy& policy) {
    typedef GoGeo<N> G;
    __shared__ SharedStats head;
    __shared__ u32 tables[5 * G::P];
    const u32 leaf = blockIdx.y;
    // The shared first-play sets are laid out for GB_BLOCK threads; smaller
    // blocks of whole warps (few playouts a leaf) use the first rows.
    if (blockDim.x > GB_BLOCK || (blockDim.x & 31)) __trap();
    clear_shared(tables, &head, G::P);
    __shared__ u32 start[2][G::W];
    __shared__ u32 first[2 * G::W * GB_BLOCK];  // [colour][word][thread]
    const GoLeaf info = leaves[leaf];
    gb_load_leaf<N>(boards + (u64)leaf * G::P, start);
    policy.prepare(start);
    const int start_ko = info.ko >= 0 ? G::bit_of(info.ko) : -1;
    const u32 stride = gridDim.x * blockDim.x;
    for (u32 k0 = blockIdx.x * blockDim.x + (threadIdx.x & ~31u); k0 < playouts_per_leaf; k0 += stride) {
        const u32 k = k0 + (threadIdx.x & 31);
        const bool active = k < playouts_per_leaf;
        typename Policy::Board b;
        gb_start<N>(b, info, start, first, start_ko);
        policy.begin(b, info);
        Rng rng(playout_seed(seed, leaf, k));
        int passes = info.passes;
        bool done = !active || passes >= 2;
        int moves = 0;
        while (__any_sync(0xFFFFFFFFu, !done)) {
            if (done) continue;
            const int p = policy.step(b, rng);
            if (p == GB_AGAIN) continue;
            if (p >= 0) {
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

// Light playouts by drawing and trying: a point drawn from the candidates
// (gb_candidates: no certain suicide) is tried, and dropped if suicide.
template <int N>
struct GbTryPolicy {
    typedef GbBoard<N> Board;
    typedef GbLight<N> L;
    Bits<GoGeo<N>::W> cand;
    int n;
    bool fresh;  // the candidates must be computed for this move

    __device__ __forceinline__ void prepare(const u32 (*)[GoGeo<N>::W]) {}
    __device__ __forceinline__ void begin(Board&, const GoLeaf&) { fresh = true; }
    __device__ __forceinline__ int step(Board& b, Rng& rng) {
        if (fresh) {
            cand = gb_candidates<N, L::sure_steps>(b);
            n = popc(cand);
            fresh = false;
        }
        if (n == 0) {
            fresh = true;
            return GB_PASS;
        }
        const int p = select_bit(cand, (int)rng.below((u32)n));
        const Bits<GoGeo<N>::W> at = onehot<GoGeo<N>::W>(p);
        if (!b.template try_play<L::near, L::grow2>(at)) {
            cand = andnot(cand, at);
            --n;
            return GB_AGAIN;
        }
        fresh = true;
        return p;
    }
};

// The light kernel where GbLight<N>::atari is off (no board size now).
template <int N>
__device__ void go_bits_playouts(const u8* __restrict__ boards, const GoLeaf* __restrict__ leaves,
                                 u32* __restrict__ stats, u32 playouts_per_leaf, u64 seed) {
    GbTryPolicy<N> policy;
    gb_leaf_playouts<N>(boards, leaves, stats, playouts_per_leaf, seed, policy);
}

// The board as one byte a point (0 empty, 1 Black, 2 White), the host's
// layout: replays hand their final boards back this way, and devbench's
// leaves.cu its leaves.
template <int N>
__device__ __forceinline__ void gb_write_colors(const GbBoard<N>& b, u8* __restrict__ out) {
    typedef GoGeo<N> G;
    const Bits<G::W> black = b.black(), white = b.white();
    for (int p = 0; p < G::P; ++p) {
        const Bits<G::W> at = onehot<G::W>(G::bit_of(p));
        out[p] = any(black & at) ? 1 : (any(white & at) ? 2 : 0);
    }
}

// Replay, as go_replay in go.cu (one thread per sequence).
template <int N>
__device__ void go_bits_replay(const u16* __restrict__ moves, u32 max_moves, u32 sequences,
                               u8* __restrict__ boards_out, i32* __restrict__ result) {
    typedef GoGeo<N> G;
    typedef Bits<G::W> B;
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= sequences) return;
    GbBoard<N> b;
    b.clear();
    int error = 0;
    for (u32 t = 0; t < max_moves; ++t) {
        u32 mv = moves[(u64)i * max_moves + t];
        if (mv == 0xFFFF) break;
        if (mv < (u32)G::P) {
            int p = G::bit_of((int)mv);
            B at = onehot<G::W>(p);
            if (!any(at & b.empty()) || p == b.ko || !b.try_play(at)) {
                error = 1 + t;
                break;
            }
        } else {
            b.ko = -1;
        }
        b.turn();
    }
    gb_write_colors<N>(b, boards_out + (u64)i * G::P);
    B area[2];
    result[i * 4 + 0] = error;
    result[i * 4 + 1] = b.captured_black;
    result[i * 4 + 2] = b.captured_white;
    result[i * 4 + 3] = b.score(area[0], area[1]);
}

// go_bits_atari.cu, which comes after this file.
template <int N>
__device__ void go_bits_atari_playouts(const u8* __restrict__ boards, const GoLeaf* __restrict__ leaves,
                                       u32* __restrict__ stats, u32 playouts_per_leaf, u64 seed);

#define GO_BITS_ENTRY(N, MIN_BLOCKS)                                                                  \
    extern "C" __global__ void __launch_bounds__(GB_BLOCK, MIN_BLOCKS) go_bits_random_##N(const u8* boards, const GoLeaf* leaves, u32* stats, \
                                                  u32 playouts_per_leaf, u64 seed) {                 \
        if constexpr (GbLight<N>::atari) go_bits_atari_playouts<N>(boards, leaves, stats, playouts_per_leaf, seed); \
        else go_bits_playouts<N>(boards, leaves, stats, playouts_per_leaf, seed);                     \
    }                                                                                                 \
    extern "C" __global__ void go_bits_replay_##N(const u16* moves, u32 max_moves, u32 sequences,     \
                                                  u8* boards_out, i32* result) {                      \
        go_bits_replay<N>(moves, max_moves, sequences, boards_out, result);                           \
    }

// Blocks per multiprocessor the register allocation must allow (65,536
// registers / (128 threads x blocks)): 9x9 to 64 registers a thread.
GO_BITS_ENTRY(9, 8)
GO_BITS_ENTRY(13, 5)
GO_BITS_ENTRY(19, 3)
