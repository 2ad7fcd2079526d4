#!/usr/bin/env python3
"""What libiosim's faces cost (docs/library.md, "Costs"): a run through the scenario face (a forked child, results read
back) beside `iosim run` (a process of its own) on the same scenario, and a sharing decision by a policy written in
Python beside the same decision by a built-in C policy. Prints the figures; not a test (timings are machine-dependent).

usage (from the repository root, after `make build`): /usr/bin/python3 analysis/bench_library.py [--build build]
      [--scenario deploy/default.json] [--runs 20] [--calls 20000]"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--scenario", default="deploy/default.json")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--calls", type=int, default=20000)
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(a.build, "python"))
    import iosim  # noqa: E402 (the module of this build)

    def py_fairshare(view):  # RR-9502 §4.1 FairShare, in Python: alpha = min(1, B / sum of caps)
        caps = [t["cap"] for t in view["transfers"]]
        alpha = min(1.0, view["capacity"] / sum(caps))
        return [alpha * c for c in caps]

    iosim.register_sharing("py-fairshare", py_fairshare)
    work = tempfile.mkdtemp(prefix="iosim-bench-library-")
    try:
        out = os.path.join(work, "out")
        # one run through each path first (caches), then the timed ones
        cmd = [os.path.join(a.build, "iosim"), "run", a.scenario, "--out", out, "--log=root.thres:critical"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        t0 = time.perf_counter()
        for _ in range(a.runs):
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        cli = (time.perf_counter() - t0) / a.runs
        sg = ["--log=root.thres:critical"]
        results = {}
        for policy in ("fairshare", "py-fairshare"):
            s = iosim.Scenario(a.scenario, sets=[f"output.dir={out}", f"sharing.policy={policy}"])
            r = s.run(sg)
            t0 = time.perf_counter()
            for _ in range(a.runs):
                r = s.run(sg)
            results[policy] = ((time.perf_counter() - t0) / a.runs, r.metrics)
        face, m = results["fairshare"]
        py_run, m_py = results["py-fairshare"]
        same = all(abs(m[k] - m_py[k]) <= 1e-9 * max(1.0, abs(m[k])) for k in m if "wall" not in k)
        print(f"scenario {a.scenario}: {a.runs} runs each")
        print(f"  iosim run (a process each)             {cli * 1e3:8.2f} ms per run")
        print(f"  scenario face (Scenario.run, a fork)   {face * 1e3:8.2f} ms per run")
        print(f"  scenario face, sharing in Python       {py_run * 1e3:8.2f} ms per run "
              f"({m['rate_changes']:.0f} rate changes, {m['events']:.0f} events; same metrics: {same})")
        transfers = [{"cap": 8e8, "posted": 0}, {"cap": 8e8, "posted": 1}, {"cap": 1e8, "posted": 2}]
        per = {}
        for policy in ("fairshare", "py-fairshare"):
            iosim.share(policy, 1e9, transfers)
            t0 = time.perf_counter()
            for _ in range(a.calls):
                iosim.share(policy, 1e9, transfers)
            per[policy] = (time.perf_counter() - t0) / a.calls
        print(f"one decision on 3 transfers through iosim.share, {a.calls} calls each")
        print(f"  C policy (fairshare)                   {per['fairshare'] * 1e6:8.2f} us per call")
        print(f"  Python policy (py-fairshare)           {per['py-fairshare'] * 1e6:8.2f} us per call "
              f"(+{(per['py-fairshare'] - per['fairshare']) * 1e6:.2f} us: the view built as dicts, the call, "
              "the rates checked)")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
