/* iosim — arbitration: allocation then placement over a set of applications (see ios_arbiter.h). */
#include "ios_arbiter.h"
#include "ios_diag.h"

#include <stdlib.h>

int ios_arbitrate(const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w,
                  const ios_app_view_t *views, const int *sel, int k, uint64_t stream, int *n_out, int **res_out) {
  *res_out = NULL;
  ios_app_view_t *v = malloc(sizeof *v * (size_t)(k > 0 ? k : 1));
  double *caps = malloc(sizeof *caps * (size_t)(p->nres > 0 ? p->nres : 1));
  if (v == NULL || caps == NULL) {
    free(v);
    free(caps);
    return IOS_ENOMEM;
  }
  for (int i = 0; i < k; i++)
    v[i] = views[sel[i]];
  for (int i = 0; i < p->nres; i++)
    caps[i] = p->res[i].capacity;
  ios_pool_view_t pool = {.napps = k, .apps = v, .nres = p->nres, .res_capacity = caps, .total_nodes = p->ncompute};
  ios_rng_t rng;
  ios_rng_seed(&rng, s->seed, stream);
  int rc = IOS_OK, total = 0;
  if (s->allocation->allocate(&pool, &s->allocation_params, &rng, n_out) != IOS_OK) {
    ios_diag_set(s->file, "allocation",
                 "policy '%s' rejected the workload: resource counts must be 0..%d (0 only with a profile point n=0 "
                 "and a PFS host)",
                 s->allocation->name, p->nres);
    rc = IOS_EINVAL;
  }
  for (int i = 0; rc == IOS_OK && i < k; i++) {
    if (n_out[i] == 0 && (!p->has_pfs || ios_profile_bw(v[i].profile, 0) <= 0)) {
      ios_diag_set(s->file, w->apps[sel[i]].name,
                   "gets 0 resources (direct PFS access) but %s: give it a profile point \"0\" or at least 1 resource",
                   p->has_pfs ? "its profile has no point n = 0" : "the platform has no separate PFS host");
      rc = IOS_EINVAL;
    }
    total += n_out[i];
  }
  int *res = rc == IOS_OK ? malloc(sizeof *res * (size_t)(total > 0 ? total : 1)) : NULL;
  if (rc == IOS_OK && res == NULL) rc = IOS_ENOMEM;
  if (rc == IOS_OK) {
    ios_rng_seed(&rng, s->seed, stream + 1);
    if (s->placement->place(&pool, n_out, &s->placement_params, &rng, res) != IOS_OK) {
      ios_diag_set(s->file, "placement", "policy '%s' failed on this workload", s->placement->name);
      rc = IOS_EINVAL;
    }
  }
  free(v);
  free(caps);
  if (rc != IOS_OK) {
    free(res);
    return rc;
  }
  *res_out = res;
  return IOS_OK;
}
