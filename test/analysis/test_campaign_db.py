"""The campaign database read back (python/iosim/results.py's database backend, campaign_io.load_runs): one small
campaign swept twice by the real `iosim sweep` ($IOSIM_BIN, which ctest sets; else build/iosim), once into its
database (the default) and once with per-run directories (--run-dirs; its database then removed, so that the
directory is read from runs.csv and runs/ as before the database), must give the same report, the same compare
table, the same view data and the same typed tables; databases that are not as iosim wrote them (not SQLite, another
application's SQLite, another format, truncated, a negative, non-finite or missing value) are refused with exit 2
naming the file, the table, the run and the column."""

import contextlib
import io
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import iosim_path  # noqa: E402,F401  (iosim's Python package on sys.path)
from iosim import campaign_io, compare, report, results, view_data  # noqa: E402

BIN = os.environ.get("IOSIM_BIN") or os.path.join(ROOT, "build", "iosim")
RUN_DIRS = ["--run-dirs"]  # the sweep's option for per-run directories instead of the database
WALL = ("wall_time_s", "sim_wall_s")  # the columns two sweeps of one campaign may differ in


def iosim(*args, cwd=None):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=600, cwd=cwd,
                          env=iosim_path.env())


def comparable(res):
    """results.json without what two sweeps of one campaign write differently: wall times, the run's directory."""
    res = {k: v for k, v in res.items() if k not in WALL}
    res["scenario"] = dict(res["scenario"], output=dict(res["scenario"]["output"], dir=None))
    return res


class CampaignDbTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="iosim-campaign-db-")
        camp = os.path.join(cls.tmp, "c.json")
        with open(camp, "w") as f:  # 2 policies x 2 seeds of the embedded default, with events (the Gantt chart)
            f.write('{"name": "dbtest", "base": "%s", "set": {"output.events": true}, '
                    '"grid": {"sharing.policy": ["fairshare", "fcfs"]}, "seeds": {"count": 2}}'
                    % os.path.join(ROOT, "deploy", "default.json"))
        cls.db_dir, cls.files_dir = os.path.join(cls.tmp, "db"), os.path.join(cls.tmp, "files")
        for out, extra in ((cls.db_dir, []), (cls.files_dir, RUN_DIRS)):
            p = iosim("sweep", camp, "--out", out, "--jobs", "2", *extra)
            assert p.returncode == 0, p.stderr
        cls.db = os.path.join(cls.db_dir, "campaign.db")
        assert os.path.isfile(cls.db), os.listdir(cls.db_dir)
        runs = os.path.join(cls.db_dir, "runs")  # where the runs are prepared: empty once they are recorded
        assert not os.path.isdir(runs) or not os.listdir(runs), "the default sweep kept per-run directories"
        # the per-run directories alone: a campaign directory as an iosim without the database wrote it
        os.remove(os.path.join(cls.files_dir, "campaign.db"))
        assert os.path.isfile(os.path.join(cls.files_dir, "runs.csv")), os.listdir(cls.files_dir)
        with sqlite3.connect(cls.db) as con:
            cls.ids = [r[0] for r in con.execute("select run_id from runs order by point")]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def bad_copy(self, sql=None, data=None):
        """A copy of the campaign directory whose database is changed by `sql` (or replaced by the bytes `data`)."""
        d = tempfile.mkdtemp(prefix="bad-", dir=self.tmp)
        path = os.path.join(d, "campaign.db")
        if data is not None:
            with open(path, "wb") as f:
                f.write(data)
        else:
            shutil.copy(self.db, path)
            with sqlite3.connect(path) as con:
                con.executescript(sql)
        return d

    # -- the same answers from the database and from the files

    def test_load_runs_same(self):
        a, sa, ma = campaign_io.load_runs(self.db_dir)
        b, sb, mb = campaign_io.load_runs(self.files_dir)
        self.assertEqual((sa, ma), (sb, mb))
        self.assertEqual(sa, ["sharing.policy"])
        self.assertEqual(len(a), 4)
        cols = [c for c in b.columns if c not in WALL]
        self.assertEqual([c for c in a.columns if c in cols], cols)  # the database adds exit_code, transient
        for c in cols:
            self.assertEqual(a[c].tolist(), b[c].tolist(), c)

    def test_tables_same(self):
        for rid in self.ids:
            d = results.read_run(f"{self.db}#{rid}")
            f = results.read_run(os.path.join(self.files_dir, "runs", rid))
            self.assertEqual(d.dir, f"{self.db}#{rid}")
            for name in ("apps", "resources"):
                x, y = getattr(d, name), getattr(f, name)
                self.assertEqual(list(x.columns), list(y.columns), name)
                self.assertEqual([str(t) for t in x.dtypes], [str(t) for t in y.dtypes], name)
                self.assertTrue(x.equals(y), f"{name} of {rid}:\n{x}\n{y}")
            self.assertEqual(comparable(d.results), comparable(f.results))
            self.assertEqual(d.capacity_Bps, f.capacity_Bps)
        # DIR#RUN_ID names the same run as DIR/campaign.db#RUN_ID
        self.assertTrue(results.read_run(f"{self.db_dir}#{self.ids[0]}").apps.equals(
            results.read_run(f"{self.db}#{self.ids[0]}").apps))

    def test_report_same(self):
        for d in (self.db_dir, self.files_dir):
            p = iosim("report", d)
            self.assertEqual(p.returncode, 0, p.stderr)
        texts = []
        for d in (self.db_dir, self.files_dir):
            with open(os.path.join(d, "report", "report.md")) as f:
                texts.append([ln for ln in f.read().splitlines() if not ln.startswith("Campaign directory")])
        self.assertEqual(texts[0], texts[1])
        self.assertTrue(any(ln.startswith("![Gantt chart of run") for ln in texts[0]))  # events from the database
        figs = [sorted(f for f in os.listdir(os.path.join(d, "report")) if f.endswith(".png"))
                for d in (self.db_dir, self.files_dir)]
        self.assertEqual(figs[0], figs[1])
        self.assertTrue(os.path.isfile(os.path.join(self.db_dir, "report", "view.html")))
        for side in ("-wal", "-shm"):  # the readers closed the database: SQLite removed its WAL files
            self.assertFalse(os.path.exists(self.db + side), side)
        # the database file itself names the campaign too
        p = iosim("report", self.db, "--metrics", "min_yield")
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_compare_same(self):
        a, b = self.ids[0], self.ids[2]  # fairshare and fcfs, seed 1
        p = iosim("compare", f"{self.db}#{a}", f"{self.db_dir}#{b}")
        q = iosim("compare", *(os.path.join(self.files_dir, "runs", r) for r in (a, b)))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(q.returncode, 0, q.stderr)
        strip = [re.sub(r" \(.*\)$", "", ln) for ln in p.stdout.splitlines()]
        self.assertEqual(strip, [re.sub(r" \(.*\)$", "", ln) for ln in q.stdout.splitlines()])
        self.assertIn(f"base: {a} ({self.db}#{a})", p.stdout)

    def test_view_same(self):
        rid = self.ids[1]
        d = view_data.read_run(f"{self.db}#{rid}")
        f = view_data.read_run(os.path.join(self.files_dir, "runs", rid))
        self.assertEqual(d["label"], rid)
        for k in ("label", "dir", "source"):
            d.pop(k), f.pop(k)
        d["metrics"] = {k: v for k, v in d["metrics"].items() if k not in WALL}
        f["metrics"] = {k: v for k, v in f["metrics"].items() if k not in WALL}
        self.assertEqual(d, f)
        out = os.path.join(self.tmp, "v.html")
        p = iosim("view", f"{self.db_dir}#{rid}", "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)

    # -- refused

    def refused(self, d, pattern, args=None):
        """`iosim report d` and `iosim compare d#RUN1 d#RUN2` (their Python, in this process: the binary only starts
        it) exit 2 with a message matching `pattern` and a fix."""
        for name, main, argv in (("report", report.main, [d]),
                                 ("compare", compare.main, [f"{d}#{self.ids[0]}", f"{d}#{self.ids[1]}"])):
            if args is not None and name not in args:
                continue
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                rc = main(argv)
            self.assertEqual(rc, 2, f"{name} {argv}: {err.getvalue()}")
            self.assertRegex(err.getvalue(), pattern, name)
            self.assertIn("fix:", err.getvalue())

    def test_refused_by_the_commands(self):
        d = self.bad_copy(data=b"run_id,index\n")
        for cmd in (["report", d], ["view", d], ["compare", f"{d}#{self.ids[0]}", f"{d}#{self.ids[1]}"]):
            p = iosim(*cmd)
            self.assertEqual(p.returncode, 2, f"{cmd}: {p.stdout}{p.stderr}")
            self.assertRegex(p.stderr, r"campaign\.db: not an SQLite database .*; fix: ", cmd)
            self.assertNotIn("Traceback", p.stderr)

    def test_not_a_database(self):
        self.refused(self.bad_copy(data=b"run_id,index\n"), r"campaign\.db: not an SQLite database")

    def test_foreign_database(self):
        d = tempfile.mkdtemp(prefix="foreign-", dir=self.tmp)
        with sqlite3.connect(os.path.join(d, "campaign.db")) as con:
            con.execute("create table t(x)")
        self.refused(d, r"campaign\.db: an SQLite database but not an iosim campaign database \(no table meta; tables: t\)")

    def test_other_format(self):
        self.refused(self.bad_copy("update meta set value = 'iosim-campaign/9' where key = 'format';"),
                     r"meta format = 'iosim-campaign/9', not 'iosim-campaign/1'")

    def test_truncated(self):
        with open(self.db, "rb") as f:
            head = f.read(4096)
        self.refused(self.bad_copy(data=head), r"campaign\.db: (not a readable SQLite database|table \w+: cannot be "
                     r"read).*(malformed|not a database)")

    def test_missing_table(self):
        self.refused(self.bad_copy("drop table results;"), r"no table results")

    def test_negative_value(self):
        rid = self.ids[0]
        d = self.bad_copy(f"update apps set io_time_s = -2 where run_id = '{rid}' and name = 'peak-8';")
        self.refused(d, rf"table apps, run_id '{rid}', name 'peak-8', column io_time_s: -2.0 is negative")

    def test_not_finite(self):
        rid = self.ids[1]
        d = self.bad_copy(f"update resources set capacity_Bps = 9e999 where run_id = '{rid}' and name = 'ion0';")
        self.refused(d, rf"table resources, run_id '{rid}', name 'ion0', column capacity_Bps: inf is not a finite",
                     ["compare"])

    def test_impossible(self):
        rid = self.ids[0]
        d = self.bad_copy(f"update apps set yield = 1.5 where run_id = '{rid}' and name = 'ascent-8';")
        self.refused(d, rf"table apps, run_id '{rid}', name 'ascent-8', column yield: 1.5 is outside \[0, 1\]")
        d = self.bad_copy(f"update apps set io_bandwidth_Bps = 1e15 where run_id = '{rid}' and name = 'ascent-8';")
        self.refused(d, rf"table apps, run_id '{rid}', name 'ascent-8', column io_bandwidth_Bps: 1000000000000000.0 "
                     r"B/s is above the platform's capacity 35000000000.0 B/s")

    def test_run_metric(self):
        rid = self.ids[3]
        d = self.bad_copy(f"update runs set min_yield = -0.5 where run_id = '{rid}';")
        self.refused(d, rf"table runs, run_id '{rid}', column min_yield: -0.5 is outside \[0, 1\]", ["report"])

    def test_missing_name(self):
        rid = self.ids[0]
        d = self.bad_copy(f"update apps set name = NULL where run_id = '{rid}' and name = 'peak-8';")
        self.refused(d, rf"table apps, run_id '{rid}', column name: empty")

    def test_results_json(self):
        rid = self.ids[0]
        d = self.bad_copy(f"update results set json = json_set(json, '$.metrics.makespan_s', -1) "
                          f"where run_id = '{rid}';")
        self.refused(d, rf"table results, run_id '{rid}': metrics.makespan_s = -1 is negative", ["compare"])

    def test_unknown_run(self):
        p = iosim("compare", f"{self.db}#0123456789abcdef", f"{self.db}#{self.ids[0]}")
        self.assertEqual(p.returncode, 2)
        self.assertRegex(p.stderr, r"campaign\.db: no run '0123456789abcdef' \(runs: .*\); fix: name a run_id")


if __name__ == "__main__":
    unittest.main()
