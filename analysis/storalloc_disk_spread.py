#!/usr/bin/python3
"""Spread over disks of a storage run's allocations (results.json of `iosim run`): sd of how many allocations each
disk received (storalloc.disks[].allocations) and of each disk's time-averaged concurrent count (mean_allocations,
StorAlloc Fig. 6). Usage: storalloc_disk_spread.py RESULTS_DIR [RESULTS_DIR ...]. Exit 2 on a missing or foreign
results.json."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from storalloc_theta_tables import per_disk_sd  # noqa: E402


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    for d in argv:
        try:
            a, m = per_disk_sd(d, "allocations"), per_disk_sd(d, "mean_allocations")
        except (OSError, ValueError, KeyError) as e:
            print(f"storalloc_disk_spread.py: error: {d}/results.json: {e}; fix: pass the output directory of "
                  "`iosim run` on a storage scenario", file=sys.stderr)
            return 2
        print(f"{d}: sd of allocations per disk {a:.1f}, sd of per-disk mean allocations {m:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
