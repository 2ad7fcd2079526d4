/* iosim run|check SCENARIO [options]: simulate a scenario (or validate it) and write its outputs. */
#include "ios_args.h"
#include "ios_cli.h"
#include "ios_fs.h"
#include "ios_diag.h"
#include "ios_engine.h"
#include "ios_output.h"
#include "ios_sg_platform.h"
#include "ios_storalloc_run.h"
#include "ios_workload.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <simgrid/engine.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char run_usage[] =
    "usage: iosim run SCENARIO [options]     simulate a scenario, write results.json, apps.csv... and a summary\n"
    "       iosim check SCENARIO [options]   validate it (and its platform and workload) without simulating\n"
    "  -o, --out DIR          output directory (run; sets output.dir)\n"
    "      --set key=value    override a scenario field (dotted key; the value read as JSON, else a string)\n"
    "      --trace            also write trace.paje, a Paje trace of the run (= --set output.trace=true)\n"
    "      --cfg=name:value   a SimGrid setting (network/model, network/crosstraffic and contexts/stack-size only at\n"
    "                         iosim's values); --cfg=help lists SimGrid's settings\n"
    "      --log=setting      a SimGrid logging setting, e.g. --log=root.thres:critical\n"
    "  -h, --help             this help;  --version  the iosim and SimGrid versions\n"
    "Exit codes: 0 ok, 2 bad input, 1 internal error. See docs/scenario.md and docs/cli.md.\n";

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
    snprintf(tmp_xml_tmp, sizeof tmp_xml_tmp, "%s.tmp%ld-0", tmp_xml, (long)getpid()); /* ios_fs_write_atomic's */
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
                                       {"trace", no_argument, NULL, IOS_OPT_FIRST_FREE},
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
    if ((rc = ios_cli_help_version(c, run_usage)) >= 0) return rc;
    switch (c) {
    case IOS_OPT_SET:
      a->sets[a->nsets++] = optarg;
      break;
    case IOS_OPT_FIRST_FREE: /* --trace */
      a->sets[a->nsets++] = "output.trace=true";
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
  if (ios_sg_flags_help(&a->sg)) return ios_cli_cfg_help(&a->sg); /* SimGrid's settings: no scenario needed */
  if (optind < argc) a->scenario = argv[optind++];
  if (optind < argc) return ios_args_bad(run_usage, "iosim %s: unexpected argument '%s'", cmd, argv[optind]);
  if (a->scenario == NULL) return ios_args_bad(run_usage, "iosim %s needs a scenario file", cmd);
  if (a->out_set != NULL) a->sets[a->nsets++] = a->out_set;
  return -1;
}

/* SimGrid starts with iosim's logging defaults, then the user's --log flags (later ones win); the --cfg settings go
 * through ios_sg_set_config once the engine exists, so a setting SimGrid refuses is a clean exit 2. @return -1 to go
 * on, else the exit code. */
static int start_simgrid(const ios_sg_flags_t *sg) {
  char *sg_argv[8 + 64];
  int sg_argc = 0;
  sg_argv[sg_argc++] = "iosim";
  sg_argv[sg_argc++] = "--log=xbt_cfg.thres:warning";
  sg_argv[sg_argc++] = "--log=root.fmt:[%10.6r]%e[%c/%p]%e%m%n";
#ifdef IOSIM_SANITIZE
  /* LeakSanitizer's scan faults on SimGrid's stack guard pages of actors still alive at exit (stop_at_end) */
  sg_argv[sg_argc++] = "--cfg=contexts/guard-size:0";
#endif
  for (int i = 0; i < sg->n && sg_argc < 8 + 63; i++)
    if (strncmp(sg->flags[i], "--log=", 6) == 0) sg_argv[sg_argc++] = sg->flags[i];
  sg_argv[sg_argc] = NULL;
  simgrid_init(&sg_argc, sg_argv);
  for (int i = 0; i < sg->n; i++)
    if (strncmp(sg->flags[i], "--cfg=", 6) == 0 && ios_sg_set_config(sg->flags[i] + 6) != 0) {
      fprintf(stderr,
              "iosim: error: %s: SimGrid refused this setting (an unknown name or a bad value): see SimGrid's "
              "configuration documentation (docs/cli.md)\n",
              sg->flags[i]);
      return 2;
    }
  return -1;
}

/* The platform, the workload and the engine of a loaded scenario (or, for a check, everything but the engine). */
static int simulate(ios_scenario_t *s, int check) {
  ios_platform_t p;
  ios_workload_t w = {0};
  ios_results_t r;
  memset(&r, 0, sizeof r);
  int rc = ios_platform_load(s->platform, s->platform_roles, &p);
  if (rc != IOS_OK) return rc;
  if (s->storage != NULL) { /* storage requests whose I/O is simulated on the platform's disks */
    rc = ios_storage_simulate(s, &p, check);
    ios_platform_free(&p);
    return rc;
  }
  rc = ios_workload_build(s, &p, &w);
  if (rc == IOS_OK && check) {
    char shown[4200];
    printf("%s: ok — %d applications, platform %s with %d compute nodes and %d %s resources; policies %s / %s / %s\n",
           s->file, w.napps,
           s->platform_spec != NULL ? "(generated from the scenario)"
                                    : ios_fs_display_path(s->platform, shown, sizeof shown),
           p.ncompute, p.nres, p.pool_role, s->allocation->name, s->placement->name, s->sharing->name);
  } else if (rc == IOS_OK) {
    ios_sim_config_t cfg;
    ios_sim_config_from_scenario(s, &cfg);
    rc = ios_engine_run(&cfg, &p, &w, &r);
    if (rc == IOS_OK) rc = ios_output_write(s, &p, &w, &r);
    if (rc == IOS_OK) ios_output_summary(s, &p, &w, &r);
    ios_results_free(&r);
  }
  ios_workload_free(&w);
  ios_platform_free(&p);
  return rc;
}

/* A loaded scenario: outputs prepared (run) or checked (check), its platform generated if it is a family, then
 * scheduled (a storage scenario on a JSON storage platform: no SimGrid simulation) or simulated. */
static int run_loaded(ios_scenario_t *s, int check) {
  char tmp_platform[4200] = "";
  int rc;
  if ((check && (rc = ios_output_check(s)) != IOS_OK) ||
      (!check && (rc = ios_output_prepare(s)) != IOS_OK) || /* no earlier output survives beside the new ones */
      (rc = materialize_platform(s, check, tmp_platform, sizeof tmp_platform)) != IOS_OK)
    return rc;
  if (s->storage != NULL && cJSON_GetObjectItemCaseSensitive(s->storage, "platform") != NULL)
    rc = ios_storage_scenario(s, check);
  else
    rc = simulate(s, check);
  if (!check) ios_output_print_cleaned(rc == IOS_OK ? stdout : stderr, s);
  return rc;
}

int ios_cli_run(int argc, char **argv, int check) {
  const char *cmd = check ? "check" : "run";
  run_args_t args;
  memset(&args, 0, sizeof args);
  static char default_argv0[] = "run", default_scenario[4300];
  if (argc == 0) { /* `iosim` alone (main passes no argv): the embedded default, from iosim's own files */
    const char *home = ios_cli_home();
    if (home == NULL) {
      fprintf(stderr, "iosim: error: cannot find iosim's files (deploy/default.json next to the executable's "
                      "directory, or in PREFIX/share/iosim): set IOSIM_HOME to the folder that holds deploy/\n");
      return 2;
    }
    snprintf(default_scenario, sizeof default_scenario, "%s/deploy/default.json", home);
  }
  char *default_argv[] = {default_argv0, default_scenario, NULL};
  int prc = argc == 0 ? parse_run(2, default_argv, cmd, &args) : parse_run(argc, argv, cmd, &args);
  ios_scenario_t s;
  int rc = prc < 0 ? ios_scenario_load(args.scenario, args.nsets, args.sets, &s) : IOS_OK;
  if (prc < 0 && rc == IOS_OK) {
    prc = start_simgrid(&args.sg);
    if (prc < 0) rc = run_loaded(&s, check);
    ios_scenario_free(&s);
  }
  run_args_free(&args);
  return prc >= 0 ? prc : ios_cli_exit_code(rc);
}
