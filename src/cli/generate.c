/* iosim generate KIND [--set param=value]... [--seed N] [--unit B] [-o FILE]: one generated workload written as an
 * iosim JSON workload or in the RR-9502 reference simulator's sample format (see ios_gen.h); and
 * iosim generate darshan LOG|DIR... [--set option=value]... [-o FILE.json]: the workload of Darshan logs
 * (ios_darshan.h, docs/darshan.md) as an editable JSON workload. */
#include "ios_args.h"
#include "ios_cli.h"
#include "ios_darshan.h"
#include "ios_diag.h"
#include "ios_fs.h"
#include "ios_errors.h"
#include "ios_gen.h"
#include "ios_units.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_seed(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = s[0] >= '0' && s[0] <= '9' ? strtoull(s, &end, 10) : 0;
  if (!(s[0] >= '0' && s[0] <= '9') || *end != '\0' || errno != 0) {
    ios_diag_set("command line", "--seed", "is \"%s\": give a non-negative integer such as 7", s);
    return IOS_EINVAL;
  }
  *out = (uint64_t)v;
  return IOS_OK;
}

/* The kinds `iosim generate` offers: those with a command-line builder. */
static const ios_gen_kind_t *find_kind(const char *name) {
  const ios_gen_kind_t *k = ios_gen_find(name);
  return k != NULL && k->build != NULL ? k : NULL;
}

enum { OPT_SEED = IOS_OPT_FIRST_FREE, OPT_UNIT, OPT_SKIP_BAD };

/* ---------------------------------------------------------------- iosim generate darshan */

static const char darshan_help[] =
    "iosim generate darshan LOG|DIR... [--set option=value]... [--skip-bad] [-o FILE.json]\n"
    "  The workload of Darshan logs (a log, a directory of *.darshan logs, several), one application per log, as an\n"
    "  iosim JSON workload (standard output without -o); per log, what it measured goes to standard error.\n"
    "  The same as a scenario's \"workload\": {\"darshan\": ...} (docs/darshan.md). Options:\n"
    "      ranks_per_node   32      (count)  the job's nodes = ceil(nprocs / ranks_per_node) unless the DXT trace "
    "says\n"
    "      merge_gap        0.01    (ratio)  DXT bursts closer than merge_gap x runtime are one phase\n"
    "      phases           auto    (string) auto (DXT when the log has a trace, else the counters) or counters\n"
    "      osts             auto    (string) auto = count here (no platform): io_resources = the job's OSTs; "
    "none\n"
    "      replay           as-recorded (string) as-recorded (release = start - the earliest) or concurrent (all at "
    "0)\n"
    "      compress_gaps    false   (s)      as-recorded: idle gaps between the jobs longer than this are shortened\n"
    "      skip_bad         false   (bool)   skip the logs that cannot be read (each listed), replay the rest\n"
    "  --skip-bad is --set skip_bad=true. Without it, any log refused fails the command (exit 2) once all are listed.\n"
    "  example: iosim generate darshan ../shared/datasets/darshan-logs -o darshan.json\n";

/* The JSON workload: name, nodes, release, io_resources, phases {"work": s}, {"read": B}, {"write": B}. */
static int write_darshan_json(FILE *f, void *ctx) {
  const ios_workload_t *w = ctx;
  char r[40], v[40];
  if (fputs("[\n", f) == EOF) return IOS_EIO;
  for (int j = 0; j < w->napps; j++) {
    const ios_app_t *a = &w->apps[j];
    ios_fmt_double(r, sizeof r, a->release);
    if (fprintf(f, "  {\"name\": \"%s\", \"nodes\": %d, \"release\": %s, ", a->name, a->nodes, r) < 0) return IOS_EIO;
    if (a->requested_n >= 0 && fprintf(f, "\"io_resources\": %d, ", a->requested_n) < 0) return IOS_EIO;
    if (fputs("\"phases\": [", f) == EOF) return IOS_EIO;
    for (int i = 0; i < a->nphases; i++) {
      static const char *const kind[] = {"work", "write", "read"};
      ios_fmt_double(v, sizeof v, a->phases[i].value);
      if (fprintf(f, "%s{\"%s\": %s}", i ? ", " : "", kind[a->phases[i].is_io], v) < 0) return IOS_EIO;
    }
    if (fputs(j + 1 < w->napps ? "]},\n" : "]}\n", f) == EOF) return IOS_EIO;
  }
  return fputs("]\n", f) == EOF ? IOS_EIO : IOS_OK;
}

static int generate_darshan(int argc, char **argv) {
  static const struct option opts[] = {{"out", required_argument, NULL, 'o'},
                                       {"set", required_argument, NULL, IOS_OPT_SET},
                                       {"skip-bad", no_argument, NULL, OPT_SKIP_BAD},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
  cJSON *spec = cJSON_CreateObject(), *logs = cJSON_AddArrayToObject(spec, "logs");
  int rc = spec != NULL && logs != NULL ? IOS_OK : IOS_ENOMEM;
  const char *path = NULL;
  optind = 2;
  while (rc == IOS_OK && optind < argc) {
    int opt = getopt_long(argc, argv, "+:o:h", opts, NULL);
    if (opt == -1) { /* a log or a directory */
      cJSON *item = cJSON_CreateString(argv[optind++]);
      rc = item != NULL && cJSON_AddItemToArray(logs, item) ? IOS_OK : IOS_ENOMEM;
    } else if (opt == IOS_OPT_SET) {
      rc = ios_args_add_set(spec, optarg, "iosim generate darshan", "ranks_per_node=24");
    } else if (opt == OPT_SKIP_BAD) {
      rc = ios_args_add_set(spec, "skip_bad=true", "iosim generate darshan", "ranks_per_node=24");
    } else if (opt == 'o') {
      path = optarg;
    } else {
      ios_diag_set("command line", argv[optind - 1], "%s: write %s",
                   opt == ':' ? "needs a value" : "unexpected argument",
                   "iosim generate darshan LOG|DIR... [--set option=value]... [--skip-bad] [-o FILE.json]");
      rc = IOS_EINVAL;
    }
  }
  char **paths = NULL;
  int n = 0;
  ios_darshan_options_t o;
  ios_workload_t w = {0};
  ios_darshan_info_t *info = NULL;
  if (rc == IOS_OK) rc = ios_darshan_spec(spec, "command line", &paths, &n, &o);
  if (rc == IOS_OK && o.osts == 1) {
    ios_diag_set("command line", "--set osts",
                 "\"recorded\" needs the platform: use it in a scenario's "
                 "workload.darshan, or \"count\" here");
    rc = IOS_EINVAL;
  }
  if (rc == IOS_OK && (info = calloc((size_t)n, sizeof *info)) == NULL) rc = IOS_ENOMEM;
  if (rc == IOS_OK) rc = ios_darshan_workload(paths, n, &o, NULL, &w, info);
  if (rc == IOS_OK) rc = ios_fs_write_atomic(path, write_darshan_json, &w);
  if (rc == IOS_OK) {
    int width = 24; /* names in full: the column as wide as the longest */
    for (int j = 0; j < w.napps; j++)
      if ((int)strlen(w.apps[j].name) > width) width = (int)strlen(w.apps[j].name);
    fprintf(stderr, "%-*s %8s %6s %14s %14s %10s %12s %10s %6s %s\n", width, "application", "nprocs", "nodes", "read_B",
            "written_B", "runtime_s", "io_time_s", "io_MiBps", "osts", "phases");
    for (int j = 0; j < w.napps; j++) {
      const ios_darshan_info_t *i = &info[j];
      double bytes = i->bytes_read + i->bytes_written;
      fprintf(stderr, "%-*s %8lld %6d %14.0f %14.0f %10.3f %12.6f %10.3f %6d %d from %s\n", width, w.apps[j].name,
              (long long)i->nprocs, w.apps[j].nodes, i->bytes_read, i->bytes_written, i->runtime, i->time_by_slowest,
              i->time_by_slowest > 0 ? bytes / i->time_by_slowest / 1048576 : 0, i->osts, w.apps[j].nphases,
              i->from_dxt ? "DXT" : "counters");
    }
    fprintf(stderr, "iosim: %s: %d applications from %d Darshan logs\n",
            path != NULL && strcmp(path, "-") != 0 ? path : "standard output", w.napps, n);
  }
  free(info);
  ios_workload_free(&w);
  ios_darshan_paths_free(paths, n);
  cJSON_Delete(spec);
  return ios_cli_exit_code(rc);
}

int ios_cli_generate(int argc, char **argv) {
  static const struct option opts[] = {{"out", required_argument, NULL, 'o'},
                                       {"set", required_argument, NULL, IOS_OPT_SET},
                                       {"seed", required_argument, NULL, OPT_SEED},
                                       {"unit", required_argument, NULL, OPT_UNIT},
                                       {"help", no_argument, NULL, 'h'},
                                       {"version", no_argument, NULL, IOS_OPT_VERSION},
                                       {NULL, 0, NULL, 0}};
  const ios_gen_kind_t *kind = argc >= 2 ? find_kind(argv[1]) : NULL;
  int help = argc < 2, darshan = argc >= 2 && strcmp(argv[1], "darshan") == 0;
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    help |= ios_args_is_help(argv[i]);
    if (strcmp(argv[i], "--version") == 0) {
      ios_print_version(stdout);
      return 0;
    }
  }
  if (help) {
    for (int k = 0; ios_gen_kinds[k] != NULL && !darshan; k++)
      if (ios_gen_kinds[k]->build != NULL && (kind == NULL || kind == ios_gen_kinds[k]))
        fputs(ios_gen_kinds[k]->help, stdout);
    if (kind == NULL) fputs(darshan_help, stdout);
    return 0;
  }
  if (darshan) return generate_darshan(argc, argv);
  const char *path = NULL;
  uint64_t seed = 1;
  double unit = 1;
  char command[64];
  snprintf(command, sizeof command, "iosim generate %s", kind != NULL ? kind->kind : "KIND");
  ios_gen_ctx_t c = {"command line", "--set", " "};
  cJSON *g = cJSON_CreateObject();
  int rc = g != NULL && cJSON_AddStringToObject(g, "kind", argv[1]) != NULL ? IOS_OK : IOS_ENOMEM;
  if (rc == IOS_OK && kind == NULL) {
    char names[128] = "";
    size_t len = 0;
    for (int k = 0; ios_gen_kinds[k] != NULL && len < sizeof names; k++)
      if (ios_gen_kinds[k]->build != NULL)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", ios_gen_kinds[k]->kind);
    ios_diag_set(
        c.file, "KIND",
        "unknown generator \"%s\": iosim generate knows %s, darshan; write iosim generate KIND [--set param=value]... "
        "[--seed N] [--unit B] [-o FILE]",
        argv[1], names);
    rc = IOS_EINVAL;
  }
  int opt;
  optind = 2; /* after the kind */
  while (rc == IOS_OK && optind < argc) {
    opt = getopt_long(argc, argv, "+:o:h", opts, NULL);
    if (opt == IOS_OPT_SET) {
      rc = ios_args_add_set(g, optarg, command, kind->example);
    } else if (opt == OPT_SEED) {
      rc = parse_seed(optarg, &seed);
    } else if (opt == OPT_UNIT) {
      if (ios_parse_bandwidth(optarg, &unit) != IOS_OK || !(unit > 0)) {
        ios_diag_set(c.file, "--unit", "is \"%s\": give the bandwidth B > 0 in bytes/s, e.g. 1 or \"20GB/s\"", optarg);
        rc = IOS_EINVAL;
      }
    } else if (opt == 'o') {
      path = optarg;
    } else {
      const char *arg = opt == -1 ? argv[optind] : argv[optind - 1];
      ios_diag_set(c.file, arg, "%s: write %s [--set param=value]... [--seed N] [--unit B] [-o FILE]",
                   opt == ':' ? "needs a value" : "unexpected argument", command);
      rc = IOS_EINVAL;
    }
  }
  double *omega = NULL;
  ios_workload_t w = {0};
  char summary[512] = "";
  if (rc == IOS_OK) rc = kind->build(g, &c, unit, seed, &w, &omega, summary, sizeof summary);
  if (rc == IOS_OK) rc = ios_gen_write(path, &w, omega);
  if (rc == IOS_OK)
    fprintf(stderr, "iosim: %s: %s\n", path != NULL && strcmp(path, "-") != 0 ? path : "standard output", summary);
  free(omega);
  ios_workload_free(&w);
  cJSON_Delete(g);
  return ios_cli_exit_code(rc);
}
