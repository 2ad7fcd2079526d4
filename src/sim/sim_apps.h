/* iosim — the applications' steps (apps.c; src/sim/ only): work phases and I/O operations, run by the calendar. No
 * state of its own: an application's is its record (app_state_t). */
#ifndef IOS_SIM_APPS_H
#define IOS_SIM_APPS_H

#include "sim_core.h"

/* The applications' steps (sim_app_advance): sleep for a work phase, wait for an I/O operation, or done. */
enum { APP_SLEEP, APP_WAIT, APP_DONE };

/** The compute hosts application `as` runs on now, into as->nodes (its nodes in order: its queue's hosts, else its
 * consecutive block from host0). @return how many its I/O leaves from: a.nodes, or 1 (a replayed request, one node, or
 * no room), when as->host alone is used. */
static inline int sim_app_nodes(engine_t *e, app_state_t *as) {
  if (e->s->replay || as->nodes == NULL || as->a->nodes <= 1) return 1;
  for (int k = 0; k < as->a->nodes; k++)
    as->nodes[k] = e->p->compute[as->q.hosts != NULL ? as->q.hosts[k] : as->host0 + k];
  return as->a->nodes;
}

/** Runs application `as` from where it stands at the current date until it must wait: APP_SLEEP (a work phase of
 * *sleep_s seconds started), APP_WAIT (an I/O operation posted, or an external application back to its own code) or
 * APP_DONE (its last phase ended). */
int sim_app_advance(engine_t *e, app_state_t *as, double *sleep_s);

/** An application and its start (s), sorted by sim_cmp_start: by start, then by index. */
typedef struct {
  double start;
  int app;
} sim_start_t;
int sim_cmp_start(const void *pa, const void *pb);

#endif
