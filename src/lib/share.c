/* iosim — bandwidth sharing in the policy face of libiosim (include/iosim/policy.h): share views, one sharing decision,
 * and sharing policies registered at run time (a function, its user data and a descriptor), which the registry
 * (policies/registry.c) then lists beside the built-in ones so that a scenario can name them.
 *
 * The engine calls a sharing policy through its descriptor: `share(ctx, view, params, rates)`. Every registered policy
 * has the same entry point, registered_share, and its descriptor's ctx points to its record (function, user data).
 *
 * The transfer view's fields are those of include/iosim/transfer_view.h: the names, defaults, checks, setter and getter
 * below expand IOSIM_TRANSFER_VIEW_FIELDS. */
#include "ios_lib.h"

#include "ios_diag.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------------------- share views
 */
/* Each field's name and the values iosim_share_view_set accepts (iosim/transfer_view.h). */
static const struct {
  const char *name;
  int integer; /* 1: an integer */
  double lo;   /* the lowest value accepted (-INFINITY: none) */
  int open;    /* 1: lo itself refused */
  int nan;     /* 1: NAN accepted (not known yet) */
} fields[IOSIM_T_NFIELDS] = {
#define FIELD(ID, name, ctype, integer, lo, open, nan, def) [IOSIM_T_##ID] = {#name, integer, lo, open, nan},
    IOSIM_TRANSFER_VIEW_FIELDS(FIELD)
#undef FIELD
};

const char *iosim_transfer_field_name(int field) {
  return field >= 0 && field < IOSIM_T_NFIELDS ? fields[field].name : NULL;
}

iosim_share_view_t *iosim_share_view_new(double now, double capacity, int ntransfers) {
  if (!isfinite(now) || !(capacity > 0) || !isfinite(capacity) || ntransfers < 1) {
    ios_lib_fail(IOSIM_EINVAL,
                 "iosim_share_view_new: now = %g s, capacity = %g bytes/s, %d transfers: give a finite "
                 "date, a finite capacity > 0 and at least one transfer",
                 now, capacity, ntransfers);
    return NULL;
  }
  iosim_share_view_t *v = calloc(1, sizeof *v);
  if (v != NULL) v->own = calloc((size_t)ntransfers, sizeof *v->own);
  if (v == NULL || v->own == NULL) {
    free(v);
    ios_lib_fail(IOSIM_ENOMEM, "iosim_share_view_new: out of memory");
    return NULL;
  }
  for (int i = 0; i < ntransfers; i++)
#define DEFAULT(ID, name, ctype, integer, lo, open, nan, def) .name = (def),
    v->own[i] = (ios_transfer_view_t){IOSIM_TRANSFER_VIEW_FIELDS(DEFAULT)};
#undef DEFAULT
  v->v = (ios_share_view_t){
      .now = now, .capacity = capacity, .ntransfers = ntransfers, .t = v->own, .t_begin = 0, .t_end = INFINITY};
  return v;
}

int iosim_share_view_set(iosim_share_view_t *view, int i, int field, double value) {
  if (view == NULL || view->own == NULL || i < 0 || i >= view->v.ntransfers || field < 0 || field >= IOSIM_T_NFIELDS)
    return ios_lib_fail(IOSIM_EINVAL,
                        "iosim_share_view_set: transfer %d, field %d: out of range (transfers 0..%d, "
                        "fields 0..%d), or a view received by a registered policy (read-only)",
                        i, field, view != NULL ? view->v.ntransfers - 1 : -1, IOSIM_T_NFIELDS - 1);
  int ok = (isfinite(value) && (fields[field].open ? value > fields[field].lo : value >= fields[field].lo)) ||
           (fields[field].nan && isnan(value));
  if (ok && fields[field].integer && !isnan(value)) ok = value == floor(value) && fabs(value) < 2147483647.0;
  if (!ok) {
    char lo[40] = "";
    if (isfinite(fields[field].lo))
      snprintf(lo, sizeof lo, " %s %g", fields[field].open ? ">" : ">=", fields[field].lo);
    return ios_lib_fail(IOSIM_EINVAL, "iosim_share_view_set: transfer %d: %s = %g: give a finite%s value%s%s", i,
                        fields[field].name, value, fields[field].integer ? " integer" : "", lo,
                        fields[field].nan ? " (or NAN: not known yet)" : "");
  }
  ios_transfer_view_t *t = &view->own[i];
  switch (field) {
#define SET(ID, name, ctype, integer, lo, open, nan, def)                                                              \
  case IOSIM_T_##ID:                                                                                                   \
    t->name = (ctype)value;                                                                                            \
    break;
    IOSIM_TRANSFER_VIEW_FIELDS(SET)
#undef SET
  default:
    break;
  }
  return IOSIM_OK;
}

int iosim_share_view_set_window(iosim_share_view_t *view, double t_begin, double t_end) {
  if (view == NULL || view->own == NULL || !isfinite(t_begin) || isnan(t_end) || !(t_end >= t_begin))
    return ios_lib_fail(IOSIM_EINVAL,
                        "iosim_share_view_set_window: [%g, %g] s: give a finite begin and an end at or "
                        "after it (INFINITY: none)",
                        t_begin, t_end);
  view->v.t_begin = t_begin;
  view->v.t_end = t_end;
  return IOSIM_OK;
}

double iosim_share_view_get(const iosim_share_view_t *view, int i, int field) {
  if (view == NULL || i < 0 || i >= view->v.ntransfers) return NAN;
  const ios_transfer_view_t *t = &view->v.t[i];
  switch (field) {
#define GET(ID, name, ctype, integer, lo, open, nan, def)                                                              \
  case IOSIM_T_##ID:                                                                                                   \
    return (double)t->name;
    IOSIM_TRANSFER_VIEW_FIELDS(GET)
#undef GET
  default:
    return NAN;
  }
}

double iosim_share_view_now(const iosim_share_view_t *view) {
  return view != NULL ? view->v.now : NAN;
}

double iosim_share_view_capacity(const iosim_share_view_t *view) {
  return view != NULL ? view->v.capacity : NAN;
}

double iosim_share_view_window_begin(const iosim_share_view_t *view) {
  return view != NULL ? view->v.t_begin : NAN;
}

double iosim_share_view_window_end(const iosim_share_view_t *view) {
  return view != NULL ? view->v.t_end : NAN;
}

int iosim_share_view_count(const iosim_share_view_t *view) {
  return view != NULL ? view->v.ntransfers : ios_lib_fail(IOSIM_EINVAL, "the share view is NULL");
}

void iosim_share_view_free(iosim_share_view_t *view) {
  if (view == NULL || view->own == NULL) return;
  free(view->own);
  free(view->fail);
  free(view);
}

int iosim_share(const iosim_policy_t *policy, const iosim_params_t *params, const iosim_share_view_t *view,
                double *rates_out) {
  const ios_policy_t *p = ios_lib_policy(policy);
  if (!ios_lib_check_family(p, IOS_FAMILY_SHARING, "iosim_share")) return IOSIM_EINVAL;
  if (view == NULL || rates_out == NULL) return ios_lib_fail(IOSIM_EINVAL, "iosim_share: give a view and rates_out");
  ios_params_t tmp;
  const ios_params_t *v = ios_lib_params(p, params, &tmp);
  if (v == NULL) return IOSIM_EINVAL;
  double few[16]; /* most views hold a few transfers: no allocation per decision (iosim.share_batch makes millions) */
  double *rates = view->v.ntransfers <= 16 ? few : malloc(sizeof *rates * (size_t)view->v.ntransfers);
  if (rates == NULL) return ios_lib_fail(IOSIM_ENOMEM, "iosim_share: out of memory");
  ios_diag_clear();
  const ios_sharing_policy_t *s = (const ios_sharing_policy_t *)p;
  int rc = s->share(s->ctx, &view->v, v, rates);
  if (rc == IOS_OK)
    memcpy(rates_out, rates, sizeof *rates * (size_t)view->v.ntransfers);
  else
    ios_lib_fail_diag(IOSIM_EINVAL, "the sharing policy failed");
  if (rates != few) free(rates);
  return rc == IOS_OK ? IOSIM_OK : IOSIM_EINVAL;
}

/* ------------------------------------------------------------------------------------------ policies added at run time
 */
/* A policy registered at run time: what the registry lists (desc, whose ctx points back to this record) and the
 * user's function and data. Lives until the process ends. */
typedef struct {
  ios_sharing_policy_t desc; /* desc.share = registered_share, desc.ctx = this record */
  ios_param_spec_t params[IOS_MAX_PARAMS];
  iosim_share_fn fn;
  void *user;
} registered_t;

/* Records why a registered policy's decision is refused in ios_diag_message(), which the engine's message on the
 * failed decision quotes. @return IOS_EINVAL. */
static int refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int refuse(const char *fmt, ...) {
  char why[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  ios_diag_set(NULL, NULL, "%s", why);
  return IOS_EINVAL;
}

int iosim_share_fail(const iosim_share_view_t *view, const char *message) {
  iosim_share_view_t *v = (iosim_share_view_t *)view;
  if (v != NULL) {
    free(v->fail);
    v->fail = strdup(message != NULL ? message : "");
  }
  return IOSIM_EINVAL;
}

/* A registered policy's decision (ctx: its registered_t): the user's function, then its rates checked
 * (include/iosim/policy.h, iosim_sharing_register). */
static int registered_share(void *ctx, const ios_share_view_t *in, const ios_params_t *p, double *rate_out) {
  const registered_t *r = ctx;
  iosim_share_view_t view = {.v = *in, .own = NULL, .fail = NULL};
  iosim_params_t params = {.policy = (const ios_policy_t *)&r->desc, .v = *p};
  for (int i = 0; i < in->ntransfers; i++)
    rate_out[i] = NAN;
  int rc = r->fn(&view, &params, rate_out, r->user);
  if (rc != 0) {
    refuse("policy '%s' failed at t = %.17g s: %s", r->desc.name, in->now,
           view.fail != NULL && view.fail[0] ? view.fail : "its function returned an error without a message");
    free(view.fail);
    return IOS_EINVAL;
  }
  free(view.fail);
  double sum = 0;
  for (int i = 0; i < in->ntransfers; i++) {
    double x = rate_out[i], cap = in->t[i].cap;
    if (!isfinite(x) || x < 0 || x > cap * (1 + 1e-9)) {
      return refuse("policy '%s' at t = %.17g s gave transfer %d (application %d) the rate %g bytes/s: give each "
                    "transfer a finite rate in [0, cap] (its cap is %g bytes/s)",
                    r->desc.name, in->now, i, in->t[i].app, x, cap);
    }
    sum += x;
  }
  if (!r->desc.uncapped && sum > in->capacity * (1 + 1e-9)) {
    return refuse("policy '%s' at t = %.17g s gave rates summing to %g bytes/s on a resource of %g bytes/s: give "
                  "rates within the capacity, or register it with IOSIM_SHARING_UNCAPPED",
                  r->desc.name, in->now, sum, in->capacity);
  }
  return IOS_OK;
}

static int valid_name(const char *s) {
  if (s == NULL || s[0] == '\0' || strlen(s) > 64) return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' ||
          *s == '.'))
      return 0;
  return 1;
}

static char *copy(const char *s, const char *fallback) {
  return strdup(s != NULL ? s : fallback);
}

static void registered_free(registered_t *r) {
  free((char *)r->desc.name);
  free((char *)r->desc.description);
  free((char *)r->desc.source);
  for (int i = 0; i < IOS_MAX_PARAMS; i++)
    free((char *)r->params[i].name);
  free(r);
}

const iosim_policy_t *iosim_sharing_register(const char *name, const char *description, const char *source, int flags,
                                             int nparams, const char *const *param_names, const double *param_defaults,
                                             iosim_share_fn fn, void *user) {
  if (!valid_name(name) || fn == NULL) {
    ios_lib_fail(IOSIM_EINVAL,
                 "iosim_sharing_register: name '%s'%s: give a name of letters, digits, '-', '_' and "
                 "'.' (at most 64) and a function",
                 name != NULL ? name : "(null)", fn == NULL ? " without a function" : "");
    return NULL;
  }
  if (ios_policy_find(IOS_FAMILY_SHARING, name) != NULL) {
    ios_lib_fail(IOSIM_EINVAL,
                 "iosim_sharing_register: '%s' is already a sharing policy (or an alias of one): give "
                 "another name",
                 name);
    return NULL;
  }
  if (nparams < 0 || nparams > IOS_MAX_PARAMS || (nparams > 0 && (param_names == NULL || param_defaults == NULL))) {
    ios_lib_fail(IOSIM_EINVAL,
                 "iosim_sharing_register: '%s' with %d parameters: give 0..%d, with their names and "
                 "defaults",
                 name, nparams, IOS_MAX_PARAMS);
    return NULL;
  }
  for (int i = 0; i < nparams; i++) {
    int dup = 0;
    for (int k = 0; k < i; k++)
      dup |= param_names[k] != NULL && param_names[i] != NULL && strcmp(param_names[k], param_names[i]) == 0;
    if (!valid_name(param_names[i]) || strcmp(param_names[i], "policy") == 0 || dup || !isfinite(param_defaults[i])) {
      ios_lib_fail(IOSIM_EINVAL,
                   "iosim_sharing_register: '%s': parameter %d ('%s', default %g): give distinct names "
                   "of letters, digits, '-', '_' and '.' other than \"policy\", with finite defaults",
                   name, i, param_names[i] != NULL ? param_names[i] : "(null)", param_defaults[i]);
      return NULL;
    }
  }
  registered_t *r = calloc(1, sizeof *r);
  if (r == NULL) {
    ios_lib_fail(IOSIM_ENOMEM, "iosim_sharing_register: out of memory");
    return NULL;
  }
  int ok = (r->desc.name = copy(name, "")) != NULL &&
           (r->desc.description = copy(description, "a sharing policy registered at run time")) != NULL &&
           (r->desc.source = copy(source, "registered at run time (iosim_sharing_register)")) != NULL;
  for (int i = 0; ok && i < nparams; i++) {
    r->params[i] = (ios_param_spec_t){.name = strdup(param_names[i]),
                                      .def = param_defaults[i],
                                      .unit = "",
                                      .description = "a parameter of a registered policy (any finite number)"};
    ok = r->params[i].name != NULL;
  }
  r->desc.nparams = nparams;
  r->desc.params = r->params;
  r->desc.share = registered_share;
  r->desc.ctx = r;
  r->desc.uncapped = (flags & IOSIM_SHARING_UNCAPPED) != 0;
  r->fn = fn;
  r->user = user;
  if (!ok || ios_sharing_register(&r->desc) != IOS_OK) {
    registered_free(r);
    ios_lib_fail(IOSIM_ENOMEM, "iosim_sharing_register: '%s': out of memory", name);
    return NULL;
  }
  return (const iosim_policy_t *)&r->desc;
}
