/* iosim — the bottom layer of the Darshan reader (darshan_region.c): the log being read, its byte order and its
 * compressed regions. darshan_records.c (module records) and darshan_format.c (header, job, names) sit on it, in that
 * order: format -> records -> region, never back. Not a public header. */
#ifndef IOS_DARSHAN_REGION_H
#define IOS_DARSHAN_REGION_H

#include "ios_darshan.h"

#include <stddef.h>
#include <stdint.h>

/** The modules the reader knows, whatever their slot in a given format version. */
enum { DZ_POSIX, DZ_MPIIO, DZ_STDIO, DZ_LUSTRE, DZ_DXT_POSIX, DZ_DXT_MPIIO, DZ_DFS, DZ_DAOS, DZ_NKNOWN };

/** A decompressed region. */
typedef struct {
  unsigned char *data; /**< owned */
  size_t len;
} dz_buf_t;

/** The log being read. */
typedef struct {
  const char *label;         /**< the file, in messages */
  const unsigned char *data; /**< the whole log */
  size_t len;
  int swap;  /**< integers are in the other byte order */
  int minor; /**< 0, 10, 20, 21 or 41 */
  int comp;  /**< 0 zlib, 1 bzip2, 2 none */
  uint64_t job_off, job_len, name_off, name_len;
  uint64_t mod_off[DZ_NKNOWN], mod_len[DZ_NKNOWN]; /**< where each known module's region is (len 0: absent) */
  uint32_t mod_ver[DZ_NKNOWN];
  int mod_partial[DZ_NKNOWN]; /**< the header flags the module incomplete */
} dz_src_t;

/** Region names for messages ("POSIX module", ...). */
extern const char *const dz_module_names[DZ_NKNOWN];

/** A little- or big-endian integer at p, as the log's byte order says. */
uint64_t dz_u64(const dz_src_t *s, const unsigned char *p);
uint32_t dz_u32(const dz_src_t *s, const unsigned char *p);
int64_t dz_i64(const dz_src_t *s, const unsigned char *p);
double dz_f64(const dz_src_t *s, const unsigned char *p);

/** Decompresses the region [off, off + len) into *out (empty when len is 0); `what` names it in messages.
 * @return IOS_OK, IOS_EINVAL (corrupt or truncated data, or more than 256 MiB once decompressed) or IOS_ENOMEM. */
int dz_region(const dz_src_t *s, uint64_t off, uint64_t len, const char *what, dz_buf_t *out);

#endif
