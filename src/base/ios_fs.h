/* iosim — files: the one atomic writer every output goes through (platforms, workloads, campaign files, run
 * outputs, traces written during a run), the whole-file reader every input goes through, and mkdir -p. */
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

/** A file written piece by piece (during a run) and published whole: an exclusive temporary file next to `path`
 * (PATH.tmpPID-K), renamed over `path` by ios_fs_commit or removed by ios_fs_discard. `f` is NULL when nothing is
 * open. ios_fs_write_atomic is built on it. */
typedef struct {
  FILE *f;         /**< the temporary file being written, or NULL */
  char path[4200]; /**< where it goes */
  char tmp[4248];  /**< the temporary file */
} ios_fs_staged_t;

/** Opens the temporary file of DIR/NAME (dir NULL: name is the path). @return IOS_OK, or IOS_EIO with
 * ios_diag_message() naming the path, `field` (the scenario field that chose the place, or NULL) and the fix. */
int ios_fs_stage(ios_fs_staged_t *s, const char *dir, const char *name, const char *field);

/** Closes the temporary file and renames it over its path; nothing when none is open. @return IOS_OK, or IOS_EIO
 * with ios_diag_message() naming the path (the temporary file removed). */
int ios_fs_commit(ios_fs_staged_t *s);

/** Closes and removes the temporary file, if any (a failed run leaves nothing behind). */
void ios_fs_discard(ios_fs_staged_t *s);

/** The path to show a user for `path`: its canonical form (no "..", no symbolic links) relative to the current
 * directory when it lies below it, else absolute; `path` itself when it cannot be resolved. Written to buf (n bytes).
 * @return buf. */
const char *ios_fs_display_path(const char *path, char *buf, size_t n);

/** Opens an input file for reading ("rb"); a directory is refused with errno EISDIR (fopen would accept it and the
 * first read would fail with a misleading error). @return NULL (errno set) on failure. */
FILE *ios_open_input(const char *path);

/** Reads a whole file (at most 256 MiB; also a pipe or a device) into a NUL-terminated buffer the caller frees.
 * @return NULL (errno set: EISDIR for a directory, EFBIG when too large) on failure. */
char *ios_read_file(const char *path, long *len_out);

/** mkdir -p: creates `dir` and its missing parents (mode 0777 before the umask). @return 0, or -1 with errno set. */
int ios_mkdirs(const char *dir);

#ifdef __cplusplus
}
#endif
#endif
