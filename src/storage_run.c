/* iosim — storage-allocation scenarios (see ios_storage_run.h). */
#include "ios_storage_run.h"
#include "ios_cli.h"
#include "ios_diag.h"
#include "ios_gen_storalloc.h"
#include "ios_storalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int write_json(FILE *f, void *ctx) {
  char *text = cJSON_Print((const cJSON *)ctx);
  if (text == NULL) return IOS_ENOMEM;
  int bad = fputs(text, f) == EOF || fputc('\n', f) == EOF;
  free(text);
  return bad ? IOS_EIO : IOS_OK;
}

/* The requests of the scenario: a trace file or the generator. */
static int read_requests(const ios_scenario_t *s, const cJSON *rq, ios_request_t **req, int *n) {
  const cJSON *file = cJSON_GetObjectItemCaseSensitive(rq, "file");
  const cJSON *gen = cJSON_GetObjectItemCaseSensitive(rq, "generator");
  const cJSON *item;
  cJSON_ArrayForEach(item, rq) if (strcmp(item->string, "file") != 0 && strcmp(item->string, "generator") != 0) {
    ios_diag_set(s->file, "storage.requests", "unknown field '%s'; valid: file, generator", item->string);
    return IOS_EINVAL;
  }
  if (cJSON_IsString(file) == cJSON_IsObject(gen)) {
    ios_diag_set(s->file, "storage.requests",
                 "give exactly one of \"file\" (a request trace, CSV) and \"generator\" ({\"kind\": \"storalloc\", "
                 "\"requests\": 24000, ...})");
    return IOS_EINVAL;
  }
  if (cJSON_IsString(file)) {
    char *path = ios_expand_path(file->valuestring, s->file, "storage.requests.file");
    if (path == NULL) return IOS_EINVAL;
    int rc = ios_storalloc_read_trace(path, req, n, NULL);
    free(path);
    return rc;
  }
  ios_storalloc_gen_t g;
  ios_storalloc_gen_default(&g);
  int rc = ios_storalloc_gen_from_json(gen, s->file, "storage.requests.generator", &g);
  return rc == IOS_OK ? ios_storalloc_generate(&g, s->seed, req, n) : rc;
}

int ios_storage_scenario(const ios_scenario_t *s, int check) {
  const cJSON *st = s->storage, *item;
  cJSON_ArrayForEach(item, st) {
    if (strcmp(item->string, "platform") != 0 && strcmp(item->string, "allocation") != 0 &&
        strcmp(item->string, "requests") != 0) {
      ios_diag_set(s->file, "storage", "unknown field '%s'; valid: platform, allocation, requests", item->string);
      return IOS_EINVAL;
    }
  }
  const cJSON *pj = cJSON_GetObjectItemCaseSensitive(st, "platform");
  const cJSON *aj = cJSON_GetObjectItemCaseSensitive(st, "allocation");
  const cJSON *rj = cJSON_GetObjectItemCaseSensitive(st, "requests");
  if (!cJSON_IsObject(pj) || !cJSON_IsObject(rj) || (aj != NULL && !cJSON_IsObject(aj))) {
    ios_diag_set(s->file, "storage",
                 "needs objects \"platform\" (e.g. {\"preset\": \"nNnD\", \"capacity\": \"32TB\"}) and \"requests\" "
                 "({\"file\": ...} or {\"generator\": ...}), and optionally \"allocation\" ({\"policy\": "
                 "\"best-bandwidth\", \"split\": true, \"requeue\": true})");
    return IOS_EINVAL;
  }
  ios_storage_t plat;
  memset(&plat, 0, sizeof plat);
  ios_storalloc_options_t o;
  ios_storalloc_options_default(&o);
  o.seed = s->seed;
  ios_request_t *req = NULL;
  int n = 0;
  int rc = ios_storage_from_json(pj, s->file, "storage.platform", &plat);
  if (rc == IOS_OK && aj != NULL) rc = ios_storalloc_options_from_json(aj, s->file, "storage.allocation", &o);
  if (rc == IOS_OK) rc = read_requests(s, rj, &req, &n);
  if (rc == IOS_OK && check) {
    printf("%s: ok — storage allocation of %d requests on %d nodes / %d disks, policy %s%s%s\n", s->file, n,
           plat.nnodes, plat.ndisks, o.policy->name, o.split ? ", split" : "", o.requeue ? ", requeue" : "");
  } else if (rc == IOS_OK) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ios_storalloc_result_t r;
    rc = ios_storalloc_run(&plat, req, n, &o, &r);
    if (rc == IOS_OK) {
      char path[4200];
      snprintf(path, sizeof path, "%s/requests.csv", s->out_dir);
      rc = ios_storalloc_write_requests_csv(path, req, n, &plat, &r);
      cJSON *root = cJSON_CreateObject(), *sa = ios_storalloc_metrics_json(&plat, &o, &r);
      clock_gettime(CLOCK_MONOTONIC, &t1);
      if (root == NULL || sa == NULL) rc = rc == IOS_OK ? IOS_ENOMEM : rc;
      if (rc == IOS_OK) {
        cJSON_AddStringToObject(root, "iosim_version", IOSIM_VERSION);
        cJSON_AddStringToObject(root, "status", "complete");
        cJSON_AddNumberToObject(root, "seed", (double)s->seed);
        cJSON_AddNumberToObject(root, "wall_time_s",
                                (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
        cJSON_AddItemToObject(root, "scenario", cJSON_Duplicate(s->resolved, 1));
        cJSON *metrics = cJSON_DetachItemFromObjectCaseSensitive(sa, "metrics");
        cJSON_DeleteItemFromObjectCaseSensitive(metrics, "wall_time_s"); /* not a result: it is at the top */
        cJSON_AddItemToObject(root, "metrics", metrics);
        cJSON_AddItemToObject(root, "storalloc", sa); /* policy, options, platform, per-disk and per-node */
        sa = NULL;
        snprintf(path, sizeof path, "%s/results.json", s->out_dir);
        rc = ios_cli_write(path, write_json, root);
      }
      if (rc == IOS_OK) {
        const ios_storalloc_metrics_t *m = &r.m;
        printf("iosim %s — storage allocation: %d requests on %d nodes / %d disks, policy %s%s%s, seed %llu\n",
               IOSIM_VERSION, n, plat.nnodes, plat.ndisks, o.policy->name, o.split ? ", split" : "",
               o.requeue ? ", requeue" : "", (unsigned long long)s->seed);
        printf("allocated %d | refused %d | failed %d | requeued %d | split %d | served share of sum_cap %.4f\n",
               m->allocated, m->refused, m->failed, m->requeued, m->split, m->served_share);
        printf("disk fill mean %.2f%% max %.2f%% | allocations per disk mean %.3g (sd %.3g) max %d | %.3f s wall; "
               "results in %s/\n",
               m->mean_fill_pct, m->max_fill_pct, m->disk_mean_allocs, m->disk_mean_allocs_sd, m->disk_max_allocs,
               r.wall_time_s, s->out_dir);
      }
      cJSON_Delete(root);
      cJSON_Delete(sa);
      ios_storalloc_result_free(&r);
    }
  }
  free(req);
  ios_storage_free(&plat);
  return rc;
}
