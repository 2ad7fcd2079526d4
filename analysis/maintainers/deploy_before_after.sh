#!/usr/bin/env bash
# Every deploy/ scenario (and the two small sweeps of analysis/maintainers/same_outputs.sh) with an OLD and a NEW iosim binary,
# compared metric by metric across output formats that grew in between (analysis/maintainers/outputs_diff.py: new columns, keys
# and files listed apart), and each differing scenario's first divergence located (analysis/maintainers/first_divergence.py:
# the order of simultaneous completions, or values). docs/engine.md "Exactness".
# Usage (from the repository root, IOSIM_DATA_DIR set):
#   analysis/maintainers/deploy_before_after.sh [--set KEY=VALUE]... [--keep DIR] OLD_IOSIM NEW_IOSIM
# --set adds a scenario setting to every run (e.g. --set engine.flows=simgrid); --keep DIR keeps both output trees
# there (DIR/old, DIR/new). Environment given to NEW only: NEW_ENV="IOSIM_FLOW_RERATE=restart IOSIM_FLOW_GROUPS=0"
# (the NEW flow path re-rating by cancel + restart, without flow groups). Exit 0 when no shared metric differs beyond
# 1e-9 relative, 1 otherwise, 2 on bad arguments.
set -uo pipefail
sets=()
keep=
while [ $# -gt 2 ]; do
  case $1 in
  --set) sets+=(--set "$2"); shift 2 ;;
  --keep) keep=$2; shift 2 ;;
  *) break ;;
  esac
done
[ $# -eq 2 ] || { echo "usage: $0 [--set KEY=VALUE]... [--keep DIR] OLD_IOSIM NEW_IOSIM (from the repository root, IOSIM_DATA_DIR set)" >&2; exit 2; }
[ -n "${IOSIM_DATA_DIR:-}" ] || { echo "$0: set IOSIM_DATA_DIR (e.g. ../shared/datasets)" >&2; exit 2; }
for b in "$1" "$2"; do [ -x "$b" ] || { echo "$0: $b: not an executable iosim binary" >&2; exit 2; }; done
PY=${IOSIM_PYTHON:-/usr/bin/python3}
here=$(dirname "$0")
work=$(mktemp -d "${TMPDIR:-/tmp}/iosim-deploy-XXXXXX")
trap 'rm -rf "$work"' EXIT

outputs() { # BIN DEST [ENV...]: every scenario's outputs (events.csv included) under DEST
  local bin=$1 O=$2
  shift 2
  mkdir -p "$O"
  for f in deploy/*.json; do
    n=$(basename "$f" .json)
    env "$@" "$bin" run "$f" ${sets[@]+"${sets[@]}"} --set output.events=true --out "$O/$n" >"$O/$n.out" 2>&1
    echo "rc=$?" >>"$O/$n.out"
  done
  env "$@" "$bin" sweep deploy/campaigns/rr9502-apex.json --seeds 1 --set workload.generator.window=1 \
    ${sets[@]+"${sets[@]}"} --set output.events=true --jobs 1 -o "$O/sw-apex" >"$O/sw-apex.out" 2>&1
  env "$@" "$bin" sweep deploy/campaigns/mn4-ionodes-whatif.json --seeds 1 ${sets[@]+"${sets[@]}"} \
    --set output.events=true --jobs 1 -o "$O/sw-mn4" >"$O/sw-mn4.out" 2>&1
}

outputs "$1" "$work/old"
# shellcheck disable=SC2086
outputs "$2" "$work/new" ${NEW_ENV:-}
echo "## Exit codes (scenarios one binary cannot run: outputs of the other only)"
for o in "$work"/old/*.out; do
  n=$(basename "$o" .out)
  a=$(tail -1 "$o" | sed "s|$work/old|W|g") b=$(tail -1 "$work/new/$n.out" | sed "s|$work/new|W|g")
  [ "$a" = "$b" ] || echo "- $n: OLD $a ($(grep -m1 -i error "$o" | cut -c1-160)), NEW $b"
done
echo
echo "## Metrics beyond 1e-9 (outputs_diff.py)"
"$PY" "$here/outputs_diff.py" "$work/old" "$work/new" --ignore 'platform.xml' --ignore '*.out' --ignore 'events.csv' \
  --ignore 'sweep.json' --ignore 'campaign.json' --ignore 'stdout.txt' --ignore 'stderr.txt'
rc=$?
echo
echo "## First divergence of each scenario whose events differ (first_divergence.py)"
for d in "$work"/new/*/; do
  n=$(basename "$d")
  if [ -f "$d/events.csv" ] && [ -f "$work/old/$n/events.csv" ]; then
    echo "- $n: $("$PY" "$here/first_divergence.py" "$work/old/$n" "$d")"
  elif [ -d "$d/runs" ] && [ -d "$work/old/$n/runs" ]; then
    echo "- $n: $("$PY" "$here/first_divergence.py" --campaigns "$work/old/$n" "$d" | tail -1)"
  fi
done
if [ -n "$keep" ]; then
  mkdir -p "$keep" && rm -rf "$keep/old" "$keep/new" && mv "$work/old" "$work/new" "$keep/"
fi
exit $rc
