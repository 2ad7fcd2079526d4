/* iosim — CSV fields (see ios_csv.h). */
#include "ios_csv.h"

#include <string.h>

int ios_csv_needs_quotes(const char *s) {
  return s != NULL && strpbrk(s, ",\"\r\n") != NULL;
}

static void put_quoted_body(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
}

void ios_csv_field(FILE *f, const char *s) {
  if (s == NULL) return;
  if (!ios_csv_needs_quotes(s)) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  put_quoted_body(f, s);
  fputc('"', f);
}

void ios_csv_list(FILE *f, int n, ios_csv_item_fn item, void *ctx, char sep) {
  int quote = 0;
  for (int i = 0; i < n && !quote; i++)
    quote = ios_csv_needs_quotes(item(i, ctx)) || (sep == '"' || sep == ',');
  if (quote) fputc('"', f);
  for (int i = 0; i < n; i++) {
    const char *s = item(i, ctx);
    if (i > 0) {
      if (sep == '"') fputc('"', f);
      fputc(sep, f);
    }
    if (s == NULL) continue;
    if (quote)
      put_quoted_body(f, s);
    else
      fputs(s, f);
  }
  if (quote) fputc('"', f);
}

/* The quoted field at `r` (just after its opening quote), undoubled in place and terminated unless it ends where
 * reading stopped (*end: the ',' or the end of the line after it). */
static char *unquote(char *r, char **end) {
  char *start = r, *w = r;
  while (*r != '\0' && !(*r == '"' && r[1] != '"')) {
    r += *r == '"'; /* a doubled quote: keep one */
    *w++ = *r++;
  }
  if (*r == '"') r++; /* the closing quote */
  r += strcspn(r, ",");
  if (w < r) *w = '\0';
  *end = r;
  return start;
}

int ios_csv_split(char *line, char **fields, int max) {
  line[strcspn(line, "\r\n")] = '\0';
  int n = 0;
  for (char *r = line; n < max;) {
    while (*r == ' ')
      r++;
    char *start, *end;
    if (*r == '"') {
      start = unquote(r + 1, &end);
    } else {
      start = r;
      end = r + strcspn(r, ",");
      char *w = end;
      while (w > start && w[-1] == ' ')
        w--;
      if (w < end) *w = '\0';
    }
    char sep = *end;
    *end = '\0';
    fields[n++] = start;
    if (sep == '\0') break;
    r = end + 1;
  }
  return n;
}
