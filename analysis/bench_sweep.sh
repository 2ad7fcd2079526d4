#!/usr/bin/env bash
# iosim campaign benchmark: the same CPU-bound campaign (8 runs of 120 applications x 100 iterations, fairshare and
# maxmin, on a generated 4-I/O-node forwarding platform) with --jobs 1 and with --jobs <cores>; prints both wall
# times and the speed-up. Usage: analysis/bench_sweep.sh [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${IOSIM_BIN:-build/iosim}")
jobs=${1:-$(nproc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
apps = [{"name": f"a{j}", "nodes": 1, "iterations": 100, "work": 50 + j % 7, "io": 2e8 + 1e7 * (j % 5)}
        for j in range(120)]
base = {"platform": {"kind": "forwarding", "compute": 128, "ionodes": 4}, "workload": {"applications": apps}}
json.dump({"name": "bench", "base": base, "grid": {"sharing.policy": ["fairshare", "maxmin"]},
           "seeds": {"count": 4}}, open(f"{work}/campaign.json", "w"))
PY
t() { # wall time of one sweep, in seconds
  local s=$EPOCHREALTIME
  "$bin" sweep "$work/campaign.json" --out "$work/out-$1" --jobs "$1" >/dev/null 2>&1
  python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$s" "$EPOCHREALTIME"
}
one=$(t 1)
many=$(t "$jobs")
cmp <(cut -d, -f1-5,8- "$work/out-1/runs.csv") <(cut -d, -f1-5,8- "$work/out-$jobs/runs.csv") >/dev/null \
  && same="identical" || same="DIFFERENT"
printf "campaign: 8 runs (120 apps x 100 iterations each), %d cores\n" "$(nproc)"
printf "%-10s %10s\n" jobs wall_s
printf "%-10s %10.2f\n" 1 "$one" "$jobs" "$many"
printf "speed-up %.2fx; runs.csv without wall times: %s\n" "$(python3 -c "import sys; print(float(sys.argv[1]) / float(sys.argv[2]))" "$one" "$many")" "$same"
