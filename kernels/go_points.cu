// Go playouts with one thread per board point (Iwakawa, Narumi and Muramatsu, 2011, variant (a)):
// one board per thread block, kept in shared memory.
//
// Per point: colour, string id, move weight; per string (indexed by its id,
// which is always the point of one of its stones): a liberty flag. A move
// is chosen by a block-wide prefix sum of the weights and one random
// number, then applied in synchronised steps: place the stone with a
// fresh id (its own point), relabel the adjacent own strings to it, clear
// then set the liberty flags from the empty points, remove opponent
// strings left without a liberty; if nothing was captured and the new
// string has no liberty the move was suicide: restore the string ids,
// exclude the point and choose again.
//
// Policies: `random` as go.cu (the CPU `Random` policy): weight 1, or 0
// for occupied points, the simple-ko point and the mover's one-point eyes;
// `3x3` and `m2` (the CPU's `Weighted3x3` and `M2`): the weights of
// go_weights.cu, each thread computing its point's from the colours, the
// string ids and a per-string liberty span (`pt_atari`: a string is in
// atari when its lowest and highest liberty are the same point). The draw
// takes the point whose prefix-sum interval holds the random number, in
// point order as the CPU does, so a GPU playout and a CPU one from the same
// random stream are the same game. Pass when nothing is left; two passes
// or 3 * N * N moves end the game; Tromp-Taylor scoring, here by iterated
// region flooding.
//
// Needs common.cuh, go_weights.cu (weights) and go.cu (GoLeaf, GO_*
// constants) before it.

template <int N>
struct PointBoard {
    static const int P = N * N;
    static const int T = (P + 31) / 32 * 32;  // threads per block

    u8 color[P];
    u8 first[P];        // AMAF: first colour to play each point
    u8 reach[P];        // scoring: colours an empty region touches
    u16 sid[P];
    u16 saved_sid[P];
    u8 liberty[P];      // by string id
    u32 scan[T];
    u32 warp_sums[T / 32];
    // Shared scalars.
    int chosen;
    int ko;             // point or -1
    int captured_now;
    int captured[2];
    int changed;
    int own_ids[4];
};

// Neighbour of p in direction d (0 left, 1 right, 2 down, 3 up), or -1.
template <int N>
__device__ __forceinline__ int pt_nb(int p, int d) {
    int r = p / N, c = p % N;
    switch (d) {
        case 0: return c > 0 ? p - 1 : -1;
        case 1: return c < N - 1 ? p + 1 : -1;
        case 2: return r > 0 ? p - N : -1;
        default: return r < N - 1 ? p + N : -1;
    }
}

// Block-wide exclusive prefix sum of `v` (this thread's value), in
// log2 steps: shuffles within each warp, then over the warp sums. Returns
// the exclusive prefix and writes the block total to `total`.
template <int N>
__device__ u32 pt_scan(PointBoard<N>& b, u32 v, u32* total) {
    const int T = PointBoard<N>::T;
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    u32 x = v;
    for (int o = 1; o < 32; o <<= 1) {
        u32 y = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o) x += y;
    }
    if (lane == 31) b.warp_sums[warp] = x;
    __syncthreads();
    if (warp == 0) {
        u32 s = lane < T / 32 ? b.warp_sums[lane] : 0;
        for (int o = 1; o < 32; o <<= 1) {
            u32 y = __shfl_up_sync(0xffffffffu, s, o);
            if (lane >= o) s += y;
        }
        if (lane < T / 32) b.warp_sums[lane] = s;  // inclusive per warp
    }
    __syncthreads();
    u32 before = warp > 0 ? b.warp_sums[warp - 1] : 0;
    *total = b.warp_sums[T / 32 - 1];
    return before + x - v;
}

template <int N>
__device__ bool pt_is_eye(const PointBoard<N>& b, int p, u8 c) {
    for (int d = 0; d < 4; ++d) {
        int q = pt_nb<N>(p, d);
        if (q >= 0 && b.color[q] != c) return false;
    }
    int r = p / N, col = p % N;
    int bad = 0, edge = 0;
    for (int dr = -1; dr <= 1; dr += 2)
        for (int dc = -1; dc <= 1; dc += 2) {
            int rr = r + dr, cc = col + dc;
            if (rr < 0 || cc < 0 || rr >= N || cc >= N) edge = 1;
            else bad += b.color[rr * N + cc] == (c ^ 3);
        }
    return bad + edge < 2;
}

// Recomputes every string's liberty flag. All threads call it.
template <int N>
__device__ void pt_liberties(PointBoard<N>& b) {
    const int P = N * N;
    int p = threadIdx.x;
    if (p < P) b.liberty[p] = 0;
    __syncthreads();
    if (p < P && b.color[p] == GO_EMPTY) {
        for (int d = 0; d < 4; ++d) {
            int q = pt_nb<N>(p, d);
            if (q >= 0 && b.color[q] != GO_EMPTY) b.liberty[b.sid[q]] = 1;
        }
    }
    __syncthreads();
}

// Plays the point in b.chosen for colour c. Returns true if played,
// false if it was suicide (the board is then unchanged). All threads call
// it. Liberty flags are recomputed inside, so they need not be current.
template <int N>
__device__ bool pt_play(PointBoard<N>& b, u8 c) {
    const int P = N * N;
    int t = threadIdx.x;
    int mv = b.chosen;
    if (t < 4) {
        int q = pt_nb<N>(mv, t);
        b.own_ids[t] = (q >= 0 && b.color[q] == c) ? (int)b.sid[q] : -1;
    }
    if (t < P) b.saved_sid[t] = b.sid[t];
    if (t == 0) b.captured_now = 0;
    __syncthreads();
    // Place with a fresh id and relabel the adjacent own strings.
    if (t == mv) {
        b.color[t] = c;
        b.sid[t] = (u16)t;
    } else if (t < P && b.color[t] == c) {
        int s = b.sid[t];
        if (s == b.own_ids[0] || s == b.own_ids[1] || s == b.own_ids[2] || s == b.own_ids[3]) b.sid[t] = (u16)mv;
    }
    __syncthreads();
    pt_liberties(b);
    // Remove opponent strings without liberty (all adjacent to mv).
    bool gone = t < P && b.color[t] == (c ^ 3) && !b.liberty[b.sid[t]];
    __syncthreads();
    if (gone) {
        b.color[t] = GO_EMPTY;
        atomicAdd(&b.captured_now, 1);
    }
    __syncthreads();
    int captured = b.captured_now;
    if (captured == 0 && !b.liberty[mv]) {
        // Suicide: restore.
        if (t == mv) b.color[t] = GO_EMPTY;
        if (t < P) b.sid[t] = b.saved_sid[t];
        __syncthreads();
        return false;
    }
    if (t == 0) {
        b.captured[(c ^ 3) - 1] += captured;
        int ko = -1;
        if (captured == 1) {
            // A lone new stone with one liberty that took one stone: ko.
            int libs = 0, own = 0, at = -1;
            for (int d = 0; d < 4; ++d) {
                int q = pt_nb<N>(mv, d);
                if (q < 0) continue;
                if (b.color[q] == GO_EMPTY) {
                    libs++;
                    at = q;
                } else if (b.color[q] == c) {
                    own++;
                }
            }
            if (libs == 1 && own == 0) ko = at;
        }
        b.ko = ko;
    }
    __syncthreads();
    return true;
}

template <int N>
__device__ void pt_load(PointBoard<N>& b, const u8* colors, int ko) {
    const int P = N * N;
    int t = threadIdx.x;
    if (t < P) {
        b.color[t] = colors[t];
        b.sid[t] = (u16)t;
        b.first[t] = 0;
    }
    if (t == 0) {
        b.ko = ko;
        b.captured[0] = b.captured[1] = 0;
    }
    __syncthreads();
    // Label strings: propagate the smallest id through same-colour
    // neighbours until nothing changes.
    for (;;) {
        if (t == 0) b.changed = 0;
        __syncthreads();
        if (t < P && b.color[t] != GO_EMPTY) {
            u16 m = b.sid[t];
            for (int d = 0; d < 4; ++d) {
                int q = pt_nb<N>(t, d);
                if (q >= 0 && b.color[q] == b.color[t] && b.sid[q] < m) m = b.sid[q];
            }
            if (m < b.sid[t]) {
                b.sid[t] = m;
                b.changed = 1;
            }
        }
        __syncthreads();
        if (!b.changed) break;
        __syncthreads();
    }
}

// Tromp-Taylor: Black minus White area; owner per point into `reach`
// (1 Black, 2 White, 3 or 0 neither, stones their colour).
template <int N>
__device__ int pt_score(PointBoard<N>& b) {
    const int P = N * N;
    int t = threadIdx.x;
    if (t < P) {
        u8 r = b.color[t];
        if (r == GO_EMPTY)
            for (int d = 0; d < 4; ++d) {
                int q = pt_nb<N>(t, d);
                if (q >= 0) r |= b.color[q];
            }
        b.reach[t] = r;
    }
    __syncthreads();
    for (;;) {
        if (t == 0) b.changed = 0;
        __syncthreads();
        if (t < P && b.color[t] == GO_EMPTY) {
            u8 r = b.reach[t];
            for (int d = 0; d < 4; ++d) {
                int q = pt_nb<N>(t, d);
                if (q >= 0 && b.color[q] == GO_EMPTY) r |= b.reach[q];
            }
            if (r != b.reach[t]) {
                b.reach[t] = r;
                b.changed = 1;
            }
        }
        __syncthreads();
        if (!b.changed) break;
        __syncthreads();
    }
    u32 black = t < P && b.reach[t] == GO_BLACK;
    u32 white = t < P && b.reach[t] == GO_WHITE;
    u32 total_b, total_w;
    pt_scan<N>(b, black, &total_b);
    __syncthreads();
    pt_scan<N>(b, white, &total_w);
    __syncthreads();
    return (int)total_b - (int)total_w;
}

// Chooses and plays one light-policy move for c; returns false for pass.
template <int N>
__device__ bool pt_random_move(PointBoard<N>& b, u8 c, Rng& rng) {
    const int P = N * N;
    int t = threadIdx.x;
    bool allowed = t < P && b.color[t] == GO_EMPTY && t != b.ko && !pt_is_eye<N>(b, t, c);
    for (;;) {
        u32 total;
        u32 before = pt_scan<N>(b, allowed ? 1u : 0u, &total);
        if (total == 0) return false;
        // Every thread draws the same number: the generator state is
        // replicated, so the block stays in lockstep without a broadcast.
        u32 r = rng.below(total);
        if (allowed && r == before) b.chosen = t;
        __syncthreads();
        if (pt_play<N>(b, c)) return true;
        if (t == b.chosen) allowed = false;
        __syncthreads();
    }
}

// Per-string liberty span, by string id: lowest and highest liberty point
// (a string is in atari when they are equal).
template <int N>
struct PtAtari {
    u32 lo[N * N];
    u32 hi[N * N];
};

// Fills `a` from the current board. All threads call it.
template <int N>
__device__ void pt_atari(const PointBoard<N>& b, PtAtari<N>& a) {
    const int P = N * N;
    int t = threadIdx.x;
    if (t < P) {
        a.lo[t] = 0xFFFFFFFFu;
        a.hi[t] = 0;
    }
    __syncthreads();
    if (t < P && b.color[t] == GO_EMPTY) {
        for (int d = 0; d < 4; ++d) {
            int q = pt_nb<N>(t, d);
            if (q >= 0 && b.color[q] != GO_EMPTY) {
                atomicMin(&a.lo[b.sid[q]], (u32)t);
                atomicMax(&a.hi[b.sid[q]], (u32)t);
            }
        }
    }
    __syncthreads();
}

// The weight of point t for mover c under 3x3 (M2 false) or M2; 0 beyond
// the board.
template <int N, bool M2>
__device__ u32 pt_weight(const PointBoard<N>& b, const PtAtari<N>& a, int t, u8 c) {
    if (t >= N * N || b.color[t] != GO_EMPTY || t == b.ko || pt_is_eye<N>(b, t, c)) return 0;
    bool capture = false, save = false;
    for (int d = 0; d < 4; ++d) {
        int q = pt_nb<N>(t, d);
        if (q < 0 || b.color[q] == GO_EMPTY) continue;
        const int s = b.sid[q];
        if (a.lo[s] == a.hi[s]) {
            if (b.color[q] == c) save = true;
            else capture = true;
        }
    }
    const int r = t / N, col = t % N;
    auto at = [&](int rr, int cc) { return b.color[rr * N + cc]; };
    const bool far = M2 && gw_far_stone<N>(r, col, at);
    return gw_weight(gw_code<N>(r, col, at), capture, save, far, M2);
}

// Chooses and plays one 3x3 or M2 move for c; returns false for pass.
template <int N, bool M2>
__device__ bool pt_weighted_move(PointBoard<N>& b, u8 c, Rng& rng) {
    __shared__ PtAtari<N> atari;
    int t = threadIdx.x;
    pt_atari<N>(b, atari);
    u32 w = pt_weight<N, M2>(b, atari, t, c);
    for (;;) {
        u32 total;
        u32 before = pt_scan<N>(b, w, &total);
        if (total == 0) return false;
        // As pt_random_move: the same number in every thread.
        u32 r = rng.below(total);
        if (r - before < w) b.chosen = t;  // before <= r < before + w
        __syncthreads();
        if (pt_play<N>(b, c)) return true;
        if (t == b.chosen) w = 0;
        __syncthreads();
    }
}

template <int N, int POLICY>
__device__ void go_point_playouts(const u8* __restrict__ boards, const GoLeaf* __restrict__ leaves,
                                  u32* __restrict__ stats, u32 playouts_per_leaf, u64 seed) {
    const int P = N * N;
    __shared__ PointBoard<N> b;
    __shared__ SharedStats head;
    __shared__ u32 tables[5 * P];
    u32 leaf = blockIdx.y;
    clear_shared(tables, &head, P);
    GoLeaf info = leaves[leaf];
    int t = threadIdx.x;
    for (u32 k = blockIdx.x; k < playouts_per_leaf; k += gridDim.x) {
        pt_load<N>(b, boards + (u64)leaf * P, info.ko);
        Rng rng(playout_seed(seed, leaf, k));
        u8 c = (u8)info.to_move;
        int passes = info.passes;
        for (int moves = 0; moves < 3 * P && passes < 2; ++moves) {
            const bool played = POLICY == GO_POLICY_RANDOM
                                    ? pt_random_move<N>(b, c, rng)
                                    : pt_weighted_move<N, POLICY == GO_POLICY_M2>(b, c, rng);
            if (played) {
                passes = 0;
                if (t == 0 && b.first[b.chosen] == 0) b.first[b.chosen] = c;
            } else {
                passes++;
                if (t == 0) b.ko = -1;
            }
            __syncthreads();
            c ^= 3;
        }
        int diff = pt_score<N>(b);
        int score2 = 2 * diff - info.komi2;
        u32 bw = score2 > 0 ? 2 : (score2 == 0 ? 1 : 0);
        if (t < P) {
            u32 f = b.first[t];
            if (f) {
                atomicAdd(&tables[2 * t + f - 1], 1u);
                if (bw) atomicAdd(&tables[2 * P + 2 * t + f - 1], bw);
            }
            u8 o = b.reach[t];
            if (o == GO_BLACK) atomicAdd((i32*)&tables[4 * P + t], 1);
            else if (o == GO_WHITE) atomicAdd((i32*)&tables[4 * P + t], -1);
        }
        if (t == 0) {
            head.score2 += (u64)(i64)score2;
            head.playouts += 1;
            head.wins2 += bw;
        }
        __syncthreads();
    }
    __syncthreads();
    flush_stats(stats + (u64)leaf * stats_stride(P), tables, &head, P);
}

// Replay with one block per sequence: as go_replay in go.cu.
template <int N>
__device__ void go_point_replay(const u16* __restrict__ moves, u32 max_moves, u32 sequences,
                                u8* __restrict__ boards_out, i32* __restrict__ result) {
    const int P = N * N;
    __shared__ PointBoard<N> b;
    __shared__ u8 zero[P];
    u32 i = blockIdx.x;
    int t = threadIdx.x;
    if (t < P) zero[t] = 0;
    __syncthreads();
    pt_load<N>(b, zero, -1);
    u8 c = GO_BLACK;
    int error = 0;
    for (u32 s = 0; s < max_moves; ++s) {
        u32 m = moves[(u64)i * max_moves + s];
        if (m == 0xFFFF) break;
        if (m < (u32)P) {
            if (b.color[m] != GO_EMPTY || (int)m == b.ko) {
                error = 1 + s;
                break;
            }
            if (t == 0) b.chosen = m;
            __syncthreads();
            if (!pt_play<N>(b, c)) {
                error = 1 + s;
                break;
            }
        } else {
            if (t == 0) b.ko = -1;
            __syncthreads();
        }
        c ^= 3;
    }
    if (t < P) boards_out[(u64)i * P + t] = b.color[t];
    int diff = pt_score<N>(b);
    if (t == 0) {
        result[i * 4 + 0] = error;
        result[i * 4 + 1] = b.captured[0];
        result[i * 4 + 2] = b.captured[1];
        result[i * 4 + 3] = diff;
    }
}

#define GO_POINT_ENTRY(N)                                                                        \
    extern "C" __global__ void __launch_bounds__(PointBoard<N>::T) go_points_random_##N(          \
        const u8* boards, const GoLeaf* leaves, u32* stats, u32 playouts_per_leaf, u64 seed) {    \
        go_point_playouts<N, GO_POLICY_RANDOM>(boards, leaves, stats, playouts_per_leaf, seed);          \
    }                                                                                             \
    extern "C" __global__ void __launch_bounds__(PointBoard<N>::T) go_points_3x3_##N(             \
        const u8* boards, const GoLeaf* leaves, u32* stats, u32 playouts_per_leaf, u64 seed) {    \
        go_point_playouts<N, GO_POLICY_3X3>(boards, leaves, stats, playouts_per_leaf, seed);             \
    }                                                                                             \
    extern "C" __global__ void __launch_bounds__(PointBoard<N>::T) go_points_m2_##N(              \
        const u8* boards, const GoLeaf* leaves, u32* stats, u32 playouts_per_leaf, u64 seed) {    \
        go_point_playouts<N, GO_POLICY_M2>(boards, leaves, stats, playouts_per_leaf, seed);              \
    }                                                                                             \
    extern "C" __global__ void __launch_bounds__(PointBoard<N>::T) go_points_replay_##N(          \
        const u16* moves, u32 max_moves, u32 sequences, u8* boards_out, i32* result) {            \
        go_point_replay<N>(moves, max_moves, sequences, boards_out, result);                      \
    }

GO_POINT_ENTRY(9)
GO_POINT_ENTRY(13)
GO_POINT_ENTRY(19)
