/* iosim — `iosim help scenario`: every scenario field with its type, default, unit and meaning, from the defaults
 * the loader validates with (see ios_scenario.h ios_scenario_print_keys). */
#include "ios_scenario.h"
#include "ios_scenario_parts.h"
#include "ios_errors.h"
#include "ios_units.h"
#include "ios_value.h"
#include "ios_workload.h"

#include <stdio.h>
#include <string.h>

/* What `iosim help scenario` says of each field of defaults_json: its unit ("" when none) and a one-line meaning
 * (docs/scenario.md has the long form). Every field of defaults_json must be here (unit_scenario_keys.cpp checks). */
static const struct {
  const char *path, *unit, *meaning;
} key_docs[] = {
    {"platform", "", "SimGrid platform XML path, or a platform family {\"kind\": \"forwarding\", ...}"},
    {"platform_roles", "", "rules giving another tool's hosts iosim's role, link and nic_bw"},
    {"workload.format", "", "auto (by extension), json or rr9502-sample"},
    {"workload.bandwidth_unit", "B/s", "sample files' unit of bandwidths and volumes: pool (= B) or a bandwidth"},
    {"workload.only", "", "keep only the application with this name"},
    {"workload.skip_bad", "",
     "leave out (listed, counted) the jobs that cannot run on the platform and the Darshan logs that cannot be read"},
    {"allocation.policy", "", "how many resources each application gets (iosim policies --family allocation)"},
    {"placement.policy", "", "which resources (iosim policies --family placement)"},
    {"sharing.policy", "", "the rate of each pending transfer (iosim policies --family sharing)"},
    {"window.length_fraction", "", "automatic window: fraction of (earliest dedicated completion - latest start)"},
    {"window.begin_s", "s", "the window's start (null: automatic)"},
    {"window.end_s", "s", "the window's end (null: automatic)"},
    {"window.stop_at_end", "", "stop the simulation at the window's end"},
    {"window.mode", "", "v1 (the policy from the start) or v2 (FairShare over the first half, RR-9502 reference)"},
    {"controller.tick_s", "s", "periodic decision every tick_s (0: at events only)"},
    {"engine.flows", "", "auto (direct rates when no link can bind them) or simgrid (every transfer a SimGrid flow)"},
    {"queue.enabled", "", "a job queue on the compute nodes (IPDPS'21 §5.3)"},
    {"queue.backfill", "", "later jobs may start before a blocked head"},
    {"queue.rearbitrate", "", "auto, all or new: which running jobs are re-arbitrated when the set changes"},
    {"knowledge.profiles", "", "exact or group-fit: what policies see of the bandwidth profiles (RR-9549 §6.2)"},
    {"knowledge.fit_over", "",
     "dataset or workload: the profiles the group-fit polynomials are fitted over (RR-9549 §6.2 fits the whole "
     "dataset the applications were drawn from)"},
    {"knowledge.degree", "",
     "degree of the group-fit polynomial (3: through the group's mean at each of 4 measured counts, the "
     "interpolation RR-9549 §6.2 describes)"},
    {"knowledge.flat", "", "relative spread below which a profile is neutral"},
    {"knowledge.noise", "", "sigma of the log-normal noise on the volumes and times policies see"},
    {"storage", "", "a storage-allocation object (StorAlloc, docs/storalloc.md)"},
    {"striping", "", "a striping object {\"policy\": \"bpio\", \"layout\": \"fpp\"} (TAPP-IO)"},
    {"calibration", "",
     "a calibration file of iosim calibrate, or {\"file\": PATH, \"apply_capacity\": true|false|\"auto\"}: on the "
     "platform it was made for (auto) or when apply_capacity is true, every OST's bandwidth becomes its per-OST "
     "capacity; its band and sharing model go with every answer; iosim check warns when it is stale "
     "(docs/validation.md)"},
    {"ost_fullness", "",
     "each OST's bandwidth times g(its fullness): {\"fullness\": PHI or [one per OST], \"curve\": {\"knee\", "
     "\"slope\", \"floor\"}} (docs/validation.md)"},
    {"seed", "", "the random seed of every random stream"},
    {"output.dir", "", "where results.json, apps.csv, resources.csv, allocations.csv go"},
    {"output.events", "", "also write events.csv (every work phase, transfer and I/O operation)"},
    {"output.progress", "", "a progress line on standard error on long runs"},
    {"output.trace", "", "also write trace.paje: a Paje trace of the run (docs/trace.md)"},
    {NULL, NULL, NULL},
};

/* The unit and meaning of `path`: its row of key_docs, else its workload source's (ios_workload_sources). @return 1
 * when documented. */
static int key_doc(const char *path, const char **unit, const char **meaning) {
  for (int i = 0; key_docs[i].path != NULL; i++)
    if (strcmp(key_docs[i].path, path) == 0) {
      *unit = key_docs[i].unit;
      *meaning = key_docs[i].meaning;
      return 1;
    }
  for (int k = 0; ios_workload_sources[k].key != NULL; k++)
    if (strncmp(path, "workload.", 9) == 0 && strcmp(path + 9, ios_workload_sources[k].key) == 0) {
      *unit = "";
      *meaning = ios_workload_sources[k].meaning;
      return 1;
    }
  return 0;
}

/* One line per field of `obj` (a level of defaults_json at dotted `prefix`); objects that have documented members
 * are walked into. @return the number of fields without documentation. */
static int print_level(FILE *f, const cJSON *obj, const char *prefix) {
  int missing = 0;
  const cJSON *v;
  cJSON_ArrayForEach(v, obj) {
    char path[256], def[48];
    snprintf(path, sizeof path, "%s%s%s", prefix, prefix[0] ? "." : "", v->string);
    const char *unit = NULL, *meaning = NULL;
    int d = key_doc(path, &unit, &meaning);
    if (!d && cJSON_IsObject(v)) {
      missing += print_level(f, v, path);
      continue;
    }
    if (!d) {
      fprintf(f, "%-26s (undocumented)\n", path);
      missing++;
      continue;
    }
    if (cJSON_IsNumber(v))
      ios_fmt_double(def, sizeof def, v->valuedouble);
    else
      ios_value_text(v, def, sizeof def);
    const char *type = cJSON_IsNull(v) ? "null or a value" : ios_scenario_type_name(v);
    int types = 0;
    const char *need = NULL;
    if (cJSON_IsNull(v) && ios_scenario_null_field(path, &types, &need))
      type = types & 8   ? "null or an array"
             : types & 4 ? "null or an object"
             : types & 2 ? "null or a number"
                         : "null or a string";
    fprintf(f, "%-26s %-18s %-31s %-4s %s\n", path, type, def, unit, meaning);
  }
  return missing;
}

int ios_scenario_print_keys(FILE *f) {
  cJSON *root = ios_scenario_defaults();
  if (root == NULL) return IOS_ENOMEM;
  fprintf(f, "%-26s %-18s %-31s %-4s %s\n", "key", "type", "default", "unit", "meaning");
  int missing = print_level(f, root, "");
  cJSON_Delete(root);
  fputs("Policies' own parameters (allocation.PARAM, ...): iosim policies. Long forms: docs/scenario.md.\n", f);
  return missing == 0 ? IOS_OK : IOS_EINTERNAL;
}
