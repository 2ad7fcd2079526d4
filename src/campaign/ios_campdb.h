/* iosim — a campaign's results database OUT/campaign.db (docs/outputs.md, "The results database"): the meta rows
 * (format, iosim_version, campaign, sweep), one `runs` row per recorded run (its point, its swept values as typed
 * columns named by their dotted keys, seed, status, exit code, transient, wall time, error, then the metrics and
 * counts of its results.json and sim_wall_s, as runs.csv has them), and its results.json, scenario.json and tables
 * (apps, resources, allocations, events when asked, StorAlloc's storage_requests) keyed by run id. A run's rows are
 * written in one transaction with its runs row: a run whose runs row is committed is whole. */
#ifndef IOS_CAMPDB_H
#define IOS_CAMPDB_H

#include "ios_campaign.h"
#include "ios_db.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The database's path in output directory `out` (OUT/campaign.db) into buf[n]. @return buf. */
const char *ios_campdb_path(char *buf, size_t n, const char *out);

/** Opens (creating) the results database at `path` for campaign `c` (NULL: runs of no campaign, `iosim run --db`):
 * ios_db_open, the runs table with the campaign's swept fields as columns (INTEGER, REAL or TEXT from their values;
 * booleans as 0/1, objects and arrays as JSON text) and the meta rows "campaign" (`campaign`, the campaign as written)
 * and "sweep" (`record`, ios_campaign_record's).
 * @return IOS_OK with *db, or IOS_EIO/IOS_ENOMEM with ios_diag_message() (file, reason, fix). */
int ios_campdb_open(const char *path, const ios_campaign_t *c, const cJSON *campaign, const cJSON *record,
                    ios_db_t **db);

/** Whether run `id` has a committed runs row whose status is not "missing": sets *failed (status "failed") and
 * *transient (its transient column). @return 1 recorded, 0 not. */
int ios_campdb_recorded(ios_db_t *db, const char *id, int *failed, int *transient);

/** Records in one transaction the run of point `pt` whose files are in `dir` and whose record is `run` (run.json's
 * content, ios_runs_record_json): its runs row, its scenario.json and results.json, and (unless it failed) the tables
 * of its CSV files (apps, resources, allocations, events, requests.csv as storage_requests), replacing any earlier
 * rows of that run. @return IOS_OK, or an IOS_E* code with ios_diag_message() (nothing of the run written). */
int ios_campdb_record(ios_db_t *db, const ios_campaign_t *c, const ios_campaign_point_t *pt, const char *dir,
                      const cJSON *run);

/** ios_campdb_record under run id `id`, for a run of no campaign when `c` or `pt` is NULL (`iosim run --db`: no
 * point nor swept columns; the seed is NULL, its value in results.json), with `scenario` as its scenario.json text
 * (NULL: dir/scenario.json). */
int ios_campdb_record_id(ios_db_t *db, const ios_campaign_t *c, const ios_campaign_point_t *pt, const char *id,
                         const char *dir, const cJSON *run, const char *scenario);

/** Writes runs.csv to `path` (as ios_runs_csv_write) for the points sel[0..nsel) of `c`, from the database: a point
 * without a runs row, or with status "missing", is missing. @return 0, or -1 with errno set. */
int ios_campdb_runs_csv(ios_db_t *db, const ios_campaign_t *c, const int *sel, int nsel, const char *path, int *nfailed,
                        int *nmissing);

/** Copies into `db` the runs of the results database at `shard` that `db` has no runs row for (other than
 * "missing"), each with its rows in every table, in one transaction; tables and columns `db` lacks are added.
 * @return the number of runs copied (>= 0), or a negative IOS_E* code with ios_diag_message(). */
int ios_campdb_merge_from(ios_db_t *db, const char *shard);

/** Adds a runs row with status "missing" for every point of `c` without one. @return IOS_OK or IOS_EIO. */
int ios_campdb_mark_missing(ios_db_t *db, const ios_campaign_t *c);

#ifdef __cplusplus
}
#endif
#endif
