#!/bin/sh
# CPU checks of the kernels' board code (no GPU needed):
#   hex_exact  the packed board against havannah.cu's HexBoard, move by move
#   hex_block  both playout kernels emulated block-wide, counters compared
#   hex_tactical  the tactical kernels emulated block-wide against the CPU's
#              tactical policy: havannah.cu's exactly (from the kernel's
#              streams), the packed ones within 4.5 standard errors
#              (reference data from `cargo test`, as for go_patterns)
#   go_exact   the Go bitboard replay against go.cu's compact board, and
#              every certain suicide the bitboard skips refused by try_play
#   go_atari   the light board of go_bits_atari.cu: its strings in
#              atari, candidates and plays against brute force and try_play
#   go_rows    the row-per-lane Go kernel (one warp emulated) against the
#              bitboard, position by position, and its replay
#   go_patterns  the Go pattern kernel's helpers against the CPU board on
#              1,180 positions, and the kernel emulated block-wide against
#              the CPU Patterns policy (reference data from `cargo test`)
#   amazons    the Amazons evaluation kernel (kernels/amazons/eval.cu) against
#              the CPU's values on 50,000 random positions (data from `cargo test`)
#   go_points  the point kernels' 3x3 and M2 weights against the CPU's on
#              every point of 315 positions, and the kernels emulated
#              block-wide (one fiber per thread) against the CPU policies:
#              statistics equal to the CPU's from the same random streams,
#              and within 4 standard errors of the CPU's from others; the
#              compact-board kernels' 3x3 and M2 (go.cu) equal too
# (warp_model.sh, beside these, is a measurement rather than a check: see
# go_warp_model.cpp. pattern_digest.sh compares two versions of the pattern
# kernel's code: equal digests, the same playouts.)
# Usage: kernels/hostcheck/run.sh [games] [playouts per leaf] [Go playouts] [go sequences] [row sequences]
#        [point playouts] [atari games] [Havannah tactical playouts]
# (run from the repository; the Go pattern check needs cargo)
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/warpstone-hostcheck
mkdir -p "$out"
# The files of one game's translation unit in the manifest's order
# (kernels/manifest), as paths.
unit() { awk -v game="$1" -v dir="$here/.." '$1 == game { print dir "/" $2 }' "$here/../manifest"; }
# One translation unit as NVRTC sees it, minus the extern "C" entry points.
cat "$here/../common.cuh" $(unit havannah) |
    grep -v '^HEX_ENTRY(\|^HEX_PACKED_ENTRY(' |
    sed 's/extern __shared__ __align__(16) unsigned char dynamic_shared\[\];//' >"$out/src.inc"
g++ -std=c++20 -O2 -w -I"$out" -I"$here" "$here/hex_exact.cpp" -o "$out/hex_exact"
g++ -std=c++20 -O2 -w -pthread -I"$out" -I"$here" "$here/hex_block.cpp" -o "$out/hex_block"
g++ -std=c++20 -O2 -w -pthread -I"$out" -I"$here" "$here/hex_tactical.cpp" -o "$out/hex_tactical"
"$out/hex_exact" "${1:-3000}"
STOP=1 "$out/hex_exact" "${1:-3000}"
"$out/hex_block" "${2:-2000}"
# The Go bitboard board code against go.cu's compact board.
cat "$here/../common.cuh" "$here/../go_weights.cu" "$here/../go.cu" "$here/../go_bitset.cu" "$here/../go_bits.cu" \
    "$here/../go_bits_atari.cu" | grep -v '^GO_ENTRY(\|^GO_BITS_ENTRY(' >"$out/go_src.inc"
g++ -std=c++17 -O2 -w -I"$out" -I"$here" "$here/go_exact.cpp" -o "$out/go_exact"
"$out/go_exact" "${4:-2000}"
g++ -std=c++17 -O2 -w -I"$out" -I"$here" "$here/go_atari.cpp" -o "$out/go_atari"
"$out/go_atari" "${7:-200}"
# Again with a window of 4 words on every size (the whole board on 9x9):
# other window edges, more strings leaving the window.
g++ -std=c++17 -O2 -w -DGA_WINDOW=4 -I"$out" -I"$here" "$here/go_atari.cpp" -o "$out/go_atari4"
"$out/go_atari4" "${7:-200}"
# The row-per-lane kernel against the bitboard (slow: every warp shuffle
# is two barriers of 32 threads).
cat "$here/../common.cuh" "$here/../go_weights.cu" "$here/../go.cu" "$here/../go_bitset.cu" "$here/../go_bits.cu" "$here/../go_rows.cu" |
    grep -v '^GO_ENTRY(\|^GO_BITS_ENTRY(\|^GO_ROWS_ENTRY(' |
    sed 's/extern __shared__ __align__(16) unsigned char dynamic_shared\[\];//' >"$out/go_rows_src.inc"
g++ -std=c++20 -O2 -w -pthread -I"$out" -I"$here" "$here/go_rows.cpp" -o "$out/go_rows"
"$out/go_rows" "${5:-40}"
# The Go pattern kernel: common.cuh, go_weights.cu (the pattern table),
# go.cu, go_bitset.cu, go_bits.cu, go_bits_atari.cu, go_bits_patterns.cu as NVRTC sees
# them, minus the entry points; the CPU side's reference data written by
# src/sim/go_rollout/hostcheck.rs (for go_points too: one cargo run).
cat "$here/../common.cuh" "$here/../go_weights.cu" "$here/../go.cu" "$here/../go_bitset.cu" "$here/../go_bits.cu" \
    "$here/../go_bits_atari.cu" "$here/../go_bits_patterns.cu" |
    grep -v '^GO_ENTRY(\|^GO_BITS_ENTRY(\|^GO_BITS_PATTERNS_ENTRY(' |
    sed 's/extern __shared__ __align__(16) unsigned char dynamic_shared\[\];//' >"$out/go_patterns_src.inc"
g++ -std=c++20 -O2 -w -pthread -I"$out" -I"$here" "$here/go_patterns.cpp" -o "$out/go_patterns"
mkdir -p "$out/go_data"
(cd "$here/../.." && WARPSTONE_HOSTCHECK_DIR="$out/go_data" WARPSTONE_HOSTCHECK_POINT_PLAYOUTS="${6:-400}" \
    cargo test --release --lib -q write_gpu_hostcheck_data >/dev/null)
"$out/go_patterns" "$out/go_data" "${3:-1024}"
# The helpers again with a window of 3 words on 19x19 and 13x13 (the whole
# board on 9x9): more self-atari counts leave the window.
g++ -std=c++20 -O2 -w -pthread -DGA_WINDOW=3 -I"$out" -I"$here" "$here/go_patterns.cpp" -o "$out/go_patterns3"
"$out/go_patterns3" "$out/go_data" 0
# The Amazons evaluation kernel as host C++, against the CPU's values
# (written by the same cargo run: write_gpu_hostcheck_data_amazons).
g++ -std=c++17 -O2 -w -I"$here" "$here/amazons.cpp" -o "$out/amazons"
"$out/amazons" "$out/go_data"
# The 3x3 and M2 policies of the point-per-thread kernels (go_points.cu,
# emulated with fibers, fiber_shim.h) and of go.cu's: common.cuh,
# go_weights.cu, go.cu, go_points.cu.
# The Havannah tactical kernels against the CPU's tactical policy (its
# reference data came with the Go data above).
"$out/hex_tactical" "$out/go_data/havannah_tactical.txt" "${8:-500}"
cat "$here/../common.cuh" "$here/../go_weights.cu" "$here/../go.cu" "$here/../go_points.cu" |
    grep -v '^GO_ENTRY(\|^GO_POINT_ENTRY(' |
    sed 's/extern __shared__ __align__(16) unsigned char dynamic_shared\[\];//' >"$out/go_points_src.inc"
g++ -std=c++20 -O2 -w -I"$out" -I"$here" "$here/go_points.cpp" -o "$out/go_points"
"$out/go_points" "$out/go_data"
