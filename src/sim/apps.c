/* iosim — the applications: their steps (work phases, I/O operations) shared by the actors and the calendar, and the
 * launcher of replayed requests (see engine_state.h, docs/engine.md). */
#include "engine_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_apps, iosim, "iosim applications");

/* What an application does next (app_advance). */

/* Runs application `as` from where it stands at the current date until it must wait: APP_SLEEP (a work phase of
 * *sleep_s seconds started), APP_WAIT (an I/O operation posted: the controller resumes it at its completion) or
 * APP_DONE (its last phase ended). The same steps drive an application actor (flow path) and the controller's
 * calendar (direct path). */
int sim_app_advance(app_state_t *as, double *sleep_s) {
  int j = (int)(as - E.apps);
  for (; as->phase < as->a->nphases; as->phase++) {
    const ios_phase_t *ph = &as->a->phases[as->phase];
    if (!ph->is_io) {
      if (as->state != ST_WORK) { /* start the work phase */
        as->state = ST_WORK;
        as->phase_start = sim_now();
        *sleep_s = ph->value;
        return APP_SLEEP;
      }
      sim_ev_row(j, "work", "", as->phase_start, sim_now(), -1); /* it has just ended */
      as->work_done += ph->value;
      as->last_work += ph->value;
      as->state = ST_WAITING;
    } else if (ph->value > 0 && !as->posted_op) {
      as->state = ST_IO;
      as->posted_op = 1;
      as->posted = (as->phase == 0 && as->a->first_posted < 0) ? as->a->first_posted : sim_now();
      sim_push_event(EV_POST, j, NULL, 0, !E.calendar);
      return APP_WAIT;
    } else
      as->posted_op = 0; /* its operation is complete (or empty) */
  }
  as->state = ST_DONE;
  as->end = sim_now();
  sim_push_event(EV_APP_END, j, NULL, 0, !E.calendar);
  return APP_DONE;
}

static void app_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  app_state_t *as = sg_actor_self_get_data();
  int j = (int)(as - E.apps);
  if (E.s->queue) { /* submitted at its release time, started by the controller when nodes are free */
    if (as->a->release > 0) sg_actor_sleep_for(as->a->release);
    sim_push_event(EV_SUBMIT, j, NULL, 0, 1);
    sg_sem_acquire(as->sem);
  } else if (as->start > sim_now())
    sg_actor_sleep_for(as->start - sim_now());
  for (;;) {
    double d = 0;
    int next = sim_app_advance(as, &d);
    if (next == APP_SLEEP)
      sg_actor_sleep_for(d);
    else if (next == APP_WAIT)
      sg_sem_acquire(as->sem);
    else
      break;
  }
  E.actors--;
}

/* ---------------------------------------------------------------- calendar (direct path, no job queue) */

void sim_spawn_app(int j) {
  sg_actor_t a = sg_actor_init(E.apps[j].a->name, E.apps[j].host);
  sg_actor_set_data(a, &E.apps[j]);
  sg_actor_start(a, app_actor, 0, NULL);
}

int sim_cmp_start(const void *pa, const void *pb) {
  int a = *(const int *)pa, b = *(const int *)pb;
  double x = E.apps[a].start, y = E.apps[b].start;
  return x < y ? -1 : x > y ? 1 : (a > b) - (a < b);
}

/* Replay: each application's actor is created at its start, so only running ones hold an actor (a year of storage
 * requests would otherwise keep 24,000 sleeping actors). */
void sim_launcher_actor(int argc, char **argv) {
  (void)argc;
  (void)argv;
  for (int i = 0; i < E.napps && !E.overflow; i++) {
    int j = E.launch_order[i];
    if (E.apps[j].start > sim_now()) sg_actor_sleep_for(E.apps[j].start - sim_now());
    if (!sim_actor_reserve()) {
      sim_push_event(EV_TICK, -1, NULL, 0, 1); /* wake the controller, which stops the run */
      return;
    }
    sim_spawn_app(j);
  }
}

/* ---------------------------------------------------------------- set-up */
