/* The calibration a scenario names, applied to its platform (ios_calibration.h; docs/validation.md, "A run with its
 * calibration"; docs/outputs.md, results.json's "calibration"). The sharing parameters a calibration fills are those
 * the policies declare (ios_sharing_policy_t.calibrated): no policy or parameter is named here. */
#define _GNU_SOURCE /* timegm, strptime */
#include "ios_calibration.h"

#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_fs.h"
#include "ios_sg_platform.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int ios_calibration_spec(const cJSON *v, const char *file, const char **path, ios_cal_apply_t *apply) {
  *path = NULL;
  *apply = IOS_CAL_APPLY_AUTO;
  if (v == NULL || cJSON_IsNull(v)) return IOS_OK;
  if (cJSON_IsString(v)) {
    *path = v->valuestring[0] != '\0' ? v->valuestring : NULL;
    return IOS_OK;
  }
  if (!cJSON_IsObject(v)) {
    ios_diag_set(file, "calibration",
                 "is %s: give the path of a file iosim calibrate wrote, or {\"file\": PATH, "
                 "\"apply_capacity\": true|false|\"auto\"}",
                 cJSON_IsBool(v) ? "true or false" : "a number or a list");
    return IOS_EINVAL;
  }
  const cJSON *it;
  cJSON_ArrayForEach(it, v) {
    if (strcmp(it->string, "file") == 0) {
      if (!cJSON_IsString(it) || it->valuestring[0] == '\0') {
        ios_diag_set(file, "calibration.file", "is not a file path; fix: the path of a file iosim calibrate wrote");
        return IOS_EINVAL;
      }
      *path = it->valuestring;
    } else if (strcmp(it->string, "apply_capacity") == 0) {
      if (cJSON_IsBool(it))
        *apply = cJSON_IsTrue(it) ? IOS_CAL_APPLY_YES : IOS_CAL_APPLY_NO;
      else if (!(cJSON_IsString(it) && strcmp(it->valuestring, "auto") == 0)) {
        char *t = cJSON_PrintUnformatted(it);
        ios_diag_set(file, "calibration.apply_capacity",
                     "is %s: give true (set every OST to the calibration's per-OST capacity on any platform), false "
                     "(never) or \"auto\" (only on the platform the calibration records, the default)",
                     t != NULL ? t : "?");
        cJSON_free(t);
        return IOS_EINVAL;
      }
    } else {
      ios_diag_set(file, "calibration", "unknown field '%s'; the fields of the object form are file, apply_capacity",
                   it->string);
      return IOS_EINVAL;
    }
  }
  if (*path == NULL) {
    ios_diag_set(file, "calibration.file", "missing; fix: {\"file\": \"cal.json\", \"apply_capacity\": true}");
    return IOS_EINVAL;
  }
  return IOS_OK;
}

int ios_calibration_fingerprint(const char *path, char *out, size_t n) {
  if (n < 25) return IOS_EINVAL;
  long len = 0;
  char *text = ios_read_file(path, &len);
  if (text == NULL) {
    ios_diag_set(path, NULL, "cannot be read to take its fingerprint; fix: give a readable platform XML file");
    return IOS_EIO;
  }
  uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a, 64 bits: xor the byte, then multiply by the FNV prime */
  for (long i = 0; i < len; i++) {
    h ^= (unsigned char)text[i];
    h *= 0x100000001b3ull;
  }
  free(text);
  snprintf(out, n, "fnv1a64:%016llx", (unsigned long long)h);
  return IOS_OK;
}

double ios_calibration_parse_utc(const char *text) {
  struct tm tm;
  memset(&tm, 0, sizeof tm);
  const char *end = text != NULL ? strptime(text, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
  return end != NULL && *end == '\0' ? (double)timegm(&tm) : -1;
}

/* The key of a calibration file that fills parameter i of sharing policy `s`, or NULL (ios_sharing_policy_t). */
static const char *calibrated(const ios_sharing_policy_t *s, int i) {
  return s->calibrated != NULL ? s->calibrated[i] : NULL;
}

/* A JSON value as text for a message (owned by the caller, free()), "missing" for NULL. */
static char *shown(const cJSON *v) {
  char *t = v != NULL ? cJSON_PrintUnformatted(v) : NULL;
  return t != NULL ? t : strdup("missing");
}

/* The sharing model the calibration's file system `fs` describes: its registered policy (*pol, NULL when the file
 * records none: a file written before the sharing choice) and, in vals[k], the value of each of its parameters
 * declared calibrated (NAN for the others). @return IOS_OK, or IOS_EINVAL with ios_diag_set naming the file, the
 * field, the value and the fix. */
static int band_sharing(const char *path, const cJSON *fs, const ios_sharing_policy_t **pol, double *vals) {
  const cJSON *sh = cJSON_GetObjectItemCaseSensitive(fs, "sharing");
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(sh, "policy");
  *pol = NULL;
  if (sh == NULL || cJSON_IsNull(sh)) return IOS_OK;
  *pol = cJSON_IsString(name) ? ios_sharing_find(name->valuestring) : NULL;
  if (*pol == NULL) {
    char names[1024], *v = shown(name);
    ios_diag_set(path, "file_systems[].sharing.policy",
                 "is %s, not a sharing policy of this iosim (%s); fix: iosim calibrate again (it writes one of them)",
                 v, ios_policy_names(IOS_FAMILY_SHARING, names, sizeof names));
    free(v);
    return IOS_EINVAL;
  }
  for (int i = 0; i < (*pol)->nparams; i++) {
    const ios_param_spec_t *ps = &(*pol)->params[i];
    const char *key = calibrated(*pol, i);
    vals[i] = NAN;
    if (key == NULL) continue;
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(sh, key);
    double d = cJSON_IsNumber(x) ? x->valuedouble : NAN;
    int ok = isfinite(d) && (!(ps->lo < ps->hi) || (d >= ps->lo && d <= ps->hi)) && (!ps->integer || d == floor(d));
    if (!ok) {
      char *v = shown(x), field[160], range[80] = "";
      snprintf(field, sizeof field, "file_systems[].sharing.%s", key);
      if (ps->lo < ps->hi) snprintf(range, sizeof range, " in [%.6g, %.6g]", ps->lo, ps->hi);
      ios_diag_set(path, field,
                   "is %s: sharing \"%s\" needs its parameter %s there (%s), a finite number%s%s; fix: iosim "
                   "calibrate again, or set file_systems[].sharing.policy to the policy the file system was scored "
                   "with",
                   v, (*pol)->name, ps->name, ps->unit[0] != '\0' ? ps->unit : "no unit", range,
                   ps->integer ? ", an integer" : "");
      free(v);
      return IOS_EINVAL;
    }
    vals[i] = d;
  }
  return IOS_OK;
}

/* The one file system a run applies (the one entry of file_systems[] with a per-OST capacity), or NULL with
 * ios_diag_set. */
static const cJSON *the_file_system(const char *path, const cJSON *cal) {
  const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(cal, "format"), *fs = NULL, *it;
  int nfit = 0;
  if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "iosim-calibration/1") != 0) {
    ios_diag_set(path, "format",
                 "is not \"iosim-calibration/1\": not a calibration file; fix: write it with "
                 "iosim calibrate");
    return NULL;
  }
  cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(cal, "file_systems")) {
    if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(it, "ost_capacity_Bps"))) {
      nfit++;
      fs = it;
    }
  }
  if (nfit != 1) {
    ios_diag_set(path, "file_systems[].ost_capacity_Bps",
                 "%d file system(s) with a per-OST capacity; a run applies exactly one; fix: iosim calibrate on "
                 "the measurements of the one file system the platform stands for (--fs NAME keeps one)",
                 nfit);
    return NULL;
  }
  double c = cJSON_GetObjectItemCaseSensitive(fs, "ost_capacity_Bps")->valuedouble;
  if (!(c >= IOS_MIN_BANDWIDTH) || !isfinite(c)) {
    ios_diag_set(path, "file_systems[].ost_capacity_Bps",
                 "%g B/s is below iosim's smallest bandwidth (%g B/s); fix: iosim calibrate again on measurements "
                 "with an OST layout",
                 c, (double)IOS_MIN_BANDWIDTH);
    return NULL;
  }
  return fs;
}

/* A string field of `o`, or `def`. */
static const char *text_of(const cJSON *o, const char *key, const char *def) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : def;
}

/* The record of what a run applied (results.json's "calibration", docs/outputs.md). */
static cJSON *record(const char *path, const cJSON *cal, const cJSON *fs, const char *matches, ios_cal_apply_t apply,
                     int changed, int nchanged, const ios_sharing_policy_t *band, const double *vals,
                     const ios_scenario_t *s, const cJSON *applied, double age, double after) {
  cJSON *r = cJSON_CreateObject(), *x;
  const cJSON *pl = cJSON_GetObjectItemCaseSensitive(cal, "platform");
  const cJSON *win = cJSON_GetObjectItemCaseSensitive(cal, "window");
  cJSON_AddStringToObject(r, "file", path);
  cJSON_AddStringToObject(r, "system", text_of(fs, "system", "?"));
  cJSON_AddStringToObject(r, "fs", text_of(fs, "fs", "?"));
  x = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(pl, "file"))
          ? cJSON_CreateString(cJSON_GetObjectItemCaseSensitive(pl, "file")->valuestring)
          : cJSON_CreateNull();
  cJSON_AddItemToObject(r, "platform_recorded", x);
  cJSON_AddBoolToObject(r, "platform_matches", matches != NULL);
  if (apply == IOS_CAL_APPLY_AUTO)
    cJSON_AddStringToObject(r, "apply_capacity", "auto");
  else
    cJSON_AddBoolToObject(r, "apply_capacity", apply == IOS_CAL_APPLY_YES);
  cJSON_AddBoolToObject(r, "capacity_changed", changed);
  cJSON_AddNumberToObject(r, "osts_changed", nchanged);
  cJSON_AddNumberToObject(r, "ost_capacity_Bps", cJSON_GetObjectItemCaseSensitive(fs, "ost_capacity_Bps")->valuedouble);
  cJSON_AddStringToObject(r, "band", matches != NULL ? "validated" : "transferred");
  cJSON *bs = cJSON_AddObjectToObject(r, "band_sharing");
  if (band != NULL) {
    cJSON_AddStringToObject(bs, "policy", band->name);
    for (int i = 0; i < band->nparams; i++)
      if (calibrated(band, i) != NULL) cJSON_AddNumberToObject(bs, band->params[i].name, vals[i]);
  } else {
    cJSON_AddNullToObject(bs, "policy");
  }
  cJSON_AddStringToObject(r, "run_sharing", s->sharing->name);
  cJSON_AddBoolToObject(r, "sharing_matches", band != NULL && band == s->sharing);
  cJSON_AddItemToObject(r, "sharing_params_applied", cJSON_Duplicate(applied, 1));
  cJSON_AddStringToObject(r, "newest_measurement", text_of(win, "newest_measurement", "?"));
  cJSON_AddItemToObject(r, "age_days", isfinite(age) ? cJSON_CreateNumber(age) : cJSON_CreateNull());
  cJSON_AddItemToObject(r, "stale_after_days", after > 0 ? cJSON_CreateNumber(after) : cJSON_CreateNull());
  cJSON_AddBoolToObject(r, "stale", isfinite(age) && after > 0 && age > after);
  return r;
}

/* Applies what the file system `fs` of calibration `cal` (file `path`) gives the run; see ios_calibration_apply. */
static int apply_file(ios_scenario_t *s, ios_platform_t *p, const char *path, const cJSON *cal, ios_cal_apply_t apply) {
  const cJSON *fs = the_file_system(path, cal);
  if (fs == NULL) return IOS_EINVAL;
  const ios_sharing_policy_t *band = NULL;
  double vals[IOS_MAX_PARAMS];
  if (band_sharing(path, fs, &band, vals) != IOS_OK) return IOS_EINVAL;
  /* the platform it applies to: the fingerprints of the recorded platform file and of this run's */
  const cJSON *pl = cJSON_GetObjectItemCaseSensitive(cal, "platform");
  const char *rec = text_of(pl, "fingerprint", NULL), *matches = NULL;
  char here[32] = "";
  if (rec != NULL && s->platform != NULL && ios_calibration_fingerprint(s->platform, here, sizeof here) == IOS_OK &&
      strcmp(rec, here) == 0)
    matches = here;
  int changed = apply == IOS_CAL_APPLY_YES || (apply == IOS_CAL_APPLY_AUTO && matches != NULL);
  double c = cJSON_GetObjectItemCaseSensitive(fs, "ost_capacity_Bps")->valuedouble;
  int osts = strcmp(p->pool_role, "ost") == 0 && p->nres > 0;
  if (changed && !osts) {
    ios_diag_set(path, "calibration",
                 "fits a per-OST capacity, but the scenario's platform has no OSTs (its I/O resources are %s); fix: "
                 "a platform with role=ost hosts (e.g. iosim platform oss-ost), \"apply_capacity\": false, or drop "
                 "\"calibration\"",
                 p->pool_role);
    return IOS_EINVAL;
  }
  /* staleness at the run */
  const cJSON *after = cJSON_GetObjectItemCaseSensitive(cal, "stale_after_days");
  double t =
      ios_calibration_parse_utc(text_of(cJSON_GetObjectItemCaseSensitive(cal, "window"), "newest_measurement", NULL));
  double age = t >= 0 ? ((double)time(NULL) - t) / 86400.0 : NAN, days = cJSON_IsNumber(after) ? after->valuedouble : 0;
  /* from here on nothing fails but memory */
  char where[256];
  snprintf(where, sizeof where, "%s/%s", text_of(fs, "system", "?"), text_of(fs, "fs", "?"));
  cJSON *applied = cJSON_CreateObject();
  if (applied == NULL) return IOS_ENOMEM;
  double lo = INFINITY, hi = 0;
  for (int i = 0; changed && i < p->nres; i++) {
    lo = fmin(lo, p->res[i].capacity);
    hi = fmax(hi, p->res[i].capacity);
    ios_sg_link_set_bandwidth(p->res[i].link, c);
    p->res[i].capacity = c;
  }
  const char *made_for = text_of(pl, "file", NULL);
  if (changed)
    fprintf(stderr,
            "iosim: calibration %s applied: the bandwidth of each of the platform's %d OSTs (its link) is %.6g B/s, "
            "the per-OST capacity ost_capacity_Bps fitted on %s (was %.6g..%.6g B/s); the rest of the platform is "
            "unchanged; %s\n",
            path, p->nres, c, where, lo, hi,
            matches != NULL ? "the platform is the one the calibration was made for: its band is validated here"
                            : "asked by apply_capacity true on a platform the calibration was not made for: its band "
                              "is transferred here, not validated");
  else if (apply == IOS_CAL_APPLY_NO)
    fprintf(stderr,
            "iosim: calibration %s (fitted on %s): no capacity changed (apply_capacity false: its per-OST capacity "
            "%.6g B/s is not applied); its band is %s\n",
            path, where, c,
            matches != NULL ? "validated here (the platform it was made for)" : "transferred here, not validated");
  else
    fprintf(stderr,
            "iosim: calibration %s (fitted on %s, %s%s) is applied to another platform: no capacity changed (its "
            "per-OST capacity %.6g B/s is not applied); its band is transferred here, not validated; fix, to set "
            "every OST to it: \"calibration\": {\"file\": \"%s\", \"apply_capacity\": true}\n",
            path, where, made_for != NULL ? "made for the platform " : "no platform recorded",
            made_for != NULL ? made_for : "", c, path);
  /* the sharing model: the calibrated parameters of the band's policy, when the scenario runs that policy */
  if (band != NULL && band == s->sharing) {
    for (int i = 0; i < band->nparams; i++) {
      if (calibrated(band, i) == NULL) continue;
      if (s->sharing_given & (1u << i)) {
        fprintf(stderr,
                "iosim: calibration %s: sharing %s keeps the scenario's own %s = %.6g %s (the calibration's %s, fitted "
                "on %s, is %.6g)\n",
                path, band->name, band->params[i].name, s->sharing_params.v[i], band->params[i].unit,
                calibrated(band, i), where, vals[i]);
        continue;
      }
      s->sharing_params.v[i] = vals[i];
      cJSON *num = cJSON_CreateNumber(vals[i]);
      if (num == NULL || !cJSON_ReplaceItemInObjectCaseSensitive(
                             cJSON_GetObjectItemCaseSensitive(s->resolved, "sharing"), band->params[i].name, num))
        cJSON_Delete(num);
      cJSON_AddNumberToObject(applied, band->params[i].name, vals[i]);
      fprintf(stderr, "iosim: calibration %s: sharing %s: %s = %.6g %s (%s)\n", path, band->name, band->params[i].name,
              vals[i], band->params[i].unit, calibrated(band, i));
    }
  } else if (band != NULL) {
    char fix[512] = "", *at = fix;
    at += snprintf(at, sizeof fix, "\"sharing\": {\"policy\": \"%s\"", band->name);
    for (int i = 0; i < band->nparams && at < fix + sizeof fix - 64; i++)
      if (calibrated(band, i) != NULL)
        at += snprintf(at, (size_t)(fix + sizeof fix - at), ", \"%s\": %.6g", band->params[i].name, vals[i]);
    snprintf(at, (size_t)(fix + sizeof fix - at), "}");
    fprintf(stderr,
            "iosim: note: calibration %s: its held-out error is for sharing `%s` (chosen on %s's past), not this "
            "scenario's `%s` (kept): the band does not describe the sharing model this run uses; fix: %s\n",
            path, band->name, where, s->sharing->name, fix);
  } else {
    fprintf(stderr,
            "iosim: note: calibration %s records no sharing model (file_systems[].sharing): whether its band describes "
            "this run's `%s` is not known; fix: iosim calibrate again\n",
            path, s->sharing->name);
  }
  if (isfinite(age))
    fprintf(stderr, "iosim: calibration %s: its newest measurement is %.1f days old at this run (%s)\n", path, age,
            days > 0 && age > days ? "stale: more than its stale_after_days; fix: iosim calibrate again on recent "
                                     "measurements"
                                   : "within its stale_after_days");
  cJSON_Delete(s->calibration_applied);
  s->calibration_applied =
      record(path, cal, fs, matches, apply, changed, changed ? p->nres : 0, band, vals, s, applied, age, days);
  cJSON_Delete(applied);
  return s->calibration_applied != NULL ? IOS_OK : IOS_ENOMEM;
}

int ios_calibration_apply(ios_scenario_t *s, ios_platform_t *p) {
  const char *path = NULL;
  ios_cal_apply_t apply;
  int rc = ios_calibration_spec(cJSON_GetObjectItemCaseSensitive(s->resolved, "calibration"), s->file, &path, &apply);
  if (rc != IOS_OK || path == NULL) return rc;
  char *text = ios_read_file(path, NULL);
  if (text == NULL) {
    ios_diag_set(path, "calibration",
                 "cannot be read: give the file iosim calibrate wrote (-o FILE), with a path relative to the scenario");
    return IOS_EIO;
  }
  cJSON *cal = cJSON_Parse(text);
  free(text);
  rc = apply_file(s, p, path, cal, apply);
  cJSON_Delete(cal);
  return rc;
}
