/* iosim — the inputs of a campaign point, checked before the first run (see ios_point_inputs.h). */
#include "ios_point_inputs.h"
#include "ios_datasets.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_gen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The message of an input that cannot be read: `path` as written (`given`, maybe with ${IOSIM_DATA_DIR}) and as
 * expanded (`path`), the field that names it (or whose default it is) and the fix. */
static void unreadable(const char *label, const char *field, const char *given, const char *path, const char *what,
                       int err, int is_default) {
  static const char var[] = "${IOSIM_DATA_DIR}/";
  if (strncmp(given, var, strlen(var)) == 0) { /* a dataset: say which folder and where it goes */
    const char *folder = given + strlen(var);
    int n = (int)strcspn(folder, "/");
    ios_diag_set(
        label, field,
        "cannot read %s '%s' (%s)%s: the dataset folder %.*s/ is not where iosim looks; get it (traces/README.md "
        "says where from) and set IOSIM_DATA_DIR to the folder that holds %.*s/%s",
        what, path, strerror(err), is_default ? ", the field's default" : "", n, folder, n, folder,
        is_default ? ", or give the field" : "");
    return;
  }
  ios_diag_set(label, field,
               "cannot read %s '%s' (%s): fix the path (relative paths in the base are relative to the base scenario "
               "file)",
               what, path, strerror(err));
}

/* Expands `given` and checks it: a readable file (files == NULL), or a directory holding the readable `files`. */
static int check_path(const char *label, const char *field, const char *given, const char *const *files,
                      int is_default) {
  char *path = ios_expand_path(given, label, field);
  if (path == NULL) return IOS_EINVAL; /* IOSIM_DATA_DIR needed but unset: the message says so */
  struct stat st;
  int rc = IOS_OK;
  if (stat(path, &st) != 0 || access(path, R_OK) != 0) {
    unreadable(label, field, given, path, files != NULL ? "the data directory" : "the file", errno, is_default);
    rc = IOS_EINVAL;
  } else if (files == NULL && S_ISDIR(st.st_mode)) {
    unreadable(label, field, given, path, "the file", EISDIR, is_default);
    rc = IOS_EINVAL;
  } else if (files != NULL && !S_ISDIR(st.st_mode)) {
    unreadable(label, field, given, path, "the data directory", ENOTDIR, is_default);
    rc = IOS_EINVAL;
  }
  for (int i = 0; rc == IOS_OK && files != NULL && files[i] != NULL; i++) {
    size_t n = strlen(path) + strlen(files[i]) + 2;
    char *f = malloc(n);
    if (f == NULL) {
      rc = IOS_ENOMEM;
      break;
    }
    snprintf(f, n, "%s/%s", path, files[i]);
    if (access(f, R_OK) != 0) {
      int err = errno;
      size_t m = strlen(given) + strlen(files[i]) + 2;
      char *g = malloc(m);
      if (g != NULL) snprintf(g, m, "%s/%s", given, files[i]);
      unreadable(label, field, g != NULL ? g : f, f, "the data file", err, is_default);
      free(g);
      rc = IOS_EINVAL;
    }
    free(f);
  }
  free(path);
  return rc;
}

/* The string member `key` of `obj`, or NULL. */
static const char *str_of(const cJSON *obj, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The dataset of the workload generator, when its kind reads one. */
static int check_generator(const ios_scenario_t *s, const char *label) {
  const cJSON *g = cJSON_GetObjectItemCaseSensitive(s->workload, "generator");
  const char *kind = str_of(g, "kind");
  const ios_gen_kind_t *k = kind != NULL ? ios_gen_find(kind) : NULL;
  if (k == NULL || k->data_param == NULL) return IOS_OK; /* an unknown kind fails at its run with the kinds' list */
  char field[128];
  snprintf(field, sizeof field, "workload.generator.%s", k->data_param);
  const char *given = str_of(g, k->data_param);
  return check_path(label, field, given != NULL ? given : k->data_default, k->data_files, given == NULL);
}

/* The requests of a storage scenario: a trace file, or the TOKIO table of the "tokio" shape. */
static int check_storage(const ios_scenario_t *s, const char *label) {
  const cJSON *rq = cJSON_GetObjectItemCaseSensitive(s->storage, "requests");
  const char *file = str_of(rq, "file");
  if (file != NULL) return check_path(label, "storage.requests.file", file, NULL, 0);
  const cJSON *g = cJSON_GetObjectItemCaseSensitive(rq, "generator");
  const char *shape = str_of(g, "shape"), *data = str_of(g, "data");
  if (!cJSON_IsObject(g) || (shape != NULL && strcmp(shape, "theta") == 0)) return IOS_OK;
  return check_path(label, "storage.requests.generator.data", data != NULL ? data : IOS_DATA_TOKIO, NULL, data == NULL);
}

int ios_point_inputs_check(const ios_scenario_t *s, const char *label) {
  const char *wf = str_of(s->workload, "file");
  int rc = wf != NULL ? check_path(label, "workload.file", wf, NULL, 0) : IOS_OK;
  if (rc == IOS_OK) rc = check_generator(s, label);
  if (rc == IOS_OK && s->storage != NULL) rc = check_storage(s, label);
  return rc;
}
