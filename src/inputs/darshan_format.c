/* iosim — Darshan logs, the top of the reader: header, job, executable, mount table and name records (see
 * ios_darshan.h; the layout follows darshan-logutils.c and include/darshan-log-format.h of darshan-hpc/darshan). It
 * calls darshan_records.c for the module records and darshan_region.c for the regions; neither calls it back. */
#include "darshan_records.h"
#include "darshan_region.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_fs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DZ_MAGIC 6567223

/* ---------------------------------------------------------------- header */

/* Darshan's module numbering (darshan_module_id of include/darshan-log-format.h, format 3.41), for warnings. */
static const char *const module_ids[] = {"NULL",        "POSIX", "MPI-IO", "H5F",     "H5D",       "PNETCDF_FILE",
                                         "PNETCDF_VAR", "BG/Q",  "LUSTRE", "STDIO",   "DXT_POSIX", "DXT_MPIIO",
                                         "MDHIM",       "APXC",  "APMPI",  "HEATMAP", "DFS",       "DAOS"};

const char *ios_darshan_module_name(int id) {
  return id >= 0 && id < (int)(sizeof module_ids / sizeof *module_ids) ? module_ids[id] : NULL;
}

/* The module id (format 3.41's numbering) of header slot `slot` in format 3.`minor`: H5D was inserted at 4 in 3.20
 * and PNETCDF_VAR at 6 in 3.41, shifting the modules after them (darshan-logutils.c does the same shift). */
static int module_id(int minor, int slot) {
  int id = slot + (minor < 20 && slot >= 4);
  return id + (minor < 41 && id >= 6);
}

/* The slot of each known module in the header's module map, per format version (-1: the format has none): the
 * inverse of module_id. DFS and DAOS (Darshan 3.4.7) exist in format 3.41 only. */
static void module_slots(int minor, int slot[DZ_NKNOWN]) {
  int shift = (minor >= 20) + (minor >= 41);
  slot[DZ_POSIX] = 1;
  slot[DZ_MPIIO] = 2;
  slot[DZ_LUSTRE] = 6 + shift;
  slot[DZ_STDIO] = 7 + shift;
  slot[DZ_DXT_POSIX] = 8 + shift;
  slot[DZ_DXT_MPIIO] = 9 + shift;
  slot[DZ_DFS] = minor >= 41 ? 16 : -1;
  slot[DZ_DAOS] = minor >= 41 ? 17 : -1;
}

/* Reads the version string: "3.MM" then NUL bytes. */
static int read_version(dz_src_t *s, char version[8]) {
  const unsigned char *d = s->data;
  if (s->len < 8 || d[0] < '0' || d[0] > '9' || d[1] != '.' || d[2] < '0' || d[2] > '9' || d[3] < '0' || d[3] > '9' ||
      d[4] != '\0') {
    ios_diag_set(s->label, "header",
                 "does not start with a Darshan format version such as \"3.10\": not a Darshan log; give a .darshan "
                 "file written by Darshan 3.0 or later");
    return IOS_EINVAL;
  }
  memcpy(version, d, 5);
  version[5] = version[6] = version[7] = '\0';
  int minor = (d[2] - '0') * 10 + (d[3] - '0');
  if (d[0] != '3' || (minor != 0 && minor != 10 && minor != 20 && minor != 21 && minor != 41)) {
    ios_diag_set(s->label, "header",
                 "Darshan format version %s is not one iosim reads (3.00, 3.10, 3.20, 3.21, 3.41, those of Darshan "
                 "3.0 to 3.5): give a log written by Darshan 3.0 or later (Darshan 2's logs have another format)",
                 version);
    return IOS_EINVAL;
  }
  s->minor = minor;
  return IOS_OK;
}

/* A region map entry must lie inside the file, after the header. */
static int check_map(const dz_src_t *s, uint64_t off, uint64_t len, size_t header, const char *what) {
  if (len == 0) return IOS_OK;
  if (off < header || off > s->len || len > s->len - off) {
    ios_diag_set(s->label, what,
                 "the header places it at bytes [%llu, %llu) but the file has %zu bytes (after a %zu-byte header): "
                 "the log is truncated or corrupt; give a complete log",
                 (unsigned long long)off, (unsigned long long)off + (unsigned long long)len, s->len, header);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Reads the uncompressed header: byte order, compression, partial flags and every region's place. */
static int read_header(dz_src_t *s, ios_darshan_log_t *log) {
  if (read_version(s, log->version) != IOS_OK) return IOS_EINVAL;
  /* 64 module slots and a 64-bit partial flag since 3.41, 16 and 32-bit before: 3.00 to 3.21 share one header
   * layout (darshan-logutils.c reads them all through the structure of 3.00) */
  int wide = s->minor >= 41;
  size_t nslots = wide ? 64 : 16, header = wide ? 1328 : 360;
  size_t o_partial = wide ? 24 : 20, o_name = wide ? 32 : 24, o_map = o_name + 16, o_ver = o_map + 16 * nslots;
  if (s->len < header) {
    ios_diag_set(s->label, "header",
                 "the file has %zu bytes, fewer than the %zu-byte header of format %s: the log is "
                 "truncated; give a complete log",
                 s->len, header, log->version);
    return IOS_EINVAL;
  }
  s->swap = 0;
  if (dz_u64(s, s->data + 8) != DZ_MAGIC) {
    s->swap = 1;
    if (dz_u64(s, s->data + 8) != DZ_MAGIC) {
      ios_diag_set(s->label, "header",
                   "bad magic number (not %d in either byte order): not a Darshan log or a "
                   "corrupt one; give a .darshan file",
                   DZ_MAGIC);
      return IOS_EINVAL;
    }
  }
  s->comp = s->data[16];
  if (s->comp > 2) {
    ios_diag_set(s->label, "header", "compression type %d is unknown (0 zlib, 1 bzip2, 2 none): the log is corrupt",
                 s->comp);
    return IOS_EINVAL;
  }
  s->name_off = dz_u64(s, s->data + o_name);
  s->name_len = dz_u64(s, s->data + o_name + 8);
  if (check_map(s, s->name_off, s->name_len, header, "name records") != IOS_OK) return IOS_EINVAL;
  uint64_t first = s->name_len > 0 ? s->name_off : 0;
  for (size_t i = 0; i < nslots; i++) {
    uint64_t off = dz_u64(s, s->data + o_map + 16 * i), len = dz_u64(s, s->data + o_map + 16 * i + 8);
    char what[48];
    snprintf(what, sizeof what, "header, module slot %zu", i);
    if (check_map(s, off, len, header, what) != IOS_OK) return IOS_EINVAL;
    if (len > 0 && (first == 0 || off < first)) first = off;
  }
  uint64_t partial = wide ? dz_u64(s, s->data + o_partial) : dz_u32(s, s->data + o_partial);
  for (size_t i = 0; i < nslots; i++)
    if ((partial >> i) & 1) {
      int id = module_id(s->minor, (int)i);
      if (id < 64) log->partial_modules |= (uint64_t)1 << id;
    }
  int slot[DZ_NKNOWN];
  module_slots(s->minor, slot);
  for (int m = 0; m < DZ_NKNOWN; m++) {
    if (slot[m] < 0) continue;
    s->mod_off[m] = dz_u64(s, s->data + o_map + 16 * (size_t)slot[m]);
    s->mod_len[m] = dz_u64(s, s->data + o_map + 16 * (size_t)slot[m] + 8);
    s->mod_ver[m] = dz_u32(s, s->data + o_ver + 4 * (size_t)slot[m]);
    s->mod_partial[m] = (partial >> slot[m]) & 1;
  }
  /* the job region runs from the header to the next region (the name records when present) */
  s->job_off = header;
  s->job_len = (first != 0 ? first : s->len) - header;
  if (s->job_len == 0) {
    ios_diag_set(s->label, "job", "the log has no job region after its header: it is truncated; give a complete log");
    return IOS_EINVAL;
  }
  log->compression = s->comp;
  log->byteswap = s->swap;
  return IOS_OK;
}

/* ---------------------------------------------------------------- job, executable, mounts, names */

/* Copies the NUL- or end-bounded text [p, end) into a new string. */
static char *dup_text(const unsigned char *p, const unsigned char *end) {
  size_t n = 0;
  while (p + n < end && p[n] != '\0')
    n++;
  char *t = malloc(n + 1);
  if (t != NULL) {
    memcpy(t, p, n);
    t[n] = '\0';
  }
  return t;
}

/* The mount table after the executable: lines "TYPE\tPATH". */
static int read_mounts(const dz_src_t *s, const char *text, ios_darshan_log_t *log) {
  int n = 0;
  for (const char *c = text; *c != '\0'; c++)
    n += *c == '\n';
  log->mounts = n > 0 ? calloc((size_t)n, sizeof *log->mounts) : NULL;
  if (n > 0 && log->mounts == NULL) return IOS_ENOMEM;
  for (const char *line = strchr(text, '\n'); line != NULL; line = strchr(line + 1, '\n')) {
    const char *end = strchr(line + 1, '\n'), *tab = strchr(line + 1, '\t');
    if (end == NULL) end = line + 1 + strlen(line + 1);
    if (end == line + 1) continue; /* an empty line */
    if (tab == NULL || tab > end) {
      ios_diag_set(s->label, "job, mount table",
                   "entry %d is not \"TYPE<tab>PATH\": the log is corrupt; give a complete log", log->nmounts + 1);
      return IOS_EINVAL;
    }
    ios_darshan_mount_t *m = &log->mounts[log->nmounts++];
    m->type = strndup(line + 1, (size_t)(tab - line - 1));
    m->path = strndup(tab + 1, (size_t)(end - tab - 1));
    if (m->type == NULL || m->path == NULL) return IOS_ENOMEM;
  }
  return IOS_OK;
}

/* The job region: the job record (uid, start, end, nprocs, job id, metadata; since 3.41 with nanoseconds), then the
 * executable line and the mount table. */
static int read_job(const dz_src_t *s, ios_darshan_log_t *log) {
  dz_buf_t b;
  int rc = dz_region(s, s->job_off, s->job_len, "job", &b);
  if (rc != IOS_OK) return rc;
  size_t fixed = s->minor >= 41 ? 7 * 8 : 5 * 8, record = fixed + 1024;
  if (b.len < record) {
    free(b.data);
    ios_diag_set(s->label, "job",
                 "holds %zu bytes once decompressed, fewer than the %zu-byte job record: the log is "
                 "truncated or corrupt; give a complete log",
                 b.len, record);
    return IOS_EINVAL;
  }
  const unsigned char *p = b.data;
  log->uid = dz_i64(s, p);
  double start_ns = 0, end_ns = 0;
  if (s->minor >= 41) {
    log->start_time = (double)dz_i64(s, p + 8);
    start_ns = (double)dz_i64(s, p + 16);
    log->end_time = (double)dz_i64(s, p + 24);
    end_ns = (double)dz_i64(s, p + 32);
    log->nprocs = dz_i64(s, p + 40);
    log->jobid = dz_i64(s, p + 48);
  } else {
    log->start_time = (double)dz_i64(s, p + 8);
    log->end_time = (double)dz_i64(s, p + 16);
    log->nprocs = dz_i64(s, p + 24);
    log->jobid = dz_i64(s, p + 32);
  }
  log->runtime = (log->end_time + end_ns / 1e9) - (log->start_time + start_ns / 1e9) + (s->minor >= 41 ? 0 : 1);
  log->start_time += start_ns / 1e9;
  log->end_time += end_ns / 1e9;
  if (log->nprocs < 1 || log->nprocs > 100000000 || !(log->runtime >= 0) || log->runtime > 1e9) {
    free(b.data);
    ios_diag_set(s->label, "job",
                 "nprocs = %lld and run time %g s: not a job (1..1e8 processes, 0..1e9 s); the log "
                 "is corrupt",
                 (long long)log->nprocs, log->runtime);
    return IOS_EINVAL;
  }
  log->metadata = dup_text(p + fixed, p + record);
  char *trailing = dup_text(p + record, b.data + b.len);
  free(b.data);
  if (log->metadata == NULL || trailing == NULL) {
    free(trailing);
    return IOS_ENOMEM;
  }
  char *nl = strchr(trailing, '\n');
  log->exe = strndup(trailing, nl != NULL ? (size_t)(nl - trailing) : strlen(trailing));
  rc = log->exe == NULL ? IOS_ENOMEM : read_mounts(s, trailing, log);
  free(trailing);
  return rc;
}

/* The name records: (record id, NUL-terminated path) pairs; in format 3.00, (record id, 32-bit path length, path
 * without NUL) (darshan-logutils.c, darshan_log_get_namerecs_3_00). Only counted and checked: records are matched by
 * id. */
static int read_names(const dz_src_t *s, ios_darshan_log_t *log) {
  dz_buf_t b;
  int rc = dz_region(s, s->name_off, s->name_len, "name records", &b);
  if (rc != IOS_OK) return rc;
  size_t pos = 0;
  while (pos < b.len) {
    size_t next = 0;
    if (s->minor == 0) {
      uint64_t n = b.len - pos >= 12 ? dz_u32(s, b.data + pos + 8) : 0;
      if (b.len - pos >= 12 && n <= b.len - pos - 12) next = pos + 12 + (size_t)n;
    } else {
      const unsigned char *nul = b.len - pos > 8 ? memchr(b.data + pos + 8, '\0', b.len - pos - 8) : NULL;
      if (nul != NULL) next = (size_t)(nul - b.data) + 1;
    }
    if (next == 0) {
      free(b.data);
      ios_diag_set(s->label, "name records",
                   "record %d is cut short (%s): the log is truncated or corrupt; give a complete log", log->nnames + 1,
                   s->minor == 0 ? "its path runs past the region" : "no terminating NUL");
      return IOS_EINVAL;
    }
    pos = next;
    log->nnames++;
  }
  free(b.data);
  return IOS_OK;
}

void ios_darshan_free(ios_darshan_log_t *log) {
  if (log == NULL) return;
  free(log->exe);
  free(log->metadata);
  for (int i = 0; i < log->nmounts; i++) {
    free(log->mounts[i].path);
    free(log->mounts[i].type);
  }
  free(log->mounts);
  for (int i = 0; i < log->nfiles; i++)
    free(log->files[i].osts);
  free(log->files);
  free(log->segments);
  memset(log, 0, sizeof *log);
}

int ios_darshan_parse(const unsigned char *data, size_t len, const char *label, ios_darshan_log_t *out) {
  dz_src_t s;
  memset(&s, 0, sizeof s);
  s.label = label;
  s.data = data;
  s.len = len;
  ios_darshan_log_t log;
  memset(&log, 0, sizeof log);
  log.dxt_module = -1;
  int rc = read_header(&s, &log);
  if (rc == IOS_OK) rc = read_job(&s, &log);
  if (rc == IOS_OK) rc = read_names(&s, &log);
  if (rc == IOS_OK) rc = dz_read_modules(&s, &log);
  if (rc != IOS_OK) {
    ios_darshan_free(&log);
    return rc;
  }
  *out = log;
  return IOS_OK;
}

int ios_darshan_read(const char *path, ios_darshan_log_t *out) {
  long len = 0;
  char *data = ios_read_file(path, &len);
  if (data == NULL) {
    ios_diag_set(path, "workload.darshan", "cannot read the Darshan log (%s): check the path", strerror(errno));
    return IOS_EIO;
  }
  int rc = ios_darshan_parse((const unsigned char *)data, (size_t)len, path, out);
  free(data);
  return rc;
}
