/* iosim report DIR [options]: the campaign report, written in Python (analysis/report.py). */
#include "ios_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char report_usage[] =
    "usage: iosim report DIR [--x COL] [--policy COL] [--metrics M,...] [--baseline V] [--gantt RUN_ID] "
    "[--by-position COLS]\n"
    "  figures and DIR/report/report.md for a campaign directory (analysis/report.py, python3 with pandas and\n"
    "  matplotlib); its options are those of analysis/report.py (iosim report DIR --help lists them)\n"
    "  -h, --help   this help;  --version  the iosim and SimGrid versions\n";

/* `iosim report DIR [options]`: the campaign report is written in Python (pandas, matplotlib). */
int ios_cli_report(int argc, char **argv) {
  char script[4300];
  const char *home = ios_cli_home();
  snprintf(script, sizeof script, "%s/analysis/report.py", home != NULL ? home : ".");
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--version") == 0) {
      ios_print_version(stdout);
      return 0;
    }
    if ((strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) && argc == 2) {
      fputs(report_usage, stdout);
      return 0;
    }
  }
  fflush(stdout);
  char **args = calloc((size_t)argc + 3, sizeof *args);
  if (args == NULL) return 1;
  const char *py = ios_cli_python();
  args[0] = (char *)py;
  args[1] = script;
  for (int i = 1; i < argc; i++)
    args[i + 1] = argv[i];
  execvp(py, args);
  fprintf(stderr,
          "iosim: error: cannot run %s %s (%s): install python3-pandas and python3-matplotlib (make deps), or set "
          "IOSIM_PYTHON to an interpreter that has them\n",
          py, script, strerror(errno));
  free(args);
  return 1;
}
