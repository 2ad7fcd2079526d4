#!/usr/bin/env python3
"""Compares two trees of iosim outputs metric by metric, across output formats that grew in between.

usage: outputs_diff.py OLD_DIR NEW_DIR [--tol REL] [--ignore GLOB]... [--all]

Unlike analysis/maintainers/compare_outputs.py (which wants the same files, columns and keys), this compares only what both trees
hold and lists the rest apart, so that a binary with new output columns can be compared with an older one:
- files in one tree only (e.g. timeline.bin, new in NEW): listed as "only in old/new";
- CSV files: columns matched by header name; columns of one side only listed as new/removed; rows matched by the
  text cells of the shared columns in order of appearance; every shared numeric column compared;
- JSON files: every numeric leaf at a path both hold; keys of one side only listed as new/removed;
- other files: byte for byte (after the tree's own path is made neutral).
Wall-time fields (a name holding "wall") are skipped. Runs of a sweep (runs/<hash>/) are grouped under runs/*.
Prints one row per (file, metric) whose largest relative difference |a - b| / max(|a|, |b|) exceeds --tol (default
1e-9; --all: every compared metric), with where it is largest and both values, then the structural differences, then
a summary. Exit 0 when no shared metric differs beyond --tol, 1 otherwise, 2 on bad arguments.
Used by analysis/maintainers/flows_before_after.py (docs/engine.md "Exactness").
"""
import argparse
import csv
import fnmatch
import json
import math
import os
import re
import sys

from compare_outputs import number, rel  # relative difference, a CSV cell as a number


def normalised(text, root):
    text = text.replace(os.path.abspath(root), "<TREE>")
    return re.sub(r"\.[0-9]+\.tmp\b", ".PID.tmp", text)


class Diff:
    """The comparison of two trees: per (file group, metric) the largest difference; structural notes."""

    def __init__(self):
        self.metrics = {}  # (group, metric) -> [worst, where, old, new, compared]
        self.notes = {}  # (group, text) -> count
        self.files = {"compared": 0, "identical": 0}

    def note(self, group, text):
        self.notes[(group, text)] = self.notes.get((group, text), 0) + 1

    def value(self, group, metric, where, a, b):
        d = rel(a, b)
        m = self.metrics.setdefault((group, metric), [0.0, None, None, None, 0])
        m[4] += 1
        if d > m[0] or m[1] is None:
            if d > m[0] or m[0] == 0:
                m[0], m[1], m[2], m[3] = d, where, a, b

    def compare_csv(self, group, pa, pb, roots):
        ra = list(csv.reader(normalised(open(pa, newline="").read(), roots[0]).splitlines()))
        rb = list(csv.reader(normalised(open(pb, newline="").read(), roots[1]).splitlines()))
        if not ra or not rb:
            self.note(group, "empty file")
            return
        ha, hb = ra[0], rb[0]
        for c in ha:
            if c not in hb:
                self.note(group, f"column {c} removed")
        for c in hb:
            if c not in ha:
                self.note(group, f"new column {c}")
        shared = [c for c in ha if c in hb and "wall" not in c]
        ia, ib = [ha.index(c) for c in shared], [hb.index(c) for c in shared]
        rows_a = [[r[i] if i < len(r) else "" for i in ia] for r in ra[1:]]
        rows_b = [[r[i] if i < len(r) else "" for i in ib] for r in rb[1:]]
        if len(rows_a) != len(rows_b):
            self.note(group, f"{len(rows_a)} rows against {len(rows_b)}")
        textual = [k for k, c in enumerate(shared)
                   if any(number(r[k]) is None and r[k] != "" for r in rows_a + rows_b)]

        def key(row):
            return tuple(row[k] for k in textual)

        pool = {}
        for row in rows_b:
            pool.setdefault(key(row), []).append(row)
        for row in rows_a:
            match = pool.get(key(row))
            if not match:
                self.note(group, f"row {list(key(row))[:3]} has no counterpart")
                continue
            other = match.pop(0)
            label = "/".join(key(row)[:2]) or f"row {rows_a.index(row) + 1}"
            for k, c in enumerate(shared):
                if k in textual:
                    continue
                x, y = number(row[k]), number(other[k])
                if x is None or y is None:
                    if row[k] != other[k]:
                        self.note(group, f"column {c}: {row[k]!r} against {other[k]!r}")
                    continue
                self.value(group, c, label, x, y)

    def walk_json(self, group, a, b, path):
        if isinstance(a, dict) and isinstance(b, dict):
            for k in a:
                if k not in b:
                    self.note(group, f"key {path}.{k} removed")
            for k in b:
                if k not in a:
                    self.note(group, f"new key {path}.{k}")
            for k in a:
                if k in b and "wall" not in k:
                    self.walk_json(group, a[k], b[k], f"{path}.{k}")
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                self.note(group, f"{path}: {len(a)} items against {len(b)}")
            for i, (x, y) in enumerate(zip(a, b)):
                self.walk_json(group, x, y, f"{path}[{i}]")
        elif isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
            self.value(group, re.sub(r"\[[0-9]+\]", "[*]", path), path, float(a), float(b))
        elif a != b:
            self.note(group, f"{path}: {a!r} against {b!r}")

    def compare_json(self, group, pa, pb, roots):
        def load(p, root):
            return json.loads(re.sub(r'(": *)W\b', r"\1null", normalised(open(p).read(), root)))

        try:
            a, b = load(pa, roots[0]), load(pb, roots[1])
        except ValueError as e:
            self.note(group, f"not JSON: {e}")
            return
        self.walk_json(group, a, b, "")


def group_of(rel_path):
    return re.sub(r"/runs/[0-9a-f]{8,}/", "/runs/*/", rel_path)


def compare_trees(old, new, ignore=()):
    """A Diff of the two trees."""
    d = Diff()
    files = sorted({os.path.relpath(os.path.join(r, f), old) for r, _, fs in os.walk(old) for f in fs}
                   | {os.path.relpath(os.path.join(r, f), new) for r, _, fs in os.walk(new) for f in fs})
    for f in files:
        if any(fnmatch.fnmatch(os.path.basename(f), g) for g in ignore):
            continue
        g = group_of(f)
        pa, pb = os.path.join(old, f), os.path.join(new, f)
        if not (os.path.exists(pa) and os.path.exists(pb)):
            d.note(g, f"only in {'new' if os.path.exists(pb) else 'old'}")
            continue
        d.files["compared"] += 1
        if open(pa, "rb").read() == open(pb, "rb").read():
            d.files["identical"] += 1
            if f.endswith((".csv", ".json")):  # identical metrics still count as compared
                (d.compare_csv if f.endswith(".csv") else d.compare_json)(g, pa, pb, (old, new))
            continue
        if f.endswith(".csv"):
            d.compare_csv(g, pa, pb, (old, new))
        elif f.endswith(".json"):
            d.compare_json(g, pa, pb, (old, new))
        elif normalised(open(pa, errors="replace").read(), old) != normalised(open(pb, errors="replace").read(), new):
            d.note(g, "text differs")
    return d


def fmt(v):
    return "-" if v is None else f"{v:.10g}"


def report(d, tol, every=False, out=sys.stdout):
    """Prints the table of metrics beyond tol (all with every) and the structural notes. @return rows beyond."""
    rows = sorted(((g, m, *v) for (g, m), v in d.metrics.items() if every or v[0] > tol),
                  key=lambda r: (r[0], -r[2]))
    print("| file | metric | largest rel. difference | where | old | new |", file=out)
    print("|---|---|---|---|---|---|", file=out)
    for g, m, worst, where, a, b, _ in rows:
        print(f"| {g} | {m} | {worst:.2e} | {where} | {fmt(a)} | {fmt(b)} |", file=out)
    beyond = sum(1 for v in d.metrics.values() if v[0] > tol)
    notes = sorted(d.notes.items())
    if notes:
        print("\nNot compared (outputs of one side only, or text):", file=out)
        for (g, text), n in notes:
            print(f"- {g}: {text}" + (f" (x{n})" if n > 1 else ""), file=out)
    print(f"\n{d.files['compared']} files in both trees ({d.files['identical']} identical), "
          f"{len(d.metrics)} (file, metric) pairs compared, {beyond} beyond {tol:g}", file=out)
    return beyond


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--tol", type=float, default=1e-9)
    ap.add_argument("--ignore", action="append", default=[], help="file name glob to skip (e.g. platform.xml)")
    ap.add_argument("--all", action="store_true", help="print every compared metric, not only those beyond --tol")
    a = ap.parse_args()
    for p in (a.old, a.new):
        if not os.path.isdir(p):
            print(f"outputs_diff.py: {p}: not a directory", file=sys.stderr)
            sys.exit(2)
    sys.exit(1 if report(compare_trees(a.old, a.new, a.ignore), a.tol, a.all) else 0)


if __name__ == "__main__":
    main()
