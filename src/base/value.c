/* iosim — the validated value reader (see ios_value.h). */
#include "ios_value.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_MAX 60

const char *ios_value_type(const cJSON *v) {
  if (v == NULL) return "missing";
  if (cJSON_IsNumber(v)) return "a number";
  if (cJSON_IsString(v)) return "a string";
  if (cJSON_IsBool(v)) return "a boolean";
  if (cJSON_IsArray(v)) return "an array";
  if (cJSON_IsObject(v)) return "an object";
  if (cJSON_IsNull(v)) return "null";
  return "an invalid value";
}

/* Copies s into buf[n], cut with "..." after TEXT_MAX characters (or what fits). */
static void cut(const char *s, char *buf, size_t n) {
  if (n == 0) return;
  size_t max = n - 1 < TEXT_MAX ? n - 1 : TEXT_MAX, len = strlen(s);
  if (len <= max) {
    memcpy(buf, s, len + 1);
    return;
  }
  size_t keep = max > 3 ? max - 3 : 0;
  memcpy(buf, s, keep);
  memcpy(buf + keep, "...", max - keep);
  buf[max] = '\0';
}

void ios_value_text(const cJSON *v, char *buf, size_t n) {
  if (v == NULL) {
    cut("(missing)", buf, n);
    return;
  }
  if (cJSON_IsNumber(v)) {
    char num[40];
    snprintf(num, sizeof num, "%.17g", v->valuedouble);
    cut(num, buf, n);
    return;
  }
  char *s = cJSON_PrintUnformatted(v);
  cut(s != NULL ? s : "?", buf, n);
  free(s);
}

/* "an integer in [1, 100]", "a number > 0", "a size >= 0 (a number of bytes or a string such as \"2GiB\")". */
static void describe(const ios_num_spec_t *s, char *buf, size_t n) {
  static const char *const kinds[] = {"a number", "a size", "a bandwidth", "a duration"};
  static const char *const units[] = {"", " (bytes, or a string such as \"2GiB\")",
                                      " (bytes/s, or a string such as \"1.2GiB/s\")",
                                      " (seconds, or a string such as \"5min\")"};
  const char *kind = s->integer ? "an integer" : kinds[s->unit];
  if (isinf(s->hi))
    snprintf(buf, n, "%s %s %g%s", kind, s->lo_open ? ">" : ">=", s->lo, units[s->unit]);
  else
    snprintf(buf, n, "%s in %c%g, %g]%s", kind, s->lo_open ? '(' : '[', s->lo, s->hi, units[s->unit]);
}

static int in_spec(double x, const ios_num_spec_t *s) {
  return isfinite(x) && (s->lo_open ? x > s->lo : x >= s->lo) && x <= s->hi && (!s->integer || x == floor(x));
}

/* Checks x against the spec; on failure records the message with `shown` as the value. */
static int check(double x, const char *shown, const ios_num_spec_t *s, const char *file, const char *field) {
  if (in_spec(x, s)) return IOS_OK;
  char range[160];
  describe(s, range, sizeof range);
  ios_diag_set(file, field, "is %s: give %s%s%s", shown, range, s->what != NULL ? " — " : "",
               s->what != NULL ? s->what : "");
  return IOS_EINVAL;
}

static int parse_with_unit(const char *text, ios_unit_t unit, double *out) {
  switch (unit) {
  case IOS_UNIT_BYTES:
    return ios_parse_bytes(text, out);
  case IOS_UNIT_BANDWIDTH:
    return ios_parse_bandwidth(text, out);
  case IOS_UNIT_DURATION:
    return ios_parse_duration(text, out);
  default:
    return ios_parse_number(text, out);
  }
}

int ios_value_number(const cJSON *v, const ios_num_spec_t *spec, const char *file, const char *field, double *out) {
  char shown[TEXT_MAX + 8];
  ios_value_text(v, shown, sizeof shown);
  double x = NAN;
  if (cJSON_IsNumber(v))
    x = v->valuedouble;
  else if (cJSON_IsString(v) && spec->unit != IOS_UNIT_NONE) {
    if (parse_with_unit(v->valuestring, spec->unit, &x) != IOS_OK) x = NAN;
  } else {
    char range[160], with_type[TEXT_MAX + 40];
    describe(spec, range, sizeof range);
    snprintf(with_type, sizeof with_type, "%s (%s)", shown, ios_value_type(v));
    ios_diag_set(file, field, "is %s: give %s%s%s", v == NULL ? "missing" : with_type, range,
                 spec->what != NULL ? " — " : "", spec->what != NULL ? spec->what : "");
    return IOS_EINVAL;
  }
  if (check(x, shown, spec, file, field) != IOS_OK) return IOS_EINVAL;
  *out = x;
  return IOS_OK;
}

int ios_value_int(const cJSON *v, double lo, double hi, const char *what, const char *file, const char *field,
                  int *out) {
  ios_num_spec_t spec = {lo, hi, 0, 1, IOS_UNIT_NONE, what};
  if (spec.lo < -2147483647.0) spec.lo = -2147483647.0;
  if (spec.hi > 2147483647.0) spec.hi = 2147483647.0;
  double x;
  if (ios_value_number(v, &spec, file, field, &x) != IOS_OK) return IOS_EINVAL;
  *out = (int)x;
  return IOS_OK;
}

int ios_value_number_ok(const char *text, const ios_num_spec_t *spec, double *out) {
  double x;
  if (text == NULL || parse_with_unit(text, spec->unit, &x) != IOS_OK || !in_spec(x, spec)) return 0;
  *out = x;
  return 1;
}

int ios_value_number_text(const char *text, const ios_num_spec_t *spec, const char *file, const char *field,
                          double *out) {
  if (ios_value_number_ok(text, spec, out)) return IOS_OK;
  char shown[TEXT_MAX + 8], quoted[TEXT_MAX + 16];
  cut(text != NULL ? text : "(missing)", shown, sizeof shown);
  snprintf(quoted, sizeof quoted, "'%s'", shown);
  double x = NAN;
  if (text == NULL || parse_with_unit(text, spec->unit, &x) != IOS_OK) x = NAN;
  if (check(x, quoted, spec, file, field) != IOS_OK) return IOS_EINVAL;
  *out = x;
  return IOS_OK;
}

/* Records "is VALUE (TYPE): give `need`". */
static int wrong(const cJSON *v, const char *need, const char *file, const char *field) {
  char shown[TEXT_MAX + 8];
  ios_value_text(v, shown, sizeof shown);
  if (v == NULL)
    ios_diag_set(file, field, "is missing: give %s", need);
  else
    ios_diag_set(file, field, "is %s (%s): give %s", shown, ios_value_type(v), need);
  return IOS_EINVAL;
}

int ios_value_string(const cJSON *v, int nonempty, const char *what, const char *file, const char *field,
                     const char **out) {
  if (!cJSON_IsString(v) || v->valuestring == NULL || (nonempty && v->valuestring[0] == '\0')) {
    char need[512];
    snprintf(need, sizeof need, "%s%s%s", nonempty ? "a non-empty string" : "a string", what != NULL ? " — " : "",
             what != NULL ? what : "");
    return wrong(v, need, file, field);
  }
  *out = v->valuestring;
  return IOS_OK;
}

int ios_value_choice(const cJSON *v, const char *const *choices, const char *what, const char *file, const char *field,
                     int *index) {
  for (int i = 0; cJSON_IsString(v) && choices[i] != NULL; i++)
    if (strcmp(v->valuestring, choices[i]) == 0) {
      *index = i;
      return IOS_OK;
    }
  char need[768] = "";
  size_t len = 0;
  for (int i = 0; choices[i] != NULL && len < sizeof need; i++)
    len += (size_t)snprintf(need + len, sizeof need - len, "%s\"%s\"",
                            i == 0           ? ""
                            : choices[i + 1] ? ", "
                                             : " or ",
                            choices[i]);
  if (what != NULL && len < sizeof need) snprintf(need + len, sizeof need - len, " — %s", what);
  return wrong(v, need, file, field);
}

int ios_value_bool(const cJSON *v, const char *file, const char *field, int *out) {
  if (!cJSON_IsBool(v)) return wrong(v, "true or false", file, field);
  *out = cJSON_IsTrue(v);
  return IOS_OK;
}

int ios_value_object(const cJSON *v, const char *example, const char *file, const char *field) {
  if (cJSON_IsObject(v)) return IOS_OK;
  char need[512];
  snprintf(need, sizeof need, "an object%s%s", example != NULL ? ", e.g. " : "", example != NULL ? example : "");
  return wrong(v, need, file, field);
}

cJSON *ios_value_from_cli(const char *text) {
  cJSON *v = cJSON_ParseWithOpts(text, NULL, 1);
  return v != NULL ? v : cJSON_CreateString(text);
}

int ios_value_check_keys(const cJSON *obj, const char *const *valid, int n, const char *file, const char *field) {
  const cJSON *item;
  cJSON_ArrayForEach(item, obj) {
    int ok = 0;
    for (int k = 0; (n < 0 ? valid[k] != NULL : k < n) && !ok; k++)
      ok = strcmp(item->string, valid[k]) == 0;
    if (ok) continue;
    char list[512] = "";
    size_t len = 0;
    for (int k = 0; (n < 0 ? valid[k] != NULL : k < n) && len < sizeof list; k++)
      len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", k ? ", " : "", valid[k]);
    ios_diag_set(file, field, "unknown field '%s'; valid fields are: %s", item->string, list);
    return IOS_EINVAL;
  }
  return IOS_OK;
}
