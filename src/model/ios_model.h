/* iosim — the application model (RR-9502 §3.1, RR-9549 §3.2): an application runs on Q_j dedicated nodes and
 * alternates work phases (seconds) and I/O operations (bytes), synchronously. */
#ifndef IOS_MODEL_H
#define IOS_MODEL_H

#include "ios_errors.h"
#include "ios_profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One phase: a work phase of `value` seconds or an I/O operation of `value` bytes. */
typedef struct {
  double value;
  int is_io; /**< 0 (IOS_PHASE_WORK) a work phase; non-zero an I/O operation: IOS_PHASE_WRITE (1), or IOS_PHASE_READ
                  (2), an operation that reads (a storage job's stage-in, StorAlloc §5.1), whose transfers take each
                  resource's read route (ios_resource_t.read_host) when the platform gives one */
} ios_phase_t;

enum { IOS_PHASE_WORK = 0, IOS_PHASE_WRITE = 1, IOS_PHASE_READ = 2 };

/** One application. Owned by its ios_workload_t. */
typedef struct {
  char *name;            /**< unique within the workload (owned) */
  int nodes;             /**< Q_j (p_i in RR-9502), >= 1 */
  double release;        /**< τ_j in s; negative when released before the simulation starts (history) */
  double progress0;      /**< s of progress (work + volume/b_j) made before the simulation starts (RR-9502 Eq. 6) */
  double first_posted;   /**< s: posting time of a first I/O phase posted before the start (<= 0), else 0 */
  int nphases;           /**< number of phases */
  ios_phase_t *phases;   /**< [nphases] (owned); the first may be the remainder of a phase begun before the start */
  ios_profile_t profile; /**< b_j(n) */
  int has_profile;       /**< 0: the engine synthesises b_j(n) = min(Q_j·b_nic, n·C) from the platform */
  int requested_n;       /**< resource count asked for this application ("io_resources"), or -1 */
  int processes;         /**< s_a, MPI processes (IPDPS'21 PROCESS policy), or 0 when unknown (nodes is used) */
  char striping[32];     /**< striping policy of this application's files ("" = the scenario's `striping`) */
  int layout;            /**< file layout: -1 = the scenario's, 0 file-per-process, 1 shared file(s) */
  int shared_files;      /**< M shared files for layout 1 (TAPP-IO §III.A case 3, N:M); 0 or 1 = one single file */
  int *given;            /**< [ngiven] resource indices decided outside the engine (e.g. the disks of a storage
                              request's parts, StorAlloc §4.2; repeats allowed: each index carries volume/ngiven of
                              every I/O operation), owned; NULL = the scenario's allocation and placement decide */
  int ngiven;            /**< entries of `given`; 0 with `given` != NULL = direct PFS access */
  double *given_share;   /**< [ngiven] the fraction of every I/O operation given[i] carries (they sum to 1; a Darshan
                              job's recorded striping, docs/darshan.md), owned; NULL = 1 / ngiven each */
  int no_layout;         /**< 1: a Darshan job whose log records no Lustre layout (osts count, recorded or auto), so
                              the scenario's allocation decided its resources: an assumption the run's summary, its
                              results.json "no_layout" and iosim compare's answer name (docs/whatif.md) */
} ios_app_t;

/** A job left out of a run because it cannot run there (workload.skip_bad, docs/scenario.md): its name and why. */
typedef struct {
  char *name;   /**< the job's name (owned) */
  char *reason; /**< one sentence: what it needs and what the platform has, or why its input was refused (owned) */
} ios_skipped_t;

/** A set of applications. */
typedef struct {
  int napps;
  ios_app_t *apps;           /**< [napps] (owned) */
  int npopulation;           /**< profiles of the dataset the applications were drawn from, or 0 */
  ios_profile_t *population; /**< [npopulation] (owned), or NULL when the workload was not drawn from a dataset;
                                  RR-9549 §6.2 fits the policies' knowledge over it (knowledge.fit_over) */
  char replay[160];          /**< how a stream of logs was released (workload.darshan `replay`), "" otherwise */
  char no_layout_rule[200];  /**< what placed the files of the jobs whose logs record no layout (ios_app_t.no_layout),
                                  in words, when the workload decided it (workload.darshan on a platform of OSTs), ""
                                  otherwise: the scenario's allocation or striping decides (results.json "no_layout") */
  int nskipped;              /**< jobs left out (workload.skip_bad): counted in the summary, listed in results.json */
  ios_skipped_t *skipped;    /**< [nskipped] (owned), in the order they were met */
} ios_workload_t;

/** Frees everything the workload owns and zeroes it. */
void ios_workload_free(ios_workload_t *w);
/** Appends a zeroed application (requested_n = -1) and returns it, or NULL when out of memory. The array grows by
 * doubling (its room is the next power of two >= napps): build workloads with this function or ios_gen_append, never
 * by replacing `apps` with an array of another size. */
ios_app_t *ios_workload_add(ios_workload_t *w);
/** Records that a job named `name` was left out for `reason` (both copied). @return IOS_OK or IOS_ENOMEM. */
int ios_workload_note_skipped(ios_workload_t *w, const char *name, const char *reason);
/** Removes application `j` (0 <= j < napps) from the workload, keeping the others' order, and records it as skipped
 * for `reason` (ios_workload_note_skipped). @return IOS_OK, IOS_EINVAL (j out of range) or IOS_ENOMEM (nothing
 * removed). */
int ios_workload_skip(ios_workload_t *w, int j, const char *reason);
/** Keeps only the application called `name`. @return 0, or IOS_EINVAL when there is none. */
int ios_workload_keep_only(ios_workload_t *w, const char *name);
/** Total work (s) and I/O volume (bytes) of an application. */
void ios_app_totals(const ios_app_t *a, double *work, double *volume);
/** Start time in the simulation: max(release, 0). */
double ios_app_start(const ios_app_t *a);
/** Writers of a striped application's files (TAPP-IO §III): its processes when known (at least its nodes), else one
 * per node. Writer w runs on node ⌊w · nodes / writers⌋ (consecutive blocks of writers per node). */
int ios_app_writers(const ios_app_t *a);

#ifdef __cplusplus
}
#endif
#endif
