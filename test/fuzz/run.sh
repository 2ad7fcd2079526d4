#!/bin/sh
# Fuzzes every target of test/fuzz for SECONDS each (docs/fuzzing.md): run.sh BUILD_DIR [SECONDS] [TARGET...].
# New corpus entries go to BUILD_DIR/fuzz-corpus/<target> (not committed); crashes, timeouts and out-of-memory inputs
# to test/fuzz/crashers/<target>/ (commit them once fixed: ctest replays them). Exits 1 when a target found one.
set -u
build=${1:?usage: run.sh BUILD_DIR [SECONDS] [TARGET...]}
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "$0")" && pwd)
targets=${*:-"scenario set sample forge workload_json campaign platform darshan"}
status=0
for t in $targets; do
  mkdir -p "$build/fuzz-corpus/$t" "$here/crashers/$t"
  echo "== fuzz_$t for ${seconds}s"
  IOSIM_DATA_DIR=/dev/null/no-datasets "$build/test/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$here/crashers/$t/" \
    "$build/fuzz-corpus/$t" "$here/corpus/$t" 2>"$build/fuzz-$t.log" || status=1
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)|^==[0-9]+==ERROR|^SUMMARY|Test unit written" \
    "$build/fuzz-$t.log" | sed 's/^/   /'
  rmdir "$here/crashers/$t" 2>/dev/null # nothing found: no empty directory
done
exit $status
