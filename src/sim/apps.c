/* iosim — the applications: their steps (work phases, I/O operations), run by the controller's calendar (see
 * sim_apps.h, docs/engine.md). */
#include "sim_apps.h"

#include "sim_controller.h"
#include "sim_traces.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/log.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_apps, iosim, "iosim applications");

/* What an application does next (app_advance). */

/* Runs application `as` from where it stands at the current date until it must wait: APP_SLEEP (a work phase of
 * *sleep_s seconds started), APP_WAIT (an I/O operation posted: the controller resumes it at its completion; or an
 * external application back to its own code, its caller told of its operation's completion) or APP_DONE (its last
 * phase ended). The controller's calendar runs them (calendar.c). */
int sim_app_advance(engine_t *e, app_state_t *as, double *sleep_s) {
  int j = (int)(as - e->apps);
  for (; as->phase < as->a->nphases; as->phase++) {
    const ios_phase_t *ph = &as->a->phases[as->phase];
    if (!ph->is_io && e->s->external) { /* an external application ran it itself, up to now */
      sim_ev_row(e, j, "work", "", sim_now(e) - ph->value, sim_now(e), -1);
      as->work_done += ph->value;
      as->last_work += ph->value;
      as->state = ST_WAITING;
    } else if (!ph->is_io) {
      if (as->state != ST_WORK) { /* start the work phase */
        as->state = ST_WORK;
        as->phase_start = sim_now(e);
        *sleep_s = ph->value;
        return APP_SLEEP;
      }
      sim_ev_row(e, j, "work", "", as->phase_start, sim_now(e), -1); /* it has just ended */
      as->work_done += ph->value;
      as->last_work += ph->value;
      as->state = ST_WAITING;
    } else if (ph->value > 0 && !as->posted_op) {
      as->state = ST_IO;
      as->posted_op = 1;
      as->posted = (as->phase == 0 && as->a->first_posted < 0) ? as->a->first_posted : sim_now(e);
      sim_push_event(e, EV_POST, j, NULL, 0);
      return APP_WAIT;
    } else
      as->posted_op = 0; /* its operation is complete (or empty) */
  }
  if (e->s->external && !as->ext.end) { /* it runs its own code until it posts again or ends */
    as->state = ST_WORK;
    if (as->ext.waiting) {
      as->ext.waiting = 0;
      e->s->external_done(j, e->s->external_ctx);
    }
    return APP_WAIT;
  }
  as->state = ST_DONE;
  as->end = sim_now(e);
  sim_push_event(e, EV_APP_END, j, NULL, 0);
  return APP_DONE;
}

int sim_cmp_start(const void *pa, const void *pb) {
  const sim_start_t *a = pa, *b = pb;
  return a->start < b->start ? -1 : a->start > b->start ? 1 : (a->app > b->app) - (a->app < b->app);
}
