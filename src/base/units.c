/* iosim — human unit parsing (see ios_units.h). */
#include "ios_units.h"
#include "ios_errors.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits "  12.5 GiB " into a number and a trimmed unit (at most 15 chars). */
static int split(const char *text, double *num, char unit[16]) {
  if (text == NULL) return IOS_EINVAL;
  char *end;
  double v = strtod(text, &end);
  if (end == text || !isfinite(v) || v < 0) return IOS_EINVAL;
  while (*end == ' ')
    end++;
  size_t len = strlen(end);
  while (len > 0 && end[len - 1] == ' ')
    len--;
  if (len >= 16) return IOS_EINVAL;
  memcpy(unit, end, len);
  unit[len] = '\0';
  *num = v;
  return IOS_OK;
}

/* *out = v·f when finite ("1e308GiB" overflows to infinity: refused). */
static int finite_product(double v, double f, double *out) {
  double x = v * f;
  if (!isfinite(x)) return IOS_EINVAL;
  *out = x;
  return IOS_OK;
}

/* Reads an optional SI/binary prefix at *u; returns its factor (1 when none) and advances *u. */
static double prefix(const char **u) {
  static const char letters[] = "kMGTPE";
  const char *s = *u;
  char c = s[0] == 'K' ? 'k' : s[0];
  const char *pos = c != '\0' ? strchr(letters, c) : NULL;
  if (pos == NULL) return 1.0;
  int power = (int)(pos - letters) + 1;
  if (s[1] == 'i') {
    *u = s + 2;
    return ldexp(1.0, 10 * power);
  }
  *u = s + 1;
  return pow(1000.0, power);
}

/* Parses "<prefix>B" or "<prefix>b" (bits) followed by `suffixes` alternatives; returns factor or -1. */
static double data_unit(const char *unit, const char *const *suffixes) {
  if (unit[0] == '\0') return 1.0;
  const char *u = unit;
  double f = prefix(&u);
  double per;
  if (*u == 'B' || strncmp(u, "byte", 4) == 0)
    per = 1.0; /* "B", or "byte(s)" spelled out */
  else if (*u == 'b')
    per = 0.125;
  else
    return -1.0;
  u++;
  for (int i = 0; suffixes[i] != NULL; i++)
    if (strcmp(u, suffixes[i]) == 0) return f * per;
  return -1.0;
}

int ios_parse_bytes(const char *text, double *out) {
  static const char *const suffixes[] = {"", "yte", "ytes", NULL};
  double v;
  char unit[16];
  if (split(text, &v, unit) != IOS_OK) return IOS_EINVAL;
  double f = data_unit(unit, suffixes);
  if (f < 0) return IOS_EINVAL;
  return finite_product(v, f, out);
}

int ios_parse_bandwidth(const char *text, double *out) {
  static const char *const suffixes[] = {"/s", "ps", NULL};
  double v;
  char unit[16];
  if (split(text, &v, unit) != IOS_OK) return IOS_EINVAL;
  double f = data_unit(unit, suffixes);
  if (f < 0 || unit[0] == '\0') {
    if (unit[0] != '\0') return IOS_EINVAL;
    f = 1.0;
  }
  return finite_product(v, f, out);
}

int ios_parse_duration(const char *text, double *out) {
  static const struct {
    const char *name;
    double seconds;
  } units[] = {{"", 1},   {"s", 1},    {"sec", 1},   {"ns", 1e-9}, {"us", 1e-6},   {"ms", 1e-3},   {"min", 60},
               {"m", 60}, {"h", 3600}, {"hr", 3600}, {"d", 86400}, {"day", 86400}, {"days", 86400}};
  double v;
  char unit[16];
  if (split(text, &v, unit) != IOS_OK) return IOS_EINVAL;
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (strcmp(unit, units[i].name) == 0) return finite_product(v, units[i].seconds, out);
  return IOS_EINVAL;
}

const char *ios_fmt_double(char *buf, size_t n, double x) {
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(buf, n, "%.*g", prec, x);
    if (strtod(buf, NULL) == x) break;
  }
  return buf;
}
