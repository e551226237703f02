#!/bin/sh
# Nsight Compute profile of one kernel run by bench.py, on the GPU machine:
# per-SASS-instruction execution counts (warp and thread level) as CSV, to
# join with the cubin's disassembly (nvdisasm -gi -c MODULE.cubin) by
# address; plus the warp-state and throughput summaries.
#   kernels/devbench/profile.sh MODULE.cubin KERNEL OUTDIR [bench.py options]
set -e
here=$(cd "$(dirname "$0")" && pwd)
module=$1
kernel=$2
outdir=$3
shift 3
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
mkdir -p "$outdir"
"$ncu" --section SourceCounters --section WarpStateStats --section ComputeWorkloadAnalysis \
    --section SpeedOfLight --section Occupancy --section LaunchStats --kernel-name "$kernel" \
    --launch-count 1 -f -o "$outdir/$kernel" python3 "$here/bench.py" "$module" "$kernel" --reps 1 "$@"
"$ncu" -i "$outdir/$kernel.ncu-rep" --page source --csv --print-source sass >"$outdir/$kernel.sass.csv"
"$ncu" -i "$outdir/$kernel.ncu-rep" --page details --csv >"$outdir/$kernel.details.csv"
