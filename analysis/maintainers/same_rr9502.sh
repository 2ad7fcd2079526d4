#!/usr/bin/env bash
# Do two iosim binaries give the same results on every RR-9502 cross-check window? Runs all 39 windows of
# ../shared/crosscheck/rr9502 (instances/ and extended/instances/) under the eight strategies with each binary and
# compares apps.csv byte for byte and results.json's metrics and counts. Prints the count of identical runs; exit 0
# when all are. Usage: analysis/maintainers/same_rr9502.sh OLD_IOSIM NEW_IOSIM (env IOSIM_CROSSCHECK_DIR).
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 OLD_IOSIM NEW_IOSIM" >&2; exit 2; }
cd "$(dirname "$0")/../.."
dir=${IOSIM_CROSSCHECK_DIR:-../shared/crosscheck/rr9502}
work=$(mktemp -d "${TMPDIR:-/tmp}/iosim-same-rr9502-XXXXXX")
trap 'rm -rf "$work"' EXIT
n=0 same=0
for f in "$dir"/instances/*.txt "$dir"/extended/instances/*.txt.gz; do
  [ -e "$f" ] || continue
  inst=$f
  case $f in *.gz) inst=$work/inst.txt; zcat "$f" >"$inst" ;; esac
  for p in fcfs fairshare greedy-yield greedy-com lookahead-greedy-yield set10 periodic-greedy-yield best-next-event; do
    for side in old new; do
      bin=$1; [ $side = new ] && bin=$2
      rm -rf "$work/$side"
      "$bin" run deploy/rr9502-window.json --set workload.file="$inst" --set sharing.policy=$p \
        --set output.progress=false --out "$work/$side" >/dev/null 2>&1
    done
    n=$((n + 1))
    if cmp -s "$work/old/apps.csv" "$work/new/apps.csv" &&
      /usr/bin/python3 - "$work/old/results.json" "$work/new/results.json" <<'PY'; then
import json, sys
a, b = (json.load(open(x)) for x in sys.argv[1:3])
sys.exit(0 if (a["metrics"], a["counts"]) == (b["metrics"], b["counts"]) else 1)
PY
      same=$((same + 1))
    else
      echo "differs: $(basename "$f") $p"
    fi
  done
done
echo "same results: $same of $n runs (39 windows x 8 strategies)"
[ "$same" -eq "$n" ]
