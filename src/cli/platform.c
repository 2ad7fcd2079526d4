/* iosim platform KIND [--set param=value]... [-o FILE]: the SimGrid platform XML of a parametric family
 * (src/inputs/platgen.c), written atomically to FILE or to standard output. */
#include "ios_args.h"
#include "ios_cli.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_fs.h"
#include "ios_platgen.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
  const cJSON *spec;
  const char *where;
} write_ctx_t;

/* ios_fs_write_atomic's writer: the platform of spec. */
static int write_platform(FILE *f, void *ctx) {
  const write_ctx_t *w = ctx;
  return ios_platgen_write(w->spec, w->where, NULL, f);
}

int ios_cli_platform(int argc, char **argv) {
  static const struct option opts[] = {{"out", required_argument, NULL, 'o'},
                                       {"set", required_argument, NULL, IOS_OPT_SET},
                                       {"help", no_argument, NULL, 'h'},
                                       {"version", no_argument, NULL, IOS_OPT_VERSION},
                                       {NULL, 0, NULL, 0}};
  static const char usage[] = "write iosim platform KIND [--set param=value]... [-o FILE] (see iosim platform --help)";
  const char *where = "command line", *path = NULL;
  /* the kind comes first ("+": getopt stops at it; options after it) */
  const char *kind = argc >= 2 && argv[1][0] != '-' ? argv[1] : NULL;
  cJSON *spec = cJSON_CreateObject();
  int rc = spec != NULL && (kind == NULL || cJSON_AddStringToObject(spec, "kind", kind) != NULL) ? IOS_OK : IOS_ENOMEM;
  int opt, done = argc < 2; /* no argument: the help */
  optind = kind != NULL ? 2 : 1;
  while (rc == IOS_OK && !done && optind < argc) {
    opt = getopt_long(argc, argv, "+:o:h", opts, NULL);
    if (opt == 'h' || opt == IOS_OPT_VERSION) {
      done = opt;
    } else if (kind == NULL) {
      ios_diag_set(where, "KIND", "expected a kind first, before any option: %s", usage);
      rc = IOS_EINVAL;
    } else if (opt == IOS_OPT_SET) {
      rc = ios_args_add_set(spec, optarg, "iosim platform KIND", "ionodes=24");
    } else if (opt == 'o') {
      path = optarg;
    } else {
      const char *arg = opt == -1 ? argv[optind] : argv[optind - 1];
      ios_diag_set(where, arg, "%s: %s", opt == ':' ? "needs a value" : "unexpected argument", usage);
      rc = IOS_EINVAL;
    }
  }
  if (rc == IOS_OK && (done || kind == NULL)) {
    if (done == IOS_OPT_VERSION)
      ios_print_version(stdout);
    else
      ios_platgen_help(stdout);
    cJSON_Delete(spec);
    return 0;
  }
  if (rc == IOS_OK) rc = ios_platgen_check(spec, where);
  struct stat st;
  if (rc == IOS_OK && path != NULL && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    ios_diag_set(path, "-o", "is a directory: give a file name, e.g. %s/platform.xml", path);
    rc = IOS_EINVAL;
  }
  write_ctx_t ctx = {spec, where};
  if (rc == IOS_OK) rc = ios_fs_write_atomic(path, write_platform, &ctx);
  cJSON_Delete(spec);
  return ios_cli_exit_code(rc);
}
