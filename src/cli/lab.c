/* iosim lab [options]: the teaching lab, a local web application for a class (python/iosim/lab, docs/lab.md): guided
 * modules whose simulations run this iosim (`iosim run`) in a bounded pool of workers. */
#include "ios_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char lab_usage[] =
    "usage: iosim lab [--port N] [--host H] [--modules DIR] [--workdir DIR] [--workers N] [--max-queue N]\n"
    "                 [--timeout S] [--threads N]\n"
    "  the teaching lab: a local web application for a class, printing its URL. Each module (a page) states its\n"
    "  learning objectives, explains a paper's idea, lets students set a scenario, predict, run it and see the run\n"
    "  (iosim view), and checks their answers against the simulation's own numbers (docs/lab.md)\n"
    "  --port N        port to listen on (default 8042; 0: any free port)\n"
    "  --host H        address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: the whole network)\n"
    "  --modules DIR   the modules: one sub-folder each with its module.json (default: deploy/lab of iosim's home);\n"
    "                  a broken module stops the lab at start (exit 2, naming the file and the field)\n"
    "  --workdir DIR   where the runs go, and nothing else is written (default results/lab)\n"
    "  --workers N     simulations at a time (default: the machine's cores);  --max-queue N  runs waiting at most\n"
    "                  (default 400);  --timeout S  seconds a run may take (default 120);  --threads N  the web\n"
    "                  server's threads (default 48)\n"
    "  -h, --help   this help;  --version  the iosim and SimGrid versions\n"
    "  python3 -m iosim.lab with Debian's python3-flask, python3-waitress and python3-markdown (make deps)\n";

/* `iosim lab [options]`: python/iosim/lab does the work, told which iosim runs the simulations (this one) and where
 * iosim's home is (its deploy/lab). */
int ios_cli_lab(int argc, char **argv) {
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--version") == 0) {
      ios_print_version(stdout);
      return 0;
    }
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      fputs(lab_usage, stdout);
      return 0;
    }
  }
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) {
    fputs("iosim: error: lab: cannot find the iosim executable (/proc/self/exe)\n", stderr);
    return 1;
  }
  exe[len] = '\0';
  const char *home = ios_cli_home();
  char **args = calloc((size_t)argc + 6, sizeof *args);
  if (args == NULL) return 1;
  int n = 0;
  args[n++] = argv[0];
  args[n++] = "--iosim";
  args[n++] = exe;
  if (home != NULL) {
    args[n++] = "--home";
    args[n++] = (char *)home;
  }
  for (int i = 1; i < argc; i++)
    args[n++] = argv[i];
  args[n] = NULL;
  int rc = ios_cli_exec_module("lab", n, args); /* returns only when python3 could not be started */
  free(args);
  return rc;
}
