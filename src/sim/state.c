/* iosim — the engine's one state, its date and its failure record (see engine_state.h): what every file of the
 * engine uses, so that they depend on it and not on one another. */
#include "engine_state.h"

#include <stdarg.h>
#include <stdio.h>

engine_t sim_engine;

/* s: the simulated date — SimGrid's clock, or the calendar's own when it keeps one (E.own_clock). */
double sim_now(void) {
  return E.own_clock ? E.clock : simgrid_get_clock();
}

void sim_fail(int rc, const char *field, const char *fmt, ...) {
  if (E.fail != IOS_OK) return; /* the first failure is the one reported */
  E.fail = rc;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char *why = ios_diag_message();
  if (why[0] != '\0') { /* what the policy itself said comes after */
    char both[2048];
    snprintf(both, sizeof both, "%s: %s", msg, why);
    ios_diag_set(E.s->file, field, "%s", both);
  } else
    ios_diag_set(E.s->file, field, "%s", msg);
}
