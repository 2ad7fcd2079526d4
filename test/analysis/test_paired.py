"""analysis/paired.py: two policies compared instance by instance. Values written and checked by hand."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# At W 0.5, seeds 1-3: A − B = +0.1, −0.2, +0.4 → mean +0.1, sample sd 0.3, standard error 0.3/√3 = 0.173, A above
# on 2 of 3 (67 %). At W 0.8 seed 1 only: +0.5, no standard error; seed 2 of B failed (no pair).
RUNS_CSV = """run_id,index,workload.generator.pressure,sharing.policy,seed,status,wall_time_s,error,efficiency
r1,0,0.5,A,1,complete,1,,0.9
r2,1,0.5,B,1,complete,1,,0.8
r3,2,0.5,A,2,complete,1,,0.5
r4,3,0.5,B,2,complete,1,,0.7
r5,4,0.5,A,3,complete,1,,0.6
r6,5,0.5,B,3,complete,1,,0.2
r7,6,0.8,A,1,complete,1,,0.7
r8,7,0.8,B,1,complete,1,,0.2
r9,8,0.8,A,2,complete,1,,0.9
r10,9,0.8,B,2,failed,1,boom,
"""


class PairedTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="iosim-paired-")
        with open(os.path.join(self.dir, "runs.csv"), "w") as f:
            f.write(RUNS_CSV)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_pairs(self):
        out = subprocess.run([sys.executable, os.path.join(ROOT, "analysis", "paired.py"), self.dir, "A", "B"],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        rows = [line for line in out.stdout.splitlines() if line.startswith("| 0.")]
        self.assertEqual(rows, ["| 0.5 | 3 | +1.00e-01 | 1.7e-01 | 67 % |", "| 0.8 | 1 | +5.00e-01 | nan | 100 % |"])

    def test_missing_directory(self):
        out = subprocess.run([sys.executable, os.path.join(ROOT, "analysis", "paired.py"), self.dir + "/no", "A", "B"],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 2)
        self.assertIn("runs.csv", out.stderr)


if __name__ == "__main__":
    unittest.main()
