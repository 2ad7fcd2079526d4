/* iosim — the paths of a scenario's inputs: ${IOSIM_DATA_DIR} expanded, and a dataset file opened with a message
 * that says where the datasets are looked for (see ios_scenario.h). A leaf of src/inputs/: the workload sources and
 * the scenario loader both use it. */
#include "ios_scenario.h"
#include "ios_datadir.h"
#include "ios_diag.h"
#include "ios_fs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

FILE *ios_open_dataset(const char *path, const char *field, const char *what, const char *folder) {
  FILE *f = ios_open_input(path);
  if (f == NULL) {
    int err = errno;
    char where[4600];
    ios_diag_set(path, field, "cannot read the %s (%s); %s: " IOS_DATA_FIX " (%s/ among them), or give %s", what,
                 strerror(err), ios_data_dir_describe(where, sizeof where), folder, field);
    errno = err;
  }
  return f;
}

char *ios_expand_path(const char *path, const char *file, const char *field) {
  static const char var[] = "${IOSIM_DATA_DIR}";
  const char *at = strstr(path, var);
  if (at == NULL) return strdup(path);
  const char *dir = ios_data_dir(NULL);
  if (dir == NULL) {
    char where[4600];
    ios_diag_set(file, field, "'%s' names the public datasets, but %s: " IOS_DATA_FIX, path,
                 ios_data_dir_describe(where, sizeof where));
    return NULL;
  }
  size_t n = strlen(path) - strlen(var) + strlen(dir) + 1;
  char *out = malloc(n);
  if (out != NULL) snprintf(out, n, "%.*s%s%s", (int)(at - path), path, dir, at + strlen(var));
  return out;
}
