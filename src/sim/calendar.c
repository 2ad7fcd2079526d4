/* iosim — the controller actor: it runs the applications and the controller from a calendar of dated wake-ups, on
 * both transfer paths (see sim_calendar.h, docs/engine.md). */
#include "sim_calendar.h"

#include "ios_sg.h"
#include "ios_sg_platform.h"
#include "ios_wakeups.h"
#include "sim_apps.h"
#include "sim_bound.h"
#include "sim_controller.h"
#include "sim_state.h"
#include "sim_traces.h"

#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/log.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_calendar, iosim, "iosim controller's calendar");

/* The controller is the only SimGrid actor. It runs the applications itself (app_advance) from a calendar of dated
 * wake-ups (starts, work phases' ends, job submissions, window snapshots, decision grids) and goes from one date to the
 * next: on the direct path it keeps the date itself (or sleeps on SimGrid's clock), on the flow path it sleeps on
 * SimGrid's clock until the next wake-up or until SimGrid reports a flow's completion. At one date: the wake-ups in
 * calendar order, then the completions (ios_tr_complete_due, in the same order on both paths), one decision over them
 * all; then the applications resumed by those completions or started by the job queue, whose new operations form the
 * next batch at the same date. */

/* KiB of stack of the controller, the direct path's one SimGrid actor (SimGrid's contexts/stack-size) */
#define IOS_ACTOR_STACK_KIB "256"

typedef struct {
  double start, period; /* s: a grid of decision dates, start + k·period for k >= 1 */
} grid_t;

/* The calendar's state (engine_t.cal). */
struct sim_calendar {
  ios_wakeups_t cal; /* the dated wake-ups, by (date, seq) */
  int own_clock;     /* direct path: the controller keeps the date itself instead of sleeping on SimGrid's clock */
  int flow_done;     /* flow path: the simulation has stopped (flow_step) */
  grid_t grids[2];   /* controller.tick_s from 0; a periodic sharing policy's δ from T_begin */
};

void sim_cal_push(engine_t *e, double date, int kind, int idx) {
  if (ios_wakeups_push(&e->cal->cal, date, kind, idx) != IOS_OK)
    sim_fail(e, IOS_ENOMEM, NULL, "out of memory for the calendar"); /* the run stops; the entry is lost with it */
}

/* Application j runs at the current date until it waits; a work phase puts its end in the calendar. */
static void cal_app(engine_t *e, int j) {
  double d = 0;
  if (sim_app_advance(e, &e->apps[j], &d) == APP_SLEEP) sim_cal_push(e, sim_now(e) + d, CAL_APP, j);
}

static void cal_fire(engine_t *e, ios_wakeup_t w) {
  switch (w.kind) {
  case CAL_APP:
    cal_app(e, w.idx);
    break;
  case CAL_SNAP_BEGIN:
    sim_push_event(e, EV_SNAPSHOT_BEGIN, -1, NULL, 0);
    break;
  case CAL_SNAP_END:
    sim_push_event(e, EV_SNAPSHOT_END, -1, NULL, 0);
    break;
  case CAL_TICK:
    sim_push_event(e, EV_TICK, -1, NULL, 0);
    if (e->apps_left > 0) sim_cal_push(e, w.date + e->cal->grids[w.idx].period, CAL_TICK, w.idx);
    break;
  case CAL_SUBMIT:
    sim_push_event(e, EV_SUBMIT, w.idx, NULL, 0);
    break;
  case CAL_BEGIN:
    sim_push_event(e, EV_BEGIN, w.idx, NULL, 0);
    break;
  }
}

/* Nothing can progress: every pending transfer has rate 0 and no wake-up is due (SimGrid would call it a deadlock). */
static void stuck(engine_t *e) {
  XBT_WARN("nothing can progress at %.17g s: %d applications wait on transfers the sharing policy gives no bandwidth, "
           "and no event is due",
           sim_now(e), e->apps_left);
}

/* Whether the simulation goes on: applications left, or a stop at the window's end not reached yet. */
static int going_on(engine_t *e, int stop) {
  return e->apps_left > 0 || (stop && !e->snap_end_done);
}

/* The work of one date, once the clock is there: the wake-ups due, the completions, one decision over them all, the
 * applications that go on; again at the same date while their new operations form another batch. @return 1 when the
 * simulation stops (a failure, the window's end reached with a stop there, or nothing left). */
static int date_work(engine_t *e, int stop) {
  ios_wakeup_t due;
  sim_bound_account(e); /* the interval that ends now, before anything changes */
  while (ios_wakeups_pop_due(&e->cal->cal, sim_now(e), &due))
    cal_fire(e, due);
  ios_tr_complete_due(e->tr);
  do {
    sim_handle_events(e);
    sim_decide_all(e);
    if (sim_failure(e) != IOS_OK) return 1;
    /* applications whose operation completed now go on (or end) before a stop at the window's end: one whose last
     * phase ends exactly at the window's end has completed; jobs the queue started begin */
    const int *go;
    int n = sim_resumed(e, &go);
    for (int i = 0; i < n; i++)
      cal_app(e, go[i]);
    if (stop && e->snap_end_done) {
      sim_trace_running(e);
      return 1;
    }
  } while (sim_events_pending(e) && going_on(e, stop));
  return !going_on(e, stop);
}

/* Direct path: the controller actor goes from date to date itself (the earliest of the next wake-up and the next
 * completion date), keeping the date (or sleeping on SimGrid's clock, IOSIM_SIMGRID_CLOCK=1). Its engine is its
 * SimGrid user data (sg_actor_set_data). */
static void controller_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  engine_t *e = sg_actor_self_get_data();
  struct sim_calendar *C = e->cal;
  int stop = e->s->stop_at_end && !isnan(e->t_end);
  while (going_on(e, stop)) {
    double next = ios_wakeups_next(&C->cal), now = sim_now(e), c = ios_tr_next_completion(e->tr);
    next = c < next ? c : next;
    if (!(next < INFINITY)) {
      stuck(e);
      break;
    }
    if (next > now) {
      if (C->own_clock)
        e->clock = next;
      else {
        sg_actor_sleep_for(next - now);
        e->clock = simgrid_get_clock();
      }
    }
    if (date_work(e, stop)) break;
  }
  if (C->own_clock && e->clock > simgrid_get_clock()) { /* SimGrid's clock ends where the simulation did */
    double end = e->clock;
    C->own_clock = 0;
    sg_actor_sleep_for(end - simgrid_get_clock());
  }
}

/* Flow path: SimGrid's maestro calls this at every date its clock reaches (ios_sg_drive, with the engine as its
 * context; no actor). The flows that ended at this date are collected first, so the date's work sees them all, as on
 * the direct path. */
static void flow_step(void *ctx) {
  engine_t *e = ctx;
  struct sim_calendar *C = e->cal;
  if (C->flow_done) return;
  e->clock = simgrid_get_clock();
  ios_flows_collect(e->sg);
  int stop = e->s->stop_at_end && !isnan(e->t_end), done = 0;
  while (!done && (ios_tr_pending(e->tr) > 0 || ios_wakeups_next(&C->cal) <= sim_now(e) + IOS_WAKEUP_PRECISION))
    done = date_work(e, stop);
  if (!done && ios_wakeups_count(&C->cal) > 0)
    ios_sg_wake_at(e->sg, ios_wakeups_next(&C->cal));
  else if (!done && ios_tr_running(e->tr) == 0 && !e->s->external) { /* external applications may still post */
    stuck(e);
    done = 1;
  }
  if (!done) return;
  C->flow_done = 1;
  sim_stop_transfers(e); /* a stop at the window's end or a failure leaves flows running: SimGrid must not go on */
  ios_sg_drive_stop(e->sg);
  if (e->s->external && e->apps_left > 0 && e->s->external_stopped != NULL) e->s->external_stopped(e->s->external_ctx);
}

int sim_calendar_init(engine_t *e) {
  e->cal = calloc(1, sizeof *e->cal);
  return e->cal != NULL ? IOS_OK : IOS_ENOMEM;
}

void sim_calendar_fini(engine_t *e) {
  if (e->cal == NULL) return;
  ios_wakeups_free(&e->cal->cal);
  free(e->cal);
  e->cal = NULL;
}

void sim_calendar_clock(engine_t *e, int own_clock) {
  e->cal->own_clock = own_clock;
  e->clock = 0;
}

int sim_calendar_start(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, int napps) {
  struct sim_calendar *C = e->cal;
  /* SimGrid maps each actor's stack (8 MiB by default); the controller needs far less */
  if (e->direct && ios_sg_set_config("contexts/stack-size:" IOS_ACTOR_STACK_KIB) != 0)
    XBT_WARN("SimGrid refused contexts/stack-size:" IOS_ACTOR_STACK_KIB);
  sim_start_t *order = malloc(sizeof *order * (size_t)(napps > 0 ? napps : 1));
  if (order == NULL) return IOS_ENOMEM;
  for (int j = 0; j < napps; j++)
    order[j] = (sim_start_t){e->apps[j].start, j};
  if (s->replay) /* requests in order of their start */
    qsort(order, (size_t)napps, sizeof *order, sim_cmp_start);
  for (int i = 0; !s->external && i < napps; i++) { /* external applications begin when their caller says */
    int j = order[i].app;
    if (s->queue) /* submitted at its release, started by the controller when nodes are free */
      sim_cal_push(e, e->apps[j].a->release > 0 ? e->apps[j].a->release : 0.0, CAL_SUBMIT, j);
    else
      sim_cal_push(e, e->apps[j].start > 0 ? e->apps[j].start : 0.0, CAL_APP, j);
  }
  free(order);
  C->grids[0] = (grid_t){0.0, s->tick_s};
  C->grids[1] = (grid_t){e->t_begin, e->period};
  sim_cal_push(e, e->t_begin > 0 ? e->t_begin : 0.0, CAL_SNAP_BEGIN, -1);
  if (!isnan(e->t_end)) sim_cal_push(e, e->t_end, CAL_SNAP_END, -1);
  for (int g = 0; g < 2; g++)
    if (C->grids[g].period > 0) sim_cal_push(e, C->grids[g].start + C->grids[g].period, CAL_TICK, g);
  if (e->direct) { /* the controller actor keeps the date itself; on the flow path SimGrid's maestro drives (no actor)
                    */
    sg_actor_t actor = sg_actor_init("controller", p->controller);
    sg_actor_set_data(actor, e);
    sg_actor_start(actor, controller_actor, 0, NULL);
  } else
    ios_sg_drive(e->sg, flow_step, e);
  return sim_failure(e); /* IOS_ENOMEM when a wake-up could not be kept */
}
