/* iosim — the APEX windows of RR-9502 §6.3.1 (see ios_gen_apex.h). */
#include "ios_gen_apex.h"
#include "apex_internal.h"
#include "ios_datasets.h"
#include "ios_csv.h"
#include "ios_diag.h"
#include "ios_gen.h"
#include "ios_scenario.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ios_gen_param_t params[NPARAMS] = {
    {"machine", 0, 0, 12, 0, 0,
     "y of the projected machine M_y: 2^y cores and memory per node, bandwidths x 2^y/(1+y) (RR-9502 §6.3.1: 0 = "
     "Cielo, 1..10)"},
    {"months", 3, 0, 24, 1, 0, "the schedule's length in 30-day months of full machine use (RR-9502: at least 3)"},
    {"window", 1, 1, 100000, 0, 1,
     "the rank of the window by decreasing length (RR-9502 §6.3.1 keeps the 20 longest: 1..20)"},
    {"noise", 0.1, 0, 0.5, 0, 0, "σ of the Gaussian noise on each job's cores and walltime (the authors': 0.1)"},
    {"ckpt_period_s", 0, 0, 1e7, 1, 0,
     "the checkpoint period P in s of compute (default: the dataset's ckpt_period_s, 3600 = RR-9502's hour)"},
};
static const char *const string_params[] = {"workload", "data", NULL};

/* ---------------------------------------------------------------- data files */

/* Reads a CSV with a header naming at least the `ncols` columns `cols`: calls row(ctx, values, text fields) with
 * values[k] = the number in column cols[k] (numeric columns: those with numeric[k]). */
typedef int (*row_fn)(void *ctx, const double *values, char *const *text, const char *path, int lineno);

static int read_csv(const char *path, const char *const *cols, const int *numeric, int ncols, row_fn row, void *ctx) {
  FILE *f = ios_open_dataset(path, "workload.generator.data", "APEX data", "apex-workflows");
  if (f == NULL) return IOS_EIO;
  char *line = NULL, *fields[64], where[48];
  size_t cap = 0;
  int idx[16], lineno = 0, rc = IOS_OK, rows = 0;
  while (rc == IOS_OK && getline(&line, &cap, f) != -1) {
    lineno++;
    int n = ios_csv_split(line, fields, 64);
    if (lineno == 1) {
      for (int k = 0; k < ncols && rc == IOS_OK; k++) {
        idx[k] = -1;
        for (int i = 0; i < n; i++)
          if (strcmp(fields[i], cols[k]) == 0) idx[k] = i;
        if (idx[k] < 0) {
          ios_diag_set(path, "line 1", "has no column '%s': is this the APEX workflows data of shared/datasets?",
                       cols[k]);
          rc = IOS_EINVAL;
        }
      }
      continue;
    }
    if (n == 1 && fields[0][0] == '\0') continue; /* blank line */
    double v[16];
    char *text[16];
    for (int k = 0; k < ncols && rc == IOS_OK; k++) {
      snprintf(where, sizeof where, "line %d, column %s", lineno, cols[k]);
      if (idx[k] >= n) {
        ios_diag_set(path, where, "is missing: every row needs %d columns", n);
        rc = IOS_EINVAL;
        break;
      }
      text[k] = fields[idx[k]];
      v[k] = NAN;
      if (numeric[k]) {
        char *end;
        v[k] = strtod(text[k], &end);
        if (end == text[k] || *end != '\0' || !isfinite(v[k]) || v[k] < 0) {
          ios_diag_set(path, where, "is '%s': expected a non-negative number", text[k]);
          rc = IOS_EINVAL;
        }
      }
    }
    if (rc == IOS_OK) rc = row(ctx, v, text, path, lineno);
    rows++;
  }
  free(line);
  fclose(f);
  if (rc == IOS_OK && rows == 0) {
    ios_diag_set(path, NULL, "holds no data row");
    rc = IOS_EINVAL;
  }
  return rc;
}

typedef struct {
  const char *workload;
  apex_class_t *classes;
  int n;
} classes_ctx_t;

/* Columns: platform, app, corehour_ratio, walltime_h, cores, input_ratio, output_ratio, ckpt_ratio, ckpt_period_s. */
static int class_row(void *ctx, const double *v, char *const *text, const char *path, int lineno) {
  classes_ctx_t *c = ctx;
  if (strcmp(text[0], c->workload) != 0) return IOS_OK;
  char where[32];
  snprintf(where, sizeof where, "line %d", lineno);
  if (c->n == MAX_CLASSES) {
    ios_diag_set(path, where, "more than %d classes for workload %s", MAX_CLASSES, c->workload);
    return IOS_EINVAL;
  }
  if (!(v[4] >= 1) || !(v[3] > 0) || !(v[8] > 0)) {
    ios_diag_set(path, where, "class %s needs cores >= 1, walltime_h > 0 and ckpt_period_s > 0", text[1]);
    return IOS_EINVAL;
  }
  apex_class_t *k = &c->classes[c->n++];
  snprintf(k->name, sizeof k->name, "%s", text[1]);
  k->ratio = v[2];
  k->walltime_s = v[3] * 3600.0;
  k->cores = v[4];
  k->in = v[5];
  k->out = v[6];
  k->ckpt = v[7];
  k->period = v[8];
  return IOS_OK;
}

static int machine_row(void *ctx, const double *v, char *const *text, const char *path, int lineno) {
  (void)text;
  apex_machine_t *m = ctx;
  if (!(v[0] >= 1 && v[1] >= 1 && v[2] > 0 && v[3] > 0 && v[4] > 0)) {
    char where[32];
    snprintf(where, sizeof where, "line %d", lineno);
    ios_diag_set(path, where, "needs positive nodes, cores_per_node, ram_per_node_GiB and bandwidths");
    return IOS_EINVAL;
  }
  *m = (apex_machine_t){v[0], v[1], v[2] * GIB, v[3] * GIB, v[4] * GIB};
  return IOS_OK;
}

static int read_data(const char *dir, const char *workload, apex_class_t *classes, int *nclasses, apex_machine_t *m) {
  static const char *const ccols[] = {"platform",    "app",          "corehour_ratio", "walltime_h",   "cores",
                                      "input_ratio", "output_ratio", "ckpt_ratio",     "ckpt_period_s"};
  static const int cnum[] = {0, 0, 1, 1, 1, 1, 1, 1, 1};
  static const char *const mcols[] = {"nodes", "cores_per_node", "ram_per_node_GiB", "node_bw_GiB_s",
                                      "system_bw_GiB_s"};
  static const int mnum[] = {1, 1, 1, 1, 1};
  size_t len = strlen(dir) + 32;
  char *path = malloc(len);
  if (path == NULL) return IOS_ENOMEM;
  snprintf(path, len, "%s/apex_workloads.csv", dir);
  classes_ctx_t cc = {workload, classes, 0};
  int rc = read_csv(path, ccols, cnum, 9, class_row, &cc);
  if (rc == IOS_OK && cc.n == 0) {
    ios_diag_set(path, "workload.generator.workload", "no application class of workload '%s' in the table", workload);
    rc = IOS_EINVAL;
  }
  *nclasses = cc.n;
  if (rc == IOS_OK) {
    snprintf(path, len, "%s/platform_cielo.csv", dir);
    rc = read_csv(path, mcols, mnum, 5, machine_row, m);
  }
  free(path);
  return rc;
}

/* ---------------------------------------------------------------- windows */

typedef struct {
  double begin, length;
} window_t;

static int cmp_window(const void *a, const void *b) { /* longest first, then earliest */
  const window_t *x = a, *y = b;
  if (x->length != y->length) return x->length < y->length ? 1 : -1;
  return (x->begin > y->begin) - (x->begin < y->begin);
}

/* The windows of the schedule, ranked (the caller frees *out). */
static int rank_windows(const apex_job_t *jobs, int n, window_t **out, int *count) {
  double *t = malloc(sizeof *t * (size_t)(2 * n + 1)), last_start = 0;
  window_t *w = malloc(sizeof *w * (size_t)(2 * n + 1));
  if (t == NULL || w == NULL) {
    free(t);
    free(w);
    return IOS_ENOMEM;
  }
  for (int i = 0; i < n; i++) {
    t[2 * i] = jobs[i].start;
    t[2 * i + 1] = jobs[i].start + jobs[i].length;
    if (jobs[i].start > last_start) last_start = jobs[i].start;
  }
  qsort(t, (size_t)(2 * n), sizeof *t, ios_gen_cmp_double);
  int nw = 0;
  for (int i = 0; i + 1 < 2 * n && t[i + 1] <= last_start; i++)
    if (t[i + 1] > t[i]) w[nw++] = (window_t){t[i], t[i + 1] - t[i]};
  qsort(w, (size_t)nw, sizeof *w, cmp_window);
  free(t);
  *out = w;
  *count = nw;
  return IOS_OK;
}

/* Appends a piece (seconds of work, or bytes of I/O) to `a`, merged with the previous one of the same kind. */
static int add_piece(ios_app_t *a, int *room, int is_io, double value) {
  if (a->nphases > 0 && a->phases[a->nphases - 1].is_io == is_io) {
    a->phases[a->nphases - 1].value += value;
    return IOS_OK;
  }
  if (a->nphases == *room) {
    *room = *room ? 2 * *room : 16;
    ios_phase_t *ph = realloc(a->phases, sizeof *ph * (size_t)*room);
    if (ph == NULL) return IOS_ENOMEM;
    a->phases = ph;
  }
  a->phases[a->nphases++] = (ios_phase_t){value, is_io};
  return IOS_OK;
}

/* The part of job `j`'s dedicated timeline inside [a, b] as application phases; I/O of bandwidth b_unit. */
static int clip_job(const apex_job_t *j, double a, double b, double b_unit, ios_app_t *app) {
  int room = 0, rc = IOS_OK;
  double period = j->period, t = j->start, last_work = j->compute - j->k * period;
  int nph = 2 * j->k + 3;
  for (int i = 0; i < nph && t < b && rc == IOS_OK; i++) {
    int is_io = i == 0 || i == nph - 1 || (i < nph - 2 && i % 2 == 0);
    double d = i == 0 ? j->in : i == nph - 1 ? j->out : i == nph - 2 ? last_work : is_io ? j->ckpt : period;
    double lo = fmax(t, a), hi = fmin(t + d, b);
    if (hi - lo > 1e-6) rc = add_piece(app, &room, is_io, is_io ? (hi - lo) * b_unit : hi - lo);
    t += d;
  }
  return rc;
}

/* ---------------------------------------------------------------- the generator */

/* The applications of window [a, b] (s): every job running throughout it that does I/O inside it, clipped to it
 * (clip_job), its bandwidth in units of B (bytes/s) scaled from the machine's system bandwidth `system_bw` (bytes/s);
 * appended to w. Counts the jobs running throughout in *running and adds their I/O volume (bytes) to *volume.
 * @return IOS_OK or IOS_ENOMEM. */
static int window_apps(const apex_job_t *jobs, int njobs, const apex_class_t *cls, double system_bw, double B, double a,
                       double b, ios_workload_t *w, int *running, double *volume) {
  int rc = IOS_OK;
  for (int i = 0; rc == IOS_OK && i < njobs; i++) {
    const apex_job_t *j = &jobs[i];
    if (!(j->start <= a && j->start + j->length >= b)) continue;
    (*running)++;
    ios_app_t app = {0};
    double unit = j->bw / system_bw * B;
    rc = clip_job(j, a, b, unit, &app);
    int io = 0;
    for (int k = 0; k < app.nphases; k++)
      if (app.phases[k].is_io) {
        io = 1;
        *volume += app.phases[k].value;
      }
    char name[48];
    snprintf(name, sizeof name, "%s-%d", cls[j->cls].name, i);
    ios_app_t *slot = rc == IOS_OK && io ? ios_workload_add(w) : NULL;
    if (slot == NULL || (app.name = strdup(name)) == NULL) {
      free(app.phases);
      free(app.name);
      if (rc == IOS_OK && io) rc = IOS_ENOMEM;
      continue;
    }
    app.nodes = 1;
    app.requested_n = -1;
    app.layout = -1;
    app.profile.npoints = 1;
    app.profile.n[0] = 1;
    app.profile.bw[0] = unit;
    app.has_profile = 1;
    *slot = app;
  }
  return rc;
}

/* Reads "workload" (nersc or trilab, default trilab) and the data directory (*dir malloc'd). */
static int read_sources(const cJSON *g, const ios_gen_ctx_t *c, const char **workload_out, char **dir) {
  char where[96];
  const cJSON *wl = cJSON_GetObjectItemCaseSensitive(g, "workload"),
              *data = cJSON_GetObjectItemCaseSensitive(g, "data");
  const char *workload = cJSON_IsString(wl) ? wl->valuestring : wl == NULL ? "trilab" : NULL;
  if (workload == NULL || (strcmp(workload, "nersc") != 0 && strcmp(workload, "trilab") != 0)) {
    snprintf(where, sizeof where, "%s%sworkload", c->obj, c->sep);
    char *text = cJSON_PrintUnformatted(wl);
    ios_diag_set(c->file, where, "is %s: give \"nersc\" or \"trilab\" (the two APEX workloads of RR-9502 §6.3.1)",
                 text != NULL ? text : "?");
    free(text);
    return IOS_EINVAL;
  }
  if (data != NULL && !cJSON_IsString(data)) {
    snprintf(where, sizeof where, "%s%sdata", c->obj, c->sep);
    ios_diag_set(c->file, where, "must be a directory path string (default \"${IOSIM_DATA_DIR}/apex-workflows\")");
    return IOS_EINVAL;
  }
  snprintf(where, sizeof where, "%s%sdata", c->obj, c->sep);
  *dir = ios_expand_path(data != NULL ? data->valuestring : IOS_DATA_APEX, c->file, where);
  if (*dir == NULL) return IOS_EINVAL;
  *workload_out = workload;
  return IOS_OK;
}

/* Reads the parameters, builds the schedule and the window's applications with bandwidths in units of B. */
static int generate(const cJSON *g, const ios_gen_ctx_t *c, double B, uint64_t seed, ios_workload_t *out, char *summary,
                    size_t nsum) {
  double val[NPARAMS];
  char where[96];
  int rc = ios_gen_read_params(g, c, "apex", params, NPARAMS, string_params, val);
  if (rc != IOS_OK) return rc;
  const char *workload;
  char *dir;
  if (read_sources(g, c, &workload, &dir) != IOS_OK) return IOS_EINVAL;
  apex_class_t cls[MAX_CLASSES];
  apex_machine_t cielo, m;
  int nc = 0;
  rc = read_data(dir, workload, cls, &nc, &cielo);
  free(dir);
  if (rc != IOS_OK) return rc;
  double y = val[P_MACHINE], grow = pow(2.0, y);
  m = (apex_machine_t){cielo.nodes, cielo.cores_per_node * grow, cielo.ram * grow, cielo.node_bw * grow / (1 + y),
                       cielo.system_bw * grow / (1 + y)};
  apex_job_t *jobs = NULL;
  window_t *wins = NULL;
  int njobs = 0, nwin = 0;
  rc = ios_apex_schedule(cls, nc, &cielo, &m, val, seed, c, &jobs, &njobs);
  if (rc == IOS_OK) rc = rank_windows(jobs, njobs, &wins, &nwin);
  int rank = (int)val[P_WINDOW];
  if (rc == IOS_OK && rank > nwin) {
    snprintf(where, sizeof where, "%s%swindow", c->obj, c->sep);
    ios_diag_set(c->file, where, "is %d but this schedule has %d windows: give 1..%d", rank, nwin, nwin);
    rc = IOS_EINVAL;
  }
  ios_workload_t w = {0};
  double a = 0, b = 0, volume = 0, makespan = 0;
  int running = 0;
  for (int i = 0; i < njobs; i++)
    makespan = fmax(makespan, jobs[i].start + jobs[i].length);
  if (rc == IOS_OK) {
    a = wins[rank - 1].begin;
    b = a + wins[rank - 1].length;
  }
  if (rc == IOS_OK) rc = window_apps(jobs, njobs, cls, m.system_bw, B, a, b, &w, &running, &volume);
  if (rc == IOS_OK && w.napps == 0) {
    snprintf(where, sizeof where, "%s%swindow", c->obj, c->sep);
    ios_diag_set(c->file, where, "is %d: no job does I/O inside this window [%.0f, %.0f] s; choose another rank", rank,
                 a, b);
    rc = IOS_EINVAL;
  }
  if (rc == IOS_OK)
    snprintf(summary, nsum,
             "APEX %s on M_%g (system bandwidth %.4g GiB/s), seed %llu: %d jobs over %.1f days; window %d of %d: "
             "[%.0f, %.0f] s (%.0f s), %d jobs running, %d doing I/O; I/O pressure W = %.4f",
             workload, y, m.system_bw / GIB, (unsigned long long)seed, njobs, makespan / 86400.0, rank, nwin, a, b,
             b - a, running, w.napps, volume / (B * (b - a)));
  free(jobs);
  free(wins);
  if (rc != IOS_OK) {
    ios_workload_free(&w);
    return rc;
  }
  *out = w;
  return IOS_OK;
}

int ios_apex_generate(const cJSON *g, const char *file, const ios_platform_t *p, uint64_t seed, ios_workload_t *w) {
  ios_gen_ctx_t c = {file, "workload.generator", "."};
  double B = 0;
  for (int i = 0; i < p->nres; i++)
    B += p->res[i].capacity;
  if (!(B > 0) || !isfinite(B)) {
    ios_diag_set(file, c.obj, "the platform's pool has no capacity (B = %g): APEX volumes are scaled to it", B);
    return IOS_EINVAL;
  }
  ios_workload_t gen;
  char summary[512];
  int rc = generate(g, &c, B, seed, &gen, summary, sizeof summary);
  if (rc == IOS_OK && (rc = ios_gen_append(w, &gen)) != IOS_OK) ios_workload_free(&gen);
  return rc;
}

static int cli_build(const cJSON *g, const ios_gen_ctx_t *c, double unit, uint64_t seed, ios_workload_t *w,
                     double **omega, char *summary, size_t n) {
  *omega = NULL;
  return generate(g, c, unit, seed, w, summary, n);
}

/* The files of the data directory that generate() reads (apex_workloads.csv, platform_cielo.csv). */
static const char *const apex_data_files[] = {"apex_workloads.csv", "platform_cielo.csv", NULL};

const ios_gen_kind_t ios_gen_apex = {
    .kind = "apex",
    .summary = "RR-9502 §6.3.1: a steady-state window of a first-fit schedule of the APEX NERSC or TRILAB workload",
    .scenario = ios_apex_generate,
    .data_param = "data",
    .data_default = IOS_DATA_APEX,
    .data_files = apex_data_files,
    .example = "workload=nersc",
    .build = cli_build,
    .help =
        "usage: iosim generate apex [--set param=value]... [--seed N] [--unit B] [-o FILE]\n"
        "Writes one steady-state window of a first-fit schedule of the APEX NERSC or TRILAB workload (RR-9502\n"
        "§6.3.1, data: $IOSIM_DATA_DIR/apex-workflows): the jobs running throughout the window, released at its\n"
        "start, with their input, hourly checkpoints and output inside it. Parameters (defaults):\n"
        "  workload=trilab  trilab or nersc\n"
        "  machine=0        y of the projected machine M_y (0 = Cielo; 2^y cores and memory per node,\n"
        "                   bandwidths x 2^y/(1+y): the I/O pressure grows about 1+y)\n"
        "  window=1         rank of the window by decreasing length (the paper keeps ranks 1..20)\n"
        "  months=3         length of the schedule in 30-day months of full machine use\n"
        "  noise=0.1        σ of the Gaussian noise on each job's cores and walltime\n"
        "  ckpt_period_s    checkpoint period in s of compute (default: the dataset's, 3600)\n"
        "  data             the data directory (default ${IOSIM_DATA_DIR}/apex-workflows)\n"
        "  --seed N   the schedule's random seed (default 1); every window of one seed comes from one schedule\n"
        "  --unit B   the system bandwidth in bytes/s (default 1: bandwidths and volumes in units of it)\n"
        "  -o FILE    FILE.json: an iosim JSON workload; other names: the RR-9502 reference simulator's sample\n"
        "             format (read back with workload.file and bandwidth_unit \"pool\"); default: standard output.\n"
        "A summary (jobs, the window, its applications, its I/O pressure) goes to standard error.\n"
        "See docs/scenario.md and docs/rr9502.md.\n",
};
