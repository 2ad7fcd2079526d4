/* iosim — the run's traces: events.csv (output.events), else the compact timeline.bin that `iosim view` reads, and
 * allocations.csv, written through temporary files (see sim_traces.h, docs/engine.md; formats in docs/outputs.md). */
#include "sim_traces.h"

#include "ios_csv.h"
#include "ios_diag.h"
#include "ios_fs.h"
#include "ios_sink.h"
#include "ios_sg.h"
#include "ios_sg_platform.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/log.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_traces, iosim, "iosim traces (events.csv, allocations.csv)");

const char *sim_res_name(const ios_platform_t *p, int res) {
  return res < 0 ? p->pfs.name : p->res[res].name;
}

/* ---------------------------------------------------------------- timeline.bin (docs/outputs.md)
 * Without output.events, ev_out stages timeline.bin instead of events.csv: the same intervals in a compact binary form
 * (a fairshare RR-9502 window has 360,000 transfer segments: 1.1 s more as events.csv text, about 11 bytes and a few
 * ns each here; analysis/bench_view.py measures it). Header: the 8 bytes "IOSIMTL2", int32 napps, int32 nres, then
 * napps + nres + 1 names (the applications, the pool's resources, the PFS or "" without one), each as uint32 length
 * and bytes. Then records, each starting with an unsigned LEB128 varint h:
 *   h = 0: a date, double t follows: the end date of the next intervals, appended to the list of dates D;
 *   h = 1 + 4 app + kind (kind 0 work, 1 I/O operation, 2 transfer segment): an interval of application `app` that
 *     ends at the current date; a transfer has then varint r (its resource: index in the pool, nres = the PFS); all
 *     have varint d: d = 0 and a double follows (the start date), else the start is D[len(D) - d]; an I/O operation
 *     ends with double bytes (its volume), a transfer segment with float bytes (the bytes it moved).
 * Numbers in host byte order (little-endian on x86-64). */

#define TL_DATES 4096 /* a direct-mapped cache of recent dates and their index in D (a miss costs 8 bytes) */

/* The traces' state (engine_t.traces). */
struct sim_traces {
  ios_sink_t *sink;       /* the run's tables (ios_sink.h: files in the output directory) */
  ios_sink_table_t *ev_t; /* events (output.events), NULL when not written */
  ios_sink_table_t *al_t; /* allocations */
  ios_fs_staged_t ev_out; /* timeline.bin being written (no output.events); f NULL when not */
  int tl_on;              /* ev_out is timeline.bin */
  const char **tl_keys;   /* open-addressing table: a resource name pointer ... */
  int *tl_vals;           /* ... and its index */
  size_t tl_mask;         /* table size - 1 (a power of two) */
  const char *tl_last;    /* the last name looked up and its index (most rows repeat it) */
  int tl_last_code;
  double tl_now;  /* the current date */
  long tl_ndates; /* dates written (len(D)) */
  struct {
    double t;
    long k;
  } tl_dates[TL_DATES];
  /* Records go through this buffer: one fwrite per 64 KiB rather than per record. */
  unsigned char tl_buf[1 << 16];
  size_t tl_used;
};

int sim_traces_init(engine_t *e) {
  e->traces = calloc(1, sizeof *e->traces);
  return e->traces != NULL ? IOS_OK : IOS_ENOMEM;
}

static void tl_flush(struct sim_traces *T) {
  if (T->tl_used > 0 && T->ev_out.f != NULL) fwrite(T->tl_buf, 1, T->tl_used, T->ev_out.f);
  T->tl_used = 0;
}

static size_t tl_hash(uint64_t h) {
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return (size_t)(h ^ (h >> 32));
}

static size_t tl_slot(const struct sim_traces *T, const char *key) {
  return tl_hash((uint64_t)(uintptr_t)key) & T->tl_mask;
}

static size_t tl_date_slot(double t) {
  uint64_t bits;
  memcpy(&bits, &t, sizeof bits);
  return tl_hash(bits) & (TL_DATES - 1);
}

/* The code of resource name `name` (a pointer sim_res_name returned): its index, nres for the PFS, nres + 1 if
 * unknown (never seen: every transfer goes to a pool resource or the PFS). */
static int tl_code(struct sim_traces *T, const engine_t *e, const char *name) {
  if (name == T->tl_last) return T->tl_last_code;
  int code = e->nres + 1;
  for (size_t i = tl_slot(T, name); T->tl_keys[i] != NULL; i = (i + 1) & T->tl_mask)
    if (T->tl_keys[i] == name) {
      code = T->tl_vals[i];
      break;
    }
  T->tl_last = name;
  T->tl_last_code = code;
  return code;
}

static void tl_free(struct sim_traces *T) {
  free(T->tl_keys);
  free(T->tl_vals);
  T->tl_keys = NULL;
  T->tl_vals = NULL;
  T->tl_last = NULL;
  T->tl_on = 0;
}

static void tl_put(struct sim_traces *T, const char *name, int code) {
  if (name == NULL) return;
  size_t i = tl_slot(T, name);
  while (T->tl_keys[i] != NULL && T->tl_keys[i] != name)
    i = (i + 1) & T->tl_mask;
  T->tl_keys[i] = name;
  T->tl_vals[i] = code;
}

static void tl_name(FILE *f, const char *name) {
  uint32_t n = name != NULL ? (uint32_t)strlen(name) : 0;
  fwrite(&n, sizeof n, 1, f);
  if (n > 0) fwrite(name, 1, n, f);
}

/* Opens timeline.bin in T->ev_out and writes its header. */
static int tl_open(struct sim_traces *T, engine_t *e, const ios_sim_config_t *s) {
  tl_free(T);
  size_t size = 16;
  while (size < 2 * ((size_t)e->nres + 2))
    size *= 2;
  T->tl_mask = size - 1;
  T->tl_keys = calloc(size, sizeof *T->tl_keys);
  T->tl_vals = calloc(size, sizeof *T->tl_vals);
  if (T->tl_keys == NULL || T->tl_vals == NULL) {
    tl_free(T);
    return IOS_ENOMEM;
  }
  for (int i = 0; i < e->nres; i++)
    tl_put(T, e->p->res[i].name, i);
  if (e->p->has_pfs) tl_put(T, e->p->pfs.name, e->nres);
  for (int i = 0; i < TL_DATES; i++)
    T->tl_dates[i].k = -1;
  T->tl_ndates = 0;
  T->tl_now = NAN;
  T->tl_used = 0;
  if (ios_fs_stage(&T->ev_out, s->out_dir, "timeline.bin", "output.dir") != IOS_OK) {
    tl_free(T);
    return IOS_EIO;
  }
  int32_t counts[2] = {e->napps, e->nres};
  fwrite("IOSIMTL2", 1, 8, T->ev_out.f);
  fwrite(counts, sizeof counts, 1, T->ev_out.f);
  for (int j = 0; j < e->napps; j++)
    tl_name(T->ev_out.f, e->apps[j].a->name);
  for (int i = 0; i < e->nres; i++)
    tl_name(T->ev_out.f, e->p->res[i].name);
  tl_name(T->ev_out.f, e->p->has_pfs ? e->p->pfs.name : NULL);
  T->tl_on = 1;
  return IOS_OK;
}

static unsigned char *tl_varint(unsigned char *p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = (unsigned char)(v | 0x80);
    v >>= 7;
  }
  *p++ = (unsigned char)v;
  return p;
}

static unsigned char *tl_double(unsigned char *p, double v) {
  memcpy(p, &v, sizeof v);
  return p + sizeof v;
}

/* One record of application `app` (kind 0 work, 1 I/O operation, 2 transfer segment on resource code `res`), from t0
 * to t1 having moved `bytes`, written straight into the buffer. */
static void tl_row(struct sim_traces *T, int app, int kind, int res, double t0, double t1, double bytes) {
  if (T->tl_used + 48 > sizeof T->tl_buf) tl_flush(T); /* a record takes at most 1 + 8 + 3 × 10 + 8 bytes */
  unsigned char *p = T->tl_buf + T->tl_used;
  if (!(t1 == T->tl_now)) { /* a new date */
    *p++ = 0;
    p = tl_double(p, t1);
    T->tl_now = t1;
    size_t slot = tl_date_slot(t1);
    T->tl_dates[slot].t = t1;
    T->tl_dates[slot].k = T->tl_ndates++;
  }
  p = tl_varint(p, 1 + 4 * (uint64_t)app + (uint64_t)kind);
  if (kind == 2) p = tl_varint(p, (uint64_t)res);
  size_t slot = tl_date_slot(t0);
  if (T->tl_dates[slot].k >= 0 && T->tl_dates[slot].t == t0)
    p = tl_varint(p, (uint64_t)(T->tl_ndates - T->tl_dates[slot].k));
  else {
    *p++ = 0;
    p = tl_double(p, t0);
  }
  if (kind == 1) p = tl_double(p, bytes);
  if (kind == 2) { /* single precision: 4 bytes fewer on most records, the view shows 4 significant digits */
    float b = (float)bytes;
    memcpy(p, &b, sizeof b);
    p += sizeof b;
  }
  T->tl_used = (size_t)(p - T->tl_buf);
}

void sim_segment_row(engine_t *e, const transfer_t *t, double t1, double bytes) {
  struct sim_traces *T = e->traces;
  if (T->tl_on)
    tl_row(T, t->app, 2, t->res < 0 ? e->nres : t->res, t->seg_start, t1, bytes);
  else
    sim_ev_row(e, t->app, "transfer", sim_res_name(e->p, t->res), t->seg_start, t1, bytes);
}

/* ---------------------------------------------------------------- events.csv (docs/outputs.md) */

/* One interval row: app, kind, resource, start_s, end_s, bytes, rate_Bps (mean over it). */
void sim_ev_row(engine_t *e, int app, const char *kind, const char *resource, double t0, double t1, double bytes) {
  struct sim_traces *T = e->traces;
  if (T->tl_on) {
    tl_row(T, app,
           kind[0] == 'w'   ? 0
           : kind[0] == 'i' ? 1
                            : 2,
           resource != NULL ? tl_code(T, e, resource) : 0, t0, t1, bytes);
    return;
  }
  if (T->ev_t == NULL) return;
  ios_sink_val_t v[7] = {ios_sink_text(e->apps[app].a->name),
                         ios_sink_text(kind),
                         ios_sink_text(resource), /* a host name, or names joined with ';' */
                         ios_sink_real(t0),
                         ios_sink_real(t1),
                         bytes >= 0 ? ios_sink_real(bytes) : ios_sink_null(),
                         bytes >= 0 && t1 > t0 ? ios_sink_real(bytes / (t1 - t0)) : ios_sink_null()};
  ios_sink_row(T->sink, T->ev_t, v);
}

void sim_ev_io_row(engine_t *e, const app_state_t *as, double volume) {
  struct sim_traces *T = e->traces;
  if (T->ev_t == NULL && !T->tl_on) return;
  if (T->tl_on) { /* its resources are those of its transfer records */
    tl_row(T, (int)(as - e->apps), 1, 0, as->posted, sim_now(e), volume);
    return;
  }
  char names[1024] = "";
  for (int i = 0; i < as->ntransfers; i++) {
    size_t l = strlen(names);
    snprintf(names + l, sizeof names - l, "%s%s", i ? ";" : "", sim_res_name(e->p, as->t[i].res));
  }
  sim_ev_row(e, (int)(as - e->apps), "io", names, as->posted, sim_now(e), volume);
}

/* One allocations.csv row: application, [t0, t1), resource count, resource names joined by ';'. */
void sim_al_row(const engine_t *e, const app_state_t *as, double t0, double t1) {
  struct sim_traces *T = e->traces;
  if (T->al_t == NULL || !(t1 >= t0)) return;
  size_t n = 1;
  for (int i = 0; i < as->n; i++)
    n += strlen(sim_res_name(e->p, as->res[i])) + 1;
  char *names = malloc(n), *at = names;
  if (names == NULL) return;
  *at = '\0';
  for (int i = 0; i < as->n; i++)
    at += sprintf(at, "%s%s", i ? ";" : "", sim_res_name(e->p, as->res[i]));
  ios_sink_val_t v[5] = {ios_sink_text(as->a->name), ios_sink_real(t0), ios_sink_real(t1), ios_sink_int(as->n),
                         ios_sink_text(names)};
  ios_sink_row(T->sink, T->al_t, v);
  free(names);
}

/* Whether this run writes timeline.bin: always without output.events, except with the benchmark switch
 * IOSIM_TIMELINE=0, which only analysis/bench_view.py sets (to measure what the record costs). */
static int timeline_wanted(const ios_sim_config_t *s) {
  return !s->bench.no_timeline;
}

int sim_open_traces(engine_t *e, const ios_sim_config_t *s) {
  struct sim_traces *T = e->traces;
  tl_free(T);
  if (s->out_dir == NULL) return IOS_OK; /* a run without an output directory (the SimGrid plugin without output.dir) */
  static const ios_sink_col_t ev_cols[] = {{"app", IOS_SINK_TEXT, 0},      {"kind", IOS_SINK_TEXT, 0},
                                           {"resource", IOS_SINK_TEXT, 0}, {"start_s", IOS_SINK_REAL, 0},
                                           {"end_s", IOS_SINK_REAL, 0},    {"bytes", IOS_SINK_REAL, 0},
                                           {"rate_Bps", IOS_SINK_REAL, 0}};
  static const ios_sink_col_t al_cols[] = {{"app", IOS_SINK_TEXT, 0},
                                           {"start_s", IOS_SINK_REAL, 0},
                                           {"end_s", IOS_SINK_REAL, 0},
                                           {"n_resources", IOS_SINK_INT, 0},
                                           {"resources", IOS_SINK_TEXT, 0}};
  if (T->sink == NULL && (T->sink = ios_sink_files(s->out_dir, "output.events")) == NULL) return IOS_ENOMEM;
  if (s->events) {
    ios_sink_files_field(T->sink, "output.events");
    if ((T->ev_t = ios_sink_begin_table(T->sink, "events", ev_cols, 7)) == NULL) return IOS_EIO;
  } else if (timeline_wanted(s)) {
    int rc = tl_open(T, e, s);
    if (rc != IOS_OK) return rc;
  }
  ios_sink_files_field(T->sink, "output.dir");
  if ((T->al_t = ios_sink_begin_table(T->sink, "allocations", al_cols, 5)) == NULL) return IOS_EIO;
  return IOS_OK;
}

int sim_close_traces(engine_t *e) {
  struct sim_traces *T = e->traces;
  if (T->tl_on) tl_flush(T);
  int rc = ios_sink_end_table(T->sink, T->al_t, 1);
  T->al_t = NULL;
  if (ios_sink_end_table(T->sink, T->ev_t, 1) != IOS_OK) rc = IOS_EIO;
  T->ev_t = NULL;
  if (ios_fs_commit(&T->ev_out) != IOS_OK) rc = IOS_EIO;
  if (ios_sink_close(T->sink, 1) != IOS_OK) rc = IOS_EIO;
  T->sink = NULL;
  tl_free(T);
  return rc;
}

/* ---------------------------------------------------------------- SimGrid's Paje trace (docs/trace.md) */

/* Application j's link variable: "b" + its name, the name SimGrid gives the link variable of tracing category NAME. */
static void trace_variable(engine_t *e, int j, char *out, size_t n) {
  snprintf(out, n, "b%s", e->apps[j].a->name);
}

/* A colour per application, hues spread by the golden ratio ("R G B", each from 0 to 1, as Paje writes them). */
static void trace_color(int j, char *out, size_t n) {
  double h = fmod(j * 0.618033988749895, 1.0) * 6, f = h - floor(h), v = 0.9, s = 0.7;
  double p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  const double rgb[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
  const double *c = rgb[(int)h % 6];
  snprintf(out, n, "%.3f %.3f %.3f", c[0], c[1], c[2]);
}

int sim_trace_setup(engine_t *e, const ios_sim_config_t *s) {
  int rc = ios_sg_trace_status();
  if (rc != IOS_OK) return rc;
  e->trace = ios_sg_tracing();
  if (e->trace && e->napps > 1000) /* measured: 24,000 applications took 336 s instead of 2 s (docs/trace.md) */
    XBT_WARN("tracing %d applications: SimGrid's tracer looks each variable up among all of a link's at every "
             "event, so this run will be much slower than untraced (docs/trace.md)",
             e->napps);
  for (int j = 0; e->trace && j < e->napps; j++) {
    char var[300], color[64];
    trace_variable(e, j, var, sizeof var);
    if (strcmp(var, "bandwidth") == 0 || strcmp(var, "bandwidth_used") == 0) {
      ios_diag_set(s->file, e->apps[j].a->name,
                   "its trace variable would be '%s', a variable SimGrid's tracer already gives every link: rename "
                   "the application",
                   var);
      return IOS_EINVAL;
    }
    trace_color(j, color, sizeof color);
    ios_sg_trace_declare(var, color);
  }
  return IOS_OK;
}

void sim_trace_segment(engine_t *e, const transfer_t *t, double bytes) {
  double t1 = sim_now(e);
  if (!e->trace || !(t1 > t->seg_start) || !(bytes > 0)) return;
  char var[300];
  trace_variable(e, t->app, var, sizeof var);
  sg_host_t to = t->res < 0 ? e->p->pfs.host : e->p->res[t->res].host;
  ios_sg_trace_flow(e->sg, t->host, to, var, t->seg_start, t1, bytes / (t1 - t->seg_start));
}

void sim_trace_running(engine_t *e) {
  for (int r = 0; e->trace && r <= e->nres; r++)
    for (int i = 0; e->res[r].r != NULL && i < e->res[r].nactive; i++) {
      const transfer_t *t = e->res[r].active[i];
      if (t->rate > 0) sim_trace_segment(e, t, t->seg_rem0 - ios_tr_remaining(e->tr, t));
    }
}

int sim_segment_rows(const engine_t *e) {
  return e->traces->ev_t != NULL || e->traces->ev_out.f != NULL;
}

void sim_traces_fini(engine_t *e) {
  struct sim_traces *T = e->traces;
  if (T == NULL) return;
  ios_sink_close(T->sink, 0); /* a failed run leaves no table behind */
  ios_fs_discard(&T->ev_out);
  tl_free(T);
  free(T);
  e->traces = NULL;
}
