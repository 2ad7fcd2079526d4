#!/usr/bin/env python3
"""Tests leave nothing behind (issue 22): the ctest fixture around the whole suite.

usage: tmp_check.py setup|check TEST_TMP SOURCE_DIR

Every test runs with TMPDIR=TEST_TMP (a folder of the build tree; CMakeLists.txt, iosim_guard_tests), so whatever a
test, the iosim processes it starts or the scripts it runs put in a temporary directory lands there.
- setup (FIXTURES_SETUP, runs first): empties TEST_TMP and records, beside it (TEST_TMP.state.json), the entries of
  /tmp whose name starts with "iosim" and the untracked files of the source tree (git status, ignored ones included;
  the build trees and Python's __pycache__ folders, which the scripts' imports write and git ignores, excepted).
- check (FIXTURES_CLEANUP, runs once every test has finished): fails (exit 1) when TEST_TMP is not empty or when the
  source tree has untracked files it did not have before, naming them; then removes TEST_TMP. It also prints how many
  iosim entries /tmp held before and after, and the new ones: a test that ignores TMPDIR would put them there. Those
  are reported, not failed on: /tmp is shared with every other process of the machine (another checkout's suite, a
  user's run), so an entry there cannot be told to be this suite's.
"""
import json
import os
import shutil
import subprocess
import sys


def tmp_entries():
    try:
        return sorted(n for n in os.listdir("/tmp") if n.startswith("iosim"))
    except OSError:
        return []


def untracked(src, skip):
    """Untracked paths (ignored ones included) of the source tree, relative to it, or None outside a git checkout."""
    try:
        out = subprocess.run(["git", "-C", src, "status", "--porcelain", "--ignored", "--untracked-files=all", "-z"],
                             capture_output=True, check=True, timeout=120).stdout.decode(errors="replace")
    except (OSError, subprocess.SubprocessError):
        return None
    paths = []
    for rec in out.split("\0"):
        if rec[:3] not in ("?? ", "!! "):
            continue
        p = rec[3:]
        first = p.split("/", 1)[0]
        if any(p == s or p.startswith(s + "/") for s in skip) or first.startswith("build") or "__pycache__" in p:
            continue
        paths.append(p)
    return sorted(paths)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("setup", "check"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, tmp, src = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    state = tmp + ".state.json"
    rel_tmp = os.path.relpath(os.path.dirname(tmp), src)
    skip = [] if rel_tmp.startswith("..") else [rel_tmp]  # the build tree, when it lies in the source tree
    if mode == "setup":
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        with open(state, "w") as f:
            json.dump({"tmp": tmp_entries(), "tree": untracked(src, skip)}, f)
        print(f"TMPDIR of the suite: {tmp} (empty); /tmp holds {len(tmp_entries())} iosim entries")
        return 0
    try:
        with open(state) as f:
            before = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL: cannot read {state} ({e}): the setup test (test_tmp_setup) did not run")
        return 1
    fails = 0
    left = []
    for root, dirs, files in os.walk(tmp):
        left += [os.path.relpath(os.path.join(root, n), tmp) + ("/" if n in dirs else "") for n in dirs + files]
        dirs.clear()  # the top-level entries only
    if left:
        fails += 1
        print(f"FAIL: the tests left {len(left)} entries in their TMPDIR {tmp}:")
        for n in sorted(left)[:50]:
            print(f"  {n}")
        print("  fix: the test that writes them must remove them (iosim_test::TempDir in C++, shutil.rmtree in a "
              "tearDown, a trap in shell); IOSIM_KEEP_TEST_DIRS keeps them on purpose")
    now = untracked(src, skip)
    if before.get("tree") is not None and now is not None:
        new = sorted(set(now) - set(before["tree"]))
        if new:
            fails += 1
            print(f"FAIL: the tests left {len(new)} new files in the source tree {src}:")
            for n in new[:50]:
                print(f"  {n}")
            print("  fix: write under a temporary directory (TMPDIR) or the build tree, and remove it")
    else:
        print(f"note: {src} is not a git checkout: the source tree was not checked")
    after = tmp_entries()
    new_tmp = sorted(set(after) - set(before["tmp"]))
    print(f"/tmp iosim entries: {len(before['tmp'])} before the suite, {len(after)} after ({len(new_tmp)} new)")
    for n in new_tmp[:20]:
        print(f"  new in /tmp (not failed on, see test/tmp_check.py; a test that ignores TMPDIR?): {n}")
    if fails == 0:
        print(f"PASS: nothing left in {tmp} nor in the source tree")
        shutil.rmtree(tmp, ignore_errors=True)
        os.remove(state)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
