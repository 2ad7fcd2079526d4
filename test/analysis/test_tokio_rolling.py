"""Tests of the predictors before the job runs (analysis/tokio_rolling.py) on hand-made jobs whose every prediction
is computed by hand in the comments."""

import os
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import tokio_rolling as tr  # noqa: E402

DAY = 86400.0
T0 = 1496275200.0  # 2017-06-01 00:00 UTC


def job(day, bw, cls="a", fs="s1", volume=100.0, fs_bytes=None, window=100.0, hour=1.0):
    """A job of configuration `cls` starting `hour` hours into day `day` after T0."""
    return {"system": "x", "fs": fs, "app": "ior", "direction": "write", "nprocs": 1.0, "cls": cls, "bw": bw,
            "volume": volume, "fs_bytes": volume if fs_bytes is None else fs_bytes, "window": window,
            "start": T0 + day * DAY + hour * 3600}


def frame(rows):
    return tr.with_end(pd.DataFrame(rows))


class RollingTest(unittest.TestCase):
    def test_persistence_median_of_the_last_runs(self):
        # runs of a on days 0..4 at 1, 5, 2, 8, 3: the job of day 4 sees days 1..3 with runs=3 -> median(5, 2, 8) = 5;
        # day 0 has no earlier run; b (one run) has none either
        d = frame([job(i, v) for i, v in enumerate([1.0, 5.0, 2.0, 8.0, 3.0])] + [job(4, 7.0, cls="b")])
        p = tr.persistence(d, runs=3)
        self.assertTrue(np.isnan(p.iloc[0]))
        self.assertEqual(p.iloc[1], 1.0)  # day 1: only day 0
        self.assertEqual(p.iloc[3], 2.0)  # day 3: median(1, 5, 2)
        self.assertEqual(p.iloc[4], 5.0)
        self.assertTrue(np.isnan(p.iloc[5]))

    def test_a_run_still_going_is_not_used(self):
        # day 0's run lasts 2 days (window 172800 s): it has not ended when day 1's run starts
        d = frame([job(0, 4.0, window=2 * DAY), job(1, 6.0), job(3, 1.0)])
        p = tr.persistence(d, runs=7)
        self.assertTrue(np.isnan(p.iloc[1]))
        self.assertEqual(p.iloc[2], 5.0)  # both ended before day 3: median(4, 6)

    def test_rolling_window_quantile_and_capacity(self):
        # a on days 0..9 at bw 10, 20, ..., 100; window of 3 days, q = 0.5: the job of day 5 sees days 2, 3, 4 ->
        # median(30, 40, 50) = 40; day 0 sees nothing -> NaN; day 9 sees days 6, 7, 8 -> 80
        d = frame([job(i, 10.0 * (i + 1)) for i in range(10)])
        r = tr.rolling(d, days=3, q=0.5, fit_c=False)
        self.assertTrue(np.isnan(r["p"].iloc[0]))
        self.assertEqual(r["p"].iloc[5], 40.0)
        self.assertEqual(r["p"].iloc[9], 80.0)
        self.assertEqual(r["window_jobs"].iloc[5], 3)
        self.assertEqual(r["window_end"].iloc[5], T0 + 5 * DAY)
        # q = 1: the largest of the window, 50 on day 5
        self.assertEqual(tr.rolling(d, days=3, q=1.0, fit_c=False)["p"].iloc[5], 50.0)

    def test_fit_capacity_recovers_a_known_capacity(self):
        # jobs demanding 6 against backgrounds 0, 2, 4, 5 on C = 8 get min(6, max(8 - r, 4)) = 6, 6, 4, 4 exactly;
        # a grid holding 8 finds it with a zero error, larger capacities miss the slowed jobs
        grid = np.array([4.0, 6.0, 8.0, 10.0, 16.0])
        p, r = np.full(4, 6.0), np.array([0.0, 2.0, 4.0, 5.0])
        c, err = tr.fit_capacity(p, r, np.array([6.0, 6.0, 4.0, 4.0]), grid)
        self.assertEqual(c, 8.0)
        self.assertEqual(err, 0.0)

    def test_previous_background(self):
        # job 0 (day 0): fs_bytes 300, volume 100, window 100 s -> r = 2 bytes/s; job 1 (day 1) sees it; job 0
        # sees nothing; job 2 on another file system sees nothing
        d = frame([job(0, 1.0, fs_bytes=300.0), job(1, 1.0), job(2, 1.0, fs="s2")])
        pb = tr.previous_background(d)
        self.assertTrue(np.isnan(pb.iloc[0]))
        self.assertEqual(pb.iloc[1], 2.0)
        self.assertTrue(np.isnan(pb.iloc[2]))

    def test_noise_floor(self):
        # runs on days 0, 1, 2, 10 at 4, 6, 10, 1: day 1's neighbours (4 + 10) / 2 = 7 -> |7 - 6| / 6; day 2's next
        # run is 8 days later (> 3): NaN; the first and last runs have one neighbour: NaN
        d = frame([job(0, 4.0), job(1, 6.0), job(2, 10.0), job(10, 1.0)])
        n = tr.noise_floor(d, gap=3.0)
        self.assertAlmostEqual(n.iloc[1], 1.0 / 6.0, places=15)
        self.assertTrue(n.iloc[[0, 2, 3]].isna().all())

    def test_interference_fit(self):
        # measured = 10 / (1 + r / 20) for r = 0, 20, 60: 10, 5, 2.5; the grid holding 20 finds it exactly
        grid = np.array([5.0, 10.0, 20.0, 40.0])
        r = np.array([0.0, 20.0, 60.0])
        k, err = tr.fit_interference(np.full(3, 10.0), r, np.array([10.0, 5.0, 2.5]), grid)
        self.assertEqual((k, err), (20.0, 0.0))
        self.assertEqual(tr.interference(10.0, 20.0, 20.0), 5.0)

    def test_error_stats(self):
        # predictions 11, 8, 10, 30 of 10, 10, 10, 10: APE 0.1, 0.2, 0, 2 -> median 0.15; ratios - 1: 0.1, -0.2, 0, 2
        # -> bias median 0.05; p25 of (0, 0.1, 0.2, 2) linear = 0.075; within 25 %: 3 of 4
        s = tr.error_stats(pd.Series([11.0, 8.0, 10.0, 30.0]), pd.Series([10.0] * 4))
        self.assertAlmostEqual(s["median_ape"], 0.15, places=12)
        self.assertAlmostEqual(s["bias"], 0.05, places=12)
        self.assertAlmostEqual(s["p25"], 0.075, places=12)
        self.assertEqual(s["within_25"], 0.75)
        self.assertEqual(s["jobs"], 4)


if __name__ == "__main__":
    unittest.main()
