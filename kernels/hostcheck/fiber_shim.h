// CUDA shims for emulating one block on one CPU thread with cooperative
// fibers (see go_points.cpp): every CUDA thread is a fiber with its own
// stack; __syncthreads() and the warp shuffles hand control to the next
// fiber in thread order, so each barrier costs one fiber switch per
// thread. block_shim.h's std::threads need an OS context switch per thread
// and barrier (about 100 us for a 96-thread block on 2 cores), too slow
// for kernels that synchronise a dozen times a move.
//
// Scheduling: fibers run in thread order. A fiber that reaches a block
// barrier resumes the next one; the last to arrive resumes fiber 0, which
// is then past the barrier. Warp barriers (inside the shuffles) do the
// same within the warp. This is correct for code whose barriers are
// reached by every thread of the block (every lane of the warp) in the
// same order, as CUDA requires anyway.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <functional>
#include <memory>
#include <vector>
#if !defined(__x86_64__)
#include <ucontext.h>
#endif
#include "cuda_keywords.h"
alignas(16) static unsigned char dynamic_shared[1 << 16];
struct Dim { unsigned x = 0, y = 0, z = 0; };
static Dim threadIdx, blockIdx, blockDim, gridDim;  // threadIdx: the running fiber's

namespace fiber {
#if defined(__x86_64__)
// Saves the callee-saved registers on the current stack, stores the stack
// pointer in *save, loads `to` and restores the registers saved there.
extern "C" void fiber_switch(void** save, void* to);
asm(R"(
    .text
    .p2align 4
    .globl fiber_switch
    .type fiber_switch, @function
fiber_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size fiber_switch, .-fiber_switch
)");
#endif

const size_t STACK = 256 * 1024;

struct Fiber {
    std::unique_ptr<char[]> stack;
#if defined(__x86_64__)
    void* sp = nullptr;
#else
    ucontext_t ctx;
#endif
};

static std::vector<Fiber> fibers;
static Fiber main_fiber;
static unsigned current = 0, count = 0, finished = 0, block_arrived = 0;
static unsigned warp_arrived[32];
static std::function<void()> body;

static inline void switch_to(Fiber& from, Fiber& to) {
#if defined(__x86_64__)
    fiber_switch(&from.sp, to.sp);
#else
    swapcontext(&from.ctx, &to.ctx);
#endif
}

// Hands over to fiber `next` (or back to the launcher when next == count).
static inline void resume(unsigned next) {
    const unsigned me = current;
    current = next;
    threadIdx.x = next;
    switch_to(fibers[me], next == count ? main_fiber : fibers[next]);
    // Resumed: whoever switched here set current and threadIdx to us.
}

static void entry() {
    body();
    // Every fiber returns from the kernel in thread order; the last one
    // goes back to the launcher.
    ++finished;
    resume(finished == count ? count : current + 1);
    abort();  // never resumed
}

// Runs `f` as a block of `threads` threads; returns when all returned.
static void run_block(unsigned threads, std::function<void()> f) {
    body = std::move(f);
    count = threads;
    finished = block_arrived = 0;
    std::fill(warp_arrived, warp_arrived + 32, 0u);
    fibers.resize(threads);
    for (unsigned t = 0; t < threads; ++t) {
        Fiber& fb = fibers[t];
        if (!fb.stack) fb.stack.reset(new char[STACK]);
#if defined(__x86_64__)
        // Six saved registers, then `entry` as the return address; the
        // stack is 16-byte aligned at sp, so entry starts with rsp = 8 mod 16
        // as after a call.
        uintptr_t top = ((uintptr_t)fb.stack.get() + STACK) & ~(uintptr_t)15;
        void** sp = (void**)(top - 64);
        for (int i = 0; i < 6; ++i) sp[i] = nullptr;
        sp[6] = (void*)&entry;
        sp[7] = nullptr;
        fb.sp = sp;
#else
        getcontext(&fb.ctx);
        fb.ctx.uc_stack.ss_sp = fb.stack.get();
        fb.ctx.uc_stack.ss_size = STACK;
        fb.ctx.uc_link = nullptr;
        makecontext(&fb.ctx, entry, 0);
#endif
    }
    current = 0;
    threadIdx.x = 0;
    switch_to(main_fiber, fibers[0]);
}
}  // namespace fiber

static inline void __syncthreads() {
    using namespace fiber;
    if (count == 1) return;
    if (++block_arrived == count) block_arrived = 0;
    resume((current + 1) % count);
}

// Barrier of the running fiber's warp (lanes of a partial last warp too).
static inline void __syncwarp(unsigned = 0xFFFFFFFFu) {
    using namespace fiber;
    const unsigned warp = current / 32, first = warp * 32;
    const unsigned lanes = std::min(32u, count - first);
    if (lanes == 1) return;
    if (++warp_arrived[warp] == lanes) warp_arrived[warp] = 0;
    resume(first + (current - first + 1) % lanes);
}

namespace fiber {
static unsigned long long xchg[32][32];
template <class T, class Src>
static inline T shuffle(T v, Src src) {
    static_assert(sizeof(T) <= 8, "one word");
    const unsigned warp = current / 32, lane = current & 31;
    unsigned long long bits = 0;
    memcpy(&bits, &v, sizeof(T));
    xchg[warp][lane] = bits;
    __syncwarp();
    const int from = src(lane);
    T r = v;
    if (from >= 0 && from < 32) memcpy(&r, &xchg[warp][from], sizeof(T));
    __syncwarp();
    return r;
}
}  // namespace fiber

template <class T> T __shfl_up_sync(unsigned, T v, int d) {
    return fiber::shuffle(v, [d](unsigned lane) { return lane >= (unsigned)d ? (int)(lane - d) : -1; });
}
template <class T> T __shfl_down_sync(unsigned, T v, int d) {
    return fiber::shuffle(v, [d](unsigned lane) { return (int)(lane + d); });
}
template <class T> T __shfl_sync(unsigned, T v, int src) {
    return fiber::shuffle(v, [src](unsigned) { return src & 31; });
}
static inline unsigned __ballot_sync(unsigned, bool p) {
    using namespace fiber;
    const unsigned warp = current / 32, lane = current & 31;
    xchg[warp][lane] = p;
    __syncwarp();
    unsigned r = 0;
    const unsigned lanes = std::min(32u, count - warp * 32);
    for (unsigned l = 0; l < lanes; ++l) r |= (xchg[warp][l] ? 1u : 0u) << l;
    __syncwarp();
    return r;
}
static inline int __any_sync(unsigned m, bool p) { return __ballot_sync(m, p) != 0; }
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }
// One fiber runs at a time: plain read-modify-writes are atomic.
template <class T, class U> T atomicAdd(T* p, U v) { T o = *p; *p = (T)(o + (T)v); return o; }
static inline unsigned atomicMin(unsigned* p, unsigned v) { unsigned o = *p; *p = std::min(o, v); return o; }
static inline unsigned atomicMax(unsigned* p, unsigned v) { unsigned o = *p; *p = std::max(o, v); return o; }
static inline unsigned atomicOr(unsigned* p, unsigned v) { unsigned o = *p; *p |= v; return o; }
template <class T> static inline T __ldg(const T* p) { return *p; }
static inline void __trap() { abort(); }
