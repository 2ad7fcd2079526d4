/* iosim — the workload generators' kind table (see ios_gen.h): the generators by name, for `workload.generator` and
 * `iosim generate`. Each generator (rr9549.c, rr9502.c, apex.c, kernels.c, ior.c) uses the helpers of common.c; this
 * table uses the generators, and nothing uses it from below. */
#include "ios_args.h"
#include "ios_fs.h"
#include "ios_diag.h"
#include "ios_gen.h"
#include "ios_units.h"
#include "ios_value.h"
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the kind table */

extern const ios_gen_kind_t ios_gen_rr9549, ios_gen_rr9502, ios_gen_apex, ios_gen_kernels, ios_gen_ior;
const ios_gen_kind_t *const ios_gen_kinds[] = {&ios_gen_rr9549,  &ios_gen_rr9502, &ios_gen_apex,
                                               &ios_gen_kernels, &ios_gen_ior,    NULL};

const ios_gen_kind_t *ios_gen_find(const char *name) {
  for (int k = 0; name != NULL && ios_gen_kinds[k] != NULL; k++)
    if (strcmp(ios_gen_kinds[k]->kind, name) == 0) return ios_gen_kinds[k];
  return NULL;
}

int ios_gen_workload(const cJSON *g, const char *file, const ios_platform_t *p, uint64_t seed, ios_workload_t *w) {
  const cJSON *k = cJSON_GetObjectItemCaseSensitive(g, "kind");
  const ios_gen_kind_t *kind = ios_gen_find(cJSON_IsString(k) ? k->valuestring : NULL);
  if (kind != NULL) return kind->scenario(g, file, p, seed, w);
  char names[256] = "", text[64];
  size_t len = 0;
  for (int i = 0; ios_gen_kinds[i] != NULL && len < sizeof names; i++)
    len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", ios_gen_kinds[i]->kind);
  ios_value_text(k, text, sizeof text);
  ios_diag_set(file, "workload.generator.kind", "is %s: give one of %s (docs/scenario.md)", k ? text : "missing",
               names);
  return IOS_EINVAL;
}
