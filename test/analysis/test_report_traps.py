"""Tests of the report traps of issue 22 (python/iosim/report.py, python/iosim/figures.py) on hand-made campaign directories.

Run from the repository root: python3 -m unittest discover -s test/analysis -v

- Identical policies. System: 3 sharing policies x 2 loads x 2 seeds; fairshare and fcfs have the same value of every
  result metric on every instance, maxmin differs in min_yield on one instance; events and wall times differ (they
  are not results). Expectations: report.md has an "Identical results" section naming fairshare and fcfs (not maxmin)
  with 4 instances and the number of result metrics compared (min_yield, efficiency: 2), and stderr says so.
  With maxmin made equal too, the three are named together; with all different, no such section.
- Units. System: a campaign sweeping platform.pfs_bw over 1e9 and 2e9 bytes/s, one run per point. Expectations: the
  x axis of every figure reads "PFS bandwidth (GB/s)" with ticks 1 and 2 (no "e+" tick, no offset text), the means
  table's header says "PFS bandwidth (GB/s)" with values 1 and 2, the swept values read "1 GB/s, 2 GB/s"; the same
  parameter given as strings ("250MBps") keeps them as written, with no unit in the header.
- Boxes. System: one run per (policy, x): every box has zero height. Expectations: each is drawn with a band of its
  policy's colour (a horizontal line of width >= 5 points at the value, in the colour of the legend's patch).
"""

import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import iosim_path  # noqa: E402,F401  (iosim's Python package on sys.path)
from iosim import figures  # noqa: E402
from iosim import report  # noqa: E402
from iosim.campaign_io import pd  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402

REPORT = ["-m", "iosim.report"]  # with iosim_path.env()
METRICS = ["min_yield", "efficiency", "events"]


def write_runs(cdir, rows, swept, campaign):
    os.makedirs(cdir, exist_ok=True)
    header = ["run_id", "index"] + swept + ["seed", "status", "wall_time_s", "error"] + METRICS
    with open(os.path.join(cdir, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for i, r in enumerate(rows):
            w.writerow([f"{0xbeef0000 + i:016x}", i] + [r[c] for c in swept] + [r["seed"], "complete", 0.01 * i, ""]
                       + [r[m] for m in METRICS])
    with open(os.path.join(cdir, "campaign.json"), "w") as f:
        json.dump(campaign, f)


def run_report(cdir):
    return subprocess.run([sys.executable, *REPORT, cdir], capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env=iosim_path.env(MPLBACKEND="Agg"))


def policy_rows(maxmin_same, all_different=False):
    rows, k = [], 0
    for p in ["fairshare", "fcfs", "maxmin"]:
        for load in [0.2, 0.6]:
            for seed in [1, 2]:
                y = 0.5 + load / 10 + seed / 100
                if all_different:
                    y += {"fairshare": 0, "fcfs": 0.01, "maxmin": 0.02}[p]
                elif p == "maxmin" and not maxmin_same and load == 0.6 and seed == 2:
                    y += 0.05
                rows.append({"sharing.policy": p, "workload.generator.io_load": load, "seed": seed, "min_yield": y,
                             "efficiency": 0.9, "events": 100 + k})
                k += 1
    return rows


CAMPAIGN = {"name": "t", "report": {"x": "workload.generator.io_load", "policy": "sharing.policy",
                                    "metrics": ["min_yield"]}}


class IdenticalPoliciesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="iosim-report-traps-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def report_of(self, rows):
        cdir = os.path.join(self.tmp, "c")
        shutil.rmtree(cdir, ignore_errors=True)
        write_runs(cdir, rows, ["sharing.policy", "workload.generator.io_load"], CAMPAIGN)
        proc = run_report(cdir)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(cdir, "report", "report.md"), encoding="utf-8") as f:
            return f.read(), proc.stderr

    def test_two_identical_named(self):
        md, err = self.report_of(policy_rows(maxmin_same=False))
        self.assertIn("## Identical results", md)
        self.assertIn("**`fairshare` and `fcfs` give identical results on every point**", md)
        self.assertIn("each of the 2 result metrics is the same for them on each of the 4 instances", md)
        self.assertNotIn("`maxmin` give identical", md)
        self.assertIn("fairshare, fcfs give identical results on every point (4 instances, 2 metrics)", err)

    def test_three_identical_named_together(self):
        md, _ = self.report_of(policy_rows(maxmin_same=True))
        self.assertIn("**`fairshare`, `fcfs` and `maxmin` give identical results on every point**", md)

    def test_no_section_when_all_differ(self):
        md, err = self.report_of(policy_rows(maxmin_same=False, all_different=True))
        self.assertNotIn("Identical results", md)
        self.assertNotIn("identical", err)

    def test_function_on_a_frame(self):
        df = pd.DataFrame(policy_rows(maxmin_same=False))
        groups = report.identical_policies(df, "sharing.policy", ["workload.generator.io_load", "seed"], METRICS)
        self.assertEqual(groups, [(["fairshare", "fcfs"], 4, 2)])


class UnitsAndBoxesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="iosim-report-traps-")
        self.png = os.path.join(self.tmp, "x.png")  # never written (_save is replaced), but in the test's folder if it were
        self.saved = []
        self.orig_save = figures._save

        def keep(fig, out_png):
            self.saved.append(fig)
        figures._save = keep

    def tearDown(self):
        figures._save = self.orig_save
        for fig in self.saved:
            figures.plt.close(fig)
        shutil.rmtree(self.tmp, ignore_errors=True)

    @staticmethod
    def frame(values):
        rows = []
        for p, y0 in (("fairshare", 0.7), ("fcfs", 0.5)):
            for k, v in enumerate(values):
                rows.append({"sharing.policy": p, "platform.pfs_bw": v, "seed": 1, "status": "complete",
                             "min_yield": y0 + 0.1 * k})
        return pd.DataFrame(rows)

    def test_bandwidth_axis_in_gb_per_s(self):
        df = self.frame([1e9, 2e9])
        figures.metric_vs_param(df, "platform.pfs_bw", "min_yield", "sharing.policy", self.png)
        figures.boxplot_per_policy(df, "min_yield", "sharing.policy", self.png, by="platform.pfs_bw")
        figures.ratio_to_baseline(df, "min_yield", "sharing.policy", "fairshare", ["platform.pfs_bw", "seed"], self.png,
                                  x="platform.pfs_bw")
        self.assertEqual(len(self.saved), 3)
        for fig in self.saved:
            ax = fig.axes[0]
            fig.canvas.draw()
            self.assertEqual(ax.get_xlabel(), "PFS bandwidth (GB/s)")
            ticks = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
            self.assertEqual(ticks, ["1", "2"])
            self.assertEqual(ax.xaxis.get_offset_text().get_text(), "")
            for axis in (ax.xaxis, ax.yaxis):
                self.assertFalse(any("e+" in t.get_text() for t in axis.get_ticklabels()))
            self.assertRegex(ax.get_ylabel(), r"\(dimensionless\)$")

    def test_means_table_and_swept_values(self):
        cdir = os.path.join(self.tmp, "c")
        rows = [{"platform.pfs_bw": bw, "sharing.policy": p, "seed": 1, "min_yield": y, "efficiency": 1, "events": 1}
                for bw in (1e9, 2e9) for p, y in (("fairshare", 0.7), ("fcfs", 0.5))]
        write_runs(cdir, rows, ["platform.pfs_bw", "sharing.policy"],
                   {"name": "t", "report": {"x": "platform.pfs_bw", "policy": "sharing.policy"}})
        figures._save = self.orig_save
        proc = run_report(cdir)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(cdir, "report", "report.md"), encoding="utf-8") as f:
            md = f.read()
        self.assertIn("PFS bandwidth (GB/s) [platform.pfs_bw]", md)
        self.assertRegex(md, r"\| fairshare +\| 1 +\| 1 +\| 0\.7 ")
        self.assertIn("swept `platform.pfs_bw`: 2 value(s): 1 GB/s, 2 GB/s", md)
        self.assertNotIn("e+09", md)
        self.assertNotIn("1000000000", md)

    def test_strings_kept_as_written(self):
        df = self.frame(["250MBps", "1.25GBps"])
        self.assertEqual(figures.column_header("platform.ionode_bw", df["platform.pfs_bw"]),
                         "I/O node bandwidth [platform.ionode_bw]")
        figures.metric_vs_param(df, "platform.pfs_bw", "min_yield", "sharing.policy", self.png)
        ax = self.saved[0].axes[0]
        self.assertEqual(ax.get_xlabel(), "PFS bandwidth")
        self.assertEqual(sorted(t.get_text() for t in ax.get_xticklabels()), ["1.25GBps", "250MBps"])

    def test_zero_height_boxes_are_coloured(self):
        df = self.frame([1e9, 2e9])
        figures.boxplot_per_policy(df, "min_yield", "sharing.policy", self.png, by="platform.pfs_bw")
        ax = self.saved[0].axes[0]
        colors = dict(zip(["fairshare", "fcfs"], figures._colors(2)))
        bands = [c for c in ax.collections if isinstance(c, LineCollection) and c.get_linewidth()[0] >= 5]
        self.assertEqual(len(bands), 4)  # 2 policies x 2 bandwidths, one run each
        seen = sorted(tuple(round(v, 6) for v in b.get_color()[0][:3]) for b in bands)
        want = sorted(tuple(round(v, 6) for v in colors[p][:3]) for p in ("fairshare", "fcfs") for _ in range(2))
        self.assertEqual(seen, want)
        ys = sorted(float(b.get_segments()[0][0][1]) for b in bands)
        self.assertEqual([round(y, 9) for y in ys], [0.5, 0.6, 0.7, 0.8])


if __name__ == "__main__":
    unittest.main()
