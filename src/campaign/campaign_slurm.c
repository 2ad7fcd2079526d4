/* iosim — a campaign's Slurm options (its "slurm" object and `iosim sweep --emit-slurm --time ...`), checked as
 * sbatch reads them (see ios_campaign.h ios_campaign_slurm_check). */
#include "ios_campaign.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_value.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

const char *const ios_campaign_slurm_keys[IOS_CAMPAIGN_SLURM_NKEYS] = {"time", "partition", "account", "mem"};

/* Length of the run of characters of s that are digits (digits_only) or name characters [A-Za-z0-9._-]. */
static size_t span(const char *s, int digits_only) {
  size_t n = 0;
  while (isdigit((unsigned char)s[n]) ||
         (!digits_only && (isalpha((unsigned char)s[n]) || s[n] == '.' || s[n] == '_' || s[n] == '-')))
    n++;
  return n;
}

/* Whether s is sbatch's --time: [DAYS-]a[:b[:c]] of integers, at most 3 fields after "DAYS-" (HOURS[:MIN[:SEC]])
 * and without it (MIN, MIN:SEC, H:M:S), or UNLIMITED / INFINITE. */
static int slurm_time_ok(const char *s) {
  if (strcmp(s, "UNLIMITED") == 0 || strcmp(s, "INFINITE") == 0) return 1;
  size_t n = span(s, 1);
  if (n > 0 && n <= 6 && s[n] == '-') s += n + 1;
  for (int fields = 0;; s++) {
    n = span(s, 1);
    if (n == 0 || n > 8 || ++fields > 3) return 0;
    s += n;
    if (*s == '\0') return 1;
    if (*s != ':') return 0;
  }
}

int ios_campaign_slurm_check(const char *file, const char *where, const char *key, const char *value) {
  size_t len = strlen(value), n;
  const char *form = NULL;
  if (strcmp(key, "time") == 0) {
    if (!slurm_time_ok(value))
      form = "a Slurm time limit: MINUTES, MINUTES:SECONDS, HOURS:MINUTES:SECONDS, DAYS-HOURS, DAYS-HOURS:MINUTES "
             "or DAYS-HOURS:MINUTES:SECONDS in integers (e.g. 90 or 1:30:00 or 2-00:00:00), or UNLIMITED";
  } else if (strcmp(key, "partition") == 0) {
    int ok = len > 0 && len <= 200;
    for (const char *s = value; ok && *s; s += n + (s[n] == ',')) {
      n = span(s, 0);
      ok = n > 0 && (s[n] == '\0' || (s[n] == ',' && s[n + 1] != '\0'));
    }
    if (!ok) form = "a partition name, or a comma-separated list of them, of letters, digits, '.', '_' and '-'";
  } else if (strcmp(key, "account") == 0) {
    if (len == 0 || len > 200 || span(value, 0) != len)
      form = "an account name of 1 to 200 letters, digits, '.', '_' and '-'";
  } else if (strcmp(key, "mem") == 0) {
    n = span(value, 1);
    if (n == 0 || n > 12 || (len != n && (len != n + 1 || strchr("KMGTkmgt", value[n]) == NULL)))
      form = "a memory size per node: an integer number of megabytes, or with a suffix K, M, G or T (e.g. 4G)";
  } else {
    form = "one of the keys time, partition, account, mem";
  }
  if (form == NULL) return IOS_OK;
  char shown[64];
  snprintf(shown, sizeof shown, "%s", value);
  for (char *q = shown; *q; q++)
    if ((unsigned char)*q < 0x20 || *q == 0x7f) *q = '?';
  ios_diag_set(file, where, "'%s%s' is not %s", shown, len >= sizeof shown ? "..." : "", form);
  return IOS_EINVAL;
}

const char *ios_campaign_slurm(const ios_campaign_t *c, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c->campaign, "slurm"), key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

int ios_campaign_slurm_validate(const ios_campaign_t *c) {
  const cJSON *slurm = cJSON_GetObjectItemCaseSensitive(c->campaign, "slurm"), *item;
  if (slurm != NULL && ios_value_object(slurm, "{\"time\": \"1:00:00\", \"partition\": \"batch\", \"mem\": \"4G\"}",
                                        c->file, "slurm") != IOS_OK)
    return IOS_EINVAL;
  cJSON_ArrayForEach(item, slurm) {
    char where[256];
    const char *value;
    snprintf(where, sizeof where, "slurm.%s", item->string);
    if (ios_value_check_keys(slurm, ios_campaign_slurm_keys, IOS_CAMPAIGN_SLURM_NKEYS, c->file, "slurm") != IOS_OK)
      return IOS_EINVAL;
    if (ios_value_string(item, 0, "the option's value as a string, e.g. \"1:00:00\" or \"4G\"", c->file, where,
                         &value) != IOS_OK ||
        ios_campaign_slurm_check(c->file, where, item->string, value) != IOS_OK)
      return IOS_EINVAL;
  }
  return IOS_OK;
}
