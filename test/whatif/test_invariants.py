#!/usr/bin/env python3
"""Metrics that hold (docs/outputs.md, "Invariants"): every deploy/ scenario that has applications, under a few sharing
policies, and the Darshan sample logs with a stripe-count what-if, checked on apps.csv and results.json.

System: deploy/*.json (not the StorAlloc ones: storage requests, no applications, no apps.csv; rr9502-window.json
with a workload from `iosim generate rr9502 --seed 1`), each with sharing fairshare, maxmin and fcfs (frontier-checkpoint only with its own maxmin:
under the others its striped flows take minutes); plus
deploy/darshan-logs.json (the six sample logs of IOSIM_DATA_DIR/darshan-logs, years apart) with
striping.policy=lustre-default and stripe_count 1, 2.
Expectations, per application (times at 1.3e8 s carry rounding of 1e-8 s, hence the tolerances):
- yield ≤ 1 (RR-9502 Eq. 6 with b_i the dedicated bandwidth: no job is faster shared than alone);
- rho_io ≥ 0, rho_con ≥ 0 and rho_io + rho_con = io_slowdown (RR-9549 §3.3.2);
- io_bandwidth_Bps = io_volume_bytes / io_time_s, and bandwidth_Bps (b_i) ≥ io_bandwidth_Bps;
per run: min_yield ≤ 1, utilization ≤ efficiency ≤ 1, mean_rho_con ≥ 0, window.busy_s ≤ the window's length, and the
summary's aggregate_bandwidth, when it prints a number, ≤ the platform's capacity (Σ capacity_Bps of resources.csv,
plus the PFS's link when the platform XML has a pfs host); for the Darshan stream results.json's
aggregate_bandwidth_Bps too (the jobs never overlap: each job's own bandwidth, not their sum).
Hand case: one 2-node job with 1 GB/s NICs alone on a 100 GB/s PFS writes 20 GB: it is bound by nothing but its own
NICs, so its I/O takes 20/2 = 10 s and io_stretch = 10 / (20/2) = 1, yield = 1.
Stream: the Darshan logs' busy time is far below their 1.29e8 s window (the jobs run 1-39,207 s each).

usage: test_invariants.py --iosim BUILD/iosim --source SRC --work DIR   (DIR is removed at the end)
"""
import argparse
import concurrent.futures
import csv
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import unittest
import xml.etree.ElementTree as ET

ARGS = None
POLICIES = ("fairshare", "maxmin", "fcfs")
ONLY = {"frontier-checkpoint": ("maxmin",)}  # its own policy: 9,400 striped flows take minutes under the others
NO_APPS = ("storalloc-simulated", "storalloc-theta", "storalloc-year")  # StorAlloc: storage requests, no apps.csv
TOL = 1e-6


def run(cmd, code=0):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != code:
        raise AssertionError(f"{' '.join(cmd)} exited {p.returncode}, expected {code}:\n{p.stdout}\n{p.stderr}")
    return p


def num(v):
    return float(v) if v not in ("", None) else float("nan")


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def bandwidth(text):
    """A SimGrid bandwidth ("20000000000Bps", "1.5GBps") in bytes/s."""
    units = {"Bps": 1, "kBps": 1e3, "MBps": 1e6, "GBps": 1e9, "TBps": 1e12}
    for u in sorted(units, key=len, reverse=True):
        if text.endswith(u):
            return float(text[:-len(u)]) * units[u]
    return float(text)


def pfs_capacity(out, res):
    """The bandwidth of the PFS host's link (role pfs, property link) in the run's platform XML, 0 without one."""
    if res["platform"]["pool_role"] == "pfs":  # the PFS is the pool: resources.csv has it
        return 0.0
    path = os.path.join(out, "platform.xml")
    if not os.path.isfile(path):
        sc = res["scenario"]["platform"]
        path = sc if isinstance(sc, str) and os.path.isabs(sc) else None
    if path is None or not os.path.isfile(path):
        return 0.0
    root = ET.parse(path).getroot()
    links = {e.get("id"): e.get("bandwidth") for e in root.iter("link")}
    for h in root.iter("host"):
        props = {p.get("id"): p.get("value") for p in h.findall("prop")}
        if props.get("role") == "pfs" and props.get("link") in links:
            return bandwidth(links[props["link"]])
    return 0.0


class Invariants(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = os.path.abspath(ARGS.work)
        shutil.rmtree(cls.work, ignore_errors=True)
        os.makedirs(cls.work)
        data = os.environ.get("IOSIM_DATA_DIR") or os.path.join(ARGS.source, "..", "shared", "datasets")
        cls.logs = os.path.join(data, "darshan-logs")
        wl = os.path.join(cls.work, "rr9502.txt")
        run([ARGS.iosim, "generate", "rr9502", "--seed", "1", "-o", wl])
        jobs = []
        for path in sorted(glob.glob(os.path.join(ARGS.source, "deploy", "*.json"))):
            name = os.path.splitext(os.path.basename(path))[0]
            if name in NO_APPS:
                continue
            extra = ["--set", f"workload.file={wl}"] if name == "rr9502-window" else []
            for pol in ONLY.get(name, POLICIES):
                jobs.append((f"{name}-{pol}", path, extra + ["--set", f"sharing.policy={pol}"]))
        for count in (1, 2):
            jobs.append((f"darshan-stripe{count}", os.path.join(ARGS.source, "deploy", "darshan-logs.json"),
                         ["--set", "striping.policy=lustre-default", "--set", f"striping.stripe_count={count}"]))
        alone = os.path.join(cls.work, "alone.json")
        with open(alone, "w", encoding="utf-8") as f:
            json.dump({"platform": {"kind": "pfs-single", "compute": 4, "nic_bw": "1GBps", "pfs_bw": "100GBps"},
                       "workload": {"applications": [{"name": "solo", "nodes": 2, "iterations": 1, "work": "3s",
                                                      "io": "20GB"}]},
                       "output": {"progress": False}}, f)
        jobs.append(("alone", alone, []))
        env = dict(os.environ, IOSIM_DATA_DIR=data)
        cls.runs, cls.failed, cls.summary = {}, {}, {}

        def one(job):
            name, path, sets = job
            out = os.path.join(cls.work, name)
            p = subprocess.run([ARGS.iosim, "run", path, "-o", out, "--set", "output.progress=false"] + sets,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            return name, out, p

        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:  # each run its own process
            for name, out, p in ex.map(one, jobs):
                if p.returncode != 0:
                    cls.failed[name] = p.stderr.strip()
                else:
                    cls.runs[name] = out
                    cls.summary[name] = p.stdout

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_every_run_ran(self):
        self.assertEqual(self.failed, {})
        self.assertGreaterEqual(len(self.runs), 3 * 12 + 1 + 3)

    def test_application_invariants(self):
        for name, out in sorted(self.runs.items()):
            for a in read_csv(os.path.join(out, "apps.csv")):
                where = f"{name}: {a['name']}"
                y = num(a["yield"])
                if not math.isnan(y):
                    self.assertLessEqual(y, 1 + TOL, where)
                rho, rio, rcon = num(a["io_slowdown"]), num(a["rho_io"]), num(a["rho_con"])
                if not math.isnan(rho):
                    self.assertGreaterEqual(rio, 0, where)
                    self.assertGreaterEqual(rcon, -1e-9 * rho, where)
                    self.assertAlmostEqual(rio + rcon, rho, delta=1e-9 * rho, msg=where)
                v, t = num(a["io_volume_bytes"]), num(a["io_time_s"])
                if t > 0:
                    seen = num(a["io_bandwidth_Bps"])
                    self.assertAlmostEqual(seen, v / t, delta=1e-9 * seen, msg=where)
                    self.assertGreaterEqual(num(a["bandwidth_Bps"]), seen * (1 - 1e-9), where)

    def test_run_invariants(self):
        numbers = 0
        for name, out in sorted(self.runs.items()):
            with open(os.path.join(out, "results.json"), encoding="utf-8") as f:
                res = json.load(f)
            m, w = res["metrics"], res["window"]
            if m["min_yield"] is not None:
                self.assertLessEqual(m["min_yield"], 1 + TOL, name)
            if m["utilization"] is not None:
                self.assertLessEqual(m["utilization"], m["efficiency"] * (1 + 1e-9), name)
                self.assertLessEqual(m["efficiency"], 1 + TOL, name)
            if m["mean_rho_con"] is not None:
                self.assertGreaterEqual(m["mean_rho_con"], -1e-9, name)
            self.assertLessEqual(w["busy_s"], (w["end_s"] - w["begin_s"]) * (1 + 1e-12) + 1e-9, name)
            cap = sum(num(r["capacity_Bps"]) for r in read_csv(os.path.join(out, "resources.csv")))
            cap += pfs_capacity(out, res)
            line = next(x for x in self.summary[name].splitlines() if "aggregate_bandwidth" in x)
            shown = line.split("aggregate_bandwidth ")[1]
            if not shown.startswith("n/a"):
                numbers += 1
                self.assertLessEqual(float(shown.split(" GB/s")[0]) * 1e9, cap * (1 + 1e-5), name)
            if name.startswith("darshan-"):
                self.assertLessEqual(m["aggregate_bandwidth_Bps"], cap * (1 + 1e-9), name)
        self.assertGreater(numbers, 10)  # most summaries print a number: the check above is not vacuous

    def test_alone_and_unbound_has_stretch_one(self):
        (a,) = read_csv(os.path.join(self.runs["alone"], "apps.csv"))
        self.assertAlmostEqual(num(a["io_time_s"]), 10.0, places=6)
        self.assertAlmostEqual(num(a["io_stretch"]), 1.0, places=9)
        self.assertAlmostEqual(num(a["yield"]), 1.0, places=9)
        self.assertAlmostEqual(num(a["io_bandwidth_Bps"]), 2e9, delta=1e-3)

    def test_stream_window_is_busy_time(self):
        for name in ("darshan-stripe1", "darshan-stripe2"):
            with open(os.path.join(self.runs[name], "results.json"), encoding="utf-8") as f:
                res = json.load(f)
            w = res["window"]
            apps = read_csv(os.path.join(self.runs[name], "apps.csv"))
            self.assertGreater(w["end_s"] - w["begin_s"], 1e8, name)  # the logs span years
            # the six jobs never overlap (docs/darshan.md): the busy time is the sum of their run times
            self.assertEqual(w["busy_periods"], 6, name)
            self.assertAlmostEqual(w["busy_s"], sum(num(a["end_s"]) - num(a["start_s"]) for a in apps),
                                   delta=1e-6 * w["busy_s"], msg=name)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--iosim", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
