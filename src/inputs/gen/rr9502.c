/* iosim — the RR-9502 §6.2.1-6.2.2 synthetic workload generator and `iosim generate` (see ios_gen_rr9502.h). */
#include "ios_gen_rr9502.h"
#include "ios_diag.h"
#include "ios_gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITERATIONS 1000000.0
#define MAX_PHASES 50000000.0
#define NMEDIUM 20

enum { P_COUNT, P_NSMALL, P_SIGMA, P_NOISE, P_PRESSURE, P_HORIZON, NPARAMS };

static const ios_gen_param_t params[NPARAMS] = {
    {"count", 60, 20, 10000, 0, 1,
     "m, the number of applications: n_small small, 20 medium, the rest big (RR-9502: 60)"},
    {"n_small", 20, 0, 9980, 0, 1, "the number of small applications, μ = 1,000 s (RR-9502 §6.2.2: 20)"},
    {"sigma", 0.5, 0, 100, 0, 0, "σ, the standard deviation of ω_i relative to μ_i: σ' = μσ (RR-9502 §6.2.2: 0.5)"},
    {"noise", 0.5, 0, 1, 0, 0, "ν, the per-iteration noise: γ ~ U[−ν, ν] (RR-9502 §6.2.2: 0.5)"},
    {"pressure", 0.5, 0, 100, 1, 0, "W^GOAL, the aimed I/O pressure of Eq. 11 (RR-9502 §6.2.2: 0.2 to 1.1)"},
    {"horizon_s", 2e6, 0, 1e8, 1, 0, "h in s, about the dedicated length of every application (RR-9502: 2e6)"},
};

typedef ios_gen_ctx_t ctx_t;

/* Checks `g` (kind, names, types, ranges) and fills val[NPARAMS]. */
static int read_params(const cJSON *g, const ctx_t *c, double *val) {
  char where[96];
  int rc = ios_gen_read_params(g, c, "rr9502", params, NPARAMS, NULL, val);
  if (rc == IOS_OK && val[P_NSMALL] + NMEDIUM > val[P_COUNT]) {
    snprintf(where, sizeof where, "%s%sn_small", c->obj, c->sep);
    ios_diag_set(c->file, where,
                 "is %g but count is %g: the 20 medium applications of RR-9502 §6.2.2 need count >= n_small + 20; "
                 "lower n_small or raise count",
                 val[P_NSMALL], val[P_COUNT]);
    rc = IOS_EINVAL;
  }
  return rc;
}

static const char *class_name(int i, int nsmall) {
  return i < nsmall ? "small" : i < nsmall + NMEDIUM ? "medium" : "big";
}

/* Per-application draws (arrays of count, owned): ω_i, w_i^(0), u_i, iterations; Σ u_i and the phases. */
typedef struct {
  double *omega, *w0, *u;
  long *niter;
  double sum_u, phases;
} draws_t;

/* Draws ω_i (truncated normal), w_i^(0) and u_i from the parameters' stream; IOS_EINTERNAL when ω fails. */
static int draw_params(const double *val, uint64_t seed, draws_t *d) {
  int m = (int)val[P_COUNT], nsmall = (int)val[P_NSMALL];
  double sigma = val[P_SIGMA], h = val[P_HORIZON];
  int rc = IOS_OK;
  ios_rng_t rng;
  ios_rng_seed(&rng, seed, IOS_STREAM_RR9502_PARAMS);
  for (int i = 0; rc == IOS_OK && i < m; i++) {
    double mu = i < nsmall ? 1e3 : i < nsmall + NMEDIUM ? 1e4 : 1e5, x = mu;
    /* N(μ, μσ) truncated to x >= h/10^6 (> 0) by rejection; h <= 1e8 keeps the bound <= μ/10: few redraws */
    for (int tries = 0; sigma > 0; tries++) {
      x = mu + mu * sigma * ios_gen_normal(&rng);
      if (x > 0 && ceil(h / x) <= MAX_ITERATIONS) break;
      if (tries == 10000) {
        rc = IOS_EINTERNAL;
        break;
      }
    }
    d->omega[i] = x;
    d->w0[i] = ios_rng_uniform(&rng) * x;
    d->u[i] = ios_rng_uniform(&rng);
    d->sum_u += d->u[i];
    d->niter[i] = (long)ceil(h / x);
    d->phases += 2.0 * (double)d->niter[i] + 1;
  }
  return rc;
}

/* Checks the instance: at most MAX_PHASES phases, every I/O fraction φ_i = u_i·W/Σu at most 1. */
static int check_draws(const double *val, const ctx_t *c, const draws_t *d) {
  int m = (int)val[P_COUNT];
  double goal = val[P_PRESSURE];
  char where[96];
  if (d->phases > MAX_PHASES) {
    snprintf(where, sizeof where, "%s%shorizon_s", c->obj, c->sep);
    ios_diag_set(c->file, where,
                 "with count %d the instance would have %.0f phases (more than %.0f): lower horizon_s or count", m,
                 d->phases, MAX_PHASES);
    return IOS_EINVAL;
  }
  for (int i = 0; i < m; i++)
    if (d->u[i] * goal / d->sum_u > 1) {
      snprintf(where, sizeof where, "%s%spressure", c->obj, c->sep);
      ios_diag_set(c->file, where,
                   "is %g: application %d (of %d) would spend a fraction φ = u·W/Σu = %g > 1 of its time in I/O; "
                   "lower pressure or raise count",
                   goal, i, m, d->u[i] * goal / d->sum_u);
      return IOS_EINVAL;
    }
  return IOS_OK;
}

/* Makes `a` application i at bandwidth B: w_i^(0), then its noisy iterations of I/O and work. */
static int make_app(ios_app_t *a, const char *name, int i, const double *val, const draws_t *d, double B,
                    ios_rng_t *rng) {
  double nu = val[P_NOISE], goal = val[P_PRESSURE];
  if (a == NULL || (a->name = strdup(name)) == NULL ||
      (a->phases = malloc(sizeof *a->phases * (size_t)(2 * d->niter[i] + 1))) == NULL)
    return IOS_ENOMEM;
  a->profile.npoints = 1;
  a->profile.n[0] = 1;
  a->profile.bw[0] = B;
  a->has_profile = 1;
  double phi = d->u[i] * goal / d->sum_u, t_io = phi * d->omega[i], t_cpu = (1 - phi) * d->omega[i];
  a->phases[0] = (ios_phase_t){d->w0[i], 0};
  for (long j = 0; j < d->niter[i]; j++) {
    double g_io = nu * (2 * ios_rng_uniform(rng) - 1), g_cpu = nu * (2 * ios_rng_uniform(rng) - 1);
    a->phases[2 * j + 1] = (ios_phase_t){((1 + g_io) * t_io) * B, 1};
    a->phases[2 * j + 2] = (ios_phase_t){(1 + g_cpu) * t_cpu, 0};
  }
  a->nphases = (int)(2 * d->niter[i] + 1);
  return IOS_OK;
}

/* Makes the m applications into `w`, named by class (small-0, medium-0, big-0, ...), from the noise's stream. */
static int make_apps(const double *val, const draws_t *d, double B, uint64_t seed, ios_workload_t *w) {
  int m = (int)val[P_COUNT], nsmall = (int)val[P_NSMALL];
  ios_rng_t rng;
  ios_rng_seed(&rng, seed, IOS_STREAM_RR9502_NOISE);
  int index[3] = {0, 0, 0};
  for (int i = 0; i < m; i++) {
    ios_app_t *a = ios_workload_add(w);
    const char *cls = class_name(i, nsmall);
    int k = cls[0] == 's' ? 0 : cls[0] == 'm' ? 1 : 2;
    char name[32];
    snprintf(name, sizeof name, "%s-%d", cls, index[k]++);
    if (make_app(a, name, i, val, d, B, &rng) != IOS_OK) return IOS_ENOMEM;
  }
  return IOS_OK;
}

/* Generates into `out` with bandwidth B; hands ω_i [count] over to *omega_out when not NULL (the caller frees). */
static int generate(const double *val, const ctx_t *c, double B, uint64_t seed, ios_workload_t *out,
                    double **omega_out) {
  int m = (int)val[P_COUNT];
  draws_t d = {0};
  d.omega = malloc(sizeof *d.omega * (size_t)m);
  d.w0 = malloc(sizeof *d.w0 * (size_t)m);
  d.u = malloc(sizeof *d.u * (size_t)m);
  d.niter = malloc(sizeof *d.niter * (size_t)m);
  int rc = d.omega && d.w0 && d.u && d.niter ? IOS_OK : IOS_ENOMEM;
  if (rc == IOS_OK) rc = draw_params(val, seed, &d);
  if (rc == IOS_OK) rc = check_draws(val, c, &d);
  ios_workload_t w = {0};
  if (rc == IOS_OK) rc = make_apps(val, &d, B, seed, &w);
  if (rc == IOS_EINTERNAL) ios_diag_set(c->file, c->obj, "could not draw an iteration length ω (internal error)");
  if (rc == IOS_OK && omega_out != NULL) {
    *omega_out = d.omega;
    d.omega = NULL;
  }
  free(d.omega);
  free(d.w0);
  free(d.u);
  free(d.niter);
  if (rc != IOS_OK) {
    ios_workload_free(&w);
    return rc;
  }
  *out = w;
  return IOS_OK;
}

int ios_rr9502_generate(const cJSON *g, const char *file, const ios_platform_t *p, uint64_t seed, ios_workload_t *w) {
  ctx_t c = {file, "workload.generator", "."};
  double val[NPARAMS], B = 0;
  if (!cJSON_IsObject(g)) {
    ios_diag_set(file, c.obj, "must be an object such as {\"kind\": \"rr9502\", \"pressure\": 0.8}");
    return IOS_EINVAL;
  }
  int rc = read_params(g, &c, val);
  if (rc != IOS_OK) return rc;
  for (int i = 0; i < p->nres; i++)
    B += p->res[i].capacity;
  if (!(B > 0) || !isfinite(B)) {
    ios_diag_set(file, c.obj, "the platform's pool has no capacity (B = %g): the generator sets b_i = B", B);
    return IOS_EINVAL;
  }
  ios_workload_t gen;
  if ((rc = generate(val, &c, B, seed, &gen, NULL)) != IOS_OK) return rc;
  if ((rc = ios_gen_append(w, &gen)) != IOS_OK) ios_workload_free(&gen);
  return rc;
}

double ios_rr9502_pressure(const ios_workload_t *w, double B, double *t_end) {
  if (w->napps == 0 || !(B > 0)) return NAN;
  double end = INFINITY, volume = 0;
  for (int j = 0; j < w->napps; j++) {
    double work, vol;
    ios_app_totals(&w->apps[j], &work, &vol);
    if (work + vol / B < end) end = work + vol / B;
  }
  for (int j = 0; j < w->napps; j++) {
    const ios_app_t *a = &w->apps[j];
    double t = 0;
    for (int i = 0; i < a->nphases && t < end; i++) {
      const ios_phase_t *ph = &a->phases[i];
      double d = ph->is_io ? ph->value / B : ph->value;
      if (ph->is_io) volume += t + d <= end ? ph->value : (end - t) * B;
      t += d;
    }
  }
  if (t_end != NULL) *t_end = end;
  return end > 0 ? volume / (B * end) : NAN;
}

/* ---------------------------------------------------------------- iosim generate rr9502 */

static int cli_build(const cJSON *g, const ctx_t *c, double B, uint64_t seed, ios_workload_t *w, double **omega,
                     char *summary, size_t n) {
  double val[NPARAMS];
  int rc = read_params(g, c, val);
  if (rc == IOS_OK) rc = generate(val, c, B, seed, w, omega);
  if (rc != IOS_OK) return rc;
  double t_end, W = ios_rr9502_pressure(w, B, &t_end);
  long phases = 0;
  for (int j = 0; j < w->napps; j++)
    phases += w->apps[j].nphases;
  int nsmall = (int)val[P_NSMALL];
  snprintf(summary, n,
           "%d applications (%d small, %d medium, %d big), %ld phases, seed %llu; I/O pressure W = %.4f (Eq. 11, "
           "dedicated mode, window [0, %.6g] s)",
           w->napps, nsmall, NMEDIUM, w->napps - nsmall - NMEDIUM, phases, (unsigned long long)seed, W, t_end);
  return IOS_OK;
}

const ios_gen_kind_t ios_gen_rr9502 = {
    .kind = "rr9502",
    .summary = "RR-9502 §6.2.1 synthetic workload: small, medium and big periodic applications at an I/O pressure W",
    .scenario = ios_rr9502_generate,
    .example = "pressure=0.8",
    .build = cli_build,
    .help = "usage: iosim generate rr9502 [--set param=value]... [--seed N] [--unit B] [-o FILE]\n"
            "Writes a synthetic workload of RR-9502 §6.2.1-6.2.2 (Benoit et al.): count applications released at 0,\n"
            "each able to saturate the bandwidth B; n_small small (mean iteration 1,000 s), 20 medium (10,000 s), the\n"
            "rest big (100,000 s). Parameters (defaults: the paper's):\n"
            "  count=60  n_small=20  sigma=0.5  noise=0.5  pressure=0.5  horizon_s=2e6\n"
            "  --seed N   random seed (default 1); the scenario's \"seed\" when the generator runs inside a scenario\n"
            "             (workload.generator {\"kind\": \"rr9502\", ...}), which then gives the same instance\n"
            "  --unit B   the bandwidth B in bytes/s, a number or \"20GB/s\" (default 1: bandwidths and volumes in\n"
            "             units of B, as the RR-9502 reference simulator's instances)\n"
            "  -o FILE    FILE.json: an iosim JSON workload (array of applications, bytes and bytes/s); other names:\n"
            "             the reference simulator's sample format (name bandwidth age progress agePhase nphases wIter\n"
            "             W x_1 .. x_n, wIter = ω_i), which iosim reads as workload.file with bandwidth_unit \"pool\"\n"
            "             (default B = 1); without -o or with -o -: the sample format on standard output.\n"
            "A summary (applications, phases, the I/O pressure W of Eq. 11 in dedicated mode) goes to standard error.\n"
            "See docs/scenario.md.\n",
};
