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


class BesidePaperTest(unittest.TestCase):
    """System: static-ceil and mckp runs of two jobs. HACC-1 writes 1e9 B in 10 s on 1 I/O node under static-ceil
    (100 MB/s) and in 0.5 s on 4 under mckp (2000 MB/s); X-2 writes 2e9 B in 2 s on 8 (1000 MB/s), then in 4 s on 2
    (500 MB/s). Expectations (by hand): totals 1.10 and 2.50 GB/s, 2.27x; with HACC at the paper's live 987.3 and
    3850.7 MB/s: 1.1 - 0.1 + 0.9873 = 1.99 GB/s and 2.5 - 2.0 + 3.8507 = 4.35 GB/s, 2.19x; no comparison without
    both policies or without the bandwidth columns."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        with open(os.path.join(self.dir, "runs.csv"), "w") as f:
            f.write("run_id,index,allocation.policy,seed,status,wall_time_s,error,makespan_s,aggregate_bandwidth_Bps,"
                    "mean_io_slowdown\ns,0,static-ceil,1,complete,0.1,,20,1.1e9,2\nm,1,mckp,1,complete,0.1,,10,"
                    "2.5e9,1\n")
        apps = {"s": "name,n_resources,io_volume_bytes,io_time_s\nHACC-1,1,1e9,10\nX-2,8,2e9,2\n",
                "m": "name,n_resources,io_volume_bytes,io_time_s\nHACC-1,4,1e9,0.5\nX-2,2,2e9,4\n"}
        for rid, text in apps.items():
            os.makedirs(os.path.join(self.dir, "runs", rid))
            with open(os.path.join(self.dir, "runs", rid, "apps.csv"), "w") as f:
                f.write(text)
            with open(os.path.join(self.dir, "runs", rid, "allocations.csv"), "w") as f:
                f.write("app,start_s,end_s,n_resources,resources\nHACC-1,0,1,1,x\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_hand_computed(self):
        md = "\n".join(queue_py.beside_paper(queue_py.load(self.dir, "allocation.policy")))
        self.assertIn(row("| HACC-1 | 100 (1) | 2000 (4) | 987.3 | 3850.7 |"), md_rows(md))
        self.assertIn(row("| X-2 | 1000 (8) | 500 (2) | | |"), md_rows(md))
        self.assertIn("MCKP / STATIC = 2.27x", md)
        self.assertIn("STATIC 1.99 GB/s, MCKP 4.35 GB/s, 2.19x", md)

    def test_needs_both_policies(self):
        runs = [r for r in queue_py.load(self.dir, "allocation.policy") if r[0] != "mckp"]
        self.assertEqual(queue_py.beside_paper(runs), [])
