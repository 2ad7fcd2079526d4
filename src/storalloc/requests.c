/* iosim — request traces of StorAlloc runs (see ios_storalloc_requests.h, docs/storalloc.md): the CSV reader
 * (StorAlloc's Theta extraction names or iosim's, times in seconds or UTC dates, §5.1's capacity = max(read,
 * written)) and the writer it reads back. */
#include "requests_internal.h"
#include "ios_csv.h"
#include "ios_diag.h"
#include "ios_fs.h"
#include "ios_scenario.h"
#include "ios_units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
