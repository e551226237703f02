#!/usr/bin/env bash
# Havannah search speed against the thread count, beside two controls
# that share nothing: for each T, `bench --search` with T threads on one
# tree (its first lines time the playouts alone on T threads: the search's
# policy, `bridge`, per thread), then T separate one-thread searches at
# once (T processes). What the processes, or the playouts alone, lose per
# thread against one is the machine's (cores that share a physical core,
# a clock that drops with the cores in use, memory); what the threads of
# one tree lose beyond that is the tree's.
#
# usage: scripts/search-scaling.sh [BINARY] [SECONDS] [THREADS...]
#   defaults: target/release/warpstone, 5, 1 2 4 8 16
# Prints per T: the search's iterations/s (summed over the processes),
# iterations a CPU second and speed-up over T=1; for the threads, the
# playouts/s a thread alone.
set -euo pipefail
bin=${1:-target/release/warpstone}
secs=${2:-5}
shift $(($# > 2 ? 2 : $#))
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1 2 4 8 16)
[ -x "$bin" ] || { echo "no executable $bin" >&2; exit 2; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 2; }
lscpu 2>/dev/null | grep -E '^Model name|^CPU\(s\)|Thread\(s\) per core|Core\(s\) per socket' >&2 || true
uptime >&2

bench() { # threads
  "$bin" --game havannah bench --backend cpu --size 8 --search --seconds "$secs" --threads "$1" 2>/dev/null |
    grep -E '"search"|"bridge"'
}
# Sums the JSON lines on stdin: iterations/s and iterations per CPU second.
rates() {
  python3 -c '
import json, sys
lines = [json.loads(l) for l in sys.stdin if l.strip()]
runs = [r for r in lines if r["mode"] == "search"]
alone = [r["playouts_per_second_per_thread"] for r in lines if r["mode"] == "playouts"]
it = sum(r["iterations"] for r in runs)
its = sum(r["iterations_per_second"] for r in runs)
cpu = sum(r["cpu_seconds"] for r in runs)
print(f"{its} {round(it / cpu) if cpu else 0} {alone[0] if alone else 0}")'
}

base_threads=""
base_procs=""
for t in "${counts[@]}"; do
  read -r its itcpu alone < <(bench "$t" | rates)
  base_threads=${base_threads:-$its}
  printf 'threads   %2d: %7d it/s  %6d it/CPU-s  %5.2fx  (playouts alone: %d/s a thread)\n' \
    "$t" "$its" "$itcpu" "$(python3 -c "print($its / $base_threads)")" "$alone"
  dir=$(mktemp -d)
  for p in $(seq 1 "$t"); do bench 1 > "$dir/$p" & done
  wait
  read -r its itcpu _ < <(cat "$dir"/* | grep '"search"' | rates)
  rm -rf "$dir"
  base_procs=${base_procs:-$its}
  printf 'processes %2d: %7d it/s  %6d it/CPU-s  %5.2fx\n' "$t" "$its" "$itcpu" \
    "$(python3 -c "print($its / $base_procs)")"
done
uptime >&2
