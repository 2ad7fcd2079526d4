"""Tests of python/iosim/report.py and python/iosim/figures.py on a small hand-made campaign directory.

Run from the repository root: python3 -m unittest discover -s test/analysis -v

System: 2 sharing policies (fairshare, fcfs) x 3 I/O loads (0.2, 0.5, 0.8) x 4 seeds = 24 complete runs, plus
one failed run (fcfs, 0.5, seed 5). platform.ionodes is swept but constant (12), so it is neither the x column
nor shown as a pooled column. Metrics: min_yield, efficiency and aggregate_bandwidth_Bps have values;
utilization, mean_io_slowdown and io_spread are empty, so the default metrics are exactly the first three.
One run directory has a hand-written events.csv and resources.csv for the Gantt chart.
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
LOADS = [0.2, 0.5, 0.8]
SEEDS = [1, 2, 3, 4]
# min_yield[policy][io_load] per seed 1..4
MIN_YIELD = {
    "fairshare": {0.2: [0.80, 0.82, 0.84, 0.86], 0.5: [0.60, 0.62, 0.64, 0.66], 0.8: [0.40, 0.42, 0.44, 0.46]},
    "fcfs": {0.2: [0.40, 0.41, 0.63, 0.86], 0.5: [0.30, 0.31, 0.32, 0.33], 0.8: [0.20, 0.42, 0.22, 0.23]},
}
# efficiency per seed, same at every io_load
EFFICIENCY = {"fairshare": [0.90, 0.92, 0.94, 0.96], "fcfs": [0.95, 0.96, 0.97, 0.98]}
# aggregate bandwidth (bytes/s) per seed, same at every io_load
BANDWIDTH = {"fairshare": [1.0e10, 1.2e10, 1.4e10, 1.6e10], "fcfs": [2.0e10, 2.0e10, 2.0e10, 2.0e10]}

METRICS = ["makespan_s", "min_yield", "utilization", "efficiency", "io_pressure", "io_load", "mean_io_slowdown",
           "mean_rho_io", "mean_rho_con", "io_spread", "machine_idle_time", "aggregate_bandwidth_Bps", "events",
           "rate_changes"]
HEADER = ["run_id", "index", "platform.ionodes", "sharing.policy", "workload.generator.io_load", "seed", "status",
          "wall_time_s", "error"] + METRICS
FAILED_ID = "00000000deadbeef"  # leading zeros: run_id must stay a string
FAILED_ERROR = "simulation failed at t=12.5 s: transfer on ion3 never completed, 3 pending"

# Gantt run: resources ion0 (1 GB/s), ion1 (2 GB/s), ion2 (1 GB/s, unused).
RESOURCES_CSV = """name,kind,capacity_Bps,busy_time_s,occupancy,bytes
ion0,ionode,1000000000,15,0.75,7000000000
ion1,ionode,2000000000,10,0.5,10000000000
ion2,ionode,1000000000,0,0,0
"""
# appA: I/O on ion0 from 0 to 10 s at 0.4 GB/s, then works 10 s.
# appB: works 5 s, then I/O from 5 to 15 s on ion0 (0.3 GB/s) and ion1 (1 GB/s), then works 5 s.
EVENTS_CSV = """app,kind,resource,start_s,end_s,bytes,rate_Bps
appA,io,ion0,0,10,4000000000,400000000
appA,transfer,ion0,0,10,4000000000,400000000
appA,work,,10,20,,
appB,work,,0,5,,
appB,io,ion0;ion1,5,15,13000000000,1300000000
appB,transfer,ion0,5,15,3000000000,300000000
appB,transfer,ion1,5,15,10000000000,1000000000
appB,work,,15,20,,
"""
# Expected occupancy steps (sum of rates / capacity):
#   ion0: [0,5)  0.4e9/1e9 = 0.4 (appA alone)
#         [5,10) (0.4e9 + 0.3e9)/1e9 = 0.7 (both overlap)
#         [10,15) 0.3e9/1e9 = 0.3 (appB alone)
#   ion1: [5,15) 1e9/2e9 = 0.5
#   ion2: no transfer, no row
EXPECTED_STEPS = [("ion0", 0.0, 5.0, 0.4), ("ion0", 5.0, 10.0, 0.7), ("ion0", 10.0, 15.0, 0.3),
                  ("ion1", 5.0, 15.0, 0.5)]


def run_id(i):
    return f"{0xa1b2c3d4e5f60000 + i:016x}"


def write_campaign(cdir, report=None, with_failed=True, only_failed=False):
    """Write runs.csv, campaign.json and the Gantt run's directory into cdir; returns the Gantt run's id."""
    os.makedirs(cdir, exist_ok=True)
    rows = []
    i = 0
    for p in POLICIES:
        for x in LOADS:
            for k, seed in enumerate(SEEDS):
                metrics = {m: "" for m in METRICS}
                metrics.update(makespan_s=100 + i, min_yield=MIN_YIELD[p][x][k], efficiency=EFFICIENCY[p][k],
                               io_load=x, aggregate_bandwidth_Bps=BANDWIDTH[p][k], events=50, rate_changes=20)
                status = "failed" if only_failed else "complete"
                if only_failed:
                    metrics = {m: "" for m in METRICS}
                rows.append([run_id(i), i, 12, p, x, seed, status, 0.01, "boom" if only_failed else ""]
                            + [metrics[m] for m in METRICS])
                i += 1
    if with_failed:
        rows.append([FAILED_ID, i, 12, "fcfs", 0.5, 5, "failed", 0.002, FAILED_ERROR] + [""] * len(METRICS))
    with open(os.path.join(cdir, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEADER)
        w.writerows(rows)
    campaign = {"name": "test-campaign", "description": "Two sharing policies over three I/O loads.",
                "base": "deploy/default.json",
                "grid": {"platform.ionodes": [12], "sharing.policy": POLICIES, "workload.generator.io_load": LOADS},
                "seeds": {"from": 1, "count": 4}}
    if report is not None:
        campaign["report"] = report
    with open(os.path.join(cdir, "campaign.json"), "w") as f:
        json.dump(campaign, f)
    gantt_id = run_id(0)
    rdir = os.path.join(cdir, "runs", gantt_id)
    os.makedirs(rdir, exist_ok=True)
    with open(os.path.join(rdir, "events.csv"), "w") as f:
        f.write(EVENTS_CSV)
    with open(os.path.join(rdir, "resources.csv"), "w") as f:
        f.write(RESOURCES_CSV)
    return gantt_id


def run_report(*args):
    return subprocess.run([sys.executable, *REPORT, *args], capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env=iosim_path.env())


def md_tables(text):
    """Every Markdown table of text as a list of (header, rows), cells stripped."""
    tables, cur = [], None
    for line in text.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cur is None:
                cur = (cells, [])
            elif not all(set(c) <= set("-:") for c in cells):
                cur[1].append(cells)
        elif cur is not None:
            tables.append(cur)
            cur = None
    if cur is not None:
        tables.append(cur)
    return tables


def find_row(text, header_start, key):
    """The row (as a dict header -> cell) of the table whose header begins with header_start and whose first
    cells equal key."""
    for header, rows in md_tables(text):
        if header[:len(header_start)] == header_start:
            for row in rows:
                if row[:len(key)] == key:
                    return dict(zip(header, row))
    raise AssertionError(f"no row {key} in a table starting with {header_start}")


# table headers: human label, unit (decimal GB/s), runs.csv column in brackets
POLICY_H = "sharing policy [sharing.policy]"
LOAD_H = "target I/O-load Θ [workload.generator.io_load]"
MINY_H = "MinYield [min_yield]"
EFF_H = "Efficiency [efficiency]"
BW_H = "aggregate bandwidth (GB/s) [aggregate_bandwidth_Bps]"


class ReportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="iosim-report-test-")
        cls.cdir = os.path.join(cls.tmp, "campaign")
        cls.gantt_id = write_campaign(cls.cdir)
        cls.proc = run_report(cls.cdir)
        cls.report_dir = os.path.join(cls.cdir, "report")
        path = os.path.join(cls.report_dir, "report.md")
        cls.md = ""
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                cls.md = f.read()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_exit_and_path(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        self.assertEqual(self.proc.stdout.strip().splitlines()[-1], os.path.join(self.report_dir, "report.md"))

    def test_pngs_exist_valid_and_embedded(self):
        expected = [f"{kind}_{m}.png" for kind in ("line", "box", "ratio")
                    for m in ("min_yield", "efficiency", "aggregate_bandwidth_Bps")]
        expected.append(f"gantt_{self.gantt_id}.png")
        pngs = sorted(f for f in os.listdir(self.report_dir) if f.endswith(".png"))
        self.assertEqual(pngs, sorted(expected))  # utilization etc. are empty: no figure for them
        for name in expected:
            with open(os.path.join(self.report_dir, name), "rb") as f:
                data = f.read()
            self.assertEqual(data[:8], PNG_SIGNATURE, name)
            self.assertGreater(len(data), 10000, f"{name} is suspiciously small")
            self.assertIn(f"]({name})", self.md, f"{name} not embedded with a relative path")

    def test_title_and_counts(self):
        self.assertIn("# Campaign report: test-campaign", self.md)
        self.assertIn("Two sharing policies over three I/O loads.", self.md)
        self.assertIn("- runs: 25", self.md)
        self.assertIn("- complete: 24", self.md)
        self.assertIn("- failed: 1", self.md)

    def test_failed_run_listed(self):
        row = find_row(self.md, ["run_id", "index"], [FAILED_ID])
        self.assertEqual(row["status"], "failed")
        self.assertEqual(row["error"], FAILED_ERROR)
        self.assertEqual(row["sharing.policy"], "fcfs")

    def test_means_per_policy_and_x(self):
        header = [POLICY_H, LOAD_H]
        # fairshare, 0.2: min_yield (0.80 + 0.82 + 0.84 + 0.86) / 4 = 3.32 / 4 = 0.83;
        #   std = sqrt((0.03² + 0.01² + 0.01² + 0.03²) / 3) = sqrt(0.002 / 3) = 0.025820
        row = find_row(self.md, header, ["fairshare", "0.2"])
        self.assertEqual(row["n"], "4")
        self.assertEqual(row[MINY_H], "0.83 ± 0.02582")
        # efficiency (0.90 + 0.92 + 0.94 + 0.96) / 4 = 0.93; bandwidth (10 + 12 + 14 + 16) / 4 = 13 GB/s
        self.assertTrue(row[EFF_H].startswith("0.93 ± "))
        self.assertTrue(row[BW_H].startswith("13 ± "))
        # fcfs, 0.2: (0.40 + 0.41 + 0.63 + 0.86) / 4 = 2.30 / 4 = 0.575
        self.assertTrue(find_row(self.md, header, ["fcfs", "0.2"])[MINY_H].startswith("0.575 ± "))
        # fcfs, 0.5 (the failed seed-5 run is left out): (0.30 + 0.31 + 0.32 + 0.33) / 4 = 1.26 / 4 = 0.315
        row = find_row(self.md, header, ["fcfs", "0.5"])
        self.assertEqual(row["n"], "4")
        self.assertTrue(row[MINY_H].startswith("0.315 ± "))
        # fcfs, 0.8: (0.20 + 0.42 + 0.22 + 0.23) / 4 = 1.07 / 4 = 0.2675; bandwidth 20 GB/s, std 0
        row = find_row(self.md, header, ["fcfs", "0.8"])
        self.assertTrue(row[MINY_H].startswith("0.2675 ± "))
        self.assertEqual(row[BW_H], "20 ± 0")

    def test_means_per_policy(self):
        # fairshare: (0.83 + 0.63 + 0.43) / 3 = 0.63 over 12 runs; efficiency 0.93
        row = find_row(self.md, [POLICY_H, "n"], ["fairshare"])
        self.assertEqual(row["n"], "12")
        self.assertTrue(row[MINY_H].startswith("0.63 ± "))
        self.assertTrue(row[EFF_H].startswith("0.93 ± "))
        # fcfs: (0.575 + 0.315 + 0.2675) / 3 = 1.1575 / 3 = 0.38583; efficiency (0.95+0.96+0.97+0.98)/4 = 0.965
        row = find_row(self.md, [POLICY_H, "n"], ["fcfs"])
        self.assertTrue(row[MINY_H].startswith("0.3858 ± "))
        self.assertTrue(row[EFF_H].startswith("0.965 ± "))

    def test_ratio_table(self):
        df = pd.read_csv(os.path.join(self.cdir, "runs.csv"), dtype={"run_id": str})
        instance = ["platform.ionodes", "workload.generator.io_load", "seed"]
        t = figures.ratio_table(df, "min_yield", "sharing.policy", "fairshare", instance)
        # 12 fcfs instances with a fairshare partner; the failed seed-5 run has none
        self.assertEqual(len(t), 12)
        self.assertEqual(set(t["policy"]), {"fcfs"})
        got = {(r["workload.generator.io_load"], r["seed"]): r["ratio"] for _, r in t.iterrows()}
        # fcfs / fairshare per seed: 0.2: 0.40/0.80, 0.41/0.82, 0.63/0.84, 0.86/0.86 = 0.5, 0.5, 0.75, 1
        #                            0.5: 0.30/0.60 ... 0.33/0.66 = 0.5 each
        #                            0.8: 0.20/0.40, 0.42/0.42, 0.22/0.44, 0.23/0.46 = 0.5, 1, 0.5, 0.5
        expected = {0.2: [0.5, 0.5, 0.75, 1.0], 0.5: [0.5, 0.5, 0.5, 0.5], 0.8: [0.5, 1.0, 0.5, 0.5]}
        for x, ratios in expected.items():
            for seed, r in zip(SEEDS, ratios):
                self.assertAlmostEqual(got[(x, seed)], r, places=12, msg=f"io_load {x} seed {seed}")

    def test_param_summary_percentiles(self):
        df = pd.read_csv(os.path.join(self.cdir, "runs.csv"), dtype={"run_id": str})
        s = figures.param_summary(df, "workload.generator.io_load", "min_yield", "sharing.policy")
        self.assertEqual(len(s), 6)
        row = s[(s["policy"] == "fairshare") & (s["x"] == 0.2)].iloc[0]
        # values 0.80 0.82 0.84 0.86; linear interpolation at rank q(n-1):
        #   p10 at rank 0.3 = 0.80 + 0.3 * 0.02 = 0.806; p90 at rank 2.7 = 0.84 + 0.7 * 0.02 = 0.854
        self.assertAlmostEqual(row["mean"], 0.83, places=12)
        self.assertAlmostEqual(row["p10"], 0.806, places=12)
        self.assertAlmostEqual(row["p90"], 0.854, places=12)
        self.assertEqual(row["n"], 4)

    def test_occupancy_steps(self):
        ev = pd.read_csv(os.path.join(self.cdir, "runs", self.gantt_id, "events.csv"), dtype={"resource": str})
        res = pd.read_csv(os.path.join(self.cdir, "runs", self.gantt_id, "resources.csv"))
        steps = figures.occupancy_steps(ev, res)
        got = list(steps.itertuples(index=False, name=None))
        self.assertEqual(len(got), len(EXPECTED_STEPS), got)
        for (r, a, b, o), (er, ea, eb, eo) in zip(got, EXPECTED_STEPS):
            self.assertEqual(r, er)
            self.assertTrue(math.isclose(a, ea) and math.isclose(b, eb), (r, a, b))
            self.assertAlmostEqual(o, eo, places=12)

    def test_occupancy_steps_restart_at_same_rate(self):
        # appA's ion0 transfer restarted at 4 s at the same rate: the steps are unchanged (adjacent equal
        # intervals merge), [0,4) and [4,5) both 0.4 -> one [0,5) step.
        ev = pd.read_csv(os.path.join(self.cdir, "runs", self.gantt_id, "events.csv"), dtype={"resource": str})
        ev = ev[~((ev["app"] == "appA") & (ev["kind"] == "transfer"))]
        split = pd.DataFrame([["appA", "transfer", "ion0", 0.0, 4.0, 1.6e9, 4e8],
                              ["appA", "transfer", "ion0", 4.0, 10.0, 2.4e9, 4e8]], columns=ev.columns)
        res = pd.read_csv(os.path.join(self.cdir, "runs", self.gantt_id, "resources.csv"))
        got = list(figures.occupancy_steps(pd.concat([ev, split]), res).itertuples(index=False, name=None))
        self.assertEqual([(r, a, b) for r, a, b, _ in got], [(r, a, b) for r, a, b, _ in EXPECTED_STEPS])
        for (_, _, _, o), (_, _, _, eo) in zip(got, EXPECTED_STEPS):
            self.assertAlmostEqual(o, eo, places=12)


class ReportErrorTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="iosim-report-err-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def assert_exit2(self, proc, *needles):
        self.assertEqual(proc.returncode, 2, proc.stderr)
        for n in needles:
            self.assertIn(n, proc.stderr)
        self.assertIn("fix:", proc.stderr)

    def test_missing_runs_csv(self):
        proc = run_report(self.tmp)
        self.assert_exit2(proc, os.path.join(self.tmp, "runs.csv"), "not found")

    def test_unknown_x_column(self):
        write_campaign(self.tmp)
        self.assert_exit2(run_report(self.tmp, "--x", "platform.nosuch"), "platform.nosuch", "runs.csv")

    def test_unknown_metric(self):
        write_campaign(self.tmp)
        self.assert_exit2(run_report(self.tmp, "--metrics", "min_yield,no_such_metric"), "no_such_metric")

    def test_unknown_policy_column_in_campaign(self):
        write_campaign(self.tmp, report={"policy": "placement.policy"})
        self.assert_exit2(run_report(self.tmp), "placement.policy", "campaign.json")

    def test_unknown_baseline(self):
        write_campaign(self.tmp)
        self.assert_exit2(run_report(self.tmp, "--baseline", "maxmin"), "maxmin", "sharing.policy")

    def test_no_complete_run(self):
        write_campaign(self.tmp, only_failed=True)
        self.assert_exit2(run_report(self.tmp), "no complete run", "25 failed")


if __name__ == "__main__":
    unittest.main()
