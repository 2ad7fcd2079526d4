/* iosim — a storage-allocation scenario (StorAlloc, Monniot et al. 2022): when a scenario's `storage` object is set,
 * `iosim run` schedules its storage requests on its storage platform (src/storalloc.c) instead of simulating
 * applications, and writes requests.csv and results.json (whose `metrics` are StorAlloc's Table 3), so that
 * `iosim sweep` and `iosim report` work on storage campaigns unchanged. docs/storalloc.md has the format. */
#ifndef IOS_STORAGE_RUN_H
#define IOS_STORAGE_RUN_H

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

#ifdef __cplusplus
}
#endif
#endif
