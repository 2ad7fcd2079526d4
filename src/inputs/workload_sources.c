/* iosim — the workload sources (see ios_workload.h ios_workload_source_t): one row each, and the build that picks the
 * one a scenario gives. The scenario loader reads the rows for the defaults, type checks and path fields of
 * `workload` (scenario.c, scenario_set.c), and `iosim help scenario` for its lines (scenario_keys.c). */
#include "ios_workload.h"
#include "workload_internal.h"
#include "ios_darshan.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_gen.h"

#include <stdio.h>
#include <string.h>

/* workload.applications: inline applications. */
static int build_applications(const ios_scenario_t *s, const ios_platform_t *p, const cJSON *v, ios_workload_t *w) {
  (void)p;
  return ios_workload_parse_apps(v, s->file, w);
}

/* workload.file: a workload file, in workload.format (bandwidths of sample files in workload.bandwidth_unit). */
static int build_file(const ios_scenario_t *s, const ios_platform_t *p, const cJSON *v, ios_workload_t *w) {
  const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(s->workload, "format");
  const cJSON *bwu = cJSON_GetObjectItemCaseSensitive(s->workload, "bandwidth_unit");
  if (!cJSON_IsString(v) || !cJSON_IsString(fmt) || !cJSON_IsString(bwu)) { /* ios_scenario_from_json checks them */
    ios_diag_set(s->file, "workload", "file, format and bandwidth_unit must be strings");
    return IOS_EINVAL;
  }
  return ios_workload_read_file(s, p, v->valuestring, fmt->valuestring, bwu->valuestring, w);
}

/* workload.generator: one of the generators' kinds (ios_gen.h), from the scenario's seed. */
static int build_generator(const ios_scenario_t *s, const ios_platform_t *p, const cJSON *v, ios_workload_t *w) {
  return ios_gen_workload(v, s->file, p, s->seed, w);
}

/* workload.darshan: Darshan logs replayed (docs/darshan.md), restriped by the scenario's striping when it has one; with
 * workload.skip_bad the logs that cannot be read are skipped (as workload.darshan.skip_bad). */
static int build_darshan(const ios_scenario_t *s, const ios_platform_t *p, const cJSON *v, ios_workload_t *w) {
  int skip = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s->workload, "skip_bad"));
  return ios_darshan_build(v, s->file, p, s->striping != NULL ? s->striping->name : NULL,
                           s->striping != NULL ? s->striping_params.v[0] : 0, skip, s->seed,
                           w); /* striping.stripe_count */
}

static const char *const self_path[] = {"", NULL};
static const char *const generator_paths[] = {"profiles", "data", NULL};
static const char *const darshan_paths[] = {"", "logs", NULL};

const ios_workload_source_t ios_workload_sources[] = {
    {.key = "file",
     .def = "null",
     .types = 1,
     .need = "a workload file path (string), e.g. \"traces/apps.json\"",
     .meaning = "a JSON array of applications (.json) or an RR-9502 sample file",
     .options = "{\"format\": \"auto\", \"bandwidth_unit\": \"pool\"}",
     .paths = self_path,
     .build = build_file},
    {.key = "applications",
     .def = "[]",
     .types = 8,
     .need = "an array of application objects",
     .meaning = "inline applications [{\"nodes\": 4, \"work\": \"60s\", \"io\": \"2GiB\"}]",
     .build = build_applications},
    {.key = "generator",
     .def = "null",
     .types = 4,
     .need = "a generator object, e.g. {\"kind\": \"rr9549\"}",
     .meaning = "a generator {\"kind\": \"rr9549|rr9502|apex|kernels|ior\", ...} (iosim generate)",
     .paths = generator_paths,
     .build = build_generator},
    {.key = "darshan",
     .def = "null",
     .types = 13,
     .need = "a Darshan log or directory path, a list of them, or {\"logs\": ..., options} (docs/darshan.md)",
     .meaning = "Darshan logs: a log, a directory of logs, a list, or {\"logs\": ..., options} (docs/darshan.md)",
     .paths = darshan_paths,
     .build = build_darshan},
    {.key = NULL},
};

/* Whether the scenario gives source `v`: neither null nor an empty array. */
static int given(const cJSON *v) {
  return v != NULL && !cJSON_IsNull(v) && !(cJSON_IsArray(v) && cJSON_GetArraySize(v) == 0);
}

int ios_workload_build(const ios_scenario_t *s, const ios_platform_t *p, ios_workload_t *out) {
  const ios_workload_source_t *src = NULL;
  int sources = 0;
  char keys[256] = ""; /* "workload.applications, workload.file, ... or workload.darshan" */
  for (int i = 0; ios_workload_sources[i].key != NULL; i++) {
    size_t len = strlen(keys);
    snprintf(keys + len, sizeof keys - len, "%sworkload.%s",
             len ? (ios_workload_sources[i + 1].key ? ", " : " or ") : "", ios_workload_sources[i].key);
    if (given(cJSON_GetObjectItemCaseSensitive(s->workload, ios_workload_sources[i].key))) {
      sources++;
      src = &ios_workload_sources[i];
    }
  }
  if (sources != 1) {
    if (sources)
      ios_diag_set(s->file, "workload", "gives more than one source: keep one of %s", keys);
    else
      ios_diag_set(s->file, "workload", "is empty: give %s", keys);
    return IOS_EINVAL;
  }
  ios_workload_t w = {0};
  int rc = src->build(s, p, cJSON_GetObjectItemCaseSensitive(s->workload, src->key), &w);
  if (rc == IOS_OK) rc = ios_workload_check(s, p, &w);
  if (rc != IOS_OK) {
    ios_workload_free(&w);
    return rc;
  }
  *out = w;
  return IOS_OK;
}
