#!/usr/bin/env python3
"""IPDPS'21 §5.3's queue with its parallel file system capped (docs/validation.md, "The IPDPS'21 §5.3 live queue"):
from a sweep of deploy/campaigns/ipdps21-queue-pfs.json, the aggregated bandwidth (IPDPS'21 Eq. 2, iosim's
aggregate_bandwidth_Bps) of STATIC (static-ceil) and MCKP per PFS bandwidth, and their ratio, beside the paper's
live 1.90x (8.41 and 16.02 GB/s).

    analysis/ipdps21_queue_pfs.py DIR

Prints the Markdown table and writes it to DIR/report/queue_pfs.md. Exit 2 with the fix on bad input (no runs.csv,
a run that did not complete, a missing policy).
"""

import argparse
import os
import sys

import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import InputError, cli, md_table, read_runs, write_markdown

PAPER = {"static-ceil": 8.41e9, "mckp": 16.02e9}  # IPDPS'21 §5.3, B/s


def table(runs):
    """Rows (pfs GB/s, STATIC GB/s, MCKP GB/s, ratio) sorted by the PFS bandwidth, from runs.csv rows with columns
    platform.pfs_bw ("<x>GBps"), allocation.policy and aggregate_bandwidth_Bps."""
    for col in ("platform.pfs_bw", "allocation.policy", "aggregate_bandwidth_Bps"):
        if col not in runs.columns:
            raise InputError(f"runs.csv: column {col} missing; fix: sweep deploy/campaigns/ipdps21-queue-pfs.json")
    r = runs.assign(pfs=runs["platform.pfs_bw"].astype(str).str.replace("GBps", "", regex=False).astype(float))
    t = r.pivot_table(index="pfs", columns="allocation.policy", values="aggregate_bandwidth_Bps")
    missing = [p for p in PAPER if p not in t.columns]
    if missing:
        raise InputError(f"runs.csv: no run of {', '.join(missing)}; fix: sweep deploy/campaigns/ipdps21-queue-pfs.json")
    return [(pfs, row["static-ceil"] / 1e9, row["mckp"] / 1e9, row["mckp"] / row["static-ceil"])
            for pfs, row in t.sort_index().iterrows()]


def run(args):
    rows = table(read_runs(args.dir, "deploy/campaigns/ipdps21-queue-pfs.json",
                           ("platform.pfs_bw", "allocation.policy", "aggregate_bandwidth_Bps")))
    body = [[f"{p:g}", f"{s:.2f}", f"{m:.2f}", f"{x:.2f}"] for p, s, m, x in rows]
    body.append(["paper (live run)", f"{PAPER['static-ceil'] / 1e9:.2f}", f"{PAPER['mckp'] / 1e9:.2f}",
                 f"{PAPER['mckp'] / PAPER['static-ceil']:.2f}"])
    lines = ["# IPDPS'21 §5.3 queue, PFS capped (analysis/ipdps21_queue_pfs.py)", "",
             md_table(body, ["PFS bandwidth (GB/s)", "STATIC (GB/s)", "MCKP (GB/s)", "MCKP / STATIC"]), ""]
    print("\n".join(lines))
    os.makedirs(os.path.join(args.dir, "report"), exist_ok=True)
    return write_markdown(os.path.join(args.dir, "report"), "queue_pfs.md", lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", help="the sweep's directory (runs.csv)")
    args = ap.parse_args(argv)
    return cli("ipdps21_queue_pfs.py", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
