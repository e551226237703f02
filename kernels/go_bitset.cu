// Go bitboards: a set of board points as W 32-bit words, in registers.
//
// Layout: bit b = r * S + c, with row stride S = N + 1: column N is a
// sentinel that is never set, so a shift by one column cannot wrap a stone
// into the next row, and the four neighbours of a set are four funnel
// shifts and one mask. 9x9 takes 3 words, 13x13 6, 19x19 12. The masks
// (points, edges) are compile-time constants in constant memory, which
// instructions read as operands at no cost. Every operation is unrolled
// over the words, so the sets stay in registers (an index chosen at run
// time would put them in local memory).
//
// Used by go_bits.cu (the board and light playouts), go_bits_patterns.cu
// and go_rows.cu's host check; needs common.cuh.

template <int N>
struct GoGeo {
    static constexpr int S = N + 1;       // row stride (one sentinel column)
    static constexpr int NB = N * S - 1;  // bits in use: the last sentinel is left out
    static constexpr int W = (NB + 31) / 32;
    static constexpr int P = N * N;
    __host__ __device__ static constexpr int bit_of(int p) { return p / N * S + p % N; }
    __host__ __device__ static constexpr int point_of(int b) { return b / S * N + b % S; }
};

template <int W>
struct Bits {
    u32 w[W];
};

// The board's constant sets, built by the compiler.
template <int N>
struct GoMasks {
    static constexpr int W = GoGeo<N>::W;
    Bits<W> all, col0, col_last, row0, row_last, edge;
    constexpr GoMasks() : all(), col0(), col_last(), row0(), row_last(), edge() {
        for (int b = 0; b < GoGeo<N>::NB; ++b) {
            int r = b / GoGeo<N>::S, c = b % GoGeo<N>::S;
            if (c == N) continue;
            u32 m = 1u << (b & 31);
            int i = b >> 5;
            all.w[i] |= m;
            if (c == 0) col0.w[i] |= m;
            if (c == N - 1) col_last.w[i] |= m;
            if (r == 0) row0.w[i] |= m;
            if (r == N - 1) row_last.w[i] |= m;
            if (c == 0 || c == N - 1 || r == 0 || r == N - 1) edge.w[i] |= m;
        }
    }
};

__constant__ GoMasks<9> go_masks_9 = GoMasks<9>();
__constant__ GoMasks<13> go_masks_13 = GoMasks<13>();
__constant__ GoMasks<19> go_masks_19 = GoMasks<19>();
template <int N> __device__ __forceinline__ const GoMasks<N>& go_masks();
template <> __device__ __forceinline__ const GoMasks<9>& go_masks<9>() { return go_masks_9; }
template <> __device__ __forceinline__ const GoMasks<13>& go_masks<13>() { return go_masks_13; }
template <> __device__ __forceinline__ const GoMasks<19>& go_masks<19>() { return go_masks_19; }

#define BITS_EACH for (int i = 0; i < W; ++i)

#define BITS_BINOP(op)                                                                      \
    template <int W>                                                                        \
    __device__ __forceinline__ Bits<W> operator op(const Bits<W>& a, const Bits<W>& b) {    \
        Bits<W> r;                                                                          \
        _Pragma("unroll") BITS_EACH r.w[i] = a.w[i] op b.w[i];                              \
        return r;                                                                           \
    }                                                                                       \
    template <int W>                                                                        \
    __device__ __forceinline__ Bits<W>& operator op##=(Bits<W>& a, const Bits<W>& b) {      \
        _Pragma("unroll") BITS_EACH a.w[i] = a.w[i] op b.w[i];                              \
        return a;                                                                           \
    }
BITS_BINOP(|)
BITS_BINOP(&)

template <int W>
__device__ __forceinline__ Bits<W> operator~(const Bits<W>& a) {
    Bits<W> r;
#pragma unroll
    BITS_EACH r.w[i] = ~a.w[i];
    return r;
}
// a & ~b in one instruction per word.
template <int W>
__device__ __forceinline__ Bits<W> andnot(const Bits<W>& a, const Bits<W>& b) {
    Bits<W> r;
#pragma unroll
    BITS_EACH r.w[i] = a.w[i] & ~b.w[i];
    return r;
}
template <int W>
__device__ __forceinline__ bool any(const Bits<W>& a) {
    u32 x = 0;
#pragma unroll
    BITS_EACH x |= a.w[i];
    return x != 0;
}
template <int W>
__device__ __forceinline__ bool same(const Bits<W>& a, const Bits<W>& b) {
    u32 x = 0;
#pragma unroll
    BITS_EACH x |= a.w[i] ^ b.w[i];
    return x == 0;
}
template <int W>
__device__ __forceinline__ Bits<W> none() {
    Bits<W> r;
#pragma unroll
    BITS_EACH r.w[i] = 0;
    return r;
}
template <int W>
__device__ __forceinline__ Bits<W> onehot(int b) {
    Bits<W> r;
#pragma unroll
    BITS_EACH r.w[i] = (b >> 5) == i ? 1u << (b & 31) : 0u;
    return r;
}
template <int W>
__device__ __forceinline__ int popc(const Bits<W>& a) {
    int n = 0;
#pragma unroll
    BITS_EACH n += __popc(a.w[i]);
    return n;
}
// Bit p of the result is bit p - k of a (towards higher bits), 0 < k < 32.
template <int W>
__device__ __forceinline__ Bits<W> shl(const Bits<W>& a, int k) {
    Bits<W> r;
#pragma unroll
    for (int i = W - 1; i > 0; --i) r.w[i] = __funnelshift_l(a.w[i - 1], a.w[i], k);
    r.w[0] = a.w[0] << k;
    return r;
}
// Bit p of the result is bit p + k of a.
template <int W>
__device__ __forceinline__ Bits<W> shr(const Bits<W>& a, int k) {
    Bits<W> r;
#pragma unroll
    for (int i = 0; i < W - 1; ++i) r.w[i] = __funnelshift_r(a.w[i], a.w[i + 1], k);
    r.w[W - 1] = a.w[W - 1] >> k;
    return r;
}
// The lowest set bit of a (a != 0) as a set.
template <int W>
__device__ __forceinline__ Bits<W> lowest_set(const Bits<W>& a) {
    Bits<W> r;
    bool done = false;
#pragma unroll
    BITS_EACH {
        r.w[i] = done ? 0u : a.w[i] & (0u - a.w[i]);
        done = done || a.w[i] != 0;
    }
    return r;
}
// Position of the lowest set bit of a (a != 0; -1 for none): select_bit(a,
// 0) in a few instructions a word.
template <int W>
__device__ __forceinline__ int first_bit(const Bits<W>& a) {
    int r = -1;
#pragma unroll
    for (int i = W - 1; i >= 0; --i) r = a.w[i] != 0u ? 32 * i + __ffs(a.w[i]) - 1 : r;
    return r;
}
// Position of the k-th (0-based) set bit, k < popc(a): the word by counts,
// then five halvings.
template <int W>
__device__ __forceinline__ int select_bit(const Bits<W>& a, int k) {
    int base = 0;
    u32 x = 0;
    bool found = false;
#pragma unroll
    BITS_EACH {
        int n = __popc(a.w[i]);
        bool here = !found && k < n;
        x = here ? a.w[i] : x;
        base = here ? 32 * i : base;
        k = (!found && !here) ? k - n : k;
        found = found || here;
    }
#pragma unroll
    for (int half = 16; half > 0; half >>= 1) {
        int c = __popc(x & ((1u << half) - 1));
        bool up = k >= c;
        k = up ? k - c : k;
        base = up ? base + half : base;
        x = up ? x >> half : x;
    }
    return base;
}

// nbrs on any run of M words, rows S bits apart: the whole board, or a
// window of a few of its words (go_bits_atari.cu), where the neighbours
// outside the window fall off its ends.
template <int S, int M>
__device__ __forceinline__ Bits<M> nbrs_stride(const Bits<M>& s) {
    return shl(s, 1) | shr(s, 1) | shl(s, S) | shr(s, S);
}

// Orthogonal neighbours of the set s (s itself not included unless a
// member neighbours another), plus bits that are no point: sentinel columns
// and bits past the last row. Every use intersects the result with a set of
// points (or takes it away from one), which drops them; masking here cost
// an instruction a word in every string growth step (19x19 light, H200:
// 10.29-10.30 M to 11.09 M playouts/s without it, the pattern kernel
// 0.68 M to 0.80 M).
template <int N>
__device__ __forceinline__ Bits<GoGeo<N>::W> nbrs(const Bits<GoGeo<N>::W>& s) {
    return nbrs_stride<GoGeo<N>::S>(s);
}
