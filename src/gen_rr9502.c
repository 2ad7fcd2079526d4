/* iosim — the RR-9502 §6.2.1-6.2.2 synthetic workload generator and `iosim generate` (see ios_gen_rr9502.h). */
#include "ios_gen_rr9502.h"
#include "ios_cli.h"
#include "ios_diag.h"
#include "ios_units.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STREAM_PARAMS 9502 /* ω_i, w^(0)_i and u_i of every application, in application order */
#define STREAM_NOISE 9503  /* γ_io, γ_cpu of every iteration, in application then iteration order */
#define MAX_ITERATIONS 1000000.0
#define MAX_PHASES 50000000.0
#define NMEDIUM 20

/* One generator parameter: default, range [lo, hi] (lo excluded when lo_open), whether an integer, and what it is
 * (quoted in messages with the paper's values). */
typedef struct {
  const char *name;
  double def, lo, hi;
  int lo_open, integer;
  const char *meaning;
} param_t;

enum { P_COUNT, P_NSMALL, P_SIGMA, P_NOISE, P_PRESSURE, P_HORIZON, NPARAMS };

static const param_t params[NPARAMS] = {
    {"count", 60, 20, 10000, 0, 1,
     "m, the number of applications: n_small small, 20 medium, the rest big (RR-9502: 60)"},
    {"n_small", 20, 0, 9980, 0, 1, "the number of small applications, μ = 1,000 s (RR-9502 §6.2.2: 20)"},
    {"sigma", 0.5, 0, 100, 0, 0, "σ, the standard deviation of ω_i relative to μ_i: σ' = μσ (RR-9502 §6.2.2: 0.5)"},
    {"noise", 0.5, 0, 1, 0, 0, "ν, the per-iteration noise: γ ~ U[−ν, ν] (RR-9502 §6.2.2: 0.5)"},
    {"pressure", 0.5, 0, 100, 1, 0, "W^GOAL, the aimed I/O pressure of Eq. 11 (RR-9502 §6.2.2: 0.2 to 1.1)"},
    {"horizon_s", 2e6, 0, 1e8, 1, 0, "h in s, about the dedicated length of every application (RR-9502: 2e6)"},
};

/* Where messages point: `obj` names the parameter set ("workload.generator", "--set"), `sep` joins a name to it. */
typedef struct {
  const char *file, *obj, *sep;
} ctx_t;

static void value_text(const cJSON *v, char *buf, size_t n) {
  if (cJSON_IsNumber(v)) {
    snprintf(buf, n, "%.17g", v->valuedouble);
    return;
  }
  char *s = cJSON_PrintUnformatted(v);
  snprintf(buf, n, "%s", s != NULL ? s : "?");
  if (strlen(buf) > 40) strcpy(buf + 37, "...");
  free(s);
}

/* Checks `g` (kind, names, types, ranges) and fills val[NPARAMS]. */
static int read_params(const cJSON *g, const ctx_t *c, double *val) {
  char where[96], text[64];
  const cJSON *item;
  cJSON_ArrayForEach(item, g) {
    int ok = strcmp(item->string, "kind") == 0;
    for (int k = 0; k < NPARAMS; k++)
      ok |= strcmp(item->string, params[k].name) == 0;
    if (!ok) {
      ios_diag_set(c->file, c->obj,
                   "unknown field '%s'; valid: kind, count, n_small, sigma, noise, pressure, horizon_s", item->string);
      return IOS_EINVAL;
    }
  }
  const cJSON *kind = cJSON_GetObjectItemCaseSensitive(g, "kind");
  if (!cJSON_IsString(kind) || strcmp(kind->valuestring, "rr9502") != 0) {
    snprintf(where, sizeof where, "%s%skind", c->obj, c->sep);
    ios_diag_set(c->file, where, "must be \"rr9502\" (RR-9502 §6.2.1 synthetic workload)");
    return IOS_EINVAL;
  }
  for (int k = 0; k < NPARAMS; k++) {
    const param_t *p = &params[k];
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(g, p->name);
    val[k] = p->def;
    if (v == NULL) continue;
    double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (isnan(x) || x < p->lo || x > p->hi || (p->lo_open && x == p->lo) || (p->integer && x != floor(x))) {
      snprintf(where, sizeof where, "%s%s%s", c->obj, c->sep, p->name);
      value_text(v, text, sizeof text);
      ios_diag_set(c->file, where, "is %s: give %s in %c%g, %g] — %s", text, p->integer ? "an integer" : "a number",
                   p->lo_open ? '(' : '[', p->lo, p->hi, p->meaning);
      return IOS_EINVAL;
    }
    val[k] = x;
  }
  if (val[P_NSMALL] + NMEDIUM > val[P_COUNT]) {
    snprintf(where, sizeof where, "%s%sn_small", c->obj, c->sep);
    ios_diag_set(c->file, where,
                 "is %g but count is %g: the 20 medium applications of RR-9502 §6.2.2 need count >= n_small + 20; "
                 "lower n_small or raise count",
                 val[P_NSMALL], val[P_COUNT]);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* A standard normal deviate (Box-Muller; 1 − u is in (0, 1], so the logarithm is finite). */
static double normal(ios_rng_t *rng) {
  double u = 1.0 - ios_rng_uniform(rng), v = ios_rng_uniform(rng);
  return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

static const char *class_name(int i, int nsmall) {
  return i < nsmall ? "small" : i < nsmall + NMEDIUM ? "medium" : "big";
}

/* Generates into `out` with bandwidth B; hands ω_i [count] over to *omega_out when not NULL (the caller frees). */
static int generate(const double *val, const ctx_t *c, double B, uint64_t seed, ios_workload_t *out,
                    double **omega_out) {
  int m = (int)val[P_COUNT], nsmall = (int)val[P_NSMALL];
  double sigma = val[P_SIGMA], nu = val[P_NOISE], goal = val[P_PRESSURE], h = val[P_HORIZON];
  double *omega = malloc(sizeof *omega * (size_t)m), *w0 = malloc(sizeof *w0 * (size_t)m);
  double *u = malloc(sizeof *u * (size_t)m);
  long *niter = malloc(sizeof *niter * (size_t)m);
  char where[96];
  int rc = omega && w0 && u && niter ? IOS_OK : IOS_ENOMEM;
  ios_rng_t rng;
  ios_rng_seed(&rng, seed, STREAM_PARAMS);
  double sum_u = 0, phases = 0;
  for (int i = 0; rc == IOS_OK && i < m; i++) {
    double mu = i < nsmall ? 1e3 : i < nsmall + NMEDIUM ? 1e4 : 1e5, x = mu;
    /* N(μ, μσ) truncated to x >= h/10^6 (> 0) by rejection; h <= 1e8 keeps the bound <= μ/10: few redraws */
    for (int tries = 0; sigma > 0; tries++) {
      x = mu + mu * sigma * normal(&rng);
      if (x > 0 && ceil(h / x) <= MAX_ITERATIONS) break;
      if (tries == 10000) {
        rc = IOS_EINTERNAL;
        break;
      }
    }
    omega[i] = x;
    w0[i] = ios_rng_uniform(&rng) * x;
    u[i] = ios_rng_uniform(&rng);
    sum_u += u[i];
    niter[i] = (long)ceil(h / x);
    phases += 2.0 * (double)niter[i] + 1;
  }
  if (rc == IOS_OK && phases > MAX_PHASES) {
    snprintf(where, sizeof where, "%s%shorizon_s", c->obj, c->sep);
    ios_diag_set(c->file, where,
                 "with count %d the instance would have %.0f phases (more than %.0f): lower horizon_s or count", m,
                 phases, MAX_PHASES);
    rc = IOS_EINVAL;
  }
  for (int i = 0; rc == IOS_OK && i < m; i++)
    if (u[i] * goal / sum_u > 1) {
      snprintf(where, sizeof where, "%s%spressure", c->obj, c->sep);
      ios_diag_set(c->file, where,
                   "is %g: application %d (of %d) would spend a fraction φ = u·W/Σu = %g > 1 of its time in I/O; "
                   "lower pressure or raise count",
                   goal, i, m, u[i] * goal / sum_u);
      rc = IOS_EINVAL;
    }
  ios_workload_t w = {0, NULL};
  ios_rng_seed(&rng, seed, STREAM_NOISE);
  int index[3] = {0, 0, 0};
  for (int i = 0; rc == IOS_OK && i < m; i++) {
    ios_app_t *a = ios_workload_add(&w);
    const char *cls = class_name(i, nsmall);
    int k = cls[0] == 's' ? 0 : cls[0] == 'm' ? 1 : 2;
    char name[32];
    snprintf(name, sizeof name, "%s-%d", cls, index[k]++);
    if (a == NULL || (a->name = strdup(name)) == NULL ||
        (a->phases = malloc(sizeof *a->phases * (size_t)(2 * niter[i] + 1))) == NULL) {
      rc = IOS_ENOMEM;
      break;
    }
    a->profile.npoints = 1;
    a->profile.n[0] = 1;
    a->profile.bw[0] = B;
    a->has_profile = 1;
    double phi = u[i] * goal / sum_u, t_io = phi * omega[i], t_cpu = (1 - phi) * omega[i];
    a->phases[0] = (ios_phase_t){w0[i], 0};
    for (long j = 0; j < niter[i]; j++) {
      double g_io = nu * (2 * ios_rng_uniform(&rng) - 1), g_cpu = nu * (2 * ios_rng_uniform(&rng) - 1);
      a->phases[2 * j + 1] = (ios_phase_t){((1 + g_io) * t_io) * B, 1};
      a->phases[2 * j + 2] = (ios_phase_t){(1 + g_cpu) * t_cpu, 0};
    }
    a->nphases = (int)(2 * niter[i] + 1);
  }
  if (rc == IOS_EINTERNAL) ios_diag_set(c->file, c->obj, "could not draw an iteration length ω (internal error)");
  if (rc == IOS_OK && omega_out != NULL) {
    *omega_out = omega;
    omega = NULL;
  }
  free(omega);
  free(w0);
  free(u);
  free(niter);
  if (rc != IOS_OK) {
    ios_workload_free(&w);
    return rc;
  }
  *out = w;
  return IOS_OK;
}

/* Moves the applications of `src` to the end of `dst`. */
static int append(ios_workload_t *dst, ios_workload_t *src) {
  if (dst->napps == 0) {
    free(dst->apps);
    *dst = *src;
    return IOS_OK;
  }
  ios_app_t *apps = realloc(dst->apps, sizeof *apps * (size_t)(dst->napps + src->napps));
  if (apps == NULL) return IOS_ENOMEM;
  memcpy(apps + dst->napps, src->apps, sizeof *apps * (size_t)src->napps);
  dst->apps = apps;
  dst->napps += src->napps;
  free(src->apps);
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
  if ((rc = append(w, &gen)) != IOS_OK) ios_workload_free(&gen);
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

/* ---------------------------------------------------------------- iosim generate */

static void help(FILE *f) {
  fputs("usage: iosim generate rr9502 [--set param=value]... [--seed N] [--unit B] [-o FILE]\n"
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
        f);
}

static void num(char *buf, size_t n, double x) {
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(buf, n, "%.*g", prec, x);
    if (strtod(buf, NULL) == x) return;
  }
}

static int write_sample(FILE *f, const ios_workload_t *w, const double *omega, double B) {
  char a[40], b[40];
  for (int j = 0; j < w->napps; j++) {
    const ios_app_t *app = &w->apps[j];
    num(a, sizeof a, B);
    num(b, sizeof b, omega[j]);
    if (fprintf(f, "%s %s 0 0 0 %d %s W", app->name, a, app->nphases, b) < 0) return IOS_EIO;
    for (int i = 0; i < app->nphases; i++) {
      num(a, sizeof a, app->phases[i].value);
      if (fprintf(f, " %s", a) < 0) return IOS_EIO;
    }
    if (fputc('\n', f) == EOF) return IOS_EIO;
  }
  return IOS_OK;
}

static int write_json(FILE *f, const ios_workload_t *w, double B) {
  char a[40];
  if (fputs("[\n", f) == EOF) return IOS_EIO;
  for (int j = 0; j < w->napps; j++) {
    const ios_app_t *app = &w->apps[j];
    num(a, sizeof a, B);
    if (fprintf(f, "  {\"name\": \"%s\", \"nodes\": 1, \"release\": 0, \"profile\": {\"1\": %s}, \"phases\": [",
                app->name, a) < 0)
      return IOS_EIO;
    for (int i = 0; i < app->nphases; i++) {
      num(a, sizeof a, app->phases[i].value);
      if (fprintf(f, "%s{\"%s\": %s}", i ? ", " : "", app->phases[i].is_io ? "io" : "work", a) < 0) return IOS_EIO;
    }
    if (fputs(j + 1 < w->napps ? "]},\n" : "]}\n", f) == EOF) return IOS_EIO;
  }
  return fputs("]\n", f) == EOF ? IOS_EIO : IOS_OK;
}

/* Writes the instance to `path` ("-" or NULL: standard output) through a temporary file of the same directory
 * renamed on success, or directly when `path` exists and is not a regular file (/dev/null, a FIFO: never replaced). */
/* What iosim generate writes: a sample file, or a JSON workload when the path ends in .json. */
typedef struct {
  const ios_workload_t *w;
  const double *omega;
  double B;
  int json;
} output_t;

static int write_instance(FILE *f, void *ctx) {
  const output_t *o = ctx;
  return o->json ? write_json(f, o->w, o->B) : write_sample(f, o->w, o->omega, o->B);
}

static int parse_seed(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = s[0] >= '0' && s[0] <= '9' ? strtoull(s, &end, 10) : 0;
  if (!(s[0] >= '0' && s[0] <= '9') || *end != '\0' || errno != 0) {
    ios_diag_set("command line", "--seed", "is \"%s\": give a non-negative integer such as 7", s);
    return IOS_EINVAL;
  }
  *out = (uint64_t)v;
  return IOS_OK;
}

int ios_gen_main(int argc, char **argv) {
  if (argc < 2 || ios_cli_is_help(argv[1])) {
    help(stdout);
    return 0;
  }
  for (int i = 2; i < argc; i++)
    if (ios_cli_is_help(argv[i])) {
      help(stdout);
      return 0;
    }
  const char *path = NULL;
  uint64_t seed = 1;
  double B = 1;
  ctx_t c = {"command line", "--set", " "};
  cJSON *g = cJSON_CreateObject();
  int rc = g != NULL && cJSON_AddStringToObject(g, "kind", "rr9502") != NULL ? IOS_OK : IOS_ENOMEM;
  if (rc == IOS_OK && strcmp(argv[1], "rr9502") != 0) {
    ios_diag_set(c.file, "KIND",
                 "unknown generator \"%s\": iosim generate knows rr9502 (RR-9502 §6.2.1); write iosim generate "
                 "rr9502 [--set param=value]... [--seed N] [--unit B] [-o FILE]",
                 argv[1]);
    rc = IOS_EINVAL;
  }
  for (int i = 2; rc == IOS_OK && i < argc; i++) {
    int has_value = i + 1 < argc;
    if (strcmp(argv[i], "--set") == 0 && has_value) {
      rc = ios_cli_add_set(g, argv[++i], "iosim generate rr9502", "pressure=0.8");
    } else if (strcmp(argv[i], "--seed") == 0 && has_value) {
      rc = parse_seed(argv[++i], &seed);
    } else if (strcmp(argv[i], "--unit") == 0 && has_value) {
      if (ios_parse_bandwidth(argv[++i], &B) != IOS_OK || !(B > 0)) {
        ios_diag_set(c.file, "--unit", "is \"%s\": give the bandwidth B > 0 in bytes/s, e.g. 1 or \"20GB/s\"", argv[i]);
        rc = IOS_EINVAL;
      }
    } else if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--out") == 0) && has_value) {
      path = argv[++i];
    } else {
      int opt = strcmp(argv[i], "--set") == 0 || strcmp(argv[i], "--seed") == 0 || strcmp(argv[i], "--unit") == 0 ||
                strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--out") == 0;
      ios_diag_set(c.file, argv[i],
                   "%s: write iosim generate rr9502 [--set param=value]... [--seed N] [--unit B] [-o FILE]",
                   opt ? "needs a value" : "unexpected argument");
      rc = IOS_EINVAL;
    }
  }
  double val[NPARAMS], *omega = NULL;
  ios_workload_t w = {0, NULL};
  if (rc == IOS_OK) rc = read_params(g, &c, val);
  if (rc == IOS_OK) rc = generate(val, &c, B, seed, &w, &omega);
  size_t plen = path != NULL ? strlen(path) : 0;
  output_t out = {&w, omega, B, plen > 5 && strcmp(path + plen - 5, ".json") == 0};
  if (rc == IOS_OK) rc = ios_cli_write(path, write_instance, &out);
  if (rc == IOS_OK) {
    double t_end, W = ios_rr9502_pressure(&w, B, &t_end);
    long phases = 0;
    for (int j = 0; j < w.napps; j++)
      phases += w.apps[j].nphases;
    int nsmall = (int)val[P_NSMALL];
    fprintf(stderr,
            "iosim: %s: %d applications (%d small, %d medium, %d big), %ld phases, seed %llu; I/O pressure W = %.4f "
            "(Eq. 11, dedicated mode, window [0, %.6g] s)\n",
            path != NULL && strcmp(path, "-") != 0 ? path : "standard output", w.napps, nsmall, NMEDIUM,
            w.napps - nsmall - NMEDIUM, phases, (unsigned long long)seed, W, t_end);
  }
  free(omega);
  ios_workload_free(&w);
  cJSON_Delete(g);
  if (rc == IOS_OK) return 0;
  fprintf(stderr, "iosim: error: %s\n", ios_diag_message()[0] ? ios_diag_message() : ios_strerror(rc));
  return rc == IOS_EINVAL || rc == IOS_EIO ? 2 : 1;
}
