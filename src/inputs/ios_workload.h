/* iosim — workloads: inline applications (scenario or JSON file), the RR-9502 reference simulator's sample files,
 * and the RR-9549 §5.3 generator over FORGE MareNostrum 4 bandwidth profiles (IPDPS'21 §2-3). Formats: docs/. */
#ifndef IOS_WORKLOAD_H
#define IOS_WORKLOAD_H

#include "ios_model.h"
#include "ios_platform.h"
#include "ios_scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

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
