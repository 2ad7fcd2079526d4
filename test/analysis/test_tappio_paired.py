"""Tests of analysis/tappio_paired.py (a striping policy against a baseline, seed by seed) and
analysis/maintainers/divergence_by.py (first_divergence.py's lines counted by a swept setting), on hand-made inputs.

tappio_paired: the job `ior` moves 8 GB. File per process, 8 writers: optimized-striping takes 4, 2, 2 s (2, 4,
4 GB/s) for seeds 1-3, bpio 2, 2, 4 s (4, 4, 2 GB/s): seed 1 +100 %, seed 2 equal, seed 3 −50 %. Shared file, 8
writers: optimized-striping 2 s for every seed, bpio 2, 4, 2 s: only seed 2 differs (−50 %), fewer than half, so it
is named.
divergence_by: three runs, two under bpio (one `same`, one tie whose OLD order is NEW's reversed and holds ior) and
one under lustre-default (a tie of three operations, not reversed, without ior).
"""

import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import tappio_paired  # noqa: E402

RUNS = [("o1", "fpp", "optimized-striping", 1, 4.0), ("o2", "fpp", "optimized-striping", 2, 2.0),
        ("o3", "fpp", "optimized-striping", 3, 2.0), ("b1", "fpp", "bpio", 1, 2.0), ("b2", "fpp", "bpio", 2, 2.0),
        ("b3", "fpp", "bpio", 3, 4.0), ("p1", "ssf", "optimized-striping", 1, 2.0),
        ("p2", "ssf", "optimized-striping", 2, 2.0), ("p3", "ssf", "optimized-striping", 3, 2.0),
        ("q1", "ssf", "bpio", 1, 2.0), ("q2", "ssf", "bpio", 2, 4.0), ("q3", "ssf", "bpio", 3, 2.0)]


def write_campaign(d, runs):
    with open(os.path.join(d, "runs.csv"), "w") as f:
        f.write("run_id,index,workload.generator.nodes,striping.layout,striping.policy,seed,status,wall_time_s,error\n")
        for i, (rid, layout, pol, seed, _) in enumerate(runs):
            f.write(f"{rid},{i},8,{layout},{pol},{seed},complete,0.1,\n")
    for rid, _, _, _, t in runs:
        os.makedirs(os.path.join(d, "runs", rid))
        with open(os.path.join(d, "runs", rid, "apps.csv"), "w") as f:
            f.write(f"name,io_volume_bytes,io_time_s\nior,8e9,{t}\nbg-1,1e9,1\n")


class TappioPairedTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        write_campaign(self.dir, RUNS)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_main(self, *args):
        out = io.StringIO()
        with redirect_stdout(out):
            rc = tappio_paired.main([self.dir, *args])
        return rc, out.getvalue().splitlines()

    def test_counts_and_range(self):
        rc, lines = self.run_main()
        self.assertEqual(rc, 0)
        self.assertEqual(lines, [
            "fpp 8 writers: bpio ahead in 1, equal in 1, behind in 1 of 3 seeds; difference -50.00 % to +100.00 %",
            "ssf 8 writers: bpio ahead in 0, equal in 2, behind in 1 of 3 seeds; difference -50.00 % to +0.00 %; "
            "differing: seed 2 -50.00 %"])

    def test_swapped_roles(self):
        rc, lines = self.run_main("--policy", "optimized-striping", "--baseline", "bpio")
        self.assertEqual(rc, 0)
        self.assertIn("fpp 8 writers: optimized-striping ahead in 1, equal in 1, behind in 1 of 3 seeds; "
                      "difference -50.00 % to +100.00 %", lines)

    def test_unknown_policy_exits_2(self):
        r = subprocess.run([sys.executable, os.path.join(ROOT, "analysis", "tappio_paired.py"), self.dir,
                            "--baseline", "lustre-default"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("no run of striping policy 'lustre-default'", r.stderr)
        self.assertIn("fix:", r.stderr)


FD = """a: same
b: tie order (completions) at 5.0: 2 operations end together, OLD takes bg-2,ior, NEW ior,bg-2
c: tie order (completions) at 4.0: 3 operations end together, OLD takes bg-3,bg-1,bg-2, NEW bg-1,bg-2,bg-3
3 runs: 1 same, 2 tie order (completions)
"""


class DivergenceByTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        with open(os.path.join(self.dir, "runs.csv"), "w") as f:
            f.write("run_id,index,striping.policy,seed,status\na,0,bpio,1,complete\nb,1,bpio,2,complete\n"
                    "c,2,lustre-default,1,complete\n")
        self.fd = os.path.join(self.dir, "fd.txt")
        with open(self.fd, "w") as f:
            f.write(FD)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_script(self, *args):
        return subprocess.run([sys.executable, os.path.join(ROOT, "analysis", "maintainers", "divergence_by.py"), *args],
                              capture_output=True, text=True)

    def test_counts(self):
        r = self.run_script(self.fd, self.dir, "striping.policy")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.splitlines(), [
            "striping.policy: runs, same, tie order, differs, reversed, with ior",
            "bpio: 2, 1, 1, 0, 1, 1",
            "lustre-default: 1, 0, 1, 0, 0, 0",
            "all: 3, 1, 2, 0, 1, 1"])

    def test_unknown_run_exits_2(self):
        with open(self.fd, "a") as f:
            f.write("zz: same\n")
        r = self.run_script(self.fd, self.dir, "striping.policy")
        self.assertEqual(r.returncode, 2)
        self.assertIn("line 5: run 'zz'", r.stderr)

    def test_unknown_column_exits_2(self):
        r = self.run_script(self.fd, self.dir, "nope")
        self.assertEqual(r.returncode, 2)
        self.assertIn("no column 'nope'", r.stderr)


if __name__ == "__main__":
    unittest.main()
