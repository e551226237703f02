// The CUDA keywords as nothing (or `static`, `inline`), so that kernel
// code compiles as host C++; shared by the host shims.
#pragma once
#define __device__
#define __host__
#define __forceinline__ inline
#define __constant__
#define __global__
#define __shared__ static
#define __restrict__
#define __align__(x)
#define __launch_bounds__(...)
