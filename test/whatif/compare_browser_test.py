#!/usr/bin/env python3
"""compare.html (python/iosim/compare.py html_page) in a real browser: headless Chromium through Selenium and
chromedriver (Debian chromium, chromium-driver, python3-selenium), at 1400 x 900, with 120 jobs.

System: two run directories written by the test (results.json, apps.csv), `base` and `faster`, of 120 jobs of 10 s
of I/O each in the base, both runs naming one hand-made calibration whose held-out APE quantiles are p75 = 0.15 and
p90 = 0.20. In `faster` the I/O times are: jobs 0-9 x 0.5, jobs 10-19 x 0.9, jobs 20-24 x 1.6, job 25 + m
(m = 0..94) x (1 + 0.00011 m). Job names are 44 characters long.
Expectations (by hand; band of a ratio r at a = 0.2 in both runs: r x 0.8 / 1.2 - 1 .. r x 1.2 / 0.8 - 1):
- the answer figure draws the total and the 25 largest changes, sorted by change: the 10 jobs at -50 % (band -66.67
  .. -25 %: excludes 0), then the 10 at -10 % (band -40 .. +35 %: crosses 0, drawn hatched in the trace named "p90
  band crosses 0"), then the 5 at +60 % (band +6.67 .. +140 %); error bars are those bands (minus 16.67 and plus 25
  for -50 %, minus 30 and plus 45 for -10 %); the total: (50 + 90 + 80 + 950 + 10 x 0.00011 x 4465) / 1200 - 1 =
  -2.0907 %, its band -34.73 .. +46.86 % crosses 0;
- the 95 others are summarised in one line: 5 within 0.05 % (m = 0..4: +0.044 % at most) and 90 slower (+0.1 ..
  +1.0 %);
- every y label of the answer figure is a full job name, none overlaps the next; the page has no horizontal scrollbar
  at 1400 x 900 (the per-job table fits the width); the browser logged no error.

usage: compare_browser_test.py --iosim BUILD/iosim --work DIR [--screenshot DIR]
  --work: a folder for the runs and Chromium's profile (removed at the end); --screenshot: also save
  compare-120-jobs.png (the first screen) and compare-120-jobs-full.png (the whole page) there.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # test/: chromium.py
try:
    import chromium
except ImportError:
    print("compare_browser_test.py: error: Python module selenium not found; fix: apt-get install python3-selenium "
          "chromium chromium-driver (or `make deps`)", file=sys.stderr)
    sys.exit(2)

ARGS = None
JOBS = 120


def job_name(k):
    return f"darshan_logs_dli_site_job_{k:03d}_long_name_xyz"  # 44 characters


def ratio(k):
    if k < 10:
        return 0.5
    if k < 20:
        return 0.9
    if k < 25:
        return 1.6
    return 1 + 0.00011 * (k - 25)


def write_run(root, name, cal, factor):
    d = os.path.join(root, name)
    os.makedirs(d)
    res = {"status": "complete", "seed": 1, "scenario": {"calibration": cal, "workload": {"darshan": "logs"},
                                                          "queue": {"enabled": True}},
           "platform": {"compute_nodes": 64, "capacity_Bps": 12e9}, "metrics": {}}
    with open(os.path.join(d, "results.json"), "w", encoding="utf-8") as f:
        json.dump(res, f)
    with open(os.path.join(d, "apps.csv"), "w", encoding="utf-8") as f:
        f.write("name,nodes,io_volume_bytes,io_time_s,start_s,end_s\n")
        for k in range(JOBS):
            t = 10 * factor(k)
            f.write(f"{job_name(k)},1,1e9,{t!r},{100 * k},{100 * k + 50 + t!r}\n")
    return d


class ComparePage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = os.path.abspath(ARGS.work)
        shutil.rmtree(cls.work, ignore_errors=True)
        os.makedirs(cls.work)
        cal = os.path.join(cls.work, "cal.json")
        with open(cal, "w", encoding="utf-8") as f:
            json.dump({"format": "iosim-calibration/1", "held_out_error": {"jobs": 100, "median_ape": 0.1, "p75": 0.15,
                                                                           "p90": 0.2}}, f)
        base = write_run(cls.work, "base", cal, lambda k: 1.0)
        faster = write_run(cls.work, "faster", cal, ratio)
        cls.page = os.path.join(cls.work, "compare.html")
        p = subprocess.run([ARGS.iosim, "compare", base, faster, "--html", cls.page], capture_output=True, text=True)
        if p.returncode != 0:
            raise AssertionError(f"iosim compare exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
        cls.d = chromium.start(cls.work, 1400, 900, extra=("--hide-scrollbars",))
        cls.d.set_window_size(1400, 900)
        # the viewport, not the window, is 1400 x 900
        inner = cls.d.execute_script("return [window.innerWidth, window.innerHeight]")
        cls.d.set_window_size(1400 + 1400 - inner[0], 900 + 900 - inner[1])
        cls.d.get("file://" + cls.page)
        for _ in range(200):
            if cls.d.execute_script("var g = document.querySelector('#answer .plotly-graph-div');"
                                    "return !!(g && g._fullLayout && document.querySelector('#answer .ytick'))"):
                break
            time.sleep(0.05)
        cls.gd = "document.querySelector('#answer .plotly-graph-div')"

    @classmethod
    def tearDownClass(cls):
        if ARGS.screenshot:
            os.makedirs(ARGS.screenshot, exist_ok=True)
            cls.d.save_screenshot(os.path.join(ARGS.screenshot, "compare-120-jobs.png"))
            h = cls.d.execute_script("return document.documentElement.scrollHeight")
            cls.d.set_window_size(1400, h + 200)
            time.sleep(0.5)
            cls.d.save_screenshot(os.path.join(ARGS.screenshot, "compare-120-jobs-full.png"))
        cls.d.quit()
        shutil.rmtree(cls.work, ignore_errors=True)

    def traces(self):
        return self.d.execute_script(f"return {self.gd}.data.map(t => ({{name: t.name, y: t.y, x: t.x, "
                                     "plus: t.error_x.array, minus: t.error_x.arrayminus, pattern: "
                                     "t.marker.pattern.shape}))")

    def test_drawn_jobs_sorted_with_bands(self):
        tr = self.traces()
        rows = tr[0]["y"]
        self.assertEqual(len(rows), 26)
        self.assertEqual(rows[0], "(all jobs)")
        self.assertEqual(rows[1:11], [job_name(k) for k in range(10)])
        self.assertEqual(rows[11:21], [job_name(k) for k in range(10, 20)])
        self.assertEqual(rows[21:], [job_name(k) for k in range(20, 25)])
        by = {t["name"]: t for t in tr}
        excl = by["faster vs base: p90 band excludes 0"]
        cross = by["faster vs base: p90 band crosses 0 (not shown to change)"]
        self.assertEqual(cross["pattern"], "/")
        self.assertEqual(excl["pattern"], "")
        self.assertAlmostEqual(excl["x"][1], -50, places=9)
        self.assertAlmostEqual(excl["minus"][1], -50 - 100 * (0.5 * 0.8 / 1.2 - 1), places=9)  # 16.667
        self.assertAlmostEqual(excl["plus"][1], 25, places=9)
        self.assertAlmostEqual(excl["x"][21], 60, places=9)
        self.assertAlmostEqual(excl["minus"][21], 60 - 100 * (1.6 * 0.8 / 1.2 - 1), places=9)  # 53.33
        self.assertAlmostEqual(cross["x"][11], -10, places=9)
        self.assertAlmostEqual(cross["minus"][11], 30, places=9)
        self.assertAlmostEqual(cross["plus"][11], 45, places=9)
        self.assertIsNone(excl["x"][11])  # each bar in one trace only
        self.assertIsNone(cross["x"][1])
        total = (50 + 90 + 80 + 950 + 10 * 0.00011 * 4465) / 1200
        self.assertAlmostEqual(cross["x"][0], 100 * (total - 1), places=9)  # -2.0907 %
        self.assertAlmostEqual(cross["x"][0] - cross["minus"][0], 100 * (total * 0.8 / 1.2 - 1), places=9)
        self.assertAlmostEqual(cross["x"][0] + cross["plus"][0], 100 * (total * 1.5 - 1), places=9)

    def test_rest_summarised(self):
        text = self.d.execute_script("return Array.from(document.querySelectorAll('p.rest')).map(p => "
                                     "p.textContent).join('|')")
        self.assertEqual(text, "faster: the other 95 jobs, not drawn: 5 within 0.05 %, 90 slower (+0.1 .. +1.0 %) "
                               "(every job is in the table below, in the same order)")

    def test_labels_full_and_apart(self):
        boxes = self.d.execute_script("return Array.from(document.querySelectorAll('#answer .ytick text')).map(e => "
                                      "{var r = e.getBoundingClientRect(); return [e.textContent, r.top, r.bottom,"
                                      " r.left];})")
        self.assertEqual(len(boxes), 26)
        tops = sorted(boxes, key=lambda b: b[1])
        self.assertEqual([b[0] for b in tops[1:11]], [job_name(k) for k in range(10)])  # in order, not cut
        for a, b in zip(tops, tops[1:]):
            self.assertLessEqual(a[2], b[1] + 0.5, f"labels {a[0]} and {b[0]} overlap")
        self.assertGreaterEqual(min(b[3] for b in boxes), 0)  # inside the page on the left

    def test_no_sideways_scroll_and_no_error(self):
        w = self.d.execute_script("return [document.documentElement.scrollWidth, window.innerWidth, "
                                  "document.querySelector('table.jobs').getBoundingClientRect().right]")
        self.assertEqual(self.d.execute_script("return window.innerWidth"), 1400)
        self.assertLessEqual(w[0], w[1], "the page scrolls sideways")
        self.assertLessEqual(w[2], w[1])
        rows = self.d.execute_script("return document.querySelectorAll('table.jobs tbody tr').length")
        self.assertEqual(rows, 2 * JOBS + 2)
        errors = [e for e in self.d.get_log("browser") if e.get("level") == "SEVERE"]
        self.assertEqual(errors, [])


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--iosim", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--screenshot")
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
