/* iosim — Darshan logs, the module records: POSIX, MPI-IO, STDIO, DFS and DAOS counters (summed over records, with
 * darshan-parser --perf's time by the slowest rank), LUSTRE layouts and DXT traces, each in every record version the
 * supported formats hold (see ios_darshan.h; layouts from include/darshan-{posix,mpiio,stdio,dfs,daos,lustre,dxt}-
 * log-format.h of darshan-hpc/darshan, their older versions and the up-conversions of darshan-*-logutils.c). Reads
 * through darshan_region.c; called by darshan_format.c only. */
#include "darshan_records.h"
#include "darshan_region.h"
#include "ios_diag.h"
#include "ios_errors.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where the counters a record version holds are: integer counters then double counters after the 16-byte base record
 * (id, rank), then `tail` bytes this reader skips (DFS and DAOS: pool and container UUIDs, DAOS: the object id).
 * -1 = absent; operation counts are sums of several counters. */
typedef struct {
  int ncounters, nfcounters, tail;
  int opens[3], reads[4], writes[4], bytes_read, bytes_written;
  int read_start, read_end, write_start, write_end, read_time, write_time, meta_time, slowest;
} layout_t;

/* POSIX 1 (Darshan 3.0) holds four STDIO counters (FOPENS first) after its sixth counter, and 15 doubles: POSIX 2
 * (Darshan 3.1.0) dropped the four, POSIX 3 added F_CLOSE_START_TIMESTAMP and F_OPEN_END_TIMESTAMP after
 * F_WRITE_START_TIMESTAMP; POSIX 4 added FILENOS, DUPS (after OPENS) and three RENAME counters (after FDSYNCS)
 * (darshan-posix-logutils.c's up-conversion). */
static const layout_t posix_v1 = {68, 15, 0, {0, -1, -1}, {1, -1, -1, -1}, {2, -1, -1, -1}, 13, 14, 1, 3, 2, 4,
                                  6,  7,  8, 12};
static const layout_t posix_v2 = {64, 15, 0, {0, -1, -1}, {1, -1, -1, -1}, {2, -1, -1, -1}, 9, 10, 1, 3, 2, 4,
                                  6,  7,  8, 12};
static const layout_t posix_v3 = {64, 17, 0,  {0, -1, -1}, {1, -1, -1, -1}, {2, -1, -1, -1}, 9, 10, 1, 5, 2, 6,
                                  8,  9,  10, 14};
static const layout_t posix_v4 = {69, 17, 0,  {0, -1, -1}, {3, -1, -1, -1}, {4, -1, -1, -1}, 14, 15, 1, 5, 2, 6,
                                  8,  9,  10, 14};
/* MPI-IO 1-2 lack F_CLOSE_START_TIMESTAMP and F_OPEN_END_TIMESTAMP (after F_WRITE_START_TIMESTAMP) of MPI-IO 3. */
static const layout_t mpiio_v2 = {51, 15, 0, {0, 1, -1}, {2, 4, 6, 8}, {3, 5, 7, 9}, 14, 15, 1, 3, 2, 4, 6, 7, 8, 12};
static const layout_t mpiio_v3 = {51, 17, 0, {0, 1, -1}, {2, 4, 6, 8}, {3, 5, 7, 9}, 14, 15, 1, 5, 2, 6, 8, 9, 10, 14};
/* STDIO 1 lacks FDOPENS (after OPENS); both keep META, WRITE, READ times first among the doubles. */
static const layout_t stdio_v1 = {13, 15, 0, {0, -1, -1}, {1, -1, -1, -1}, {2, -1, -1, -1}, 6, 5, 6, 10, 5, 9,
                                  2,  1,  0, 12};
static const layout_t stdio_v2 = {14, 15, 0, {0, -1, -1}, {2, -1, -1, -1}, {3, -1, -1, -1}, 7, 6, 6, 10, 5, 9,
                                  2,  1,  0, 12};
/* DFS 1 (include/darshan-dfs-log-format.h): READS, READXS, WRITES, WRITEXS (non-blocking calls are counted in them
 * too); 15 doubles as MPI-IO 3's; two 16-byte UUIDs. DAOS 1 (darshan-daos-log-format.h): object, array and key-value
 * calls; likewise, then the 16-byte object id. */
static const layout_t dfs_v1 = {52, 15, 32, {0, 1, -1}, {4, 5, -1, -1}, {6, 7, -1, -1}, 14, 15, 1, 5, 2, 6,
                                8,  9,  10, 14};
static const layout_t daos_v1 = {64, 15, 48, {0, 9, 17}, {1, 10, 18, -1}, {2, 11, 19, -1}, 24, 25, 1, 5, 2, 6,
                                 8,  9,  10, 14};

/* The layout of module m at version v, or NULL when this reader does not know that version. */
static const layout_t *layout_of(int m, uint32_t v) {
  static const layout_t *const posix[] = {&posix_v1, &posix_v2, &posix_v3, &posix_v4};
  if (m == DZ_POSIX) return v >= 1 && v <= 4 ? posix[v - 1] : NULL;
  if (m == DZ_MPIIO) return v == 1 || v == 2 ? &mpiio_v2 : v == 3 ? &mpiio_v3 : NULL;
  if (m == DZ_STDIO) return v == 1 ? &stdio_v1 : v == 2 ? &stdio_v2 : NULL;
  if (m == DZ_DFS) return v == 1 ? &dfs_v1 : NULL;
  if (m == DZ_DAOS) return v == 1 ? &daos_v1 : NULL;
  return NULL;
}

static int unknown_version(const dz_src_t *s, int m, const char *known) {
  ios_diag_set(s->label, dz_module_names[m],
               "record version %u is not one iosim reads (%s): convert the log with darshan-convert from Darshan "
               "3.4 or later",
               s->mod_ver[m], known);
  return IOS_EINVAL;
}

static int cut_short(const dz_src_t *s, int m, size_t len, const char *detail) {
  ios_diag_set(s->label, dz_module_names[m],
               "%zu bytes once decompressed: %s; the log is truncated or corrupt, give a complete log", len, detail);
  return IOS_EINVAL;
}

/* (record id, bytes) of every counter record, to weigh the Lustre files; (rank, I/O time) of non-shared records. */
typedef struct {
  uint64_t id;
  double bytes;
} id_bytes_t;
typedef struct {
  int64_t rank;
  double t;
} rank_time_t;

static int cmp_id(const void *a, const void *b) {
  uint64_t x = ((const id_bytes_t *)a)->id, y = ((const id_bytes_t *)b)->id;
  return (x > y) - (x < y);
}

static int cmp_rank(const void *a, const void *b) {
  int64_t x = ((const rank_time_t *)a)->rank, y = ((const rank_time_t *)b)->rank;
  return (x > y) - (x < y);
}

static double sum_of(const dz_src_t *s, const unsigned char *c, const int *idx, int n) {
  double v = 0;
  for (int k = 0; k < n && idx[k] >= 0; k++)
    v += (double)dz_i64(s, c + 8 * (size_t)idx[k]);
  return v;
}

/* Sums module m's counter records into mod; appends (id, bytes) to ids (room for every record). */
static int read_counters(const dz_src_t *s, int m, ios_darshan_module_t *mod, id_bytes_t **ids, int *nids) {
  const layout_t *L = layout_of(m, s->mod_ver[m]);
  if (L == NULL)
    return unknown_version(s, m,
                           m == DZ_POSIX   ? "1, 2, 3, 4"
                           : m == DZ_MPIIO ? "1, 2, 3"
                           : m == DZ_STDIO ? "1, 2"
                                           : "1");
  dz_buf_t b;
  int rc = dz_region(s, s->mod_off[m], s->mod_len[m], dz_module_names[m], &b);
  if (rc != IOS_OK) return rc;
  size_t size = 16 + 8 * (size_t)(L->ncounters + L->nfcounters) + (size_t)L->tail, n = b.len / size;
  rank_time_t *unique = malloc(sizeof *unique * (n ? n : 1));
  id_bytes_t *more = realloc(*ids, sizeof **ids * ((size_t)*nids + n + 1));
  if (more != NULL) *ids = more;
  if (b.len % size != 0 || n > 50000000) rc = cut_short(s, m, b.len, "not a whole number of records");
  if (rc == IOS_OK && (unique == NULL || more == NULL)) rc = IOS_ENOMEM;
  mod->version = (int)s->mod_ver[m];
  mod->partial = s->mod_partial[m];
  mod->read_start = mod->read_end = mod->write_start = mod->write_end = -1;
  size_t nunique = 0;
  for (size_t r = 0; rc == IOS_OK && r < n; r++) {
    const unsigned char *rec = b.data + r * size, *c = rec + 16, *f = c + 8 * (size_t)L->ncounters;
    int64_t rank = dz_i64(s, rec + 8);
    /* POSIX 1 records of files also opened with fopen mix STDIO counters in: darshan-util drops them */
    if (m == DZ_POSIX && s->mod_ver[m] == 1 && dz_i64(s, c + 8 * 6) > 0) continue;
    double v[8] = {dz_f64(s, f + 8 * L->read_time),   dz_f64(s, f + 8 * L->write_time), dz_f64(s, f + 8 * L->meta_time),
                   dz_f64(s, f + 8 * L->slowest),     dz_f64(s, f + 8 * L->read_start), dz_f64(s, f + 8 * L->read_end),
                   dz_f64(s, f + 8 * L->write_start), dz_f64(s, f + 8 * L->write_end)};
    for (int k = 0; k < 8; k++)
      if (!isfinite(v[k]) || fabs(v[k]) > 1e12) {
        char what[64];
        snprintf(what, sizeof what, "record %zu holds a time of %g s", r + 1, v[k]);
        rc = cut_short(s, m, b.len, what);
      }
    if (rc != IOS_OK || rank < -1) {
      if (rc == IOS_OK) rc = cut_short(s, m, b.len, "a record has a rank below -1");
      break;
    }
    double br = (double)dz_i64(s, c + 8 * L->bytes_read), bw = (double)dz_i64(s, c + 8 * L->bytes_written);
    mod->nrecords++;
    mod->bytes_read += br;
    mod->bytes_written += bw;
    mod->reads += sum_of(s, c, L->reads, 4);
    mod->writes += sum_of(s, c, L->writes, 4);
    mod->opens += sum_of(s, c, L->opens, 3);
    mod->read_time += v[0];
    mod->write_time += v[1];
    mod->meta_time += v[2];
    if (rank < 0)
      mod->shared_slowest += v[3];
    else
      unique[nunique++] = (rank_time_t){rank, v[0] + v[1] + v[2]};
    if (br > 0) {
      mod->read_start = mod->read_start < 0 ? v[4] : fmin(mod->read_start, v[4]);
      mod->read_end = fmax(mod->read_end, v[5]);
    }
    if (bw > 0) {
      mod->write_start = mod->write_start < 0 ? v[6] : fmin(mod->write_start, v[6]);
      mod->write_end = fmax(mod->write_end, v[7]);
    }
    (*ids)[(*nids)++] = (id_bytes_t){dz_u64(s, rec), br + bw};
  }
  if (rc == IOS_OK) { /* the slowest rank over non-shared records: the largest per-rank sum */
    qsort(unique, nunique, sizeof *unique, cmp_rank);
    for (size_t i = 0; i < nunique;) {
      double t = 0;
      size_t j = i;
      for (; j < nunique && unique[j].rank == unique[i].rank; j++)
        t += unique[j].t;
      mod->unique_slowest = fmax(mod->unique_slowest, t);
      i = j;
    }
    mod->time_by_slowest = mod->unique_slowest + mod->shared_slowest;
  }
  free(unique);
  free(b.data);
  return rc;
}

/* Reads one Lustre record at b[*pos] into f. */
static int lustre_record(const dz_src_t *s, const dz_buf_t *b, size_t *pos, ios_darshan_file_t *f, int64_t *fs_osts) {
  const unsigned char *p = b->data + *pos;
  size_t left = b->len - *pos;
  int v1 = s->mod_ver[DZ_LUSTRE] == 1;
  size_t fixed = v1 ? 7 * 8 : 4 * 8;
  if (left < fixed) return cut_short(s, DZ_LUSTRE, b->len, "the last record is cut short");
  f->id = dz_u64(s, p);
  f->rank = dz_i64(s, p + 8);
  int64_t ncomps = v1 ? 1 : dz_i64(s, p + 16), nstripes = v1 ? dz_i64(s, p + 48) : dz_i64(s, p + 24);
  size_t comps = v1 ? 0 : 72 * (size_t)(ncomps >= 0 && ncomps <= 10000 ? ncomps : 0);
  if (ncomps < 0 || ncomps > 10000 || nstripes < 0 || nstripes > 10000000 ||
      left - fixed < comps + 8 * (size_t)nstripes)
    return cut_short(s, DZ_LUSTRE, b->len, "a record's component or stripe count runs past the data");
  const unsigned char *ost = p + fixed + comps;
  int64_t used = nstripes;
  if (v1) {
    f->stripe_size = dz_i64(s, p + 40);
    *fs_osts = dz_i64(s, p + 16) > *fs_osts ? dz_i64(s, p + 16) : *fs_osts;
  } else { /* components in use come first; an unused one has stripe size -1 */
    used = 0;
    f->stripe_size = ncomps > 0 ? dz_i64(s, p + fixed) : 0;
    for (int64_t k = 0; k < ncomps; k++) {
      int64_t size = dz_i64(s, p + fixed + 72 * (size_t)k), count = dz_i64(s, p + fixed + 72 * (size_t)k + 8);
      if (size == -1) break;
      if (count < 0 || count > nstripes - used)
        return cut_short(s, DZ_LUSTRE, b->len, "a component's stripe count exceeds the record's stripes");
      used += count;
    }
  }
  f->stripe_count = used;
  f->nosts = (int)used;
  f->osts = used > 0 ? malloc(sizeof *f->osts * (size_t)used) : NULL;
  if (used > 0 && f->osts == NULL) return IOS_ENOMEM;
  for (int64_t k = 0; k < used; k++)
    f->osts[k] = dz_i64(s, ost + 8 * (size_t)k);
  *pos += fixed + comps + 8 * (size_t)nstripes;
  return IOS_OK;
}

static int read_lustre(const dz_src_t *s, ios_darshan_log_t *log) {
  if (s->mod_ver[DZ_LUSTRE] != 1 && s->mod_ver[DZ_LUSTRE] != 2) return unknown_version(s, DZ_LUSTRE, "1, 2");
  dz_buf_t b;
  int rc = dz_region(s, s->mod_off[DZ_LUSTRE], s->mod_len[DZ_LUSTRE], dz_module_names[DZ_LUSTRE], &b);
  log->lustre_version = (int)s->mod_ver[DZ_LUSTRE];
  size_t pos = 0;
  int cap = 0;
  while (rc == IOS_OK && pos < b.len) {
    if (log->nfiles == cap) {
      int ncap = cap ? 2 * cap : 64;
      ios_darshan_file_t *f = realloc(log->files, sizeof *f * (size_t)ncap);
      if (f == NULL) {
        rc = IOS_ENOMEM;
        break;
      }
      log->files = f;
      cap = ncap;
    }
    ios_darshan_file_t *f = &log->files[log->nfiles];
    memset(f, 0, sizeof *f);
    rc = lustre_record(s, &b, &pos, f, &log->fs_osts);
    if (rc == IOS_OK) log->nfiles++;
  }
  free(b.data);
  return rc;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads the DXT module m (DZ_DXT_POSIX or DZ_DXT_MPIIO): per (file, rank) a 104-byte header (id, rank, shared flag,
 * host name[64], write count, read count) then its segments, writes first (offset, length, start, end; + thread id
 * in DXT POSIX 2 and DXT MPI-IO 3). */
static int read_dxt(const dz_src_t *s, int m, ios_darshan_log_t *log) {
  uint32_t v = s->mod_ver[m];
  if (v < 1 || v > (m == DZ_DXT_POSIX ? 2u : 3u)) return unknown_version(s, m, m == DZ_DXT_POSIX ? "1, 2" : "1, 2, 3");
  size_t seg = (m == DZ_DXT_POSIX ? v >= 2 : v >= 3) ? 40 : 32;
  dz_buf_t b;
  int rc = dz_region(s, s->mod_off[m], s->mod_len[m], dz_module_names[m], &b);
  size_t pos = 0, nrec = 0, cap = 0;
  char **hosts = NULL;
  int64_t *ranks = NULL;
  while (rc == IOS_OK && pos < b.len) {
    const unsigned char *p = b.data + pos;
    if (b.len - pos < 104) {
      rc = cut_short(s, m, b.len, "the last record is cut short");
      break;
    }
    int64_t nw = dz_i64(s, p + 88), nr = dz_i64(s, p + 96);
    if (nw < 0 || nr < 0 || nw > 50000000 || nr > 50000000 || (size_t)(nw + nr) > (b.len - pos - 104) / seg ||
        (size_t)log->nsegments + (size_t)(nw + nr) > 50000000) {
      rc = cut_short(s, m, b.len, "a record's segment counts run past the data");
      break;
    }
    char **h = realloc(hosts, sizeof *h * (nrec + 1));
    int64_t *rk = realloc(ranks, sizeof *rk * (nrec + 1));
    hosts = h != NULL ? h : hosts;
    ranks = rk != NULL ? rk : ranks;
    ios_darshan_segment_t *sg = realloc(log->segments, sizeof *sg * (cap + (size_t)(nw + nr) + 1));
    if (sg != NULL) log->segments = sg;
    if (h == NULL || rk == NULL || sg == NULL || (hosts[nrec] = strndup((const char *)p + 24, 64)) == NULL) {
      rc = IOS_ENOMEM;
      break;
    }
    cap += (size_t)(nw + nr);
    ranks[nrec++] = dz_i64(s, p + 8);
    for (int64_t k = 0; k < nw + nr; k++) {
      const unsigned char *q = p + 104 + seg * (size_t)k;
      ios_darshan_segment_t *o = &log->segments[log->nsegments++];
      *o = (ios_darshan_segment_t){dz_i64(s, p + 8),  k < nw,           dz_i64(s, q), dz_i64(s, q + 8),
                                   dz_f64(s, q + 16), dz_f64(s, q + 24)};
      if (!isfinite(o->start) || !isfinite(o->end) || o->end < o->start || fabs(o->end) > 1e12 || o->length < 0) {
        rc = cut_short(s, m, b.len, "a segment has a negative length or ends before it starts");
        break;
      }
    }
    pos += 104 + seg * (size_t)(nw + nr);
  }
  if (rc == IOS_OK) {
    log->dxt_module = m == DZ_DXT_POSIX ? IOS_DARSHAN_POSIX : IOS_DARSHAN_MPIIO;
    log->dxt_version = (int)v;
    log->dxt_partial = s->mod_partial[m];
    if (nrec > 0) {
      qsort(hosts, nrec, sizeof *hosts, cmp_str);
      qsort(ranks, nrec, sizeof *ranks, cmp_i64);
    }
    for (size_t i = 0; i < nrec; i++) {
      log->dxt_hosts += i == 0 || strcmp(hosts[i], hosts[i - 1]) != 0;
      log->dxt_ranks += i == 0 || ranks[i] != ranks[i - 1];
    }
  }
  for (size_t i = 0; i < nrec; i++)
    free(hosts[i]);
  free(hosts);
  free(ranks);
  free(b.data);
  return rc;
}

/* bytes of a record id in a sorted (id, bytes) list, summed over its entries. */
static double bytes_of(const id_bytes_t *ids, int n, uint64_t id) {
  id_bytes_t key = {id, 0};
  if (n == 0) return 0;
  const id_bytes_t *hit = bsearch(&key, ids, (size_t)n, sizeof *ids, cmp_id);
  if (hit == NULL) return 0;
  while (hit > ids && hit[-1].id == id)
    hit--;
  double v = 0;
  for (; hit < ids + n && hit->id == id; hit++)
    v += hit->bytes;
  return v;
}

int dz_read_modules(const dz_src_t *s, ios_darshan_log_t *log) {
  static const int counter_modules[IOS_DARSHAN_NMODULES] = {DZ_POSIX, DZ_MPIIO, DZ_STDIO, DZ_DFS, DZ_DAOS};
  id_bytes_t *ids[IOS_DARSHAN_NMODULES] = {NULL};
  int nids[IOS_DARSHAN_NMODULES] = {0}, rc = IOS_OK;
  for (int k = 0; k < IOS_DARSHAN_NMODULES && rc == IOS_OK; k++) {
    int m = counter_modules[k];
    if (s->mod_len[m] > 0) rc = read_counters(s, m, &log->module[k], &ids[k], &nids[k]);
    if (rc == IOS_OK && ids[k] != NULL) qsort(ids[k], (size_t)nids[k], sizeof *ids[k], cmp_id);
  }
  if (rc == IOS_OK && s->mod_len[DZ_LUSTRE] > 0) rc = read_lustre(s, log);
  for (int i = 0; rc == IOS_OK && i < log->nfiles; i++) {
    uint64_t id = log->files[i].id;
    log->files[i].bytes =
        fmax(bytes_of(ids[0], nids[0], id), bytes_of(ids[1], nids[1], id)) + bytes_of(ids[2], nids[2], id);
  }
  /* the lowest level traced: DXT POSIX when it holds segments, else DXT MPI-IO */
  if (rc == IOS_OK && s->mod_len[DZ_DXT_POSIX] > 0) rc = read_dxt(s, DZ_DXT_POSIX, log);
  if (rc == IOS_OK && log->nsegments == 0 && s->mod_len[DZ_DXT_MPIIO] > 0) {
    free(log->segments);
    log->segments = NULL;
    log->dxt_ranks = log->dxt_hosts = 0;
    rc = read_dxt(s, DZ_DXT_MPIIO, log);
  }
  for (int k = 0; k < IOS_DARSHAN_NMODULES; k++)
    free(ids[k]);
  return rc;
}
