/* iosim data fetch|verify|list|dir: the public datasets. `dir` is ios_data_dir() (src/base/ios_datadir.h), the one
 * lookup every part of iosim uses; the others run the data step, traces/datasets.py of iosim's home (the same code
 * as `make data`), with the Python of ios_cli_python(). */
#include "ios_cli.h"
#include "ios_datadir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char data_usage[] =
    "usage: iosim data fetch [--mirror DIR|URL] [--upstream URL] [-o DIR] [--dataset NAME]... [--force]\n"
    "       iosim data verify [DIR] [--dataset NAME]...\n"
    "       iosim data list\n"
    "       iosim data dir\n"
    "  fetch    download every public dataset at its pinned commit (traces/datasets.json) from its upstream\n"
    "           repository, derive the files iosim reads that are made from them, and check each file's SHA-256;\n"
    "           --mirror DIR|URL copies and checks them from a folder or URL holding DATASET/PATH instead (e.g.\n"
    "           ../shared/datasets); --upstream URL replaces https://raw.githubusercontent.com; -o DIR writes there\n"
    "           instead of traces/datasets of iosim's home; --dataset NAME only that one; --force fetches again\n"
    "           what is already there and intact. `make data` runs the same step (traces/datasets.py).\n"
    "  verify   check a datasets folder (default: the one iosim uses, `iosim data dir`) against the pinned sums\n"
    "  list     the datasets: files, bytes, repository and commit\n"
    "  dir      print the datasets folder iosim uses: $IOSIM_DATA_DIR, else ../shared/datasets beside iosim's home,\n"
    "           else traces/datasets of its home (exit 2 when there is none)\n"
    "  -h, --help   this help;  --version  the iosim and SimGrid versions\n"
    "Exit codes: 0 every file as pinned; 2 a file missing or different from the manifest (named, with both SHA-256\n"
    "sums and the fix), or bad arguments; 1 iosim's own files not found. traces/README.md describes each dataset.\n";

/* `iosim data dir`: the folder, or exit 2 with what was tried and the fix. */
static int print_dir(void) {
  const char *dir = ios_data_dir(NULL);
  if (dir == NULL) {
    char where[4600];
    fprintf(stderr, "iosim: error: data dir: %s: %s\n", ios_data_dir_describe(where, sizeof where), IOS_DATA_FIX);
    return 2;
  }
  printf("%s\n", dir);
  return 0;
}

/* Whether the arguments of `verify` (after the action) name a folder. */
static int names_folder(int argc, char **argv) {
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--dataset") == 0)
      i++;
    else if (argv[i][0] != '-')
      return 1;
  }
  return 0;
}

int ios_cli_data(int argc, char **argv) {
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
    if (strcmp(argv[i], "--version") == 0) {
      ios_print_version(stdout);
      return 0;
    }
  const char *action = argc >= 2 ? argv[1] : "";
  if (strcmp(action, "-h") == 0 || strcmp(action, "--help") == 0) {
    fputs(data_usage, stdout);
    return 0;
  }
  if (strcmp(action, "dir") == 0) {
    if (argc > 2) {
      if (strcmp(argv[2], "-h") == 0 || strcmp(argv[2], "--help") == 0) {
        fputs(data_usage, stdout);
        return 0;
      }
      fprintf(stderr, "iosim: error: data dir takes no argument (got '%s')\n", argv[2]);
      return 2;
    }
    return print_dir();
  }
  if (strcmp(action, "fetch") != 0 && strcmp(action, "verify") != 0 && strcmp(action, "list") != 0) {
    fprintf(stderr, "iosim: error: data: %s%s%s: give fetch, verify, list or dir\n%s",
            action[0] ? "unknown action '" : "no action", action, action[0] ? "'" : "", data_usage);
    return 2;
  }
  const char *home = ios_cli_home();
  char script[4300];
  struct stat st;
  snprintf(script, sizeof script, "%s/traces/datasets.py", home != NULL ? home : ".");
  if (home == NULL || stat(script, &st) != 0) {
    fprintf(stderr,
            "iosim: error: data %s: cannot find iosim's traces/datasets.py (%s): set IOSIM_HOME to the folder that "
            "holds deploy/ and traces/ (the source tree, or PREFIX/share/iosim)\n",
            action, home != NULL ? script : "iosim's home not found beside the executable");
    return 1;
  }
  const char *folder = NULL;
  if (strcmp(action, "verify") == 0 && !names_folder(argc, argv)) {
    folder = ios_data_dir(NULL);
    if (folder == NULL) return print_dir(); /* the same message: nothing to verify */
  }
  char **args = calloc((size_t)argc + 4, sizeof *args);
  if (args == NULL) return 1;
  const char *py = ios_cli_python();
  int n = 0;
  args[n++] = (char *)py;
  args[n++] = script;
  for (int i = 1; i < argc; i++)
    args[n++] = argv[i];
  if (folder != NULL) args[n++] = (char *)folder;
  fflush(stdout);
  execvp(py, args);
  fprintf(stderr, "iosim: error: cannot run %s %s (%s): install python3 (make deps), or set IOSIM_PYTHON\n", py, script,
          strerror(errno));
  free(args);
  return 1;
}
