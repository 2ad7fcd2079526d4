/* iosim/plugin.h — iosim's I/O controller inside any SimGrid s4u simulation (the SimGrid plugin face of libiosim,
 * docs/library.md).
 *
 * The convention is SimGrid's own plugins' (sg_host_energy_plugin_init): once the platform is loaded, one init call,
 * and the simulation gains a capability. Here: the program declares its applications, and its actors post their I/O
 * operations through the plugin, which allocates I/O resources to the applications (allocation and placement policies,
 * decided again whenever an application begins or ends: IPDPS'21 §5.3), splits each operation over the application's
 * resources, and gives each transfer its rate (the sharing policy, RR-9502 §3-4) as SimGrid flows that share the
 * platform's links with the program's own communications. The program's actors keep computing and communicating as
 * they like between their operations. When SimGrid's run ends the plugin collects iosim's metrics (RR-9549 §3.3,
 * RR-9502 §3.2), which the program reads after Engine::run() returns.
 *
 * Lifecycle, as SimGrid's own plugins (src/plugins/host_energy.cpp in SimGrid's tree): iosim_plugin_init connects the
 * plugin to SimGrid's engine signals once; the run starts with SimGrid's (Engine::on_simulation_start), the results are
 * collected when it ends (Engine::on_simulation_end, once no actor is left), and a deadlock (found by the plugin while
 * actors wait in it, or by SimGrid: Engine::on_deadlock) is recorded as the run's error. iosim_plugin_finish is
 * optional.
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
 * A repeated call with the same config (the same JSON, whatever its spacing; NULL is "{}") is a no-op returning 0, as
 * SimGrid's plugins' inits are; with another config it is refused: one plugin per process, configured by its first
 * successful init. A failed call leaves the plugin uninitialised (it may be called again).
 * @return 0; -1 with iosim_plugin_error() for a bad config, a platform without iosim's roles, another config after a
 *   successful init, or a first call before the platform is loaded or after the simulation started. */
IOSIM_API int iosim_plugin_init(const char *config_json);

/** Declares an application, after iosim_plugin_init and before the simulation runs.
 * @param name unique among the declared applications (copied)
 * @param nodes Q_j, the compute hosts it runs on (>= 1), given at iosim_app_begin
 * @param volume_bytes its total I/O volume (bytes) as the allocation policies know it (RR-9549 Table 2), 0 = unknown
 * @param work_s its total compute time (s) as they know it, 0 = unknown
 * @return the application, or NULL with iosim_plugin_error(). */
IOSIM_API iosim_app_t *iosim_app_declare(const char *name, int nodes, double volume_bytes, double work_s);

/** From an actor: the application begins now on the named compute hosts. The allocation and placement policies decide
 * again over the running applications.
 * @param hosts [nodes] (the `nodes` of iosim_app_declare) host names, borrowed for the call: the compute nodes the
 *   application runs on, its Q_j (RR-9549 §3.1), distinct. A compute host is a host of the platform whose "role"
 *   property is "compute", in the platform XML or set by the config's "platform_roles" (platforms/README.md); the
 *   program lists them with simgrid::s4u::Engine::get_all_hosts() and Host::get_property("role"). They are where the
 *   application's transfers leave from (the route to each I/O resource starts there, its NIC bandwidth is the
 *   "nic_bw" property) and what the policies count as its nodes; the program's actors may run anywhere.
 * @return 0, or -1 (a host unknown or of another role, with the compute hosts in the message; a host repeated; the
 *   application already begun; the plugin not running). */
IOSIM_API int iosim_app_begin(iosim_app_t *app, const char *const *hosts);

/** From an actor: one synchronous I/O operation of `bytes` (>= 0) written (iosim_app_write) or read (iosim_app_read)
 * by the whole application, split over its allocated resources; blocks the calling actor until it completes. The time
 * since the application began or its last operation ended counts as its compute time.
 * @return 0, or -1 (not begun, ended, another operation of it in progress, bytes negative or not finite; or the run
 *   stopped while it waited: a policy failed, or a deadlock — the operation could not move and no other actor or
 *   activity was left to change that — with the reason). */
IOSIM_API int iosim_app_write(iosim_app_t *app, double bytes);
IOSIM_API int iosim_app_read(iosim_app_t *app, double bytes);

/** From an actor: the application ends now (no operation of it in progress); its resources go back to the pool.
 * @return 0, or -1. */
IOSIM_API int iosim_app_end(iosim_app_t *app);

/** After SimGrid's run has returned: the status of the results the plugin collected when the run ended (and of the
 * output files, written then when the config gave output.dir). Optional: the metrics are readable without it. After a
 * run stopped with actors still alive (Engine::run_until), it collects the results itself. Calling it again returns
 * the same status (and sets the same message).
 * @return 0; -1 when an application did not end, the run deadlocked (the message names the date and the
 *   applications it caught), a policy failed during the run, or the call comes from an actor during the run; -3 when
 *   the outputs could not be written. */
IOSIM_API int iosim_plugin_finish(void);

/** After SimGrid's run: one global metric by its name in results.json (docs/outputs.md): "makespan_s",
 * "total_io_time_s", "mean_io_stretch", "mean_io_slowdown", "utilization", "efficiency", "io_load", "min_yield",
 * "aggregate_bandwidth_Bps", "machine_idle_time", "events", "rate_changes", "flows".
 * @return 0 with *value set (s, bytes/s, or a count); -1 with *value untouched for an unknown name, no results yet
 *   (SimGrid's run has not ended), or a failed run (iosim_plugin_finish's status is not 0: the message says why). */
IOSIM_API int iosim_plugin_metric(const char *name, double *value);

/** After SimGrid's run: one of the application's results by its column name in apps.csv (docs/outputs.md):
 * "start_s", "end_s", "io_time_s", "io_volume_bytes", "work_time_s", "n_resources", "bandwidth_Bps", "io_slowdown",
 * "io_stretch", "yield". @return 0 with *value set; -1 with *value untouched for an unknown name, no results yet, or a
 * failed run (as iosim_plugin_metric). */
IOSIM_API int iosim_app_metric(const iosim_app_t *app, const char *name, double *value);

/** The message of the last error of this process's plugin calls ("" when none); valid until the next call. The
 * calling thread's iosim_error() (iosim/common.h) gives the same message. */
IOSIM_API const char *iosim_plugin_error(void);

#ifdef __cplusplus
}
#endif
#endif
