/* iosim — the merge of a campaign's shard directories (see ios_merge.h). */
#include "ios_merge.h"
#include "ios_campdb.h"
#include "ios_campaign.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_fs.h"
#include "ios_outdir.h"
#include "ios_runs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH_MAX_LEN IOS_OUTDIR_PATH_MAX

/* The campaign of the shard directories in[0..ndirs): the first readable sweep.json (kept in *first), every other
 * one checked to come from the same campaign; directories without one are left out (counted in *nabsent, their
 * points missing). @return 0, or 2 after a message. */
static int merge_records(char *const *in, int ndirs, ios_campaign_t *c, cJSON **first, int *nabsent) {
  char path[2 * PATH_MAX_LEN + 64];
  for (int d = 0; d < ndirs; d++) {
    snprintf(path, sizeof path, "%s/sweep.json", in[d]);
    cJSON *rec = ios_outdir_read_json(path);
    if (rec == NULL) { /* a shard that failed before its sweep started, or never ran: its points stay missing */
      fprintf(stderr,
              "iosim: warning: %s: %s: %s is left out (a shard that failed or never ran?); "
              "points no other directory has run are marked missing\n",
              path, ios_outdir_exists(path) ? "unreadable" : "missing", in[d]);
      (*nabsent)++;
    } else if (*first == NULL) {
      *first = rec;
      if (ios_campaign_load_record(rec, path, c) != IOS_OK) {
        fprintf(stderr, "iosim: error: %s\n", ios_diag_message());
        return 2;
      }
    } else {
      int same = cJSON_Compare(cJSON_GetObjectItemCaseSensitive(rec, "campaign"),
                               cJSON_GetObjectItemCaseSensitive(*first, "campaign"), 1) &&
                 cJSON_Compare(cJSON_GetObjectItemCaseSensitive(rec, "base"),
                               cJSON_GetObjectItemCaseSensitive(*first, "base"), 1);
      cJSON_Delete(rec);
      if (!same) {
        fprintf(stderr,
                "iosim: error: %s: comes from another campaign than %s/sweep.json: merge only the shards of "
                "one campaign\n",
                path, in[0]);
        return 2;
      }
    }
  }
  if (*first != NULL) return 0;
  fprintf(stderr,
          "iosim: error: none of the %d directories holds a sweep.json: give the output directories of the "
          "shards of an iosim sweep\n",
          ndirs);
  return 2;
}

/* The run of each point: dirs[i] = the first shard directory that has runs/<id>/run.json (absolute, owned), or NULL;
 * runs_dir/<id> is linked to it, so reports find its files. */
static void merge_find_runs(const ios_campaign_t *c, char *const *in, int ndirs, const char *runs_dir, char **dirs) {
  char path[2 * PATH_MAX_LEN + 64], link[2 * PATH_MAX_LEN + 64];
  for (int i = 0; i < c->npoints; i++) {
    for (int d = 0; d < ndirs && dirs[i] == NULL; d++) {
      snprintf(path, sizeof path, "%s/runs/%s/run.json", in[d], c->points[i].id);
      if (!ios_outdir_exists(path)) continue;
      char *a = ios_outdir_absolute(in[d]);
      snprintf(path, sizeof path, "%s/runs/%s", a, c->points[i].id);
      free(a);
      dirs[i] = strdup(path);
    }
    if (dirs[i] == NULL) continue;
    snprintf(link, sizeof link, "%s/%s", runs_dir, c->points[i].id);
    if (strcmp(link, dirs[i]) == 0) continue;
    struct stat st;
    if (lstat(link, &st) == 0 && S_ISLNK(st.st_mode)) remove(link);
    if (!ios_outdir_exists(link) && symlink(dirs[i], link) != 0)
      fprintf(stderr, "iosim: warning: cannot link %s (%s)\n", link, strerror(errno));
  }
}

/* The merged database of the shard directories in[0..ndirs) into `db`: each shard's campaign.db (its runs that no
 * earlier shard has), or for a shard without one (an older iosim) its recorded run directories; then a "missing" runs
 * row for every point no shard has run. @return 0, or 2 after a message. */
static int merge_db(ios_db_t *db, const ios_campaign_t *c, char *const *in, int ndirs) {
  char path[2 * PATH_MAX_LEN + 64];
  for (int d = 0; d < ndirs; d++) {
    snprintf(path, sizeof path, "%s/sweep.json", in[d]);
    if (!ios_outdir_exists(path)) continue; /* left out (merge_records said so) */
    ios_campdb_path(path, sizeof path, in[d]);
    if (ios_outdir_exists(path)) {
      if (ios_campdb_merge_from(db, path) < 0) {
        fprintf(stderr, "iosim: error: %s\n", ios_diag_message());
        return 2;
      }
      continue;
    }
    for (int i = 0; i < c->npoints; i++) { /* per-run directories only */
      int failed, transient;
      if (ios_campdb_recorded(db, c->points[i].id, &failed, &transient)) continue;
      snprintf(path, sizeof path, "%s/runs/%s/run.json", in[d], c->points[i].id);
      cJSON *run = ios_outdir_read_json(path);
      if (run == NULL) continue;
      snprintf(path, sizeof path, "%s/runs/%s", in[d], c->points[i].id);
      int rc = ios_campdb_record(db, c, &c->points[i], path, run);
      cJSON_Delete(run);
      if (rc != IOS_OK) {
        fprintf(stderr, "iosim: error: %s\n", ios_diag_message());
        return 2;
      }
    }
  }
  if (ios_campdb_mark_missing(db, c) != IOS_OK) {
    fprintf(stderr, "iosim: error: %s\n", ios_diag_message());
    return 2;
  }
  return 0;
}

/* sweep.json, campaign.json, campaign.db and runs.csv of the merged output `out`, and the summary. The database is
 * built beside its place and renamed into it, so OUT/campaign.db is never a half-merged one. @return 0 every point
 * complete, 1 some failed or missing, 2 when a file cannot be written. */
static int merge_write(const ios_campaign_t *c, const cJSON *first, const char *out, char *const *in, int ndirs,
                       int nabsent) {
  char path[2 * PATH_MAX_LEN + 64], tmp[2 * PATH_MAX_LEN + 64], side[2 * PATH_MAX_LEN + 80];
  int *sel = malloc(sizeof *sel * (size_t)(c->npoints > 0 ? c->npoints : 1)), nf = 0, nm = 0;
  for (int i = 0; sel != NULL && i < c->npoints; i++)
    sel[i] = i;
  int w = sel != NULL ? ios_outdir_write_records(out, first, c->campaign) : -1;
  if (w != 0) {
    free(sel);
    fprintf(stderr, "iosim: error: %s/sweep.json: cannot write (%s)\n", out, strerror(errno));
    return 2;
  }
  snprintf(tmp, sizeof tmp, "%s/.campaign.db.%ld.tmp", out, (long)getpid());
  ios_db_t *db = NULL;
  if (ios_campdb_open(tmp, c, c->campaign, first, &db) != IOS_OK) {
    free(sel);
    fprintf(stderr, "iosim: error: %s\n", ios_diag_message());
    return 2;
  }
  int rc = merge_db(db, c, in, ndirs);
  snprintf(path, sizeof path, "%s/runs.csv", out);
  if (rc == 0 && ios_campdb_runs_csv(db, c, sel, c->npoints, path, &nf, &nm) != 0) {
    fprintf(stderr, "iosim: error: %s: cannot write (%s)\n", path, strerror(errno));
    rc = 2;
  }
  ios_db_close(db);
  free(sel);
  ios_campdb_path(path, sizeof path, out);
  for (int k = 0; rc == 0 && k < 2; k++) { /* an old database's WAL files must not outlive it */
    snprintf(side, sizeof side, "%s%s", path, k ? "-shm" : "-wal");
    remove(side);
  }
  if (rc == 0 && rename(tmp, path) != 0) {
    fprintf(stderr, "iosim: error: %s: cannot write (%s)\n", path, strerror(errno));
    rc = 2;
  }
  if (rc != 0) {
    remove(tmp);
    return rc;
  }
  printf("merge: %d points from %d directories (%d left out): %d complete, %d failed, %d missing; wrote %s and "
         "%s/runs.csv\n",
         c->npoints, ndirs - nabsent, nabsent, c->npoints - nf - nm, nf, nm, path, out);
  if (nm > 0)
    fprintf(stderr,
            "merge: %d points have no run yet (status missing in runs.csv): finish their shards and merge again\n", nm);
  return nf + nm > 0 ? 1 : 0;
}

int ios_merge_shards(char *const *in, int ndirs, const char *out_arg) {
  ios_campaign_t c;
  memset(&c, 0, sizeof c);
  cJSON *first = NULL;
  int nabsent = 0, rc = merge_records(in, ndirs, &c, &first, &nabsent);
  char *out = rc == 0 ? ios_outdir_absolute(out_arg) : NULL, runs_dir[PATH_MAX_LEN + 8];
  int lock = rc == 0 ? ios_outdir_lock(out, "merge") : -1;
  if (rc == 0 && lock < 0) rc = 2;
  char **dirs = rc == 0 ? calloc((size_t)(c.npoints > 0 ? c.npoints : 1), sizeof *dirs) : NULL;
  if (rc == 0) {
    snprintf(runs_dir, sizeof runs_dir, "%s/runs", out);
    if (dirs == NULL || ios_mkdirs(runs_dir) != 0) {
      fprintf(stderr, "iosim: error: %s: cannot create (%s)\n", runs_dir, strerror(errno));
      rc = 2;
    }
  }
  if (rc == 0) merge_find_runs(&c, in, ndirs, runs_dir, dirs);
  if (rc == 0) rc = merge_write(&c, first, out, in, ndirs, nabsent);
  if (lock >= 0) rmdir(runs_dir); /* no shard kept run directories: no links, nothing to keep */
  for (int i = 0; dirs != NULL && i < c.npoints; i++)
    free(dirs[i]);
  free(dirs);
  if (lock >= 0) close(lock);
  free(out);
  cJSON_Delete(first);
  ios_campaign_free(&c);
  return rc;
}
