/* iosim — a results database: one SQLite file (Debian's libsqlite3) in WAL mode, which several processes may write at
 * once (each waits for the others' transactions, up to IOS_DB_BUSY_MS), and the results sink (ios_sink.h) over it:
 * one run's tables and documents written in one transaction, each row keyed by the run's id. Schema: docs/outputs.md
 * ("The results database"). */
#ifndef IOS_DB_H
#define IOS_DB_H

#include "ios_sink.h"

#include <sqlite3.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** How long (ms) a writer waits for another process's transaction before giving up. */
#define IOS_DB_BUSY_MS 600000

/** The format of a results database (its meta row "format"). */
#define IOS_DB_FORMAT "iosim-campaign/1"

typedef struct ios_db ios_db_t;

/** Opens (creating it when absent) the database at `path`: WAL journal, synchronous=NORMAL, busy timeout
 * IOS_DB_BUSY_MS, and the tables every results database has (meta with its "format" and "iosim_version" rows,
 * results, scenarios). `option` names where the path came from in messages (e.g. "--db"). A file that is not an
 * iosim results database is refused (never written). @return IOS_OK with *out (ios_db_close it), or IOS_EIO with
 * ios_diag_message() naming the file, the reason and the fix. */
int ios_db_open(const char *path, const char *option, ios_db_t **out);

/** Closes `db` (NULL: nothing); a transaction still open is rolled back. */
void ios_db_close(ios_db_t *db);

/** The SQLite connection (borrowed). */
sqlite3 *ios_db_handle(ios_db_t *db);

/** The database's path (borrowed). */
const char *ios_db_path(const ios_db_t *db);

/** Runs `sql` (statements without results). @return IOS_OK, or IOS_EIO with ios_diag_message() naming the file. */
int ios_db_exec(ios_db_t *db, const char *sql);

/** BEGIN IMMEDIATE (waiting for other writers), COMMIT, ROLLBACK. @return IOS_OK or IOS_EIO with a message. */
int ios_db_begin(ios_db_t *db);
int ios_db_commit(ios_db_t *db);
void ios_db_rollback(ios_db_t *db);

/** Makes table `table` hold columns cols[0..n) (created when absent, with `run_id TEXT` first — the PRIMARY KEY
 * when `keyed`, else indexed — and missing columns added at the end; a column already there keeps its type).
 * @return IOS_OK or IOS_EIO/IOS_ENOMEM with a message. */
int ios_db_ensure_table(ios_db_t *db, const char *table, const ios_sink_col_t *cols, int n, int keyed);

/** Inserts or replaces the row of `run_id` in keyed table `table` (ios_db_ensure_table with keyed = 1 first):
 * columns cols[0..n) with values vals[0..n). @return IOS_OK or IOS_EIO with a message. */
int ios_db_put_row(ios_db_t *db, const char *table, const char *run_id, const ios_sink_col_t *cols,
                   const ios_sink_val_t *vals, int n);

/** Deletes run `run_id`'s rows from every table that has a run_id column. @return IOS_OK or IOS_EIO. */
int ios_db_delete_run(ios_db_t *db, const char *run_id);

/** Sets the meta row `key` to `value` (replacing it). @return IOS_OK or IOS_EIO with a message. */
int ios_db_set_meta(ios_db_t *db, const char *key, const char *value);

/** The meta row `key` (malloc'ed; NULL when absent). */
char *ios_db_get_meta(ios_db_t *db, const char *key);

/** Binds value `v` to parameter `i` of `st` (SQLite's types: INTEGER, REAL, TEXT copied, NULL). */
int ios_db_bind(sqlite3_stmt *st, int i, ios_sink_val_t v);

/** A sink writing run `run_id`'s tables into `db` (ios_sink.h): table T becomes SQLite table T (run_id, columns...;
 * ios_db_ensure_table), document "results" a row of table results (run_id, json), document D any other a row of
 * table D + "s" ("scenario" -> scenarios). Every row of the run already in those tables is replaced. The sink runs
 * in the caller's transaction when one is open (ios_db_begin: the caller commits, close() only frees), else in its
 * own (BEGIN IMMEDIATE at the first write, COMMIT or ROLLBACK at close). @return the sink, or NULL on ENOMEM. */
ios_sink_t *ios_db_sink(ios_db_t *db, const char *run_id);

/** `name` as an SQL identifier: between double quotes, inner quotes doubled, into buf[n]. @return buf. */
const char *ios_db_ident(char *buf, size_t n, const char *name);

#ifdef __cplusplus
}
#endif
#endif
