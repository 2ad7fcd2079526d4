/* iosim run|check SCENARIO [options]: simulate a scenario (or validate it) and write its outputs, through the scenario
 * face of libiosim (include/iosim/scenario.h, src/lib/scenario.c). */
#include "iosim/scenario.h"

#include "ios_args.h"
#include "ios_cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char run_usage[] =
    "usage: iosim run SCENARIO [options]     simulate a scenario, write results.json, apps.csv... and a summary\n"
    "       iosim check SCENARIO [options]   validate it (and its platform and workload) without simulating\n"
    "  -o, --out DIR          output directory (run; sets output.dir)\n"
    "      --set key=value    override a scenario field (dotted key; the value read as JSON, else a string)\n"
    "      --trace            also write trace.paje, a Paje trace of the run (= --set output.trace=true)\n"
    "      --skip-bad         leave out the jobs that cannot run on the platform (more compute nodes or I/O\n"
    "                         resources than it has) and the Darshan logs that cannot be read, each listed and\n"
    "                         counted, and run the others (= --set workload.skip_bad=true; docs/scenario.md)\n"
    "      --cfg=name:value   a SimGrid setting (network/model, network/crosstraffic and contexts/stack-size only at\n"
    "                         iosim's values); --cfg=help lists SimGrid's settings\n"
    "      --log=setting      a SimGrid logging setting, e.g. --log=root.thres:critical\n"
    "  -h, --help             this help;  --version  the iosim and SimGrid versions\n"
    "Exit codes: 0 ok, 2 bad input, 1 internal error. See docs/scenario.md and docs/cli.md.\n";

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
                                       {"skip-bad", no_argument, NULL, IOS_OPT_FIRST_FREE + 1},
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
    case IOS_OPT_FIRST_FREE + 1: /* --skip-bad */
      a->sets[a->nsets++] = "workload.skip_bad=true";
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

/* The exit code of a scenario-face result: 0, 2 for bad input, 1 otherwise, after "iosim: error: MESSAGE". */
static int exit_code(int rc) {
  if (rc == IOSIM_OK) return 0;
  fprintf(stderr, "iosim: error: %s\n", iosim_error());
  return rc == IOSIM_EINVAL || rc == IOSIM_EIO ? 2 : 1;
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
  iosim_scenario_t *s = NULL;
  int rc = prc < 0 ? iosim_scenario_load(args.scenario, args.nsets, (const char *const *)args.sets, &s) : IOSIM_OK;
  if (prc < 0 && rc == IOSIM_OK) { /* the scenario face, simulating in this process (the only run of the process) */
    const int flags = IOSIM_RUN_PRINT | IOSIM_RUN_IN_PROCESS;
    const char *const *sg = (const char *const *)args.sg.flags;
    rc = check ? iosim_scenario_check(s, flags, args.sg.n, sg) : iosim_scenario_run(s, flags, args.sg.n, sg, NULL);
    /* the calibration the scenario names: stale or not (docs/validation.md, "iosim calibrate") */
    int crc = check && rc == IOSIM_OK ? ios_cli_calibration_check(iosim_scenario_json(s), (double)time(NULL)) : 0;
    iosim_scenario_free(s);
    if (crc != 0) {
      run_args_free(&args);
      return ios_cli_exit_code(crc);
    }
  }
  run_args_free(&args);
  return prc >= 0 ? prc : exit_code(rc);
}
