/* iosim — the return codes every layer shares, and their names. */
#ifndef IOS_ERRORS_H
#define IOS_ERRORS_H

#ifdef __cplusplus
extern "C" {
#endif

/** Return codes shared by the whole project (0 = success). */
enum {
  IOS_OK = 0,
  IOS_EINVAL = -1,   /**< bad input (a user error: exit code 2) */
  IOS_ENOMEM = -2,   /**< out of memory */
  IOS_EIO = -3,      /**< a file could not be read or written */
  IOS_EINTERNAL = -4 /**< a bug or an engine failure (exit code 1) */
};

/** Human-readable name of an IOS_E* code. */
const char *ios_strerror(int code);

#ifdef __cplusplus
}
#endif
#endif
