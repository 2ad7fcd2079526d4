"""Tests of the yield-by-position figures (RR-9502 Figures 6 and 7): figures.position_means(),
figures.yield_by_position() and what python/iosim/report.py draws from the runs' apps.csv.

Run from the repository root: python3 -m unittest discover -s test/analysis -v

System: 2 sharing policies (fairshare, fcfs) x 2 pressures (0.5, 1.1) x 2 seeds = 8 complete runs, each with an
apps.csv of three applications a, b, c (iteration_s, io_fraction, yield), plus one failed run (fairshare, 0.5,
seed 3) whose leftover apps.csv (yields 0) must be ignored.

fairshare, pressure 0.5 (the hand-computed case):
  seed 1: a (ω 10, φ 0.30, y 0.9), b (ω 100, φ 0.10, y 0.8), c (ω 1000, φ 0.20, y 0.7)
          by ω: a, b, c -> 0.9, 0.8, 0.7        by φ: b, c, a -> 0.8, 0.7, 0.9
  seed 2: a (ω 500, φ 0.05, y 0.6), b (ω 50, φ 0.50, y 1.0), c (ω 5, φ 0.25, y 0.5)
          by ω: c, b, a -> 0.5, 1.0, 0.6        by φ: a, c, b -> 0.6, 0.5, 1.0
  mean per position: by ω (0.9+0.5)/2, (0.8+1.0)/2, (0.7+0.6)/2 = 0.7, 0.9, 0.65
                     by φ (0.8+0.6)/2, (0.7+0.5)/2, (0.9+1.0)/2 = 0.7, 0.6, 0.95
fcfs: the same applications with every yield halved -> by ω 0.35, 0.45, 0.325; by φ 0.35, 0.3, 0.475.
pressure 1.1: every yield 0.1 lower than at 0.5 -> fairshare by ω 0.6, 0.8, 0.55; fcfs by ω 0.25, 0.35, 0.225.
"""

import csv
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import pandas as pd

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import iosim_path  # noqa: E402,F401  (iosim's Python package on sys.path)
from iosim import figures  # noqa: E402

REPORT = ["-m", "iosim.report"]  # with iosim_path.env()
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

POLICIES = ["fairshare", "fcfs"]
PRESSURES = [0.5, 1.1]
SEEDS = [1, 2]
# per seed: (name, iteration_s, io_fraction, yield of fairshare at pressure 0.5)
APPS = {
    1: [("a", 10.0, 0.30, 0.9), ("b", 100.0, 0.10, 0.8), ("c", 1000.0, 0.20, 0.7)],
    2: [("a", 500.0, 0.05, 0.6), ("b", 50.0, 0.50, 1.0), ("c", 5.0, 0.25, 0.5)],
}
EXPECTED = {  # (policy, pressure) -> {sort column: mean yield at positions 1, 2, 3}
    ("fairshare", 0.5): {"iteration_s": [0.7, 0.9, 0.65], "io_fraction": [0.7, 0.6, 0.95]},
    ("fcfs", 0.5): {"iteration_s": [0.35, 0.45, 0.325], "io_fraction": [0.35, 0.3, 0.475]},
    ("fairshare", 1.1): {"iteration_s": [0.6, 0.8, 0.55], "io_fraction": [0.6, 0.5, 0.85]},
    ("fcfs", 1.1): {"iteration_s": [0.25, 0.35, 0.225], "io_fraction": [0.25, 0.2, 0.375]},
}
APPS_HEADER = ["name", "nodes", "io_volume_bytes", "io_time_s", "work_time_s", "yield", "io_slowdown",
               "n_resources", "resources", "bandwidth_Bps", "start_s", "end_s", "iteration_s", "io_fraction"]
HEADER = ["run_id", "index", "sharing.policy", "workload.generator.pressure", "seed", "status", "wall_time_s", "error",
          "makespan_s", "min_yield", "efficiency"]
FAILED_ID = "00000000feedf00d"


def app_yield(policy, pressure, y):
    return (y if policy == "fairshare" else y / 2) - (0.1 if pressure == 1.1 else 0.0)


def write_apps(path, rows, with_columns=True):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    header = APPS_HEADER if with_columns else APPS_HEADER[:-2]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for name, omega, phi, y in rows:
            cells = [name, 1, 1e12, 100.0, 900.0, y, 1.5, 1, "pfs", 1e9, 0, ""]
            w.writerow(cells + ([omega, phi] if with_columns else []))


def write_campaign(cdir, report=None, with_columns=True):
    """runs.csv, campaign.json and runs/<id>/apps.csv of the system in the module docstring."""
    os.makedirs(cdir, exist_ok=True)
    rows, i = [], 0
    for p in POLICIES:
        for x in PRESSURES:
            for seed in SEEDS:
                rid = f"{0xb0b0000000000000 + i:016x}"
                rows.append([rid, i, p, x, seed, "complete", 1.0, "", 1000.0, 0.5, 0.9])
                write_apps(os.path.join(cdir, "runs", rid, "apps.csv"),
                           [(n, o, f, app_yield(p, x, y)) for n, o, f, y in APPS[seed]], with_columns)
                i += 1
    rows.append([FAILED_ID, i, "fairshare", 0.5, 3, "failed", 0.1, "boom", "", "", ""])
    write_apps(os.path.join(cdir, "runs", FAILED_ID, "apps.csv"), [("a", 1.0, 0.1, 0.0), ("b", 2.0, 0.2, 0.0),
                                                                   ("c", 3.0, 0.3, 0.0)], with_columns)
    with open(os.path.join(cdir, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEADER)
        w.writerows(rows)
    campaign = {"name": "positions", "base": "deploy/rr9502-synthetic.json",
                "grid": {"sharing.policy": POLICIES, "workload.generator.pressure": PRESSURES},
                "seeds": {"from": 1, "count": 2}}
    if report is not None:
        campaign["report"] = report
    with open(os.path.join(cdir, "campaign.json"), "w") as f:
        json.dump(campaign, f)


def run_report(*args):
    return subprocess.run([sys.executable, *REPORT, *args], capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env=iosim_path.env())


def md_row(md, first_cells):
    """Cells of the first Markdown table row starting with first_cells."""
    for line in md.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[:len(first_cells)] == first_cells:
                return cells
    raise AssertionError(f"no table row starting with {first_cells}")


class PositionMeansTest(unittest.TestCase):
    def long_table(self):
        rows = []
        for p in POLICIES:
            for x in PRESSURES:
                for seed in SEEDS:
                    for n, o, f, y in APPS[seed]:
                        rows.append({"run_id": f"{p}-{x}-{seed}", "sharing.policy": p,
                                     "workload.generator.pressure": x, "name": n, "iteration_s": o,
                                     "io_fraction": f, "yield": app_yield(p, x, y)})
        return pd.DataFrame(rows)

    def test_hand_computed_means(self):
        apps = self.long_table()
        for col in ("iteration_s", "io_fraction"):
            t = figures.position_means(apps, col, ["sharing.policy", "workload.generator.pressure"])
            self.assertEqual(len(t), 12)  # 2 policies x 2 pressures x 3 positions
            for (p, x), expected in EXPECTED.items():
                sel = t[(t["sharing.policy"] == p) & (t["workload.generator.pressure"] == x)]
                self.assertEqual(list(sel["position"]), [1, 2, 3])
                self.assertEqual(list(sel["n"]), [2, 2, 2])
                for got, want in zip(sel["mean"], expected[col]):
                    self.assertAlmostEqual(got, want, places=12, msg=f"{p} {x} {col}")

    def test_ties_keep_file_order_and_missing_values_come_last(self):
        # run r1: u (ω 5, y 0.1), v (no ω: no I/O, y 1.0), w (ω 5, y 0.3), z (ω 2, y 0.4)
        #   sorted: z (2), u (5, first in the file), w (5), v (none) -> 0.4, 0.1, 0.3, 1.0
        # run r2: u (ω 1, y 0.2), v (ω 3, y 0.6), w (ω 2, y no value), z (ω 4, y 0.8)
        #   sorted: u, w, v, z -> 0.2, (none), 0.6, 0.8
        # means: position 1 (0.4+0.2)/2 = 0.3; 2: 0.1 (one run); 3: (0.3+0.6)/2 = 0.45; 4: (1.0+0.8)/2 = 0.9
        apps = pd.DataFrame({"run_id": ["r1"] * 4 + ["r2"] * 4, "name": list("uvwz") * 2,
                             "iteration_s": [5, math.nan, 5, 2, 1, 3, 2, 4],
                             "yield": [0.1, 1.0, 0.3, 0.4, 0.2, 0.6, math.nan, 0.8]})
        t = figures.position_means(apps, "iteration_s", [])
        self.assertEqual(list(t["position"]), [1, 2, 3, 4])
        self.assertEqual(list(t["n"]), [2, 1, 2, 2])
        for got, want in zip(t["mean"], [0.3, 0.1, 0.45, 0.9]):
            self.assertAlmostEqual(got, want, places=12)

    def test_figure_returns_its_data(self):
        tmp = tempfile.mkdtemp(prefix="iosim-positions-")
        try:
            png = os.path.join(tmp, "p.png")
            t = figures.yield_by_position(self.long_table(), "iteration_s", "sharing.policy",
                                          "workload.generator.pressure", png)
            with open(png, "rb") as f:
                self.assertEqual(f.read(8), PNG_SIGNATURE)
            sel = t[(t["policy"] == "fcfs") & (t["workload.generator.pressure"] == 1.1)]
            for got, want in zip(sel["mean"], EXPECTED[("fcfs", 1.1)]["iteration_s"]):
                self.assertAlmostEqual(got, want, places=12)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class PositionReportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="iosim-positions-report-")
        self.cdir = os.path.join(self.tmp, "c")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def read_md(self):
        with open(os.path.join(self.cdir, "report", "report.md"), encoding="utf-8") as f:
            return f.read()

    def position_pngs(self):
        return sorted(f for f in os.listdir(os.path.join(self.cdir, "report")) if f.startswith("position_"))

    def test_default_draws_both_figures_with_hand_computed_table(self):
        write_campaign(self.cdir)  # no report settings: x and policy by default, columns from apps.csv
        proc = run_report(self.cdir)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        md = self.read_md()
        self.assertEqual(self.position_pngs(), ["position_yield_by_io_fraction.png",
                                                "position_yield_by_iteration_s.png"])
        for png in self.position_pngs():
            with open(os.path.join(self.cdir, "report", png), "rb") as f:
                data = f.read()
            self.assertEqual(data[:8], PNG_SIGNATURE)
            self.assertGreater(len(data), 10000)
            self.assertIn(f"]({png})", md)
        self.assertIn("## Yield by position", md)
        # tables: policy, pressure, runs, positions, ȳ first, ȳ last, min, max (the failed run's zeros left out)
        iteration = md[md.index("### Sorted by iteration_s"):md.index("### Sorted by io_fraction")]
        fraction = md[md.index("### Sorted by io_fraction"):]
        self.assertEqual(md_row(iteration, ["fairshare", "0.5"]), ["fairshare", "0.5", "2", "3", "0.7", "0.65",
                                                                   "0.65", "0.9"])
        self.assertEqual(md_row(iteration, ["fcfs", "1.1"]), ["fcfs", "1.1", "2", "3", "0.25", "0.225", "0.225",
                                                              "0.35"])
        self.assertEqual(md_row(fraction, ["fairshare", "0.5"]), ["fairshare", "0.5", "2", "3", "0.7", "0.95",
                                                                  "0.6", "0.95"])
        self.assertEqual(md_row(fraction, ["fcfs", "0.5"]), ["fcfs", "0.5", "2", "3", "0.35", "0.475", "0.3",
                                                             "0.475"])

    def test_campaign_setting_and_none(self):
        write_campaign(self.cdir, report={"by_position": ["io_fraction"]})
        proc = run_report(self.cdir)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.position_pngs(), ["position_yield_by_io_fraction.png"])
        proc = run_report(self.cdir, "--by-position", "none")  # the command line wins; old figures removed
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.position_pngs(), [])
        self.assertNotIn("## Yield by position", self.read_md())

    def test_unknown_column_is_exit_2(self):
        write_campaign(self.cdir)
        proc = run_report(self.cdir, "--by-position", "iteration_s,no_such_column")
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("no_such_column", proc.stderr)
        self.assertIn("fix:", proc.stderr)

    def test_old_apps_csv_without_columns_gives_no_figure(self):
        write_campaign(self.cdir, with_columns=False)
        proc = run_report(self.cdir)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.position_pngs(), [])


if __name__ == "__main__":
    unittest.main()
