/* iosim — storage-allocation scenarios (see ios_storalloc_run.h). */
#include "ios_storalloc_run.h"
#include "ios_value.h"
#include "ios_clock.h"
#include "ios_diag.h"
#include "ios_engine.h"
#include "ios_gen.h"
#include "ios_storalloc_requests.h"
#include "ios_storalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The requests of the scenario: a trace file or the generator. */
static int read_requests(const ios_scenario_t *s, const cJSON *rq, ios_request_t **req, int *n) {
  const cJSON *file = cJSON_GetObjectItemCaseSensitive(rq, "file");
  const cJSON *gen = cJSON_GetObjectItemCaseSensitive(rq, "generator");
  static const char *const keys[] = {"file", "generator", NULL};
  if (ios_value_check_keys(rq, keys, -1, s->file, "storage.requests") != IOS_OK) return IOS_EINVAL;
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

/* The storage object's fields, its allocation options and its requests (the storage platform comes from the caller:
 * storage.platform, or the platform XML's disks). */
static int read_inputs(const ios_scenario_t *s, int simulate, ios_storalloc_options_t *o, ios_request_t **req, int *n) {
  const cJSON *st = s->storage;
  static const char *const keys[] = {"platform", "allocation", "requests", NULL};
  if (ios_value_check_keys(st, keys, -1, s->file, "storage") != IOS_OK) return IOS_EINVAL;
  const cJSON *pj = cJSON_GetObjectItemCaseSensitive(st, "platform");
  const cJSON *aj = cJSON_GetObjectItemCaseSensitive(st, "allocation");
  const cJSON *rj = cJSON_GetObjectItemCaseSensitive(st, "requests");
  if ((!simulate && !cJSON_IsObject(pj)) || !cJSON_IsObject(rj) || (aj != NULL && !cJSON_IsObject(aj))) {
    ios_diag_set(s->file, "storage",
                 "needs an object \"requests\" ({\"file\": ...} or {\"generator\": ...}), optionally \"allocation\" "
                 "({\"policy\": \"best-bandwidth\", \"split\": true, \"requeue\": true}), and either \"platform\" "
                 "(e.g. {\"preset\": \"nNnD\", \"capacity\": \"32TB\"}: schedule only) or none (the scenario's "
                 "platform XML holds the disks and the requests' I/O is simulated)");
    return IOS_EINVAL;
  }
  ios_storalloc_options_default(o);
  o->seed = s->seed;
  int rc = aj != NULL ? ios_storalloc_options_from_json(aj, s->file, "storage.allocation", o) : IOS_OK;
  return rc == IOS_OK ? read_requests(s, rj, req, n) : rc;
}

/* The results document into sink k (results.json): the scenario, the Table 3 metrics (plus `extra`, consumed), the
 * policy/platform/per-disk object. */
static int write_results(ios_sink_t *k, const ios_scenario_t *s, const ios_storage_t *plat,
                         const ios_storalloc_options_t *o, const ios_storalloc_result_t *r, double wall, cJSON *extra) {
  cJSON *root = cJSON_CreateObject(), *sa = ios_storalloc_metrics_json(plat, o, r);
  int rc = root != NULL && sa != NULL ? IOS_OK : IOS_ENOMEM;
  if (rc == IOS_OK) {
    cJSON_AddStringToObject(root, "iosim_version", IOSIM_VERSION);
    cJSON_AddStringToObject(root, "status", "complete");
    cJSON_AddNumberToObject(root, "seed", (double)s->seed);
    cJSON_AddNumberToObject(root, "wall_time_s", wall);
    cJSON_AddItemToObject(root, "scenario", cJSON_Duplicate(s->resolved, 1));
    cJSON *metrics = cJSON_DetachItemFromObjectCaseSensitive(sa, "metrics");
    cJSON_DeleteItemFromObjectCaseSensitive(metrics, "wall_time_s"); /* not a result: it is at the top */
    for (cJSON *it = extra ? extra->child : NULL; it != NULL; it = it->next)
      cJSON_AddItemToObject(metrics, it->string, cJSON_Duplicate(it, 1));
    cJSON_AddItemToObject(root, "metrics", metrics);
    cJSON_AddItemToObject(root, "storalloc", sa); /* policy, options, platform, per-disk and per-node */
    sa = NULL;
    char *text = cJSON_Print(root);
    rc = text != NULL ? ios_sink_document(k, "results", text) : IOS_ENOMEM; /* last: a complete run */
    free(text);
  }
  cJSON_Delete(root);
  cJSON_Delete(sa);
  cJSON_Delete(extra);
  return rc;
}

static void print_summary(const ios_scenario_t *s, const ios_storage_t *plat, const ios_storalloc_options_t *o,
                          const ios_storalloc_result_t *r, int n) {
  const ios_storalloc_metrics_t *m = &r->m;
  printf("iosim %s — storage allocation: %d requests on %d nodes / %d disks, policy %s%s%s, seed %llu\n", IOSIM_VERSION,
         n, plat->nnodes, plat->ndisks, o->policy->name, o->split ? ", split" : "", o->requeue ? ", requeue" : "",
         (unsigned long long)s->seed);
  printf("allocated %d | refused %d | failed %d | requeued %d | split %d | served share of sum_cap %.4f\n",
         m->allocated, m->refused, m->failed, m->requeued, m->split, m->served_share);
  printf("disk fill mean %.2f%% max %.2f%% | allocations per disk mean %.3g (sd %.3g) max %d\n", m->mean_fill_pct,
         m->max_fill_pct, m->disk_mean_allocs, m->disk_mean_allocs_sd, m->disk_max_allocs);
}

int ios_storage_scenario(const ios_scenario_t *s, int check) {
  ios_storage_t plat = {0, 0, NULL, NULL};
  ios_storalloc_options_t o;
  ios_request_t *req = NULL;
  int n = 0;
  int rc = read_inputs(s, 0, &o, &req, &n);
  if (rc == IOS_OK)
    rc = ios_storage_from_json(cJSON_GetObjectItemCaseSensitive(s->storage, "platform"), s->file, "storage.platform",
                               &plat);
  if (rc == IOS_OK && check) {
    printf("%s: ok — storage allocation of %d requests on %d nodes / %d disks, policy %s%s%s\n", s->file, n,
           plat.nnodes, plat.ndisks, o.policy->name, o.split ? ", split" : "", o.requeue ? ", requeue" : "");
  } else if (rc == IOS_OK) {
    double t0 = ios_clock_s();
    ios_storalloc_result_t r;
    rc = ios_storalloc_run(&plat, req, n, &o, &r);
    if (rc == IOS_OK) {
      ios_sink_t *k = ios_sink_files(s->out_dir, "output.dir"); /* the run's directory (ios_sink.h) */
      rc = k != NULL ? ios_storalloc_write_requests(k, req, n, &plat, &r, NULL) : IOS_ENOMEM;
      if (rc == IOS_OK) rc = write_results(k, s, &plat, &o, &r, ios_clock_s() - t0, NULL);
      int crc = ios_sink_close(k, rc == IOS_OK);
      if (rc == IOS_OK) rc = crc;
      if (rc == IOS_OK) {
        print_summary(s, &plat, &o, &r, n);
        printf("%.3f s wall; results in %s/\n", r.wall_time_s, s->out_dir);
      }
      ios_storalloc_result_free(&r);
    }
  }
  free(req);
  ios_storage_free(&plat);
  return rc;
}

/* ---------------------------------------------------------------- simulated I/O */

/* bytes/s: request i's bandwidth alone on its allocation when it writes (reads = 0) or reads (1): max-min of its
 * parts, each disk's write (read) bandwidth shared by its parts, each node's link by its disks, capped by its compute
 * nodes' NICs. */
static double dedicated_bw(const ios_storage_t *st, const ios_storalloc_result_t *r, int i, double nic, int reads) {
  const ios_request_outcome_t *q = &r->req[i];
  double total = 0;
  for (int k = 0; k < q->parts; k++) { /* once per node: the first part on that node sums the node's disks */
    int v = st->disks[r->part_disk[q->first_part + k]].node, seen = 0;
    for (int m = 0; m < k && !seen; m++)
      seen = st->disks[r->part_disk[q->first_part + m]].node == v;
    if (seen) continue;
    double node = 0;
    for (int d = st->nodes[v].first; d < st->nodes[v].first + st->nodes[v].ndisks; d++) {
      int used = 0;
      for (int m = 0; m < q->parts && !used; m++)
        used = r->part_disk[q->first_part + m] == d;
      node += used ? (reads ? st->disks[d].read_bw : st->disks[d].write_bw) : 0;
    }
    total += node < st->nodes[v].bw ? node : st->nodes[v].bw;
  }
  return total < nic ? total : nic;
}

/* The job of request i as an application: it reads its read bytes when its storage starts (stage-in, through each
 * disk's read route), computes for the rest of its duration (minus its I/O time alone on its allocation), then writes
 * its written bytes; on its parts' disks (a part's disk once per part: a disk holding two parts carries two shares),
 * or on the PFS. */
static int build_job(const ios_request_t *q, const ios_storalloc_result_t *r, int i, const ios_storage_t *st,
                     const int *res_of_disk, const ios_platform_t *p, ios_app_t *a) {
  const ios_request_outcome_t *o = &r->req[i];
  int ok = o->status == IOS_REQ_ALLOCATED;
  char name[48];
  snprintf(name, sizeof name, "request%d", i);
  a->name = strdup(name);
  a->nodes = q->nodes > 0 ? q->nodes : 1;
  a->release = o->start;
  double nic = a->nodes * p->nic_bw;
  double pfs = nic < p->pfs.capacity ? nic : p->pfs.capacity;
  double bw = ok ? dedicated_bw(st, r, i, nic, 0) : pfs, br = ok ? dedicated_bw(st, r, i, nic, 1) : pfs;
  double io = br == bw ? (q->read_bytes + q->written_bytes) / bw : q->read_bytes / br + q->written_bytes / bw;
  double work = q->duration - io;
  a->phases = calloc(3, sizeof *a->phases);
  a->ngiven = ok ? o->parts : 0;
  a->given = malloc(sizeof *a->given * (size_t)(a->ngiven > 0 ? a->ngiven : 1));
  if (a->name == NULL || a->phases == NULL || a->given == NULL) return IOS_ENOMEM;
  if (q->read_bytes > 0) a->phases[a->nphases++] = (ios_phase_t){q->read_bytes, IOS_PHASE_READ};
  if (work > 0) a->phases[a->nphases++] = (ios_phase_t){work, 0};
  if (q->written_bytes > 0) a->phases[a->nphases++] = (ios_phase_t){q->written_bytes, 1};
  for (int k = 0; k < a->ngiven; k++)
    a->given[k] = res_of_disk[r->part_disk[o->first_part + k]];
  a->has_profile = 1; /* the job's NICs; its disks, their nodes' links and the PFS are links of its routes */
  a->profile.npoints = 1;
  a->profile.n[0] = a->ngiven;
  a->profile.bw[0] = nic;
  return IOS_OK;
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The simulated-bandwidth metrics of results.json. */
static cJSON *sim_metrics(const ios_request_t *req, int n, const ios_storalloc_result_t *r, const ios_request_io_t *io,
                          double sim_wall) {
  double *ratio = malloc(sizeof *ratio * (size_t)(n > 0 ? n : 1));
  cJSON *m = cJSON_CreateObject();
  if (ratio == NULL || m == NULL) {
    free(ratio);
    cJSON_Delete(m);
    return NULL;
  }
  double sim = 0, est = 0, pfs = 0, bytes_bb = 0, bytes_pfs = 0;
  int nb = 0, np = 0, nr = 0, overruns = 0;
  for (int i = 0; i < n; i++) {
    if (!(io[i].time > 0)) continue;
    double bw = io[i].bytes / io[i].time;
    if (r->req[i].status == IOS_REQ_ALLOCATED) {
      sim += bw;
      est += r->req[i].est_bw;
      bytes_bb += io[i].bytes;
      nb++;
      if (r->req[i].est_bw > 0) ratio[nr++] = bw / r->req[i].est_bw;
      overruns += io[i].end > r->req[i].start + req[i].duration * (1 + 1e-9) + 1e-9;
    } else {
      pfs += bw;
      bytes_pfs += io[i].bytes;
      np++;
    }
  }
  qsort(ratio, (size_t)nr, sizeof *ratio, cmp_dbl);
  double median = nr == 0 ? NAN : nr % 2 ? ratio[nr / 2] : 0.5 * (ratio[nr / 2 - 1] + ratio[nr / 2]);
  free(ratio);
  cJSON_AddNumberToObject(m, "sim_bw_mean_Bps", nb ? sim / nb : NAN);
  cJSON_AddNumberToObject(m, "est_bw_mean_Bps", nb ? est / nb : NAN);
  cJSON_AddNumberToObject(m, "sim_to_est_median", median);
  cJSON_AddNumberToObject(m, "pfs_bw_mean_Bps", np ? pfs / np : NAN);
  cJSON_AddNumberToObject(m, "storage_io_bytes", bytes_bb);
  cJSON_AddNumberToObject(m, "pfs_io_bytes", bytes_pfs);
  cJSON_AddNumberToObject(m, "overruns", overruns);
  cJSON_AddNumberToObject(m, "simulation_wall_s", sim_wall);
  return m;
}

int ios_storage_simulate(const ios_scenario_t *s, const ios_platform_t *p, int check) {
  if (cJSON_GetObjectItemCaseSensitive(s->storage, "platform") != NULL) {
    ios_diag_set(s->file, "storage.platform",
                 "the I/O of the requests is simulated on the scenario's platform XML, whose disks are the storage: "
                 "drop storage.platform (or call ios_storage_scenario to schedule without simulating)");
    return IOS_EINVAL;
  }
  ios_storage_t plat = {0, 0, NULL, NULL};
  ios_storalloc_options_t o;
  ios_request_t *req = NULL;
  int n = 0;
  int *res_of_disk = malloc(sizeof *res_of_disk * (size_t)(p->nres > 0 ? p->nres : 1));
  int rc = res_of_disk ? read_inputs(s, 1, &o, &req, &n) : IOS_ENOMEM;
  if (rc == IOS_OK) rc = ios_platform_storage(s->platform, p, &plat, res_of_disk);
  if (rc == IOS_OK && !p->has_pfs) {
    ios_diag_set(s->platform, "pfs",
                 "refused and failed storage requests do their I/O on the PFS, and this platform has no role=pfs "
                 "host: add one (`iosim platform storage` does)");
    rc = IOS_EINVAL;
  }
  if (rc == IOS_OK && check) {
    printf("%s: ok — storage allocation of %d requests on %d nodes / %d disks of %s, policy %s%s%s; their I/O "
           "simulated\n",
           s->file, n, plat.nnodes, plat.ndisks, s->platform, o.policy->name, o.split ? ", split" : "",
           o.requeue ? ", requeue" : "");
  } else if (rc == IOS_OK) {
    double t0 = ios_clock_s();
    ios_storalloc_result_t r;
    ios_workload_t w = {0};
    ios_results_t er;
    memset(&er, 0, sizeof er);
    ios_request_io_t *io = calloc((size_t)(n > 0 ? n : 1), sizeof *io);
    rc = io != NULL ? ios_storalloc_run(&plat, req, n, &o, &r) : IOS_ENOMEM;
    if (rc != IOS_OK) {
      free(io);
      goto out;
    }
    for (int i = 0; rc == IOS_OK && i < n; i++) {
      ios_app_t *a = ios_workload_add(&w);
      rc = a != NULL ? build_job(&req[i], &r, i, &plat, res_of_disk, p, a) : IOS_ENOMEM;
    }
    ios_sim_config_t es; /* the engine replays the jobs: SimGrid's max-min over their routes decides */
    ios_sim_config_replay(s, &es);
    double t1 = ios_clock_s();
    if (rc == IOS_OK) rc = ios_engine_run(&es, p, &w, &er);
    double sim_wall = ios_clock_s() - t1;
    if (rc == IOS_OK && !er.complete) {
      ios_diag_set(s->file, "storage", "the simulation stopped before every job completed (a bug): report it");
      rc = IOS_EINTERNAL;
    }
    for (int i = 0; rc == IOS_OK && i < n; i++)
      io[i] = (ios_request_io_t){er.apps[i].io_volume, er.apps[i].start, er.apps[i].end, er.apps[i].io_time};
    if (rc == IOS_OK) {
      ios_sink_t *k = ios_sink_files(s->out_dir, "output.dir"); /* the run's directory (ios_sink.h) */
      rc = k != NULL ? ios_storalloc_write_requests(k, req, n, &plat, &r, io) : IOS_ENOMEM;
      cJSON *extra = rc == IOS_OK ? sim_metrics(req, n, &r, io, sim_wall) : NULL;
      double sim = extra ? cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(extra, "sim_bw_mean_Bps")) : 0;
      double est = extra ? cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(extra, "est_bw_mean_Bps")) : 0;
      if (rc == IOS_OK) rc = extra != NULL ? write_results(k, s, &plat, &o, &r, ios_clock_s() - t0, extra) : IOS_ENOMEM;
      int crc = ios_sink_close(k, rc == IOS_OK);
      if (rc == IOS_OK) rc = crc;
      if (rc == IOS_OK) {
        print_summary(s, &plat, &o, &r, n);
        printf("simulated I/O (SimGrid max-min over %s): %d jobs on the storage, mean bandwidth %.4g GB/s "
               "simulated vs %.4g GB/s estimated (StorAlloc's permanent regime); %d on the PFS\n",
               s->platform, r.m.allocated, sim / 1e9, est / 1e9, n - r.m.allocated);
        printf("%.3f s wall (%.3f s simulating); results in %s/\n", ios_clock_s() - t0, sim_wall, s->out_dir);
      }
    }
    ios_results_free(&er);
    ios_workload_free(&w);
    ios_storalloc_result_free(&r);
    free(io);
  }
out:
  free(res_of_disk);
  free(req);
  ios_storage_free(&plat);
  return rc;
}
