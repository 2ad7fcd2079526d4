/* iosim — workload readers and generators (see ios_workload.h). */
#include "ios_workload.h"
#include "ios_diag.h"
#include "ios_gen_apex.h"
#include "ios_gen_ior.h"
#include "ios_gen_kernels.h"
#include "ios_gen_rr9502.h"
#include "ios_units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether a name can be a CSV cell of apps.csv as is: not empty, no comma, quote or line break. */
static int csv_safe_name(const char *name) {
  return name[0] != '\0' && strpbrk(name, ",\"\n\r") == NULL;
}

/* Reads a size/bandwidth/duration field given as a number or a string with a unit. */
static int read_quantity(const cJSON *v, int (*parse)(const char *, double *), double *out) {
  if (cJSON_IsNumber(v)) {
    if (!isfinite(v->valuedouble) || v->valuedouble < 0) return IOS_EINVAL;
    *out = v->valuedouble;
    return IOS_OK;
  }
  return cJSON_IsString(v) ? parse(v->valuestring, out) : IOS_EINVAL;
}

static int add_phase(ios_app_t *a, int is_io, double value, int *cap) {
  if (a->nphases == *cap) {
    int ncap = *cap ? 2 * *cap : 8;
    ios_phase_t *ph = realloc(a->phases, sizeof *ph * (size_t)ncap);
    if (ph == NULL) return IOS_ENOMEM;
    a->phases = ph;
    *cap = ncap;
  }
  a->phases[a->nphases++] = (ios_phase_t){value, is_io};
  return IOS_OK;
}

/* Parses one inline application object. */
static int parse_app(const cJSON *o, int index, const char *file, ios_workload_t *w) {
  static const char *const keys[] = {"name",       "nodes", "release", "profile",  "io_resources", "phases",
                                     "iterations", "work",  "io",      "striping", "layout",       NULL};
  char where[160];
  snprintf(where, sizeof where, "workload.applications[%d]", index);
  if (!cJSON_IsObject(o)) {
    ios_diag_set(file, where, "must be an object such as {\"nodes\": 4, \"work\": \"60s\", \"io\": \"2GiB\"}");
    return IOS_EINVAL;
  }
  const cJSON *item;
  cJSON_ArrayForEach(item, o) {
    int ok = 0;
    for (int k = 0; keys[k] != NULL; k++)
      ok |= strcmp(item->string, keys[k]) == 0;
    if (!ok) {
      ios_diag_set(file, where,
                   "unknown field '%s'; valid: name, nodes, release, profile, io_resources, phases, iterations, "
                   "work, io, striping, layout",
                   item->string);
      return IOS_EINVAL;
    }
  }
  ios_app_t *a = ios_workload_add(w);
  if (a == NULL) return IOS_ENOMEM;
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "name");
  char name[64];
  snprintf(name, sizeof name, "app%d", index);
  a->name = strdup(cJSON_IsString(v) ? v->valuestring : name);
  if (a->name == NULL) return IOS_ENOMEM;
  if (!csv_safe_name(a->name)) {
    ios_diag_set(file, where, "name '%s' is empty or holds a comma, quote or newline: rename it (names are CSV cells)",
                 a->name);
    return IOS_EINVAL;
  }
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "nodes")) != NULL) {
    if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble != floor(v->valuedouble)) {
      ios_diag_set(file, where, "nodes must be an integer >= 1 (compute nodes of the application)");
      return IOS_EINVAL;
    }
    a->nodes = (int)v->valuedouble;
  }
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "release")) != NULL &&
      read_quantity(v, ios_parse_duration, &a->release) != IOS_OK) {
    ios_diag_set(file, where, "release must be a duration >= 0 such as 30 or \"5min\"");
    return IOS_EINVAL;
  }
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "io_resources")) != NULL) {
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble != floor(v->valuedouble)) {
      ios_diag_set(file, where, "io_resources must be an integer >= 0");
      return IOS_EINVAL;
    }
    a->requested_n = (int)v->valuedouble;
  }
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "striping")) != NULL) {
    if (!cJSON_IsString(v) || strlen(v->valuestring) >= sizeof a->striping) {
      ios_diag_set(file, where, "striping must be a striping policy name such as \"lustre-default\"");
      return IOS_EINVAL;
    }
    snprintf(a->striping, sizeof a->striping, "%s", v->valuestring);
  }
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "layout")) != NULL) {
    a->layout = cJSON_IsString(v) && strcmp(v->valuestring, "fpp") == 0   ? 0
                : cJSON_IsString(v) && strcmp(v->valuestring, "ssf") == 0 ? 1
                                                                          : -2;
    if (a->layout == -2) {
      ios_diag_set(file, where, "layout must be \"fpp\" (file per process) or \"ssf\" (single shared file)");
      return IOS_EINVAL;
    }
  }
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "profile")) != NULL) {
    const cJSON *pt;
    if (!cJSON_IsObject(v) || cJSON_GetArraySize(v) < 1 || cJSON_GetArraySize(v) > IOS_PROFILE_MAX) {
      ios_diag_set(file, where, "profile must be an object of 1 to %d points {\"1\": \"1GiB/s\", \"2\": ...}",
                   IOS_PROFILE_MAX);
      return IOS_EINVAL;
    }
    cJSON_ArrayForEach(pt, v) {
      char *end;
      long n = strtol(pt->string, &end, 10);
      double bw;
      int prev = a->profile.npoints ? a->profile.n[a->profile.npoints - 1] : -1;
      if (*end != '\0' || n < 0 || n <= prev || read_quantity(pt, ios_parse_bandwidth, &bw) != IOS_OK || !(bw > 0)) {
        ios_diag_set(file, where,
                     "profile point \"%s\": keys are increasing resource counts >= 0, values bandwidths > 0 such as "
                     "\"1.2GiB/s\"",
                     pt->string);
        return IOS_EINVAL;
      }
      a->profile.n[a->profile.npoints] = (int)n;
      a->profile.bw[a->profile.npoints++] = bw;
    }
    a->has_profile = 1;
  }
  int cap = 0;
  const cJSON *phases = cJSON_GetObjectItemCaseSensitive(o, "phases");
  const cJSON *work = cJSON_GetObjectItemCaseSensitive(o, "work"), *io = cJSON_GetObjectItemCaseSensitive(o, "io");
  if (phases != NULL && (work != NULL || io != NULL)) {
    ios_diag_set(file, where, "give either \"phases\" or the \"work\"/\"io\" shorthand, not both");
    return IOS_EINVAL;
  }
  if (phases != NULL) {
    if (!cJSON_IsArray(phases) || cJSON_GetArraySize(phases) == 0) {
      ios_diag_set(file, where, "phases must be a non-empty array of {\"work\": DURATION} or {\"io\": SIZE}");
      return IOS_EINVAL;
    }
    int i = 0;
    cJSON_ArrayForEach(item, phases) {
      const cJSON *pw = cJSON_GetObjectItemCaseSensitive(item, "work"),
                  *pi = cJSON_GetObjectItemCaseSensitive(item, "io");
      double x;
      int is_io = pi != NULL;
      if (cJSON_GetArraySize(item) != 1 || (pw == NULL) == (pi == NULL) ||
          read_quantity(is_io ? pi : pw, is_io ? ios_parse_bytes : ios_parse_duration, &x) != IOS_OK) {
        ios_diag_set(file, where,
                     "phases[%d] must be {\"work\": DURATION} or {\"io\": SIZE} with a non-negative number or a "
                     "string with a unit (\"60s\", \"2GiB\")",
                     i);
        return IOS_EINVAL;
      }
      if (add_phase(a, is_io, x, &cap) != IOS_OK) return IOS_ENOMEM;
      i++;
    }
  } else {
    double x;
    if (work != NULL && (read_quantity(work, ios_parse_duration, &x) != IOS_OK || add_phase(a, 0, x, &cap))) {
      ios_diag_set(file, where, "work must be a non-negative duration such as 60 or \"1min\"");
      return IOS_EINVAL;
    }
    if (io != NULL && (read_quantity(io, ios_parse_bytes, &x) != IOS_OK || add_phase(a, 1, x, &cap))) {
      ios_diag_set(file, where, "io must be a non-negative volume such as 1e9 or \"2GiB\"");
      return IOS_EINVAL;
    }
    if (a->nphases == 0) {
      ios_diag_set(file, where, "has no phases: give \"phases\" or \"work\"/\"io\"");
      return IOS_EINVAL;
    }
  }
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "iterations")) != NULL) {
    if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble != floor(v->valuedouble) || v->valuedouble > 1e7) {
      ios_diag_set(file, where, "iterations must be an integer >= 1");
      return IOS_EINVAL;
    }
    int base = a->nphases;
    for (int it = 1; it < (int)v->valuedouble; it++)
      for (int i = 0; i < base; i++)
        if (add_phase(a, a->phases[i].is_io, a->phases[i].value, &cap) != IOS_OK) return IOS_ENOMEM;
  }
  return IOS_OK;
}

static int parse_apps(const cJSON *arr, const char *file, ios_workload_t *w) {
  int i = 0;
  const cJSON *o;
  cJSON_ArrayForEach(o, arr) {
    int rc = parse_app(o, i++, file, w);
    if (rc != IOS_OK) return rc;
  }
  for (int a = 0; a < w->napps; a++)
    for (int b = a + 1; b < w->napps; b++)
      if (strcmp(w->apps[a].name, w->apps[b].name) == 0) {
        ios_diag_set(file, "workload.applications", "two applications are named '%s': names must be unique",
                     w->apps[a].name);
        return IOS_EINVAL;
      }
  return IOS_OK;
}

/* ---------------------------------------------------------------- RR-9502 sample files */

int ios_read_sample(const char *file, double unit, ios_workload_t *out) {
  FILE *f = fopen(file, "r");
  if (f == NULL) {
    ios_diag_set(file, "workload.file", "cannot read the sample file (%s): check the path", strerror(errno));
    return IOS_EIO;
  }
  ios_workload_t w = {0, NULL};
  char *line = NULL;
  size_t lcap = 0;
  int lineno = 0, rc = IOS_OK;
  char where[64];
  while (rc == IOS_OK && getline(&line, &lcap, f) != -1) {
    lineno++;
    snprintf(where, sizeof where, "line %d", lineno);
    char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save);
    if (tok == NULL || tok[0] == '#') continue;
    ios_app_t *a = ios_workload_add(&w);
    if (a == NULL || (a->name = strdup(tok)) == NULL) {
      rc = IOS_ENOMEM;
      break;
    }
    static const char *const fields[] = {"bandwidth", "age", "progress", "agePhase", "nphases", "wIter"};
    double num[6];
    for (int k = 0; k < 6 && rc == IOS_OK; k++) {
      tok = strtok_r(NULL, " \t\r\n", &save);
      char *end = NULL;
      num[k] = tok ? strtod(tok, &end) : NAN;
      if (tok == NULL || *end != '\0' || !isfinite(num[k]) || num[k] < 0) {
        ios_diag_set(file, where,
                     "field %s is %s: expected a non-negative number (format: name bandwidth age "
                     "progress agePhase nphases wIter W|C x_1 .. x_n)",
                     fields[k], tok ? tok : "missing");
        rc = IOS_EINVAL;
      }
    }
    if (rc != IOS_OK) break;
    tok = strtok_r(NULL, " \t\r\n", &save);
    if (tok == NULL || (strcmp(tok, "W") != 0 && strcmp(tok, "C") != 0)) {
      ios_diag_set(file, where, "the phase type is '%s': expected W (first phase is work) or C (first is I/O)",
                   tok ? tok : "missing");
      rc = IOS_EINVAL;
      break;
    }
    int is_io = tok[0] == 'C';
    if (!(num[0] > 0) || num[4] != floor(num[4]) || num[4] < 1) {
      ios_diag_set(file, where, "%s", !(num[0] > 0) ? "bandwidth must be > 0" : "nphases must be an integer >= 1");
      rc = IOS_EINVAL;
      break;
    }
    long nphases = (long)num[4], got = 0;
    a->phases = malloc(sizeof *a->phases * (size_t)nphases);
    if (a->phases == NULL) {
      rc = IOS_ENOMEM;
      break;
    }
    while ((tok = strtok_r(NULL, " \t\r\n", &save)) != NULL) {
      char *end;
      double x = strtod(tok, &end);
      if (*end != '\0' || !isfinite(x) || x < 0) {
        ios_diag_set(file, where, "phase value %ld is '%s': expected a non-negative number", got + 1, tok);
        rc = IOS_EINVAL;
        break;
      }
      if (got < nphases) a->phases[got] = (ios_phase_t){is_io ? x * unit : x, is_io};
      got++;
      is_io = !is_io;
    }
    if (rc == IOS_OK && got != nphases) {
      ios_diag_set(file, where, "nphases says %ld but %ld phase values follow: fix nphases or the values", nphases,
                   got);
      rc = IOS_EINVAL;
      break;
    }
    a->nphases = (int)nphases;
    a->profile.npoints = 1;
    a->profile.n[0] = 1;
    a->profile.bw[0] = num[0] * unit;
    a->has_profile = 1;
    a->release = -num[1];
    a->progress0 = num[2];
    if (!a->phases[0].is_io) {
      if (num[3] > a->phases[0].value) {
        ios_diag_set(file, where, "agePhase %g exceeds the first work phase %g", num[3], a->phases[0].value);
        rc = IOS_EINVAL;
      }
      a->phases[0].value -= num[3];
    } else {
      a->first_posted = -num[3];
    }
  }
  free(line);
  fclose(f);
  if (rc == IOS_OK && w.napps == 0) {
    ios_diag_set(file, "workload.file", "no application in the sample file");
    rc = IOS_EINVAL;
  }
  if (rc != IOS_OK) {
    ios_workload_free(&w);
    return rc;
  }
  *out = w;
  return IOS_OK;
}

/* ---------------------------------------------------------------- dispatch */

int ios_rr9549_generate(const cJSON *g, const char *file, const ios_platform_t *p, uint64_t seed, ios_workload_t *w);

int ios_workload_build(const ios_scenario_t *s, const ios_platform_t *p, ios_workload_t *out) {
  const cJSON *wl = s->workload;
  const cJSON *file = cJSON_GetObjectItemCaseSensitive(wl, "file");
  const cJSON *gen = cJSON_GetObjectItemCaseSensitive(wl, "generator");
  const cJSON *apps = cJSON_GetObjectItemCaseSensitive(wl, "applications");
  const char *format = cJSON_GetObjectItemCaseSensitive(wl, "format")->valuestring;
  int sources = cJSON_IsString(file) + cJSON_IsObject(gen) + (cJSON_GetArraySize(apps) > 0);
  if (sources != 1) {
    ios_diag_set(s->file, "workload",
                 sources ? "gives more than one of file, generator and applications: keep one"
                         : "is empty: give workload.applications, workload.file or workload.generator");
    return IOS_EINVAL;
  }
  ios_workload_t w = {0, NULL};
  int rc;
  if (cJSON_IsObject(gen)) {
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(gen, "kind");
    if (cJSON_IsString(kind) && strcmp(kind->valuestring, "rr9502") == 0)
      rc = ios_rr9502_generate(gen, s->file, p, s->seed, &w);
    else if (cJSON_IsString(kind) && strcmp(kind->valuestring, "apex") == 0)
      rc = ios_apex_generate(gen, s->file, p, s->seed, &w);
    else if (cJSON_IsString(kind) && strcmp(kind->valuestring, "kernels") == 0)
      rc = ios_kernels_generate(gen, s->file, s->seed, &w);
    else if (cJSON_IsString(kind) && strcmp(kind->valuestring, "ior") == 0)
      rc = ios_ior_generate(gen, s->file, &w);
    else
      rc = ios_rr9549_generate(gen, s->file, p, s->seed, &w);
  } else if (cJSON_IsString(file)) {
    char *path = ios_expand_path(file->valuestring, s->file, "workload.file");
    if (path == NULL) return IOS_EINVAL;
    size_t len = strlen(path);
    int json =
        strcmp(format, "json") == 0 || (strcmp(format, "auto") == 0 && len > 5 && !strcmp(path + len - 5, ".json"));
    if (!json && strcmp(format, "auto") != 0 && strcmp(format, "rr9502-sample") != 0) {
      ios_diag_set(s->file, "workload.format", "unknown format '%s': use auto, rr9502-sample or json", format);
      free(path);
      return IOS_EINVAL;
    }
    if (json) {
      char *text = ios_read_file(path, NULL);
      cJSON *root = text ? cJSON_Parse(text) : NULL;
      if (text == NULL)
        ios_diag_set(path, "workload.file", "cannot read the workload (%s): check the path", strerror(errno));
      else if (!cJSON_IsArray(root))
        ios_diag_set(path, NULL, "must be a JSON array of applications (malformed JSON or not an array)");
      rc = text == NULL ? IOS_EIO : (cJSON_IsArray(root) ? parse_apps(root, path, &w) : IOS_EINVAL);
      cJSON_Delete(root);
      free(text);
    } else {
      const char *u = cJSON_GetObjectItemCaseSensitive(wl, "bandwidth_unit")->valuestring;
      double unit = 0;
      if (strcmp(u, "pool") == 0) {
        for (int i = 0; i < p->nres; i++)
          unit += p->res[i].capacity;
        rc = IOS_OK;
      } else if (ios_parse_bandwidth(u, &unit) != IOS_OK || !(unit > 0)) {
        ios_diag_set(s->file, "workload.bandwidth_unit",
                     "is '%s': use \"pool\" (sample bandwidths are fractions of the pool's total capacity B) or a "
                     "bandwidth such as \"1GiB/s\"",
                     u);
        rc = IOS_EINVAL;
      } else
        rc = IOS_OK;
      if (rc == IOS_OK) rc = ios_read_sample(path, unit, &w);
    }
    free(path);
  } else {
    rc = parse_apps(apps, s->file, &w);
  }
  for (int j = 0; rc == IOS_OK && j < w.napps; j++)
    if (!csv_safe_name(w.apps[j].name)) { /* names from sample files (inline ones are checked with their index) */
      ios_diag_set(s->file, "workload",
                   "application name '%s' is empty or holds a comma, quote or newline: rename it "
                   "(names are CSV cells in apps.csv)",
                   w.apps[j].name);
      rc = IOS_EINVAL;
    }
  const cJSON *only = cJSON_GetObjectItemCaseSensitive(wl, "only");
  if (rc == IOS_OK && cJSON_IsString(only) && ios_workload_keep_only(&w, only->valuestring) != IOS_OK) {
    ios_diag_set(s->file, "workload.only", "no application is named '%s'", only->valuestring);
    rc = IOS_EINVAL;
  }
  if (rc != IOS_OK) {
    ios_workload_free(&w);
    return rc;
  }
  *out = w;
  return IOS_OK;
}
