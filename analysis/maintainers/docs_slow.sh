#!/bin/sh
# The blocks of docs/ too slow for ctest (marked `<!-- doc-test: run slow -->`: a year of TOKIO-ABC scored, a site's
# year simulated), run as ctest runs the others (test/docs/run_docs.py --only-slow: each page's slow blocks in a fresh
# directory, from the repository root's layout, their outputs compared with the page where it shows them). Prints one
# line per block with its wall time and a count per page; exit 0 when every block ran and matched, 1 otherwise.
# usage: analysis/maintainers/docs_slow.sh [PAGE.md...]   (default: every page of docs/ with a slow block)
# env: BUILD (default build), IOSIM_DATA_DIR (default ../shared/datasets), IOSIM_PYTHON (default /usr/bin/python3);
# temporary files under $BUILD/test-tmp, never /tmp.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
PY=${IOSIM_PYTHON:-/usr/bin/python3}
IOSIM_DATA_DIR=${IOSIM_DATA_DIR:-$ROOT/../shared/datasets}
export IOSIM_DATA_DIR
TMPDIR=$BUILD/test-tmp
export TMPDIR
mkdir -p "$TMPDIR"
if [ "$#" -eq 0 ]; then
  set -- $(cd "$ROOT" && grep -l 'doc-test: run slow' docs/*.md)
fi
status=0
for page in "$@"; do
  "$PY" "$ROOT/test/docs/run_docs.py" --source "$ROOT" --iosim "$BUILD/iosim" --python "$PY" --doc "$page" \
    --only-slow || status=1
done
exit $status
