/* iosim — what every subcommand shares (see ios_cli.h). */
#include "ios_cli.h"
#include "ios_args.h"
#include "ios_datadir.h"
#include "ios_diag.h"
#include "ios_errors.h"

#include "ios_sg_platform.h"

#include <simgrid/config.h> /* SG_BEGIN_DECL and XBT_PUBLIC, which simgrid/version.h uses */
#include <simgrid/engine.h>
#include <simgrid/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef IOSIM_VERSION
#define IOSIM_VERSION "unknown"
#endif

void ios_print_version(FILE *f) {
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  fprintf(f, "iosim %s\nSimGrid %d.%d.%d (built against %d.%d.%d)\n", IOSIM_VERSION, major, minor, patch,
          SIMGRID_VERSION_MAJOR, SIMGRID_VERSION_MINOR, SIMGRID_VERSION_PATCH);
}

int ios_cli_help_version(int opt, const char *usage) {
  if (opt == 'h')
    fputs(usage, stdout);
  else if (opt == IOS_OPT_VERSION)
    ios_print_version(stdout);
  else
    return -1;
  return 0;
}

int ios_cli_exit_code(int rc) {
  if (rc == IOS_OK) return 0;
  fprintf(stderr, "iosim: error: %s\n", ios_diag_message()[0] ? ios_diag_message() : ios_strerror(rc));
  return rc == IOS_EINVAL || rc == IOS_EIO ? 2 : 1;
}

#ifndef IOSIM_PYTHON
#define IOSIM_PYTHON "/usr/bin/python3"
#endif

const char *ios_cli_python(void) {
  const char *env = getenv("IOSIM_PYTHON");
  if (env != NULL && env[0] != '\0') return env;
  return access(IOSIM_PYTHON, X_OK) == 0 ? IOSIM_PYTHON : "python3";
}

const char *ios_cli_home(void) {
  return ios_home_dir();
}

int ios_cli_cfg_help(const ios_sg_flags_t *sg) {
  char *argv[8 + 64];
  int argc = 0;
  argv[argc++] = "iosim";
  argv[argc++] = "--log=xbt_cfg.thres:warning";
  for (int i = 0; i < sg->n && argc < 8 + 63; i++)
    if (strncmp(sg->flags[i], "--log=", 6) == 0) argv[argc++] = sg->flags[i];
  argv[argc] = NULL;
  simgrid_init(&argc, argv);
  printf("SimGrid's configuration items, with the values iosim runs with; set one with --cfg=name:value. iosim "
         "fixes");
  for (int i = 0; i < ios_args_fixed_count(); i++) {
    char item[160];
    const char *name = ios_args_fixed_name(i);
    snprintf(item, sizeof item, "%s:%s", name, ios_args_fixed_value(name));
    ios_sg_set_config(item); /* shown as the current value below */
    printf("%s %s", i == 0 ? "" : i + 1 == ios_args_fixed_count() ? " and" : ",", item);
  }
  printf(": a --cfg may repeat these values, not change them (docs/cli.md).\n");
  ios_sg_config_help();
  return 0;
}
