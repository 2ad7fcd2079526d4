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
