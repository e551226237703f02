#!/usr/bin/env bash
# The Amazons on a GPU machine (no Rust there): the evaluation kernel's
# rate against one CPU thread with the largest |GPU - CPU|, the search's
# iterations/s on the GPU evaluator and on the CPU, and optionally the
# ignored GPU tests and a GPU-engine-vs-CPU-engine match. Build here first:
#
#   cargo build --release && mkdir -p .gpu && cp target/release/warpstone .gpu/
#   # for `tests`: the library's test binary too
#   cargo test --release --lib --no-run 2>&1 | grep -o 'target/release/deps/warpstone-[0-9a-f]*' \
#       | head -1 | xargs -I{} cp {} .gpu/warpstone-lib-tests
#
# then on the GPU machine, from the repository root:
#
#   scripts/amazons-gpu.sh bench          # kernel, with-copies and expansion rates, search (about 2 minutes)
#   scripts/amazons-gpu.sh tests          # GPU = CPU on 100,000 positions; 4 threads at once; GPU search plays legal moves
#   scripts/amazons-gpu.sh match FIRST N  # games FIRST..FIRST+N-1 of the 100-game match, 1 s a move
#                                         # (JOBS=4 at once, a GPU each where there are GPUS; THREADS an engine)
#
# WARPSTONE overrides the binary.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${WARPSTONE:-.gpu/warpstone}
if [[ ! -x $bin ]]; then
    echo "amazons-gpu: no binary at $bin (build with cargo build --release and copy it to .gpu/)" >&2
    exit 2
fi
# libcuda and libnvrtc are loaded at run time: find NVRTC.
source scripts/nvrtc-path.sh

threads=$(nproc)
case ${1:-bench} in
bench)
    "$bin" --game amazons bench --backend cuda --size 10 --seconds 10 --search --threads "$threads"
    ;;
tests)
    .gpu/warpstone-lib-tests --ignored --nocapture amazons
    ;;
match)
    first=${2:-1}
    games=${3:-10}
    # Equal time and threads; JOBS games at once (default 4). Game slot j's
    # GPU engine runs on GPU j mod GPUS (default: every GPU the machine
    # has), and both its engines on the slot's own cores. Processes
    # time-slice one GPU: with 4 GPU engines on one GPU each expands about
    # 2.3 times slower than alone (docs/amazons.md), so give each its own.
    jobs=${JOBS:-4}
    gpus=${GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)}
    gpus=$((gpus > 0 ? gpus : 1))
    cores=$((threads / jobs > 0 ? threads / jobs : 1))
    per_engine=${THREADS:-$((cores / 2 > 0 ? cores / 2 : 1))}
    pin=""
    command -v taskset >/dev/null && pin="taskset -c {cores:$cores} "
    scripts/match --game amazons --size 10 --seed 27 --first-game "$first" --games "$games" \
        --time-per-move 1 --jobs "$jobs" --sgf-dir amazons-gpu-games \
        --engine1 "$pin$bin --game amazons --backend cuda --gpus {job%$gpus} --threads $per_engine --seed {seed}" \
        --engine2 "$pin$bin --game amazons --backend cpu --threads $per_engine --seed {seed}"
    ;;
*)
    echo "usage: scripts/amazons-gpu.sh bench|tests|match [FIRST [N]]" >&2
    exit 2
    ;;
esac
