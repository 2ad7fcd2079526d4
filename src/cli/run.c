/* iosim run|check SCENARIO [options]: simulate a scenario (or validate it) and write its outputs, through the scenario
 * face of libiosim (include/iosim/scenario.h, src/lib/scenario.c). */
#include "iosim/scenario.h"

#include "ios_args.h"
#include "ios_campdb.h"
#include "ios_cli.h"
#include "ios_clock.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_fs.h"

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
    "      --db FILE          also record the run in the results database FILE (created when absent; SQLite,\n"
    "                         docs/outputs.md): its runs row, results.json, scenario and tables, in one transaction\n"
    "      --run-id ID        the run's id in --db (default: 16 hex digits hashing the scenario; a run with the\n"
    "                         same id is replaced)\n"
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
  const char *db, *run_id; /**< --db FILE, --run-id ID (NULL when not given) */
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
                                       {"db", required_argument, NULL, IOS_OPT_FIRST_FREE + 2},
                                       {"run-id", required_argument, NULL, IOS_OPT_FIRST_FREE + 3},
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
    case IOS_OPT_FIRST_FREE + 2: /* --db FILE */
      a->db = optarg;
      break;
    case IOS_OPT_FIRST_FREE + 3: /* --run-id ID */
      if (optarg[0] == '\0' || strlen(optarg) > 200)
        return ios_args_bad(run_usage, "--run-id '%s': give 1 to 200 characters", optarg);
      a->run_id = optarg;
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
  if (a->run_id != NULL && a->db == NULL) return ios_args_bad(run_usage, "--run-id names a run of --db: add --db FILE");
  if (a->out_set != NULL) a->sets[a->nsets++] = a->out_set;
  return -1;
}

/* Records the run of scenario `s` that wrote its outputs (`rc`: the run's result, IOSIM_OK) into the results
 * database `db` under `run_id` (NULL: a hash of the scenario), with `wall` seconds of wall time. @return 0, or 2
 * after a message. */
static int record_in_db(ios_db_t *db, const iosim_scenario_t *s, const char *run_id, double wall) {
  const char *text = iosim_scenario_json(s), *dir = iosim_scenario_output_dir(s);
  char id[17], path[4200];
  if (run_id == NULL) { /* FNV-1a 64 of the scenario, as campaigns name their points */
    unsigned long long h = 1469598103934665603ULL;
    for (const char *p = text; p != NULL && *p != '\0'; p++)
      h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    snprintf(id, sizeof id, "%016llx", h);
    run_id = id;
  }
  snprintf(path, sizeof path, "%s/results.json", dir);
  char *results = ios_read_file(path, NULL);
  cJSON *res = results != NULL ? cJSON_Parse(results) : NULL;
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(res, "status");
  cJSON *run = cJSON_CreateObject();
  cJSON_AddStringToObject(run, "status", cJSON_IsString(st) ? st->valuestring : "failed");
  cJSON_AddNumberToObject(run, "exit_code", 0);
  cJSON_AddNumberToObject(run, "wall_time_s", wall);
  cJSON_AddStringToObject(run, "error", "");
  int rc = ios_campdb_record_id(db, NULL, NULL, run_id, dir, run, text);
  cJSON_Delete(run);
  cJSON_Delete(res);
  free(results);
  if (rc == IOS_OK) return 0;
  fprintf(stderr, "iosim: error: %s\n", ios_diag_message());
  return 2;
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
  ios_db_t *db = NULL;
  if (prc < 0 && rc == IOSIM_OK && args.db != NULL && !check &&
      ios_campdb_open(args.db, NULL, NULL, NULL, &db) != IOS_OK) { /* before simulating: a bad path costs nothing */
    fprintf(stderr, "iosim: error: %s\n", ios_diag_message());
    iosim_scenario_free(s);
    run_args_free(&args);
    return 2;
  }
  if (prc < 0 && rc == IOSIM_OK) { /* the scenario face, simulating in this process (the only run of the process) */
    const int flags = IOSIM_RUN_PRINT | IOSIM_RUN_IN_PROCESS;
    const char *const *sg = (const char *const *)args.sg.flags;
    double t0 = ios_clock_s();
    rc = check ? iosim_scenario_check(s, flags, args.sg.n, sg) : iosim_scenario_run(s, flags, args.sg.n, sg, NULL);
    if (db != NULL && rc == IOSIM_OK && record_in_db(db, s, args.run_id, ios_clock_s() - t0) != 0) {
      ios_db_close(db);
      iosim_scenario_free(s);
      run_args_free(&args);
      return 2;
    }
    ios_db_close(db);
    db = NULL;
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
