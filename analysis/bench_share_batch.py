#!/usr/bin/env python3
"""The cost of one sharing decision of the engine's `interference` policy (policies/sharing/interference.c) evaluated
through the compiled module, iosim.share_batch, against the same arithmetic written in numpy, on the arrays `iosim
calibrate` evaluates: python/iosim/fsmodel.py's fit_interference_share, one view of two transfers (a job of cap P and
a background of cap r) per (K, job), K over +inf and fsmodel.CAPACITIES (122 values) and a window of N jobs.

    /usr/bin/python3 analysis/bench_share_batch.py [--jobs N] [--repeat R]

Prints, for both, the best of R CPU times of this process (time.process_time: on a machine shared with other work a
wall time counts their turns too) and the time per view (ns), and checks that they give the same bounds bit for bit
(exit 1 when not). The numpy form is the closed form p / (1 + r / K), r / (1 + p / K) that fsmodel.py held
before it called the C policy."""

import argparse
import sys
import time

import iosim_path  # noqa: F401  (iosim's Python package on sys.path)
import numpy as np
from iosim import fsmodel


def numpy_bounds(p, r, k):
    """The closed form the C policy computes, in numpy (k = inf: no interference)."""
    return p / (1.0 + r / k), r / (1.0 + p / k)


def best_of(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=300, help="window jobs (default 300, a 30-day window of Cori)")
    ap.add_argument("--repeat", type=int, default=5, help="repetitions, the best kept (default 5)")
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    p = rng.uniform(1e9, 5e10, args.jobs)[None, :]
    r = rng.uniform(0.0, 5e10, args.jobs)[None, :]
    ks = np.concatenate([[np.inf], np.sort(fsmodel.CAPACITIES)[::-1]])[:, None]
    views = ks.shape[0] * args.jobs
    t_np, a = best_of(lambda: numpy_bounds(p, r, ks), args.repeat)
    t_c, b = best_of(lambda: fsmodel.interference_bounds(p, r, ks), args.repeat)
    same = all(np.array_equal(x, y) for x, y in zip(a, b))
    print(f"{views} views of 2 transfers ({ks.shape[0]} K x {args.jobs} jobs), best of {args.repeat} (CPU time):")
    print(f"  numpy closed form:              {t_np * 1e3:9.2f} ms  {t_np / views * 1e9:8.1f} ns per view")
    print(f"  C policy via iosim.share_batch: {t_c * 1e3:9.2f} ms  {t_c / views * 1e9:8.1f} ns per view")
    print(f"  same bounds bit for bit: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
