/* A plain driver for the fuzz targets when libFuzzer is not available (GCC builds): runs the target once on every
 * file given, or on every file of every directory given, and reports how many it ran. A crash, a sanitizer report or
 * a hang (ctest's timeout) fails the test. */
#include "fuzz_common.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return 0;
  size_t cap = 4096, len = 0;
  unsigned char *buf = malloc(cap);
  for (size_t got; buf != NULL && (got = fread(buf + len, 1, cap - len, f)) > 0;) {
    len += got;
    if (len == cap) {
      unsigned char *more = realloc(buf, cap *= 2);
      if (more == NULL) free(buf);
      buf = more;
    }
  }
  fclose(f);
  if (buf == NULL) return 0;
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  return 1;
}

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
  int runs = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) continue; /* a target without crashers has no crasher directory */
    if (!S_ISDIR(st.st_mode)) {
      runs += run_file(argv[i]);
      continue;
    }
    DIR *d = opendir(argv[i]);
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
      if (e->d_name[0] == '.') continue;
      char **more = realloc(names, sizeof *names * (n + 1));
      if (more == NULL) break;
      names = more;
      size_t len = strlen(argv[i]) + strlen(e->d_name) + 2;
      names[n] = malloc(len);
      if (names[n] != NULL) snprintf(names[n++], len, "%s/%s", argv[i], e->d_name);
    }
    if (d != NULL) closedir(d);
    qsort(names, n, sizeof *names, cmp); /* a stable order: the same run every time */
    for (size_t k = 0; k < n; k++) {
      runs += run_file(names[k]);
      free(names[k]);
    }
    free(names);
  }
  printf("replayed %d inputs\n", runs);
  return runs > 0 ? 0 : 1;
}
