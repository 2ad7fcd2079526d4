#!/usr/bin/env python3
"""Where two runs of one scenario first part: the first I/O operation or work phase of events.csv that differs, and
whether the runs had agreed until a date where several ended together and the two runs took them in another order.

usage: first_divergence.py OLD_RUN NEW_RUN [--tol REL]
       first_divergence.py --campaigns OLD_SWEEP NEW_SWEEP [--tol REL]

OLD_RUN and NEW_RUN are output directories of the same scenario run with output.events=true (two binaries, or two
settings); with --campaigns, two `iosim sweep` directories of one campaign run with `--set output.events=true`, every
run compared with its namesake. The `io` rows of events.csv (one per I/O operation, written when it ends, in the order
the engine took the completions) and the `work` rows (one per work phase, written when it ends, in the order the
applications woke up and posted their next operation) are walked in file order, each kind on its own; dates and
numbers within --tol (default 1e-9, relative, or 1e-9 s absolute for dates) count as equal. The earliest first
difference of the two kinds is classified:
- `same`: no row differs;
- `tie order (completions) at D`: from that row on, the I/O operations ending at date D are the same ones with the
  same values in both runs, in another order (the order of simultaneous completions, which decides the order of the
  decisions that follow: the next operations' placement, the random draws of a placement policy, ...);
- `tie order (wake-ups) at D`: the same for work phases ending together at D (the order in which the applications
  post their next operations, e.g. FCFS's queue order);
- `differs at D`: some operation or phase ending at D has other values (or another ends there): not an order.
Prints one line per pair, and with --campaigns a count per class. Exit 0 (it reports, it does not judge), 2 on bad
arguments. Used by docs/engine.md "Exactness".
"""
import argparse
import csv
import math
import os
import sys


def rows_of(run, kind):
    path = os.path.join(run, "events.csv")
    if not os.path.exists(path):
        sys.exit(f"first_divergence.py: {path}: missing; run the scenario with --set output.events=true")
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    col = {h: i for i, h in enumerate(head)}
    return [dict(app=r[col["app"]], res=r[col["resource"]], start=float(r[col["start_s"]]),
                 end=float(r[col["end_s"]]), bytes=num(r[col["bytes"]]), rate=num(r[col["rate_Bps"]]))
            for r in rows[1:] if r[col["kind"]] == kind]


def num(text):
    return float(text) if text != "" else 0.0


def close(a, b, tol, date=False):
    if a == b:
        return True
    if date and abs(a - b) <= 1e-9:
        return True
    return abs(a - b) <= tol * max(abs(a), abs(b))


def same_row(x, y, tol):
    return (x["app"] == y["app"] and x["res"] == y["res"] and close(x["start"], y["start"], tol, True)
            and close(x["end"], y["end"], tol, True) and close(x["bytes"], y["bytes"], tol)
            and close(x["rate"], y["rate"], tol))


def classify_kind(old, new, tol, what):
    """(date, class, text) of the first difference of two runs' rows of one kind (date inf: none)."""
    n = min(len(old), len(new))
    i = 0
    while i < n and same_row(old[i], new[i], tol):
        i += 1
    if i == n:
        if len(old) == len(new):
            return math.inf, "same", ""
        return (old[n]["end"] if len(old) > n else new[n]["end"]), "differs", f"{len(old)} {what} against {len(new)}"
    d = min(old[i]["end"], new[i]["end"])

    def block(rows):
        j = i
        while j < len(rows) and close(rows[j]["end"], d, tol, True):
            j += 1
        return rows[i:j]

    bo, bn = block(old), block(new)
    pool = list(bn)
    for x in bo:
        m = next((y for y in pool if same_row(x, y, tol)), None)
        if m is None:
            return d, "differs", (f"at {d!r}: {x['app']}'s {what[:-1]} from {x['start']!r} ends there in OLD without "
                                  "its match in NEW")
        pool.remove(m)
    if pool or len(bo) < 2:
        return d, "differs", f"at {d!r}: {len(bo)} {what} end in OLD, {len(bn)} in NEW"
    return d, f"tie order ({'completions' if what == 'operations' else 'wake-ups'})", (
        f"at {d!r}: {len(bo)} {what} end together, OLD takes {','.join(x['app'] for x in bo)}, "
        f"NEW {','.join(x['app'] for x in bn)}")


def classify(a, b, tol):
    """(class, text) for two run directories: the earlier first difference of their operations and work phases."""
    found = [classify_kind(rows_of(a, "io"), rows_of(b, "io"), tol, "operations"),
             classify_kind(rows_of(a, "work"), rows_of(b, "work"), tol, "phases")]
    d, cls, text = min(found, key=lambda f: f[0])
    return cls, text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--tol", type=float, default=1e-9)
    ap.add_argument("--campaigns", action="store_true", help="OLD and NEW are sweep directories")
    a = ap.parse_args()
    for p in (a.old, a.new):
        if not os.path.isdir(p):
            print(f"first_divergence.py: {p}: not a directory", file=sys.stderr)
            sys.exit(2)
    if not a.campaigns:
        cls, text = classify(a.old, a.new, a.tol)
        print(f"{cls} {text}".strip())
        return
    runs = sorted(set(os.listdir(os.path.join(a.old, "runs"))) & set(os.listdir(os.path.join(a.new, "runs"))))
    counts = {}
    for r in runs:
        cls, text = classify(os.path.join(a.old, "runs", r), os.path.join(a.new, "runs", r), a.tol)
        counts[cls] = counts.get(cls, 0) + 1
        print(f"{r}: {cls} {text}".strip())
    print(f"{len(runs)} runs: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
