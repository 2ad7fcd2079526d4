/* iosim — the registry of every policy of the five families. Add a policy: write its file in the family's folder,
 * declare it here and list it in its family's table (docs/extending.md). */
#include "ios_policy.h"
#include "ios_storage.h"
#include "ios_striping.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const ios_allocation_policy_t ios_allocation_fixed, ios_allocation_static, ios_allocation_random,
    ios_allocation_best_bandwidth, ios_allocation_nsys, ios_allocation_tcpu, ios_allocation_zero, ios_allocation_one,
    ios_allocation_static_ceil, ios_allocation_size, ios_allocation_process, ios_allocation_mckp, ios_allocation_oracle;
extern const ios_placement_policy_t ios_placement_random, ios_placement_gnc, ios_placement_gc;
extern const ios_sharing_policy_t ios_sharing_fairshare, ios_sharing_fcfs, ios_sharing_maxmin, ios_sharing_interference,
    ios_sharing_timeshare, ios_sharing_set10, ios_sharing_greedy_yield, ios_sharing_greedy_com,
    ios_sharing_lookahead_greedy_yield, ios_sharing_periodic_greedy_yield, ios_sharing_best_next_event;
extern const ios_storage_policy_t ios_storage_random, ios_storage_round_robin, ios_storage_worst_fit,
    ios_storage_best_bandwidth;
extern const ios_striping_policy_t ios_striping_lustre_default, ios_striping_optimized, ios_striping_bpio;

/* Every family's struct begins with IOS_POLICY_DESCRIPTOR: each is listed through that common initial part. */
#define P(x) ((const ios_policy_t *)&(x))

static const ios_policy_t *const allocation[] = {P(ios_allocation_fixed),       P(ios_allocation_static),
                                                 P(ios_allocation_random),      P(ios_allocation_best_bandwidth),
                                                 P(ios_allocation_nsys),        P(ios_allocation_tcpu),
                                                 P(ios_allocation_zero),        P(ios_allocation_one),
                                                 P(ios_allocation_static_ceil), P(ios_allocation_size),
                                                 P(ios_allocation_process),     P(ios_allocation_mckp),
                                                 P(ios_allocation_oracle),      NULL};
static const ios_policy_t *const placement[] = {P(ios_placement_random), P(ios_placement_gnc), P(ios_placement_gc),
                                                NULL};
static const ios_policy_t *const sharing[] = {P(ios_sharing_fairshare),
                                              P(ios_sharing_fcfs),
                                              P(ios_sharing_maxmin),
                                              P(ios_sharing_interference),
                                              P(ios_sharing_timeshare),
                                              P(ios_sharing_set10),
                                              P(ios_sharing_greedy_yield),
                                              P(ios_sharing_greedy_com),
                                              P(ios_sharing_lookahead_greedy_yield),
                                              P(ios_sharing_periodic_greedy_yield),
                                              P(ios_sharing_best_next_event),
                                              NULL};
static const ios_policy_t *const storage[] = {P(ios_storage_random), P(ios_storage_round_robin),
                                              P(ios_storage_worst_fit), P(ios_storage_best_bandwidth), NULL};
static const ios_policy_t *const striping[] = {P(ios_striping_lustre_default), P(ios_striping_optimized),
                                               P(ios_striping_bpio), NULL};

/* The sharing family grows at run time (ios_sharing_register): its built-in table, then the added policies, in a
 * NULL-terminated list that doubles when full (never freed: the policies live as long as the process). */
#define NSHARING (sizeof sharing / sizeof sharing[0] - 1)
static const ios_policy_t **sharing_all; /* [sharing_cap]; NULL until the first policy is added */
static size_t sharing_n, sharing_cap;    /* policies listed (built-in ones included), entries allocated */

static const struct {
  const char *name, *description;
  const ios_policy_t *const *list;
} families[IOS_NFAMILIES] = {
    [IOS_FAMILY_ALLOCATION] = {"allocation", "how many resources per application", allocation},
    [IOS_FAMILY_PLACEMENT] = {"placement", "which resources", placement},
    [IOS_FAMILY_SHARING] = {"sharing", "rate of each pending transfer, per resource", sharing},
    [IOS_FAMILY_STORAGE] = {"storage", "StorAlloc: which burst-buffer disk holds a storage request", storage},
    [IOS_FAMILY_STRIPING] = {"striping", "Lustre: the OSTs of each I/O operation's files", striping},
};

const char *ios_family_name(ios_family_t f) {
  return f >= 0 && f < IOS_NFAMILIES ? families[f].name : NULL;
}

const char *ios_family_description(ios_family_t f) {
  return f >= 0 && f < IOS_NFAMILIES ? families[f].description : NULL;
}

int ios_family_find(const char *name) {
  for (int f = 0; name != NULL && f < IOS_NFAMILIES; f++)
    if (strcmp(families[f].name, name) == 0) return f;
  return -1;
}

const ios_policy_t *const *ios_policy_list(ios_family_t f) {
  if (f == IOS_FAMILY_SHARING && sharing_all != NULL) return sharing_all;
  return f >= 0 && f < IOS_NFAMILIES ? families[f].list : NULL;
}

int ios_sharing_register(const ios_sharing_policy_t *p) {
  if (p == NULL || p->name == NULL || p->share == NULL) return IOS_EINVAL;
  if (ios_policy_find(IOS_FAMILY_SHARING, p->name) != NULL ||
      (p->alias != NULL && ios_policy_find(IOS_FAMILY_SHARING, p->alias) != NULL))
    return IOS_EINVAL;
  if (sharing_all == NULL || sharing_n + 2 > sharing_cap) { /* room for p and the NULL after it */
    size_t cap = sharing_cap > 0 ? 2 * sharing_cap : 2 * (NSHARING + 1);
    const ios_policy_t **grown = realloc(sharing_all, sizeof *grown * cap);
    if (grown == NULL) return IOS_ENOMEM;
    if (sharing_all == NULL) {
      for (size_t i = 0; i < NSHARING; i++)
        grown[i] = sharing[i];
      sharing_n = NSHARING;
    }
    sharing_all = grown;
    sharing_cap = cap;
  }
  sharing_all[sharing_n++] = P(*p);
  sharing_all[sharing_n] = NULL;
  return IOS_OK;
}

const ios_policy_t *ios_policy_find(ios_family_t f, const char *name) {
  const ios_policy_t *const *list = ios_policy_list(f);
  for (int i = 0; list != NULL && name != NULL && list[i] != NULL; i++)
    if (strcmp(list[i]->name, name) == 0 || (list[i]->alias != NULL && strcmp(list[i]->alias, name) == 0))
      return list[i];
  return NULL;
}

char *ios_policy_names(ios_family_t f, char *buf, size_t n) {
  const ios_policy_t *const *list = ios_policy_list(f);
  size_t len = 0;
  if (n > 0) buf[0] = '\0';
  for (int i = 0; list != NULL && list[i] != NULL && len < n; i++)
    len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", list[i]->name);
  return buf;
}

const ios_allocation_policy_t *ios_allocation_find(const char *name) {
  return (const ios_allocation_policy_t *)ios_policy_find(IOS_FAMILY_ALLOCATION, name);
}

const ios_placement_policy_t *ios_placement_find(const char *name) {
  return (const ios_placement_policy_t *)ios_policy_find(IOS_FAMILY_PLACEMENT, name);
}

const ios_sharing_policy_t *ios_sharing_find(const char *name) {
  return (const ios_sharing_policy_t *)ios_policy_find(IOS_FAMILY_SHARING, name);
}

const ios_storage_policy_t *ios_storage_policy_find(const char *name) {
  return (const ios_storage_policy_t *)ios_policy_find(IOS_FAMILY_STORAGE, name);
}

const ios_striping_policy_t *ios_striping_find(const char *name) {
  return (const ios_striping_policy_t *)ios_policy_find(IOS_FAMILY_STRIPING, name);
}

void ios_params_defaults(int nparams, const ios_param_spec_t *specs, ios_params_t *p) {
  for (int i = 0; i < IOS_MAX_PARAMS; i++)
    p->v[i] = i < nparams ? specs[i].def : 0.0;
}
