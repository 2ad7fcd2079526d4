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

int ios_cli_policies(int argc, char **argv) {
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
      ios_print_version(stdout);
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
