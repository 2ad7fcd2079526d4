"""Tests of analysis/rr9549.py (RR-9549 Figures 5-9, IPDPS'21 Figures 2-3) on hand-made runs.csv files.

RR-9549 system: target Θ 0.5 (seeds 1, 2) and 0.1 (seed 3); allocations nsys, bba (each with gc, gnc, random), tcpu
and mckp (gnc only); a failed run (left out) and seed 4 with no nsys run (left out: no I/O-load(π_sys)).
I/O-load(π_sys) = io_load of the nsys run: seed 1 0.50, seed 2 0.52 (bin [0.4, 0.6) of width 0.2, both within
0.5 ± 0.05), seed 3 0.10 (bin [0, 0.2)); the other allocations' io_load (1.5, 0.9, 0.7) must not be used.
Mean-I/O-SlowDown (gc / gnc / random):  seed 1 bba 2.0 / 2.1 / 3.0, nsys 1.5 / 1.5 / 1.5;
                                        seed 2 bba 4.0 / 4.0 / 5.0, nsys 1.7 / 1.7 / 2.55;
                                        seed 3 bba 1.0 / 1.0 / 1.1, nsys 1.2 / 1.2 / 1.2;
  tcpu gnc 1.2 / 1.8 / 1.1, mckp gnc 5 / 7 / 3 (seeds 1 / 2 / 3).
So in bin 0.4: GNC vs GC for bba +5 % and 0 % (mean 2.5 %, p10 0.5, p90 4.5), RandP vs GC bba +50 % and +25 %
(mean 37.5 %), nsys RandP 0 % and +50 %. GNC means: tcpu 1.5 < nsys 1.6 < bba 3.05 < mckp 6.
I/O-spread with bba (gc / gnc / random): seed 1 0.2 / 0.5 / 0.9, seed 2 0.4 / 0.5 / 0.7: gc mean 0.3, 95 % CI
half-width 1.96 · 0.1414 / √2 = 0.196.
Machine-Idletime with gnc: bba 0.30 / 0.40 / 0.10, tcpu 0.20 / 0.45 / 0.10: in bin 0.4, TA / BBA = 0.325 / 0.35,
TA lower on 1 set of 2.

IPDPS'21 system: F 8 and 16, seeds 1 and 2, aggregated bandwidths (GB/s):
  F 8:  static-ceil 2 / 4, static-ceil+points 1.5 / 4, mckp 6 / 8, oracle 8 / 10, zero 4 / 5, one 1 / 2
  F 16: static-ceil 3 / 5,                            mckp 8 / 10, oracle 8 / 10, zero 4 / 5, one 1 / 2
MCKP / STATIC: F 8: 3, 2 (median 2.5); F 16: 8/3, 2 (median 7/3); mean of all four 29/12.
MCKP / STATIC+points at F 8: 4, 2 (median 3). ORACLE / ZERO at F 16: 2, 2. ONE / ZERO at F 16: 0.25, 0.4.
"""

import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import rr9549  # noqa: E402
from mdtables import md_rows, row  # noqa: E402

RR_HEADER = ("run_id,index,workload.generator.io_load,allocation.policy,placement.policy,seed,status,wall_time_s,error,"
             "io_load,mean_io_slowdown,mean_rho_io,mean_rho_con,io_spread,machine_idle_time")
# (theta, allocation, placement, seed, status, io_load, msd, spread, idle)
RR_ROWS = [
    (0.5, "nsys", "gc", 1, "stopped_at_window_end", 0.50, 1.5, 0.6, 0.5),
    (0.5, "nsys", "gnc", 1, "stopped_at_window_end", 0.50, 1.5, 0.6, 0.5),
    (0.5, "nsys", "random", 1, "stopped_at_window_end", 0.50, 1.5, 0.8, 0.5),
    (0.5, "bba", "gc", 1, "complete", 1.5, 2.0, 0.2, 0.3),
    (0.5, "bba", "gnc", 1, "complete", 1.5, 2.1, 0.5, 0.30),
    (0.5, "bba", "random", 1, "complete", 1.5, 3.0, 0.9, 0.3),
    (0.5, "tcpu", "gnc", 1, "complete", 0.9, 1.2, 0.4, 0.20),
    (0.5, "mckp", "gnc", 1, "complete", 0.7, 5.0, 0.3, 0.6),
    (0.5, "nsys", "gc", 2, "complete", 0.52, 1.7, 0.6, 0.5),
    (0.5, "nsys", "gnc", 2, "complete", 0.52, 1.7, 0.6, 0.5),
    (0.5, "nsys", "random", 2, "complete", 0.52, 2.55, 0.8, 0.5),
    (0.5, "bba", "gc", 2, "complete", 1.5, 4.0, 0.4, 0.4),
    (0.5, "bba", "gnc", 2, "complete", 1.5, 4.0, 0.5, 0.40),
    (0.5, "bba", "random", 2, "complete", 1.5, 5.0, 0.7, 0.4),
    (0.5, "tcpu", "gnc", 2, "complete", 0.9, 1.8, 0.4, 0.45),
    (0.5, "mckp", "gnc", 2, "complete", 0.7, 7.0, 0.3, 0.6),
    (0.1, "nsys", "gc", 3, "complete", 0.10, 1.2, 0.1, 0.1),
    (0.1, "nsys", "gnc", 3, "complete", 0.10, 1.2, 0.1, 0.1),
    (0.1, "nsys", "random", 3, "complete", 0.10, 1.2, 0.1, 0.1),
    (0.1, "bba", "gc", 3, "complete", 0.3, 1.0, 0.1, 0.10),
    (0.1, "bba", "gnc", 3, "complete", 0.3, 1.0, 0.1, 0.10),
    (0.1, "bba", "random", 3, "complete", 0.3, 1.1, 0.1, 0.1),
    (0.1, "tcpu", "gnc", 3, "complete", 0.3, 1.1, 0.1, 0.10),
    (0.1, "mckp", "gnc", 3, "complete", 0.2, 3.0, 0.1, 0.2),
    (0.5, "bba", "gnc", 4, "complete", 1.5, 9.0, 0.5, 0.9),  # no nsys run for seed 4
    (0.5, "tcpu", "gc", 1, "failed", "", "", "", ""),
]

IP_HEADER = "run_id,index,platform.ionodes,allocation,seed,status,wall_time_s,error,aggregate_bandwidth_Bps"
IP_BW = {  # (F, policy object) -> (seed 1, seed 2) in GB/s
    (8, '{"policy":"static-ceil"}'): (2, 4),
    (8, '{"policy":"static-ceil","points":1}'): (1.5, 4),
    (8, '{"policy":"mckp"}'): (6, 8),
    (8, '{"policy":"oracle"}'): (8, 10),
    (8, '{"policy":"zero"}'): (4, 5),
    (8, '{"policy":"one"}'): (1, 2),
    (16, '{"policy":"static-ceil"}'): (3, 5),
    (16, '{"policy":"mckp"}'): (8, 10),
    (16, '{"policy":"oracle"}'): (8, 10),
    (16, '{"policy":"zero"}'): (4, 5),
    (16, '{"policy":"one"}'): (1, 2),
}


def write_rr(d):
    with open(os.path.join(d, "runs.csv"), "w") as f:
        f.write(RR_HEADER + "\n")
        for i, (th, a, p, seed, st, load, msd, sp, idle) in enumerate(RR_ROWS):
            rio = "" if msd == "" else 1.0
            rcon = "" if msd == "" else msd - 1.0
            f.write(f"id{i},{i},{th},{a},{p},{seed},{st},0.1,,{load},{msd},{rio},{rcon},{sp},{idle}\n")


def write_ip(d):
    with open(os.path.join(d, "runs.csv"), "w") as f:
        f.write(IP_HEADER + "\n")
        i = 0
        for (F, pol), vals in IP_BW.items():
            for seed, v in zip((1, 2), vals):
                q = '"' + pol.replace('"', '""') + '"'
                f.write(f"id{i},{i},{F},{q},{seed},complete,0.1,,{v * 1e9}\n")
                i += 1
        f.write(f"id{i},{i},16,\"{{\"\"policy\"\":\"\"mckp\"\"}}\",3,failed,0.1,boom,\n")


class RR9549Test(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        write_rr(self.dir)
        df, swept = rr9549.load(self.dir)
        self.d = rr9549.rr_prepare(df, swept)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_x_is_the_nsys_io_load(self):
        self.assertEqual(rr9549.guess_kind(rr9549.load(self.dir)[1]), "rr9549")
        self.assertEqual(self.d["instance"].nunique(), 3)  # seed 4 (no nsys run) and the failed run are left out
        x = self.d.groupby("seed")["load_sys"].first()
        self.assertAlmostEqual(x[1], 0.50)
        self.assertAlmostEqual(x[2], 0.52)
        self.assertAlmostEqual(x[3], 0.10)
        self.assertEqual(list(rr9549.bin_left([0.1, 0.5, 0.52, 0.6, 0.3], 0.2)), [0.0, 0.4, 0.4, 0.6, 0.2])

    def test_fig5_placement_ratio_to_gc(self):
        _, s = rr9549.placement_ratio(self.d, 0.2)
        s = s.set_index(["placement.policy", "allocation.policy", "bin"])
        g = s.loc[("gnc", "bba", 0.4)]
        self.assertEqual(g["n"], 2)
        self.assertAlmostEqual(g["mean"], 2.5)  # +5 % and 0 %
        self.assertAlmostEqual(g["p10"], 0.5)
        self.assertAlmostEqual(g["p90"], 4.5)
        self.assertAlmostEqual(s.loc[("random", "bba", 0.4), "mean"], 37.5)  # +50 % and +25 %
        self.assertAlmostEqual(s.loc[("random", "nsys", 0.4), "mean"], 25.0)  # 0 % and +50 %
        self.assertAlmostEqual(s.loc[("random", "bba", 0.0), "mean"], 10.0)  # 1.1 / 1.0
        self.assertNotIn("mckp", set(s.reset_index()["allocation.policy"]))  # no gc run to compare with

    def test_fig6_fig7_spread(self):
        t, q = rr9549.spread_at(self.d, 0.5, 0.05)
        self.assertEqual(q["instance"].nunique(), 2)  # seeds 1 and 2
        t = t.set_index(["allocation.policy", "placement.policy"])
        self.assertAlmostEqual(t.loc[("bba", "gc"), "mean"], 0.3)
        self.assertAlmostEqual(t.loc[("bba", "random"), "median"], 0.8)
        s = rr9549.spread_by_placement(self.d, 0.2).set_index(["placement.policy", "bin"])
        self.assertAlmostEqual(s.loc[("gc", 0.4), "mean"], 0.3)
        self.assertAlmostEqual(s.loc[("gc", 0.4), "ci95"], 1.96 * 0.1, places=9)  # sd 0.1·√2, / √2
        self.assertAlmostEqual(s.loc[("gnc", 0.4), "ci95"], 0.0)

    def test_fig8_fig9_and_findings(self):
        t = rr9549.metric_by_bin(self.d, "mean_io_slowdown", 0.2).set_index(["allocation.policy", "bin"])
        self.assertAlmostEqual(t.loc[("bba", 0.4), "mean"], 3.05)
        self.assertAlmostEqual(t.loc[("mckp", 0.4), "mean"], 6.0)
        self.assertAlmostEqual(t.loc[("tcpu", 0.0), "mean"], 1.1)
        c = rr9549.metric_by_bin(self.d, "mean_rho_con", 0.2).set_index(["allocation.policy", "bin"])
        self.assertAlmostEqual(c.loc[("bba", 0.4), "mean"], 2.05)
        f = rr9549.findings(self.d, 0.2).set_index("bin")
        self.assertEqual(f.loc[0.4, "best"], "tcpu")
        self.assertEqual(f.loc[0.4, "bba_rank"], 3)
        self.assertEqual(f.loc[0.4, "mckp_rank"], 4)
        self.assertEqual(f.loc[0.4, "sets"], 2)
        self.assertAlmostEqual(f.loc[0.4, "idle_ratio"], 0.325 / 0.35)
        self.assertAlmostEqual(f.loc[0.4, "tcpu_lower"], 0.5)
        self.assertEqual(f.loc[0.0, "best"], "bba")  # 1.0 < tcpu 1.1 < nsys 1.2 < mckp 3

    def test_report_writes_figures_and_tables(self):
        self.assertEqual(rr9549.main([self.dir]), 0)
        out = os.path.join(self.dir, "report")
        for name in ["rr9549_fig5_placement.png", "rr9549_fig6_spread.png", "rr9549_fig7_spread_bba.png",
                     "rr9549_fig8_slowdown.png", "rr9549_fig9_idle.png"]:
            with open(os.path.join(out, name), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", name)
        with open(os.path.join(out, "rr9549.md")) as f:
            md = f.read()
        self.assertIn("over 3 application sets", md)
        self.assertIn(row("| GNC | BBA | [0.4, 0.6) | 2 | +2.50 | [+0.50, +4.50] |"), md_rows(md))
        self.assertIn(row("| [0.4, 0.6) | 2 | TA (1.500) | 3.050 (3/4) | 1.500 (1/4) | 6.000 (4/4) | 0.929 | 50% |"), md_rows(md))

    def test_bad_input_exits_2(self):
        empty = tempfile.mkdtemp()
        try:
            self.assertEqual(rr9549.main([empty]), 2)  # no runs.csv
            with open(os.path.join(empty, "runs.csv"), "w") as f:
                f.write("run_id,index,sharing.policy,seed,status,error,min_yield\nx,0,fcfs,1,complete,,0.5\n")
            self.assertEqual(rr9549.main([empty]), 2)  # neither kind
            with open(os.path.join(empty, "runs.csv"), "w") as f:
                f.write(RR_HEADER + "\nx,0,0.5,bba,gnc,1,complete,0.1,,1,2,1,1,0.5,0.3\n")
            self.assertEqual(rr9549.main([empty]), 2)  # no nsys run
            self.assertEqual(rr9549.main([self.dir, "--bin", "0"]), 2)
        finally:
            shutil.rmtree(empty)


class Ipdps21Test(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        write_ip(self.dir)
        df, swept = rr9549.load(self.dir)
        self.assertEqual(rr9549.guess_kind(swept), "ipdps21")
        self.d = rr9549.ip_prepare(df, swept)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_policy_labels(self):
        self.assertEqual(rr9549.policy_label('{"policy":"static-ceil","points":1}'), "static-ceil+points")
        self.assertEqual(rr9549.policy_label('{"policy":"mckp","divisors":0}'), "mckp+divisors=0")
        self.assertEqual(rr9549.policy_label("best-bandwidth"), "bba")
        self.assertEqual(len(self.d), 22)  # the failed run is left out

    def test_median_bandwidth_and_ratios(self):
        t = rr9549.ip_bandwidth(self.d).set_index(["policy", "F"])
        self.assertAlmostEqual(t.loc[("mckp", 8), "median"], 7e9)
        self.assertAlmostEqual(t.loc[("static-ceil+points", 8), "min"], 1.5e9)
        r, s = rr9549.ip_ratio(self.d, "mckp", "static-ceil")
        s = s.set_index("F")
        self.assertAlmostEqual(s.loc[8, "median"], 2.5)
        self.assertAlmostEqual(s.loc[8, "min"], 2.0)
        self.assertAlmostEqual(s.loc[8, "max"], 3.0)
        self.assertAlmostEqual(s.loc[16, "median"], 7 / 3)
        self.assertAlmostEqual(s.loc[16, "below1"], 0.0)
        self.assertAlmostEqual(r["ratio"].mean(), 29 / 12)
        _, p = rr9549.ip_ratio(self.d, "mckp", "static-ceil+points")
        self.assertEqual(list(p["F"]), [8])
        self.assertAlmostEqual(p.set_index("F").loc[8, "median"], 3.0)

    def test_report(self):
        self.assertEqual(rr9549.main([self.dir]), 0)
        out = os.path.join(self.dir, "report")
        for name in ["ipdps21_fig2_bandwidth.png", "ipdps21_fig3_mckp_static.png"]:
            with open(os.path.join(out, name), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", name)
        with open(os.path.join(out, "ipdps21.md")) as f:
            md = f.read()
        self.assertIn(row("| 8 | 2 | 2.000 | 2.500 | 2.500 | 3.000 | 0% |"), md_rows(md))
        self.assertIn(row("| 16 | 4.500 | 1.500 | 4.000 |  | 9.000 | 9.000 |"), md_rows(md))  # zero one static (+points) mckp oracle
        self.assertIn("ORACLE / ZERO per set (F = 16, 2 sets): min 2.0000, median 2.0000, max 2.0000", md)
        self.assertIn("ONE / ZERO per set (F = 16, 2 sets): min 0.2500, median 0.3250, max 0.4000", md)
        self.assertIn("mean 2.417, min 2.000, median 2.333, max 3.000", md)


if __name__ == "__main__":
    unittest.main()
