// A digest of the Go pattern kernel's statistics (go_bits_patterns.cu),
// the kernel emulated block-wide on the CPU (block_shim.h: one std::thread
// per lane), for comparing two versions of the kernel code without a GPU:
// a change that plays the same playouts prints the same digests, as
// devbench's bench.py does on the GPU. The leaves are devbench's
// (leaves.cu: random light games, 0 to N*N/2 moves), every other one with
// a last move so that the first move looks around it; the pattern table is
// pseudo-random (about 3/8 of the codes match), so that pattern moves and
// their rejections are played everywhere.
// Usage: pattern_digest [leaves (16)] [playouts a leaf (128)]
#include "block_shim.h"
#include "go_patterns_src.inc"
#include "leaves.inc"
#include <cstdio>

template <class F>
static void launch(unsigned threads, unsigned blocks, unsigned leaves, F f) {
    blockDim.x = threads;
    gridDim.x = blocks;
    gridDim.y = leaves;
    for (unsigned ly = 0; ly < leaves; ++ly)
        for (unsigned bx = 0; bx < blocks; ++bx) {
            blockIdx.x = bx;
            blockIdx.y = ly;
            block_bar = std::make_unique<std::barrier<>>(threads);
            for (unsigned w = 0; w < threads / 32; ++w) warps[w].bar = std::make_unique<std::barrier<>>(32);
            std::vector<std::thread> ts;
            for (unsigned t = 0; t < threads; ++t) ts.emplace_back([t, &f] { threadIdx.x = t; f(); });
            for (auto& t : ts) t.join();
        }
}

template <int N>
static void digest(unsigned leaves, unsigned playouts) {
    std::vector<u8> boards(leaves * N * N);
    std::vector<GoLeaf> info(leaves);
    blockIdx.x = 0;
    blockDim.x = leaves;
    for (unsigned i = 0; i < leaves; ++i) {
        threadIdx.x = i;
        bench_make_leaves<N>(boards.data(), info.data(), leaves, 1234);
    }
    // The last move: the highest point of the side that moved last.
    for (unsigned i = 0; i < leaves; i += 2)
        for (int p = 0; p < N * N; ++p)
            if (boards[i * N * N + p] == (u8)(3 - info[i].to_move)) info[i].last = p;
    const int stride = stats_stride(N * N);
    std::vector<u32> stats(leaves * stride, 0);
    const unsigned threads = 64;  // blocks of any whole warps give the same statistics
    launch(threads, (playouts + threads - 1) / threads, leaves,
           [&] { go_bits_pattern_playouts<N>(boards.data(), info.data(), stats.data(), playouts, 7); });
    u64 h = 1469598103934665603ull, n = 0;
    for (unsigned l = 0; l < leaves; ++l) {
        n += stats[l * stride + 2];
        for (int k = 0; k < stride; ++k) h = (h ^ stats[l * stride + k]) * 1099511628211ull;
    }
    printf("go%d: %llu playouts, digest %016llx\n", N, (unsigned long long)n, (unsigned long long)h);
    fflush(stdout);
}

int main(int argc, char** argv) {
    u64 x = 88172645463325252ull;  // xorshift64
    auto next = [&x] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    };
    for (int i = 0; i < 1024; ++i) {
        const u64 a = next() & next() & next(), b = next();
        go_pattern_table[i] = a | (b & (b >> 1));
    }
    const unsigned leaves = argc > 1 ? (unsigned)atoi(argv[1]) : 16, playouts = argc > 2 ? (unsigned)atoi(argv[2]) : 128;
    digest<9>(leaves, playouts);
    digest<13>(leaves, playouts);
    digest<19>(leaves, playouts);
    return 0;
}
