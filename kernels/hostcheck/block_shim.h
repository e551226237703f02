// CUDA shims for emulating one block with std::threads (see hex_block.cpp).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <atomic>
#include <barrier>
#include <thread>
#include <vector>
#include <memory>
#include "cuda_keywords.h"
alignas(16) static unsigned char dynamic_shared[1 << 20];
struct Dim { unsigned x = 0, y = 0, z = 0; };
static thread_local Dim threadIdx;
static Dim blockIdx, blockDim, gridDim;
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static std::unique_ptr<std::barrier<>> block_bar;
struct WarpSync { std::unique_ptr<std::barrier<>> bar; std::atomic<unsigned> acc{0}; unsigned long long xchg[32]; };
static WarpSync warps[32];
static inline void __syncthreads() { block_bar->arrive_and_wait(); }
static inline unsigned __ballot_sync(unsigned, bool p) {
    WarpSync& w = warps[threadIdx.x / 32];
    if (p) w.acc.fetch_or(1u << (threadIdx.x & 31));
    w.bar->arrive_and_wait();
    unsigned r = w.acc.load();
    w.bar->arrive_and_wait();
    if ((threadIdx.x & 31) == 0) w.acc.store(0);
    w.bar->arrive_and_wait();
    return r;
}
static inline int __any_sync(unsigned m, bool p) { return __ballot_sync(m, p) != 0; }
template <class T, class U> T atomicAdd(T* p, U v) { return __atomic_fetch_add(p, (T)v, __ATOMIC_SEQ_CST); }
// For the Go kernels (go_bits.cu, go_bits_patterns.cu).
// Any lane-to-lane exchange: lane l gets the value of lane src(l), or its
// own when src(l) is outside the warp (the hardware's rule).
template <class T, class Src> T warp_exchange(T v, Src src) {
    static_assert(sizeof(T) <= 8);
    WarpSync& w = warps[threadIdx.x / 32];
    const int lane = threadIdx.x & 31;
    unsigned long long bits = 0;
    memcpy(&bits, &v, sizeof(T));
    w.xchg[lane] = bits;
    w.bar->arrive_and_wait();
    T r = v;
    const int from = src(lane);
    if (from >= 0 && from < 32) memcpy(&r, &w.xchg[from], sizeof(T));
    w.bar->arrive_and_wait();
    return r;
}
template <class T> T __shfl_down_sync(unsigned, T v, int d) { return warp_exchange(v, [d](int l) { return l + d; }); }
// For go_rows.cu.
template <class T> T __shfl_up_sync(unsigned, T v, int d) { return warp_exchange(v, [d](int l) { return l - d; }); }
template <class T> T __shfl_sync(unsigned, T v, int src) { return warp_exchange(v, [src](int) { return src; }); }
template <class T> T __shfl_xor_sync(unsigned, T v, int m) { return warp_exchange(v, [m](int l) { return l ^ m; }); }
static inline unsigned atomicOr(unsigned* p, unsigned v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
static inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned sh) { sh &= 31; return sh ? (hi << sh) | (lo >> (32 - sh)) : hi; }
static inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned sh) { sh &= 31; return sh ? (lo >> sh) | (hi << (32 - sh)) : lo; }
static inline int __ffs(int x) { return __builtin_ffs(x); }
template <class T> static inline T __ldg(const T* p) { return *p; }
static inline void __trap() { abort(); }
