/* iosim/scenario.h — the scenario face of libiosim (docs/library.md): load and validate a scenario (a file or JSON
 * text, docs/scenario.md, with `--set`-style overrides), run it as `iosim run` does, and read its metrics
 * (results.json, docs/outputs.md) and per-application results (apps.csv), as calls: a campaign driver in C, C++ or
 * Python needs no subprocess of its own.
 *
 * One SimGrid engine per process is a limit of SimGrid 3.32. So that iosim_scenario_run and iosim_scenario_check can
 * be called any number of times, each call simulates in a child process forked from the caller (which inherits the
 * sharing policies registered with iosim_sharing_register), writes the run's outputs into the scenario's output.dir
 * as `iosim run` does, and the caller reads them back from there; an error comes back through a pipe, worded as the
 * CLI words it (file, field, value, fix). The flag IOSIM_RUN_IN_PROCESS simulates in the caller instead, once per
 * process (what the iosim command does). Forking from a multi-threaded caller is safe only when the other threads
 * hold no lock the run needs (no run in a thread while another thread allocates memory through a custom allocator).
 *
 * Errors: functions returning int return IOSIM_OK (0) or a negative IOSIM_E* code (iosim/common.h): IOSIM_EINVAL and
 * IOSIM_EIO are bad input (the iosim command's exit code 2), the others internal (exit code 1); iosim_error() then
 * holds the message, worded as the iosim command words it. Handles are not thread-safe. */
#ifndef IOSIM_SCENARIO_H
#define IOSIM_SCENARIO_H

#include "iosim/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A loaded, validated scenario (opaque; the caller owns it, frees it with iosim_scenario_free). */
typedef struct iosim_scenario iosim_scenario_t;

/** The results of one run (opaque; the caller owns them, frees them with iosim_results_free). */
typedef struct iosim_results iosim_results_t;

/** Loads scenario file `path` and applies nsets overrides sets[0 .. nsets) "dotted.key=value" (the value read as JSON
 * when it is valid JSON, else as a string: `iosim run --set`), then validates it (every field, the policies and their
 * parameters; the platform and the workload are checked by iosim_scenario_check). Relative paths in the file are
 * relative to it, in the overrides to the current directory.
 * @param out where the new scenario goes (untouched on failure)
 * @return IOSIM_OK, or IOSIM_EINVAL / IOSIM_EIO (bad input) / IOSIM_ENOMEM with iosim_error() naming the file, the
 *   field, the value and the fix. */
IOSIM_API int iosim_scenario_load(const char *path, int nsets, const char *const *sets, iosim_scenario_t **out);

/** The same from JSON text (a scenario object); `label` names it in messages (NULL: "scenario"); relative paths in it
 * are relative to `base_dir` (NULL or "": the current directory), and so are those of the overrides. */
IOSIM_API int iosim_scenario_parse(const char *json_text, const char *label, const char *base_dir, int nsets,
                                   const char *const *sets, iosim_scenario_t **out);

/** The scenario with every default filled in, as JSON text (what results.json's "scenario" holds). Owned by the
 * scenario, valid until it is freed; NULL for NULL. */
IOSIM_API const char *iosim_scenario_json(const iosim_scenario_t *scenario);

/** The scenario's output directory (output.dir, where a run writes its files), or NULL for NULL. */
IOSIM_API const char *iosim_scenario_output_dir(const iosim_scenario_t *scenario);

/** Frees the scenario (NULL: no-op). */
IOSIM_API void iosim_scenario_free(iosim_scenario_t *scenario);

/** Flags of iosim_scenario_check and iosim_scenario_run. */
#define IOSIM_RUN_PRINT                                                                                                \
  1 /**< print on standard output what `iosim run` prints (the summary table, the removed                              \
         outputs of an earlier run) or `iosim check` (its "ok" line); default: nothing */
#define IOSIM_RUN_IN_PROCESS                                                                                           \
  2 /**< simulate in the calling process (once per process: SimGrid's engine cannot be                                 \
         started twice), not in a forked child */

/** Validates the scenario's platform and workload (loading both, generating the platform of a platform family in a
 * temporary file) and its output directory, without simulating: `iosim check`.
 * @param sg_args nsg SimGrid settings "--cfg=name:value" or "--log=..." (as `iosim run` takes them; may be NULL)
 * @return IOSIM_OK, or an error code with iosim_error(). */
IOSIM_API int iosim_scenario_check(const iosim_scenario_t *scenario, int flags, int nsg, const char *const *sg_args);

/** Runs the scenario: `iosim run`. Its outputs (results.json, apps.csv, resources.csv, ...: docs/outputs.md) are
 * written into its output directory, which the run first cleans of an earlier run's outputs.
 * @param sg_args as iosim_scenario_check's @param results_out where the results go, read back from the output
 *   directory (NULL: not read)
 * @return IOSIM_OK, or an error code with iosim_error() (bad input, a policy failing during the run, the simulating
 *   child killed...; *results_out untouched). */
IOSIM_API int iosim_scenario_run(const iosim_scenario_t *scenario, int flags, int nsg, const char *const *sg_args,
                                 iosim_results_t **results_out);

/** The run's status in results.json: "complete", or why it is not ("stopped at the window's end", ...). */
IOSIM_API const char *iosim_results_status(const iosim_results_t *results);

/** The directory the run wrote its outputs into. */
IOSIM_API const char *iosim_results_dir(const iosim_results_t *results);

/** The whole results.json as text (owned by the results). */
IOSIM_API const char *iosim_results_json(const iosim_results_t *results);

/** One global metric by its name in results.json's "metrics" (e.g. "makespan_s", "mean_io_slowdown", "min_yield",
 * "utilization", "efficiency", "io_load", "aggregate_bandwidth_Bps") or "counts" ("events", "rate_changes", ...) —
 * docs/outputs.md gives every one with its unit and paper definition.
 * @return IOSIM_OK with *value set, or IOSIM_EINVAL (unknown name; iosim_error() lists the names). */
IOSIM_API int iosim_results_metric(const iosim_results_t *results, const char *name, double *value);

/** The number of metrics, and the name of the i-th (metrics then counts, in results.json's order; NULL out of
 * range). */
IOSIM_API int iosim_results_metric_count(const iosim_results_t *results);
IOSIM_API const char *iosim_results_metric_name(const iosim_results_t *results, int i);

/** The number of applications (rows of apps.csv; 0 for a run that writes none, e.g. StorAlloc's scheduling only). */
IOSIM_API int iosim_results_app_count(const iosim_results_t *results);

/** The column names of apps.csv (docs/outputs.md: "name", "nodes", "io_time_s", "io_slowdown", ...): how many, and
 * the i-th (NULL out of range). */
IOSIM_API int iosim_results_app_column_count(const iosim_results_t *results);
IOSIM_API const char *iosim_results_app_column(const iosim_results_t *results, int i);

/** Application j's field `column` as text (as written in apps.csv; owned by the results), or NULL with iosim_error()
 * (j out of range, unknown column). */
IOSIM_API const char *iosim_results_app_text(const iosim_results_t *results, int j, const char *column);

/** Application j's field `column` as a number. @return IOSIM_OK with *value set, or IOSIM_EINVAL (j out of range,
 * unknown column, or a field that is not a number such as "name" or "resources"). */
IOSIM_API int iosim_results_app_value(const iosim_results_t *results, int j, const char *column, double *value);

/** Frees the results (NULL: no-op); the output files stay. */
IOSIM_API void iosim_results_free(iosim_results_t *results);

#ifdef __cplusplus
}
#endif
#endif
