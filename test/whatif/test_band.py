#!/usr/bin/env python3
"""The error band of iosim compare and iosim whatif (python/iosim/compare.py: run_calibration, change_band, add_band)
against hand computation, on hand-made calibration files and run directories.

Hand-made runs (apps.csv): base small 20 s, large 40 s (total 60 s); fast 10 s, 20 s (total 30 s: -50 %).
Calibration A: held-out APE median 5 %, p75 10 %, p90 20 %. T / T^ lies in [1 - a, 1 + a], so the true ratio of a
change with simulated ratio r^ = 0.5 lies in 0.5 (1 - a) / (1 + a) .. 0.5 (1 + a) / (1 - a):
- p90 (a = 0.2): 0.5 x 0.8 / 1.2 = 1/3 -> -66.667 %; 0.5 x 1.2 / 0.8 = 0.75 -> -25.000 %
- p75 (a = 0.1): 0.5 x 0.9 / 1.1 = 0.40909 -> -59.091 %; 0.5 x 1.1 / 0.9 = 0.61111 -> -38.889 %
Calibration B (p90 30 %, p75 15 %, median 10 %) for the fast run, A for the base (mixed, a warning): p90
0.5 x 0.7 / 1.2 = 0.29167 -> -70.833 %; 0.5 x 1.3 / 0.8 = 0.8125 -> -18.750 %.
Calibration "wide" (p75 120 %, p90 150 %): 1 - a < 0, so the band is -100 % (a time is never negative) .. +inf.
No calibration, or one without a held-out job: "error not validated" and empty band columns. A missing calibration
file or one without iosim-calibration/1: exit 2 naming it. End to end (test_whatif_end_to_end's comment): iosim whatif
of docs/whatif/site.json under calibration A, whose per-OST capacity the runs apply when asked (apply_capacity true;
A records no platform), 2 GB/s per OST, 8 -> 16 OSTs;
a calibration that cannot apply (no OSTs in the platform, no per-OST capacity in the file): exit 2.

usage: test_band.py --iosim BUILD/iosim --source SRC --work DIR   (DIR is removed at the end)
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
WINDOW = {"window": {"newest_measurement": "2018-02-16T02:31:17Z"}, "stale_after_days": 30}  # iosim check's fields
FS = {"file_systems": [{"system": "site", "fs": "scratch", "osts": 8, "capacity_Bps": 16e9,
                        "ost_capacity_Bps": 2e9}]}  # the per-OST capacity a run applies (c = 2 GB/s)
CAL_A = {"format": "iosim-calibration/1", **WINDOW, **FS,
         "held_out_error": {"jobs": 40, "median_ape": 0.05, "p75": 0.10, "p90": 0.20}}
CAL_B = {"format": "iosim-calibration/1", **WINDOW, "held_out_error": {"jobs": 12, "median_ape": 0.10, "p75": 0.15,
                                                                "p90": 0.30}}
SCENARIO = {
    "platform": {"kind": "pfs-single", "compute": 4, "nic_bw": "100GBps", "pfs_bw": "1GBps"},
    "workload": {"applications": [
        {"name": "small", "nodes": 1, "iterations": 1, "work": "5s", "io": "10GB"},
        {"name": "large", "nodes": 1, "iterations": 1, "work": "5s", "io": "30GB"}]},
    "sharing": {"policy": "fairshare"},
    "output": {"dir": "unused", "progress": False},
    "calibration": "a.json",
}


def run(cmd, code=0):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != code:
        raise AssertionError(f"{' '.join(cmd)} exited {p.returncode}, expected {code}:\n{p.stdout}\n{p.stderr}")
    return p


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return {(r["job"], r["run"]): r for r in csv.DictReader(f)}


class Band(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = os.path.abspath(ARGS.work)
        shutil.rmtree(cls.work, ignore_errors=True)
        os.makedirs(cls.work)
        cals = (("a.json", CAL_A), ("b.json", CAL_B), ("b-none.json", {**CAL_B, "file_systems": []}),
                ("bad.json", {"format": "other"}),
                ("wide.json", {"format": "iosim-calibration/1", "held_out_error": {
                    "jobs": 3, "median_ape": 0.5, "p75": 1.2, "p90": 1.5}}),
                ("empty.json", {"format": "iosim-calibration/1", "held_out_error": {"jobs": 0, "median_ape": None}}))
        for name, cal in cals:
            with open(os.path.join(cls.work, name), "w", encoding="utf-8") as f:
                json.dump(cal, f)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def rundir(self, name, small, large, cal):
        d = os.path.join(self.work, name)
        os.makedirs(d, exist_ok=True)
        sc = {"workload": {"applications": []}}
        if cal is not None:
            sc["calibration"] = os.path.join(self.work, cal)
        with open(os.path.join(d, "results.json"), "w", encoding="utf-8") as f:
            json.dump({"status": "complete", "scenario": sc}, f)
        with open(os.path.join(d, "apps.csv"), "w", encoding="utf-8") as f:
            f.write(f"name,io_volume_bytes,io_time_s,end_s\nsmall,1e10,{small},{small + 5}\n"
                    f"large,3e10,{large},{large + 5}\n")
        return d

    def compare(self, base_cal, fast_cal, tag, code=0):
        base = self.rundir(f"base-{tag}", 20, 40, base_cal)
        fast = self.rundir(f"fast-{tag}", 10, 20, fast_cal)
        out = os.path.join(self.work, f"{tag}.csv")
        p = run([ARGS.iosim, "compare", base, fast, "--labels", "base,fast", "--csv", out], code)
        return p, (read_csv(out) if code == 0 else None)

    def band(self, rows, job, q):
        r = rows[(job, "fast")]
        return float(r[f"io_change_{q}_lo_pct"]), float(r[f"io_change_{q}_hi_pct"])

    def test_same_calibration(self):
        p, rows = self.compare("a.json", "a.json", "same")
        for job in ("small", "large", "(all jobs)"):
            lo, hi = self.band(rows, job, "p90")
            self.assertAlmostEqual(lo, 100 * (0.5 * 0.8 / 1.2 - 1), places=6)
            self.assertAlmostEqual(hi, -25.0, places=6)
            lo, hi = self.band(rows, job, "p75")
            self.assertAlmostEqual(lo, 100 * (0.5 * 0.9 / 1.1 - 1), places=6)
            self.assertAlmostEqual(hi, 100 * (0.5 * 1.1 / 0.9 - 1), places=6)
        self.assertEqual(rows[("small", "base")]["io_change_p90_lo_pct"], "")  # the base has no change
        self.assertAlmostEqual(float(rows[("small", "fast")]["error_p90_pct"]), 20.0)
        self.assertAlmostEqual(float(rows[("small", "fast")]["error_median_pct"]), 5.0)
        self.assertIn("model error of calibration a.json: median 5.0 %, p75 10.0 %, p90 20.0 %", p.stdout)
        self.assertIn("(-50.0 %; model error of calibration a.json", p.stdout)
        self.assertIn("p90 -66.7 .. -25.0 %, p75 -59.1 .. -38.9 %", p.stdout)

    def test_different_calibrations(self):
        p, rows = self.compare("a.json", "b.json", "mixed")
        lo, hi = self.band(rows, "(all jobs)", "p90")
        self.assertAlmostEqual(lo, 100 * (0.5 * 0.7 / 1.2 - 1), places=6)
        self.assertAlmostEqual(hi, 100 * (0.5 * 1.3 / 0.8 - 1), places=6)
        self.assertIn("warning: the runs used different calibrations", p.stdout)

    def test_no_calibration(self):
        p, rows = self.compare(None, None, "none")
        self.assertIn("no calibration: error not validated", p.stdout)
        self.assertIn("(-50.0 %; no calibration: error not validated)", p.stdout)
        self.assertEqual(rows[("(all jobs)", "fast")]["calibration"], "none")
        self.assertEqual(rows[("(all jobs)", "fast")]["io_change_p90_lo_pct"], "")
        p, rows = self.compare("a.json", None, "half")  # one run without: not validated, and a warning
        self.assertIn("warning: the runs used different calibrations", p.stdout)
        self.assertEqual(rows[("(all jobs)", "fast")]["io_change_p90_lo_pct"], "")
        self.assertIn("no calibration: error not validated)", p.stdout)

    def test_wide_and_empty(self):
        # p90 1.5, p75 1.2 (APE above 100 %): the low end is 0 x ... = -100 %, the high end unbounded (1 - a < 0)
        p, rows = self.compare("wide.json", "wide.json", "wide")
        for q in ("p75", "p90"):
            lo, hi = self.band(rows, "(all jobs)", q)
            self.assertEqual(lo, -100.0)
            self.assertEqual(hi, float("inf"))
        self.assertIn("p90 -100.0 .. +inf %", p.stdout)
        p, rows = self.compare("empty.json", "empty.json", "empty")  # no held-out job: not validated
        self.assertIn("has no held-out job: error not validated", p.stdout)
        self.assertEqual(rows[("(all jobs)", "fast")]["io_change_p90_lo_pct"], "")

    def test_bad_calibration(self):
        p, _ = self.compare("missing.json", "missing.json", "missing", code=2)
        self.assertIn("missing.json", p.stderr)
        self.assertIn("fix:", p.stderr)
        p, _ = self.compare("bad.json", "bad.json", "bad", code=2)
        self.assertIn("bad.json: format is not \"iosim-calibration/1\"", p.stderr)

    def test_whatif_end_to_end(self):
        # docs/whatif/site.json (the six sample Darshan logs on test/fixtures/site-64n-8ost.xml: 8 OSTs of 1.5 GB/s,
        # a 25 GB/s core link, 64 node links of 1 GB/s) with calibration A's per-OST capacity c = 2 GB/s: `sample`
        # (2,199,023,263,277 B from 64 nodes, alone) is bound by the 8 OSTs: 2199023263277 / 16e9 = 137.43895 s; on
        # site-64n-16ost.xml the 16 OSTs give 32 GB/s and the 25 GB/s core link binds: 2199023263277 / 25e9 =
        # 87.96093 s. r^ = 16 / 25 = 0.64; p90 band 0.64 x 0.8 / 1.2 - 1 = -57.333 %, 0.64 x 1.2 / 0.8 - 1 = -4.0 %.
        data = os.environ.get("IOSIM_DATA_DIR") or os.path.join(ARGS.source, "..", "shared", "datasets")
        self.assertTrue(os.path.isdir(os.path.join(data, "darshan-logs")), f"{data}/darshan-logs missing: set "
                        "IOSIM_DATA_DIR (iosim data fetch)")
        env = dict(os.environ, IOSIM_DATA_DIR=data)
        out = os.path.join(self.work, "w")
        cal = os.path.join(self.work, "a.json")
        p = subprocess.run([ARGS.iosim, "whatif", os.path.join(ARGS.source, "docs", "whatif", "site.json"), "--set",
                            f'calibration={{"file": "{cal}", "apply_capacity": true}}', "--vary",
                            f"platform={os.path.join(ARGS.source, 'test', 'fixtures', 'site-64n-16ost.xml')}",
                            "-o", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"iosim: calibration {cal} applied: the bandwidth of each of the platform's 8 OSTs (its link) "
                      "is 2e+09 B/s", p.stderr)
        rows = read_csv(os.path.join(out, "compare.csv"))
        var = [r for (j, r) in rows if r != "base"][0]
        self.assertAlmostEqual(float(rows[("sample", "base")]["io_time_s"]), 2199023263277 / 16e9, places=4)
        self.assertAlmostEqual(float(rows[("sample", var)]["io_time_s"]), 2199023263277 / 25e9, places=4)
        self.assertAlmostEqual(float(rows[("sample", var)]["io_change_p90_lo_pct"]), 100 * (0.64 * 0.8 / 1.2 - 1),
                               places=4)
        self.assertAlmostEqual(float(rows[("sample", var)]["io_change_p90_hi_pct"]), -4.0, places=4)
        self.assertIn("model error of calibration a.json: median 5.0 %", p.stdout)
        with open(os.path.join(out, "compare.html"), encoding="utf-8") as f:
            self.assertIn("model error of calibration a.json", f.read())

    def test_calibration_that_cannot_apply(self):
        # a platform without OSTs (pfs-single), and a calibration without a per-OST capacity: exit 2, nothing run
        scen = os.path.join(self.work, "pfs.json")
        with open(scen, "w", encoding="utf-8") as f:
            json.dump(SCENARIO, f)
        p = run([ARGS.iosim, "run", scen, "--set", f'calibration={{"file": "{self.work}/a.json", "apply_capacity": '
                 f'true}}', "--set", f"output.dir={self.work}/pfs-out"], 2)
        self.assertIn("a.json: calibration: fits a per-OST capacity, but the scenario's platform has no OSTs", p.stderr)
        # not asked for (a.json records no platform): nothing to apply, the run goes on and says so
        p = run([ARGS.iosim, "run", scen, "--set", f"output.dir={self.work}/pfs-out"], 0)
        self.assertIn("no capacity changed", p.stderr)
        shutil.rmtree(f"{self.work}/pfs-out")
        p = run([ARGS.iosim, "run", scen, "--set", f"calibration={self.work}/b-none.json", "--set",
                 f"output.dir={self.work}/pfs-out"], 2)
        self.assertIn("b-none.json: file_systems[].ost_capacity_Bps: 0 file system(s) with a per-OST capacity",
                      p.stderr)

def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--iosim", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
