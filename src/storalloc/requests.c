/* iosim — the inputs of StorAlloc runs: platform and options from JSON, request traces, the TOKIO-shaped year of
 * requests (see ios_storalloc_requests.h, docs/storalloc.md). */
#include "ios_storalloc_requests.h"
#include "ios_datasets.h"
#include "ios_csv.h"
#include "ios_diag.h"
#include "ios_gen.h"
#include "ios_scenario.h"
#include "ios_units.h"
#include "ios_value.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REQUESTS 10000000
#define MAX_COLS 64

/* ---------------------------------------------------------------- JSON values */

/* "obj.field" into buf. */
static const char *at(char *buf, size_t n, const char *obj, const char *field) {
  if (snprintf(buf, n, "%s%s%s", obj != NULL ? obj : "", obj != NULL && field != NULL ? "." : "", field ? field : "") <
      0)
    buf[0] = '\0';
  return buf;
}

static void text_of(const cJSON *v, char *buf, size_t n) {
  char *s = cJSON_PrintUnformatted(v);
  snprintf(buf, n, "%s", s != NULL ? s : "?");
  free(s);
}

/* A number (in the base unit) or a string with units, parsed by `parse`; >= 0. */
static int json_quantity(const cJSON *v, int (*parse)(const char *, double *), const char *file, const char *where,
                         const char *example, double *out) {
  double x = NAN;
  if (cJSON_IsNumber(v))
    x = v->valuedouble;
  else if (!cJSON_IsString(v) || parse(v->valuestring, &x) != IOS_OK)
    x = NAN;
  if (!(x >= 0) || !isfinite(x)) {
    char text[64];
    text_of(v, text, sizeof text);
    ios_diag_set(file, where, "is %s: give a number >= 0 in base units or a string with units, e.g. %s", text, example);
    return IOS_EINVAL;
  }
  *out = x;
  return IOS_OK;
}

/* ---------------------------------------------------------------- platform */

static int node_kind(const cJSON *n, const char *file, const char *where, ios_storage_t *s) {
  static const char *const valid[] = {"name",          "count",   "bandwidth", "disks",
                                      "disk_capacity", "read_bw", "write_bw",  NULL};
  char w[160];
  if (!cJSON_IsObject(n)) {
    ios_diag_set(file, where,
                 "must be an object like {\"count\": 2, \"disks\": 5, \"disk_capacity\": \"1.6TB\", "
                 "\"write_bw\": \"2.93GB/s\", \"bandwidth\": \"200Gbps\"}");
    return IOS_EINVAL;
  }
  if (ios_value_check_keys(n, valid, -1, file, where) != IOS_OK) return IOS_EINVAL;
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(n, "name"),
              *count = cJSON_GetObjectItemCaseSensitive(n, "count"),
              *disks = cJSON_GetObjectItemCaseSensitive(n, "disks");
  double cnt = 1, nd = 1, bw = INFINITY, cap = 0, rbw = 0, wbw = 0;
  if (name != NULL && !cJSON_IsString(name)) {
    ios_diag_set(file, at(w, sizeof w, where, "name"), "must be a string (e.g. \"ssd\")");
    return IOS_EINVAL;
  }
  if (count != NULL) cnt = cJSON_IsNumber(count) ? count->valuedouble : NAN;
  if (disks != NULL) nd = cJSON_IsNumber(disks) ? disks->valuedouble : NAN;
  if (!(cnt >= 1 && cnt <= 100000 && cnt == floor(cnt)) || !(nd >= 1 && nd <= 100000 && nd == floor(nd))) {
    ios_diag_set(file, at(w, sizeof w, where, count != NULL && !(cnt >= 1) ? "count" : "disks"),
                 "must be an integer in [1, 100000] (nodes of this kind; disks per node)");
    return IOS_EINVAL;
  }
  if (cnt * nd > 1000000) {
    ios_diag_set(file, at(w, sizeof w, where, "disks"),
                 "is %g with count %g: %g disks of one kind, more than 1000000; lower count or disks", nd, cnt,
                 cnt * nd);
    return IOS_EINVAL;
  }
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(n, "bandwidth");
  if (v != NULL &&
      json_quantity(v, ios_parse_bandwidth, file, at(w, sizeof w, where, "bandwidth"), "\"200Gbps\"", &bw) != IOS_OK)
    return IOS_EINVAL;
  v = cJSON_GetObjectItemCaseSensitive(n, "disk_capacity");
  if (v == NULL) {
    ios_diag_set(file, at(w, sizeof w, where, "disk_capacity"), "is missing: give each disk's size, e.g. \"1.6TB\"");
    return IOS_EINVAL;
  }
  if (json_quantity(v, ios_parse_bytes, file, at(w, sizeof w, where, "disk_capacity"), "\"1.6TB\"", &cap) != IOS_OK)
    return IOS_EINVAL;
  v = cJSON_GetObjectItemCaseSensitive(n, "write_bw");
  if (v == NULL) {
    ios_diag_set(file, at(w, sizeof w, where, "write_bw"), "is missing: give each disk's bandwidth, e.g. \"2.93GB/s\"");
    return IOS_EINVAL;
  }
  if (json_quantity(v, ios_parse_bandwidth, file, at(w, sizeof w, where, "write_bw"), "\"2.93GB/s\"", &wbw) != IOS_OK)
    return IOS_EINVAL;
  rbw = wbw;
  v = cJSON_GetObjectItemCaseSensitive(n, "read_bw");
  if (v != NULL &&
      json_quantity(v, ios_parse_bandwidth, file, at(w, sizeof w, where, "read_bw"), "\"3.13GB/s\"", &rbw) != IOS_OK)
    return IOS_EINVAL;
  if (!(cap > 0) || !(wbw > 0) || !(rbw > 0) || !(bw > 0)) {
    ios_diag_set(file, where, "disk_capacity, read_bw, write_bw and bandwidth must be positive");
    return IOS_EINVAL;
  }
  for (int i = 0; i < (int)cnt; i++) {
    char label[32];
    const char *base = name != NULL ? name->valuestring : "node";
    if (cnt > 1)
      snprintf(label, sizeof label, "%.20s%d", base, i);
    else
      snprintf(label, sizeof label, "%.31s", base);
    int rc = ios_storage_add_node(s, label, bw, (int)nd, cap, rbw, wbw);
    if (rc != IOS_OK) return rc;
  }
  return IOS_OK;
}

int ios_storage_from_json(const cJSON *j, const char *file, const char *obj, ios_storage_t *out) {
  static const char *const valid[] = {"preset", "capacity", "nodes", NULL};
  char w[160];
  if (out == NULL || out->nnodes != 0) return IOS_EINVAL;
  if (!cJSON_IsObject(j)) {
    ios_diag_set(file, obj, "must be an object: {\"preset\": \"nNnD\", \"capacity\": \"32TB\"} or {\"nodes\": [...]}");
    return IOS_EINVAL;
  }
  if (ios_value_check_keys(j, valid, -1, file, obj) != IOS_OK) return IOS_EINVAL;
  const cJSON *preset = cJSON_GetObjectItemCaseSensitive(j, "preset"),
              *nodes = cJSON_GetObjectItemCaseSensitive(j, "nodes"),
              *capacity = cJSON_GetObjectItemCaseSensitive(j, "capacity");
  if ((preset == NULL) == (nodes == NULL) || (nodes != NULL && capacity != NULL)) {
    ios_diag_set(file, obj, "give either \"preset\" (with \"capacity\") or \"nodes\", not both");
    return IOS_EINVAL;
  }
  ios_storage_t s = {0, 0, NULL, NULL};
  int rc = IOS_OK;
  if (preset != NULL) {
    double total = 0;
    if (capacity != NULL &&
        json_quantity(capacity, ios_parse_bytes, file, at(w, sizeof w, obj, "capacity"), "\"32TB\"", &total) != IOS_OK)
      return IOS_EINVAL;
    rc = cJSON_IsString(preset) ? ios_storage_preset(preset->valuestring, total, &s) : IOS_EINVAL;
    if (rc == IOS_EINVAL) {
      char text[64];
      text_of(preset, text, sizeof text);
      ios_diag_set(file, at(w, sizeof w, obj, "preset"),
                   "is %s with capacity %g bytes: give 1N1D, 1NnD, nN1D or nNnD with a positive \"capacity\" (e.g. "
                   "\"32TB\"; StorAlloc: 8, 16, 32, 64 TB), or table5 (32 TB, no capacity)",
                   text, total);
    }
    if (rc != IOS_OK) return rc;
  } else {
    if (!cJSON_IsArray(nodes) || cJSON_GetArraySize(nodes) < 1) {
      ios_diag_set(file, at(w, sizeof w, obj, "nodes"), "must be a non-empty array of node kinds");
      return IOS_EINVAL;
    }
    int k = 0;
    const cJSON *n;
    cJSON_ArrayForEach(n, nodes) {
      snprintf(w, sizeof w, "%s.nodes[%d]", obj != NULL ? obj : "", k++);
      if ((rc = node_kind(n, file, w, &s)) != IOS_OK) break;
    }
    if (rc != IOS_OK) {
      ios_storage_free(&s);
      return rc;
    }
  }
  *out = s;
  return IOS_OK;
}

/* ---------------------------------------------------------------- options */

/* Reads "params" (`v`), the parameters of the policy x->policy, into x->params. */
static int options_params(const cJSON *v, const char *file, const char *obj, ios_storalloc_options_t *x) {
  char w[160];
  if (!cJSON_IsObject(v)) {
    ios_diag_set(file, at(w, sizeof w, obj, "params"), "must be an object of %s's parameters", x->policy->name);
    return IOS_EINVAL;
  }
  const cJSON *p;
  cJSON_ArrayForEach(p, v) {
    int k = 0;
    while (k < x->policy->nparams && strcmp(x->policy->params[k].name, p->string) != 0)
      k++;
    snprintf(w, sizeof w, "%s.params.%s", obj != NULL ? obj : "", p->string);
    if (k == x->policy->nparams) {
      ios_diag_set(file, w, "unknown parameter: %s takes %s", x->policy->name,
                   x->policy->nparams > 0 ? x->policy->params[0].name : "no parameter");
      return IOS_EINVAL;
    }
    const ios_param_spec_t *ps = &x->policy->params[k];
    ios_num_spec_t spec = {0, 1e300, 0, ps->integer, IOS_UNIT_NONE, ps->description};
    if (ps->lo < ps->hi) {
      spec.lo = ps->lo;
      spec.hi = ps->hi;
    }
    if (ios_value_number(p, &spec, file, w, &x->params.v[k]) != IOS_OK) return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Reads "split" (`v`): a boolean or {"threshold": SIZE}, into x->split and x->split_threshold. */
static int options_split(const cJSON *v, const char *file, const char *obj, ios_storalloc_options_t *x) {
  static const char *const split_valid[] = {"threshold", "parts", NULL};
  char w[160];
  at(w, sizeof w, obj, "split");
  if (cJSON_IsBool(v))
    x->split = cJSON_IsTrue(v);
  else if (cJSON_IsObject(v) && ios_value_check_keys(v, split_valid, -1, file, w) == IOS_OK) {
    x->split = 1;
    const cJSON *pp = cJSON_GetObjectItemCaseSensitive(v, "parts");
    static const char *const parts[] = {"independent", "all", NULL};
    if (pp != NULL && ios_value_choice(pp, parts,
                                       "\"independent\": StorAlloc, each part is its own request and a split "
                                       "request may be partly allocated; \"all\": all parts or none",
                                       file, at(w, sizeof w, obj, "split.parts"), &x->split_all) != IOS_OK)
      return IOS_EINVAL;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(v, "threshold");
    if (t != NULL && (json_quantity(t, ios_parse_bytes, file, at(w, sizeof w, obj, "split.threshold"), "\"200GB\"",
                                    &x->split_threshold) != IOS_OK ||
                      !(x->split_threshold > 0))) {
      ios_diag_set(file, w, "must be a positive size (StorAlloc: \"200GB\")");
      return IOS_EINVAL;
    }
  } else {
    ios_diag_set(file, w, "must be false, true or {\"threshold\": \"200GB\", \"parts\": \"independent\"}");
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Reads "requeue" (`v`): a boolean or {"retries": N, "interval": DURATION}, into x. */
static int options_requeue(const cJSON *v, const char *file, const char *obj, ios_storalloc_options_t *x) {
  static const char *const requeue_valid[] = {"retries", "interval", "window", NULL};
  char w[160];
  at(w, sizeof w, obj, "requeue");
  if (cJSON_IsBool(v))
    x->requeue = cJSON_IsTrue(v);
  else if (cJSON_IsObject(v) && ios_value_check_keys(v, requeue_valid, -1, file, w) == IOS_OK) {
    x->requeue = 1;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(v, "retries"),
                *t = cJSON_GetObjectItemCaseSensitive(v, "interval");
    if (r != NULL) {
      double n = cJSON_IsNumber(r) ? r->valuedouble : NAN;
      if (!(n >= 0 && n <= 1000000 && n == floor(n))) {
        ios_diag_set(file, at(w, sizeof w, obj, "requeue.retries"),
                     "must be an integer in [0, 1000000] (StorAlloc: 5)");
        return IOS_EINVAL;
      }
      x->retries = (int)n;
    }
    const cJSON *win = cJSON_GetObjectItemCaseSensitive(v, "window");
    static const char *const windows[] = {"end", "duration", NULL};
    if (win != NULL && ios_value_choice(win, windows,
                                        "\"end\": StorAlloc Table 2, a retry postpones the start and the window "
                                        "still ends where it was asked to; \"duration\": the window keeps its length",
                                        file, at(w, sizeof w, obj, "requeue.window"), &x->requeue_window) != IOS_OK)
      return IOS_EINVAL;
    if (t != NULL && (json_quantity(t, ios_parse_duration, file, at(w, sizeof w, obj, "requeue.interval"), "\"5min\"",
                                    &x->interval) != IOS_OK ||
                      !(x->interval > 0))) {
      ios_diag_set(file, w, "must be a positive duration (StorAlloc: \"5min\")");
      return IOS_EINVAL;
    }
  } else {
    ios_diag_set(file, w, "must be false, true or {\"retries\": 5, \"interval\": \"5min\"}");
    return IOS_EINVAL;
  }
  return IOS_OK;
}

int ios_storalloc_options_from_json(const cJSON *j, const char *file, const char *obj, ios_storalloc_options_t *o) {
  static const char *const valid[] = {"policy", "params", "split", "requeue", "seed", "decide", NULL};
  char w[160], text[64];
  if (o == NULL) return IOS_EINVAL;
  if (!cJSON_IsObject(j)) {
    ios_diag_set(file, obj, "must be an object like {\"policy\": \"best-bandwidth\", \"split\": true}");
    return IOS_EINVAL;
  }
  if (ios_value_check_keys(j, valid, -1, file, obj) != IOS_OK) return IOS_EINVAL;
  ios_storalloc_options_t x = *o;
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "policy");
  if (v != NULL && (!cJSON_IsString(v) || ios_storalloc_options_policy(&x, v->valuestring) != IOS_OK)) {
    text_of(v, text, sizeof text);
    ios_diag_set(file, at(w, sizeof w, obj, "policy"),
                 "is %s: give random, round-robin, worst-fit or best-bandwidth (StorAlloc §4.2)", text);
    return IOS_EINVAL;
  }
  if ((v = cJSON_GetObjectItemCaseSensitive(j, "params")) != NULL && options_params(v, file, obj, &x) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(j, "split")) != NULL && options_split(v, file, obj, &x) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(j, "requeue")) != NULL && options_requeue(v, file, obj, &x) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(j, "decide")) != NULL) {
    int st = cJSON_IsString(v) ? (strcmp(v->valuestring, "start") == 0        ? 1
                                  : strcmp(v->valuestring, "submission") == 0 ? 0
                                                                              : -1)
                               : -1;
    if (st < 0) {
      text_of(v, text, sizeof text);
      ios_diag_set(file, at(w, sizeof w, obj, "decide"),
                   "is %s: give \"submission\" (StorAlloc §4.2, §4.4: decided when submitted on the scheduler's "
                   "catalogue, then replayed, Fig. 7 failures) or \"start\" (decided at its start on the exact state)",
                   text);
      return IOS_EINVAL;
    }
    x.decide_start = st;
  }
  if ((v = cJSON_GetObjectItemCaseSensitive(j, "seed")) != NULL) {
    double s = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (!(s >= 0 && s <= 9007199254740992.0 && s == floor(s))) {
      ios_diag_set(file, at(w, sizeof w, obj, "seed"), "must be an integer >= 0");
      return IOS_EINVAL;
    }
    x.seed = (uint64_t)s;
  }
  *o = x;
  return IOS_OK;
}

/* ---------------------------------------------------------------- CSV */

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
static long days_from_civil(long y, long m, long d) {
  y -= m <= 2;
  long era = (y >= 0 ? y : y - 399) / 400, yoe = y - era * 400;
  long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1, doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

/* Seconds, or "YYYY-MM-DD HH:MM:SS[.frac]" (also with 'T') as UTC seconds since 1970. */
static int parse_time(const char *s, double *out) {
  char *end;
  double x = strtod(s, &end);
  if (end != s && *end == '\0' && isfinite(x)) {
    *out = x;
    return IOS_OK;
  }
  int y, mo, d, h, mi, used = 0;
  double sec;
  char sep;
  if (sscanf(s, "%4d-%2d-%2d%c%2d:%2d:%lf%n", &y, &mo, &d, &sep, &h, &mi, &sec, &used) != 7 || s[used] != '\0' ||
      (sep != ' ' && sep != 'T') || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 ||
      !(sec >= 0 && sec < 61))
    return IOS_EINVAL;
  *out = days_from_civil(y, mo, d) * 86400.0 + h * 3600.0 + mi * 60.0 + sec;
  return IOS_OK;
}

enum { C_ID, C_NODES, C_SUBMIT, C_START, C_END, C_READ, C_WRITTEN, C_RUNTIME, C_BW, NCOLS };

static const char *const col_names[NCOLS][2] = {
    {"id", "id"},
    {"nodes", "nodesUsed"},
    {"submission_time", "submissionTime"},
    {"start_time", "startTime"},
    {"end_time", "endTime"},
    {"read_bytes", "readBytes"},
    {"written_bytes", "writtenBytes"},
    {"runtime", "runTime"},
    {"bandwidth", "bandwidth_Bps"},
};

/* Parses field c of a row: time columns (submission, start, end), byte columns, runtime, bandwidth, id, nodes. */
static int parse_field(int c, const char *text, double *out) {
  if (c == C_SUBMIT || c == C_START || c == C_END) return parse_time(text, out);
  if (c == C_READ || c == C_WRITTEN) return ios_parse_bytes(text, out);
  if (c == C_RUNTIME) return ios_parse_duration(text, out);
  if (c == C_BW) return ios_parse_bandwidth(text, out);
  char *end;
  *out = strtod(text, &end);
  return end != text && *end == '\0' && isfinite(*out) && *out == floor(*out) && fabs(*out) < 9e15 ? IOS_OK
                                                                                                   : IOS_EINVAL;
}

/* A request trace being read: its path, each field's column (-1: absent), the requests kept and skipped. */
typedef struct {
  const char *path;
  int idx[NCOLS], count, room, skip;
  ios_request_t *req;
} trace_t;

/* Finds the columns of the header line `fields` (nf of them); a trace needs id, the bytes, a start and an end. */
static int trace_header(trace_t *t, char **fields, int nf) {
  int *idx = t->idx;
  for (int c = 0; c < NCOLS; c++) {
    idx[c] = -1;
    for (int i = 0; i < nf; i++)
      if (strcmp(fields[i], col_names[c][0]) == 0 || strcmp(fields[i], col_names[c][1]) == 0) idx[c] = i;
  }
  const char *missing = idx[C_ID] < 0                           ? "id"
                        : idx[C_READ] < 0                       ? "read_bytes"
                        : idx[C_WRITTEN] < 0                    ? "written_bytes"
                        : idx[C_START] < 0 && idx[C_SUBMIT] < 0 ? "start_time (or submission_time)"
                        : idx[C_END] < 0 && idx[C_RUNTIME] < 0  ? "end_time (or runtime)"
                                                                : NULL;
  if (missing != NULL) {
    ios_diag_set(t->path, "line 1",
                 "the header has no column %s: a trace needs id, read_bytes, written_bytes, "
                 "start_time and end_time (or StorAlloc's names readBytes, writtenBytes, startTime, endTime)",
                 missing);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Parses the fields of row `lineno` into v (NAN when absent) and has (whether given and not empty). */
static int trace_fields(const trace_t *t, char **fields, int nf, int lineno, double v[NCOLS], int has[NCOLS]) {
  const int *idx = t->idx;
  for (int c = 0; c < NCOLS; c++) {
    has[c] = idx[c] >= 0 && idx[c] < nf && fields[idx[c]][0] != '\0';
    v[c] = NAN;
    if (!has[c]) continue;
    if (parse_field(c, fields[idx[c]], &v[c]) != IOS_OK || ((c == C_NODES || c == C_RUNTIME) && v[c] < 0)) {
      char where[96];
      snprintf(where, sizeof where, "line %d, column %s", lineno, col_names[c][0]);
      ios_diag_set(t->path, where, "is '%s': expected %s", fields[idx[c]],
                   c <= C_NODES     ? "an integer"
                   : c <= C_END     ? "seconds or a date \"YYYY-MM-DD HH:MM:SS\""
                   : c <= C_WRITTEN ? "bytes (a number >= 0 or a size like 12GB)"
                   : c == C_RUNTIME ? "seconds"
                                    : "bytes/s");
      return IOS_EINVAL;
    }
  }
  return IOS_OK;
}

/* Doubles the room for requests (1024 at first), up to MAX_REQUESTS (`where`: the row, for the message). */
static int trace_grow(trace_t *t, const char *where) {
  t->room = t->room ? 2 * t->room : 1024;
  ios_request_t *more = t->count < MAX_REQUESTS ? realloc(t->req, sizeof *more * (size_t)t->room) : NULL;
  if (more == NULL) {
    int rc = t->count < MAX_REQUESTS ? IOS_ENOMEM : IOS_EINVAL;
    if (rc == IOS_EINVAL) ios_diag_set(t->path, where, "more than %d requests: split the trace", MAX_REQUESTS);
    return rc;
  }
  t->req = more;
  return IOS_OK;
}

/* Reads the data row `lineno` (fields, nf of them) as one request, or skips it when it moves no byte. */
static int trace_row(trace_t *t, char **fields, int nf, int lineno) {
  double v[NCOLS];
  int has[NCOLS];
  if (trace_fields(t, fields, nf, lineno, v, has) != IOS_OK) return IOS_EINVAL;
  int s = has[C_START] ? C_START : C_SUBMIT;
  double start = v[s], duration = has[C_END] && has[s] ? v[C_END] - start : v[C_RUNTIME];
  char where[96];
  snprintf(where, sizeof where, "line %d", lineno);
  if (!has[C_ID] || !has[C_READ] || !has[C_WRITTEN] || !has[s] || !(duration >= 0)) {
    ios_diag_set(t->path, where,
                 "needs id, read_bytes, written_bytes, a start time and an end time after it (or a "
                 "runtime >= 0)");
    return IOS_EINVAL;
  }
  double capacity = fmax(v[C_READ], v[C_WRITTEN]);
  if (!(capacity > 0)) {
    t->skip++;
    return IOS_OK;
  }
  int rc;
  if (t->count == t->room && (rc = trace_grow(t, where)) != IOS_OK) return rc;
  t->req[t->count++] = (ios_request_t){(long)v[C_ID],
                                       start,
                                       capacity,
                                       duration,
                                       has[C_BW] ? v[C_BW] : 0,
                                       has[C_NODES] ? (int)fmin(v[C_NODES], 2e9) : 0,
                                       v[C_READ],
                                       v[C_WRITTEN]};
  return IOS_OK;
}

int ios_storalloc_read_trace(const char *path, ios_request_t **out, int *n, int *skipped) {
  if (path == NULL || out == NULL || n == NULL) return IOS_EINVAL;
  FILE *f = ios_open_input(path);
  if (f == NULL) {
    ios_diag_set(path, NULL, "cannot read the request trace (%s): check the path", strerror(errno));
    return IOS_EIO;
  }
  char *line = NULL, *fields[MAX_COLS];
  size_t cap = 0;
  int lineno = 0, rc = IOS_OK, header = 0;
  trace_t t = {.path = path};
  while (rc == IOS_OK && getline(&line, &cap, f) != -1) {
    lineno++;
    int nf = ios_csv_split(line, fields, MAX_COLS);
    if (nf == 1 && fields[0][0] == '\0') continue;
    if (!header) {
      header = 1;
      rc = trace_header(&t, fields, nf);
      continue;
    }
    rc = trace_row(&t, fields, nf, lineno);
  }
  free(line);
  fclose(f);
  if (rc == IOS_OK && !header) {
    ios_diag_set(path, NULL, "is empty: a trace starts with a header line (id,start_time,end_time,read_bytes,...)");
    rc = IOS_EINVAL;
  }
  if (rc != IOS_OK) {
    free(t.req);
    return rc;
  }
  *out = t.req;
  *n = t.count;
  if (skipped != NULL) *skipped = t.skip;
  return IOS_OK;
}

int ios_storalloc_write_trace(const char *path, const ios_request_t *req, int n) {
  if (path == NULL || n < 0 || (n > 0 && req == NULL)) return IOS_EINVAL;
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    ios_diag_set(path, NULL, "cannot write the trace (%s): check the directory", strerror(errno));
    return IOS_EIO;
  }
  fprintf(f, "id,nodes,submission_time,start_time,end_time,read_bytes,written_bytes,runtime,bandwidth\n");
  char t[40], e[40], r[40], w[40], d[40], b[40];
  for (int i = 0; i < n; i++) {
    ios_fmt_double(t, sizeof t, req[i].submit);
    ios_fmt_double(e, sizeof e, req[i].submit + req[i].duration);
    ios_fmt_double(r, sizeof r, req[i].read_bytes);
    ios_fmt_double(w, sizeof w, req[i].written_bytes);
    ios_fmt_double(d, sizeof d, req[i].duration);
    ios_fmt_double(b, sizeof b, req[i].bandwidth);
    fprintf(f, "%ld,%d,%s,%s,%s,%s,%s,%s,%s\n", req[i].id, req[i].nodes, t, t, e, r, w, d, b);
  }
  if (ferror(f) | fclose(f)) {
    ios_diag_set(path, NULL, "write error: check the disk space");
    return IOS_EIO;
  }
  return IOS_OK;
}

/* ---------------------------------------------------------------- the generator */

enum {
  P_REQUESTS,
  P_DAYS,
  P_SIZE,
  P_DURATION,
  P_JITTER,
  P_BW,
  P_CORES,
  P_MIN,
  P_MAX,
  P_SUM,
  P_TAIL_FROM,
  P_TAIL_SHARE,
  P_DUR_MEAN,
  P_DUR_SIGMA,
  NPARAMS
};

static const ios_gen_param_t gen_params[NPARAMS] = {
    {"requests", 24000, 1, MAX_REQUESTS, 0, 1, "requests in the span (StorAlloc §5.1: about 24,000 in a year)"},
    {"days", 365, 0, 36500, 1, 0, "the span in days"},
    {"size_scale", 1, 0, 1e6, 1, 0, "multiplies the TOKIO jobs' read and written bytes"},
    {"duration_scale", 1, 0, 1e6, 1, 0, "multiplies the TOKIO jobs' walltimes"},
    {"jitter", 0.3, 0, 3, 0, 0, "σ of the log-normal factors on each request's bytes and duration"},
    {"bandwidth", 0, 0, 1, 0, 1, "1: each request needs its job's measured bandwidth (agg_perf_MiBps, scaled)"},
    {"cores_per_node", 32, 1, 1e6, 0, 0, "nodes = ceil(nprocs / cores_per_node)"},
    {"min_size", 1e10, 0, 1e18, 1, 0, "shape theta: smallest capacity in bytes (StorAlloc §5.1: >= 10 GB)"},
    {"max_size", 32e12, 0, 1e18, 1, 0, "shape theta: largest capacity in bytes (§5.2: never more than 32 TB at once)"},
    {"sum_cap", 1.6e15, 0, 1e21, 1, 0, "shape theta: expected sum of the capacities in bytes (§5.2: 1.6 PB)"},
    {"tail_from", 8e12, 0, 1e18, 1, 0, "shape theta: the tail's lower bound in bytes (8 TB, Table 4's largest disk)"},
    {"tail_share", 0.4, 0, 0.99, 0, 0, "shape theta: share of sum_cap in the tail (Fig. 4: about 40 %)"},
    {"duration_mean", 9650, 0, 1e9, 1, 0, "shape theta: mean duration in s (§5.2: 1.53 % mean use of 32 TB)"},
    {"duration_sigma", 1, 0, 5, 0, 0, "shape theta: σ of the log-normal durations (an assumption)"},
};
static const char *const gen_strings[] = {"data", "shape", NULL};

void ios_storalloc_gen_default(ios_storalloc_gen_t *g) {
  if (g == NULL) return;
  memset(g, 0, sizeof *g);
  g->requests = 24000;
  g->days = 365;
  g->size_scale = g->duration_scale = 1;
  g->jitter = 0.3;
  g->bandwidth = 0;
  g->cores_per_node = 32;
  g->min_size = gen_params[P_MIN].def;
  g->max_size = gen_params[P_MAX].def;
  g->sum_cap = gen_params[P_SUM].def;
  g->tail_from = gen_params[P_TAIL_FROM].def;
  g->tail_share = gen_params[P_TAIL_SHARE].def;
  g->duration_mean = gen_params[P_DUR_MEAN].def;
  g->duration_sigma = gen_params[P_DUR_SIGMA].def;
}

int ios_storalloc_gen_from_json(const cJSON *j, const char *file, const char *obj, ios_storalloc_gen_t *g) {
  if (g == NULL) return IOS_EINVAL;
  ios_gen_ctx_t c = {file, obj != NULL ? obj : "generator", "."};
  double val[NPARAMS];
  char w[160];
  if (!cJSON_IsObject(j)) {
    ios_diag_set(file, c.obj, "must be an object like {\"kind\": \"storalloc\", \"requests\": 24000}");
    return IOS_EINVAL;
  }
  if (ios_gen_read_params(j, &c, "storalloc", gen_params, NPARAMS, gen_strings, val) != IOS_OK) return IOS_EINVAL;
  const cJSON *data = cJSON_GetObjectItemCaseSensitive(j, "data");
  if (data != NULL && (!cJSON_IsString(data) || strlen(data->valuestring) >= sizeof g->data)) {
    ios_diag_set(file, at(w, sizeof w, c.obj, "data"), "must be the path of tokio_abc_jobs_slim.csv (a string)");
    return IOS_EINVAL;
  }
  const cJSON *shape = cJSON_GetObjectItemCaseSensitive(j, "shape");
  if (shape != NULL && (!cJSON_IsString(shape) ||
                        (strcmp(shape->valuestring, "tokio") != 0 && strcmp(shape->valuestring, "theta") != 0))) {
    char v[64];
    text_of(shape, v, sizeof v);
    ios_diag_set(file, at(w, sizeof w, c.obj, "shape"),
                 "is %s: give \"tokio\" (TOKIO-ABC jobs, the default) or \"theta\" (calibrated to StorAlloc's Theta "
                 "2020 statistics)",
                 v);
    return IOS_EINVAL;
  }
  ios_storalloc_gen_t x = *g;
  x.theta = shape != NULL && strcmp(shape->valuestring, "theta") == 0;
  x.min_size = val[P_MIN];
  x.max_size = val[P_MAX];
  x.sum_cap = val[P_SUM];
  x.tail_from = val[P_TAIL_FROM];
  x.tail_share = val[P_TAIL_SHARE];
  x.duration_mean = val[P_DUR_MEAN];
  x.duration_sigma = val[P_DUR_SIGMA];
  x.requests = (int)val[P_REQUESTS];
  x.days = val[P_DAYS];
  x.size_scale = val[P_SIZE];
  x.duration_scale = val[P_DURATION];
  x.jitter = val[P_JITTER];
  x.bandwidth = (int)val[P_BW];
  x.cores_per_node = val[P_CORES];
  if (data != NULL) snprintf(x.data, sizeof x.data, "%s", data->valuestring);
  *g = x;
  return IOS_OK;
}

void ios_storalloc_arrivals(ios_rng_t *rng, int n, double span, double *times) {
  for (int i = 0; i < n; i++)
    times[i] = ios_rng_uniform(rng) * span;
  qsort(times, (size_t)n, sizeof *times, ios_gen_cmp_double);
}

/* One TOKIO job: what a request copies. */
typedef struct {
  double nprocs, walltime, read, written, bw;
} tokio_job_t;

static int load_tokio(const char *path, tokio_job_t **out, int *n) {
  static const char *const cols[] = {"nprocs", "walltime_s", "bytes_read", "bytes_written", "agg_perf_MiBps"};
  FILE *f = ios_open_dataset(path, "generator.data", "TOKIO-ABC job summaries", "tokio-abc");
  if (f == NULL) return IOS_EIO;
  char *line = NULL, *fields[MAX_COLS];
  size_t cap = 0;
  int idx[5], lineno = 0, count = 0, room = 0, rc = IOS_OK;
  tokio_job_t *jobs = NULL;
  while (rc == IOS_OK && getline(&line, &cap, f) != -1) {
    int nf = ios_csv_split(line, fields, MAX_COLS);
    if (lineno++ == 0) {
      for (int k = 0; k < 5 && rc == IOS_OK; k++) {
        idx[k] = -1;
        for (int i = 0; i < nf; i++)
          if (strcmp(fields[i], cols[k]) == 0) idx[k] = i;
        if (idx[k] < 0) {
          ios_diag_set(path, "line 1", "has no column '%s': is this tokio_abc_jobs_slim.csv?", cols[k]);
          rc = IOS_EINVAL;
        }
      }
      continue;
    }
    double v[5];
    int ok = 1;
    for (int k = 0; k < 5; k++) {
      char *end;
      v[k] = idx[k] < nf ? strtod(fields[idx[k]], &end) : NAN;
      ok &= idx[k] < nf && end != fields[idx[k]] && *end == '\0' && v[k] >= 0 && isfinite(v[k]);
    }
    if (!ok || !(fmax(v[2], v[3]) > 0) || !(v[1] > 0)) continue; /* rows without Darshan bytes */
    if (count == room) {
      room = room ? 2 * room : 4096;
      tokio_job_t *more = realloc(jobs, sizeof *more * (size_t)room);
      if (more == NULL) {
        rc = IOS_ENOMEM;
        break;
      }
      jobs = more;
    }
    jobs[count++] = (tokio_job_t){fmax(v[0], 1), v[1], v[2], v[3], v[4] * 1048576.0};
  }
  free(line);
  fclose(f);
  if (rc == IOS_OK && count == 0) {
    ios_diag_set(path, NULL, "holds no job with bytes and a walltime");
    rc = IOS_EINVAL;
  }
  if (rc != IOS_OK) {
    free(jobs);
    return rc;
  }
  *out = jobs;
  *n = count;
  return IOS_OK;
}

int ios_storalloc_generate(const ios_storalloc_gen_t *g, uint64_t seed, ios_request_t **out, int *n) {
  if (g == NULL || out == NULL || n == NULL) return IOS_EINVAL;
  if (g->theta) return ios_storalloc_generate_theta(g, seed, out, n);
  if (g->requests < 1 || g->requests > MAX_REQUESTS || !(g->days > 0) || !(g->size_scale > 0) ||
      !(g->duration_scale > 0) || !(g->jitter >= 0) || !(g->cores_per_node >= 1) || !isfinite(g->days) ||
      !isfinite(g->size_scale) || !isfinite(g->duration_scale) || !isfinite(g->jitter)) {
    ios_diag_set(NULL, "generator",
                 "requests %d, days %g, scales %g and %g, jitter %g, cores_per_node %g: give "
                 "requests in [1, %d], positive days and scales, jitter >= 0 and cores_per_node >= 1",
                 g->requests, g->days, g->size_scale, g->duration_scale, g->jitter, g->cores_per_node, MAX_REQUESTS);
    return IOS_EINVAL;
  }
  char *path = ios_expand_path(g->data[0] ? g->data : IOS_DATA_TOKIO, NULL, "generator.data");
  if (path == NULL) return IOS_EINVAL;
  tokio_job_t *jobs = NULL;
  int njobs = 0, rc = load_tokio(path, &jobs, &njobs);
  free(path);
  if (rc != IOS_OK) return rc;
  ios_request_t *req = malloc(sizeof *req * (size_t)g->requests);
  double *times = malloc(sizeof *times * (size_t)g->requests);
  if (req == NULL || times == NULL) {
    free(jobs);
    free(req);
    free(times);
    return IOS_ENOMEM;
  }
  ios_rng_t rng;
  ios_rng_seed(&rng, seed, IOS_STREAM_STORALLOC_GEN);
  ios_storalloc_arrivals(&rng, g->requests, g->days * 86400.0, times);
  for (int i = 0; i < g->requests; i++) {
    const tokio_job_t *j = &jobs[ios_rng_below(&rng, (uint64_t)njobs)];
    double fb = exp(g->jitter * ios_gen_normal(&rng)), fd = exp(g->jitter * ios_gen_normal(&rng));
    double rd = round(j->read * g->size_scale * fb), wr = round(j->written * g->size_scale * fb);
    if (fmax(rd, wr) < 1) { /* at least one byte of capacity */
      if (j->read >= j->written)
        rd = 1;
      else
        wr = 1;
    }
    req[i] = (ios_request_t){.id = i + 1,
                             .submit = times[i],
                             .capacity = fmax(rd, wr),
                             .duration = j->walltime * g->duration_scale * fd,
                             .bandwidth = g->bandwidth ? j->bw * g->size_scale / g->duration_scale * fb / fd : 0,
                             .nodes = (int)fmin(ceil(j->nprocs / g->cores_per_node), 2e9),
                             .read_bytes = rd,
                             .written_bytes = wr};
  }
  free(times);
  free(jobs);
  *out = req;
  *n = g->requests;
  return IOS_OK;
}
