/* iosim — the RR-9549 §5.3 workload generator over the FORGE MareNostrum 4 patterns (kind "rr9549"). */
#include "ios_gen_rr9549.h"
#include "ios_datasets.h"
#include "ios_diag.h"
#include "ios_gen.h"
#include "ios_scenario.h"
#include "ios_value.h"
#include "ios_workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double ios_rr9549_bound(double c) {
  if (!(c > 0 && c < 1)) return -1;
  double lo = 0, hi = 1;
  while (log1p(hi) > c * hi) /* f(b) = log(1+b) − c·b is positive right of 0 and negative far right */
    hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
    double mid = 0.5 * (lo + hi);
    if (log1p(mid) > c * mid)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

void ios_rr9549_class_nodes(int k, int qcpu, int *out) {
  /* 10 % of the applications (large) share 75 % of Q^cpu, 30 % (medium) 20 %, the remaining 60 % (small) 5 %. */
  int nl = (int)lround(0.1 * k), nm = (int)lround(0.3 * k);
  if (nl + nm > k) nm = k - nl;
  int ns = k - nl - nm;
  for (int j = 0; j < k; j++) {
    double share = j < nl ? 0.75 / nl : j < nl + nm ? 0.20 / nm : 0.05 / ns;
    int q = (int)floor(share * qcpu + 1e-9);
    out[j] = q < 1 ? 1 : q;
  }
}

/* The parameters of the rr9549 kind, in the order of its table (ios_rr9549_generate). */
enum { P_COUNT, P_LOAD, P_HORIZON, P_PMIN, P_PMAX, P_RES, P_CLASSES, P_QCPU, P_INDEP, P_DIRECT, NP };

/* The FORGE patterns a workload is drawn from: their node counts, processes and profiles (arrays of npat, owned). */
typedef struct {
  int npat, *nodes, *procs;
  ios_profile_t *prof;
} patterns_t;

/* Checks the parameters against each other and the type of "profiles"; *b = the bound of X, log(1+b) = b·Θ·N/K. */
static int check_params(const cJSON *g, const char *file, const double *val, double *b) {
  static const double max_phases = 5e7; /* phases of the whole workload (800 MB) */
  double K = val[P_COUNT], theta = val[P_LOAD], pmin = val[P_PMIN], pmax = val[P_PMAX], N = val[P_RES];
  if (pmax < pmin) {
    ios_diag_set(file, "workload.generator.phases_max", "is %g but phases_min is %g: give phases_min <= phases_max",
                 pmax, pmin);
    return IOS_EINVAL;
  }
  if (2 * K * pmax > max_phases) {
    ios_diag_set(file, "workload.generator.phases_max",
                 "is %g: %g applications of up to %g iterations could hold %g phases, more than %g; lower phases_max "
                 "or count",
                 pmax, K, pmax, 2 * K * pmax, max_phases);
    return IOS_EINVAL;
  }
  const cJSON *pf = cJSON_GetObjectItemCaseSensitive(g, "profiles");
  if (pf != NULL && !cJSON_IsString(pf)) {
    char text[64];
    ios_value_text(pf, text, sizeof text);
    ios_diag_set(file, "workload.generator.profiles", "is %s: give the path of the FORGE CSV (a string)", text);
    return IOS_EINVAL;
  }
  *b = ios_rr9549_bound(theta * N / K);
  if (*b < 0) {
    ios_diag_set(file, "workload.generator.io_load",
                 "Θ·N/K = %g·%g/%g must be < 1 for RR-9549 §5.3: lower io_load or use more applications", theta, N, K);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Reads the patterns of "profiles" (default: the MN4 FORGE dataset under IOSIM_DATA_DIR), at least K of them. */
static int read_patterns(const cJSON *g, const char *file, double K, patterns_t *pt) {
  const cJSON *pf = cJSON_GetObjectItemCaseSensitive(g, "profiles");
  char *path =
      ios_expand_path(cJSON_IsString(pf) ? pf->valuestring : IOS_DATA_FORGE_MN4, file, "workload.generator.profiles");
  if (path == NULL) return IOS_EINVAL;
  int rc = ios_read_forge_processes(path, &pt->npat, &pt->nodes, &pt->procs, &pt->prof);
  free(path);
  if (rc != IOS_OK) return rc;
  if (K > pt->npat) {
    ios_diag_set(file, "workload.generator.count", "asks for %g applications but the dataset has %d patterns", K,
                 pt->npat);
    free(pt->nodes);
    free(pt->procs);
    free(pt->prof);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* The draws' random stream: IOS_STREAM_RR9549, or one per Θ (from its bits) with independent_loads. */
static uint64_t draw_stream(const double *val) {
  uint64_t stream = IOS_STREAM_RR9549;
  if (val[P_INDEP] == 1) {
    double theta = val[P_LOAD];
    uint64_t bits;
    memcpy(&bits, &theta, sizeof bits);
    stream = (bits * 0x9E3779B97F4A7C15ULL) | 1ULL;
  }
  return stream;
}

/* Removes the point n = 0 (direct file-system access) of `p`, when it has one and another point. */
static void drop_direct(ios_profile_t *p) {
  if (p->npoints < 2 || p->n[0] != 0) return;
  for (int i = 1; i < p->npoints; i++) {
    p->n[i - 1] = p->n[i];
    p->bw[i - 1] = p->bw[i];
  }
  p->npoints--;
}

/* Makes `a` pattern pat's application on `nodes` nodes: its profile, then p drawn iterations of work, I/O. */
static int fill_app(ios_app_t *a, const patterns_t *pt, int pat, int nodes, const double *val, double b,
                    ios_rng_t *rng) {
  double H = val[P_HORIZON], pmin = val[P_PMIN], pmax = val[P_PMAX];
  a->nodes = nodes;
  /* processes per node as measured (12, 24 or 48 on MareNostrum 4), on the application's Q_j nodes */
  double procs_j = (double)pt->procs[pat] / pt->nodes[pat] * a->nodes;
  a->processes = procs_j > 2e9 ? 2000000000 : (int)lround(procs_j);
  a->profile = pt->prof[pat];
  a->has_profile = 1;
  if (val[P_DIRECT] == 0) drop_direct(&a->profile);
  int nph = (int)pmin + (int)ios_rng_below(rng, (uint64_t)(pmax - pmin + 1));
  double x = b * ios_rng_uniform(rng);
  double volume = H * ios_profile_bw(&a->profile, 1) / (1 + x), work = H * (1 - 1 / (1 + x));
  a->phases = malloc(sizeof *a->phases * (size_t)(2 * nph));
  if (a->phases == NULL) return IOS_ENOMEM;
  for (int i = 0; i < nph; i++) {
    a->phases[2 * i] = (ios_phase_t){work / nph, 0};
    a->phases[2 * i + 1] = (ios_phase_t){volume / nph, 1};
  }
  a->nphases = 2 * nph;
  return IOS_OK;
}

/* Draws the K applications into `w`: K patterns without replacement, each made an application by fill_app. */
static int draw_apps(const patterns_t *pt, const double *val, double b, uint64_t seed, ios_workload_t *w) {
  double K = val[P_COUNT];
  int npat = pt->npat;
  ios_rng_t rng;
  ios_rng_seed(&rng, seed, draw_stream(val));
  int *perm = malloc(sizeof *perm * (size_t)npat);
  int *qclass = val[P_CLASSES] == 1 ? malloc(sizeof *qclass * (size_t)K) : NULL;
  int rc = perm && (val[P_CLASSES] == 0 || qclass) ? IOS_OK : IOS_ENOMEM;
  if (qclass) ios_rr9549_class_nodes((int)K, (int)val[P_QCPU], qclass);
  for (int i = 0; rc == IOS_OK && i < npat; i++)
    perm[i] = i;
  for (int j = 0; rc == IOS_OK && j < (int)K; j++) {
    int pick = j + (int)ios_rng_below(&rng, (uint64_t)(npat - j));
    int pat = perm[pick];
    perm[pick] = perm[j];
    perm[j] = pat;
    ios_app_t *a = ios_workload_add(w);
    char name[32];
    snprintf(name, sizeof name, "mn4-p%03d", pat + 1);
    if (a == NULL || (a->name = strdup(name)) == NULL) {
      rc = IOS_ENOMEM;
      break;
    }
    rc = fill_app(a, pt, pat, qclass ? qclass[j] : pt->nodes[pat], val, b, &rng);
  }
  free(perm);
  free(qclass);
  return rc;
}

/* RR-9549 §5.3 over FORGE patterns: K patterns drawn without replacement (IPDPS'21 §3.2), each keeping its node
 * count and measured profile; p ~ U{phases_min..phases_max}; X ~ U[0, b] with log(1+b) = b·Θ·N/K; T_cpu + T_io(1) =
 * horizon H; V_io = H·b_j(1)/(1+X), T_cpu = H·(1 − 1/(1+X)); p equal phases of work then I/O. N is the platform's
 * pool size unless "resources" fixes it (so one workload can be replayed on platforms of different sizes).
 * "size_classes" 1: Q_j from RR-9549 §5.3's classes instead of the pattern's clients (see ios_rr9549_class_nodes);
 * the processes s_a keep the pattern's processes per node. "independent_loads" 1: the random stream depends on Θ as
 * well as on the seed, so the sets of a campaign over Θ are independent draws (0: every Θ draws the same patterns
 * and numbers, common random numbers). "direct_access" 0: the applications' profiles lose their point n = 0, so no
 * policy can send an application straight to the file system (RR-9549's model has no such path). */
int ios_rr9549_generate(const cJSON *g, const char *file, const ios_platform_t *p, uint64_t seed, ios_workload_t *w) {
  ios_gen_param_t params[NP] = {
      {"count", 16, 1, 1e6, 0, 1, "K, the number of applications (patterns drawn from the dataset)"},
      {"io_load", 0.5, 0, 1e6, 1, 0, "Θ, the target I/O-load (RR-9549 §5.3; Θ·N/K < 1)"},
      {"horizon_s", 5000, 0, 1e9, 1, 0, "H in s, T_cpu + T_io(1) of every application"},
      {"phases_min", 2, 1, 1e7, 0, 1, "the fewest work/I/O iterations of an application"},
      {"phases_max", 20, 1, 1e7, 0, 1, "the most work/I/O iterations of an application (>= phases_min)"},
      {"resources", p->nres > 0 ? p->nres : 1, 1, 1e6, 0, 1, "N, the pool size (default: the platform's)"},
      {"size_classes", 0, 0, 1, 0, 1,
       "1: Q_j from RR-9549 §5.3's classes (10 % of the applications on 75 % of compute_nodes, 30 % on 20 %, 60 % "
       "on 5 %); 0: each pattern's own compute nodes (IPDPS'21 §3.2)"},
      {"compute_nodes", 480, 1, 1e7, 0, 1, "Q^cpu, the compute nodes the size classes share (RR-9549 §5.3: 480)"},
      {"independent_loads", 0, 0, 1, 0, 1,
       "1: the draws depend on io_load as well as on the seed (independent sets across Θ); 0: the same draws at "
       "every Θ"},
      {"direct_access", 1, 0, 1, 0, 1,
       "1: keep the profiles' point n = 0 (direct file-system access, IPDPS'21 §2); 0: drop it, so every "
       "application goes through the I/O resources (RR-9549 §3.1's model)"},
  };
  static const char *const strings[] = {"profiles", NULL};
  ios_gen_ctx_t c = {file, "workload.generator", "."};
  double val[NP];
  const cJSON *kind = cJSON_GetObjectItemCaseSensitive(g, "kind");
  if (!cJSON_IsString(kind) || strcmp(kind->valuestring, "rr9549") != 0) {
    ios_diag_set(file, "workload.generator.kind",
                 "must be \"rr9549\" (RR-9549 §5.3 over FORGE profiles), \"rr9502\" (RR-9502 §6.2.1 synthetic) or "
                 "\"apex\" (RR-9502 §6.3.1 APEX windows), \"kernels\" (IPDPS'21 §5.3 measured kernels) or \"ior\" "
                 "(TAPP-IO striping jobs)");
    return IOS_EINVAL;
  }
  if (ios_gen_read_params(g, &c, "rr9549", params, NP, strings, val) != IOS_OK) return IOS_EINVAL;
  double b;
  if (check_params(g, file, val, &b) != IOS_OK) return IOS_EINVAL;
  patterns_t pt;
  int rc = read_patterns(g, file, val[P_COUNT], &pt);
  if (rc != IOS_OK) return rc;
  rc = draw_apps(&pt, val, b, seed, w);
  free(pt.nodes);
  free(pt.procs);
  if (rc == IOS_OK) { /* the dataset stays with the workload: RR-9549 §6.2 fits the policies' knowledge over it */
    free(w->population);
    w->population = pt.prof;
    w->npopulation = pt.npat;
  } else
    free(pt.prof);
  return rc;
}

const ios_gen_kind_t ios_gen_rr9549 = {
    .kind = "rr9549",
    .summary = "RR-9549 §5.3 over FORGE/MN4 patterns (IPDPS'21 §3.2 sets): K applications at an I/O-load Θ",
    .scenario = ios_rr9549_generate,
    .data_param = "profiles",
    .data_default = IOS_DATA_FORGE_MN4,
};
