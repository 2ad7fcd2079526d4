/* iosim — libiosim's error message, version and random streams (include/iosim/common.h, version.h, policy.h). */
#include "ios_lib.h"

#include "iosim/version.h"

#include "ios_diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static _Thread_local char message[2048];

const char *iosim_error(void) {
  return message;
}

int ios_lib_fail(int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  return rc;
}

int ios_lib_fail_diag(int rc, const char *fallback) {
  const char *m = ios_diag_message();
  return ios_lib_fail(rc, "%s", m[0] != '\0' ? m : fallback);
}

const char *iosim_version(int *major, int *minor, int *patch) {
  if (major != NULL) *major = IOSIM_VERSION_MAJOR;
  if (minor != NULL) *minor = IOSIM_VERSION_MINOR;
  if (patch != NULL) *patch = IOSIM_VERSION_PATCH;
  return IOSIM_VERSION_STRING;
}

iosim_rng_t *iosim_rng_new(uint64_t seed, uint64_t stream) {
  iosim_rng_t *r = malloc(sizeof *r);
  if (r == NULL) {
    ios_lib_fail(IOSIM_ENOMEM, "iosim_rng_new: out of memory");
    return NULL;
  }
  ios_rng_seed(&r->r, seed, stream);
  return r;
}

void iosim_rng_free(iosim_rng_t *rng) {
  free(rng);
}
