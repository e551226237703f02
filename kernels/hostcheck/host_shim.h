// Just enough CUDA for the kernels' board code to compile as host C++.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
static unsigned char dynamic_shared[1<<20];
#include "cuda_keywords.h"
struct Dim { unsigned x = 0, y = 0, z = 0; };
static Dim threadIdx, blockIdx, blockDim, gridDim;
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline void __syncthreads() {}
static inline unsigned __ballot_sync(unsigned, bool b) { return b; }
static inline int __any_sync(unsigned, bool b) { return b; }
template <class T, class U> T atomicAdd(T* p, U v) { T o = *p; *p += (T)v; return o; }
