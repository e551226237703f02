#!/bin/sh
# Builds a Go kernel module for bench.py: the kernel files NVRTC gets in
# the engine (common.cuh first, then the manifest's Go `engine` files, see
# kernels/manifest), plus leaves.cu, one board size's entry
# points only, compiled by NVRTC (nvrtc.py) to PTX and, where ptxas is
# found, to an sm_90 cubin with line info (ptxas -v prints the registers
# and, per kernel, the spill stores and loads).
#   kernels/devbench/build.sh OUT SIZE [-- NVRTC options, e.g. -DGB_SURE_STEPS=2]
# Writes OUT.cu, OUT.ptx and OUT.cubin. Extra kernel files: EXTRA="a.cu b.cu".
set -e
here=$(cd "$(dirname "$0")" && pwd)
k=$here/..
if [ $# -lt 2 ]; then
    echo "usage: kernels/devbench/build.sh OUT SIZE [-- NVRTC options]" >&2
    exit 2
fi
out=$1
size=$2
shift 2
[ "${1:-}" = "--" ] && shift
{
    cat "$k/common.cuh"
    for f in $(awk '$1 == "go" && $3 == "engine" { print $2 }' "$k/manifest") ${EXTRA:-}; do
        printf '#line 1 "%s"\n' "$f"
        cat "$k/$f"
    done
    printf '#line 1 "leaves.cu"\n'
    cat "$here/leaves.cu"
} | awk -v size="$size" '
    # Keep only this size: entry lines start with NAME_ENTRY(size[, ...]).
    match($0, /^[A-Z_]+_ENTRY\([0-9]+/) { n = substr($0, RSTART, RLENGTH); sub(/^[A-Z_]+_ENTRY\(/, "", n); if (n != size) { print ""; next } }
    { print }' >"$out.cu"
python3 "$here/nvrtc.py" "$out.cu" "$out.ptx" "$@"
ptxas=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null || true)
if [ -z "$ptxas" ]; then
    ptxas=$(python3 -c 'import nvidia.cuda_nvcc as m; print(list(m.__path__)[0] + "/bin/ptxas")' 2>/dev/null || true)
fi
if [ -n "$ptxas" ] && [ -x "$ptxas" ]; then
    "$ptxas" -arch=sm_90 -lineinfo -v "$out.ptx" -o "$out.cubin" 2>&1 |
        awk '/Compiling entry function/ { f = $0; sub(/.*function ./, "", f); sub(/. for.*/, "", f); spill = "" }
             /bytes spill stores/ { spill = $0; sub(/^ */, "", spill); sub(/ bytes stack frame,/, " B stack,", spill) }
             /Used [0-9]+ registers/ { print f ": " $0 (spill == "" ? "" : "; " spill) }' |
        sed 's/ptxas info *: //'
fi
