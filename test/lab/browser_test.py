#!/usr/bin/env python3
"""The teaching lab in a real browser: headless Chromium (Debian chromium, chromium-driver, python3-selenium) drives
a student's path through two modules of deploy/lab, then opens all five at 1,400 x 900.

System / Expectations (by hand, docs/tutorial.md steps 1-2 and TAPP-IO's IOR case of deploy/lab/striping):
- `sharing` with FCFS at B = 1 GB/s: app1 writes 10-20 s, app2 20-30 s, app3 30-34 s; MinYield at 19 s is app2's
  10/19 = 0.526316. Side by side with GreedyYield (B): 14/19 = 0.736842. FairShare's MinYield is 83/114: "0.75" is
  judged too high, "83/114" right; GreedyYield is the right choice for the highest MinYield at 1 GB/s, FCFS not.
- `striping` with bpio, file per process, no background job: 16 writers each alone on one of 16 OSTs of 1.2 GB/s,
  two writes of 1 GB: `ior`'s I/O time 2/1.2 = 1.6667 s; "3" is judged wrong, "1.667" right; bpio is the best-balanced
  policy (max/mean bytes 1).
The run button waits for a prediction; the results table shows the prediction beside the simulated value; the
embedded view (iosim view) finishes drawing with the run's policy. Then each of the five module pages, after a run
with its defaults, has no horizontal scrollbar (the page nor the embedded view) and no two pieces of text overlapping,
at a width of 1,400 px (window 1,400 x 900). The browser logs no error.

usage: browser_test.py --iosim BUILD/iosim --source SRC --work DIR [--screenshots DIR]
  --screenshots: save each module's page (full length, 1,400 px wide) as lab-MODULE.png there (docs/lab/)
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # test/: chromium.py
try:
    import chromium
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError:
    print("browser_test.py: error: Python module selenium not found; fix: apt-get install python3-selenium "
          "chromium chromium-driver (or `make deps`)", file=sys.stderr)
    sys.exit(2)

ARGS = None
MODULES = ["sharing", "ionodes", "striping", "storalloc", "darshan"]

# Every visible piece of text of a document as rectangles; pairs of them that overlap by more than 2 px both ways.
OVERLAPS = """
function boxes(doc) {
  var out = [], w = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
  while (w.nextNode()) {
    var t = w.currentNode, el = t.parentElement;
    if (!t.textContent.trim() || !el || /^(SCRIPT|STYLE|OPTION|TITLE)$/.test(el.tagName)) continue;
    if (el.closest('svg') || el.closest('[hidden]')) continue;
    var st = doc.defaultView.getComputedStyle(el);
    if (st.visibility === 'hidden' || st.display === 'none' || el.offsetParent === null) continue;
    var r = doc.createRange();
    r.selectNodeContents(t);
    var rs = r.getClientRects();
    for (var i = 0; i < rs.length; i++) {
      var b = rs[i];
      if (b.width > 0 && b.height > 0)
        out.push({x: b.left, y: b.top + doc.defaultView.scrollY, w: b.width, h: b.height, el: el,
                  text: t.textContent.trim().slice(0, 40)});
    }
  }
  return out;
}
var doc = arguments[0] ? document.getElementById('view').contentDocument : document;
var b = boxes(doc), bad = [];
for (var i = 0; i < b.length; i++) for (var j = i + 1; j < b.length; j++) {
  var p = b[i], q = b[j];
  if (p.el === q.el) continue;
  var dx = Math.min(p.x + p.w, q.x + q.w) - Math.max(p.x, q.x), dy = Math.min(p.y + p.h, q.y + q.h) - Math.max(p.y, q.y);
  if (dx > 2 && dy > 2) bad.push(p.text + ' | ' + q.text);
  if (bad.length > 10) break;
}
var e = doc.documentElement;
return {overlaps: bad, boxes: b.length, scrollWidth: e.scrollWidth, clientWidth: e.clientWidth};
"""


def browser(work, width=1400, height=900):
    return chromium.start(work, width, height, extra=("--hide-scrollbars",))


def wait(cond, what, timeout=120):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        v = cond()
        if v:
            return v
        time.sleep(0.1)
    raise AssertionError(f"timed out ({timeout} s) waiting for {what}")


class Lab(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = ARGS.work
        shutil.rmtree(cls.work, ignore_errors=True)
        os.makedirs(cls.work)
        cls.lab = subprocess.Popen([ARGS.iosim, "lab", "--port", "0", "--workdir", os.path.join(cls.work, "runs")],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, cwd=cls.work)
        line = cls.lab.stdout.readline()
        m = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
        if not m:
            cls.lab.kill()
            raise AssertionError(f"iosim lab did not start: {line}{cls.lab.stderr.read()}")
        cls.base = m.group(1)
        cls.d = browser(cls.work)

    @classmethod
    def tearDownClass(cls):
        cls.d.quit()
        cls.lab.terminate()
        out, err = cls.lab.communicate(timeout=60)
        assert "Traceback" not in err, err
        shutil.rmtree(cls.work, ignore_errors=True)

    # --------------------------------------------------------------------------------------------- helpers
    def open(self, module):
        self.d.get(f"{self.base}/m/{module}")
        wait(lambda: self.d.execute_script("return !!(window.iosimLab && window.iosimLab.ready)"), "the page")

    def field(self, key, value, form="a"):
        el = self.d.find_element(By.CSS_SELECTOR, f"#form-{form} [data-key='{key}']")
        if el.tag_name == "select":
            Select(el).select_by_value(str(value))
        else:
            el.clear()
            el.send_keys(str(value))

    def run_and_wait(self):
        self.d.find_element(By.ID, "run").click()
        wait(lambda: self.d.execute_script("var s = window.iosimLab; return !s.busy && (s.runs || "
                                           "!document.getElementById('error').hidden)"), "the run")
        err = self.d.find_element(By.ID, "error")
        self.assertTrue(err.get_attribute("hidden"), err.text)
        wait(lambda: self.d.execute_script("var f = document.getElementById('view'); return f.contentWindow && "
                                           "f.contentWindow.iosimView && f.contentWindow.iosimView.ready"),
             "the view in the page")
        time.sleep(0.5)

    def results(self):
        """The results table: {metric: [cells...]}."""
        rows = self.d.execute_script("return Array.from(document.querySelectorAll('#results tr')).map(function (r) "
                                     "{ return Array.from(r.cells).map(function (c) { return c.textContent; }); });")
        return {r[0].split(" (")[0]: r[1:] for r in rows[1:]}

    def answer(self, qid, text=None, choice=None):
        q = self.d.find_element(By.ID, f"q-{qid}")
        if text is not None:
            box = q.find_element(By.CSS_SELECTOR, ".answer")
            box.clear()
            box.send_keys(text)
        else:
            q.find_element(By.CSS_SELECTOR, f"input[type=radio][value='{choice}']").click()
        self.d.execute_script("arguments[0].removeAttribute('data-result')", q)
        q.find_element(By.CSS_SELECTOR, ".check").click()
        wait(lambda: q.get_attribute("data-result"), f"the feedback of {qid}")
        fb = q.find_element(By.CSS_SELECTOR, ".feedback")
        return q.get_attribute("data-result"), fb.text

    def no_errors_logged(self):
        bad = [e for e in self.d.get_log("browser") if e["level"] == "SEVERE"]
        self.assertEqual(bad, [], bad)

    # --------------------------------------------------------------------------------------------- a student's path
    def test_1_sharing_path(self):
        self.open("sharing")
        run = self.d.find_element(By.ID, "run")
        self.assertFalse(run.is_enabled(), "the run button must wait for a prediction")
        self.field("sharing.policy", "fcfs")
        self.field("platform.pfs_bw", "1")
        self.d.find_element(By.ID, "predict-a").send_keys("0.6")
        wait(lambda: run.is_enabled(), "the run button")
        self.run_and_wait()
        res = self.results()
        pred, sim = res["min_yield"]
        self.assertEqual(pred, "0.6")
        self.assertAlmostEqual(float(sim), 10 / 19, places=5)
        self.assertAlmostEqual(float(res["io_time_s of app2"][1]), 20, places=5)
        title = self.d.execute_script("return document.getElementById('view').contentWindow.iosimView.data.title")
        self.assertIn("fcfs", title)
        # side by side: B = GreedyYield on the same axis
        self.d.find_element(By.ID, "compare").click()
        self.field("sharing.policy", "greedy-yield", form="b")
        self.d.find_element(By.ID, "predict-b").send_keys("0.7")
        self.run_and_wait()
        res = self.results()
        self.assertAlmostEqual(float(res["min_yield"][1]), 10 / 19, places=5)
        self.assertAlmostEqual(float(res["min_yield"][3]), 14 / 19, places=5)
        n = self.d.execute_script("return document.getElementById('view').contentWindow.iosimView.data.runs.length")
        self.assertEqual(n, 2)
        # questions: wrong, then right; a choice wrong, then right
        verdict, text = self.answer("fairshare-yield", text="0.75")
        self.assertEqual(verdict, "wrong")
        self.assertIn("too high", text)
        self.assertIn("Hint", text)
        verdict, text = self.answer("fairshare-yield", text="83/114")
        self.assertEqual(verdict, "right")
        self.assertIn("0.72807", text)
        self.assertIn("(10 + 23/6)/19", text)  # the explanation
        self.assertEqual(self.answer("best-min-yield-1", choice="FCFS")[0], "wrong")
        verdict, text = self.answer("best-min-yield-1", choice="GreedyYield")
        self.assertEqual(verdict, "right")
        self.assertIn("GreedyYield 0.736842", text)
        self.no_errors_logged()

    def test_2_striping_path(self):
        self.open("striping")
        self.field("striping.policy", "bpio")
        self.field("striping.layout", "fpp")
        self.field("workload.generator.background", "0")
        self.d.find_element(By.ID, "predict-a").send_keys("2")
        self.run_and_wait()
        res = self.results()
        self.assertAlmostEqual(float(res["io_time_s of ior"][1]), 2 / 1.2, places=4)
        self.assertAlmostEqual(float(res["max/mean of bytes over the resources"][1]), 1.0, places=6)
        verdict, text = self.answer("bpio-fpp-time", text="3")
        self.assertEqual(verdict, "wrong")
        self.assertIn("too high", text)
        self.assertEqual(self.answer("bpio-fpp-time", text="1.667")[0], "right")
        self.assertEqual(self.answer("balance", choice="optimized-striping")[0], "wrong")
        self.assertEqual(self.answer("balance", choice="bpio")[0], "right")
        self.no_errors_logged()

    # --------------------------------------------------------------------------------------------- every page
    def test_3_pages_fit(self):
        faults = []
        for mod in MODULES:
            self.d.set_window_size(1400, 900)
            self.open(mod)
            self.d.find_element(By.ID, "no-predict").click()  # runs the defaults
            self.run_and_wait()
            for in_view in (False, True):
                r = self.d.execute_script(OVERLAPS, in_view)
                where = f"{mod}{' (its view)' if in_view else ''}"
                if r["scrollWidth"] > r["clientWidth"]:
                    faults.append(f"{where}: scrolls sideways ({r['scrollWidth']} > {r['clientWidth']} px)")
                if r["overlaps"] and not in_view:
                    faults.append(f"{where}: text overlaps: {r['overlaps'][:5]}")
                self.assertGreater(r["boxes"], 20, where)
            if ARGS.screenshots:
                h = self.d.execute_script("return document.documentElement.scrollHeight")
                self.d.set_window_size(1400, min(h + 140, 16000))
                time.sleep(0.8)
                self.d.save_screenshot(os.path.join(ARGS.screenshots, f"lab-{mod}.png"))
        self.assertEqual(faults, [])
        self.no_errors_logged()


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("--iosim", required=True)
    p.add_argument("--source", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--screenshots")
    ARGS = p.parse_args()
    ARGS.iosim = os.path.abspath(ARGS.iosim)
    ARGS.work = os.path.abspath(ARGS.work)
    if ARGS.screenshots:
        os.makedirs(ARGS.screenshots, exist_ok=True)
    ok = unittest.TextTestRunner(verbosity=2).run(unittest.TestLoader().loadTestsFromTestCase(Lab)).wasSuccessful()
    shutil.rmtree(ARGS.work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
