// Go playouts, one playout per warp: lane r holds row r of the board.
//
// Each lane keeps two 32-bit rows, the mover's stones and the opponent's
// (bit c = column c; lanes N..31 hold empty rows and stay empty). A set
// operation on the whole board is one instruction; the rows above and
// below come from one warp shuffle each. Every lane runs every step, so
// the warp never diverges: where go_bits.cu runs 32 playouts side by side
// and waits for its slowest lane, here one playout runs 32 lanes wide.
// That wins on big boards (19x19: a set operation is 12 words there and
// the per-thread board needs 160 registers, so three blocks fit an SM),
// and costs on 9x9, where 23 of 32 lanes idle.
//
// Same policy and rules as go_bits.cu and go.cu (the CPU `Random` policy):
// uniform over empty points that are not the simple-ko point, not the
// mover's one-point eye (four own/edge neighbours and fewer than two
// "defects": opponent diagonals plus one for touching the edge) and not
// suicide; pass when none is left; two passes or 3 * N * N moves end the
// game; Tromp-Taylor area. Moves are drawn uniformly from the allowed
// points less the certain suicides (as go_bits.cu), redrawing after any
// other suicide: the same distribution.
//
// A move: four shuffles (the rows above and below of both colours) give
// the eyes, the certain suicides and the points with two empty
// neighbours; a warp prefix sum of the candidates per row and one random
// number pick the point; a stone next to the move is in danger of capture
// only if the move takes its second-last empty neighbour, and only then
// is its string grown (one shuffle pair a step, stopping at the first
// liberty). All branches are warp-uniform: every lane computes the same
// random numbers and the same reductions.
//
// Needs common.cuh, and go.cu before it (GoLeaf).

// Threads per block of the playout kernel (the host's PLAYOUT_BLOCK):
// four warps, four playouts at a time.
#define GR_BLOCK 128
#define GR_FULL 0xFFFFFFFFu

template <int N>
struct RowLane {
    static_assert(N < 32, "one lane per row, and a row below the last");
    static constexpr u32 ROW = (1u << N) - 1;
    static constexpr u32 HIGH = 1u << (N - 1);
    static constexpr int P = N * N;

    u32 lane;  // this lane's row
    u32 row;   // the row's points, or 0 past the board
    bool top, bottom;

    __device__ __forceinline__ RowLane() {
        lane = threadIdx.x & 31;
        row = lane < (u32)N ? ROW : 0u;
        top = lane == 0;
        bottom = lane == (u32)N - 1;
    }
    // The row above (row r - 1; nothing above the first).
    __device__ __forceinline__ u32 up(u32 x) const {
        u32 y = __shfl_up_sync(GR_FULL, x, 1);
        return top ? 0u : y;
    }
    // The row below (row r + 1; lane N holds an empty row).
    __device__ __forceinline__ u32 down(u32 x) const { return __shfl_down_sync(GR_FULL, x, 1); }
    // Orthogonal neighbours of the set s.
    __device__ __forceinline__ u32 nbrs(u32 s) const { return ((s << 1) | (s >> 1) | up(s) | down(s)) & row; }
};

__device__ __forceinline__ bool gr_any(u32 x) { return __any_sync(GR_FULL, x != 0); }

// Warp-wide OR and sum: one instruction from sm_80 on, shuffles before.
__device__ __forceinline__ u32 gr_or(u32 x) {
#if __CUDA_ARCH__ >= 800
    return __reduce_or_sync(GR_FULL, x);
#else
    for (int o = 16; o > 0; o >>= 1) x |= __shfl_xor_sync(GR_FULL, x, o);
    return x;
#endif
}
__device__ __forceinline__ u32 gr_add(u32 x) {
#if __CUDA_ARCH__ >= 800
    return __reduce_add_sync(GR_FULL, x);
#else
    for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(GR_FULL, x, o);
    return x;
#endif
}

// A board seen from the side to move, one row per lane.
template <int N>
struct RowBoard {
    u32 own, opp;  // this lane's row of the mover's and the other side's stones
    u32 ko;        // the simple-ko point as a one-bit set (in its row), or 0
    int me;        // 0: Black to move, 1: White
    u32 captured_black, captured_white;

    __device__ __forceinline__ void turn() {
        u32 t = own;
        own = opp;
        opp = t;
        me ^= 1;
    }
    __device__ __forceinline__ u32 black() const { return me == 0 ? own : opp; }
    __device__ __forceinline__ u32 white() const { return me == 0 ? opp : own; }
    __device__ __forceinline__ u32 empty(const RowLane<N>& L) const { return L.row & ~(own | opp); }

    // The points the mover may draw this move: empty, not ko, not an own
    // eye, not a certain suicide (all neighbours opponent stones or edge,
    // each of those stones with a second empty neighbour). `two` gets the
    // points with at least two empty neighbours, which try_play needs.
    __device__ __forceinline__ u32 candidates(const RowLane<N>& L, u32& two) const {
        const u32 HIGH = RowLane<N>::HIGH;
        const u32 ou = L.up(own), od = L.down(own), pu = L.up(opp), pd = L.down(opp);
        const u32 empty = L.row & ~(own | opp);
        const u32 eye = empty & ((own << 1) | 1u) & ((own >> 1) | HIGH) & (L.top ? ~0u : ou) &
                        (L.bottom ? ~0u : od);
        const u32 walled = empty & ((opp << 1) | 1u) & ((opp >> 1) | HIGH) & (L.top ? ~0u : pu) &
                           (L.bottom ? ~0u : pd);
        // Empty neighbours counted to two, per point.
        const u32 eu = L.top ? 0u : L.row & ~(ou | pu);
        const u32 ed = L.bottom ? 0u : L.row & ~(od | pd);
        u32 one = empty << 1, d = empty >> 1;
        two = one & d;
        one |= d;
        two |= one & eu;
        one |= eu;
        two |= one & ed;
        u32 cand = empty & ~ko;
        const u32 flags = gr_or((eye ? 1u : 0u) | (walled ? 2u : 0u));
        if (flags & 1u) {
            // Opponent diagonals counted to two; the edge counts as one.
            u32 o1 = pu << 1, t2 = 0, x = pu >> 1;
            t2 |= o1 & x;
            o1 |= x;
            x = pd << 1;
            t2 |= o1 & x;
            o1 |= x;
            x = pd >> 1;
            t2 |= o1 & x;
            o1 |= x;
            const u32 edge = (L.top || L.bottom) ? ~0u : (1u | HIGH);
            cand &= ~(eye & ~t2 & ~(edge & o1));
        }
        if (flags & 2u) cand &= ~(walled & ~L.nbrs(opp & ~two));
        return cand;
    }

    // Grows `s` (stones of the set `color`) until it touches `empty`
    // (true: the string has a liberty) or stops growing (false; `s` is
    // then the whole string).
    __device__ __forceinline__ static bool grow(const RowLane<N>& L, u32& s, u32 color, u32 empty) {
        for (;;) {
            const u32 d = L.nbrs(s);
            const u32 g = (d & color) | s;
            const u32 f = gr_or(((d & empty) ? 1u : 0u) | (g != s ? 2u : 0u));
            if (f & 1u) return true;
            if (!(f & 2u)) return false;
            s = g;
        }
    }

    // Plays the mover at the empty, non-ko point (r, c) if that is not
    // suicide; returns false and changes nothing otherwise. `two` is from
    // candidates() for this position. Does not pass the turn.
    __device__ __forceinline__ bool try_play(const RowLane<N>& L, u32 r, u32 c, u32 two) {
        const u32 bit = 1u << c;
        const u32 at = L.lane == r ? bit : 0u;
        const u32 nb = L.lane == r ? ((bit << 1) | (bit >> 1)) & L.row
                                   : ((L.lane + 1 == r || L.lane == r + 1) ? bit & L.row : 0u);
        const u32 mine = own | at;
        const u32 empty = L.row & ~(mine | opp);
        // A neighbouring stone with another empty neighbour keeps its
        // string alive; only the others need their strings grown.
        u32 danger = nb & opp & ~two;
        const u32 f = gr_or((danger ? 1u : 0u) | ((nb & empty) ? 2u : 0u));
        if (f == 2u) {  // nothing to capture, a liberty next to the stone
            own = mine;
            ko = 0;
            return true;
        }
        u32 taken = 0;
        while (gr_any(danger)) {
            const u32 first_row = __ffs(__ballot_sync(GR_FULL, danger != 0)) - 1;
            u32 s = L.lane == first_row ? danger & (0u - danger) : 0u;
            if (!grow(L, s, opp, empty)) taken |= s;
            danger &= ~s;
        }
        if (gr_any(taken)) {
            const u32 n = gr_add((u32)__popc(taken));
            const bool lone = !gr_any(nb & own);
            opp &= ~taken;
            own = mine;
            if (me == 0) captured_white += n;
            else captured_black += n;
            // One stone taken by a lone stone whose only liberty is now
            // the taken point: that point is ko.
            ko = (n == 1 && lone && !(f & 2u)) ? taken : 0u;
            return true;
        }
        if (!(f & 2u)) {
            u32 s = at;
            if (!grow(L, s, mine, empty)) return false;  // suicide
        }
        own = mine;
        ko = 0;
        return true;
    }

    // Tromp-Taylor: Black area minus White area (warp-wide); this lane's
    // rows of the areas into `area_black`, `area_white`.
    __device__ __forceinline__ int score(const RowLane<N>& L, u32& area_black, u32& area_white) const {
        const u32 e = empty(L);
        const u32 stones[2] = {black(), white()};
        u32 reach[2];
#pragma unroll
        for (int c = 0; c < 2; ++c) {
            u32 r = L.nbrs(stones[c]) & e;
            for (;;) {
                const u32 n = (L.nbrs(r) & e) | r;
                if (!gr_any(n ^ r)) break;
                r = n;
            }
            reach[c] = r;
        }
        area_black = stones[0] | (reach[0] & ~reach[1]);
        area_white = stones[1] | (reach[1] & ~reach[0]);
        return gr_add((u32)(__popc(area_black) - __popc(area_white)));
    }
};

// Picks the k-th (0-based) set bit of x, k < popc(x).
__device__ __forceinline__ u32 gr_select(u32 x, u32 k) {
    u32 base = 0;
#pragma unroll
    for (int half = 16; half > 0; half >>= 1) {
        const u32 c = __popc(x & ((1u << half) - 1));
        const bool hi = k >= c;
        k = hi ? k - c : k;
        base = hi ? base + half : base;
        x = hi ? x >> half : x;
    }
    return base;
}

// Draws a point uniformly from `cand` (all lanes get the same row and
// column); false when `cand` is empty everywhere.
template <int N>
__device__ __forceinline__ bool gr_draw(const RowLane<N>& L, u32 cand, Rng& rng, u32& r, u32& c) {
    const u32 count = __popc(cand);
    u32 inclusive = count;
#pragma unroll
    for (int o = 1; o < N; o <<= 1) {
        const u32 y = __shfl_up_sync(GR_FULL, inclusive, o);
        if (L.lane >= (u32)o) inclusive += y;
    }
    const u32 total = __shfl_sync(GR_FULL, inclusive, N - 1);
    if (total == 0) return false;
    const u32 k = rng.below(total);
    r = __ffs(__ballot_sync(GR_FULL, inclusive > k)) - 1;
    const u32 mine = gr_select(cand, k - (inclusive - count));
    c = __shfl_sync(GR_FULL, mine, r);
    return true;
}

// The leaf's stones as rows in shared memory (`rows[colour][row]`).
template <int N>
__device__ __forceinline__ void gr_load_leaf(const u8* __restrict__ colors, u32 (*rows)[32]) {
    for (int i = threadIdx.x; i < 64; i += blockDim.x) rows[i / 32][i % 32] = 0;
    __syncthreads();
    for (int p = threadIdx.x; p < N * N; p += blockDim.x) {
        const u8 c = colors[p];
        if (c == 1 || c == 2) atomicOr(&rows[c - 1][p / N], 1u << (p % N));
    }
    __syncthreads();
}

// Adds one finished playout (this lane's rows of its first plays and
// areas) to the block's tables.
template <int N>
__device__ __forceinline__ void gr_record(const RowLane<N>& L, u32* tables, SharedStats* head, u32 first_black,
                                          u32 first_white, u32 area_black, u32 area_white, i32 score2) {
    const int P = N * N;
    const u32 bw = score2 > 0 ? 2 : (score2 == 0 ? 1 : 0);
    if (L.lane == 0) {
        atomicAdd(&head->score2, (u64)(i64)score2);
        atomicAdd(&head->playouts, 1u);
        if (bw) atomicAdd(&head->wins2, bw);
    }
    const int base = (int)L.lane * N;
    for (u32 x = first_black; x; x &= x - 1) {
        const int p = base + __ffs(x) - 1;
        atomicAdd(&tables[2 * p], 1u);
        if (bw) atomicAdd(&tables[2 * P + 2 * p], bw);
    }
    for (u32 x = first_white; x; x &= x - 1) {
        const int p = base + __ffs(x) - 1;
        atomicAdd(&tables[2 * p + 1], 1u);
        if (bw) atomicAdd(&tables[2 * P + 2 * p + 1], bw);
    }
    for (u32 x = area_black; x; x &= x - 1) atomicAdd((i32*)&tables[4 * P + base + __ffs(x) - 1], 1);
    for (u32 x = area_white; x; x &= x - 1) atomicAdd((i32*)&tables[4 * P + base + __ffs(x) - 1], -1);
}

// Each warp plays one playout at a time and loops until the leaf has its
// playouts; the block (one leaf) gathers the statistics in shared memory
// and flushes them once.
template <int N>
__device__ void go_rows_playouts(const u8* __restrict__ boards, const GoLeaf* __restrict__ leaves,
                                 u32* __restrict__ stats, u32 playouts_per_leaf, u64 seed) {
    const int P = N * N;
    __shared__ SharedStats head;
    __shared__ u32 tables[5 * P];
    __shared__ u32 start[2][32];
    const u32 leaf = blockIdx.y;
    clear_shared(tables, &head, P);
    const GoLeaf info = leaves[leaf];
    gr_load_leaf<N>(boards + (u64)leaf * P, start);
    const RowLane<N> L;
    const u32 start_ko = info.ko >= 0 && L.lane == (u32)(info.ko / N) ? 1u << (info.ko % N) : 0u;
    const u32 warps = blockDim.x / 32;
    for (u32 k = blockIdx.x * warps + threadIdx.x / 32; k < playouts_per_leaf; k += gridDim.x * warps) {
        RowBoard<N> b;
        b.me = info.to_move - 1;
        b.own = start[b.me][L.lane];
        b.opp = start[b.me ^ 1][L.lane];
        b.ko = start_ko;
        b.captured_black = b.captured_white = 0;
        Rng rng(playout_seed(seed, leaf, k));
        u32 first_black = 0, first_white = 0;
        int passes = info.passes;
        for (int moves = 0; passes < 2 && moves < 3 * P; ++moves) {
            u32 two;
            u32 cand = b.candidates(L, two);
            u32 r, c;
            bool played = false;
            while (gr_draw<N>(L, cand, rng, r, c)) {
                if (b.try_play(L, r, c, two)) {
                    played = true;
                    break;
                }
                if (L.lane == r) cand &= ~(1u << c);
            }
            if (played) {
                const u32 fresh = (L.lane == r ? 1u << c : 0u) & ~(first_black | first_white);
                if (b.me == 0) first_black |= fresh;
                else first_white |= fresh;
                passes = 0;
            } else {
                passes++;
                b.ko = 0;
            }
            b.turn();
        }
        u32 area_black, area_white;
        const int diff = b.score(L, area_black, area_white);
        gr_record<N>(L, tables, &head, first_black, first_white, area_black, area_white, 2 * diff - info.komi2);
    }
    __syncthreads();
    flush_stats(stats + (u64)leaf * stats_stride(P), tables, &head, P);
}

// Replay, as go_replay in go.cu, one warp per sequence.
template <int N>
__device__ void go_rows_replay(const u16* __restrict__ moves, u32 max_moves, u32 sequences,
                               u8* __restrict__ boards_out, i32* __restrict__ result) {
    const u32 i = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (i >= sequences) return;  // the whole warp
    const RowLane<N> L;
    RowBoard<N> b;
    b.own = b.opp = b.ko = 0;
    b.me = 0;
    b.captured_black = b.captured_white = 0;
    int error = 0;
    for (u32 t = 0; t < max_moves; ++t) {
        const u32 mv = moves[(u64)i * max_moves + t];
        if (mv == 0xFFFF) break;
        if (mv < (u32)(N * N)) {
            const u32 r = mv / N, c = mv % N;
            u32 two;
            const u32 cand = b.candidates(L, two);  // for `two`
            (void)cand;
            const u32 here = L.lane == r ? 1u << c : 0u;
            if (gr_any(here & ~b.empty(L)) || gr_any(here & b.ko) || !b.try_play(L, r, c, two)) {
                error = 1 + t;
                break;
            }
        } else {
            b.ko = 0;
        }
        b.turn();
    }
    const u32 black = b.black(), white = b.white();
    if (L.lane < (u32)N)
        for (int c = 0; c < N; ++c)
            boards_out[(u64)i * N * N + L.lane * N + c] = (black >> c) & 1 ? 1 : ((white >> c) & 1 ? 2 : 0);
    u32 area_black, area_white;
    const int diff = b.score(L, area_black, area_white);
    if (L.lane == 0) {
        result[i * 4 + 0] = error;
        result[i * 4 + 1] = b.captured_black;
        result[i * 4 + 2] = b.captured_white;
        result[i * 4 + 3] = diff;
    }
}

#define GO_ROWS_ENTRY(N, MIN_BLOCKS)                                                                  \
    extern "C" __global__ void __launch_bounds__(GR_BLOCK, MIN_BLOCKS)                                \
        go_rows_random_##N(const u8* boards, const GoLeaf* leaves, u32* stats, u32 playouts_per_leaf, \
                           u64 seed) {                                                                \
        go_rows_playouts<N>(boards, leaves, stats, playouts_per_leaf, seed);                          \
    }                                                                                                 \
    extern "C" __global__ void go_rows_replay_##N(const u16* moves, u32 max_moves, u32 sequences,     \
                                                  u8* boards_out, i32* result) {                      \
        go_rows_replay<N>(moves, max_moves, sequences, boards_out, result);                           \
    }

// 16 blocks of 128 threads fill an SM's 2,048 threads (32 registers).
GO_ROWS_ENTRY(9, 12)
GO_ROWS_ENTRY(13, 12)
GO_ROWS_ENTRY(19, 12)
