/* iosim — command-line interface. Exit codes: 0 ok, 2 bad input (message names file, field and fix), 1 internal. */
#include "ios_diag.h"
#include "ios_engine.h"
#include "ios_gen.h"
#include "ios_output.h"
#include "ios_storage_run.h"
#include "ios_sweep.h"
#include "ios_platgen.h"
#include "ios_workload.h"

#include <simgrid/engine.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#ifndef IOSIM_SOURCE_DIR
#define IOSIM_SOURCE_DIR "."
#endif
#ifndef IOSIM_PYTHON
#define IOSIM_PYTHON "/usr/bin/python3"
#endif

static void usage(FILE *f) {
  fprintf(f, "usage: iosim                         run deploy/default.json and print the summary\n"
             "       iosim run SCENARIO [--out DIR] [--set key=value]...\n"
             "       iosim check SCENARIO [--set key=value]...   validate only\n"
             "       iosim policies                list every policy with its source\n"
             "       iosim platform KIND [--set param=value]... [-o FILE]   generate a platform XML\n"
             "       iosim generate rr9502|apex [--set param=value]... [--seed N] [--unit B] [-o FILE]   a workload\n"
             "       iosim sweep CAMPAIGN [--jobs N] [--out DIR] [--shard I/N] [--emit-slurm]   run a campaign\n"
             "       iosim merge DIR... [--out DIR]   combine shard outputs into one runs.csv\n"
             "       iosim report DIR              figures and a Markdown report of a campaign (analysis/report.py)\n"
             "Exit codes: 0 ok, 2 bad input, 1 internal error. See README.md and docs/.\n");
}

static int exit_code(int rc) {
  if (rc == IOS_OK) return 0;
  fprintf(stderr, "iosim: error: %s\n", ios_diag_message()[0] ? ios_diag_message() : ios_strerror(rc));
  return rc == IOS_EINVAL || rc == IOS_EIO ? 2 : 1;
}

/* One policy of any family: name, description, source, alias and parameters with their defaults. */
static void print_policy(const char *name, const char *alias, const char *description, const char *source, int nparams,
                         const ios_param_spec_t *params) {
  printf("  %-24s %s\n      source: %s%s%s\n", name, description, source, alias ? "; alias: " : "", alias ? alias : "");
  for (int i = 0; i < nparams; i++)
    printf("      %s = %g %s: %s\n", params[i].name, params[i].def, params[i].unit, params[i].description);
}

#define PRINT_FAMILY(title, table)                                                                                     \
  do {                                                                                                                 \
    printf("%s\n", title);                                                                                             \
    for (int i_ = 0; (table)[i_] != NULL; i_++)                                                                        \
      print_policy((table)[i_]->name, (table)[i_]->alias, (table)[i_]->description, (table)[i_]->source,               \
                   (table)[i_]->nparams, (table)[i_]->params);                                                         \
  } while (0)

static int list_policies(void) {
  PRINT_FAMILY("allocation (how many resources per application):", ios_allocation_policies);
  PRINT_FAMILY("placement (which resources):", ios_placement_policies);
  PRINT_FAMILY("sharing (rate of each pending transfer, per resource):", ios_sharing_policies);
  return 0;
}

/* `iosim report DIR [options]`: the campaign report is written in Python (pandas, matplotlib). */
static int run_report(int argc, char **argv) {
  static const char script[] = IOSIM_SOURCE_DIR "/analysis/report.py";
  char **args = calloc((size_t)argc + 3, sizeof *args);
  if (args == NULL) return 1;
  args[0] = IOSIM_PYTHON;
  args[1] = (char *)script;
  for (int i = 1; i < argc; i++)
    args[i + 1] = argv[i];
  execv(IOSIM_PYTHON, args);
  fprintf(stderr, "iosim: error: cannot run %s %s (%s): install python3-pandas and python3-matplotlib (make deps)\n",
          IOSIM_PYTHON, script, strerror(errno));
  free(args);
  return 1;
}

/* The temporary platform of a check (a private directory and the XML in it), removed on every exit path: unlinked as
 * soon as it is written (SimGrid then reads it through /proc/self/fd), and by a signal handler while it is written. */
static char tmp_dir[4096], tmp_xml[4200], tmp_xml_tmp[4300];

static void tmp_platform_remove(void) {
  if (tmp_xml[0] != '\0') unlink(tmp_xml);
  if (tmp_xml_tmp[0] != '\0') unlink(tmp_xml_tmp);
  if (tmp_dir[0] != '\0') rmdir(tmp_dir);
  tmp_xml[0] = tmp_xml_tmp[0] = tmp_dir[0] = '\0';
}

static void on_fatal(int sig) { /* async-signal-safe: unlink, rmdir, signal, raise */
  if (tmp_xml[0] != '\0') unlink(tmp_xml);
  if (tmp_xml_tmp[0] != '\0') unlink(tmp_xml_tmp);
  if (tmp_dir[0] != '\0') rmdir(tmp_dir);
  signal(sig, SIG_DFL);
  raise(sig);
}

/* A scenario with a platform family gets its XML generated: beside the results for a run (so it can be replayed),
 * for a check in a temporary file that is gone before SimGrid reads it (`fd_path` then names the open file). */
static int materialize_platform(ios_scenario_t *s, int check, char *fd_path, size_t n) {
  fd_path[0] = '\0';
  if (s->platform_spec == NULL) return IOS_OK;
  if (check) {
    snprintf(tmp_dir, sizeof tmp_dir, "%s/iosim-check-XXXXXX", getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(tmp_dir) == NULL) {
      ios_diag_set(tmp_dir, NULL, "cannot create a temporary directory (%s): set TMPDIR to a writable directory",
                   strerror(errno));
      tmp_dir[0] = '\0';
      return IOS_EIO;
    }
    snprintf(tmp_xml, sizeof tmp_xml, "%s/platform.xml", tmp_dir);
    snprintf(tmp_xml_tmp, sizeof tmp_xml_tmp, "%s.tmp%ld-0", tmp_xml, (long)getpid()); /* ios_cli_write's */
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGXFSZ};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
      signal(sigs[i], on_fatal);
    int rc = ios_scenario_materialize_platform(s, tmp_xml);
    int fd = rc == IOS_OK ? open(tmp_xml, O_RDONLY) : -1;
    if (rc == IOS_OK && fd < 0) {
      ios_diag_set(tmp_xml, NULL, "cannot read the generated platform back (%s)", strerror(errno));
      rc = IOS_EIO;
    }
    tmp_platform_remove();
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
      signal(sigs[i], SIG_DFL);
    if (rc != IOS_OK) return rc;
    snprintf(fd_path, n, "/proc/self/fd/%d", fd); /* closed at exit */
    s->platform = fd_path;
    return IOS_OK;
  }
  char path[4200];
  snprintf(path, sizeof path, "%s/platform.xml", s->out_dir);
  return ios_scenario_materialize_platform(s, path);
}

int main(int argc, char **argv) {
  const char *cmd = argc > 1 ? argv[1] : "run";
  if (strcmp(cmd, "policies") == 0) return list_policies();
  if (strcmp(cmd, "sweep") == 0) return ios_sweep_main(argc - 1, argv + 1);
  if (strcmp(cmd, "merge") == 0) return ios_merge_main(argc - 1, argv + 1);
  if (strcmp(cmd, "report") == 0) return run_report(argc - 1, argv + 1);
  if (strcmp(cmd, "platform") == 0) return ios_platgen_main(argc - 1, argv + 1);
  if (strcmp(cmd, "generate") == 0) return ios_gen_main(argc - 1, argv + 1);
  if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("iosim %s\n", IOSIM_VERSION);
    return 0;
  }
  if (strcmp(cmd, "run") != 0 && strcmp(cmd, "check") != 0) {
    fprintf(stderr, "iosim: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
  }
  int check = strcmp(cmd, "check") == 0;
  const char *scenario = argc > 2 ? argv[2] : (argc == 1 ? IOSIM_SOURCE_DIR "/deploy/default.json" : NULL);
  if (scenario == NULL || scenario[0] == '-') {
    fprintf(stderr, "iosim: %s needs a scenario file\n", cmd);
    usage(stderr);
    return 2;
  }
  char **sets = calloc((size_t)argc + 1, sizeof *sets);
  char *out_set = NULL;
  int nsets = 0;
  for (int i = 3; i < argc; i++) {
    if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
      sets[nsets++] = argv[++i];
    } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      size_t n = strlen(argv[++i]) + 16;
      free(out_set);
      out_set = malloc(n);
      snprintf(out_set, n, "output.dir=%s", argv[i]);
    } else {
      fprintf(stderr, "iosim: unexpected argument '%s'\n", argv[i]);
      usage(stderr);
      free(sets);
      free(out_set);
      return 2;
    }
  }
  if (out_set != NULL) sets[nsets++] = out_set;

  ios_scenario_t s;
  int rc = ios_scenario_load(scenario, nsets, sets, &s);
  free(sets);
  free(out_set);
  if (rc != IOS_OK) return exit_code(rc);
  char tmp_platform[4200] = "";
  if ((check && (rc = ios_output_check(&s)) != IOS_OK) ||
      (!check && (rc = ios_output_prepare(&s)) != IOS_OK) || /* no earlier output survives beside the new ones */
      (rc = materialize_platform(&s, check, tmp_platform, sizeof tmp_platform)) != IOS_OK) {
    ios_scenario_free(&s);
    return exit_code(rc);
  }

  if (s.storage != NULL && cJSON_GetObjectItemCaseSensitive(s.storage, "platform") != NULL) {
    /* a storage-allocation scenario on a JSON storage platform: scheduling only, no SimGrid simulation */
    rc = ios_storage_scenario(&s, check);
    if (!check) ios_output_print_cleaned(rc == IOS_OK ? stdout : stderr, &s);
    ios_scenario_free(&s);
    return exit_code(rc);
  }

#ifdef IOSIM_SANITIZE
  /* LeakSanitizer's scan faults on SimGrid's stack guard pages of actors still alive at exit (stop_at_end) */
  int sg_argc = 4;
  char *sg_argv[] = {"iosim", "--log=xbt_cfg.thres:warning", "--log=root.fmt:[%10.6r]%e[%c/%p]%e%m%n",
                     "--cfg=contexts/guard-size:0", NULL};
#else
  int sg_argc = 3;
  char *sg_argv[] = {"iosim", "--log=xbt_cfg.thres:warning", "--log=root.fmt:[%10.6r]%e[%c/%p]%e%m%n", NULL};
#endif
  simgrid_init(&sg_argc, sg_argv);
  ios_platform_t p;
  ios_workload_t w = {0, NULL};
  ios_results_t r;
  memset(&r, 0, sizeof r);
  rc = ios_platform_load(s.platform, &p);
  if (rc == IOS_OK && s.storage != NULL) { /* storage requests whose I/O is simulated on the platform's disks */
    rc = ios_storage_simulate(&s, &p, check);
    ios_platform_free(&p);
  } else if (rc == IOS_OK) {
    rc = ios_workload_build(&s, &p, &w);
    if (rc == IOS_OK && check) {
      printf("%s: ok — %d applications, platform %s with %d compute nodes and %d %s resources; policies %s / %s / "
             "%s\n",
             s.file, w.napps, s.platform_spec != NULL ? "(generated from the scenario)" : s.platform, p.ncompute,
             p.nres, p.pool_role, s.allocation->name, s.placement->name, s.sharing->name);
    } else if (rc == IOS_OK) {
      rc = ios_engine_run(&s, &p, &w, &r);
      if (rc == IOS_OK) rc = ios_output_write(&s, &p, &w, &r);
      if (rc == IOS_OK) ios_output_summary(&s, &p, &w, &r);
      ios_results_free(&r);
    }
    ios_workload_free(&w);
    ios_platform_free(&p);
  }
  if (!check) ios_output_print_cleaned(rc == IOS_OK ? stdout : stderr, &s);
  ios_scenario_free(&s);
  return exit_code(rc);
}
