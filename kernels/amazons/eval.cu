// Lieberum's Amazons evaluation, one thread per position, in float, in the
// layered form of src/sim/amazons_layers.rs: every term is a sum over
// squares grouped by their pair of distances, so the breadth-first floods
// keep the set of squares at each distance ("layer") and never a distance
// per square.
//
// The reference is the CPU's src/sim/amazons_eval.rs (per square) and
// src/sim/amazons_layers.rs (this form, exact to the CPU's rounding): the
// same features, the same partition functions (Sun, Gao, Yuan and Zhu,
// "GPU acceleration of Monte Carlo tree search for the Game of the Amazons
// and its evaluation function", eq. 7). A board is a 128-bit set, 11 bits
// a rank from the bottom (ten files and a guard bit that is never empty),
// held here as two 64-bit words; a shift of up to 8 steps in any of the
// eight directions never wraps onto an empty square.
//
// The other side's layers are kept (in local memory, only the levels it
// has); the side to move's flood runs after it and sums every term against
// them as it goes, so that side's layers need no storage.
//
// Input per position, six words: the side to move's queens (lo, hi), the
// other side's queens, the empty squares. Output per position, two floats:
// the value for the side to move in squares, and w (0 exactly when no
// empty square is reachable by both sides).
//
// Self-contained (no common.cuh): compiled by its own NVRTC unit,
// src/sim/cuda/amazons.rs; kernels/hostcheck/amazons.cpp compiles it as
// host C++ against the CPU's values.

typedef unsigned long long u64;

struct B128 {
    u64 lo, hi;
};

__device__ __forceinline__ B128 b_and(B128 a, B128 b) { return {a.lo & b.lo, a.hi & b.hi}; }
__device__ __forceinline__ B128 b_or(B128 a, B128 b) { return {a.lo | b.lo, a.hi | b.hi}; }
__device__ __forceinline__ B128 b_andnot(B128 a, B128 b) { return {a.lo & ~b.lo, a.hi & ~b.hi}; }
__device__ __forceinline__ bool b_any(B128 a) { return (a.lo | a.hi) != 0; }
__device__ __forceinline__ int b_count(B128 a) { return __popcll(a.lo) + __popcll(a.hi); }

// Shift towards higher bits by s (0 < s < 128).
__device__ __forceinline__ B128 b_up(B128 a, unsigned s) {
    if (s >= 64) return {0, a.lo << (s - 64)};
    return {a.lo << s, (a.hi << s) | (a.lo >> (64 - s))};
}
// Shift towards lower bits by s (0 < s < 128).
__device__ __forceinline__ B128 b_down(B128 a, unsigned s) {
    if (s >= 64) return {a.hi >> (s - 64), 0};
    return {(a.lo >> s) | (a.hi << (64 - s)), a.hi >> s};
}

// n steps in direction d: +1 +11 +12 +10, then their negatives (the
// bitboard's DIRS order).
__device__ __forceinline__ B128 b_steps(B128 a, int d, unsigned n) {
    const unsigned unit = (d & 3) == 0 ? 1 : (d & 3) == 1 ? 11 : (d & 3) == 2 ? 12 : 10;
    return d < 4 ? b_up(a, unit * n) : b_down(a, unit * n);
}

// The empty squares one queen move from `set`: per direction an occluded
// fill through `empty` (Kogge-Stone: runs of 1, 2, 4, 8 steps cover the
// nine steps of a line), then one step. Branch-free, unlike a slide loop.
__device__ B128 queen_step(B128 set, B128 empty) {
    B128 out = {0, 0};
#pragma unroll
    for (int d = 0; d < 8; ++d) {
        B128 g = set, p = empty;
#pragma unroll
        for (unsigned s = 1; s <= 8; s *= 2) {
            g = b_or(g, b_and(p, b_steps(g, d, s)));
            p = b_and(p, b_steps(p, d, s));
        }
        out = b_or(out, b_and(b_steps(g, d, 1), empty));
    }
    return out;
}

__device__ B128 king_step(B128 set, B128 empty) {
    B128 out = {0, 0};
#pragma unroll
    for (int d = 0; d < 8; ++d) out = b_or(out, b_steps(set, d, 1));
    return b_and(out, empty);
}

// Levels a side can have: each adds an empty square (at most 110 bits).
#define AMAZONS_LEVELS 111
#define AMAZONS_K 0.1f
#define AMAZONS_C2_DIVISOR 6.0f

// The terms of one distance (queen or king moves) of the side to move.
struct Terms {
    float t;        // first-reached +1 / -1, ties k
    float c;        // queen: c1; king: c2
    float w;        // queen: w; king: unused
};

template <bool QUEEN>
__device__ Terms distance_terms(B128 me, B128 other, B128 empty, B128* layers) {
    // The other side's layers, 1..n1, and the squares it reaches.
    int n1 = 0;
    B128 reached1 = {0, 0};
    float pow1 = 0.0f;  // Σ_j 2^-j |L_1(j)|
    {
        B128 reached = other, frontier = other;
        float p = 1.0f;
        while (n1 + 1 < AMAZONS_LEVELS) {
            frontier = b_andnot(QUEEN ? queen_step(frontier, empty) : king_step(frontier, empty),
                                reached);
            if (!b_any(frontier)) break;
            reached = b_or(reached, frontier);
            reached1 = b_or(reached1, frontier);
            p *= 0.5f;
            pow1 += p * (float)b_count(frontier);
            layers[++n1] = frontier;
        }
    }
    // The side to move's flood against them.
    int first = 0, later = 0, ties = 0;  // D0 < D1; D0 <= D1 < inf; D0 = D1
    float pow0 = 0.0f, pairs = 0.0f;
    B128 r1k = {0, 0};      // the other side's squares up to level k
    B128 reached0 = {0, 0};  // the side to move's empty squares so far
    {
        B128 reached = me, frontier = me;
        float p = 1.0f;
        for (int k = 1; k < AMAZONS_LEVELS; ++k) {
            frontier = b_andnot(QUEEN ? queen_step(frontier, empty) : king_step(frontier, empty),
                                reached);
            if (!b_any(frontier)) break;
            reached = b_or(reached, frontier);
            reached0 = b_or(reached0, frontier);
            B128 before = r1k;  // the other side's squares below level k
            B128 b = k <= n1 ? layers[k] : B128{0, 0};
            r1k = b_or(r1k, b);
            p *= 0.5f;
            pow0 += p * (float)b_count(frontier);
            first += b_count(b_andnot(frontier, r1k));
            later += b_count(b_andnot(b_and(frontier, reached1), before));
            ties += b_count(b_and(frontier, b));
            // Squares both reach: weighted by the other side's level j.
            B128 both = b_and(frontier, reached1);
            for (int j = 1; b_any(both); ++j) {
                int n = b_count(b_and(both, layers[j]));
                if (n) {
                    int d = j - k;
                    float weight;
                    if (QUEEN) {
                        weight = exp2f(-(float)(d < 0 ? -d : d));
                    } else {
                        weight = fminf(1.0f, fmaxf(-1.0f, (float)d / AMAZONS_C2_DIVISOR));
                    }
                    pairs += (float)n * weight;
                    both = b_andnot(both, layers[j]);
                }
            }
        }
    }
    int other_first = b_count(reached1) - later;  // D1 < D0, D0 possibly inf
    Terms out;
    out.t = (float)(first - other_first) + AMAZONS_K * (float)ties;
    if (QUEEN) {
        out.c = 2.0f * (pow0 - pow1);
        out.w = pairs;
    } else {
        out.c = (float)(b_count(b_andnot(reached0, reached1)) - b_count(b_andnot(reached1, reached0))) +
                pairs;
        out.w = 0.0f;
    }
    return out;
}

// Value and w of one position (words as the kernel's input).
__device__ void amazons_evaluate(const u64* p, float* value, float* w_out) {
    B128 me = {p[0], p[1]}, other = {p[2], p[3]}, empty = {p[4], p[5]};
    B128 layers[AMAZONS_LEVELS];
    Terms q = distance_terms<true>(me, other, empty, layers);
    Terms k = distance_terms<false>(me, other, empty, layers);
    float w = q.w;
    float f1 = 5.0f / (w + 5.0f);
    float f4 = w / (w + 20.0f);
    float f23 = (1.0f - f1 - f4) * 0.5f;
    *value = f1 * q.t + f23 * q.c + f23 * k.c + f4 * k.t;
    *w_out = w;
}

extern "C" __global__ void amazons_eval(const u64* positions, unsigned count, float* out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    amazons_evaluate(positions + 6 * (size_t)i, out + 2 * (size_t)i, out + 2 * (size_t)i + 1);
}
