/* iosim — jobs of the nine I/O kernels measured for IPDPS'21 (Bez et al., "I/O Forwarding Arbitration as a
 * Multiple-Choice Knapsack", IPDPS 2021, §5.1 and §5.3) from the authors' queue-generator data
 * ($IOSIM_DATA_DIR/boito-queue-generator): bandwidth_pivot.csv gives each kernel's compute nodes, processes and mean
 * bandwidth (MB/s, 1 MB = 10^6 bytes) with 0, 1, 2, 4 and 8 I/O forwarding nodes; runtime.csv its runtimes.
 *
 * A kernel's compute time T and I/O volume V come from its runtimes: the least-squares fit of runtime = T + V/b(f)
 * over every measured run (f forwarders), with T >= 0 (T = 0 and V fitted through the origin otherwise). When no
 * positive V fits (BT-D: its runtimes grow with forwarders while its bandwidth grows), the kernel is taken as
 * I/O-bound at its direct-access measurement: T = 0, V = b(0)·mean runtime(0). Each job alternates `iterations`
 * times T/iterations s of work and an I/O operation of V/iterations bytes; its profile is b(1), b(2), b(4), b(8)
 * (and b(0) when `direct` is 1: direct access to the PFS, which IPDPS'21 §5.3 does not use). */
#include "ios_gen_kernels.h"
#include "ios_datasets.h"
#include "ios_diag.h"
#include "ios_fs.h"
#include "ios_gen.h"
#include "ios_scenario.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MB 1e6
#define NKERNELS 9

enum { P_ITERATIONS, P_DIRECT, P_SUBMIT, NPARAMS };

static const ios_gen_param_t params[NPARAMS] = {
    {"iterations", 10, 1, 100000, 0, 1, "work/I-O iterations per job (each moves V/iterations bytes)"},
    {"direct", 0, 0, 1, 0, 1, "1 = the profile has the direct-access point n = 0 (IPDPS'21 §5.3 does not use it)"},
    {"submit_s", 0, 0, 1e9, 0, 0, "submission time of every job, s (the queue's order is the jobs list)"},
};
static const char *const string_params[] = {"jobs", "data", NULL};

/* The IPDPS'21 §5.3 queue. */
static const char *const default_jobs[] = {"HACC", "IOR-MPI", "SIM", "IOR-MPI", "IOR-MPI", "POSIX-S", "POSIX-L",
                                           "BT-C", "MAD",     "MAD", "S3D",     "HACC",    "HACC",    "BT-D"};

typedef struct {
  char name[64];   /* short name: the pivot's app up to '(' */
  char family[64]; /* runtime.csv application */
  int nodes, procs;
  double bw[5]; /* bytes/s with 0, 1, 2, 4, 8 forwarders */
  double t, v;  /* fitted compute time (s) and volume (bytes) */
  double sx, sy, sxx, sxy, n, rt0, n0;
} kernel_t;

static const int forwarders[5] = {0, 1, 2, 4, 8};

/* runtime.csv's application of a pivot code (bandwidth_pivot.csv names them in parentheses, runtime.csv by family). */
static const char *family_of(const char *app) {
  const char *p = strchr(app, '(');
  return p != NULL ? p + 1 : app;
}

static int read_pivot(const char *dir, kernel_t *k, int *nk) {
  char path[4200];
  snprintf(path, sizeof path, "%s/bandwidth_pivot.csv", dir);
  FILE *f = ios_open_dataset(path, "workload.generator.data", "kernels' bandwidths", "boito-queue-generator");
  if (f == NULL) return IOS_EIO;
  char line[512];
  int lineno = 0, rc = IOS_OK;
  *nk = 0;
  while (rc == IOS_OK && fgets(line, sizeof line, f) != NULL) {
    if (++lineno == 1) continue;
    char code[8], app[64];
    kernel_t x;
    memset(&x, 0, sizeof x);
    double bw[5];
    if (sscanf(line, "%7[^,],%63[^,],%d,%d,%lf,%lf,%lf,%lf,%lf", code, app, &x.nodes, &x.procs, &bw[0], &bw[1], &bw[2],
               &bw[3], &bw[4]) != 9 ||
        x.nodes < 1 || x.nodes > 10000000 || x.procs < 1 || *nk == NKERNELS || !(bw[0] > 0 && bw[0] < 1e12) ||
        !(bw[1] > 0 && bw[1] < 1e12) || !(bw[2] > 0 && bw[2] < 1e12) || !(bw[3] > 0 && bw[3] < 1e12) ||
        !(bw[4] > 0 && bw[4] < 1e12)) {
      char where[32];
      snprintf(where, sizeof where, "line %d", lineno);
      ios_diag_set(path, where,
                   "expected code,app,nodes,procs,bw0,bw1,bw2,bw4,bw8 with nodes and procs >= 1 and bandwidths in (0, "
                   "1e12) MB/s (9 kernels at most)");
      rc = IOS_EINVAL;
      break;
    }
    size_t n = strcspn(app, "(");
    snprintf(x.name, sizeof x.name, "%.*s", (int)(n < 60 ? n : 60), app);
    snprintf(x.family, sizeof x.family, "%.60s", family_of(app));
    x.family[strcspn(x.family, ")")] = '\0';
    for (int i = 0; i < 5; i++)
      x.bw[i] = bw[i] * MB;
    k[(*nk)++] = x;
  }
  fclose(f);
  if (rc == IOS_OK && *nk == 0) {
    ios_diag_set(path, NULL, "holds no kernel");
    rc = IOS_EINVAL;
  }
  return rc;
}

/* Accumulates runtime.csv (forwarders;clients;processes;application;label;runtime;configuration) and fits T, V. */
static int fit_runtimes(const char *dir, kernel_t *k, int nk) {
  char path[4200];
  snprintf(path, sizeof path, "%s/runtime.csv", dir);
  FILE *f = ios_open_input(path);
  if (f == NULL) {
    ios_diag_set(path, "workload.generator.data", "cannot read the kernels' runtimes (%s)", strerror(errno));
    return IOS_EIO;
  }
  char *line = NULL;
  size_t cap = 0;
  int lineno = 0;
  while (getline(&line, &cap, f) != -1) {
    if (++lineno == 1) continue;
    int fw, clients, procs;
    char family[64], label[128];
    double rt;
    if (sscanf(line, "%d;%d;%d;%63[^;];%127[^;];%lf", &fw, &clients, &procs, family, label, &rt) != 6) continue;
    int slot = -1;
    for (int i = 0; i < 5; i++)
      if (forwarders[i] == fw) slot = i;
    for (int i = 0; i < nk && slot >= 0; i++) {
      kernel_t *x = &k[i];
      if (strcmp(x->family, family) != 0 || x->nodes != clients || x->procs != procs) continue;
      double inv = 1.0 / x->bw[slot];
      x->sx += inv, x->sy += rt, x->sxx += inv * inv, x->sxy += inv * rt, x->n += 1;
      if (fw == 0) x->rt0 += rt, x->n0 += 1;
    }
  }
  free(line);
  fclose(f);
  for (int i = 0; i < nk; i++) {
    kernel_t *x = &k[i];
    if (x->n < 2) {
      ios_diag_set(path, x->name, "has fewer than 2 runs: cannot fit its compute time and I/O volume");
      return IOS_EINVAL;
    }
    double den = x->n * x->sxx - x->sx * x->sx;
    x->v = den > 0 ? (x->n * x->sxy - x->sx * x->sy) / den : 0;
    x->t = (x->sy - x->v * x->sx) / x->n;
    if (x->t < 0) { /* through the origin */
      x->t = 0;
      x->v = x->sxy / x->sxx;
    }
    if (!(x->v > 0)) { /* runtimes do not follow the bandwidth profile: I/O-bound at direct access */
      x->t = 0;
      x->v = x->n0 > 0 ? x->bw[0] * x->rt0 / x->n0 : 0;
    }
    if (!(x->v > 0)) {
      ios_diag_set(path, x->name, "no run to estimate its I/O volume from");
      return IOS_EINVAL;
    }
  }
  return IOS_OK;
}

int ios_kernels_generate(const cJSON *g, const char *file, uint64_t seed, ios_workload_t *out) {
  (void)seed; /* deterministic: the measured means */
  ios_gen_ctx_t c = {file, "workload.generator", "."};
  double val[NPARAMS];
  char where[96];
  int rc = ios_gen_read_params(g, &c, "kernels", params, NPARAMS, string_params, val);
  if (rc != IOS_OK) return rc;
  const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(g, "jobs"), *data = cJSON_GetObjectItemCaseSensitive(g, "data");
  int njobs = jobs == NULL ? (int)(sizeof default_jobs / sizeof *default_jobs) : cJSON_GetArraySize(jobs);
  if (jobs != NULL && (!cJSON_IsArray(jobs) || njobs == 0)) {
    ios_diag_set(file, "workload.generator.jobs",
                 "must be a non-empty array of kernel names in queue order, e.g. [\"HACC\", \"IOR-MPI\", \"BT-D\"]");
    return IOS_EINVAL;
  }
  if (data != NULL && !cJSON_IsString(data)) {
    ios_diag_set(file, "workload.generator.data", "must be a directory path string");
    return IOS_EINVAL;
  }
  char *dir = ios_expand_path(data != NULL ? data->valuestring : IOS_DATA_KERNELS, file, "workload.generator.data");
  if (dir == NULL) return IOS_EINVAL;
  kernel_t k[NKERNELS];
  int nk = 0;
  rc = read_pivot(dir, k, &nk);
  if (rc == IOS_OK) rc = fit_runtimes(dir, k, nk);
  free(dir);
  if (rc != IOS_OK) return rc;
  int iters = (int)val[P_ITERATIONS];
  ios_workload_t w = {0};
  for (int i = 0; rc == IOS_OK && i < njobs; i++) {
    const cJSON *item = jobs != NULL ? cJSON_GetArrayItem(jobs, i) : NULL;
    const char *name = jobs != NULL ? (cJSON_IsString(item) ? item->valuestring : "") : default_jobs[i];
    const kernel_t *x = NULL;
    int prefixed = 0; /* exact name, else a unique prefix (IPDPS'21 writes IOR-MPI for the data's IOR-MPIIO) */
    for (int q = 0; q < nk; q++)
      if (strcmp(k[q].name, name) == 0) x = &k[q];
    for (int q = 0; x == NULL && q < nk; q++)
      prefixed += name[0] != '\0' && strncmp(k[q].name, name, strlen(name)) == 0;
    for (int q = 0; x == NULL && prefixed == 1 && q < nk; q++)
      if (strncmp(k[q].name, name, strlen(name)) == 0) x = &k[q];
    if (x == NULL) {
      char known[NKERNELS * 66] = "";
      for (int q = 0; q < nk; q++) {
        strcat(known, q ? ", " : "");
        strcat(known, k[q].name);
      }
      snprintf(where, sizeof where, "workload.generator.jobs[%d]", i);
      ios_diag_set(file, where, "is '%s': not a kernel of the data (nor a unique prefix of one); known: %s", name,
                   known);
      rc = IOS_EINVAL;
      break;
    }
    ios_app_t *a = ios_workload_add(&w);
    char label[80];
    snprintf(label, sizeof label, "%s-%d", x->name, i + 1);
    if (a == NULL || (a->name = strdup(label)) == NULL ||
        (a->phases = malloc(sizeof *a->phases * (size_t)(2 * iters))) == NULL) {
      rc = IOS_ENOMEM;
      break;
    }
    a->nodes = x->nodes;
    a->processes = x->procs;
    a->release = val[P_SUBMIT];
    for (int f = val[P_DIRECT] > 0 ? 0 : 1; f < 5; f++) {
      a->profile.n[a->profile.npoints] = forwarders[f];
      a->profile.bw[a->profile.npoints++] = x->bw[f];
    }
    a->has_profile = 1;
    for (int q = 0; q < iters; q++) {
      if (x->t > 0) a->phases[a->nphases++] = (ios_phase_t){x->t / iters, 0};
      a->phases[a->nphases++] = (ios_phase_t){x->v / iters, 1};
    }
  }
  if (rc == IOS_OK && (rc = ios_gen_append(out, &w)) == IOS_OK) return IOS_OK;
  ios_workload_free(&w);
  return rc;
}

static int scenario_build(const cJSON *g, const char *file, const ios_platform_t *p, uint64_t seed, ios_workload_t *w) {
  (void)p;
  return ios_kernels_generate(g, file, seed, w);
}

/* The files of the data directory that read_pivot and fit_runtimes read. */
static const char *const kernels_data_files[] = {"bandwidth_pivot.csv", "runtime.csv", NULL};

const ios_gen_kind_t ios_gen_kernels = {
    .kind = "kernels",
    .summary = "IPDPS'21 §5.3: the measured I/O kernels (jobs of given sizes and iterations)",
    .scenario = scenario_build,
    .data_param = "data",
    .data_default = IOS_DATA_KERNELS,
    .data_files = kernels_data_files,
};
