// Go 9x9 playouts, one playout per thread, the whole board in registers:
// Black and White as 81-bit sets (bit r * 9 + c) in a two-word `u128`
// (a plain struct, not the compiler's __int128, which NVRTC accepts only
// behind a flag and whose code we did not want to depend on). Strings, liberties, captures, eyes and the final area are
// computed with shifts and masks, so a playout touches no memory but its
// leaf's input and the block's counters.
//
// Same policy and rules as go.cu (the CPU `Random` policy): uniform over
// empty points that are not the simple-ko point, not the mover's one-point
// eye (four own/edge neighbours and fewer than two "defects": opponent
// diagonals plus one for touching the edge) and not suicide; pass when none
// is left; two passes or 3 * 81 moves end the game; Tromp-Taylor area.
//
// Needs common.cuh, and go.cu before it (GoLeaf).

struct u128 {
    u64 lo, hi;
    __device__ __forceinline__ u128() : lo(0), hi(0) {}
    __device__ __forceinline__ u128(u64 l, u64 h) : lo(l), hi(h) {}
    __device__ __forceinline__ explicit operator bool() const { return (lo | hi) != 0; }
};
__device__ __forceinline__ u128 operator|(u128 a, u128 b) { return u128(a.lo | b.lo, a.hi | b.hi); }
__device__ __forceinline__ u128 operator&(u128 a, u128 b) { return u128(a.lo & b.lo, a.hi & b.hi); }
__device__ __forceinline__ u128 operator~(u128 a) { return u128(~a.lo, ~a.hi); }
__device__ __forceinline__ bool operator==(u128 a, u128 b) { return a.lo == b.lo && a.hi == b.hi; }
__device__ __forceinline__ u128& operator|=(u128& a, u128 b) { return a = a | b; }
__device__ __forceinline__ u128& operator&=(u128& a, u128 b) { return a = a & b; }
__device__ __forceinline__ bool operator!(u128 a) { return !(a.lo | a.hi); }
// Shifts by 0 < k < 64 (all this file needs).
__device__ __forceinline__ u128 shr(u128 a, int k) { return u128((a.lo >> k) | (a.hi << (64 - k)), a.hi >> k); }
__device__ __forceinline__ u128 shl(u128 a, int k) { return u128(a.lo << k, (a.hi << k) | (a.lo >> (64 - k))); }
// x with its lowest set bit cleared.
__device__ __forceinline__ u128 clear_lowest(u128 a) {
    return a.lo ? u128(a.lo & (a.lo - 1), a.hi) : u128(0, a.hi & (a.hi - 1));
}

#define GB_N 9
#define GB_P 81

__device__ __forceinline__ u128 gb_one(int p) {
    return p < 64 ? u128(1ull << p, 0) : u128(0, 1ull << (p - 64));
}
// Bits 0..n-1 (0 < n < 128).
__device__ __forceinline__ u128 gb_low(int n) {
    return n < 64 ? u128((1ull << n) - 1, 0) : u128(~0ull, n == 64 ? 0 : (1ull << (n - 64)) - 1);
}

struct GbMasks {
    u128 all, not_col0, not_col8, edge;
};

__device__ __forceinline__ GbMasks gb_masks() {
    GbMasks m;
    u128 col0, col8, row0, row8;
    for (int r = 0; r < GB_N; ++r) {
        col0 |= gb_one(r * GB_N);
        col8 |= gb_one(r * GB_N + GB_N - 1);
    }
    for (int c = 0; c < GB_N; ++c) {
        row0 |= gb_one(c);
        row8 |= gb_one((GB_N - 1) * GB_N + c);
    }
    m.all = gb_low(GB_P);
    m.not_col0 = m.all & ~col0;
    m.not_col8 = m.all & ~col8;
    m.edge = col0 | col8 | row0 | row8;
    return m;
}

// Each point's value at the neighbour (dr, dc): bit p of the result is bit
// p + 9 dr + dc of x (0 off the board).
__device__ __forceinline__ u128 gb_from(u128 x, int dr, int dc, const GbMasks& m) {
    int k = GB_N * dr + dc;
    u128 y = k > 0 ? shr(x, k) : shl(x, -k);
    if (dc > 0) y &= m.not_col8;
    if (dc < 0) y &= m.not_col0;
    return y & m.all;
}

// Points orthogonally next to a point of s, and s itself.
__device__ __forceinline__ u128 gb_dilate(u128 s, const GbMasks& m) {
    return (s | gb_from(s, 0, 1, m) | gb_from(s, 0, -1, m) | gb_from(s, 1, 0, m) | gb_from(s, -1, 0, m)) & m.all;
}

// The string of `color` containing the points of `seed`.
__device__ __forceinline__ u128 gb_string(u128 seed, u128 color, const GbMasks& m) {
    u128 s = seed;
    for (;;) {
        u128 n = gb_dilate(s, m) & color;
        if (n == s) return s;
        s = n;
    }
}

__device__ __forceinline__ int gb_popc(u128 x) {
    return __popcll(x.lo) + __popcll(x.hi);
}

// Position of the k-th (0-based) set bit of x (k < popcount): find the
// 32-bit word by counts, then halve the word five times.
__device__ __forceinline__ int gb_select(u128 x, int k) {
    int base = 0;
    u32 word = 0;
    const u32 words[4] = {(u32)x.lo, (u32)(x.lo >> 32), (u32)x.hi, (u32)(x.hi >> 32)};
    for (int w = 0; w < 4; ++w) {
        word = words[w];
        int n = __popc(word);
        if (k < n) {
            base = 32 * w;
            break;
        }
        k -= n;
    }
    for (int half = 16; half > 0; half >>= 1) {
        int low = __popc(word & ((1u << half) - 1));
        if (k >= low) {
            k -= low;
            base += half;
            word >>= half;
        }
    }
    return base;
}

// Lowest set bit's position (x != 0).
__device__ __forceinline__ int gb_lowest(u128 x) {
    return x.lo ? __ffsll((long long)x.lo) - 1 : 64 + __ffsll((long long)x.hi) - 1;
}

struct GbBoard {
    u128 stone[2];  // [0] Black, [1] White
    int ko;         // point or -1
    u32 captured[2];
};

// The mover's one-point eyes among the empty points (see the header).
__device__ __forceinline__ u128 gb_eyes(const GbBoard& b, int me, const GbMasks& m) {
    u128 own = b.stone[me], opp = b.stone[me ^ 1];
    u128 empty = m.all & ~(own | opp);
    // "Own or off the board" in each direction: off-board reads as 0, so
    // add the points that have no neighbour there.
    u128 col0 = m.all & ~m.not_col0, col8 = m.all & ~m.not_col8;
    u128 row0 = gb_low(GB_N), row8 = shl(shl(row0, 40), GB_N * (GB_N - 1) - 40);
    u128 eyelike = empty & (gb_from(own, 0, 1, m) | col8) & (gb_from(own, 0, -1, m) | col0) &
                   (gb_from(own, 1, 0, m) | row8) & (gb_from(own, -1, 0, m) | row0);
    u128 d1 = gb_from(opp, 1, 1, m), d2 = gb_from(opp, 1, -1, m);
    u128 d3 = gb_from(opp, -1, 1, m), d4 = gb_from(opp, -1, -1, m);
    u128 two = (d1 & d2) | (d1 & d3) | (d1 & d4) | (d2 & d3) | (d2 & d4) | (d3 & d4);
    u128 one = d1 | d2 | d3 | d4;
    return eyelike & ~two & ~(m.edge & one);
}

// Would a stone of `me` at p have a liberty after its captures?
__device__ __forceinline__ bool gb_legal(const GbBoard& b, int p, int me, const GbMasks& m) {
    u128 at = gb_one(p);
    u128 own = b.stone[me] | at, opp = b.stone[me ^ 1];
    u128 empty = m.all & ~(own | opp);
    u128 around = gb_dilate(at, m) & ~at;
    if (around & empty) return true;
    u128 foes = around & opp;
    while (foes) {
        u128 s = gb_string(gb_one(gb_lowest(foes)), opp, m);
        if (!(gb_dilate(s, m) & empty)) return true;  // captures
        foes &= ~s;
    }
    u128 mine = gb_string(at, own, m);
    return bool(gb_dilate(mine, m) & empty);
}

// Plays a legal move (not ko, not suicide) of `me` at p.
__device__ __forceinline__ void gb_play(GbBoard& b, int p, int me, const GbMasks& m) {
    u128 at = gb_one(p);
    b.stone[me] |= at;
    u128 own = b.stone[me], opp = b.stone[me ^ 1];
    u128 empty = m.all & ~(own | opp);
    u128 around = gb_dilate(at, m) & ~at;
    u128 foes = around & opp;
    u128 taken;
    while (foes) {
        u128 s = gb_string(gb_one(gb_lowest(foes)), opp, m);
        if (!(gb_dilate(s, m) & empty)) taken |= s;
        foes &= ~s;
    }
    b.stone[me ^ 1] &= ~taken;
    int n = gb_popc(taken);
    b.captured[me ^ 1] += n;
    b.ko = -1;
    if (n == 1 && !(around & own)) {
        u128 libs = around & m.all & ~(b.stone[0] | b.stone[1]);
        if (gb_popc(libs) == 1) b.ko = gb_lowest(taken);
    }
}

// Black area minus White area; the areas into `area`.
__device__ __forceinline__ int gb_score(const GbBoard& b, u128 area[2], const GbMasks& m) {
    u128 empty = m.all & ~(b.stone[0] | b.stone[1]);
    u128 reach[2];
    for (int c = 0; c < 2; ++c) {
        u128 r = gb_dilate(b.stone[c], m) & empty;
        for (;;) {
            u128 n = (gb_dilate(r, m) & empty) | r;
            if (n == r) break;
            r = n;
        }
        reach[c] = r;
    }
    area[0] = b.stone[0] | (reach[0] & ~reach[1]);
    area[1] = b.stone[1] | (reach[1] & ~reach[0]);
    return gb_popc(area[0]) - gb_popc(area[1]);
}

__device__ void gb_load(GbBoard& b, const u8* colors, int ko) {
    b.stone[0] = b.stone[1] = u128();
    for (int p = 0; p < GB_P; ++p) {
        u8 c = colors[p];
        if (c == 1) b.stone[0] |= gb_one(p);
        else if (c == 2) b.stone[1] |= gb_one(p);
    }
    b.ko = ko;
    b.captured[0] = b.captured[1] = 0;
}

extern "C" __global__ void go_bits_random_9(const u8* __restrict__ boards, const GoLeaf* __restrict__ leaves,
                                            u32* __restrict__ stats, u32 playouts_per_leaf, u64 seed) {
    const int P = GB_P;
    __shared__ SharedStats head;
    __shared__ u32 tables[5 * P];
    u32 leaf = blockIdx.y;
    clear_shared(tables, &head, P);
    const GbMasks m = gb_masks();
    GoLeaf info = leaves[leaf];
    for (u32 k = blockIdx.x * blockDim.x + threadIdx.x; k < playouts_per_leaf; k += gridDim.x * blockDim.x) {
        GbBoard b;
        gb_load(b, boards + (u64)leaf * P, info.ko);
        Rng rng(playout_seed(seed, leaf, k));
        int me = info.to_move - 1;
        int passes = info.passes;
        u128 first[2];
        for (int moves = 0; moves < 3 * P && passes < 2; ++moves) {
            u128 cand = m.all & ~(b.stone[0] | b.stone[1]) & ~gb_eyes(b, me, m);
            if (b.ko >= 0) cand &= ~gb_one(b.ko);
            int chosen = -1;
            int n = gb_popc(cand);
            while (n > 0) {
                int p = gb_select(cand, (int)rng.below((u32)n));
                if (gb_legal(b, p, me, m)) {
                    chosen = p;
                    break;
                }
                cand &= ~gb_one(p);
                --n;
            }
            if (chosen < 0) {
                passes++;
                b.ko = -1;
            } else {
                passes = 0;
                u128 at = gb_one(chosen);
                if (!((first[0] | first[1]) & at)) first[me] |= at;
                gb_play(b, chosen, me, m);
            }
            me ^= 1;
        }
        u128 area[2];
        int diff = gb_score(b, area, m);
        int score2 = 2 * diff - info.komi2;
        u32 bw = score2 > 0 ? 2 : (score2 == 0 ? 1 : 0);
        for (int c = 0; c < 2; ++c) {
            u128 f = first[c];
            while (f) {
                int p = gb_lowest(f);
                f = clear_lowest(f);
                atomicAdd(&tables[2 * p + c], 1u);
                if (bw) atomicAdd(&tables[2 * P + 2 * p + c], bw);
            }
            u128 a = area[c];
            while (a) {
                int p = gb_lowest(a);
                a = clear_lowest(a);
                atomicAdd((i32*)&tables[4 * P + p], c == 0 ? 1 : -1);
            }
        }
        atomicAdd(&head.score2, (u64)(i64)score2);
        atomicAdd(&head.playouts, 1u);
        atomicAdd(&head.wins2, bw);
    }
    __syncthreads();
    flush_stats(stats + (u64)leaf * stats_stride(P), tables, &head, P);
}

// Replay, as go_replay in go.cu (one thread per sequence).
extern "C" __global__ void go_bits_replay_9(const u16* __restrict__ moves, u32 max_moves, u32 sequences,
                                            u8* __restrict__ boards_out, i32* __restrict__ result) {
    const int P = GB_P;
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= sequences) return;
    const GbMasks m = gb_masks();
    GbBoard b;
    b.stone[0] = b.stone[1] = u128();
    b.ko = -1;
    b.captured[0] = b.captured[1] = 0;
    int me = 0, error = 0;
    for (u32 t = 0; t < max_moves; ++t) {
        u32 mv = moves[(u64)i * max_moves + t];
        if (mv == 0xFFFF) break;
        if (mv < (u32)P) {
            bool empty = !((b.stone[0] | b.stone[1]) & gb_one(mv));
            if (!empty || (int)mv == b.ko || !gb_legal(b, mv, me, m)) {
                error = 1 + t;
                break;
            }
            gb_play(b, mv, me, m);
        } else {
            b.ko = -1;
        }
        me ^= 1;
    }
    for (int p = 0; p < P; ++p) {
        u128 at = gb_one(p);
        boards_out[(u64)i * P + p] = (b.stone[0] & at) ? 1 : ((b.stone[1] & at) ? 2 : 0);
    }
    u128 area[2];
    result[i * 4 + 0] = error;
    result[i * 4 + 1] = b.captured[0];
    result[i * 4 + 2] = b.captured[1];
    result[i * 4 + 3] = gb_score(b, area, m);
}
