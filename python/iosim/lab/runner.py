"""The lab's simulations: `iosim run` in a bounded pool of workers, each run in its own folder of the work directory.

A run is a module's scenario file with the --set arguments of one setting of its form (values checked by
modules.Field.parse first); `iosim run` validates the whole scenario exactly as `iosim check` does and exits 2 with a
message naming the field and the fix, which the page shows as it is. The command is started with an argument list
(no shell), its working directory the module's folder, its output under WORKDIR/runs/ID, where ID is a hash of the
module's scenario file, the settings and iosim's version: the same setting is simulated once and then read back,
whoever asks (a class asks the same questions). Nothing else is written.

Workers: `workers` runs at a time (default: the machine's cores); at most `max_queue` waiting, beyond which submit()
raises Busy (the page says to retry). Times: `timeout` s per run (default 120).
"""

import concurrent.futures
import csv
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import threading
import time
import uuid

ID_RE = re.compile(r"^[0-9a-f]{20}$")


class Busy(Exception):
    """Too many runs waiting: the message says how many and to retry."""


class RunError(Exception):
    """A run that could not be made: `bad_input` when iosim refused the scenario (exit 2), else an internal fault."""

    def __init__(self, message, bad_input):
        super().__init__(message)
        self.bad_input = bad_input


class Result:
    """A finished run read back from its folder: metrics (results.json's `metrics`, numbers), apps (apps.csv's rows,
    numbers where a cell is one), status (results.json's), dir."""

    def __init__(self, run_id, d):
        self.id = run_id
        self.dir = d
        with open(os.path.join(d, "results.json"), encoding="utf-8") as f:
            res = json.load(f)
        self.status = res.get("status")
        self.metrics = {k: v for k, v in (res.get("metrics") or {}).items()
                        if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)}
        for k, v in (res.get("counts") or {}).items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                self.metrics.setdefault(k, v)
        self.apps = _rows(os.path.join(d, "apps.csv"))
        self.resources = _rows(os.path.join(d, "resources.csv"))
        self.wall_s = res.get("wall_time_s")


def _rows(path):
    """A CSV file's rows as dicts, numbers where a cell is one (the name column stays a text); [] without it."""
    if not os.path.isfile(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return [{k: v if k == "name" else _num(v) for k, v in row.items()} for row in csv.DictReader(f)]


def _num(v):
    """A cell as a number when it is one (None when not finite: JSON has no NaN), else the text."""
    try:
        x = float(v)
    except (TypeError, ValueError):
        return v
    return x if math.isfinite(x) else None


class Runner:
    def __init__(self, iosim, workdir, workers=None, max_queue=200, timeout=120.0):
        found = shutil.which(iosim)
        if found is None:
            raise OSError(2, f"iosim command '{iosim}' not found")
        self.iosim = os.path.abspath(found)
        self.workdir = os.path.abspath(workdir)
        self.runs_dir = os.path.join(self.workdir, "runs")
        os.makedirs(self.runs_dir, exist_ok=True)
        self.workers = workers or max(1, os.cpu_count() or 1)
        self.max_queue = max_queue
        self.timeout = timeout
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="iosim-run")
        self.lock = threading.Lock()
        self.futures = {}  # id -> Future of a Result (in flight or failed this session)
        self.meta = {}  # id -> (module id, settings)
        self.waiting = 0
        self.simulated = 0  # runs made this session (the others were read back)
        p = subprocess.run([iosim, "--version"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=30)
        self.version = p.stdout.strip()
        self._scenario_hash = {}

    def close(self):
        self.pool.shutdown(wait=True, cancel_futures=True)

    def run_id(self, module, settings):
        """The run's id: a hash of the module's scenario file, its --set arguments and iosim's version."""
        sh = self._scenario_hash.get(module.scenario)
        if sh is None:
            with open(module.scenario, "rb") as f:
                sh = hashlib.sha256(f.read()).hexdigest()
            self._scenario_hash[module.scenario] = sh
        key = json.dumps({"module": module.id, "scenario": sh, "sets": module.sets(settings),
                          "iosim": self.version}, sort_keys=True)
        return hashlib.sha256(key.encode()).hexdigest()[:20]

    def submit(self, module, settings):
        """The id of the run of `settings` (started now, in flight, or done). Raises Busy."""
        rid = self.run_id(module, settings)
        with self.lock:
            self.meta[rid] = (module.id, dict(settings))
            fut = self.futures.get(rid)
            if fut is not None and not (fut.done() and fut.exception() is not None and
                                        not getattr(fut.exception(), "bad_input", False)):
                return rid
            if os.path.isfile(os.path.join(self.runs_dir, rid, "results.json")):
                return rid
            if self.waiting >= self.max_queue:
                raise Busy(f"the lab is busy: {self.waiting} runs are waiting for {self.workers} workers; "
                           "try again in a minute")
            self.waiting += 1
            self.futures[rid] = self.pool.submit(self._run, rid, module, settings)
        return rid

    def state(self, rid):
        """'done', 'failed', 'running' (or waiting), or None when the id is unknown."""
        with self.lock:
            fut = self.futures.get(rid)
        if fut is not None:
            if not fut.done():
                return "running"
            return "failed" if fut.exception() is not None else "done"
        return "done" if os.path.isfile(os.path.join(self.runs_dir, rid, "results.json")) else None

    def result(self, rid, wait=0.0):
        """The Result of run `rid`, waiting up to `wait` s; None while it runs; raises RunError (failed) or KeyError
        (unknown id)."""
        if not ID_RE.match(rid or ""):
            raise KeyError(rid)
        with self.lock:
            fut = self.futures.get(rid)
        if fut is not None:
            try:
                return fut.result(timeout=wait) if wait > 0 else (fut.result() if fut.done() else None)
            except concurrent.futures.TimeoutError:
                return None
        d = os.path.join(self.runs_dir, rid)
        if os.path.isfile(os.path.join(d, "results.json")):
            return Result(rid, d)
        raise KeyError(rid)

    def get(self, module, settings, timeout=None):
        """The Result of `settings`, run now if needed (blocking). Raises RunError, Busy."""
        rid = self.submit(module, settings)
        t0 = time.monotonic()
        while True:
            r = self.result(rid, wait=1.0)
            if r is not None:
                return r
            if timeout is not None and time.monotonic() - t0 > timeout:
                raise RunError(f"run {rid} did not finish in {timeout:g} s", bad_input=False)

    def dir_of(self, rid):
        """The folder of a finished run, or None."""
        if not ID_RE.match(rid or ""):
            return None
        d = os.path.join(self.runs_dir, rid)
        return d if os.path.isfile(os.path.join(d, "results.json")) else None

    def _run(self, rid, module, settings):
        with self.lock:
            self.waiting -= 1
        final = os.path.join(self.runs_dir, rid)
        if os.path.isfile(os.path.join(final, "results.json")):
            return Result(rid, final)
        tmp = os.path.join(self.runs_dir, f".tmp-{rid}-{uuid.uuid4().hex[:8]}")
        cmd = [self.iosim, "run", module.scenario]
        for s in module.sets(settings):
            cmd += ["--set", s]
        cmd += ["-o", tmp]
        try:
            p = subprocess.run(cmd, cwd=module.dir, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            shutil.rmtree(tmp, ignore_errors=True)
            raise RunError(f"the simulation took more than {self.timeout:g} s and was stopped; choose a smaller "
                           "setting", bad_input=True) from None
        except OSError as e:
            shutil.rmtree(tmp, ignore_errors=True)
            raise RunError(f"cannot start {self.iosim}: {e.strerror}", bad_input=False) from None
        if p.returncode != 0 or not os.path.isfile(os.path.join(tmp, "results.json")):
            shutil.rmtree(tmp, ignore_errors=True)
            msg = "\n".join(line[len("iosim: error: "):] if line.startswith("iosim: error: ") else line
                            for line in p.stderr.strip().splitlines() if line.strip()) or \
                f"iosim run exited {p.returncode}"
            raise RunError(msg, bad_input=p.returncode == 2)
        with open(os.path.join(tmp, "lab.json"), "w", encoding="utf-8") as f:
            json.dump({"module": module.id, "settings": settings, "sets": module.sets(settings)}, f)
        try:
            os.rename(tmp, final)
        except OSError:  # made meanwhile by another lab on the same folder: keep that one
            shutil.rmtree(tmp, ignore_errors=True)
        with self.lock:
            self.simulated += 1
        return Result(rid, final)
