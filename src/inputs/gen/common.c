/* iosim — what the workload generators share, and `iosim generate` (see ios_gen.h). */
#include "ios_args.h"
#include "ios_fs.h"
#include "ios_diag.h"
#include "ios_gen.h"
#include "ios_units.h"
#include "ios_value.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int ios_gen_read_params(const cJSON *g, const ios_gen_ctx_t *c, const char *kind, const ios_gen_param_t *params, int n,
                        const char *const *strings, double *val) {
  char where[96], text[64];
  if (!cJSON_IsObject(g)) {
    ios_value_text(g, text, sizeof text);
    ios_diag_set(c->file, c->obj, "is %s: give an object such as {\"kind\": \"%s\"}", text, kind);
    return IOS_EINVAL;
  }
  const char *names[64] = {"kind"};
  int nnames = 1;
  for (int k = 0; k < n && nnames < 64; k++)
    names[nnames++] = params[k].name;
  for (int k = 0; strings != NULL && strings[k] != NULL && nnames < 64; k++)
    names[nnames++] = strings[k];
  if (ios_value_check_keys(g, names, nnames, c->file, c->obj) != IOS_OK) return IOS_EINVAL;
  const cJSON *k = cJSON_GetObjectItemCaseSensitive(g, "kind");
  if (!cJSON_IsString(k) || strcmp(k->valuestring, kind) != 0) {
    snprintf(where, sizeof where, "%s%skind", c->obj, c->sep);
    ios_diag_set(c->file, where, "must be \"%s\"", kind);
    return IOS_EINVAL;
  }
  for (int i = 0; i < n; i++) {
    const ios_gen_param_t *p = &params[i];
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(g, p->name);
    val[i] = p->def;
    if (v == NULL) continue;
    double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (isnan(x) || x < p->lo || x > p->hi || (p->lo_open && x == p->lo) || (p->integer && x != floor(x))) {
      snprintf(where, sizeof where, "%s%s%s", c->obj, c->sep, p->name);
      ios_value_text(v, text, sizeof text);
      ios_diag_set(c->file, where, "is %s: give %s in %c%g, %g] — %s", text, p->integer ? "an integer" : "a number",
                   p->lo_open ? '(' : '[', p->lo, p->hi, p->meaning);
      return IOS_EINVAL;
    }
    val[i] = x;
  }
  return IOS_OK;
}

/* 1 − u is in (0, 1], so the logarithm is finite. */
double ios_gen_normal(ios_rng_t *rng) {
  double u = 1.0 - ios_rng_uniform(rng), v = ios_rng_uniform(rng);
  return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

int ios_gen_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int ios_gen_append(ios_workload_t *dst, ios_workload_t *src) {
  if (dst->napps == 0) {
    free(dst->apps);
    *dst = *src;
    return IOS_OK;
  }
  size_t room = 1; /* the next power of two >= the new count: ios_workload_add's invariant */
  while (room < (size_t)dst->napps + (size_t)src->napps)
    room *= 2;
  ios_app_t *apps = realloc(dst->apps, sizeof *apps * room);
  if (apps == NULL) return IOS_ENOMEM;
  memcpy(apps + dst->napps, src->apps, sizeof *apps * (size_t)src->napps);
  dst->apps = apps;
  dst->napps += src->napps;
  free(src->apps);
  return IOS_OK;
}

/* ---------------------------------------------------------------- writers */

/* The sample format: bandwidth = b(first point), age = −τ (released before the start), progress, agePhase 0 (a first
 * I/O phase is posted at the start), wIter = ω_i or 0, W|C = whether the first phase is work or I/O. */
static int write_sample(FILE *f, const ios_workload_t *w, const double *omega) {
  char a[40], b[40], age[40], prog[40];
  for (int j = 0; j < w->napps; j++) {
    const ios_app_t *app = &w->apps[j];
    ios_fmt_double(a, sizeof a, app->profile.bw[0]);
    ios_fmt_double(b, sizeof b, omega != NULL ? omega[j] : 0);
    ios_fmt_double(age, sizeof age, app->release < 0 ? -app->release : 0);
    ios_fmt_double(prog, sizeof prog, app->progress0);
    if (fprintf(f, "%s %s %s %s 0 %d %s %c", app->name, a, age, prog, app->nphases, b,
                app->nphases > 0 && app->phases[0].is_io ? 'C' : 'W') < 0)
      return IOS_EIO;
    for (int i = 0; i < app->nphases; i++) {
      ios_fmt_double(a, sizeof a, app->phases[i].value);
      if (fprintf(f, " %s", a) < 0) return IOS_EIO;
    }
    if (fputc('\n', f) == EOF) return IOS_EIO;
  }
  return IOS_OK;
}

static int write_json(FILE *f, const ios_workload_t *w) {
  char a[40], r[40];
  if (fputs("[\n", f) == EOF) return IOS_EIO;
  for (int j = 0; j < w->napps; j++) {
    const ios_app_t *app = &w->apps[j];
    ios_fmt_double(r, sizeof r, app->release);
    if (fprintf(f, "  {\"name\": \"%s\", \"nodes\": %d, \"release\": %s, \"profile\": {", app->name, app->nodes, r) < 0)
      return IOS_EIO;
    for (int k = 0; k < app->profile.npoints; k++) {
      ios_fmt_double(a, sizeof a, app->profile.bw[k]);
      if (fprintf(f, "%s\"%d\": %s", k ? ", " : "", app->profile.n[k], a) < 0) return IOS_EIO;
    }
    if (fputs("}, \"phases\": [", f) == EOF) return IOS_EIO;
    for (int i = 0; i < app->nphases; i++) {
      ios_fmt_double(a, sizeof a, app->phases[i].value);
      if (fprintf(f, "%s{\"%s\": %s}", i ? ", " : "", app->phases[i].is_io ? "io" : "work", a) < 0) return IOS_EIO;
    }
    if (fputs(j + 1 < w->napps ? "]},\n" : "]}\n", f) == EOF) return IOS_EIO;
  }
  return fputs("]\n", f) == EOF ? IOS_EIO : IOS_OK;
}

typedef struct {
  const ios_workload_t *w;
  const double *omega;
  int json;
} output_t;

static int write_instance(FILE *f, void *ctx) {
  const output_t *o = ctx;
  return o->json ? write_json(f, o->w) : write_sample(f, o->w, o->omega);
}

int ios_gen_write(const char *path, const ios_workload_t *w, const double *omega) {
  size_t plen = path != NULL ? strlen(path) : 0;
  output_t out = {w, omega, plen > 5 && strcmp(path + plen - 5, ".json") == 0};
  return ios_fs_write_atomic(path, write_instance, &out);
}
