/* iosim — workload readers and generators (see ios_workload.h). */
#include "ios_workload.h"
#include "workload_internal.h"
#include "ios_diag.h"
#include "ios_fs.h"
#include "ios_platgen.h"
#include "ios_units.h"
#include "ios_value.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Whether a name can be a CSV cell of apps.csv as is: not empty, no comma, quote or line break. */
static int csv_safe_name(const char *name) {
  return name[0] != '\0' && strpbrk(name, ",\"\n\r") == NULL;
}

/* Most phases one application (or one sample-file line) may hold: 5·10^7 phases are 800 MB. */
#define MAX_PHASES 50000000

static const ios_num_spec_t spec_duration = {0, IOS_VALUE_MAX_DURATION, 0, 0, IOS_UNIT_DURATION, NULL};
static const ios_num_spec_t spec_bytes = {0, IOS_VALUE_MAX_BYTES, 0, 0, IOS_UNIT_BYTES, NULL};
static const ios_num_spec_t spec_bandwidth = {0, IOS_VALUE_MAX_BANDWIDTH, 1, 0, IOS_UNIT_BANDWIDTH, NULL};

/* Reads a size/bandwidth/duration field given as a number or a string with a unit (message: `field` of `where`). */
static int read_quantity(const cJSON *v, const ios_num_spec_t *spec, const char *what, const char *file,
                         const char *where, const char *field, double *out) {
  char at[300];
  snprintf(at, sizeof at, "%s.%s", where, field);
  ios_num_spec_t s = *spec;
  s.what = what;
  return ios_value_number(v, &s, file, at, out);
}

static int add_phase(ios_app_t *a, int is_io, double value, int *cap) {
  if (a->nphases >= MAX_PHASES) return IOS_EINVAL;
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

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* IOS_EINVAL with *dup = a name two applications share, IOS_OK when names are unique (O(n log n)), IOS_ENOMEM. */
static int duplicate_name(const ios_workload_t *w, const char **dup) {
  if (w->napps < 2) return IOS_OK;
  char **names = malloc(sizeof *names * (size_t)w->napps);
  if (names == NULL) return IOS_ENOMEM;
  for (int j = 0; j < w->napps; j++)
    names[j] = w->apps[j].name;
  qsort(names, (size_t)w->napps, sizeof *names, cmp_names);
  int rc = IOS_OK;
  for (int j = 1; j < w->napps && rc == IOS_OK; j++)
    if (strcmp(names[j - 1], names[j]) == 0) {
      *dup = names[j];
      rc = IOS_EINVAL;
    }
  free(names);
  return rc;
}

/* Reads an inline application's name (default "app<index>"), which must be a string fit for a CSV cell. */
static int parse_app_name(const cJSON *o, int index, const char *file, const char *where, ios_app_t *a) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "name");
  char name[64];
  snprintf(name, sizeof name, "app%d", index);
  if (v != NULL && !cJSON_IsString(v)) {
    char text[64];
    ios_value_text(v, text, sizeof text);
    ios_diag_set(file, where, "name is %s: give a string such as \"A\"", text);
    return IOS_EINVAL;
  }
  a->name = strdup(v != NULL ? v->valuestring : name);
  if (a->name == NULL) return IOS_ENOMEM;
  if (!csv_safe_name(a->name)) {
    ios_diag_set(file, where, "name '%s' is empty or holds a comma, quote or newline: rename it (names are CSV cells)",
                 a->name);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Reads an inline application's nodes, release (s) and io_resources, each when given. */
static int parse_app_sizes(const cJSON *o, const char *file, const char *where, ios_app_t *a) {
  const cJSON *v;
  char at[200];
  snprintf(at, sizeof at, "%s.nodes", where);
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "nodes")) != NULL &&
      ios_value_int(v, 1, 10000000, "the compute nodes of the application", file, at, &a->nodes) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "release")) != NULL &&
      read_quantity(v, &spec_duration, "the release time in s, e.g. 30 or \"5min\"", file, where, "release",
                    &a->release) != IOS_OK)
    return IOS_EINVAL;
  snprintf(at, sizeof at, "%s.io_resources", where);
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "io_resources")) != NULL &&
      ios_value_int(v, 0, 1000000, "the I/O resources this application asks for (at most the platform's pool)", file,
                    at, &a->requested_n) != IOS_OK)
    return IOS_EINVAL;
  return IOS_OK;
}

/* Reads an inline application's striping policy name and file layout ("fpp" → 0, "ssf" → 1), each when given. */
static int parse_app_striping(const cJSON *o, const char *file, const char *where, ios_app_t *a) {
  const cJSON *v;
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
  return IOS_OK;
}

/* Reads an inline application's bandwidth profile `v`, {"n": bandwidth, ...} with increasing n, into a->profile. */
static int parse_app_profile(const cJSON *v, const char *file, const char *where, ios_app_t *a) {
  const cJSON *pt;
  if (!cJSON_IsObject(v) || cJSON_GetArraySize(v) < 1 || cJSON_GetArraySize(v) > IOS_PROFILE_MAX) {
    ios_diag_set(file, where, "profile must be an object of 1 to %d points {\"1\": \"1GiB/s\", \"2\": ...}",
                 IOS_PROFILE_MAX);
    return IOS_EINVAL;
  }
  cJSON_ArrayForEach(pt, v) {
    char *end;
    errno = 0;
    long n = strtol(pt->string, &end, 10);
    double bw;
    int prev = a->profile.npoints ? a->profile.n[a->profile.npoints - 1] : -1;
    if (end == pt->string || *end != '\0' || errno != 0 || n < 0 || n > 1000000 || n <= prev ||
        ios_value_number(pt, &spec_bandwidth, file, where, &bw) != IOS_OK) {
      ios_diag_set(file, where,
                   "profile point \"%s\": keys are increasing resource counts in 0..1000000, values bandwidths "
                   "in (0, 1e18] B/s such as \"1.2GiB/s\"",
                   pt->string);
      return IOS_EINVAL;
    }
    a->profile.n[a->profile.npoints] = (int)n;
    a->profile.bw[a->profile.npoints++] = bw;
  }
  a->has_profile = 1;
  return IOS_OK;
}

/* Reads an inline application's "phases" array (`phases`, non-empty) of {"work": DURATION} or {"io": SIZE}. */
static int parse_app_phase_list(const cJSON *phases, const char *file, const char *where, ios_app_t *a, int *cap) {
  if (!cJSON_IsArray(phases) || cJSON_GetArraySize(phases) == 0) {
    ios_diag_set(file, where, "phases must be a non-empty array of {\"work\": DURATION} or {\"io\": SIZE}");
    return IOS_EINVAL;
  }
  int i = 0;
  const cJSON *item;
  cJSON_ArrayForEach(item, phases) {
    static const char *const kinds[] = {"work", "io", "read"}; /* IOS_PHASE_WORK, _WRITE, _READ ("write" = "io") */
    const cJSON *pw = cJSON_GetObjectItemCaseSensitive(item, "work"),
                *pi = cJSON_GetObjectItemCaseSensitive(item, "io"),
                *pr = cJSON_GetObjectItemCaseSensitive(item, "read");
    if (pi == NULL) pi = cJSON_GetObjectItemCaseSensitive(item, "write");
    double x;
    int is_io = pi != NULL ? IOS_PHASE_WRITE : pr != NULL ? IOS_PHASE_READ : IOS_PHASE_WORK;
    if (!cJSON_IsObject(item) || cJSON_GetArraySize(item) != 1 || (pw != NULL) + (pi != NULL) + (pr != NULL) != 1) {
      ios_diag_set(file, where,
                   "phases[%d] must be {\"work\": DURATION}, {\"io\": SIZE} (or \"write\") or {\"read\": SIZE} with "
                   "a number or a string with a unit (\"60s\", \"2GiB\")",
                   i);
      return IOS_EINVAL;
    }
    char field[48];
    snprintf(field, sizeof field, "phases[%d].%s", i, pi != NULL ? pi->string : kinds[is_io]);
    if (read_quantity(pw != NULL   ? pw
                      : pi != NULL ? pi
                                   : pr,
                      is_io ? &spec_bytes : &spec_duration, is_io ? "an I/O volume in bytes" : "a work phase in s",
                      file, where, field, &x) != IOS_OK)
      return IOS_EINVAL;
    if (add_phase(a, is_io, x, cap) != IOS_OK) return IOS_ENOMEM;
    i++;
  }
  return IOS_OK;
}

/* Reads an inline application's phases: the "phases" array or the "work"/"io" shorthand, not both. */
static int parse_app_phases(const cJSON *o, const char *file, const char *where, ios_app_t *a, int *cap) {
  const cJSON *phases = cJSON_GetObjectItemCaseSensitive(o, "phases");
  const cJSON *work = cJSON_GetObjectItemCaseSensitive(o, "work"), *io = cJSON_GetObjectItemCaseSensitive(o, "io");
  if (phases != NULL && (work != NULL || io != NULL)) {
    ios_diag_set(file, where, "give either \"phases\" or the \"work\"/\"io\" shorthand, not both");
    return IOS_EINVAL;
  }
  if (phases != NULL) return parse_app_phase_list(phases, file, where, a, cap);
  double x;
  if (work != NULL && read_quantity(work, &spec_duration, "the work phase in s, such as 60 or \"1min\"", file, where,
                                    "work", &x) != IOS_OK)
    return IOS_EINVAL;
  if (work != NULL && add_phase(a, 0, x, cap) != IOS_OK) return IOS_ENOMEM;
  if (io != NULL && read_quantity(io, &spec_bytes, "the I/O volume in bytes, such as 1e9 or \"2GiB\"", file, where,
                                  "io", &x) != IOS_OK)
    return IOS_EINVAL;
  if (io != NULL && add_phase(a, 1, x, cap) != IOS_OK) return IOS_ENOMEM;
  if (a->nphases == 0) {
    ios_diag_set(file, where, "has no phases: give \"phases\" or \"work\"/\"io\"");
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Repeats an inline application's phases so that they run `v` (its "iterations") times in all. */
static int parse_app_iterations(const cJSON *v, const char *file, const char *where, ios_app_t *a, int *cap) {
  int iterations;
  char at[200];
  snprintf(at, sizeof at, "%s.iterations", where);
  if (ios_value_int(v, 1, 10000000, "how many times the phases repeat", file, at, &iterations) != IOS_OK)
    return IOS_EINVAL;
  int base = a->nphases;
  if ((double)base * iterations > MAX_PHASES) {
    ios_diag_set(file, at,
                 "is %d: with %d phases per iteration the application would hold more than %d phases; "
                 "lower iterations",
                 iterations, base, MAX_PHASES);
    return IOS_EINVAL;
  }
  for (int it = 1; it < iterations; it++)
    for (int i = 0; i < base; i++)
      if (add_phase(a, a->phases[i].is_io, a->phases[i].value, cap) != IOS_OK) return IOS_ENOMEM;
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
  if (ios_value_check_keys(o, keys, -1, file, where) != IOS_OK) return IOS_EINVAL;
  ios_app_t *a = ios_workload_add(w);
  if (a == NULL) return IOS_ENOMEM;
  int rc = parse_app_name(o, index, file, where, a);
  if (rc == IOS_OK) rc = parse_app_sizes(o, file, where, a);
  if (rc == IOS_OK) rc = parse_app_striping(o, file, where, a);
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "profile");
  if (rc == IOS_OK && v != NULL) rc = parse_app_profile(v, file, where, a);
  int cap = 0;
  if (rc == IOS_OK) rc = parse_app_phases(o, file, where, a, &cap);
  v = cJSON_GetObjectItemCaseSensitive(o, "iterations");
  if (rc == IOS_OK && v != NULL) rc = parse_app_iterations(v, file, where, a, &cap);
  return rc;
}

int ios_workload_parse_apps(const cJSON *arr, const char *file, ios_workload_t *w) {
  if (cJSON_GetArraySize(arr) == 0) {
    ios_diag_set(file, "workload.applications",
                 "holds no application: give at least one, e.g. [{\"nodes\": 4, "
                 "\"work\": \"60s\", \"io\": \"2GiB\"}]");
    return IOS_EINVAL;
  }
  int i = 0;
  const cJSON *o;
  cJSON_ArrayForEach(o, arr) {
    int rc = parse_app(o, i++, file, w);
    if (rc != IOS_OK) return rc;
  }
  const char *dup = NULL;
  int rc = duplicate_name(w, &dup);
  if (rc == IOS_EINVAL)
    ios_diag_set(file, "workload.applications", "two applications are named '%s': names must be unique", dup);
  return rc;
}

/* ---------------------------------------------------------------- RR-9502 sample files */

/* The numbers of a sample-file line before its phases. */
static const struct {
  const char *name;
  ios_num_spec_t spec;
} sample_fields[6] = {
    {"bandwidth", {0, IOS_VALUE_MAX_BANDWIDTH, 1, 0, IOS_UNIT_NONE, "b_i, in units of bandwidth_unit"}},
    {"age", {0, IOS_VALUE_MAX_DURATION, 0, 0, IOS_UNIT_NONE, "s since the application's release"}},
    {"progress", {0, IOS_VALUE_MAX_DURATION, 0, 0, IOS_UNIT_NONE, "s of progress made before the start (<= age)"}},
    {"agePhase", {0, IOS_VALUE_MAX_DURATION, 0, 0, IOS_UNIT_NONE, "s since the first phase began (<= age)"}},
    {"nphases", {1, MAX_PHASES, 0, 1, IOS_UNIT_NONE, "the number of phase values that follow"}},
    {"wIter", {0, IOS_VALUE_MAX_DURATION, 0, 0, IOS_UNIT_NONE, "the iteration length in s (0 = unknown)"}},
};

/* Reads the six numbers before a sample line's phase type into num; progress and agePhase <= age. */
static int sample_numbers(char **save, const char *file, const char *where, double num[6]) {
  static const char format[] = "format: name bandwidth age progress agePhase nphases wIter W|C x_1 .. x_nphases";
  char field[96];
  for (int k = 0; k < 6; k++) {
    char *tok = strtok_r(NULL, " \t\r\n", save);
    if (tok != NULL && ios_value_number_ok(tok, &sample_fields[k].spec, &num[k])) continue;
    snprintf(field, sizeof field, "%s, field %s", where, sample_fields[k].name);
    if (tok == NULL) {
      ios_diag_set(file, field, "is missing (%s)", format);
      return IOS_EINVAL;
    }
    if (ios_value_number_text(tok, &sample_fields[k].spec, file, field, &num[k]) != IOS_OK) return IOS_EINVAL;
  }
  if (num[2] > num[1] * (1 + 1e-12) + 1e-9 || num[3] > num[1] * (1 + 1e-12) + 1e-9) {
    snprintf(field, sizeof field, "%s, field %s", where,
             num[2] > num[1] * (1 + 1e-12) + 1e-9 ? "progress" : "agePhase");
    ios_diag_set(file, field,
                 "is %g but age is %g: an application cannot have progressed, or be in a phase, longer than it has "
                 "existed; fix progress/agePhase or age",
                 num[2] > num[1] * (1 + 1e-12) + 1e-9 ? num[2] : num[3], num[1]);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Reads a sample line's nphases phase values into `a`, alternating from is_io, I/O in units of `unit`. */
static int sample_phases(char **save, const char *file, const char *where, double unit, int is_io, long nphases,
                         ios_app_t *a) {
  static const ios_num_spec_t phase_spec = {
      0, IOS_VALUE_MAX_BYTES, 0, 0, IOS_UNIT_NONE, "a work phase in s or an I/O volume in units of bandwidth_unit·s"};
  char field[96], *tok;
  int cap = 0;
  while ((tok = strtok_r(NULL, " \t\r\n", save)) != NULL) {
    double x;
    if (a->nphases >= nphases) {
      ios_diag_set(file, where, "nphases says %ld but more phase values follow: fix nphases or the values", nphases);
      return IOS_EINVAL;
    }
    if (!ios_value_number_ok(tok, &phase_spec, &x) || (is_io && !(x * unit <= IOS_VALUE_MAX_BYTES))) {
      snprintf(field, sizeof field, "%s, phase value %d", where, a->nphases + 1); /* only for the message */
      if (ios_value_number_text(tok, &phase_spec, file, field, &x) != IOS_OK) return IOS_EINVAL;
    }
    if (is_io && !(x * unit <= IOS_VALUE_MAX_BYTES)) {
      ios_diag_set(file, field, "is %g: times the bandwidth unit %g B/s it is more than %g bytes; lower it", x, unit,
                   IOS_VALUE_MAX_BYTES);
      return IOS_EINVAL;
    }
    if (add_phase(a, is_io, is_io ? x * unit : x, &cap) != IOS_OK) return IOS_ENOMEM;
    is_io = !is_io;
  }
  if (a->nphases != nphases) {
    ios_diag_set(file, where, "nphases says %ld but %d phase values follow: fix nphases or the values", nphases,
                 a->nphases);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Reads one application line (tokens after the name at *save) into `a`. */
static int sample_line(char **save, const char *file, const char *where, double unit, ios_app_t *a) {
  double num[6];
  if (sample_numbers(save, file, where, num) != IOS_OK) return IOS_EINVAL;
  char *tok = strtok_r(NULL, " \t\r\n", save);
  if (tok == NULL || (strcmp(tok, "W") != 0 && strcmp(tok, "C") != 0)) {
    char shown[40];
    snprintf(shown, sizeof shown, "%.32s", tok ? tok : "missing");
    ios_diag_set(file, where, "the phase type is '%s': expected W (first phase is work) or C (first is I/O)", shown);
    return IOS_EINVAL;
  }
  int rc = sample_phases(save, file, where, unit, tok[0] == 'C', (long)num[4], a);
  if (rc != IOS_OK) return rc;
  a->profile.npoints = 1;
  a->profile.n[0] = 1;
  a->profile.bw[0] = num[0] * unit;
  a->has_profile = 1;
  a->release = -num[1];
  a->progress0 = num[2];
  if (!a->phases[0].is_io) {
    if (num[3] > a->phases[0].value) {
      ios_diag_set(file, where, "agePhase %g exceeds the first work phase %g", num[3], a->phases[0].value);
      return IOS_EINVAL;
    }
    a->phases[0].value -= num[3];
  } else {
    a->first_posted = -num[3];
  }
  if (!isfinite(a->profile.bw[0]) || !(a->profile.bw[0] > 0)) {
    ios_diag_set(file, where, "bandwidth %g times the bandwidth unit %g B/s is not a finite positive bandwidth", num[0],
                 unit);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

int ios_read_sample(const char *file, double unit, ios_workload_t *out) {
  FILE *f = ios_open_input(file);
  if (f == NULL) {
    ios_diag_set(file, "workload.file", "cannot read the sample file (%s): check the path", strerror(errno));
    return IOS_EIO;
  }
  struct stat st; /* lines are read whole: a device or a pipe (/dev/zero) could make one line without end */
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    fclose(f);
    ios_diag_set(file, "workload.file", "is not a regular file (a device, a pipe or a socket): give a sample file");
    return IOS_EINVAL;
  }
  ios_workload_t w = {0};
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
    rc = sample_line(&save, file, where, unit, a);
  }
  if (rc == IOS_OK && ferror(f)) {
    ios_diag_set(file, "workload.file", "cannot read the sample file (%s): check the path", strerror(errno));
    rc = IOS_EIO;
  }
  free(line);
  fclose(f);
  if (rc == IOS_OK && w.napps == 0) {
    ios_diag_set(file, "workload.file", "no application in the sample file");
    rc = IOS_EINVAL;
  }
  const char *dup = NULL;
  if (rc == IOS_OK && (rc = duplicate_name(&w, &dup)) == IOS_EINVAL)
    ios_diag_set(file, "workload.file", "two applications are named '%s': names must be unique (rename one)", dup);
  if (rc != IOS_OK) {
    ios_workload_free(&w);
    return rc;
  }
  *out = w;
  return IOS_OK;
}

/* Most periodic decisions (controller ticks, periodic-greedy-yield's δ) a run may take over its time scale. */
#define MAX_PERIODS 1e6

/* The fix for a platform with too few compute nodes: iosim generated it (generate a larger one) or it is a file of the
 * site's own (add compute hosts to it). */
static const char *larger_platform(const ios_scenario_t *s) {
  return s->platform_spec != NULL || ios_platgen_is_generated(s->platform)
             ? "use a larger platform (iosim platform KIND --set compute=N, or platform.compute in a platform object)"
             : "add compute hosts to the platform file (hosts with role compute, e.g. a larger radical of its "
               "<cluster>)";
}

/* What a run needs of the platform, and the periods' bound (docs/scenario.md, "Limits"): every application fits in the
 * compute nodes and asks for at most the pool; fixed counts fit in the pool; a period p > 0 (controller.tick_s,
 * sharing.delta_s) is at least T/10^6, T = the longest application's shortest possible span (its start + its work +
 * its volume at its best bandwidth, the pool's total capacity when it has no profile), so a run takes about 10^6
 * periodic decisions at most per T instead of never finishing. */
static int check_against_platform(const ios_scenario_t *s, const ios_platform_t *p, const ios_workload_t *w) {
  double pool = 0, T = 0;
  for (int i = 0; i < p->nres; i++)
    pool += p->res[i].capacity;
  for (int j = 0; j < w->napps; j++) {
    const ios_app_t *a = &w->apps[j];
    char where[160];
    snprintf(where, sizeof where, "workload: application '%.100s'", a->name);
    if (a->nodes > p->ncompute) {
      int generated = s->platform_spec != NULL || ios_platgen_is_generated(s->platform);
      ios_diag_set(s->file, where,
                   "needs %d compute nodes but the platform has %d: it could never start; lower its nodes or %s",
                   a->nodes, p->ncompute,
                   generated ? "use a larger platform (iosim platform KIND --set compute=N, or platform.compute in a "
                               "platform object)"
                             : "add compute hosts to the platform file (hosts with role compute, e.g. a larger "
                               "radical of its <cluster>)");
      return IOS_EINVAL;
    }
    if (a->requested_n > p->nres) {
      ios_diag_set(s->file, where, "asks for io_resources = %d but the platform's pool has %d: give 0..%d",
                   a->requested_n, p->nres, p->nres);
      return IOS_EINVAL;
    }
    double work, volume, best = 0;
    ios_app_totals(a, &work, &volume);
    for (int k = 0; k < a->profile.npoints; k++)
      best = fmax(best, a->profile.bw[k]);
    if (!a->has_profile || !(best > 0)) best = pool;
    double span = ios_app_start(a) + work + (best > 0 ? volume / best : 0);
    if (isfinite(span)) T = fmax(T, span);
  }
  double total = 0;
  for (int j = 0; j < w->napps; j++)
    total += w->apps[j].nodes;
  if (!s->queue && total > p->ncompute) { /* the engine's rule, so that `iosim check` sees it too */
    ios_diag_set(s->file, "workload",
                 "the applications need %.0f compute nodes together but the platform has %d: run them through a job "
                 "queue (queue.enabled: true; a job then waits for free nodes, as on the machine: docs/queue.md), or "
                 "%s, or fewer applications",
                 total, p->ncompute, larger_platform(s));
    return IOS_EINVAL;
  }
  for (int i = 0; i < s->allocation->nparams; i++)
    if (strcmp(s->allocation->params[i].unit, "resources") == 0 && s->allocation_params.v[i] > p->nres) {
      char where[128];
      snprintf(where, sizeof where, "allocation.%s", s->allocation->params[i].name);
      ios_diag_set(s->file, where, "is %g but the platform's pool has %d resources: give 0..%d",
                   s->allocation_params.v[i], p->nres, p->nres);
      return IOS_EINVAL;
    }
  double min_period = T / MAX_PERIODS;
  if (s->tick_s > 0 && s->tick_s < min_period) {
    ios_diag_set(s->file, "controller.tick_s",
                 "is %g s: give 0 (no periodic decision) or at least %g s — a run may take at most %.0f ticks over "
                 "the longest application's shortest span (%g s here), or it would not finish in reasonable time",
                 s->tick_s, min_period, MAX_PERIODS, T);
    return IOS_EINVAL;
  }
  for (int i = 0; i < s->sharing->nparams; i++)
    if (strcmp(s->sharing->params[i].name, "delta_s") == 0 && s->sharing_params.v[i] > 0 &&
        s->sharing_params.v[i] < min_period) {
      ios_diag_set(s->file, "sharing.delta_s",
                   "is %g s: give 0 (automatic, RR-9502 Eq. 5) or at least %g s — a run may take at most %.0f "
                   "periodic decisions over the longest application's shortest span (%g s here)",
                   s->sharing_params.v[i], min_period, MAX_PERIODS, T);
      return IOS_EINVAL;
    }
  return IOS_OK;
}

/* Reads `path` as a JSON array of inline applications into `w`. */
static int read_json_file(const char *path, ios_workload_t *w) {
  char *text = ios_read_file(path, NULL);
  cJSON *root = text ? cJSON_ParseWithOpts(text, NULL, 1) : NULL;
  if (text == NULL)
    ios_diag_set(path, "workload.file", "cannot read the workload (%s): give the path of a workload file",
                 strerror(errno));
  else if (!cJSON_IsArray(root))
    ios_diag_set(path, NULL, "must be a JSON array of applications (malformed JSON or not an array)");
  int rc = text == NULL ? IOS_EIO : (cJSON_IsArray(root) ? ios_workload_parse_apps(root, path, w) : IOS_EINVAL);
  cJSON_Delete(root);
  free(text);
  return rc;
}

/* The bandwidth unit `u` of a sample file (workload.bandwidth_unit) in B/s: "pool" is the pool's total capacity. */
static int sample_unit(const ios_scenario_t *s, const ios_platform_t *p, const char *u, double *out) {
  double unit = 0;
  if (strcmp(u, "pool") == 0) {
    for (int i = 0; i < p->nres; i++)
      unit += p->res[i].capacity;
  } else if (ios_parse_bandwidth(u, &unit) != IOS_OK || !(unit > 0) || unit > IOS_VALUE_MAX_BANDWIDTH) {
    ios_diag_set(s->file, "workload.bandwidth_unit",
                 "is '%s': use \"pool\" (sample bandwidths are fractions of the pool's total capacity B) or a "
                 "bandwidth such as \"1GiB/s\"",
                 u);
    return IOS_EINVAL;
  }
  *out = unit;
  return IOS_OK;
}

/* Reads `path` as an RR-9502 sample file, its bandwidths in the unit workload.bandwidth_unit gives. */
static int read_sample_file(const ios_scenario_t *s, const ios_platform_t *p, const char *path, const char *bwu,
                            ios_workload_t *w) {
  double unit = 0;
  int rc = sample_unit(s, p, bwu, &unit);
  return rc == IOS_OK ? ios_read_sample(path, unit, w) : rc;
}

/* Reads `path` as a JSON array of applications (workload.bandwidth_unit unused). */
static int read_json_any(const ios_scenario_t *s, const ios_platform_t *p, const char *path, const char *bwu,
                         ios_workload_t *w) {
  (void)s, (void)p, (void)bwu;
  return read_json_file(path, w);
}

/* The formats of workload.file, in the order `auto` tries their suffix (docs/scenario.md, "workload"). */
const ios_workload_format_t ios_workload_formats[] = {
    {.name = "json", .suffix = ".json", .read = read_json_any},
    {.name = "rr9502-sample", .suffix = NULL, .read = read_sample_file},
    {.name = NULL},
};

/* The format of workload.file `path` named `format` ("auto": the first whose suffix ends the path, else the last). */
static const ios_workload_format_t *file_format(const char *format, const char *path) {
  int last = 0;
  size_t len = strlen(path);
  for (int i = 0; ios_workload_formats[i].name != NULL; i++) {
    const char *suf = ios_workload_formats[i].suffix;
    last = i;
    if (strcmp(format, ios_workload_formats[i].name) == 0) return &ios_workload_formats[i];
    if (strcmp(format, "auto") == 0 && suf != NULL && len > strlen(suf) && !strcmp(path + len - strlen(suf), suf))
      return &ios_workload_formats[i];
  }
  return strcmp(format, "auto") == 0 ? &ios_workload_formats[last] : NULL;
}

int ios_workload_read_file(const ios_scenario_t *s, const ios_platform_t *p, const char *name, const char *format,
                           const char *bwu, ios_workload_t *w) {
  char *path = ios_expand_path(name, s->file, "workload.file");
  if (path == NULL) return IOS_EINVAL;
  const ios_workload_format_t *f = file_format(format, path);
  int rc = IOS_EINVAL;
  if (f == NULL) {
    char names[256] = "auto";
    for (int i = 0; ios_workload_formats[i].name != NULL; i++)
      snprintf(names + strlen(names), sizeof names - strlen(names), ", %s", ios_workload_formats[i].name);
    ios_diag_set(s->file, "workload.format", "unknown format '%s': use one of %s", format, names);
  } else
    rc = f->read(s, p, path, bwu, w);
  free(path);
  return rc;
}

/* Checks that every application's name can be a CSV cell (sample files' names; inline ones are checked). */
static int check_names(const ios_scenario_t *s, const ios_workload_t *w) {
  for (int j = 0; j < w->napps; j++)
    if (!csv_safe_name(w->apps[j].name)) {
      ios_diag_set(s->file, "workload",
                   "application name '%s' is empty or holds a comma, quote or newline: rename it "
                   "(names are CSV cells in apps.csv)",
                   w->apps[j].name);
      return IOS_EINVAL;
    }
  return IOS_OK;
}

int ios_workload_check(const ios_scenario_t *s, const ios_platform_t *p, ios_workload_t *w) {
  int rc = check_names(s, w);
  const cJSON *only = cJSON_GetObjectItemCaseSensitive(s->workload, "only");
  if (rc == IOS_OK && cJSON_IsString(only) && ios_workload_keep_only(w, only->valuestring) != IOS_OK) {
    ios_diag_set(s->file, "workload.only", "no application is named '%s'", only->valuestring);
    rc = IOS_EINVAL;
  }
  return rc == IOS_OK ? check_against_platform(s, p, w) : rc;
}
