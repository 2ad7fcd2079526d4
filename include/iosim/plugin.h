/* iosim/plugin.h — iosim's I/O controller inside any SimGrid s4u simulation (the SimGrid plugin face of libiosim,
 * docs/library.md).
 *
 * The convention is SimGrid's own plugins' (sg_host_energy_plugin_init): once the platform is loaded, one init call,
 * and the simulation gains a capability. Here: the program declares its applications, and its actors post their I/O
 * operations through the plugin, which allocates I/O resources to the applications (allocation and placement policies,
 * decided again whenever an application begins or ends: IPDPS'21 §5.3), splits each operation over the application's
 * resources, and gives each transfer its rate (the sharing policy, RR-9502 §3-4) as SimGrid flows that share the
 * platform's links with the program's own communications. The program's actors keep computing and communicating as
 * they like between their operations. At the end the plugin reports iosim's metrics (RR-9549 §3.3, RR-9502 §3.2).
 *
 * The platform carries iosim's roles as host properties (role=compute|ionode|ost|pfs..., the resources' "link" and
 * the compute hosts' "nic_bw": platforms/README.md), or the config gives `platform_roles` rules that set them.
 *
 * Threading: SimGrid's sequential contexts only (the default); the calls marked "from an actor" block or act at
 * SimGrid's current date. One plugin per process, like SimGrid's engine.
 *
 * Errors: every function returning int returns 0 (IOSIM_PLUGIN_OK) or a negative code (-1 bad input, -2 out of memory,
 * -3 input/output, -4 internal), and iosim_plugin_error() then names the field, the value and the fix. */
#ifndef IOSIM_PLUGIN_H
#define IOSIM_PLUGIN_H

#include "iosim/common.h" /* IOSIM_API, iosim_error() */

#ifdef __cplusplus
extern "C" {
#endif

/** The codes the plugin's functions return. */
enum {
  IOSIM_PLUGIN_OK = 0,
  IOSIM_PLUGIN_EINVAL = -1,
  IOSIM_PLUGIN_ENOMEM = -2,
  IOSIM_PLUGIN_EIO = -3,
  IOSIM_PLUGIN_EINTERNAL = -4
};

/** An application declared to the plugin (opaque; owned by the plugin, valid until the process ends). */
typedef struct iosim_app iosim_app_t;

/** Initialises the plugin, after SimGrid's platform is loaded and before the simulation runs.
 * @param config_json a JSON object written as an iosim scenario (docs/scenario.md) without platform and workload:
 *   "allocation", "placement", "sharing", "striping" (policies and parameters, `iosim policies` lists them), "seed",
 *   "knowledge", "platform_roles", and "output": {"dir": DIR} to also write results.json, apps.csv, resources.csv and
 *   allocations.csv there at iosim_plugin_finish. NULL or "{}": the scenario defaults. Transfers are always SimGrid
 *   flows (engine.flows "simgrid"); a periodic sharing policy needs its δ given (no window to derive it from).
 * @return 0; -1 with iosim_plugin_error() for a bad config, a platform without iosim's roles, a second call, or a call
 *   before the platform is loaded or after the simulation started. */
IOSIM_API int iosim_plugin_init(const char *config_json);

/** Declares an application, after iosim_plugin_init and before the simulation runs.
 * @param name unique among the declared applications (copied)
 * @param nodes Q_j, the compute hosts it runs on (>= 1), given at iosim_app_begin
 * @param volume_bytes its total I/O volume (bytes) as the allocation policies know it (RR-9549 Table 2), 0 = unknown
 * @param work_s its total compute time (s) as they know it, 0 = unknown
 * @return the application, or NULL with iosim_plugin_error(). */
IOSIM_API iosim_app_t *iosim_app_declare(const char *name, int nodes, double volume_bytes, double work_s);

/** From an actor: the application begins now on the named compute hosts (hosts[0 .. nodes), distinct, each with role
 * compute). The allocation and placement policies decide again over the running applications.
 * @return 0, or -1 (unknown or repeated host, application already begun, plugin not running). */
IOSIM_API int iosim_app_begin(iosim_app_t *app, const char *const *hosts);

/** From an actor: one synchronous I/O operation of `bytes` (>= 0) written (iosim_app_write) or read (iosim_app_read)
 * by the whole application, split over its allocated resources; blocks the calling actor until it completes. The time
 * since the application began or its last operation ended counts as its compute time.
 * @return 0, or -1 (not begun, ended, another operation of it in progress, bytes negative or not finite). */
IOSIM_API int iosim_app_write(iosim_app_t *app, double bytes);
IOSIM_API int iosim_app_read(iosim_app_t *app, double bytes);

/** From an actor: the application ends now (no operation of it in progress); its resources go back to the pool.
 * @return 0, or -1. */
IOSIM_API int iosim_app_end(iosim_app_t *app);

/** After SimGrid's run has returned: collects the results (and writes the output files when the config gave
 * output.dir). Applications that never ended leave the results incomplete (an error).
 * @return 0; -1 when an application did not end or a policy failed during the run; -3 when the outputs cannot be
 *   written. Calling it again returns what the first call returned. */
IOSIM_API int iosim_plugin_finish(void);

/** After iosim_plugin_finish: one global metric by its name in results.json (docs/outputs.md): "makespan_s",
 * "total_io_time_s", "mean_io_stretch", "mean_io_slowdown", "utilization", "efficiency", "io_load", "min_yield",
 * "aggregate_bandwidth_Bps", "machine_idle_time", "events", "rate_changes", "flows".
 * @return 0 with *value set (s, bytes/s, or a count), or -1 for an unknown name or no results yet. */
IOSIM_API int iosim_plugin_metric(const char *name, double *value);

/** After iosim_plugin_finish: one of the application's results by its column name in apps.csv (docs/outputs.md):
 * "start_s", "end_s", "io_time_s", "io_volume_bytes", "work_time_s", "n_resources", "bandwidth_Bps", "io_slowdown",
 * "io_stretch", "yield". @return 0 with *value set, or -1 for an unknown name or no results yet. */
IOSIM_API int iosim_app_metric(const iosim_app_t *app, const char *name, double *value);

/** The message of the last error of this process's plugin calls ("" when none); valid until the next call. The
 * calling thread's iosim_error() (iosim/common.h) gives the same message. */
IOSIM_API const char *iosim_plugin_error(void);

#ifdef __cplusplus
}
#endif
#endif
