/* iosim report DIR [options]: the campaign report, written in Python (python/iosim/report.py), and the campaign's
 * interactive page (python/iosim/view.py); the runner of the Python modules that `report`, `view`, `compare`, `whatif`
 * and `calibrate` use. */
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
    "  figures and DIR/report/report.md for a campaign directory (python/iosim/report.py, python3 with pandas and\n"
    "  matplotlib); its options are those of python/iosim/report.py (iosim report DIR --help lists them); then\n"
    "  DIR/report/view.html, the same figures interactive with each run's view (iosim view, python3-plotly)\n"
    "  -h, --help   this help;  --version  the iosim and SimGrid versions\n";

/* The folder holding iosim's Python package (iosim/__init__.py) into out (n bytes): $IOSIM_PYTHONPATH, else beside
 * the executable in a build tree (python/), else an installed copy (../lib/python3/dist-packages). @return out, or
 * NULL when none holds the package. */
static const char *package_dir(char *out, size_t n) {
  const char *env = getenv("IOSIM_PYTHONPATH");
  if (env != NULL && env[0] != '\0') {
    snprintf(out, n, "%s", env);
    return out;
  }
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return NULL;
  exe[len] = '\0';
  char *slash = strrchr(exe, '/');
  if (slash == NULL) return NULL;
  *slash = '\0';
  const char *const rel[] = {"/python", "/../lib/python3/dist-packages"};
  for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
    char probe[4400];
    int k = snprintf(out, n, "%s%s", exe, rel[i]);
    if (k < 0 || (size_t)k >= n) continue;
    k = snprintf(probe, sizeof probe, "%s/iosim/__init__.py", out);
    if (k >= 0 && (size_t)k < sizeof probe && access(probe, R_OK) == 0) return out;
  }
  return NULL;
}

/* Runs `python -m iosim.MODULE argv[1..]` with the package's folder first on PYTHONPATH, and waits for it; with
 * `replace`, in this process instead (execvp: a server then gets the signals sent to iosim's pid). @return its exit
 * code (1 when it could not be started, with a message naming the interpreter and the fix). */
static int run_module(const char *module, int argc, char **argv, int replace) {
  char dir[4096], mod[128], path[8300];
  if (package_dir(dir, sizeof dir) == NULL) {
    fprintf(stderr,
            "iosim: error: cannot find iosim's Python package (iosim/__init__.py) beside %s; fix: build "
            "iosim again (make build), reinstall it (make install), or set IOSIM_PYTHONPATH to the folder "
            "holding iosim/\n",
            "the executable");
    return 1;
  }
  const char *old = getenv("PYTHONPATH");
  snprintf(path, sizeof path, "%s%s%s", dir, old != NULL && old[0] != '\0' ? ":" : "", old != NULL ? old : "");
  snprintf(mod, sizeof mod, "iosim.%s", module);
  char **args = calloc((size_t)argc + 4, sizeof *args);
  if (args == NULL) return 1;
  const char *py = ios_cli_python();
  args[0] = (char *)py;
  args[1] = "-m";
  args[2] = mod;
  for (int i = 1; i < argc; i++)
    args[i + 2] = argv[i];
  fflush(stdout);
  fflush(stderr);
  pid_t pid = replace ? 0 : fork();
  if (pid == 0) {
    setenv("PYTHONPATH", path, 1);
#ifdef IOSIM_SANITIZER_PRELOAD
    /* a sanitizer build: the module may load iosim._core (built with ASan/UBSan), whose runtime must be loaded first
     * in the interpreter; Python's own allocations are not this project's leaks */
    const char *pre = getenv("LD_PRELOAD");
    char preload[8300];
    snprintf(preload, sizeof preload, "%s%s%s", IOSIM_SANITIZER_PRELOAD, pre != NULL && pre[0] != '\0' ? " " : "",
             pre != NULL ? pre : "");
    setenv("LD_PRELOAD", preload, 1);
    setenv("ASAN_OPTIONS", "detect_leaks=0", 0);
#endif
    execvp(py, args);
    fprintf(stderr,
            "iosim: error: cannot run %s -m %s (%s): install python3-pandas, python3-matplotlib and python3-plotly "
            "(make deps), or set IOSIM_PYTHON to an interpreter that has them\n",
            py, mod, strerror(errno));
    if (replace) {
      free(args);
      return 1;
    }
    _exit(1);
  }
  free(args);
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) {
    fprintf(stderr, "iosim: error: cannot run %s -m %s: %s\n", py, mod, strerror(errno));
    return 1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int ios_cli_run_module(const char *module, int argc, char **argv) {
  return run_module(module, argc, argv, 0);
}

int ios_cli_exec_module(const char *module, int argc, char **argv) {
  return run_module(module, argc, argv, 1);
}

/* `iosim report DIR [options]`: the campaign report (python/iosim/report.py: pandas, matplotlib), then the campaign's
 * interactive page DIR/report/view.html (python/iosim/view.py with the same options). */
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
  int rc = run_module("report", argc, argv, 0);
  if (rc != 0 || argc < 2 || argv[1][0] == '-') return rc;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return rc;
  return run_module("view", argc, argv, 0);
}
