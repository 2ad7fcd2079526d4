/* iosim — the engine's façade (see ios_engine.h): a run is set up (setup.c), its first wake-ups set (calendar.c),
 * SimGrid runs, and its results are collected (results.c); the state is freed on every path.
 *
 * Below the façade, each part owns its state and calls only the parts under it:
 *   calendar.c   the dates: the calendar of wake-ups, the clock, and what goes from date to date (the direct path's
 *                controller actor, or SimGrid's maestro on the flow path, with no actor)
 *   apps.c       each application's steps (work phases, I/O operations), run by the calendar
 *   controller.c the events of one date and every decision of the sharing policy (the only caller of policies during
 *                the run, with queue.c's re-arbitration and striping.c's placements)
 *   queue.c      the job queue (IPDPS'21 §5.3): FIFO submission, start on free compute nodes, re-arbitration of
 *                allocation and placement over the running jobs; a job's new resources apply from its next operation
 *   striping.c   TAPP-IO striping of a striped job's operations
 *   traces.c     events.csv / timeline.bin, allocations.csv, SimGrid's trace
 *   transfer*.c  the transfer layer (ios_transfer.h, docs/engine.md): SimGrid flows re-rated in place, or the direct
 *                path where no link can bind the sharing policy's rates
 * The applications' and resources' records (engine_state.h) are the run's shared model. */
#include "engine_state.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);

/* Frees what the engine state owns (after a run, or a set-up that failed part-way); CSVs still open belong to a
 * failed set-up and are removed with their temporary files. */
static void release_engine(engine_t *e, int napps, int nres) {
  for (int j = 0; e->apps != NULL && j < napps; j++) {
    free(e->apps[j].res);
    free(e->apps[j].st.ost_used);
    for (int i = 0; e->apps[j].t != NULL && i < e->apps[j].tcap; i++)
      ios_tr_forget(&e->apps[j].t[i]);
    free(e->apps[j].t);
    free(e->apps[j].q.next_res);
    free(e->apps[j].q.hosts);
    free(e->apps[j].nodes);
  }
  for (int i = 0; e->res != NULL && i <= nres; i++)
    free(e->res[i].active);
  sim_queue_free();
  sim_calendar_free();
  free(e->profiles);
  free(e->app_views);
  free(e->seen);
  free(e->alloc_n);
  sim_striping_free();
  free(e->apps);
  free(e->res);
  sim_controller_free();
  sim_bound_reset();
  ios_tr_fini();
  sim_traces_discard();
}

/* The engine's state of the run (SimGrid allows one simulation per process), passed from here to every part below. */
static engine_t engine;

/* The run's state once set up, until ios_engine_finish. */
static int started;

int ios_engine_start(const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w, ios_results_t *r) {
  engine_t *e = &engine;
  memset(e, 0, sizeof *e);
  memset(r, 0, sizeof *r);
  e->wall0 = ios_clock_s();
  e->s = s;
  sim_fault_init(s);
  e->p = p;
  e->r = r;
  e->w = w;
  e->napps = r->napps = w->napps;
  e->nres = r->nres = p->nres;
  size_t napps = (size_t)w->napps;
  e->apps = calloc(napps, sizeof *e->apps);
  e->res = calloc((size_t)p->nres + 1, sizeof *e->res);
  r->apps = calloc(napps, sizeof *r->apps);
  r->res = calloc((size_t)p->nres, sizeof *r->res);
  e->profiles = calloc(napps, sizeof *e->profiles);
  e->app_views = calloc(napps, sizeof *e->app_views);
  e->seen = calloc(napps, sizeof *e->seen);
  e->alloc_n = calloc(napps, sizeof *e->alloc_n);
  int rc = e->apps && e->res && r->apps && r->res && e->profiles && e->app_views && e->seen && e->alloc_n ? IOS_OK
                                                                                                          : IOS_ENOMEM;
  if (rc == IOS_OK) rc = sim_setup(e, s, p, w);
  e->apps_left = w->napps;
  if (rc == IOS_OK) rc = sim_calendar_start(e, s, p, w->napps);
  if (rc != IOS_OK) { /* nothing was simulated: no results */
    release_engine(e, w->napps, p->nres);
    ios_sg_trace_discard();
    return rc;
  }
  started = 1;
  return IOS_OK;
}

int ios_engine_finish(void) {
  engine_t *e = &engine;
  if (!started) return IOS_EINVAL;
  started = 0;
  sim_progress_end(e);
  int rc = sim_failure(); /* IOS_OK, or a policy failed during the run (sim_fail set the message) */
  if (rc == IOS_OK) rc = sim_collect(e, e->s, e->p, e->w);
  release_engine(e, e->w->napps, e->p->nres); /* on failure the run stopped: no results */
  if (rc != IOS_OK) ios_sg_trace_discard();
  return rc;
}

int ios_engine_run(const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w, ios_results_t *r) {
  int rc = ios_engine_start(s, p, w, r);
  if (rc != IOS_OK) return rc;
  simgrid_run();
  return ios_engine_finish();
}

/* ---------------------------------------------------------------- external applications (the SimGrid plugin) */

/* Application `app` of an external run, checked for `what`: 0 begin, 1 post, 2 end. */
static app_state_t *external_app(engine_t *e, int app, int what) {
  static const char *const verbs[] = {"begin", "post an I/O operation", "end"};
  if (!started || !e->s->external) {
    ios_diag_set(NULL, "iosim", "no simulation with external applications is running: initialise the plugin first");
    return NULL;
  }
  if (app < 0 || app >= e->napps) {
    ios_diag_set(NULL, "application", "index %d is not one of the %d applications declared", app, e->napps);
    return NULL;
  }
  app_state_t *as = &e->apps[app];
  const char *why = what == 0 && as->ext.begun   ? "it has already begun"
                    : what > 0 && !as->ext.begun ? "it has not begun: begin it first"
                    : as->ext.end                ? "it has ended"
                    : what > 0 && (as->ext.waiting || as->state == ST_IO)
                        ? "an I/O operation of it is in progress: wait for its completion"
                        : NULL;
  if (why != NULL) {
    ios_diag_set(NULL, as->a->name, "cannot %s: %s", verbs[what], why);
    return NULL;
  }
  return as;
}

/* The engine's step at SimGrid's current date runs `kind` for application j. */
static void external_wake(engine_t *e, int kind, int j) {
  (void)e;
  sim_cal_push(simgrid_get_clock(), kind, j);
  ios_sg_drive_arm();
}

int ios_engine_app_begin(int app, const int *hosts) {
  engine_t *e = &engine;
  app_state_t *as = external_app(e, app, 0);
  if (as == NULL) return IOS_EINVAL;
  for (int i = 0; i < as->a->nodes; i++) {
    int bad = hosts[i] < 0 || hosts[i] >= e->p->ncompute;
    for (int k = 0; !bad && k < i; k++)
      bad = hosts[k] == hosts[i];
    if (bad) {
      ios_diag_set(NULL, as->a->name, "compute host index %d (host %d of %d) is %s", hosts[i], i + 1, as->a->nodes,
                   hosts[i] < 0 || hosts[i] >= e->p->ncompute ? "not one of the platform's compute hosts" : "repeated");
      return IOS_EINVAL;
    }
  }
  memcpy(as->q.hosts, hosts, sizeof *hosts * (size_t)as->a->nodes);
  as->ext.begun = 1;
  external_wake(e, CAL_BEGIN, app);
  return IOS_OK;
}

int ios_engine_app_post(int app) {
  engine_t *e = &engine;
  app_state_t *as = external_app(e, app, 1);
  if (as == NULL) return IOS_EINVAL;
  as->ext.waiting = 1;
  external_wake(e, CAL_APP, app);
  return IOS_OK;
}

int ios_engine_app_end(int app) {
  engine_t *e = &engine;
  app_state_t *as = external_app(e, app, 2);
  if (as == NULL) return IOS_EINVAL;
  as->ext.end = 1;
  external_wake(e, CAL_APP, app);
  return IOS_OK;
}
