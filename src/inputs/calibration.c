/* The calibration a scenario names, applied to its platform (ios_calibration.h; docs/validation.md, "A run with its
 * calibration"). */
#include "ios_calibration.h"

#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_sg_platform.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file `path` as a string (owned), or NULL. */
static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  char *text = NULL;
  long len = -1;
  if (f != NULL && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (text = malloc((size_t)len + 1)) != NULL && fread(text, 1, (size_t)len, f) == (size_t)len) {
    text[len] = '\0';
  } else {
    free(text);
    text = NULL;
  }
  if (f != NULL) fclose(f);
  return text;
}

/* The sharing model the calibration chose for its file system `fs` (file_systems[k].sharing,
 * python/iosim/calibrate.py): *kappa = its kappa_per_ost_Bps (B/s per OST) when its policy is "interference", else 0
 * (max-min, or a file without "sharing"). @return IOS_OK, or IOS_EINVAL with ios_diag_set naming the file, the field,
 * the value and the fix. */
static int chosen_kappa(const char *path, const cJSON *fs, double *kappa) {
  const cJSON *sh = cJSON_GetObjectItemCaseSensitive(fs, "sharing");
  const cJSON *pol = cJSON_GetObjectItemCaseSensitive(sh, "policy");
  const cJSON *k = cJSON_GetObjectItemCaseSensitive(sh, "kappa_per_ost_Bps");
  *kappa = 0;
  if (sh == NULL || cJSON_IsNull(sh)) return IOS_OK; /* a file written before the sharing choice: max-min */
  if (!cJSON_IsString(pol) || (strcmp(pol->valuestring, "interference") != 0 && strcmp(pol->valuestring, "maxmin"))) {
    char *v = cJSON_PrintUnformatted(pol);
    ios_diag_set(path, "file_systems[].sharing.policy",
                 "is %s, not \"interference\" or \"maxmin\"; fix: iosim calibrate again (it writes one of them)",
                 v != NULL ? v : "missing");
    cJSON_free(v);
    return IOS_EINVAL;
  }
  if (strcmp(pol->valuestring, "interference") != 0) return IOS_OK;
  if (!cJSON_IsNumber(k) || !(k->valuedouble > 0) || !isfinite(k->valuedouble)) {
    char *v = cJSON_PrintUnformatted(k);
    ios_diag_set(path, "file_systems[].sharing.kappa_per_ost_Bps",
                 "is %s: sharing \"interference\" needs a positive finite kappa per OST (B/s); fix: iosim calibrate "
                 "again, or set file_systems[].sharing.policy to \"maxmin\"",
                 v != NULL ? v : "missing");
    cJSON_free(v);
    return IOS_EINVAL;
  }
  *kappa = k->valuedouble;
  return IOS_OK;
}

/* The index of the scenario's sharing parameter `kappa` when its policy is `interference`, else -1. */
static int kappa_param(const ios_scenario_t *s) {
  if (strcmp(s->sharing->name, "interference") != 0) return -1;
  for (int i = 0; i < s->sharing->nparams; i++)
    if (strcmp(s->sharing->params[i].name, "kappa") == 0) return i;
  return -1;
}

/* The calibration's kappa (B/s per OST, > 0) given to a scenario whose sharing is `interference` and gave no kappa
 * itself: in its parameters and in its resolved tree (results.json shows what ran). */
static void set_kappa(ios_scenario_t *s, int idx, double kappa) {
  s->sharing_params.v[idx] = kappa;
  cJSON *num = cJSON_CreateNumber(kappa);
  if (num != NULL &&
      !cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(s->resolved, "sharing"), "kappa", num))
    cJSON_Delete(num);
}

int ios_calibration_apply(ios_scenario_t *s, ios_platform_t *p) {
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(s->resolved, "calibration");
  if (!cJSON_IsString(name) || name->valuestring[0] == '\0') return IOS_OK;
  const char *path = name->valuestring;
  char *text = read_text(path);
  if (text == NULL) {
    ios_diag_set(path, "calibration",
                 "cannot be read: give the file iosim calibrate wrote (-o FILE), with a path relative to the scenario");
    return IOS_EIO;
  }
  cJSON *cal = cJSON_Parse(text);
  free(text);
  int rc = IOS_OK;
  const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(cal, "format");
  const cJSON *fss = cJSON_GetObjectItemCaseSensitive(cal, "file_systems");
  const cJSON *fs = NULL, *it;
  int nfit = 0;
  cJSON_ArrayForEach(it, fss) {
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(it, "ost_capacity_Bps");
    if (cJSON_IsNumber(c)) {
      nfit++;
      fs = it;
    }
  }
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(fs, "ost_capacity_Bps");
  const cJSON *sys = cJSON_GetObjectItemCaseSensitive(fs, "system"), *fsn = cJSON_GetObjectItemCaseSensitive(fs, "fs");
  double kappa = 0;
  if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "iosim-calibration/1") != 0) {
    ios_diag_set(path, "format",
                 "is not \"iosim-calibration/1\": not a calibration file; fix: write it with "
                 "iosim calibrate");
    rc = IOS_EINVAL;
  } else if (nfit != 1) {
    ios_diag_set(path, "file_systems[].ost_capacity_Bps",
                 "%d file system(s) with a per-OST capacity; a run applies exactly one; fix: iosim calibrate on "
                 "the measurements of the one file system the platform stands for (TOKIO-ABC, or Darshan logs with "
                 "a Lustre layout)",
                 nfit);
    rc = IOS_EINVAL;
  } else if (!(c->valuedouble >= IOS_MIN_BANDWIDTH) || !isfinite(c->valuedouble)) {
    ios_diag_set(path, "file_systems[].ost_capacity_Bps",
                 "%g B/s is below iosim's smallest bandwidth (%g B/s); fix: iosim calibrate again on measurements "
                 "with an OST layout",
                 c->valuedouble, (double)IOS_MIN_BANDWIDTH);
    rc = IOS_EINVAL;
  } else if (strcmp(p->pool_role, "ost") != 0 || p->nres == 0) {
    ios_diag_set(path, "calibration",
                 "fits a per-OST capacity, but the scenario's platform has no OSTs (its I/O resources are %s); fix: "
                 "a platform with role=ost hosts (e.g. iosim platform oss-ost), or drop \"calibration\"",
                 p->pool_role);
    rc = IOS_EINVAL;
  } else
    rc = chosen_kappa(path, fs, &kappa);
  if (rc == IOS_OK) {
    double lo = INFINITY, hi = 0, bw = c->valuedouble;
    for (int i = 0; i < p->nres; i++) {
      lo = fmin(lo, p->res[i].capacity);
      hi = fmax(hi, p->res[i].capacity);
      ios_sg_link_set_bandwidth(p->res[i].link, bw);
      p->res[i].capacity = bw;
    }
    char where[256], used[256] = "";
    snprintf(where, sizeof where, "%s/%s", cJSON_IsString(sys) ? sys->valuestring : "?",
             cJSON_IsString(fsn) ? fsn->valuestring : "?");
    int idx = kappa > 0 ? kappa_param(s) : -1, own = idx >= 0 && (s->sharing_given & (1u << idx)) != 0;
    if (idx >= 0 && !own) {
      set_kappa(s, idx, kappa);
      snprintf(used, sizeof used, "; sharing interference: kappa = %.6g B/s per OST (kappa_per_ost_Bps)", kappa);
    }
    fprintf(stderr,
            "iosim: calibration %s applied: the bandwidth of each of the platform's %d OSTs (its link) is %.6g B/s, "
            "the per-OST capacity ost_capacity_Bps fitted on %s (was %.6g..%.6g B/s); the rest of the platform is "
            "unchanged%s\n",
            path, p->nres, bw, where, lo, hi, used);
    if (own)
      fprintf(stderr,
              "iosim: calibration %s: sharing interference keeps the scenario's own kappa = %.6g B/s (the "
              "calibration's, fitted on %s, is %.6g B/s per OST)\n",
              path, s->sharing_params.v[idx], where, kappa);
    else if (kappa > 0 && idx < 0)
      fprintf(stderr,
              "iosim: note: calibration %s: its held-out error is for sharing `interference` with kappa = %.6g B/s "
              "per OST (chosen on %s's past over max-min), not this scenario's `%s` (kept); fix: \"sharing\": "
              "{\"policy\": \"interference\", \"kappa\": %.6g}\n",
              path, kappa, where, s->sharing->name, kappa);
  }
  cJSON_Delete(cal);
  return rc;
}
