#!/bin/sh
# Digests of the Go pattern kernel's statistics, emulated on the CPU
# (pattern_digest.cpp), for checking that a change to the kernel code plays
# the same playouts: run it on the kernel files before and after, e.g.
#   mkdir -p /tmp/k && git archive main kernels | tar -x -C /tmp/k
#   kernels/hostcheck/pattern_digest.sh /tmp/k/kernels; kernels/hostcheck/pattern_digest.sh
# Usage: kernels/hostcheck/pattern_digest.sh [KERNELS_DIR] [leaves] [playouts a leaf]
# (about two minutes on two cores with the defaults).
set -e
here=$(cd "$(dirname "$0")" && pwd)
k=${1:-$here/..}
out=${TMPDIR:-/tmp}/warpstone-pattern-digest
mkdir -p "$out"
cat "$k/common.cuh" "$k/go_weights.cu" "$k/go.cu" "$k/go_bitset.cu" "$k/go_bits.cu" \
    "$k/go_bits_atari.cu" "$k/go_bits_patterns.cu" |
    grep -v '^GO_ENTRY(\|^GO_BITS_ENTRY(\|^GO_BITS_PATTERNS_ENTRY(' |
    sed 's/extern __shared__ __align__(16) unsigned char dynamic_shared\[\];//' >"$out/go_patterns_src.inc"
grep -v '^BENCH_LEAVES_ENTRY(' "$k/devbench/leaves.cu" >"$out/leaves.inc"
g++ -std=c++20 -O2 -w -pthread -I"$out" -I"$here" "$here/pattern_digest.cpp" -o "$out/pattern_digest"
"$out/pattern_digest" "${2:-16}" "${3:-128}"
