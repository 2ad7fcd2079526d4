#!/usr/bin/python3
"""Spread over disks of a storage run's allocations (results.json of `iosim run`): sd of how many allocations each
disk received (storalloc.disks[].allocations) and of each disk's time-averaged concurrent count (mean_allocations,
StorAlloc Fig. 6). Usage: storalloc_disk_spread.py RESULTS_DIR [RESULTS_DIR ...]"""
import json
import statistics as st
import sys

if len(sys.argv) < 2:
    sys.exit(__doc__)
for d in sys.argv[1:]:
    with open(d.rstrip("/") + "/results.json") as f:
        disks = json.load(f)["storalloc"]["disks"]
    print(f"{d}: sd of allocations per disk {st.pstdev([x['allocations'] for x in disks]):.1f}, "
          f"sd of per-disk mean allocations {st.pstdev([x['mean_allocations'] for x in disks]):.4f}")
