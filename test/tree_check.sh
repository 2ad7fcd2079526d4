#!/bin/sh
# tree_check.sh record|check STATE_FILE: `make test`'s check that the suite leaves the work tree clean.
# record (before the suite): saves `git status --porcelain` (untracked and changed files; ignored ones, such as build/,
# are not listed) into STATE_FILE. check (after it): fails (exit 1) with the list when `git status --porcelain` is not
# empty. A tree that was already changed before the suite (a developer's edits) is checked for new entries only, and
# said so; CI's fresh clone is checked strictly. Outside a git checkout (a release tarball) both do nothing.
set -eu
mode=$1 state=$2
cd "$(dirname "$0")/.."
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || exit 0
case $mode in
record) git status --porcelain >"$state" ;;
check)
  now=$(git status --porcelain)
  before=$(cat "$state" 2>/dev/null || true)
  if [ -z "$before" ]; then
    new=$now
  else
    new=$(printf '%s\n' "$now" | grep -vxF -f "$state" || true)
  fi
  if [ -n "$new" ]; then
    printf 'make test: the suite left the work tree changed (git status --porcelain):\n%s\nfix: the test that wrote them must write under the build tree ($TMPDIR, test/tmp_check.py)\n' "$new" >&2
    exit 1
  fi
  if [ -n "$before" ]; then
    echo "make test: the work tree had $(printf '%s\n' "$before" | wc -l) changed or untracked entries before the suite; it added none"
  else
    echo "make test: the work tree is clean (git status --porcelain is empty)"
  fi
  ;;
*)
  echo "usage: $0 record|check STATE_FILE" >&2
  exit 2
  ;;
esac
