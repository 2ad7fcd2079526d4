/* iosim — SimGrid glue of the inputs: configuration, platform loading and route queries, thin wrappers over public
 * s4u calls that the SimGrid 3.32 C API lacks. */
#ifndef IOS_SG_PLATFORM_H
#define IOS_SG_PLATFORM_H

#include <simgrid/forward.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Sets one SimGrid configuration item ("name:value"); must be called after simgrid_init and before loading
 * the platform. @return 0, or -1 when SimGrid rejects it. */
int ios_sg_set_config(const char *name_value);

/** Loads a SimGrid platform file, catching SimGrid's parse errors.
 * @return 0, or -1 with a one-line reason in err (errlen bytes, NUL-terminated). */
int ios_sg_load_platform(const char *path, char *err, size_t errlen);

/** Whether the route from one host to another crosses the named link (routes are compared as sets: SimGrid's
 * Dijkstra routing may list a hop's links in reverse). @return 1 yes, 0 no, -1 no route. The platform must be
 * loaded with ios_sg_load_platform (which seals it); a zone that cannot route may abort SimGrid, so callers check
 * reachability in a child process first (see platform.c). */
int ios_sg_route_has_link(sg_host_t from, sg_host_t to, const char *link);

/** Bandwidth (bytes/s) of the named link, or -1 when no link has that name. */
double ios_sg_link_bandwidth(const char *name);

#ifdef __cplusplus
}
#endif
#endif
