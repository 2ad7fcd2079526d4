#!/usr/bin/env bash
# iosim benchmark: 1,000 applications x 100 iterations on 20 I/O resources, once per sharing policy.
# Prints wall time, controller events per second and max RSS. Usage: analysis/bench.sh [APPS] [ITERATIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
apps=${1:-1000}
iters=${2:-100}
bin=${IOSIM_BIN:-build/iosim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" platform forwarding --set compute="$apps" --set ionodes=20 -o "$work/bench.xml"
python3 - "$apps" "$iters" "$work" <<'PY'
import json, random, sys
apps, iters, work = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(42)
workload = [{"name": f"a{j}", "nodes": 1, "iterations": iters,
             "work": round(rng.uniform(50, 150), 3), "io": round(rng.uniform(0.2e9, 2e9))} for j in range(apps)]
scenario = {"platform": f"{work}/bench.xml", "workload": {"applications": workload},
            "allocation": {"policy": "static"}, "placement": {"policy": "gnc"},
            "sharing": {"policy": "fairshare"}, "output": {"dir": f"{work}/out", "progress": False}}
json.dump(scenario, open(f"{work}/bench.json", "w"))
PY
printf "%-10s %10s %10s %12s %14s %10s\n" policy wall_s events events_per_s rate_changes max_rss_MB
# best-next-event costs milliseconds per decision with ~50 pending transfers: analysis/bench_bne.sh measures it
for policy in $(awk '/^sharing/{f=1;next} /^[a-z]/{f=0} f && /^  [a-z]/{print $1}' <("$bin" policies) | grep -v best-next-event); do
  /usr/bin/time -f "%M" -o "$work/rss" "$bin" run "$work/bench.json" --set sharing.policy="$policy" \
    --out "$work/out-$policy" >/dev/null
  python3 - "$work/out-$policy/results.json" "$(cat "$work/rss")" "$policy" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); rss_mb = int(sys.argv[2]) / 1024
w, e, c = r["wall_time_s"], r["counts"]["events"], r["counts"]["rate_changes"]
print(f"{sys.argv[3]:<10} {w:10.2f} {e:10d} {e / w:12.0f} {c:14d} {rss_mb:10.1f}")
PY
done
