/* iosim — what the workload sources (workload_sources.c) use of the workload readers (workload.c); src/inputs/ only. */
#ifndef IOS_WORKLOAD_INTERNAL_H
#define IOS_WORKLOAD_INTERNAL_H

#include "ios_workload.h"

#include <cjson/cJSON.h>

/** Parses the JSON array `arr` of inline applications (docs/scenario.md, "workload") into `w`; `file` names the file
 * in messages. @return IOS_OK, IOS_EINVAL (with a message naming the application and field) or IOS_ENOMEM. */
int ios_workload_parse_apps(const cJSON *arr, const char *file, ios_workload_t *w);

/** Reads workload.file `name` (${IOSIM_DATA_DIR} expanded) in the format `format` (a name of ios_workload_formats, or
 * "auto": by its suffix) into `w`; `bwu` is workload.bandwidth_unit (sample files). @return IOS_OK, or
 * IOS_EINVAL/IOS_EIO with a message. */
int ios_workload_read_file(const ios_scenario_t *s, const ios_platform_t *p, const char *name, const char *format,
                           const char *bwu, ios_workload_t *w);

/** What every source's workload must satisfy on the platform: names that are CSV cells, workload.only, and what a
 * run needs of the platform (nodes, the pool, the periods' bound; docs/scenario.md, "Limits"). @return IOS_OK or
 * IOS_EINVAL with a message. */
int ios_workload_check(const ios_scenario_t *s, const ios_platform_t *p, ios_workload_t *w);

#endif
