/* iosim merge DIR... [-o DIR]: one runs.csv over the shard directories of a campaign (src/campaign/ios_merge.h). */
#include "ios_args.h"
#include "ios_cli.h"
#include "ios_merge.h"

#include <getopt.h>
#include <stdio.h>

static const char *const merge_usage =
    "usage: iosim merge DIR... [-o DIR]   one runs.csv over the output directories of a campaign's shards\n"
    "  -o, --out DIR   where runs.csv and runs/ go (default: the current directory)\n"
    "  -h, --help      this help;  --version  the iosim and SimGrid versions\n";

int ios_cli_merge(int argc, char **argv) {
  static const struct option opts[] = {{"out", required_argument, NULL, 'o'},
                                       {"help", no_argument, NULL, 'h'},
                                       {"version", no_argument, NULL, IOS_OPT_VERSION},
                                       {NULL, 0, NULL, 0}};
  const char *out_arg = ".";
  int opt, rc;
  optind = 0;
  while ((opt = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    if ((rc = ios_cli_help_version(opt, merge_usage)) >= 0) return rc;
    if (opt != 'o') return ios_args_error(opt, argv, "merge", merge_usage);
    out_arg = optarg;
  }
  int ndirs = argc - optind;
  if (ndirs == 0) return ios_args_bad(merge_usage, "iosim merge needs the output directories of the shards");
  return ios_merge_shards(argv + optind, ndirs, out_arg);
}
