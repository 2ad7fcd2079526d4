/* iosim — the registry of every policy, by family. Add a policy: write its file, declare it here, list it. */
#include "ios_policy.h"

#include <stddef.h>
#include <string.h>

extern const ios_allocation_policy_t ios_allocation_fixed, ios_allocation_static, ios_allocation_random,
    ios_allocation_best_bandwidth, ios_allocation_nsys, ios_allocation_tcpu, ios_allocation_zero, ios_allocation_one,
    ios_allocation_static_ceil, ios_allocation_size, ios_allocation_process, ios_allocation_mckp, ios_allocation_oracle;
extern const ios_placement_policy_t ios_placement_random, ios_placement_gnc, ios_placement_gc;
extern const ios_sharing_policy_t ios_sharing_fairshare, ios_sharing_fcfs, ios_sharing_maxmin, ios_sharing_timeshare,
    ios_sharing_set10, ios_sharing_greedy_yield, ios_sharing_greedy_com, ios_sharing_lookahead_greedy_yield,
    ios_sharing_periodic_greedy_yield, ios_sharing_best_next_event;

const ios_allocation_policy_t *const ios_allocation_policies[] = {
    &ios_allocation_fixed,       &ios_allocation_static,
    &ios_allocation_random,      &ios_allocation_best_bandwidth,
    &ios_allocation_nsys,        &ios_allocation_tcpu,
    &ios_allocation_zero,        &ios_allocation_one,
    &ios_allocation_static_ceil, &ios_allocation_size,
    &ios_allocation_process,     &ios_allocation_mckp,
    &ios_allocation_oracle,      NULL};
const ios_placement_policy_t *const ios_placement_policies[] = {&ios_placement_random, &ios_placement_gnc,
                                                                &ios_placement_gc, NULL};
const ios_sharing_policy_t *const ios_sharing_policies[] = {&ios_sharing_fairshare,
                                                            &ios_sharing_fcfs,
                                                            &ios_sharing_maxmin,
                                                            &ios_sharing_timeshare,
                                                            &ios_sharing_set10,
                                                            &ios_sharing_greedy_yield,
                                                            &ios_sharing_greedy_com,
                                                            &ios_sharing_lookahead_greedy_yield,
                                                            &ios_sharing_periodic_greedy_yield,
                                                            &ios_sharing_best_next_event,
                                                            NULL};

static int matches(const char *name, const char *alias, const char *wanted) {
  return wanted != NULL && (strcmp(name, wanted) == 0 || (alias != NULL && strcmp(alias, wanted) == 0));
}

const ios_allocation_policy_t *ios_allocation_find(const char *name) {
  for (int i = 0; ios_allocation_policies[i] != NULL; i++)
    if (matches(ios_allocation_policies[i]->name, ios_allocation_policies[i]->alias, name))
      return ios_allocation_policies[i];
  return NULL;
}

const ios_placement_policy_t *ios_placement_find(const char *name) {
  for (int i = 0; ios_placement_policies[i] != NULL; i++)
    if (matches(ios_placement_policies[i]->name, ios_placement_policies[i]->alias, name))
      return ios_placement_policies[i];
  return NULL;
}

const ios_sharing_policy_t *ios_sharing_find(const char *name) {
  for (int i = 0; ios_sharing_policies[i] != NULL; i++)
    if (matches(ios_sharing_policies[i]->name, ios_sharing_policies[i]->alias, name)) return ios_sharing_policies[i];
  return NULL;
}

void ios_params_defaults(int nparams, const ios_param_spec_t *specs, ios_params_t *p) {
  for (int i = 0; i < IOS_MAX_PARAMS; i++)
    p->v[i] = i < nparams ? specs[i].def : 0.0;
}
