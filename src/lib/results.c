/* iosim — the results of a run as the scenario face reads them back (include/iosim/scenario.h): results.json's
 * status, metrics and counts, and apps.csv's rows, from the run's output directory (docs/outputs.md). */
#include "ios_lib.h"

#include "ios_csv.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLUMNS 64

struct iosim_results {
  char *dir;
  char *json;            /* results.json's text */
  cJSON *root;           /* parsed */
  int nmetrics;          /* numbers of "metrics" then "counts" */
  const cJSON **metrics; /* [nmetrics], borrowed from root */
  int ncols, napps;
  char *header; /* apps.csv's header line, split in place into cols */
  char *cols[MAX_COLUMNS];
  char **lines;  /* [napps] each row line, split in place into fields[j * ncols ..] */
  char **fields; /* [napps * ncols] */
};

void iosim_results_free(iosim_results_t *r) {
  if (r == NULL) return;
  free(r->dir);
  free(r->json);
  cJSON_Delete(r->root);
  free(r->metrics);
  free(r->header);
  for (int j = 0; j < r->napps; j++)
    free(r->lines[j]);
  free(r->lines);
  free(r->fields);
  free(r);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (size_t k; buf != NULL && (k = fread(buf + n, 1, cap - 1 - n, f)) > 0;) {
    n += k;
    if (n == cap - 1) {
      char *b = realloc(buf, cap *= 2);
      if (b == NULL) free(buf);
      buf = b;
    }
  }
  fclose(f);
  if (buf != NULL) buf[n] = '\0';
  return buf;
}

static void collect_metrics(iosim_results_t *r) {
  const char *groups[] = {"metrics", "counts"};
  int n = 0;
  for (int g = 0; g < 2; g++) {
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(r->root, groups[g]), *it;
    cJSON_ArrayForEach(it, obj) n += cJSON_IsNumber(it);
  }
  r->metrics = calloc((size_t)(n > 0 ? n : 1), sizeof *r->metrics);
  if (r->metrics == NULL) return;
  for (int g = 0; g < 2; g++) {
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(r->root, groups[g]), *it;
    cJSON_ArrayForEach(it, obj) if (cJSON_IsNumber(it)) r->metrics[r->nmetrics++] = it;
  }
}

/* apps.csv: its header and its rows, split into fields (an absent file: no applications). */
static int read_apps(iosim_results_t *r, const char *path) {
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return errno == ENOENT ? IOSIM_OK : ios_lib_fail(IOSIM_EIO, "%s: cannot read it (%s)", path, strerror(errno));
  char *line = NULL;
  size_t cap = 0;
  int rc = IOSIM_OK, lcap = 0;
  while (rc == IOSIM_OK && getline(&line, &cap, f) >= 0) {
    if (r->header == NULL) {
      r->header = line;
      line = NULL;
      cap = 0;
      r->ncols = ios_csv_split(r->header, r->cols, MAX_COLUMNS);
      continue;
    }
    if (line[0] == '\n' || line[0] == '\0') continue;
    if (r->napps == lcap) {
      lcap = lcap ? 2 * lcap : 64;
      char **l = realloc(r->lines, sizeof *l * (size_t)lcap);
      char **fl = l != NULL ? realloc(r->fields, sizeof *fl * (size_t)lcap * (size_t)r->ncols) : NULL;
      if (l != NULL) r->lines = l;
      if (fl == NULL) {
        rc = ios_lib_fail(IOSIM_ENOMEM, "out of memory reading %s", path);
        break;
      }
      r->fields = fl;
    }
    char **fields = r->fields + (size_t)r->napps * (size_t)r->ncols;
    int k = ios_csv_split(line, fields, r->ncols);
    for (; k < r->ncols; k++)
      fields[k] = "";
    r->lines[r->napps++] = line;
    line = NULL;
    cap = 0;
  }
  free(line);
  fclose(f);
  return rc;
}

int ios_lib_results_read(const char *dir, iosim_results_t **out) {
  iosim_results_t *r = calloc(1, sizeof *r);
  if (r == NULL || (r->dir = strdup(dir)) == NULL) {
    free(r);
    return ios_lib_fail(IOSIM_ENOMEM, "out of memory reading the results");
  }
  char path[4200];
  snprintf(path, sizeof path, "%s/results.json", dir);
  r->json = slurp(path);
  r->root = r->json != NULL ? cJSON_Parse(r->json) : NULL;
  if (r->root == NULL) {
    iosim_results_free(r);
    return ios_lib_fail(IOSIM_EIO,
                        "%s: cannot read the run's results.json back: check that nothing else writes into "
                        "the output directory",
                        path);
  }
  collect_metrics(r);
  snprintf(path, sizeof path, "%s/apps.csv", dir);
  int rc = r->metrics != NULL ? read_apps(r, path) : ios_lib_fail(IOSIM_ENOMEM, "out of memory reading the results");
  if (rc != IOSIM_OK) {
    iosim_results_free(r);
    return rc;
  }
  *out = r;
  return IOSIM_OK;
}

const char *iosim_results_status(const iosim_results_t *r) {
  const cJSON *s = r != NULL ? cJSON_GetObjectItemCaseSensitive(r->root, "status") : NULL;
  return cJSON_IsString(s) ? s->valuestring : "";
}

const char *iosim_results_dir(const iosim_results_t *r) {
  return r != NULL ? r->dir : NULL;
}

const char *iosim_results_json(const iosim_results_t *r) {
  return r != NULL ? r->json : NULL;
}

int iosim_results_metric_count(const iosim_results_t *r) {
  return r != NULL ? r->nmetrics : ios_lib_fail(IOSIM_EINVAL, "the results are NULL");
}

const char *iosim_results_metric_name(const iosim_results_t *r, int i) {
  return r != NULL && i >= 0 && i < r->nmetrics ? r->metrics[i]->string : NULL;
}

int iosim_results_metric(const iosim_results_t *r, const char *name, double *value) {
  if (r == NULL || name == NULL) return ios_lib_fail(IOSIM_EINVAL, "iosim_results_metric: give results and a name");
  for (int i = 0; i < r->nmetrics; i++)
    if (strcmp(r->metrics[i]->string, name) == 0) {
      if (value != NULL) *value = r->metrics[i]->valuedouble;
      return IOSIM_OK;
    }
  char names[1536] = "";
  for (int i = 0; i < r->nmetrics; i++) {
    size_t l = strlen(names);
    snprintf(names + l, sizeof names - l, "%s%s", i ? ", " : "", r->metrics[i]->string);
  }
  return ios_lib_fail(IOSIM_EINVAL, "metric '%s': not in %s/results.json; its metrics are: %s", name, r->dir, names);
}

int iosim_results_app_count(const iosim_results_t *r) {
  return r != NULL ? r->napps : ios_lib_fail(IOSIM_EINVAL, "the results are NULL");
}

int iosim_results_app_column_count(const iosim_results_t *r) {
  return r != NULL ? r->ncols : ios_lib_fail(IOSIM_EINVAL, "the results are NULL");
}

const char *iosim_results_app_column(const iosim_results_t *r, int i) {
  return r != NULL && i >= 0 && i < r->ncols ? r->cols[i] : NULL;
}

const char *iosim_results_app_text(const iosim_results_t *r, int j, const char *column) {
  if (r == NULL || j < 0 || j >= r->napps) {
    ios_lib_fail(IOSIM_EINVAL, "application %d: out of range 0..%d", j, r != NULL ? r->napps - 1 : -1);
    return NULL;
  }
  for (int c = 0; column != NULL && c < r->ncols; c++)
    if (strcmp(r->cols[c], column) == 0) return r->fields[(size_t)j * (size_t)r->ncols + (size_t)c];
  ios_lib_fail(IOSIM_EINVAL, "column '%s': not in %s/apps.csv (docs/outputs.md lists its columns)",
               column != NULL ? column : "(null)", r->dir);
  return NULL;
}

int iosim_results_app_value(const iosim_results_t *r, int j, const char *column, double *value) {
  const char *text = iosim_results_app_text(r, j, column);
  if (text == NULL) return IOSIM_EINVAL;
  char *end;
  double v = strtod(text, &end);
  if (end == text || *end != '\0')
    return ios_lib_fail(IOSIM_EINVAL,
                        "application %d: column '%s' holds '%s', not a number: read it with "
                        "iosim_results_app_text",
                        j, column, text);
  if (value != NULL) *value = v;
  return IOSIM_OK;
}
