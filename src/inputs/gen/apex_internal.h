/* iosim — what the two files of the APEX generator share (src/inputs/gen/apex.c: the data, the windows and the
 * generator kind; apex_schedule.c: the jobs and their first-fit schedule, RR-9502 §6.3.1). Internal to the generator.
 */
#ifndef IOS_APEX_INTERNAL_H
#define IOS_APEX_INTERNAL_H

#include "ios_gen.h"

#include <stdint.h>

#define GIB 1073741824.0
#define MONTH_S (30.0 * 86400.0)
#define MAX_CLASSES 32
#define MAX_JOBS 2000000

enum { P_MACHINE, P_MONTHS, P_WINDOW, P_NOISE, P_PERIOD, NPARAMS };

/* One application class of the APEX table. */
typedef struct {
  char name[32];
  double ratio, walltime_s, cores, in, out, ckpt, period;
} apex_class_t;

/* The machine: Cielo from platform_cielo.csv, then scaled to M_y. Bytes and bytes/s. */
typedef struct {
  double nodes, cores_per_node, ram, node_bw, system_bw;
} apex_machine_t;

/* One scheduled job. */
typedef struct {
  int cls, nodes, k;             /* class, p, checkpoints */
  double compute, start, length; /* C (s), first-fit start (s), dedicated length D on M_y (s) */
  double in, out, ckpt, bw;      /* I/O durations (s) and bandwidth b (bytes/s) on M_y */
  double period;                 /* P, s of compute between checkpoints */
} apex_job_t;

/** The jobs of the first-fit schedule of `months` of the projected machine `m` (classes cls[0 .. nc), Cielo `cielo`,
 * the generator's parameter values `val` [NPARAMS], `seed`), through the schedule cache (ios_gen_cache_load): the same
 * jobs, bit for bit, read back when IOSIM_CACHE_DIR holds them. *jobs is malloc'd. @return IOS_OK, IOS_EINVAL (a class
 * whose I/O does not fit in its walltime, with ios_diag_message()), IOS_ENOMEM. Defined in apex_schedule.c. */
int ios_apex_schedule(const apex_class_t *cls, int nc, const apex_machine_t *cielo, const apex_machine_t *m,
                      const double *val, uint64_t seed, const ios_gen_ctx_t *c, apex_job_t **jobs, int *njobs);

#endif
