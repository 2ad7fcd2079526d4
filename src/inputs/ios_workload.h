/* iosim — workloads: inline applications (scenario or JSON file), the RR-9502 reference simulator's sample files,
 * and the RR-9549 §5.3 generator over FORGE MareNostrum 4 bandwidth profiles (IPDPS'21 §2-3). Formats: docs/. */
#ifndef IOS_WORKLOAD_H
#define IOS_WORKLOAD_H

#include "ios_model.h"
#include "ios_platform.h"
#include "ios_scenario.h"

#include <cjson/cJSON.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A workload source (docs/scenario.md, "workload"): the key of the scenario's `workload` object that selects it, and
 * how it builds the applications. A scenario gives exactly one source: the key whose value is neither null nor an
 * empty array. Adding a source is adding a row to ios_workload_sources (src/inputs/workload_sources.c): its default,
 * type check, path fields, `iosim help scenario` line and builder all come from the row. */
typedef struct {
  const char *key;     /**< workload.KEY */
  const char *def;     /**< its default, as JSON: "null" (or "[]" for a list that is empty when not given) */
  int types;           /**< what a user may give instead of the default: bits 1 string, 2 number, 4 object, 8 array */
  const char *need;    /**< what to give, for the message of a value of another type */
  const char *meaning; /**< its line in `iosim help scenario` */
  const char *options; /**< the source's own options in `workload` with their defaults, as a JSON object (their lines
                          in `iosim help scenario` come from scenario_keys.c), or NULL */
  const char *const *paths; /**< fields holding file paths, relative to workload.KEY ("" the value itself), made
                               relative to the scenario's folder; NULL-ended, or NULL when none */
  /** Builds the applications of value `v` (of s->workload) on platform `p` into `w` (zeroed). @return IOS_OK, or
   * IOS_EINVAL/IOS_EIO/IOS_ENOMEM with ios_diag_message() naming the file, field and fix. */
  int (*build)(const ios_scenario_t *s, const ios_platform_t *p, const cJSON *v, ios_workload_t *w);
} ios_workload_source_t;

/** Every workload source, ended by a NULL key. */
extern const ios_workload_source_t ios_workload_sources[];

/** A format of workload.file: its name (workload.format), the suffix `auto` recognises it by (NULL: none; the last
 * format is auto's fallback), and its reader of the file at `path` (bwu: workload.bandwidth_unit). */
typedef struct {
  const char *name, *suffix;
  int (*read)(const ios_scenario_t *s, const ios_platform_t *p, const char *path, const char *bwu, ios_workload_t *w);
} ios_workload_format_t;

/** Every format of workload.file, ended by a NULL name ("auto" is not one: it picks one of them). */
extern const ios_workload_format_t ios_workload_formats[];

/** Builds the scenario's workload for the loaded platform. @return IOS_OK, or IOS_EINVAL/IOS_EIO with
 * ios_diag_message() naming the file, the line or field, and the fix; `out` untouched on failure. */
int ios_workload_build(const ios_scenario_t *s, const ios_platform_t *p, ios_workload_t *out);

/** Reads an RR-9502 sample file (one application per line: name bandwidth age progress agePhase nphases wIter W|C
 * x_1 .. x_nphases). Bandwidths and volumes are multiplied by `unit` (bytes/s per sample unit; times unchanged).
 * The application is released `age` s before the start (τ = −age) with `progress` s of progress; its first phase
 * began `agePhase` s before the start (a work phase keeps x_1 − agePhase s; an I/O phase counts as posted then). */
int ios_read_sample(const char *file, double unit, ios_workload_t *out);

/** Reads the FORGE per-pattern mean bandwidth CSV (mn4_189_patterns_mean_bw_by_ionodes.csv: clients, processes,
 * layout, spatiality, request_KiB, odirect, bandwidth in MiB/s for 0/1/2/4/8 I/O nodes) into `nodes` [*count] and
 * `profiles` [*count] (both allocated, the caller frees). */
int ios_read_forge(const char *file, int *count, int **nodes, ios_profile_t **profiles);

/** As ios_read_forge, and `processes` [*count] (allocated, the caller frees; not returned when NULL): the CSV's
 * processes column, s_a of the IPDPS'21 PROCESS policy (§3.2). */
int ios_read_forge_processes(const char *file, int *count, int **nodes, int **processes, ios_profile_t **profiles);

#ifdef __cplusplus
}
#endif
#endif
