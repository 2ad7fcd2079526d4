"""Tests of the predictors before the job runs (analysis/tokio_rolling.py) on hand-made jobs whose every prediction
is computed by hand in the comments."""

import gzip
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import tokio_data  # noqa: E402
import tokio_prediction  # noqa: E402
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

    def test_neighbour_interpolation(self):
        # runs on days 0, 1, 2, 10 at 4, 6, 10, 1: day 1's neighbours (4 + 10) / 2 = 7 -> |7 - 6| / 6; day 2's next
        # run is 8 days later (> 3): NaN; the first and last runs have one neighbour: NaN
        d = frame([job(0, 4.0), job(1, 6.0), job(2, 10.0), job(10, 1.0)])
        n = tr.neighbour_interpolation(d, gap=3.0)
        self.assertAlmostEqual(n.iloc[1], 1.0 / 6.0, places=15)
        self.assertTrue(n.iloc[[0, 2, 3]].isna().all())

    def test_noise_floor_is_the_centred_level(self):
        # runs of a on days 0, 2, ..., 20 at 1, 2, ..., 11 and one of b: the run of day 10 (6) sees the runs within
        # 15 days before and after but itself, days 0..20 but 10 (1..5, 7..11): median 6 -> APE 0; the run of day
        # 0 (1) sees days 2..14 (2..8): median 5 -> |5 - 1| / 1 = 4; with at least 8 runs required, day 0's 7 are
        # too few (NaN); b has no other run (NaN)
        # (rows by label: the frame is sorted by start, b's run among a's)
        d = frame([job(2 * i, float(i + 1)) for i in range(11)] + [job(3, 5.0, cls="b")])
        n = tr.noise_floor(d)
        self.assertEqual(n.loc[5], 0.0)
        self.assertEqual(n.loc[0], 4.0)
        self.assertTrue(np.isnan(n.loc[11]))
        self.assertTrue(np.isnan(tr.noise_floor(d, min_runs=8).loc[0]))
        # 20 days either side: day 0 sees days 2..20 (2..11): median 6.5 -> 5.5
        self.assertEqual(tr.noise_floor(d, half_width=20).loc[0], 5.5)

    def test_fit_constant(self):
        # P = 10 on three jobs measured 8, 8, 9: k = 0.8 gives APE 0, 0, 1/9 (median 0); every other k is worse
        k, err = tr.fit_constant(np.array([10.0, 10.0, 10.0]), np.array([8.0, 8.0, 9.0]))
        self.assertEqual((k, err), (0.8, 0.0))
        # a tie (every k gives the same median when P is NaN but one job): the k closest to 1
        k, _ = tr.fit_constant(np.array([10.0, np.nan]), np.array([10.0, 3.0]), grid=np.array([0.9, 1.0, 1.1]))
        self.assertEqual(k, 1.0)

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

    def test_choose_q_on_the_past(self):
        # a rising configuration, 10, 20, ..., 100 on days 0..9, window 3 days: q = 1 predicts day k's run by day
        # k - 1's (the window's largest), 10 k against 10 (k + 1): APE 1 / (k + 1), k = 1..9 (day 0: nothing
        # before) -> median 1/6 (k = 5); every smaller q predicts lower, so with a larger error
        d = frame([job(i, 10.0 * (i + 1)) for i in range(10)])
        q, err = tr.choose_q(d, 3, T0 + 10 * DAY)
        self.assertEqual(q, 1.0)
        self.assertAlmostEqual(err, 1 / 6, places=12)
        # a cut at day 3 scores days 1, 2 only: 1/2, 1/3 -> 5/12, still q = 1
        self.assertAlmostEqual(tr.choose_q(d, 3, T0 + 3 * DAY)[1], 5 / 12, places=12)

    def test_estimators(self):
        # 10 % trimmed mean of 1..9 and 100 (n = 10): one value cut at each end (1 and 100) -> mean(2..9) = 5.5
        self.assertEqual(tr.trimmed_mean([1, 2, 3, 4, 100, 5, 6, 7, 8, 9], None, 0.5), 5.5)
        # recency: 10, 20, 30 aged 20, 10, 0 days, half-life 10 -> weights 1/4, 1/2, 1 (sum 7/4); cumulative
        # 1/7, 3/7, 1: q = 0.5 -> 30 (the unweighted median is 20), q = 0.4 -> 20, q = 0.1 -> 10
        v, a = [10.0, 20.0, 30.0], [20.0, 10.0, 0.0]
        self.assertEqual([tr.recency_quantile(v, a, q) for q in (0.5, 0.4, 0.1)], [30.0, 20.0, 10.0])
        # through rolling(): a on days 0..2 at 10, 20, 30, seen from day 3 (window 3 days) at ages 3, 2, 1 days less
        # one hour: weights 2^-0.2958, 2^-0.1958, 2^-0.0958 = 0.815, 0.873, 0.936, cumulative 0.31, 0.64, 1 -> the
        # weighted median is 20; the trimmed mean with n = 3 cuts nothing: (10 + 20 + 30) / 3 = 20
        d = frame([job(i, 10.0 * (i + 1)) for i in range(4)])
        self.assertEqual(tr.rolling(d, 3, 0.5, fit_c=False, estimator=tr.recency_quantile)["p"].iloc[3], 20.0)
        self.assertEqual(tr.rolling(d, 3, 0.5, fit_c=False, estimator=tr.trimmed_mean)["p"].iloc[3], 20.0)

    def test_follow_the_leader(self):
        # measured 10 every day; A predicts 10, 10, 20, 20 and B 12 every day; lookback 2 days:
        # day 0 nothing before -> the default B; day 1 sees day 0 (A 0, B 0.2) -> A; day 2 sees days 0, 1 -> A;
        # day 3 sees days 1, 2: A's APE 0 and 1 (median 0.5), B's 0.2 and 0.2 -> B
        d = frame([job(i, 10.0) for i in range(4)])
        cand = pd.DataFrame({"A": [10.0, 10.0, 20.0, 20.0], "B": [12.0] * 4}, index=d.index)
        pick = tr.follow_the_leader(d, cand, lookback=2, default="B", min_jobs=1)
        self.assertEqual(list(pick), ["B", "A", "A", "B"])
        # with min_jobs 2, day 1 (one job before) keeps the default
        self.assertEqual(list(tr.follow_the_leader(d, cand, 2, "B", min_jobs=2)), ["B", "B", "A", "B"])

    def test_bootstrap_median_difference(self):
        # a constant gap of 0.1: every resample's difference is 0.1
        b = np.array([0.05, 0.2, 0.3, 0.7])
        diff, lo, hi = tr.bootstrap_median_difference(b + 0.1, b, [0, 0, 1, 1], n=200)
        for v in (diff, lo, hi):
            self.assertAlmostEqual(v, 0.1, places=12)
        # two blocks: a = 0.1, 0.1 | 0.5, 0.5 against b = 0.3 everywhere; a resample draws blocks (0, 0), (1, 1) or
        # one of each with probabilities 1/4, 1/4, 1/2: differences -0.2, +0.2, 0 -> the 95 % interval
        # [-0.2, +0.2], the full sample's difference median(0.1, 0.1, 0.5, 0.5) - 0.3 = 0
        diff, lo, hi = tr.bootstrap_median_difference([0.1, 0.1, 0.5, 0.5], [0.3] * 4, [0, 0, 1, 1], n=2000)
        self.assertAlmostEqual(diff, 0.0, places=12)
        self.assertAlmostEqual(lo, -0.2, places=12)
        self.assertAlmostEqual(hi, 0.2, places=12)


class AdaptiveWindowTest(unittest.TestCase):
    """The adaptive window (docs/validation.md, "The adaptive window"): tokio_rolling.level_segments and rolling(...,
    shift_k=). Series with a 3-cycle of noise, 0.95, 1, 1.05 x the level: a reference of 5 such runs has a median
    of the level and an unscaled MAD of ln(1.05) = 0.0488 (deviations 0, 0, 0.0488, 0.0513, 0.0513 sorted), so the
    threshold at k = 3 is 0.146, and a recent median of 0.95 or 1.05 x the level (|ln| <= 0.0513) never crosses it."""

    CYCLE = (0.95, 1.0, 1.05)

    def series(self, levels):
        return [lvl * self.CYCLE[i % 3] for i, lvl in enumerate(levels)]

    def test_stable_series_keeps_all_its_history(self):
        # 24 runs at 100 x the cycle, one a day: no shift (above), the segment is every run
        bw = self.series([100.0] * 24)
        seg = tr.level_segments(np.log(bw), 3.0)
        self.assertEqual(list(seg), [0] * 25)
        # the job of day 24 sees the 24 runs: its q = 0.9 quantile over all of them (8 each of 95, 100, 105 sorted:
        # position 0.9 x 23 = 20.7, between two 105s) = 105, its history from day 0's run; a 3-day window would
        # give the 0.9-quantile of 95, 100, 105 = 100 + 0.8 x 5 = 104
        d = frame([job(i, v) for i, v in enumerate(bw)] + [job(24, 100.0)])
        r = tr.rolling(d, days=3, q=0.9, fit_c=False, shift_k=3.0)
        self.assertAlmostEqual(r["p"].iloc[24], 105.0, places=9)
        self.assertEqual(r["history_start"].iloc[24], T0 + 3600)
        self.assertAlmostEqual(tr.rolling(d, days=3, q=0.9, fit_c=False)["p"].iloc[24], 104.0, places=9)

    def test_step_restarts_the_history_after_the_step(self):
        # 12 runs at 100, then 12 at 50 (x the cycle): indices 0..11 = 95, 100, 105, ..., 12..23 = 47.5, 50, 52.5,
        # ... By hand: after 14 runs the recent window 9..13 = 95, 100, 105, 47.5, 50 has median 95, |ln 0.95| =
        # 0.051 < 0.146: no shift. After 15 runs, recent 10..14 = 100, 105, 47.5, 50, 52.5 (median 52.5), reference
        # 0..9 (95 x 4, 100 x 3, 105 x 3: median 100, MAD 0.0488): |ln 0.525| = 0.644 > 0.146, a shift; the first
        # recent run closer to ln 52.5 than to ln 100 is index 12 (47.5), the step. After it, no second shift.
        bw = self.series([100.0] * 12 + [50.0] * 12)
        self.assertEqual((bw[11], bw[12]), (105.0, 47.5))
        seg = tr.level_segments(np.log(bw), 3.0)
        self.assertEqual(list(seg[:15]), [0] * 15)  # no shift seen before the 15th run
        self.assertEqual(list(seg[15:]), [12] * 10)
        # the job of day 24: its P is the median of the 12 runs after the step (4 each of 47.5, 50, 52.5) = 50, its
        # history from day 12; the job of day 14 (14 runs ended before it, the shift not yet seen) still uses
        # every run from day 0
        d = frame([job(i, v) for i, v in enumerate(bw)] + [job(24, 50.0)])
        r = tr.rolling(d, days=30, q=0.5, fit_c=False, shift_k=3.0)
        self.assertEqual(r["p"].iloc[24], 50.0)
        self.assertEqual(r["history_start"].iloc[24], T0 + 12 * DAY + 3600)
        self.assertEqual(r["history_start"].iloc[14], T0 + 3600)
        self.assertEqual(r["history_start"].iloc[15], T0 + 12 * DAY + 3600)
        # the fixed 30-day window mixes both levels: the median of the 24 runs, 12 at 47.5..52.5 and 12 at
        # 95..105: the 12th and 13th sorted are 52.5 and 95 -> 73.75
        self.assertEqual(tr.rolling(d, days=30, q=0.5, fit_c=False)["p"].iloc[24], 73.75)

    def test_a_small_drift_is_not_a_shift_but_a_large_one_is(self):
        # a reference of 5 runs at 100 x the cycle (95, 100, 105, 95, 100: median 100, MAD 0.0488) then 5 at 110 x
        # the cycle (indices 5..9: 115.5, 104.5, 110, 115.5, 104.5: median 110), tested once, after the 10th run:
        # ln 1.1 = 0.0953, above k = 1.5 (0.073: the segment restarts at index 5, 115.5 being closer to ln 110
        # than to ln 100), below k = 3 (0.146)
        bw = self.series([100.0] * 5 + [110.0] * 5)
        self.assertEqual(tr.level_segments(np.log(bw), 3.0)[-1], 0)
        self.assertEqual(tr.level_segments(np.log(bw), 1.5)[-1], 5)


class GateTest(unittest.TestCase):
    """The contention gate (tokio_rolling.contention_gate, sign_gate, rolling(gate=...), gate_for_window) on a file
    system of C = 10 GB/s and one configuration demanding P = 6 GB/s: each day k = 0..11 a job A at 01:00 alone
    (measured background 0, 6 GB/s) and a job B at 02:00 under a measured background of 5 GB/s, which max-min
    slows to min(6, max(10 - 5, 10 / 2)) = 5 GB/s. The previous background (what a prediction sees) either tells
    which job is slowed (A 0, B 5: contention explains the drops) or the opposite (A 5, B 0: it does not)."""

    G = 1e9

    def year(self, explains):
        rows = []
        for k in range(12):
            for hour, bw, r, prev in ((1.0, 6.0, 0.0, 0.0 if explains else 5.0),
                                      (2.0, 5.0, 5.0, 5.0 if explains else 0.0)):
                j = job(k, bw * self.G, fs_bytes=100.0 + r * self.G * 100.0, hour=hour)  # r = (fs_bytes - 100) / 100 s
                j["prev_bg"] = prev * self.G
                rows.append(j)
        return frame(rows)

    def test_sign_test_by_hand(self):
        # P(X >= k), X ~ Binomial(n, 1/2): 5 of 5 -> 1/32; 4 of 5 -> (5 + 1) / 32; 5 of 6 -> (6 + 1) / 64; none -> 1
        self.assertEqual(tr.sign_test(5, 0), 1 / 32)
        self.assertEqual(tr.sign_test(4, 1), 6 / 32)
        self.assertEqual(tr.sign_test(5, 1), 7 / 64)
        self.assertEqual(tr.sign_test(0, 0), 1.0)
        self.assertEqual(tr.sign_test(0, 3), 1.0)

    def test_contention_gate_by_day(self):
        # P = 6, C = 10, 7 days of two jobs: a job under a previous background of 5 is predicted 5. Days 0-4: it
        # measured 5 (closer than 6: +1) and the day's other job, previous background 0, is not slowed (0); day 5:
        # it measured 6 (further: -1), the other 0; day 6: two votes +1 and -1, a tie, left out. 5 days for, 1
        # against: p = 7/64 = 0.109 > 0.05, C dropped although most days favour the term; without day 5, 5 of 5:
        # p = 1/32, kept
        meas = [5, 6] * 5 + [6, 6] + [5, 6]  # day 6: both jobs under a previous background of 5, measured 5 and 6
        prev = [5, 0] * 5 + [5, 0] + [5, 5]
        days = np.repeat(np.arange(7), 2)
        t = tr.contention_gate(np.full(14, 6.0), np.array(meas, float), np.array(prev, float), 10.0, days)
        self.assertEqual((t["days_for"], t["days_against"]), (5, 1))
        self.assertAlmostEqual(t["p_value"], 7 / 64, places=15)
        self.assertFalse(t["kept"])
        keep = days != 5
        t = tr.contention_gate(np.full(12, 6.0), np.array(meas, float)[keep], np.array(prev, float)[keep], 10.0,
                               days[keep])
        self.assertEqual((t["days_for"], t["days_against"], t["p_value"], t["kept"]), (5, 0, 1 / 32, True))

    def test_rolling_gate_keeps_c_where_contention_explains_the_drops(self):
        # Window of day 11 (30 days): days 0..10, 22 jobs; P = their largest, 6 (q = 1). C fitted on the measured
        # background: only C = 10 GB/s makes both jobs exact (A needs C >= 6; B min(6, max(C - 5, C / 2)) = 5 needs
        # C = 10), every other C leaves the 11 B jobs off, so the median APE of 22 is above 0 -> C = 10 GB/s (the
        # grid's point 10^10, to float rounding).
        # fit gate: each B (previous background 5) predicted 5 = measured: +1; each A 6 = measured: 0 -> 11 days
        # for, 0 against, p = 2^-11: kept.
        # record gate: day 0's jobs have no P (no earlier run); days 1 and 2 had windows of 2 and 4 jobs (< 5, no
        # C): the term did not bind, ties; days 3..10: C = 10 GB/s fitted on their own windows (as many A as B) and
        # B predicted 5: +1 -> 8 days for, p = 2^-8: kept.
        d = self.year(True)
        last = d.index[-1]  # day 11's B
        for on, n_for in (("fit", 11), ("record", 8)):
            out = tr.iosim_rolling(d, 30, 1.0, gate=tr.GATE_LEVEL, gate_on=on)
            self.assertEqual((out.at[last, "gate_days_for"], out.at[last, "gate_days_against"]), (n_for, 0), on)
            self.assertAlmostEqual(out.at[last, "gate_p"], 2.0**-n_for, places=15, msg=on)
            self.assertAlmostEqual(out.at[last, "capacity"] / 1e10, 1.0, places=12, msg=on)
            self.assertAlmostEqual(out.at[last, "pred"] / 5e9, 1.0, places=12, msg=on)  # max-min: 10 - 5
        # the same test for the day after a window (iosim calibrate's record): days 0..10
        inw = d["start"] < T0 + 11 * DAY
        for on, n_for in (("fit", 11), ("record", 8)):
            t = tr.gate_for_window(d, inw, 30, 1.0, on)
            self.assertEqual((t["days_for"], t["days_against"], t["kept"]), (n_for, 0, True), on)
            self.assertAlmostEqual(t["capacity_Bps"] / 1e10, 1.0, places=12, msg=on)

    def test_rolling_gate_drops_c_where_contention_does_not_explain_them(self):
        # The same jobs, but the previous background points the wrong way: A (not slowed) follows a background of 5,
        # B (slowed) one of 0. C is fitted on the measured background as before (10 GB/s), but the predictions a
        # window would have made with the previous background put A at 5 (measured 6: further, -1) and B at 6
        # (no binding: 0): fit gate 0 days for, 11 against; record gate 0 for, 8 against; p = 1 -> C dropped, the
        # peak alone: day 11's B predicted 6 GB/s (without the gate: 6 too, as its previous background is 0, and
        # A 5 GB/s).
        d = self.year(False)
        a11, b11 = d.index[-2], d.index[-1]
        for on, n_against in (("fit", 11), ("record", 8)):
            out = tr.iosim_rolling(d, 30, 1.0, gate=tr.GATE_LEVEL, gate_on=on)
            self.assertEqual((out.at[b11, "gate_days_for"], out.at[b11, "gate_days_against"]), (0, n_against), on)
            self.assertEqual(out.at[b11, "gate_p"], 1.0)
            self.assertTrue(np.isnan(out.at[b11, "capacity"]), on)
            self.assertAlmostEqual(out.at[b11, "capacity_fitted"] / 1e10, 1.0, places=12, msg=on)
            self.assertEqual((out.at[a11, "pred"], out.at[b11, "pred"]), (6e9, 6e9), on)
        old = tr.iosim_rolling(d, 30, 1.0)  # no gate (the default): the term lowers A to 10 - 5 = 5 GB/s
        self.assertAlmostEqual(old.at[a11, "pred"] / 5e9, 1.0, places=12)
        self.assertTrue(old["gate_p"].isna().all())
        t = tr.gate_for_window(d, d["start"] < T0 + 11 * DAY, 30, 1.0, "record")
        self.assertEqual((t["days_for"], t["days_against"], t["p_value"], t["kept"]), (0, 8, 1.0, False))

    def test_bad_gate_on(self):
        with self.assertRaises(ValueError):
            tr.rolling(self.year(True), 30, 1.0, gate=0.05, gate_on="both")


class InterferenceTest(unittest.TestCase):
    """The sharing model `interference` as the engine simulates it (tokio_rolling.interference_share) and its rolling
    calibration (docs/validation.md, "Interference sharing, calibrated on the window")."""

    def test_share_by_hand(self):
        # C not binding: P' = 8 / (1 + 4 / 8) = 16 / 3
        self.assertAlmostEqual(float(tr.interference_share(8.0, 4.0, 1e12, 8.0)), 16 / 3, places=12)
        # C binding: P' = R' = 8 / (1 + 8 / 16) = 16 / 3, together 32 / 3 > C = 8: each C / 2 = 4
        self.assertAlmostEqual(float(tr.interference_share(8.0, 8.0, 8.0, 16.0)), 4.0, places=12)
        # P = 8, r = 2, C = 8: max-min gives min(8, max(6, 4)) = 6; with K = 8, P' = 8 / 1.25 = 6.4, R' = 2 / 2 = 1,
        # 7.4 <= C: 6.4
        self.assertAlmostEqual(float(tr.interference_share(8.0, 2.0, 8.0, np.inf)), 6.0, places=12)
        self.assertAlmostEqual(float(tr.interference_share(8.0, 2.0, 8.0, 8.0)), 6.4, places=12)

    def test_fit_recovers_a_known_k(self):
        # jobs at P = 1e10 under backgrounds 1e9 .. 8e9, measured exactly P / (1 + r / K0), C out of reach: the fit
        # finds K0; measured = P (no slowdown): +inf (every K slows them)
        k0 = float(tr.CAPACITIES[33])
        p, r = np.full(8, 1e10), np.arange(1, 9) * 1e9
        meas = p / (1 + r / k0)
        self.assertEqual(tr.fit_interference_share(p, r, np.inf, meas)[0], k0)
        self.assertEqual(tr.fit_interference_share(p, r, np.inf, p.copy())[0], np.inf)
        # "heavy" fits on the top 10 % of the backgrounds only: 8 jobs have 1 at or above the 0.9-quantile, fewer
        # than 5: +inf; "all" fits every job: K0
        self.assertEqual(tr.window_interference(p, r, meas, np.inf, "heavy"), np.inf)
        self.assertEqual(tr.window_interference(p, r, meas, np.inf, "all"), k0)
        with self.assertRaises(ValueError):
            tr.window_interference(p, r, meas, np.inf, "some")

    def _year(self):
        # one configuration, a run a day on days 0..59 (volume 100 B over a 100 s window): days 3k background 0 and
        # measured 1e10; the others background 1e9, measured 1e10 / (1 + 1e9 / K0) with K0 = 10^(9 + 33 / 30) =
        # 1.2589e10 (grid point 33): 9.2643e9
        k0 = float(tr.CAPACITIES[33])
        rows = []
        for i in range(60):
            r = 0.0 if i % 3 == 0 else 1e9
            rows.append(job(i, 1e10 / (1 + r / k0), fs_bytes=100.0 + r * 100.0))
        return frame(rows), k0

    def test_rolling_k_and_prediction_by_hand(self):
        d, k0 = self._year()
        # q = 1: P = the window's largest run, 1e10 (a background-free day in every 30-day window). C: max-min
        # min(P, max(C - 1e9, C / 2)) against the runs; C = 1e10 gives the loaded runs 9e9 (APE 2.9 %), exact on
        # the others; the next grid point 1.0772e10 gives them 9.772e9 (5.5 %). Then K: with C = 1e10, K0 gives
        # P' = 9.2643e9 and R' = 1e9 / (1 + 1e10 / K0) = 5.573e8, C - R' = 9.443e9 > P': exact on every run (the
        # grid point whose C - R' comes closest, 2.6827e10, misses by 0.08 %)
        out = tr.iosim_rolling(d, 30, 1.0, interference="all")
        day35 = d.index[(d["start"] - T0) // DAY == 35][0]  # loaded, after a loaded day 34
        self.assertEqual(out.at[day35, "capacity"], float(tr.CAPACITIES[30]))
        self.assertEqual(out.at[day35, "kappa_K"], k0)
        self.assertAlmostEqual(out.at[day35, "pred"] / (1e10 / (1 + 1e9 / k0)), 1.0, places=12)
        # max-min alone predicts min(1e10, max(1e10 - 1e9, 5e9)) = 9e9 there
        self.assertAlmostEqual(tr.iosim_rolling(d, 30, 1.0).at[day35, "pred"] / 9e9, 1.0, places=12)

    def test_choose_interference_on_the_past(self):
        d, _ = self._year()
        use, e_mm, e_if = tr.choose_interference(d, 30, 1.0, T0 + 60 * DAY)
        # predicted with the previous day's background: days 3k (free, after a loaded day) max-min 9e9 against 1e10
        # (10 %), interference 9.2643e9 (7.36 %); days 3k + 1 (loaded, after a free day) both 1e10 against 9.2643e9
        # (7.94 %); days 3k + 2 (loaded after loaded) max-min 9e9 (2.85 %), interference exact. Medians over the
        # three thirds: max-min 7.94 %, interference 7.36 %: interference is chosen
        self.assertTrue(use)
        self.assertAlmostEqual(e_mm, 1e10 / (1e10 / (1 + 1e9 / float(tr.CAPACITIES[33]))) - 1, places=9)
        self.assertAlmostEqual(e_if, 1 - 1e10 / (1 + 1e9 / float(tr.CAPACITIES[33])) / 1e10, places=9)
        # a file system without background: both rules give the peak; the tie keeps interference (at or below),
        # and its K is +inf, so its predictions are max-min's
        flat = frame([job(i, 1e10) for i in range(40)])
        use, e_mm, e_if = tr.choose_interference(flat, 30, 1.0, T0 + 40 * DAY)
        self.assertTrue(use)
        self.assertEqual(e_mm, e_if)
        self.assertTrue(np.isinf(tr.iosim_rolling(flat, 30, 1.0, interference="all")["kappa_K"].dropna()).all())


class PredictionTest(unittest.TestCase):
    """analysis/tokio_prediction.py on a hand-made Edison year: configuration ior write (1 TiB) on scratch1 (24 OSTs)
    at 20 GB/s and on scratch3 (36 OSTs) at 30 GB/s, on June 1-4 (first half) and October 1-4 (held out), except
    scratch1's October 4 run at 10 GB/s."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.dir, "tokio-abc"))
        rows = []
        for first in (1496275200, 1506816000):  # 2017-06-01, 2017-10-01
            for k in range(4):
                for fs, osts, gbps in (("scratch1", 24, 20.0), ("scratch3", 36, 30.0)):
                    if fs == "scratch1" and first == 1506816000 and k == 3:
                        gbps = 10.0
                    start = first + 86400 * k + (0 if fs == "scratch1" else 3600)
                    rows.append({"_datetime_start": start, "_datetime_end": start + 100, "_file_system": fs,
                                 "darshan_app": "/bin/ior", "darshan_nprocs": 2048,
                                 "darshan_agg_perf_by_slowest_posix": gbps * 1e9 / 1048576.0,
                                 "darshan_tot_bytes_read_posix": 0, "darshan_tot_bytes_written_posix": 2**40,
                                 "fs_tot_bytes_read": 0, "fs_tot_bytes_written": 2**40, "fshealth_ost_count": osts,
                                 "fs_frac_missing": 0.0})
        with gzip.open(os.path.join(self.dir, "tokio-abc", tokio_data.FILES["edison"]), "wt") as f:
            pd.DataFrame(rows).to_csv(f)
        self.env = os.environ.get("IOSIM_DATA_DIR")
        os.environ["IOSIM_DATA_DIR"] = self.dir

    def tearDown(self):
        if self.env is None:
            os.environ.pop("IOSIM_DATA_DIR", None)
        else:
            os.environ["IOSIM_DATA_DIR"] = self.env
        shutil.rmtree(self.dir)

    def test_end_to_end(self):
        # October 1 has no run in its 30-day window: left out of every predictor. October 2-4: every predictor
        # says 20 GB/s on scratch1 (persistence: the median of June's 4 runs and October's earlier ones, all 20) and
        # 30 on scratch3: APE 0 on 5 jobs, 1.0 on scratch1's October 4 (20 predicted, 10 measured). Over the 6 jobs:
        # median APE 0, bias 0, p90 (linear) 0.5.
        out = os.path.join(self.dir, "out")
        self.assertEqual(tokio_prediction.main(["--out", out, "--systems", "edison"]), 0)
        for name in ("prediction.md", "scores.csv", "scores_app_month.csv", "jobs.csv", "heavy.csv", "whatif.csv",
                     "interference.png"):
            self.assertTrue(os.path.isfile(os.path.join(out, name)), name)
        s = pd.read_csv(os.path.join(out, "scores.csv")).set_index("predictor")
        # the gated iosim rows too: the servers served only each job's own bytes, so no background, the term never
        # binds and each gate (no day for or against, p = 1) leaves the rolling peak
        # the adaptive window's rows too (its history on scratch1 from June 1: every earlier run at 20, no shift)
        # iosim_maxmin too (no background: the first half's tie keeps interference, whose K is +inf: max-min)
        # the stronger simple predictors: every earlier run (all 20 on scratch1, 30 on scratch3), the first half's
        # peak (20, 30) times its constant 1 (the first half is exact at 1)
        for m in ("persist", "rolling", "frozen", "iosim", "iosim_maxmin", "iosim_gate_fit", "iosim_gate", "adaptive",
                  "iosim_adaptive", "expanding", "peakconst"):
            self.assertEqual(s.loc[m, "jobs"], 6, m)
            self.assertAlmostEqual(s.loc[m, "median_ape"], 0.0, places=12, msg=m)  # iosim: 2e-16
            self.assertAlmostEqual(s.loc[m, "p90"], 0.5, places=12, msg=m)
            self.assertAlmostEqual(s.loc[m, "bias"], 0.0, places=12, msg=m)
        # the what-if: measured medians 30 / 20 = 1.5 (scratch1's October: 20, 20, 20, 10 -> 20), OST scaling
        # 36 / 24 = 1.5; the reverse 2/3 both
        w = pd.read_csv(os.path.join(out, "whatif.csv"))
        w = w[(w["half"] == "held-out") & w["to"].isin(["scratch1+2", "scratch3"])].set_index("from")
        self.assertAlmostEqual(w.loc["scratch1+2", "measured_gain"], 1.5, places=12)
        self.assertAlmostEqual(w.loc["scratch1+2", "ost_scaling_gain"], 1.5, places=12)
        self.assertAlmostEqual(w.loc["scratch3", "measured_gain"], 2 / 3, places=12)
        self.assertAlmostEqual(w.loc["scratch3", "ost_scaling_gain"], 2 / 3, places=12)
        # per pair and half: scratch1 -> scratch3 in June (20 -> 30), the same 1.5
        w2 = pd.read_csv(os.path.join(out, "whatif.csv")).set_index(["half", "from", "to"])
        self.assertAlmostEqual(w2.loc[("first", "scratch1", "scratch3"), "measured_gain"], 1.5, places=12)
        self.assertNotIn(("first", "scratch2", "scratch3"), w2.index)  # no scratch2 in this year
        with open(os.path.join(out, "prediction.md")) as f:
            text = f.read()
        self.assertIn("largest relative gap", text)
        # the goal's equivalence test: iosim and the best predictor equal job for job up to 2e-16 (difference 0,
        # interval 0 .. 0, margin 0): equivalent within the test's 1e-12; no run has 5 others within 15 days: no floor
        self.assertIn("| equivalent ", text)
        self.assertIn("| n/a ", text)
        # the heavy table's simulated interference row: no background anywhere, so the 0.9-quantile cut (0) keeps
        # every held-out job as "heavy" and every model predicts P: scratch1's three October jobs 20, 20, 20 against
        # 20, 20, 10 (APE 0, 0, 1: median 0, p90 0.8), scratch3's exact
        h = pd.read_csv(os.path.join(out, "heavy.csv"))
        sim = h[h["model"] == tokio_prediction.ENGINE_INTERFERENCE].set_index("fs")
        self.assertEqual(sorted(sim.index), ["scratch1", "scratch3"])
        for fs, p90 in (("scratch1", 0.8), ("scratch3", 0.0)):
            self.assertAlmostEqual(sim.at[fs, "median_ape"], 0.0, places=12)
            self.assertAlmostEqual(sim.at[fs, "p90"], p90, places=12)

    def test_tuning_end_to_end(self):
        # analysis/tokio_tuning.py on the same year: the held-out jobs are October 2-4 (October 1 has no run in
        # the 30 or 90 days before it); the 30-day peak is 20 on scratch1 and 30 on scratch3 there: APE 0 on 5 of
        # the 6 jobs -> median 0; the first half (June 2-4, each from the days before) is exact too
        import tokio_tuning
        out = os.path.join(self.dir, "tuning")
        self.assertEqual(tokio_tuning.main(["--out", out, "--systems", "edison"]), 0)
        r = pd.read_csv(os.path.join(out, "rules.csv")).set_index("rule")
        self.assertAlmostEqual(r.loc["30 d / none", "edison_held"], 0.0, places=12)
        self.assertAlmostEqual(r.loc["30 d / none", "edison_first"], 0.0, places=12)
        self.assertTrue(os.path.isfile(os.path.join(out, "tuning.md")))
        # the gates: no background, so each equals 30 d / measured, exact on the first half; neither is worse there,
        # so the first half's criterion would make both the default
        g = pd.read_csv(os.path.join(out, "gates.csv")).set_index("system")
        self.assertEqual(g.loc["edison", "gate: record, first half"], "0.00 %")
        self.assertEqual(g.loc["default on the first half's criterion", "gate: fit, first half"], "yes")
        # the adaptive window: its three variants exact on the first half too, a tie kept by the larger k (4), at
        # or below 30 d / measured everywhere: the default by the criterion
        with open(os.path.join(out, "tuning.md")) as f:
            self.assertIn("Chosen on the first half: k = 4; default (at or below 30 d / measured on every system's "
                          "first half): yes.", f.read())

    def test_bad_days_exits_2(self):
        self.assertEqual(tokio_prediction.main(["--out", os.path.join(self.dir, "o"), "--days", "0"]), 2)


if __name__ == "__main__":
    unittest.main()
