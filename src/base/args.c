/* iosim — shared command-line conventions (see ios_args.h). */
#include "ios_args.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_value.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The SimGrid settings iosim sets itself (src/inputs/platform.c ios_simgrid_config, src/sim/engine.c
 * IOS_ACTOR_STACK_KIB: keep the values here equal to those), the value it gives them, and why. */
static const struct {
  const char *name, *value, *why;
} fixed[] = {
    {"network/model", "CM02",
     "iosim fixes it to CM02: the sharing policies' rates are caps on max-min shares of the links' bandwidth, and the "
     "engine tests check simulated times against that arithmetic (the other models add latency and TCP-window "
     "corrections no policy accounts for)"},
    {"network/crosstraffic", "0",
     "iosim fixes it to 0: I/O flows are one-way, and acknowledgement traffic would take bandwidth on the reverse "
     "links that no policy sees"},
    {"contexts/stack-size", "256",
     "iosim fixes it to 256 KiB: a run holds thousands of actors at once, and larger stacks exhaust the process's "
     "memory mappings (docs/engine.md)"},
};

/* The index of setting `name` in fixed[] ('_' and '-' are the same), or -1. */
static int fixed_index(const char *name) {
  char norm[128];
  size_t n = strlen(name);
  if (n >= sizeof norm) return -1;
  for (size_t i = 0; i <= n; i++)
    norm[i] = name[i] == '_' ? '-' : name[i];
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    if (strcmp(norm, fixed[i].name) == 0) return (int)i;
  return -1;
}

const char *ios_args_fixed_setting(const char *name) {
  int i = fixed_index(name);
  return i >= 0 ? fixed[i].why : NULL;
}

const char *ios_args_fixed_value(const char *name) {
  int i = fixed_index(name);
  return i >= 0 ? fixed[i].value : NULL;
}

int ios_args_fixed_count(void) {
  return (int)(sizeof fixed / sizeof fixed[0]);
}

const char *ios_args_fixed_name(int i) {
  return i >= 0 && i < ios_args_fixed_count() ? fixed[i].name : NULL;
}

/* Whether `value` is the value iosim gives fixed setting i, as SimGrid would read it: the same model name; for the
 * boolean crosstraffic any of SimGrid's spellings of false; the same number of KiB for the stack size. */
static int same_fixed_value(int i, const char *value) {
  if (strcmp(fixed[i].name, "network/crosstraffic") == 0) {
    static const char *const no[] = {"0", "no", "off", "false"};
    for (size_t k = 0; k < sizeof no / sizeof no[0]; k++)
      if (strcasecmp(value, no[k]) == 0) return 1;
    return 0;
  }
  if (strcmp(fixed[i].name, "contexts/stack-size") == 0) {
    char *end;
    double v = strtod(value, &end);
    return end != value && *end == '\0' && v == strtod(fixed[i].value, NULL);
  }
  return strcmp(value, fixed[i].value) == 0;
}

/* Whether one SimGrid log control (CATEGORY.SETTING:VALUE) is well formed: SimGrid aborts on a bad one.
 * `n` characters of `s`. */
static int log_control_ok(const char *s, size_t n) {
  static const char *const settings[] = {"thres", "threshold", "fmt", "format", "app", "appender", "add", "additivity"};
  static const char *const levels[] = {"trace", "debug", "verbose", "info", "warning", "error", "critical"};
  const char *colon = memchr(s, ':', n), *dot = NULL;
  for (const char *q = s; colon != NULL && q < colon; q++)
    if (*q == '.') dot = q;
  if (colon == NULL || dot == NULL || dot == s) return 0;
  size_t slen = (size_t)(colon - dot - 1), vlen = n - (size_t)(colon - s) - 1;
  int setting = -1;
  for (int i = 0; i < 8; i++)
    if (strlen(settings[i]) == slen && strncmp(dot + 1, settings[i], slen) == 0) setting = i;
  if (setting < 0) return 0;
  if (setting > 1) return 1;
  for (int i = 0; i < 7; i++)
    if (strlen(levels[i]) == vlen && strncasecmp(colon + 1, levels[i], vlen) == 0) return 1;
  return 0;
}

int ios_sg_flags_add(ios_sg_flags_t *f, int log, const char *value) {
  const char *colon = strchr(value, ':');
  int help = !log && strcmp(value, "help") == 0; /* SimGrid's list of settings (ios_sg_flags_help) */
  if (!log && !help && (colon == NULL || colon == value)) {
    fprintf(stderr,
            "iosim: error: --cfg=%s: write --cfg=name:value, e.g. --cfg=tracing:yes (SimGrid's settings: "
            "--cfg=help, or docs/cli.md)\n",
            value);
    return 2;
  }
  for (const char *q = value; log && *q != '\0';) {
    size_t n = strcspn(q, " ");
    if (n > 0 && !log_control_ok(q, n)) {
      fprintf(stderr,
              "iosim: error: --log=%s: '%.*s' is not a SimGrid log setting: write CATEGORY.thres:LEVEL (LEVEL one of "
              "trace, debug, verbose, info, warning, error, critical), CATEGORY.fmt:FORMAT, CATEGORY.app:APPENDER or "
              "CATEGORY.add:yes|no, e.g. --log=root.thres:critical\n",
              value, (int)n, q);
      return 2;
    }
    q += n + (q[n] == ' ');
  }
  if (log && strspn(value, " ") == strlen(value)) {
    fprintf(stderr, "iosim: error: --log needs a setting, e.g. --log=root.thres:critical\n");
    return 2;
  }
  if (!log && !help) {
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(colon - value), value);
    int i = fixed_index(name);
    if (i >= 0 && !same_fixed_value(i, colon + 1)) {
      fprintf(stderr,
              "iosim: error: --cfg=%s: iosim does not let a command line change %s: %s; remove this --cfg (or give "
              "iosim's own value, --cfg=%s:%s)\n",
              value, name, fixed[i].why, fixed[i].name, fixed[i].value);
      return 2;
    }
  }
  size_t len = strlen(value) + 7;
  char *flag = malloc(len), **grown = realloc(f->flags, sizeof *grown * (size_t)(f->n + 1));
  if (flag == NULL || grown == NULL) {
    free(flag);
    if (grown != NULL) f->flags = grown;
    return 1;
  }
  snprintf(flag, len, "--%s=%s", log ? "log" : "cfg", value);
  f->flags = grown;
  f->flags[f->n++] = flag;
  return 0;
}

int ios_sg_flags_help(const ios_sg_flags_t *f) {
  for (int i = 0; i < f->n; i++)
    if (strcmp(f->flags[i], "--cfg=help") == 0) return 1;
  return 0;
}

void ios_sg_flags_free(ios_sg_flags_t *f) {
  for (int i = 0; i < f->n; i++)
    free(f->flags[i]);
  free(f->flags);
  f->flags = NULL;
  f->n = 0;
}

int ios_args_error(int c, char *const *argv, const char *cmd, const char *usage) {
  const char *arg = optind > 0 ? argv[optind - 1] : "?";
  if (c == ':')
    fprintf(stderr, "iosim %s: error: option '%s' needs a value\n", cmd, arg);
  else if (optopt != 0 && optopt < 0x100 && (arg[0] != '-' || arg[1] != '-'))
    fprintf(stderr, "iosim %s: error: unknown option '-%c'\n", cmd, optopt);
  else
    fprintf(stderr, "iosim %s: error: unknown option '%s'\n", cmd, arg);
  fputs(usage, stderr);
  return 2;
}

int ios_args_bad(const char *usage, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("iosim: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fputs(usage, stderr);
  return 2;
}

int ios_args_is_help(const char *a) {
  return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "help") == 0;
}

int ios_args_add_set(cJSON *obj, const char *arg, const char *command, const char *example) {
  const char *eq = strchr(arg, '=');
  if (eq == NULL || eq == arg) {
    ios_diag_set("command line", "--set", "expected param=value, got \"%s\": write e.g. --set %s", arg, example);
    return IOS_EINVAL;
  }
  char *name = strndup(arg, (size_t)(eq - arg));
  if (name == NULL) return IOS_ENOMEM;
  if (strcmp(name, "kind") == 0) {
    ios_diag_set("command line", "kind", "give the kind as the first argument (%s), not with --set", command);
    free(name);
    return IOS_EINVAL;
  }
  cJSON *v = ios_value_from_cli(eq + 1); /* JSON when the whole text is, else a string ("50GBps", "1N1D") */
  cJSON_DeleteItemFromObjectCaseSensitive(obj, name); /* the last --set of a parameter wins */
  int ok = v != NULL && cJSON_AddItemToObject(obj, name, v);
  if (!ok) cJSON_Delete(v);
  free(name);
  return ok ? IOS_OK : IOS_ENOMEM;
}
