/* iosim — the registry of the striping policies (TAPP-IO). Add a policy: write its file, declare it here, list it. */
#include "../ios_striping.h"

#include <stddef.h>
#include <string.h>

extern const ios_striping_policy_t ios_striping_lustre_default, ios_striping_optimized, ios_striping_bpio;

const ios_striping_policy_t *const ios_striping_policies[] = {&ios_striping_lustre_default, &ios_striping_optimized,
                                                              &ios_striping_bpio, NULL};

const ios_striping_policy_t *ios_striping_find(const char *name) {
  if (name == NULL) return NULL;
  for (int i = 0; ios_striping_policies[i] != NULL; i++) {
    const ios_striping_policy_t *p = ios_striping_policies[i];
    if (strcmp(p->name, name) == 0 || (p->alias != NULL && strcmp(p->alias, name) == 0)) return p;
  }
  return NULL;
}
