/* iosim — Darshan logs, the bottom layer of the reader: the log's byte order and its compressed regions (zlib,
 * bzip2 or none), as darshan-logutils.c of darshan-hpc/darshan describes them (see ios_darshan.h). darshan_records.c
 * and darshan_format.c read through it; it calls neither. */
#include "darshan_region.h"
#include "ios_diag.h"
#include "ios_errors.h"

#include <bzlib.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Largest decompressed region: a zlib stream expands at most ~1000 times, so a 256 MiB log could otherwise ask for
 * 256 GiB. */
#define DZ_REGION_MAX ((size_t)1 << 28)

const char *const dz_module_names[DZ_NKNOWN] = {"POSIX module",     "MPI-IO module",    "STDIO module", "LUSTRE module",
                                                "DXT_POSIX module", "DXT_MPIIO module", "DFS module",   "DAOS module"};

uint64_t dz_u64(const dz_src_t *s, const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)p[s->swap ? 7 - i : i] << (8 * i);
  return v;
}

uint32_t dz_u32(const dz_src_t *s, const unsigned char *p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++)
    v |= (uint32_t)p[s->swap ? 3 - i : i] << (8 * i);
  return v;
}

int64_t dz_i64(const dz_src_t *s, const unsigned char *p) {
  uint64_t u = dz_u64(s, p);
  int64_t v;
  memcpy(&v, &u, sizeof v);
  return v;
}

double dz_f64(const dz_src_t *s, const unsigned char *p) {
  uint64_t u = dz_u64(s, p);
  double v;
  memcpy(&v, &u, sizeof v);
  return v;
}

/* Appends room to a growing output buffer; IOS_EINVAL past DZ_REGION_MAX. */
static int grow(dz_buf_t *b, size_t *cap, const dz_src_t *s, const char *what) {
  if (*cap >= DZ_REGION_MAX) {
    ios_diag_set(s->label, what, "decompresses to more than %zu MiB: the log is corrupt (or not one iosim can hold)",
                 DZ_REGION_MAX >> 20);
    return IOS_EINVAL;
  }
  size_t ncap = *cap ? 2 * *cap : 65536;
  unsigned char *d = realloc(b->data, ncap);
  if (d == NULL) return IOS_ENOMEM;
  b->data = d;
  *cap = ncap;
  return IOS_OK;
}

static int corrupt(const dz_src_t *s, const char *what, const char *why) {
  ios_diag_set(s->label, what,
               "%s: the log is truncated or corrupt (darshan-parser cannot read it either); give a complete log", why);
  return IOS_EINVAL;
}

/* zlib: the region holds one or more complete zlib streams back to back. */
static int inflate_region(const dz_src_t *s, const unsigned char *in, size_t inlen, const char *what, dz_buf_t *out) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit(&z) != Z_OK) return IOS_ENOMEM;
  size_t cap = 0;
  int rc = IOS_OK;
  z.next_in = (unsigned char *)in;
  while (rc == IOS_OK) {
    size_t left = inlen - (size_t)(z.next_in - in);
    z.avail_in = left > UINT_MAX ? UINT_MAX : (unsigned)left;
    if (out->len == cap && (rc = grow(out, &cap, s, what)) != IOS_OK) break;
    size_t room = cap - out->len;
    z.next_out = out->data + out->len;
    z.avail_out = room > UINT_MAX ? UINT_MAX : (unsigned)room;
    unsigned before = z.avail_out;
    int zr = inflate(&z, Z_NO_FLUSH);
    out->len += before - z.avail_out;
    if (zr == Z_STREAM_END) {
      if ((size_t)(z.next_in - in) == inlen) break; /* the last stream */
      inflateReset(&z);
    } else if (zr == Z_BUF_ERROR && z.avail_out > 0) {
      rc = corrupt(s, what, "the compressed data ends in the middle of a stream");
    } else if (zr != Z_OK && zr != Z_BUF_ERROR) {
      rc = zr == Z_MEM_ERROR ? IOS_ENOMEM : corrupt(s, what, "the zlib data is invalid");
    }
  }
  inflateEnd(&z);
  return rc;
}

/* bzip2: likewise, one or more bzip2 streams. */
static int bunzip_region(const dz_src_t *s, const unsigned char *in, size_t inlen, const char *what, dz_buf_t *out) {
  bz_stream z;
  memset(&z, 0, sizeof z);
  if (BZ2_bzDecompressInit(&z, 0, 0) != BZ_OK) return IOS_ENOMEM;
  size_t cap = 0, used = 0;
  int rc = IOS_OK;
  while (rc == IOS_OK) {
    size_t left = inlen - used;
    z.next_in = (char *)(in + used);
    z.avail_in = left > UINT_MAX ? UINT_MAX : (unsigned)left;
    if (out->len == cap && (rc = grow(out, &cap, s, what)) != IOS_OK) break;
    size_t room = cap - out->len;
    z.next_out = (char *)(out->data + out->len);
    z.avail_out = room > UINT_MAX ? UINT_MAX : (unsigned)room;
    unsigned before_out = z.avail_out, before_in = z.avail_in;
    int br = BZ2_bzDecompress(&z);
    out->len += before_out - z.avail_out;
    used += before_in - z.avail_in;
    if (br == BZ_STREAM_END) {
      if (used == inlen) break;
      BZ2_bzDecompressEnd(&z);
      memset(&z, 0, sizeof z);
      if (BZ2_bzDecompressInit(&z, 0, 0) != BZ_OK) return IOS_ENOMEM;
    } else if (br != BZ_OK) {
      rc = br == BZ_MEM_ERROR ? IOS_ENOMEM : corrupt(s, what, "the bzip2 data is invalid");
    } else if (used == inlen && z.avail_out > 0) {
      rc = corrupt(s, what, "the compressed data ends in the middle of a stream");
    }
  }
  BZ2_bzDecompressEnd(&z);
  return rc;
}

int dz_region(const dz_src_t *s, uint64_t off, uint64_t len, const char *what, dz_buf_t *out) {
  out->data = NULL;
  out->len = 0;
  if (len == 0) return IOS_OK;
  const unsigned char *in = s->data + off; /* the header check made off + len <= s->len */
  int rc;
  if (s->comp == 2) {
    out->data = malloc((size_t)len);
    if (out->data == NULL) return IOS_ENOMEM;
    memcpy(out->data, in, (size_t)len);
    out->len = (size_t)len;
    rc = IOS_OK;
  } else {
    rc = s->comp == 0 ? inflate_region(s, in, (size_t)len, what, out) : bunzip_region(s, in, (size_t)len, what, out);
  }
  if (rc != IOS_OK) {
    free(out->data);
    out->data = NULL;
    out->len = 0;
  }
  return rc;
}
