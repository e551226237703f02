// Single-threaded CUDA shims for the Go board code (see go_exact.cpp).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <vector>
#include <random>
#define __device__
#define __global__
#define __host__
#define __forceinline__ inline
#define __constant__
#define __shared__
#define __restrict__
#define __align__(n)
#define __launch_bounds__(...)
struct dim3h { unsigned x = 0, y = 0, z = 0; };
static dim3h blockIdx, threadIdx, blockDim, gridDim;
unsigned char dynamic_shared[1 << 16];
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned sh) { sh &= 31; return sh ? (hi << sh) | (lo >> (32 - sh)) : hi; }
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned sh) { sh &= 31; return sh ? (lo >> sh) | (hi << (32 - sh)) : lo; }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline unsigned __ballot_sync(unsigned, int p) { return p ? 1u : 0u; }
template <class T> inline T __shfl_down_sync(unsigned, T v, int) { return 0; }
inline unsigned atomicAdd(unsigned* a, unsigned v) { unsigned o = *a; *a += v; return o; }
inline int atomicAdd(int* a, int v) { int o = *a; *a += v; return o; }
inline unsigned long long atomicAdd(unsigned long long* a, unsigned long long v) { auto o = *a; *a += v; return o; }
inline void __syncthreads() {}
inline void __syncwarp() {}
inline void __trap() { abort(); }
template <class T> inline T __ldg(const T* p) { return *p; }
inline int __any_sync(unsigned, int p) { return p; }
inline unsigned atomicOr(unsigned* a, unsigned v) { unsigned o = *a; *a |= v; return o; }
