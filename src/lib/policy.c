/* iosim — the policy face of libiosim (include/iosim/policy.h): the registry's families and policies, parameter values,
 * and the allocation and placement decisions over a caller's pool. Every decision is the registered policy's own
 * function (policies/); this file only checks the caller's arrays and translates. */
#include "ios_lib.h"

#include "ios_profile.h"
#include "ios_value.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------------ families, policies
 */
const char *iosim_family_name(int family) {
  return ios_family_name((ios_family_t)family);
}

const char *iosim_family_description(int family) {
  return ios_family_description((ios_family_t)family);
}

int iosim_family_find(const char *name) {
  int f = ios_family_find(name);
  if (f < 0)
    return ios_lib_fail(IOSIM_EINVAL,
                        "family '%s': unknown; the families are allocation, placement, sharing, storage and striping",
                        name != NULL ? name : "(null)");
  return f;
}

int iosim_policy_count(int family) {
  const ios_policy_t *const *list = ios_policy_list((ios_family_t)family);
  if (list == NULL) return ios_lib_fail(IOSIM_EINVAL, "family %d: out of range 0..%d", family, IOSIM_NFAMILIES - 1);
  int n = 0;
  while (list[n] != NULL)
    n++;
  return n;
}

const iosim_policy_t *iosim_policy_at(int family, int index) {
  int n = iosim_policy_count(family);
  if (n < 0) return NULL;
  if (index < 0 || index >= n) {
    ios_lib_fail(IOSIM_EINVAL, "policy index %d of family %s: out of range 0..%d", index, ios_family_name(family),
                 n - 1);
    return NULL;
  }
  return (const iosim_policy_t *)ios_policy_list((ios_family_t)family)[index];
}

const iosim_policy_t *iosim_policy_find(int family, const char *name) {
  if (iosim_policy_count(family) < 0) return NULL;
  const ios_policy_t *p = ios_policy_find((ios_family_t)family, name);
  if (p == NULL) {
    char names[1024];
    ios_lib_fail(IOSIM_EINVAL, "%s policy '%s': unknown; the %s policies are: %s", ios_family_name(family),
                 name != NULL ? name : "(null)", ios_family_name(family),
                 ios_policy_names((ios_family_t)family, names, sizeof names));
  }
  return (const iosim_policy_t *)p;
}

int iosim_policy_family(const iosim_policy_t *policy) {
  for (int f = 0; policy != NULL && f < IOS_NFAMILIES; f++) {
    const ios_policy_t *const *list = ios_policy_list(f);
    for (int i = 0; list[i] != NULL; i++)
      if (list[i] == ios_lib_policy(policy)) return f;
  }
  return ios_lib_fail(IOSIM_EINVAL, "the policy is NULL or not one of iosim_policy_at's");
}

int ios_lib_check_family(const ios_policy_t *p, int f, const char *function) {
  if (p != NULL && iosim_policy_family((const iosim_policy_t *)p) == f) return 1;
  ios_lib_fail(IOSIM_EINVAL, "%s: policy '%s' is not a%s %s policy: give one of iosim_policy_at(IOSIM_%s, ...)",
               function, p != NULL ? p->name : "(null)", f == IOS_FAMILY_ALLOCATION ? "n" : "", ios_family_name(f),
               f == IOS_FAMILY_ALLOCATION  ? "ALLOCATION"
               : f == IOS_FAMILY_PLACEMENT ? "PLACEMENT"
               : f == IOS_FAMILY_SHARING   ? "SHARING"
               : f == IOS_FAMILY_STORAGE   ? "STORAGE"
                                           : "STRIPING");
  return 0;
}

#define FIELD(getter, field)                                                                                           \
  const char *iosim_policy_##getter(const iosim_policy_t *policy) {                                                    \
    return policy != NULL ? ios_lib_policy(policy)->field : NULL;                                                      \
  }
FIELD(name, name)
FIELD(alias, alias)
FIELD(description, description)
FIELD(source, source)
#undef FIELD

int iosim_policy_param_count(const iosim_policy_t *policy) {
  return policy != NULL ? ios_lib_policy(policy)->nparams : ios_lib_fail(IOSIM_EINVAL, "the policy is NULL");
}

int iosim_policy_param_find(const iosim_policy_t *policy, const char *name) {
  const ios_policy_t *p = ios_lib_policy(policy);
  if (p == NULL) return ios_lib_fail(IOSIM_EINVAL, "the policy is NULL");
  for (int i = 0; name != NULL && i < p->nparams; i++)
    if (strcmp(p->params[i].name, name) == 0) return i;
  char names[512] = "";
  for (int i = 0; i < p->nparams; i++) {
    size_t l = strlen(names);
    snprintf(names + l, sizeof names - l, "%s%s", i ? ", " : "", p->params[i].name);
  }
  return ios_lib_fail(IOSIM_EINVAL, "'%s' is not a parameter of policy '%s'; its parameters are: %s",
                      name != NULL ? name : "(null)", p->name, p->nparams ? names : "(none)");
}

static const ios_param_spec_t *spec_at(const iosim_policy_t *policy, int i) {
  const ios_policy_t *p = ios_lib_policy(policy);
  return p != NULL && i >= 0 && i < p->nparams ? &p->params[i] : NULL;
}

const char *iosim_policy_param_name(const iosim_policy_t *policy, int i) {
  return spec_at(policy, i) != NULL ? spec_at(policy, i)->name : NULL;
}

const char *iosim_policy_param_unit(const iosim_policy_t *policy, int i) {
  return spec_at(policy, i) != NULL ? spec_at(policy, i)->unit : NULL;
}

const char *iosim_policy_param_description(const iosim_policy_t *policy, int i) {
  return spec_at(policy, i) != NULL ? spec_at(policy, i)->description : NULL;
}

double iosim_policy_param_default(const iosim_policy_t *policy, int i) {
  return spec_at(policy, i) != NULL ? spec_at(policy, i)->def : NAN;
}

int iosim_policy_param_range(const iosim_policy_t *policy, int i, double *lo, double *hi, int *integer) {
  const ios_param_spec_t *s = spec_at(policy, i);
  if (s == NULL) return ios_lib_fail(IOSIM_EINVAL, "parameter %d: out of range (or the policy is NULL)", i);
  int bounded = s->lo < s->hi;
  if (lo != NULL) *lo = bounded ? s->lo : -INFINITY;
  if (hi != NULL) *hi = bounded ? s->hi : INFINITY;
  if (integer != NULL) *integer = s->integer;
  return bounded;
}

/* ---------------------------------------------------------------------------------------------------- parameter values
 */
iosim_params_t *iosim_params_new(const iosim_policy_t *policy) {
  if (policy == NULL) {
    ios_lib_fail(IOSIM_EINVAL, "iosim_params_new: the policy is NULL");
    return NULL;
  }
  iosim_params_t *v = malloc(sizeof *v);
  if (v == NULL) {
    ios_lib_fail(IOSIM_ENOMEM, "iosim_params_new: out of memory");
    return NULL;
  }
  v->policy = ios_lib_policy(policy);
  ios_params_defaults(v->policy->nparams, v->policy->params, &v->v);
  return v;
}

/* value (text == NULL) or text into parameter `name`, read as a scenario reads it. */
static int params_read(iosim_params_t *params, const char *name, double value, const char *text) {
  if (params == NULL) return ios_lib_fail(IOSIM_EINVAL, "the parameter values are NULL");
  int i = iosim_policy_param_find((const iosim_policy_t *)params->policy, name);
  if (i < 0) return i;
  ios_num_spec_t spec = ios_scenario_param_spec(&params->policy->params[i]);
  char where[160];
  snprintf(where, sizeof where, "%s.%s", params->policy->name, name);
  double out;
  int rc;
  if (text != NULL) {
    rc = ios_value_number_text(text, &spec, "iosim_params_parse", where, &out);
  } else {
    cJSON *num = cJSON_CreateNumber(value);
    if (num == NULL) return ios_lib_fail(IOSIM_ENOMEM, "iosim_params_set: out of memory");
    rc = isfinite(value) ? ios_value_number(num, &spec, "iosim_params_set", where, &out) : IOS_EINVAL;
    cJSON_Delete(num);
    if (!isfinite(value))
      return ios_lib_fail(IOSIM_EINVAL, "iosim_params_set: %s: is %g: give a finite number (%s)", where, value,
                          spec.what);
  }
  if (rc != IOS_OK) return ios_lib_fail_diag(IOSIM_EINVAL, "bad parameter value");
  params->v.v[i] = out;
  return IOSIM_OK;
}

int iosim_params_set(iosim_params_t *params, const char *name, double value) {
  return params_read(params, name, value, NULL);
}

int iosim_params_parse(iosim_params_t *params, const char *name, const char *text) {
  if (text == NULL) return ios_lib_fail(IOSIM_EINVAL, "iosim_params_parse: the text is NULL");
  return params_read(params, name, 0, text);
}

int iosim_params_get(const iosim_params_t *params, const char *name, double *value) {
  if (params == NULL) return ios_lib_fail(IOSIM_EINVAL, "the parameter values are NULL");
  int i = iosim_policy_param_find((const iosim_policy_t *)params->policy, name);
  if (i < 0) return i;
  if (value != NULL) *value = params->v.v[i];
  return IOSIM_OK;
}

const iosim_policy_t *iosim_params_policy(const iosim_params_t *params) {
  return params != NULL ? (const iosim_policy_t *)params->policy : NULL;
}

void iosim_params_free(iosim_params_t *params) {
  free(params);
}

const ios_params_t *ios_lib_params(const ios_policy_t *p, const iosim_params_t *params, ios_params_t *tmp) {
  if (params == NULL) {
    ios_params_defaults(p->nparams, p->params, tmp);
    return tmp;
  }
  if (params->policy != p) {
    ios_lib_fail(IOSIM_EINVAL, "the parameter values are policy '%s''s, not '%s''s: make them with iosim_params_new",
                 params->policy->name, p->name);
    return NULL;
  }
  return &params->v;
}

/* ------------------------------------------------------------------------------------------- allocation and placement
 */
struct iosim_pool {
  int nres, total_nodes, napps, cap;
  double *capacity;        /* [nres] */
  ios_app_view_t *apps;    /* [cap] */
  ios_profile_t *profiles; /* [cap]: apps[j].profile points at profiles[j] (rebased when the arrays grow) */
};

iosim_pool_t *iosim_pool_new(int nres, const double *capacity, int total_nodes) {
  if (nres < 1 || capacity == NULL || total_nodes < 1) {
    ios_lib_fail(IOSIM_EINVAL,
                 "iosim_pool_new: nres = %d, total_nodes = %d, capacity %s: give nres >= 1 resources "
                 "with their bandwidths and total_nodes >= 1",
                 nres, total_nodes, capacity ? "given" : "NULL");
    return NULL;
  }
  for (int r = 0; r < nres; r++)
    if (!(capacity[r] > 0) || !isfinite(capacity[r])) {
      ios_lib_fail(IOSIM_EINVAL,
                   "iosim_pool_new: capacity[%d] = %g: give every resource a finite bandwidth > 0 "
                   "(bytes/s)",
                   r, capacity[r]);
      return NULL;
    }
  iosim_pool_t *p = calloc(1, sizeof *p);
  if (p != NULL) p->capacity = malloc(sizeof *p->capacity * (size_t)nres);
  if (p == NULL || p->capacity == NULL) {
    free(p);
    ios_lib_fail(IOSIM_ENOMEM, "iosim_pool_new: out of memory");
    return NULL;
  }
  memcpy(p->capacity, capacity, sizeof *capacity * (size_t)nres);
  p->nres = nres;
  p->total_nodes = total_nodes;
  return p;
}

int iosim_pool_add_app(iosim_pool_t *pool, int nodes, double volume_bytes, double work_s, int npoints, const int *n,
                       const double *bw) {
  if (pool == NULL) return ios_lib_fail(IOSIM_EINVAL, "iosim_pool_add_app: the pool is NULL");
  if (nodes < 1 || !(volume_bytes >= 0) || !isfinite(volume_bytes) || !(work_s >= 0) || !isfinite(work_s))
    return ios_lib_fail(IOSIM_EINVAL,
                        "iosim_pool_add_app: nodes = %d, volume = %g bytes, work = %g s: give nodes >= 1 "
                        "and a finite volume and work >= 0",
                        nodes, volume_bytes, work_s);
  if (npoints < 1 || npoints > IOS_PROFILE_MAX || n == NULL || bw == NULL)
    return ios_lib_fail(IOSIM_EINVAL, "iosim_pool_add_app: a profile of %d points: give 1..%d points n[k], bw[k]",
                        npoints, IOS_PROFILE_MAX);
  for (int k = 0; k < npoints; k++)
    if (n[k] < 0 || (k > 0 && n[k] <= n[k - 1]) || !(bw[k] > 0) || !isfinite(bw[k]))
      return ios_lib_fail(IOSIM_EINVAL,
                          "iosim_pool_add_app: profile point %d (n = %d, bw = %g bytes/s): give counts "
                          ">= 0 in strictly increasing order with finite bandwidths > 0",
                          k, n[k], bw[k]);
  if (pool->napps == pool->cap) {
    int cap = pool->cap ? 2 * pool->cap : 8;
    ios_app_view_t *a = realloc(pool->apps, sizeof *a * (size_t)cap);
    if (a != NULL) pool->apps = a;
    ios_profile_t *pr = a != NULL ? realloc(pool->profiles, sizeof *pr * (size_t)cap) : NULL;
    if (pr == NULL) return ios_lib_fail(IOSIM_ENOMEM, "iosim_pool_add_app: out of memory");
    pool->profiles = pr;
    pool->cap = cap;
    for (int j = 0; j < pool->napps; j++)
      pool->apps[j].profile = &pool->profiles[j];
  }
  int j = pool->napps++;
  ios_profile_t *pr = &pool->profiles[j];
  memset(pr, 0, sizeof *pr);
  pr->npoints = npoints;
  for (int k = 0; k < npoints; k++) {
    pr->n[k] = n[k];
    pr->bw[k] = bw[k];
  }
  pool->apps[j] = (ios_app_view_t){
      .nodes = nodes, .volume = volume_bytes, .work = work_s, .profile = pr, .requested_n = -1, .processes = nodes};
  return j;
}

int iosim_pool_set_app(iosim_pool_t *pool, int j, int requested_n, int processes) {
  if (pool == NULL || j < 0 || j >= pool->napps)
    return ios_lib_fail(IOSIM_EINVAL, "iosim_pool_set_app: application %d: out of range 0..%d", j,
                        pool != NULL ? pool->napps - 1 : -1);
  pool->apps[j].requested_n = requested_n < 0 ? -1 : requested_n;
  pool->apps[j].processes = processes > 0 ? processes : pool->apps[j].nodes;
  return IOSIM_OK;
}

int iosim_pool_app_count(const iosim_pool_t *pool) {
  return pool != NULL ? pool->napps : ios_lib_fail(IOSIM_EINVAL, "the pool is NULL");
}

int iosim_pool_resource_count(const iosim_pool_t *pool) {
  return pool != NULL ? pool->nres : ios_lib_fail(IOSIM_EINVAL, "the pool is NULL");
}

void iosim_pool_free(iosim_pool_t *pool) {
  if (pool == NULL) return;
  free(pool->capacity);
  free(pool->apps);
  free(pool->profiles);
  free(pool);
}

static ios_pool_view_t pool_view(const iosim_pool_t *pool) {
  return (ios_pool_view_t){.napps = pool->napps,
                           .apps = pool->apps,
                           .nres = pool->nres,
                           .res_capacity = pool->capacity,
                           .total_nodes = pool->total_nodes};
}

int iosim_allocate(const iosim_policy_t *policy, const iosim_params_t *params, const iosim_pool_t *pool,
                   iosim_rng_t *rng, int *n_out) {
  const ios_policy_t *p = ios_lib_policy(policy);
  if (!ios_lib_check_family(p, IOS_FAMILY_ALLOCATION, "iosim_allocate")) return IOSIM_EINVAL;
  if (pool == NULL || pool->napps < 1 || n_out == NULL)
    return ios_lib_fail(IOSIM_EINVAL, "iosim_allocate: give a pool with at least one application and n_out [K]");
  ios_params_t tmp;
  const ios_params_t *v = ios_lib_params(p, params, &tmp);
  if (v == NULL) return IOSIM_EINVAL;
  ios_rng_t local;
  ios_rng_seed(&local, 0, IOSIM_STREAM_ALLOCATION);
  int *n = malloc(sizeof *n * (size_t)pool->napps);
  if (n == NULL) return ios_lib_fail(IOSIM_ENOMEM, "iosim_allocate: out of memory");
  ios_pool_view_t in = pool_view(pool);
  int rc = ((const ios_allocation_policy_t *)p)->allocate(&in, v, rng != NULL ? &rng->r : &local, n);
  for (int j = 0; rc == IOS_OK && j < pool->napps; j++)
    if (n[j] < 0 || n[j] > pool->nres) rc = IOS_EINTERNAL;
  if (rc == IOS_OK)
    memcpy(n_out, n, sizeof *n * (size_t)pool->napps);
  else
    ios_lib_fail(rc == IOS_EINTERNAL ? IOSIM_EINTERNAL : IOSIM_EINVAL,
                 "allocation policy '%s' refused this pool (%d applications, %d resources): check the applications' "
                 "profiles and requested counts against the policy's description (iosim_policy_description)",
                 p->name, pool->napps, pool->nres);
  free(n);
  return rc == IOS_OK ? IOSIM_OK : rc == IOS_EINTERNAL ? IOSIM_EINTERNAL : IOSIM_EINVAL;
}

int iosim_place(const iosim_policy_t *policy, const iosim_params_t *params, const iosim_pool_t *pool, const int *n,
                iosim_rng_t *rng, int *res_out) {
  const ios_policy_t *p = ios_lib_policy(policy);
  if (!ios_lib_check_family(p, IOS_FAMILY_PLACEMENT, "iosim_place")) return IOSIM_EINVAL;
  if (pool == NULL || pool->napps < 1 || n == NULL || res_out == NULL)
    return ios_lib_fail(IOSIM_EINVAL, "iosim_place: give a pool with at least one application, n [K] and res_out");
  long total = 0;
  for (int j = 0; j < pool->napps; j++) {
    if (n[j] < 0 || n[j] > pool->nres)
      return ios_lib_fail(IOSIM_EINVAL, "iosim_place: n[%d] = %d: give counts in 0..%d (the pool's resources)", j, n[j],
                          pool->nres);
    total += n[j];
  }
  ios_params_t tmp;
  const ios_params_t *v = ios_lib_params(p, params, &tmp);
  if (v == NULL) return IOSIM_EINVAL;
  ios_rng_t local;
  ios_rng_seed(&local, 0, IOSIM_STREAM_PLACEMENT);
  int *res = malloc(sizeof *res * (size_t)(total > 0 ? total : 1));
  if (res == NULL) return ios_lib_fail(IOSIM_ENOMEM, "iosim_place: out of memory");
  ios_pool_view_t in = pool_view(pool);
  int rc = ((const ios_placement_policy_t *)p)->place(&in, n, v, rng != NULL ? &rng->r : &local, res);
  for (long k = 0; rc == IOS_OK && k < total; k++)
    if (res[k] < 0 || res[k] >= pool->nres) rc = IOS_EINTERNAL;
  if (rc == IOS_OK)
    memcpy(res_out, res, sizeof *res * (size_t)total);
  else
    ios_lib_fail(rc == IOS_EINTERNAL ? IOSIM_EINTERNAL : IOSIM_EINVAL,
                 "placement policy '%s' refused these counts on this pool (%d applications, %d resources)", p->name,
                 pool->napps, pool->nres);
  free(res);
  return rc == IOS_OK ? IOSIM_OK : rc == IOS_EINTERNAL ? IOSIM_EINTERNAL : IOSIM_EINVAL;
}
