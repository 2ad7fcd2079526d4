/* iosim — the inputs of one campaign point checked before a sweep's first run (docs/campaigns.md, "Validation before
 * anything runs"): every file the point's scenario reads that is known before the run, datasets included. */
#ifndef IOS_POINT_INPUTS_H
#define IOS_POINT_INPUTS_H

#include "ios_scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Checks that the files a loaded scenario reads exist and are readable: workload.file; the dataset of its workload
 * generator (ios_gen_kind_t.data_param, or the kind's data_default: a file, or a directory holding data_files);
 * storage.requests.file, or the TOKIO-ABC table of a "tokio"-shaped storage.requests.generator (IOS_DATA_TOKIO).
 * Paths are expanded with ios_expand_path. `label` names the point in messages ("c.json: point 3 (...)").
 * @return IOS_OK, or IOS_EINVAL with ios_diag_message() naming the point, the field, the path, the reason and the
 * fix (where the dataset goes, IOSIM_DATA_DIR, traces/README.md). */
int ios_point_inputs_check(const ios_scenario_t *s, const char *label);

#ifdef __cplusplus
}
#endif
#endif
