/* iosim — IOR-like striping experiments (TAPP-IO §IV): one measured job (`ior`: `nodes` compute nodes of
 * `writers_per_node` writers each (its processes, ios_app_writers), each writer writing `bytes_per_writer` bytes
 * `writes` times, file layout and striping from the scenario's `striping`; with
 * layout ssf, `shared_files` M > 1 makes it N:M, TAPP-IO §III.A case 3: writers ⌊m·W/M⌋.. write file m) and
 * `background` jobs (`bg-1`.., `background_nodes` writers each, file-per-process with the `background_striping`
 * policy, writing `background_writes` times) that load the object store at the same time. */
#ifndef IOS_GEN_IOR_H
#define IOS_GEN_IOR_H

#include "ios_model.h"

#include <cjson/cJSON.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Appends the jobs of a `workload.generator` object {"kind": "ior", "nodes": 32, "bytes_per_writer": 1e9,
 * "writes": 3, "background": 4, "background_nodes": 8, "background_bytes_per_writer": 1e9, "background_writes": 6,
 * "background_striping": "optimized-striping", "shared_files": 1, "writers_per_node": 1} (all but kind optional,
 * defaults shown) to `w`. shared_files (1..writers) sets the measured job's ios_app_t.shared_files; writers_per_node
 * > 1 its ios_app_t.processes (nodes × writers_per_node). Deterministic.
 * @return IOS_OK; IOS_EINVAL with ios_diag_message() naming the field and the fix (`w` untouched); IOS_ENOMEM. */
int ios_ior_generate(const cJSON *g, const char *file, ios_workload_t *w);

#ifdef __cplusplus
}
#endif
#endif
