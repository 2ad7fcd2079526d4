"""Tests of analysis/ipdps21_arith.py (IPDPS'21 §3.1-3.2 policies by arithmetic) on hand-computed cases.

Three applications on a machine of C = 512 compute nodes; bandwidths in GB/s at 0, 1, 2, 4, 8 I/O nodes (linear in
between, b(8) beyond):

    app  nodes  processes  b0   b1   b2   b4   b8
    A    8      96         1.0  0.5  0.9  1.6  2.0
    B    16     384        3.0  0.4  0.8  1.2  1.5
    C    32     1536       0.2  0.6  1.0  1.4  4.0

ZERO = 1.0 + 3.0 + 0.2 = 4.2; ONE = 0.5 + 0.4 + 0.6 = 1.5.
ORACLE: A 2.0 (8), B 3.0 (0), C 4.0 (8): 9.0, so ORACLE / ZERO = 9.0 / 4.2.
STATIC at F = 40: ceil(8·40/512) = 1, ceil(16·40/512) = 2, ceil(32·40/512) = 3; b_C(3) = (1.0 + 1.4)/2 = 1.2, total
  0.5 + 0.8 + 1.2 = 2.5; with points, C's 3 is lowered to 2: 0.5 + 0.8 + 1.0 = 2.3.
SIZE at F = 8 (Σ C_a = 56): 8·8/56 = 1.14 → 1, 8·16/56 = 2.29 → 2, 8·32/56 = 4.57 → 5; b_C(5) = 1.4 + 2.6/4 = 2.05;
  total 0.5 + 0.8 + 2.05 = 3.35.
PROCESS at F = 8 (Σ s_a = 2016): 8·96/2016 = 0.38 → 0, 8·384/2016 = 1.52 → 2, 8·1536/2016 = 6.10 → 6;
  b_C(6) = 1.4 + 2.6/2 = 2.7; total 1.0 + 0.8 + 2.7 = 4.5.
MCKP at F = 8: choices A {0, 1, 2, 4, 8}, B {0, 1, 2, 4, 8}, C {0, 1, 2, 4, 8}. B's best is 0 (3.0, free). C at 8
  gains 3.8 over its 0; A at 8 gains 1.0, at 4 0.6; C at 4 gains 1.2. Best: A 0, B 0, C 8 = 1.0 + 3.0 + 4.0 = 8.0
  (A 4 + C 4 gives 1.6 + 3.0 + 1.4 = 6.0).
MCKP at F = 4: C 4 (gain 1.2) beats A 4 (0.6) and A 2 + C 2 (−0.1 + 0.8 = 0.7): 1.0 + 3.0 + 1.4 = 5.4.
"""

import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import pandas as pd

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import ipdps21_arith as ia  # noqa: E402

NODES = np.array([[8, 16, 32]])
PROCS = np.array([[96, 384, 1536]])
PROF = np.array([[[1.0, 0.5, 0.9, 1.6, 2.0], [3.0, 0.4, 0.8, 1.2, 1.5], [0.2, 0.6, 1.0, 1.4, 4.0]]])


class PoliciesTest(unittest.TestCase):
    def test_f8(self):
        r = ia.aggregate(NODES, PROCS, PROF, 8)
        self.assertAlmostEqual(r["zero"][0][0], 4.2, places=12)
        self.assertAlmostEqual(r["one"][0][0], 1.5, places=12)
        self.assertAlmostEqual(r["oracle"][0][0], 9.0, places=12)
        self.assertEqual(r["oracle"][1].tolist(), [[8, 0, 8]])
        self.assertEqual(r["size"][1].tolist(), [[1, 2, 5]])
        self.assertAlmostEqual(r["size"][0][0], 3.35, places=12)
        self.assertEqual(r["process"][1].tolist(), [[0, 2, 6]])
        self.assertAlmostEqual(r["process"][0][0], 4.5, places=12)
        self.assertEqual(r["mckp"][1].tolist(), [[0, 0, 8]])
        self.assertAlmostEqual(r["mckp"][0][0], 8.0, places=12)

    def test_f4_mckp(self):
        best, n = ia.mckp(NODES, PROF, 4)
        self.assertAlmostEqual(best[0], 5.4, places=12)
        self.assertEqual(n.tolist(), [[0, 0, 4]])

    def test_f40_static(self):
        r = ia.aggregate(NODES, PROCS, PROF, 40)
        self.assertEqual(r["static-ceil"][1].tolist(), [[1, 2, 3]])
        self.assertAlmostEqual(r["static-ceil"][0][0], 2.5, places=12)
        self.assertEqual(r["static-ceil+points"][1].tolist(), [[1, 2, 2]])
        self.assertAlmostEqual(r["static-ceil+points"][0][0], 2.3, places=12)

    def test_rng_seeding(self):
        # splitmix64 from 0: first output 0xE220A8397B1DCDAF (Vigna's reference sequence); seed 0, stream 0 → x = 0
        self.assertEqual(ia.Xoshiro(0, 0).s[0], 0xE220A8397B1DCDAF)
        s = ia.draw_set(1, 189)
        self.assertEqual(len(set(s)), 16)
        self.assertTrue(all(0 <= i < 189 for i in s))


class DataTest(unittest.TestCase):
    """A two-pattern dataset: pattern 1 (8 nodes) measured twice per count, pattern 2 (16 nodes) once."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        base = os.path.join(self.dir, "bez-forge-evaluation")
        for sub in ("marenostrum-4", "marenostrum-4-gpfs"):
            os.makedirs(os.path.join(base, sub))
        with open(os.path.join(base, "mn4_189_patterns_mean_bw_by_ionodes.csv"), "w") as f:
            f.write('clients,processes,"layout(0=fpp,1=shared)","spatiality(0=contig,1=strided)",request_KiB,odirect,'
                    "bw_MBps_0ion,bw_1ion,bw_2ion,bw_4ion,bw_8ion,n_reps_0/1/2/4/8\n")
            f.write("8,96,0,0,32,1,15,2,3,4,5,2/2/2/2/2\n16,384,1,0,32,1,7,1,1,1,1,1/1/1/1/1\n")
        hdr = "forwarders;clients;processes;layout;spatiality;odirect;stonewall;request;total;operation;time;" \
              "transfered;bandwidth\n"
        # pattern 1: two runs per count, 10 and 20 at 0 I/O nodes, then (1, 3), (2, 4), (3, 5), (4, 6) at 1, 2, 4, 8
        fw = {"marenostrum-4-gpfs": [(0, 10), (0, 20)],
              "marenostrum-4": [(1, 1), (1, 3), (2, 2), (2, 4), (4, 3), (4, 5), (8, 4), (8, 6)]}
        for sub, runs in fw.items():
            with open(os.path.join(base, sub, "results.csv"), "w") as f:
                f.write(hdr)
                for n, bw in runs:
                    f.write(f"{n};8;96;0;0;1;60;32;1;write;1;1;{bw}\n")
                for n, bw in ([(0, 7)] if sub.endswith("gpfs") else [(1, 1), (2, 1), (4, 1), (8, 1)]):
                    f.write(f"{n};16;384;1;0;1;60;32;1;write;1;1;{bw}\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_profiles(self):
        # pattern 1: mean 15, 2, 3, 4, 5 (the CSV); max of runs 20, 3, 4, 5, 6; median = mean here
        mib = 1048576.0
        m = ia.read_profiles(self.dir, "mean")
        self.assertEqual(m.loc[0, ["b0", "b1", "b2", "b4", "b8"]].tolist(), [15 * mib, 2 * mib, 3 * mib, 4 * mib,
                                                                             5 * mib])
        x = ia.read_profiles(self.dir, "max")
        self.assertEqual(x.loc[0, ["b0", "b1", "b2", "b4", "b8"]].tolist(), [20 * mib, 3 * mib, 4 * mib, 5 * mib,
                                                                             6 * mib])
        self.assertEqual(x.loc[1, "b0"], 7 * mib)

    def test_compare(self):
        # 16 identical patterns: every set's ZERO is 16 × 15 MiB/s whatever the draw; the simulated value is 1e-9 above
        mean = os.path.join(self.dir, "bez-forge-evaluation", "mn4_189_patterns_mean_bw_by_ionodes.csv")
        with open(mean) as f:
            lines = f.read().splitlines()
        with open(mean, "w") as f:
            f.write("\n".join([lines[0]] + [lines[1]] * 20) + "\n")
        zero = 16 * 15 * 1048576.0
        camp = os.path.join(self.dir, "camp")
        os.makedirs(camp)
        pd.DataFrame({"run_id": ["a", "b"], "index": [0, 1], "platform.ionodes": [8, 8],
                      "allocation": ['{"policy": "zero"}'] * 2, "seed": [1, 2], "status": ["complete"] * 2,
                      "wall_time_s": [0.1, 0.1], "error": ["", ""],
                      "aggregate_bandwidth_Bps": [zero * (1 + 1e-9), zero]}).to_csv(os.path.join(camp, "runs.csv"),
                                                                                    index=False)
        t = ia.compare(ia.read_profiles(self.dir), camp, out=io.StringIO())
        self.assertAlmostEqual(t["rel"].max(), 1e-9, delta=1e-15)

    def test_bad_input_exit_2(self):
        p = subprocess.run([sys.executable, os.path.join(ROOT, "analysis", "ipdps21_arith.py"), "--data",
                            os.path.join(self.dir, "nowhere"), "--sets", "1"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("mn4_189_patterns_mean_bw_by_ionodes.csv", p.stderr)


if __name__ == "__main__":
    unittest.main()
