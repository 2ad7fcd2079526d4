/* iosim — the runs of a campaign's output directory: run records and runs.csv (see ios_runs.h). */
#define _GNU_SOURCE
#include "ios_runs.h"
#include "ios_clock.h"
#include "ios_csv.h"
#include "ios_errors.h"
#include "ios_fs.h"
#include "ios_outdir.h"
#include "ios_scenario.h"
#include "ios_sink.h"
#include "ios_units.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define PATH_MAX_LEN IOS_OUTDIR_PATH_MAX

int ios_runs_recorded(const char *runs_dir, const char *id, int *failed, int *transient) {
  char path[2 * PATH_MAX_LEN + 64];
  snprintf(path, sizeof path, "%s/%s/run.json", runs_dir, id);
  cJSON *run = ios_outdir_read_json(path);
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(run, "status");
  *failed = cJSON_IsString(st) && strcmp(st->valuestring, "failed") == 0;
  *transient = *failed && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(run, "transient"));
  int recorded = run != NULL;
  cJSON_Delete(run);
  return recorded;
}

/* Last non-empty line of a file (the error message of a failed run), without the "iosim: error: " prefix. */
static void last_line(const char *path, char *out, size_t n) {
  out[0] = '\0';
  char *text = ios_read_file(path, NULL);
  if (text == NULL) return;
  size_t len = strlen(text);
  while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' '))
    text[--len] = '\0';
  char *line = strrchr(text, '\n');
  line = line != NULL ? line + 1 : text;
  const char *prefix = "iosim: error: ";
  if (strncmp(line, prefix, strlen(prefix)) == 0) line += strlen(prefix);
  snprintf(out, n, "%s", line);
  free(text);
}

/* Whether a failed run's message is a transient system condition (a full disk, a quota, a file size limit, no
 * memory, too many open files; or the run was killed by SIGKILL, the OOM killer's, or SIGXFSZ) rather than a verdict
 * on its input: such a run is recorded as failed with "transient": true, and a resumed
 * sweep runs it again. */
static int transient_error(const char *err) {
  static const int codes[] = {ENOSPC, EDQUOT, EFBIG, ENOMEM, EMFILE, ENFILE, EAGAIN, EIO};
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
    if (strstr(err, strerror(codes[i])) != NULL) return 1;
  return 0;
}

/* The error of a failed run that ran in `tmp` (its signal, or the last line of its stderr.txt), into err[0..n), with
 * `tmp` renamed `final`: the run's files named where they will stay. */
static void run_error(int wstatus, const char *tmp, const char *final, char *err, size_t n) {
  char path[2 * PATH_MAX_LEN + 64];
  if (WIFSIGNALED(wstatus)) {
    snprintf(err, n, "killed by signal %d (%s)", WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)));
  } else {
    snprintf(path, sizeof path, "%s/stderr.txt", tmp);
    last_line(path, err, n);
    if (err[0] == '\0') snprintf(err, n, "exit code %d without a message", WEXITSTATUS(wstatus));
  }
  for (char *at; (at = strstr(err, tmp)) != NULL;) {
    char rest[1024];
    snprintf(rest, sizeof rest, "%s", at + strlen(tmp));
    snprintf(at, n - (size_t)(at - err), "%s%s", final, rest);
  }
}

cJSON *ios_runs_record_json(const ios_campaign_point_t *pt, const char *tmp, const char *final, double t0, int wstatus,
                            int *failed, int *transient) {
  char path[2 * PATH_MAX_LEN + 64], err[1024] = "";
  snprintf(path, sizeof path, "%s/results.json", tmp);
  cJSON *results = NULL;
  int ok = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0 && (results = ios_outdir_read_json(path)) != NULL;
  const cJSON *status = cJSON_GetObjectItemCaseSensitive(results, "status");
  if (!ok) run_error(wstatus, tmp, final, err, sizeof err);
  cJSON *run = cJSON_CreateObject();
  cJSON_AddStringToObject(run, "run_id", pt->id);
  cJSON_AddNumberToObject(run, "index", pt->index);
  cJSON_AddStringToObject(run, "status", ok && cJSON_IsString(status) ? status->valuestring : "failed");
  cJSON_AddNumberToObject(run, "exit_code", WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
  cJSON_AddNumberToObject(run, "wall_time_s", ios_clock_s() - t0);
  cJSON_AddStringToObject(run, "error", err);
  *transient = !ok && (WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) == SIGKILL || WTERMSIG(wstatus) == SIGXFSZ
                                            : transient_error(err));
  if (*transient) cJSON_AddTrueToObject(run, "transient"); /* re-run on resume */
  cJSON_Delete(results);
  *failed = !ok;
  return run;
}

int ios_runs_record(const char *runs_dir, const ios_campaign_point_t *pt, const char *tmp, double t0, int wstatus,
                    int *failed, int *transient) {
  char path[2 * PATH_MAX_LEN + 64], final[2 * PATH_MAX_LEN + 64];
  snprintf(final, sizeof final, "%s/%s", runs_dir, pt->id);
  cJSON *run = ios_runs_record_json(pt, tmp, final, t0, wstatus, failed, transient);
  snprintf(path, sizeof path, "%s/run.json", tmp);
  int rc = ios_outdir_write_json(path, run);
  cJSON_Delete(run);
  if (rc == 0) {
    if (ios_outdir_exists(final)) ios_outdir_remove(final);
    rc = rename(tmp, final);
  }
  return rc;
}

/* -------------------------------------------------------------------------------------------- runs.csv */

/* A JSON value as a runs.csv cell: strings as they are, numbers (REAL, printed in their shortest form), booleans as
 * true/false, objects and arrays as compact JSON (printed into *owned, which the caller frees), null or absent empty.
 */
static ios_sink_val_t json_value(const cJSON *v, char **owned) {
  *owned = NULL;
  if (v == NULL || cJSON_IsNull(v)) return ios_sink_null();
  if (cJSON_IsString(v)) return ios_sink_text(v->valuestring);
  if (cJSON_IsNumber(v)) return ios_sink_real(v->valuedouble);
  if (cJSON_IsBool(v)) return ios_sink_text(cJSON_IsTrue(v) ? "true" : "false");
  *owned = cJSON_PrintUnformatted(v);
  return ios_sink_text(*owned);
}

typedef struct {
  cJSON *run;     /* run.json, or NULL when missing */
  cJSON *results; /* results.json, or NULL */
} run_files_t;

static void add_column(cJSON *cols, const char *name) {
  const cJSON *c;
  cJSON_ArrayForEach(c, cols) {
    if (strcmp(c->valuestring, name) == 0) return;
  }
  cJSON_AddItemToArray(cols, cJSON_CreateString(name));
}

/* What runs.csv is written from: the points sel[0..nsel) of c, each run's run.json and results.json (rf[i], NULL
 * when missing), and the union of their metric and count names (the columns). */
typedef struct {
  const ios_campaign_t *c;
  const int *sel;
  int nsel;
  run_files_t *rf;
  cJSON *metric_cols, *count_cols;
  int nfailed, nmissing;
} runs_csv_t;

/* One row of runs.csv into table `t` of sink `k` (columns as runs_csv_put names them): the point, its swept values,
 * seed, status, wall time, error, metrics, counts, engine time. */
static int runs_csv_row(ios_sink_t *k, ios_sink_table_t *t, runs_csv_t *x, int i, int ncols) {
  const ios_campaign_point_t *pt = &x->c->points[x->sel[i]];
  const run_files_t *rf = &x->rf[i];
  ios_sink_val_t *v = calloc((size_t)ncols, sizeof *v);
  char **owned = calloc((size_t)ncols, sizeof *owned), seed[32];
  if (v == NULL || owned == NULL) {
    free(v);
    free(owned);
    return IOS_ENOMEM;
  }
  int n = 0;
  v[n++] = ios_sink_text(pt->id);
  v[n++] = ios_sink_int(pt->index);
  for (int k2 = 0; k2 < x->c->nkeys; k2++, n++)
    v[n] = json_value(ios_campaign_point_value(x->c, pt->index, k2), &owned[n]);
  const cJSON *status = cJSON_GetObjectItemCaseSensitive(rf->run, "status");
  const char *st = cJSON_IsString(status) ? status->valuestring : "missing";
  x->nfailed += strcmp(st, "failed") == 0;
  x->nmissing += strcmp(st, "missing") == 0;
  snprintf(seed, sizeof seed, "%llu", (unsigned long long)pt->seed);
  v[n++] = ios_sink_text(seed);
  v[n++] = ios_sink_text(st);
  v[n] = json_value(cJSON_GetObjectItemCaseSensitive(rf->run, "wall_time_s"), &owned[n]), n++;
  v[n] = json_value(cJSON_GetObjectItemCaseSensitive(rf->run, "error"), &owned[n]), n++;
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(rf->results, "metrics");
  const cJSON *cnt = cJSON_GetObjectItemCaseSensitive(rf->results, "counts"), *col;
  cJSON_ArrayForEach(col, x->metric_cols) {
    v[n] = json_value(cJSON_GetObjectItemCaseSensitive(m, col->valuestring), &owned[n]), n++;
  }
  cJSON_ArrayForEach(col, x->count_cols) {
    v[n] = json_value(cJSON_GetObjectItemCaseSensitive(cnt, col->valuestring), &owned[n]), n++;
  }
  /* the engine's wall time (results.json): simulation and policy decisions, no set-up */
  v[n] = json_value(cJSON_GetObjectItemCaseSensitive(rf->results, "wall_time_s"), &owned[n]), n++;
  int rc = ios_sink_row(k, t, v);
  for (int c = 0; c < ncols; c++)
    free(owned[c]);
  free(owned);
  free(v);
  return rc;
}

/* runs.csv through a files sink (ios_sink.h) into directory `dir` as table `table` (its file name without .csv): the
 * header, then one row per selected point. @return IOS_OK, or an IOS_E* code with errno set. */
static int runs_csv_put(runs_csv_t *x, const char *dir, const char *table) {
  int ncols = 2 + x->c->nkeys + 4 + cJSON_GetArraySize(x->metric_cols) + cJSON_GetArraySize(x->count_cols) + 1;
  ios_sink_col_t *cols = calloc((size_t)ncols, sizeof *cols);
  ios_sink_t *k = cols != NULL ? ios_sink_files(dir, NULL) : NULL;
  if (k == NULL) {
    free(cols);
    errno = ENOMEM;
    return IOS_ENOMEM;
  }
  int n = 0;
  static const char *const fixed[] = {"seed", "status", "wall_time_s", "error"};
  cols[n++].name = "run_id";
  cols[n++].name = "index";
  for (int k2 = 0; k2 < x->c->nkeys; k2++)
    cols[n++].name = x->c->keys[k2].key;
  for (int f = 0; f < 4; f++)
    cols[n++].name = fixed[f];
  const cJSON *col;
  cJSON_ArrayForEach(col, x->metric_cols) cols[n++].name = col->valuestring;
  cJSON_ArrayForEach(col, x->count_cols) cols[n++].name = col->valuestring;
  cols[n++].name = "sim_wall_s";
  for (int c = 0; c < ncols; c++)
    cols[c].shortest = 1; /* numbers as the campaign and results.json give them, in their shortest form */
  ios_sink_table_t *t = ios_sink_begin_table(k, table, cols, ncols);
  int rc = t != NULL ? IOS_OK : IOS_EIO;
  x->nfailed = x->nmissing = 0;
  for (int i = 0; rc == IOS_OK && i < x->nsel; i++)
    rc = runs_csv_row(k, t, x, i, ncols);
  if (t != NULL && ios_sink_end_table(k, t, rc == IOS_OK) != IOS_OK && rc == IOS_OK) rc = IOS_EIO;
  int saved = errno;
  ios_sink_close(k, 0);
  free(cols);
  errno = rc == IOS_OK ? 0 : saved != 0 ? saved : EIO;
  return rc;
}

/* Keeps of a run's results.json only what runs.csv shows (metrics, counts, wall_time_s): a campaign holds every run's
 * at once, and the rest (the resolved scenario) made 192,000 runs take 2.1 GB. Frees `all`. */
static cJSON *results_columns(cJSON *all) {
  if (all == NULL) return NULL;
  cJSON *kept = cJSON_CreateObject();
  static const char *const keys[] = {"metrics", "counts", "wall_time_s"};
  for (size_t k = 0; kept != NULL && k < sizeof keys / sizeof keys[0]; k++) {
    cJSON *item = cJSON_DetachItemFromObjectCaseSensitive(all, keys[k]);
    if (item != NULL) cJSON_AddItemToObject(kept, keys[k], item);
  }
  cJSON_Delete(all);
  return kept;
}

int ios_runs_csv_write_with(const ios_campaign_t *c, const int *sel, int nsel, ios_runs_load_fn load, void *ctx,
                            const char *path, int *nfailed, int *nmissing) {
  runs_csv_t x = {
      c, sel, nsel, calloc((size_t)(nsel > 0 ? nsel : 1), sizeof *x.rf), cJSON_CreateArray(), cJSON_CreateArray(),
      0, 0};
  int rc = x.rf != NULL && x.metric_cols != NULL && x.count_cols != NULL ? 0 : -1;
  for (int i = 0; rc == 0 && i < nsel; i++) {
    cJSON *results = NULL;
    load(i, &x.rf[i].run, &results, ctx);
    x.rf[i].results = results_columns(results);
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(x.rf[i].results, "metrics"))
        add_column(x.metric_cols, item->string);
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(x.rf[i].results, "counts")) {
      if (strcmp(item->string, "applications") != 0) add_column(x.count_cols, item->string);
    }
  }
  if (rc == 0) { /* path = DIR/TABLE.csv: the files sink's table TABLE in DIR */
    char dir[2 * PATH_MAX_LEN + 64], table[256];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    const char *base = slash != NULL ? slash + 1 : dir;
    size_t bl = strlen(base) < sizeof table - 1 ? strlen(base) : sizeof table - 1;
    memcpy(table, base, bl);
    table[bl] = '\0';
    if (slash != NULL)
      *slash = '\0';
    else
      snprintf(dir, sizeof dir, ".");
    size_t tl = strlen(table);
    if (tl > 4 && strcmp(table + tl - 4, ".csv") == 0) table[tl - 4] = '\0';
    if (runs_csv_put(&x, dir, table) != IOS_OK) rc = -1;
  }
  *nfailed = x.nfailed;
  *nmissing = x.nmissing;
  for (int i = 0; x.rf != NULL && i < nsel; i++) {
    cJSON_Delete(x.rf[i].run);
    cJSON_Delete(x.rf[i].results);
  }
  free(x.rf);
  cJSON_Delete(x.metric_cols);
  cJSON_Delete(x.count_cols);
  return rc;
}

/* ios_runs_load_fn of run directories: dirs[i]/run.json and results.json. */
static void load_dir(int i, cJSON **run, cJSON **results, void *ctx) {
  char *const *dirs = ctx;
  *run = *results = NULL;
  if (dirs[i] == NULL) return;
  char p[2 * PATH_MAX_LEN + 64];
  snprintf(p, sizeof p, "%s/run.json", dirs[i]);
  *run = ios_outdir_read_json(p);
  snprintf(p, sizeof p, "%s/results.json", dirs[i]);
  *results = ios_outdir_read_json(p);
}

int ios_runs_csv_write(const ios_campaign_t *c, const int *sel, int nsel, char *const *dirs, const char *path,
                       int *nfailed, int *nmissing) {
  return ios_runs_csv_write_with(c, sel, nsel, load_dir, (void *)dirs, path, nfailed, nmissing);
}
