/* iosim fuzz targets — shared helpers (see fuzz_common.h). */
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The files this process wrote (one per suffix, rewritten for every input), removed when it exits: a replay or a
 * fuzzing session leaves nothing in $TMPDIR. Only by the process that wrote them (not by a forked child that exits). */
#define MAX_FILES 8
static char files[MAX_FILES][256];
static int nfiles;
static pid_t owner;

static void remove_files(void) {
  if (getpid() != owner) return;
  for (int i = 0; i < nfiles; i++)
    remove(files[i]);
}

void ios_fuzz_remove_at_exit(const char *path) {
  for (int i = 0; i < nfiles; i++)
    if (strcmp(files[i], path) == 0) return;
  if (nfiles == MAX_FILES) return;
  if (owner == 0) {
    owner = getpid();
    atexit(remove_files);
  }
  snprintf(files[nfiles++], sizeof files[0], "%s", path);
}

const char *ios_fuzz_file(const uint8_t *data, size_t size, const char *suffix) {
  static char path[256];
  const char *dir = getenv("TMPDIR");
  snprintf(path, sizeof path, "%s/iosim-fuzz-%ld%s", dir != NULL && dir[0] != '\0' ? dir : "/tmp", (long)getpid(),
           suffix);
  FILE *f = fopen(path, "wb");
  if (f == NULL) return NULL;
  ios_fuzz_remove_at_exit(path);
  size_t put = size > 0 ? fwrite(data, 1, size, f) : 0;
  if (fclose(f) != 0 || put != size) return NULL;
  return path;
}

const ios_platform_t *ios_fuzz_platform(void) {
  static ios_resource_t res[2];
  static ios_platform_t p;
  if (p.nres == 0) {
    memset(res, 0, sizeof res);
    res[0].capacity = 1e9;
    res[1].capacity = 1e9;
    memset(&p, 0, sizeof p);
    p.ncompute = 4;
    p.nres = 2;
    p.res = res;
  }
  return &p;
}
