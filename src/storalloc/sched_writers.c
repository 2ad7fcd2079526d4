/* iosim — the StorAlloc scheduler's outputs (see ios_storalloc.h): requests.csv (one row per request, with the
 * simulated I/O columns when given) and the metrics JSON (policy, options, platform, StorAlloc's Table 3 metrics,
 * per disk and per node). */
#include "ios_storalloc.h"
#include "ios_diag.h"
#include "ios_units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ios_storalloc_write_requests_csv(const char *path, const ios_request_t *req, int n, const ios_storage_t *s,
                                     const ios_storalloc_result_t *r, const ios_request_io_t *io) {
  if (path == NULL || s == NULL || r == NULL || n != r->nrequests || (n > 0 && req == NULL)) return IOS_EINVAL;
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    ios_diag_set(path, NULL, "cannot write the requests (%s): check the output directory", strerror(errno));
    return IOS_EIO;
  }
  fprintf(f,
          "id,submit_s,capacity_bytes,duration_s,bandwidth_Bps,status,requeued,start_s,delay_s,end_s,parts,"
          "part_bytes,disks,nodes,est_bw_Bps,parts_allocated,allocated_bytes%s\n",
          io != NULL ? ",io_bytes,io_start_s,io_end_s,io_time_s,sim_bw_Bps" : "");
  char a[40], b[40], c[40], d[40], e[40], g[40], h[40];
  for (int i = 0; i < n; i++) {
    const ios_request_outcome_t *q = &r->req[i];
    int ok = q->parts_allocated > 0;
    double last = q->start; /* the latest start of its allocated parts */
    for (long k = q->first_part; k < q->first_part + q->parts; k++)
      if (r->part_status[k] == IOS_REQ_ALLOCATED && r->part_start[k] > last) last = r->part_start[k];
    ios_fmt_double(a, sizeof a, req[i].submit);
    ios_fmt_double(b, sizeof b, req[i].capacity);
    ios_fmt_double(c, sizeof c, req[i].duration);
    ios_fmt_double(d, sizeof d, req[i].bandwidth);
    ios_fmt_double(e, sizeof e, q->start);
    ios_fmt_double(g, sizeof g, q->delay);
    ios_fmt_double(h, sizeof h, q->part_size);
    fprintf(f, "%ld,%s,%s,%s,%s,%s,%d,%s,%s,", req[i].id, a, b, c, d, ios_storalloc_status_name(q->status), q->requeued,
            e, g);
    if (ok) {
      ios_fmt_double(a, sizeof a, last + req[i].duration);
      fputs(a, f);
    }
    fprintf(f, ",%d,%s,", q->parts, h);
    int first = 1;
    for (long k = q->first_part; k < q->first_part + q->parts; k++)
      if (r->part_status[k] == IOS_REQ_ALLOCATED) {
        fprintf(f, "%s%d", first ? "" : ";", r->part_disk[k]);
        first = 0;
      }
    fputc(',', f);
    first = 1;
    for (long k = q->first_part; k < q->first_part + q->parts; k++)
      if (r->part_status[k] == IOS_REQ_ALLOCATED) {
        fprintf(f, "%s%d", first ? "" : ";", s->disks[r->part_disk[k]].node);
        first = 0;
      }
    fputc(',', f);
    if (ok) {
      ios_fmt_double(a, sizeof a, q->est_bw);
      fputs(a, f);
    }
    ios_fmt_double(a, sizeof a, q->allocated_bytes);
    fprintf(f, ",%d,%s", q->parts_allocated, a);
    if (io != NULL) {
      const ios_request_io_t *x = &io[i];
      ios_fmt_double(a, sizeof a, x->bytes);
      ios_fmt_double(b, sizeof b, x->start);
      ios_fmt_double(c, sizeof c, x->end);
      ios_fmt_double(d, sizeof d, x->time);
      ios_fmt_double(e, sizeof e, x->time > 0 ? x->bytes / x->time : 0);
      fprintf(f, ",%s,%s,%s,%s,%s", a, b, c, d, x->time > 0 ? e : "");
    }
    fputc('\n', f);
  }
  if (ferror(f) | fclose(f)) {
    ios_diag_set(path, NULL, "write error: check the disk space");
    return IOS_EIO;
  }
  return IOS_OK;
}

/* Adds the "policy" (name, source, parameters) and "options" objects of the metrics to `root`. */
static void add_policy_options(cJSON *root, const ios_storalloc_options_t *o) {
  cJSON *pol = cJSON_AddObjectToObject(root, "policy");
  cJSON_AddStringToObject(pol, "name", o->policy->name);
  cJSON_AddStringToObject(pol, "source", o->policy->source);
  cJSON *par = cJSON_AddObjectToObject(pol, "params");
  for (int k = 0; k < o->policy->nparams; k++)
    cJSON_AddNumberToObject(par, o->policy->params[k].name, o->params.v[k]);
  cJSON *opt = cJSON_AddObjectToObject(root, "options");
  cJSON_AddBoolToObject(opt, "split", o->split);
  cJSON_AddNumberToObject(opt, "split_threshold_bytes", o->split_threshold);
  cJSON_AddBoolToObject(opt, "requeue", o->requeue);
  cJSON_AddNumberToObject(opt, "retries", o->retries);
  cJSON_AddNumberToObject(opt, "interval_s", o->interval);
  cJSON_AddNumberToObject(opt, "seed", (double)o->seed);
  cJSON_AddStringToObject(opt, "split_parts", o->split_all ? "all" : "independent");
  cJSON_AddStringToObject(opt, "decide", o->decide_start ? "start" : "submission");
  cJSON_AddStringToObject(opt, "requeue_window", o->requeue_window ? "duration" : "end");
}

/* Adds the "metrics" object (StorAlloc Table 3, and the run's wall time) to `root`. */
static void add_metric_items(cJSON *root, const ios_storalloc_result_t *r) {
  const ios_storalloc_metrics_t *m = &r->m;
  cJSON *mm = cJSON_AddObjectToObject(root, "metrics");
  const struct {
    const char *key;
    double v;
  } items[] = {
      {"requests", m->requests},
      {"allocated", m->allocated},
      {"refused", m->refused},
      {"failed", m->failed},
      {"partial", m->partial},
      {"parts_refused", (double)m->parts_refused},
      {"parts_failed", (double)m->parts_failed},
      {"requeued", m->requeued},
      {"requeued_allocated", m->requeued_allocated},
      {"total_delay_s", m->total_delay},
      {"split", m->split},
      {"split_allocated", m->split_allocated},
      {"parts_allocated", (double)m->parts_allocated},
      {"sum_cap_bytes", m->sum_cap},
      {"allocated_volume_bytes", m->allocated_volume},
      {"deallocated_volume_bytes", m->deallocated_volume},
      {"served_share", m->served_share},
      {"mean_disk_fill_pct", m->mean_fill_pct},
      {"max_disk_fill_pct", m->max_fill_pct},
      {"disk_mean_allocations", m->disk_mean_allocs},
      {"disk_mean_allocations_sd", m->disk_mean_allocs_sd},
      {"disk_max_allocations", m->disk_max_allocs},
      {"node_mean_allocations", m->node_mean_allocs},
      {"node_max_allocations", m->node_max_allocs},
      {"mean_concurrent_requests", m->mean_requests},
      {"max_concurrent_requests", m->max_requests},
      {"mean_concurrent_allocations", m->mean_parts},
      {"max_concurrent_allocations", m->max_parts},
      {"t_begin_s", m->t_begin},
      {"t_end_s", m->t_end},
      {"wall_time_s", r->wall_time_s},
  };
  for (size_t k = 0; k < sizeof items / sizeof *items; k++)
    cJSON_AddNumberToObject(mm, items[k].key, items[k].v);
}

/* Adds the "disks" array (each disk's characteristics and metrics) to `root`. */
static void add_disks(cJSON *root, const ios_storage_t *s, const ios_storalloc_result_t *r) {
  cJSON *disks = cJSON_AddArrayToObject(root, "disks");
  for (int d = 0; d < r->ndisks && d < s->ndisks; d++) {
    const ios_storalloc_disk_metrics_t *dm = &r->disk[d];
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "disk", d);
    cJSON_AddNumberToObject(j, "node", s->disks[d].node);
    cJSON_AddNumberToObject(j, "capacity_bytes", s->disks[d].capacity);
    cJSON_AddNumberToObject(j, "write_bw_Bps", s->disks[d].write_bw);
    cJSON_AddNumberToObject(j, "read_bw_Bps", s->disks[d].read_bw);
    cJSON_AddNumberToObject(j, "mean_fill_pct", dm->mean_fill_pct);
    cJSON_AddNumberToObject(j, "max_fill_pct", dm->max_fill_pct);
    cJSON_AddNumberToObject(j, "mean_allocations", dm->mean_allocs);
    cJSON_AddNumberToObject(j, "max_allocations", dm->max_allocs);
    cJSON_AddNumberToObject(j, "allocations", (double)dm->allocations);
    cJSON_AddNumberToObject(j, "volume_bytes", dm->volume);
    cJSON_AddItemToArray(disks, j);
  }
}

/* Adds the "nodes" array (each node's disks, bandwidth, null when unlimited, and allocations) to `root`. */
static void add_nodes(cJSON *root, const ios_storage_t *s, const ios_storalloc_result_t *r) {
  cJSON *nodes = cJSON_AddArrayToObject(root, "nodes");
  for (int v = 0; v < r->nnodes && v < s->nnodes; v++) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "node", v);
    cJSON_AddStringToObject(j, "name", s->nodes[v].name);
    cJSON_AddNumberToObject(j, "disks", s->nodes[v].ndisks);
    if (isfinite(s->nodes[v].bw))
      cJSON_AddNumberToObject(j, "bw_Bps", s->nodes[v].bw);
    else
      cJSON_AddNullToObject(j, "bw_Bps");
    cJSON_AddNumberToObject(j, "mean_allocations", r->node[v].mean_allocs);
    cJSON_AddNumberToObject(j, "max_allocations", r->node[v].max_allocs);
    cJSON_AddNumberToObject(j, "allocations", (double)r->node[v].allocations);
    cJSON_AddItemToArray(nodes, j);
  }
}

cJSON *ios_storalloc_metrics_json(const ios_storage_t *s, const ios_storalloc_options_t *o,
                                  const ios_storalloc_result_t *r) {
  if (s == NULL || o == NULL || r == NULL || o->policy == NULL) return NULL;
  cJSON *root = cJSON_CreateObject();
  add_policy_options(root, o);
  double total = 0;
  for (int d = 0; d < s->ndisks; d++)
    total += s->disks[d].capacity;
  cJSON *pl = cJSON_AddObjectToObject(root, "platform");
  cJSON_AddNumberToObject(pl, "nodes", s->nnodes);
  cJSON_AddNumberToObject(pl, "disks", s->ndisks);
  cJSON_AddNumberToObject(pl, "capacity_bytes", total);
  add_metric_items(root, r);
  add_disks(root, s, r);
  add_nodes(root, s, r);
  return root;
}

int ios_storalloc_write_metrics_json(const char *path, const ios_storage_t *s, const ios_storalloc_options_t *o,
                                     const ios_storalloc_result_t *r) {
  if (path == NULL) return IOS_EINVAL;
  cJSON *root = ios_storalloc_metrics_json(s, o, r);
  char *text = root != NULL ? cJSON_Print(root) : NULL;
  cJSON_Delete(root);
  if (text == NULL) return IOS_ENOMEM;
  FILE *f = fopen(path, "w");
  int rc = IOS_OK;
  if (f == NULL || fputs(text, f) < 0 || fputc('\n', f) == EOF) rc = IOS_EIO;
  if (f != NULL && fclose(f) != 0) rc = IOS_EIO;
  free(text);
  if (rc != IOS_OK)
    ios_diag_set(path, NULL, "cannot write the metrics (%s): check the output directory", strerror(errno));
  return rc;
}
