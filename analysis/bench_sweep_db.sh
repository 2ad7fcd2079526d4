#!/usr/bin/env bash
# iosim campaign output benchmark: the same sweep of deploy/default.json (2 sharing policies x N/2 seeds, default
# N = 2,000 runs) written as the results database alone (the default, OUT/campaign.db) and with per-run directories
# (--run-dirs), one after the other in this run; prints each one's wall time, runs/s, files created and bytes, and
# whether their runs.csv agree (wall times aside). Usage: analysis/bench_sweep_db.sh [RUNS] [JOBS]
# (IOSIM_BIN: the binary, default build/iosim.)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${IOSIM_BIN:-build/iosim}")
runs=${1:-2000}
jobs=${2:-$(nproc)}
work=$(mktemp -d "${TMPDIR:-/tmp}/iosim-bench-db-XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 - "$work" "$PWD/deploy/default.json" "$runs" <<'PY'
import json, sys
work, base, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
json.dump({"name": "bench-db", "base": base, "grid": {"sharing.policy": ["fairshare", "fcfs"]},
           "seeds": {"count": max(1, runs // 2)}}, open(f"{work}/campaign.json", "w"))
PY
t() { # OUT [options]: wall time of one sweep, in seconds
  local out=$1 s=$EPOCHREALTIME
  shift
  "$bin" sweep "$work/campaign.json" --out "$work/$out" --jobs "$jobs" "$@" >/dev/null 2>"$work/$out.err" ||
    { echo "sweep failed:" >&2; tail -3 "$work/$out.err" >&2; exit 1; }
  python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$s" "$EPOCHREALTIME"
}
db=$(t db)
dirs=$(t dirs --run-dirs)
n=$(($(wc -l <"$work/db/runs.csv") - 1))
strip() { python3 -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
wall = [i for i, h in enumerate(rows[0]) if 'wall' in h]
for r in rows:
    print(','.join(v for i, v in enumerate(r) if i not in wall))" "$1"; }
cmp <(strip "$work/db/runs.csv") <(strip "$work/dirs/runs.csv") >/dev/null && same=identical || same=DIFFERENT
printf "campaign: %d runs of deploy/default.json, --jobs %d, %d cores\n" "$n" "$jobs" "$(nproc)"
printf "%-22s %9s %8s %8s %12s %14s\n" output wall_s runs/s files bytes bytes/run
for m in db dirs; do
  w=$([ $m = db ] && echo "$db" || echo "$dirs")
  files=$(find "$work/$m" -type f | wc -l)
  bytes=$(du -sb "$work/$m" | cut -f1)
  label=$([ $m = db ] && echo "campaign.db (default)" || echo "--run-dirs")
  printf "%-22s %9.1f %8.1f %8d %12d %14.0f\n" "$label" "$w" "$(python3 -c "print($n / $w)")" "$files" "$bytes" \
    "$(python3 -c "print($bytes / $n)")"
done
echo "runs.csv of the two: $same (wall times aside)"
