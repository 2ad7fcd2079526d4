/* iosim — where iosim's own files and the public datasets are (see ios_datadir.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "ios_datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *ios_home_dir(void) {
  static char home[4096];
  struct stat st;
  char probe[4200];
  const char *env = getenv("IOSIM_HOME");
  if (env != NULL && env[0] != '\0') {
    snprintf(home, sizeof home, "%s", env);
    return home;
  }
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return NULL;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (slash == NULL) return NULL;
  *slash = '\0'; /* the executable's directory */
  const char *const up[] = {"/..", "/../share/iosim"};
  for (int i = 0; i < 2; i++) { /* a path that does not fit is not probed (never a truncated one) */
    int len = snprintf(home, sizeof home, "%s%s", exe, up[i]);
    if (len < 0 || (size_t)len >= sizeof home) continue;
    len = snprintf(probe, sizeof probe, "%s/deploy/default.json", home);
    if (len < 0 || (size_t)len >= sizeof probe) continue;
    if (stat(probe, &st) == 0) return home;
  }
  return NULL;
}

/* HOME/rel as a canonical path into out (PATH_MAX bytes) when it is a directory. */
static int home_child(const char *home, const char *rel, char *out) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", home, rel);
  return is_dir(path) && realpath(path, out) != NULL;
}

const char *ios_data_dir(ios_data_origin_t *origin) {
  static char dir[PATH_MAX];
  ios_data_origin_t o = IOS_DATA_NONE;
  const char *env = getenv("IOSIM_DATA_DIR");
  const char *home = ios_home_dir();
  if (env != NULL && env[0] != '\0') {
    snprintf(dir, sizeof dir, "%s", env);
    o = IOS_DATA_ENV;
  } else if (home != NULL && home_child(home, "../shared/datasets", dir)) {
    o = IOS_DATA_SHARED;
  } else if (home != NULL && home_child(home, IOS_DATA_FETCHED, dir)) {
    o = IOS_DATA_FETCHED_DIR;
  }
  if (origin != NULL) *origin = o;
  return o == IOS_DATA_NONE ? NULL : dir;
}

const char *ios_data_dir_describe(char *buf, size_t n) {
  ios_data_origin_t o;
  const char *dir = ios_data_dir(&o);
  const char *home = ios_home_dir();
  if (n == 0) return buf;
  switch (o) {
  case IOS_DATA_ENV:
    snprintf(buf, n, "the datasets folder is %s ($IOSIM_DATA_DIR)", dir);
    break;
  case IOS_DATA_SHARED:
    snprintf(buf, n, "the datasets folder is %s (../shared/datasets beside iosim's home %s)", dir, home);
    break;
  case IOS_DATA_FETCHED_DIR:
    snprintf(buf, n, "the datasets folder is %s (the data step's folder in iosim's home %s)", dir, home);
    break;
  default:
    if (home != NULL)
      snprintf(
          buf, n,
          "no datasets folder: IOSIM_DATA_DIR is not set, and neither %s/../shared/datasets nor %s/" IOS_DATA_FETCHED
          " exists",
          home, home);
    else
      snprintf(buf, n,
               "no datasets folder: IOSIM_DATA_DIR is not set, and iosim's home (the folder holding "
               "deploy/default.json) was not found beside the executable (set IOSIM_HOME)");
  }
  return buf;
}
