"""Tests of the TOKIO-ABC validation (analysis/tokio_data.py, tokio_model.py, tokio_iosim.py, tokio_validation.py) on
hand-made summaries whose every number is computed by hand below; the iosim part runs the binary of $IOSIM_BIN
(ctest sets it), else build/iosim.
"""

import gzip
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import pandas as pd  # noqa: E402

import tokio_data  # noqa: E402
import tokio_iosim  # noqa: E402
import tokio_model  # noqa: E402
import tokio_validation  # noqa: E402

MIB = 1048576.0
JUNE, OCT = 1496275200, 1506816000  # 2017-06-01 and 2017-10-01 00:00 UTC: training / held out


def raw_row(start, fs="scratch1", app="/bin/ior", nprocs=2048, read=0, written=2**40, mibps=20000.0, fs_read=0,
            fs_written=None, window=100, osts=24, missing=0.0):
    fs_written = written if fs_written is None else fs_written
    return {"_datetime_start": start, "_datetime_end": start + window, "_file_system": fs, "darshan_app": app,
            "darshan_nprocs": nprocs, "darshan_agg_perf_by_slowest_posix": mibps,
            "darshan_tot_bytes_read_posix": read, "darshan_tot_bytes_written_posix": written,
            "fs_tot_bytes_read": fs_read, "fs_tot_bytes_written": fs_written, "fshealth_ost_count": osts,
            "fs_frac_missing": missing}


class DataTest(unittest.TestCase):
    def test_tidy_keeps_measured_jobs_and_says_why_others_are_out(self):
        # rows: 0 kept; 1 a burst-buffer row (no file system); 2 server counters 20 % missing; 3 no bytes
        raw = pd.DataFrame([raw_row(JUNE), raw_row(JUNE, fs=None), raw_row(JUNE, missing=0.2),
                            raw_row(JUNE, written=0, fs_written=2**40)])
        d, why = tokio_data.tidy(raw, "edison")
        self.assertEqual(len(d), 1)
        self.assertEqual(sorted(why.tolist()), ["no bytes measured", "no parallel file system (burst buffer)",
                                                "server-side counters missing"])
        j = d.iloc[0]
        self.assertEqual((j["app"], j["direction"], j["osts"]), ("ior", "write", 24))
        self.assertEqual(j["bw"], 20000 * MIB)
        self.assertEqual(j["fs_bytes"], 2**40)
        self.assertEqual(j["cls"], "edison/scratch1/ior/write/2048/1024GiB")
        self.assertEqual(j["month"], "2017-06")

    def test_missing_column_and_file_are_input_errors(self):
        with self.assertRaisesRegex(tokio_data.InputError, "fs_tot_bytes_read"):
            tokio_data.tidy(pd.DataFrame([raw_row(JUNE)]).drop(columns=["fs_tot_bytes_read"]), "edison")
        with self.assertRaisesRegex(tokio_data.InputError, "IOSIM_DATA_DIR"):
            tokio_data.jobs(["edison"], "/nonexistent")


def jobs_frame(rows):
    """Tidy rows: (start, cls, bw GB/s, volume GB, fs_bytes GB, window s)."""
    d = pd.DataFrame([{"system": "s", "fs": "f", "app": "a", "direction": "write", "nprocs": 1, "cls": c,
                       "start": t, "bw": b * 1e9, "volume": v * 1e9, "fs_bytes": f * 1e9, "window": w, "osts": 4}
                      for t, c, b, v, f, w in rows])
    return d


class ModelTest(unittest.TestCase):
    def test_peaks_quantile_and_fallback(self):
        # training: class x bandwidths 1, 2, 3, 4 GB/s; the 0.5-quantile (linear) is 2.5 GB/s. A held-out job of an
        # unseen class y of the same application falls back to the (system, fs, app, direction, nprocs) group, the
        # same four jobs: 2.5 GB/s, level 1.
        train = jobs_frame([(JUNE, "x", b, 1, 1, 1) for b in (1, 2, 3, 4)])
        test = jobs_frame([(OCT, "x", 1, 1, 1, 1), (OCT, "y", 1, 1, 1, 1)])
        p, level = tokio_model.peaks(train, test, 0.5)
        self.assertEqual(list(p / 1e9), [2.5, 2.5])
        self.assertEqual(list(level), [0, 1])

    def test_predictions_by_hand(self):
        # job: P = 3 GB/s, 10 GB moved, the servers saw 30 GB in 10 s: share 1/3, background (30 - 10) / 10 = 2 GB/s.
        # contention on C = 4 GB/s: min(3, max(4 - 2, 2)) = 2 GB/s; on C = 10: min(3, 8) = 3; on C = 3: min(3, max(1,
        # 1.5)) = 1.5.
        d = jobs_frame([(OCT, "x", 2, 10, 30, 10)])
        p = pd.Series([3e9], index=d.index)
        self.assertAlmostEqual(tokio_model.predict("peak", d, p).iloc[0], 3e9)
        self.assertAlmostEqual(tokio_model.predict("share", d, p).iloc[0], 1e9)
        self.assertAlmostEqual(tokio_model.background(d).iloc[0], 2e9)
        for c, want in ((4e9, 2e9), (10e9, 3e9), (3e9, 1.5e9)):
            self.assertAlmostEqual(tokio_model.predict("contention", d, p, c).iloc[0], want)

    def test_calibration_recovers_the_capacity(self):
        # eight training jobs of one class, each measured exactly max-min on 5 GB/s with P = 4 GB/s and backgrounds
        # 1, 2, 2.5, 3 GB/s: min(4, max(5 - r, 2.5)) = 4, 3, 2.5, 2.5. Expectations: contention finds a q whose
        # quantile is 4 GB/s (0.9 and 1 of these eight values) and a C within one grid step (x 1.0390) of 5 GB/s, with
        # a training median APE of at most the step (0 at C = 5 GB/s exactly). The peak model's best is q = 0.5,
        # P = 2.75 GB/s: APE 0.1 (x4), 1/12 (x2), 0.3125 (x2), median 0.1 (q = 0.6 gives P = 3: median 0.2).
        rows = []
        for r, b in ((1, 4), (2, 3), (2.5, 2.5), (3, 2.5)) * 2:
            rows.append((JUNE, "x", b, 10, 10 + 10 * r, 10))
        rows[0] = (JUNE, "x", 4, 10, 20, 10)
        train = jobs_frame(rows)
        c = tokio_model.calibrate(train, "contention")
        self.assertEqual(tokio_model.peaks(train, train, c["q"])[0].iloc[0], 4e9)
        self.assertLess(abs(c["capacity"] / 5e9 - 1), 0.04)
        self.assertLess(c["train_median_ape"], 0.04)
        peak = tokio_model.calibrate(train, "peak")
        self.assertEqual(peak["q"], 0.5)
        self.assertAlmostEqual(peak["train_median_ape"], 0.1)

    def test_scores_by_hand(self):
        # predicted 1, 2, 3, 8 for measured 1, 4, 3, 4: APE 0, 0.5, 0, 1 -> median 0.25, mean 0.375; within 10 %:
        # 2 of 4, 25 %: 2, 50 %: 3; I/O time APE |m/p - 1| = 0, 1, 0, 0.5 -> median 0.25, mean 0.375. Spearman: the
        # ranks of p (1, 2, 3, 4) and m (1, 3.5, 2, 3.5) -> Pearson of those = 0.6325 (computed by hand below).
        s = tokio_model.scores(pd.Series([1.0, 2, 3, 8]), pd.Series([1.0, 4, 3, 4]))
        self.assertEqual(s["jobs"], 4)
        self.assertAlmostEqual(s["median_ape"], 0.25)
        self.assertAlmostEqual(s["mean_ape"], 0.375)
        self.assertAlmostEqual(s["time_median_ape"], 0.25)
        self.assertAlmostEqual(s["time_mean_ape"], 0.375)
        self.assertEqual((s["within_10"], s["within_25"], s["within_50"]), (0.5, 0.5, 0.75))
        rp, rm = [1, 2, 3, 4], [1, 3.5, 2, 3.5]
        mp, mm = sum(rp) / 4, sum(rm) / 4
        cov = sum((a - mp) * (b - mm) for a, b in zip(rp, rm))
        rho = cov / (sum((a - mp) ** 2 for a in rp) * sum((b - mm) ** 2 for b in rm)) ** 0.5
        self.assertAlmostEqual(s["spearman"], rho)


class IosimTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_simulated_pairs_match_the_closed_form(self):
        # System: 4 OSTs of 1 GB/s (C = 4 GB/s). Job 0: 10 GB at P = 3 GB/s against a background of 2 GB/s (the
        # servers saw 30 GB in 10 s): iosim shares each OST max-min, the job gets min(3, max(4 - 2, 2)) = 2 GB/s.
        # Job 1: 10 GB at P = 1 GB/s alone (no background): 1 GB/s. Job 2: 5 GB at P = 8 GB/s against 3.5 GB/s:
        # max(0.5, 2) = 2 GB/s.
        d = jobs_frame([(OCT, "x", 1, 10, 30, 10), (OCT, "x", 1, 10, 10, 10), (OCT, "x", 1, 5, 40, 10)])
        p = pd.Series([3e9, 1e9, 8e9], index=d.index)
        run = tokio_iosim.prepare(d, p, tokio_model.background(d), 4, 4e9, os.path.join(self.dir, "sim"))
        tokio_iosim.run_all([run])
        got = tokio_iosim.collect(run)
        for g, want in zip(got, (2e9, 1e9, 2e9)):
            self.assertAlmostEqual(g / want, 1, places=9)


class ValidationTest(unittest.TestCase):
    """The whole command on a hand-made year: one Edison file system, configuration ior write (1 TiB)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        data = os.path.join(self.dir, "tokio-abc")
        os.makedirs(data)
        rows = []
        # training: 20 GB/s four times (no background); held out: 20 GB/s alone, then 10 GB/s with a background of
        # 30 TB in a 100 s window (300 GB/s, far beyond any calibrated capacity's headroom)
        for k in range(4):
            rows.append(raw_row(JUNE + 86400 * k, mibps=20e9 / MIB))
        rows.append(raw_row(OCT, mibps=20e9 / MIB))
        rows.append(raw_row(OCT + 86400, mibps=10e9 / MIB, fs_written=2**40 + 30e12))
        frame = pd.DataFrame(rows)
        with gzip.open(os.path.join(data, tokio_data.FILES["edison"]), "wt") as f:
            frame.to_csv(f)
        self.env = os.environ.get("IOSIM_DATA_DIR")
        os.environ["IOSIM_DATA_DIR"] = self.dir

    def tearDown(self):
        if self.env is None:
            os.environ.pop("IOSIM_DATA_DIR", None)
        else:
            os.environ["IOSIM_DATA_DIR"] = self.env
        shutil.rmtree(self.dir)

    def test_end_to_end(self):
        # Expectations: P = 20 GB/s for every model (every training job measured 20 GB/s); peak predicts 20 GB/s
        # twice (APE 0 and 1); the held-out scores are written for the three models; iosim equals the closed form.
        out = os.path.join(self.dir, "out")
        self.assertEqual(tokio_validation.main(["--out", out, "--systems", "edison"]), 0)
        for name in ("validation.md", "scores.csv", "calibration.csv", "jobs.csv", "scatter.png",
                     "error_over_year.png"):
            self.assertTrue(os.path.isfile(os.path.join(out, name)), name)
        held = pd.read_csv(os.path.join(out, "jobs.csv"))
        self.assertEqual(len(held), 2)
        self.assertEqual(list(held["peak"] / 1e9), [20.0, 20.0])
        scores = pd.read_csv(os.path.join(out, "scores.csv"))
        peak = scores[(scores["group"] == "system") & (scores["model"] == "peak")].iloc[0]
        self.assertAlmostEqual(peak["median_ape"], 0.5)
        with open(os.path.join(out, "validation.md")) as f:
            self.assertIn("largest relative gap", f.read())

    def test_unknown_system_exits_2(self):
        self.assertEqual(tokio_validation.main(["--out", os.path.join(self.dir, "o"), "--systems", "titan"]), 2)


if __name__ == "__main__":
    unittest.main()
