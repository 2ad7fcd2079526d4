#!/usr/bin/env python3
"""analysis/maintainers/first_divergence.py's campaign lines counted by a swept setting.

usage: analysis/maintainers/divergence_by.py FIRST_DIVERGENCE_OUTPUT SWEEP_DIR COLUMN [--app NAME]

FIRST_DIVERGENCE_OUTPUT is what `first_divergence.py --campaigns OLD NEW` printed (a file, or - for stdin);
SWEEP_DIR one of the two sweeps (its runs.csv maps each run_id to its settings); COLUMN a column of runs.csv (e.g.
striping.policy). Prints, per value of COLUMN: runs, `same`, `tie order` (completions or wake-ups), `differs`, and
among the tie orders how many take the tied operations in exactly the reverse order and how many have application
NAME (default `ior`) among them. Exit 2 on bad input. Used by docs/striping.md.
"""

import argparse
import collections
import csv
import os
import re
import sys

LINE = re.compile(r"^(\S+): (same|tie order \((?:completions|wake-ups)\)|differs)(.*)$")
ORDERS = re.compile(r"OLD takes (\S+), NEW (\S+)")


def fail(msg):
    print(f"divergence_by.py: error: {msg}", file=sys.stderr)
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fd_output")
    ap.add_argument("sweep")
    ap.add_argument("column")
    ap.add_argument("--app", default="ior")
    a = ap.parse_args()
    runs_csv = os.path.join(a.sweep, "runs.csv")
    if not os.path.isfile(runs_csv):
        fail(f"{runs_csv}: file not found; fix: give the directory `iosim sweep ... -o DIR` wrote")
    with open(runs_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or a.column not in rows[0]:
        fail(f"{runs_csv}: no column '{a.column}'; fix: give one of {list(rows[0]) if rows else []}")
    value = {r["run_id"]: r[a.column] for r in rows}
    try:
        text = sys.stdin.read() if a.fd_output == "-" else open(a.fd_output).read()
    except OSError as e:
        fail(f"{a.fd_output}: {e.strerror}; fix: save first_divergence.py's output to a file")
    count = collections.defaultdict(collections.Counter)
    for n, line in enumerate(text.splitlines(), 1):
        m = LINE.match(line)
        if m is None:
            continue
        run, kind, rest = m.groups()
        if run not in value:
            fail(f"{a.fd_output}, line {n}: run '{run}' is not in {runs_csv}; fix: give the sweep it compared")
        c = count[value[run]]
        c["runs"] += 1
        c[kind.split(" (")[0]] += 1
        o = ORDERS.search(rest)
        if kind.startswith("tie") and o:
            old, new = o.group(1).split(","), o.group(2).split(",")
            c["reversed"] += old == new[::-1]
            c["with " + a.app] += a.app in old
    if not count:
        fail(f"{a.fd_output}: no line of first_divergence.py --campaigns; fix: give its output")
    keys = ["runs", "same", "tie order", "differs", "reversed", "with " + a.app]
    print(f"{a.column}: " + ", ".join(keys))
    for v in sorted(count):
        print(f"{v}: " + ", ".join(str(count[v][k]) for k in keys))
    total = collections.Counter()
    for c in count.values():
        total.update(c)
    print("all: " + ", ".join(str(total[k]) for k in keys))


if __name__ == "__main__":
    main()
