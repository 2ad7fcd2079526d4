#!/usr/bin/python3
"""The table of docs/storalloc.md "The simulated placement campaign" from a sweep of
deploy/campaigns/storalloc-simulated.json: means over the seeds, split on, per layout and policy.
Usage: storalloc_sim_table.py SWEEP_DIR. Exit 2 on bad input (no runs.csv, missing columns, no complete run)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import iosim_path  # noqa: E402,F401  (puts iosim's Python package on sys.path)
from iosim.campaign_io import InputError, read_runs  # noqa: E402

CAMPAIGN = "deploy/campaigns/storalloc-simulated.json"
NEEDED = ("platform.layout", "storage.allocation.policy", "storage.allocation.split", "sim_bw_mean_Bps",
          "est_bw_mean_Bps", "sim_to_est_median", "overruns")


def table(cdir):
    """The Markdown lines of the table."""
    r = read_runs(cdir, CAMPAIGN, NEEDED)
    r = r[r["storage.allocation.split"].astype(str).str.lower() == "true"]
    g = r.groupby(["platform.layout", "storage.allocation.policy"]).agg(
        sim=("sim_bw_mean_Bps", "mean"), est=("est_bw_mean_Bps", "mean"), ratio=("sim_to_est_median", "mean"),
        overruns=("overruns", "mean"), n=("seed", "size"))
    lines = ["| layout | policy | simulated GB/s | estimate GB/s | median simulated / estimate | overruns | seeds |",
             "|---|---|---|---|---|---|---|"]
    for (lay, pol), x in g.iterrows():
        lines.append(f"| {lay} | {pol} | {x.sim / 1e9:.2f} | {x.est / 1e9:.2f} | {x.ratio:.2f} | {x.overruns:,.0f} | "
                     f"{int(x.n)} |")
    return lines


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        print("\n".join(table(argv[0])))
    except InputError as e:
        print(f"storalloc_sim_table.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
