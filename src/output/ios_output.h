/* iosim — outputs of one run: results.json (resolved scenario, SimGrid configuration, version, seed, wall time,
 * window and every global metric), apps.csv and resources.csv (tidy, units in the headers; columns in
 * docs/outputs.md) and a summary table on stdout. results.json is written last, so a directory without it holds
 * no complete result. */
#ifndef IOS_OUTPUT_H
#define IOS_OUTPUT_H

#include "ios_metrics.h"
#include "ios_platform.h"
#include "ios_scenario.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Creates the output directory, and removes from it the files an earlier run left there (results.json, apps.csv,
 * resources.csv, events.csv, allocations.csv, requests.csv, and a platform.xml that iosim generated; never a file
 * that is the scenario or its platform), so that a reused directory holds only this run's outputs.
 * @return IOS_OK, IOS_EINVAL (output.dir is a file) or IOS_EIO with ios_diag_message(). */
int ios_output_prepare(const ios_scenario_t *s);

/** What `iosim check` verifies of the output directory without creating anything: it is not a file, and it exists
 * or its nearest existing ancestor is a writable directory. @return IOS_OK, or IOS_EINVAL/IOS_EIO with
 * ios_diag_message() naming output.dir. */
int ios_output_check(const ios_scenario_t *s);

/** Prints to `f` which outputs of an earlier run ios_output_prepare removed (nothing when none). */
void ios_output_print_cleaned(FILE *f, const ios_scenario_t *s);

/** Writes apps.csv, resources.csv, then results.json (each through a temporary file and a rename).
 * @return IOS_OK or IOS_EIO with ios_diag_message(). */
int ios_output_write(const ios_scenario_t *s, const ios_platform_t *p, const ios_workload_t *w, const ios_results_t *r);

/** Prints the human summary table to stdout. */
void ios_output_summary(const ios_scenario_t *s, const ios_platform_t *p, const ios_workload_t *w,
                        const ios_results_t *r);

#ifdef __cplusplus
}
#endif
#endif
