/* iosim — the generators' schedule cache (see ios_gen.h). */
#include "ios_diag.h"
#include "ios_fs.h"
#include "ios_gen.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_MAGIC "iosim-generator-cache 1\n"

/* The file of `key` in `dir`: KIND-HASH.bin, HASH = FNV-1a 64 of the key. */
static void cache_path(char *out, size_t n, const char *dir, const char *kind, const char *key) {
  uint64_t h = 1469598103934665603ull;
  for (const unsigned char *s = (const unsigned char *)key; *s; s++)
    h = (h ^ *s) * 1099511628211ull;
  snprintf(out, n, "%s/%s-%016llx.bin", dir, kind, (unsigned long long)h);
}

int ios_gen_cache_load(const char *kind, const char *key, size_t size, void **items, int *n) {
  const char *dir = getenv("IOSIM_CACHE_DIR");
  if (dir == NULL || *dir == '\0') return 0;
  char path[4096];
  cache_path(path, sizeof path, dir, kind, key);
  FILE *f = fopen(path, "rb");
  if (f == NULL) return 0;
  size_t klen = strlen(key), mlen = strlen(CACHE_MAGIC);
  char *head = malloc(mlen + klen + 1);
  int count = 0;
  int ok = head != NULL && fread(head, 1, mlen + klen + 1, f) == mlen + klen + 1 &&
           memcmp(head, CACHE_MAGIC, mlen) == 0 && memcmp(head + mlen, key, klen + 1) == 0 &&
           fread(&count, sizeof count, 1, f) == 1 && count > 0;
  free(head);
  void *data = ok ? malloc(size * (size_t)count) : NULL;
  ok = data != NULL && fread(data, size, (size_t)count, f) == (size_t)count && fgetc(f) == EOF;
  fclose(f);
  if (!ok) {
    free(data);
    return 0;
  }
  *items = data;
  *n = count;
  return 1;
}

typedef struct {
  const char *key;
  size_t size;
  const void *items;
  int n;
} entry_t;

static int write_entry(FILE *f, void *ctx) {
  const entry_t *e = ctx;
  fputs(CACHE_MAGIC, f);
  fwrite(e->key, 1, strlen(e->key) + 1, f);
  fwrite(&e->n, sizeof e->n, 1, f);
  fwrite(e->items, e->size, (size_t)e->n, f);
  return ferror(f) ? IOS_EIO : IOS_OK;
}

void ios_gen_cache_store(const char *kind, const char *key, size_t size, const void *items, int n) {
  const char *dir = getenv("IOSIM_CACHE_DIR");
  if (dir == NULL || *dir == '\0' || n <= 0) return;
  char path[4096];
  cache_path(path, sizeof path, dir, kind, key);
  entry_t e = {key, size, items, n};
  if (ios_mkdirs(dir) != 0 || ios_fs_write_atomic(path, write_entry, &e) != IOS_OK)
    fprintf(stderr, "iosim: warning: IOSIM_CACHE_DIR=%s: cannot keep the %s schedule there (%s); going on without\n",
            dir, kind, errno != 0 ? strerror(errno) : "write error");
}
