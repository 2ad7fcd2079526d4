#!/usr/bin/env bash
# iosim benchmark: a year of 24,000 storage requests (StorAlloc §5.1) scheduled AND simulated (each job's I/O through
# SimGrid on its allocated disks or on the PFS), on the nNnD and table5 tiers of 32 TB, with Theta-like and TOKIO-size
# requests. Prints the wall time of the whole run, of the SimGrid part, and the max RSS. StorAlloc reports 5 min 9 s
# per run without simulating any I/O. Usage: analysis/bench_storalloc_sim.sh [REQUESTS]
set -euo pipefail
cd "$(dirname "$0")/.."
requests=${1:-24000}
bin=${IOSIM_BIN:-build/iosim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf "%-8s %-11s %9s %8s %10s %14s %11s\n" layout scale requests wall_s sim_wall_s storage_jobs max_rss_MB
for layout in nNnD table5; do
  for scale in theta tokio; do
    if [ "$scale" = theta ]; then sizes=(0.0163 100); else sizes=(1 1); fi
    /usr/bin/time -f "%M" -o "$work/rss" "$bin" run deploy/storalloc-simulated.json --out "$work/out" \
      --set platform.layout="$layout" --set storage.requests.generator.requests="$requests" \
      --set storage.requests.generator.size_scale="${sizes[0]}" \
      --set storage.requests.generator.duration_scale="${sizes[1]}" --set output.progress=false >/dev/null
    python3 - "$work/out/results.json" "$(cat "$work/rss")" "$layout" "$scale" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); m = r["metrics"]
print(f"{sys.argv[3]:<8} {sys.argv[4]:<11} {m['requests']:9d} {r['wall_time_s']:8.2f} {m['simulation_wall_s']:10.2f} "
      f"{m['allocated']:14d} {int(sys.argv[2]) / 1024:11.1f}")
PY
  done
done
