// Lieberum's Amazons evaluation, one thread per position, in float.
//
// The reference is the CPU's src/sim/amazons_eval.rs: the same features,
// the same partition functions (Sun, Gao, Yuan and Zhu, "GPU acceleration
// of Monte Carlo tree search for the Game of the Amazons and its
// evaluation function", eq. 7), the same board layout. A board is a
// 128-bit set, 11 bits a rank from the bottom (ten files and a guard bit
// that is never empty), held here as two 64-bit words; a one-step shift in
// any of the eight directions never wraps. Distances come from
// breadth-first flood fill on those sets, one level at a time; each
// square's level is written to a byte per square in local memory.
//
// Input per position, six words: the side to move's queens (lo, hi), the
// other side's queens, the empty squares. Output: the value for the side
// to move, in squares.
//
// Self-contained (no common.cuh): compiled by its own NVRTC unit,
// src/sim/cuda/amazons.rs.

typedef unsigned long long u64;

struct B128 {
    u64 lo, hi;
};

__device__ __forceinline__ B128 b_and(B128 a, B128 b) { return {a.lo & b.lo, a.hi & b.hi}; }
__device__ __forceinline__ B128 b_or(B128 a, B128 b) { return {a.lo | b.lo, a.hi | b.hi}; }
__device__ __forceinline__ B128 b_andnot(B128 a, B128 b) { return {a.lo & ~b.lo, a.hi & ~b.hi}; }
__device__ __forceinline__ bool b_any(B128 a) { return (a.lo | a.hi) != 0; }

// Shift towards higher bits by s (0 < s < 64).
__device__ __forceinline__ B128 b_up(B128 a, int s) {
    return {a.lo << s, (a.hi << s) | (a.lo >> (64 - s))};
}
// Shift towards lower bits by s (0 < s < 64).
__device__ __forceinline__ B128 b_down(B128 a, int s) {
    return {(a.lo >> s) | (a.hi << (64 - s)), a.hi >> s};
}

// The eight steps: +1 +11 +12 +10 and their negatives.
__device__ __forceinline__ B128 b_step(B128 a, int d) {
    switch (d) {
    case 0: return b_up(a, 1);
    case 1: return b_up(a, 11);
    case 2: return b_up(a, 12);
    case 3: return b_up(a, 10);
    case 4: return b_down(a, 1);
    case 5: return b_down(a, 11);
    case 6: return b_down(a, 12);
    default: return b_down(a, 10);
    }
}

__device__ B128 queen_step(B128 set, B128 empty) {
    B128 out = {0, 0};
    for (int d = 0; d < 8; ++d) {
        B128 t = b_and(b_step(set, d), empty);
        while (b_any(t)) {
            out = b_or(out, t);
            t = b_and(b_step(t, d), empty);
        }
    }
    return out;
}

__device__ B128 king_step(B128 set, B128 empty) {
    B128 out = {0, 0};
    for (int d = 0; d < 8; ++d) out = b_or(out, b_step(set, d));
    return b_and(out, empty);
}

#define AMAZONS_BITS 110
#define UNREACHED 255

// Levels of every reached empty square into dist (UNREACHED elsewhere).
__device__ void flood(B128 start, B128 empty, bool queen, unsigned char* dist) {
    for (int i = 0; i < AMAZONS_BITS; ++i) dist[i] = UNREACHED;
    B128 reached = start, frontier = start;
    unsigned level = 0;
    while (b_any(frontier)) {
        level = level < 254 ? level + 1 : 254;
        B128 next = queen ? queen_step(frontier, empty) : king_step(frontier, empty);
        frontier = b_andnot(next, reached);
        reached = b_or(reached, frontier);
        u64 w = frontier.lo;
        while (w) {
            dist[__ffsll((long long)w) - 1] = (unsigned char)level;
            w &= w - 1;
        }
        w = frontier.hi;
        while (w) {
            dist[64 + __ffsll((long long)w) - 1] = (unsigned char)level;
            w &= w - 1;
        }
    }
}

__device__ __forceinline__ float delta(unsigned n, unsigned m, float k) {
    if (n == UNREACHED && m == UNREACHED) return 0.0f;
    if (n == m) return k;
    return n < m ? 1.0f : -1.0f;
}

__device__ __forceinline__ float pow2_neg(unsigned d) {
    return d == UNREACHED ? 0.0f : exp2f(-(float)d);
}

extern "C" __global__ void amazons_eval(const u64* positions, unsigned count, float* values) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const u64* p = positions + 6 * (size_t)i;
    B128 me = {p[0], p[1]}, other = {p[2], p[3]}, empty = {p[4], p[5]};
    unsigned char q1[AMAZONS_BITS], q2[AMAZONS_BITS], k1[AMAZONS_BITS], k2[AMAZONS_BITS];
    flood(me, empty, true, q1);
    flood(other, empty, true, q2);
    flood(me, empty, false, k1);
    flood(other, empty, false, k2);
    const float k = 0.1f;
    float t1 = 0.0f, t2 = 0.0f, c1 = 0.0f, c2 = 0.0f, w = 0.0f;
    for (int s = 0; s < AMAZONS_BITS; ++s) {
        bool is_empty = s < 64 ? (empty.lo >> s) & 1 : (empty.hi >> (s - 64)) & 1;
        if (!is_empty) continue;
        unsigned a = q1[s], b = q2[s], ka = k1[s], kb = k2[s];
        t1 += delta(a, b, k);
        t2 += delta(ka, kb, k);
        c1 += 2.0f * (pow2_neg(a) - pow2_neg(b));
        if (ka == UNREACHED && kb == UNREACHED) {
        } else if (ka == UNREACHED) {
            c2 -= 1.0f;
        } else if (kb == UNREACHED) {
            c2 += 1.0f;
        } else {
            c2 += fminf(1.0f, fmaxf(-1.0f, ((float)kb - (float)ka) / 6.0f));
        }
        if (a != UNREACHED && b != UNREACHED) w += exp2f(-(float)(a > b ? a - b : b - a));
    }
    float f1 = 5.0f / (w + 5.0f);
    float f4 = w / (w + 20.0f);
    float f23 = (1.0f - f1 - f4) * 0.5f;
    values[i] = f1 * t1 + f23 * c1 + f23 * c2 + f4 * t2;
}
