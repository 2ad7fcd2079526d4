#!/usr/bin/env python3
"""The page of `iosim view` in a real browser (headless Chromium through Selenium and chromedriver, Debian packages
chromium, chromium-driver, python3-selenium).

System: docs/tutorial/three-apps.json (tutorial step 1): one PFS of B = 1 GB/s; app1 and app2 post 10 GB at 10 s,
app3 posts 4 GB at 15 s; each alone would get b = 1 GB/s. Two runs of it, drawn side by side on one page:
FairShare (run 0) and GreedyYield (run 1).

Expectations (docs/tutorial.md, steps 1 and 2, by hand):
- FairShare: 10-15 s app1 and app2 0.5 GB/s each; 15-27 s all three 1/3 GB/s; 27-34 s app1 and app2 0.5 GB/s.
  At 20 s app1 has moved 2.5 + 5/3 GB of its 10 GB: 35/6 = 5.8333 GB left. Yields at 19 s (window end):
  app1 (10 + 23/6)/19 = 83/114, app3 (15 + 4/3)/19 = 49/57.
- GreedyYield: app1 holds the PFS (1 GB/s) from 10 to 15 s, app2 from 15 to 25 s, app1 from 25 to 30 s, app3 from
  30 to 34 s. At 12 s app2 waits (rate 0, 10 GB left) and app1 has 8 GB left; app2's yield at 19 s is
  (10 + 4)/19 = 14/19.
- Every resource panel's stack is 1 GB/s (= B) while I/O is pending (10 to 34 s) and 0 before 10 s.
The test reads these values back from the drawn Plotly figures (each trace's step values: the rate of that
application, and the stacked total) and from the page's state table, checks that the cursor moves every panel,
that a zoom moves every panel, and that the browser logged no error.

usage: browser_test.py --iosim BUILD/iosim --source SRC --work DIR [--screenshots DIR]
  --work: a directory for the runs and Chromium's profile (removed at the end); --screenshots: also write
  view-three-apps.png (FairShare alone, cursor at 20 s) and view-two-policies.png (both) there (docs/).
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
    print("browser_test.py: error: Python module selenium not found; fix: apt-get install python3-selenium "
          "chromium chromium-driver (or `make deps`)", file=sys.stderr)
    sys.exit(2)

ARGS = None
GB = 1e9


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p.stdout


def browser(work, width=1500, height=1600):
    return chromium.start(work, width, height)


def open_page(driver, path):
    driver.get("file://" + os.path.abspath(path))
    for _ in range(200):
        if driver.execute_script("return !!(window.iosimView && window.iosimView.ready)"):
            return
        time.sleep(0.05)
    raise AssertionError(f"{path}: the page did not finish drawing in 10 s; browser log: {driver.get_log('browser')}")


# The step values a Plotly trace draws at date t (line shape 'hv': the value of the last x <= t).
VALUE_AT = """
const [id, t, which] = arguments;
const gd = document.getElementById(id);
const out = {};
for (const tr of gd.data) {
  if (!tr.customdata || !tr.name) continue;
  let k = -1;
  for (let i = 0; i < tr.x.length; i++) if (tr.x[i] <= t) k = i;
  out[tr.name] = k < 0 ? 0 : (which === 'own' ? tr.customdata[k] : tr.y[k]);
}
return out;
"""


class ViewInBrowser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = os.path.abspath(ARGS.work)
        shutil.rmtree(cls.work, ignore_errors=True)
        os.makedirs(cls.work)
        scen = os.path.join(ARGS.source, "docs", "tutorial", "three-apps.json")
        cls.fs = os.path.join(cls.work, "fairshare")
        cls.gy = os.path.join(cls.work, "greedy-yield")
        run([ARGS.iosim, "run", scen, "-o", cls.fs])
        run([ARGS.iosim, "run", scen, "--set", "sharing.policy=greedy-yield", "-o", cls.gy])
        cls.page = os.path.join(cls.work, "two.html")
        out = run([ARGS.iosim, "view", cls.fs, cls.gy, "-o", cls.page])
        assert out.strip() == cls.page, out
        cls.driver = browser(cls.work)
        open_page(cls.driver, cls.page)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        if ARGS.screenshots:
            shots(ARGS)
        shutil.rmtree(cls.work, ignore_errors=True)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def own(self, run, t):
        return self.js(VALUE_AT, f"res-{run}-0", t, "own")

    def stack(self, run, t):
        return self.js(VALUE_AT, f"res-{run}-0", t, "y")

    def assertRates(self, got, want, where):
        for app, gbps in want.items():
            self.assertAlmostEqual(got.get(app, 0.0), gbps, places=6, msg=f"{where}: {app} drawn {got}")

    def test_0_no_console_error(self):
        errors = [e for e in self.driver.get_log("browser") if e.get("level") == "SEVERE"]
        self.assertEqual(errors, [], "the page logged errors")

    def test_fairshare_rates_drawn(self):
        self.assertRates(self.own(0, 12), {"app1": 0.5, "app2": 0.5, "app3": 0}, "fairshare at 12 s")
        third = 1 / 3
        self.assertRates(self.own(0, 20), {"app1": third, "app2": third, "app3": third}, "fairshare at 20 s")
        self.assertRates(self.own(0, 30), {"app1": 0.5, "app2": 0.5, "app3": 0}, "fairshare at 30 s")

    def test_greedy_yield_rates_drawn(self):
        self.assertRates(self.own(1, 12), {"app1": 1, "app2": 0, "app3": 0}, "greedy-yield at 12 s")
        self.assertRates(self.own(1, 20), {"app1": 0, "app2": 1, "app3": 0}, "greedy-yield at 20 s")
        self.assertRates(self.own(1, 27), {"app1": 1, "app2": 0, "app3": 0}, "greedy-yield at 27 s")
        self.assertRates(self.own(1, 32), {"app1": 0, "app2": 0, "app3": 1}, "greedy-yield at 32 s")

    def test_stack_is_the_pfs_bandwidth(self):
        for run in (0, 1):
            self.assertAlmostEqual(max(self.stack(run, 5).values()), 0.0, places=9)
            for t in (10, 12, 15, 20, 26, 30, 33.9):
                self.assertAlmostEqual(max(self.stack(run, t).values()), 1.0, places=6, msg=f"run {run} at {t} s")

    def test_state_at_the_cursor(self):
        s = self.js("return window.iosimView.stateAt(0, 0, 20)")
        self.assertEqual(s["state"], "I/O")
        self.assertAlmostEqual(s["rate"], GB / 3, delta=1)
        self.assertAlmostEqual(s["left"], 35 / 6 * GB, delta=1e3)
        self.assertAlmostEqual(self.js("return window.iosimView.stateAt(0, 0, 19).yield"), 83 / 114, places=6)
        self.assertAlmostEqual(self.js("return window.iosimView.stateAt(0, 2, 19).yield"), 49 / 57, places=6)
        w = self.js("return window.iosimView.stateAt(1, 1, 12)")
        self.assertEqual((w["state"], w["rate"]), ("waiting", 0))
        self.assertAlmostEqual(w["left"], 10 * GB, delta=1e3)
        self.assertAlmostEqual(self.js("return window.iosimView.stateAt(1, 0, 12).left"), 8 * GB, delta=1e3)
        self.assertAlmostEqual(self.js("return window.iosimView.stateAt(1, 1, 19).yield"), 14 / 19, places=6)
        # the table shown for the cursor
        self.js("window.iosimView.setCursor(20)")
        rows = self.js("return [...document.querySelectorAll('#state-0 tr')].map(r => [...r.cells].map(c => "
                       "c.textContent))")
        app1 = next(r for r in rows if r[0] == "app1")
        self.assertEqual(app1[1:4], ["I/O", "0.3333", "5.8333"])

    def test_cursor_and_zoom_move_every_panel(self):
        self.js("window.iosimView.setCursor(21.5)")
        xs = self.js("return window.iosimView.figures().map(d => d.layout.shapes[0].x0)")
        self.assertGreaterEqual(len(xs), 6)  # 3 panels per run
        self.assertEqual(set(xs), {21.5})
        self.js("Plotly.relayout(document.getElementById('res-0-0'), {'xaxis.range': [14, 16]})")
        time.sleep(0.5)
        ranges = self.js("return window.iosimView.figures().map(d => d.layout.xaxis.range)")
        for r in ranges:
            self.assertAlmostEqual(r[0], 14)
            self.assertAlmostEqual(r[1], 16)
        self.js("document.getElementById('reset').click()")
        self.assertEqual(self.js("return document.getElementById('res-1-0').layout.xaxis.range"), [0, 34])

    def test_metrics_table(self):
        cells = self.js("return [...document.querySelectorAll('#metrics tr')].map(r => [...r.cells].map(c => "
                        "c.textContent))")
        row = next(r for r in cells if r[0] == "min_yield")
        self.assertEqual(row[1:], ["0.72807", "0.736842"])
        # IPDPS'21 Eq. 2 (7/6 GB/s under FairShare, 1.37719 GB/s under GreedyYield: docs/tutorial.md) is above the PFS's
        # 1 GB/s: n/a with the reason, as in the summary; beside it, the delivered bandwidth: 24 GB moved while some
        # transfer moves, from 10 to 34 s, 1 GB/s in both runs
        row = next(r for r in cells if r[0] == "aggregate_bandwidth_Bps")
        for cell, v in zip(row[1:], ("1.16667", "1.37719")):
            self.assertTrue(cell.startswith("n/a"), cell)
            self.assertIn(f"summed, {v} GB/s, is above the platform's 1 GB/s", cell)
        row = next(r for r in cells if r[0].startswith("delivered bandwidth"))
        self.assertEqual(row[1:], ["1 GB/s", "1 GB/s"])

    def test_fixed_colours(self):
        """The stretch scale is fixed (log2 of 1 to 16); the I/O-pending shades are visible on white (luminance of the
        shade over white at most 0.87); no two applications share a colour."""
        m = self.js("const t = document.getElementById('overview-fig').data[0]; return [t.marker.cmin, t.marker.cmax]")
        self.assertEqual(m, [0, 4])
        shades = self.js("return document.getElementById('apps-0').data.filter(t => /I\\/O pending/.test(t.name))"
                         ".map(t => t.fillcolor)")
        self.assertEqual(len(shades), 3)
        for c in shades:
            r, g, b, a = [float(x) for x in c[c.index("(") + 1:-1].split(",")]

            def lin(v):
                v = (a * v + (1 - a) * 255) / 255
                return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
            self.assertLessEqual(0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b), 0.875, c)
        colours = self.js("return Object.values(window.iosimView.colourOf)")
        self.assertEqual(len(colours), len(set(colours)))


def shots(args):
    """The two screenshots of docs/ (not part of the test)."""
    work = os.path.abspath(args.work)
    one = os.path.join(work, "one.html")
    run([args.iosim, "view", os.path.join(work, "fairshare"), "-o", one, "--title",
         "iosim view docs/tutorial/three-apps.json (fairshare)"])
    for page, png, w, h in ((one, "view-three-apps.png", 1200, 1250),
                            (os.path.join(work, "two.html"), "view-two-policies.png", 1600, 1250)):
        d = browser(work, w, h)
        try:
            open_page(d, page)
            d.execute_script("window.iosimView.setCursor(20)")
            time.sleep(0.5)
            d.save_screenshot(os.path.join(args.screenshots, png))
            print(os.path.join(args.screenshots, png))
        finally:
            d.quit()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--iosim", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--screenshots")
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0], "-v"] + rest)
