/* iosim — the calendar of the direct path without a job queue: the controller runs the applications from dated wake-
 * ups and keeps the date itself (see engine_state.h, docs/engine.md). */
#include "engine_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_calendar, iosim, "iosim calendar of the direct path");

/* With the direct path and no job queue, no SimGrid activity other than the passing of time is left: the controller
 * runs the applications itself (app_advance) from a calendar of dated wake-ups (work phases' ends, starts, window
 * snapshots, decision grids) and sleeps on SimGrid's clock from one date to the next. It reproduces the actors' order
 * of events: at one date, the wake-ups in calendar order, then the completions, one decision over them all; then the
 * applications resumed by those completions, whose new operations form the next batch at the same date. */

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
    sim_push_event(EV_SNAPSHOT_BEGIN, -1, NULL, 0, 0);
    break;
  case CAL_SNAP_END:
    sim_push_event(EV_SNAPSHOT_END, -1, NULL, 0, 0);
    break;
  case CAL_TICK:
    sim_push_event(EV_TICK, -1, NULL, 0, 0);
    if (E.apps_left > 0) sim_cal_push(e.date + E.grids[e.idx].period, CAL_TICK, e.idx);
    break;
  }
}

/* SimGrid's timing precision: activities ending within it of the current date end together (ios_transfer.h). */
#define CAL_PRECISION 1e-9

void sim_calendar_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  int stop = E.s->stop_at_end && !isnan(E.t_end);
  while (E.apps_left > 0 || (stop && !E.snap_end_done)) {
    if (E.qlen == 0) { /* nothing more at this date: on to the next one */
      double next = ios_tr_next_completion();
      if (E.ncal > 0 && E.cal[0].date < next) next = E.cal[0].date;
      if (!(next < INFINITY)) { /* every pending transfer at rate 0 and nothing else to come: as SimGrid's deadlock */
        XBT_WARN("nothing can progress at %.17g s: %d applications wait on transfers the sharing policy gives no "
                 "bandwidth, and no event is due",
                 sim_now(), E.apps_left);
        break;
      }
      if (next > sim_now()) {
        if (E.own_clock)
          E.clock = next;
        else
          sg_actor_sleep_for(next - sim_now());
      }
      while (E.ncal > 0 && E.cal[0].date <= sim_now() + CAL_PRECISION)
        cal_fire(cal_pop());
      ios_tr_complete_due();
    }
    sim_handle_events();
    sim_decide_all();
    if (E.fail != IOS_OK) break;
    /* applications whose operation completed now go on (or end) before a stop at the window's end, as their actors
     * do on the SimGrid-flow path: one whose last phase ends exactly at the window's end has completed */
    int n = E.nresume;
    E.nresume = 0;
    for (int i = 0; i < n; i++)
      cal_app(E.resume[i]);
    if (stop && E.snap_end_done) break;
  }
  if (E.own_clock && E.clock > simgrid_get_clock()) { /* SimGrid's clock ends where the simulation did */
    double end = E.clock;
    E.own_clock = 0;
    sg_actor_sleep_for(end - simgrid_get_clock());
  }
}
