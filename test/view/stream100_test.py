#!/usr/bin/env python3
"""`iosim view` of a stream of 110 jobs, two runs (220 overview rows), in a real browser at 1400 x 900 (headless
Chromium, Debian chromium, chromium-driver, python3-selenium).

System: 110 jobs written here from a fixed seed (1 to 16 nodes, 1 to 3 iterations of 60 to 1,800 s of work then 1 to
120 GB of I/O, 1 to 8 OSTs each), released in 12 bursts of a few hours separated by idle gaps of 1 to 40 days, as a
queue on a generated oss-ost platform (64 nodes, 2 servers); run "4 OSTs/server" as it is, run "8 OSTs/server"
with twice the OSTs (a what-if).
Expectations at 1400 x 900:
- the overview has 220 rows, a job's two runs on adjacent rows (same start: the runs line up), the jobs sorted by
  decreasing change of their I/O time between the runs;
- no two labels overlap: the rows' names (each row at least 11 px high), the busy periods' and gaps' labels above the
  axis (horizontal); each busy period's length is written above it (12 periods);
- no horizontal scrollbar; the cursor starts at a job's start (never before the first job);
- the state table at the cursor keeps its columns apart (no cell's text overlaps another's) within its run's column;
- the browser logs no error.

usage: stream100_test.py --iosim BUILD/iosim --source SRC --work DIR [--screenshot FILE.png]
  --screenshot: save the first 3,000 px of the page, 1400 px wide (docs/view-stream-110.png)
"""
import argparse
import csv
import json
import os
import random
import shutil
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_test import browser, open_page  # noqa: E402

ARGS = None
JOBS, BURSTS = 110, 12


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p.stdout


def workload(seed=42):
    rng = random.Random(seed)
    t, apps = 0.0, []
    per = [JOBS // BURSTS + (1 if b < JOBS % BURSTS else 0) for b in range(BURSTS)]
    for b, n in enumerate(per):
        if b:
            t += rng.uniform(1, 40) * 86400
        for k in range(n):
            nodes = rng.choice([1, 2, 4, 8, 16])
            apps.append({"name": f"job{len(apps) + 1:03d}", "nodes": nodes, "release": round(t + rng.uniform(0, 4 * 3600)),
                         "iterations": rng.randint(1, 3), "work": f"{rng.randint(60, 1800)}s",
                         "io": f"{rng.randint(1, 120)}GB", "io_resources": rng.choice([1, 2, 4, 8]),
                         "profile": {"1": "1GB/s", "2": "1.9GB/s", "4": "3.6GB/s", "8": "6.5GB/s"}})
    return apps


class Stream100(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = os.path.abspath(ARGS.work)
        shutil.rmtree(cls.work, ignore_errors=True)
        os.makedirs(cls.work)
        scen = {"platform": {"kind": "oss-ost", "compute": 64, "servers": 2, "osts_per_server": 4, "ost_bw": "1.5GBps"},
                "workload": {"applications": workload()}, "queue": {"enabled": True},
                "allocation": {"policy": "fixed"}, "sharing": {"policy": "maxmin"}, "output": {"progress": False}}
        path = os.path.join(cls.work, "stream.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(scen, f)
        cls.dirs = [os.path.join(cls.work, "ost4"), os.path.join(cls.work, "ost8")]
        run([ARGS.iosim, "run", path, "-o", cls.dirs[0]])
        run([ARGS.iosim, "run", path, "-o", cls.dirs[1], "--set", "platform.osts_per_server=8"])
        cls.apps = []
        for d in cls.dirs:
            with open(os.path.join(d, "apps.csv"), newline="", encoding="utf-8") as f:
                cls.apps.append({a["name"]: a for a in csv.DictReader(f)})
        cls.page = os.path.join(cls.work, "stream.html")
        run([ARGS.iosim, "view", cls.dirs[0], cls.dirs[1], "--labels", "4 OSTs/server,8 OSTs/server", "-o", cls.page])
        cls.driver = browser(cls.work, 1400, 900)
        open_page(cls.driver, cls.page)
        time.sleep(0.5)

    @classmethod
    def tearDownClass(cls):
        if ARGS.screenshot:
            h = cls.driver.execute_script("return document.documentElement.scrollHeight")
            cls.driver.set_window_size(1400, min(h + 140, 3000))  # the overview, the metrics and the first panels
            time.sleep(1)
            cls.driver.save_screenshot(ARGS.screenshot)
            print(ARGS.screenshot)
        cls.driver.quit()
        shutil.rmtree(cls.work, ignore_errors=True)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def test_colours_never_repeat(self):
        colours = self.js("return Object.values(window.iosimView.colourOf)")
        self.assertEqual(len(colours), JOBS)
        self.assertEqual(len(set(c.lower() for c in colours)), JOBS)
        note = self.js("return document.querySelector('#overview .note').textContent")
        self.assertIn("the colours after the ninth are generated hues", note)

    def test_0_no_console_error(self):
        self.assertEqual([e for e in self.driver.get_log("browser") if e.get("level") == "SEVERE"], [])

    def test_rows_adjacent_and_sorted_by_change(self):
        y = self.js("const d = document.getElementById('overview-fig').data; return [].concat(...d.map(t => t.y))")
        self.assertEqual(len(y), 2 * JOBS)
        order = self.js("return document.getElementById('overview-fig').layout.yaxis.categoryarray")
        names = [order[2 * k].split(" · ")[0] for k in range(JOBS)]
        for k, n in enumerate(names):
            self.assertEqual(order[2 * k], n + " · 4 OSTs/server")
            self.assertEqual(order[2 * k + 1], n + " · 8 OSTs/server")
        ch = [abs(float(self.apps[1][n]["io_time_s"]) - float(self.apps[0][n]["io_time_s"])) for n in names]
        self.assertEqual(ch, sorted(ch, reverse=True))
        self.assertGreater(ch[0], 0)

    def test_labels_apart(self):
        ticks = self.js("""return [...document.querySelectorAll('#overview-fig .ytick text')].map(t => {
  const b = t.getBoundingClientRect(); return [b.top, b.bottom, b.left, t.textContent]; });""")
        self.assertEqual(len(ticks), 2 * JOBS)
        ticks.sort()
        for a, b in zip(ticks, ticks[1:]):
            self.assertLessEqual(a[1], b[0] + 1.5, (a, b))  # no row label over the next
        self.assertTrue(all(t[2] >= 0 for t in ticks))  # none cut at the left edge
        boxes = self.js("""return [...document.querySelectorAll('#overview-fig .annotation')].map(a => {
  const b = a.getBoundingClientRect(); return {t: a.textContent, l: b.left, r: b.right, top: b.top, bottom: b.bottom}; });""")
        self.assertGreaterEqual(len([b for b in boxes if not b["t"].startswith("gap")]), BURSTS)
        for i, a in enumerate(boxes):
            self.assertLess(a["bottom"] - a["top"], 20, a)
            for b in boxes[i + 1:]:
                self.assertFalse(a["l"] < b["r"] - 1 and b["l"] < a["r"] - 1 and a["top"] < b["bottom"] - 1
                                 and b["top"] < a["bottom"] - 1, (a, b))

    def test_fits_the_window(self):
        w = self.js("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        self.assertLessEqual(w[0], w[1])
        t = self.js("return window.iosimView.cursor()")
        starts = [float(a["start_s"]) for run in self.apps for a in run.values()]
        self.assertGreaterEqual(t, min(starts))
        self.assertIn(round(t, 3), [round(s, 3) for s in starts])

    def test_state_table_columns_apart(self):
        bad = self.js("""const out = [];
for (const tb of document.querySelectorAll('.statebox table')) {
  for (const tr of tb.rows) {
    const cells = [...tr.cells].map(c => { const r = document.createRange(); r.selectNodeContents(c);
      const b = r.getBoundingClientRect(); return [b.left, b.right, c.textContent]; });
    for (let i = 0; i + 1 < cells.length; i++) if (cells[i][1] > cells[i + 1][0] + 1) out.push(cells[i][2] + ' | ' + cells[i + 1][2]);
  }
}
return out.slice(0, 5);""")
        self.assertEqual(bad, [])


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--iosim", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--screenshot")
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0], "-v"] + rest)
