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
file or one without iosim-calibration/1: exit 2 naming it. These runs' labels change no scenario field: no kind of
change, so "no validated what-if band" and the held-out band, said as the calibration's own jobs' error.

What-if bands (python/iosim/whatif_band.py) from the hand-made bands file BANDS ($IOSIM_WHATIF_BANDS): ost_count with
APE p75 10 %, p90 20 %, coverage p75 60 %, p90 80 %, measured on "TOKIO-ABC Edison scratch1+scratch2 <-> scratch3",
sharing maxmin. A run labelled platform=... whose results.json says 16 OSTs against the base's 8 is an OST-count
change: its band takes the base as measured and the variant within a: r^ (1 - a) - 1 .. r^ (1 + a) - 1; r^ = 0.5:
p90 -60 .. -40 %, p75 -55 .. -45 %; r^ = 0.9: p90 0.9 x 0.8 - 1 = -28 % .. 0.9 x 1.2 - 1 = +8 % (crosses zero),
p75 -19 .. -1 % (does not). A stripe-count change: no validated band (the file has no such kind).

End to end (test_whatif_end_to_end's comment): iosim whatif of docs/whatif/site.json under calibration A, whose
per-OST capacity the runs apply when asked (apply_capacity true; A records no platform: transferred), 2 GB/s per
OST, 8 -> 16 OSTs; a calibration made for site-64n-8ost.xml (iosim calibrate --platform) applies itself on it only;
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
BANDS = {"format": "iosim-whatif-bands/1", "source": "hand-made", "command": "none", "kinds": {
    "ost_count": {"measured_on": "TOKIO-ABC Edison scratch1+scratch2 <-> scratch3", "jobs": 500,
                  "ape": {"p50": 0.05, "p75": 0.10, "p90": 0.20}, "coverage": {"p75": 0.60, "p90": 0.80},
                  "sharing": "maxmin"}}}
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


def run(cmd, code=0, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
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

    def rundir(self, name, small, large, cal, osts=None, record=None, sharing="maxmin"):
        d = os.path.join(self.work, name)
        os.makedirs(d, exist_ok=True)
        sc = {"workload": {"applications": []}, "sharing": {"policy": sharing}}
        if cal is not None:
            sc["calibration"] = os.path.join(self.work, cal)
        res = {"status": "complete", "scenario": sc}
        if osts is not None:
            res["platform"] = {"pool_role": "ost", "resources": osts}
        if record is not None:
            res["calibration"] = record
        with open(os.path.join(d, "results.json"), "w", encoding="utf-8") as f:
            json.dump(res, f)
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
        self.assertIn("(-50.0 %; no validated what-if band; model error of calibration a.json", p.stdout)
        self.assertIn("change within that error (the calibration's own jobs, not a what-if's): p90 -66.7 .. -25.0 %, "
                      "p75 -59.1 .. -38.9 %", p.stdout)
        self.assertEqual(rows[("(all jobs)", "fast")]["band"], "held-out")
        # a.json records no sharing model: said; the runs' records are absent (hand-made): said too
        self.assertIn("the band's sharing model is not recorded", p.stdout)
        self.assertIn("both runs: not recorded by the run (an older iosim)", p.stdout)

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

    def bands_compare(self, tag, fast_small, fast_large, label, cal="a.json", record=None, bands=BANDS, code=0,
                      sharing="maxmin"):
        """iosim compare of base (20 s, 40 s on 8 OSTs) and a run labelled `label` on 16 OSTs, with the bands file
        `bands` ($IOSIM_WHATIF_BANDS)."""
        path = os.path.join(self.work, f"bands-{tag}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(bands, f)
        base = self.rundir(f"wb-base-{tag}", 20, 40, cal, osts=8, record=record)
        fast = self.rundir(f"wb-fast-{tag}", fast_small, fast_large, cal, osts=16, record=record, sharing=sharing)
        out = os.path.join(self.work, f"wb-{tag}.csv")
        p = run([ARGS.iosim, "compare", base, fast, "--labels", f"base,{label}", "--csv", out], code,
                env=dict(os.environ, IOSIM_WHATIF_BANDS=path))
        return p, (read_csv(out) if code == 0 else None)

    def test_whatif_band_of_the_kind(self):
        # an OST-count change (8 -> 16 OSTs), r^ = 0.5: p90 -60 .. -40 %, p75 -55 .. -45 % (the module's doc)
        p, rows = self.bands_compare("ost", 10, 20, "platform=b.xml")
        r = rows[("(all jobs)", "platform=b.xml")]
        self.assertEqual(r["band"], "whatif:ost_count")
        self.assertAlmostEqual(float(r["io_change_p90_lo_pct"]), -60.0, places=6)
        self.assertAlmostEqual(float(r["io_change_p90_hi_pct"]), -40.0, places=6)
        self.assertAlmostEqual(float(r["io_change_p75_lo_pct"]), -55.0, places=6)
        self.assertAlmostEqual(float(r["io_change_p75_hi_pct"]), -45.0, places=6)
        self.assertAlmostEqual(float(r["band_coverage_p90_pct"]), 80.0)
        self.assertAlmostEqual(float(r["band_coverage_p75_pct"]), 60.0)
        answer = [line for line in p.stdout.splitlines() if line.startswith("answer:")][0]
        self.assertIn("what-if band of an OST-count change (8 -> 16 OSTs), measured on TOKIO-ABC Edison "
                      "scratch1+scratch2 <-> scratch3, 500 jobs (transferred: not measured on this site): "
                      "p90 -60.0 .. -40.0 % (empirical coverage 80 % of a nominal 90 %), "
                      "p75 -55.0 .. -45.0 % (empirical coverage 60 % of a nominal 75 %)", answer)
        self.assertIn("the band describes the runs' sharing `maxmin`", answer)
        self.assertNotIn("crosses zero", answer)
        # r^ = 0.9 under sharing interference: the p90 band crosses zero (-28 .. +8 %), p75 does not (-19 .. -1 %);
        # the band was measured with maxmin: said
        p, rows = self.bands_compare("zero", 18, 36, "platform=b.xml", sharing="interference")
        answer = [line for line in p.stdout.splitlines() if line.startswith("answer:")][0]
        self.assertIn("p90 -28.0 .. +8.0 %", answer)
        self.assertIn("p75 -19.0 .. -1.0 %", answer)
        self.assertIn("the p90 band crosses zero: the change is not shown at that level", answer)
        self.assertIn("the band describes sharing `maxmin`, not the runs' `interference`", answer)
        # a stripe-count change: no validated band; the held-out band, said as such
        p, rows = self.bands_compare("stripe", 10, 20, "workload.darshan.stripe_count=2")
        answer = [line for line in p.stdout.splitlines() if line.startswith("answer:")][0]
        self.assertIn("no validated band for a stripe-count change (no measured what-if of this kind); model error "
                      "of calibration a.json", answer)
        self.assertEqual(rows[("(all jobs)", "workload.darshan.stripe_count=2")]["band"], "held-out")
        # no bands file at all (unset: the packaged one, absent until the backtest ships it) behaves as no band

    def test_whatif_band_site_and_calibration_standing(self):
        # a calibration measured on Edison: the band of Edison's what-ifs is the site's own; the run's record says
        # the calibration's band is transferred (made for another platform), capacities unchanged, and stale
        cal = dict(CAL_A, file_systems=[dict(FS["file_systems"][0], system="edison")])
        with open(os.path.join(self.work, "edison.json"), "w", encoding="utf-8") as f:
            json.dump(cal, f)
        record = {"file": os.path.join(self.work, "edison.json"), "system": "edison", "fs": "scratch",
                  "platform_recorded": "/x/edison.xml", "platform_matches": False, "apply_capacity": "auto",
                  "capacity_changed": False, "osts_changed": 0, "band": "transferred", "age_days": 2900.4,
                  "stale_after_days": 30, "stale": True}
        p, rows = self.bands_compare("own", 10, 20, "platform=b.xml", cal="edison.json", record=record)
        answer = [line for line in p.stdout.splitlines() if line.startswith("answer:")][0]
        self.assertIn("(measured on this site's own what-ifs)", answer)
        self.assertIn("calibration edison.json, 2900 days old, STALE (more than its stale_after_days 30): both runs: "
                      "band transferred, not validated on this platform (made for edison.xml), capacities unchanged",
                      answer)
        # the same with the platform matching: validated; a fresh one: its age against the rule
        record.update(platform_matches=True, capacity_changed=True, band="validated", age_days=3.2, stale=False)
        p, rows = self.bands_compare("own2", 10, 20, "platform=b.xml", cal="edison.json", record=record)
        answer = [line for line in p.stdout.splitlines() if line.startswith("answer:")][0]
        self.assertIn("calibration edison.json, 3 days old (stale after 30): both runs: band validated on this "
                      "platform (the one it was made for), capacities applied", answer)

    def test_bad_bands_file(self):
        bad = {**BANDS, "kinds": {"ost_count": {**BANDS["kinds"]["ost_count"], "coverage": {"p75": 1.5, "p90": 0.8}}}}
        p, _ = self.bands_compare("bad", 10, 20, "platform=b.xml", bands=bad, code=2)
        self.assertIn("kinds.ost_count.coverage.p75 = 1.5: not a fraction >= 0 and <= 1", p.stderr)
        p, _ = self.bands_compare("fmt", 10, 20, "platform=b.xml", bands={"format": "x"}, code=2)
        self.assertIn("format is not \"iosim-whatif-bands/1\"", p.stderr)

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
        # an OST-count change: the band is the packaged measured what-if band of that kind (a = its p90 APE), the
        # base as simulated and the variant within a: r^ (1 - a) .. r^ (1 + a)
        with open(os.path.join(ARGS.source, "python", "iosim", "whatif_bands.json"), encoding="utf-8") as f:
            a = json.load(f)["kinds"]["ost_count"]["ape"]["p90"]
        self.assertAlmostEqual(float(rows[("sample", var)]["io_change_p90_lo_pct"]), 100 * (0.64 * (1 - a) - 1),
                               places=2)
        self.assertAlmostEqual(float(rows[("sample", var)]["io_change_p90_hi_pct"]), 100 * (0.64 * (1 + a) - 1),
                               places=2)
        # without measured what-if bands: the calibration's own held-out band, both runs at a = 0.2 in opposite
        # directions: 0.64 x 0.8 / 1.2 - 1 = -57.333 %, 0.64 x 1.2 / 0.8 - 1 = -4.0 %
        empty = os.path.join(self.work, "no-bands.json")
        with open(empty, "w", encoding="utf-8") as f:
            json.dump({"format": "iosim-whatif-bands/1", "kinds": {}}, f)
        out2 = os.path.join(self.work, "w2")
        p2 = subprocess.run([ARGS.iosim, "whatif", os.path.join(ARGS.source, "docs", "whatif", "site.json"), "--set",
                             f'calibration={{"file": "{cal}", "apply_capacity": true}}', "--vary",
                             f"platform={os.path.join(ARGS.source, 'test', 'fixtures', 'site-64n-16ost.xml')}",
                             "-o", out2], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(env, IOSIM_WHATIF_BANDS=empty))
        self.assertEqual(p2.returncode, 0, p2.stderr)
        rows2 = read_csv(os.path.join(out2, "compare.csv"))
        self.assertAlmostEqual(float(rows2[("sample", var)]["io_change_p90_lo_pct"]), 100 * (0.64 * 0.8 / 1.2 - 1),
                               places=4)
        self.assertAlmostEqual(float(rows2[("sample", var)]["io_change_p90_hi_pct"]), -4.0, places=4)
        self.assertIn("model error of calibration a.json: median 5.0 %", p.stdout)
        with open(os.path.join(out, "compare.html"), encoding="utf-8") as f:
            self.assertIn("model error of calibration a.json", f.read())
        # asked on a platform a.json was not made for (it records none): transferred, said on the answer line
        answer = [line for line in p.stdout.splitlines() if line.startswith("answer:")][0]
        self.assertIn("both runs: band transferred, not validated on this platform (made for no recorded platform), "
                      "capacities applied (apply_capacity true)", answer)
        self.assertIn("STALE", answer)  # measured up to 2018-02-16, stale after 30 days

    def test_calibration_made_for_the_platform(self):
        # iosim calibrate on the sample logs of one file system (lustre-24-osts: sample, sample-badost,
        # sample-goodost; c = 24535.282 MiB/s / 24 = 1.07196e9 B/s, docs/darshan.md's table) for site-64n-8ost.xml.
        # Named by its path: applied on that very platform (sample alone behind its 8 OSTs: 2199023263277 /
        # (8 x 1.07196e9) s = 256.428 s) and validated there; on site-64n-16ost.xml (the variant) not applied (16 x
        # 1.5 GB/s = 24 GB/s of OSTs, under the 25 GB/s core link: 91.626 s), said transferred, and compare warns
        # that the runs applied it differently.
        data = os.environ.get("IOSIM_DATA_DIR") or os.path.join(ARGS.source, "..", "shared", "datasets")
        env = dict(os.environ, IOSIM_DATA_DIR=data)
        xml8 = os.path.join(ARGS.source, "test", "fixtures", "site-64n-8ost.xml")
        xml16 = os.path.join(ARGS.source, "test", "fixtures", "site-64n-16ost.xml")
        cal = os.path.join(self.work, "site.json")
        run([ARGS.iosim, "calibrate", "--darshan", os.path.join(data, "darshan-logs"), "--fs", "lustre-24-osts",
             "--days", "100000", "--platform", xml8, "-o", cal], env=env)
        c = 24535.282 * 1048576 / 24
        out = os.path.join(self.work, "made-for")
        p = run([ARGS.iosim, "whatif", os.path.join(ARGS.source, "docs", "whatif", "site.json"), "--set",
                 f"calibration={cal}", "--vary", f"platform={xml16}", "-o", out], env=env)
        self.assertIn(f"iosim: calibration {cal} applied: the bandwidth of each of the platform's 8 OSTs (its link) "
                      "is 1.07196e+09 B/s", p.stderr)
        self.assertIn("the platform is the one the calibration was made for: its band is validated here", p.stderr)
        self.assertIn("is applied to another platform: no capacity changed", p.stderr)
        rows = read_csv(os.path.join(out, "compare.csv"))
        var = [r for (j, r) in rows if r != "base"][0]
        self.assertAlmostEqual(float(rows[("sample", "base")]["io_time_s"]), 2199023263277 / (8 * c), places=3)
        self.assertAlmostEqual(float(rows[("sample", var)]["io_time_s"]), 2199023263277 / 24e9, places=3)
        self.assertIn("warning: the runs applied their calibration's per-OST capacity differently (base: applied, "
                      f"{var}: not applied)", p.stdout)
        answer = [line for line in p.stdout.splitlines() if line.startswith("answer:")][0]
        self.assertIn("base: band validated on this platform (the one it was made for), capacities applied; this run: "
                      "band transferred, not validated on this platform (made for site-64n-8ost.xml), capacities "
                      "unchanged", answer)
        vdir = [d for d in os.listdir(out) if d != "base" and os.path.isdir(os.path.join(out, d))][0]
        with open(os.path.join(out, vdir, "results.json"), encoding="utf-8") as f:
            rec = json.load(f)["calibration"]
        self.assertEqual((rec["platform_matches"], rec["capacity_changed"], rec["band"], rec["fs"]),
                         (False, False, "transferred", "lustre-24-osts"))
        with open(os.path.join(out, "base", "results.json"), encoding="utf-8") as f:
            rec = json.load(f)["calibration"]
        self.assertEqual((rec["platform_matches"], rec["capacity_changed"], rec["band"], rec["osts_changed"]),
                         (True, True, "validated", 8))

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
