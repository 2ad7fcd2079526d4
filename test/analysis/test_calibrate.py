"""Tests of `iosim calibrate` (src/cli/calibrate.c, python/iosim/calibrate.py) and of the staleness rule of `iosim check`,
through the iosim binary ($IOSIM_BIN, which ctest sets; else build/iosim): a hand-made TOKIO-ABC summary whose
capacity and efficiencies are known, one whose sharing model (interference, K on the grid) is known, the sample
Darshan logs (the numbers of docs/darshan.md's table), and scenarios naming a stale, a fresh and a broken
calibration."""

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import pandas as pd  # noqa: E402

import iosim_path  # noqa: E402,F401  (iosim's Python package on sys.path)
from iosim import whatif_band  # noqa: E402

BIN = os.environ.get("IOSIM_BIN") or os.path.join(ROOT, "build", "iosim")
DATA = os.environ.get("IOSIM_DATA_DIR") or os.path.join(ROOT, "..", "shared", "datasets")
MIB = 1048576.0
JUNE = 1496275200  # 2017-06-01 00:00 UTC


def row(day, bw, background, app="/bin/ior", nprocs=64, volume=6e11):
    """A TOKIO-ABC row: a write of `volume` bytes at bw (bytes/s), so over volume / bw s, while the servers also
    served background (bytes/s) of others' traffic; 10 OSTs."""
    window = volume / bw
    return {"_datetime_start": JUNE + day * 86400, "_datetime_end": JUNE + day * 86400 + window,
            "_file_system": "scratch9", "darshan_app": app, "darshan_nprocs": nprocs,
            "darshan_agg_perf_by_slowest_posix": bw / MIB, "darshan_tot_bytes_read_posix": 0,
            "darshan_tot_bytes_written_posix": volume, "fs_tot_bytes_read": 0,
            "fs_tot_bytes_written": volume + background * window, "fshealth_ost_count": 10, "fs_frac_missing": 0.0}


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def iosim(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=600)


class CalibrateTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="calibrate-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_tokio_summary_with_known_capacity(self):
        # A file system of C = 10 GB/s over 10 OSTs (1 GB/s each). Configuration A demands 6 GB/s; under a
        # background r it gets min(6, max(10 - r, 5)) GB/s (max-min, tokio_model.contention): r = 0 -> 6,
        # r = 4.1, 4.3, 4.5, 4.7, 4.9 -> 5.9, 5.7, 5.5, 5.3, 5.1. Configuration B gets 3 GB/s alone (twice).
        # q (tokio_rolling.choose_q: each job predicted by the q-quantile of the days before its own): A falls day by
        # day, so the lowest quantile of the grid predicts it best: q = 0.5 (B: exact for any q). The fit (C up
        # tokio_model's grid, the first with the lowest median APE of the 8 jobs) then has P_A = the median of A's 6 bandwidths = (5.7 + 5.5) / 2 = 5.6, and C = 10^10: there
        # min(5.6, 10 - r) is exact for r = 4.5, 4.7, 4.9, and B (P = 3) for both runs: 5 of 8 exact, median APE 0;
        # every smaller C of the grid misses those 3 slowed jobs (10 - r differs) and so has 4 or fewer exact jobs,
        # a median above 0. So: capacity 10 GB/s, per OST 1 GB/s, efficiencies 5.6 / 10 = 0.56 and 3 / 10 = 0.3.
        g = 1e9
        rows = [row(d, bw * g, r * g) for d, (bw, r) in enumerate([(6, 0), (5.9, 4.1), (5.7, 4.3), (5.5, 4.5),
                                                                   (5.3, 4.7), (5.1, 4.9)])]
        rows += [row(d, 3 * g, 0, app="/bin/vpicio_uni", nprocs=32) for d in range(2)]
        csv = os.path.join(self.tmp, "site-summaries.csv")
        pd.DataFrame(rows).to_csv(csv)  # with a leading index column, as Cori's and Edison's
        out = os.path.join(self.tmp, "cal.json")
        p = iosim("calibrate", "--tokio", csv, "--days", "30", "--stale-after", "10", "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        cal = read_json(out)
        self.assertEqual(cal["format"], "iosim-calibration/1")
        self.assertEqual(cal["source"]["kind"], "tokio-abc")
        self.assertEqual(cal["source"]["jobs"], 8)
        fs = cal["file_systems"][0]
        self.assertEqual((fs["fs"], fs["osts"], fs["jobs"]), ("scratch9", 10, 8))
        self.assertAlmostEqual(fs["capacity_Bps"] / 1e10, 1.0, places=12)
        self.assertAlmostEqual(fs["ost_capacity_Bps"] / 1e9, 1.0, places=12)
        # the rolling predictions' C (the largest of the tied capacities on tokio_rolling's grid): 10^10 too, as
        # every larger capacity of the grid (10^(10 + 1/30) = 10.8 GB/s and up) misses the 3 slowed jobs
        self.assertAlmostEqual(fs["rolling_capacity_Bps"] / 1e10, 1.0, places=12)
        self.assertLess(fs["fit_median_ape"], 1e-8)  # 0 but for the float noise of r = (server bytes - volume) / time
        eff = {c["app"]: c for c in fs["configurations"]}
        self.assertEqual(fs["q"], 0.5)
        self.assertAlmostEqual(eff["ior"]["efficiency"], 0.56, places=12)
        self.assertAlmostEqual(eff["ior"]["bandwidth_Bps"], 5.6e9, delta=1e-3)
        self.assertAlmostEqual(eff["vpicio_uni"]["efficiency"], 0.3, places=12)
        self.assertEqual((eff["ior"]["runs"], eff["vpicio_uni"]["runs"]), (6, 2))
        # window: ends with the newest measurement (A on day 5: 6e11 B at 5.1 GB/s, 117.6 s), 30 days back
        self.assertEqual(cal["window"]["newest_measurement"], "2017-06-06T00:01:57Z")
        self.assertEqual(cal["window"]["first_measurement"], "2017-06-01T00:00:00Z")
        self.assertEqual(cal["window"]["from"], "2017-05-07T00:01:57Z")
        self.assertEqual(cal["stale_after_days"], 10)
        # held-out: each job predicted from the days before its own, q chosen on the jobs before the split (the
        # middle day of the input: days 0 .. 5 + 117.6 s -> 00:00 of day 2) and scored from it on: A's days 2..5
        h = cal["held_out_error"]
        self.assertEqual(h["jobs"], 4)
        self.assertEqual(h["split"], "2017-06-03T00:00:00Z")
        self.assertTrue(0 <= h["p25"] <= h["median_ape"] <= h["p75"] <= h["p90"])
        # an --until before every measurement: exit 2 naming the window
        p = iosim("calibrate", "--tokio", csv, "--until", "2017-01-01", "-o", out)
        self.assertEqual(p.returncode, 2)
        self.assertIn("no measured job in the window", p.stderr)

    def test_interference_chosen_with_its_kappa(self):
        # One file system of 10 OSTs where every job's bandwidth is exactly the engine's interference share with
        # K0 = tokio_rolling.CAPACITIES[10] = 10^(9 + 10/30) = 2.1544 GB/s and no capacity limit:
        # bw = P0 / (1 + r / K0), P0 = 10 GB/s. ior on days 0..5 (00:00) under r = 0.5, 0.4, 0.3, 0.2, 0.1, 0 x K0:
        # 10 / 1.5, 10 / 1.4, 10 / 1.3, 10 / 1.2, 10 / 1.1, 10 GB/s (rising); vpicio at 50 GB/s alone (r = 0) on days
        # 0, 1, 2 at 12:00.
        # - q (tokio_rolling.choose_q, every job up to UNTIL): the predicted jobs are ior's days 1..5 and vpicio's
        #   days 1, 2 (7). With q = 1 (the previous maximum) ior's errors are 1 - 1.4/1.5 = 1/15, 1/14, 1/13, 1/12,
        #   1/11 and vpicio's 0, 0: the median (4th) is 1/14; any q < 1 predicts ior's days 2..5 lower, so each of
        #   those errors is larger and the 4th is above 1/14: q = 1.
        # - C on the window (tokio_rolling.fit_capacity, 9 jobs, median = 5th): a C of 50 GB/s or more leaves every
        #   prediction at its P (10 and 50): 4 exact jobs (ior's last, vpicio's three), the 5th error 0.1 (ior's day 4,
        #   1.1 - 1); below 45 GB/s vpicio's three errors pass 0.1 and ior's slowed jobs cannot give 5 errors under
        #   0.1 with one C (e.g. 9.26 GB/s: 0.005, 0.06, 0.074, 0.12, 0.18, ...): the tie keeps the largest, 10 TB/s.
        # - K (tokio_rolling.window_interference "all", at P = 10 and 50 GB/s, C = 10 TB/s): K0 makes every job exact
        #   (median 0); +inf leaves the five slowed ior jobs wrong and any other K all five too: 5 of 9 wrong, a
        #   median above 0. So K = K0, kappa per OST K0 / 10.
        # - The choice (tokio_rolling.choose_interference on the same past, q = 1): ior's days 1, 2 and vpicio's 1, 2
        #   are predicted before any fit (their windows hold 4 jobs or fewer), identically: 1/15, 1/14, 0, 0; ior's
        #   days 3, 4, 5 are predicted at most at their P (7.69, 8.33, 9.09 GB/s) by both, errors >= 1/13, 1/12,
        #   1/11. Both medians (the 4th of 7) are 1/14: a tie, and the rule takes interference at or below max-min.
        # - Held out: the split is 00:00 of day 2 (the middle of days 0 .. 5); before it only ior's and vpicio's day 1
        #   are predicted, identically (no fit): a tie again, interference.
        g = 1e9
        k0 = 10 ** (9 + 10 / 30)
        rows = [row(d, 10 * g / (1 + f), f * k0) for d, f in enumerate([0.5, 0.4, 0.3, 0.2, 0.1, 0])]
        for d in range(3):
            r = row(d, 50 * g, 0, app="/bin/vpicio_uni", nprocs=32)
            r["_datetime_start"] += 43200
            r["_datetime_end"] += 43200
            rows.append(r)
        csv = os.path.join(self.tmp, "site-summaries.csv")
        pd.DataFrame(rows).to_csv(csv)
        out = os.path.join(self.tmp, "cal.json")
        p = iosim("calibrate", "--tokio", csv, "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        cal = read_json(out)
        fs = cal["file_systems"][0]
        self.assertEqual(fs["q"], 1.0)
        self.assertAlmostEqual(fs["rolling_capacity_Bps"] / 1e13, 1.0, places=12)
        sh = fs["sharing"]
        self.assertEqual((sh["policy"], sh["variant"]), ("interference", "all"))
        self.assertAlmostEqual(sh["interference_capacity_Bps"] / k0, 1.0, places=12)
        self.assertAlmostEqual(sh["kappa_per_ost_Bps"] / (k0 / 10), 1.0, places=12)
        self.assertAlmostEqual(sh["past_median_ape"]["maxmin"], 1 / 14, places=9)
        self.assertAlmostEqual(sh["past_median_ape"]["interference"], 1 / 14, places=9)
        self.assertIn("Interference sharing, calibrated on the window", sh["rule"])
        self.assertIn("sharing interference (K 2.15 GB/s, kappa 0.215 GB/s per OST)", p.stdout)
        h = cal["held_out_error"]
        self.assertEqual(h["split"], "2017-06-03T00:00:00Z")
        self.assertEqual(h["per_file_system"][0]["sharing"], "interference")
        self.assertIn("scratch9 interference", h["method"])

    def test_contention_gate_recorded(self):
        # ior at 6 GB/s on days 0..9, no other traffic (server bytes = its own): the previous background is 0, so
        # the contention term never binds, every window job's vote is a tie, no day counts: 0 for, 0 against, p = 1,
        # C not kept (tokio_rolling.gate_for_window, "record"). Without --gate the file records it, not applied, with
        # the fitted C the predictions use (10 TB/s: every C >= 6 GB/s is exact, the largest of the grid kept); with
        # --gate record it is applied: C none. Every prediction is 6 GB/s either way: held-out median APE 0.
        csv = os.path.join(self.tmp, "site-summaries.csv")
        pd.DataFrame([row(d, 6e9, 0) for d in range(10)]).to_csv(csv)
        cals = {}
        for gate in (None, "record"):
            out = os.path.join(self.tmp, f"cal-{gate}.json")
            p = iosim("calibrate", "--tokio", csv, "-o", out, *(["--gate", gate] if gate else []))
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("contention gate drops C (days 0 for, 0 against, p 1", p.stdout)
            cals[gate] = read_json(out)
        g0 = cals[None]["file_systems"][0]["contention_gate"]
        self.assertEqual((g0["days_for"], g0["days_against"], g0["p_value"], g0["kept"], g0["applied"], g0["level"]),
                         (0, 0, 1.0, False, False, 0.05))
        self.assertAlmostEqual(g0["capacity_Bps"] / 1e13, 1.0, places=12)
        self.assertEqual(g0["capacity_Bps"], cals[None]["file_systems"][0]["rolling_capacity_Bps"])
        g1 = cals["record"]["file_systems"][0]["contention_gate"]
        self.assertEqual((g1["kept"], g1["applied"], g1["capacity_Bps"]), (False, True, None))
        self.assertIn("contention gate: record", cals["record"]["held_out_error"]["method"])
        self.assertIn("contention gate: none", cals[None]["held_out_error"]["method"])
        for c in cals.values():
            self.assertEqual(c["held_out_error"]["median_ape"], 0.0)
        # no background (r = 0 on every job): the interference share min(P, max(C, C / 2)) does not depend on K, so
        # every K ties and K = +inf (null) is kept; on the past both models predict alike (median APE 0 each), so
        # interference is chosen but has nothing to apply: max-min, the per-OST kappa null. With --gate the gate
        # applies with max-min only: max-min, and the held-out error's sharing too.
        for gate, c in cals.items():
            sh = c["file_systems"][0]["sharing"]
            self.assertEqual((sh["policy"], sh["interference_capacity_Bps"], sh["kappa_per_ost_Bps"]),
                             ("maxmin", None, None))
            self.assertEqual(sh["past_median_ape"], {"maxmin": 0.0, "interference": 0.0})
            self.assertIn("nothing to apply" if gate is None else "--gate record applies with max-min only",
                          sh["rule"])
        self.assertIn("sharing maxmin", p.stdout)
        self.assertIn("sharing max-min on every file system", cals["record"]["held_out_error"]["method"])
        self.assertEqual(cals["record"]["held_out_error"]["per_file_system"][0]["sharing"], "maxmin")
        p = iosim("calibrate", "--tokio", csv, "--gate", "both", "-o", os.path.join(self.tmp, "x.json"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("--gate", p.stderr)

    def test_adaptive_window_history_starts_at_the_step(self):
        # ior on days 0..23, no other traffic: 12 runs at 6 GB/s x 0.95, 1, 1.05 (5.7, 6, 6.3, ...), then 12 at 3
        # GB/s. The adaptive window (k = 3, m = 5; tokio_rolling.level_segments): after the 15th run the recent
        # window (days 10..14: 6, 6.3, 3, 3, 3, median 3) is |ln 0.5| = 0.69 from the reference's median (6) against
        # 3 x MAD = 3 x ln 1.05 = 0.146: a shift, the segment restarting at day 12 (the first run closer to ln 3);
        # the 3 GB/s runs after it never shift again. So the file's P of ior is 3 GB/s for any q (its segment holds
        # only 3 GB/s runs) and its history starts at day 12 (2017-06-13T00:00:00Z); the fixed 30-day window
        # starts at day 0 and mixes both levels (its 0.5-quantile (3 + 5.7) / 2 = 4.35 GB/s, every higher q more).
        g = 1e9
        bws = [6 * g * (0.95, 1.0, 1.05)[d % 3] for d in range(12)] + [3 * g] * 12
        csv = os.path.join(self.tmp, "site-summaries.csv")
        pd.DataFrame([row(d, bw, 0) for d, bw in enumerate(bws)]).to_csv(csv)
        cals = {}
        for w in ("fixed", "adaptive"):
            out = os.path.join(self.tmp, f"cal-{w}.json")
            p = iosim("calibrate", "--tokio", csv, "--window", w, "-o", out)
            self.assertEqual(p.returncode, 0, p.stderr)
            cals[w] = read_json(out)
        fa, ff = cals["adaptive"]["file_systems"][0], cals["fixed"]["file_systems"][0]
        self.assertEqual(fa["p_window"], {"rule": "adaptive", "k": 3.0, "m": 5})
        self.assertEqual(ff["p_window"], "fixed")
        ca, cf = fa["configurations"][0], ff["configurations"][0]
        self.assertEqual(ca["history_start"], "2017-06-13T00:00:00Z")
        self.assertEqual(cf["history_start"], "2017-06-01T00:00:00Z")
        self.assertAlmostEqual(ca["bandwidth_Bps"] / 3e9, 1.0, places=9)
        self.assertGreater(cf["bandwidth_Bps"], 3.05e9)
        self.assertIn("P window: adaptive", cals["adaptive"]["held_out_error"]["method"])
        # the adaptive window was declared and scored with max-min: its file says so whatever the past chose
        self.assertEqual(fa["sharing"]["policy"], "maxmin")
        self.assertIn("--window adaptive", fa["sharing"]["rule"])
        self.assertIn("sharing max-min on every file system", cals["adaptive"]["held_out_error"]["method"])
        self.assertIn("P window: 30 days", cals["fixed"]["held_out_error"]["method"])
        # the staleness rule reads the same window fields either way
        self.assertEqual(cals["adaptive"]["window"], cals["fixed"]["window"])
        # Darshan logs: no adaptive window (exit 2 naming the option)
        p = iosim("calibrate", "--darshan", os.path.join(DATA, "darshan-logs"), "--window", "adaptive", "-o",
                  os.path.join(self.tmp, "x.json"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("--window adaptive", p.stderr)

    def test_darshan_directory(self):
        # docs/darshan.md's table: sample (24 OSTs) 24535.282 MiB/s, sample-goodost (24 OSTs) 13066.344 MiB/s,
        # sample-badost (24 OSTs) 673.292 MiB/s: the per-OST capacity is the largest bandwidth per OST,
        # 24535.282 / 24 MiB/s; goodost's efficiency 13066.344 / 24535.282 = 0.53255
        logs = os.path.join(DATA, "darshan-logs")
        self.assertTrue(os.path.isdir(logs), f"{logs}: the sample Darshan logs are missing (make data)")
        out = os.path.join(self.tmp, "cal.json")
        p = iosim("calibrate", "--darshan", logs, "--days", "100000", "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        cal = read_json(out)
        self.assertEqual(cal["source"]["kind"], "darshan")
        self.assertEqual(len(cal["source"]["paths"]), 6)
        fs = {f["fs"]: f for f in cal["file_systems"]}["lustre-24-osts"]
        self.assertAlmostEqual(fs["ost_capacity_Bps"] / (24535.282 * MIB / 24), 1.0, delta=1e-7)
        eff = {c["key"].split("/")[4]: c["efficiency"] for c in fs["configurations"]}
        self.assertAlmostEqual(eff["48"], 13066.344 / 24535.282, delta=1e-7)
        self.assertEqual(cal["window"]["first_measurement"][:10], "2017-03-20")
        # no background in Darshan logs: max-min, saying why
        self.assertEqual(fs["sharing"]["policy"], "maxmin")
        self.assertIn("no background in Darshan logs", fs["sharing"]["rule"])
        self.assertEqual(os.listdir(self.tmp), ["cal.json"])  # the logs' table was removed

    def test_bad_input(self):
        p = iosim("calibrate", "--darshan")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--darshan", p.stderr)
        p = iosim("calibrate", "--darshan", os.path.join(self.tmp, "none.darshan"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("none.darshan", p.stderr)
        p = iosim("calibrate", "--tokio", os.path.join(self.tmp, "none.csv"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("none.csv", p.stderr)

    def corrupt_logs(self):
        """A folder with the sample log sample-goodost.darshan and a corrupt log (bad.darshan: 100 bytes of text)."""
        d = os.path.join(self.tmp, "logs")
        os.makedirs(d)
        shutil.copy(os.path.join(DATA, "darshan-logs", "sample-goodost.darshan"), d)
        with open(os.path.join(d, "bad.darshan"), "w") as f:
            f.write("not a darshan log " * 5 + "\n")
        return d

    def test_command_line_checked_before_any_log(self):
        # every bad command line: exit 2, iosim's own usage text, the flag named, no log read (the corrupt log of
        # the folder would be listed as refused if it had been) and nothing written in the work folder
        logs = self.corrupt_logs()
        out = os.path.join(self.tmp, "res", "cal.json")
        cases = [(["--darshan", logs, "--bogus"], "unknown option '--bogus'"),
                 (["--darshan", logs, "--days", "0"], "--days: '0' is not a positive number of days"),
                 (["--darshan", logs, "--days", "x"], "--days: 'x' is not a positive number of days"),
                 (["--darshan", logs, "--until", "2018-13-45"], "--until: '2018-13-45' is not a date"),
                 (["--darshan", logs, "--stale-after", "-3"], "--stale-after: '-3' is not a positive number"),
                 (["--darshan", logs, "--window", "adaptive"], "--window adaptive applies to TOKIO-ABC summaries"),
                 (["--darshan", logs, "--gate", "fit"], "--gate fit applies to TOKIO-ABC summaries"),
                 (["--darshan", logs, "--split", "2018-01-01"], "--split 2018-01-01 applies to TOKIO-ABC summaries"),
                 (["--tokio", os.path.join(self.tmp, "none.csv")], "none.csv' is not a readable file"),
                 (["--tokio", os.path.join(logs, "bad.darshan"), "--gate", "both"],
                  "--gate: 'both' is not one of none, record, fit"),
                 (["--darshan", logs, "--platform", os.path.join(self.tmp, "none.xml")], "none.xml' is not a "
                  "readable file"),
                 (["--darshan", logs, "-o", self.tmp], "is a folder or empty"),
                 (["--darshan", logs, "--fs", ""], "--fs: is empty"),
                 (["--darshan", logs, "extra"], "unexpected argument 'extra'"),
                 (["--darshan", logs, "--tokio", logs], "one of them"),
                 (["--skip-bad"], "one of them"),
                 ([], "one of them")]
        for args, message in cases:
            with self.subTest(args=args):
                p = iosim("calibrate", *args, *([] if "-o" in args else ["-o", out]))
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(message, p.stderr)
                self.assertIn("usage: iosim calibrate --tokio", p.stderr)
                self.assertNotIn("usage: calibrate.py", p.stderr)  # not the Python script's argparse text
                self.assertNotIn("bad.darshan", p.stderr)
                self.assertEqual(sorted(os.listdir(self.tmp)), ["logs"])

    def test_corrupt_log_names_calibrates_flag(self):
        # one readable log and one corrupt: refused (exit 2) naming --skip-bad, a flag calibrate has, and no other
        # command's; nothing written, no folder made. With --skip-bad the corrupt one is listed as skipped and the
        # readable one calibrated (sample-goodost: 51539609136 B in 3.761726 s over 24 OSTs, docs/darshan.md's
        # 13066.344 MiB/s: c = 13066.344 / 24 MiB/s)
        logs = self.corrupt_logs()
        out = os.path.join(self.tmp, "res", "sub", "cal.json")
        p = iosim("calibrate", "--darshan", logs, "--days", "100000", "-o", out)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("iosim: refused:", p.stderr)
        self.assertIn("bad.darshan", p.stderr)
        self.assertIn("1 of 2 Darshan logs refused", p.stderr)
        self.assertIn("fix or remove them, or calibrate on the others: --skip-bad", p.stderr)
        self.assertNotIn("iosim run", p.stderr)
        self.assertNotIn("skip_bad", p.stderr)
        self.assertEqual(sorted(os.listdir(self.tmp)), ["logs"])
        p = iosim("calibrate", "--darshan", logs, "--days", "100000", "--skip-bad", "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("iosim: skipped:", p.stderr)
        self.assertIn("skipped 1 of 2 Darshan logs", p.stderr)
        cal = read_json(out)
        fs = cal["file_systems"][0]
        self.assertEqual((fs["fs"], fs["jobs"]), ("lustre-24-osts", 1))
        self.assertAlmostEqual(fs["ost_capacity_Bps"] / (13066.344 * MIB / 24), 1.0, delta=1e-6)
        self.assertEqual(sorted(os.listdir(os.path.dirname(out))), ["cal.json"])  # no temporary file left

    def test_failed_fit_leaves_nothing(self):
        # the command line is fine but the fit fails (a window before every measurement): exit 2, and neither the
        # output file nor the folders -o names exist afterwards
        csv = os.path.join(self.tmp, "site-summaries.csv")
        pd.DataFrame([row(d, 6e9, 0) for d in range(3)]).to_csv(csv)
        out = os.path.join(self.tmp, "a", "b", "cal.json")
        p = iosim("calibrate", "--tokio", csv, "--until", "2017-01-01", "-o", out)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("no measured job in the window", p.stderr)
        self.assertEqual(sorted(os.listdir(self.tmp)), ["site-summaries.csv"])

    def test_platform_and_file_system_recorded(self):
        # --platform records the file and the FNV-1a 64 fingerprint of its bytes (computed here by hand from the
        # algorithm: xor each byte, multiply by 0x100000001b3 mod 2^64, from 0xcbf29ce484222325); --fs keeps one
        # file system (lustre-24-osts: sample, sample-badost, sample-goodost)
        xml = os.path.join(ROOT, "test", "fixtures", "site-64n-8ost.xml")
        h = 0xcbf29ce484222325
        with open(xml, "rb") as f:
            for b in f.read():
                h = ((h ^ b) * 0x100000001b3) % 2**64
        out = os.path.join(self.tmp, "cal.json")
        p = iosim("calibrate", "--darshan", os.path.join(DATA, "darshan-logs"), "--days", "100000", "--fs",
                  "lustre-24-osts", "--platform", xml, "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        cal = read_json(out)
        self.assertEqual(cal["platform"], {"file": xml, "fingerprint": f"fnv1a64:{h:016x}"})
        self.assertEqual([f["fs"] for f in cal["file_systems"]], ["lustre-24-osts"])
        self.assertEqual(cal["window"]["jobs"], 3)
        self.assertIn(f"for the platform {xml}", p.stdout)
        p = iosim("calibrate", "--darshan", os.path.join(DATA, "darshan-logs"), "--fs", "scratch", "-o", out)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--fs scratch: no job of that file system; fix: one of fs, lustre-24-osts, lustre-248-osts",
                      p.stderr)
        # without --platform: null
        p = iosim("calibrate", "--darshan", os.path.join(DATA, "darshan-logs"), "--days", "100000", "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIsNone(read_json(out)["platform"])

    def write_cal(self, newest, stale_after=30):
        path = os.path.join(self.tmp, f"cal-{len(os.listdir(self.tmp))}.json")
        with open(path, "w") as f:
            json.dump({"format": "iosim-calibration/1", "window": {"newest_measurement": newest},
                       "stale_after_days": stale_after,  # one file system's per-OST capacity: a run applies it
                       "file_systems": [{"system": "s", "fs": "f", "ost_capacity_Bps": 1e9}]}, f)
        return path

    def test_check_says_when_the_calibration_is_stale(self):
        scenario = os.path.join(ROOT, "deploy", "tappio-ior.json")  # a platform with OSTs (the calibration applies)
        old = self.write_cal("2017-11-30T02:22:46Z")
        p = iosim("check", scenario, "--set", f"calibration={old}")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("is stale", p.stderr)
        self.assertIn("2017-11-30T02:22:46Z", p.stderr)
        # newest measurement 2 days ago, stale after 30 days: fresh, its age printed (2.0 days, give or take the
        # seconds between writing the file and the check)
        two_days = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
        fresh = self.write_cal(two_days)
        p = iosim("check", scenario, "--set", f"calibration={fresh}")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("stale:", p.stderr)
        self.assertIn("2.0 days old", p.stdout)
        # stale after 1 day: the same file is stale
        p = iosim("check", scenario, "--set", f"calibration={self.write_cal(two_days, 1)}")
        self.assertIn("is stale", p.stderr)
        # not a calibration file: exit 2 naming the field
        p = iosim("check", scenario, "--set", f"calibration={scenario}")
        self.assertEqual(p.returncode, 2)
        self.assertIn("format", p.stderr)
        bad = self.write_cal("June 2017")
        p = iosim("check", scenario, "--set", f"calibration={bad}")
        self.assertEqual(p.returncode, 2)
        self.assertIn("window.newest_measurement", p.stderr)


class WhatifBandTest(unittest.TestCase):
    def test_band_by_hand(self):
        # P = 6 GB/s on 24 OSTs -> 9 GB/s on 36; p75 APE 0.125 -> [9 / 1.125, 9 / 0.875] = [8.00, 10.29]; p90 APE
        # 1.5 -> [3.60, inf]; the same configuration on scratch3: 8.5 GB/s
        cal = {"format": "iosim-calibration/1",
               "window": {"first_measurement": "a", "newest_measurement": "b"},
               "file_systems": [{"fs": "s1", "osts": 24, "configurations": [{"key": "x/s1/ior", "bandwidth_Bps": 6e9}]},
                                {"fs": "s3", "osts": 36, "configurations": [{"key": "x/s3/ior",
                                                                             "bandwidth_Bps": 8.5e9}]}],
               "held_out_error": {"per_file_system": [{"fs": "s1", "p75": 0.125, "p90": 1.5, "median_ape": 0.05,
                                                       "jobs": 10}]}}
        rows, e, n0 = whatif_band.answer(cal, "s1", 36, "", "s3")
        self.assertEqual(n0, 24)
        self.assertEqual(rows, [["x/s1/ior", "6.00", "9.00", "8.00 .. 10.29", "3.60 .. inf", "8.50"]])
        with self.assertRaises(whatif_band.InputError):
            whatif_band.answer(cal, "s9", 36)


if __name__ == "__main__":
    unittest.main()
