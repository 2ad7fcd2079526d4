/* iosim — files: the one atomic writer and mkdir -p (see ios_fs.h). */
#include "ios_fs.h"
#include "ios_diag.h"
#include "ios_errors.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ios_fs_write_atomic(const char *path, ios_fs_writer_t fn, void *ctx) {
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

int ios_mkdirs(const char *dir) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", dir);
  for (char *s = buf + 1; *s; s++)
    if (*s == '/') {
      *s = '\0';
      if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
      *s = '/';
    }
  return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}
