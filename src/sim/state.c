/* iosim — the engine's one state and its failure record (see engine_state.h): what every file of the engine uses, so
 * that they depend on it and not on one another. */
#include "engine_state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_state, iosim, "iosim engine state");

engine_t sim_engine;

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

void sim_fault_init(void) {
  static const char *const sites[] = {"", "sharing", "striping", "arbitration"};
  const char *env = getenv("IOSIM_FAULT");
  E.fault_site = E.fault_at = 0;
  E.fault_calls = 0;
  if (env == NULL) return;
  for (int k = 1; k < 4; k++) {
    size_t n = strlen(sites[k]);
    if (strncmp(env, sites[k], n) == 0 && env[n] == ':' && atoi(env + n + 1) > 0) {
      E.fault_site = k;
      E.fault_at = atoi(env + n + 1);
    }
  }
  if (E.fault_site == 0) XBT_WARN("IOSIM_FAULT=%s ignored: give sharing:K, striping:K or arbitration:K", env);
}

int sim_fault(int site) {
  return site == E.fault_site && ++E.fault_calls == E.fault_at;
}
