/* iosim — the scenario face of libiosim (include/iosim/scenario.h): scenarios loaded and validated by the scenario
 * reader (src/inputs/scenario.c), checked or run in a forked child (or in this process, once) by ios_lib_exec_here,
 * and the run's results read back from its output directory: results.json's metrics and apps.csv's rows. */
#include "ios_lib.h"

#include "ios_args.h"
#include "ios_diag.h"
#include "ios_scenario.h"
#include "ios_value.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

struct iosim_scenario {
  ios_scenario_t s;
  char *json; /* the resolved scenario as text, made on demand */
};

static int from_rc(int rc) {
  return rc == IOS_OK       ? IOSIM_OK
         : rc == IOS_EINVAL ? IOSIM_EINVAL
         : rc == IOS_ENOMEM ? IOSIM_ENOMEM
         : rc == IOS_EIO    ? IOSIM_EIO
                            : IOSIM_EINTERNAL;
}

static int finish_load(int rc, ios_scenario_t *s, iosim_scenario_t **out) {
  if (rc != IOS_OK) return ios_lib_fail_diag(from_rc(rc), "the scenario could not be loaded");
  iosim_scenario_t *h = calloc(1, sizeof *h);
  if (h == NULL) {
    ios_scenario_free(s);
    return ios_lib_fail(IOSIM_ENOMEM, "out of memory for the scenario");
  }
  h->s = *s;
  *out = h;
  return IOSIM_OK;
}

int iosim_scenario_load(const char *path, int nsets, const char *const *sets, iosim_scenario_t **out) {
  if (path == NULL || out == NULL || nsets < 0 || (nsets > 0 && sets == NULL))
    return ios_lib_fail(IOSIM_EINVAL, "iosim_scenario_load: give a path, the overrides (nsets >= 0) and out");
  ios_scenario_t s;
  ios_diag_set(NULL, NULL, "%s", "");
  int rc = ios_scenario_load(path, nsets, (char *const *)sets, &s);
  return finish_load(rc, &s, out);
}

int iosim_scenario_parse(const char *json_text, const char *label, const char *base_dir, int nsets,
                         const char *const *sets, iosim_scenario_t **out) {
  if (json_text == NULL || out == NULL || nsets < 0 || (nsets > 0 && sets == NULL))
    return ios_lib_fail(IOSIM_EINVAL, "iosim_scenario_parse: give the JSON text, the overrides (nsets >= 0) and out");
  if (label == NULL) label = "scenario";
  cJSON *user = cJSON_Parse(json_text);
  if (user == NULL || !cJSON_IsObject(user)) {
    cJSON_Delete(user);
    return ios_lib_fail(IOSIM_EINVAL, "%s: is not a JSON object: give a scenario object (docs/scenario.md)", label);
  }
  char dir[4200] = "";
  if (base_dir != NULL && base_dir[0] != '\0')
    snprintf(dir, sizeof dir, "%s%s", base_dir, base_dir[strlen(base_dir) - 1] == '/' ? "" : "/");
  int rc = ios_scenario_rebase(user, dir);
  for (int i = 0; rc == IOS_OK && i < nsets; i++) {
    const char *eq = sets[i] != NULL ? strchr(sets[i], '=') : NULL;
    if (eq == NULL || eq == sets[i]) {
      cJSON_Delete(user);
      return ios_lib_fail(IOSIM_EINVAL, "%s: override '%s': give key=value (a dotted scenario key)", label,
                          sets[i] != NULL ? sets[i] : "(null)");
    }
    char key[512];
    snprintf(key, sizeof key, "%.*s", (int)(eq - sets[i]), sets[i]);
    cJSON *value = ios_value_from_cli(eq + 1);
    rc = value == NULL ? IOS_ENOMEM : ios_scenario_set_value(user, key, value, "");
    cJSON_Delete(value);
    if (rc == IOS_EINVAL) {
      cJSON_Delete(user);
      return ios_lib_fail(IOSIM_EINVAL, "%s: override '%s': '%s' is not a scenario key (docs/scenario.md)", label,
                          sets[i], key);
    }
  }
  ios_scenario_t s;
  ios_diag_set(NULL, NULL, "%s", "");
  if (rc == IOS_OK) rc = ios_scenario_from_json(user, label, &s);
  cJSON_Delete(user);
  return finish_load(rc, &s, out);
}

const char *iosim_scenario_json(const iosim_scenario_t *scenario) {
  if (scenario == NULL) return NULL;
  iosim_scenario_t *h = (iosim_scenario_t *)scenario;
  if (h->json == NULL) h->json = cJSON_Print(h->s.resolved);
  return h->json;
}

const char *iosim_scenario_output_dir(const iosim_scenario_t *scenario) {
  return scenario != NULL ? scenario->s.out_dir : NULL;
}

void iosim_scenario_free(iosim_scenario_t *scenario) {
  if (scenario == NULL) return;
  ios_scenario_free(&scenario->s);
  cJSON_free(scenario->json);
  free(scenario);
}

/* ------------------------------------------------------------------------------------------------------------ runs */
/* The caller's SimGrid settings: each --cfg=name:value or --log=..., and no other value for a setting iosim fixes. */
static int check_sg(int nsg, const char *const *sg) {
  if (nsg < 0 || (nsg > 0 && sg == NULL)) return ios_lib_fail(IOSIM_EINVAL, "SimGrid settings: give nsg >= 0 strings");
  for (int i = 0; i < nsg; i++) {
    const char *a = sg[i];
    if (a == NULL || (strncmp(a, "--cfg=", 6) != 0 && strncmp(a, "--log=", 6) != 0))
      return ios_lib_fail(IOSIM_EINVAL, "SimGrid setting '%s': give --cfg=name:value or --log=setting",
                          a != NULL ? a : "(null)");
    const char *colon = strchr(a, ':');
    if (a[2] == 'c' && colon != NULL) {
      char name[256];
      snprintf(name, sizeof name, "%.*s", (int)(colon - a - 6), a + 6);
      const char *why = ios_args_fixed_setting(name), *value = ios_args_fixed_value(name), *v = colon + 1;
      char *end;
      int same = value == NULL || strcmp(v, value) == 0 ||
                 (strcmp(value, "0") == 0 && (strcasecmp(v, "no") == 0 || strcasecmp(v, "off") == 0 ||
                                              strcasecmp(v, "false") == 0)) || /* SimGrid's spellings of false */
                 (strtod(v, &end) == strtod(value, NULL) && end != v && *end == '\0'); /* the same number */
      if (why != NULL && !same)
        return ios_lib_fail(IOSIM_EINVAL, "SimGrid setting '%s': iosim runs with %s:%s (%s)", a, name, value, why);
    }
  }
  return IOSIM_OK;
}

/* Standard output to /dev/null (print = 0) around a run; the saved descriptor, or -1. */
static int quiet_begin(int print) {
  if (print) return -1;
  fflush(stdout);
  int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (saved >= 0 && null >= 0) dup2(null, STDOUT_FILENO);
  if (null >= 0) close(null);
  return saved;
}

static void quiet_end(int saved) {
  if (saved < 0) return;
  fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
}

/* The message of a failed run (the engine's names a registered sharing policy's refusal, ios_lib_share_failure). */
static int exec_failed(int rc) {
  return ios_lib_fail_diag(from_rc(rc), ios_strerror(rc));
}

static int exec_in_process(iosim_scenario_t *h, int check, int flags, int nsg, const char *const *sg) {
  static int done;
  if (done)
    return ios_lib_fail(IOSIM_EINVAL, "IOSIM_RUN_IN_PROCESS: this process has run SimGrid already (one engine per "
                                      "process): run without IOSIM_RUN_IN_PROCESS, in a forked child");
  done = 1;
  int saved = quiet_begin(flags & IOSIM_RUN_PRINT);
  ios_diag_set(NULL, NULL, "%s", "");
  int rc = ios_lib_exec_here(&h->s, check, nsg, sg);
  quiet_end(saved);
  return rc == IOS_OK ? IOSIM_OK : exec_failed(rc);
}

/* Writes all of buf to fd (the child's report). */
static void write_all(int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n > 0) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return;
    p += k;
    n -= (size_t)k;
  }
}

/* The child runs, then reports "CODE MESSAGE" through the pipe and exits without the parent's exit handlers. */
static int exec_forked(iosim_scenario_t *h, int check, int flags, int nsg, const char *const *sg) {
  int fds[2];
  if (pipe(fds) != 0) return ios_lib_fail(IOSIM_EIO, "cannot create a pipe for the run (%s)", strerror(errno));
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return ios_lib_fail(IOSIM_ENOMEM, "cannot fork the process that simulates (%s)", strerror(errno));
  }
  if (pid == 0) {
    close(fds[0]);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    quiet_begin(flags & IOSIM_RUN_PRINT);
    ios_diag_set(NULL, NULL, "%s", "");
    int rc = ios_lib_exec_here(&h->s, check, nsg, sg);
    if (rc != IOS_OK) exec_failed(rc);
    char head[32];
    snprintf(head, sizeof head, "%d ", rc == IOS_OK ? IOSIM_OK : from_rc(rc));
    write_all(fds[1], head, strlen(head));
    if (rc != IOS_OK) write_all(fds[1], iosim_error(), strlen(iosim_error()));
    close(fds[1]);
    fflush(stdout);
    fflush(stderr);
    _exit(0);
  }
  close(fds[1]);
  char report[4096];
  size_t n = 0;
  for (;;) {
    ssize_t k = read(fds[0], report + n, sizeof report - 1 - n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    n += (size_t)k;
    if (n == sizeof report - 1) break;
  }
  report[n] = '\0';
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  int code;
  char *rest;
  code = (int)strtol(report, &rest, 10);
  if (rest == report || *rest != ' ') {
    if (WIFSIGNALED(status))
      return ios_lib_fail(IOSIM_EINTERNAL,
                          "the process simulating %s was killed by signal %d (%s): partial outputs "
                          "in %s are not results",
                          h->s.file, WTERMSIG(status), strsignal(WTERMSIG(status)), h->s.out_dir);
    return ios_lib_fail(IOSIM_EINTERNAL,
                        "the process simulating %s exited (status %d) without reporting: partial "
                        "outputs in %s are not results",
                        h->s.file, WIFEXITED(status) ? WEXITSTATUS(status) : -1, h->s.out_dir);
  }
  return code == IOSIM_OK ? IOSIM_OK : ios_lib_fail(code, "%s", rest + 1);
}

static int exec(const iosim_scenario_t *scenario, int check, int flags, int nsg, const char *const *sg) {
  if (scenario == NULL) return ios_lib_fail(IOSIM_EINVAL, "the scenario is NULL");
  int rc = check_sg(nsg, sg);
  if (rc != IOSIM_OK) return rc;
  iosim_scenario_t *h = (iosim_scenario_t *)scenario; /* a run may set its generated platform's path */
  return flags & IOSIM_RUN_IN_PROCESS ? exec_in_process(h, check, flags, nsg, sg)
                                      : exec_forked(h, check, flags, nsg, sg);
}

int iosim_scenario_check(const iosim_scenario_t *scenario, int flags, int nsg, const char *const *sg_args) {
  return exec(scenario, 1, flags, nsg, sg_args);
}

int iosim_scenario_run(const iosim_scenario_t *scenario, int flags, int nsg, const char *const *sg_args,
                       iosim_results_t **results_out) {
  int rc = exec(scenario, 0, flags, nsg, sg_args);
  if (rc == IOSIM_OK && results_out != NULL) rc = ios_lib_results_read(scenario->s.out_dir, results_out);
  return rc;
}
