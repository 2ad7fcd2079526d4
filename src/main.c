/* iosim — command-line interface. Exit codes: 0 ok, 2 bad input (message names file, field and fix), 1 internal. */
#include "ios_args.h"
#include "ios_cli.h"
#include "ios_diag.h"
#include "ios_engine.h"
#include "ios_gen.h"
#include "ios_output.h"
#include "ios_storage_run.h"
#include "ios_sweep.h"
#include "ios_platgen.h"
#include "ios_policy.h"
#include "ios_sg.h"
#include "ios_storage.h"
#include "ios_striping.h"
#include "ios_workload.h"

#include <getopt.h>
#include <simgrid/engine.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef IOSIM_PYTHON
#define IOSIM_PYTHON "/usr/bin/python3"
#endif

static const char usage_text[] =
    "usage: iosim                         run deploy/default.json and print the summary\n"
    "       iosim run SCENARIO [-o|--out DIR] [--set key=value]... [--cfg=name:value]... [--log=...]...\n"
    "       iosim check SCENARIO [--set key=value]... [--cfg=name:value]... [--log=...]...   validate only\n"
    "       iosim policies [--family F]   list every policy with its parameters and source\n"
    "       iosim platform KIND [--set param=value]... [-o FILE]   generate a platform XML\n"
    "       iosim generate rr9502|apex [--set param=value]... [--seed N] [--unit B] [-o FILE]   a workload\n"
    "       iosim sweep CAMPAIGN [--jobs N] [-o DIR] [--set key=value]... [--seeds N] [--shard I/N] [--emit-slurm]\n"
    "       iosim merge DIR... [-o DIR]   combine shard outputs into one runs.csv\n"
    "       iosim report DIR [options]    figures and a Markdown report of a campaign (analysis/report.py)\n"
    "       iosim --version | COMMAND --help\n"
    "Every command takes -h/--help and --version; options take --opt=value or --opt value.\n"
    "Exit codes: 0 ok, 2 bad input, 1 internal error. See README.md and docs/cli.md.\n";

static const char run_usage[] =
    "usage: iosim run SCENARIO [options]     simulate a scenario, write results.json, apps.csv... and a summary\n"
    "       iosim check SCENARIO [options]   validate it (and its platform and workload) without simulating\n"
    "  -o, --out DIR          output directory (run; sets output.dir)\n"
    "      --set key=value    override a scenario field (dotted key; the value read as JSON, else a string)\n"
    "      --cfg=name:value   a SimGrid setting (not network/model, network/crosstraffic, contexts/stack-size)\n"
    "      --log=setting      a SimGrid logging setting, e.g. --log=root.thres:critical\n"
    "  -h, --help             this help;  --version  the iosim and SimGrid versions\n"
    "Exit codes: 0 ok, 2 bad input, 1 internal error. See docs/scenario.md and docs/cli.md.\n";

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

static const char policies_usage[] =
    "usage: iosim policies [--family F]   every policy of every family, its parameters (default, unit) and source\n"
    "  -f, --family F   only family F: allocation, placement, sharing, storage or striping\n"
    "  -h, --help       this help;  --version  the iosim and SimGrid versions\n";

static int family_wanted(const char *family, const char *name) {
  return family == NULL || strcmp(family, name) == 0;
}

static int list_policies(int argc, char **argv) {
  static const struct option opts[] = {{"family", required_argument, NULL, 'f'},
                                       {"help", no_argument, NULL, 'h'},
                                       {"version", no_argument, NULL, IOS_OPT_VERSION},
                                       {NULL, 0, NULL, 0}};
  static const char *const families[] = {"allocation", "placement", "sharing", "storage", "striping", NULL};
  const char *family = NULL;
  int c;
  optind = 0;
  while ((c = getopt_long(argc, argv, ":f:h", opts, NULL)) != -1) {
    if (c == 'h') {
      fputs(policies_usage, stdout);
      return 0;
    } else if (c == IOS_OPT_VERSION) {
      ios_cli_print_version(stdout);
      return 0;
    } else if (c == 'f') {
      family = optarg;
    } else {
      return ios_args_error(c, argv, "policies", policies_usage);
    }
  }
  if (optind < argc) return ios_args_bad(policies_usage, "iosim policies: unexpected argument '%s'", argv[optind]);
  int known = family == NULL;
  for (int i = 0; families[i] != NULL; i++)
    known |= family != NULL && strcmp(family, families[i]) == 0;
  if (!known)
    return ios_args_bad(policies_usage,
                        "--family '%s': unknown family; the families are allocation, placement, sharing, storage "
                        "and striping",
                        family);
  if (family_wanted(family, "allocation"))
    PRINT_FAMILY("allocation (how many resources per application):", ios_allocation_policies);
  if (family_wanted(family, "placement")) PRINT_FAMILY("placement (which resources):", ios_placement_policies);
  if (family_wanted(family, "sharing"))
    PRINT_FAMILY("sharing (rate of each pending transfer, per resource):", ios_sharing_policies);
  if (family_wanted(family, "storage")) {
    PRINT_FAMILY("storage (StorAlloc: which burst-buffer disk holds a storage request; scenario \"storage.policy\"):",
                 ios_storage_policies);
    printf("  options of every storage policy (StorAlloc Table 2, scenario \"storage\" object):\n"
           "      split = true: a request larger than the threshold is cut into equal parts, placed one by one; "
           "default on, {\"threshold\": \"200GB\"}\n"
           "      requeue = false: a refused request is tried again later, then falls back to the PFS; default off, "
           "{\"retries\": 5, \"interval\": \"5min\"}\n"
           "      source: StorAlloc (Monniot et al., CCGrid'22), §4.2 and Table 2; docs/storalloc.md\n");
  }
  if (family_wanted(family, "striping"))
    PRINT_FAMILY("striping (Lustre: the OSTs of each I/O operation's files; scenario \"striping.policy\"):",
                 ios_striping_policies);
  return 0;
}

/* iosim's own files (deploy/, platforms/, analysis/), found relative to the executable so that a moved build or an
 * installed iosim uses its own: $IOSIM_HOME when set, else the directory above the executable's (the source tree of
 * build/iosim), else PREFIX/share/iosim (an installed PREFIX/bin/iosim). The first that holds deploy/default.json
 * wins; NULL when none does. */
static const char *iosim_home(void) {
  static char home[4096];
  struct stat st;
  char probe[4200];
  const char *env = getenv("IOSIM_HOME");
  if (env != NULL && env[0] != '\0') {
    snprintf(home, sizeof home, "%s", env);
    return home;
  }
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return NULL;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (slash == NULL) return NULL;
  *slash = '\0'; /* the executable's directory */
  const char *const up[] = {"%s/..", "%s/../share/iosim"};
  for (int i = 0; i < 2; i++) {
    snprintf(home, sizeof home, up[i], exe);
    snprintf(probe, sizeof probe, "%s/deploy/default.json", home);
    if (stat(probe, &st) == 0) return home;
  }
  return NULL;
}

/* The Python interpreter of `iosim report`: $IOSIM_PYTHON, else the one configured at build time when it exists,
 * else python3 from PATH. */
static const char *python(void) {
  const char *env = getenv("IOSIM_PYTHON");
  if (env != NULL && env[0] != '\0') return env;
  return access(IOSIM_PYTHON, X_OK) == 0 ? IOSIM_PYTHON : "python3";
}

static const char report_usage[] =
    "usage: iosim report DIR [--x COL] [--policy COL] [--metrics M,...] [--baseline V] [--gantt RUN_ID] "
    "[--by-position COLS]\n"
    "  figures and DIR/report/report.md for a campaign directory (analysis/report.py, python3 with pandas and\n"
    "  matplotlib); its options are those of analysis/report.py (iosim report DIR --help lists them)\n"
    "  -h, --help   this help;  --version  the iosim and SimGrid versions\n";

/* `iosim report DIR [options]`: the campaign report is written in Python (pandas, matplotlib). */
static int run_report(int argc, char **argv) {
  char script[4300];
  const char *home = iosim_home();
  snprintf(script, sizeof script, "%s/analysis/report.py", home != NULL ? home : ".");
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--version") == 0) {
      ios_cli_print_version(stdout);
      return 0;
    }
    if ((strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) && argc == 2) {
      fputs(report_usage, stdout);
      return 0;
    }
  }
  fflush(stdout);
  char **args = calloc((size_t)argc + 3, sizeof *args);
  if (args == NULL) return 1;
  const char *py = python();
  args[0] = (char *)py;
  args[1] = script;
  for (int i = 1; i < argc; i++)
    args[i + 1] = argv[i];
  execvp(py, args);
  fprintf(stderr,
          "iosim: error: cannot run %s %s (%s): install python3-pandas and python3-matplotlib (make deps), or set "
          "IOSIM_PYTHON to an interpreter that has them\n",
          py, script, strerror(errno));
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

/* Options of `iosim run` and `iosim check`. */
typedef struct {
  const char *scenario;
  int nsets;
  char **sets; /**< [nsets] (the --out one owned, the others borrowed from argv) */
  char *out_set;
  ios_sg_flags_t sg;
} run_args_t;

static void run_args_free(run_args_t *a) {
  free(a->sets);
  free(a->out_set);
  ios_sg_flags_free(&a->sg);
}

/* Parses `iosim run|check [SCENARIO] [options]` (argv[0] is the command). @return -1 to go on, else the exit code. */
static int parse_run(int argc, char **argv, const char *cmd, run_args_t *a) {
  static const struct option opts[] = {{"out", required_argument, NULL, 'o'},
                                       {"set", required_argument, NULL, IOS_OPT_SET},
                                       {"cfg", required_argument, NULL, IOS_OPT_CFG},
                                       {"log", required_argument, NULL, IOS_OPT_LOG},
                                       {"help", no_argument, NULL, 'h'},
                                       {"version", no_argument, NULL, IOS_OPT_VERSION},
                                       {NULL, 0, NULL, 0}};
  a->sets = calloc((size_t)argc + 1, sizeof *a->sets);
  if (a->sets == NULL) return 1;
  int c, rc;
  optind = 0;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case 'h':
      fputs(run_usage, stdout);
      return 0;
    case IOS_OPT_VERSION:
      ios_cli_print_version(stdout);
      return 0;
    case IOS_OPT_SET:
      a->sets[a->nsets++] = optarg;
      break;
    case 'o': {
      size_t n = strlen(optarg) + 16;
      free(a->out_set);
      a->out_set = malloc(n);
      if (a->out_set == NULL) return 1;
      snprintf(a->out_set, n, "output.dir=%s", optarg);
      break;
    }
    case IOS_OPT_CFG:
    case IOS_OPT_LOG:
      if ((rc = ios_sg_flags_add(&a->sg, c == IOS_OPT_LOG, optarg)) != 0) return rc;
      break;
    default:
      return ios_args_error(c, argv, cmd, run_usage);
    }
  }
  if (optind < argc) a->scenario = argv[optind++];
  if (optind < argc) return ios_args_bad(run_usage, "iosim %s: unexpected argument '%s'", cmd, argv[optind]);
  if (a->scenario == NULL) return ios_args_bad(run_usage, "iosim %s needs a scenario file", cmd);
  if (a->out_set != NULL) a->sets[a->nsets++] = a->out_set;
  return -1;
}

int main(int argc, char **argv) {
  const char *cmd = argc > 1 ? argv[1] : "run";
  if (strcmp(cmd, "policies") == 0) return list_policies(argc - 1, argv + 1);
  if (strcmp(cmd, "sweep") == 0) return ios_sweep_main(argc - 1, argv + 1);
  if (strcmp(cmd, "merge") == 0) return ios_merge_main(argc - 1, argv + 1);
  if (strcmp(cmd, "report") == 0) return run_report(argc - 1, argv + 1);
  if (strcmp(cmd, "platform") == 0) return ios_platgen_main(argc - 1, argv + 1);
  if (strcmp(cmd, "generate") == 0) return ios_gen_main(argc - 1, argv + 1);
  if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
    ios_cli_print_version(stdout);
    return 0;
  }
  if (strcmp(cmd, "run") != 0 && strcmp(cmd, "check") != 0) {
    fprintf(stderr, "iosim: error: unknown command '%s'\n", cmd);
    fputs(usage_text, stderr);
    return 2;
  }
  int check = strcmp(cmd, "check") == 0;
  run_args_t args;
  memset(&args, 0, sizeof args);
  static char default_argv0[] = "run", default_scenario[4300];
  if (argc == 1) { /* the embedded default, from iosim's own files */
    const char *home = iosim_home();
    if (home == NULL) {
      fprintf(stderr, "iosim: error: cannot find iosim's files (deploy/default.json next to the executable's "
                      "directory, or in PREFIX/share/iosim): set IOSIM_HOME to the folder that holds deploy/\n");
      return 2;
    }
    snprintf(default_scenario, sizeof default_scenario, "%s/deploy/default.json", home);
  }
  char *default_argv[] = {default_argv0, default_scenario, NULL};
  int prc = argc == 1 ? parse_run(2, default_argv, cmd, &args) : parse_run(argc - 1, argv + 1, cmd, &args);
  if (prc >= 0) {
    run_args_free(&args);
    return prc;
  }
  ios_scenario_t s;
  int rc = ios_scenario_load(args.scenario, args.nsets, args.sets, &s);
  free(args.sets); /* the scenario holds copies; the SimGrid flags are still needed */
  args.sets = NULL;
  if (rc != IOS_OK) {
    run_args_free(&args);
    return exit_code(rc);
  }
  /* iosim's own logging defaults, then the user's --log flags (later ones win); its --cfg settings go through
   * ios_sg_set_config once the engine exists, so a setting SimGrid refuses is a clean exit 2 */
  char *sg_argv[8 + 64];
  int sg_argc = 0;
  sg_argv[sg_argc++] = "iosim";
  sg_argv[sg_argc++] = "--log=xbt_cfg.thres:warning";
  sg_argv[sg_argc++] = "--log=root.fmt:[%10.6r]%e[%c/%p]%e%m%n";
#ifdef IOSIM_SANITIZE
  /* LeakSanitizer's scan faults on SimGrid's stack guard pages of actors still alive at exit (stop_at_end) */
  sg_argv[sg_argc++] = "--cfg=contexts/guard-size:0";
#endif
  for (int i = 0; i < args.sg.n && sg_argc < 8 + 63; i++)
    if (strncmp(args.sg.flags[i], "--log=", 6) == 0) sg_argv[sg_argc++] = args.sg.flags[i];
  sg_argv[sg_argc] = NULL;
  simgrid_init(&sg_argc, sg_argv);
  for (int i = 0; i < args.sg.n; i++)
    if (strncmp(args.sg.flags[i], "--cfg=", 6) == 0 && ios_sg_set_config(args.sg.flags[i] + 6) != 0) {
      fprintf(stderr,
              "iosim: error: %s: SimGrid refused this setting (an unknown name or a bad value): see SimGrid's "
              "configuration documentation (docs/cli.md)\n",
              args.sg.flags[i]);
      run_args_free(&args);
      ios_scenario_free(&s);
      return 2;
    }
  char tmp_platform[4200] = "";
  if ((check && (rc = ios_output_check(&s)) != IOS_OK) ||
      (!check && (rc = ios_output_prepare(&s)) != IOS_OK) || /* no earlier output survives beside the new ones */
      (rc = materialize_platform(&s, check, tmp_platform, sizeof tmp_platform)) != IOS_OK) {
    ios_scenario_free(&s);
    run_args_free(&args);
    return exit_code(rc);
  }

  if (s.storage != NULL && cJSON_GetObjectItemCaseSensitive(s.storage, "platform") != NULL) {
    /* a storage-allocation scenario on a JSON storage platform: scheduling only, no SimGrid simulation */
    rc = ios_storage_scenario(&s, check);
    if (!check) ios_output_print_cleaned(rc == IOS_OK ? stdout : stderr, &s);
    ios_scenario_free(&s);
    run_args_free(&args);
    return exit_code(rc);
  }

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
  run_args_free(&args);
  return exit_code(rc);
}
