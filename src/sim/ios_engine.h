/* iosim — the engine: the applications (SimGrid actors, or the controller's calendar on the direct path), the
 * controller actor (the only caller of policies), the transfer layer (src/sim/ios_transfer.h: rate-capped SimGrid flows
 * re-rated by cancel + restart of the remaining bytes, or computed directly where no link can bind the policy's
 * rates; docs/engine.md) and the metrics recorder. */
#ifndef IOS_ENGINE_H
#define IOS_ENGINE_H

#include "ios_metrics.h"
#include "ios_model.h"
#include "ios_platform.h"
#include "ios_scenario.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The switches that change how the engine computes (never what it computes, to rounding), for the benchmarks'
 * side-by-side comparisons and the tests of the failure path (docs/engine.md, "Benchmark switches"). The engine reads
 * them from the environment in one place only, ios_sim_bench_from_env; a zeroed struct is the default. */
typedef struct {
  int flow_groups_off; /**< IOSIM_FLOW_GROUPS=0: no flow groups on the flow path */
  int flow_restart;    /**< IOSIM_FLOW_RERATE=restart: a new rate cancels the flow and starts the rest as a new one */
  int node_groups_off; /**< IOSIM_NODE_GROUPS=0: a job's operation from several nodes as one leg per node, always */
  int simgrid_clock;   /**< IOSIM_SIMGRID_CLOCK=1: the direct path's calendar sleeps on SimGrid's clock */
  int no_timeline;     /**< IOSIM_TIMELINE=0: no timeline.bin (analysis/bench_view.py measures what it costs) */
  const char *fault;   /**< IOSIM_FAULT=SITE:K: the K-th policy call at SITE fails as if out of memory (the failure
                            path's tests); NULL: none */
} ios_sim_bench_t;

/** Reads the benchmark switches from the environment into *b (the only place the engine reads the environment). */
void ios_sim_bench_from_env(ios_sim_bench_t *b);

/** Everything the engine reads of a run: its own declared configuration, filled from a scenario
 * (ios_sim_config_from_scenario) or for a replay of storage requests (ios_sim_config_replay). Pointers are borrowed
 * from the scenario. */
typedef struct {
  const char *file;     /**< the scenario, named in messages */
  const char *platform; /**< the platform XML, named in messages */
  const ios_allocation_policy_t *allocation;
  ios_params_t allocation_params;
  const ios_placement_policy_t *placement;
  ios_params_t placement_params;
  const ios_sharing_policy_t *sharing;
  ios_params_t sharing_params;
  const ios_striping_policy_t *striping; /**< striping of every application's files (TAPP-IO), or NULL */
  ios_params_t striping_params;
  int striping_layout;    /**< 0 file-per-process, 1 single shared file */
  int striping_scope;     /**< 0: one usage state for every job's placements; 1: each job its own (TAPP-IO §II) */
  double window_fraction; /**< length of the steady-state window, as a fraction (> 0) */
  double window_begin;    /**< s, or NAN for the automatic window */
  double window_end;      /**< s, or NAN */
  int stop_at_end;        /**< stop the simulation at the window's end */
  int window_v2;          /**< FairShare over the window's first half, the policy over the second (RR-9502 v2) */
  double tick_s;          /**< s: periodic decisions of the controller, 0 = none */
  int flows_simgrid;      /**< every transfer a SimGrid flow (no direct path) */
  int queue;              /**< jobs wait in a FIFO queue for free compute nodes (IPDPS'21 §5.3) */
  int backfill;           /**< a waiting job that fits may start before the queue's head */
  int rearbitrate;        /**< 0 auto (the allocation policy's keeps_running), 1 all, 2 new jobs only */
  int group_fit;          /**< policies see one fitted profile per shape group (RR-9549 §6.2) */
  int fit_over_workload;  /**< 1: fit over the workload's applications; 0: over the dataset it was drawn from */
  double fit_degree;      /**< degree of that polynomial */
  double fit_flat;        /**< relative variation below which a profile is neutral */
  double knowledge_noise; /**< σ of the multiplicative error on the volumes and work policies see */
  uint64_t seed;          /**< seed of every random stream */
  const char *out_dir;    /**< where events.csv (or timeline.bin) and allocations.csv go; NULL: nowhere */
  int events;             /**< write events.csv */
  int progress;           /**< a progress line on stderr on long runs */
  int external;           /**< the applications are external (the SimGrid plugin, src/lib/plugin.cpp): each begins,
                               posts its I/O operations and ends when its caller says so (ios_engine_app_begin, _post,
                               _end), between them it runs code of its own; needs queue and flows_simgrid */
  /** External applications: called in SimGrid's maestro when application `app`'s operation posted by
   * ios_engine_app_post has completed (or at once when it had no bytes); `ctx` = external_ctx. */
  void (*external_done)(int app, void *ctx);
  /** External applications: called in SimGrid's maestro when the run stops before they have all ended (a policy
   * failed: ios_engine_finish returns why), so that callers still waiting are let go; may be NULL. */
  void (*external_stopped)(void *ctx);
  void *external_ctx;
  /** External applications: the caller's deadlock watch (ios_sg_stall_watch, in SimGrid's maestro): how many of its
   * actors wait in it for a completion, how many it has let go that have not run yet, and what to do when SimGrid
   * would declare a deadlock next; external_stalled NULL: no watch. */
  int (*external_waiting)(void);
  int (*external_released)(void);
  void (*external_stalled)(void);
  const double *external_volume; /**< [napps] bytes: the I/O volume allocation and placement policies know of each
                                      external application (RR-9549 Table 2 V_io), 0 = unknown */
  const double *external_work;   /**< [napps] s: its compute time they know (T_cpu), 0 = unknown */
  ios_sim_bench_t bench; /**< the benchmark switches (ios_sim_config_from_scenario reads them from the environment) */
  int replay;            /**< the applications replay storage requests: they start at their release, hold no compute
                              node of their own (hosts in turn), and the window is the whole run */
} ios_sim_config_t;

/** The configuration of scenario `s` as written in its file. */
void ios_sim_config_from_scenario(const ios_scenario_t *s, ios_sim_config_t *c);

/** The configuration that replays storage requests as jobs on the platform's disks (StorAlloc, src/storalloc/run.c):
 * `s`'s seed, outputs and knowledge; no queue, no striping, max-min sharing (SimGrid's max-min over the routes
 * decides), the whole run as the window, no early stop. */
void ios_sim_config_replay(const ios_scenario_t *s, ios_sim_config_t *c);

/** Runs one simulation (once per process: one SimGrid engine per process). The platform must be loaded.
 * Fills `r` (which the caller frees with ios_results_free). @return IOS_OK; IOS_EINVAL with ios_diag_message() for
 * inputs the engine or the policies reject, before the run (node counts, window, δ, policies' arguments) or during
 * it (a policy failing on a running set, more SimGrid actors than the machine allows); IOS_EIO when events.csv or
 * allocations.csv cannot be written; IOS_ENOMEM, before or during the run (with a message saying what ran out);
 * IOS_EINTERNAL when a policy returns a result the engine cannot use. On any error nothing in `r` is a result and no
 * output file is left. The environment variable IOSIM_FAULT=SITE:K (sharing, striping or arbitration) makes the
 * K-th policy call at SITE fail as out of memory: the tests of this failure path use it (test/engine_failure.cpp). */
int ios_engine_run(const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w, ios_results_t *r);

/** ios_engine_run in two halves, for a caller that runs SimGrid itself (the SimGrid plugin, src/lib): sets the run up
 * and sets its first wake-ups (the engine then runs inside SimGrid's own run). Same errors as ios_engine_run's set-up;
 * on an error nothing is left to finish. */
int ios_engine_start(const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w, ios_results_t *r);

/** After SimGrid's run: the results into the `r` given to ios_engine_start, or the run's failure (same codes as
 * ios_engine_run); frees the engine's state. IOS_EINVAL when no run was started. */
int ios_engine_finish(void);

/** External applications (ios_sim_config_t.external), from a SimGrid actor of the caller's simulation while it runs
 * (ios_engine_start done, ios_engine_finish not yet). Each takes effect at SimGrid's current date, in the engine's step
 * at that date (the allocation policy then decides again over the running applications, IPDPS'21 §5.3).
 * ios_engine_app_begin: application `app` (index into the workload) starts on compute hosts hosts[0 .. nodes) (indices
 * into the platform's compute hosts, distinct); ios_engine_app_post: it posts the phases appended to its workload entry
 * since the last call (the work phases it ran itself, counted as done, then one I/O operation); external_done reports
 * the operation's completion; ios_engine_app_end: it ends (no operation in progress).
 * @return IOS_OK; IOS_EINVAL with ios_diag_message() for an index out of range, a host out of range or repeated, an
 * application not begun, begun twice, ended, or with an operation in progress. */
int ios_engine_app_begin(int app, const int *hosts);
int ios_engine_app_post(int app);
int ios_engine_app_end(int app);

#ifdef __cplusplus
}
#endif
#endif
