"""python/iosim/campaign_io.py (the one runs.csv loader, Markdown through to_markdown, the missing-module error) and
figures.py's labels, series styles and Gantt window. Values are written by hand here and checked by hand."""

import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import iosim_path  # noqa: E402,F401  (iosim's Python package on sys.path)
from iosim import campaign_io  # noqa: E402
from iosim import figures  # noqa: E402
from mdtables import md_rows  # noqa: E402

RUNS_CSV = """run_id,index,platform.ionodes,sharing.policy,seed,status,wall_time_s,error,min_yield,aggregate_bandwidth_Bps,note
a1,0,4,fairshare,1,complete,0.5,,0.8,2e9,x
a2,1,4,fcfs,1,failed,0.1,boom,,,y
a3,2,8,fairshare,1,stopped_at_window_end,0.5,,0.5,4e9,z
a4,3,8,fcfs,1,complete,0.4,,0.2,,w
"""


class LoaderTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="iosim-cio-")
        with open(os.path.join(self.dir, "runs.csv"), "w") as f:
            f.write(RUNS_CSV)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_columns(self):
        df, swept, metrics = campaign_io.load_runs(self.dir)
        self.assertEqual(len(df), 4)
        self.assertEqual(swept, ["platform.ionodes", "sharing.policy"])
        # `note` is after `error` but not numeric: not a metric, left as text
        self.assertEqual(metrics, ["min_yield", "aggregate_bandwidth_Bps"])
        self.assertEqual(df["note"].tolist(), ["x", "y", "z", "w"])
        self.assertEqual(df["error"].tolist(), ["", "boom", "", ""])
        self.assertTrue(math.isnan(df["min_yield"].iat[1]))

    def test_complete_runs(self):
        runs = campaign_io.read_runs(self.dir, "c.json", ("platform.ionodes",))
        self.assertEqual(runs["run_id"].tolist(), ["a1", "a3", "a4"])
        # (0.8 + 0.5 + 0.2) / 3 = 0.5; bandwidth (2e9 + 4e9) / 2 = 3e9 (the empty cell is left out)
        self.assertAlmostEqual(runs["min_yield"].mean(), 0.5, places=12)
        self.assertAlmostEqual(runs["aggregate_bandwidth_Bps"].mean(), 3e9)

    def test_errors(self):
        with self.assertRaisesRegex(campaign_io.InputError, "column.*nosuch.*missing.*c.json"):
            campaign_io.read_runs(self.dir, "c.json", ("nosuch",))
        with self.assertRaisesRegex(campaign_io.InputError, "runs.csv: file not found.*iosim sweep c.json"):
            campaign_io.read_runs(os.path.join(self.dir, "none"), "c.json")
        with open(os.path.join(self.dir, "runs.csv"), "w") as f:
            f.write("\n".join(line for line in RUNS_CSV.splitlines() if "complete" not in line and "window" not in line))
        with self.assertRaisesRegex(campaign_io.InputError, r"no complete run \(1 failed\)"):
            campaign_io.read_runs(self.dir, "c.json")

    def test_markdown_through_pandas(self):
        md = campaign_io.md_table([("a|b", "0.500", None), ("c", 1.5, "")], ["name", "value", "empty"])
        # cells kept as written (0.500 not renumbered to 0.5), pipes escaped, None empty
        self.assertEqual(md_rows(md), [["name", "value", "empty"], ["a\\|b", "0.500", ""], ["c", "1.5", ""]])
        self.assertTrue(md.splitlines()[1].startswith("|:--"))  # pandas/tabulate's pipe table


SCRIPTS = ["report.py", "figures.py", "apex.py", "jobqueue.py", "rr9549.py", "tappio.py"]
PACKAGE = ("report.py", "figures.py")


class MissingModuleTest(unittest.TestCase):
    def run_without(self, script, module):
        if script in PACKAGE:  # a module of iosim's Python package, run as `python3 -m iosim.<name>`
            run = f"runpy.run_module('iosim.{script[:-3]}', run_name='__main__', alter_sys=True)"
        else:
            run = f"runpy.run_path({os.path.join(ROOT, 'analysis', script)!r}, run_name='__main__')"
        code = f"import runpy, sys; sys.modules[{module!r}] = None; sys.argv = [{script!r}, 'DIR']; {run}"
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                              env=iosim_path.env())

    def test_every_script(self):
        for script in SCRIPTS:
            for module, package in (("tabulate", "python3-tabulate"), ("pandas", "python3-pandas"),
                                    ("matplotlib", "python3-matplotlib")):
                with self.subTest(script=script, module=module):
                    p = self.run_without(script, module)
                    self.assertEqual(p.returncode, 2, p.stderr)
                    self.assertNotIn("Traceback", p.stderr)
                    self.assertIn(f"{script}: error: Python module(s) {module} not found", p.stderr)
                    self.assertIn(f"apt-get install {package}", p.stderr)

    def test_message(self):
        msg = campaign_io.missing_message("x.py", ["pandas", "tabulate"])
        self.assertIn("apt-get install python3-pandas python3-tabulate", msg)
        self.assertIn(sys.executable, msg)


class LabelTest(unittest.TestCase):
    def test_labels(self):
        self.assertEqual(figures.axis_label("platform.ionodes"), "I/O nodes")
        self.assertEqual(figures.axis_label("sharing.policy"), "sharing policy")
        self.assertEqual(figures.axis_label("workload.generator.io_load"), "target I/O-load Θ (dimensionless)")
        self.assertEqual(figures.axis_label("aggregate_bandwidth_Bps"), "aggregate bandwidth (GB/s)")
        self.assertEqual(figures.axis_label("makespan_s"), "makespan (s)")
        # unknown columns: words from the name, unit from its suffix, decimal GB/s and GB
        self.assertEqual(figures.unit_of("sim_bw_mean_Bps"), ("sim bw mean", "GB/s", 1e-9))
        self.assertEqual(figures.unit_of("storage.capacity_bytes"), ("capacity", "GB", 1e-9))
        self.assertEqual(figures.axis_label("overruns"), "overruns")
        self.assertEqual(figures.column_header("aggregate_bandwidth_Bps"),
                         "aggregate bandwidth (GB/s) [aggregate_bandwidth_Bps]")
        self.assertEqual(figures.column_header("min_yield"), "MinYield [min_yield]")
        self.assertEqual(figures.column_header("overruns"), "overruns")


class FigureStyleTest(unittest.TestCase):
    """The figures as drawn: figures._save is replaced to keep the matplotlib figure."""

    def setUp(self):
        self.saved = []
        self.orig = figures._save
        figures._save = lambda fig, out: self.saved.append(fig)
        self.dir = tempfile.mkdtemp(prefix="iosim-fig-")

    def tearDown(self):
        figures._save = self.orig
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_identical_series_distinguishable(self):
        rows = [(i, x, p, s, "complete", 0.5) for i, (x, p, s) in enumerate(
            (x, p, s) for x in (4, 8) for p in ("fairshare", "fcfs") for s in (1, 2))]
        df = figures.pd.DataFrame(rows, columns=["index", "platform.ionodes", "sharing.policy", "seed", "status",
                                                 "min_yield"])  # both policies exactly equal
        figures.metric_vs_param(df, "platform.ionodes", "min_yield", "sharing.policy",
                                os.path.join(self.dir, "x.png"))
        ax = self.saved[-1].axes[0]
        lines = {ln.get_label(): ln for ln in ax.get_lines() if not ln.get_label().startswith("_")}
        self.assertEqual(sorted(lines), ["fairshare", "fcfs"])
        a, b = lines["fairshare"], lines["fcfs"]
        self.assertNotEqual(a.get_linestyle(), b.get_linestyle())
        self.assertNotEqual(a.get_marker(), b.get_marker())
        self.assertGreater(b.get_zorder(), a.get_zorder())  # the thinner line on top
        self.assertEqual(ax.get_xlabel(), "I/O nodes")
        self.assertEqual(ax.get_ylabel(), "MinYield (dimensionless)")
        self.assertEqual([t.get_text() for t in ax.get_xticklabels()], ["4", "8"])

    def test_gantt_heat_map_and_window(self):
        ev = os.path.join(self.dir, "events.csv")
        with open(ev, "w") as f:
            f.write("app,kind,resource,start_s,end_s,bytes,rate_Bps\n"
                    "A,work,,0,4,,\nA,io,,4,10,,\n"
                    "A,transfer,r0,4,10,6e9,1e9\nA,transfer,r1,4,6,2e9,1e9\n")
        rs = os.path.join(self.dir, "resources.csv")
        with open(rs, "w") as f:
            f.write("name,kind,capacity_Bps\nr0,ionode,2e9\nr1,ionode,1e9\nr2,ionode,1e9\n")
        with open(os.path.join(self.dir, "results.json"), "w") as f:
            f.write('{"window": {"begin_s": 2, "end_s": 8, "kind": "steady-state"},'
                    ' "scenario": {"sharing": {"policy": "fcfs"}}}')
        figures.gantt(ev, rs, os.path.join(self.dir, "g.png"))
        fig = self.saved[-1]
        self.assertNotIn("Gantt chart of", fig._suptitle.get_text())
        self.assertIn("sharing fcfs", fig._suptitle.get_text())
        ax1, ax2 = fig.axes[0], fig.axes[1]
        meshes = [c for c in ax2.collections if type(c).__name__ == "QuadMesh"]
        self.assertEqual(len(meshes), 1)  # a heat map, not step lines
        grid = meshes[0].get_array().reshape(3, -1)
        # mean occupancy over [0, 10] s: r0 0.5 on [4, 10] -> 0.3; r1 1.0 on [4, 6] -> 0.2; r2 never used -> 0
        self.assertAlmostEqual(float(grid[0].mean()), 0.3, places=9)
        self.assertAlmostEqual(float(grid[1].mean()), 0.2, places=9)
        self.assertEqual(float(grid[2].max()), 0.0)
        for ax in (ax1, ax2):
            xs = sorted(ln.get_xdata()[0] for ln in ax.get_lines() if ln.get_linestyle() == "--")
            self.assertEqual(xs, [2.0, 8.0])
        legend = [t.get_text() for t in ax1.get_legend().get_texts()]
        self.assertIn("metrics window (steady-state): [2, 8] s", legend)


if __name__ == "__main__":
    unittest.main()
