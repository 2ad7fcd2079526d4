/* iosim — the generator of StorAlloc request sets (see ios_storalloc_requests.h, docs/storalloc.md): its parameters
 * (defaults, from JSON, both shapes), the submission times, and shape "tokio": a year of requests copied from the
 * TOKIO-ABC job summaries ($IOSIM_DATA_DIR/tokio-abc). Shape "theta" is in theta.c. */
#include "requests_internal.h"
#include "ios_csv.h"
#include "ios_datasets.h"
#include "ios_diag.h"
#include "ios_gen.h"
#include "ios_scenario.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    ios_diag_set(file, sa_at(w, sizeof w, c.obj, "data"), "must be the path of tokio_abc_jobs_slim.csv (a string)");
    return IOS_EINVAL;
  }
  const cJSON *shape = cJSON_GetObjectItemCaseSensitive(j, "shape");
  if (shape != NULL && (!cJSON_IsString(shape) ||
                        (strcmp(shape->valuestring, "tokio") != 0 && strcmp(shape->valuestring, "theta") != 0))) {
    char v[64];
    sa_text_of(shape, v, sizeof v);
    ios_diag_set(file, sa_at(w, sizeof w, c.obj, "shape"),
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
