/* iosim policies [--family F]: every policy of every family, with its parameters and source. */
#include "ios_args.h"
#include "ios_cli.h"
#include "ios_policy.h"
#include "ios_storage.h"
#include "ios_striping.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

/* One policy of any family: name, description, source, alias and parameters with their defaults. */
static void print_policy(const char *name, const char *alias, const char *description, const char *source, int nparams,
                         const ios_param_spec_t *params) {
  printf("  %-24s %s\n      source: %s%s%s\n", name, description, source, alias ? "; alias: " : "", alias ? alias : "");
  for (int i = 0; i < nparams; i++)
    printf("      %s = %g %s: %s\n", params[i].name, params[i].def, params[i].unit, params[i].description);
}

static const char policies_usage[] =
    "usage: iosim policies [--family F]   every policy of every family, its parameters (default, unit) and source\n"
    "  -f, --family F   only family F: allocation, placement, sharing, storage or striping\n"
    "  -h, --help       this help;  --version  the iosim and SimGrid versions\n";

/* Where a scenario names the family's policy, after the family's description. */
static const char *const scenario_key[IOS_NFAMILIES] = {
    [IOS_FAMILY_STORAGE] = "; scenario \"storage.policy\"", [IOS_FAMILY_STRIPING] = "; scenario \"striping.policy\""};

int ios_cli_policies(int argc, char **argv) {
  static const struct option opts[] = {{"family", required_argument, NULL, 'f'},
                                       {"help", no_argument, NULL, 'h'},
                                       {"version", no_argument, NULL, IOS_OPT_VERSION},
                                       {NULL, 0, NULL, 0}};
  const char *family = NULL;
  int c;
  optind = 0;
  while ((c = getopt_long(argc, argv, ":f:h", opts, NULL)) != -1) {
    if (c == 'h') {
      fputs(policies_usage, stdout);
      return 0;
    } else if (c == IOS_OPT_VERSION) {
      ios_print_version(stdout);
      return 0;
    } else if (c == 'f') {
      family = optarg;
    } else {
      return ios_args_error(c, argv, "policies", policies_usage);
    }
  }
  if (optind < argc) return ios_args_bad(policies_usage, "iosim policies: unexpected argument '%s'", argv[optind]);
  int only = family != NULL ? ios_family_find(family) : -1;
  if (family != NULL && only < 0)
    return ios_args_bad(policies_usage,
                        "--family '%s': unknown family; the families are allocation, placement, sharing, storage "
                        "and striping",
                        family);
  for (int f = 0; f < IOS_NFAMILIES; f++) {
    if (only >= 0 && f != only) continue;
    printf("%s (%s%s):\n", ios_family_name(f), ios_family_description(f),
           scenario_key[f] != NULL ? scenario_key[f] : "");
    const ios_policy_t *const *list = ios_policy_list(f);
    for (int i = 0; list[i] != NULL; i++)
      print_policy(list[i]->name, list[i]->alias, list[i]->description, list[i]->source, list[i]->nparams,
                   list[i]->params);
    if (f == IOS_FAMILY_STORAGE)
      printf("  options of every storage policy (StorAlloc Table 2, scenario \"storage\" object):\n"
             "      split = true: a request larger than the threshold is cut into equal parts, placed one by one; "
             "default on, {\"threshold\": \"200GB\"}\n"
             "      requeue = false: a refused request is tried again later, then falls back to the PFS; default off, "
             "{\"retries\": 5, \"interval\": \"5min\"}\n"
             "      source: StorAlloc (Monniot et al., CCGrid'22), §4.2 and Table 2; docs/storalloc.md\n");
  }
  return 0;
}
