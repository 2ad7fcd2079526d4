/* iosim — a campaign's output directory: its path, its lock, the name check and the file helpers (see ios_outdir.h).
 */
#define _GNU_SOURCE
#include "ios_outdir.h"
#include "ios_errors.h"
#include "ios_fs.h"
#include "ios_scenario.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb;
  (void)flag;
  (void)ftw;
  return remove(path);
}

void ios_outdir_remove(const char *path) {
  nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int ios_outdir_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

char *ios_outdir_absolute(const char *path) {
  if (path[0] == '/') return strdup(path);
  char cwd[IOS_OUTDIR_PATH_MAX];
  if (getcwd(cwd, sizeof cwd) == NULL) return strdup(path);
  size_t n = strlen(cwd) + strlen(path) + 2;
  char *a = malloc(n);
  if (a != NULL) snprintf(a, n, "%s/%s", cwd, path);
  return a;
}

static int put_text(FILE *f, void *text) {
  return fputs(text, f) < 0 ? IOS_EIO : IOS_OK;
}

int ios_outdir_write_text(const char *path, const char *text) {
  return ios_fs_write_atomic(path, put_text, (void *)text) == IOS_OK ? 0 : -1;
}

int ios_outdir_write_json(const char *path, const cJSON *j) {
  char *text = cJSON_Print(j);
  int rc = text != NULL ? ios_outdir_write_text(path, text) : -1;
  free(text);
  return rc;
}

cJSON *ios_outdir_read_json(const char *path) {
  char *text = ios_read_file(path, NULL);
  cJSON *j = text != NULL ? cJSON_Parse(text) : NULL;
  free(text);
  return j;
}

int ios_outdir_write_records(const char *out, const cJSON *record, const cJSON *campaign) {
  char path[2 * IOS_OUTDIR_PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/sweep.json", out);
  int rc = ios_outdir_write_json(path, record);
  snprintf(path, sizeof path, "%s/campaign.json", out);
  return rc == 0 ? ios_outdir_write_json(path, campaign) : rc;
}

char *ios_outdir_default(const ios_campaign_t *c) {
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(c->campaign, "name");
  char stem[256];
  if (cJSON_IsString(name) && name->valuestring[0] != '\0' && strchr(name->valuestring, '/') == NULL)
    snprintf(stem, sizeof stem, "%s", name->valuestring);
  else {
    const char *b = strrchr(c->file, '/');
    snprintf(stem, sizeof stem, "%s", b != NULL ? b + 1 : c->file);
    char *dot = strrchr(stem, '.');
    if (dot != NULL && dot != stem) *dot = '\0';
  }
  char rel[300];
  snprintf(rel, sizeof rel, "results/%s", stem);
  return ios_outdir_absolute(rel);
}

void ios_outdir_slug(char *out, size_t n, const char *s) {
  size_t k = 0;
  for (; *s && k + 1 < n; s++)
    out[k++] = (isalnum((unsigned char)*s) || *s == '.' || *s == '_' || *s == '-') ? *s : '_';
  out[k] = '\0';
}

int ios_outdir_check_name(const ios_campaign_t *c) {
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(c->campaign, "name");
  if (!cJSON_IsString(name)) return 0;
  const char *v = name->valuestring;
  int bad = v[0] == '\0' || strcmp(v, ".") == 0 || strcmp(v, "..") == 0 || strchr(v, '/') != NULL || v[0] == '-' ||
            strlen(v) > 200;
  for (const char *q = v; *q && !bad; q++)
    bad = (unsigned char)*q < 0x20 || *q == 0x7f;
  if (!bad) return 0;
  char shown[64];
  ios_outdir_slug(shown, sizeof shown, v);
  fprintf(stderr,
          "iosim: error: %s: name: '%s' (shown with '_' for unsafe characters) is not one safe path component (the "
          "name is the output directory results/NAME): use up to 200 letters, digits, '-', '_' or '.', not '.' or "
          "'..', without '/', control characters or a leading '-'\n",
          c->file, shown);
  return 2;
}

int ios_outdir_lock(const char *out, const char *cmd) {
  struct stat st;
  if (stat(out, &st) == 0 && !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "iosim: error: %s: --out names a file, not a directory: give a directory for the outputs\n", out);
    return -1;
  }
  if (ios_mkdirs(out) != 0) {
    fprintf(stderr, "iosim: error: %s: cannot create (%s): choose a writable --out\n", out, strerror(errno));
    return -1;
  }
  char path[IOS_OUTDIR_PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/.lock", out);
  int lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (lock < 0) {
    fprintf(stderr, "iosim: error: %s: cannot create (%s): choose a writable --out\n", path, strerror(errno));
    return -1;
  }
  if (flock(lock, LOCK_EX | LOCK_NB) != 0) {
    fprintf(stderr,
            "iosim: error: %s: an iosim sweep is running in this directory (it holds %s): wait for it to end, or give "
            "iosim %s another --out\n",
            out, path, cmd);
    close(lock);
    return -1;
  }
  return lock;
}
