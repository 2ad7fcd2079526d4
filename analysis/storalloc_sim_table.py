#!/usr/bin/python3
"""The table of docs/storalloc.md "The simulated placement campaign" from a sweep of
deploy/campaigns/storalloc-simulated.json: means over the seeds, split on, per layout and policy.
Usage: storalloc_sim_table.py SWEEP_DIR"""
import sys

import pandas as pd

if len(sys.argv) != 2:
    sys.exit(__doc__)
r = pd.read_csv(f"{sys.argv[1]}/runs.csv")
r = r[(r.status == "complete") & (r["storage.allocation.split"].astype(str).str.lower() == "true")]
g = r.groupby(["platform.layout", "storage.allocation.policy"]).agg(
    sim=("sim_bw_mean_Bps", "mean"), est=("est_bw_mean_Bps", "mean"), ratio=("sim_to_est_median", "mean"),
    overruns=("overruns", "mean"), n=("seed", "size"))
print("| layout | policy | simulated GB/s | estimate GB/s | median simulated / estimate | overruns | seeds |")
print("|---|---|---|---|---|---|---|")
for (lay, pol), x in g.iterrows():
    print(f"| {lay} | {pol} | {x.sim / 1e9:.2f} | {x.est / 1e9:.2f} | {x.ratio:.2f} | {x.overruns:,.0f} | {int(x.n)} |")
