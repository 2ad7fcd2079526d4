/* iosim — the scenario's platform_roles: iosim's role, link and nic_bw properties given to the hosts of a platform
 * written for another tool (see ios_platform.h ios_platform_roles_check). */
#include "ios_diag.h"
#include "ios_platform.h"
#include "ios_platform_parts.h"
#include "ios_units.h"
#include "ios_value.h"

#include <fnmatch.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const rule_keys[] = {"hosts", "property", "value", "role", "link", "nic_bw"};

int ios_platform_roles_check(const cJSON *rules, const char *file) {
  char where[64];
  if (!cJSON_IsArray(rules)) {
    ios_diag_set(file, "platform_roles",
                 "must be an array of rules, e.g. [{\"property\": \"role\", \"value\": \"master\", \"role\": "
                 "\"controller\"}, {\"hosts\": \"*\", \"role\": \"compute\", \"nic_bw\": \"1.25GBps\"}]");
    return IOS_EINVAL;
  }
  int k = 0;
  const cJSON *r;
  cJSON_ArrayForEach(r, rules) {
    snprintf(where, sizeof where, "platform_roles[%d]", k++);
    if (ios_value_object(r, "{\"hosts\": \"node-*\", \"role\": \"compute\"}", file, where) != IOS_OK ||
        ios_value_check_keys(r, rule_keys, 6, file, where) != IOS_OK)
      return IOS_EINVAL;
    for (int f = 0; f < 6; f++) {
      const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, rule_keys[f]);
      char field[96];
      snprintf(field, sizeof field, "%s.%s", where, rule_keys[f]);
      const char *text;
      if (v != NULL && ios_value_string(v, 1, NULL, file, field, &text) != IOS_OK) return IOS_EINVAL;
    }
    static const ios_num_spec_t nic_spec = {IOS_MIN_BANDWIDTH,
                                            IOS_VALUE_MAX_BANDWIDTH,
                                            0,
                                            0,
                                            IOS_UNIT_BANDWIDTH,
                                            "the compute node's NIC bandwidth, e.g. \"1.25GBps\""};
    const cJSON *nic = cJSON_GetObjectItemCaseSensitive(r, "nic_bw");
    char role_field[96], nic_field[96];
    snprintf(role_field, sizeof role_field, "%s.role", where);
    snprintf(nic_field, sizeof nic_field, "%s.nic_bw", where);
    int idx;
    double bw;
    if (ios_value_choice(cJSON_GetObjectItemCaseSensitive(r, "role"), ios_platform_roles, "an iosim role", file,
                         role_field, &idx) != IOS_OK ||
        (nic != NULL && ios_value_number(nic, &nic_spec, file, nic_field, &bw) != IOS_OK))
      return IOS_EINVAL;
  }
  return IOS_OK;
}

/* The text of rule r's field `key`, or NULL. */
static const char *rule_text(const cJSON *r, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int rule_matches(const cJSON *r, sg_host_t h) {
  const char *glob = rule_text(r, "hosts"), *prop = rule_text(r, "property"), *value = rule_text(r, "value");
  if (glob != NULL && fnmatch(glob, sg_host_get_name(h), 0) != 0) return 0;
  const char *have = prop != NULL ? sg_host_get_property_value(h, prop) : NULL;
  if (prop != NULL && (have == NULL || (value != NULL && strcmp(have, value) != 0))) return 0;
  return 1;
}

/* Gives each host the role, link and nic_bw properties of the first rule of `rules` that matches it. */
void ios_platform_roles_apply(const cJSON *rules) {
  if (rules == NULL) return;
  size_t nh = sg_host_count();
  sg_host_t *hosts = sg_host_list();
  for (size_t i = 0; hosts != NULL && i < nh; i++) {
    const cJSON *r;
    cJSON_ArrayForEach(r, rules) {
      if (!rule_matches(r, hosts[i])) continue;
      sg_host_set_property_value(hosts[i], "role", rule_text(r, "role"));
      const char *link = rule_text(r, "link"), *nic = rule_text(r, "nic_bw"),
                 *at = link ? strstr(link, "{host}") : NULL;
      if (at != NULL) {
        char name[1024];
        snprintf(name, sizeof name, "%.*s%s%s", (int)(at - link), link, sg_host_get_name(hosts[i]), at + 6);
        sg_host_set_property_value(hosts[i], "link", name);
      } else if (link != NULL)
        sg_host_set_property_value(hosts[i], "link", link);
      if (nic != NULL) sg_host_set_property_value(hosts[i], "nic_bw", nic);
      break;
    }
  }
  free(hosts);
}
