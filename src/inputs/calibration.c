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

int ios_calibration_apply(const ios_scenario_t *s, ios_platform_t *p) {
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
  }
  if (rc == IOS_OK) {
    double lo = INFINITY, hi = 0, bw = c->valuedouble;
    for (int i = 0; i < p->nres; i++) {
      lo = fmin(lo, p->res[i].capacity);
      hi = fmax(hi, p->res[i].capacity);
      ios_sg_link_set_bandwidth(p->res[i].link, bw);
      p->res[i].capacity = bw;
    }
    fprintf(stderr,
            "iosim: calibration %s applied: the bandwidth of each of the platform's %d OSTs (its link) is %.6g B/s, "
            "the per-OST capacity ost_capacity_Bps fitted on %s/%s (was %.6g..%.6g B/s); the rest of the platform "
            "is unchanged\n",
            path, p->nres, bw, cJSON_IsString(sys) ? sys->valuestring : "?",
            cJSON_IsString(fsn) ? fsn->valuestring : "?", lo, hi);
  }
  cJSON_Delete(cal);
  return rc;
}
