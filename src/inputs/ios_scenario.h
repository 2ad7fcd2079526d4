/* iosim — scenario files (JSON, loaded with cJSON): platform, workload, the three policies with their parameters,
 * seed, window, output. Every field has a default (see docs/scenario.md); unknown fields are errors; any field can
 * be overridden from the command line with --set dotted.key=value. Stable keys: platform, workload.file,
 * allocation.policy, placement.policy, sharing.policy (parameters beside the name), window.length_fraction, seed,
 * output.dir. Relative input paths (platform, workload files) in a scenario file are relative to that file; in --set,
 * to the current directory; output.dir is always relative to the current directory;
 * "${IOSIM_DATA_DIR}" in a path is replaced by the public datasets folder (ios_data_dir: $IOSIM_DATA_DIR, else
 * ../shared/datasets beside iosim's home, else its traces/datasets). */
#ifndef IOS_SCENARIO_H
#define IOS_SCENARIO_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>

#include "ios_policy.h"
#include "ios_value.h"
#include "ios_striping.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A loaded, validated scenario. Pointers are borrowed from `resolved`. */
typedef struct {
  char *file;                  /**< scenario path (owned) */
  cJSON *resolved;             /**< the whole scenario with every default filled in (owned) */
  const char *platform;        /**< platform XML path (resolved); NULL until materialised when the
                                    scenario gives a platform family (platform_spec) */
  const cJSON *platform_spec;  /**< {"kind": ..., params} of a generated platform, or NULL */
  const cJSON *platform_roles; /**< the rules mapping another tool's hosts to iosim's roles (docs/scenario.md), or
                                    NULL (ios_platform_load) */
  char *generated_platform;    /**< path of the XML written for platform_spec (owned), or NULL */
  const cJSON *workload;       /**< the "workload" object */
  const cJSON *storage; /**< the "storage" object of a storage-allocation scenario (ios_storage_run.h), or NULL */
  const ios_striping_policy_t *striping; /**< striping of every application's files (TAPP-IO), or NULL */
  ios_params_t striping_params;          /**< its parameters */
  int striping_layout;                   /**< striping.layout: 0 file-per-process, 1 single shared file */
  int striping_scope; /**< striping.scope: 0 global (one usage state for every job), 1 application (each job its own,
                           TAPP-IO's per-application bpio) */
  const ios_allocation_policy_t *allocation; /**< chosen allocation policy */
  ios_params_t allocation_params;
  const ios_placement_policy_t *placement;
  ios_params_t placement_params;
  const ios_sharing_policy_t *sharing;
  ios_params_t sharing_params;
  unsigned sharing_given;     /**< bit i set: the scenario gave sharing parameter i (sharing->params[i]) itself, else it
                                   holds the default (a calibration then may set it: ios_calibration.h) */
  double window_fraction;     /**< window.length_fraction (> 0) */
  double window_begin;        /**< s, or NAN for the automatic steady-state window */
  double window_end;          /**< s, or NAN */
  int stop_at_end;            /**< window.stop_at_end: stop the simulation at the window's end */
  int window_v2;              /**< window.mode "v2": FairShare over the window's first half, the policy and the
                                   objectives over the second (the RR-9502 reference simulator's v2 windows) */
  double tick_s;              /**< controller.tick_s: periodic decision period in s, 0 = none */
  int flows_simgrid;          /**< engine.flows "simgrid": every transfer is a SimGrid flow, no direct computation of
                                   transfers whose rates no link can bind (docs/engine.md) */
  int queue;                  /**< queue.enabled: jobs wait in a FIFO queue for free compute nodes (IPDPS'21 §5.3) */
  int backfill;               /**< queue.backfill: a waiting job that fits may start before the queue's head */
  int rearbitrate;            /**< queue.rearbitrate: 0 auto (the allocation policy's keeps_running), 1 all, 2 new */
  int group_fit;              /**< knowledge.profiles "group-fit": policies see one fitted profile per shape group */
  int fit_over_workload;      /**< knowledge.fit_over "workload" (1) or "dataset" (0): what the group fits are over */
  double fit_degree;          /**< knowledge.degree: degree of that polynomial */
  double fit_flat;            /**< knowledge.flat: relative variation below which a profile is neutral */
  double knowledge_noise;     /**< knowledge.noise: σ of the multiplicative error on seen volumes and work */
  uint64_t seed;              /**< seed of every random stream */
  const char *out_dir;        /**< output.dir */
  int events;                 /**< output.events: write events.csv */
  int progress;               /**< output.progress: progress line on stderr (default 1) */
  int trace;                  /**< output.trace: SimGrid's tracer writes a Paje trace, trace.paje (docs/trace.md) */
  cJSON *calibration_applied; /**< what the run applied of the calibration it names (ios_calibration_apply), written
                                   as results.json's "calibration" (docs/outputs.md); owned, NULL when none */
} ios_scenario_t;

/** Loads a scenario file and applies `nsets` overrides "dotted.key=value" (value parsed as JSON when it is valid
 * JSON, else taken as a string). With output.trace it also asks the platform loader of this process to start
 * SimGrid's tracer (ios_sg_trace_to; without, it withdraws such a request). @return IOS_OK, or IOS_EINVAL/IOS_EIO
 * with ios_diag_message() naming the file, the field and the fix; `out` is untouched on failure. */
int ios_scenario_load(const char *path, int nsets, char *const *sets, ios_scenario_t *out);

/** Validates a scenario given as a JSON tree (`user`, borrowed; relative paths in it are taken as they are) and
 * fills `out`; `label` names it in messages (e.g. "campaign.json: point 3"). Same errors as ios_scenario_load. */
int ios_scenario_from_json(const cJSON *user, const char *label, ios_scenario_t *out);

/** Makes the relative path fields of a user tree absolute with respect to `dir` (a directory with a trailing '/';
 * "" leaves them). @return IOS_OK or IOS_ENOMEM. */
int ios_scenario_rebase(cJSON *user, const char *dir);

/** Sets dotted field `key` of a user tree to a copy of `value`, creating intermediate objects; a relative path
 * value of a path field is made relative to `dir` ("" = the current directory). Names are not checked here
 * (ios_scenario_from_json does). @return IOS_OK, IOS_EINVAL (bad key) or IOS_ENOMEM. */
int ios_scenario_set_value(cJSON *user, const char *key, const cJSON *value, const char *dir);

/** For a scenario with a platform family (platform_spec): writes its XML to `xml_path` (through a temporary file
 * and a rename) and points `platform` at it. A no-op otherwise. @return IOS_OK, IOS_EINVAL (a parameter value the
 * family rejects) or IOS_EIO, with ios_diag_message(). */
int ios_scenario_materialize_platform(ios_scenario_t *s, const char *xml_path);

/** Prints every scenario field, one per line: dotted key, type, default, unit and meaning, from the defaults the
 * loader validates with (`iosim help scenario`). @return IOS_OK; IOS_EINTERNAL when a field has no documentation
 * line (a developer's omission, also caught by the unit tests); IOS_ENOMEM. */
int ios_scenario_print_keys(FILE *f);

/** The rule a scenario reads a value of policy parameter `ps` with: its range (none when lo >= hi), whether it must be
 * an integer, and its unit ("s": a duration such as "5min", "bytes": a size such as "4GiB"). */
ios_num_spec_t ios_scenario_param_spec(const ios_param_spec_t *ps);

/** Frees what the scenario owns. */
void ios_scenario_free(ios_scenario_t *s);

/** Opens a file of the public datasets (ios_open_input). On failure sets ios_diag_message() on `path` and `field`
 * (the scenario field that names the data): "cannot read the WHAT (reason); " where the datasets folder is and which
 * rule chose it (ios_data_dir_describe), then the fix (`make data`, IOSIM_DATA_DIR to a folder holding FOLDER/, or
 * FIELD). @return the file, or NULL (the caller returns IOS_EIO). */
FILE *ios_open_dataset(const char *path, const char *field, const char *what, const char *folder);

/** Expands ${IOSIM_DATA_DIR} in a path into a newly allocated string, with the datasets folder of ios_data_dir().
 * @return NULL with ios_diag_message() set (naming `file` and `field`, the folders tried and `make data`) when the
 * path needs it and there is none. */
char *ios_expand_path(const char *path, const char *file, const char *field);

#ifdef __cplusplus
}
#endif
#endif
