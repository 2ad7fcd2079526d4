/* iosim — SimGrid glue of the inputs: configuration, platform loading and route queries, thin wrappers over public
 * s4u calls that the SimGrid 3.32 C API lacks; and the set-up of SimGrid's tracer, which must be configured before the
 * platform is loaded (docs/trace.md). */
#ifndef IOS_SG_PLATFORM_H
#define IOS_SG_PLATFORM_H

#include <simgrid/forward.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Sets one SimGrid configuration item ("name:value"); must be called after simgrid_init and before loading
 * the platform. A `tracing...` item makes this process the one that traces (see ios_sg_load_platform).
 * @return 0, or -1 when SimGrid rejects it. */
int ios_sg_set_config(const char *name_value);

/** Prints SimGrid's configuration items on standard output: name, meaning, type and current value of each (what a
 * SimGrid program prints for --help; SimGrid 3.32 itself aborts on --cfg=help). simgrid_init must have been called. */
void ios_sg_config_help(void);

/** Loads a SimGrid platform file, catching SimGrid's parse errors.
 *
 * Tracing (docs/trace.md). In the process that asked for a trace (ios_sg_trace_to, or a `tracing` setting through
 * ios_sg_set_config) SimGrid's tracer is set up first: output.trace's file when asked, `tracing/platform` on unless
 * the user chose the tracer's platform options (the containers iosim's link variables need), and
 * `tracing/platform/topology` off (SimGrid 3.32 aborts extracting the topology of a zone whose routes go through a
 * router, as iosim's do). In any other process — the child that platform.c forks to validate the platform — tracing
 * is turned off: it loads the file only to check it. SimGrid's tracer names a container after every zone, host,
 * router and link in one namespace and refuses a name twice, while iosim's platforms name each resource's link after
 * its host; so, when tracing, SimGrid loads a copy of the file (in $TMPDIR, removed once loaded) where each link whose
 * name is also a zone's, host's or router's is called NAME_link (NAME_link2, ... when that is taken too). The other
 * functions of this header take the links' names as written in the file.
 * @return 0, or -1 with a one-line reason in err (errlen bytes, NUL-terminated). */
int ios_sg_load_platform(const char *path, char *err, size_t errlen);

/** Whether the route from one host to another crosses the named link (routes are compared as sets: SimGrid's
 * Dijkstra routing may list a hop's links in reverse). @return 1 yes, 0 no, -1 no route. The platform must be
 * loaded with ios_sg_load_platform (which seals it); a zone that cannot route may abort SimGrid, so callers check
 * reachability in a child process first (see platform.c). */
int ios_sg_route_has_link(sg_host_t from, sg_host_t to, const char *link);

/** Bandwidth (bytes/s) of the named link, or -1 when no link has that name. */
double ios_sg_link_bandwidth(const char *name);

/** Sets the bandwidth (bytes/s) of the named link (nothing when no link has that name); before the simulation. */
void ios_sg_link_set_bandwidth(const char *name, double bw);

/** Asks for output.trace's trace: the next ios_sg_load_platform of this process starts SimGrid's tracer writing
 * `dir`/trace.paje through a temporary file of `dir` (when `dir` exists, as a run's output directory does once
 * prepared; otherwise — a check — nothing is traced). ios_sg_trace_commit publishes the file; ios_sg_trace_discard,
 * or the end of the process, removes it. NULL withdraws the request. `dir` is copied. ios_scenario_load calls it. */
void ios_sg_trace_to(const char *dir);

/** Whether SimGrid's tracer records this process's simulation with the platform's containers (`tracing` and one of
 * `tracing/platform`, `tracing/categorized`, `tracing/uncategorized` on), so that link variables can be traced.
 * Meaningful once the platform is loaded. */
int ios_sg_tracing(void);

/** Before a simulation: IOS_OK, or IOS_EIO with ios_diag_message() naming `dir`/trace.paje and the reason when
 * output.trace was asked but its file could not be created at load. */
int ios_sg_trace_status(void);

/** After the simulation (SimGrid's tracer closes its file when the simulation ends): renames output.trace's
 * temporary file to `dir`/trace.paje. Nothing to do when no trace was asked. @return IOS_OK, or IOS_EIO with
 * ios_diag_message() (the temporary file removed). */
int ios_sg_trace_commit(void);

/** Removes output.trace's temporary file, if any (a failed run leaves no trace behind). */
void ios_sg_trace_discard(void);

#ifdef __cplusplus
}
#endif
#endif
