#!/usr/bin/env python3
"""Stand-alone benchmark of the Go bitboard playout kernels (CUDA driver API
through ctypes: no nvcc, no Rust, no packages), for comparing kernel
variants on the GPU machine. build.sh compiles the kernel files into a
cubin (or PTX); this loads it, makes the leaves with leaves.cu, times the
named kernel and prints playouts a second and a digest of the statistics.

A variant that only changes how the same playouts are computed must print
the same digest as the kernel it replaces (playouts depend only on seed,
leaf and playout index). --dump writes each leaf's playouts and half wins,
one line a leaf, for comparing variants that draw moves differently (their
digests differ; their win rates must agree within the playouts' noise).

  bench.py MODULE KERNEL [--size 19] [--leaves 256] [--playouts 2048]
           [--reps 3] [--block 128] [--blocks-per-leaf 0 (whole waves)]
           [--seed 7] [--dump FILE]
"""
import argparse
import ctypes
import struct
import sys

cu = ctypes.CDLL("libcuda.so.1")


def check(rc, what):
    if rc != 0:
        msg = ctypes.c_char_p()
        cu.cuGetErrorString(rc, ctypes.byref(msg))
        sys.exit(f"{what}: CUDA error {rc} {msg.value.decode() if msg.value else ''}")


def stats_stride(moves):
    return (4 + 5 * moves + 1) & ~1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("module")
    ap.add_argument("kernel")
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--leaves", type=int, default=256)
    ap.add_argument("--playouts", type=int, default=2048)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--block", type=int, default=128)
    ap.add_argument("--blocks-per-leaf", type=int, default=0)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--dump")
    a = ap.parse_args()

    check(cu.cuInit(0), "cuInit")
    dev = ctypes.c_int()
    check(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    ctx = ctypes.c_void_p()
    check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    image = open(a.module, "rb").read()
    if a.module.endswith(".ptx"):
        image += b"\0"
    mod = ctypes.c_void_p()
    check(cu.cuModuleLoadData(ctypes.byref(mod), image), "cuModuleLoadData")

    def function(name):
        f = ctypes.c_void_p()
        check(cu.cuModuleGetFunction(ctypes.byref(f), mod, name.encode()), f"kernel {name}")
        return f

    kern = function(a.kernel)
    make = function(f"bench_make_leaves_{a.size}")
    regs = ctypes.c_int()
    check(cu.cuFuncGetAttribute(ctypes.byref(regs), 4, kern), "registers")
    sms = ctypes.c_int()
    check(cu.cuDeviceGetAttribute(ctypes.byref(sms), 16, dev), "SMs")
    resident = ctypes.c_int()
    check(cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(ctypes.byref(resident), kern, a.block, 0), "occupancy")
    per_leaf = a.blocks_per_leaf
    if per_leaf == 0:
        # Whole waves, as src/sim/cuda/grid.rs chooses them.
        total_resident = resident.value * sms.value
        most = -(-a.playouts // a.block)
        best = -1.0
        for b in range(1, most + 1):
            total = a.leaves * b
            waves = total / (-(-total // total_resident) * total_resident)
            warps = b * (a.block // 32)
            rounds_needed = -(-a.playouts // 32)
            rounds = rounds_needed / (-(-rounds_needed // warps) * warps)
            if waves * rounds >= best:
                best, per_leaf = waves * rounds, b
    print(f"{a.kernel}: {regs.value} registers, {resident.value} blocks of {a.block} per SM, "
          f"{sms.value} SMs, {per_leaf} blocks per leaf", flush=True)

    points = a.size * a.size
    stride = stats_stride(points)

    def alloc(n):
        p = ctypes.c_uint64()
        check(cu.cuMemAlloc_v2(ctypes.byref(p), n), "cuMemAlloc")
        return p

    boards, leaves, stats = alloc(a.leaves * points), alloc(a.leaves * 20), alloc(a.leaves * stride * 4)

    def launch(f, grid, block, args):
        holders = [ctypes.c_uint64(v) if kind == "p" or kind == "q" else ctypes.c_uint32(v) for kind, v in args]
        ptrs = (ctypes.c_void_p * len(holders))(*[ctypes.cast(ctypes.byref(h), ctypes.c_void_p) for h in holders])
        check(cu.cuLaunchKernel(f, grid[0], grid[1], 1, block, 1, 1, 0, None, ptrs, None), "cuLaunchKernel")

    launch(make, (-(-a.leaves // 64), 1), 64,
           [("p", boards.value), ("p", leaves.value), ("u", a.leaves), ("q", 1234)])
    check(cu.cuCtxSynchronize(), "leaves")
    t0, t1 = ctypes.c_void_p(), ctypes.c_void_p()
    check(cu.cuEventCreate(ctypes.byref(t0), 0), "event")
    check(cu.cuEventCreate(ctypes.byref(t1), 0), "event")
    host = (ctypes.c_uint32 * (a.leaves * stride))()
    for r in range(a.reps):
        check(cu.cuMemsetD8_v2(stats, 0, a.leaves * stride * 4), "memset")
        check(cu.cuEventRecord(t0, None), "record")
        launch(kern, (per_leaf, a.leaves), a.block,
               [("p", boards.value), ("p", leaves.value), ("p", stats.value), ("u", a.playouts), ("q", a.seed)])
        check(cu.cuEventRecord(t1, None), "record")
        check(cu.cuEventSynchronize(t1), "kernel")
        ms = ctypes.c_float()
        check(cu.cuEventElapsedTime(ctypes.byref(ms), t0, t1), "elapsed")
        check(cu.cuMemcpyDtoH_v2(host, stats, a.leaves * stride * 4), "copy")
        n = wins = score = 0
        h = 1469598103934665603
        for leaf in range(a.leaves):
            s = host[leaf * stride:(leaf + 1) * stride]
            score += struct.unpack("<q", struct.pack("<II", s[0], s[1]))[0]
            n += s[2]
            wins += s[3]
            for v in s[4:]:
                h = ((h ^ v) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
        print(f"rep {r}: {ms.value:.3f} ms, {a.leaves * a.playouts / ms.value / 1e3:.3f} M playouts/s; "
              f"playouts {n} half-wins {wins} score2 {score} tables {h:016x}", flush=True)
    if a.dump:
        with open(a.dump, "w") as f:
            for leaf in range(a.leaves):
                s = host[leaf * stride:(leaf + 1) * stride]
                f.write(f"{leaf} {s[2]} {s[3]}\n")


if __name__ == "__main__":
    main()
