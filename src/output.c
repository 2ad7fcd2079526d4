/* iosim — outputs (see ios_output.h). */
#include "ios_output.h"
#include "ios_diag.h"

#include <errno.h>
#include <math.h>
#include <simgrid/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int ios_mkdirs(const char *dir) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", dir);
  for (char *s = buf + 1; *s; s++)
    if (*s == '/') {
      *s = '\0';
      if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
      *s = '/';
    }
  return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

static void path_in(char *buf, size_t n, const char *dir, const char *name) {
  snprintf(buf, n, "%s/%s", dir, name);
}

int ios_output_prepare(const ios_scenario_t *s) {
  char path[4200];
  if (ios_mkdirs(s->out_dir) != 0) {
    ios_diag_set(s->file, "output.dir", "cannot create '%s' (%s): choose a writable directory", s->out_dir,
                 strerror(errno));
    return IOS_EIO;
  }
  path_in(path, sizeof path, s->out_dir, "results.json");
  if (remove(path) != 0 && errno != ENOENT) {
    ios_diag_set(path, NULL, "cannot remove the previous result (%s)", strerror(errno));
    return IOS_EIO;
  }
  return IOS_OK;
}

/* Prints a double for CSV: empty when NaN. */
static void csv_num(FILE *f, double v, int last) {
  isnan(v) ? fputs("", f) : fprintf(f, "%.17g", v), fputc(last ? '\n' : ',', f);
}

static FILE *open_tmp(const char *dir, const char *name, char *tmp, size_t n) {
  snprintf(tmp, n, "%s/.%s.tmp", dir, name);
  return fopen(tmp, "w");
}

static int commit(FILE *f, const char *tmp, const char *dir, const char *name) {
  char final[4200];
  path_in(final, sizeof final, dir, name);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  if (bad || rename(tmp, final) != 0) {
    ios_diag_set(final, NULL, "cannot write (%s): check free space and permissions", strerror(errno));
    remove(tmp);
    return IOS_EIO;
  }
  return IOS_OK;
}

static cJSON *num_or_null(double v) {
  return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

/* The application in dedicated mode at bandwidth b (bytes/s), over the phases iosim simulates (docs/outputs.md):
 * *iteration = ω = D / N_io, the mean iteration length (s), and *io_fraction = φ = (Σ volume / b) / D, with N_io
 * the number of I/O operations (volume > 0) and D = Σ work + Σ volume / b without the start offset: the work before
 * the first I/O operation when the application also works after its last one (it then has one work phase more
 * than iterations, like the w_i^(0) of the RR-9502 §6.2.1 generator, whose ω_i and φ_i these estimate). Without
 * I/O: ω = NAN, φ = 0; with I/O but no bandwidth (b <= 0): both NAN. */
static void app_iteration(const ios_app_t *a, double b, double *iteration, double *io_fraction) {
  int nio = 0, first = -1, last = -1;
  double volume = 0, work = 0, lead = 0, tail = 0;
  for (int i = 0; i < a->nphases; i++)
    if (a->phases[i].is_io && a->phases[i].value > 0) {
      nio++;
      volume += a->phases[i].value;
      first = first < 0 ? i : first;
      last = i;
    }
  for (int i = 0; i < a->nphases; i++)
    if (!a->phases[i].is_io) {
      work += a->phases[i].value;
      lead += i < first ? a->phases[i].value : 0;
      tail += i > last ? a->phases[i].value : 0;
    }
  *iteration = NAN;
  *io_fraction = nio == 0 ? 0 : NAN;
  if (nio == 0 || !(b > 0) || !isfinite(b)) return;
  double io_time = volume / b, d = work - (lead > 0 && tail > 0 ? lead : 0) + io_time;
  *iteration = d / nio;
  *io_fraction = d > 0 ? io_time / d : NAN;
}

int ios_output_write(const ios_scenario_t *s, const ios_platform_t *p, const ios_workload_t *w,
                     const ios_results_t *r) {
  char tmp[4200];
  FILE *f = open_tmp(s->out_dir, "apps.csv", tmp, sizeof tmp);
  if (f == NULL) {
    ios_diag_set(s->out_dir, "output.dir", "cannot write (%s)", strerror(errno));
    return IOS_EIO;
  }
  fputs("name,nodes,io_volume_bytes,io_time_s,work_time_s,yield,io_slowdown,n_resources,resources,bandwidth_Bps,"
        "start_s,end_s,iteration_s,io_fraction,rho_io,rho_con\n",
        f);
  for (int j = 0; j < r->napps; j++) {
    const ios_app_result_t *a = &r->apps[j];
    fprintf(f, "%s,%d,", w->apps[j].name, w->apps[j].nodes);
    csv_num(f, a->io_volume, 0);
    csv_num(f, a->io_time, 0);
    csv_num(f, a->work_time, 0);
    csv_num(f, a->yield, 0);
    csv_num(f, a->io_slowdown, 0);
    fprintf(f, "%d,", a->n_resources);
    for (int i = 0; i < a->n_resources; i++)
      fprintf(f, "%s%s", i ? ";" : "", p->res[a->resources[i]].name);
    if (a->n_resources == 0 && p->has_pfs) fputs(p->pfs.name, f);
    fputc(',', f);
    csv_num(f, a->bandwidth, 0);
    csv_num(f, a->start, 0);
    csv_num(f, a->end, 0);
    double iteration, io_fraction;
    app_iteration(&w->apps[j], a->bandwidth, &iteration, &io_fraction);
    csv_num(f, iteration, 0);
    csv_num(f, io_fraction, 0);
    csv_num(f, a->rho_io, 0); /* RR-9549 §3.3.2: ρ = ρ_io + ρ_con */
    csv_num(f, isnan(a->rho_io) ? NAN : a->io_slowdown - a->rho_io, 1);
  }
  if (commit(f, tmp, s->out_dir, "apps.csv") != IOS_OK) return IOS_EIO;

  if ((f = open_tmp(s->out_dir, "resources.csv", tmp, sizeof tmp)) == NULL) {
    ios_diag_set(s->out_dir, "output.dir", "cannot write (%s)", strerror(errno));
    return IOS_EIO;
  }
  fputs("name,kind,capacity_Bps,busy_time_s,occupancy,bytes\n", f);
  for (int i = 0; i < r->nres; i++) {
    fprintf(f, "%s,%s,", p->res[i].name, p->pool_role);
    csv_num(f, p->res[i].capacity, 0);
    csv_num(f, r->res[i].busy_time, 0);
    csv_num(f, r->makespan_s > 0 ? r->res[i].busy_time / r->makespan_s : NAN, 0);
    csv_num(f, r->res[i].bytes, 1);
  }
  if (commit(f, tmp, s->out_dir, "resources.csv") != IOS_OK) return IOS_EIO;

  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "iosim_version", IOSIM_VERSION);
  cJSON_AddStringToObject(root, "status", r->complete ? "complete" : "stopped_at_window_end");
  cJSON_AddNumberToObject(root, "seed", (double)s->seed);
  cJSON_AddNumberToObject(root, "wall_time_s", r->wall_time_s);
  cJSON *sg = cJSON_AddObjectToObject(root, "simgrid");
  char version[32];
  snprintf(version, sizeof version, "%d.%d.%d", SIMGRID_VERSION_MAJOR, SIMGRID_VERSION_MINOR, SIMGRID_VERSION_PATCH);
  cJSON_AddStringToObject(sg, "version", version);
  cJSON *cfg = cJSON_AddArrayToObject(sg, "config");
  for (int i = 0; ios_simgrid_config[i] != NULL; i++)
    cJSON_AddItemToArray(cfg, cJSON_CreateString(ios_simgrid_config[i]));
  cJSON_AddItemToObject(root, "scenario", cJSON_Duplicate(s->resolved, 1));
  cJSON *win = cJSON_AddObjectToObject(root, "window");
  cJSON_AddNumberToObject(win, "begin_s", r->t_begin);
  cJSON_AddItemToObject(win, "end_s", num_or_null(r->t_end));
  cJSON_AddStringToObject(win, "kind", r->window_kind);
  if (r->period_s > 0) cJSON_AddNumberToObject(win, "period_s", r->period_s);
  cJSON *pl = cJSON_AddObjectToObject(root, "platform");
  cJSON_AddNumberToObject(pl, "compute_nodes", p->ncompute);
  cJSON_AddNumberToObject(pl, "nic_bw_Bps", p->nic_bw);
  cJSON_AddStringToObject(pl, "pool_role", p->pool_role);
  cJSON_AddNumberToObject(pl, "resources", p->nres);
  cJSON *m = cJSON_AddObjectToObject(root, "metrics");
  const struct {
    const char *key;
    double v;
  } metrics[] = {{"makespan_s", r->makespan_s},
                 {"min_yield", r->min_yield},
                 {"utilization", r->utilization},
                 {"efficiency", r->efficiency},
                 {"io_pressure", r->io_pressure},
                 {"io_load", r->io_load},
                 {"mean_io_slowdown", r->mean_io_slowdown},
                 {"mean_rho_io", r->mean_rho_io},
                 {"mean_rho_con", r->mean_rho_con},
                 {"io_spread", r->io_spread},
                 {"machine_idle_time", r->machine_idle_time},
                 {"aggregate_bandwidth_Bps", r->aggregate_bandwidth_Bps},
                 {"platform_limited_share", r->platform_limited_share}};
  for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
    cJSON_AddItemToObject(m, metrics[i].key, num_or_null(metrics[i].v));
  cJSON *c = cJSON_AddObjectToObject(root, "counts");
  cJSON_AddNumberToObject(c, "applications", r->napps);
  cJSON_AddNumberToObject(c, "events", (double)r->events);
  cJSON_AddNumberToObject(c, "rate_changes", (double)r->rate_changes);
  char *text = cJSON_Print(root);
  cJSON_Delete(root);
  if (text == NULL || (f = open_tmp(s->out_dir, "results.json", tmp, sizeof tmp)) == NULL) {
    free(text);
    ios_diag_set(s->out_dir, "output.dir", "cannot write results.json");
    return IOS_EIO;
  }
  fputs(text, f);
  fputc('\n', f);
  free(text);
  return commit(f, tmp, s->out_dir, "results.json");
}

void ios_output_summary(const ios_scenario_t *s, const ios_platform_t *p, const ios_workload_t *w,
                        const ios_results_t *r) {
  printf("iosim %s — %d applications on %d %s resources (%s), allocation %s, placement %s, sharing %s, seed %llu\n",
         IOSIM_VERSION, w->napps, p->nres, p->pool_role, s->platform, s->allocation->name, s->placement->name,
         s->sharing->name, (unsigned long long)s->seed);
  printf("%-16s %6s %4s %14s %12s %12s %8s %9s\n", "application", "nodes", "n", "io_volume_GiB", "io_time_s",
         "work_time_s", "yield", "slowdown");
  int shown = w->napps <= 20 ? w->napps : 20;
  for (int j = 0; j < shown; j++) {
    const ios_app_result_t *a = &r->apps[j];
    printf("%-16.16s %6d %4d %14.4f %12.3f %12.3f %8.4f %9.4f\n", w->apps[j].name, w->apps[j].nodes, a->n_resources,
           a->io_volume / 1073741824.0, a->io_time, a->work_time, a->yield, a->io_slowdown);
  }
  if (shown < w->napps) printf("... %d more in %s/apps.csv\n", w->napps - shown, s->out_dir);
  printf("window [%.6g, %.6g] s (%s); status %s\n", r->t_begin, r->t_end, r->window_kind,
         r->complete ? "complete" : "stopped at window end");
  printf("makespan_s %.6g | min_yield %.6g | utilization %.6g | efficiency %.6g | io_pressure %.6g\n", r->makespan_s,
         r->min_yield, r->utilization, r->efficiency, r->io_pressure);
  printf("io_load %.6g | mean_io_slowdown %.6g | io_spread %.6g | machine_idle_time %.6g | aggregate_bandwidth "
         "%.6g GiB/s\n",
         r->io_load, r->mean_io_slowdown, r->io_spread, r->machine_idle_time,
         r->aggregate_bandwidth_Bps / 1073741824.0);
  if (r->platform_limited_share > 1e-9)
    printf("note: the platform, not the sharing policy, was the bottleneck for %.1f%% of the bytes moved at the "
           "policy's rates (SimGrid's max-min shared a link the policy does not decide on)\n",
           100.0 * r->platform_limited_share);
  printf("%ld events, %ld rate changes, %.3f s wall; results in %s/\n", r->events, r->rate_changes, r->wall_time_s,
         s->out_dir);
}
