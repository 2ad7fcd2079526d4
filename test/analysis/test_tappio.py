"""Tests of analysis/tappio.py (the measured job's bandwidth per striping policy, TAPP-IO Eq. 2) on a hand-made
campaign: layout fpp, 8 writers, policies lustre-default and bpio, seeds 1 and 2. The job `ior` moves 8 GB in
4 s and 2 s under lustre-default (2 and 4 GB/s: mean 3, sample std 1.414) and in 2 s twice under bpio (4 GB/s):
improvement 100·(4/3 − 1) = +33.3 %.
"""

import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import tappio  # noqa: E402
from mdtables import md_rows, row  # noqa: E402

RUNS = [("a", "lustre-default", 1, 4.0), ("b", "lustre-default", 2, 2.0), ("c", "bpio", 1, 2.0), ("d", "bpio", 2, 2.0)]


class TappioTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        with open(os.path.join(self.dir, "runs.csv"), "w") as f:
            f.write("run_id,index,workload.generator.nodes,striping.layout,striping.policy,seed,status,wall_time_s,"
                    "error\n")
            for i, (rid, pol, seed, _) in enumerate(RUNS):
                f.write(f"{rid},{i},8,fpp,{pol},{seed},complete,0.1,\n")
            f.write("e,4,8,fpp,bpio,3,failed,0.1,boom\n")
        for rid, _, _, t in RUNS:
            os.makedirs(os.path.join(self.dir, "runs", rid))
            with open(os.path.join(self.dir, "runs", rid, "apps.csv"), "w") as f:
                f.write(f"name,io_volume_bytes,io_time_s\nior,8e9,{t}\nbg-1,1e9,1\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_summary(self):
        t = tappio.summary(tappio.load(self.dir, "ior"), "lustre-default").set_index("policy")
        self.assertEqual(t.loc["lustre-default", "runs"], 2)
        self.assertAlmostEqual(t.loc["lustre-default", "mean"], 3.0)
        self.assertAlmostEqual(t.loc["lustre-default", "std"], 2 ** 0.5)
        self.assertAlmostEqual(t.loc["bpio", "mean"], 4.0)
        self.assertAlmostEqual(t.loc["bpio", "improvement_pct"], 100.0 / 3.0)
        self.assertAlmostEqual(t.loc["lustre-default", "improvement_pct"], 0.0)

    def test_report_and_errors(self):
        self.assertEqual(tappio.main([self.dir]), 0)
        with open(os.path.join(self.dir, "report", "tappio.md")) as f:
            self.assertIn(row("| fpp | 8 | bpio | 2 | 4.000 | 0.000 | +33.3 |"), md_rows(f.read()))
        self.assertEqual(tappio.main([self.dir, "--baseline", "raid"]), 2)
        self.assertEqual(tappio.main([self.dir, "--job", "hacc"]), 2)


class TappioBackgroundTest(unittest.TestCase):
    """A campaign sweeping workload.generator.background (0 and 8): each background level has its own baseline.
    Background 0: lustre-default 8 GB in 4 s (2 GB/s), bpio in 2 s (4 GB/s): +100 %. Background 8: lustre-default
    in 8 s (1 GB/s), bpio in 5 s (1.6 GB/s): +60 %. One seed each: the std is nan (drawn as no error bar)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        runs = [("a", 0, "lustre-default", 4.0), ("b", 0, "bpio", 2.0), ("c", 8, "lustre-default", 8.0),
                ("d", 8, "bpio", 5.0)]
        with open(os.path.join(self.dir, "runs.csv"), "w") as f:
            f.write("run_id,index,workload.generator.nodes,workload.generator.background,striping.layout,"
                    "striping.policy,seed,status,wall_time_s,error\n")
            for i, (rid, bg, pol, _) in enumerate(runs):
                f.write(f"{rid},{i},8,{bg},fpp,{pol},1,complete,0.1,\n")
        for rid, _, _, t in runs:
            os.makedirs(os.path.join(self.dir, "runs", rid))
            with open(os.path.join(self.dir, "runs", rid, "apps.csv"), "w") as f:
                f.write(f"name,io_volume_bytes,io_time_s\nior,8e9,{t}\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_each_background_level_has_its_baseline(self):
        t = tappio.summary(tappio.load(self.dir, "ior"), "lustre-default").set_index(["background", "policy"])
        self.assertAlmostEqual(t.loc[(0, "bpio"), "improvement_pct"], 100.0)
        self.assertAlmostEqual(t.loc[(8, "bpio"), "improvement_pct"], 60.0)
        self.assertEqual(tappio.main([self.dir]), 0)
        with open(os.path.join(self.dir, "report", "tappio.md")) as f:
            self.assertIn(row("| fpp | 8 | 8 | bpio | 1 | 1.600 | nan | +60.0 |"), md_rows(f.read()))


if __name__ == "__main__":
    unittest.main()
