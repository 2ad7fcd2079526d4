/* iosim — the results database and its sink (see ios_db.h). */
#include "ios_db.h"
#include "ios_diag.h"
#include "ios_errors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STMT_CACHE 32 /* prepared INSERTs kept: one per table and column list */

typedef struct {
  char *key; /* table NUL columns... */
  size_t keylen;
  sqlite3_stmt *st;
} cached_t;

typedef struct {
  char *name;
  char **cols;
  int ncols;
} table_cols_t;

struct ios_db {
  sqlite3 *h;
  char *path;
  char *option;
  cached_t cache[STMT_CACHE];
  int ncache, next_evict;
  table_cols_t *tables; /* the columns each table is known to have */
  int ntables;
};

const char *ios_db_ident(char *buf, size_t n, const char *name) {
  size_t k = 0;
  if (n < 3) {
    if (n > 0) buf[0] = '\0';
    return buf;
  }
  buf[k++] = '"';
  for (const char *p = name; *p != '\0' && k + 3 < n; p++) {
    if (*p == '"') buf[k++] = '"';
    buf[k++] = *p;
  }
  buf[k++] = '"';
  buf[k] = '\0';
  return buf;
}

static int db_error(ios_db_t *db, const char *what) {
  ios_diag_set(db->path, NULL, "%s: %s: check that the file is an iosim results database on a writable file system%s%s",
               what, sqlite3_errmsg(db->h), db->option[0] ? ", or give another " : "", db->option);
  return IOS_EIO;
}

int ios_db_exec(ios_db_t *db, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db->h, sql, NULL, NULL, &err) == SQLITE_OK) return IOS_OK;
  ios_diag_set(db->path, NULL, "cannot write the results database (%s): check the disk space and permissions%s%s",
               err != NULL ? err : sqlite3_errmsg(db->h), db->option[0] ? ", or give another " : "", db->option);
  sqlite3_free(err);
  return IOS_EIO;
}

int ios_db_begin(ios_db_t *db) {
  return ios_db_exec(db, "BEGIN IMMEDIATE");
}

int ios_db_commit(ios_db_t *db) {
  return ios_db_exec(db, "COMMIT");
}

void ios_db_rollback(ios_db_t *db) {
  if (!sqlite3_get_autocommit(db->h)) sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

sqlite3 *ios_db_handle(ios_db_t *db) {
  return db->h;
}

const char *ios_db_path(const ios_db_t *db) {
  return db->path;
}

static void free_tables(ios_db_t *db) {
  for (int t = 0; t < db->ntables; t++) {
    for (int c = 0; c < db->tables[t].ncols; c++)
      free(db->tables[t].cols[c]);
    free(db->tables[t].cols);
    free(db->tables[t].name);
  }
  free(db->tables);
  db->tables = NULL;
  db->ntables = 0;
}

void ios_db_close(ios_db_t *db) {
  if (db == NULL) return;
  for (int i = 0; i < db->ncache; i++) {
    sqlite3_finalize(db->cache[i].st);
    free(db->cache[i].key);
  }
  free_tables(db);
  if (db->h != NULL) {
    ios_db_rollback(db);
    sqlite3_close(db->h);
  }
  free(db->path);
  free(db->option);
  free(db);
}

/* The columns table `name` has, read from SQLite into db's cache (re-read when `refresh`). @return the entry, or
 * NULL when the table does not exist or on ENOMEM. */
static table_cols_t *known_table(ios_db_t *db, const char *name, int refresh) {
  table_cols_t *t = NULL;
  for (int i = 0; i < db->ntables && t == NULL; i++)
    if (strcmp(db->tables[i].name, name) == 0) t = &db->tables[i];
  if (t != NULL && !refresh) return t;
  char sql[600], id[512];
  snprintf(sql, sizeof sql, "PRAGMA main.table_info(%s)", ios_db_ident(id, sizeof id, name));
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) return NULL;
  char **cols = NULL;
  int n = 0, ok = 1;
  while (ok && sqlite3_step(st) == SQLITE_ROW) {
    char **more = realloc(cols, sizeof *cols * (size_t)(n + 1));
    const char *cn = (const char *)sqlite3_column_text(st, 1);
    if (more == NULL || (more[n] = strdup(cn != NULL ? cn : "")) == NULL) {
      cols = more != NULL ? more : cols;
      ok = 0;
      break;
    }
    cols = more;
    n++;
  }
  sqlite3_finalize(st);
  if (!ok || n == 0) {
    for (int c = 0; c < n; c++)
      free(cols[c]);
    free(cols);
    return NULL;
  }
  if (t == NULL) {
    table_cols_t *more = realloc(db->tables, sizeof *more * (size_t)(db->ntables + 1));
    if (more == NULL || (more[db->ntables].name = strdup(name)) == NULL) {
      db->tables = more != NULL ? more : db->tables;
      for (int c = 0; c < n; c++)
        free(cols[c]);
      free(cols);
      return NULL;
    }
    db->tables = more;
    t = &db->tables[db->ntables++];
  } else {
    for (int c = 0; c < t->ncols; c++)
      free(t->cols[c]);
    free(t->cols);
  }
  t->cols = cols;
  t->ncols = n;
  return t;
}

static int has_col(const table_cols_t *t, const char *name) {
  for (int c = 0; c < t->ncols; c++)
    if (strcmp(t->cols[c], name) == 0) return 1;
  return 0;
}

static const char *type_name(ios_sink_type_t t) {
  return t == IOS_SINK_INT ? " INTEGER" : t == IOS_SINK_REAL ? " REAL" : t == IOS_SINK_TEXT ? " TEXT" : "";
}

int ios_db_ensure_table(ios_db_t *db, const char *table, const ios_sink_col_t *cols, int n, int keyed) {
  table_cols_t *t = known_table(db, table, 0);
  int missing = t == NULL;
  for (int c = 0; !missing && c < n; c++)
    missing = !has_col(t, cols[c].name);
  if (!missing) return IOS_OK;
  t = known_table(db, table, 1); /* another process may have added them */
  char id[512], cid[512];
  ios_db_ident(id, sizeof id, table);
  if (t == NULL) {
    size_t cap = 256 + 64 * (size_t)n, len = 0;
    for (int c = 0; c < n; c++)
      cap += 2 * strlen(cols[c].name);
    char *sql = malloc(cap);
    if (sql == NULL) return IOS_ENOMEM;
    len += (size_t)snprintf(sql + len, cap - len, "CREATE TABLE IF NOT EXISTS main.%s (run_id TEXT%s", id,
                            keyed ? " PRIMARY KEY" : "");
    for (int c = 0; c < n; c++)
      if (strcmp(cols[c].name, "run_id") != 0)
        len += (size_t)snprintf(sql + len, cap - len, ", %s%s", ios_db_ident(cid, sizeof cid, cols[c].name),
                                type_name(cols[c].type));
    snprintf(sql + len, cap - len, ")");
    int rc = ios_db_exec(db, sql);
    if (rc == IOS_OK && !keyed) {
      char idx[512];
      char iname[600];
      snprintf(iname, sizeof iname, "%s_run_id", table);
      snprintf(sql, cap, "CREATE INDEX IF NOT EXISTS main.%s ON %s (run_id)", ios_db_ident(idx, sizeof idx, iname), id);
      rc = ios_db_exec(db, sql);
    }
    free(sql);
    if (rc != IOS_OK) return rc;
    t = known_table(db, table, 1);
    if (t == NULL) return db_error(db, "cannot read back a table just created");
  }
  for (int c = 0; c < n; c++) {
    if (has_col(t, cols[c].name)) continue;
    char sql[1200];
    snprintf(sql, sizeof sql, "ALTER TABLE main.%s ADD COLUMN %s%s", id, ios_db_ident(cid, sizeof cid, cols[c].name),
             type_name(cols[c].type));
    int rc = ios_db_exec(db, sql);
    if (rc != IOS_OK) return rc;
    t = known_table(db, table, 1);
    if (t == NULL) return db_error(db, "cannot read back a table just altered");
  }
  return IOS_OK;
}

int ios_db_bind(sqlite3_stmt *st, int i, ios_sink_val_t v) {
  switch (v.type) {
  case IOS_SINK_INT:
    return sqlite3_bind_int64(st, i, v.i);
  case IOS_SINK_REAL:
    return sqlite3_bind_double(st, i, v.d);
  case IOS_SINK_TEXT:
    return sqlite3_bind_text(st, i, v.s, -1, SQLITE_TRANSIENT);
  default:
    return sqlite3_bind_null(st, i);
  }
}

/* The prepared INSERT INTO table (run_id, cols...) [OR REPLACE], from the cache. @return it, or NULL with a message. */
static sqlite3_stmt *insert_stmt(ios_db_t *db, const char *table, const ios_sink_col_t *cols, int n, int replace) {
  size_t keylen = strlen(table) + 3;
  for (int c = 0; c < n; c++)
    keylen += strlen(cols[c].name) + 1;
  char *key = malloc(keylen);
  if (key == NULL) return NULL;
  size_t k = (size_t)snprintf(key, keylen, "%c%s", replace ? 'R' : 'I', table) + 1;
  for (int c = 0; c < n; c++)
    k += (size_t)snprintf(key + k, keylen - k, "%s", cols[c].name) + 1;
  for (int i = 0; i < db->ncache; i++)
    if (db->cache[i].keylen == k && memcmp(db->cache[i].key, key, k) == 0) {
      free(key);
      sqlite3_reset(db->cache[i].st);
      sqlite3_clear_bindings(db->cache[i].st);
      return db->cache[i].st;
    }
  size_t cap = 128 + 2 * keylen + 4 * (size_t)n + 600, len = 0;
  char *sql = malloc(cap), id[512];
  if (sql == NULL) {
    free(key);
    return NULL;
  }
  len += (size_t)snprintf(sql, cap, "INSERT%s INTO main.%s (run_id", replace ? " OR REPLACE" : "",
                          ios_db_ident(id, sizeof id, table));
  for (int c = 0; c < n; c++)
    len += (size_t)snprintf(sql + len, cap - len, ", %s", ios_db_ident(id, sizeof id, cols[c].name));
  len += (size_t)snprintf(sql + len, cap - len, ") VALUES (?");
  for (int c = 0; c < n; c++)
    len += (size_t)snprintf(sql + len, cap - len, ", ?");
  snprintf(sql + len, cap - len, ")");
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
    db_error(db, "cannot prepare a row's insertion");
    free(sql);
    free(key);
    return NULL;
  }
  free(sql);
  int slot = db->ncache < STMT_CACHE ? db->ncache++ : db->next_evict++ % STMT_CACHE;
  if (slot < db->ncache && db->cache[slot].st != NULL) {
    sqlite3_finalize(db->cache[slot].st);
    free(db->cache[slot].key);
  }
  db->cache[slot].key = key;
  db->cache[slot].keylen = k;
  db->cache[slot].st = st;
  return st;
}

int ios_db_put_row(ios_db_t *db, const char *table, const char *run_id, const ios_sink_col_t *cols,
                   const ios_sink_val_t *vals, int n) {
  int rc = ios_db_ensure_table(db, table, cols, n, 1);
  sqlite3_stmt *st = rc == IOS_OK ? insert_stmt(db, table, cols, n, 1) : NULL;
  if (st == NULL) return rc != IOS_OK ? rc : IOS_EIO;
  sqlite3_bind_text(st, 1, run_id, -1, SQLITE_STATIC);
  for (int c = 0; c < n; c++)
    ios_db_bind(st, c + 2, vals[c]);
  rc = sqlite3_step(st) == SQLITE_DONE ? IOS_OK : db_error(db, "cannot insert a row");
  sqlite3_reset(st);
  return rc;
}

int ios_db_delete_run(ios_db_t *db, const char *run_id) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db->h, "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'meta'", -1, &st,
                         NULL) != SQLITE_OK)
    return db_error(db, "cannot list the tables");
  int rc = IOS_OK;
  while (rc == IOS_OK && sqlite3_step(st) == SQLITE_ROW) {
    const char *name = (const char *)sqlite3_column_text(st, 0);
    table_cols_t *t = name != NULL ? known_table(db, name, 0) : NULL;
    if (t == NULL || !has_col(t, "run_id")) continue;
    char sql[700], id[512];
    snprintf(sql, sizeof sql, "DELETE FROM main.%s WHERE run_id = ?", ios_db_ident(id, sizeof id, name));
    sqlite3_stmt *del;
    if (sqlite3_prepare_v2(db->h, sql, -1, &del, NULL) != SQLITE_OK) {
      rc = db_error(db, "cannot replace a run");
      break;
    }
    sqlite3_bind_text(del, 1, run_id, -1, SQLITE_STATIC);
    if (sqlite3_step(del) != SQLITE_DONE) rc = db_error(db, "cannot replace a run");
    sqlite3_finalize(del);
  }
  sqlite3_finalize(st);
  return rc;
}

int ios_db_set_meta(ios_db_t *db, const char *key, const char *value) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db->h, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", -1, &st, NULL) != SQLITE_OK)
    return db_error(db, "cannot write the meta table");
  sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st) == SQLITE_DONE ? IOS_OK : db_error(db, "cannot write the meta table");
  sqlite3_finalize(st);
  return rc;
}

char *ios_db_get_meta(ios_db_t *db, const char *key) {
  sqlite3_stmt *st;
  char *v = NULL;
  if (sqlite3_prepare_v2(db->h, "SELECT value FROM meta WHERE key = ?", -1, &st, NULL) != SQLITE_OK) return NULL;
  sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL)
    v = strdup((const char *)sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  return v;
}

/* Whether the opened file is an iosim results database, or empty (a new one). @return IOS_OK, or IOS_EIO. */
static int check_format(ios_db_t *db) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db->h, "SELECT count(*), sum(name = 'meta') FROM sqlite_master WHERE type = 'table'", -1, &st,
                         NULL) != SQLITE_OK) {
    ios_diag_set(db->path, NULL, "not a results database (%s): give %s a new file name or an iosim results database",
                 sqlite3_errmsg(db->h), db->option[0] ? db->option : "another path");
    return IOS_EIO;
  }
  int rc = sqlite3_step(st);
  long long ntables = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  long long has_meta = rc == SQLITE_ROW ? sqlite3_column_int64(st, 1) : 0;
  if (rc != SQLITE_ROW) {
    ios_diag_set(db->path, NULL, "not a results database (%s): give %s a new file name or an iosim results database",
                 sqlite3_errmsg(db->h), db->option[0] ? db->option : "another path");
    sqlite3_finalize(st);
    return IOS_EIO;
  }
  sqlite3_finalize(st);
  if (ntables == 0) return IOS_OK;
  char *format = has_meta ? ios_db_get_meta(db, "format") : NULL;
  int ok = format != NULL && strcmp(format, IOS_DB_FORMAT) == 0;
  if (!ok)
    ios_diag_set(db->path, NULL,
                 "an SQLite database but not an iosim results database (its meta table has no format '%s'%s%s): "
                 "give %s a new file name",
                 IOS_DB_FORMAT, format != NULL ? ", it says " : "", format != NULL ? format : "",
                 db->option[0] ? db->option : "another path");
  free(format);
  return ok ? IOS_OK : IOS_EIO;
}

int ios_db_open(const char *path, const char *option, ios_db_t **out) {
  *out = NULL;
  ios_db_t *db = calloc(1, sizeof *db);
  if (db == NULL || (db->path = strdup(path)) == NULL || (db->option = strdup(option != NULL ? option : "")) == NULL) {
    ios_db_close(db);
    return IOS_ENOMEM;
  }
  int rc = sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc != SQLITE_OK) {
    ios_diag_set(path, NULL,
                 "cannot open or create the results database (%s): check that its directory exists and "
                 "is writable%s%s",
                 db->h != NULL ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc), option != NULL ? ", or give another " : "",
                 option != NULL ? option : "");
    ios_db_close(db);
    return IOS_EIO;
  }
  sqlite3_busy_timeout(db->h, IOS_DB_BUSY_MS);
  rc = check_format(db);
  if (rc == IOS_OK) rc = ios_db_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL");
  if (rc == IOS_OK)
    rc = ios_db_exec(db, "BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT); "
                         "CREATE TABLE IF NOT EXISTS results (run_id TEXT PRIMARY KEY, json TEXT); "
                         "CREATE TABLE IF NOT EXISTS scenarios (run_id TEXT PRIMARY KEY, json TEXT)");
  if (rc == IOS_OK) rc = ios_db_set_meta(db, "format", IOS_DB_FORMAT);
  if (rc == IOS_OK) rc = ios_db_set_meta(db, "iosim_version", IOSIM_VERSION);
  if (rc == IOS_OK) rc = ios_db_commit(db);
  if (rc != IOS_OK) {
    ios_db_close(db);
    return rc;
  }
  *out = db;
  return IOS_OK;
}

/* ------------------------------------------------------------------------------------------------ the sink */

typedef struct {
  ios_sink_t base;
  ios_db_t *db;
  char *run_id;
  int own_txn; /* the sink began the transaction */
  int failed;  /* a write failed: close() rolls back */
} db_sink_t;

struct ios_sink_table {
  sqlite3_stmt *ins; /* its INSERT (from the database's cache) */
  int ncols;
};

static int sink_start(db_sink_t *k) {
  if (!sqlite3_get_autocommit(k->db->h)) return IOS_OK; /* the caller's transaction, or ours already */
  int rc = ios_db_begin(k->db);
  if (rc == IOS_OK) k->own_txn = 1;
  return rc;
}

static int sink_fail(db_sink_t *k, int rc) {
  if (rc != IOS_OK) k->failed = 1;
  return rc;
}

static int delete_run_rows(db_sink_t *k, const char *table) {
  char sql[700], id[512];
  snprintf(sql, sizeof sql, "DELETE FROM main.%s WHERE run_id = ?", ios_db_ident(id, sizeof id, table));
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(k->db->h, sql, -1, &st, NULL) != SQLITE_OK) return db_error(k->db, "cannot replace a run");
  sqlite3_bind_text(st, 1, k->run_id, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st) == SQLITE_DONE ? IOS_OK : db_error(k->db, "cannot replace a run");
  sqlite3_finalize(st);
  return rc;
}

static ios_sink_table_t *sink_begin_table(ios_sink_t *base, const char *table, const ios_sink_col_t *cols, int ncols) {
  db_sink_t *k = (db_sink_t *)base;
  struct ios_sink_table *t = calloc(1, sizeof *t);
  int rc = t != NULL ? sink_start(k) : IOS_ENOMEM;
  if (rc == IOS_OK) rc = ios_db_ensure_table(k->db, table, cols, ncols, 0);
  if (rc == IOS_OK) rc = delete_run_rows(k, table);
  if (rc == IOS_OK && (t->ins = insert_stmt(k->db, table, cols, ncols, 0)) == NULL) rc = IOS_EIO;
  if (rc != IOS_OK) {
    sink_fail(k, rc);
    free(t);
    return NULL;
  }
  t->ncols = ncols;
  return t;
}

static int sink_row(ios_sink_t *base, ios_sink_table_t *t, const ios_sink_val_t *vals) {
  db_sink_t *k = (db_sink_t *)base;
  sqlite3_reset(t->ins);
  sqlite3_bind_text(t->ins, 1, k->run_id, -1, SQLITE_STATIC);
  for (int c = 0; c < t->ncols; c++)
    ios_db_bind(t->ins, c + 2, vals[c]);
  if (sqlite3_step(t->ins) != SQLITE_DONE) return sink_fail(k, db_error(k->db, "cannot insert a row"));
  return IOS_OK;
}

static int sink_end_table(ios_sink_t *base, ios_sink_table_t *t, int commit) {
  db_sink_t *k = (db_sink_t *)base;
  if (!commit) k->failed = 1; /* a table discarded: the run is not whole */
  sqlite3_reset(t->ins);
  free(t);
  return IOS_OK;
}

static int sink_document(ios_sink_t *base, const char *name, const char *text) {
  db_sink_t *k = (db_sink_t *)base;
  char table[256];
  snprintf(table, sizeof table, "%s%s", name, strcmp(name, "results") == 0 ? "" : "s");
  ios_sink_col_t col = {"json", IOS_SINK_TEXT, 0};
  int rc = sink_start(k);
  if (rc == IOS_OK) rc = ios_db_ensure_table(k->db, table, &col, 1, 1);
  sqlite3_stmt *st = rc == IOS_OK ? insert_stmt(k->db, table, &col, 1, 1) : NULL;
  if (rc == IOS_OK && st == NULL) rc = IOS_EIO;
  if (rc == IOS_OK) {
    sqlite3_bind_text(st, 1, k->run_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE) rc = db_error(k->db, "cannot insert a document");
    sqlite3_reset(st);
  }
  return sink_fail(k, rc);
}

static int sink_close(ios_sink_t *base, int commit) {
  db_sink_t *k = (db_sink_t *)base;
  int rc = IOS_OK;
  if (k->own_txn) {
    if (commit && !k->failed)
      rc = ios_db_commit(k->db);
    else
      ios_db_rollback(k->db);
  }
  free(k->run_id);
  free(k);
  return rc;
}

static const ios_sink_ops_t db_sink_ops = {sink_begin_table, sink_row, sink_end_table, sink_document, sink_close};

ios_sink_t *ios_db_sink(ios_db_t *db, const char *run_id) {
  db_sink_t *k = calloc(1, sizeof *k);
  if (k == NULL || (k->run_id = strdup(run_id)) == NULL) {
    free(k);
    return NULL;
  }
  k->base.ops = &db_sink_ops;
  k->db = db;
  return &k->base;
}
