/* iosim — the application model (see ios_model.h). */
#include "ios_model.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void ios_workload_free(ios_workload_t *w) {
  for (int j = 0; j < w->napps; j++) {
    free(w->apps[j].name);
    free(w->apps[j].phases);
    free(w->apps[j].given);
    free(w->apps[j].given_share);
  }
  free(w->apps);
  w->apps = NULL;
  w->napps = 0;
  free(w->population);
  w->population = NULL;
  w->npopulation = 0;
  for (int k = 0; k < w->nskipped; k++) {
    free(w->skipped[k].name);
    free(w->skipped[k].reason);
  }
  free(w->skipped);
  w->skipped = NULL;
  w->nskipped = 0;
}

int ios_workload_note_skipped(ios_workload_t *w, const char *name, const char *reason) {
  if (w->nskipped == INT32_MAX) return IOS_ENOMEM;
  ios_skipped_t *list = realloc(w->skipped, sizeof *list * ((size_t)w->nskipped + 1));
  if (list == NULL) return IOS_ENOMEM;
  w->skipped = list;
  char *n = strdup(name != NULL ? name : ""), *r = strdup(reason != NULL ? reason : "");
  if (n == NULL || r == NULL) {
    free(n);
    free(r);
    return IOS_ENOMEM;
  }
  list[w->nskipped++] = (ios_skipped_t){n, r};
  return IOS_OK;
}

int ios_workload_skip(ios_workload_t *w, int j, const char *reason) {
  if (j < 0 || j >= w->napps) return IOS_EINVAL;
  ios_app_t *a = &w->apps[j];
  int rc = ios_workload_note_skipped(w, a->name, reason);
  if (rc != IOS_OK) return rc;
  free(a->name);
  free(a->phases);
  free(a->given);
  free(a->given_share);
  memmove(a, a + 1, sizeof *a * (size_t)(w->napps - j - 1));
  w->napps--;
  return IOS_OK;
}

ios_app_t *ios_workload_add(ios_workload_t *w) {
  int n = w->napps;
  if (n == INT32_MAX) return NULL;
  if ((n & (n - 1)) == 0) { /* 0 or a power of two: the array is full (its room is the next power of two >= n) */
    ios_app_t *apps = realloc(w->apps, sizeof *apps * (n == 0 ? 1 : 2 * (size_t)n));
    if (apps == NULL) return NULL;
    w->apps = apps;
  }
  ios_app_t *apps = w->apps;
  ios_app_t *a = &apps[w->napps++];
  memset(a, 0, sizeof *a);
  a->requested_n = -1;
  a->layout = -1;
  a->nodes = 1;
  return a;
}

int ios_workload_keep_only(ios_workload_t *w, const char *name) {
  int keep = -1;
  for (int j = 0; j < w->napps; j++)
    if (strcmp(w->apps[j].name, name) == 0) keep = j;
  if (keep < 0) return IOS_EINVAL;
  for (int j = 0; j < w->napps; j++)
    if (j != keep) {
      free(w->apps[j].name);
      free(w->apps[j].phases);
      free(w->apps[j].given);
      free(w->apps[j].given_share);
    }
  w->apps[0] = w->apps[keep];
  w->napps = 1;
  return IOS_OK;
}

void ios_app_totals(const ios_app_t *a, double *work, double *volume) {
  double wk = 0, v = 0;
  for (int i = 0; i < a->nphases; i++) {
    if (a->phases[i].is_io)
      v += a->phases[i].value;
    else
      wk += a->phases[i].value;
  }
  *work = wk;
  *volume = v;
}

double ios_app_start(const ios_app_t *a) {
  return a->release > 0 ? a->release : 0.0;
}

int ios_app_writers(const ios_app_t *a) {
  return a->processes > a->nodes ? a->processes : a->nodes;
}
