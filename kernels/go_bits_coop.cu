// Go light playouts on the bitboard (go_bits.cu) with the string growth
// done by the warp together: same rules, same random streams, the same
// playouts and statistics as go_bits_random_N, bit for bit.
//
// Why: in go_bits_random_N a lane that must grow a string (a capture test
// whose nearest liberty is far along the string, a suicide test, a
// capture) does it alone on its 12-word sets while the warp waits, so the
// warp pays its slowest lane's growth in whole-board steps. Nsight Compute
// (H100, 19x19, 256 leaves x 2048 playouts, kernels/devbench): the growth
// and its loop were half of the 34.3 G warp instructions, at 4 active lanes
// of 32. Here each step a lane does everything up to the growth
// (`gbc_prepare`), hands the sets it needs to the warp through shared
// memory, and then the whole warp grows the strings of two lanes at a time:
// a half-warp per lane, a lane per word, the neighbour shifts one shuffle
// each way, the tests two ballots. A growth step costs about 20 warp
// instructions instead of about 110.
//
// Needs common.cuh, go.cu, go_bitset.cu and go_bits.cu before it.

// Sets a lane hands to the warp: [warp][set][word][lane], set 0 the mover's
// stones with the move, 1 the opponent's stones, 2 the opponent stones
// whose strings must be grown (on return: the stones the move captures).
template <int N>
struct GbcShared {
    u32 sets[GB_BLOCK / 32][3][GoGeo<N>::W][32];
};

// What `GbBoard::try_play` does before it grows a string. Returns whether
// the warp must grow something for this lane; `own_job`: whether the
// mover's own new string must be grown (it is suicide unless the string
// reaches a liberty or the move captures).
template <int N>
__device__ __forceinline__ bool gbc_prepare(const GbBoard<N>& b, int p, u32 (*sets)[GoGeo<N>::W][32],
                                            bool& own_job) {
    typedef Bits<GoGeo<N>::W> B;
    const B at = onehot<GoGeo<N>::W>(p);
    const B mine = b.own | at;
    const B empty = andnot(go_masks<N>().all, mine | b.opp);
    const B nb = nbrs<N>(at);
    B danger = nb & b.opp;
    if (any(danger)) {
        danger = andnot(danger, nbrs<N>(empty));
        if (any(danger)) danger = andnot(danger, GbBoard<N>::template near_liberty<1>(b.opp, empty));
    }
    // try_play asks this only when nothing is captured; asking it always
    // keeps the growth in one pass (the answer is ignored after a capture).
    own_job = !any(nb & empty) && !any(nb & GbBoard<N>::template near_liberty<1>(mine, empty));
    const bool job = own_job || any(danger);
    if (job) {
        const u32 lane = threadIdx.x & 31;
#pragma unroll
        for (int i = 0; i < GoGeo<N>::W; ++i) {
            sets[0][i][lane] = mine.w[i];
            sets[1][i][lane] = b.opp.w[i];
            sets[2][i][lane] = danger.w[i];
        }
    }
    return job;
}

// The whole warp (converged) grows the strings of the lanes in `jobs`, two
// lanes at a time, a half-warp each, lane j of a half holding word j.
// A lane's danger stones are taken lowest first, each string grown until
// it touches an empty point (it lives) or stops growing (it is captured:
// its stones go into the lane's `taken` set, written back over its danger
// set); then, if nothing was captured and the lane asked for it, the
// mover's string from the move. Returns the lanes whose move is suicide.
template <int N>
__device__ __forceinline__ u32 gbc_grow(u32 (*sets)[GoGeo<N>::W][32], u32 jobs, u32 own_jobs, int p,
                                        u32 all_j) {
    typedef GoGeo<N> G;
    const u32 FULL = 0xFFFFFFFFu;
    const int lane = threadIdx.x & 31, half = lane >> 4, j = lane & 15;
    const int shift = 16 * half;
    u32 suicides = 0;
    __syncwarp();  // the lanes' sets, written in gbc_prepare, are visible
    while (jobs) {
        const int o0 = __ffs(jobs) - 1;
        jobs &= jobs - 1;
        const int o1 = jobs ? __ffs(jobs) - 1 : -1;
        if (jobs) jobs &= jobs - 1;
        const int owner = half ? o1 : o0;
        const int at = __shfl_sync(FULL, p, owner < 0 ? lane : owner);
        u32 mine = 0, opp = 0, danger = 0;
        if (owner >= 0 && j < G::W) {
            mine = sets[0][j][owner];
            opp = sets[1][j][owner];
            danger = sets[2][j][owner];
        }
        const u32 empty = all_j & ~(mine | opp);
        const bool own_wanted = owner >= 0 && ((own_jobs >> owner) & 1);
        // Per half, the same in all its lanes: 0 growing danger strings,
        // 1 growing the own string, 2 done.
        int stage = owner >= 0 ? 0 : 2;
        bool seed = true;
        bool suicide = false;
        u32 s = 0, color = 0, taken = 0;
        for (;;) {
            const u32 b_danger = __ballot_sync(FULL, danger != 0);
            const u32 b_taken = __ballot_sync(FULL, taken != 0);
            if (stage < 2 && seed) {
                const u32 words = (b_danger >> shift) & 0xFFFFu;
                if (stage == 0 && words) {
                    const int f = __ffs(words) - 1;
                    s = j == f ? danger & (0u - danger) : 0u;
                    color = opp;
                    seed = false;
                } else if (stage == 0 && own_wanted && ((b_taken >> shift) & 0xFFFFu) == 0) {
                    stage = 1;
                    s = j == (at >> 5) ? 1u << (at & 31) : 0u;
                    color = mine;
                    seed = false;
                } else {
                    stage = 2;
                }
            }
            if (!__any_sync(FULL, stage < 2)) break;
            // One growth step of both halves' strings, as GbBoard::grow.
            u32 up = __shfl_up_sync(FULL, s, 1, 16), down = __shfl_down_sync(FULL, s, 1, 16);
            up = j == 0 ? 0u : up;
            const u32 d = (__funnelshift_l(up, s, 1) | __funnelshift_r(s, down, 1) | __funnelshift_l(up, s, G::S) |
                           __funnelshift_r(s, down, G::S)) &
                          all_j;
            const u32 g = (d & color) | s;
            const u32 b_liberty = __ballot_sync(FULL, (d & empty) != 0);
            const u32 b_grew = __ballot_sync(FULL, g != s);
            if (stage < 2) {
                if ((b_liberty >> shift) & 0xFFFFu) {
                    // The string lives: drop the danger stones it covers.
                    if (stage == 0) danger &= ~s;
                    else stage = 2;
                    seed = true;
                } else if (((b_grew >> shift) & 0xFFFFu) == 0) {
                    // The whole string, without a liberty.
                    if (stage == 0) {
                        taken |= s;
                        danger &= ~s;
                    } else {
                        suicide = true;
                        stage = 2;
                    }
                    seed = true;
                } else {
                    s = g;
                }
            }
        }
        if (owner >= 0 && j < G::W) sets[2][j][owner] = taken;
        const u32 b_suicide = __ballot_sync(FULL, suicide && j == 0);
        if (b_suicide & 1u) suicides |= 1u << o0;
        if (b_suicide & 0x10000u) suicides |= 1u << o1;
    }
    __syncwarp();
    return suicides;
}

// What `GbBoard::try_play` does after its growth, from the warp's answer.
template <int N>
__device__ __forceinline__ bool gbc_finish(GbBoard<N>& b, int p, bool job, bool suicide,
                                           u32 (*sets)[GoGeo<N>::W][32]) {
    typedef Bits<GoGeo<N>::W> B;
    const B at = onehot<GoGeo<N>::W>(p);
    B taken = none<GoGeo<N>::W>();
    if (job) {
        const u32 lane = threadIdx.x & 31;
#pragma unroll
        for (int i = 0; i < GoGeo<N>::W; ++i) taken.w[i] = sets[2][i][lane];
    }
    if (any(taken)) {
        const B nb = nbrs<N>(at);
        int n = popc(taken);
        bool lone = !any(nb & b.own);
        b.opp = andnot(b.opp, taken);
        b.own |= at;
        if (b.me == 0) b.captured_white += n;
        else b.captured_black += n;
        b.ko = -1;
        if (n == 1 && lone && popc(nb & b.empty()) == 1) b.ko = select_bit(taken, 0);
        return true;
    }
    if (suicide) return false;
    b.own |= at;
    b.ko = -1;
    return true;
}

// go_bits_playouts (go_bits.cu) with the growth done by the warp: the
// same loop, each step split in three (prepare, grow together, finish).
template <int N>
__device__ void go_bits_coop_playouts(const u8* __restrict__ boards, const GoLeaf* __restrict__ leaves,
                                      u32* __restrict__ stats, u32 playouts_per_leaf, u64 seed) {
    typedef GoGeo<N> G;
    typedef Bits<G::W> B;
    __shared__ SharedStats head;
    __shared__ u32 tables[5 * G::P];
    __shared__ GbcShared<N> coop;
    const u32 leaf = blockIdx.y;
    if (blockDim.x > GB_BLOCK || (blockDim.x & 31)) __trap();
    clear_shared(tables, &head, G::P);
    __shared__ u32 start[2][G::W];
    __shared__ u32 first[2 * G::W * GB_BLOCK];  // [colour][word][thread]
    const GoLeaf info = leaves[leaf];
    gb_load_leaf<N>(boards + (u64)leaf * G::P, start);
    const int start_ko = info.ko >= 0 ? G::bit_of(info.ko) : -1;
    u32 (*sets)[G::W][32] = coop.sets[threadIdx.x >> 5];
    // This lane's word of the board mask in the cooperative growth.
    u32 all_j = 0;
#pragma unroll
    for (int i = 0; i < G::W; ++i) all_j = (threadIdx.x & 15) == (u32)i ? go_masks<N>().all.w[i] : all_j;
    const u32 stride = gridDim.x * blockDim.x;
    for (u32 k0 = blockIdx.x * blockDim.x + (threadIdx.x & ~31u); k0 < playouts_per_leaf; k0 += stride) {
        const u32 k = k0 + (threadIdx.x & 31);
        const bool active = k < playouts_per_leaf;
        GbBoard<N> b;
        gb_start<N>(b, info, start, first, start_ko);
        Rng rng(playout_seed(seed, leaf, k));
        int passes = info.passes;
        bool done = !active || passes >= 2;
        int moves = 0, n = 0;
        bool fresh = true;
        B cand;
        while (__any_sync(0xFFFFFFFFu, !done)) {
            bool trying = false, job = false, own_job = false;
            int p = 0;
            if (!done) {
                if (fresh) {
                    cand = gb_candidates<N>(b);
                    n = popc(cand);
                    fresh = false;
                }
                if (n > 0) {
                    p = select_bit(cand, (int)rng.below((u32)n));
                    trying = true;
                    job = gbc_prepare<N>(b, p, sets, own_job);
                } else {
                    passes++;
                    b.ko = -1;
                    b.turn();
                    fresh = true;
                    done = ++moves >= 3 * G::P || passes >= 2;
                }
            }
            const u32 jobs = __ballot_sync(0xFFFFFFFFu, job);
            const u32 own_jobs = __ballot_sync(0xFFFFFFFFu, own_job);
            u32 suicides = 0;
            if (jobs) suicides = gbc_grow<N>(sets, jobs, own_jobs, p, all_j);
            if (trying) {
                if (!gbc_finish<N>(b, p, job, (suicides >> (threadIdx.x & 31)) & 1, sets)) {
                    cand = andnot(cand, onehot<G::W>(p));
                    --n;
                } else {
                    gb_note_first<N>(first, p, b.me);
                    passes = 0;
                    b.turn();
                    fresh = true;
                    done = ++moves >= 3 * G::P || passes >= 2;
                }
            }
        }
        gb_finish<N>(b, info.komi2, active, tables, &head, first);
    }
    __syncthreads();
    flush_stats(stats + (u64)leaf * stats_stride(G::P), tables, &head, G::P);
}

#define GO_BITS_COOP_ENTRY(N, MIN_BLOCKS)                                                                       \
    extern "C" __global__ void __launch_bounds__(GB_BLOCK, MIN_BLOCKS)                                          \
        go_bits_coop_##N(const u8* boards, const GoLeaf* leaves, u32* stats, u32 playouts_per_leaf, u64 seed) { \
        go_bits_coop_playouts<N>(boards, leaves, stats, playouts_per_leaf, seed);                               \
    }

GO_BITS_COOP_ENTRY(9, 8)
GO_BITS_COOP_ENTRY(13, 5)
GO_BITS_COOP_ENTRY(19, 3)
