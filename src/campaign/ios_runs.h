/* iosim — the runs of a campaign's output directory (ios_outdir.h, docs/campaigns.md): a run is prepared in a
 * temporary directory runs/.<id>.<pid>.tmp/ and, once its process has ended, recorded (run.json written last) and
 * renamed into runs/<id>/, so that runs/<id>/ is always whole; runs.csv is one row per point, written from the
 * points' run.json and results.json. */
#ifndef IOS_RUNS_H
#define IOS_RUNS_H

#include "ios_campaign.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Whether the run of point `id` under `runs_dir` is recorded (runs_dir/<id>/run.json readable as JSON). Sets
 * *failed to 1 when its "status" is "failed" (else 0), and *transient to 1 when it failed with "transient": true
 * (else 0). @return 1 recorded, 0 not. */
int ios_runs_recorded(const char *runs_dir, const char *id, int *failed, int *transient);

/** Records the run of point `pt` that ran in directory `tmp` and has ended: writes tmp/run.json ("run_id", "index",
 * "status": results.json's status, or "failed"; "exit_code" (-1 after a signal), "wall_time_s": seconds since `t0`
 * (an ios_clock_s date), "error": the signal, or the last line of tmp/stderr.txt without its "iosim: error: " prefix,
 * with `tmp` renamed to its final place; "transient": true for a failure on a transient system condition (a full
 * disk, a quota, a file size limit, no memory, too many open files, an I/O error, or SIGKILL or SIGXFSZ), which a
 * resumed sweep runs again), then renames `tmp` to runs_dir/<id> (replacing a previous one). `wstatus` is waitpid's
 * status of the run's process: a run is complete when it exited with 0 and left a readable results.json. Sets
 * *failed and *transient (each 0 or 1) even on failure. @return 0, or -1 with errno set (run.json or the rename). */
int ios_runs_record(const char *runs_dir, const ios_campaign_point_t *pt, const char *tmp, double t0, int wstatus,
                    int *failed, int *transient);

/** The run record (run.json's content, as ios_runs_record describes it) of point `pt` whose run ran in `tmp` and has
 * ended (`wstatus`: waitpid's status; `t0`: its start, an ios_clock_s date), its error naming `final` where it names
 * `tmp`. Sets *failed and *transient (0 or 1). @return the record (the caller deletes it), or NULL on ENOMEM. */
cJSON *ios_runs_record_json(const ios_campaign_point_t *pt, const char *tmp, const char *final, double t0, int wstatus,
                            int *failed, int *transient);

/** Writes runs.csv to `path` (atomically, ios_fs_write_atomic) for the points sel[0..nsel) of `c` (indices into
 * c->points): one row per point with its run id, index, swept values, seed, status ("missing" without a run.json),
 * wall time (s), error, the metrics and counts of its results.json (the union of every run's names, in order of
 * appearance; "applications" left out) and the engine's wall time (s). dirs[i] is the run directory of sel[i]
 * (borrowed), or NULL when it has none. Sets *nfailed and *nmissing (runs failed, points without a run). @return 0,
 * or -1 with errno set. */
int ios_runs_csv_write(const ios_campaign_t *c, const int *sel, int nsel, char *const *dirs, const char *path,
                       int *nfailed, int *nmissing);

/** What runs.csv reads of selected point i (position in sel): *run, its run record (run.json's "status",
 * "wall_time_s", "error"), and *results, its results.json; each NULL when there is none (a missing point). The
 * caller of ios_runs_csv_write_with deletes both. */
typedef void (*ios_runs_load_fn)(int i, cJSON **run, cJSON **results, void *ctx);

/** ios_runs_csv_write with the runs' records read by `load` (a directory's files, or a results database). */
int ios_runs_csv_write_with(const ios_campaign_t *c, const int *sel, int nsel, ios_runs_load_fn load, void *ctx,
                            const char *path, int *nfailed, int *nmissing);

#ifdef __cplusplus
}
#endif
#endif
