#!/usr/bin/env python3
"""`iosim view` of a job stream in a real browser (headless Chromium, Debian chromium, chromium-driver,
python3-selenium), at 1400 x 900.

System: the six Darshan sample logs (IOSIM_DATA_DIR/darshan-logs, else ../shared/datasets; docs/darshan.md) replayed
as a queue on test/fixtures/site-64n-8ost.xml, a hand-written <cluster> platform (64 nodes with their own 1 GB/s
link, a 25 GB/s core link, 2 OSS with 4 OSTs of 1.5 GB/s): run 0 as the scenario is, run 1 with
striping.policy=lustre-default, stripe_count=2. The logs were recorded years apart: the runs span 1.29e8 s and the six
jobs never overlap (each runs between 1 s and 39,207 s).
Expectations:
- the overview has one bar per job and run (12) on one time axis whose idle gaps are cut: 6 busy periods, each bar at
  least 0.2 % of the axis wide (visible), a job's bar starts at the same x in both runs (the runs line up), and each
  bar's colour is the job's io_stretch from apps.csv;
- every job name is drawn whole (no tick label cut at the figure's left edge), no panel's x-axis title overlaps its
  legend, no panel title is drawn inside a figure (they are HTML above it, where the toolbar cannot cover them);
- no horizontal scrollbar at 1400 x 900 (the document is not wider than the window);
- the detail panels open on the job with the longest I/O time, drawn exactly (not "mean rates per bin"), and a click
  on a bar (zoomToJob) moves every panel to that job's [start, end] ± 3 %;
- the browser logs no error.

usage: stream_test.py --iosim BUILD/iosim --source SRC --work DIR [--screenshot FILE.png]
  --work: the runs and Chromium's profile (removed at the end); --screenshot: also save the page at 1400 x 900.
"""
import argparse
import csv
import math
import os
import shutil
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_test import browser, open_page  # noqa: E402

ARGS = None


def run(cmd, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p.stdout


SCENARIO = """{"platform": "%s",
 "workload": {"darshan": "${IOSIM_DATA_DIR}/darshan-logs"},
 "queue": {"enabled": true}, "allocation": {"policy": "fixed"}, "sharing": {"policy": "maxmin"},
 "output": {"progress": false}}
"""


class StreamView(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = os.path.abspath(ARGS.work)
        shutil.rmtree(cls.work, ignore_errors=True)
        os.makedirs(cls.work)
        data = os.environ.get("IOSIM_DATA_DIR") or os.path.join(ARGS.source, "..", "shared", "datasets")
        if not os.path.isdir(os.path.join(data, "darshan-logs")):
            raise AssertionError(f"{data}/darshan-logs not found; fix: iosim data fetch, or set IOSIM_DATA_DIR")
        env = dict(os.environ, IOSIM_DATA_DIR=os.path.abspath(data))
        scen = os.path.join(cls.work, "site.json")
        with open(scen, "w", encoding="utf-8") as f:
            f.write(SCENARIO % os.path.join(os.path.abspath(ARGS.source), "test", "fixtures", "site-64n-8ost.xml"))
        cls.dirs = [os.path.join(cls.work, "as-is"), os.path.join(cls.work, "stripe2")]
        run([ARGS.iosim, "run", scen, "-o", cls.dirs[0]], env)
        run([ARGS.iosim, "run", scen, "-o", cls.dirs[1], "--set", "striping.policy=lustre-default",
             "--set", "striping.stripe_count=2"], env)
        cls.apps = []
        for d in cls.dirs:
            with open(os.path.join(d, "apps.csv"), newline="", encoding="utf-8") as f:
                cls.apps.append(list(csv.DictReader(f)))
        cls.page = os.path.join(cls.work, "stream.html")
        run([ARGS.iosim, "view", cls.dirs[0], cls.dirs[1], "--labels", "as-is,stripe 2", "-o", cls.page])
        cls.driver = browser(cls.work, 1400, 900)
        open_page(cls.driver, cls.page)
        time.sleep(0.5)
        if ARGS.screenshot:
            cls.driver.save_screenshot(ARGS.screenshot)
            print(ARGS.screenshot)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        shutil.rmtree(cls.work, ignore_errors=True)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def test_0_no_console_error(self):
        errors = [e for e in self.driver.get_log("browser") if e.get("level") == "SEVERE"]
        self.assertEqual(errors, [], "the page logged errors")

    def test_overview_cuts_the_idle_gaps(self):
        ax = self.js("const a = window.iosimView.busyAxis(); return {n: a.periods.length, x: a.periods.map(q => "
                     "a.toX(q[0]))}")
        self.assertEqual(ax["n"], 6)
        self.assertEqual(ax["x"], sorted(ax["x"]))
        tr = self.js("const d = document.getElementById('overview-fig').data[0]; return {y: d.y, x: d.x, "
                     "base: d.base, c: d.marker.color, cmin: d.marker.cmin, cmax: d.marker.cmax, "
                     "ticks: d.marker.colorbar.ticktext}")
        self.assertEqual(len(tr["y"]), 12)
        self.assertGreaterEqual(min(tr["x"]), 0.002)
        # a job's two runs on adjacent rows, the jobs by decreasing change of their I/O time between the runs
        by = [{a["name"]: a for a in apps} for apps in self.apps]
        names = [tr["y"][2 * k].split(" · ")[0] for k in range(6)]
        self.assertEqual(sorted(names), sorted(by[0]))
        changes = [abs(float(by[1][n]["io_time_s"]) - float(by[0][n]["io_time_s"])) for n in names]
        self.assertEqual(changes, sorted(changes, reverse=True))
        for k, name in enumerate(names):
            self.assertEqual(tr["y"][2 * k], name + " · as-is")
            self.assertEqual(tr["y"][2 * k + 1], name + " · stripe 2")
            self.assertAlmostEqual(tr["base"][2 * k], tr["base"][2 * k + 1], places=9, msg=name)  # runs line up
            for r in (0, 1):  # the fixed scale: log2 of the stretch, 1 to 16
                want = by[r][name]["io_stretch"]
                want = min(16.0, max(1.0, float(want))) if want else 1.0
                self.assertAlmostEqual(tr["c"][2 * k + r], math.log2(want), places=9)
        self.assertEqual((tr["cmin"], tr["cmax"]), (0, 4))
        self.assertEqual(tr["ticks"], ["1 (alone)", "1.5", "2", "4", "8", "≥ 16"])

    def test_cursor_starts_at_a_job(self):
        t = self.js("return window.iosimView.cursor()")
        starts = [float(a["start_s"]) for apps in self.apps for a in apps]
        self.assertIn(round(t, 6), [round(x, 6) for x in starts])

    def test_axis_labels_apart(self):
        """The busy periods' lengths and the gaps' labels above the overview: horizontal, none overlapping."""
        boxes = self.js("""
return [...document.querySelectorAll('#overview-fig .annotation')].map(a => {
  const b = a.getBoundingClientRect(); return {t: a.textContent, l: b.left, r: b.right, top: b.top, bottom: b.bottom};
});""")
        self.assertGreaterEqual(len([b for b in boxes if not b["t"].startswith("gap")]), 6)
        for i, a in enumerate(boxes):
            self.assertLess(a["bottom"] - a["top"], 20, a)  # not rotated
            for b in boxes[i + 1:]:
                hit = a["l"] < b["r"] - 1 and b["l"] < a["r"] - 1 and a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1
                self.assertFalse(hit, (a, b))

    def test_labels_whole_and_apart(self):
        cut = self.js("""
const out = [];
for (const t of document.querySelectorAll('#overview-fig .ytick text')) {
  const b = t.getBoundingClientRect(), f = document.getElementById('overview-fig').getBoundingClientRect();
  if (b.left < f.left - 0.5) out.push(t.textContent);
}
return out;""")
        self.assertEqual(cut, [])
        names = self.js("return [...document.querySelectorAll('#overview-fig .ytick text')].map(t => t.textContent)")
        self.assertIn("sample-goodost · stripe 2", names)
        overlaps = self.js("""
const out = [];
const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
for (const d of window.iosimView.figures()) {
  const x = d.querySelector('.xtitle'), l = d.querySelector('.legend');
  if (x && l && hit(x.getBoundingClientRect(), l.getBoundingClientRect())) out.push(d.id);
  if (d.querySelector('.gtitle')) out.push(d.id + ': title inside the figure');
}
return out;""")
        self.assertEqual(overlaps, [])

    def test_no_horizontal_scrollbar(self):
        w = self.js("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        self.assertLessEqual(w[0], w[1])

    def test_panels_on_one_job_and_click_zoom(self):
        ranges = self.js("return window.iosimView.figures().map(d => d.layout.xaxis.range)")
        rng = self.js("return window.iosimView.range()")
        best = None  # the job of longest I/O time over both runs, the first of equals (the view's firstRange)
        for run in self.apps:
            for x in run:
                if x["start_s"] != "" and (best is None or float(x["io_time_s"]) > float(best["io_time_s"])):
                    best = x
        a = best
        s, e = float(a["start_s"]), float(a["end_s"])
        self.assertAlmostEqual(rng[0], s - 0.03 * (e - s), delta=1e-6 * max(1.0, e))
        self.assertAlmostEqual(rng[1], e + 0.03 * (e - s), delta=1e-6 * max(1.0, e))
        self.assertTrue(all(r == ranges[0] for r in ranges), ranges)
        titles = self.js("return [...document.querySelectorAll('.panel-title')].map(t => t.textContent)")
        self.assertFalse([t for t in titles if "per bin" in t], titles)
        k = next(i for i, x in enumerate(self.apps[1]) if x["name"] == "sample-goodost")
        self.js("window.iosimView.zoomToJob(1, arguments[0])", k)
        s, e = float(self.apps[1][k]["start_s"]), float(self.apps[1][k]["end_s"])
        for r in self.js("return window.iosimView.figures().map(d => d.layout.xaxis.range)"):
            self.assertAlmostEqual(r[0], s - 0.03 * (e - s), delta=1e-6 * e)
            self.assertAlmostEqual(r[1], e + 0.03 * (e - s), delta=1e-6 * e)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--iosim", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--screenshot")
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0], "-v"] + rest)
