"""The contention model's held-out predictions, simulated by iosim (docs/validation.md).

One iosim run per file system replays its held-out jobs one after the other on a generated oss-ost platform of its
N OSTs (C / N bytes/s each; servers and NICs that never bind): job k is an application released at k x spacing that
reads or writes its volume over the N OSTs, capped at its calibrated bandwidth P (a profile with one point, P at N
resources), and its background an application released with it that moves the file system's other traffic of the
job's window at its measured rate r over the same OSTs; sharing maxmin, so SimGrid shares each OST between the two
flows. With an interference capacity K (scenario(..., kappa=K)) the run's sharing is the engine's `interference`
policy instead (kappa = K / N on each OST: each flow slowed by the other's offered load, then max-min;
tokio_rolling.interference_share is its closed form). The spacing leaves every pair alone (checked on the outputs);
the job's predicted bandwidth is its volume over its simulated I/O time (apps.csv).
"""

import json
import math
import os
import subprocess

import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import InputError, np, pd

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def iosim_binary():
    """$IOSIM_BIN, else build/iosim of the source tree."""
    path = os.environ.get("IOSIM_BIN") or os.path.join(ROOT, "build", "iosim")
    if not os.access(path, os.X_OK):
        raise InputError(f"{path}: no iosim binary; fix: `make build`, or set IOSIM_BIN to the iosim executable")
    return path


def scenario(jobs, p, background, osts, capacity, out_dir, kappa=None):
    """The scenario (a dict) replaying `jobs` (rows of jobs(), same index as the Series `p` and `background`, in
    bytes/s) on `osts` OSTs of capacity / osts bytes/s each, sharing maxmin, or `interference` with kappa = K / osts
    when `kappa` (K, bytes/s, the file system's interference capacity) is given and finite; also the spacing of the
    releases (s)."""
    n = int(osts)
    per_server = 4 if n % 4 == 0 else 1
    c = float(capacity)
    k_ = float(kappa) if kappa is not None else float("inf")
    longest = 1.0
    for k in jobs.index:  # a pair's duration: the job at worst at min(P', C/2), its background at worst min(r', C/2)
        r = background[k]
        d = jobs.at[k, "volume"] / min(p[k] / (1 + r / k_), c / 2)
        longest = max(longest, d, r * d / min(r / (1 + p[k] / k_), c / 2) if r > 0 else 0)
    spacing = math.ceil(1.5 * longest) + 1
    apps = []
    for i, k in enumerate(jobs.index):
        kind = "write" if jobs.at[k, "direction"] == "write" else "read"
        apps.append({"name": f"job{i}", "nodes": 1, "release": i * spacing, "profile": {str(n): float(p[k])},
                     "io_resources": n, "phases": [{kind: float(jobs.at[k, "volume"])}]})
        r = float(background[k])
        if r > 0:
            d = jobs.at[k, "volume"] / min(p[k] / (1 + r / k_), c / 2)
            apps.append({"name": f"bg{i}", "nodes": 1, "release": i * spacing, "profile": {str(n): r},
                         "io_resources": n, "phases": [{"write": r * d}]})
    return {
        "platform": {"kind": "oss-ost", "compute": len(apps), "servers": n // per_server, "osts_per_server": per_server,
                     "ost_bw": c / n, "server_bw": 1e15, "nic_bw": 1e15},
        "workload": {"applications": apps},
        "allocation": {"policy": "fixed"},
        "placement": {"policy": "greedy-non-clairvoyant"},
        "sharing": ({"policy": "interference", "kappa": k_ / n} if np.isfinite(k_) else {"policy": "maxmin"}),
        "output": {"dir": out_dir, "progress": False},
    }, spacing


def prepare(jobs, p, background, osts, capacity, out_dir, kappa=None):
    """Writes out_dir/scenario.json for `jobs` (see scenario()) and returns what run_all() and collect() need."""
    os.makedirs(out_dir, exist_ok=True)
    spec, spacing = scenario(jobs, p, background, osts, capacity, os.path.abspath(out_dir), kappa)
    path = os.path.join(out_dir, "scenario.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(spec, f)
    return {"path": path, "out": out_dir, "spacing": spacing, "jobs": jobs}


def run_all(runs, parallel=None):
    """Runs iosim on every prepared run, `parallel` (default: the CPU count) at a time."""
    binary, waiting, active = iosim_binary(), list(runs), []
    parallel = parallel or os.cpu_count() or 1
    while waiting or active:
        while waiting and len(active) < parallel:
            r = waiting.pop(0)
            active.append((r, subprocess.Popen([binary, "run", r["path"]], stdout=subprocess.DEVNULL,
                                               stderr=subprocess.PIPE, text=True)))
        r, proc = active.pop(0)
        _, err = proc.communicate()
        if proc.returncode != 0:
            for _, other in active:
                other.kill()
                other.wait()
            raise InputError(f"{r['path']}: iosim exited {proc.returncode}: {err.strip()[-2000:]}")


def collect(run):
    """The predicted bandwidth of each job of a finished run (Series on its jobs' index): volume / io_time."""
    apps = pd.read_csv(os.path.join(run["out"], "apps.csv")).set_index("name")
    spacing = run["spacing"]
    late = apps["end_s"][apps["end_s"] > (apps["start_s"] // spacing + 1) * spacing]
    if len(late):
        raise InputError(f"{run['path']}: {len(late)} applications ran into the next pair's release (spacing "
                         f"{spacing} s): the pairs were not alone; this is a bug of tokio_iosim.py")
    jobs = run["jobs"]
    time = pd.Series([apps.at[f"job{i}", "io_time_s"] for i in range(len(jobs))], index=jobs.index)
    return jobs["volume"] / time
