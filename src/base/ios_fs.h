/* iosim — files: the one atomic writer every output goes through (platforms, workloads, campaign files, run
 * outputs) and mkdir -p. */
#ifndef IOS_FS_H
#define IOS_FS_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Writes the content to `f`. @return IOS_OK or an IOS_E* code (with ios_diag_message() set for IOS_EINVAL). */
typedef int (*ios_fs_writer_t)(FILE *f, void *ctx);

/** Writes through `fn` to `path`: standard output when path is NULL or "-"; directly into an existing non-regular
 * file (a device, a FIFO: never replaced); otherwise into an exclusive temporary file of the same directory renamed
 * over `path` on success (nothing is left behind on failure). @return IOS_OK, fn's error, or IOS_EIO/IOS_ENOMEM with
 * ios_diag_message() naming the path. */
int ios_fs_write_atomic(const char *path, ios_fs_writer_t fn, void *ctx);

/** mkdir -p: creates `dir` and its missing parents (mode 0777 before the umask). @return 0, or -1 with errno set. */
int ios_mkdirs(const char *dir);

#ifdef __cplusplus
}
#endif
#endif
