#!/usr/bin/env bash
# The cost of a Paje trace (docs/trace.md "Cost"): deploy/ scenarios run untraced, with every transfer a SimGrid flow
# (engine.flows=simgrid) and traced (output.trace), one process at a time; prints applications, events, rate changes,
# wall s and peak RSS of each (/usr/bin/time) and the trace's size as a Markdown table.
# Usage: analysis/bench_trace.sh [--all]   (--all adds storalloc-simulated: minutes traced)
# Env: IOSIM_BIN (default build/iosim), IOSIM_DATA_DIR, IOSIM_CROSSCHECK_DIR (default ../shared/crosscheck/rr9502).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${IOSIM_BIN:-build/iosim}")
cc=${IOSIM_CROSSCHECK_DIR:-../shared/crosscheck/rr9502}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cases=("default" "apex-window" "rr9502-synthetic"
       "rr9502-window --set workload.file=$cc/instances/w0.8-nH20-b0.5-s0.5_seed1.txt")
[ "${1:-}" = "--all" ] && cases+=("storalloc-simulated")
one() { # OUT ARGS...: "wall s, RSS MB" of one run
  local out=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$bin" run "$@" --set output.progress=false --out "$out" >/dev/null 2>&1
  read -r s kb < <(tail -1 "$work/time")
  printf "%s s, %d MB" "$s" $((kb / 1024))
}
echo "| scenario | applications | events | rate changes | untraced | engine.flows=simgrid | traced | trace.paje |"
echo "|---|---|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
  read -r name extra <<<"$c"
  # shellcheck disable=SC2086
  u=$(one "$work/u" deploy/$name.json $extra)
  # shellcheck disable=SC2086
  f=$(one "$work/f" deploy/$name.json $extra --set engine.flows=simgrid)
  # shellcheck disable=SC2086
  t=$(one "$work/t" deploy/$name.json $extra --set output.trace=true)
  counts=$(/usr/bin/python3 -c 'import json,sys; c=json.load(open(sys.argv[1])).get("counts",{}); print(c.get("applications",""), c.get("events",""), c.get("rate_changes",""))' "$work/u/results.json" 2>/dev/null || echo "? ? ?")
  read -r na ne nr <<<"$counts"
  size=$(du -k "$work/t/trace.paje" 2>/dev/null | cut -f1)
  echo "| $name | $na | $ne | $nr | $u | $f | $t | ${size:-?} kB |"
done
