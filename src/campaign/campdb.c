/* iosim — a campaign's results database (see ios_campdb.h). */
#include "ios_campdb.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_fs.h"
#include "ios_outdir.h"
#include "ios_runs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ios_campdb_path(char *buf, size_t n, const char *out) {
  snprintf(buf, n, "%s/campaign.db", out);
  return buf;
}

/* The type of swept key k's column: INTEGER when every value is an integer or a boolean, REAL when every value is a
 * number, else TEXT. */
static ios_sink_type_t key_type(const ios_campaign_t *c, int k) {
  int ints = 1, nums = 1;
  const cJSON *v;
  cJSON_ArrayForEach(v, c->keys[k].values) {
    if (cJSON_IsBool(v)) continue;
    if (!cJSON_IsNumber(v))
      nums = ints = 0;
    else if (!(fabs(v->valuedouble) < 9007199254740992.0 && v->valuedouble == floor(v->valuedouble)))
      ints = 0;
  }
  return !nums ? IOS_SINK_TEXT : ints ? IOS_SINK_INT : IOS_SINK_REAL;
}

/* Whether swept key `key` is a fixed column of runs (a zip group may sweep "seed": the seed column holds it). */
static int fixed_name(const char *key) {
  static const char *const names[] = {"run_id",    "point",       "seed",  "status", "exit_code",
                                      "transient", "wall_time_s", "error", NULL};
  for (int i = 0; names[i] != NULL; i++)
    if (strcmp(names[i], key) == 0) return 1;
  return 0;
}

/* Swept value v as a typed value (objects and arrays printed into *owned, which the caller frees). */
static ios_sink_val_t key_value(const cJSON *v, ios_sink_type_t t, char **owned) {
  *owned = NULL;
  if (v == NULL || cJSON_IsNull(v)) return ios_sink_text(NULL);
  if (cJSON_IsBool(v)) return ios_sink_int(cJSON_IsTrue(v));
  if (cJSON_IsString(v)) return ios_sink_text(v->valuestring);
  if (cJSON_IsNumber(v))
    return t == IOS_SINK_INT ? ios_sink_int((long long)v->valuedouble) : ios_sink_real(v->valuedouble);
  *owned = cJSON_PrintUnformatted(v);
  return ios_sink_text(*owned);
}

/* The fixed columns of runs after the swept ones. */
static const ios_sink_col_t fixed_cols[] = {{"seed", IOS_SINK_INT, 0},         {"status", IOS_SINK_TEXT, 0},
                                            {"exit_code", IOS_SINK_INT, 0},    {"transient", IOS_SINK_INT, 0},
                                            {"wall_time_s", IOS_SINK_REAL, 0}, {"error", IOS_SINK_TEXT, 0}};
#define NFIXED ((int)(sizeof fixed_cols / sizeof fixed_cols[0]))

/* A runs row being built: its columns and values, and the strings they borrow. */
typedef struct {
  ios_sink_col_t *cols;
  ios_sink_val_t *vals;
  char **owned;
  int n, cap;
} row_t;

static int row_add(row_t *r, const char *name, ios_sink_type_t type, ios_sink_val_t v, char *owned) {
  if (r->n == r->cap) {
    int cap = r->cap ? 2 * r->cap : 64;
    ios_sink_col_t *c = realloc(r->cols, sizeof *c * (size_t)cap);
    if (c != NULL) r->cols = c;
    ios_sink_val_t *v2 = realloc(r->vals, sizeof *v2 * (size_t)cap);
    if (v2 != NULL) r->vals = v2;
    char **o = realloc(r->owned, sizeof *o * (size_t)cap);
    if (o != NULL) r->owned = o;
    if (c == NULL || v2 == NULL || o == NULL) {
      free(owned);
      return IOS_ENOMEM;
    }
    r->cap = cap;
  }
  r->cols[r->n].name = name;
  r->cols[r->n].type = type;
  r->cols[r->n].shortest = 0;
  r->vals[r->n] = v;
  r->owned[r->n++] = owned;
  return IOS_OK;
}

static void row_free(row_t *r) {
  for (int i = 0; i < r->n; i++)
    free(r->owned[i]);
  free(r->cols);
  free(r->vals);
  free(r->owned);
}

/* The point's columns: point, its swept values, seed. */
static int point_cols(row_t *r, const ios_campaign_t *c, const ios_campaign_point_t *pt) {
  int rc = row_add(r, "point", IOS_SINK_INT, ios_sink_int(pt->index), NULL);
  for (int k = 0; rc == IOS_OK && k < c->nkeys; k++) {
    if (fixed_name(c->keys[k].key)) continue;
    ios_sink_type_t t = key_type(c, k);
    char *owned;
    ios_sink_val_t v = key_value(ios_campaign_point_value(c, pt->index, k), t, &owned);
    rc = row_add(r, c->keys[k].key, t, v, owned);
  }
  char *seed = NULL;
  ios_sink_val_t sv = ios_sink_int((long long)pt->seed);
  if (pt->seed > (uint64_t)INT64_MAX && (seed = malloc(32)) != NULL) { /* beyond SQLite's integers: as text */
    snprintf(seed, 32, "%llu", (unsigned long long)pt->seed);
    sv = ios_sink_text(seed);
  }
  return rc == IOS_OK ? row_add(r, "seed", IOS_SINK_INT, sv, seed) : rc;
}

int ios_campdb_open(const char *path, const ios_campaign_t *c, const cJSON *campaign, const cJSON *record,
                    ios_db_t **db) {
  int rc = ios_db_open(path, c != NULL ? "--out" : "--db", db);
  if (rc != IOS_OK) return rc;
  row_t r = {0};
  rc = row_add(&r, "point", IOS_SINK_INT, ios_sink_int(0), NULL);
  for (int k = 0; rc == IOS_OK && c != NULL && k < c->nkeys; k++)
    if (!fixed_name(c->keys[k].key)) rc = row_add(&r, c->keys[k].key, key_type(c, k), ios_sink_text(NULL), NULL);
  for (int k = 0; rc == IOS_OK && k < NFIXED; k++)
    rc = row_add(&r, fixed_cols[k].name, fixed_cols[k].type, ios_sink_text(NULL), NULL);
  char *ctext = campaign != NULL ? cJSON_Print(campaign) : NULL, *stext = record != NULL ? cJSON_Print(record) : NULL;
  if (rc == IOS_OK) rc = ios_db_begin(*db);
  if (rc == IOS_OK) rc = ios_db_ensure_table(*db, "runs", r.cols, r.n, 1);
  if (rc == IOS_OK && ctext != NULL) rc = ios_db_set_meta(*db, "campaign", ctext);
  if (rc == IOS_OK && stext != NULL) rc = ios_db_set_meta(*db, "sweep", stext);
  if (rc == IOS_OK) rc = ios_db_commit(*db);
  free(ctext);
  free(stext);
  row_free(&r);
  if (rc != IOS_OK) {
    ios_db_close(*db);
    *db = NULL;
  }
  return rc;
}

int ios_campdb_recorded(ios_db_t *db, const char *id, int *failed, int *transient) {
  sqlite3_stmt *st;
  *failed = *transient = 0;
  if (sqlite3_prepare_v2(ios_db_handle(db), "SELECT status, transient FROM runs WHERE run_id = ?", -1, &st, NULL) !=
      SQLITE_OK)
    return 0;
  sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
  int recorded = 0;
  if (sqlite3_step(st) == SQLITE_ROW) {
    const char *status = (const char *)sqlite3_column_text(st, 0);
    recorded = status != NULL && strcmp(status, "missing") != 0;
    *failed = recorded && strcmp(status, "failed") == 0;
    *transient = *failed && sqlite3_column_int(st, 1) != 0;
  }
  sqlite3_finalize(st);
  return recorded;
}

/* The metric and count columns of runs from results.json `res` (as runs.csv has them: "applications" left out). */
static int result_cols(row_t *r, const cJSON *res) {
  int rc = IOS_OK;
  const cJSON *m;
  cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(res, "metrics")) {
    if (rc != IOS_OK) break;
    if (cJSON_IsNumber(m))
      rc = row_add(r, m->string, IOS_SINK_REAL, ios_sink_real(m->valuedouble), NULL);
    else if (cJSON_IsString(m))
      rc = row_add(r, m->string, IOS_SINK_REAL, ios_sink_text(m->valuestring), NULL);
    else
      rc = row_add(r, m->string, IOS_SINK_REAL, ios_sink_text(NULL), NULL);
  }
  cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(res, "counts")) {
    if (rc != IOS_OK) break;
    if (strcmp(m->string, "applications") == 0) continue;
    if (cJSON_IsNumber(m))
      rc = row_add(r, m->string, IOS_SINK_INT, ios_sink_int((long long)m->valuedouble), NULL);
    else if (cJSON_IsString(m))
      rc = row_add(r, m->string, IOS_SINK_TEXT, ios_sink_text(m->valuestring), NULL);
    else
      rc = row_add(r, m->string, IOS_SINK_INT, ios_sink_text(NULL), NULL);
  }
  const cJSON *w = cJSON_GetObjectItemCaseSensitive(res, "wall_time_s");
  if (rc == IOS_OK && res != NULL)
    rc = row_add(r, "sim_wall_s", IOS_SINK_REAL,
                 cJSON_IsNumber(w) ? ios_sink_real(w->valuedouble) : ios_sink_text(NULL), NULL);
  return rc;
}

/* The CSV files of a run and their tables; the columns that hold names, kept as text. */
static const char *const app_text[] = {"name", "resources", "bound_by", NULL};
static const char *const res_text[] = {"name", "kind", NULL};
static const char *const alloc_text[] = {"app", "resources", NULL};
static const char *const ev_text[] = {"app", "kind", "resource", NULL};
static const char *const req_text[] = {"status", "disks", "nodes", NULL};
static const struct {
  const char *file, *table;
  const char *const *text;
} run_tables[] = {{"apps.csv", "apps", app_text},
                  {"resources.csv", "resources", res_text},
                  {"allocations.csv", "allocations", alloc_text},
                  {"events.csv", "events", ev_text},
                  {"requests.csv", "storage_requests", req_text}};

/* The run's documents and tables into sink k. */
static int put_files(ios_sink_t *k, const char *dir, const char *scenario, const char *results_text, int failed) {
  char path[2 * IOS_OUTDIR_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/scenario.json", dir);
  char *scen = scenario != NULL ? strdup(scenario) : ios_read_file(path, NULL);
  int rc = scen != NULL ? ios_sink_document(k, "scenario", scen) : IOS_OK;
  free(scen);
  if (rc == IOS_OK && results_text != NULL) rc = ios_sink_document(k, "results", results_text);
  if (failed) { /* what the run said: its error's context */
    static const char *const logs[] = {"stdout.txt", "stderr.txt"};
    char *text[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
      snprintf(path, sizeof path, "%s/%s", dir, logs[i]);
      text[i] = ios_read_file(path, NULL);
    }
    ios_sink_col_t cols[2] = {{"stdout", IOS_SINK_TEXT, 0}, {"stderr", IOS_SINK_TEXT, 0}};
    ios_sink_val_t vals[2] = {ios_sink_text(text[0]), ios_sink_text(text[1])};
    ios_sink_table_t *t = rc == IOS_OK ? ios_sink_begin_table(k, "logs", cols, 2) : NULL;
    if (rc == IOS_OK && t == NULL) rc = IOS_EIO;
    if (rc == IOS_OK) rc = ios_sink_row(k, t, vals);
    if (t != NULL && ios_sink_end_table(k, t, rc == IOS_OK) != IOS_OK && rc == IOS_OK) rc = IOS_EIO;
    free(text[0]);
    free(text[1]);
    return rc;
  }
  for (size_t t = 0; rc == IOS_OK && t < sizeof run_tables / sizeof run_tables[0]; t++) {
    snprintf(path, sizeof path, "%s/%s", dir, run_tables[t].file);
    if (ios_outdir_exists(path)) rc = ios_sink_put_csv(k, run_tables[t].table, path, run_tables[t].text);
  }
  return rc;
}

int ios_campdb_record(ios_db_t *db, const ios_campaign_t *c, const ios_campaign_point_t *pt, const char *dir,
                      const cJSON *run) {
  return ios_campdb_record_id(db, c, pt, pt->id, dir, run, NULL);
}

int ios_campdb_record_id(ios_db_t *db, const ios_campaign_t *c, const ios_campaign_point_t *pt, const char *id,
                         const char *dir, const cJSON *run, const char *scenario) {
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(run, "status");
  const char *status = cJSON_IsString(st) ? st->valuestring : "failed";
  int failed = strcmp(status, "failed") == 0;
  char path[2 * IOS_OUTDIR_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/results.json", dir);
  char *results_text = failed ? NULL : ios_read_file(path, NULL);
  cJSON *res = results_text != NULL ? cJSON_Parse(results_text) : NULL;
  row_t r = {0};
  int rc = c != NULL && pt != NULL ? point_cols(&r, c, pt) : IOS_OK;
  const cJSON *ec = cJSON_GetObjectItemCaseSensitive(run, "exit_code"),
              *wt = cJSON_GetObjectItemCaseSensitive(run, "wall_time_s"),
              *er = cJSON_GetObjectItemCaseSensitive(run, "error");
  ios_sink_val_t fixed[NFIXED] = {
      ios_sink_text(NULL),
      ios_sink_text(status),
      cJSON_IsNumber(ec) ? ios_sink_int((long long)ec->valuedouble) : ios_sink_text(NULL),
      ios_sink_int(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(run, "transient"))),
      cJSON_IsNumber(wt) ? ios_sink_real(wt->valuedouble) : ios_sink_text(NULL),
      ios_sink_text(cJSON_IsString(er) && er->valuestring[0] != '\0' ? er->valuestring : NULL)};
  for (int k = c != NULL && pt != NULL; rc == IOS_OK && k < NFIXED; k++) /* seed is point_cols' */
    rc = row_add(&r, fixed_cols[k].name, fixed_cols[k].type, fixed[k], NULL);
  if (rc == IOS_OK) rc = result_cols(&r, res);
  if (rc == IOS_OK) rc = ios_db_begin(db);
  if (rc == IOS_OK) rc = ios_db_delete_run(db, id);
  if (rc == IOS_OK) rc = ios_db_put_row(db, "runs", id, r.cols, r.vals, r.n);
  ios_sink_t *k = rc == IOS_OK ? ios_db_sink(db, id) : NULL;
  if (rc == IOS_OK && k == NULL) rc = IOS_ENOMEM;
  if (rc == IOS_OK) rc = put_files(k, dir, scenario, results_text, failed);
  if (k != NULL) {
    int crc = ios_sink_close(k, rc == IOS_OK);
    if (rc == IOS_OK) rc = crc;
  }
  if (rc == IOS_OK) rc = ios_db_commit(db);
  if (rc != IOS_OK) ios_db_rollback(db);
  row_free(&r);
  cJSON_Delete(res);
  free(results_text);
  return rc;
}

/* ------------------------------------------------------------------------------------------------ runs.csv */

typedef struct {
  ios_db_t *db;
  const ios_campaign_t *c;
  const int *sel;
  sqlite3_stmt *run, *res;
} csv_ctx_t;

/* ios_runs_load_fn over the database: the runs row as run.json's fields, the results table's results.json. */
static void load_db(int i, cJSON **run, cJSON **results, void *ctx) {
  csv_ctx_t *x = ctx;
  const char *id = x->c->points[x->sel[i]].id;
  *run = *results = NULL;
  sqlite3_reset(x->run);
  sqlite3_bind_text(x->run, 1, id, -1, SQLITE_STATIC);
  if (sqlite3_step(x->run) == SQLITE_ROW) {
    const char *status = (const char *)sqlite3_column_text(x->run, 0);
    if (status != NULL && strcmp(status, "missing") != 0) {
      *run = cJSON_CreateObject();
      cJSON_AddStringToObject(*run, "status", status);
      if (sqlite3_column_type(x->run, 1) != SQLITE_NULL)
        cJSON_AddNumberToObject(*run, "wall_time_s", sqlite3_column_double(x->run, 1));
      const char *err = (const char *)sqlite3_column_text(x->run, 2);
      cJSON_AddStringToObject(*run, "error", err != NULL ? err : "");
    }
  }
  sqlite3_reset(x->run);
  if (*run == NULL) return;
  sqlite3_reset(x->res);
  sqlite3_bind_text(x->res, 1, id, -1, SQLITE_STATIC);
  if (sqlite3_step(x->res) == SQLITE_ROW && sqlite3_column_text(x->res, 0) != NULL)
    *results = cJSON_Parse((const char *)sqlite3_column_text(x->res, 0));
  sqlite3_reset(x->res);
}

int ios_campdb_runs_csv(ios_db_t *db, const ios_campaign_t *c, const int *sel, int nsel, const char *path, int *nfailed,
                        int *nmissing) {
  csv_ctx_t x = {db, c, sel, NULL, NULL};
  sqlite3 *h = ios_db_handle(db);
  int rc = -1;
  if (sqlite3_prepare_v2(h, "SELECT status, wall_time_s, error FROM runs WHERE run_id = ?", -1, &x.run, NULL) ==
          SQLITE_OK &&
      sqlite3_prepare_v2(h, "SELECT json FROM results WHERE run_id = ?", -1, &x.res, NULL) == SQLITE_OK)
    rc = ios_runs_csv_write_with(c, sel, nsel, load_db, &x, path, nfailed, nmissing);
  else
    errno = EIO;
  sqlite3_finalize(x.run);
  sqlite3_finalize(x.res);
  return rc;
}

/* ------------------------------------------------------------------------------------------------ merge */

static ios_sink_type_t decl_type(const char *t) {
  if (t == NULL) return IOS_SINK_NULL;
  if (strstr(t, "INT") != NULL) return IOS_SINK_INT;
  if (strstr(t, "REAL") != NULL) return IOS_SINK_REAL;
  if (strstr(t, "TEXT") != NULL) return IOS_SINK_TEXT;
  return IOS_SINK_NULL;
}

/* Copies the rows of the runs in temp.merge_ids from shard table `table` into main's. */
static int merge_table(ios_db_t *db, const char *table) {
  sqlite3 *h = ios_db_handle(db);
  char sql[700], id[512];
  snprintf(sql, sizeof sql, "PRAGMA shard.table_info(%s)", ios_db_ident(id, sizeof id, table));
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK) return IOS_EIO;
  row_t r = {0};
  int rc = IOS_OK, keyed = 0, has_run_id = 0;
  char **names = NULL;
  int nn = 0;
  while (rc == IOS_OK && sqlite3_step(st) == SQLITE_ROW) {
    const char *name = (const char *)sqlite3_column_text(st, 1);
    if (name == NULL) continue;
    if (strcmp(name, "run_id") == 0) {
      has_run_id = 1;
      keyed = sqlite3_column_int(st, 5) != 0;
      continue;
    }
    char **more = realloc(names, sizeof *names * (size_t)(nn + 1));
    if (more == NULL || (more[nn] = strdup(name)) == NULL) {
      names = more != NULL ? more : names;
      rc = IOS_ENOMEM;
      break;
    }
    names = more;
    rc = row_add(&r, names[nn], decl_type((const char *)sqlite3_column_text(st, 2)), ios_sink_text(NULL), NULL);
    nn++;
  }
  sqlite3_finalize(st);
  if (rc == IOS_OK && has_run_id) rc = ios_db_ensure_table(db, table, r.cols, r.n, keyed);
  if (rc == IOS_OK && has_run_id) {
    size_t cap = 1024;
    for (int i = 0; i < r.n; i++)
      cap += 2 * strlen(r.cols[i].name) + 8;
    char *ins = malloc(2 * cap), *list = malloc(cap);
    if (ins == NULL || list == NULL) {
      rc = IOS_ENOMEM;
    } else {
      size_t len = (size_t)snprintf(list, cap, "run_id");
      for (int i = 0; i < r.n; i++)
        len += (size_t)snprintf(list + len, cap - len, ", %s", ios_db_ident(id, sizeof id, r.cols[i].name));
      ios_db_ident(id, sizeof id, table);
      snprintf(ins, 2 * cap,
               "INSERT INTO main.%s (%s) SELECT %s FROM shard.%s WHERE run_id IN (SELECT run_id FROM temp.merge_ids)",
               id, list, list, id);
      rc = ios_db_exec(db, ins);
    }
    free(ins);
    free(list);
  }
  for (int i = 0; i < nn; i++)
    free(names[i]);
  free(names);
  row_free(&r);
  return rc;
}

int ios_campdb_merge_from(ios_db_t *db, const char *shard) {
  sqlite3 *h = ios_db_handle(db);
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(h, "ATTACH DATABASE ? AS shard", -1, &st, NULL) != SQLITE_OK) return IOS_EIO;
  sqlite3_bind_text(st, 1, shard, -1, SQLITE_STATIC);
  int ok = sqlite3_step(st) == SQLITE_DONE;
  sqlite3_finalize(st);
  if (!ok) {
    ios_diag_set(shard, NULL, "cannot open this shard's results database (%s): check the file", sqlite3_errmsg(h));
    return IOS_EIO;
  }
  int rc = IOS_OK, copied = 0;
  char *format = NULL;
  if (sqlite3_prepare_v2(h, "SELECT value FROM shard.meta WHERE key = 'format'", -1, &st, NULL) == SQLITE_OK) {
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL)
      format = strdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
  }
  if (format == NULL || strcmp(format, IOS_DB_FORMAT) != 0) {
    ios_diag_set(shard, NULL, "not an iosim results database (no meta format '%s'): give the campaign.db of a shard",
                 IOS_DB_FORMAT);
    rc = IOS_EINVAL;
  }
  free(format);
  if (rc == IOS_OK) rc = ios_db_begin(db);
  if (rc == IOS_OK)
    rc = ios_db_exec(db, "DROP TABLE IF EXISTS temp.merge_ids; CREATE TEMP TABLE merge_ids AS SELECT run_id FROM "
                         "shard.runs WHERE status != 'missing' AND run_id NOT IN (SELECT run_id FROM main.runs WHERE "
                         "status != 'missing'); DELETE FROM main.runs WHERE run_id IN (SELECT run_id FROM "
                         "temp.merge_ids)");
  char **tables = NULL;
  int nt = 0;
  if (rc == IOS_OK &&
      sqlite3_prepare_v2(h, "SELECT name FROM shard.sqlite_master WHERE type = 'table' AND name != 'meta'", -1, &st,
                         NULL) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW) {
      char **more = realloc(tables, sizeof *tables * (size_t)(nt + 1));
      if (more == NULL) break;
      tables = more;
      tables[nt] = strdup((const char *)sqlite3_column_text(st, 0));
      if (tables[nt] != NULL) nt++;
    }
    sqlite3_finalize(st);
  }
  for (int t = 0; rc == IOS_OK && t < nt; t++)
    rc = merge_table(db, tables[t]);
  for (int t = 0; t < nt; t++)
    free(tables[t]);
  free(tables);
  if (rc == IOS_OK && sqlite3_prepare_v2(h, "SELECT count(*) FROM temp.merge_ids", -1, &st, NULL) == SQLITE_OK) {
    if (sqlite3_step(st) == SQLITE_ROW) copied = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
  }
  if (rc == IOS_OK) rc = ios_db_exec(db, "DROP TABLE temp.merge_ids");
  if (rc == IOS_OK) rc = ios_db_commit(db);
  if (rc != IOS_OK) ios_db_rollback(db);
  sqlite3_exec(h, "DETACH DATABASE shard", NULL, NULL, NULL);
  return rc == IOS_OK ? copied : rc;
}

int ios_campdb_mark_missing(ios_db_t *db, const ios_campaign_t *c) {
  int rc = ios_db_begin(db);
  for (int i = 0; rc == IOS_OK && i < c->npoints; i++) {
    int failed, transient;
    if (ios_campdb_recorded(db, c->points[i].id, &failed, &transient)) continue;
    row_t r = {0};
    rc = point_cols(&r, c, &c->points[i]);
    if (rc == IOS_OK) rc = row_add(&r, "status", IOS_SINK_TEXT, ios_sink_text("missing"), NULL);
    if (rc == IOS_OK) rc = ios_db_put_row(db, "runs", c->points[i].id, r.cols, r.vals, r.n);
    row_free(&r);
  }
  if (rc == IOS_OK) rc = ios_db_commit(db);
  if (rc != IOS_OK) ios_db_rollback(db);
  return rc;
}
