"""Tests of the OST-health what-ifs and the benchmarks' layouts (analysis/tokio_health.py) and of the what-if
backtest's pieces (analysis/whatif_backtest.py) on hand-made data whose every number is worked out in the comments."""

import gzip
import json
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import tokio_health as th  # noqa: E402
import whatif_backtest as wb  # noqa: E402

DAY = 86400.0
T0 = 1496275200.0  # 2017-06-01 00:00 UTC


def run(day, bw, key="a", state=0.0, hour=1.0, window=100.0, **extra):
    """A run of configuration `key` starting `hour` hours into day `day` after T0."""
    s = T0 + day * DAY + hour * 3600
    return {"key": key, "bw": bw, "start": s, "end": s + window, "fo": state, **extra}


class LayoutTest(unittest.TestCase):
    def frame(self):
        # Edison-like: IOR of 2048 processes at 2048 GiB (POSIX) and 512 GiB (MPI-IO); Mira-like: both at 1024 GiB,
        # one with a record per rank; HACC-IO, VPIC-IO and an unknown application
        rows = [("edison", "ior", 2048, 2048, np.nan), ("edison", "ior", 2048, 512, np.nan),
                ("mira", "ior", 16384, 1024, 16384.0), ("mira", "ior", 16384, 1024, 1.0),
                ("edison", "hacc_io_write", 2048, 2096, 2048.0), ("edison", "vpicio_uni", 2048, 2048, 1.0),
                ("edison", "mdtest", 2048, 1, 1.0), ("edison", "ior", 2048, 2048, 1.0)]
        return pd.DataFrame([{"system": s, "fs": s, "app": a, "nprocs": float(n), "volume": v * 2.0**30,
                              "records": r} for s, a, n, v, r in rows])

    def test_modes_from_the_job_scripts_and_darshan_records(self):
        d = self.frame()
        lay = th.layout(d)
        # no records: the scripts' volumes (the larger IOR volume is POSIX); Mira's equal volumes: the records;
        # a record count contradicting the volume wins (the last row: one record, so the shared file)
        self.assertEqual(list(lay), ["fpp", "shared", "fpp", "shared", "fpp", "shared", "", "shared"])
        vol = th.volume_layout(d)
        self.assertEqual(list(vol), ["fpp", "shared", "", "", "", "", "", "fpp"])

    def test_with_health_aligns_the_kept_rows(self):
        # three raw rows, the middle one left out by tidy: the kept jobs take the first and third rows' health
        raw = pd.DataFrame({"fshealth_ost_most_full_pct": [90.0, 50.0, 70.0],
                            "fshealth_ost_least_full_pct": [10.0, 20.0, 30.0],
                            "fshealth_ost_overloaded_oss_count": [1.0, 0.0, 0.0],
                            "darshan_num_f_write_time_posix": [2048.0, 1.0, 1.0],
                            "darshan_num_f_read_time_posix": [0.0, 0.0, 1.0]}, index=[5, 6, 7])
        why = pd.Series(["no bytes measured"], index=[6])
        d = pd.DataFrame({"system": "edison", "fs": "s", "app": ["ior", "ior"], "direction": ["write", "read"],
                          "nprocs": [2048.0, 2048.0], "volume": [2.0**41, 2.0**39]})
        out = th.with_health(d, raw, why)
        self.assertEqual(list(out["most_full_pct"]), [90.0, 70.0])
        self.assertEqual(list(out["failover_oss"]), [1.0, 0.0])
        self.assertEqual(list(out["records"]), [2048.0, 1.0])  # the job's direction's records
        self.assertEqual(list(out["layout"]), ["fpp", "shared"])
        with self.assertRaises(ValueError):
            th.with_health(d.iloc[:1], raw, why)


class FactorTest(unittest.TestCase):
    def test_round_robin_loads_and_layout_gains(self):
        self.assertEqual(list(th.round_robin_loads(10, 4)), [3, 3, 2, 2])
        # 2048 one-stripe files: at most 86 per OST on 24 OSTs, 57 on 36: gain 86 / 57
        self.assertAlmostEqual(th.layout_gain("fpp", 2048, 24, 36), 86 / 57, places=12)
        self.assertAlmostEqual(th.layout_gain("fpp", 2048, 36, 24), 57 / 86, places=12)
        self.assertAlmostEqual(th.layout_gain("shared", 0, 24, 36), 1.5, places=12)
        # loads 3, 3, 2, 2 at rates 1, 0.5, 1, 1: the second OST takes 6, the job 10 / 6
        self.assertAlmostEqual(th.job_bandwidth([3, 3, 2, 2], [1, 0.5, 1, 1]), 10 / 6, places=12)

    def test_failover_shares_a_server(self):
        # equal loads, server rate 1.5: OSTs 0 and 1 behind one server at 0.75 each: 0.75 of the healthy bandwidth;
        # rho 2 or more: no loss; one server down or two, the same
        loads = np.ones(4)
        self.assertAlmostEqual(th.failover_factor(loads, 1, 1.5), 0.75, places=12)
        self.assertAlmostEqual(th.failover_factor(loads, 2, 1.5), 0.75, places=12)
        self.assertAlmostEqual(th.failover_factor(loads, 1, 2.0), 1.0, places=12)
        self.assertEqual(list(th.failover_share([0, 1, 2], 1.5)), [1.0, 0.75, 0.75])
        # loads 2, 3 on the shared server (rho 1.5) and 3, 3 elsewhere: both at 0.75 until the first ends at
        # 2 / 0.75 = 2.667, then the other alone at 1: 2.667 + 1 = 3.667; the job 11 / 3.667 = 3, healthy 11 / 3
        self.assertAlmostEqual(th.failover_bandwidth([2, 3, 3, 3], 1, 1.5), 11 / (2 / 0.75 + 1), places=12)
        self.assertAlmostEqual(th.failover_factor([2, 3, 3, 3], 1, 1.5), 3 / (2 / 0.75 + 1), places=12)
        # a file short on the shared pair and a server barely slower: the other OSTs still bind (no loss)
        self.assertAlmostEqual(th.failover_factor([2, 2, 3, 3], 1, 1.92), 1.0, places=12)
        self.assertAlmostEqual(float(th.failover_proportional(1, 24)), 23 / 24, places=12)

    def test_fullness_curve_and_factor(self):
        self.assertAlmostEqual(float(th.fullness_curve(0.9, 0.6, 2.0)), 0.4, places=12)
        self.assertAlmostEqual(float(th.fullness_curve(0.5, 0.6, 2.0)), 1.0, places=12)
        self.assertAlmostEqual(float(th.fullness_curve(1.0, 0.0, 2.0)), th.FLOOR, places=12)
        # least 0.2, mean 0.5, most 0.9 over 4 OSTs: the two others at (2 - 0.9 - 0.2) / 2 = 0.45
        np.testing.assert_allclose(th.ost_fullness(4, 0.2, 0.5, 0.9), [0.9, 0.45, 0.45, 0.2])
        # knee 0.6, slope 2: g = 0.4 on OST 0 only; equal loads: 0.4; loads 1, 3, 3, 3: OST 0 takes 2.5, the
        # others 3: the job waits for 3, no loss
        self.assertAlmostEqual(th.fullness_factor(np.ones(4), 0.2, 0.5, 0.9, 0.6, 2.0), 0.4, places=12)
        self.assertAlmostEqual(th.fullness_factor([1, 3, 3, 3], 0.2, 0.5, 0.9, 0.6, 2.0), 1.0, places=12)
        self.assertAlmostEqual(float(th.fullness_proportional(0.75)), 0.25, places=12)


class ReferenceTest(unittest.TestCase):
    def test_reference_runs_window_state_and_normalisation(self):
        # runs of a on days 0..4 at 10, 20, 30, 40 (states 0, 0, 1, 1) and the job of day 5 (state 1, bw 50); a
        # run of b. Window 30 days, min_runs 2: the job's references in the other state are days 0 and 1 -> median
        # 15; with h = 0.5 in state 1 and 1 in state 0: P = median(10, 20) = 15, times 0.5 -> 7.5
        d = pd.DataFrame([run(0, 10.0), run(1, 20.0), run(2, 30.0, state=1.0), run(3, 40.0, state=1.0),
                          run(5, 50.0, state=1.0), run(5, 9.0, key="b")])
        d["h"] = np.where(d["fo"] > 0, 0.5, 1.0)
        r = th.reference_predictions(d, None, 0.5, 30, state="fo", min_runs=2)
        self.assertEqual(r["runs"].iloc[4], 2)
        self.assertEqual(r["pred"].iloc[4], 15.0)
        self.assertEqual(th.reference_predictions(d, "h", 0.5, 30, state="fo", min_runs=2)["pred"].iloc[4], 7.5)
        # without the state: days 0..3, median 25; a run still going at the day's start is not used
        self.assertEqual(th.reference_predictions(d, None, 0.5, 30, min_runs=2)["pred"].iloc[4], 25.0)
        d2 = pd.DataFrame([run(0, 10.0), run(1, 20.0, window=5 * DAY), run(5, 1.0)])
        self.assertEqual(th.reference_predictions(d2, None, 0.5, 30, min_runs=1)["runs"].iloc[2], 1)
        # too few runs: NaN; a window of 2 days: the job of day 5 sees days 3 and 4 only
        self.assertTrue(np.isnan(th.reference_predictions(d, None, 0.5, 30, state="fo", min_runs=3)["pred"].iloc[4]))
        self.assertEqual(th.reference_predictions(d, None, 0.5, 2, min_runs=1)["runs"].iloc[4], 1)
        # another frame's runs as the source (the OST-count what-if): the target job of day 5 from d's a runs
        # that ended before day 5 (days 0..3; d's own day-5 run is not), q = 1: 40
        tgt = pd.DataFrame([run(5, 60.0)])
        self.assertEqual(th.reference_predictions(tgt, None, 1.0, 30, min_runs=1, source=d)["pred"].iloc[0], 40.0)

    def test_sets_predict_and_fit(self):
        d = pd.DataFrame([run(0, 10.0), run(1, 20.0), run(2, 30.0, state=1.0), run(3, 40.0, state=1.0),
                          run(5, 50.0, state=1.0)])
        sets = th.reference_sets(d, 30, 2, state="fo")
        self.assertEqual(list(sets[4]), [0, 1])
        self.assertEqual(len(sets[0]), 0)
        bw, h = d["bw"].to_numpy(), np.array([1.0, 1.0, 0.5, 0.5, 0.5])
        np.testing.assert_allclose(th.predict_from_sets(bw, h, sets, 0.5, [4]), [7.5])
        # the job in failover measured 12 against healthy references of median 15: f = 0.8 fits exactly (rho
        # 1.6); the grid 2.0, 1.8, 1.6: 1.6 is the one with APE 0
        fit = th.fit_grid([2.0, 1.8, 1.6], lambda rho: np.array([15.0 * min(1.0, rho / 2)]), np.array([12.0]))
        self.assertEqual(fit, (1.6, 0.0))
        # a tie keeps the earlier candidate
        self.assertEqual(th.fit_grid([3.0, 2.0], lambda c: np.array([15.0]), np.array([12.0]))[0], 3.0)

    def test_coverage_and_verdict(self):
        self.assertEqual(th.coverage([0.1, 0.2, 0.3, 0.4], 0.25), 0.5)
        self.assertEqual(th.coverage([0.1, 0.2, np.nan], [0.15, np.nan, 0.5]), 1.0)
        # first half APEs 0.1..0.4, second 0.2..0.8: the first half's p75 (0.325) covers 1 of the second's 4,
        # the second's p75 (0.65) all 4 of the first's: 5 of 8
        ape = [0.1, 0.2, 0.3, 0.4, 0.2, 0.4, 0.6, 0.8]
        cov, per = th.cross_half_coverage(ape, ["f"] * 4 + ["s"] * 4)
        self.assertAlmostEqual(per["s"][0.75][0], 0.325)
        self.assertEqual(per["s"][0.75][1], 0.25)
        self.assertEqual(per["f"][0.75][1], 1.0)
        self.assertEqual(cov[0.75], 5 / 8)
        self.assertEqual(th.verdict(-0.05, -0.02, 0.01), "better")
        self.assertEqual(th.verdict(-0.005, 0.005, 0.01), "equivalent")
        self.assertEqual(th.verdict(0.02, 0.05, 0.01), "worse")
        self.assertEqual(th.verdict(-0.005, 0.02, 0.01), "not shown")


class BacktestPiecesTest(unittest.TestCase):
    def test_band_entry_quantiles_and_coverage(self):
        ape = [0.1, 0.2, 0.3, 0.4, 0.2, 0.4, 0.6, 0.8, np.nan]
        e = wb.band_entry(ape, ["f"] * 4 + ["s"] * 5, "hand-made", "maxmin")
        self.assertEqual(e["jobs"], 8)
        self.assertEqual(e["ape"]["p50"], 0.35)  # sorted 0.1 0.2 0.2 0.3 0.4 0.4 0.6 0.8: (0.3 + 0.4) / 2
        self.assertEqual(e["coverage"]["p75"], 0.625)
        self.assertEqual(e["sharing"], "maxmin")
        self.assertEqual(set(e), {"measured_on", "jobs", "ape", "coverage", "sharing"})

    def test_compare_uses_the_margin(self):
        # the candidate's APE is 0.1 on every job, the baseline's 0.2: the difference -0.1 on every resample,
        # below -delta = -0.02: better
        meas = np.full(20, 10.0)
        c = wb.compare(meas * 1.1, meas * 1.2, meas, np.arange(20))
        self.assertAlmostEqual(c["diff"], -0.1)
        self.assertAlmostEqual(c["delta"], 0.02)
        self.assertEqual(c["verdict"], "better")

    def test_fullness_sample_keeps_the_extremes(self):
        f = pd.DataFrame({"fs": "s", "layout": "fpp", "files": 4, "direction": "write",
                          "phi_most": np.linspace(0.3, 0.9, 25)})
        s = wb.fullness_sample(f, per_group=5)
        self.assertEqual(len(s), 5)
        self.assertAlmostEqual(s["phi_most"].min(), 0.3)
        self.assertAlmostEqual(s["phi_most"].max(), 0.9)


class BacktestEndToEndTest(unittest.TestCase):
    """analysis/whatif_backtest.py on a hand-made year: Edison's scratch1 (24 OSTs) at 20 GB/s and scratch3 (36) at
    30 GB/s, IOR's MPI-IO write (512 GiB, one shared file), on June 1-7 and October 1-7, healthy, fullness constant;
    Cori's cscratch (248 OSTs), IOR's MPI-IO write (1 TiB) at 100 GB/s on June 1-3 and 7 and October 1-3 and 7,
    and at 96 GB/s on June 4-6 and October 4-6 with one server failed over (2 OSTs on it)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.dir, "tokio-abc"))
        for system, jobs in (("edison", [("scratch1", 24, 20.0, 0), ("scratch3", 36, 30.0, 0)]),
                             ("cori", [("cscratch", 248, None, None)])):
            rows = []
            for first in (1496275200, 1506816000):  # 2017-06-01, 2017-10-01
                for k in range(7):
                    for fs, osts, gbps, down in jobs:
                        if fs == "cscratch":
                            down = 1 if 3 <= k <= 5 else 0
                            gbps = 96.0 if down else 100.0
                        start = first + 86400 * k + 3600 * (1 + len(rows) % 3)
                        vol = 2**39 if system == "edison" else 2**40
                        rows.append({"_datetime_start": start, "_datetime_end": start + 100, "_file_system": fs,
                                     "darshan_app": "/bin/ior", "darshan_nprocs": 2048 if system == "edison" else 4096,
                                     "darshan_agg_perf_by_slowest_posix": gbps * 1e9 / 1048576.0,
                                     "darshan_tot_bytes_read_posix": 0, "darshan_tot_bytes_written_posix": vol,
                                     "fs_tot_bytes_read": 0, "fs_tot_bytes_written": vol, "fshealth_ost_count": osts,
                                     "fs_frac_missing": 0.0, "fshealth_ost_avg_full_pct": 50.0,
                                     "fshealth_ost_least_full_pct": 40.0, "fshealth_ost_most_full_pct": 60.0,
                                     "fshealth_ost_overloaded_ost_count": 2.0 * down,
                                     "fshealth_ost_overloaded_oss_count": float(down),
                                     "darshan_num_f_write_time_posix": 1.0})
            import tokio_data
            with gzip.open(os.path.join(self.dir, "tokio-abc", tokio_data.FILES[system]), "wt") as f:
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
        out, bands = os.path.join(self.dir, "out"), os.path.join(self.dir, "bands.json")
        self.assertEqual(wb.main(["--out", out, "--bands", bands]), 0)
        with open(bands) as f:
            b = json.load(f)
        self.assertEqual(b["format"], "iosim-whatif-bands/1")
        self.assertIn("analysis/whatif_backtest.py", b["command"])
        # no change of fullness: no fullness kind
        self.assertEqual(sorted(b["kinds"]), ["failover", "ost_count"])
        # OST count: a scratch3 job of day k >= 4 of a month has >= 3 scratch1 runs before its day (30 days: October
        # does not see June): June 4-7 and October 4-7, 8 per pair, 2 pairs (no scratch2); 20 x 36 / 24 = 30 and
        # 30 x 24 / 36 = 20 exactly: every APE 0, every job inside every band
        oc = b["kinds"]["ost_count"]
        self.assertEqual(oc["jobs"], 16)
        self.assertEqual(oc["ape"], {"p50": 0.0, "p75": 0.0, "p90": 0.0})
        self.assertEqual(oc["coverage"], {"p75": 1.0, "p90": 1.0})
        self.assertEqual(oc["sharing"], "maxmin")
        # failover: June 4-6 in failover from June 1-3 (100), June 7 healthy from June 4-6 (96); the same in
        # October: 8 what-ifs. rho = 1.92 (f = 0.96) makes every one exact on either half: 100 x 0.96 = 96 and
        # 96 / 0.96 = 100; no read job: the read fit keeps 2 (no effect)
        fo = b["kinds"]["failover"]
        self.assertEqual(fo["jobs"], 8)
        self.assertEqual(fo["ape"]["p90"], 0.0)
        self.assertEqual(fo["model"]["server_rate_over_ost_rate"], {"read": 2.0, "write": 1.92})
        jobs = pd.read_csv(os.path.join(out, "failover_jobs.csv"))
        # no change: 4 / 96 off on the failover jobs, 4 / 100 on the healthy ones; proportional (247 / 248)
        np.testing.assert_allclose(sorted(((jobs["naive"] - jobs["bw"]).abs() / jobs["bw"]).round(6).unique()),
                                   [0.04, round(4 / 96, 6)])
        np.testing.assert_allclose(jobs.loc[jobs["fo"] > 0, "proportional"], 100e9 * 247 / 248, rtol=1e-12)
        with open(os.path.join(out, "backtest.md")) as f:
            text = f.read()
        self.assertIn("**OST scaling (iosim today)**", text)  # nothing better than scaling on the first half
        self.assertIn("iosim against the closed forms: largest relative gap", text)


if __name__ == "__main__":
    unittest.main()
