#!/usr/bin/env bash
# The one command to run on a GPU machine after changing GPU code:
# exact replays and statistical checks against the CPU rules, then the
# playout benchmark. The GPU machine has no Rust toolchain, so build the
# binary elsewhere and copy it into .gpu/ (an ignored folder) first:
#
#   cargo build --release && mkdir -p .gpu && cp target/release/warpstone .gpu/
#   # on the GPU machine, from the repository root:
#   scripts/gpu-check.sh            # full check + bench
#   scripts/gpu-check.sh quick      # fewer sequences and playouts
#
# WARPSTONE overrides the binary; extra arguments after the mode go to
# `check-gpu`. The CPU side of the statistical check is computed here, so
# that the per-point tables (AMAF first plays, their wins, ownership) are
# compared too: about a minute on 16 cores. `--cache FILE` after the mode
# reuses cached CPU win rates instead (written by `warpstone check-gpu
# --cpu-only --cache FILE` on another machine) and skips the tables.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${WARPSTONE:-.gpu/warpstone}
if [[ ! -x $bin ]]; then
    echo "gpu-check: no binary at $bin (build with cargo build --release and copy it to .gpu/)" >&2
    exit 2
fi

# libcuda and libnvrtc are loaded at run time: find NVRTC.
source scripts/nvrtc-path.sh

mode=${1:-full}
shift || true
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true

if [[ $mode == quick ]]; then
    "$bin" check-gpu --sequences 1000 --positions 5 --gpu-playouts 20000 --cpu-playouts 5000 "$@"
else
    "$bin" check-gpu --sequences 10000 --positions 20 --gpu-playouts 100000 --cpu-playouts 100000 "$@"
fi
"$bin" bench --backend cuda --game go --sizes 9,13,19 --leaves 256 --playouts 2048
"$bin" bench --backend cuda --game havannah --sizes 4,8,10 --leaves 256 --playouts 2048
# The whole search: playouts backed up into the tree per second against the
# raw kernel rate, with the light kernel and 256 leaves x 512 playouts a
# launch (the pipeline's capacity; play defaults to 32 playouts a leaf,
# which is stronger and tree-bound), then with the engine's defaults.
"$bin" bench --backend cuda --search --seconds 5 --size 9 --gpu-policy random --gpu-playouts 512
"$bin" bench --backend cuda --search --seconds 5 --size 19 --gpu-policy random --gpu-playouts 512
# Havannah: the tactical policy (the default), then the uniform fill.
"$bin" --game havannah bench --backend cuda --search --seconds 5 --size 10 --gpu-playouts 512
"$bin" --game havannah bench --backend cuda --search --seconds 5 --size 10 --gpu-playouts 512 --gpu-policy random
"$bin" bench --backend cuda --search --seconds 5 --size 9
# The 19x19 search with the engine's defaults (the pattern kernel).
"$bin" bench --backend cuda --search --seconds 5 --size 19
# All-moves mode: every legal move rated with 2048 playouts in one batch.
"$bin" bench --backend cuda --all-moves --playouts 2048
