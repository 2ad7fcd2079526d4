/* iosim — the registry of the storage placement policies (StorAlloc §4.2). Add one: write its file in
 * policies/storage/, declare it here, list it. */
#include "ios_storage.h"

#include <stddef.h>
#include <string.h>

extern const ios_storage_policy_t ios_storage_random, ios_storage_round_robin, ios_storage_worst_fit,
    ios_storage_best_bandwidth;

const ios_storage_policy_t *const ios_storage_policies[] = {&ios_storage_random, &ios_storage_round_robin,
                                                            &ios_storage_worst_fit, &ios_storage_best_bandwidth, NULL};

const ios_storage_policy_t *ios_storage_policy_find(const char *name) {
  if (name == NULL) return NULL;
  for (int i = 0; ios_storage_policies[i] != NULL; i++) {
    const ios_storage_policy_t *p = ios_storage_policies[i];
    if (strcmp(p->name, name) == 0 || (p->alias != NULL && strcmp(p->alias, name) == 0)) return p;
  }
  return NULL;
}
