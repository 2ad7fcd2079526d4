/* iosim — the sweep runner of `iosim sweep` (docs/campaigns.md): every point of a campaign (or of one shard of it)
 * run in its own child process, a few at a time, each run prepared in a temporary directory and recorded whole
 * (ios_runs.h); a sweep started again in the same output directory resumes (recorded runs are kept); a signal stops
 * the runs under way and keeps the recorded ones. */
#ifndef IOS_SWEEP_H
#define IOS_SWEEP_H

#include "ios_args.h"
#include "ios_campaign.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How to run a campaign's points. */
typedef struct {
  const char *out;          /**< the output directory OUT (ios_outdir.h), absolute */
  int jobs;                 /**< runs at a time, >= 1 */
  int shard_i, shard_n;     /**< run only the points whose index is shard_i - 1 modulo shard_n (1 <= shard_i <=
                                 shard_n; 1 and 1 for every point) */
  int run_dirs;             /**< 1: also keep each run's files in runs/<run_id>/ (as before the database); 0: the
                                 database OUT/campaign.db only */
  int retry;                /**< 1: run again the points recorded as failed (a transient failure is always run
                                 again), 0: keep them */
  const ios_sg_flags_t *sg; /**< SimGrid's --cfg and --log flags, already checked, added to every run's arguments
                                 (borrowed) */
  /** The run command, called in each run's child process (which never returns from it: its result is the child's
   * exit status) as run_main(argc, argv) with argv = {"run", "DIR/scenario.json", "--out", "DIR", the flags of `sg`,
   * NULL}, its standard output and error redirected to DIR/stdout.txt and DIR/stderr.txt. The child does not
   * execute a new binary: SimGrid must not have been started in the sweep's process. */
  int (*run_main)(int argc, char **argv);
} ios_sweep_opts_t;

/** Runs the points of `c` (loaded and checked: ios_campaign_load_with, ios_outdir_check_name) in o->out: takes its
 * lock (ios_outdir_lock), writes campaign.json and sweep.json, removes a previous runs.csv and the temporary
 * directories of an interrupted sweep, runs o->jobs at a time the points of the shard that have no run recorded (a
 * failed one again with o->retry, or when its failure was transient), then writes runs.csv. The runs share generated
 * schedules in OUT/.cache (IOSIM_CACHE_DIR, set in the environment unless already set; removed once every run is
 * complete). SIGINT, SIGTERM and SIGHUP stop the runs under way; their handlers stay installed and the interruption is
 * remembered, so a process runs one sweep. Prints the plan and a progress line to stderr (every 10 s when stderr is
 * not a terminal) and the summary to stdout; errors go to stderr. @return the exit code of `iosim sweep`: 0 every run
 * complete, 1 some runs failed (listed in runs.csv), runs.csv cannot be written, or an internal error (out of memory,
 * a run cannot be prepared, started or recorded; no runs.csv), 2 the output directory cannot be locked or prepared,
 * 130 interrupted by a signal (no runs.csv; recorded runs kept). */
int ios_sweep_run(const ios_campaign_t *c, const ios_sweep_opts_t *o);

#ifdef __cplusplus
}
#endif
#endif
