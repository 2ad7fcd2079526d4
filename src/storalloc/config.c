/* iosim — the JSON inputs of StorAlloc runs (see ios_storalloc_requests.h, docs/storalloc.md): the storage platform
 * (a preset or a list of node kinds, ios_storage_from_json) and the scheduler options (policy, parameters, split,
 * requeue, decide, seed: ios_storalloc_options_from_json), with the helpers of their messages. */
#include "requests_internal.h"
#include "ios_diag.h"
#include "ios_units.h"
#include "ios_value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- JSON values */

/* "obj.field" into buf. */
const char *sa_at(char *buf, size_t n, const char *obj, const char *field) {
  if (snprintf(buf, n, "%s%s%s", obj != NULL ? obj : "", obj != NULL && field != NULL ? "." : "", field ? field : "") <
      0)
    buf[0] = '\0';
  return buf;
}

void sa_text_of(const cJSON *v, char *buf, size_t n) {
  char *s = cJSON_PrintUnformatted(v);
  snprintf(buf, n, "%s", s != NULL ? s : "?");
  free(s);
}

/* A number (in the base unit) or a string with units, parsed by `parse`; >= 0. */
static int json_quantity(const cJSON *v, int (*parse)(const char *, double *), const char *file, const char *where,
                         const char *example, double *out) {
  double x = NAN;
  if (cJSON_IsNumber(v))
    x = v->valuedouble;
  else if (!cJSON_IsString(v) || parse(v->valuestring, &x) != IOS_OK)
    x = NAN;
  if (!(x >= 0) || !isfinite(x)) {
    char text[64];
    sa_text_of(v, text, sizeof text);
    ios_diag_set(file, where, "is %s: give a number >= 0 in base units or a string with units, e.g. %s", text, example);
    return IOS_EINVAL;
  }
  *out = x;
  return IOS_OK;
}

/* ---------------------------------------------------------------- platform */

static int node_kind(const cJSON *n, const char *file, const char *where, ios_storage_t *s) {
  static const char *const valid[] = {"name",          "count",   "bandwidth", "disks",
                                      "disk_capacity", "read_bw", "write_bw",  NULL};
  char w[160];
  if (!cJSON_IsObject(n)) {
    ios_diag_set(file, where,
                 "must be an object like {\"count\": 2, \"disks\": 5, \"disk_capacity\": \"1.6TB\", "
                 "\"write_bw\": \"2.93GB/s\", \"bandwidth\": \"200Gbps\"}");
    return IOS_EINVAL;
  }
  if (ios_value_check_keys(n, valid, -1, file, where) != IOS_OK) return IOS_EINVAL;
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(n, "name"),
              *count = cJSON_GetObjectItemCaseSensitive(n, "count"),
              *disks = cJSON_GetObjectItemCaseSensitive(n, "disks");
  double cnt = 1, nd = 1, bw = INFINITY, cap = 0, rbw = 0, wbw = 0;
  if (name != NULL && !cJSON_IsString(name)) {
    ios_diag_set(file, sa_at(w, sizeof w, where, "name"), "must be a string (e.g. \"ssd\")");
    return IOS_EINVAL;
  }
  if (count != NULL) cnt = cJSON_IsNumber(count) ? count->valuedouble : NAN;
  if (disks != NULL) nd = cJSON_IsNumber(disks) ? disks->valuedouble : NAN;
  if (!(cnt >= 1 && cnt <= 100000 && cnt == floor(cnt)) || !(nd >= 1 && nd <= 100000 && nd == floor(nd))) {
    ios_diag_set(file, sa_at(w, sizeof w, where, count != NULL && !(cnt >= 1) ? "count" : "disks"),
                 "must be an integer in [1, 100000] (nodes of this kind; disks per node)");
    return IOS_EINVAL;
  }
  if (cnt * nd > 1000000) {
    ios_diag_set(file, sa_at(w, sizeof w, where, "disks"),
                 "is %g with count %g: %g disks of one kind, more than 1000000; lower count or disks", nd, cnt,
                 cnt * nd);
    return IOS_EINVAL;
  }
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(n, "bandwidth");
  if (v != NULL &&
      json_quantity(v, ios_parse_bandwidth, file, sa_at(w, sizeof w, where, "bandwidth"), "\"200Gbps\"", &bw) != IOS_OK)
    return IOS_EINVAL;
  v = cJSON_GetObjectItemCaseSensitive(n, "disk_capacity");
  if (v == NULL) {
    ios_diag_set(file, sa_at(w, sizeof w, where, "disk_capacity"), "is missing: give each disk's size, e.g. \"1.6TB\"");
    return IOS_EINVAL;
  }
  if (json_quantity(v, ios_parse_bytes, file, sa_at(w, sizeof w, where, "disk_capacity"), "\"1.6TB\"", &cap) != IOS_OK)
    return IOS_EINVAL;
  v = cJSON_GetObjectItemCaseSensitive(n, "write_bw");
  if (v == NULL) {
    ios_diag_set(file, sa_at(w, sizeof w, where, "write_bw"),
                 "is missing: give each disk's bandwidth, e.g. \"2.93GB/s\"");
    return IOS_EINVAL;
  }
  if (json_quantity(v, ios_parse_bandwidth, file, sa_at(w, sizeof w, where, "write_bw"), "\"2.93GB/s\"", &wbw) !=
      IOS_OK)
    return IOS_EINVAL;
  rbw = wbw;
  v = cJSON_GetObjectItemCaseSensitive(n, "read_bw");
  if (v != NULL &&
      json_quantity(v, ios_parse_bandwidth, file, sa_at(w, sizeof w, where, "read_bw"), "\"3.13GB/s\"", &rbw) != IOS_OK)
    return IOS_EINVAL;
  if (!(cap > 0) || !(wbw > 0) || !(rbw > 0) || !(bw > 0)) {
    ios_diag_set(file, where, "disk_capacity, read_bw, write_bw and bandwidth must be positive");
    return IOS_EINVAL;
  }
  for (int i = 0; i < (int)cnt; i++) {
    char label[32];
    const char *base = name != NULL ? name->valuestring : "node";
    if (cnt > 1)
      snprintf(label, sizeof label, "%.20s%d", base, i);
    else
      snprintf(label, sizeof label, "%.31s", base);
    int rc = ios_storage_add_node(s, label, bw, (int)nd, cap, rbw, wbw);
    if (rc != IOS_OK) return rc;
  }
  return IOS_OK;
}

int ios_storage_from_json(const cJSON *j, const char *file, const char *obj, ios_storage_t *out) {
  static const char *const valid[] = {"preset", "capacity", "nodes", NULL};
  char w[160];
  if (out == NULL || out->nnodes != 0) return IOS_EINVAL;
  if (!cJSON_IsObject(j)) {
    ios_diag_set(file, obj, "must be an object: {\"preset\": \"nNnD\", \"capacity\": \"32TB\"} or {\"nodes\": [...]}");
    return IOS_EINVAL;
  }
  if (ios_value_check_keys(j, valid, -1, file, obj) != IOS_OK) return IOS_EINVAL;
  const cJSON *preset = cJSON_GetObjectItemCaseSensitive(j, "preset"),
              *nodes = cJSON_GetObjectItemCaseSensitive(j, "nodes"),
              *capacity = cJSON_GetObjectItemCaseSensitive(j, "capacity");
  if ((preset == NULL) == (nodes == NULL) || (nodes != NULL && capacity != NULL)) {
    ios_diag_set(file, obj, "give either \"preset\" (with \"capacity\") or \"nodes\", not both");
    return IOS_EINVAL;
  }
  ios_storage_t s = {0, 0, NULL, NULL};
  int rc = IOS_OK;
  if (preset != NULL) {
    double total = 0;
    if (capacity != NULL && json_quantity(capacity, ios_parse_bytes, file, sa_at(w, sizeof w, obj, "capacity"),
                                          "\"32TB\"", &total) != IOS_OK)
      return IOS_EINVAL;
    rc = cJSON_IsString(preset) ? ios_storage_preset(preset->valuestring, total, &s) : IOS_EINVAL;
    if (rc == IOS_EINVAL) {
      char text[64];
      sa_text_of(preset, text, sizeof text);
      ios_diag_set(file, sa_at(w, sizeof w, obj, "preset"),
                   "is %s with capacity %g bytes: give 1N1D, 1NnD, nN1D or nNnD with a positive \"capacity\" (e.g. "
                   "\"32TB\"; StorAlloc: 8, 16, 32, 64 TB), or table5 (32 TB, no capacity)",
                   text, total);
    }
    if (rc != IOS_OK) return rc;
  } else {
    if (!cJSON_IsArray(nodes) || cJSON_GetArraySize(nodes) < 1) {
      ios_diag_set(file, sa_at(w, sizeof w, obj, "nodes"), "must be a non-empty array of node kinds");
      return IOS_EINVAL;
    }
    int k = 0;
    const cJSON *n;
    cJSON_ArrayForEach(n, nodes) {
      snprintf(w, sizeof w, "%s.nodes[%d]", obj != NULL ? obj : "", k++);
      if ((rc = node_kind(n, file, w, &s)) != IOS_OK) break;
    }
    if (rc != IOS_OK) {
      ios_storage_free(&s);
      return rc;
    }
  }
  *out = s;
  return IOS_OK;
}

/* ---------------------------------------------------------------- options */

/* Reads "params" (`v`), the parameters of the policy x->policy, into x->params. */
static int options_params(const cJSON *v, const char *file, const char *obj, ios_storalloc_options_t *x) {
  char w[160];
  if (!cJSON_IsObject(v)) {
    ios_diag_set(file, sa_at(w, sizeof w, obj, "params"), "must be an object of %s's parameters", x->policy->name);
    return IOS_EINVAL;
  }
  const cJSON *p;
  cJSON_ArrayForEach(p, v) {
    int k = 0;
    while (k < x->policy->nparams && strcmp(x->policy->params[k].name, p->string) != 0)
      k++;
    snprintf(w, sizeof w, "%s.params.%s", obj != NULL ? obj : "", p->string);
    if (k == x->policy->nparams) {
      ios_diag_set(file, w, "unknown parameter: %s takes %s", x->policy->name,
                   x->policy->nparams > 0 ? x->policy->params[0].name : "no parameter");
      return IOS_EINVAL;
    }
    const ios_param_spec_t *ps = &x->policy->params[k];
    ios_num_spec_t spec = {0, 1e300, 0, ps->integer, IOS_UNIT_NONE, ps->description};
    if (ps->lo < ps->hi) {
      spec.lo = ps->lo;
      spec.hi = ps->hi;
    }
    if (ios_value_number(p, &spec, file, w, &x->params.v[k]) != IOS_OK) return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Reads "split" (`v`): a boolean or {"threshold": SIZE}, into x->split and x->split_threshold. */
static int options_split(const cJSON *v, const char *file, const char *obj, ios_storalloc_options_t *x) {
  static const char *const split_valid[] = {"threshold", "parts", NULL};
  char w[160];
  sa_at(w, sizeof w, obj, "split");
  if (cJSON_IsBool(v))
    x->split = cJSON_IsTrue(v);
  else if (cJSON_IsObject(v) && ios_value_check_keys(v, split_valid, -1, file, w) == IOS_OK) {
    x->split = 1;
    const cJSON *pp = cJSON_GetObjectItemCaseSensitive(v, "parts");
    static const char *const parts[] = {"independent", "all", NULL};
    if (pp != NULL && ios_value_choice(pp, parts,
                                       "\"independent\": StorAlloc, each part is its own request and a split "
                                       "request may be partly allocated; \"all\": all parts or none",
                                       file, sa_at(w, sizeof w, obj, "split.parts"), &x->split_all) != IOS_OK)
      return IOS_EINVAL;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(v, "threshold");
    if (t != NULL && (json_quantity(t, ios_parse_bytes, file, sa_at(w, sizeof w, obj, "split.threshold"), "\"200GB\"",
                                    &x->split_threshold) != IOS_OK ||
                      !(x->split_threshold > 0))) {
      ios_diag_set(file, w, "must be a positive size (StorAlloc: \"200GB\")");
      return IOS_EINVAL;
    }
  } else {
    ios_diag_set(file, w, "must be false, true or {\"threshold\": \"200GB\", \"parts\": \"independent\"}");
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Reads "requeue" (`v`): a boolean or {"retries": N, "interval": DURATION}, into x. */
static int options_requeue(const cJSON *v, const char *file, const char *obj, ios_storalloc_options_t *x) {
  static const char *const requeue_valid[] = {"retries", "interval", "window", NULL};
  char w[160];
  sa_at(w, sizeof w, obj, "requeue");
  if (cJSON_IsBool(v))
    x->requeue = cJSON_IsTrue(v);
  else if (cJSON_IsObject(v) && ios_value_check_keys(v, requeue_valid, -1, file, w) == IOS_OK) {
    x->requeue = 1;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(v, "retries"),
                *t = cJSON_GetObjectItemCaseSensitive(v, "interval");
    if (r != NULL) {
      double n = cJSON_IsNumber(r) ? r->valuedouble : NAN;
      if (!(n >= 0 && n <= 1000000 && n == floor(n))) {
        ios_diag_set(file, sa_at(w, sizeof w, obj, "requeue.retries"),
                     "must be an integer in [0, 1000000] (StorAlloc: 5)");
        return IOS_EINVAL;
      }
      x->retries = (int)n;
    }
    const cJSON *win = cJSON_GetObjectItemCaseSensitive(v, "window");
    static const char *const windows[] = {"end", "duration", NULL};
    if (win != NULL && ios_value_choice(win, windows,
                                        "\"end\": StorAlloc Table 2, a retry postpones the start and the window "
                                        "still ends where it was asked to; \"duration\": the window keeps its length",
                                        file, sa_at(w, sizeof w, obj, "requeue.window"), &x->requeue_window) != IOS_OK)
      return IOS_EINVAL;
    if (t != NULL && (json_quantity(t, ios_parse_duration, file, sa_at(w, sizeof w, obj, "requeue.interval"),
                                    "\"5min\"", &x->interval) != IOS_OK ||
                      !(x->interval > 0))) {
      ios_diag_set(file, w, "must be a positive duration (StorAlloc: \"5min\")");
      return IOS_EINVAL;
    }
  } else {
    ios_diag_set(file, w, "must be false, true or {\"retries\": 5, \"interval\": \"5min\"}");
    return IOS_EINVAL;
  }
  return IOS_OK;
}

int ios_storalloc_options_from_json(const cJSON *j, const char *file, const char *obj, ios_storalloc_options_t *o) {
  static const char *const valid[] = {"policy", "params", "split", "requeue", "seed", "decide", NULL};
  char w[160], text[64];
  if (o == NULL) return IOS_EINVAL;
  if (!cJSON_IsObject(j)) {
    ios_diag_set(file, obj, "must be an object like {\"policy\": \"best-bandwidth\", \"split\": true}");
    return IOS_EINVAL;
  }
  if (ios_value_check_keys(j, valid, -1, file, obj) != IOS_OK) return IOS_EINVAL;
  ios_storalloc_options_t x = *o;
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "policy");
  if (v != NULL && (!cJSON_IsString(v) || ios_storalloc_options_policy(&x, v->valuestring) != IOS_OK)) {
    sa_text_of(v, text, sizeof text);
    ios_diag_set(file, sa_at(w, sizeof w, obj, "policy"),
                 "is %s: give random, round-robin, worst-fit or best-bandwidth (StorAlloc §4.2)", text);
    return IOS_EINVAL;
  }
  if ((v = cJSON_GetObjectItemCaseSensitive(j, "params")) != NULL && options_params(v, file, obj, &x) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(j, "split")) != NULL && options_split(v, file, obj, &x) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(j, "requeue")) != NULL && options_requeue(v, file, obj, &x) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(j, "decide")) != NULL) {
    int st = cJSON_IsString(v) ? (strcmp(v->valuestring, "start") == 0        ? 1
                                  : strcmp(v->valuestring, "submission") == 0 ? 0
                                                                              : -1)
                               : -1;
    if (st < 0) {
      sa_text_of(v, text, sizeof text);
      ios_diag_set(file, sa_at(w, sizeof w, obj, "decide"),
                   "is %s: give \"submission\" (StorAlloc §4.2, §4.4: decided when submitted on the scheduler's "
                   "catalogue, then replayed, Fig. 7 failures) or \"start\" (decided at its start on the exact state)",
                   text);
      return IOS_EINVAL;
    }
    x.decide_start = st;
  }
  if ((v = cJSON_GetObjectItemCaseSensitive(j, "seed")) != NULL) {
    double s = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (!(s >= 0 && s <= 9007199254740992.0 && s == floor(s))) {
      ios_diag_set(file, sa_at(w, sizeof w, obj, "seed"), "must be an integer >= 0");
      return IOS_EINVAL;
    }
    x.seed = (uint64_t)s;
  }
  *o = x;
  return IOS_OK;
}
