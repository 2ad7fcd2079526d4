/* iosim — user-facing error messages (see ios_diag.h). */
#include "ios_diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MESSAGE_MAX 2048
#define FILE_MAX 600  /* characters of the file part kept (its start and its end) */
#define WHERE_MAX 300 /* characters of the field part kept */

static char message[MESSAGE_MAX];

/* Appends s to message[*len..] keeping at most `max` characters of it: when longer, its start and its end around
 * " ... " (a long quoted value in the middle of a message is cut, its field and its fix are kept). Control characters
 * become spaces so a message stays on one line. */
static void append(size_t *len, const char *s, size_t max) {
  size_t room = MESSAGE_MAX - 1 - *len, n = strlen(s);
  if (max > room) max = room;
  if (n <= max) {
    memcpy(message + *len, s, n);
  } else {
    size_t head = max / 2 > 5 ? max / 2 - 5 : 0, tail = max - head - (max >= 5 ? 5 : max);
    memcpy(message + *len, s, head);
    memcpy(message + *len + head, " ... ", max >= 5 ? 5 : max);
    memcpy(message + *len + head + (max >= 5 ? 5 : max), s + n - tail, tail);
    n = max;
  }
  for (size_t i = *len; i < *len + n; i++)
    if ((unsigned char)message[i] < 0x20) message[i] = ' ';
  *len += n;
  message[*len] = '\0';
}

/* Formats "file: where: body" into message[]. */
static void compose(const char *file, const char *where, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int need = vsnprintf(NULL, 0, fmt, ap);
  char *body = need >= 0 ? malloc((size_t)need + 1) : NULL;
  if (body != NULL) vsnprintf(body, (size_t)need + 1, fmt, again);
  va_end(again);
  size_t len = 0;
  message[0] = '\0';
  if (file != NULL) {
    append(&len, file, FILE_MAX);
    append(&len, ": ", 2);
  }
  if (where != NULL) {
    append(&len, where, WHERE_MAX);
    append(&len, ": ", 2);
  }
  append(&len, body != NULL ? body : fmt, MESSAGE_MAX);
  free(body);
}

void ios_diag_set(const char *file, const char *where, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  compose(file, where, fmt, ap);
  va_end(ap);
}

void ios_diag_warn(const char *file, const char *where, const char *fmt, ...) {
  char kept[MESSAGE_MAX];
  memcpy(kept, message, sizeof kept);
  va_list ap;
  va_start(ap, fmt);
  compose(file, where, fmt, ap);
  va_end(ap);
  fprintf(stderr, "iosim: warning: %s\n", message);
  memcpy(message, kept, sizeof kept);
}

void ios_diag_clear(void) {
  message[0] = '\0';
}

void ios_diag_report(const char *label) {
  fprintf(stderr, "iosim: %s: %s\n", label, message);
}

const char *ios_diag_message(void) {
  return message;
}
