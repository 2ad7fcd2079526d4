/* iosim report DIR [options]: the campaign report, written in Python (analysis/report.py), and the campaign's
 * interactive page (analysis/view.py); the runner of the analysis scripts `report` and `view` use. */
#include "ios_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static const char report_usage[] =
    "usage: iosim report DIR [--x COL] [--policy COL] [--metrics M,...] [--baseline V] [--gantt RUN_ID] "
    "[--by-position COLS]\n"
    "  figures and DIR/report/report.md for a campaign directory (analysis/report.py, python3 with pandas and\n"
    "  matplotlib); its options are those of analysis/report.py (iosim report DIR --help lists them); then\n"
    "  DIR/report/view.html, the same figures interactive with each run's view (iosim view, python3-plotly)\n"
    "  -h, --help   this help;  --version  the iosim and SimGrid versions\n";

/* Runs analysis/SCRIPT of ios_cli_home() with argv[1..] and waits for it. @return its exit code (1 when it could
 * not be started, with a message naming the interpreter and the fix). */
static int run_script(const char *script, int argc, char **argv) {
  char path[4300];
  const char *home = ios_cli_home();
  snprintf(path, sizeof path, "%s/analysis/%s", home != NULL ? home : ".", script);
  char **args = calloc((size_t)argc + 3, sizeof *args);
  if (args == NULL) return 1;
  const char *py = ios_cli_python();
  args[0] = (char *)py;
  args[1] = path;
  for (int i = 1; i < argc; i++)
    args[i + 1] = argv[i];
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    execvp(py, args);
    fprintf(stderr,
            "iosim: error: cannot run %s %s (%s): install python3-pandas, python3-matplotlib and python3-plotly "
            "(make deps), or set IOSIM_PYTHON to an interpreter that has them\n",
            py, path, strerror(errno));
    _exit(1);
  }
  free(args);
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) {
    fprintf(stderr, "iosim: error: cannot run %s %s: %s\n", py, path, strerror(errno));
    return 1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int ios_cli_run_script(const char *script, int argc, char **argv) {
  return run_script(script, argc, argv);
}

/* `iosim report DIR [options]`: the campaign report (analysis/report.py: pandas, matplotlib), then the campaign's
 * interactive page DIR/report/view.html (analysis/view.py with the same options). */
int ios_cli_report(int argc, char **argv) {
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
  int rc = run_script("report.py", argc, argv);
  if (rc != 0 || argc < 2 || argv[1][0] == '-') return rc;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return rc;
  return run_script("view.py", argc, argv);
}
