/* iosim — files: the one atomic writer, the whole-file reader and mkdir -p (see ios_fs.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "ios_fs.h"
#include "ios_diag.h"
#include "ios_errors.h"

#include <errno.h>
#include <stdio.h>
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
  ios_fs_staged_t st_file;
  int rc = ios_fs_stage(&st_file, NULL, path, NULL);
  if (rc != IOS_OK) return rc;
  rc = fn(st_file.f, ctx);
  if (rc == IOS_OK && (fflush(st_file.f) != 0 || fsync(fileno(st_file.f)) != 0)) rc = IOS_EIO;
  if (rc != IOS_OK) {
    if (rc == IOS_EIO)
      ios_diag_set(path, NULL, "cannot write it (%s): check the disk space and permissions", strerror(errno));
    ios_fs_discard(&st_file);
    return rc;
  }
  return ios_fs_commit(&st_file);
}

int ios_fs_stage(ios_fs_staged_t *s, const char *dir, const char *name, const char *field) {
  if (dir != NULL)
    snprintf(s->path, sizeof s->path, "%s/%s", dir, name);
  else
    snprintf(s->path, sizeof s->path, "%s", name);
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
    snprintf(s->tmp, sizeof s->tmp, "%s.tmp%ld-%d", s->path, (long)getpid(), attempt);
    fd = open(s->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  s->f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (s->f == NULL) {
    ios_diag_set(s->path, field,
                 "cannot create a file next to it (%s): check that the directory exists and is writable",
                 strerror(errno));
    if (fd >= 0) {
      close(fd);
      unlink(s->tmp);
    }
    return IOS_EIO;
  }
  return IOS_OK;
}

int ios_fs_commit(ios_fs_staged_t *s) {
  if (s->f == NULL) return IOS_OK;
  int bad = ferror(s->f);
  bad |= fclose(s->f) != 0;
  s->f = NULL;
  if (bad || rename(s->tmp, s->path) != 0) {
    ios_diag_set(s->path, NULL, "cannot write it (%s): check the disk space and permissions", strerror(errno));
    unlink(s->tmp);
    return IOS_EIO;
  }
  return IOS_OK;
}

void ios_fs_discard(ios_fs_staged_t *s) {
  if (s->f == NULL) return;
  fclose(s->f);
  s->f = NULL;
  unlink(s->tmp);
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

const char *ios_fs_display_path(const char *path, char *buf, size_t n) {
  char *real = realpath(path, NULL), cwd[4096];
  const char *shown = real != NULL ? real : path;
  size_t lc = getcwd(cwd, sizeof cwd) != NULL ? strlen(cwd) : 0;
  if (real != NULL && lc > 0 && strncmp(real, cwd, lc) == 0 && real[lc] == '/') shown = real + lc + 1;
  snprintf(buf, n, "%s", shown);
  free(real);
  return buf;
}

/* Largest input file read into memory (scenarios, campaigns, JSON workloads). */
#define READ_MAX ((long)1 << 28)

FILE *ios_open_input(const char *path) {
  FILE *f = fopen(path, "rb");
  struct stat st;
  if (f != NULL && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    errno = EISDIR;
    return NULL;
  }
  return f;
}

char *ios_read_file(const char *path, long *len_out) {
  FILE *f = ios_open_input(path);
  if (f == NULL) return NULL;
  char *buf = NULL;
  long len = 0, cap = 0;
  int err = 0;
  for (;;) { /* read until EOF: also works for pipes and devices, whose size is unknown */
    if (len + 1 >= cap) {
      long ncap = cap ? 2 * cap : 65536;
      char *nb = ncap <= READ_MAX + 1 ? realloc(buf, (size_t)ncap) : NULL;
      if (nb == NULL) {
        err = ncap <= READ_MAX + 1 ? ENOMEM : EFBIG;
        break;
      }
      buf = nb;
      cap = ncap;
    }
    size_t got = fread(buf + len, 1, (size_t)(cap - 1 - len), f);
    len += (long)got;
    if (got == 0) {
      if (ferror(f)) err = errno != 0 ? errno : EIO;
      break;
    }
  }
  fclose(f);
  if (err != 0) {
    free(buf);
    errno = err;
    return NULL;
  }
  buf[len] = '\0';
  if (len_out != NULL) *len_out = len;
  return buf;
}
