/* OST fullness applied to a loaded platform (ios_ost_fullness.h; docs/validation.md, "What-ifs on measured
 * what-ifs, job by job"): an OST's rate falls as it fills (its free blocks lie on slower, more fragmented parts of
 * its disks); the curve's parameters are fitted on TOKIO-ABC by analysis/whatif_backtest.py. */
#include "ios_ost_fullness.h"

#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_sg_platform.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD "ost_fullness"

double ios_ost_fullness_curve(double phi, double knee, double slope, double floor_) {
  double g = 1.0 - slope * fmax(0.0, phi - knee);
  return fmax(floor_, g);
}

/* A number of `obj`'s member `name` in [lo, hi] into *out (def when absent and has_def). @return IOS_OK or
 * IOS_EINVAL with the diagnostic. */
static int number(const ios_scenario_t *s, const cJSON *obj, const char *name, double lo, double hi, int has_def,
                  double def, double *out, const char *meaning) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
  char field[64];
  snprintf(field, sizeof field, FIELD ".curve.%s", name);
  if (v == NULL && has_def) {
    *out = def;
    return IOS_OK;
  }
  if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo && v->valuedouble <= hi)) {
    char *text = v != NULL ? cJSON_PrintUnformatted(v) : NULL;
    ios_diag_set(s->file, field, "is %s: give %s, a number from %g to %g (docs/validation.md)",
                 text != NULL ? text : "missing", meaning, lo, hi);
    cJSON_free(text);
    return IOS_EINVAL;
  }
  *out = v->valuedouble;
  return IOS_OK;
}

/* OST i's fullness from `full` (a number, or an array of p->nres numbers) into phi[i]. */
static int fullness(const ios_scenario_t *s, const cJSON *full, int n, double *phi) {
  int arr = cJSON_IsArray(full);
  if (arr && cJSON_GetArraySize(full) != n) {
    ios_diag_set(s->file, FIELD ".fullness",
                 "holds %d values for the platform's %d OSTs: give one per OST (natural name order) or one number "
                 "for all",
                 cJSON_GetArraySize(full), n);
    return IOS_EINVAL;
  }
  for (int i = 0; i < n; i++) {
    const cJSON *v = arr ? cJSON_GetArrayItem(full, i) : full;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble <= 1)) {
      char *text = v != NULL ? cJSON_PrintUnformatted(v) : NULL;
      char at[32] = "";
      if (arr) snprintf(at, sizeof at, "[%d] ", i);
      ios_diag_set(s->file, FIELD ".fullness", "%sis %s: give the fraction of each OST's capacity in use, from 0 to 1",
                   at, text != NULL ? text : "missing");
      cJSON_free(text);
      return IOS_EINVAL;
    }
    phi[i] = v->valuedouble;
  }
  return IOS_OK;
}

int ios_ost_fullness_apply(const ios_scenario_t *s, ios_platform_t *p) {
  const cJSON *of = cJSON_GetObjectItemCaseSensitive(s->resolved, FIELD);
  if (of == NULL || cJSON_IsNull(of)) return IOS_OK;
  const cJSON *curve = cJSON_GetObjectItemCaseSensitive(of, "curve"), *it;
  cJSON_ArrayForEach(it, of) if (strcmp(it->string, "fullness") != 0 && strcmp(it->string, "curve") != 0) {
    ios_diag_set(s->file, FIELD, "has an unknown field \"%s\": give \"fullness\" and \"curve\"", it->string);
    return IOS_EINVAL;
  }
  if (strcmp(p->pool_role, "ost") != 0 || p->nres == 0) {
    ios_diag_set(s->file, FIELD,
                 "applies to OSTs, but the scenario's platform has none (its I/O resources are %s); fix: a platform "
                 "with role=ost hosts (e.g. iosim platform oss-ost), or drop \"" FIELD "\"",
                 p->pool_role);
    return IOS_EINVAL;
  }
  if (!cJSON_IsObject(curve)) {
    ios_diag_set(s->file, FIELD ".curve",
                 "is missing: give {\"knee\": K, \"slope\": S} (the fitted curve of docs/validation.md, \"What-ifs "
                 "on measured what-ifs\", or of python/iosim/whatif_bands.json's kinds.fullness.model)");
    return IOS_EINVAL;
  }
  cJSON_ArrayForEach(it, curve) if (strcmp(it->string, "knee") && strcmp(it->string, "slope") &&
                                    strcmp(it->string, "floor")) {
    ios_diag_set(s->file, FIELD ".curve", "has an unknown field \"%s\": give \"knee\", \"slope\" and \"floor\"",
                 it->string);
    return IOS_EINVAL;
  }
  double knee, slope, fl;
  int rc = number(s, curve, "knee", 0, 1, 0, 0, &knee, "the fullness above which the OST slows");
  if (rc == IOS_OK) rc = number(s, curve, "slope", 0, 1e6, 0, 0, &slope, "the rate lost per unit of fullness");
  if (rc == IOS_OK) rc = number(s, curve, "floor", 1e-6, 1, 1, 0.05, &fl, "the least rate (fraction of empty)");
  if (rc != IOS_OK) return rc;
  const cJSON *full = cJSON_GetObjectItemCaseSensitive(of, "fullness");
  double *phi = malloc((size_t)p->nres * sizeof *phi);
  if (phi == NULL) return IOS_ENOMEM;
  if ((rc = fullness(s, full, p->nres, phi)) != IOS_OK) {
    free(phi);
    return rc;
  }
  double lo = INFINITY, hi = 0;
  for (int i = 0; i < p->nres; i++) {
    double g = ios_ost_fullness_curve(phi[i], knee, slope, fl);
    lo = fmin(lo, g);
    hi = fmax(hi, g);
    p->res[i].capacity *= g;
    ios_sg_link_set_bandwidth(p->res[i].link, p->res[i].capacity);
  }
  free(phi);
  fprintf(stderr,
          "iosim: " FIELD " applied: each of the platform's %d OSTs runs at g(its fullness) of its bandwidth, g = "
          "max(%g, 1 - %g x max(0, fullness - %g)): from %.6g to %.6g\n",
          p->nres, fl, slope, knee, lo, hi);
  return IOS_OK;
}
