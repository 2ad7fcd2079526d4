#!/usr/bin/env python3
"""timeline.bin as python/iosim/view_data.py reads it, against events.csv and against the tutorial's hand computation.

System: docs/tutorial/three-apps.json (docs/tutorial.md step 1): one PFS of 1 GB/s; app1 and app2 work 10 s then
write 10 GB, app3 works 15 s then writes 4 GB; b = 1 GB/s each.
Expectations (by hand, docs/tutorial.md steps 1-3):
- GreedyYield: transfer segments app1 10-15 s 5 GB, app2 15-25 s 10 GB, app1 25-30 s 5 GB, app3 30-34 s 4 GB;
  I/O operations app2 10-25 s, app1 10-30 s, app3 15-34 s; work phases 0-10, 0-10, 0-15 s.
- FairShare: 7 segments: app1, app2 10-15 s 2.5 GB each; app1, app2, app3 15-27 s 4 GB each; app1, app2 27-34 s
  3.5 GB each.
- The same run with output.events gives the same intervals in events.csv (segment bytes to single precision).
- Damaged or missing records: exit 2 naming the file and the fix.

usage: test_view_data.py --iosim BUILD/iosim --source SRC --work DIR   (DIR is removed at the end)
"""
import argparse
import os
import shutil
import subprocess
import sys
import unittest

ARGS = None


def run(cmd, code=0):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != code:
        raise AssertionError(f"{' '.join(cmd)} exited {p.returncode}, expected {code}:\n{p.stdout}\n{p.stderr}")
    return p


class TimelineRecords(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(ARGS.source, "analysis"))
        global view_data
        import iosim_path  # noqa: E402,F401  (iosim's Python package on sys.path)
        from iosim import view_data
        cls.work = os.path.abspath(ARGS.work)
        shutil.rmtree(cls.work, ignore_errors=True)
        os.makedirs(cls.work)
        cls.scen = os.path.join(ARGS.source, "docs", "tutorial", "three-apps.json")
        cls.dirs = {}
        for name, sets in (("gy", ["sharing.policy=greedy-yield"]), ("gy-events", ["sharing.policy=greedy-yield",
                                                                                   "output.events=true"]),
                           ("fs", [])):
            d = os.path.join(cls.work, name)
            cmd = [ARGS.iosim, "run", cls.scen, "-o", d]
            for s in sets:
                cmd += ["--set", s]
            run(cmd)
            cls.dirs[name] = d

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def intervals(self, run, kind):
        c = run[kind]
        rows = list(zip(view_data.decode(c, "app", "<i4").tolist(), view_data.decode(c, "t0", "<f8").tolist(),
                        view_data.decode(c, "t1", "<f8").tolist()))
        if "bytes" in c:
            rows = [r + (b,) for r, b in zip(rows, view_data.decode(c, "bytes", "<f8").tolist())]
        return rows

    def test_greedy_yield_by_hand(self):
        r = view_data.read_run(self.dirs["gy"])
        self.assertEqual(r["source"], "timeline.bin")
        self.assertFalse(os.path.exists(os.path.join(self.dirs["gy"], "events.csv")))
        self.assertEqual([a["name"] for a in r["apps"]], ["app1", "app2", "app3"])
        self.assertEqual(self.intervals(r, "seg"), [(0, 10, 15, 5e9), (1, 15, 25, 10e9), (0, 25, 30, 5e9),
                                                    (2, 30, 34, 4e9)])
        self.assertEqual(self.intervals(r, "io"), [(1, 10, 25, 10e9), (0, 10, 30, 10e9), (2, 15, 34, 4e9)])
        self.assertEqual(self.intervals(r, "work"), [(0, 0, 10), (1, 0, 10), (2, 0, 15)])
        self.assertEqual([(q["name"], q["capacity"]) for q in r["resources"]], [("pfs", 1e9)])
        self.assertEqual([(a["app"], a["t0"], a["t1"], a["resources"]) for a in r["alloc"]],
                         [(1, 0, 25, "pfs"), (0, 0, 30, "pfs"), (2, 0, 34, "pfs")])

    def test_fairshare_by_hand(self):
        segs = sorted(self.intervals(view_data.read_run(self.dirs["fs"]), "seg"), key=lambda s: (s[1], s[0]))
        want = [(0, 10, 15, 2.5e9), (1, 10, 15, 2.5e9), (0, 15, 27, 4e9), (1, 15, 27, 4e9), (2, 15, 27, 4e9),
                (0, 27, 34, 3.5e9), (1, 27, 34, 3.5e9)]
        self.assertEqual(len(segs), len(want))
        for got, w in zip(segs, want):
            self.assertEqual(got[:3], w[:3])
            self.assertAlmostEqual(got[3] / w[3], 1, places=7)  # single precision

    def test_timeline_equals_events_csv(self):
        a, b = view_data.read_run(self.dirs["gy"]), view_data.read_run(self.dirs["gy-events"])
        self.assertEqual(b["source"], "events.csv")
        for kind in ("work", "io", "seg"):
            self.assertEqual(self.intervals(a, kind), self.intervals(b, kind), kind)

    def test_damaged_records_exit_2(self):
        bad = os.path.join(self.work, "bad")
        shutil.copytree(self.dirs["gy"], bad)
        tl = os.path.join(bad, "timeline.bin")
        with open(tl, "rb") as f:
            data = f.read()
        with open(tl, "wb") as f:
            f.write(data[:-3])
        p = run([ARGS.iosim, "view", bad, "-o", os.path.join(self.work, "bad.html")], code=2)
        self.assertIn(tl, p.stderr)
        self.assertIn("fix:", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.work, "bad.html")))
        with open(tl, "wb") as f:
            f.write(b"NOTIOSIM" + data[8:])
        self.assertIn("not an iosim timeline", run([ARGS.iosim, "view", bad], code=2).stderr)
        os.remove(tl)
        self.assertIn("neither timeline.bin nor events.csv", run([ARGS.iosim, "view", bad], code=2).stderr)
        os.remove(os.path.join(bad, "results.json"))
        self.assertIn("results.json: file not found", run([ARGS.iosim, "view", bad], code=2).stderr)
        self.assertIn("not a directory", run([ARGS.iosim, "view", os.path.join(self.work, "none")], code=2).stderr)

    def test_reused_directory_drops_the_old_timeline(self):
        d = os.path.join(self.work, "reused")
        run([ARGS.iosim, "run", self.scen, "-o", d])
        self.assertTrue(os.path.exists(os.path.join(d, "timeline.bin")))
        run([ARGS.iosim, "run", self.scen, "-o", d, "--set", "output.events=true"])
        self.assertFalse(os.path.exists(os.path.join(d, "timeline.bin")))
        self.assertTrue(os.path.exists(os.path.join(d, "events.csv")))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--iosim", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0], "-v"] + rest)
