"""Tests of analysis/rr9549_robustness.py (RR-9549 §6.2, Figures 10-11) on a hand-made sweep directory.

System: Θ 0.5, seeds 1 and 2; nsys+gnc with exact profiles gives I/O-load(π_sys) 0.50 and 0.52 (bin [0.4, 0.6)).
Mean-I/O-SlowDown exact → group-fit:
  seed 1: TA+GNC 2.0 → 2.2 (+10 %), BBA+GNC 3.0 → 2.7 (−10 %), BBA+GC 2.5 → 2.5 (0 %)
  seed 2: TA+GNC 4.0 → 4.0 (0 %),   BBA+GNC 2.0 → 2.1 (+5 %),  BBA+GC 2.0 → 1.9 (−5 %)
so the bin means are TA+GNC +5 %, BBA+GNC −2.5 %, BBA+GC −2.5 %; the largest |%| 10, 10, 5.
Allocations (apps.csv n_resources): only seed 1's TA+GNC group-fit run differs from its exact run: TA+GNC changed on
1 set of 2 (50 %), the others 0 %.
Dataset: two ascent profiles (b = 100·k·n MiB/s, k = 1, 2, n = 1, 2, 4, 8) and one descent (800/n MiB/s); the runs'
knowledge_fit says 2 ascent and 1 descent profiles, ascent coefficients (0, 1e8) B/s: b(1), b(2), b(4), b(8) =
0.100, 0.200, 0.400, 0.800 GB/s. A fit that claims 3 ascent profiles does not match the dataset: exit 2.
"""

import json
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import rr9549_robustness  # noqa: E402
from mdtables import md_rows  # noqa: E402

HEADER = ("run_id,index,workload.generator.io_load,allocation.policy,placement.policy,knowledge.profiles,seed,status,"
          "wall_time_s,error,io_load,mean_io_slowdown,machine_idle_time")
# (allocation, placement, knowledge, seed, io_load, msd, idle, allocations)
ROWS = [
    ("nsys", "gnc", "exact", 1, 0.50, 3.5, 0.5, [1, 1]),
    ("tcpu", "gnc", "exact", 1, 0.9, 2.0, 0.30, [2, 1]),
    ("tcpu", "gnc", "group-fit", 1, 0.9, 2.2, 0.32, [4, 1]),
    ("bba", "gnc", "exact", 1, 1.2, 3.0, 0.40, [8, 2]),
    ("bba", "gnc", "group-fit", 1, 1.2, 2.7, 0.38, [8, 2]),
    ("bba", "gc", "exact", 1, 1.2, 2.5, 0.35, [8, 2]),
    ("bba", "gc", "group-fit", 1, 1.2, 2.5, 0.35, [8, 2]),
    ("nsys", "gnc", "exact", 2, 0.52, 3.0, 0.6, [1, 1]),
    ("tcpu", "gnc", "exact", 2, 0.9, 4.0, 0.50, [2, 2]),
    ("tcpu", "gnc", "group-fit", 2, 0.9, 4.0, 0.50, [2, 2]),
    ("bba", "gnc", "exact", 2, 1.2, 2.0, 0.45, [8, 8]),
    ("bba", "gnc", "group-fit", 2, 1.2, 2.1, 0.46, [8, 8]),
    ("bba", "gc", "exact", 2, 1.2, 2.0, 0.44, [8, 8]),
    ("bba", "gc", "group-fit", 2, 1.2, 1.9, 0.43, [8, 8]),
]
MIB = 1048576.0


def fit(ascent_profiles):
    groups = [{"shape": "ascent", "profiles": ascent_profiles, "degree": 1, "coefficients_Bps": [0.0, 1e8],
               "floor_Bps": 1e-6 * 200 * MIB * 8},
              {"shape": "descent", "profiles": 1, "degree": 1, "coefficients_Bps": [8e8, -1e8], "floor_Bps": 800},
              {"shape": "peak", "profiles": 0, "degree": -1, "coefficients_Bps": [], "floor_Bps": 0},
              {"shape": "neutral", "profiles": 0, "degree": -1, "coefficients_Bps": [], "floor_Bps": 0}]
    return {"flat": 0.2, "applications_kept_exact": 0, "groups": groups}


def write_sweep(d, ascent_profiles=2):
    lines = [HEADER]
    for i, (a, p, k, seed, load, msd, idle, alloc) in enumerate(ROWS):
        rid = f"r{i:02d}"
        lines.append(f"{rid},{i},0.5,{a},{p},{k},{seed},complete,0.1,,{load},{msd},{idle}")
        rd = os.path.join(d, "runs", rid)
        os.makedirs(rd)
        with open(os.path.join(rd, "apps.csv"), "w") as f:
            f.write("name,n_resources\n" + "".join(f"app{j},{n}\n" for j, n in enumerate(alloc)))
        res = {"metrics": {"mean_io_slowdown": msd}}
        if k == "group-fit":
            res["knowledge_fit"] = fit(ascent_profiles)
        with open(os.path.join(rd, "results.json"), "w") as f:
            json.dump(res, f)
    with open(os.path.join(d, "runs.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    csv = os.path.join(d, "profiles.csv")
    with open(csv, "w") as f:
        f.write("clients,processes,layout,spatiality,request_KiB,odirect,bw_MBps_0ion,bw_1ion,bw_2ion,bw_4ion,"
                "bw_8ion,n_reps\n")
        for k in (1, 2):
            f.write("8,96,0,0,32,1,50," + ",".join(str(100 * k * n) for n in (1, 2, 4, 8)) + ",5\n")
        f.write("8,96,0,0,32,1,50," + ",".join(str(800 / n) for n in (1, 2, 4, 8)) + ",5\n")
    return csv


def section(md, title):
    """The rows of the tables under the heading that starts with `title`, keyed by their first cell."""
    text = md.split("## " + title, 1)[1].split("\n## ", 1)[0]
    return {r[0]: r for r in md_rows(text)}


class Robustness(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="iosim-rr9549-robust-")
        os.environ.setdefault("MPLBACKEND", "Agg")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_pairs_bins_and_fit(self):
        csv = write_sweep(self.dir)
        self.assertEqual(rr9549_robustness.main([self.dir, "--profiles", csv]), 0)
        out = os.path.join(self.dir, "report")
        for f in ("rr9549_fig10_fit.png", "rr9549_fig11_robustness.png", "rr9549_robustness.md"):
            self.assertTrue(os.path.exists(os.path.join(out, f)), f)
        with open(os.path.join(out, "rr9549_robustness.md")) as fh:
            md = fh.read()
        a = section(md, "Fig. 11a")
        self.assertEqual(a["TA+GNC"][1:7], ["[0.4, 0.6)", "2", "+5.00", "[+1.00, +9.00]", "10.00", "50%"])
        self.assertEqual(a["BBA+GNC"][3], "-2.50")
        self.assertEqual(a["BBA+GNC"][5], "10.00")
        self.assertEqual(a["BBA+GNC"][6], "0%")
        self.assertEqual(a["BBA+GC"][3], "-2.50")
        self.assertEqual(a["BBA+GC"][5], "5.00")
        f = section(md, "Fig. 10")
        self.assertEqual(f["ascent"][1:3], ["2", "1"])
        self.assertEqual(f["ascent"][4], "0.100, 0.200, 0.400, 0.800")
        self.assertEqual(f["ascent"][5:7], ["8: 2", "8"])
        self.assertEqual(f["descent"][1], "1")
        self.assertEqual(f["descent"][5], "1: 1")
        b = section(md, "Fig. 11b")
        self.assertEqual(b["TA+GNC"][2:6], ["3.0000", "3.1000", "0.4000", "0.4100"])

    def test_fit_that_does_not_match_the_dataset_is_refused(self):
        csv = write_sweep(self.dir, ascent_profiles=3)
        self.assertEqual(rr9549_robustness.main([self.dir, "--profiles", csv]), 2)

    def test_missing_directory(self):
        self.assertEqual(rr9549_robustness.main([os.path.join(self.dir, "nothing"), "--profiles", "x.csv"]), 2)


if __name__ == "__main__":
    unittest.main()
