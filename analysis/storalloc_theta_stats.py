#!/usr/bin/env python3
"""Statistics of a storage-request set (requests.csv of `iosim run`) beside those StorAlloc publishes of its Theta
2020 extract (Monniot et al. 2022, §5.1-5.2): count, sum_cap, size distribution, tail share, peak concurrently
requested capacity, mean use of a 32 TB tier. Usage: storalloc_theta_stats.py RESULTS_DIR [RESULTS_DIR ...]"""
import csv
import sys


def stats(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    cap = sorted(float(r["capacity_bytes"]) for r in rows)
    n, total = len(cap), sum(cap)
    q = lambda p: cap[min(n - 1, int(p * n))]
    ev = []
    t0, t1 = float("inf"), 0.0
    for r in rows:
        s, d, c = float(r["submit_s"]), float(r["duration_s"]), float(r["capacity_bytes"])
        ev += [(s, c), (s + d, -c)]
        t0, t1 = min(t0, s), max(t1, s + d)
    ev.sort(key=lambda e: (e[0], e[1]))  # ends before starts at equal times
    held = peak = 0.0
    for _, c in ev:
        held += c
        peak = max(peak, held)
    area = sum(float(r["capacity_bytes"]) * float(r["duration_s"]) for r in rows)
    return {
        "requests": n,
        "sum_cap_PB": total / 1e15,
        "mean_GB": total / n / 1e9,
        "min_GB": cap[0] / 1e9,
        "median_GB": q(0.5) / 1e9,
        "p90_GB": q(0.9) / 1e9,
        "p99_GB": q(0.99) / 1e9,
        "max_TB": cap[-1] / 1e12,
        "over_200GB": sum(c > 200e9 for c in cap),
        "over_1TB": sum(c > 1e12 for c in cap),
        "share_over_8TB": sum(c for c in cap if c > 8e12) / total,
        "peak_concurrent_TB": peak / 1e12,
        "mean_use_of_32TB_pct": 100 * area / (t1 - t0) / 32e12,
    }


PAPER = {"requests": "about 24,000 (§5.1)", "sum_cap_PB": "1.6 (§5.2)", "mean_GB": "67 (1.6 PB / 24,000)",
         "min_GB": ">= 10 (§5.1 filter)", "max_TB": "<= 32 (§5.2)", "share_over_8TB": "about 0.4 (Fig. 4, no split)",
         "peak_concurrent_TB": "in (16, 32] (§5.2, Fig. 4 1N1D)", "mean_use_of_32TB_pct": "1.53 (§5.2)"}

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for d in sys.argv[1:]:
        print(f"# {d}")
        for k, v in stats(d.rstrip("/") + "/requests.csv").items():
            v = f"{v:.4g}" if isinstance(v, float) else v
            print(f"{k:22s} {v:>12}   paper: {PAPER.get(k, '-')}")
