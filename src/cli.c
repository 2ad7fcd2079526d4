/* iosim — command-line helpers (see ios_cli.h). */
#include "ios_cli.h"
#include "ios_diag.h"
#include "ios_policy.h"
#include "ios_value.h"

#include <errno.h>
#include <simgrid/config.h> /* SG_BEGIN_DECL and XBT_PUBLIC, which simgrid/version.h uses */
#include <simgrid/version.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef IOSIM_VERSION
#define IOSIM_VERSION "unknown"
#endif

int ios_cli_is_help(const char *a) {
  return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "help") == 0;
}

int ios_cli_write(const char *path, ios_cli_writer_t fn, void *ctx) {
  if (path == NULL || strcmp(path, "-") == 0) {
    int rc = fn(stdout, ctx);
    if (rc == IOS_OK && fflush(stdout) != 0) rc = IOS_EIO;
    if (rc == IOS_EIO) ios_diag_set("standard output", NULL, "cannot write (%s)", strerror(errno));
    return rc;
  }
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    FILE *f = fopen(path, "w");
    int rc = f != NULL ? fn(f, ctx) : IOS_EIO;
    if (f != NULL && fclose(f) != 0 && rc == IOS_OK) rc = IOS_EIO;
    if (rc == IOS_EIO) ios_diag_set(path, NULL, "cannot write it (%s): check the permissions", strerror(errno));
    return rc;
  }
  size_t n = strlen(path) + 48;
  char *tmp = malloc(n);
  if (tmp == NULL) return IOS_ENOMEM;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
    snprintf(tmp, n, "%s.tmp%ld-%d", path, (long)getpid(), attempt);
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (f == NULL) {
    ios_diag_set(path, NULL, "cannot create a file next to it (%s): check that the directory exists and is writable",
                 strerror(errno));
    if (fd >= 0) {
      close(fd);
      unlink(tmp);
    }
    free(tmp);
    return IOS_EIO;
  }
  int rc = fn(f, ctx);
  if (rc == IOS_OK && fsync(fileno(f)) != 0) rc = IOS_EIO;
  if (fclose(f) != 0 && rc == IOS_OK) rc = IOS_EIO;
  if (rc == IOS_OK && rename(tmp, path) != 0) rc = IOS_EIO;
  if (rc == IOS_EIO)
    ios_diag_set(path, NULL, "cannot write it (%s): check the disk space and permissions", strerror(errno));
  if (rc != IOS_OK) unlink(tmp);
  free(tmp);
  return rc;
}

int ios_cli_add_set(cJSON *obj, const char *arg, const char *command, const char *example) {
  const char *eq = strchr(arg, '=');
  if (eq == NULL || eq == arg) {
    ios_diag_set("command line", "--set", "expected param=value, got \"%s\": write e.g. --set %s", arg, example);
    return IOS_EINVAL;
  }
  char *name = strndup(arg, (size_t)(eq - arg));
  if (name == NULL) return IOS_ENOMEM;
  if (strcmp(name, "kind") == 0) {
    ios_diag_set("command line", "kind", "give the kind as the first argument (%s), not with --set", command);
    free(name);
    return IOS_EINVAL;
  }
  cJSON *v = ios_value_from_cli(eq + 1); /* JSON when the whole text is, else a string ("50GBps", "1N1D") */
  cJSON_DeleteItemFromObjectCaseSensitive(obj, name); /* the last --set of a parameter wins */
  int ok = v != NULL && cJSON_AddItemToObject(obj, name, v);
  if (!ok) cJSON_Delete(v);
  free(name);
  return ok ? IOS_OK : IOS_ENOMEM;
}

double ios_cli_clock_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void ios_cli_print_version(FILE *f) {
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  fprintf(f, "iosim %s\nSimGrid %d.%d.%d (built against %d.%d.%d)\n", IOSIM_VERSION, major, minor, patch,
          SIMGRID_VERSION_MAJOR, SIMGRID_VERSION_MINOR, SIMGRID_VERSION_PATCH);
}
