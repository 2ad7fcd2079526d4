#!/usr/bin/env python3
"""iosim.results (python/iosim/results.py), the checked reader of a run's outputs, on hand-made files.

System: a results.json of a platform of capacity_Bps 1e10 (10 GB/s), an apps.csv of two jobs and a resources.csv of
two OSTs of 5e9 B/s, written by the test; then one value at a time made impossible.
Expectations (by hand):
- the valid files read as typed tables: nodes int64, io_time_s float64, an empty cell NaN, names str;
- refused (ResultError, an InputError: the commands exit 2), naming the file, the line, the column and "fix:": a
  non-finite value (nan, inf, 1e400), a negative time, a yield of 1.5, a bound_share of 1.2, an end before its
  start, a name given twice, a missing required column, an empty required cell, and a job's io_bandwidth_Bps above
  the platform's 1e10 B/s: 1.00001e10 at dates 0..10 s is refused; at dates 1.3e8 s with an I/O time of 4e-6 s the
  dates' rounding (2 x 4 x 2^-52 x 1.3e8 = 2.309e-7 s of the 4e-6 s) allows 4e-6 / (4e-6 - 2.309e-7) - 1 = 6.1 %:
  1.05e10 passes, 1.07e10 is refused;
- results.json: a NaN token, a negative metric time, a min_yield of 1.2, window.end_s before begin_s refused.

usage: test_results.py --source SRC --work DIR   (DIR is removed at the end)
"""
import argparse
import json
import os
import shutil
import sys
import unittest

ARGS = None
APPS_HEADER = "name,nodes,io_volume_bytes,io_time_s,work_time_s,yield,start_s,end_s,io_bandwidth_Bps,bound_share"
APPS_ROWS = ["a,2,1e10,2,5,1,0,7,5e9,1", "b,1,0,0,3,,0,3,,"]
RESULTS = {"status": "complete", "seed": 1, "wall_time_s": 0.1, "window": {"begin_s": 0, "end_s": 7, "busy_s": 7},
           "platform": {"compute_nodes": 4, "nic_bw_Bps": 1e10, "pool_role": "ost", "resources": 2,
                        "capacity_Bps": 1e10},
           "metrics": {"makespan_s": 7, "min_yield": 1, "mean_io_stretch": None, "total_io_time_s": 2}}


class Reader(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.environ.get("IOSIM_PYTHONPATH") or os.path.join(os.path.abspath(ARGS.source), "python"))
        from iosim import results  # noqa: E402
        cls.r = results
        cls.work = os.path.abspath(ARGS.work)
        shutil.rmtree(cls.work, ignore_errors=True)
        os.makedirs(cls.work)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def write_run(self, name, apps_rows=None, header=APPS_HEADER, results=None, results_text=None):
        d = os.path.join(self.work, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "apps.csv"), "w", encoding="utf-8") as f:
            f.write(header + "\n" + "\n".join(APPS_ROWS if apps_rows is None else apps_rows) + "\n")
        with open(os.path.join(d, "resources.csv"), "w", encoding="utf-8") as f:
            f.write("name,kind,capacity_Bps,busy_time_s,occupancy,bytes\nost0,ost,5e9,2,0.28,5e9\n"
                    "ost1,ost,5e9,2,0.28,5e9\n")
        with open(os.path.join(d, "results.json"), "w", encoding="utf-8") as f:
            f.write(results_text if results_text is not None else json.dumps(results or RESULTS))
        return d

    def refused(self, d, *words):
        with self.assertRaises(self.r.ResultError) as cm:
            self.r.read_run(d)
        msg = str(cm.exception)
        for w in words:
            self.assertIn(w, msg)
        self.assertIn("fix:", msg)
        return msg

    def test_valid_run_typed(self):
        run = self.r.read_run(self.write_run("ok"))
        self.assertEqual(str(run.apps["nodes"].dtype), "int64")
        self.assertEqual(str(run.apps["io_time_s"].dtype), "float64")
        self.assertEqual(list(run.apps["name"]), ["a", "b"])
        self.assertTrue(run.apps["yield"].isna()[1])
        self.assertEqual(run.capacity_Bps, 1e10)
        self.assertEqual(list(run.resources["capacity_Bps"]), [5e9, 5e9])
        self.assertIsNone(run.results["metrics"]["mean_io_stretch"])

    def test_non_finite_negative_and_impossible_cells(self):
        for k, (cell, col, words) in enumerate([
                ("a,2,1e10,nan,5,1,0,7,5e9,1", "io_time_s", "'nan' is not a finite number"),
                ("a,2,1e10,1e400,5,1,0,7,5e9,1", "io_time_s", "'1e400' is not a finite number"),
                ("a,2,1e10,2,inf,1,0,7,5e9,1", "work_time_s", "'inf' is not a finite number"),
                ("a,2,1e10,-5,5,1,0,7,5e9,1", "io_time_s", "-5 is negative"),
                ("a,2,-1e10,2,5,1,0,7,5e9,1", "io_volume_bytes", "is negative"),
                ("a,2,1e10,2,5,1.5,0,7,5e9,1", "yield", "outside [0, 1]"),
                ("a,2,1e10,2,5,1,0,7,5e9,1.2", "bound_share", "outside [0, 1]"),
                ("a,2,1e10,2,5,1,0,7,five,1", "io_bandwidth_Bps", "'five' is not a number"),
                ("a,0,1e10,2,5,1,0,7,5e9,1", "nodes", "is not positive"),
                ("a,2.5,1e10,2,5,1,0,7,5e9,1", "nodes", "not a whole number"),
                ("a,2,1e10,,5,1,0,7,5e9,1", "io_time_s", "empty")]):
            d = self.write_run(f"cell{k}", [cell, APPS_ROWS[1]])
            self.refused(d, f"{d}/apps.csv: line 2 (name 'a'), column {col}: ", words)

    def test_cross_column_and_table_rules(self):
        d = self.write_run("end", ["a,2,1e10,2,5,1,8,7,5e9,1", APPS_ROWS[1]])
        self.refused(d, "line 2 (name 'a'), column end_s: 7.0 is before its start_s 8.0")
        d = self.write_run("dup", [APPS_ROWS[0], APPS_ROWS[0]])
        self.refused(d, "line 3, column name: 'a' appears twice")
        d = self.write_run("nocol", header=APPS_HEADER.replace("io_time_s", "io_time"))
        self.refused(d, "apps.csv: column(s) io_time_s missing")
        d = self.write_run("width", [APPS_ROWS[0] + ",7", APPS_ROWS[1]])
        self.refused(d, "apps.csv: line 2: 11 cells for 10 columns")

    def test_bandwidth_above_the_platform(self):
        # dates 0 .. 10 s: no rounding to speak of; 1.00001e10 > 1e10 (1 + 1e-9): refused
        d = self.write_run("bw", ["a,2,1.00001e10,1,5,1,0,10,1.00001e10,1", APPS_ROWS[1]])
        self.refused(d, "line 2 (name 'a'), column io_bandwidth_Bps: 10000100000.0 B/s is above the platform's "
                        "capacity 10000000000.0 B/s")
        # at 1.3e8 s, 4e-6 s of I/O: the dates' rounding allows 6.1 % (docstring): 1.05e10 passes, 1.07e10 not
        ok = self.write_run("bw-late", ["a,2,42000,4e-6,5,1,130000000,130000001,1.05e10,1", APPS_ROWS[1]])
        self.assertEqual(self.r.read_run(ok).apps["io_bandwidth_Bps"][0], 1.05e10)
        bad = self.write_run("bw-late-bad", ["a,2,42800,4e-6,5,1,130000000,130000001,1.07e10,1", APPS_ROWS[1]])
        self.refused(bad, "column io_bandwidth_Bps: 10700000000.0 B/s is above")
        # without platform.capacity_Bps (an older run) nothing to check against
        res = json.loads(json.dumps(RESULTS))
        del res["platform"]["capacity_Bps"]
        old = self.write_run("bw-old", ["a,2,1.00001e10,1,5,1,0,10,1.00001e10,1", APPS_ROWS[1]], results=res)
        self.assertIsNone(self.r.read_run(old).capacity_Bps)

    def test_results_json(self):
        d = self.write_run("nan", results_text=json.dumps(RESULTS).replace('"makespan_s": 7', '"makespan_s": NaN'))
        self.refused(d, "results.json: not readable JSON (NaN is not a finite number")
        for k, (edit, words) in enumerate([
                (lambda r: r["metrics"].update(total_io_time_s=-2), "metrics.total_io_time_s = -2 is negative"),
                (lambda r: r["metrics"].update(min_yield=1.2), "metrics.min_yield = 1.2 is outside [0, 1]"),
                (lambda r: r["window"].update(end_s=-1), "window.end_s = -1 is before window.begin_s = 0"),
                (lambda r: r["metrics"].update(makespan_s="7"), "metrics.makespan_s = '7' is not a number"),
                (lambda r: r.pop("status"), "status = None: missing")]):
            res = json.loads(json.dumps(RESULTS))
            edit(res)
            self.refused(self.write_run(f"res{k}", results=res), "results.json: ", words)
        with self.assertRaises(self.r.ResultError) as cm:
            self.r.read_run(os.path.join(self.work, "nowhere"))
        self.assertIn("nowhere/results.json: file not found", str(cm.exception))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
