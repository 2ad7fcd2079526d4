"""Tests of analysis/ipdps21_queue_pfs.py (IPDPS'21 §5.3's queue with its PFS capped) on a hand-made runs.csv."""

import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import pandas as pd  # noqa: E402

import ipdps21_queue_pfs  # noqa: E402


class QueuePfsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, rows):
        pd.DataFrame([{"run_id": f"r{i}", "index": i, "platform.pfs_bw": pfs, "allocation.policy": pol, "seed": 1,
                       "status": "complete", "wall_time_s": 0.1, "error": "", "aggregate_bandwidth_Bps": bw}
                      for i, (pfs, pol, bw) in enumerate(rows)]).to_csv(os.path.join(self.dir, "runs.csv"),
                                                                       index=False)

    def test_ratio_per_pfs_in_numeric_order(self):
        # 10 GB/s: 4 and 10 GB/s -> 2.5; 1 GB/s: 2 and 3 -> 1.5; sorted by the number (1 before 10, though "10GBps"
        # sorts before "1GBps" as text)
        self.write([("10GBps", "static-ceil", 4e9), ("10GBps", "mckp", 10e9), ("1GBps", "static-ceil", 2e9),
                    ("1GBps", "mckp", 3e9)])
        rows = ipdps21_queue_pfs.table(pd.read_csv(os.path.join(self.dir, "runs.csv")))
        self.assertEqual([r[0] for r in rows], [1.0, 10.0])
        self.assertAlmostEqual(rows[0][3], 1.5, places=12)
        self.assertAlmostEqual(rows[1][3], 2.5, places=12)
        self.assertEqual(ipdps21_queue_pfs.main([self.dir]), 0)
        with open(os.path.join(self.dir, "report", "queue_pfs.md")) as f:
            text = f.read()
        self.assertIn("1.90", text)  # the paper's row: 16.02 / 8.41

    def test_missing_policy_exits_2(self):
        self.write([("1GBps", "static-ceil", 2e9)])
        self.assertEqual(ipdps21_queue_pfs.main([self.dir]), 2)


if __name__ == "__main__":
    unittest.main()
