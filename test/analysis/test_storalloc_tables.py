"""Tests of the StorAlloc analysis scripts (analysis/storalloc_sim_table.py, storalloc_disk_spread.py,
storalloc_theta_stats.py, storalloc_theta_tables.per_disk_sd) on hand-made inputs.

Simulated-placement table: nNnD random with split, seeds 1 and 2: simulated 3 and 5 GB/s (mean 4.00), estimate 2 and
4 GB/s (3.00), median ratio 1.5 and 1.25 (1.38 at two decimals: 1.375), overruns 10 and 20 (15); a split-off run and a
failed run are left out (they would move every mean).
Disk spread: disks with 1 and 3 allocations (population sd 1.0) and mean allocations 0.5 and 0.5 (sd 0).
Request statistics: requests (submit s, duration s, capacity) = (0, 10, 10 TB), (5, 10, 20 TB), (20, 10, 1 TB):
sum 31 TB, peak concurrently held 30 TB (the first two overlap on [5, 10)), share above 8 TB 30/31, mean use of 32 TB
over [0, 30] s = (10·10 + 10·20 + 10·1) TB·s / 30 s / 32 TB = 32.29 %.
"""

import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import storalloc_disk_spread  # noqa: E402
import storalloc_sim_table  # noqa: E402
import storalloc_theta_stats  # noqa: E402
from mdtables import md_rows  # noqa: E402

HEADER = ("run_id,index,platform.layout,storage.allocation.policy,storage.allocation.split,seed,status,wall_time_s,"
          "error,sim_bw_mean_Bps,est_bw_mean_Bps,sim_to_est_median,overruns")
ROWS = ["a,0,nNnD,random,true,1,complete,1,,3e9,2e9,1.5,10",
        "b,1,nNnD,random,true,2,complete,1,,5e9,4e9,1.25,20",
        "c,2,nNnD,random,false,1,complete,1,,9e9,9e9,9,90",
        "d,3,nNnD,random,true,3,failed,1,boom,,,,"]


class StorallocTables(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="iosim-storalloc-tables-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_sim_table_means_over_split_runs(self):
        with open(os.path.join(self.dir, "runs.csv"), "w") as f:
            f.write("\n".join([HEADER] + ROWS) + "\n")
        rows = md_rows("\n".join(storalloc_sim_table.table(self.dir)))
        self.assertEqual(rows[1], ["nNnD", "random", "4.00", "3.00", "1.38", "15", "2"])
        self.assertEqual(len(rows), 2)

    def test_sim_table_bad_directory_exits_2(self):
        self.assertEqual(storalloc_sim_table.main([os.path.join(self.dir, "none")]), 2)

    def test_disk_spread(self):
        with open(os.path.join(self.dir, "results.json"), "w") as f:
            json.dump({"storalloc": {"disks": [{"allocations": 1, "mean_allocations": 0.5},
                                               {"allocations": 3, "mean_allocations": 0.5}]}}, f)
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(storalloc_disk_spread.main([self.dir]), 0)
        self.assertIn("sd of allocations per disk 1.0, sd of per-disk mean allocations 0.0000", out.getvalue())
        self.assertEqual(storalloc_disk_spread.main([os.path.join(self.dir, "none")]), 2)

    def test_request_statistics(self):
        path = os.path.join(self.dir, "requests.csv")
        with open(path, "w") as f:
            f.write("id,submit_s,capacity_bytes,duration_s\n0,0,10e12,10\n1,5,20e12,10\n2,20,1e12,10\n")
        s = storalloc_theta_stats.stats(path)
        self.assertEqual(s["requests"], 3)
        self.assertAlmostEqual(s["sum_cap_PB"], 0.031)
        self.assertAlmostEqual(s["peak_concurrent_TB"], 30.0)
        self.assertAlmostEqual(s["share_over_8TB"], 30 / 31)
        self.assertAlmostEqual(s["mean_use_of_32TB_pct"], 100 * 310 / 30 / 32)


if __name__ == "__main__":
    unittest.main()
