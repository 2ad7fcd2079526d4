#!/usr/bin/env python3
"""The teaching lab (`iosim lab`, python/iosim/lab, docs/lab.md): its module files, its checker and its server.

usage: test_lab.py modules|server|installed|stop --iosim BUILD/iosim --source SRC --work DIR [--prefix PREFIX]

modules: every module of deploy/lab and the fixture written from docs/lab.md alone (test/lab/fixtures) loads; each
  kind of broken module.json is refused with a message naming the file, the field and the fix, and `iosim lab` exits
  2 on it before serving anything; the checker's rules (numbers typed as 0.73, 83/114, 73 %; abs and rel tolerances;
  ties of a choice question).
server: `iosim lab` on a free port of 127.0.0.1 with deploy/lab and the fixture.
  System / Expectations (docs/tutorial.md steps 1-2, by hand): the `sharing` module's default (FairShare, B = 1 GB/s,
  the tutorial's three applications) gives MinYield 83/114, app3's yield 49/57, app2's I/O time 24 s; FCFS gives
  MinYield 10/19 and app2's I/O time 20 s; at 2 GB/s FairShare gives 53/57. The fixture (docs/lab.md's rules): two
  writers of 4 GB, cap 2 GB/s, after 2 s of work: with B = 2 GB/s each writes 4 s; with 8 GB/s the makespan is 4 s.
  Answers typed from those hand values are judged right, others wrong; bad requests get a 4xx with a message and
  never a traceback; run IDs that are not ones (paths) are refused; every file the lab writes is under --work.
installed: PREFIX/bin/iosim lab (make install) serves the five modules of PREFIX/share/iosim/deploy/lab with the
  package of PREFIX/lib/python3/dist-packages; the `sharing` default run gives 83/114 and its view draws.
stop: `iosim lab` stopped with SIGTERM (what a service manager or ctest sends) while 8 clients keep asking, 6 times:
  every stop exits 0 with its "stopped" line and prints no traceback. (The server closed from the signal handler made
  a worker that had just answered print one: 10 stops of 10 under traffic, 1 in 6 after a burst of requests.)
The work directory is removed at the end.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import unittest
import urllib.error
import urllib.request

ARGS = None


def package_path():
    return os.path.join(os.path.dirname(os.path.abspath(ARGS.iosim)), "python")


def lab_modules():
    sys.path.insert(0, package_path())
    from iosim.lab import checker, modules
    return modules, checker


def write_module(root, name, module, scenario=None, text="Some text.\n"):
    d = os.path.join(root, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "module.json"), "w", encoding="utf-8") as f:
        f.write(module if isinstance(module, str) else json.dumps(module))
    with open(os.path.join(d, "scenario.json"), "w", encoding="utf-8") as f:
        json.dump(scenario or {"platform": {"kind": "pfs-single", "compute": 1, "pfs_bw": "1GBps"},
                               "workload": {"applications": [{"name": "a", "nodes": 1, "iterations": 1, "work": "1s",
                                                              "io": "1GB", "profile": {"1": "1GB/s"}}]},
                               "allocation": {"policy": "fixed", "n": 1}, "sharing": {"policy": "fairshare"}}, f)
    with open(os.path.join(d, "text.md"), "w", encoding="utf-8") as f:
        f.write(text)
    return d


def good_module():
    return {"title": "T", "paper": "RR-9502 §4.1", "objectives": ["o"], "text": "text.md", "scenario": "scenario.json",
            "fields": [{"key": "sharing.policy", "label": "policy", "choices": ["fairshare", "fcfs"],
                        "default": "fairshare"},
                       {"key": "platform.pfs_bw", "label": "B", "min": 0.5, "max": 2, "unit": "GB/s", "scale": 1e9,
                        "default": 1}],
            "questions": [{"id": "q1", "text": "?", "set": {"sharing.policy": "fcfs"}, "metric": "io_time_s",
                           "app": "a", "tolerance": {"abs": 0.01}}]}


class Modules(unittest.TestCase):
    def setUp(self):
        self.m, self.c = lab_modules()
        self.root = os.path.join(ARGS.work, self.id().split(".")[-1])
        shutil.rmtree(self.root, ignore_errors=True)
        os.makedirs(self.root)

    def tearDown(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def test_deploy_lab_loads(self):
        mods = self.m.load_modules(os.path.join(ARGS.source, "deploy", "lab"))
        self.assertEqual([x.id for x in mods], ["sharing", "ionodes", "striping", "storalloc", "darshan"])
        for x in mods:
            self.assertGreaterEqual(len(x.questions), 3, x.id)
            self.assertTrue(x.predict is not None and x.objectives and x.paper, x.id)
            self.assertTrue(any(q.kind == "number" for q in x.questions), x.id)

    def test_fixture_written_from_the_doc_loads(self):
        (x,) = self.m.load_modules(os.path.join(ARGS.source, "test", "lab", "fixtures"))
        self.assertEqual(x.id, "pfs-speed")
        self.assertEqual(x.sets(x.by_id["x-at-2"].settings), ["platform.pfs_bw=2000000000.0", "sharing.policy=fairshare"])

    def test_doc_example_is_a_module(self):
        """docs/lab.md's worked example, copied from its JSON blocks, loads."""
        with open(os.path.join(ARGS.source, "docs", "lab.md"), encoding="utf-8") as f:
            doc = f.read()
        blocks = re.findall(r"```json\n(.*?)```", doc, re.S)
        d = os.path.join(self.root, "two-apps")
        os.makedirs(d)
        for name, text in (("scenario.json", blocks[0]), ("module.json", blocks[1]), ("text.md", "x\n")):
            with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                f.write(text)
        (x,) = self.m.load_modules(self.root)
        self.assertEqual([q.id for q in x.questions], ["b-fairshare", "faster-b"])

    def broken(self, mutate, *expected):
        mod = good_module()
        text = mutate(mod)
        d = write_module(self.root, "bad", text if isinstance(text, str) else mod)
        with self.assertRaises(self.m.ModuleError) as e:
            self.m.load_modules(self.root)
        msg = str(e.exception)
        self.assertIn(os.path.join(d, "module.json"), msg)
        for part in expected:
            self.assertIn(part, msg)
        self.assertIn("fix", msg)
        return msg

    def test_broken_modules_name_file_and_field(self):
        self.broken(lambda m: '{"title": "T",\n "paper": }', "line 2", "invalid JSON")
        self.broken(lambda m: m.pop("questions"), "questions: missing")
        self.broken(lambda m: m.update(colour="red"), "colour: unknown key")
        self.broken(lambda m: m["questions"][0].pop("tolerance"), "questions[0].tolerance: missing")
        self.broken(lambda m: m["questions"][0].update(tolerance={"abs": -1}), "questions[0].tolerance")
        self.broken(lambda m: m["fields"][1].update(default=9), "fields[1].default", "outside 0.5 to 2")
        self.broken(lambda m: m["fields"][0].update(default="maxmin"), "fields[0].default", "not one of the choices")
        self.broken(lambda m: m["questions"][0].update(set={"seed": 3}), "questions[0].set.seed",
                    "not a field of this module")
        self.broken(lambda m: m["questions"][0].update(set={"platform.pfs_bw": 7}), "questions[0].set.platform.pfs_bw")
        self.broken(lambda m: m["questions"][0].update(kind="choice"), "questions[0].set", "per choice")
        self.broken(lambda m: m.update(text="nothere.md"), "text:", "no such file")
        self.broken(lambda m: m.update(scenario="../../etc/passwd"), "scenario:", "inside the module's folder")
        self.broken(lambda m: m["fields"][0].update(choices=["a;rm -rf /", "b"], default="b"), "fields[0].choices[0]")
        self.broken(lambda m: m["fields"].append({"key": "sharing.policy", "label": "again",
                                                  "choices": ["fcfs"], "default": "fcfs"}), "appears twice")

    def test_broken_module_stops_iosim_lab(self):
        """`iosim lab` exits 2 with the message (file, field, fix) before serving, for a file error and for a metric
        that the runs do not have (found by running the default setting)."""
        mod = good_module()
        mod["questions"][0]["tolerance"] = "close"
        d = write_module(self.root, "bad", mod)
        p = subprocess.run([ARGS.iosim, "lab", "--modules", self.root, "--port", "0", "--workdir",
                            os.path.join(self.root, "w")], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f"{os.path.join(d, 'module.json')}: questions[0].tolerance", p.stderr)
        self.assertNotIn("Traceback", p.stderr)
        self.assertEqual(p.stdout, "")
        mod = good_module()
        mod["questions"][0]["metric"] = "io_tyme_s"
        d = write_module(self.root, "bad", mod)
        p = subprocess.run([ARGS.iosim, "lab", "--modules", self.root, "--port", "0", "--workdir",
                            os.path.join(self.root, "w")], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("questions[0]: 'io_tyme_s' is not a column of apps.csv", p.stderr)
        mod = good_module()
        write_module(self.root, "bad", mod, scenario={
            "platform": {"kind": "pfs-single", "compute": 1},
            "workload": {"applications": [{"name": "a", "nodes": 1, "iterations": 1, "work": "1s", "io": "1GB",
                                           "profile": {"1": "1GB/s"}}]},
            "allocation": {"policy": "nope"}, "sharing": {"policy": "fairshare"}})
        p = subprocess.run([ARGS.iosim, "lab", "--modules", self.root, "--port", "0", "--workdir",
                            os.path.join(self.root, "w")], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("scenario:", p.stderr)
        self.assertIn("allocation", p.stderr)

    def test_checker(self):
        c = self.c
        self.assertAlmostEqual(c.parse_number("83/114"), 83 / 114)
        self.assertAlmostEqual(c.parse_number(" 73 % "), 0.73)
        self.assertAlmostEqual(c.parse_number("0,5"), 0.5)
        self.assertAlmostEqual(c.parse_number("7.3e-1"), 0.73)
        for bad in ("", "abc", "1/0", "nan", "inf", "1e999"):
            with self.assertRaises(c.AnswerError):
                c.parse_number(bad)
        self.assertTrue(c.within(0.729, 0.72807, {"abs": 0.001}))
        self.assertFalse(c.within(0.7292, 0.72807, {"abs": 0.001}))
        self.assertTrue(c.within(101, 100, {"rel": 0.01}))
        self.assertFalse(c.within(102, 100, {"rel": 0.01}))
        self.assertTrue(c.within(102, 100, {"rel": 0.01, "abs": 2}))
        mod = good_module()
        mod["questions"].append({"id": "q2", "kind": "choice", "text": "?", "metric": "io_time_s", "app": "a",
                                 "best": "min", "tolerance": {"abs": 0.5},
                                 "choices": [{"label": "L1", "set": {}}, {"label": "L2", "set": {}},
                                             {"label": "L3", "set": {}}]})
        write_module(self.root, "ok", mod)
        (m,) = self.m.load_modules(self.root)
        q1, q2 = m.questions
        self.assertTrue(c.check_number(q1, "10", 10.004)["correct"])
        r = c.check_number(q1, "11", 10.0)
        self.assertFalse(r["correct"])
        self.assertIn("too high", r["message"])
        self.assertIsNone(r["value"])  # a wrong answer does not give the value away
        self.assertIn("too low", c.check_number(q1, "9", 10.0)["message"])
        self.assertTrue(c.check_choice(q2, "L2", [3.0, 2.9, 5.0])["correct"])  # within 0.5 of the best: a tie
        self.assertTrue(c.check_choice(q2, "L1", [3.0, 2.9, 5.0])["correct"])
        self.assertFalse(c.check_choice(q2, "L3", [3.0, 2.9, 5.0])["correct"])
        with self.assertRaises(c.AnswerError):
            c.check_choice(q2, "L4", [3.0, 2.9, 5.0])

    def test_form_values_checked(self):
        write_module(self.root, "ok", good_module())
        (m,) = self.m.load_modules(self.root)
        self.assertEqual(m.sets(m.form_settings({"platform.pfs_bw": "1.5"})),
                         ["sharing.policy=fairshare", "platform.pfs_bw=1500000000.0"])
        for bad, part in (({"sharing.policy": "fcfs; rm -rf /"}, "not one of the choices"),
                          ({"platform.pfs_bw": "3"}, "outside 0.5 to 2"),
                          ({"platform.pfs_bw": "nan"}, "outside"), ({"platform.pfs_bw": "1e9x"}, "not a number"),
                          ({"output.dir": "/etc"}, "not a setting of this module")):
            with self.assertRaises(ValueError) as e:
                m.form_settings(bad)
            self.assertIn(part, str(e.exception))


class Server(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = os.path.join(ARGS.work, "server")
        shutil.rmtree(cls.work, ignore_errors=True)
        os.makedirs(cls.work)
        cls.mods = os.path.join(cls.work, "modules")
        shutil.copytree(os.path.join(ARGS.source, "deploy", "lab", "sharing"), os.path.join(cls.mods, "sharing"))
        shutil.copytree(os.path.join(ARGS.source, "test", "lab", "fixtures", "pfs-speed"),
                        os.path.join(cls.mods, "pfs-speed"))
        cls.before = snapshot(ARGS.source)
        cls.lab = subprocess.Popen([ARGS.iosim, "lab", "--port", "0", "--modules", cls.mods, "--workdir",
                                    os.path.join(cls.work, "runs-here")], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cls.work)
        line = cls.lab.stdout.readline()
        m = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
        if not m:
            cls.lab.kill()
            raise AssertionError(f"iosim lab did not start: {line}{cls.lab.stderr.read()}")
        cls.base = m.group(1)

    @classmethod
    def tearDownClass(cls):
        cls.lab.terminate()
        out, err = cls.lab.communicate(timeout=60)
        assert cls.lab.returncode == 0, err
        assert "Traceback" not in err, err
        assert "simulations this session" in out, out
        after = snapshot(ARGS.source)
        assert after == cls.before, f"the lab changed the source tree: {sorted(after ^ cls.before)[:10]}"
        written = [os.path.join(d, f) for d, _, fs in os.walk(cls.work) for f in fs]
        assert all(p.startswith(os.path.join(cls.work, "runs-here")) or p.startswith(cls.mods) for p in written), \
            [p for p in written if "runs-here" not in p][:5]
        shutil.rmtree(cls.work, ignore_errors=True)

    def req(self, method, path, body=None, raw=None):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        r = urllib.request.Request(self.base + path, data=data, method=method,
                                   headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(r, timeout=180) as resp:
                code, text, ctype = resp.status, resp.read().decode(), resp.headers.get("Content-Type", "")
        except urllib.error.HTTPError as e:
            code, text, ctype = e.code, e.read().decode(), e.headers.get("Content-Type", "")
        self.assertNotIn("Traceback", text)
        return code, (json.loads(text) if "json" in ctype else text)

    def run_setting(self, module, settings):
        code, d = self.req("POST", "/api/run", {"module": module, "settings": settings})
        self.assertEqual(code, 200, d)
        for _ in range(60):
            code, r = self.req("GET", f"/api/run/{d['id']}?wait=5")
            self.assertEqual(code, 200, r)
            if r["state"] != "running":
                return r
        self.fail("run did not finish")

    def app(self, r, name, col):
        return next(a[col] for a in r["apps"] if a["name"] == name)

    def answer(self, module, q, answer):
        code, d = self.req("POST", "/api/answer", {"module": module, "question": q, "answer": answer})
        self.assertEqual(code, 200, d)
        return d

    def test_pages(self):
        code, page = self.req("GET", "/")
        self.assertEqual(code, 200)
        self.assertIn('href="/m/sharing"', page)
        self.assertIn('href="/m/pfs-speed"', page)
        code, page = self.req("GET", "/m/sharing")
        self.assertEqual(code, 200)
        for part in ("You will learn to", "Predict before you run", "RR-9502", "Q5."):
            self.assertIn(part, page)
        code, page = self.req("GET", "/m/nothere")
        self.assertEqual(code, 404)

    def test_runs_against_hand_computation(self):
        r = self.run_setting("sharing", {})
        self.assertEqual(r["state"], "done")
        self.assertAlmostEqual(r["metrics"]["min_yield"], 83 / 114, places=9)
        self.assertAlmostEqual(self.app(r, "app3", "yield"), 49 / 57, places=9)
        self.assertAlmostEqual(self.app(r, "app2", "io_time_s"), 24, places=9)
        self.assertEqual(r["shown"][0]["metric"], "min_yield")  # the prediction's metric first
        r = self.run_setting("sharing", {"sharing.policy": "fcfs", "platform.pfs_bw": "1"})
        self.assertAlmostEqual(r["metrics"]["min_yield"], 10 / 19, places=9)
        self.assertAlmostEqual(self.app(r, "app2", "io_time_s"), 20, places=9)
        r = self.run_setting("sharing", {"platform.pfs_bw": "2"})
        self.assertAlmostEqual(r["metrics"]["min_yield"], 53 / 57, places=9)
        code, page = self.req("GET", r["view"])
        self.assertEqual(code, 200)
        self.assertIn('id="iosim-data"', page)
        self.assertIn('<script src="/plotly.js"></script>', page)
        self.assertLess(len(page), 2_000_000)  # plotly.js is not inlined
        code, js = self.req("GET", "/plotly.js")
        self.assertEqual(code, 200)
        code, page = self.req("GET", f"/view?runs={r['id']},{r['id']}&labels=A|B")
        self.assertEqual(code, 200)
        self.assertIn('"label":"B"', page)
        r = self.run_setting("pfs-speed", {"platform.pfs_bw": "2"})
        self.assertAlmostEqual(self.app(r, "x", "io_time_s"), 4, places=9)
        r = self.run_setting("pfs-speed", {"platform.pfs_bw": "8"})
        self.assertAlmostEqual(r["metrics"]["makespan_s"], 4, places=9)

    def test_answers(self):
        self.assertTrue(self.answer("sharing", "fairshare-yield", "83/114")["correct"])
        d = self.answer("sharing", "fairshare-yield", "0.75")
        self.assertFalse(d["correct"])
        self.assertIn("too high", d["message"])
        self.assertIn("(10 + 23/6)", self.req("POST", "/api/answer", {"module": "sharing", "question":
                                                                         "fairshare-yield", "reveal": True})[1]["explain"])
        self.assertTrue(self.answer("sharing", "fcfs-io-time", "20")["correct"])
        self.assertFalse(self.answer("sharing", "fcfs-io-time", "24")["correct"])
        self.assertTrue(self.answer("sharing", "best-min-yield-1", "GreedyYield")["correct"])
        self.assertFalse(self.answer("sharing", "best-min-yield-1", "FairShare")["correct"])
        self.assertTrue(self.answer("sharing", "best-min-yield-2", "FairShare")["correct"])
        self.assertTrue(self.answer("sharing", "same-utilization", "35/57")["correct"])
        self.assertTrue(self.answer("pfs-speed", "x-at-2", "4")["correct"])
        self.assertFalse(self.answer("pfs-speed", "x-at-2", "2")["correct"])
        self.assertTrue(self.answer("pfs-speed", "makespan-at-8", "4")["correct"])
        self.assertTrue(self.answer("pfs-speed", "fastest", "4 GB/s")["correct"])
        self.assertTrue(self.answer("pfs-speed", "fastest", "8 GB/s")["correct"])
        self.assertFalse(self.answer("pfs-speed", "fastest", "2 GB/s")["correct"])

    def test_bad_requests(self):
        for body, code, part in (
                ({"module": "sharing", "settings": {"sharing.policy": "fcfs; rm -rf /"}}, 400, "not one of the choices"),
                ({"module": "sharing", "settings": {"platform.pfs_bw": "99"}}, 400, "outside 0.5 to 4 GB/s"),
                ({"module": "sharing", "settings": {"output.dir": "/tmp/x"}}, 400, "not a setting"),
                ({"module": "sharing", "settings": "x"}, 400, "missing"),
                ({"module": "../etc", "settings": {}}, 404, "no module"),
                ({"settings": {}}, 404, "no module")):
            c, d = self.req("POST", "/api/run", body)
            self.assertEqual(c, code, d)
            self.assertIn(part, d["error"])
        c, d = self.req("POST", "/api/run", raw=b"{not json")
        self.assertEqual(c, 400)
        self.assertIn("not a JSON object", d["error"])
        c, d = self.req("POST", "/api/answer", {"module": "sharing", "question": "fairshare-yield", "answer": "abc"})
        self.assertEqual(c, 400)
        self.assertIn("not a number", d["error"])
        c, d = self.req("POST", "/api/answer", {"module": "sharing", "question": "nope", "answer": "1"})
        self.assertEqual(c, 404)
        c, d = self.req("POST", "/api/answer", {"module": "sharing", "question": "best-min-yield-1", "answer": "X"})
        self.assertEqual(c, 400)
        self.assertIn("choose one of", d["error"])
        for rid in ("..%2F..%2Fetc", "0123", "zzzzzzzzzzzzzzzzzzzz"):
            c, d = self.req("GET", f"/api/run/{rid}")
            self.assertEqual(c, 404)
        for q in ("runs=../../etc/passwd", "runs=", "runs=a,b,c", "runs=0123456789abcdef0123"):
            c, page = self.req("GET", f"/view?{q}")
            self.assertIn(c, (400, 404))
            self.assertIn('id="view-error"', page)
        c, d = self.req("GET", "/api/nothing")
        self.assertEqual(c, 404)
        c, d = self.req("PUT", "/api/run", {})
        self.assertEqual(c, 405)
        c, d = self.req("POST", "/api/run", raw=b"x" * 100_000)
        self.assertEqual(c, 413)


class Installed(unittest.TestCase):
    """`iosim lab` of a `make install` (ctest's library_install prefix, --prefix): its modules, package and templates
    are found from the installation alone; the default setting of `sharing` gives the tutorial's MinYield 83/114."""

    def test_installed_lab(self):
        work = os.path.join(ARGS.work, "installed")
        os.makedirs(work, exist_ok=True)
        binary = os.path.join(ARGS.prefix, "bin", "iosim")
        env = {k: v for k, v in os.environ.items() if k not in ("IOSIM_PYTHONPATH", "IOSIM_HOME", "PYTHONPATH")}
        lab = subprocess.Popen([binary, "lab", "--port", "0", "--workdir", os.path.join(work, "runs")],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=work, env=env)
        try:
            line = lab.stdout.readline()
            m = re.search(r"(http://127\.0\.0\.1:\d+)/ — 5 modules from (\S+)[ ;]", line)
            self.assertTrue(m, line)
            self.assertEqual(os.path.realpath(m.group(2)),
                             os.path.realpath(os.path.join(ARGS.prefix, "share", "iosim", "deploy", "lab")))
            base = m.group(1)
            with urllib.request.urlopen(base + "/m/sharing", timeout=60) as r:
                self.assertIn("Predict before you run", r.read().decode())
            body = json.dumps({"module": "sharing", "settings": {}}).encode()
            req = urllib.request.Request(base + "/api/run", data=body, headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=60) as r:
                rid = json.load(r)["id"]
            with urllib.request.urlopen(f"{base}/api/run/{rid}?wait=20", timeout=60) as r:
                d = json.load(r)
            self.assertAlmostEqual(d["metrics"]["min_yield"], 83 / 114, places=9)
            with urllib.request.urlopen(base + d["view"], timeout=60) as r:
                self.assertIn("iosim-data", r.read().decode())
        finally:
            lab.terminate()
            out, err = lab.communicate(timeout=60)
        self.assertNotIn("Traceback", err)


class Stop(unittest.TestCase):
    STOPS = 6
    CLIENTS = 8
    ANSWERS = 20  # answered requests before each SIGTERM

    def test_sigterm_under_traffic(self):
        work = os.path.join(ARGS.work, "stop")
        mods = os.path.join(work, "modules")
        shutil.copytree(os.path.join(ARGS.source, "test", "lab", "fixtures", "pfs-speed"),
                        os.path.join(mods, "pfs-speed"))
        for k in range(self.STOPS):
            lab = subprocess.Popen([ARGS.iosim, "lab", "--port", "0", "--modules", mods, "--workdir",
                                    os.path.join(work, "runs")], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, cwd=work)
            codes, done = [], threading.Event()
            try:
                line = lab.stdout.readline()
                m = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
                self.assertTrue(m, f"stop {k}: iosim lab did not start: {line}")

                def ask(path):
                    while not done.is_set():
                        try:
                            urllib.request.urlopen(m.group(1) + path, timeout=60).read()
                            codes.append(200)
                        except urllib.error.HTTPError as e:
                            codes.append(e.code)
                        except OSError:  # the server has stopped
                            return

                clients = [threading.Thread(target=ask, args=("/" if c % 2 else "/api/nothing",))
                           for c in range(self.CLIENTS)]
                for c in clients:
                    c.start()
                t0 = time.time()
                while len(codes) < self.ANSWERS and time.time() - t0 < 60:
                    time.sleep(0.01)
            finally:
                lab.terminate()
                out, err = lab.communicate(timeout=60)
                done.set()
            for c in clients:
                c.join()
            self.assertGreaterEqual(len(codes), self.ANSWERS, f"stop {k}: {err}")
            self.assertLessEqual(set(codes), {200, 404}, f"stop {k}")
            self.assertEqual(lab.returncode, 0, f"stop {k}: {err}")
            self.assertIn("simulations this session", out, f"stop {k}")
            self.assertNotIn("Traceback", err, f"stop {k}")


def snapshot(root):
    """The source tree's files (path, size, mtime), build folders left out."""
    out = set()
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith("build") and x != ".git" and x != "__pycache__"]
        for f in files:
            p = os.path.join(d, f)
            st = os.stat(p)
            out.add((p, st.st_size, st.st_mtime_ns))
    return out


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("part", choices=["modules", "server", "installed", "stop"])
    p.add_argument("--prefix", help="installed: the prefix of `make install`")
    p.add_argument("--iosim", required=True)
    p.add_argument("--source", required=True)
    p.add_argument("--work", required=True)
    ARGS, rest = p.parse_known_args()
    ARGS.iosim = os.path.abspath(ARGS.iosim)
    ARGS.work = os.path.abspath(os.path.join(ARGS.work, ARGS.part))
    os.makedirs(ARGS.work, exist_ok=True)
    suite = unittest.TestLoader().loadTestsFromTestCase(
        {"modules": Modules, "server": Server, "installed": Installed, "stop": Stop}[ARGS.part])
    ok = unittest.TextTestRunner(verbosity=2).run(suite).wasSuccessful()
    shutil.rmtree(ARGS.work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
