#!/usr/bin/env python3
"""Compares two trees of iosim outputs number by number.

usage: compare_outputs.py OLD_DIR NEW_DIR [--tol REL] [--ignore GLOB]...

Both trees hold the same files (e.g. what analysis/maintainers/same_outputs.sh writes with two binaries). For every pair:
- CSV files: rows are matched by their text columns (names, kinds, resources) in order of appearance, so that two
  runs listing the same rows in another order compare equal; numeric cells are compared by relative difference
  |a - b| / max(|a|, |b|) (absolute below 1e-300);
- JSON files: every numeric leaf, at the same path;
- other files: byte for byte.
Prints one line per file whose largest relative difference exceeds --tol (default 1e-9), or whose rows, keys or text
differ, then a summary: files compared, identical, within the tolerance, beyond it. Wall-time fields (a name holding
"wall") are skipped. Exit 0 when every file is within the tolerance, 1 otherwise, 2 on bad arguments.
"""
import argparse
import csv
import fnmatch
import json
import math
import os
import re
import sys


def rel(a, b):
    if a == b or (math.isnan(a) and math.isnan(b)):
        return 0.0
    if math.isinf(a) or math.isinf(b) or math.isnan(a) or math.isnan(b):
        return math.inf
    m = max(abs(a), abs(b))
    return abs(a - b) / m if m > 1e-300 else abs(a - b)


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def compare_csv(pa, pb, roots):
    """(largest relative difference, problem text or None)."""
    ra = list(csv.reader(normalised(open(pa, newline="").read(), roots[0]).splitlines()))
    rb = list(csv.reader(normalised(open(pb, newline="").read(), roots[1]).splitlines()))
    if not ra or not rb or ra[0] != rb[0]:
        return math.inf, "different headers" if ra and rb else "empty file"
    head = ra[0]
    skip = {i for i, h in enumerate(head) if "wall" in h}

    def key(row):
        return tuple(c for i, c in enumerate(row) if i not in skip and number(c) is None)

    if len(ra) != len(rb):
        return math.inf, f"{len(ra) - 1} rows against {len(rb) - 1}"
    pool = {}
    for row in rb[1:]:
        pool.setdefault(key(row), []).append(row)
    worst = 0.0
    for row in ra[1:]:
        match = pool.get(key(row))
        if not match:
            return math.inf, f"row {row[:3]} has no counterpart"
        other = match.pop(0)
        for i, (x, y) in enumerate(zip(row, other)):
            if i in skip:
                continue
            nx, ny = number(x), number(y)
            if nx is not None and ny is not None:
                worst = max(worst, rel(nx, ny))
            elif x != y:
                return math.inf, f"column {head[i]}: {x!r} against {y!r}"
    return worst, None


def walk_json(a, b, path=""):
    """Yields (path, relative difference) for numbers, raises ValueError on a structural difference."""
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            raise ValueError(f"{path}: keys {sorted(set(a) ^ set(b))}")
        for k in a:
            if "wall" in k:
                continue
            yield from walk_json(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            raise ValueError(f"{path}: {len(a)} items against {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            yield from walk_json(x, y, f"{path}[{i}]")
    elif isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        yield path, rel(float(a), float(b))
    elif a != b:
        raise ValueError(f"{path}: {a!r} against {b!r}")


def normalised(text, root):
    """The text of a file of tree `root` with the tree's own path and temporary names made neutral."""
    text = text.replace(os.path.abspath(root), "<TREE>")
    return re.sub(r"\.[0-9]+\.tmp\b", ".PID.tmp", text)


def load_json(path, root):
    """A results.json, wall times included or blanked to W (analysis/maintainers/same_outputs.sh)."""
    return json.loads(re.sub(r'(": *)W\b', r"\1null", normalised(open(path).read(), root)))


def compare_json(pa, pb, roots):
    try:
        diffs = list(walk_json(load_json(pa, roots[0]), load_json(pb, roots[1])))
    except ValueError as e:
        return math.inf, str(e)
    worst = max((d for _, d in diffs), default=0.0)
    if worst > 0:
        where = max(diffs, key=lambda x: x[1])[0]
        return worst, f"largest at {where}"
    return 0.0, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--tol", type=float, default=1e-9)
    ap.add_argument("--ignore", action="append", default=[], help="file name glob to skip (e.g. platform.xml)")
    a = ap.parse_args()
    for d in (a.old, a.new):
        if not os.path.isdir(d):
            print(f"compare_outputs.py: {d}: not a directory", file=sys.stderr)
            sys.exit(2)
    files = sorted({os.path.relpath(os.path.join(r, f), a.old) for r, _, fs in os.walk(a.old) for f in fs}
                   | {os.path.relpath(os.path.join(r, f), a.new) for r, _, fs in os.walk(a.new) for f in fs})
    counts = {"identical": 0, "within": 0, "beyond": 0}
    for f in files:
        if any(fnmatch.fnmatch(os.path.basename(f), g) for g in a.ignore):
            continue
        pa, pb = os.path.join(a.old, f), os.path.join(a.new, f)
        if not (os.path.exists(pa) and os.path.exists(pb)):
            print(f"{f}: only in {'new' if os.path.exists(pb) else 'old'}")
            counts["beyond"] += 1
            continue
        if open(pa, "rb").read() == open(pb, "rb").read():
            counts["identical"] += 1
            continue
        roots = (a.old, a.new)
        if f.endswith(".csv"):
            worst, why = compare_csv(pa, pb, roots)
        elif f.endswith(".json"):
            worst, why = compare_json(pa, pb, roots)
        elif normalised(open(pa, errors="replace").read(), a.old) == normalised(open(pb, errors="replace").read(),
                                                                                a.new):
            worst, why = 0.0, None
        else:
            worst, why = math.inf, "text differs"
        if worst <= a.tol:
            counts["within"] += 1
        else:
            counts["beyond"] += 1
            print(f"{f}: largest relative difference {worst:.3g}" + (f" ({why})" if why else ""))
    total = sum(counts.values())
    print(f"{total} files: {counts['identical']} identical, {counts['within']} within {a.tol:g}, "
          f"{counts['beyond']} beyond")
    sys.exit(0 if counts["beyond"] == 0 else 1)


if __name__ == "__main__":
    main()
