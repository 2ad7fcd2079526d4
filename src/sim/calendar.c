/* iosim — the controller actor: it runs the applications and the controller from a calendar of dated wake-ups, on
 * both transfer paths (see engine_state.h, docs/engine.md). */
#include "engine_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_calendar, iosim, "iosim controller's calendar");

/* The controller is the only SimGrid actor. It runs the applications itself (app_advance) from a calendar of dated
 * wake-ups (starts, work phases' ends, job submissions, window snapshots, decision grids) and goes from one date to the
 * next: on the direct path it keeps the date itself (or sleeps on SimGrid's clock), on the flow path it sleeps on
 * SimGrid's clock until the next wake-up or until SimGrid reports a flow's completion. At one date: the wake-ups in
 * calendar order, then the completions (ios_tr_complete_due, in the same order on both paths), one decision over them
 * all; then the applications resumed by those completions or started by the job queue, whose new operations form the
 * next batch at the same date. */

/* SimGrid's timing precision: activities ending within it of the current date end together (ios_transfer.h). */
#define CAL_PRECISION 1e-9

static int cal_before(const cal_entry_t *a, const cal_entry_t *b) {
  return a->date < b->date || (a->date == b->date && a->seq < b->seq);
}

void sim_cal_push(double date, int kind, int idx) {
  if (E.ncal == E.calcap) {
    int ncap = E.calcap ? 2 * E.calcap : 64;
    cal_entry_t *c = realloc(E.cal, sizeof *c * (size_t)ncap);
    if (c == NULL) {
      sim_fail(IOS_ENOMEM, NULL, "out of memory for the calendar"); /* the run stops; the entry is lost with it */
      return;
    }
    E.cal = c;
    E.calcap = ncap;
  }
  cal_entry_t e = {date, E.calseq++, kind, idx};
  int i = E.ncal++;
  while (i > 0 && cal_before(&e, &E.cal[(i - 1) / 2])) {
    E.cal[i] = E.cal[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  E.cal[i] = e;
}

static cal_entry_t cal_pop(void) {
  cal_entry_t top = E.cal[0], last = E.cal[--E.ncal];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= E.ncal) break;
    if (c + 1 < E.ncal && cal_before(&E.cal[c + 1], &E.cal[c])) c++;
    if (!cal_before(&E.cal[c], &last)) break;
    E.cal[i] = E.cal[c];
    i = c;
  }
  if (E.ncal > 0) E.cal[i] = last;
  return top;
}

/* Application j runs at the current date until it waits; a work phase puts its end in the calendar. */
static void cal_app(int j) {
  double d = 0;
  if (sim_app_advance(&E.apps[j], &d) == APP_SLEEP) sim_cal_push(sim_now() + d, CAL_APP, j);
}

static void cal_fire(cal_entry_t e) {
  switch (e.kind) {
  case CAL_APP:
    cal_app(e.idx);
    break;
  case CAL_SNAP_BEGIN:
    sim_push_event(EV_SNAPSHOT_BEGIN, -1, NULL, 0);
    break;
  case CAL_SNAP_END:
    sim_push_event(EV_SNAPSHOT_END, -1, NULL, 0);
    break;
  case CAL_TICK:
    sim_push_event(EV_TICK, -1, NULL, 0);
    if (E.apps_left > 0) sim_cal_push(e.date + E.grids[e.idx].period, CAL_TICK, e.idx);
    break;
  case CAL_SUBMIT:
    sim_push_event(EV_SUBMIT, e.idx, NULL, 0);
    break;
  }
}

/* Nothing can progress: every pending transfer has rate 0 and no wake-up is due (SimGrid would call it a deadlock). */
static void stuck(void) {
  XBT_WARN("nothing can progress at %.17g s: %d applications wait on transfers the sharing policy gives no bandwidth, "
           "and no event is due",
           sim_now(), E.apps_left);
}

/* Whether the simulation goes on: applications left, or a stop at the window's end not reached yet. */
static int going_on(int stop) {
  return E.apps_left > 0 || (stop && !E.snap_end_done);
}

/* The work of one date, once the clock is there: the wake-ups due, the completions, one decision over them all, the
 * applications that go on; again at the same date while their new operations form another batch. @return 1 when the
 * simulation stops (a failure, the window's end reached with a stop there, or nothing left). */
static int date_work(int stop) {
  while (E.ncal > 0 && E.cal[0].date <= sim_now() + CAL_PRECISION)
    cal_fire(cal_pop());
  ios_tr_complete_due();
  do {
    sim_handle_events();
    sim_decide_all();
    if (E.fail != IOS_OK) return 1;
    /* applications whose operation completed now go on (or end) before a stop at the window's end: one whose last
     * phase ends exactly at the window's end has completed; jobs the queue started begin */
    int n = E.nresume;
    E.nresume = 0;
    for (int i = 0; i < n; i++)
      cal_app(E.resume[i]);
    if (stop && E.snap_end_done) {
      sim_trace_running();
      return 1;
    }
  } while (E.qlen > 0 && going_on(stop));
  return !going_on(stop);
}

/* Direct path: the controller actor goes from date to date itself (the earliest of the next wake-up and the next
 * completion date), keeping the date (or sleeping on SimGrid's clock, IOSIM_SIMGRID_CLOCK=1). */
void sim_controller_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  int stop = E.s->stop_at_end && !isnan(E.t_end);
  while (going_on(stop)) {
    double next = E.ncal > 0 ? E.cal[0].date : INFINITY, now = sim_now(), c = ios_tr_next_completion();
    next = c < next ? c : next;
    if (!(next < INFINITY)) {
      stuck();
      break;
    }
    if (next > now) {
      if (E.own_clock)
        E.clock = next;
      else {
        sg_actor_sleep_for(next - now);
        E.clock = simgrid_get_clock();
      }
    }
    if (date_work(stop)) break;
  }
  if (E.own_clock && E.clock > simgrid_get_clock()) { /* SimGrid's clock ends where the simulation did */
    double end = E.clock;
    E.own_clock = 0;
    sg_actor_sleep_for(end - simgrid_get_clock());
  }
}

/* Flow path: SimGrid's maestro calls this at every date its clock reaches (ios_sg_drive; no actor). The flows that
 * ended at this date are collected first, so the date's work sees them all, as on the direct path. */
void sim_flow_step(void) {
  if (E.flow_done) return;
  E.clock = simgrid_get_clock();
  ios_flows_collect();
  int stop = E.s->stop_at_end && !isnan(E.t_end), done = 0;
  while (!done && (ios_tr_pending() > 0 || (E.ncal > 0 && E.cal[0].date <= sim_now() + CAL_PRECISION)))
    done = date_work(stop);
  if (!done && E.ncal > 0)
    ios_sg_wake_at(E.cal[0].date);
  else if (!done && ios_tr_running() == 0) {
    stuck();
    done = 1;
  }
  if (!done) return;
  E.flow_done = 1;
  sim_stop_transfers(); /* a stop at the window's end or a failure leaves flows running: SimGrid must not go on */
  ios_sg_drive_stop();
}
