/* iosim — a storage-allocation scenario (StorAlloc, Monniot et al. 2022): when a scenario's `storage` object is set,
 * `iosim run` schedules its storage requests (src/storalloc/scheduler.c) and writes requests.csv and results.json
 * (whose `metrics` are StorAlloc's Table 3), so that `iosim sweep` and `iosim report` work on storage campaigns
 * unchanged. With `storage.platform` (a JSON storage platform) it only schedules; without it the storage is the
 * scenario's platform XML (its role=disk hosts) and each request's job then does its I/O through SimGrid on its
 * allocated disks (or on the PFS when refused or failed), so the bandwidth StorAlloc estimates is simulated beside its
 * estimate. docs/storalloc.md has the format. */
#ifndef IOS_STORAGE_RUN_H
#define IOS_STORAGE_RUN_H

#include "ios_platform.h"
#include "ios_scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Runs (check = 0) or validates (check = 1: reads everything, schedules nothing) the storage scenario `s`
 * (s->storage != NULL): {"platform": {...} (ios_storage_from_json), "allocation": {...}
 * (ios_storalloc_options_from_json; its seed defaults to the scenario's), "requests": {"file": TRACE.csv} or
 * {"generator": {"kind": "storalloc", ...}} (generated with the scenario's seed)}.
 * @return IOS_OK; IOS_EINVAL/IOS_EIO with ios_diag_message() naming the file, the field and the fix; IOS_ENOMEM. */
int ios_storage_scenario(const ios_scenario_t *s, int check);

/** Runs (check = 0) or validates (check = 1) the storage scenario `s` without storage.platform on the loaded platform
 * `p` (simgrid_init and ios_platform_load done; its I/O resources must be disks, ios_platform_storage, and it needs a
 * PFS host): schedules the requests, then simulates each request's job (StorAlloc §4.2-4.3; one engine run with
 * SimGrid's max-min over the routes: the job's NICs, its disks' node links, its disks, or the PFS link): it reads
 * its read bytes at its start, computes for its duration minus its dedicated I/O time, then writes its written
 * bytes. Writes requests.csv with the simulated columns (ios_request_io_t), results.json with the Table 3 metrics and
 * sim_bw_mean_Bps, est_bw_mean_Bps, sim_to_est_median, pfs_bw_mean_Bps, storage_io_bytes, pfs_io_bytes, overruns
 * (jobs whose I/O ended after their allocation), simulation_wall_s (s simulating), plus the engine's allocations.csv
 * (and events.csv).
 * @return as ios_storage_scenario. */
int ios_storage_simulate(const ios_scenario_t *s, const ios_platform_t *p, int check);

#ifdef __cplusplus
}
#endif
#endif
