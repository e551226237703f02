#!/bin/sh
# The warp model of the Go bitboard kernel (go_warp_model.cpp; g++ only).
# Usage: kernels/hostcheck/warp_model.sh [warps per size, default 40]
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/warpstone-hostcheck
mkdir -p "$out"
cat "$here/../common.cuh" "$here/../go_weights.cu" "$here/../go.cu" "$here/../go_bitset.cu" "$here/../go_bits.cu" \
    "$here/../go_bits_atari.cu" |
    grep -v '^GO_ENTRY(\|^GO_BITS_ENTRY(' >"$out/go_src.inc"
g++ -std=c++17 -O2 -w -I"$out" -I"$here" "$here/go_warp_model.cpp" -o "$out/go_warp_model"
"$out/go_warp_model" "${1:-40}"
