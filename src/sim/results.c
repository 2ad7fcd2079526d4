/* iosim — the results of a run (see sim_results.h): each application's, the window's progress, the resources',
 * the counters and the metrics (ios_metrics_compute); the traces closed. The engine façade (engine.c) calls
 * sim_collect once the simulation has ended. */
#include "sim_results.h"

#include "ios_clock.h"
#include "ios_sg_platform.h"
#include "sim_bound.h"
#include "sim_traces.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each application's result; sets *first and *last (the earliest start and the latest end). */
static void collect_apps(engine_t *e, const ios_sim_config_t *s, double *first, double *last) {
  ios_results_t *r = e->r;
  *first = INFINITY;
  *last = 0;
  for (int j = 0; j < e->napps; j++) {
    app_state_t *as = &e->apps[j];
    ios_app_result_t *ar = &r->apps[j];
    ar->start = as->start;
    ar->end = as->end;
    ar->release = s->queue ? as->start : as->a->release; /* τ_i: a queued job's clock starts with it */
    if (s->queue) {                                      /* the last allocation */
      ar->n_resources = as->n;
      memcpy(ar->resources, as->res, sizeof *as->res * (size_t)as->n);
      ar->bandwidth = as->b;
    }
    /* b_i: its bytes over the time its operations take alone on the platform (docs/outputs.md, "The reference
     * bandwidth b_i"; sim_alone_op), each operation with its own allocation and layout */
    if (as->bytes_done > 0 && as->ded_io > 0) ar->bandwidth = as->bytes_done / as->ded_io;
    ar->work_time = as->work_done;
    ar->io_volume = as->bytes_done;
    ar->io_time = as->io_time;
    if (!r->complete) { /* stopped at the window's end: count the operations and work in progress */
      ar->work_time = ar->w_end;
      ar->io_volume = ar->v_end;
      if (as->state == ST_IO) ar->io_time += e->t_end - (as->posted > 0 ? as->posted : 0.0);
    }
    sim_bound_result(as, ar);
    *first = as->start < *first ? as->start : *first;
    *last = (!isnan(as->end) && as->end > *last) ? as->end : *last;
  }
}

/* The window's progress: a whole run ends at the last completion; snapshots never taken are the end state. */
static void collect_window(engine_t *e, double last) {
  ios_results_t *r = e->r;
  r->t_begin = e->t_begin;
  if (isnan(e->t_end)) { /* whole run: progress at the end is everything done */
    e->t_end = last;
    for (int j = 0; j < e->napps; j++) {
      r->apps[j].w_end = r->apps[j].work_time;
      r->apps[j].v_end = r->apps[j].io_volume;
    }
  }
  r->t_end = e->t_end;
  r->period_s = e->period;
  for (int j = 0; j < e->napps; j++) {
    if (!e->snap_end_done) { /* the window ends after the last completion */
      r->apps[j].w_end = r->apps[j].work_time;
      r->apps[j].v_end = r->apps[j].io_volume;
    }
    if (!e->snap_begin_done) { /* ... or even begins after it */
      r->apps[j].w_begin = r->apps[j].work_time;
      r->apps[j].v_begin = r->apps[j].io_volume;
    }
  }
}

/* Results: applications, window, resources, counters and metrics; the traces closed. */
int sim_collect(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w) {
  ios_results_t *r = e->r;
  double first, last;
  r->complete = e->apps_left == 0;
  collect_apps(e, s, &first, &last);
  r->makespan_s = r->complete ? last - first : e->t_end - first;
  collect_window(e, last);
  double horizon = r->complete ? last : e->t_end, pool = 0;
  for (int j = 0; j < w->napps; j++) /* allocations of jobs stopped at the window's end */
    if (e->apps[j].q.has_alloc && e->apps[j].state != ST_DONE)
      sim_al_row(e, &e->apps[j], e->apps[j].q.alloc_since, horizon);
  for (int i = 0; i < p->nres; i++) {
    if (e->res[i].nactive > 0) e->res[i].busy_time += horizon - e->res[i].busy_since;
    r->res[i].busy_time = e->res[i].busy_time;
    r->res[i].bytes = e->res[i].bytes;
    pool += p->res[i].capacity;
  }
  r->io_busy_s = e->io_busy_s + (e->ops_pending > 0 ? horizon - e->io_busy_since : 0.0);
  r->events = e->events;
  r->rate_changes = e->rate_changes;
  r->flows = ios_tr_flows_started(e->tr);
  r->platform_limited_share = e->seg_bytes > 0 ? e->limited_bytes / e->seg_bytes : NAN;
  ios_metrics_compute(w, e->profiles, p->nres, pool, p->ncompute, p->nic_bw, r);
  for (int j = 0; j < e->napps; j++) /* a striped job's resources: every OST its files had a stripe on (TAPP-IO) */
    if (e->apps[j].st.ost_used != NULL) {
      ios_app_result_t *ar = &r->apps[j];
      ar->n_resources = 0;
      for (int k = 0; k < e->nres; k++)
        if (e->apps[j].st.ost_used[k]) ar->resources[ar->n_resources++] = k;
    }
  r->wall_time_s = ios_clock_s() - e->wall0;
  int rc = sim_close_traces(e);
  return rc == IOS_OK ? ios_sg_trace_commit() : rc; /* SimGrid's tracer closed its file when the simulation ended */
}
