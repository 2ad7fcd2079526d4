#!/usr/bin/env python3
"""iosim whatif and iosim compare (python/iosim/compare.py) against hand computation.

System: a generated pfs-single platform (one PFS link of B; NICs of 100 GB/s, never binding), sharing fairshare, two
one-node applications that work 5 s then write once: `small` 10 GB, `large` 30 GB, both released at 0.
Expectations (by hand):
- B = 1 GB/s: both write at 0.5 GB/s from 5 s; small ends at 5 + 10/0.5 = 25 s (I/O 20 s), large has 20 GB left and
  ends at 25 + 20/1 = 45 s (I/O 40 s); total I/O 60 s, last end 45 s.
- B = 2 GB/s: every I/O time halves: 10, 20 (total 30 s: -50.0 %); ends 5 + 10 = 15 s (-40.0 %), 25 s (-44.44 %).
- B = 4 GB/s: 5, 10 (total 15 s: -75.0 %); ends 10 s (-60.0 %), 15 s (-66.67 %).
- Runs of other jobs, or an incomplete run: refused (exit 2) naming what differs; another replay mode (queue): a
  warning; apps.csv columns bound_by/bound_share shown when present (here the PFS, all the time), else n/a; a --vary key the scenario refuses:
  exit 2 and nothing simulated.

usage: test_compare.py --iosim BUILD/iosim --source SRC --work DIR   (DIR is removed at the end)
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import unittest

ARGS = None
SCENARIO = {
    "platform": {"kind": "pfs-single", "compute": 4, "nic_bw": "100GBps", "pfs_bw": "1GBps"},
    "workload": {"applications": [
        {"name": "small", "nodes": 1, "iterations": 1, "work": "5s", "io": "10GB"},
        {"name": "large", "nodes": 1, "iterations": 1, "work": "5s", "io": "30GB"}]},
    "sharing": {"policy": "fairshare"},
    "output": {"dir": "unused", "progress": False},
}


def run(cmd, code=0):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != code:
        raise AssertionError(f"{' '.join(cmd)} exited {p.returncode}, expected {code}:\n{p.stdout}\n{p.stderr}")
    return p


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


class WhatIf(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = os.path.abspath(ARGS.work)
        shutil.rmtree(cls.work, ignore_errors=True)
        os.makedirs(cls.work)
        cls.scen = os.path.join(cls.work, "two.json")
        with open(cls.scen, "w", encoding="utf-8") as f:
            json.dump(SCENARIO, f)
        cls.out = os.path.join(cls.work, "w")
        cls.p = run([ARGS.iosim, "whatif", cls.scen, "--vary", "platform.pfs_bw=2GBps,4GBps", "-o", cls.out])
        cls.rows = {(r["job"], r["run"]): r for r in read_csv(os.path.join(cls.out, "compare.csv"))}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def check(self, job, run_label, io, io_pct, end, end_pct):
        r = self.rows[(job, run_label)]
        self.assertAlmostEqual(float(r["io_time_s"]), io, places=6)
        self.assertAlmostEqual(float(r["end_s"]), end, places=6)
        self.assertAlmostEqual(float(r["io_time_change_pct"]), io_pct, places=4)
        self.assertAlmostEqual(float(r["end_change_pct"]), end_pct, places=4)

    def test_hand_computation(self):
        b2, b4 = "platform.pfs_bw=2GBps", "platform.pfs_bw=4GBps"
        self.check("small", "base", 20, 0, 25, 0)
        self.check("large", "base", 40, 0, 45, 0)
        self.check("(all jobs)", "base", 60, 0, 45, 0)
        self.check("small", b2, 10, -50, 15, -40)
        self.check("large", b2, 20, -50, 25, 100 * (25 - 45) / 45)
        self.check("(all jobs)", b2, 30, -50, 25, 100 * (25 - 45) / 45)
        self.check("small", b4, 5, -75, 10, -60)
        self.check("large", b4, 10, -75, 15, 100 * (15 - 45) / 45)
        self.check("(all jobs)", b4, 15, -75, 15, 100 * (15 - 45) / 45)
        self.assertEqual(len(self.rows), 9)
        # the PFS is full all along (both at B/2, then large alone at B, its b_j = min(NIC, B) = B): it bound both
        self.assertEqual({r["bound_by"] for k, r in self.rows.items() if k[0] != "(all jobs)"}, {"pfs"})
        self.assertEqual({float(r["bound_share"]) for k, r in self.rows.items() if k[0] != "(all jobs)"}, {1.0})

    def test_printed_answer(self):
        out = self.p.stdout
        self.assertIn("comparable: yes (2 jobs", out)
        # a bandwidth change is a platform change other than the OST count: no measured what-if band of that kind
        self.assertIn("answer: platform.pfs_bw=2GBps: total I/O time 60 s -> 30 s (-50.0 %; no validated band for a "
                      "platform change other than the OST count (no measured what-if of this kind); no calibration: "
                      "error not validated); 2 job(s) faster", out)
        self.assertIn("answer: platform.pfs_bw=4GBps: total I/O time 60 s -> 15 s (-75.0 %; ", out)
        for d in ("base", "platform.pfs_bw=2GBps", "platform.pfs_bw=4GBps"):
            self.assertTrue(os.path.isfile(os.path.join(self.out, d, "results.json")), d)
            self.assertTrue(os.path.isfile(os.path.join(self.out, d, "summary.txt")), d)

    def test_page_is_self_contained(self):
        with open(os.path.join(self.out, "compare.html"), encoding="utf-8") as f:
            page = f.read()
        self.assertIn("The answer: change of each job's I/O time", page)
        self.assertNotIn("<script src=", page)  # plotly.js inlined: opens without network
        self.assertIn("Plotly.newPlot", page)

    def copy_run(self, name, edit_apps=None, edit_results=None):
        src = os.path.join(self.out, "base")
        dst = os.path.join(self.work, name)
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst)
        if edit_apps:
            rows = read_csv(os.path.join(dst, "apps.csv"))
            rows = edit_apps(rows)
            with open(os.path.join(dst, "apps.csv"), "w", newline="", encoding="utf-8") as f:
                w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
                w.writeheader()
                w.writerows(rows)
        if edit_results:
            with open(os.path.join(dst, "results.json"), encoding="utf-8") as f:
                res = json.load(f)
            edit_results(res)
            with open(os.path.join(dst, "results.json"), "w", encoding="utf-8") as f:
                json.dump(res, f)
        return dst

    def test_other_jobs_refused(self):
        other = self.copy_run("other", edit_apps=lambda rows: [dict(r, name="tiny") if r["name"] == "small" else r
                                                               for r in rows])
        p = run([ARGS.iosim, "compare", os.path.join(self.out, "base"), other], code=2)
        self.assertIn("not comparable", p.stderr)
        self.assertIn("missing: small", p.stderr)
        self.assertIn("extra: tiny", p.stderr)
        p = run([ARGS.iosim, "compare", os.path.join(self.out, "base"), other, "--allow-different"])
        self.assertIn("comparable: no:", p.stdout)

    def test_other_volume_and_incomplete_refused(self):
        vol = self.copy_run("vol", edit_apps=lambda rows: [dict(r, io_volume_bytes="20000000000")
                                                           if r["name"] == "small" else r for r in rows])
        p = run([ARGS.iosim, "compare", os.path.join(self.out, "base"), vol], code=2)
        self.assertIn("job small moves 2e+10 bytes in vol but 1e+10 in base", p.stderr)
        stop = self.copy_run("stop", edit_results=lambda r: r.update(status="stopped_at_window_end"))
        p = run([ARGS.iosim, "compare", os.path.join(self.out, "base"), stop], code=2)
        self.assertIn("status 'stopped_at_window_end'", p.stderr)

    def test_replay_mode_warns(self):
        q = self.copy_run("queued", edit_results=lambda r: r["scenario"].update(queue={"enabled": True}))
        p = run([ARGS.iosim, "compare", os.path.join(self.out, "base"), q])
        self.assertIn("warning: queued differs from base in queue: on instead of off", p.stdout)

    def test_bound_by_read_when_present(self):
        def add(rows):
            return [dict(r, bound_by="pfs" if r["name"] == "large" else "", bound_share="0.75" if r["name"] == "large"
                         else "") for r in rows]
        b = self.copy_run("bound", edit_apps=add)
        out_csv = os.path.join(self.work, "bound.csv")
        run([ARGS.iosim, "compare", os.path.join(self.out, "base"), b, "--csv", out_csv])
        rows = {(r["job"], r["run"]): r for r in read_csv(out_csv)}
        self.assertEqual(rows[("large", "bound")]["bound_by"], "pfs")
        self.assertAlmostEqual(float(rows[("large", "bound")]["bound_share"]), 0.75)
        self.assertEqual(rows[("small", "bound")]["bound_by"], "none")
        self.assertEqual(rows[("small", "base")]["bound_by"], "pfs")  # the base run writes the column (iosim)
        self.assertAlmostEqual(float(rows[("(all jobs)", "bound")]["io_time_change_pct"]), 0.0)

    def test_values_no_run_writes_refused(self):
        # apps.csv of a copy of the base run whose `large` (line 3) has io_time_s nan, -5 or 1e400 (beyond the
        # doubles): compare exits 2 naming the file, the line, the column, the value and the fix, and prints no
        # answer (before the checking reader it printed "comparable: yes", -104.1 % and +inf %).
        for bad, why in (("nan", "is not a finite number"), ("-5", "-5 is negative"),
                         ("1e400", "is not a finite number")):
            d = self.copy_run("bad", edit_apps=lambda rows, v=bad: [dict(r, io_time_s=v) if r["name"] == "large"
                                                                      else r for r in rows])
            p = run([ARGS.iosim, "compare", os.path.join(self.out, "base"), d], code=2)
            self.assertIn(f"iosim compare: error: {d}/apps.csv: line 3 (name 'large'), column io_time_s: ", p.stderr)
            self.assertIn(why, p.stderr)
            self.assertIn("fix: rerun the scenario", p.stderr)
            self.assertEqual(p.stdout, "")
        # the same run through iosim whatif's page and iosim view: refused too
        p = run([ARGS.iosim, "view", d, "-o", os.path.join(self.work, "bad.html")], code=2)
        self.assertIn("column io_time_s: '1e400' is not a finite number", p.stderr)

    def test_layout_assumption_printed_with_the_answer(self):
        # both runs say `small` had no Lustre layout (results.json "no_layout", as a Darshan job without one): the
        # answer is followed by the assumption and small's share of each run's total I/O time: base 20 of 60 s
        # (33.33 %), the variant (B = 2 GB/s) 10 of 30 s (33.33 %); none without "no_layout"
        def nl(rule):
            return lambda r: r.update(no_layout={"jobs": ["small"], "decided_by": rule})
        a = self.copy_run("nl-base", edit_results=nl("allocation fixed (n = 1)"))
        src = os.path.join(self.out, "platform.pfs_bw=2GBps")
        b = os.path.join(self.work, "nl-var")
        shutil.rmtree(b, ignore_errors=True)
        shutil.copytree(src, b)
        with open(os.path.join(b, "results.json"), encoding="utf-8") as f:
            res = json.load(f)
        nl("striping lustre-default (stripe_count = 8)")(res)
        with open(os.path.join(b, "results.json"), "w", encoding="utf-8") as f:
            json.dump(res, f)
        p = run([ARGS.iosim, "compare", a, b])
        self.assertIn("assumed: 1 of 2 jobs have no Lustre layout in their logs (small): their OSTs are assumed, "
                      "not from the logs; in nl-base: "
                      "allocation fixed (n = 1), 20 s of 60 s of I/O time (33.33 %); in nl-var: striping "
                      "lustre-default (stripe_count = 8), 10 s of 30 s of I/O time (33.33 %) (docs/whatif.md)",
                      p.stdout)
        p = run([ARGS.iosim, "compare", os.path.join(self.out, "base"), src])
        self.assertNotIn("assumed:", p.stdout)

    def test_bad_key_simulates_nothing(self):
        out = os.path.join(self.work, "bad")
        p = run([ARGS.iosim, "whatif", self.scen, "--vary", "platform.no_such_key=1,2", "-o", out], code=2)
        self.assertIn("no_such_key", p.stderr)
        self.assertIn("nothing was simulated", p.stderr)
        self.assertFalse(os.path.exists(out))
        p = run([ARGS.iosim, "whatif", self.scen, "--vary", "platform.pfs_bw", "-o", out], code=2)
        self.assertIn("expected key=v1,v2", p.stderr)
        run([ARGS.iosim, "compare", os.path.join(self.out, "base")], code=2)
        p = run([ARGS.iosim, "compare", os.path.join(self.out, "base"), os.path.join(self.work, "nowhere")], code=2)
        self.assertIn("results.json: file not found", p.stderr)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--iosim", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
