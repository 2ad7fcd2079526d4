#!/usr/bin/env bash
# Do two iosim binaries give the same outputs? Runs every deploy/ scenario, `iosim` alone, check, a bad path, the
# platform kinds, the generators, `iosim policies` and two small sweeps with each binary, strips wall times and
# temporary names, and compares the two output trees byte for byte (diff -r). Exit 0 when identical.
# Usage (from the repository root, IOSIM_DATA_DIR set): analysis/maintainers/same_outputs.sh [--numeric] [--set KEY=VALUE]...
# OLD_IOSIM NEW_IOSIM. e.g. build the commit before a refactoring in a worktree and compare its build/iosim with the
# current one. --set adds a scenario setting to every run (e.g. --set engine.flows=simgrid: every deploy/ scenario on
# the SimGrid flow path); --numeric compares the two trees number by number (analysis/maintainers/compare_outputs.py: rows matched
# by name, relative differences up to 1e-9 accepted, platform.xml skipped) instead of byte for byte.
set -uo pipefail
numeric=0
sets=()
while [ $# -gt 2 ]; do
  case $1 in
  --numeric) numeric=1; shift ;;
  --set) sets+=(--set "$2"); shift 2 ;;
  *) break ;;
  esac
done
[ $# -eq 2 ] || { echo "usage: $0 [--numeric] [--set KEY=VALUE]... OLD_IOSIM NEW_IOSIM (from the repository root, IOSIM_DATA_DIR set)" >&2; exit 2; }
[ -n "${IOSIM_DATA_DIR:-}" ] || { echo "$0: set IOSIM_DATA_DIR (e.g. ../shared/datasets)" >&2; exit 2; }
PY=${IOSIM_PYTHON:-/usr/bin/python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/iosim-same-XXXXXX")
trap 'rm -rf "$work"' EXIT

outputs() { # BIN DEST: every output of BIN, written under one fixed path so that paths inside files compare
  local bin=$1 O=$work/run
  rm -rf "$O" && mkdir -p "$O"
  for f in deploy/*.json; do
    n=$(basename "$f" .json)
    "$bin" run "$f" ${sets[@]+"${sets[@]}"} --out "$O/$n" >"$O/$n.out" 2>&1
    echo "rc=$?" >>"$O/$n.out"
  done
  for k in pfs-single forwarding storage oss-ost; do "$bin" platform $k -o "$O/plat-$k.xml" >"$O/plat-$k.out" 2>&1; done
  "$bin" generate rr9502 -o "$O/gen-rr9502.json" 2>"$O/gen-rr9502.err"
  "$bin" generate apex --set workload=nersc --set machine=4 -o "$O/gen-apex.json" 2>"$O/gen-apex.err"
  "$bin" policies >"$O/policies.out" 2>&1
  "$bin" check deploy/default.json >"$O/check.out" 2>&1
  "$bin" run /nonexistent.json >"$O/bad.out" 2>&1
  echo "rc=$?" >>"$O/bad.out"
  # the runs' files: per-run directories, which a sweep writes only when asked since the results database (an older
  # binary without --run-dirs always writes them); the database itself (binary, with wall times) is left out: the
  # ctest engine_sweep_db checks that it holds the files' values
  local rd=()
  "$bin" sweep --help 2>&1 | grep -q -- --run-dirs && rd=(--run-dirs)
  "$bin" sweep deploy/campaigns/rr9502-apex.json --seeds 1 --set workload.generator.window=1 --jobs 2 -o "$O/sw-apex" \
    ${rd[@]+"${rd[@]}"} >"$O/sw-apex.out" 2>&1
  "$bin" sweep deploy/campaigns/mn4-ionodes-whatif.json --seeds 1 --jobs 2 -o "$O/sw-mn4" ${rd[@]+"${rd[@]}"} \
    >"$O/sw-mn4.out" 2>&1
  rm -f "$O"/sw-*/campaign.db "$O"/sw-*/campaign.db-wal "$O"/sw-*/campaign.db-shm
  find "$O" -type f \( -name '*.json' -o -name '*.out' -o -name '*.csv' -o -name '*.err' -o -name '*.txt' \) -exec \
    sed -i -E 's/"([a-z_]*wall[a-z_]*)":[[:space:]]*[0-9.e+-]+/"\1": W/g; s/[0-9.]+ s wall/W s wall/g;
      s/\([0-9.]+ s simulating\)/(S s simulating)/g; s/\.[0-9]+\.tmp/.PID.tmp/g; /elapsed, ETA/d;
      s/[0-9]+s elapsed/Ns elapsed/' {} +
  "$PY" - "$O" <<'PY'
import csv, glob, sys
for f in glob.glob(sys.argv[1] + "/**/*.csv", recursive=True):
    rows = list(csv.reader(open(f)))
    wall = [i for i, h in enumerate(rows[0] if rows else []) if "wall" in h]
    for r in rows[1:]:
        for i in wall:
            if i < len(r):
                r[i] = "W"
    if wall:
        csv.writer(open(f, "w", newline="")).writerows(rows)
PY
  mv "$O" "$2"
}

outputs "$1" "$work/old"
outputs "$2" "$work/new"
if [ $numeric = 1 ]; then
  "$PY" "$(dirname "$0")/compare_outputs.py" "$work/old" "$work/new" --ignore 'platform.xml' --ignore 'plat-*.xml' \
    --ignore '*.out' --ignore '*.err' --ignore 'stdout.txt'
  exit $?
fi
if diff -r "$work/old" "$work/new"; then
  echo "same outputs: $(find "$work/new" -type f | wc -l) files identical (wall times stripped)"
else
  echo "outputs differ (above)" >&2
  exit 1
fi
