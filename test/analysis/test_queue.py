"""Tests of analysis/jobqueue.py (each job's I/O-node count over time in a job-queue campaign) on a hand-made campaign.

System: two complete runs (mckp, static) and one failed run. mckp: job A has 8 I/O nodes on [0, 10) then 4 on
[10, 40) (share 25 % / 75 %); job B has 4 on [10, 30). static: A 1 on [0, 50), B 2 on [50, 60).
"""

import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import jobqueue as queue_py  # noqa: E402
from mdtables import md_rows, row  # noqa: E402

RUNS = ("run_id,index,allocation.policy,seed,status,wall_time_s,error,makespan_s,aggregate_bandwidth_Bps,"
        "mean_io_slowdown\n"
        "m,0,mckp,1,complete,0.1,,40,2e9,1.5\n"
        "s,1,static,1,complete,0.1,,60,1e9,3.25\n"
        "f,2,size,1,failed,0.1,boom,,,\n")
ALLOC = {
    "m": "app,start_s,end_s,n_resources,resources\nA,0,10,8,x\nA,10,40,4,x\nB,10,30,4,y\n",
    "s": "app,start_s,end_s,n_resources,resources\nA,0,50,1,x\nB,50,60,2,y\n",
}
APPS = "name,nodes\nA,8\nB,16\n"


class QueueTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        with open(os.path.join(self.dir, "runs.csv"), "w") as f:
            f.write(RUNS)
        for rid, text in ALLOC.items():
            os.makedirs(os.path.join(self.dir, "runs", rid))
            with open(os.path.join(self.dir, "runs", rid, "allocations.csv"), "w") as f:
                f.write(text)
            with open(os.path.join(self.dir, "runs", rid, "apps.csv"), "w") as f:
                f.write(APPS)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_time_per_count(self):
        runs = queue_py.load(self.dir, "allocation.policy")
        self.assertEqual([p for p, _, _, _ in runs], ["mckp", "static"])  # the failed run is left out
        share = queue_py.time_per_count(runs[0][2])
        self.assertEqual(share.loc["A", 8], 10.0)
        self.assertEqual(share.loc["A", 4], 30.0)
        self.assertEqual(share.loc["B", 4], 20.0)
        self.assertEqual(share.loc["B", 8], 0.0)

    def test_report(self):
        self.assertEqual(queue_py.main([self.dir]), 0)
        with open(os.path.join(self.dir, "report", "queue_allocations.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        with open(os.path.join(self.dir, "report", "queue.md")) as f:
            md = f.read()
        self.assertIn(row("| mckp | 40.0 | 2.00 | 1.500 |"), md_rows(md))
        self.assertIn(row("| static | 60.0 | 1.00 | 3.250 |"), md_rows(md))
        self.assertIn(row("| job | 4 I/O nodes | 8 I/O nodes |"), md_rows(md))
        self.assertIn(row("| A | 75% | 25% |"), md_rows(md))  # mckp: columns 4, 8
        self.assertIn(row("| B | 100% | 0% |"), md_rows(md))

    def test_bad_input_exits_2(self):
        self.assertEqual(queue_py.main([self.dir, "--policy", "sharing.policy"]), 2)
        os.remove(os.path.join(self.dir, "runs", "m", "allocations.csv"))
        self.assertEqual(queue_py.main([self.dir]), 2)
        self.assertEqual(queue_py.main([os.path.join(self.dir, "nowhere")]), 2)


if __name__ == "__main__":
    unittest.main()
