#!/usr/bin/env bash
# iosim benchmark of sharing `best-next-event` (RR-9502 §4.3, Appendix A): wall time of one whole steady-state
# window of a 60-application RR-9502 instance (deploy/rr9502-window.json, default the cross-check instance
# w0.5-nH20-b0.5-s0.5_seed1), and the time per decision (results.json: wall_time_s / counts.events). FairShare on
# the same instance is printed first: its time per event is the engine's own cost, the rest of BNE's is the policy.
#
# For comparison, RR-9502 §6.3.7 (Fig. 13) reports the authors' simulation times per APEX window: BestNextEvent
# takes seconds (at most about a minute), LookAheadGreedyYield tens of milliseconds, the other strategies about ten
# times less. Their windows are APEX ones, not these 2e6 s synthetic ones with ~1e5 events: compare the time per
# decision and how it grows with the number of pending transfers rather than the totals.
#
# Usage: analysis/bench_bne.sh [INSTANCE.txt]   (env: IOSIM_BIN, default build/iosim; IOSIM_CROSSCHECK_DIR, default
# ../shared/crosscheck/rr9502)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${IOSIM_BIN:-build/iosim}
inst=${1:-${IOSIM_CROSSCHECK_DIR:-../shared/crosscheck/rr9502}/instances/w0.5-nH20-b0.5-s0.5_seed1.txt}
[ -r "$inst" ] || { echo "bench_bne.sh: cannot read instance $inst (give one as argument)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "instance $(basename "$inst")"
printf "%-16s %10s %10s %16s %10s %10s %12s\n" policy wall_s events us_per_decision min_yield efficiency utilization
for policy in fairshare best-next-event; do
  "$bin" run deploy/rr9502-window.json --set workload.file="$inst" --set sharing.policy="$policy" \
    --set output.progress=false --out "$work/out-$policy" >/dev/null
  python3 - "$work/out-$policy/results.json" "$policy" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
w, e, m = r["wall_time_s"], r["counts"]["events"], r["metrics"]
print(f"{sys.argv[2]:<16} {w:10.2f} {e:10d} {1e6 * w / max(e, 1):16.1f} {m['min_yield']:10.6f} {m['efficiency']:10.6f}"
      f" {m['utilization']:12.6f}")
PY
done
