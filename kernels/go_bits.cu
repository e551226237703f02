// Go playouts, one playout per thread, the whole board in registers:
// Black and White as N*N-bit sets (bit r * N + c) of W 64-bit words
// (9x9: 2, 13x13: 3, 19x19: 6). Strings, liberties, captures, eyes and the
// final area are computed with shifts and masks, so a playout touches no
// memory but its leaf's input and the block's counters. (A plain struct
// rather than the compiler's __int128: see kernels/NOTES.md.)
//
// Same policy and rules as go.cu (the CPU `Random` policy): uniform over
// empty points that are not the simple-ko point, not the mover's one-point
// eye (four own/edge neighbours and fewer than two "defects": opponent
// diagonals plus one for touching the edge) and not suicide; pass when none
// is left; two passes or 3 * N * N moves end the game; Tromp-Taylor area.
// Moves are drawn exactly as in go_points.cu (the r-th allowed point in
// index order, redraw after a suicide), so both give identical playouts.
//
// Needs common.cuh, and go.cu before it (GoLeaf).

template <int W>
struct Bits {
    u64 w[W];
    __device__ __forceinline__ static Bits zero() {
        Bits b;
#pragma unroll
        for (int i = 0; i < W; ++i) b.w[i] = 0;
        return b;
    }
    __device__ __forceinline__ explicit operator bool() const {
        u64 a = 0;
#pragma unroll
        for (int i = 0; i < W; ++i) a |= w[i];
        return a != 0;
    }
};

#define BITS_OP(op)                                                                  \
    template <int W>                                                                 \
    __device__ __forceinline__ Bits<W> operator op(const Bits<W>& a, const Bits<W>& b) { \
        Bits<W> r;                                                                   \
        _Pragma("unroll") for (int i = 0; i < W; ++i) r.w[i] = a.w[i] op b.w[i];     \
        return r;                                                                    \
    }
BITS_OP(|)
BITS_OP(&)

template <int W>
__device__ __forceinline__ Bits<W> operator~(const Bits<W>& a) {
    Bits<W> r;
#pragma unroll
    for (int i = 0; i < W; ++i) r.w[i] = ~a.w[i];
    return r;
}
template <int W>
__device__ __forceinline__ bool operator==(const Bits<W>& a, const Bits<W>& b) {
    u64 d = 0;
#pragma unroll
    for (int i = 0; i < W; ++i) d |= a.w[i] ^ b.w[i];
    return d == 0;
}
template <int W>
__device__ __forceinline__ bool operator!(const Bits<W>& a) { return !bool(a); }
template <int W>
__device__ __forceinline__ Bits<W>& operator|=(Bits<W>& a, const Bits<W>& b) { return a = a | b; }
template <int W>
__device__ __forceinline__ Bits<W>& operator&=(Bits<W>& a, const Bits<W>& b) { return a = a & b; }

// Shifts towards higher / lower bit numbers by 0 < k < 64.
template <int W>
__device__ __forceinline__ Bits<W> shl(const Bits<W>& a, int k) {
    Bits<W> r;
#pragma unroll
    for (int i = W - 1; i > 0; --i) r.w[i] = (a.w[i] << k) | (a.w[i - 1] >> (64 - k));
    r.w[0] = a.w[0] << k;
    return r;
}
template <int W>
__device__ __forceinline__ Bits<W> shr(const Bits<W>& a, int k) {
    Bits<W> r;
#pragma unroll
    for (int i = 0; i < W - 1; ++i) r.w[i] = (a.w[i] >> k) | (a.w[i + 1] << (64 - k));
    r.w[W - 1] = a.w[W - 1] >> k;
    return r;
}

template <int W>
__device__ __forceinline__ Bits<W> bit(int p) {
    Bits<W> r;
#pragma unroll
    for (int i = 0; i < W; ++i) r.w[i] = (p >> 6) == i ? 1ull << (p & 63) : 0;
    return r;
}

template <int W>
__device__ __forceinline__ int popc(const Bits<W>& a) {
    int n = 0;
#pragma unroll
    for (int i = 0; i < W; ++i) n += __popcll(a.w[i]);
    return n;
}

// Lowest set bit's position (a != 0).
template <int W>
__device__ __forceinline__ int lowest(const Bits<W>& a) {
    int p = -1;
#pragma unroll
    for (int i = W - 1; i >= 0; --i)
        if (a.w[i]) p = 64 * i + __ffsll((long long)a.w[i]) - 1;
    return p;
}

template <int W>
__device__ __forceinline__ Bits<W> clear_lowest(const Bits<W>& a) {
    Bits<W> r = a;
    bool done = false;
#pragma unroll
    for (int i = 0; i < W; ++i) {
        if (!done && r.w[i]) {
            r.w[i] &= r.w[i] - 1;
            done = true;
        }
    }
    return r;
}

// Position of the k-th (0-based) set bit (k < popc): the word by counts,
// then five halvings of its 32-bit half.
template <int W>
__device__ __forceinline__ int select_bit(const Bits<W>& a, int k) {
    int base = 0;
    u64 word = 0;
    bool found = false;
#pragma unroll
    for (int i = 0; i < W; ++i) {
        int n = __popcll(a.w[i]);
        if (!found) {
            if (k < n) {
                base = 64 * i;
                word = a.w[i];
                found = true;
            } else {
                k -= n;
            }
        }
    }
    u32 low = (u32)word;
    int n = __popc(low);
    u32 x = low;
    if (k >= n) {
        k -= n;
        base += 32;
        x = (u32)(word >> 32);
    }
    for (int half = 16; half > 0; half >>= 1) {
        int c = __popc(x & ((1u << half) - 1));
        if (k >= c) {
            k -= c;
            base += half;
            x >>= half;
        }
    }
    return base;
}

template <int N>
struct GoBits {
    static const int P = N * N;
    static const int W = (P + 63) / 64;
    typedef Bits<W> B;

    B all, not_col0, not_col_last, col0, col_last, row0, row_last, edge;

    __device__ void init() {
        all = col0 = col_last = row0 = row_last = B::zero();
        for (int p = 0; p < P; ++p) {
            B b = bit<W>(p);
            all |= b;
            if (p % N == 0) col0 |= b;
            if (p % N == N - 1) col_last |= b;
            if (p < N) row0 |= b;
            if (p >= P - N) row_last |= b;
        }
        not_col0 = all & ~col0;
        not_col_last = all & ~col_last;
        edge = col0 | col_last | row0 | row_last;
    }

    // Bit p of the result is bit p + N dr + dc of x (0 off the board).
    __device__ __forceinline__ B from(const B& x, int dr, int dc) const {
        int k = N * dr + dc;
        B y = k > 0 ? shr(x, k) : shl(x, -k);
        if (dc > 0) y &= not_col_last;
        if (dc < 0) y &= not_col0;
        return y & all;
    }

    __device__ __forceinline__ B dilate(const B& s) const {
        return (s | from(s, 0, 1) | from(s, 0, -1) | from(s, 1, 0) | from(s, -1, 0)) & all;
    }

    __device__ __forceinline__ B string(const B& seed, const B& color) const {
        B s = seed;
        for (;;) {
            B n = dilate(s) & color;
            if (n == s) return s;
            s = n;
        }
    }
};

template <int N>
struct GbBoard {
    Bits<GoBits<N>::W> stone[2];  // [0] Black, [1] White
    int ko;                       // point or -1
    u32 captured[2];
};

template <int N>
__device__ __forceinline__ Bits<GoBits<N>::W> gb_eyes(const GbBoard<N>& b, int me, const GoBits<N>& m) {
    typedef Bits<GoBits<N>::W> B;
    B own = b.stone[me], opp = b.stone[me ^ 1];
    B empty = m.all & ~(own | opp);
    B eyelike = empty & (m.from(own, 0, 1) | m.col_last) & (m.from(own, 0, -1) | m.col0) &
                (m.from(own, 1, 0) | m.row_last) & (m.from(own, -1, 0) | m.row0);
    B d1 = m.from(opp, 1, 1), d2 = m.from(opp, 1, -1);
    B d3 = m.from(opp, -1, 1), d4 = m.from(opp, -1, -1);
    B two = (d1 & d2) | (d1 & d3) | (d1 & d4) | (d2 & d3) | (d2 & d4) | (d3 & d4);
    B one = d1 | d2 | d3 | d4;
    return eyelike & ~two & ~(m.edge & one);
}

template <int N>
__device__ __forceinline__ bool gb_legal(const GbBoard<N>& b, int p, int me, const GoBits<N>& m) {
    typedef Bits<GoBits<N>::W> B;
    B at = bit<GoBits<N>::W>(p);
    B own = b.stone[me] | at, opp = b.stone[me ^ 1];
    B empty = m.all & ~(own | opp);
    B around = m.dilate(at) & ~at;
    if (around & empty) return true;
    B foes = around & opp;
    while (foes) {
        B s = m.string(bit<GoBits<N>::W>(lowest(foes)), opp);
        if (!(m.dilate(s) & empty)) return true;  // captures
        foes &= ~s;
    }
    B mine = m.string(at, own);
    return bool(m.dilate(mine) & empty);
}

template <int N>
__device__ __forceinline__ void gb_play(GbBoard<N>& b, int p, int me, const GoBits<N>& m) {
    typedef Bits<GoBits<N>::W> B;
    B at = bit<GoBits<N>::W>(p);
    b.stone[me] |= at;
    B own = b.stone[me], opp = b.stone[me ^ 1];
    B empty = m.all & ~(own | opp);
    B around = m.dilate(at) & ~at;
    B foes = around & opp;
    B taken = B::zero();
    while (foes) {
        B s = m.string(bit<GoBits<N>::W>(lowest(foes)), opp);
        if (!(m.dilate(s) & empty)) taken |= s;
        foes &= ~s;
    }
    b.stone[me ^ 1] &= ~taken;
    int n = popc(taken);
    b.captured[me ^ 1] += n;
    b.ko = -1;
    if (n == 1 && !(around & own)) {
        B libs = around & m.all & ~(b.stone[0] | b.stone[1]);
        if (popc(libs) == 1) b.ko = lowest(taken);
    }
}

// Black area minus White area; the areas into `area`.
template <int N>
__device__ __forceinline__ int gb_score(const GbBoard<N>& b, Bits<GoBits<N>::W> area[2], const GoBits<N>& m) {
    typedef Bits<GoBits<N>::W> B;
    B empty = m.all & ~(b.stone[0] | b.stone[1]);
    B reach[2];
#pragma unroll
    for (int c = 0; c < 2; ++c) {
        B r = m.dilate(b.stone[c]) & empty;
        for (;;) {
            B n = (m.dilate(r) & empty) | r;
            if (n == r) break;
            r = n;
        }
        reach[c] = r;
    }
    area[0] = b.stone[0] | (reach[0] & ~reach[1]);
    area[1] = b.stone[1] | (reach[1] & ~reach[0]);
    return popc(area[0]) - popc(area[1]);
}

template <int N>
__device__ void gb_load(GbBoard<N>& b, const u8* colors, int ko) {
    typedef Bits<GoBits<N>::W> B;
    b.stone[0] = b.stone[1] = B::zero();
    for (int p = 0; p < N * N; ++p) {
        u8 c = colors[p];
        if (c == 1) b.stone[0] |= bit<GoBits<N>::W>(p);
        else if (c == 2) b.stone[1] |= bit<GoBits<N>::W>(p);
    }
    b.ko = ko;
    b.captured[0] = b.captured[1] = 0;
}

template <int N>
__device__ void go_bits_playouts(const u8* __restrict__ boards, const GoLeaf* __restrict__ leaves,
                                 u32* __restrict__ stats, u32 playouts_per_leaf, u64 seed) {
    const int P = N * N;
    typedef Bits<GoBits<N>::W> B;
    __shared__ SharedStats head;
    __shared__ u32 tables[5 * P];
    u32 leaf = blockIdx.y;
    clear_shared(tables, &head, P);
    GoBits<N> m;
    m.init();
    GoLeaf info = leaves[leaf];
    for (u32 k = blockIdx.x * blockDim.x + threadIdx.x; k < playouts_per_leaf; k += gridDim.x * blockDim.x) {
        GbBoard<N> b;
        gb_load<N>(b, boards + (u64)leaf * P, info.ko);
        Rng rng(playout_seed(seed, leaf, k));
        int me = info.to_move - 1;
        int passes = info.passes;
        B first[2] = {B::zero(), B::zero()};
        for (int moves = 0; moves < 3 * P && passes < 2; ++moves) {
            B cand = m.all & ~(b.stone[0] | b.stone[1]) & ~gb_eyes<N>(b, me, m);
            if (b.ko >= 0) cand &= ~bit<GoBits<N>::W>(b.ko);
            int chosen = -1;
            int n = popc(cand);
            while (n > 0) {
                int p = select_bit(cand, (int)rng.below((u32)n));
                if (gb_legal<N>(b, p, me, m)) {
                    chosen = p;
                    break;
                }
                cand &= ~bit<GoBits<N>::W>(p);
                --n;
            }
            if (chosen < 0) {
                passes++;
                b.ko = -1;
            } else {
                passes = 0;
                B at = bit<GoBits<N>::W>(chosen);
                if (!((first[0] | first[1]) & at)) {
                    if (me == 0) first[0] |= at;
                    else first[1] |= at;
                }
                gb_play<N>(b, chosen, me, m);
            }
            me ^= 1;
        }
        B area[2];
        int diff = gb_score<N>(b, area, m);
        int score2 = 2 * diff - info.komi2;
        u32 bw = score2 > 0 ? 2 : (score2 == 0 ? 1 : 0);
#pragma unroll
        for (int c = 0; c < 2; ++c) {
            B f = first[c];
            while (f) {
                int p = lowest(f);
                f = clear_lowest(f);
                atomicAdd(&tables[2 * p + c], 1u);
                if (bw) atomicAdd(&tables[2 * P + 2 * p + c], bw);
            }
            B a = area[c];
            while (a) {
                int p = lowest(a);
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
template <int N>
__device__ void go_bits_replay(const u16* __restrict__ moves, u32 max_moves, u32 sequences,
                               u8* __restrict__ boards_out, i32* __restrict__ result) {
    const int P = N * N;
    typedef Bits<GoBits<N>::W> B;
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= sequences) return;
    GoBits<N> m;
    m.init();
    GbBoard<N> b;
    b.stone[0] = b.stone[1] = B::zero();
    b.ko = -1;
    b.captured[0] = b.captured[1] = 0;
    int me = 0, error = 0;
    for (u32 t = 0; t < max_moves; ++t) {
        u32 mv = moves[(u64)i * max_moves + t];
        if (mv == 0xFFFF) break;
        if (mv < (u32)P) {
            bool empty = !((b.stone[0] | b.stone[1]) & bit<GoBits<N>::W>(mv));
            if (!empty || (int)mv == b.ko || !gb_legal<N>(b, mv, me, m)) {
                error = 1 + t;
                break;
            }
            gb_play<N>(b, mv, me, m);
        } else {
            b.ko = -1;
        }
        me ^= 1;
    }
    for (int p = 0; p < P; ++p) {
        B at = bit<GoBits<N>::W>(p);
        boards_out[(u64)i * P + p] = bool(b.stone[0] & at) ? 1 : (bool(b.stone[1] & at) ? 2 : 0);
    }
    B area[2];
    result[i * 4 + 0] = error;
    result[i * 4 + 1] = b.captured[0];
    result[i * 4 + 2] = b.captured[1];
    result[i * 4 + 3] = gb_score<N>(b, area, m);
}

#define GO_BITS_ENTRY(N)                                                                              \
    extern "C" __global__ void go_bits_random_##N(const u8* boards, const GoLeaf* leaves, u32* stats, \
                                                  u32 playouts_per_leaf, u64 seed) {                 \
        go_bits_playouts<N>(boards, leaves, stats, playouts_per_leaf, seed);                          \
    }                                                                                                 \
    extern "C" __global__ void go_bits_replay_##N(const u16* moves, u32 max_moves, u32 sequences,     \
                                                  u8* boards_out, i32* result) {                      \
        go_bits_replay<N>(moves, max_moves, sequences, boards_out, result);                           \
    }

GO_BITS_ENTRY(9)
GO_BITS_ENTRY(13)
GO_BITS_ENTRY(19)
