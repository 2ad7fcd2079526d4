/* iosim — the run's traces: events.csv (output.events) and allocations.csv, written through temporary files (see
 * engine_state.h, docs/engine.md). */
#include "engine_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

XBT_LOG_EXTERNAL_CATEGORY(iosim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(iosim_traces, iosim, "iosim traces (events.csv, allocations.csv)");

/* ---------------------------------------------------------------- events.csv (docs/outputs.md) */

const char *sim_res_name(int res) {
  return res < 0 ? E.p->pfs.name : E.p->res[res].name;
}

/* One interval row: app, kind (work, io, transfer), resource, start_s, end_s, bytes, rate_Bps (mean over it). */
void sim_ev_row(int app, const char *kind, const char *resource, double t0, double t1, double bytes) {
  if (E.ev.f == NULL) return;
  ios_csv_field(E.ev.f, E.apps[app].a->name);
  fprintf(E.ev.f, ",%s,", kind);
  ios_csv_field(E.ev.f, resource); /* a host name, or names joined with ';' */
  fprintf(E.ev.f, ",%.17g,%.17g,", t0, t1);
  if (bytes >= 0) {
    fprintf(E.ev.f, "%.17g,", bytes);
    if (t1 > t0) fprintf(E.ev.f, "%.17g", bytes / (t1 - t0));
  } else
    fputc(',', E.ev.f);
  fputc('\n', E.ev.f);
}

void sim_ev_io_row(const app_state_t *as, double volume) {
  if (E.ev.f == NULL) return;
  char names[1024] = "";
  for (int i = 0; i < as->ntransfers; i++) {
    size_t l = strlen(names);
    snprintf(names + l, sizeof names - l, "%s%s", i ? ";" : "", sim_res_name(as->t[i].res));
  }
  sim_ev_row((int)(as - E.apps), "io", names, as->posted, sim_now(), volume);
}

/* One allocations.csv row: application, [t0, t1), resource count, resource names. */
static const char *al_res_item(int i, void *ctx) {
  return sim_res_name(((const app_state_t *)ctx)->res[i]);
}

void sim_al_row(const app_state_t *as, double t0, double t1) {
  if (E.al.f == NULL || !(t1 >= t0)) return;
  ios_csv_field(E.al.f, as->a->name);
  fprintf(E.al.f, ",%.17g,%.17g,%d,", t0, t1, as->n);
  ios_csv_list(E.al.f, as->n, al_res_item, (void *)as, ';');
  fputc('\n', E.al.f);
}

/* events.csv (output.events) and allocations.csv, written through temporary files renamed when the run has finished
 * (close_traces), removed if it fails (release_engine). */
int sim_open_traces(const ios_sim_config_t *s) {
  if (s->events) {
    if (ios_fs_stage(&E.ev, s->out_dir, "events.csv", "output.events") != IOS_OK) return IOS_EIO;
    fputs("app,kind,resource,start_s,end_s,bytes,rate_Bps\n", E.ev.f);
  }
  if (ios_fs_stage(&E.al, s->out_dir, "allocations.csv", "output.dir") != IOS_OK) return IOS_EIO;
  fputs("app,start_s,end_s,n_resources,resources\n", E.al.f);
  return IOS_OK;
}

int sim_close_traces(void) {
  int rc = ios_fs_commit(&E.al);
  if (ios_fs_commit(&E.ev) != IOS_OK) rc = IOS_EIO;
  return rc;
}

/* ---------------------------------------------------------------- SimGrid's Paje trace (docs/trace.md) */

/* Application j's link variable: "b" + its name, the name SimGrid gives the link variable of tracing category NAME. */
static void trace_variable(int j, char *out, size_t n) {
  snprintf(out, n, "b%s", E.apps[j].a->name);
}

/* A colour per application, hues spread by the golden ratio ("R G B", each from 0 to 1, as Paje writes them). */
static void trace_color(int j, char *out, size_t n) {
  double h = fmod(j * 0.618033988749895, 1.0) * 6, f = h - floor(h), v = 0.9, s = 0.7;
  double p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  const double rgb[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
  const double *c = rgb[(int)h % 6];
  snprintf(out, n, "%.3f %.3f %.3f", c[0], c[1], c[2]);
}

int sim_trace_setup(const ios_sim_config_t *s) {
  int rc = ios_sg_trace_status();
  if (rc != IOS_OK) return rc;
  E.trace = ios_sg_tracing();
  if (E.trace && E.napps > 1000) /* measured: 24,000 applications took 336 s instead of 2 s (docs/trace.md) */
    XBT_WARN("tracing %d applications: SimGrid's tracer looks each variable up among all of a link's at every "
             "event, so this run will be much slower than untraced (docs/trace.md)",
             E.napps);
  for (int j = 0; E.trace && j < E.napps; j++) {
    char var[300], color[64];
    trace_variable(j, var, sizeof var);
    if (strcmp(var, "bandwidth") == 0 || strcmp(var, "bandwidth_used") == 0) {
      ios_diag_set(s->file, E.apps[j].a->name,
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

void sim_trace_segment(const transfer_t *t, double bytes) {
  double t1 = sim_now();
  if (!E.trace || !(t1 > t->seg_start) || !(bytes > 0)) return;
  char var[300];
  trace_variable(t->app, var, sizeof var);
  sg_host_t to = t->res < 0 ? E.p->pfs.host : E.p->res[t->res].host;
  ios_sg_trace_flow(t->host, to, var, t->seg_start, t1, bytes / (t1 - t->seg_start));
}

void sim_trace_running(void) {
  for (int r = 0; E.trace && r <= E.nres; r++)
    for (int i = 0; E.res[r].r != NULL && i < E.res[r].nactive; i++) {
      const transfer_t *t = E.res[r].active[i];
      if (t->rate > 0) sim_trace_segment(t, t->seg_rem0 - ios_tr_remaining(t));
    }
}
