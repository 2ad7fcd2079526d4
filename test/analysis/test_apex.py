"""Tests of analysis/apex.py (RR-9502 §6.3 figures over APEX windows) on a hand-made runs.csv.

System: workload nersc, machine 0, seed 1, windows 1 and 2, strategies fairshare, fcfs, greedy-yield; plus one
failed fcfs run on window 3 (ignored). I/O pressure: window 1 = 0.3, window 2 = 0.5 (bins of 0.2: [0.2, 0.4) and
[0.4, 0.6)). MinYield: fairshare 0.8 / 0.5, fcfs 0.4 / 0.55, greedy-yield 0.8 / 0.6, so the ratios to FairShare are
fcfs 0.5 / 1.1 and greedy-yield 1.0 / 1.2. Efficiency: fairshare 0.9 / 0.7.
"""

import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import apex  # noqa: E402
from mdtables import md_rows, row  # noqa: E402

HEADER = ("run_id,index,workload.generator.workload,workload.generator.machine,workload.generator.window,"
          "sharing.policy,seed,status,wall_time_s,error,min_yield,efficiency,utilization,io_pressure,sim_wall_s")
ROWS = [
    ("nersc", 0, 1, "fairshare", "complete", 0.8, 0.9, 0.85, 0.3, 0.01),
    ("nersc", 0, 2, "fairshare", "complete", 0.5, 0.7, 0.65, 0.5, 0.03),
    ("nersc", 0, 1, "fcfs", "complete", 0.4, 0.95, 0.9, 0.3, 0.02),
    ("nersc", 0, 2, "fcfs", "complete", 0.55, 0.75, 0.7, 0.5, 0.02),
    ("nersc", 0, 1, "greedy-yield", "complete", 0.8, 0.9, 0.85, 0.3, 0.01),
    ("nersc", 0, 2, "greedy-yield", "complete", 0.6, 0.8, 0.75, 0.5, 0.05),
    ("nersc", 0, 3, "fcfs", "failed", "", "", "", "", ""),
]


def write_campaign(d):
    with open(os.path.join(d, "runs.csv"), "w") as f:
        f.write(HEADER + "\n")
        for i, (wl, m, w, pol, st, my, ef, ut, p, t) in enumerate(ROWS):
            f.write(f"id{i},{i},{wl},{m},{w},{pol},1,{st},1.0,,{my},{ef},{ut},{p},{t}\n")


class ApexTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        write_campaign(self.dir)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_ratio_table_by_pressure_bin(self):
        df = apex.load(self.dir)
        self.assertEqual(len(df), 6)  # the failed run is left out
        t = apex.ratio_table(df, 0.2).set_index(["sharing.policy", "bin"])
        # fcfs: window 1 (W = 0.3, bin 0.2) ratio 0.4/0.8 = 0.5 (worse); window 2 (bin 0.4) 0.55/0.5 = 1.1 (better)
        self.assertAlmostEqual(t.loc[("fcfs", 0.2), "mean_ratio"], 0.5)
        self.assertEqual(t.loc[("fcfs", 0.2), "worse"], 1.0)
        self.assertEqual(t.loc[("fcfs", 0.2), "better"], 0.0)
        self.assertAlmostEqual(t.loc[("fcfs", 0.4), "mean_ratio"], 1.1)
        self.assertEqual(t.loc[("fcfs", 0.4), "better"], 1.0)
        # greedy-yield: 0.8/0.8 = 1 (neither), 0.6/0.5 = 1.2 (better)
        self.assertAlmostEqual(t.loc[("greedy-yield", 0.2), "mean_ratio"], 1.0)
        self.assertEqual(t.loc[("greedy-yield", 0.2), "worse"], 0.0)
        self.assertEqual(t.loc[("greedy-yield", 0.2), "better"], 0.0)
        self.assertAlmostEqual(t.loc[("greedy-yield", 0.4), "mean_ratio"], 1.2)
        self.assertNotIn("fairshare", set(t.reset_index()["sharing.policy"]))

    def test_summary_ranges(self):
        """A hand-made ratio table: fcfs on nersc with bins 0.0 (mean 0.99, 40 % worse, 30 windows), 0.4 (1.00, 50 %,
        30), 0.8 (1.10, 10 %, 30) and 1.4 (1.30, 2 %, 5 windows: under the 20 kept). Expectations: W < 0.6 gives
        0.99-1.00 (40%-50%), 0.8-1.2 gives 1.10 (10%), W >= 1.4 is empty."""
        import pandas as pd
        t = pd.DataFrame({"workload.generator.workload": ["nersc"] * 4, "sharing.policy": ["fcfs"] * 4,
                          "bin": [0.0, 0.4, 0.8, 1.4], "windows": [30, 30, 30, 5],
                          "mean_ratio": [0.99, 1.00, 1.10, 1.30], "worse": [0.4, 0.5, 0.1, 0.02]})
        rows = md_rows(apex.summary_table(t))
        self.assertIn(row("| fcfs | 0.99-1.00 (40%-50%) | 1.10 (10%) | |"), rows)

    def test_binned_mean_and_std(self):
        df = apex.load(self.dir)
        b = apex.binned(df, "efficiency", 1.0).set_index(["sharing.policy", "bin"])
        # one bin [0, 1): fairshare efficiency 0.9 and 0.7: mean 0.8, population std 0.1
        self.assertEqual(b.loc[("fairshare", 0.0), "n"], 2)
        self.assertAlmostEqual(b.loc[("fairshare", 0.0), "mean"], 0.8)
        self.assertAlmostEqual(b.loc[("fairshare", 0.0), "std"], 0.1)
        self.assertAlmostEqual(b.loc[("greedy-yield", 0.0), "mean"], 0.85)

    def test_report_writes_figures_and_tables(self):
        self.assertEqual(apex.main([self.dir]), 0)
        out = os.path.join(self.dir, "report")
        for name in ["apex_fig8_fairshare.png", "apex_fig9_10_ratio.png", "apex_fig11_efficiency.png",
                     "apex_fig12_utilization.png", "apex_fig13_time.png"]:
            with open(os.path.join(out, name), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", name)
        with open(os.path.join(out, "apex.md")) as f:
            md = f.read()
        self.assertIn(row("| nersc | fcfs | [0.2, 0.4) | 1 | 0.500 | 100% | 0% |"), md_rows(md))
        self.assertIn(row("| nersc | greedy-yield | [0.4, 0.6) | 1 | 1.200 | 0% | 100% |"), md_rows(md))
        self.assertIn("6 complete runs, 2 windows", md)

    def test_bad_input_exits_2(self):
        empty = tempfile.mkdtemp()
        try:
            self.assertEqual(apex.main([empty]), 2)
            with open(os.path.join(empty, "runs.csv"), "w") as f:
                f.write("run_id,index,seed,status\nx,0,1,complete\n")
            self.assertEqual(apex.main([empty]), 2)
            self.assertEqual(apex.main([self.dir, "--bin", "0"]), 2)
        finally:
            shutil.rmtree(empty)


if __name__ == "__main__":
    unittest.main()
