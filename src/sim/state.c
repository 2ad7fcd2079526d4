/* iosim — the engine's failure record, the fault injection of the failure path's tests, and the batch of applications
 * resumed at one date (see engine_state.h); each owned here. */
#include "engine_state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_state, iosim, "iosim engine state");

/* The failure record and the fault injection (the benchmark switch IOSIM_FAULT), owned here. */
static const char *fail_file;    /* the scenario, named in the failure's message */
static int fail;                 /* IOS_OK, or the IOS_E* code of the first input-dependent failure of the run */
static int fault_site, fault_at; /* IOSIM_FAULT: the site and the call number that fails; 0 when none */
static long fault_calls;         /* calls at fault_site so far */

int sim_failure(void) {
  return fail;
}

void sim_fail(int rc, const char *field, const char *fmt, ...) {
  if (fail != IOS_OK) return; /* the first failure is the one reported */
  fail = rc;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char *why = ios_diag_message();
  if (why[0] != '\0') { /* what the policy itself said comes after */
    char both[2048];
    snprintf(both, sizeof both, "%s: %s", msg, why);
    ios_diag_set(fail_file, field, "%s", both);
  } else
    ios_diag_set(fail_file, field, "%s", msg);
}

void sim_fault_init(const ios_sim_config_t *s) {
  fail = IOS_OK;
  fail_file = s->file;
  static const char *const sites[] = {"", "sharing", "striping", "arbitration"};
  const char *env = s->bench.fault;
  fault_site = fault_at = 0;
  fault_calls = 0;
  if (env == NULL) return;
  for (int k = 1; k < 4; k++) {
    size_t n = strlen(sites[k]);
    if (strncmp(env, sites[k], n) == 0 && env[n] == ':' && atoi(env + n + 1) > 0) {
      fault_site = k;
      fault_at = atoi(env + n + 1);
    }
  }
  if (fault_site == 0) XBT_WARN("IOSIM_FAULT=%s ignored: give sharing:K, striping:K or arbitration:K", env);
}

int sim_fault(int site) {
  return site == fault_site && ++fault_calls == fault_at;
}

/* The applications to go on after this batch's decisions (an operation completed, a job started): the controller and
 * the queue add them, the calendar runs them. */
static int *resume, nresume;

int sim_resume_init(int napps) {
  free(resume);
  resume = NULL;
  nresume = 0;
  if (napps < 0) return IOS_OK;
  resume = malloc(sizeof *resume * (size_t)(napps > 0 ? napps : 1));
  return resume != NULL ? IOS_OK : IOS_ENOMEM;
}

void sim_resume(int j) {
  resume[nresume++] = j;
}

int sim_resumed(const int **list) {
  int n = nresume;
  *list = resume;
  nresume = 0;
  return n;
}
