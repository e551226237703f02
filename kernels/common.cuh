// Shared device helpers for every Warpstone kernel.
//
// The host prepends this file to each kernel source before handing it to
// NVRTC (one translation unit, no include paths, no named headers), so the
// kernel files do not #include it. NVRTC ships no libc headers either, hence
// the plain typedefs below instead of <stdint.h>.

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;
typedef long long i64;

// xorshift64*, bit-for-bit the CPU's `FastRng` (src/sim/rng.rs), so that a
// seed means the same stream on both sides.
struct Rng {
    u64 state;

    __device__ explicit Rng(u64 seed) {
        u64 z = seed + 0x9E3779B97F4A7C15ULL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        state = z == 0 ? 0x2545F4914F6CDD1DULL : z;
    }

    __device__ __forceinline__ u64 next_u64() {
        u64 x = state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        state = x;
        return x * 0x2545F4914F6CDD1DULL;
    }

    __device__ __forceinline__ u32 next_u32() { return (u32)(next_u64() >> 32); }

    // Uniform in 0..n (n > 0) by multiply-shift, as FastRng::below.
    __device__ __forceinline__ u32 below(u32 n) {
        return (u32)(((u64)next_u32() * (u64)n) >> 32);
    }

    // Uniform in [0, 1) with 24 bits, as FastRng::next_f32.
    __device__ __forceinline__ float next_f32() { return (float)(next_u32() >> 8) * (1.0f / 16777216.0f); }
};

// The stream of one playout: the leaf's stream (as the CPU simulator derives
// it) mixed with the playout number, so results do not depend on how the
// launch is cut into blocks.
__device__ __forceinline__ u64 playout_seed(u64 seed, u32 leaf, u32 playout) {
    return seed ^ ((u64)leaf * 0x9E3779B97F4A7C15ULL) ^ ((u64)(playout + 1) * 0xD1B54A32D192ED03ULL);
}

// Per-leaf statistics block in global memory, one per leaf, `stride` u32s:
//   [0..2)  score sum (i64, two's complement in a u64; Black minus White,
//           in half points so komi x.5 stays integral)
//   [2]     playouts
//   [3]     Black wins in half wins (a draw adds 1, a win 2)
//   [4 + 2*m + c]           AMAF first plays of move m by colour c
//   [4 + 2*M + 2*m + c]     of those, Black half wins
//   [4 + 4*M + m]           ownership sum (i32: +1 Black, -1 White)
// where M is the number of move indices (board points/cells).
__host__ __device__ __forceinline__ u32 stats_stride(u32 moves) {
    return (4 + 5 * moves + 1) & ~1u;
}

// Block-level accumulators in shared memory, flushed once per block.
struct SharedStats {
    u64 score2;
    u32 playouts;
    u32 wins2;
};

// Adds a block's shared accumulators to the leaf's global block. Shared
// layout mirrors the global one from index 4 on.
__device__ void flush_stats(u32* leaf_stats, const u32* shared_tables, const SharedStats* head,
                            u32 moves) {
    u32 n = 5 * moves;
    for (u32 i = threadIdx.x; i < n; i += blockDim.x) {
        u32 v = shared_tables[i];
        if (v != 0) atomicAdd(&leaf_stats[4 + i], v);
    }
    if (threadIdx.x == 0) {
        atomicAdd((u64*)leaf_stats, head->score2);
        atomicAdd(&leaf_stats[2], head->playouts);
        atomicAdd(&leaf_stats[3], head->wins2);
    }
}

__device__ void clear_shared(u32* shared_tables, SharedStats* head, u32 moves) {
    for (u32 i = threadIdx.x; i < 5 * moves; i += blockDim.x) shared_tables[i] = 0;
    if (threadIdx.x == 0) {
        head->score2 = 0;
        head->playouts = 0;
        head->wins2 = 0;
    }
    __syncthreads();
}

// Records one finished playout into the block's accumulators. `first[m]` is
// 0 (nobody), 1 (Black) or 2 (White played m first); `owner(m)` the final
// owner (+1, -1, 0). `black_half_wins` is 2, 1 or 0.
template <typename OwnerFn>
__device__ __forceinline__ void record_playout(u32* shared_tables, SharedStats* head, u32 moves,
                                               const u8* first, OwnerFn owner, i32 score2,
                                               u32 black_half_wins) {
    for (u32 m = 0; m < moves; ++m) {
        u32 f = first[m];
        if (f != 0) {
            u32 c = f - 1;
            atomicAdd(&shared_tables[2 * m + c], 1u);
            if (black_half_wins) atomicAdd(&shared_tables[2 * moves + 2 * m + c], black_half_wins);
        }
        i32 o = owner(m);
        if (o != 0) atomicAdd((i32*)&shared_tables[4 * moves + m], o);
    }
    atomicAdd(&head->score2, (u64)(i64)score2);
    atomicAdd(&head->playouts, 1u);
    atomicAdd(&head->wins2, black_half_wins);
}
