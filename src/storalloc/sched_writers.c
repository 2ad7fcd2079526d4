/* iosim — the StorAlloc scheduler's outputs (see ios_storalloc.h), written through the results sink (ios_sink.h): the
 * requests table (requests.csv in a run's directory: one row per request, with the simulated I/O columns when given)
 * and the metrics document (policy, options, platform, StorAlloc's Table 3 metrics, per disk and per node). */
#include "ios_storalloc.h"
#include "ios_sink.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The columns of the requests table; the last five only with simulated I/O. Reals in their shortest exact form. */
static const ios_sink_col_t request_cols[] = {{"id", IOS_SINK_INT, 0},
                                              {"submit_s", IOS_SINK_REAL, 1},
                                              {"capacity_bytes", IOS_SINK_REAL, 1},
                                              {"duration_s", IOS_SINK_REAL, 1},
                                              {"bandwidth_Bps", IOS_SINK_REAL, 1},
                                              {"status", IOS_SINK_TEXT, 0},
                                              {"requeued", IOS_SINK_INT, 0},
                                              {"start_s", IOS_SINK_REAL, 1},
                                              {"delay_s", IOS_SINK_REAL, 1},
                                              {"end_s", IOS_SINK_REAL, 1},
                                              {"parts", IOS_SINK_INT, 0},
                                              {"part_bytes", IOS_SINK_REAL, 1},
                                              {"disks", IOS_SINK_TEXT, 0},
                                              {"nodes", IOS_SINK_TEXT, 0},
                                              {"est_bw_Bps", IOS_SINK_REAL, 1},
                                              {"parts_allocated", IOS_SINK_INT, 0},
                                              {"allocated_bytes", IOS_SINK_REAL, 1},
                                              {"io_bytes", IOS_SINK_REAL, 1},
                                              {"io_start_s", IOS_SINK_REAL, 1},
                                              {"io_end_s", IOS_SINK_REAL, 1},
                                              {"io_time_s", IOS_SINK_REAL, 1},
                                              {"sim_bw_Bps", IOS_SINK_REAL, 1}};
enum { NREQ_COLS = 17, NREQ_IO_COLS = 22 };

/* The indices of request q's allocated parts' disks (node = 0) or nodes (1), ';'-separated, into buf [cap]. */
static const char *part_list(char *buf, size_t cap, const ios_request_outcome_t *q, const ios_storage_t *s,
                             const ios_storalloc_result_t *r, int node) {
  size_t len = 0;
  buf[0] = '\0';
  for (long k = q->first_part; k < q->first_part + q->parts; k++)
    if (r->part_status[k] == IOS_REQ_ALLOCATED) {
      int v = node ? s->disks[r->part_disk[k]].node : r->part_disk[k];
      int w = snprintf(buf + len, cap - len, "%s%d", len > 0 ? ";" : "", v);
      if (w > 0) len += (size_t)w < cap - len ? (size_t)w : cap - len - 1;
    }
  return buf;
}

int ios_storalloc_write_requests(ios_sink_t *k, const ios_request_t *req, int n, const ios_storage_t *s,
                                 const ios_storalloc_result_t *r, const ios_request_io_t *io) {
  if (k == NULL || s == NULL || r == NULL || n != r->nrequests || (n > 0 && req == NULL)) return IOS_EINVAL;
  long most = 1; /* the most parts of one request: the lists' buffer holds each index in 12 characters */
  for (int i = 0; i < n; i++)
    if (r->req[i].parts > most) most = r->req[i].parts;
  size_t cap = (size_t)most * 12 + 1;
  char *disks = malloc(cap), *nodes = malloc(cap);
  ios_sink_table_t *t = disks != NULL && nodes != NULL
                            ? ios_sink_begin_table(k, "requests", request_cols, io != NULL ? NREQ_IO_COLS : NREQ_COLS)
                            : NULL;
  int rc = t != NULL ? IOS_OK : (disks == NULL || nodes == NULL ? IOS_ENOMEM : IOS_EIO);
  for (int i = 0; rc == IOS_OK && i < n; i++) {
    const ios_request_outcome_t *q = &r->req[i];
    int ok = q->parts_allocated > 0;
    double last = q->start; /* the latest start of its allocated parts */
    for (long p = q->first_part; p < q->first_part + q->parts; p++)
      if (r->part_status[p] == IOS_REQ_ALLOCATED && r->part_start[p] > last) last = r->part_start[p];
    const ios_request_io_t *x = io != NULL ? &io[i] : NULL;
    ios_sink_val_t v[NREQ_IO_COLS] = {ios_sink_int(req[i].id),
                                      ios_sink_real(req[i].submit),
                                      ios_sink_real(req[i].capacity),
                                      ios_sink_real(req[i].duration),
                                      ios_sink_real(req[i].bandwidth),
                                      ios_sink_text(ios_storalloc_status_name(q->status)),
                                      ios_sink_int(q->requeued),
                                      ios_sink_real(q->start),
                                      ios_sink_real(q->delay),
                                      ok ? ios_sink_real(last + req[i].duration) : ios_sink_null(),
                                      ios_sink_int(q->parts),
                                      ios_sink_real(q->part_size),
                                      ios_sink_text(part_list(disks, cap, q, s, r, 0)),
                                      ios_sink_text(part_list(nodes, cap, q, s, r, 1)),
                                      ok ? ios_sink_real(q->est_bw) : ios_sink_null(),
                                      ios_sink_int(q->parts_allocated),
                                      ios_sink_real(q->allocated_bytes),
                                      x != NULL ? ios_sink_real(x->bytes) : ios_sink_null(),
                                      x != NULL ? ios_sink_real(x->start) : ios_sink_null(),
                                      x != NULL ? ios_sink_real(x->end) : ios_sink_null(),
                                      x != NULL ? ios_sink_real(x->time) : ios_sink_null(),
                                      x != NULL && x->time > 0 ? ios_sink_real(x->bytes / x->time) : ios_sink_null()};
    rc = ios_sink_row(k, t, v);
  }
  int erc = ios_sink_end_table(k, t, rc == IOS_OK);
  free(disks);
  free(nodes);
  return rc != IOS_OK ? rc : erc;
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

int ios_storalloc_write_metrics(ios_sink_t *k, const char *name, const ios_storage_t *s,
                                const ios_storalloc_options_t *o, const ios_storalloc_result_t *r) {
  if (k == NULL || name == NULL) return IOS_EINVAL;
  cJSON *root = ios_storalloc_metrics_json(s, o, r);
  char *text = root != NULL ? cJSON_Print(root) : NULL;
  cJSON_Delete(root);
  if (text == NULL) return IOS_ENOMEM;
  int rc = ios_sink_document(k, name, text);
  free(text);
  return rc;
}
