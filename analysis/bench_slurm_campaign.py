#!/usr/bin/env python3
"""A job-array campaign on the one-node Slurm of this machine, end to end (issue 41; docs/campaigns.md, "Campaigns at
scale"): starts munged, slurmctld and slurmd from a configuration in a temporary directory (test/slurm/slurm_sweep.py's
Cluster, as ctest slurm_sweep does; ../shared/notes/slurm-local.md), emits `iosim sweep --emit-slurm --shards S` of
analysis/bench_campaign.py's campaign (its small scenario: sharing policies x seeds), submits it with `bash sweep.slurm
submit` (the array, then the merge job that waits for it), waits for the merge job and prints:
the wall time from the submission to the merge job's end, runs/s, the merge job's own run time (Slurm's start and end
times, 1 s resolution), `iosim merge` of the same shard databases timed again here, and the rows merged (= runs, every
one complete).

usage: analysis/bench_slurm_campaign.py [--runs N] [--shards S] [--iosim BIN]   (as root, Debian slurm-wlm and munge)
Exit 0 with the figures; 1 when something fails (with the daemons' log tails). The daemons are stopped and the
temporary directory removed on every exit.
"""

import argparse
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "test", "slurm"))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import slurm_sweep  # noqa: E402  (the daemons' configuration, start and stop: one implementation)
from bench_campaign import SCENARIO  # noqa: E402


def rows(db):
    con = sqlite3.connect(f"file:{db}?mode=rw", uri=True)  # closed read-write: no WAL files left behind
    try:
        return dict(con.execute("select status, count(*) from runs group by status").fetchall())
    finally:
        con.close()


def slurm_seconds(env, job):
    """(start, end) of a finished job as Slurm recorded them (epoch seconds, 1 s resolution)."""
    p = slurm_sweep.run(["scontrol", "-o", "show", "job", job], env, check=False, timeout=10)
    f = dict(x.split("=", 1) for x in p.stdout.split() if "=" in x)
    conv = [subprocess.run(["date", "-d", f.get(k, ""), "+%s"], capture_output=True, text=True).stdout.strip()
            for k in ("StartTime", "EndTime")]
    return tuple(int(c) if c.isdigit() else None for c in conv)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=1000, help="runs of the campaign (default 1000)")
    ap.add_argument("--shards", type=int, default=4, help="array tasks (default 4)")
    ap.add_argument("--iosim", default=os.path.join(ROOT, "build", "iosim"))
    a = ap.parse_args(argv)
    policies = ["fairshare", "fcfs", "maxmin", "timeshare"]
    if a.runs % len(policies):
        ap.error(f"--runs {a.runs}: give a multiple of {len(policies)}")
    slurm_sweep.DEADLINE_S = 3600  # the driver's deadline, its clock started at import
    path = os.environ.get("PATH", os.defpath).split(os.pathsep)
    os.environ["PATH"] = os.pathsep.join(path + [d for d in ("/usr/sbin", "/sbin") if d not in path])
    tmp = os.path.realpath(tempfile.mkdtemp(prefix="iosim-slurm-bench-"))
    os.chmod(tmp, 0o755)
    cluster = slurm_sweep.Cluster(tmp)

    def on_signal(sig, frame):
        raise slurm_sweep.Failure(f"interrupted by signal {sig}")

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, on_signal)
    try:
        cluster.write_config()
        t0 = time.monotonic()
        cluster.start()
        print(f"Slurm up in {time.monotonic() - t0:.1f} s ({os.cpu_count()} CPUs on the node)")
        work = os.path.join(tmp, "work")
        os.makedirs(work)
        with open(os.path.join(work, "tiny.json"), "w") as f:
            json.dump(SCENARIO, f)
        with open(os.path.join(work, "campaign.json"), "w") as f:
            json.dump({"name": "slurm-bench", "base": "tiny.json", "grid": {"sharing.policy": policies},
                       "seeds": {"from": 1, "count": a.runs // len(policies)}}, f)
        env = cluster.env
        slurm_sweep.run([a.iosim, "sweep", "campaign.json", "--emit-slurm", "--shards", str(a.shards), "--jobs", "1",
                         "--out", "out", f"--partition={slurm_sweep.PARTITION}", "--time", "30"], env, cwd=work)
        t0 = time.monotonic()
        sub = slurm_sweep.run(["bash", os.path.join(work, "out", "sweep.slurm"), "submit"], env, cwd=work)
        merge_id = sub.stdout.split()[0].split(";")[0]
        state = None
        while slurm_sweep.left() > 0:
            state = slurm_sweep.job_state(env, merge_id)
            if state not in (None, "PENDING", "CONFIGURING", "RUNNING", "COMPLETING"):
                break
            time.sleep(0.2)
        wall = time.monotonic() - t0
        if state != "COMPLETED":
            raise slurm_sweep.Failure(f"merge job {merge_id}: state {state}")
        start, end = slurm_seconds(env, merge_id)
        db = os.path.join(work, "out", "campaign.db")
        got = rows(db)
        shards = sorted(os.path.join(work, "out", d) for d in os.listdir(os.path.join(work, "out"))
                        if d.startswith("shard-"))
        t1 = time.monotonic()
        slurm_sweep.run([a.iosim, "merge", *shards, "--out", os.path.join(work, "again")], env)
        again = time.monotonic() - t1
        n = sum(got.values())
        print(f"job array: {a.runs} runs in {a.shards} array tasks (--jobs 1 each) and the merge job: {wall:.1f} s "
              f"from submission to the merge job's end, {a.runs / wall:.1f} runs/s")
        print(f"merge job: {end - start if start and end else '?'} s in Slurm (1 s resolution); `iosim merge` of the "
              f"{len(shards)} shard databases again here: {again:.2f} s")
        print(f"rows merged: {n} in runs ({', '.join(f'{v} {k}' for k, v in sorted(got.items()))}); campaign.db "
              f"{os.path.getsize(db) / 1e6:.2f} MB")
        if n != a.runs or got.get("complete") != a.runs:
            raise slurm_sweep.Failure(f"expected {a.runs} complete runs, got {got}")
        return 0
    except (slurm_sweep.Failure, subprocess.SubprocessError, OSError, sqlite3.Error) as e:
        print(f"FAIL: {e}\n{cluster.log_tails()}")
        return 1
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        cluster.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
