/* iosim — the engine's failure record, the fault injection of the failure path's tests, and the batch of applications
 * resumed at one date (see sim_state.h); its state is the engine's (engine_t.state). */
#include "sim_state.h"

#include "ios_diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/log.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_state, iosim, "iosim engine state");

/* The failure record, the fault injection (the benchmark switch IOSIM_FAULT) and the resumed batch. */
struct sim_state {
  const char *fail_file;    /* the scenario, named in the failure's message */
  int fail;                 /* IOS_OK, or the IOS_E* code of the first input-dependent failure of the run */
  int fault_site, fault_at; /* IOSIM_FAULT: the site and the call number that fails; 0 when none */
  long fault_calls;         /* calls at fault_site so far */
  /* The applications to go on after this batch's decisions (an operation completed, a job started): the controller
   * and the queue add them, the calendar runs them. */
  int *resume, nresume;
};

int sim_failure(const engine_t *e) {
  return e->state->fail;
}

void sim_fail(engine_t *e, int rc, const char *field, const char *fmt, ...) {
  struct sim_state *st = e->state;
  if (st->fail != IOS_OK) return; /* the first failure is the one reported */
  st->fail = rc;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char *why = ios_diag_message();
  if (why[0] != '\0') { /* what the policy itself said comes after */
    char both[2048];
    snprintf(both, sizeof both, "%s: %s", msg, why);
    ios_diag_set(st->fail_file, field, "%s", both);
  } else
    ios_diag_set(st->fail_file, field, "%s", msg);
}

/* The fault injection of IOSIM_FAULT=SITE:K (s->bench.fault). */
static void fault_init(struct sim_state *st, const ios_sim_config_t *s) {
  static const char *const sites[] = {"", "sharing", "striping", "arbitration"};
  const char *env = s->bench.fault;
  if (env == NULL) return;
  for (int k = 1; k < 4; k++) {
    size_t n = strlen(sites[k]);
    if (strncmp(env, sites[k], n) == 0 && env[n] == ':' && atoi(env + n + 1) > 0) {
      st->fault_site = k;
      st->fault_at = atoi(env + n + 1);
    }
  }
  if (st->fault_site == 0) XBT_WARN("IOSIM_FAULT=%s ignored: give sharing:K, striping:K or arbitration:K", env);
}

int sim_state_init(engine_t *e) {
  struct sim_state *st = calloc(1, sizeof *st);
  if (st == NULL) return IOS_ENOMEM;
  e->state = st;
  st->fail = IOS_OK;
  st->fail_file = e->s->file;
  fault_init(st, e->s);
  st->resume = malloc(sizeof *st->resume * (size_t)(e->napps > 0 ? e->napps : 1));
  return st->resume != NULL ? IOS_OK : IOS_ENOMEM;
}

void sim_state_fini(engine_t *e) {
  if (e->state == NULL) return;
  free(e->state->resume);
  free(e->state);
  e->state = NULL;
}

int sim_fault(engine_t *e, int site) {
  struct sim_state *st = e->state;
  return site == st->fault_site && ++st->fault_calls == st->fault_at;
}

void sim_resume(engine_t *e, int j) {
  e->state->resume[e->state->nresume++] = j;
}

int sim_resumed(engine_t *e, const int **list) {
  int n = e->state->nresume;
  *list = e->state->resume;
  e->state->nresume = 0;
  return n;
}
