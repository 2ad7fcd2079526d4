/* iosim generate KIND [--set param=value]... [--seed N] [--unit B] [-o FILE]: one generated workload written as an
 * iosim JSON workload or in the RR-9502 reference simulator's sample format (see ios_gen.h). */
#include "ios_args.h"
#include "ios_cli.h"
#include "ios_diag.h"
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

enum { OPT_SEED = IOS_OPT_FIRST_FREE, OPT_UNIT };

int ios_cli_generate(int argc, char **argv) {
  static const struct option opts[] = {{"out", required_argument, NULL, 'o'},
                                       {"set", required_argument, NULL, IOS_OPT_SET},
                                       {"seed", required_argument, NULL, OPT_SEED},
                                       {"unit", required_argument, NULL, OPT_UNIT},
                                       {"help", no_argument, NULL, 'h'},
                                       {"version", no_argument, NULL, IOS_OPT_VERSION},
                                       {NULL, 0, NULL, 0}};
  const ios_gen_kind_t *kind = argc >= 2 ? find_kind(argv[1]) : NULL;
  int help = argc < 2;
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    help |= ios_args_is_help(argv[i]);
    if (strcmp(argv[i], "--version") == 0) {
      ios_print_version(stdout);
      return 0;
    }
  }
  if (help) {
    for (int k = 0; ios_gen_kinds[k] != NULL; k++)
      if (ios_gen_kinds[k]->build != NULL && (kind == NULL || kind == ios_gen_kinds[k]))
        fputs(ios_gen_kinds[k]->help, stdout);
    return 0;
  }
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
    ios_diag_set(c.file, "KIND",
                 "unknown generator \"%s\": iosim generate knows %s; write iosim generate KIND [--set param=value]... "
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
