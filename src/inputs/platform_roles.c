/* iosim — the host properties of a platform (platform_roles.h): iosim's roles, the scenario's platform_roles (the role,
 * link and nic_bw properties given to the hosts of a platform written for another tool; see ios_platform.h
 * ios_platform_roles_check) and the capacity link a host's property names. Uses no other platform file. */
#include "ios_diag.h"
#include "ios_platform.h"
#include "ios_sg_platform.h"
#include "platform_roles.h"
#include "ios_units.h"
#include "ios_value.h"

#include <fnmatch.h>
#include <math.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const ios_platform_roles[] = {"compute",    "ionode",  "oss",  "ost",  "pfs",
                                          "controller", "storage", "disk", "none", NULL};

/* A link's bandwidth (bytes/s) for `host`'s property `prop`, or an error naming the host, the link, its value and
 * the fix. */
int ios_platform_link_capacity(const char *file, const char *host, const char *prop, const char *link, double *bw) {
  double v = ios_sg_link_bandwidth(link); /* -1 when no link has that name */
  int found = v != -1.0;
  if (!found) { /* a link whose bandwidth is -1 B/s also gives -1 */
    size_t n = sg_link_count();
    sg_link_t *all = sg_link_list();
    for (size_t i = 0; all != NULL && i < n && !found; i++)
      found = strcmp(sg_link_get_name(all[i]), link) == 0;
    free(all);
  }
  if (!found) {
    ios_diag_set(file, host,
                 "its \"%s\" property names '%s', which is not a link of the platform: name an existing <link id=...>",
                 prop, link);
    return IOS_EINVAL;
  }
  if (!(v >= IOS_MIN_BANDWIDTH) || !isfinite(v)) { /* below, simulated times overflow to infinity */
    ios_diag_set(file, host,
                 "its \"%s\" property names link '%s', whose bandwidth is %g B/s: give <link id=\"%s\" "
                 "bandwidth=...> a finite bandwidth of at least 0.001 B/s (e.g. \"1.25GBps\")",
                 prop, link, v, link);
    return IOS_EINVAL;
  }
  *bw = v;
  return IOS_OK;
}

static const char *const rule_keys[] = {"hosts", "property", "value", "role", "link", "nic_bw"};

/* Most wildcards of a `hosts` glob whose matches a link template may use ({1}..{9}). */
#define MAX_CAPTURES 9

/* The end (just past the ']') of the bracket expression starting at p[0] == '[', or NULL when it has none (fnmatch
 * then takes the '[' literally). A ']' right after "[" or "[!" / "[^" belongs to the set; "[:class:]", "[.x.]" and
 * "[=x=]" are skipped whole. */
static const char *bracket_end(const char *p) {
  const char *q = p + 1;
  if (*q == '!' || *q == '^') q++;
  if (*q == ']') q++;
  while (*q != '\0' && *q != ']') {
    if (q[0] == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '=')) {
      const char close[3] = {q[1], ']', '\0'};
      const char *e = strstr(q + 2, close);
      if (e == NULL) return NULL;
      q = e + 2;
    } else
      q++;
  }
  return *q == ']' ? q + 1 : NULL;
}

/* The number of wildcards of glob `g` (*, ?, and bracket expressions; a backslash makes the next character plain). */
static int glob_wildcards(const char *g) {
  int n = 0;
  for (const char *p = g; *p != '\0';) {
    const char *e = *p == '[' ? bracket_end(p) : NULL;
    n += *p == '*' || *p == '?' || e != NULL;
    p = e != NULL ? e : p + (p[0] == '\\' && p[1] != '\0' ? 2 : 1);
  }
  return n;
}

/* Matches host name `s` against glob `p` as fnmatch(p, s, 0) does, recording in cap[k].. the span of `s` each wildcard
 * matched (each '*' as few characters as possible, the leftmost shortest match). @return 1 when it matches. */
static int glob_capture(const char *p, const char *s, const char **cap, int *len, int k) {
  for (;;) {
    if (*p == '\0') return *s == '\0';
    if (*p == '*') {
      for (const char *t = s;; t++) {
        if (k < MAX_CAPTURES) {
          cap[k] = s;
          len[k] = (int)(t - s);
        }
        if (glob_capture(p + 1, t, cap, len, k + 1)) return 1;
        if (*t == '\0') return 0;
      }
    }
    const char *e = *p == '[' ? bracket_end(p) : NULL;
    if (*p == '?' || e != NULL) {
      if (*s == '\0') return 0;
      if (e != NULL) { /* one character against the bracket expression: fnmatch's own rules */
        char set[256], one[2] = {*s, '\0'};
        if ((size_t)(e - p) >= sizeof set) return 0;
        snprintf(set, sizeof set, "%.*s", (int)(e - p), p);
        if (fnmatch(set, one, 0) != 0) return 0;
      }
      if (k < MAX_CAPTURES) {
        cap[k] = s;
        len[k] = 1;
      }
      k++;
      p = e != NULL ? e : p + 1;
      s++;
      continue;
    }
    if (p[0] == '\\' && p[1] != '\0') p++;
    if (*p != *s) return 0;
    p++;
    s++;
  }
}

/* Checks a link template: every '{' opens {host} or {N}, N in 0..nwild. @return NULL, or the bad placeholder's
 * start. */
static const char *bad_placeholder(const char *link, int nwild) {
  for (const char *q = strchr(link, '{'); q != NULL; q = strchr(q + 1, '{')) {
    if (strncmp(q, "{host}", 6) == 0) continue;
    char *end;
    long n = strtol(q + 1, &end, 10);
    if (end == q + 1 || *end != '}' || q[1] == '-' || q[1] == '+' || n > nwild) return q;
  }
  return NULL;
}

/* `link` with {host} and {0} replaced by the host's name and {N} by what the N-th wildcard of the rule's glob matched
 * (checked by bad_placeholder), into out[n]. */
static void expand_link(const char *link, const char *host, const char **cap, const int *len, char *out, size_t n) {
  size_t o = 0;
  for (const char *q = link; *q != '\0' && o + 1 < n;) {
    const char *piece = NULL;
    int plen = 0;
    if (strncmp(q, "{host}", 6) == 0) {
      piece = host;
      plen = (int)strlen(host);
      q += 6;
    } else if (*q == '{') {
      char *end;
      long k = strtol(q + 1, &end, 10);
      piece = k == 0 ? host : cap[k - 1];
      plen = k == 0 ? (int)strlen(host) : len[k - 1];
      q = end + 1;
    } else {
      out[o++] = *q++;
      continue;
    }
    int room = (int)(n - 1 - o);
    if (plen > room) plen = room;
    memcpy(out + o, piece, (size_t)plen);
    o += (size_t)plen;
  }
  out[o] = '\0';
}

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
    const cJSON *glob = cJSON_GetObjectItemCaseSensitive(r, "hosts"),
                *link = cJSON_GetObjectItemCaseSensitive(r, "link");
    int nwild = glob_wildcards(glob != NULL ? glob->valuestring : "*");
    const char *bad =
        link != NULL ? bad_placeholder(link->valuestring, nwild < MAX_CAPTURES ? nwild : MAX_CAPTURES) : NULL;
    if (bad != NULL) {
      char field[96];
      snprintf(field, sizeof field, "%s.link", where);
      ios_diag_set(file, field,
                   "'%s': '%.*s' is not a placeholder of this rule: {host} (or {0}) stands for the host's name, and "
                   "{1}..{%d} for what the wildcards (*, ?, [...]) of its hosts glob '%s' matched, the first to the "
                   "%s (e.g. hosts \"storage-*\" and link \"disk_{1}\" give host storage-3 the link disk_3)",
                   link->valuestring, (int)strcspn(bad, "}") + (bad[strcspn(bad, "}")] == '}'), bad,
                   nwild < MAX_CAPTURES ? nwild : MAX_CAPTURES, glob != NULL ? glob->valuestring : "*", "last");
      return IOS_EINVAL;
    }
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
      const char *link = rule_text(r, "link"), *nic = rule_text(r, "nic_bw"), *glob = rule_text(r, "hosts");
      if (link != NULL) {
        const char *cap[MAX_CAPTURES];
        int len[MAX_CAPTURES] = {0};
        for (int k = 0; k < MAX_CAPTURES; k++)
          cap[k] = "";
        glob_capture(glob != NULL ? glob : "*", sg_host_get_name(hosts[i]), cap, len, 0);
        char name[1024];
        expand_link(link, sg_host_get_name(hosts[i]), cap, len, name, sizeof name);
        sg_host_set_property_value(hosts[i], "link", name);
      }
      if (nic != NULL) sg_host_set_property_value(hosts[i], "nic_bw", nic);
      break;
    }
  }
  free(hosts);
}
