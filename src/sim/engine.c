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
 * The applications' and resources' records (sim_core.h, setup.c) are the run's shared model. Every module's state is
 * an object the engine owns (engine_t, sim_core.h), made and freed by the module's own init and teardown, which the
 * table below runs in one place. */
#include "ios_engine.h"

#include "ios_clock.h"
#include "ios_diag.h"
#include "ios_sg.h"
#include "ios_sg_platform.h"
#include "sim_alone.h"
#include "sim_bound.h"
#include "sim_calendar.h"
#include "sim_controller.h"
#include "sim_queue.h"
#include "sim_results.h"
#include "sim_setup.h"
#include "sim_state.h"
#include "sim_striping.h"
#include "sim_traces.h"

#include <simgrid/engine.h>
#include <stdlib.h>
#include <string.h>

/* The one engine of the process (SimGrid allows one simulation per process): the run's state, passed from here to
 * every part below, whether a run is set up (until ios_engine_finish), and what outlives the runs: SimGrid's signals
 * carry no user data and are connected once per process, so they reach the run's glue through `sg` (ios_sg.h). */
static struct {
  engine_t run;
  int started;
  ios_sg_anchor_t sg;
} engine;

/* The SimGrid glue's state of the run, reached by SimGrid's signals through the process's anchor; with external
 * applications, the caller's deadlock watch (ios_sim_config_t.external_stalled). */
static int glue_init(engine_t *e) {
  e->sg = ios_sg_new(&engine.sg);
  if (e->sg == NULL) return IOS_ENOMEM;
  if (e->s->external_stalled != NULL)
    ios_sg_stall_watch(e->sg, e->s->external_waiting, e->s->external_released, e->s->external_stalled);
  return IOS_OK;
}

static void glue_fini(engine_t *e) {
  ios_sg_free(e->sg);
  e->sg = NULL;
}

/* The transfer layer's teardown (its start is the set-up's, once the path is chosen: setup.c). */
static void transfer_fini(engine_t *e) {
  ios_tr_fini(e->tr);
  e->tr = NULL;
}

/* The engine's modules, each with its own init (its state made, empty: nothing of the run decided yet; NULL when the
 * module is started elsewhere) and teardown (its state freed; safe after a set-up that failed part-way, or when its
 * init failed or never ran). ios_engine_start runs the inits in this order, the engine's teardown every teardown in
 * the reverse order: a module's teardown may use the modules above it (the transfer layer gives the SimGrid glue its
 * links back, the records free the transfers' legs). Traces still being written at teardown belong to a run that
 * failed and are removed with their temporary files. */
static const struct {
  const char *name;
  int (*init)(engine_t *e); /* IOS_OK or IOS_ENOMEM */
  void (*fini)(engine_t *e);
} modules[] = {
    {"state", sim_state_init, sim_state_fini},                /* the failure record, first and last */
    {"records", sim_records_init, sim_records_fini},          /* the applications' and resources' records */
    {"glue", glue_init, glue_fini},                           /* SimGrid's flows, the maestro's driver (ios_sg.h) */
    {"traces", sim_traces_init, sim_traces_fini},             /* events.csv / timeline.bin, allocations.csv */
    {"bound", sim_bound_init, sim_bound_fini},                /* what bound each job */
    {"alone", sim_alone_init, sim_alone_fini},                /* each job's operations alone: the reference b_i */
    {"controller", sim_controller_init, sim_controller_fini}, /* events and decisions */
    {"queue", sim_queue_init, sim_queue_fini},                /* the job queue */
    {"striping", sim_striping_init, sim_striping_fini},       /* TAPP-IO striping */
    {"calendar", sim_calendar_init, sim_calendar_fini},       /* the dates */
    {"transfer", NULL, transfer_fini},                        /* the transfer layer (setup.c starts it) */
};
#define NMODULES (sizeof modules / sizeof modules[0])

/* Every module's state made, in order. @return IOS_OK, or the first failure (IOS_ENOMEM). */
static int modules_init(engine_t *e) {
  for (size_t m = 0; m < NMODULES; m++) {
    int rc = modules[m].init != NULL ? modules[m].init(e) : IOS_OK;
    if (rc != IOS_OK) return rc;
  }
  return IOS_OK;
}

/* Every module's state freed, in the reverse order (after a run, or a set-up that failed part-way). */
static void modules_fini(engine_t *e) {
  for (size_t m = NMODULES; m-- > 0;)
    modules[m].fini(e);
}

int ios_engine_start(const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w, ios_results_t *r) {
  engine_t *e = &engine.run;
  memset(e, 0, sizeof *e);
  memset(r, 0, sizeof *r);
  e->wall0 = ios_clock_s();
  e->s = s;
  e->p = p;
  e->r = r;
  e->w = w;
  e->napps = r->napps = w->napps;
  e->nres = r->nres = p->nres;
  r->apps = calloc((size_t)w->napps, sizeof *r->apps);
  r->res = calloc((size_t)p->nres, sizeof *r->res);
  int rc = modules_init(e);
  if (rc == IOS_OK && (r->apps == NULL || r->res == NULL)) rc = IOS_ENOMEM;
  if (rc == IOS_OK) rc = sim_setup(e, s, p, w);
  e->apps_left = w->napps;
  if (rc == IOS_OK) rc = sim_calendar_start(e, s, p, w->napps);
  if (rc != IOS_OK) { /* nothing was simulated: no results */
    modules_fini(e);
    ios_sg_trace_discard();
    return rc;
  }
  engine.started = 1;
  return IOS_OK;
}

int ios_engine_finish(void) {
  engine_t *e = &engine.run;
  if (!engine.started) return IOS_EINVAL;
  engine.started = 0;
  sim_progress_end(e);
  int rc = sim_failure(e); /* IOS_OK, or a policy failed during the run (sim_fail set the message) */
  if (rc == IOS_OK) rc = sim_collect(e, e->s, e->p, e->w);
  modules_fini(e); /* on failure the run stopped: no results */
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
  if (!engine.started || !e->s->external) {
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
  sim_cal_push(e, simgrid_get_clock(), kind, j);
  ios_sg_drive_arm(e->sg);
}

int ios_engine_app_begin(int app, const int *hosts) {
  engine_t *e = &engine.run;
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
  engine_t *e = &engine.run;
  app_state_t *as = external_app(e, app, 1);
  if (as == NULL) return IOS_EINVAL;
  as->ext.waiting = 1;
  external_wake(e, CAL_APP, app);
  return IOS_OK;
}

int ios_engine_app_end(int app) {
  engine_t *e = &engine.run;
  app_state_t *as = external_app(e, app, 2);
  if (as == NULL) return IOS_EINVAL;
  as->ext.end = 1;
  external_wake(e, CAL_APP, app);
  return IOS_OK;
}
