/* iosim — user-facing error messages (see ios_diag.h). */
#include "ios_diag.h"

#include <stdarg.h>
#include <stdio.h>

static char message[2048];

void ios_diag_set(const char *file, const char *where, const char *fmt, ...) {
  int len = 0;
  if (file != NULL) len = snprintf(message, sizeof message, "%s: ", file);
  if (where != NULL && len >= 0 && (size_t)len < sizeof message)
    len += snprintf(message + len, sizeof message - (size_t)len, "%s: ", where);
  if (len < 0 || (size_t)len >= sizeof message) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message + len, sizeof message - (size_t)len, fmt, ap);
  va_end(ap);
}

const char *ios_diag_message(void) {
  return message;
}
