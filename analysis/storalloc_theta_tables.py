#!/usr/bin/python3
"""The tables of docs/storalloc.md "Sizing on a Theta-calibrated year" from a sweep of
deploy/campaigns/storalloc-theta.json (StorAlloc, Monniot et al. 2022, Fig. 4-7).
Usage: storalloc_theta_tables.py SWEEP_DIR   (the directory `iosim sweep ... -o SWEEP_DIR` wrote)"""
import json
import os
import statistics as st
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import InputError, run_files, read_runs  # noqa: E402

POL = ["random", "round-robin", "worst-fit", "best-bandwidth"]
CAPS = ["8TB", "16TB", "32TB", "64TB"]


def per_disk_sd(run_dir, key):
    """Population sd over disks of a per-disk metric of RUN_DIR/results.json (storalloc.disks[].KEY; Fig. 6 plots
    each disk's mean and max)."""
    with open(f"{run_dir.rstrip('/')}/results.json") as f:
        disks = json.load(f)["storalloc"]["disks"]
    return st.pstdev([d[key] for d in disks])


def main(d):
    r = read_runs(d, "deploy/campaigns/storalloc-theta.json",
                  ("storage.platform.capacity", "storage.platform.preset", "storage.allocation.policy",
                   "storage.allocation.split", "storage.allocation.requeue", "storage.requests.generator.tail_share",
                   "served_share"))
    r["cap"] = r["storage.platform.capacity"]
    r["layout"] = r["storage.platform.preset"]
    r["policy"] = r["storage.allocation.policy"]
    r["split"] = r["storage.allocation.split"].astype(str).str.lower() == "true"
    r["requeue"] = r["storage.allocation.requeue"].astype(str).str.lower() == "true"
    r["tailshare"] = r["storage.requests.generator.tail_share"]
    pols = [p for p in POL if (r.policy == p).any()]  # a sweep pinned with --set has fewer
    for tail in sorted(r.tailshare.unique(), reverse=True):
        t = r[r.tailshare == tail]
        print(f"\n## tail_share {tail}: served share of sum_cap (Fig. 4), requeue off; "
              "1N1D | other layouts min-max over layouts and policies")
        print("| capacity | no split: 1N1D | no split: others | split: 1N1D | split: others |")
        print("|---|---|---|---|---|")
        for c in [c for c in CAPS if (t.cap == c).any()]:
            cells = []
            for sp in (False, True):
                u = t[(t.cap == c) & (t.split == sp) & ~t.requeue]
                one = u[u.layout == "1N1D"].served_share
                oth = u[u.layout != "1N1D"].served_share
                cells += [f"{one.min():.3f}-{one.max():.3f}", f"{oth.min():.3f}-{oth.max():.3f}"]
            print(f"| {c} | " + " | ".join(cells) + " |")
        print("\nServed share with split, requeue off, per policy (mean over 1NnD, nN1D, nNnD):")
        print("| capacity | " + " | ".join(pols) + " |\n|---|" + "---|" * len(pols))
        for c in [c for c in CAPS if (t.cap == c).any()]:
            u = t[(t.cap == c) & t.split & ~t.requeue & (t.layout != "1N1D")]
            print(f"| {c} | " + " | ".join(f"{u[u.policy == p].served_share.mean():.4f}" for p in pols) + " |")
        print("\nMax disk fill % with split (Fig. 5; max over 1NnD, nN1D, nNnD, requeue off):")
        print("| capacity | " + " | ".join(pols) + " |\n|---|" + "---|" * len(pols))
        for c in [c for c in ["16TB", "32TB", "64TB"] if (t.cap == c).any()]:
            u = t[(t.cap == c) & t.split & ~t.requeue & (t.layout != "1N1D")]
            print(f"| {c} | " + " | ".join(f"{u[u.policy == p].max_disk_fill_pct.max():.1f}" for p in pols) + " |")
        print("\nFailed / refused / partial split requests (Fig. 7; max over the four layouts and requeue on/off):")
        print("| capacity | " + " | ".join(pols) + " |\n|---|" + "---|" * len(pols))
        for c in [c for c in CAPS if (t.cap == c).any()]:
            u = t[(t.cap == c) & t.split]
            print(f"| {c} | " + " | ".join(
                f"{int(u[u.policy == p].failed.max())} / {int(u[u.policy == p].refused.max())} / "
                f"{int(u[u.policy == p].partial.max())}" for p in pols) + " |")
        print("\nFairness at 32 TB with split (Fig. 6; requeue off; 1NnD, nN1D, nNnD): per layout, sd over disks "
              "of each disk's mean / max concurrent allocations: mean over runs (min-max), and the largest max")
        print("| policy | sd of per-disk mean | sd of per-disk max | max allocations on a disk | mean allocations per disk |")
        print("|---|---|---|---|---|")
        for p in pols:
            u = t[(t.cap == "32TB") & t.split & ~t.requeue & (t.layout != "1N1D") & (t.policy == p)]
            sdm = [per_disk_sd(run_files(d, i), "mean_allocations") for i in u.run_id]
            sdx = [per_disk_sd(run_files(d, i), "max_allocations") for i in u.run_id]
            if not sdm:
                continue
            print(f"| {p} | {st.mean(sdm):.4f} ({min(sdm):.4f}-{max(sdm):.4f}) | "
                  f"{st.mean(sdx):.2f} ({min(sdx):.2f}-{max(sdx):.2f}) | "
                  f"{int(u.disk_max_allocations.min())}-{int(u.disk_max_allocations.max())} | "
                  f"{u.disk_mean_allocations.mean():.3f} |")
        q = t[t.split & (t.layout != "1N1D")]
        on, off = q[q.requeue], q[~q.requeue]
        print(f"\nRequeue (split, all capacities, 1NnD/nN1D/nNnD): refused {int(off.refused.sum())} -> "
              f"{int(on.refused.sum())}, served share mean {off.served_share.mean():.4f} -> {on.served_share.mean():.4f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        main(sys.argv[1])
    except InputError as e:
        print(f"storalloc_theta_tables.py: error: {e}", file=sys.stderr)
        sys.exit(2)
