/* iosim — the APEX generator's jobs and their first-fit schedule (RR-9502 §6.3.1): each job drawn from its class on
 * Cielo and projected on M_y, then started at the first date where the machine has its nodes free (ios_gen_apex.h);
 * the schedule is cached by its inputs (ios_gen_cache_load). The windows and the generator kind: apex.c. */
#include "apex_internal.h"
#include "ios_diag.h"
#include "ios_gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- jobs and the first-fit schedule */

/* noisy(v) of ios_gen_apex.h. */
static double noisy(ios_rng_t *rng, double v, double sigma) {
  double x = v * (1 + sigma * ios_gen_normal(rng));
  return x < v * (1 - sigma / 2) ? v * (1 - sigma / 2) : x;
}

/* Draws job `j` of class `k`: nodes, compute time and checkpoint count from Cielo (`c`), durations on M_y (`m`).
 * @return IOS_OK, or IOS_EINVAL when the class's I/O does not fit in its walltime. */
static int make_job(const apex_class_t *k, int cls, const apex_machine_t *c, const apex_machine_t *m, double period,
                    double sigma, ios_rng_t *rng, apex_job_t *j) {
  double cores = ceil(noisy(rng, k->cores, sigma)), walltime = ceil(noisy(rng, k->walltime_s, sigma));
  int p = (int)ceil(cores / c->cores_per_node);
  if (p < 1) p = 1;
  double mem0 = p * c->ram, bw0 = fmin(p * c->node_bw, c->system_bw);
  double in0 = k->in * mem0 / bw0, out0 = k->out * mem0 / bw0, ck0 = k->ckpt * mem0 / bw0;
  double rest = walltime - in0 - out0;
  if (!(rest > 0) || p > c->nodes) return IOS_EINVAL;
  int n = ck0 > 0 ? (int)floor(rest / (period + ck0)) : 0;
  double mem = p * m->ram, bw = fmin(p * m->node_bw, m->system_bw);
  *j = (apex_job_t){.cls = cls,
                    .nodes = p,
                    .k = n,
                    .compute = rest - n * ck0,
                    .in = k->in * mem / bw,
                    .out = k->out * mem / bw,
                    .ckpt = k->ckpt * mem / bw,
                    .bw = bw,
                    .period = period};
  j->length = j->compute + j->in + j->out + n * j->ckpt;
  return IOS_OK;
}

/* The free-node profile: free[i] nodes on [t[i], t[i+1]), the last segment open-ended. Segments before `first` can
 * take no job (fewer free nodes than the smallest job) and are dropped as the profile grows. */
typedef struct {
  double *t;
  int *free;
  int n, cap, first;
} profile_t;

static int profile_split(profile_t *pr, int i, double at) { /* inserts a boundary `at` inside segment i */
  if (pr->n == pr->cap) {
    if (pr->first > 0) { /* compact: drop the dead front */
      memmove(pr->t, pr->t + pr->first, sizeof *pr->t * (size_t)(pr->n - pr->first));
      memmove(pr->free, pr->free + pr->first, sizeof *pr->free * (size_t)(pr->n - pr->first));
      pr->n -= pr->first;
      i -= pr->first;
      pr->first = 0;
    }
    if (pr->n == pr->cap) {
      int cap = pr->cap * 2;
      double *t = realloc(pr->t, sizeof *t * (size_t)cap);
      if (t != NULL) pr->t = t;
      int *f = t != NULL ? realloc(pr->free, sizeof *f * (size_t)cap) : NULL;
      if (f == NULL) return -1;
      pr->free = f;
      pr->cap = cap;
    }
  }
  memmove(pr->t + i + 2, pr->t + i + 1, sizeof *pr->t * (size_t)(pr->n - i - 1));
  memmove(pr->free + i + 2, pr->free + i + 1, sizeof *pr->free * (size_t)(pr->n - i - 1));
  pr->t[i + 1] = at;
  pr->free[i + 1] = pr->free[i];
  pr->n++;
  return i;
}

/* Lower bounds for first fit. The profile only loses free nodes, so if a job of p' nodes for d' s was placed at s',
 * no job with p >= p' and d >= d' can start before s' later on (it would have left room for the smaller one before
 * s'). bound[x][y] is a two-dimensional Fenwick tree of the latest such s' over size classes x of p' and y of d';
 * only strictly smaller classes bound a query, which keeps the bound exact whatever the rounding of the classes. */
#define FIT_PCLASSES 64
#define FIT_DCLASSES 160
typedef struct {
  double bound[FIT_PCLASSES + 1][FIT_DCLASSES + 1];
} fit_bounds_t;

static int p_class(int p) { /* quarter octaves of p >= 1, monotone */
  int e = 0;
  while ((p >> e) >= 8)
    e++;
  int c = e * 4 + ((p >> e) & 7) / 2;
  return c < FIT_PCLASSES ? c : FIT_PCLASSES - 1;
}

static int d_class(double d) { /* quarter octaves of d > 0 from 2^-8 s, monotone */
  int e;
  double m = frexp(d, &e); /* d = m 2^e, m in [0.5, 1) */
  int c = (e + 8) * 4 + (int)((m - 0.5) * 8);
  return c < 0 ? 0 : c < FIT_DCLASSES ? c : FIT_DCLASSES - 1;
}

static void fit_record(fit_bounds_t *fb, int p, double d, double s) {
  for (int x = p_class(p) + 1; x <= FIT_PCLASSES; x += x & -x)
    for (int y = d_class(d) + 1; y <= FIT_DCLASSES; y += y & -y)
      if (s > fb->bound[x][y]) fb->bound[x][y] = s;
}

static double fit_lower_bound(const fit_bounds_t *fb, int p, double d) {
  double lb = 0;
  for (int x = p_class(p); x > 0; x -= x & -x)
    for (int y = d_class(d); y > 0; y -= y & -y)
      if (fb->bound[x][y] > lb) lb = fb->bound[x][y];
  return lb;
}

/* Places p nodes for d s at the earliest segment start where they stay free (first fit). @return the start time,
 * or NAN when out of memory. */
static double first_fit(profile_t *pr, fit_bounds_t *fb, int p, double d, int min_nodes) {
  int i = pr->first;
  if (d > 0) { /* start at the first segment from the lower bound on (bisection: t is increasing) */
    double lb = fit_lower_bound(fb, p, d);
    for (int hi = pr->n - 1; i < hi;) {
      int mid = i + (hi - i) / 2;
      if (pr->t[mid] < lb)
        i = mid + 1;
      else
        hi = mid;
    }
  }
  for (;;) {
    double s = pr->t[i];
    int k = i;
    while (k < pr->n && (k == i || pr->t[k] < s + d) && pr->free[k] >= p)
      k++;
    if (k == pr->n || pr->t[k] >= s + d) break; /* fits on segments i .. k-1 (the last one is open-ended) */
    i = k + 1;                                  /* segment k blocks every start up to its end */
  }
  double s = pr->t[i];
  for (int k = i; k < pr->n && pr->t[k] < s + d; k++) {
    if (k + 1 < pr->n && pr->t[k + 1] <= s + d) {
      pr->free[k] -= p; /* covered entirely */
      continue;
    }
    if ((k = profile_split(pr, k, s + d)) < 0) return NAN; /* s + d falls inside segment k: cut it there */
    pr->free[k] -= p;
    break;
  }
  while (pr->first < pr->n - 1 && pr->free[pr->first] < min_nodes)
    pr->first++;
  if (d > 0) fit_record(fb, p, d, s);
  return s;
}

/* Each class's target node-seconds (by corehour_ratio over `months`) and the fewest nodes of a job. */
static int class_targets(const apex_class_t *cls, int nc, const apex_machine_t *cielo, const double *val,
                         const ios_gen_ctx_t *c, double *target, int *min_nodes) {
  double sigma = val[P_NOISE], sum_ratio = 0;
  *min_nodes = INT32_MAX;
  for (int k = 0; k < nc; k++) {
    sum_ratio += cls[k].ratio;
    int p = (int)ceil(ceil(cls[k].cores * (1 - sigma / 2)) / cielo->cores_per_node);
    if (p < *min_nodes) *min_nodes = p < 1 ? 1 : p;
  }
  if (!(sum_ratio > 0)) {
    char where[96];
    snprintf(where, sizeof where, "%s%sworkload", c->obj, c->sep);
    ios_diag_set(c->file, where, "every class of this workload has corehour_ratio 0: nothing to schedule");
    return IOS_EINVAL;
  }
  for (int k = 0; k < nc; k++)
    target[k] = cls[k].ratio / sum_ratio * cielo->nodes * val[P_MONTHS] * MONTH_S;
  return IOS_OK;
}

/* The class of the next job, drawn in proportion to the classes' deficits of node-seconds; -1 when none has one. */
static int draw_class(const double *target, const double *placed, int nc, ios_rng_t *rng) {
  double deficit = 0;
  for (int k = 0; k < nc; k++)
    deficit += fmax(target[k] - placed[k], 0);
  if (!(deficit > 0)) return -1;
  double u = ios_rng_uniform(rng) * deficit;
  int k = 0;
  while (k + 1 < nc && (u -= fmax(target[k] - placed[k], 0)) >= 0)
    k++;
  while (!(target[k] - placed[k] > 0)) /* rounding at the end of the scan: the last class with a deficit */
    k--;
  return k;
}

/* Makes room in *jobs (n of *room) for one more job, up to MAX_JOBS (beyond: an error naming months). */
static int grow_jobs(apex_job_t **jobs, int n, int *room, const double *val, const ios_gen_ctx_t *c) {
  *room = *room ? 2 * *room : 1024;
  apex_job_t *more = n < MAX_JOBS ? realloc(*jobs, sizeof **jobs * (size_t)*room) : NULL;
  if (more == NULL) {
    int rc = n < MAX_JOBS ? IOS_ENOMEM : IOS_EINVAL;
    if (rc == IOS_EINVAL) {
      char where[96];
      snprintf(where, sizeof where, "%s%smonths", c->obj, c->sep);
      ios_diag_set(c->file, where, "is %g: the schedule would hold more than %d jobs; lower months", val[P_MONTHS],
                   MAX_JOBS);
    }
    return rc;
  }
  *jobs = more;
  return IOS_OK;
}

/* Draws jobs until no class has a deficit of node-seconds, each placed first-fit. */
static int build_schedule(const apex_class_t *cls, int nc, const apex_machine_t *cielo, const apex_machine_t *m,
                          const double *val, uint64_t seed, const ios_gen_ctx_t *c, apex_job_t **jobs_out, int *njobs) {
  double sigma = val[P_NOISE], target[MAX_CLASSES], placed[MAX_CLASSES];
  int min_nodes;
  if (class_targets(cls, nc, cielo, val, c, target, &min_nodes) != IOS_OK) return IOS_EINVAL;
  for (int k = 0; k < nc; k++)
    placed[k] = 0;
  profile_t pr = {malloc(sizeof(double) * 1024), malloc(sizeof(int) * 1024), 1, 1024, 0};
  fit_bounds_t *fb = calloc(1, sizeof *fb);
  apex_job_t *jobs = NULL;
  int n = 0, room = 0, rc = pr.t != NULL && pr.free != NULL && fb != NULL ? IOS_OK : IOS_ENOMEM;
  if (rc == IOS_OK) {
    pr.t[0] = 0;
    pr.free[0] = (int)cielo->nodes;
  }
  ios_rng_t rng;
  ios_rng_seed(&rng, seed, IOS_STREAM_APEX);
  int k;
  while (rc == IOS_OK && (k = draw_class(target, placed, nc, &rng)) >= 0) {
    if (n == room && (rc = grow_jobs(&jobs, n, &room, val, c)) != IOS_OK) break;
    apex_job_t *j = &jobs[n];
    double period = val[P_PERIOD] > 0 ? val[P_PERIOD] : cls[k].period;
    if (make_job(&cls[k], k, cielo, m, period, sigma, &rng, j) != IOS_OK) {
      char where[96];
      snprintf(where, sizeof where, "%s%sworkload", c->obj, c->sep);
      ios_diag_set(c->file, where,
                   "class %s does not fit: its input and output take longer than its walltime, or it needs more "
                   "nodes than the machine has (check the APEX table)",
                   cls[k].name);
      rc = IOS_EINVAL;
      break;
    }
    j->start = first_fit(&pr, fb, j->nodes, j->length, min_nodes);
    if (isnan(j->start)) {
      rc = IOS_ENOMEM;
      break;
    }
    placed[k] += j->nodes * j->length;
    n++;
  }
  free(pr.t);
  free(pr.free);
  free(fb);
  if (rc != IOS_OK) {
    free(jobs);
    return rc;
  }
  *jobs_out = jobs;
  *njobs = n;
  return IOS_OK;
}

/* Every input of build_schedule, exactly (hexadecimal floats), for the schedule cache (ios_gen_cache_load). The
 * version changes whenever the schedule's algorithm or apex_job_t does. @return a malloc'd text, or NULL. */
static char *schedule_key(const apex_class_t *cls, int nc, const apex_machine_t *cielo, const apex_machine_t *m,
                          const double *val, uint64_t seed) {
  size_t room = 512 + (size_t)nc * 256, used = 0; /* a %a double takes at most 24 characters */
  char *key = malloc(room);
  if (key == NULL) return NULL;
  used += (size_t)snprintf(key, room, "apex schedule v1 job %zu seed %llu noise %a months %a period %a",
                           sizeof(apex_job_t), (unsigned long long)seed, val[P_NOISE], val[P_MONTHS], val[P_PERIOD]);
  const apex_machine_t *ms[2] = {cielo, m};
  for (int k = 0; k < 2 && used < room; k++)
    used += (size_t)snprintf(key + used, room - used, "; machine %a %a %a %a %a", ms[k]->nodes, ms[k]->cores_per_node,
                             ms[k]->ram, ms[k]->node_bw, ms[k]->system_bw);
  for (int k = 0; k < nc && used < room; k++)
    used += (size_t)snprintf(key + used, room - used, "; class %.31s %a %a %a %a %a %a %a", cls[k].name, cls[k].ratio,
                             cls[k].walltime_s, cls[k].cores, cls[k].in, cls[k].out, cls[k].ckpt, cls[k].period);
  if (used >= room) { /* cut short: not every input is in it, so it cannot name a schedule (no cache) */
    free(key);
    return NULL;
  }
  return key;
}

int ios_apex_schedule(const apex_class_t *cls, int nc, const apex_machine_t *cielo, const apex_machine_t *m,
                      const double *val, uint64_t seed, const ios_gen_ctx_t *c, apex_job_t **jobs, int *njobs) {
  char *key = schedule_key(cls, nc, cielo, m, val, seed);
  if (key != NULL && ios_gen_cache_load("apex", key, sizeof **jobs, (void **)jobs, njobs)) {
    free(key);
    return IOS_OK;
  }
  int rc = build_schedule(cls, nc, cielo, m, val, seed, c, jobs, njobs);
  if (rc == IOS_OK && key != NULL) ios_gen_cache_store("apex", key, sizeof **jobs, *jobs, *njobs);
  free(key);
  return rc;
}
