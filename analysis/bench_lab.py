#!/usr/bin/env python3
"""A class at once: CLIENTS students on one `iosim lab`, each making RUNS runs (docs/lab.md, "A class at once").

Starts `iosim lab` (IOSIM_BIN, default build/iosim) on a free port of 127.0.0.1 with its default modules and a
fresh work directory, then CLIENTS threads, each a student who, RUNS times, in turn over the modules:
1. runs a setting of the module's form that no other run of the test uses (a real simulation, never a cached one):
   POST /api/run, then GET /api/run/ID until done, and loads the run's view (GET /view?runs=ID);
2. answers one of the module's `number` questions: runs the question's setting (usually already simulated, as in a
   class), reads the metric from that run's numbers and answers it (must be judged right), then answers a value 50 %
   off (must be judged wrong).
Only loopback traffic; every loop is bounded (RUNS per client, a deadline of DEADLINE s per client). Prints the
latency percentiles (p50, p95, max) of each kind of request, each client's total time, the simulations the lab made,
and exits 1 when a request failed or was lost, an answer was judged wrongly, or a client took more than LIMIT s.

usage: analysis/bench_lab.py [--clients 30] [--runs 10] [--limit 120] [--work DIR] [--workers N] [--keep]
  --work: the lab's work directory (default build/bench-lab; removed at the end unless --keep)
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import iosim_path  # noqa: F401  (iosim's Python package on sys.path)
from iosim.lab.modules import load_modules  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def request(base, method, path, body=None, timeout=180):
    """(status, parsed JSON or text, seconds)."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw, code, ctype = r.read(), r.status, r.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        raw, code, ctype = e.read(), e.code, e.headers.get("Content-Type", "")
    dt = time.monotonic() - t0
    text = raw.decode("utf-8", errors="replace")
    return code, (json.loads(text) if "json" in ctype else text), dt


def variants(module):
    """The settings of a module's form in a fixed order, all different: each field's choices, or up to 8 values of its
    range, combined in mixed radix (the seed, when there is one, varies fastest)."""
    axes = []
    for f in module.fields:
        if f.choices is not None:
            vals = [v for v, _ in f.choices]
        else:
            step = f.step or ((f.max - f.min) / 7 if f.max > f.min else 1)
            vals, x = [], f.min
            while x <= f.max + 1e-9 and len(vals) < (1000 if f.key == "seed" else 8):
                vals.append(int(round(x)) if f.integer else round(x, 6))
                x += max(step, 1) if f.integer else step
        axes.append((f.key, vals))
    axes.sort(key=lambda a: a[0] != "seed")

    def nth(k):
        s = {}
        for key, vals in axes:
            s[key] = vals[k % len(vals)]
            k //= len(vals)
        return s
    return nth


def wait_run(base, rid, deadline):
    while time.monotonic() < deadline:
        code, d, _ = request(base, "GET", f"/api/run/{rid}?wait=10")
        if code != 200:
            return code, d
        if d.get("state") != "running":
            return code, d
    return 0, {"error": "deadline"}


class Metricless:
    """A run's JSON as modules.Metric.value reads a result."""

    def __init__(self, d):
        self.metrics, self.apps, self.resources = d["metrics"], d["apps"], d["resources"]


def client(base, modules, c, runs, limit, out, lock):
    t_start = time.monotonic()
    deadline = t_start + 4 * limit
    rec = {"run": [], "view": [], "answer": [], "errors": [], "runs": 0, "answers_right": 0, "answers_wrong": 0}
    for i in range(runs):
        m = modules[(c + i) % len(modules)]
        k = (c * runs + i) // len(modules) * 7 + 3  # distinct per (module, client, run); 7: away from the defaults
        settings = {key: str(v) for key, v in variants(m)(k).items()}
        t0 = time.monotonic()
        code, d, _ = request(base, "POST", "/api/run", {"module": m.id, "settings": settings})
        if code != 200:
            rec["errors"].append(f"client {c} run {i} {m.id}: POST /api/run {code}: {d}")
            continue
        code, d = wait_run(base, d["id"], deadline)
        if code != 200 or d.get("state") != "done":
            rec["errors"].append(f"client {c} run {i} {m.id} {settings}: {code} {d.get('state')}: {d.get('error')}")
            continue
        rec["run"].append(time.monotonic() - t0)
        rec["runs"] += 1
        code, page, dt = request(base, "GET", d["view"])
        if code != 200 or "iosim-data" not in page:
            rec["errors"].append(f"client {c} run {i} {m.id}: view {code}")
        else:
            rec["view"].append(dt)
        qs = [q for q in m.questions if q.kind == "number"]
        q = qs[(c + i) % len(qs)]
        code, d, _ = request(base, "POST", "/api/run", {"module": m.id, "settings": {k2: str(v) for k2, v in
                                                                                   q.settings.items()}})
        code, d = wait_run(base, d["id"], deadline) if code == 200 else (code, d)
        if code != 200 or d.get("state") != "done":
            rec["errors"].append(f"client {c} question {m.id}/{q.id}: its run {code}: {d}")
            continue
        value = q.metric.value(Metricless(d))
        for answer, right in ((f"{value:.6g}", True), (f"{value * 1.5 + 1:.6g}", False)):
            code, a, dt = request(base, "POST", "/api/answer", {"module": m.id, "question": q.id, "answer": answer})
            if code != 200:
                rec["errors"].append(f"client {c} answer {m.id}/{q.id}: {code} {a}")
                continue
            rec["answer"].append(dt)
            if a["correct"] != right:
                rec["errors"].append(f"client {c} answer {m.id}/{q.id} {answer}: judged {a['correct']}, expected "
                                     f"{right}: {a['message']}")
            else:
                rec["answers_right" if right else "answers_wrong"] += 1
    rec["total"] = time.monotonic() - t_start
    with lock:
        out[c] = rec


def pct(xs, p):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, default=30)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--limit", type=float, default=120.0, help="seconds a client may take (default 120)")
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "bench-lab"))
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--modules", default=os.path.join(ROOT, "deploy", "lab"))
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    if not (1 <= a.clients <= 200 and 1 <= a.runs <= 100):
        sys.exit("bench_lab.py: error: --clients 1..200 and --runs 1..100 (a bounded test)")
    binary = os.environ.get("IOSIM_BIN", os.path.join(ROOT, "build", "iosim"))
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    cmd = [binary, "lab", "--port", "0", "--host", "127.0.0.1", "--workdir", os.path.join(a.work, "lab"),
           "--modules", a.modules, "--max-queue", str(max(400, a.clients * 4))]
    if a.workers:
        cmd += ["--workers", str(a.workers)]
    t_boot = time.monotonic()
    lab = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = lab.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            lab.kill()
            sys.exit(f"bench_lab.py: error: the lab did not start: {line}{lab.stderr.read()}")
        base = f"http://127.0.0.1:{m.group(1)}"
        boot = time.monotonic() - t_boot
        modules = load_modules(a.modules)
        runnable = []  # the modules without their datasets refuse runs (409): left out
        for x in modules:
            code, _, _ = request(base, "POST", "/api/run", {"module": x.id, "settings": {}})
            if code != 409:
                runnable.append(x)
        out, lock = {}, threading.Lock()
        threads = [threading.Thread(target=client, args=(base, runnable, c, a.runs, a.limit, out, lock))
                   for c in range(a.clients)]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=8 * a.limit)
        wall = time.monotonic() - t0
    finally:
        lab.terminate()
        try:
            stdout, stderr = lab.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            lab.kill()
            stdout, stderr = lab.communicate()
    made = re.search(r"\((\d+) simulations this session\)", stdout)
    recs = [out.get(c) for c in range(a.clients)]
    errors = [f"client {c}: lost (no record: it did not finish)" for c, r in enumerate(recs) if r is None]
    recs = [r for r in recs if r is not None]
    for r in recs:
        errors += r["errors"]
    allof = {k: [x for r in recs for x in r[k]] for k in ("run", "view", "answer")}
    totals = [r["total"] for r in recs]
    print(f"iosim lab under load: {a.clients} clients x {a.runs} runs over {len(runnable)} modules "
          f"({', '.join(x.id for x in runnable)}), {os.cpu_count()} cores; lab ready in {boot:.1f} s "
          f"(default runs of every module checked), all clients done in {wall:.1f} s")
    print("| request | count | p50 (s) | p95 (s) | max (s) |")
    print("|---|---|---|---|---|")
    for k, what in (("run", "a run: POST /api/run until its result (a new simulation)"),
                    ("view", "its view: GET /view"), ("answer", "an answer: POST /api/answer")):
        xs = allof[k]
        print(f"| {what} | {len(xs)} | {pct(xs, 50):.3f} | {pct(xs, 95):.3f} | {max(xs) if xs else float('nan'):.3f} |")
    if totals:
        print(f"per client: {a.runs} runs, views and 2 answers each: mean {statistics.mean(totals):.1f} s, max "
              f"{max(totals):.1f} s (limit {a.limit:g} s)")
    runs_done = sum(r["runs"] for r in recs)
    right = sum(r["answers_right"] for r in recs)
    wrong = sum(r["answers_wrong"] for r in recs)
    print(f"runs completed {runs_done}/{a.clients * a.runs}; right answers judged right {right}, wrong answers judged "
          f"wrong {wrong}; simulations made by the lab {made.group(1) if made else '?'}")
    if totals and max(totals) > a.limit:
        errors.append(f"the slowest client took {max(totals):.1f} s > {a.limit:g} s")
    if runs_done != a.clients * a.runs:
        errors.append(f"{a.clients * a.runs - runs_done} runs lost or failed")
    if stderr.strip() and "Traceback" in stderr:
        errors.append("the lab logged a traceback:\n" + stderr[-3000:])
    if not a.keep:
        shutil.rmtree(a.work, ignore_errors=True)
    for e in errors[:20]:
        print("FAIL " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
